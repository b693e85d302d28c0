//! The stabilizer of a secret list: the elements of the group that map the
//! list onto itself.
//!
//! Invariant: every element found maps the list onto itself; the search
//! may stop early with a subset of the group (still correct, weaker).

use super::{position_permutations, Element, Stabilizer, UNSET};
use crate::model::code::{Code, Codebook};

/// Most search steps [`Stabilizer::of_list`] spends looking for elements.
const LIST_SEARCH_STEPS: usize = 1 << 20;
/// Most elements [`Stabilizer::of_list`] keeps.
const LIST_MAX_ELEMENTS: usize = 1440;

impl Stabilizer {
    /// The elements of the group that map `list` (sorted, distinct codes of
    /// `book`) onto itself: the symmetry of a game whose secrets are the
    /// list, whether the guesses are every code (invariant under the whole
    /// group) or the list. Symbols no listed code uses stay free (permuting
    /// them keeps the list, and no listed code contains them). Found by
    /// backtracking over symbol maps for each position permutation, a
    /// symbol only sent to one with the same count at each (permuted)
    /// position; if the search runs past 2^20 steps (`LIST_SEARCH_STEPS`) or
    /// 1,440 elements (`LIST_MAX_ELEMENTS`) it stops with the elements found,
    /// the identity first: any subset of the true group is still correct
    /// for the orbit test (each pruned guess has a smaller symmetric image,
    /// so the orbit's least code is kept), merely weaker.
    /// Under Wordle's rule and for a code list, only the identity
    /// ([`Stabilizer::root`]; `Rules::has_symmetry`).
    pub fn of_list(book: &Codebook, list: &[Code]) -> Stabilizer {
        let rules = book.rules();
        let (k, n) = (rules.positions(), rules.symbols());
        if !rules.has_symmetry() {
            return Stabilizer::identity(k, n);
        }
        if list.len() == book.len() {
            return Stabilizer::full(k, n);
        }
        let used = book.symbols_of(list);
        let order: Vec<u8> = (0..n as u8).filter(|&s| used & (1 << s) != 0).collect();
        let mut rank = [0usize; 64];
        for (j, &s) in order.iter().enumerate() {
            rank[s as usize] = j;
        }
        let key = |symbols: &[u8]| symbols.iter().fold(0u128, |m, &s| m << 6 | u128::from(s));
        let members: rustc_hash::FxHashSet<u128> =
            list.iter().map(|&c| key(book.symbols(c))).collect();
        // counts[s][i]: listed codes with symbol s at position i.
        let mut counts = vec![[0u32; 16]; n];
        // check[j]: the listed codes whose symbols are all mapped once
        // order[j] is.
        let mut check: Vec<Vec<Code>> = vec![Vec::new(); order.len()];
        for &c in list {
            let symbols = book.symbols(c);
            for (i, &s) in symbols.iter().enumerate() {
                counts[s as usize][i] += 1;
            }
            let last = symbols.iter().map(|&s| rank[s as usize]).max().unwrap_or(0);
            check[last].push(c);
        }
        struct Search<'a> {
            book: &'a Codebook,
            order: &'a [u8],
            counts: &'a [[u32; 16]],
            check: &'a [Vec<Code>],
            members: &'a rustc_hash::FxHashSet<u128>,
            steps: usize,
            found: Vec<Element>,
        }
        impl Search<'_> {
            fn full(&self) -> bool {
                self.steps >= LIST_SEARCH_STEPS || self.found.len() >= LIST_MAX_ELEMENTS
            }
            fn go(&mut self, j: usize, e: &mut Element) {
                if j == self.order.len() {
                    self.found.push(e.clone());
                    return;
                }
                let s = self.order[j] as usize;
                let k = e.sigma.len();
                for &t in self.order {
                    if self.full() {
                        return;
                    }
                    self.steps += 1;
                    if e.image & (1 << t) != 0
                        || (0..k).any(|i| {
                            self.counts[s][i] != self.counts[t as usize][e.sigma[i] as usize]
                        })
                    {
                        continue;
                    }
                    e.pi[s] = t;
                    let mut image = [0u8; 16];
                    let ok = self.check[j].iter().all(|&c| {
                        for (i, &a) in self.book.symbols(c).iter().enumerate() {
                            image[e.sigma[i] as usize] = e.pi[a as usize];
                        }
                        let code = image[..k]
                            .iter()
                            .fold(0u128, |m, &s| m << 6 | u128::from(s));
                        self.members.contains(&code)
                    });
                    if ok {
                        e.image |= 1 << t;
                        self.go(j + 1, e);
                        e.image &= !(1 << t);
                    }
                    e.pi[s] = UNSET;
                }
            }
        }
        let mut search = Search {
            book,
            order: &order,
            counts: &counts,
            check: &check,
            members: &members,
            steps: 0,
            found: Vec::new(),
        };
        for sigma in position_permutations(k) {
            if search.full() {
                break;
            }
            let mut e = Element {
                sigma,
                pi: [UNSET; 36],
                image: 0,
            };
            search.go(0, &mut e);
        }
        Stabilizer {
            elements: search.found,
            used,
            symbols: n,
            kept: std::sync::OnceLock::new(),
        }
    }
}
