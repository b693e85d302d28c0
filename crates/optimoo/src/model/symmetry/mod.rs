//! Symmetry: the game is unchanged by permuting symbols and positions.
//!
//! By answer rule ([`crate::model::AnswerRule`]): bulls-cows and black-peg
//! answers keep every symbol and position permutation; Wordle's get no
//! symmetry here (the identity only), nor do games of a code list (a
//! permutation may map a listed code out of the list): [`Stabilizer::root`] and
//! [`Stabilizer::of_list`] are the identity for it, and
//! [`crate::model::canon::canonical`] returns its sets unchanged.
//!
//! An element `(σ, π)` of the group acts on a code `c` by
//! `(σ, π)·c = c'` with `c'[σ(i)] = π(c[i])`; it keeps every feedback, so it
//! maps a candidate set and its whole subtree onto an isomorphic one.
//!
//! Files, one concept each: this one (the group, and the stabilizer of a
//! history: [`Stabilizer::full`], [`Stabilizer::fix`]), `filter` (the
//! orbit test: [`Stabilizer::is_orbit_min`], [`OrbitFilter`],
//! [`absent_min`]), `orbits` (every code's orbit, [`Stabilizer::orbits`])
//! and `list` (the stabilizer of a secret list, [`Stabilizer::of_list`]).
//!
//! Two uses, each with its own invariant:
//! - [`Stabilizer`]: the elements fixing every guess made so far (hence the
//!   candidate set). Two guesses in one orbit of it lead to isomorphic
//!   subtrees, so the search tries only the lexicographically smallest guess
//!   of each orbit ([`Stabilizer::is_orbit_min`]). Symbols no candidate
//!   contains are interchangeable too ([`absent_min`]). With no history every
//!   MOO guess is one orbit (only `0123` is tried); at the second guess of
//!   `moo:4x10` about 20 remain.
//! - [`crate::model::canon`]: an isomorphic image of a candidate set, the
//!   same for every set of its orbit, for memo keys.
//!
//! Position permutations are used for `k <= 6` (720 of them); above that
//! only the identity, which is still correct, merely weaker.

use std::sync::atomic::AtomicU64;

use crate::model::rules::Rules;

mod filter;
mod list;
mod orbits;

pub use filter::{absent_min, OrbitFilter};

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
    /// The group of an empty history under `rules`' answer rule: the whole
    /// group, or only the identity under Wordle's and for a code list.
    #[inline]
    pub fn root(rules: Rules) -> Stabilizer {
        if !rules.has_symmetry() {
            return Stabilizer::identity(rules.positions(), rules.symbols());
        }
        Stabilizer::full(rules.positions(), rules.symbols())
    }

    /// The whole group (empty history), for a rule that keeps it (callers
    /// that know the rules use [`Stabilizer::root`]).
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

    /// Number of explicit elements (position permutations with their maps
    /// of the used symbols).
    #[cfg(test)]
    pub fn elements(&self) -> usize {
        self.elements.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::code::Code;
    use crate::model::game::Game;

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
