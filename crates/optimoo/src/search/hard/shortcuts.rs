//! The hard-mode search's proven shortcuts that need no full scan of the
//! allowed guesses (docs/search.md, "Wordle's hard mode", proves each).
//!
//! Invariant: each returns an exact cost only with a guess reaching it,
//! and a bound only when no set of its size and guesses left costs less.

use super::{HardSearch, Known, Peek, State};
use crate::model::code::Code;

impl HardSearch<'_> {
    /// The shortcuts of a set of `n >= 3` secrets with `d >= 2` guesses
    /// left that need no guess list: a candidate splitting it into
    /// singletons (`2n − 1`), else a candidate leaving one pair with
    /// `d >= 3` (`2n`), else the bound `2n`. The candidates are tried in
    /// code order (the guess found does not depend on the numbering).
    pub(super) fn quick(&self, set: &[u16], d: usize) -> Result<(u64, Code), u64> {
        let n = set.len() as u64;
        let mut counts = [0u16; 256];
        let mut good = None;
        let mut candidates: Vec<Code> = set.iter().map(|&t| self.secret(t)).collect();
        candidates.sort_unstable();
        for g in candidates {
            let row = self.row(g);
            let mut pairs = 0;
            for &s in set {
                let c = &mut counts[usize::from(row[usize::from(s)])];
                pairs += u32::from(*c > 0) * (1 + u32::from(*c > 1));
                *c += 1;
            }
            for &s in set {
                counts[usize::from(row[usize::from(s)])] = 0;
            }
            if pairs == 0 {
                return Ok((2 * n - 1, g));
            }
            if pairs == 1 && good.is_none() {
                good = Some(g);
            }
        }
        match good {
            Some(g) if d >= 3 => Ok((2 * n, g)),
            _ => Err(2 * n),
        }
    }

    /// What the memo and the shortcuts say of `set` (at least 3 secrets,
    /// `d` clamped, feasible).
    pub(super) fn peek(&self, key: &State, d: usize) -> Peek {
        match self.lookup(key) {
            Some(Known::Exact(c, _)) => {
                self.hits.set(self.hits.get() + 1);
                return Peek::Exact(c);
            }
            Some(Known::AtLeast(b)) => {
                // Stored by a node searched after `quick` gave its bound
                // (`2n`), which `b` includes.
                self.hits.set(self.hits.get() + 1);
                return Peek::AtLeast(b);
            }
            None => {}
        }
        match self.quick(&key.0, d) {
            Ok((c, _)) => Peek::Exact(c),
            Err(b) => Peek::AtLeast(b),
        }
    }

    /// With 2 guesses left (and no candidate splitting `set` into
    /// singletons: `quick`), the only finite cost is `2n`, of a guess
    /// splitting it into singletons; each guess's scan stops at its first
    /// two secrets alike.
    pub(super) fn split_in_one(&self, set: &[u16], allowed: &[Code]) -> Option<(u64, Code)> {
        let mut stamp = [0usize; 256];
        for (i, &g) in allowed.iter().enumerate() {
            let row = self.row(g);
            let now = i + 1;
            if set.iter().all(|&s| {
                let f = &mut stamp[usize::from(row[usize::from(s)])];
                let fresh = *f != now;
                *f = now;
                fresh
            }) {
                return Some((2 * set.len() as u64, g));
            }
        }
        None
    }
}
