//! Scoring a guess by the class sizes of its partition, and the scan of the
//! pool that keeps the best guess by the tie rule.
//!
//! Scores (lower is better): `minimax` the largest class (Knuth 1976),
//! `irving` Σ n² (Irving 1979), `entropy` Σ n ln n (Neuwirth 1982), `kooi`
//! minus the number of classes (Kooi 2005); see [`crate::heuristic`] for the
//! winning class and the tie rules.
//!
//! Invariants: a scan returns the guess a scan of the whole pool in order
//! would keep (the early stops are exact: see `non_candidate_bound`), and
//! ties are decided exactly ([`super::entropy`] for entropy scores closer
//! than [`super::ENTROPY_TOLERANCE`]).

use std::cmp::Ordering;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::partition;

use super::build::{BuildContext, Position};
use super::entropy::compare_power_products;
use super::{Heuristic, Pool, Ties, ENTROPY_TOLERANCE};

/// Candidate sets smaller than this are counted from their own table rows:
/// walking a few rows in order is cache-friendly, where one row per guess
/// read at a few scattered places is not.
const TRANSPOSED_MAX: usize = 256;

impl BuildContext<'_> {
    /// Class sizes of `guess` over `cands` into `counts[..slots]`, from
    /// the candidates' `rows` when there are any (see [`BuildContext::scan`]).
    #[inline]
    pub(super) fn tally(
        &self,
        guess: Code,
        cands: &[Code],
        rows: &[&[Feedback]],
        counts: &mut [u32; 256],
    ) {
        if rows.is_empty() {
            return partition::count(self.game, guess, cands, counts);
        }
        counts[..self.slots].fill(0);
        let g = guess.index();
        for row in rows {
            counts[row[g].0 as usize] += 1;
        }
    }

    /// Scores the pool and keeps the best guess by the tie rule.
    pub(super) fn scan(&self, cands: &[Code], pos: Position) -> Code {
        let ties = self.cfg.ties;
        // Few candidates: read their table rows (feedback against every
        // guess, by symmetry), each walked in order as the guesses are.
        let rows: Vec<&[Feedback]> = match self.table {
            Some(t) if cands.len() < TRANSPOSED_MAX => cands.iter().map(|&s| t.row(s)).collect(),
            _ => Vec::new(),
        };
        let mut counts = [0u32; 256];
        let mut best_counts = [0u32; 256];
        let mut best: Option<(Code, f64)> = None;
        let owned;
        let pool: &[Code] = match self.cfg.pool {
            Pool::Candidates => cands,
            Pool::All => {
                owned = self.pool(pos);
                &owned
            }
        };
        if ties == Ties::Smallest {
            for &g in pool {
                self.tally(g, cands, &rows, &mut counts);
                let key = self.key(&counts);
                let better = best.is_none_or(|(_, best_key)| {
                    self.compare(key, &counts, best_key, &best_counts) == Ordering::Less
                });
                if better {
                    best = Some((g, key));
                    best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
                }
            }
            return best.map_or(cands[0], |(g, _)| g);
        }
        // Both other rules prefer a candidate among equal scores: the
        // smallest (candidate-first) or the last scanned (seed000). Score
        // the candidates of the pool first, then look for a guess that is
        // not a candidate and scores strictly lower.
        let last = ties == Ties::Seed000;
        for &g in cands {
            if self.cfg.pool == Pool::All && pool.binary_search(&g).is_err() {
                continue; // another member of its orbit is in the pool
            }
            self.tally(g, cands, &rows, &mut counts);
            if !last && counts[..self.slots].iter().all(|&c| c <= 1) {
                // Split into singletons: optimal for every score (only a
                // split into singletons reaches it), and the first such.
                return g;
            }
            let key = self.key(&counts);
            let better = best.is_none_or(|(_, best_key)| {
                let ord = self.compare(key, &counts, best_key, &best_counts);
                ord == Ordering::Less || (last && ord == Ordering::Equal)
            });
            if better {
                best = Some((g, key));
                best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
            }
        }
        // No guess that is not a candidate scores below `bound`: stop as
        // soon as the best reaches it.
        let (bound_key, bound_counts) = self.non_candidate_bound(cands.len());
        let done = |key: f64, counts: &[u32; 256]| {
            self.compare(key, counts, bound_key, &bound_counts) != Ordering::Greater
        };
        if let Some((g, key)) = best {
            if done(key, &best_counts) {
                return g;
            }
        }
        for &g in pool {
            self.tally(g, cands, &rows, &mut counts);
            if counts[self.win] == 1 {
                continue; // a candidate: already scored
            }
            let key = self.key(&counts);
            let better = best.is_none_or(|(_, best_key)| {
                self.compare(key, &counts, best_key, &best_counts) == Ordering::Less
            });
            if better {
                best = Some((g, key));
                best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
                if done(key, &counts) {
                    break;
                }
            }
        }
        best.map_or(cands[0], |(g, _)| g)
    }

    /// The lowest score a guess that is not a candidate can have with `n`
    /// candidates, and class sizes that reach it: `n` spread as evenly as
    /// possible over the non-winning answers (every score here is a
    /// Schur-convex function of the sizes, or minus the number of classes).
    pub(super) fn non_candidate_bound(&self, n: usize) -> (f64, [u32; 256]) {
        let mut counts = [0u32; 256];
        let classes = self.answers - 1;
        let (q, r) = (n / classes, n % classes);
        for (i, c) in counts.iter_mut().take(classes).enumerate() {
            *c = (q + usize::from(i < r)) as u32;
        }
        // The positions of the sizes do not matter, except that none may
        // sit in the winning slot.
        if classes > self.win {
            counts[self.win..].rotate_right(1);
        }
        (self.key(&counts), counts)
    }

    /// The score of class sizes (lower is better), see the module doc.
    #[inline]
    pub(super) fn key(&self, counts: &[u32; 256]) -> f64 {
        let all = &counts[..self.slots];
        let skip_win = !self.cfg.counts_win();
        let w = self.win;
        match self.cfg.heuristic {
            Heuristic::Minimax => {
                let mut m = 0;
                for (i, &c) in all.iter().enumerate() {
                    if c > m && !(skip_win && i == w) {
                        m = c;
                    }
                }
                m as f64
            }
            Heuristic::Irving => {
                let mut s = 0u64;
                for &c in all {
                    s += c as u64 * c as u64;
                }
                if skip_win {
                    s -= all[w] as u64;
                }
                s as f64
            }
            Heuristic::Entropy => all.iter().map(|&c| self.nlnn[c as usize]).sum(),
            Heuristic::Kooi => {
                let mut n = all.iter().filter(|&&c| c > 0).count();
                if skip_win && all[w] > 0 {
                    n -= 1;
                }
                -(n as f64)
            }
            Heuristic::First | Heuristic::Random => 0.0,
        }
    }

    /// Compares two scores; entropy scores closer than the tolerance are
    /// compared exactly from their class sizes.
    #[inline]
    pub(super) fn compare(
        &self,
        a: f64,
        a_counts: &[u32; 256],
        b: f64,
        b_counts: &[u32; 256],
    ) -> Ordering {
        if self.cfg.heuristic != Heuristic::Entropy {
            return a.partial_cmp(&b).expect("scores are finite");
        }
        if a < b - ENTROPY_TOLERANCE {
            Ordering::Less
        } else if a > b + ENTROPY_TOLERANCE {
            Ordering::Greater
        } else {
            compare_power_products(&a_counts[..self.slots], &b_counts[..self.slots], &self.spf)
        }
    }
}
