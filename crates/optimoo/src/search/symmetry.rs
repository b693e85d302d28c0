//! Symmetry: the game is unchanged by permuting symbols and positions.
//!
//! An element `(σ, π)` of the group acts on a code `c` by
//! `(σ, π)·c = c'` with `c'[σ(i)] = π(c[i])`; it keeps every feedback, so it
//! maps a candidate set and its whole subtree onto an isomorphic one.
//!
//! Two uses, each with its own invariant:
//! - [`Stabilizer`]: the elements fixing every guess made so far (hence the
//!   candidate set). Two guesses in one orbit of it lead to isomorphic
//!   subtrees, so the search tries only the lexicographically smallest guess
//!   of each orbit ([`Stabilizer::is_orbit_min`]). Symbols no candidate
//!   contains are interchangeable too ([`absent_min`]). With no history every
//!   MOO guess is one orbit (only `0123` is tried); at the second guess of
//!   `moo:4x10` about 20 remain.
//! - [`crate::search::canon`]: an isomorphic image of a candidate set, the
//!   same for every set of its orbit, for memo keys.
//!
//! Position permutations are used for `k <= 6` (720 of them); above that
//! only the identity, which is still correct, merely weaker.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::model::code::{Code, Codebook};

/// Most positions for which all position permutations are used.
pub const MAX_PERMUTED_POSITIONS: usize = 6;
const UNSET: u8 = u8::MAX;

/// All permutations of `0..k` (only the identity when `k` is too large).
pub fn position_permutations(k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut current: Vec<u8> = (0..k as u8).collect();
    if k > MAX_PERMUTED_POSITIONS {
        return vec![current];
    }
    fn heap(n: usize, a: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if n <= 1 {
            out.push(a.clone());
            return;
        }
        for i in 0..n - 1 {
            heap(n - 1, a, out);
            if n.is_multiple_of(2) {
                a.swap(i, n - 1);
            } else {
                a.swap(0, n - 1);
            }
        }
        heap(n - 1, a, out);
    }
    heap(k, &mut current, &mut out);
    out.sort();
    out
}

/// One element of a stabilizer: a position permutation and the symbol map
/// it forces on the symbols used so far (`UNSET` elsewhere).
#[derive(Debug, Clone)]
struct Element {
    sigma: Vec<u8>,
    pi: [u8; 36],
    /// Bit set of the images of `pi`.
    image: u64,
}

/// The elements of the symmetry group that fix every guess of a history,
/// described as (position permutation, forced map on used symbols); symbols
/// never used are free to permute among themselves.
#[derive(Debug)]
pub struct Stabilizer {
    elements: Vec<Element>,
    /// Symbols used by some guess of the history.
    used: u64,
    symbols: usize,
    /// Orbit-minimum answers cached per code ([`Stabilizer::keeps`]): two
    /// bits a code (asked, kept), filled on demand by any thread.
    kept: std::sync::OnceLock<Vec<AtomicU64>>,
}

impl Clone for Stabilizer {
    /// A copy of the group; its cache starts empty.
    fn clone(&self) -> Stabilizer {
        Stabilizer {
            elements: self.elements.clone(),
            used: self.used,
            symbols: self.symbols,
            kept: std::sync::OnceLock::new(),
        }
    }
}

impl Stabilizer {
    /// The whole group (empty history).
    pub fn full(k: usize, symbols: usize) -> Stabilizer {
        let elements = position_permutations(k)
            .into_iter()
            .map(|sigma| Element {
                sigma,
                pi: [UNSET; 36],
                image: 0,
            })
            .collect();
        Stabilizer {
            elements,
            used: 0,
            symbols,
            kept: std::sync::OnceLock::new(),
        }
    }

    /// Only the identity: no position permutation, no free symbol. Used
    /// where the history is unknown (a candidate set given alone).
    pub fn identity(k: usize, symbols: usize) -> Stabilizer {
        let mut pi = [UNSET; 36];
        for (s, p) in pi.iter_mut().enumerate().take(symbols) {
            *p = s as u8;
        }
        Stabilizer {
            elements: vec![Element {
                sigma: (0..k as u8).collect(),
                pi,
                image: (1u64 << symbols) - 1,
            }],
            used: (1u64 << symbols) - 1,
            symbols,
            kept: std::sync::OnceLock::new(),
        }
    }

    /// Whether the orbit test can reject anything: more than the identity
    /// on positions, or at least two never-used symbols to relabel.
    pub fn is_trivial(&self) -> bool {
        let unused = !self.used & ((1u64 << self.symbols) - 1);
        self.elements.len() <= 1 && unused.count_ones() < 2
    }

    /// The elements that also fix `guess`.
    pub fn fix(&self, guess: &[u8]) -> Stabilizer {
        let mut elements = Vec::with_capacity(self.elements.len());
        'next: for e in &self.elements {
            let mut e = e.clone();
            for (i, &a) in guess.iter().enumerate() {
                let b = guess[e.sigma[i] as usize];
                if e.pi[a as usize] == UNSET {
                    if e.image & (1 << b) != 0 {
                        continue 'next;
                    }
                    e.pi[a as usize] = b;
                    e.image |= 1 << b;
                } else if e.pi[a as usize] != b {
                    continue 'next;
                }
            }
            elements.push(e);
        }
        let used = guess.iter().fold(self.used, |m, &s| m | 1 << s);
        Stabilizer {
            elements,
            used,
            symbols: self.symbols,
            kept: std::sync::OnceLock::new(),
        }
    }

    /// The orbit test of this group for the codes of `book`, answers
    /// remembered per code (a node asks it of every guess many times);
    /// `None` when the group is trivial (every code is kept).
    pub fn orbit_filter<'a>(&'a self, book: &'a Codebook) -> Option<OrbitFilter<'a>> {
        if self.is_trivial() {
            return None;
        }
        let cache = self.kept.get_or_init(|| {
            (0..book.len().div_ceil(32))
                .map(|_| AtomicU64::new(0))
                .collect()
        });
        Some(OrbitFilter {
            stab: self,
            cache,
            book,
        })
    }

    /// Whether `guess` is the smallest code of its orbit under this group
    /// (unused symbols relabelled freely).
    pub fn is_orbit_min(&self, guess: &[u8]) -> bool {
        let k = guess.len();
        let unused = !self.used & ((1u64 << self.symbols) - 1);
        let mut image = [0u8; 16];
        for e in &self.elements {
            // Fresh labels for unused symbols, in order of first appearance.
            let mut fresh_map = [UNSET; 36];
            let mut free = unused;
            for i in 0..k {
                let s = guess[i];
                let t = if e.pi[s as usize] != UNSET {
                    e.pi[s as usize]
                } else {
                    UNSET
                };
                image[e.sigma[i] as usize] = if t != UNSET { t } else { UNSET - 1 - s };
            }
            // Relabel the placeholders (UNSET - 1 - s) left to right.
            for slot in image.iter_mut().take(k) {
                if *slot >= UNSET - 36 {
                    let s = (UNSET - 1 - *slot) as usize;
                    if fresh_map[s] == UNSET {
                        let label = free.trailing_zeros() as u8;
                        free &= free - 1;
                        fresh_map[s] = label;
                    }
                    *slot = fresh_map[s];
                }
            }
            // image < guess, lexicographically (a loop: no memcmp call).
            for (a, b) in image[..k].iter().zip(guess) {
                if a != b {
                    if a < b {
                        return false;
                    }
                    break;
                }
            }
        }
        true
    }
}

impl Stabilizer {
    /// Every code's orbit under the group generated by this stabilizer and
    /// the permutations of the symbols in `absent` (those no candidate
    /// contains): for each code, the smallest code of its orbit. Every
    /// element of that group fixes the candidate set, so the codes of one
    /// orbit are equally good guesses. (A union-find over the group's
    /// generators; the codes of `book` are closed under the group.)
    pub fn orbits(&self, book: &Codebook, absent: u64) -> Vec<Code> {
        let n = book.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        let all = (1u64 << self.symbols) - 1;
        let unused = !self.used & all;
        // Generators: each element (unused symbols fixed), and the swaps of
        // consecutive unused symbols and of consecutive absent ones.
        let mut gens: Vec<(Vec<u8>, [u8; 36])> = self
            .elements
            .iter()
            .map(|e| {
                let mut pi = e.pi;
                for (s, p) in pi.iter_mut().enumerate().take(self.symbols) {
                    if *p == UNSET {
                        *p = s as u8;
                    }
                }
                (e.sigma.clone(), pi)
            })
            .collect();
        let identity: Vec<u8> = (0..book.rules().positions() as u8).collect();
        for set in [unused, absent & all] {
            let members: Vec<u8> = (0..self.symbols as u8)
                .filter(|&s| set & (1 << s) != 0)
                .collect();
            for w in members.windows(2) {
                let mut pi = [UNSET; 36];
                for (s, p) in pi.iter_mut().enumerate().take(self.symbols) {
                    *p = s as u8;
                }
                pi.swap(w[0] as usize, w[1] as usize);
                gens.push((identity.clone(), pi));
            }
        }
        let mut image = vec![0u8; identity.len()];
        for c in book.all() {
            let symbols = book.symbols(c);
            for (sigma, pi) in &gens {
                for (i, &s) in symbols.iter().enumerate() {
                    image[sigma[i] as usize] = pi[s as usize];
                }
                let Some(d) = book.find(&image) else { continue };
                let (a, b) = (root(&mut parent, c.0 as u32), root(&mut parent, d.0 as u32));
                // The smaller code becomes the root: roots are orbit minima.
                parent[a.max(b) as usize] = a.min(b);
            }
        }
        (0..n as u32)
            .map(|x| Code(root(&mut parent, x) as u16))
            .collect()
    }
}

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
    pub fn of_list(book: &Codebook, list: &[Code]) -> Stabilizer {
        let rules = book.rules();
        let (k, n) = (rules.positions(), rules.symbols());
        if list.len() == book.len() {
            return Stabilizer::full(k, n);
        }
        let used = symbols_of(book, list);
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

    /// Number of explicit elements (position permutations with their maps
    /// of the used symbols).
    pub fn elements(&self) -> usize {
        self.elements.len()
    }
}

/// [`Stabilizer::is_orbit_min`] for the codes of a codebook, each answer
/// computed once (two bits a code: asked, kept; any thread may fill them,
/// they all compute the same answer).
pub struct OrbitFilter<'a> {
    stab: &'a Stabilizer,
    cache: &'a [AtomicU64],
    book: &'a Codebook,
}

impl OrbitFilter<'_> {
    /// Whether `code` is the smallest code of its orbit.
    #[inline]
    pub fn keeps(&self, code: Code) -> bool {
        let (word, shift) = (code.index() / 32, 2 * (code.index() % 32));
        let bits = self.cache[word].load(Ordering::Relaxed) >> shift;
        if bits & 1 != 0 {
            return bits & 2 != 0;
        }
        let kept = self.stab.is_orbit_min(self.book.symbols(code));
        self.cache[word].fetch_or((1 | u64::from(kept) << 1) << shift, Ordering::Relaxed);
        kept
    }
}

/// Whether `guess` uses the symbols in `absent` (those no candidate
/// contains, hence interchangeable) as the smallest of them, in increasing
/// order of first appearance: the smallest code of its orbit under
/// permutations of `absent`.
pub fn absent_min(guess: &[u8], absent: u64) -> bool {
    let mut free = absent;
    let mut seen = 0u64;
    for &s in guess {
        if absent & (1 << s) != 0 && seen & (1 << s) == 0 {
            let smallest = free.trailing_zeros() as u8;
            if s != smallest {
                return false;
            }
            free &= free - 1;
            seen |= 1 << s;
        }
    }
    true
}

/// Bit set of the symbols used by some code of `set`.
pub fn symbols_of(book: &Codebook, set: &[Code]) -> u64 {
    set.iter().fold(0, |m, &c| m | book.mask(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;

    #[test]
    fn moo_root_has_one_orbit_and_second_guess_about_twenty() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let root = Stabilizer::full(4, 10);
        let reps: Vec<Code> = book
            .all()
            .filter(|&g| root.is_orbit_min(book.symbols(g)))
            .collect();
        assert_eq!(reps, vec![Code(0)]);
        let after = root.fix(book.symbols(Code(0)));
        let second = book
            .all()
            .filter(|&g| after.is_orbit_min(book.symbols(g)))
            .count();
        // Orbits of the stabilizer of 0123 (S4 acting diagonally, S6 on 4-9).
        assert_eq!(second, 20);
    }

    #[test]
    fn mastermind_first_guesses_are_five() {
        let game = Game::new(Rules::mm(4, 6).unwrap());
        let book = game.codes();
        let root = Stabilizer::full(4, 6);
        let reps: Vec<String> = book
            .all()
            .filter(|&g| root.is_orbit_min(book.symbols(g)))
            .map(|g| book.format(g))
            .collect();
        assert_eq!(reps, ["0000", "0001", "0011", "0012", "0123"]);
    }

    #[test]
    fn absent_symbols_in_order() {
        let absent = 0b1111_0000u64; // 4..7 absent
        assert!(absent_min(&[0, 4, 5, 1], absent));
        assert!(!absent_min(&[0, 5, 4, 1], absent));
        assert!(!absent_min(&[0, 5, 1, 2], absent));
        assert!(absent_min(&[0, 1, 2, 3], absent));
    }

    /// The orbits' minima are the codes the orbit test keeps, and an orbit
    /// holds the images of its codes (checked on the codes themselves: a
    /// code and its mirror image are in one orbit at the root).
    #[test]
    fn orbits_agree_with_the_orbit_test() {
        for (rules, history) in [
            ("moo:4x10", vec![]),
            ("moo:4x10", vec!["0123"]),
            ("mm:4x6", vec!["0011"]),
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let book = game.codes();
            let mut stab = Stabilizer::full(4, book.rules().symbols());
            for g in &history {
                stab = stab.fix(book.symbols(book.parse(g).unwrap()));
            }
            let orbits = stab.orbits(book, 0);
            for c in book.all() {
                let min = orbits[c.index()];
                assert!(min <= c);
                assert_eq!(orbits[min.index()], min);
                assert_eq!(
                    min == c,
                    stab.is_orbit_min(book.symbols(c)),
                    "{rules} {}",
                    book.format(c)
                );
            }
            let reversed: Vec<u8> = book.symbols(Code(7)).iter().rev().copied().collect();
            if history.is_empty() {
                assert_eq!(orbits[book.find(&reversed).unwrap().index()], orbits[7]);
            }
        }
    }
}
