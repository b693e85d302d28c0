//! Candidate sets counted, not listed: the size of the set a history
//! leaves, and its codes at chosen places of the sorted list, without
//! building the list.
//!
//! The phased strategy reads a large set only through its size, its two
//! ends and a few thousand codes spread evenly over it (module
//! `heuristic::phased`), so the player need not list the million codes a
//! history off the strategy's path can leave on `moo:10x10` (listing is
//! most of such an answer's time, and its memory). The codes are counted
//! by the builder's own prefix rule ([`Shape::candidates`]), memoized: the
//! number of codes that extend a prefix depends only on its length, on
//! its bulls and common symbols with each guess, and on which symbols it
//! may still take with what effect, never on their order. Without
//! repeats that is the set of symbols it uses; with repeats, the copies of
//! each symbol it has, counted up to the most any guess has (a copy more
//! adds no common symbol with any guess).
//!
//! Invariants:
//! - [`Counted::len`] is the length of [`Shape::candidates`] of the same
//!   history, and [`Counted::select`] returns that list's codes at the
//!   places asked (tested against the list on random histories of small
//!   and large games, with and without repeats);
//! - every prefix the count reached is in the memo (zero counts too), so
//!   a selection only reads it;
//! - [`split`] is the listed partition's class sizes, and [`len_at_most`]
//!   is at least the list's length (tested against the list).

use rustc_hash::FxHashMap;

use crate::model::feedback::Feedback;

use super::packed::{advance_repeats, Distinct, Guessed};
use super::{Packed, Shape};

/// Most guesses a counted history may have: each guess's bulls and common
/// symbols take a byte of the memo's 128-bit key, beside 16 bits of
/// symbols without repeats (68 bits of copies and length with them).
pub const MAX_GUESSES: usize = 14;

/// [`MAX_GUESSES`] with repeats.
pub const MAX_GUESSES_REPEATS: usize = 7;

/// Most prefixes the memo holds before the count gives up (the history
/// is then listed instead): 48 bytes each at most, about 200 MB.
pub const MAX_PREFIXES: usize = 1 << 22;

/// The size of the candidate list of `history` ([`Shape::candidates`]),
/// or a bound above it, without listing it: the count of the history, or
/// when it cannot be counted ([`Counted::new`] is `None`) the count of its
/// first [`MAX_GUESSES`] moves ([`MAX_GUESSES_REPEATS`] with repeats),
/// else every code. The memory it takes is the count's (at most
/// [`MAX_PREFIXES`] prefixes); a caller states the list's memory from it
/// before building the list.
pub fn len_at_most(shape: Shape, history: &[(Packed, Feedback)]) -> u64 {
    let max = if shape.repeats() {
        MAX_GUESSES_REPEATS
    } else {
        MAX_GUESSES
    };
    Counted::new(shape, &history[..history.len().min(max)])
        .map_or(shape.code_count() as u64, |c| c.len())
}

/// How `guess` splits the candidates of `history`, counted without
/// listing them: the size of each class by answer index
/// ([`Feedback::index`], [`Shape::feedback_slots`] entries); `None` when a
/// class cannot be counted (see [`Counted::new`]: one guess more than the
/// history).
pub fn split(shape: Shape, history: &[(Packed, Feedback)], guess: Packed) -> Option<Vec<u64>> {
    let k = shape.positions();
    let mut moves = history.to_vec();
    moves.push((guess, Feedback::win(k)));
    let mut counts = vec![0; shape.feedback_slots()];
    for (f, count) in counts.iter_mut().enumerate() {
        let f = Feedback(f as u8);
        if f.bulls(k) + f.cows(k) > k {
            continue;
        }
        *moves.last_mut().expect("the guess") = (guess, f);
        *count = Counted::new(shape, &moves)?.len();
    }
    Some(counts)
}

/// The guesses as the builder reads them.
#[derive(Debug)]
enum Rule {
    /// Without repeats.
    Distinct(Vec<Distinct>),
    /// With repeats, and the most copies of each symbol any guess has.
    Repeats(Vec<Guessed>, [u8; 16]),
}

/// A prefix of a code: its length, its symbols, the copies of each (with
/// repeats), and its code so far.
#[derive(Debug, Clone, Copy)]
struct Prefix {
    i: usize,
    used: u32,
    seen: [u8; 16],
    code: Packed,
}

/// The empty prefix.
const EMPTY: Prefix = Prefix {
    i: 0,
    used: 0,
    seen: [0; 16],
    code: Packed {
        pos: 0,
        therm: [0, 0],
    },
};

/// The candidates of a history, counted.
#[derive(Debug)]
pub struct Counted {
    shape: Shape,
    history: Vec<(Packed, Feedback)>,
    rule: Rule,
    /// Codes extending each prefix reached, by [`Counted::key`].
    memo: FxHashMap<u128, u64>,
    len: u64,
}

impl Counted {
    /// Counts the candidates of `history`; `None` when the history has more
    /// than [`MAX_GUESSES`] guesses ([`MAX_GUESSES_REPEATS`] with
    /// repeats), or the count would hold more than [`MAX_PREFIXES`]
    /// prefixes (list the set with [`Shape::candidates`] then).
    pub fn new(shape: Shape, history: &[(Packed, Feedback)]) -> Option<Counted> {
        let rule = if shape.repeats() {
            if history.len() > MAX_GUESSES_REPEATS {
                return None;
            }
            let guesses = shape.guessed(history);
            let mut caps = [0u8; 16];
            for (_, counts, ..) in &guesses {
                for (cap, &c) in caps.iter_mut().zip(counts) {
                    *cap = (*cap).max(c);
                }
            }
            Rule::Repeats(guesses, caps)
        } else {
            if history.len() > MAX_GUESSES {
                return None;
            }
            Rule::Distinct(shape.distinct_history(history))
        };
        let mut counted = Counted {
            shape,
            history: history.to_vec(),
            rule,
            memo: FxHashMap::default(),
            len: 0,
        };
        let rows = [[0u8; 2]; MAX_GUESSES];
        counted.len = counted.count(&EMPTY, &rows[..history.len()])?;
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
            let rows = &rows[..self.history.len()];
            self.select_in(&EMPTY, rows, 0, places, &mut 0, &mut out);
        }
        out
    }

    /// The memo's key of a prefix: without repeats its symbols, with them
    /// its copies of each symbol up to the caps and its length (4 bits
    /// each); then its bulls and common symbols with each guess (4 bits
    /// each: at most 15 positions).
    fn key(&self, p: &Prefix, rows: &[[u8; 2]]) -> u128 {
        let (head, at) = match &self.rule {
            Rule::Distinct(_) => (p.used as u128, 16),
            Rule::Repeats(_, caps) => {
                let copies = (0..16).fold(0u128, |k, s| {
                    k | (p.seen[s].min(caps[s]) as u128) << (4 * s)
                });
                (copies | (p.i as u128) << 64, 68)
            }
        };
        rows.iter().enumerate().fold(head, |k, (j, r)| {
            k | ((r[0] as u128) << (at + 8 * j)) | ((r[1] as u128) << (at + 4 + 8 * j))
        })
    }

    /// The prefix `p` extended by symbol `s`, its rows written in `next`;
    /// `None` when the builder's rule cuts it.
    fn extend(&self, p: &Prefix, s: u32, rows: &[[u8; 2]], next: &mut [[u8; 2]]) -> Option<Prefix> {
        let k = self.shape.positions();
        let left = (k - p.i - 1) as u8;
        let mut q = *p;
        q.i += 1;
        q.used |= 1 << s;
        q.code.pos |= (s as u64) << (4 * left);
        match &self.rule {
            Rule::Distinct(guesses) => {
                let all = (1u32 << self.shape.symbols()) - 1;
                for ((g, &row), slot) in guesses.iter().zip(rows).zip(next.iter_mut()) {
                    *slot = g.advance(p.i, s, q.used, all, left, row)?;
                }
                q.code.therm[0] |= 1 << s;
            }
            Rule::Repeats(guesses, _) => {
                let seen = p.seen[s as usize];
                for ((g, &row), slot) in guesses.iter().zip(rows).zip(next.iter_mut()) {
                    *slot = advance_repeats(g, p.i, s as usize, seen, left, row)?;
                }
                let bit = s as usize * k + seen as usize;
                q.code.therm[bit / 64] |= 1 << (bit % 64);
                q.seen[s as usize] += 1;
            }
        }
        Some(q)
    }

    /// The codes extending the prefix `p` with `rows`; `None` when the
    /// memo would pass [`MAX_PREFIXES`].
    fn count(&mut self, p: &Prefix, rows: &[[u8; 2]]) -> Option<u64> {
        let key = self.key(p, rows);
        if let Some(&c) = self.memo.get(&key) {
            return Some(c);
        }
        if self.memo.len() >= MAX_PREFIXES {
            return None;
        }
        let last = p.i + 1 == self.shape.positions();
        let mut free = self.shape.free(p.used);
        let mut next = [[0u8; 2]; MAX_GUESSES];
        let next = &mut next[..rows.len()];
        let mut total = 0;
        while free != 0 {
            let s = free.trailing_zeros();
            free &= free - 1;
            if let Some(q) = self.extend(p, s, rows, next) {
                total += if last { 1 } else { self.count(&q, next)? };
            }
        }
        self.memo.insert(key, total);
        Some(total)
    }

    /// Pushes the codes at `places[*at..]` that extend the prefix `p`
    /// (with `rows`), whose first code is at place `base`, advancing `at`.
    fn select_in(
        &self,
        p: &Prefix,
        rows: &[[u8; 2]],
        mut base: u64,
        places: &[u64],
        at: &mut usize,
        out: &mut Vec<Packed>,
    ) {
        let last = p.i + 1 == self.shape.positions();
        let mut free = self.shape.free(p.used);
        let mut next = [[0u8; 2]; MAX_GUESSES];
        let next = &mut next[..rows.len()];
        while free != 0 && *at < places.len() {
            let s = free.trailing_zeros();
            free &= free - 1;
            let Some(q) = self.extend(p, s, rows, next) else {
                continue;
            };
            // Every prefix the count kept is in the memo.
            let count = if last {
                1
            } else {
                self.memo[&self.key(&q, next)]
            };
            if places[*at] < base + count {
                if last {
                    out.push(q.code);
                    *at += 1;
                } else {
                    self.select_in(&q, next, base, places, at, out);
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

    /// The counted split is the listed one, and the bound holds above the
    /// list's length, histories too long to count included.
    #[test]
    fn counted_splits_and_bounds_are_the_list() {
        let mut rng = SplitMix64::new(11);
        for name in ["moo:3x5", "moo:6x6", "mm:3x4", "mm:5x8", "mm:8x2"] {
            let shape: Shape = name.parse().unwrap();
            let count = shape.code_count() as u64;
            for round in 0..12 {
                let secret = shape.unrank(rng.next_u64() % count);
                let history: Vec<(Packed, Feedback)> = (0..round)
                    .map(|_| {
                        let g = shape.unrank(rng.next_u64() % count);
                        (g, shape.feedback(secret, g))
                    })
                    .collect();
                let mut list = shape.candidates(&history);
                assert!(len_at_most(shape, &history) >= list.len() as u64, "{name}");
                let guess = shape.unrank(rng.next_u64() % count);
                let counted = split(shape, &history, guess);
                let limit = if shape.repeats() {
                    MAX_GUESSES_REPEATS
                } else {
                    MAX_GUESSES
                };
                assert_eq!(counted.is_some(), history.len() < limit, "{name}");
                if let Some(counted) = counted {
                    let mut listed = vec![0u64; shape.feedback_slots()];
                    for (f, n) in shape.partition(guess, &mut list, None) {
                        listed[f] = n as u64;
                    }
                    assert_eq!(counted, listed, "{name} {history:?}");
                }
            }
        }
    }

    /// Random histories (random guesses answered by a random secret, 0 to
    /// 4 moves) of small and large games, with and without repeats: the count is the list's length,
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
            ("mm:1x3", 3),
            ("mm:3x4", 20),
            ("mm:4x6", 20),
            ("mm:2x16", 20),
            ("mm:5x8", 10),
            ("mm:8x2", 10),
            ("mm:6x9", 6),
            ("mm:8x8", 4),
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

    /// Histories too long are not counted.
    #[test]
    fn long_histories_are_listed() {
        for (name, most) in [("moo:4x10", MAX_GUESSES), ("mm:4x6", MAX_GUESSES_REPEATS)] {
            let shape: Shape = name.parse().unwrap();
            let g = shape.unrank(0);
            let f = shape.feedback(shape.unrank(1), g);
            assert!(
                Counted::new(shape, &vec![(g, f); most + 1]).is_none(),
                "{name}"
            );
            let counted = Counted::new(shape, &vec![(g, f); most]).unwrap();
            assert_eq!(
                counted.len(),
                shape.candidates(&[(g, f)]).len() as u64,
                "{name}"
            );
        }
    }
}
