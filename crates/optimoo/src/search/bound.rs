//! Objectives and their lower bounds.
//!
//! A cost is a `u64` that adds up over the classes of a guess:
//! - [`Cost::Total`]: the number of guesses summed over the secrets;
//! - [`Cost::Crush`]: `(secrets needing the last allowed guess) · 2³² +
//!   total`, so comparing costs compares the pair in order;
//! - [`Cost::Feasible`]: 0 when the cap can be met (used to find the
//!   smallest cap); infeasible is [`INF`] for every objective.
//!
//! Level-filling bound (a counting argument; Knuth 1976 uses it for the
//! worst case): with `b` non-winning answers a node
//! solves at most 1 secret with its own guess, `b` at the next level, `b²`
//! at the one after, … Filling the levels greedily gives the least total for
//! `n` secrets within `d` guesses, and shows `d` infeasible when
//! `n > 1 + b + … + b^(d−1)`. Invariant: `lower(n, d) <= cost(S, d)` for
//! every set `S` of `n` secrets; it is exact for `n <= 2`.
//!
//! Ranges: costs are `u64`. A real cost is below `n · (n + 1)` guesses
//! plus, for crush, `n · 2³²` (with `n ≤ 65,535` codes: below `2⁴⁹`), far
//! below [`INF`] `= 2⁶²`; sums of costs saturate (`saturating_add`) so that
//! anything infeasible stays at or above `INF`, and capacities saturate at
//! `u64::MAX`. The kernel's 16-bit bounds are stated in its own module.

/// The cost of an infeasible problem; larger than any real cost.
pub const INF: u64 = u64::MAX / 4;
/// Weight of one secret at the cap in the crush objective.
pub const CRUSH_UNIT: u64 = 1 << 32;

/// How the search adds costs up, derived from the
/// [`crate::model::objective::Objective`] asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cost {
    /// Minimal total guesses (the minimal average) within the cap.
    Total,
    /// Fewest secrets needing the last allowed guess, then minimal total.
    Crush,
    /// Only whether the cap can be met.
    Feasible,
}

/// Lower-bound tables for one game and objective.
#[derive(Debug, Clone)]
pub struct Bounds {
    objective: Cost,
    /// Non-winning answers a guess can give (at least 1).
    branching: u64,
    /// `capacity[d]`: most secrets solvable within `d` guesses (saturated).
    capacity: Vec<u64>,
    /// `total[d][n]`: level-filling least total, or INF.
    total: Vec<Vec<u64>>,
    /// `lower[d][n]`: `lower(n, d)`, tabulated.
    lower: Vec<Vec<u64>>,
    /// `deltas[d][n]`: `lower(n + 1, d) − lower(n, d)` (INF past feasibility).
    deltas: Vec<Vec<u64>>,
    /// `extras[d][n]`: `deltas[d][n] − deltas[d][0]` (at least 0).
    extras: Vec<Vec<u64>>,
}

impl Bounds {
    /// Tables for sets of up to `max_n` secrets and `b` non-winning answers.
    pub fn new(objective: Cost, branching: usize, max_n: usize) -> Bounds {
        let b = branching.max(1) as u64;
        // Depths beyond `max_depth` change nothing: capacity covers max_n.
        let mut capacity = vec![0u64];
        let mut level = 1u64;
        while *capacity.last().unwrap() < max_n as u64 {
            let c = capacity.last().unwrap().saturating_add(level);
            capacity.push(c);
            level = level.saturating_mul(b);
        }
        capacity.push(capacity.last().unwrap().saturating_add(level));
        let total = (0..capacity.len())
            .map(|d| (0..=max_n).map(|n| level_fill(n as u64, d, b)).collect())
            .collect();
        let mut bounds = Bounds {
            objective,
            branching: b,
            capacity,
            total,
            lower: Vec::new(),
            deltas: Vec::new(),
            extras: Vec::new(),
        };
        bounds.lower = (0..bounds.capacity.len())
            .map(|d| (0..=max_n).map(|n| bounds.compute_lower(n, d)).collect())
            .collect();
        bounds.deltas = bounds
            .lower
            .iter()
            .map(|row: &Vec<u64>| {
                (0..=max_n)
                    .map(|n| match row.get(n + 1) {
                        Some(&next) if next < INF => next - row[n],
                        _ => INF,
                    })
                    .collect()
            })
            .collect();
        bounds.extras = bounds
            .deltas
            .iter()
            .map(|row| row.iter().map(|&x| x.saturating_sub(row[0])).collect())
            .collect();
        bounds
    }

    fn depth_index(&self, d: usize) -> usize {
        d.min(self.capacity.len() - 1)
    }

    /// Most secrets that can be solved within `d` guesses.
    pub fn capacity(&self, d: usize) -> u64 {
        self.capacity[self.depth_index(d)]
    }

    /// `lower(n + 1, d) − lower(n, d)` for every `n` (INF where `n + 1` is
    /// infeasible): adding one secret to a class raises its bound by this.
    #[inline]
    pub fn deltas(&self, d: usize) -> &[u64] {
        &self.deltas[self.depth_index(d)]
    }

    /// `deltas(d)[n] − deltas(d)[0]`: what adding a secret to a class of `n`
    /// costs beyond the least any secret costs.
    #[inline]
    pub fn extras(&self, d: usize) -> &[u64] {
        &self.extras[self.depth_index(d)]
    }

    /// Lower bound on the cost of any set of `n` secrets within `d` guesses.
    #[inline]
    pub fn lower(&self, n: usize, d: usize) -> u64 {
        self.lower[self.depth_index(d)][n]
    }

    fn compute_lower(&self, n: usize, d: usize) -> u64 {
        if n == 0 {
            return 0;
        }
        let t = self.total[self.depth_index(d)][n];
        if t >= INF {
            return INF;
        }
        match self.objective {
            Cost::Total => t,
            Cost::Feasible => 0,
            Cost::Crush => {
                let below = if d == 0 { 0 } else { self.capacity(d - 1) };
                (n as u64).saturating_sub(below) * CRUSH_UNIT + t
            }
        }
    }

    /// Lower bound on the cost of a guess that is not a candidate: every one
    /// of the `n` secrets needs at least one more guess.
    ///
    /// Its classes hold all `n` secrets, each solved at the next level or
    /// later: level filling with capacities b, b², … from the next level on.
    pub fn non_candidate(&self, n: usize, d: usize) -> u64 {
        if n == 0 {
            return 0;
        }
        let d = self.depth_index(d);
        if d < 2 {
            return INF;
        }
        // Secrets at depth >= 2: shift the filling of the children one level.
        let children = level_fill_from(n as u64, d - 1, self.branching);
        if children >= INF {
            return INF;
        }
        let total = n as u64 + children;
        match self.objective {
            Cost::Total => total,
            Cost::Feasible => 0,
            Cost::Crush => {
                // Solved before the last level: depths 2..d-1 of this node.
                let before = self.capacity(d - 1).saturating_sub(1);
                (n as u64).saturating_sub(before) * CRUSH_UNIT + total
            }
        }
    }

    /// Cost of a single secret with `d >= 1` guesses left.
    pub fn leaf(&self, d: usize) -> u64 {
        match self.objective {
            Cost::Total => 1,
            Cost::Feasible => 0,
            Cost::Crush => u64::from(d == 1) * CRUSH_UNIT + 1,
        }
    }

    /// What a node's own guess costs: one guess for each of its `n` secrets
    /// (the crush count is carried by the leaves).
    pub fn own(&self, n: usize) -> u64 {
        match self.objective {
            Cost::Total | Cost::Crush => n as u64,
            Cost::Feasible => 0,
        }
    }
}

/// Least total for `n` secrets within `d` levels of capacity 1, b, b², …
fn level_fill(n: u64, d: usize, b: u64) -> u64 {
    fill(n, d, b, 1)
}

/// Least total for `n` secrets within `d` levels of capacity b, b², …
/// (the classes of a guess that solves none of them itself).
fn level_fill_from(n: u64, d: usize, b: u64) -> u64 {
    fill(n, d, b, b)
}

fn fill(n: u64, d: usize, b: u64, first: u64) -> u64 {
    let mut left = n;
    let mut total = 0u64;
    let mut cap = first;
    for depth in 1..=d as u64 {
        if left == 0 {
            break;
        }
        let here = left.min(cap);
        total += here * depth;
        left -= here;
        cap = cap.saturating_mul(b);
    }
    if left > 0 {
        INF
    } else {
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_filling() {
        let b = Bounds::new(Cost::Total, 13, 5040);
        assert_eq!(b.lower(1, 1), 1);
        assert_eq!(b.lower(2, 1), INF);
        assert_eq!(b.lower(2, 2), 3);
        assert_eq!(b.lower(14, 2), 1 + 2 * 13);
        assert_eq!(b.lower(15, 2), INF);
        assert_eq!(b.lower(15, 3), 1 + 26 + 3);
        // 1 + 13 + 169 + 2197 = 2380 secrets fit in 4 guesses, not 5040:
        // the level bound alone proves 4 guesses cannot always suffice.
        assert_eq!(b.capacity(4), 2380);
        assert_eq!(b.lower(5040, 4), INF);
        assert!(b.lower(5040, 5) < INF);
        assert_eq!(b.lower(100, 50), b.lower(100, 8));
        assert_eq!(b.non_candidate(5, 3), 10);
        assert_eq!(b.non_candidate(20, 3), 20 + 13 + 2 * 7);
        assert_eq!(b.non_candidate(2, 1), INF);
    }

    #[test]
    fn crush_counts_secrets_at_the_cap() {
        let b = Bounds::new(Cost::Crush, 13, 100);
        assert_eq!(b.lower(1, 1), CRUSH_UNIT + 1);
        assert_eq!(b.lower(3, 2), 2 * CRUSH_UNIT + 5);
        assert_eq!(b.lower(3, 3), 5);
        assert_eq!(b.leaf(2), 1);
    }
}
