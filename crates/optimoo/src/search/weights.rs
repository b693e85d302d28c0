//! Per-secret weights ([`Cost::Weighted`](crate::search::Cost::Weighted)):
//! the search minimizes `Σ w_s · d_s`, `d_s` the guesses secret `s` takes,
//! for any nonnegative integer weights (the codemaker's game: a secret's
//! weight is its probability).
//!
//! Bounds, each a sentence of proof: a node's guess charges every secret
//! below it its weight, so a node's own cost is `Σ w`; below a node with `d`
//! guesses left at most `1, b, b², …` secrets end at the levels `1, 2, 3,
//! …` (`b` non-winning answers), and with every level's capacity given, the
//! least `Σ w · level` puts the heaviest secrets highest (the rearrangement
//! inequality): that is [`Weights::lower`], exact for one secret and for
//! two (guess the heavier first). A guess that is not a candidate ends no
//! secret at level 1: the same filling from level 2
//! ([`Weights::non_candidate`]). A guess's lookahead bound is its own cost
//! plus its classes' bounds ([`Weights::lookahead`]), as for the total.
//!
//! Ranges: the weights of a game add up to less than `2⁴⁸`
//! ([`crate::search::bound::MAX_PER_GUESS_TOTAL`]), so with at most 64
//! levels every bound stays far below [`INF`].

use crate::model::{Code, Feedback};
use crate::search::bound::INF;

/// The weights of a game's codes and the branching of its answers.
#[derive(Debug, Clone)]
pub(crate) struct Weights {
    /// Weight of each code, by index (0 for codes that are no secret).
    w: Vec<u64>,
    /// Non-winning answers a guess can give (at least 1).
    branching: u64,
    /// With few distinct weights (the codemaker's game: one per orbit),
    /// each code's rank among them, heaviest first, and the values: the
    /// bounds then count secrets per weight instead of sorting them.
    groups: Option<(Vec<u8>, Vec<u64>)>,
}

/// Most distinct weights counted by group.
const MAX_GROUPS: usize = 16;

thread_local! {
    /// Per-thread counts of secrets by answer and weight group.
    static COUNTS: std::cell::RefCell<Vec<[u32; MAX_GROUPS]>> =
        std::cell::RefCell::new(vec![[0; MAX_GROUPS]; 256]);
}

impl Weights {
    /// `w` by code index; `branching` as in [`crate::search::Bounds`].
    pub(crate) fn new(w: Vec<u64>, branching: usize) -> Weights {
        let mut values: Vec<u64> = w.clone();
        values.sort_unstable();
        values.dedup();
        values.reverse();
        let groups = (values.len() <= MAX_GROUPS).then(|| {
            let of = w
                .iter()
                .map(|x| values.iter().position(|v| v == x).unwrap_or(0) as u8)
                .collect();
            (of, values)
        });
        Weights {
            w,
            branching: branching.max(1) as u64,
            groups,
        }
    }

    /// The weight of one code.
    pub(crate) fn of(&self, c: Code) -> u64 {
        self.w[c.index()]
    }

    /// `Σ w` over `set`: what a node's own guess costs.
    pub(crate) fn sum(&self, set: &[Code]) -> u64 {
        set.iter().map(|&c| self.of(c)).sum()
    }

    /// The least `Σ w · level` of `set` within `d` guesses (INF when more
    /// secrets than `d` levels can hold).
    pub(crate) fn lower(&self, set: &[Code], d: usize) -> u64 {
        let mut ws: Vec<u64> = set.iter().map(|&c| self.of(c)).collect();
        fill(&mut ws, d, 1, 1, self.branching)
    }

    /// [`Weights::lower`] for a guess that is no candidate: nothing ends
    /// at level 1.
    pub(crate) fn non_candidate(&self, set: &[Code], d: usize) -> u64 {
        if set.is_empty() {
            return 0;
        }
        if d < 2 {
            return INF;
        }
        let mut ws: Vec<u64> = set.iter().map(|&c| self.of(c)).collect();
        fill(&mut ws, d, 2, self.branching, self.branching)
    }

    /// The exact cost of a set of at most two secrets within `d` guesses.
    pub(crate) fn direct(&self, set: &[Code], d: usize) -> Option<u64> {
        match set {
            [] => Some(0),
            [a] if d >= 1 => Some(self.of(*a)),
            [a, b] if d >= 2 => {
                let (x, y) = (self.of(*a), self.of(*b));
                Some(x + y + x.min(y))
            }
            _ => None,
        }
    }

    /// The lookahead bound of guess `g` over the secrets whose answers are
    /// `cols` (`set[i]`'s row is `cols[i]`), `d` guesses left: `Ok` below
    /// `limit`, else `Err` with a bound at least `limit` (`INF` for a
    /// non-candidate that answers the same for every secret: it never
    /// helps).
    pub(crate) fn lookahead(
        &self,
        set: &[Code],
        cols: &[&[Feedback]],
        d: usize,
        g: Code,
        win: Feedback,
        limit: u64,
    ) -> Result<u64, u64> {
        if let Some((of, values)) = &self.groups {
            return self.lookahead_grouped(set, cols, d, g, win, limit, of, values);
        }
        // Weights bucketed by answer (a counting sort), each class then
        // sorted (ascending; the filling reads it heaviest first).
        let gi = g.index();
        let mut start = [0usize; 257];
        for col in cols {
            start[col[gi].0 as usize + 1] += 1;
        }
        for f in 0..256 {
            start[f + 1] += start[f];
        }
        let answers = (0..256).filter(|&f| start[f + 1] > start[f]).count();
        let candidate = start[win.0 as usize + 1] > start[win.0 as usize];
        if !candidate && answers == 1 {
            return Err(INF);
        }
        let mut at = start;
        let mut ws = vec![0u64; set.len()];
        for (&s, col) in set.iter().zip(cols) {
            let f = col[gi].0 as usize;
            ws[at[f]] = self.of(s);
            at[f] += 1;
        }
        let mut bound = self.sum(set);
        for f in 0..256 {
            let class = &mut ws[start[f]..start[f + 1]];
            if f == win.0 as usize || class.is_empty() {
                continue;
            }
            class.sort_unstable();
            bound = bound.saturating_add(fill_ascending(class, d - 1, 1, 1, self.branching));
            if bound >= limit {
                return Err(bound.min(INF));
            }
        }
        Ok(bound)
    }
}

impl Weights {
    /// [`Weights::lookahead`] by counting secrets per answer and weight
    /// group (no sort, no allocation): the same bound.
    #[allow(clippy::too_many_arguments)]
    fn lookahead_grouped(
        &self,
        set: &[Code],
        cols: &[&[Feedback]],
        d: usize,
        g: Code,
        win: Feedback,
        limit: u64,
        of: &[u8],
        values: &[u64],
    ) -> Result<u64, u64> {
        let gi = g.index();
        COUNTS.with(|counts| {
            let mut counts = counts.borrow_mut();
            let mut used = [0u64; 4];
            for (&s, col) in set.iter().zip(cols) {
                let f = col[gi].0 as usize;
                counts[f][of[s.index()] as usize] += 1;
                used[f / 64] |= 1 << (f % 64);
            }
            let answers = used.iter().map(|u| u.count_ones()).sum::<u32>();
            let candidate = used[win.0 as usize / 64] & (1 << (win.0 % 64)) != 0;
            let mut bound = self.sum(set);
            let mut result = if !candidate && answers == 1 {
                Err(INF)
            } else {
                Ok(())
            };
            for (word, &bits) in used.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let f = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if f != win.0 as usize && result.is_ok() {
                        let class = fill_groups(&counts[f], values, d - 1, 1, 1, self.branching);
                        bound = bound.saturating_add(class);
                        if bound >= limit {
                            result = Err(bound.min(INF));
                        }
                    }
                    counts[f] = [0; MAX_GROUPS];
                }
            }
            result.map(|()| bound)
        })
    }
}

/// [`fill_ascending`] of secrets counted per weight group (`values`
/// heaviest first, `counts[k]` secrets of weight `values[k]`).
fn fill_groups(
    counts: &[u32; MAX_GROUPS],
    values: &[u64],
    d: usize,
    from: usize,
    first: u64,
    b: u64,
) -> u64 {
    let mut total = 0u64;
    let mut level = from;
    let mut room = first;
    let mut cap = first;
    for (k, &value) in values.iter().enumerate() {
        let mut left = u64::from(counts[k]);
        while left > 0 {
            if level > d {
                return INF;
            }
            let here = left.min(room);
            total = total.saturating_add(here.saturating_mul(value).saturating_mul(level as u64));
            left -= here;
            room -= here;
            if room == 0 {
                level += 1;
                cap = cap.saturating_mul(b);
                room = cap;
            }
        }
    }
    total.min(INF)
}

/// Sorts `ws` and fills it, heaviest first, into the levels `from..=d`
/// (capacity `first` at level `from`, each next `b` times more):
/// `Σ w · level`, or INF when they do not fit.
fn fill(ws: &mut [u64], d: usize, from: usize, first: u64, b: u64) -> u64 {
    ws.sort_unstable();
    fill_ascending(ws, d, from, first, b)
}

/// [`fill`] of weights already sorted in ascending order (read from the
/// heaviest).
fn fill_ascending(ws: &[u64], d: usize, from: usize, first: u64, b: u64) -> u64 {
    let mut total = 0u64;
    let mut left = ws.len();
    let mut cap = first;
    for level in from..=d {
        if left == 0 {
            break;
        }
        let here = left.min(usize::try_from(cap).unwrap_or(usize::MAX));
        let sum: u64 = ws[left - here..left].iter().sum();
        total = total.saturating_add(sum.saturating_mul(level as u64));
        left -= here;
        cap = cap.saturating_mul(b);
    }
    if left > 0 {
        INF
    } else {
        total.min(INF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heaviest_go_highest() {
        // b = 2: levels hold 1, 2, 4.
        let w = Weights::new(vec![5, 1, 3, 2, 4], 2);
        let all: Vec<Code> = (0..5).map(Code).collect();
        // 5 at level 1; 4, 3 at 2; 2, 1 at 3.
        assert_eq!(w.lower(&all, 3), 5 + 2 * 7 + 3 * 3);
        assert_eq!(w.lower(&all, 2), INF);
        // Not a candidate: 5, 4 at level 2; 3, 2, 1 at 3.
        assert_eq!(w.non_candidate(&all, 3), 2 * 9 + 3 * 6);
        assert_eq!(w.direct(&all[..2], 2), Some(5 + 1 + 1));
        assert_eq!(w.direct(&all[..2], 1), None);
    }

    /// Counting by weight group gives the sorted filling's bound.
    #[test]
    fn groups_fill_as_sorting_does() {
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..200 {
            let n = 1 + rng.below(40);
            let ws: Vec<u64> = (0..n).map(|_| rng.below(5) as u64 * 3).collect();
            let b = 1 + rng.below(4) as u64;
            let d = 1 + rng.below(6);
            let mut sorted = ws.clone();
            let expect = fill(&mut sorted, d, 1, 1, b);
            let mut values = ws.clone();
            values.sort_unstable();
            values.dedup();
            values.reverse();
            let mut counts = [0u32; MAX_GROUPS];
            for w in &ws {
                counts[values.iter().position(|v| v == w).unwrap()] += 1;
            }
            assert_eq!(
                fill_groups(&counts, &values, d, 1, 1, b),
                expect,
                "{ws:?} b {b} d {d}"
            );
        }
    }
}
