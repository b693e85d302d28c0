//! The orbit test: whether a guess is the smallest code of its orbit under
//! a stabilizer (unused symbols relabelled freely), and the same for the
//! symbols no candidate contains.
//!
//! Invariant: of each orbit exactly its smallest code is kept, so pruning
//! the others loses no optimal guess.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{Stabilizer, UNSET};
use crate::model::code::{Code, Codebook};

impl Stabilizer {
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
