//! Objectives and their lower bounds.
//!
//! A cost is a `u64` that adds up over the classes of a guess:
//! - [`Cost::Total`]: the number of guesses summed over the secrets;
//! - [`Cost::Crush`]: `(secrets needing the last allowed guess) · 2³² +
//!   total`, so comparing costs compares the pair in order;
//! - [`Cost::Feasible`]: 0 when the cap can be met (used to find the
//!   smallest cap); infeasible is [`INF`] for every objective;
//! - [`Cost::PerGuess`]: `Σ c[d]` over the secrets, `d` the guesses a
//!   secret takes and `c[1..=cap]` any nondecreasing vector of integers
//!   ([`Bounds::per_guess`]). A node whose guess is the `k`-th charges each
//!   of its secrets `c[k] − c[k − 1]` (with `c[0] = 0`): the charges along a
//!   secret's path add up to `c[d]`. Costs then depend on how many guesses
//!   were made before a node, `cap − d` for `d` guesses left, so the depth
//!   is never clamped for this objective (see `Context::clamp`).
//!
//! Level-filling bound (a counting argument; Knuth 1976 uses it for the
//! worst case): with `b` non-winning answers a node
//! solves at most 1 secret with its own guess, `b` at the next level, `b²`
//! at the one after, … Filling the levels greedily gives the least total for
//! `n` secrets within `d` guesses, and shows `d` infeasible when
//! `n > 1 + b + … + b^(d−1)`. Invariant: `lower(n, d) <= cost(S, d)` for
//! every set `S` of `n` secrets; it is exact for `n <= 2`. With a
//! nondecreasing cost per guess count the greedy filling is still the least
//! (moving a secret to a shallower free place never costs more), so the
//! same counting gives the bound of [`Cost::PerGuess`], each level charged
//! its own cost.
//!
//! Ranges: costs are `u64`. A real cost is below `n · (n + 1)` guesses
//! plus, for crush, `n · 2³²` (with `n ≤ 65,535` codes: below `2⁴⁹`), far
//! below [`INF`] `= 2⁶²`; sums of costs saturate (`saturating_add`) so that
//! anything infeasible stays at or above `INF`, and capacities saturate at
//! `u64::MAX`. A cost vector is accepted when `n · c[cap]` stays below
//! `2⁴⁸` ([`MAX_PER_GUESS_TOTAL`]). The kernel's 16-bit bounds are stated in its own module.

/// The cost of an infeasible problem; larger than any real cost.
pub const INF: u64 = u64::MAX / 4;
/// Weight of one secret at the cap in the crush objective.
pub const CRUSH_UNIT: u64 = 1 << 32;
/// Largest `secrets · c[cap]` of a [`Cost::PerGuess`] vector: any cost is
/// then far below [`INF`].
pub const MAX_PER_GUESS_TOTAL: u64 = 1 << 48;

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
    /// The sum over the secrets of a nondecreasing cost of the number of
    /// guesses each takes (the vector: [`Bounds::per_guess`],
    /// `Config::costs`).
    PerGuess,
    /// `Σ w_s · d_s` for nonnegative weights per secret (`Config::weights`;
    /// its bounds depend on the set, not only on its size: the search's
    /// `weights` module). These tables then only say what is infeasible
    /// (0 or INF), which holds for any weights.
    Weighted,
}

/// Why a cost vector is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CostsError {
    /// No entry.
    #[error(
        "a cost vector needs at least one entry (the cost of a secret found by the first guess)"
    )]
    Empty,
    /// An entry below the one before.
    #[error("the cost vector decreases: entry {at} ({value}) is below entry {before} ({previous}); costs must be nondecreasing")]
    Decreasing {
        /// 1-based index of the entry.
        at: usize,
        /// Its value.
        value: u64,
        /// The entry before.
        before: usize,
        /// Its value.
        previous: u64,
    },
    /// Too large to add up safely.
    #[error("the cost vector's last entry ({last}) times {secrets} secrets exceeds 2^48; use smaller numbers")]
    TooLarge {
        /// The last entry.
        last: u64,
        /// The secrets of the game.
        secrets: usize,
    },
}

/// Checks a cost vector `c[1..=cap]` for `secrets` secrets.
pub fn check_costs(costs: &[u64], secrets: usize) -> Result<(), CostsError> {
    let Some(&last) = costs.last() else {
        return Err(CostsError::Empty);
    };
    if let Some(i) = (1..costs.len()).find(|&i| costs[i] < costs[i - 1]) {
        return Err(CostsError::Decreasing {
            at: i + 1,
            value: costs[i],
            before: i,
            previous: costs[i - 1],
        });
    }
    if (secrets.max(1) as u64)
        .checked_mul(last)
        .is_none_or(|t| t >= MAX_PER_GUESS_TOTAL)
    {
        return Err(CostsError::TooLarge { last, secrets });
    }
    Ok(())
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
    /// [`Cost::PerGuess`]: `c[0..=cap]` with `c[0] = 0`; else empty.
    costs: Vec<u64>,
}

impl Bounds {
    /// Tables for sets of up to `max_n` secrets and `b` non-winning answers
    /// (not for [`Cost::PerGuess`], which needs its vector:
    /// [`Bounds::per_guess`]).
    pub fn new(objective: Cost, branching: usize, max_n: usize) -> Bounds {
        assert!(
            objective != Cost::PerGuess,
            "Bounds::per_guess takes the vector"
        );
        Bounds::build(objective, branching, max_n, Vec::new())
    }

    /// Tables of [`Cost::PerGuess`] for the vector `costs` = `c[1..=cap]`
    /// (checked by `check_costs`: nondecreasing, small enough).
    pub fn per_guess(costs: &[u64], branching: usize, max_n: usize) -> Bounds {
        debug_assert!(check_costs(costs, max_n).is_ok());
        let mut c = vec![0];
        c.extend_from_slice(costs);
        Bounds::build(Cost::PerGuess, branching, max_n, c)
    }

    fn build(objective: Cost, branching: usize, max_n: usize, costs: Vec<u64>) -> Bounds {
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
        // Per-guess costs depend on the exact depth left: a table per depth
        // up to the cap.
        while capacity.len() < costs.len() {
            capacity.push(capacity.last().unwrap().saturating_add(level));
            level = level.saturating_mul(b);
        }
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
            costs,
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

    /// [`Bounds::lower`] of the total objective for a set all of whose
    /// subsets split into at most `answers` non-winning classes under any
    /// guess (the level capacities 1, `answers`, `answers²`, …), when that
    /// is below the game's branching; `None` for the other objectives or
    /// where it would not be higher. A subset of a set `S` gets from each
    /// guess at most the answers `S` gets from it, so the most answers any
    /// guess gives on `S` bound every class below `S`.
    pub fn lower_within(&self, n: usize, d: usize, answers: u64) -> Option<u64> {
        (self.objective == Cost::Total && answers < self.branching)
            .then(|| fill(n as u64, d, answers.max(1), 1))
    }

    /// `lb`, a lower bound of a class of `n` secrets within `d` guesses
    /// below a node whose guesses give at most `answers` non-winning
    /// classes, raised to [`Bounds::lower_within`] where that is higher.
    #[inline]
    pub fn raised_within(&self, lb: u64, n: usize, d: usize, answers: u64) -> u64 {
        self.lower_within(n, d, answers).map_or(lb, |w| lb.max(w))
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
            Cost::Feasible | Cost::Weighted => 0,
            Cost::Crush => {
                let below = if d == 0 { 0 } else { self.capacity(d - 1) };
                (n as u64).saturating_sub(below) * CRUSH_UNIT + t
            }
            // Levels 1, 2, … of capacity 1, b, b², …, each secret at level
            // j charged c[k + j] − c[k], k = cap − d guesses made before.
            Cost::PerGuess if d >= self.costs.len() => INF, // Beyond the cap: never asked.
            Cost::PerGuess => {
                let k = self.made(d);
                self.fill_costs(n as u64, k, 1..=d, 1)
            }
        }
    }

    /// Guesses made before a node with `d` guesses left ([`Cost::PerGuess`]).
    fn made(&self, d: usize) -> usize {
        let cap = self.costs.len() - 1;
        assert!(
            d <= cap,
            "a depth of {d} beyond the cap {cap} of a cost vector"
        );
        cap - d
    }

    /// Least cost of `n` secrets put greedily at the levels `levels` (the
    /// first of capacity `first`, each next `b` times larger), a secret at
    /// level `j` charged `c[k + j] − c[base]`, `base` = `k + first level − 1`.
    fn fill_costs(
        &self,
        n: u64,
        k: usize,
        levels: std::ops::RangeInclusive<usize>,
        first: u64,
    ) -> u64 {
        let base = k + levels.start() - 1;
        let mut left = n;
        let mut total = 0u64;
        let mut cap = first;
        for j in levels {
            if left == 0 {
                break;
            }
            let here = left.min(cap);
            total += here * (self.costs[k + j] - self.costs[base]);
            left -= here;
            cap = cap.saturating_mul(self.branching);
        }
        if left > 0 {
            INF
        } else {
            total
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
            Cost::Feasible | Cost::Weighted => 0,
            // Every secret pays this level's charge; the children fill the
            // levels 2..=d, each secret charged beyond that.
            Cost::PerGuess if d >= self.costs.len() => INF,
            Cost::PerGuess => {
                let k = self.made(d);
                let children = self.fill_costs(n as u64, k, 2..=d, self.branching);
                if children >= INF {
                    return INF;
                }
                (n as u64) * (self.costs[k + 1] - self.costs[k]) + children
            }
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
            Cost::Feasible | Cost::Weighted => 0,
            Cost::Crush => u64::from(d == 1) * CRUSH_UNIT + 1,
            Cost::PerGuess => self.charge(d),
        }
    }

    /// What a node's own guess costs, with `d` guesses left: one guess for
    /// each of its `n` secrets (the crush count is carried by the leaves);
    /// for per-guess costs, this guess's charge for each.
    pub fn own(&self, n: usize, d: usize) -> u64 {
        match self.objective {
            Cost::Total | Cost::Crush => n as u64,
            Cost::Feasible | Cost::Weighted => 0,
            Cost::PerGuess => n as u64 * self.charge(d),
        }
    }

    /// `c[k + 1] − c[k]`: what the guess of a node with `d` guesses left
    /// charges each of its secrets ([`Cost::PerGuess`]).
    fn charge(&self, d: usize) -> u64 {
        let k = self.made(d);
        self.costs[k + 1] - self.costs[k]
    }

    /// Whether costs depend on the depth left beyond feasibility (then it
    /// must not be clamped).
    pub fn depth_matters(&self) -> bool {
        self.objective == Cost::PerGuess
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
