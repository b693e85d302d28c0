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
//! - [`canonical`]: an isomorphic image of a candidate set, the same for
//!   every set of its orbit when the exact computation finishes within its
//!   budget. Memo keys use it; any isomorphic image is a *correct* key (it has
//!   the same value), a canonical one merely makes more keys meet.
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
            if n % 2 == 0 {
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

/// An invariant class for each code of `set`: codes are ranked by their
/// histogram of answers against the whole set (which no symmetry changes),
/// rank 0 for the smallest histogram.
/// `feedback(a, b)` gives the answer index of guess `a` against secret `b`.
pub fn invariants(feedback: impl Fn(Code, Code) -> usize, set: &[Code], slots: usize) -> Vec<u32> {
    let hists: Vec<Vec<u16>> = set
        .iter()
        .map(|&c| {
            let mut h = vec![0u16; slots];
            for &s in set {
                h[feedback(c, s)] += 1;
            }
            h
        })
        .collect();
    let mut sorted: Vec<&Vec<u16>> = hists.iter().collect();
    sorted.sort();
    sorted.dedup();
    hists
        .iter()
        .map(|h| sorted.binary_search(&h).expect("listed") as u32)
        .collect()
}

/// Budget of elementary steps for one canonical form; past it the set itself
/// is returned (still a correct, merely non-canonical, key).
pub const CANON_BUDGET: usize = 200_000;

/// An isomorphic image of `set` (sorted code indices): the smallest sorted
/// image under every position permutation and symbol relabelling, when
/// computed within [`CANON_BUDGET`] steps (else `set` itself).
///
/// Method: branch and bound over the sorted image built element by element.
/// Labels given so far are always `0..m`; the smallest image a code can still
/// have labels its unlabelled symbols `m, m+1, …` in order of appearance, so
/// the next element is the smallest such image over the codes left; ties
/// branch. A branch stops as soon as its prefix exceeds the best list found.
///
/// `classes[i]` is an invariant of `set[i]` under the group (its rank by
/// [`invariants`]); codes are taken class by class, which cuts the branching:
/// the canonical list is sorted by (class, image).
pub fn canonical(book: &Codebook, set: &[Code], classes: &[u32], perms: &[Vec<u8>]) -> Vec<u16> {
    let k = book.rules().positions();
    if set.len() <= 1 || k > 10 {
        return set.iter().map(|c| c.0).collect();
    }
    debug_assert_eq!(classes.len(), set.len());
    let mut canon = Canon {
        k,
        classes: classes.to_vec(),
        codes: set.iter().map(|&c| book.symbols(c).to_vec()).collect(),
        best: Vec::new(),
        steps: 0,
        prefix: Vec::with_capacity(set.len()),
        taken: vec![false; set.len()],
    };
    for sigma in perms {
        // Apply σ to positions once: c'[σ(i)] = c[i].
        let permuted: Vec<Vec<u8>> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let mut out = vec![0u8; k];
                for i in 0..k {
                    out[sigma[i] as usize] = s[i];
                }
                out
            })
            .collect();
        canon.codes = permuted;
        let mut labels = [UNSET; 36];
        canon.step(&mut labels, 0);
        if canon.steps > CANON_BUDGET {
            return set.iter().map(|c| c.0).collect();
        }
    }
    let mut out: Vec<u16> = canon
        .best
        .iter()
        .map(|&packed| {
            let symbols: Vec<u8> = (0..k)
                .map(|i| ((packed >> (6 * (k - 1 - i))) & 63) as u8)
                .collect();
            book.find(&symbols)
                .expect("a relabelled legal code is legal")
                .0
        })
        .collect();
    out.sort_unstable();
    out
}

struct Canon {
    k: usize,
    classes: Vec<u32>,
    codes: Vec<Vec<u8>>,
    best: Vec<u64>,
    steps: usize,
    prefix: Vec<u64>,
    taken: Vec<bool>,
}

impl Canon {
    /// Smallest image of `code` given the labels so far (`next` = first free
    /// label); packed 6 bits a position, first position highest.
    fn image(&self, code: &[u8], labels: &[u8; 36], next: u8) -> u64 {
        let mut fresh = [UNSET; 36];
        let mut next = next;
        let mut packed = 0u64;
        for &s in code {
            let l = if labels[s as usize] != UNSET {
                labels[s as usize]
            } else {
                if fresh[s as usize] == UNSET {
                    fresh[s as usize] = next;
                    next += 1;
                }
                fresh[s as usize]
            };
            packed = packed << 6 | l as u64;
        }
        packed
    }

    fn step(&mut self, labels: &mut [u8; 36], next: u8) {
        if self.steps > CANON_BUDGET {
            return;
        }
        let j = self.prefix.len();
        if j == self.codes.len() {
            if self.best.is_empty() || self.prefix < self.best {
                self.best = self.prefix.clone();
            }
            return;
        }
        self.steps += self.codes.len();
        // Only codes of the smallest class left may come next.
        let class = (0..self.codes.len())
            .filter(|&i| !self.taken[i])
            .map(|i| self.classes[i])
            .min()
            .unwrap_or(0);
        let mut min = u64::MAX;
        for (i, code) in self.codes.iter().enumerate() {
            if !self.taken[i] && self.classes[i] == class {
                min = min.min(self.image(code, labels, next));
            }
        }
        if !self.best.is_empty() {
            match self.prefix[..].cmp(&self.best[..j]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal if min > self.best[j] => return,
                _ => {}
            }
        }
        for i in 0..self.codes.len() {
            if self.taken[i]
                || self.classes[i] != class
                || self.image(&self.codes[i], labels, next) != min
            {
                continue;
            }
            // Label this code's new symbols in order of appearance.
            let saved = *labels;
            let mut n = next;
            for p in 0..self.k {
                let s = self.codes[i][p] as usize;
                if labels[s] == UNSET {
                    labels[s] = n;
                    n += 1;
                }
            }
            self.taken[i] = true;
            self.prefix.push(min);
            self.step(labels, n);
            self.prefix.pop();
            self.taken[i] = false;
            *labels = saved;
        }
    }
}

#[cfg(test)]
fn inv(game: &crate::model::game::Game, set: &[Code]) -> Vec<u32> {
    invariants(
        |a, b| game.feedback(b, a).index(),
        set,
        game.rules().feedback_slots(),
    )
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

    #[test]
    fn canonical_forms_agree_on_isomorphic_sets() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let perms = position_permutations(4);
        let set: Vec<Code> = ["0123", "1045", "2367", "4518", "9021"]
            .iter()
            .map(|t| book.parse(t).unwrap())
            .collect();
        // Relabel symbols 0→7, 1→3, 2→9, ... and swap positions 0 and 2.
        let pi = [7u8, 3, 9, 0, 1, 2, 4, 5, 6, 8];
        let mut image: Vec<Code> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let t = [
                    pi[s[2] as usize],
                    pi[s[1] as usize],
                    pi[s[0] as usize],
                    pi[s[3] as usize],
                ];
                book.find(&t).unwrap()
            })
            .collect();
        image.sort();
        assert_ne!(set, image);
        let a = canonical(book, &set, &inv(&game, &set), &perms);
        let b = canonical(book, &image, &inv(&game, &image), &perms);
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        // The canonical form is itself an image of the set.
        let other: Vec<Code> = ["0123", "0124", "0125", "0126", "0127"]
            .iter()
            .map(|t| book.parse(t).unwrap())
            .collect();
        assert_ne!(canonical(book, &other, &inv(&game, &other), &perms), a);
    }
}

#[cfg(test)]
mod canon_tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;

    fn apply(book: &Codebook, set: &[Code], sigma: &[u8], pi: &[u8]) -> Vec<u16> {
        let k = sigma.len();
        let mut out: Vec<u16> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let mut t = vec![0u8; k];
                for i in 0..k {
                    t[sigma[i] as usize] = pi[s[i] as usize];
                }
                book.find(&t).unwrap().0
            })
            .collect();
        out.sort();
        out
    }

    fn all_perms(n: usize) -> Vec<Vec<u8>> {
        let mut v = position_permutations(n.min(6));
        if n > 6 {
            v.truncate(1);
        }
        v
    }

    #[test]
    fn canonical_is_an_image_and_invariant() {
        for rules in ["mm:4x6", "moo:4x6", "mm:3x4"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let book = game.codes();
            let k = game.positions();
            let n = game.rules().symbols();
            let perms = position_permutations(k);
            let sym_perms = all_perms(n);
            let mut seed = 12345u64;
            let mut rnd = |m: usize| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % m as u64) as usize
            };
            for trial in 0..200 {
                let size = 2 + rnd(12);
                let mut set: Vec<Code> = (0..size).map(|_| Code(rnd(book.len()) as u16)).collect();
                set.sort();
                set.dedup();
                let c = canonical(book, &set, &inv(&game, &set), &perms);
                // An image of the set under some group element.
                let found = perms
                    .iter()
                    .any(|s| sym_perms.iter().any(|p| apply(book, &set, s, p) == c));
                assert!(
                    found,
                    "{rules} trial {trial}: canonical form is not an image of {set:?}"
                );
                // The same for a random image of the set.
                let sigma = &perms[rnd(perms.len())];
                let pi = &sym_perms[rnd(sym_perms.len())];
                let img: Vec<Code> = apply(book, &set, sigma, pi).into_iter().map(Code).collect();
                assert_eq!(
                    canonical(book, &img, &inv(&game, &img), &perms),
                    c,
                    "{rules} trial {trial}"
                );
            }
        }
    }
}
