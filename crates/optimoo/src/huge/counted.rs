//! Candidate sets counted, not listed: the size of the set a history
//! leaves in a game without repeats, and its codes at chosen places of
//! the sorted list, without building the list.
//!
//! The phased strategy reads a large set only through its size, its two
//! ends and a few thousand codes spread evenly over it (module
//! [`super::phased`]), so the player need not list the million codes a
//! history off the strategy's path can leave on `moo:10x10` (listing is
//! most of such an answer's time, and its memory). The codes are counted
//! by the builder's own prefix rule ([`Shape::candidates`]), memoized: the
//! number of codes that extend a prefix depends only on the symbols it
//! uses (its length is their number) and on its bulls and common symbols
//! with each guess, never on their order.
//!
//! Invariants:
//! - [`Counted::len`] is the length of [`Shape::candidates`] of the same
//!   history, and [`Counted::select`] returns that list's codes at the
//!   places asked (tested against the list on random histories of small
//!   and large games);
//! - every prefix the count reached is in the memo (zero counts too), so
//!   a selection only reads it.

use rustc_hash::FxHashMap;

use crate::model::feedback::Feedback;

use super::code::Distinct;
use super::{Packed, Shape};

/// Most guesses a counted history may have: each guess's bulls and common
/// symbols take a byte of the memo's 128-bit key, beside 16 bits of
/// symbols.
pub const MAX_GUESSES: usize = 14;

/// Most prefixes the memo holds before the count gives up (the history
/// is then listed instead): 48 bytes each at most, about 200 MB.
pub const MAX_PREFIXES: usize = 1 << 22;

/// The candidates of a history of a game without repeats, counted.
#[derive(Debug)]
pub struct Counted {
    shape: Shape,
    history: Vec<(Packed, Feedback)>,
    guesses: Vec<Distinct>,
    /// Codes extending each prefix reached, by [`key`].
    memo: FxHashMap<u128, u64>,
    len: u64,
}

/// The memo's key of a prefix: its symbols, then its bulls and common
/// symbols with each guess (4 bits each: at most 15 positions).
fn key(used: u32, rows: &[[u8; 2]]) -> u128 {
    rows.iter().enumerate().fold(used as u128, |k, (j, r)| {
        k | ((r[0] as u128) << (16 + 8 * j)) | ((r[1] as u128) << (20 + 8 * j))
    })
}

impl Counted {
    /// Counts the candidates of `history`; `None` when the game has
    /// repeats, the history more than [`MAX_GUESSES`] guesses, or the
    /// count would hold more than [`MAX_PREFIXES`] prefixes (list the set
    /// with [`Shape::candidates`] then).
    pub fn new(shape: Shape, history: &[(Packed, Feedback)]) -> Option<Counted> {
        if shape.repeats() || history.len() > MAX_GUESSES {
            return None;
        }
        let mut counted = Counted {
            shape,
            history: history.to_vec(),
            guesses: shape.distinct_history(history),
            memo: FxHashMap::default(),
            len: 0,
        };
        let rows = [[0u8; 2]; MAX_GUESSES];
        counted.len = counted.count(0, 0, &rows[..history.len()])?;
        Some(counted)
    }

    /// The number of candidates.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no code gives the history's answers.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `code` is a candidate (it gives every answer of the
    /// history).
    pub fn contains(&self, code: Packed) -> bool {
        self.history
            .iter()
            .all(|&(g, f)| self.shape.feedback(code, g) == f)
    }

    /// The candidates at `places` of their sorted list (`places` strictly
    /// increasing, each below [`Counted::len`]).
    pub fn select(&self, places: &[u64]) -> Vec<Packed> {
        debug_assert!(places.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(places.last().is_none_or(|&p| p < self.len));
        let mut out = Vec::with_capacity(places.len());
        if !places.is_empty() {
            let rows = [[0u8; 2]; MAX_GUESSES];
            let mut at = 0;
            self.select_in(
                0,
                0,
                0,
                &rows[..self.guesses.len()],
                0,
                places,
                &mut at,
                &mut out,
            );
        }
        out
    }

    /// The symbols position `i` may take after the prefix `used`, the
    /// next prefix's rows for symbol `s` written in `next`: whether the
    /// prefix extended by `s` is kept (the builder's rule).
    fn advance(&self, i: usize, used: u32, s: u32, rows: &[[u8; 2]], next: &mut [[u8; 2]]) -> bool {
        let all = (1u32 << self.shape.symbols()) - 1;
        let left = (self.shape.positions() - i - 1) as u8;
        let taken = used | 1 << s;
        for ((g, &row), slot) in self.guesses.iter().zip(rows).zip(next.iter_mut()) {
            match g.advance(i, s, taken, all, left, row) {
                Some(r) => *slot = r,
                None => return false,
            }
        }
        true
    }

    /// The codes extending the prefix of `i` positions using `used` with
    /// `rows`; `None` when the memo would pass [`MAX_PREFIXES`].
    fn count(&mut self, i: usize, used: u32, rows: &[[u8; 2]]) -> Option<u64> {
        let k = key(used, rows);
        if let Some(&c) = self.memo.get(&k) {
            return Some(c);
        }
        if self.memo.len() >= MAX_PREFIXES {
            return None;
        }
        let last = i + 1 == self.shape.positions();
        let mut free = ((1u32 << self.shape.symbols()) - 1) & !used;
        let mut next = [[0u8; 2]; MAX_GUESSES];
        let next = &mut next[..rows.len()];
        let mut total = 0;
        while free != 0 {
            let s = free.trailing_zeros();
            free &= free - 1;
            if self.advance(i, used, s, rows, next) {
                total += if last {
                    1
                } else {
                    self.count(i + 1, used | 1 << s, next)?
                };
            }
        }
        self.memo.insert(k, total);
        Some(total)
    }

    /// Pushes the codes at `places[*at..]` that extend the prefix `pos`
    /// (`i` positions, symbols `used`, `rows`), whose first code is at
    /// place `base`, advancing `at`.
    #[allow(clippy::too_many_arguments)]
    fn select_in(
        &self,
        i: usize,
        used: u32,
        pos: u64,
        rows: &[[u8; 2]],
        mut base: u64,
        places: &[u64],
        at: &mut usize,
        out: &mut Vec<Packed>,
    ) {
        let left = self.shape.positions() - i - 1;
        let mut free = ((1u32 << self.shape.symbols()) - 1) & !used;
        let mut next = [[0u8; 2]; MAX_GUESSES];
        let next = &mut next[..rows.len()];
        while free != 0 && *at < places.len() {
            let s = free.trailing_zeros();
            free &= free - 1;
            if !self.advance(i, used, s, rows, next) {
                continue;
            }
            let taken = used | 1 << s;
            let count = if left == 0 {
                1
            } else {
                // Every prefix the count kept is in the memo.
                self.memo[&key(taken, next)]
            };
            if places[*at] < base + count {
                let pos = pos | (s as u64) << (4 * left);
                if left == 0 {
                    out.push(Packed {
                        pos,
                        therm: [taken as u64, 0],
                    });
                    *at += 1;
                } else {
                    self.select_in(i + 1, taken, pos, next, base, places, at, out);
                }
            }
            base += count;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random histories (random guesses answered by a random secret, 0 to
    /// 4 moves) of small and large games: the count is the list's length,
    /// and every place (or every step-th, on large sets) selects the
    /// list's code; membership agrees.
    #[test]
    fn counts_and_selections_are_the_list() {
        let mut rng = SplitMix64::new(7);
        for (name, rounds) in [
            ("moo:1x1", 2),
            ("moo:2x2", 5),
            ("moo:3x5", 20),
            ("moo:4x10", 20),
            ("moo:5x6", 20),
            ("moo:2x16", 20),
            ("moo:3x16", 10),
            ("moo:6x6", 10),
            ("moo:8x10", 6),
            ("moo:10x10", 4),
        ] {
            let shape: Shape = name.parse().unwrap();
            let count = shape.code_count() as u64;
            for round in 0..rounds {
                let secret = shape.unrank(rng.next_u64() % count);
                let history: Vec<(Packed, Feedback)> = (0..round % 5)
                    .map(|_| {
                        let g = shape.unrank(rng.next_u64() % count);
                        (g, shape.feedback(secret, g))
                    })
                    .collect();
                let list = shape.candidates(&history);
                let counted = Counted::new(shape, &history).unwrap();
                assert_eq!(counted.len(), list.len() as u64, "{name} {history:?}");
                let step = list.len().div_ceil(5000).max(1);
                let places: Vec<u64> = (0..list.len() as u64).step_by(step).collect();
                let picked = counted.select(&places);
                assert_eq!(picked.len(), places.len(), "{name}");
                for (&p, &c) in places.iter().zip(&picked) {
                    assert_eq!(c, list[p as usize], "{name} place {p}");
                }
                if let Some(&last) = list.last() {
                    assert_eq!(counted.select(&[list.len() as u64 - 1]), vec![last]);
                }
                for _ in 0..50 {
                    let c = shape.unrank(rng.next_u64() % count);
                    assert_eq!(counted.contains(c), list.binary_search(&c).is_ok());
                }
            }
        }
    }

    /// Games with repeats and histories too long are not counted.
    #[test]
    fn repeats_and_long_histories_are_listed() {
        let mm: Shape = "mm:4x6".parse().unwrap();
        assert!(Counted::new(mm, &[]).is_none());
        let moo: Shape = "moo:4x10".parse().unwrap();
        let g = moo.unrank(0);
        let f = moo.feedback(moo.unrank(1), g);
        assert!(Counted::new(moo, &vec![(g, f); MAX_GUESSES + 1]).is_none());
        assert!(Counted::new(moo, &vec![(g, f); MAX_GUESSES]).is_some());
    }
}
