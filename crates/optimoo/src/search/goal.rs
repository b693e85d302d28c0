//! The search's one entry by objective: a [`Goal`] (an objective with its
//! data: the cap, the cost vector, the weights) posed on a game as a
//! [`Config`] ([`pose`]: for worst and crush, the smallest cap found and
//! proven first) and solved ([`optimize`]: the optimum, the tree and how
//! the cap was found). The command line's `solve` and the checkpoint
//! folder's plan both go through here, so the sequence min-cap → solve →
//! crush and the translation from [`Objective`] to [`Cost`] are written
//! once.
//!
//! Invariants: a goal poses the same `Config` whatever the tuning and the
//! driver (the smallest cap is a property of the game); [`optimize`] gives
//! what [`crate::search::solve_with`] gives on the posed `Config`; the cost
//! of a crush tree is `at_cap · CRUSH_UNIT + total` ([`crush_cost`],
//! [`crush_parts`]), the one place that arithmetic is written outside the
//! bounds.

use crate::model::game::Game;
use crate::model::objective::Objective;
use crate::search::bound::{Cost, CRUSH_UNIT};
use crate::search::config::{Config, Driver, SearchError, Solution, Tuning};
use crate::search::{min_cap_with, solve_with, MinCap};
use crate::tree::Stats;

/// What a search minimizes, with its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// The total number of guesses (the average) within `cap` (`None`:
    /// unlimited).
    Average {
        /// Most guesses any secret may take.
        cap: Option<usize>,
    },
    /// The smallest cap any strategy meets (found, every smaller one
    /// refuted), then the least total within it.
    Worst,
    /// Within the smallest cap, the fewest secrets needing its last guess,
    /// then the least total.
    Crush,
    /// The sum over the secrets of `costs[d − 1]` for a secret found with
    /// `d` guesses (nondecreasing integers); the cap is `costs.len()`.
    Costs(Vec<u64>),
    /// The sum over the secrets of `weights[s] · d_s` within `cap` (one
    /// weight per code, by index).
    Weighted {
        /// One weight per code.
        weights: Vec<u64>,
        /// Most guesses any secret may take.
        cap: Option<usize>,
    },
}

impl Goal {
    /// The goal of an objective as the command line and the tree files name
    /// it: `cap` for average and costs (it must be the vector's length),
    /// none for worst and crush (they find it), `costs` for costs only.
    /// Refused with the reason: heuristic (no optimum to search), a cap
    /// with worst or crush, costs missing or given with another objective.
    pub fn of(
        objective: Objective,
        cap: Option<usize>,
        costs: Option<Vec<u64>>,
    ) -> Result<Goal, SearchError> {
        let refused = |why: &str| Err(SearchError::Goal(format!("{objective}: {why}")));
        match (objective, costs) {
            (Objective::Costs, Some(costs)) => {
                if cap.is_some_and(|c| c != costs.len()) {
                    return Err(SearchError::CostsCap {
                        len: costs.len(),
                        cap,
                    });
                }
                Ok(Goal::Costs(costs))
            }
            (Objective::Costs, None) => refused("the cost vector is missing"),
            (_, Some(_)) => refused("a cost vector goes with the costs objective only"),
            (Objective::Average, None) => Ok(Goal::Average { cap }),
            (Objective::Worst | Objective::Crush, None) if cap.is_some() => {
                refused("the smallest cap is found, not given")
            }
            (Objective::Worst, None) => Ok(Goal::Worst),
            (Objective::Crush, None) => Ok(Goal::Crush),
            _ => refused("no optimum to search (a heuristic claims none)"),
        }
    }

    /// How costs add up once the cap is fixed: the total for average and
    /// worst, [`Cost::Crush`], [`Cost::PerGuess`], [`Cost::Weighted`].
    pub fn cost(&self) -> Cost {
        match self {
            Goal::Average { .. } | Goal::Worst => Cost::Total,
            Goal::Crush => Cost::Crush,
            Goal::Costs(_) => Cost::PerGuess,
            Goal::Weighted { .. } => Cost::Weighted,
        }
    }

    /// Whether the cap is the smallest one, found by the search (worst,
    /// crush).
    pub fn finds_cap(&self) -> bool {
        matches!(self, Goal::Worst | Goal::Crush)
    }

    /// The goal's cost of a tree of statistics `stats` played within `cap`
    /// (the tree's cap: the smallest for worst and crush): its total, or
    /// for crush [`crush_cost`] of the secrets at the cap and the total, or
    /// the cost vector summed over the histogram; `None` for weighted
    /// (the weights need the secrets, not the histogram).
    pub fn cost_of(&self, stats: &Stats, cap: Option<usize>) -> Option<u64> {
        match self {
            Goal::Average { .. } | Goal::Worst => Some(stats.total),
            Goal::Crush => {
                let at_cap = cap.map_or(0, |c| {
                    stats.histogram.get(c.wrapping_sub(1)).copied().unwrap_or(0)
                });
                Some(crush_cost(at_cap, stats.total))
            }
            Goal::Costs(costs) => {
                stats
                    .histogram
                    .iter()
                    .enumerate()
                    .try_fold(0u64, |sum, (d, &k)| match costs.get(d) {
                        Some(&c) => sum.checked_add(c.checked_mul(k)?),
                        None if k == 0 => Some(sum),
                        None => None,
                    })
            }
            Goal::Weighted { .. } => None,
        }
    }
}

/// The cost of a crush tree: `at_cap` secrets need the last allowed guess,
/// `total` guesses in all.
pub fn crush_cost(at_cap: u64, total: u64) -> u64 {
    at_cap * CRUSH_UNIT + total
}

/// A crush cost's parts: (secrets needing the last allowed guess, total).
pub fn crush_parts(cost: u64) -> (u64, u64) {
    (cost / CRUSH_UNIT, cost % CRUSH_UNIT)
}

/// A goal posed on a game: the search to run and how its cap was found.
#[derive(Debug, Clone)]
pub struct Posed {
    /// The search: the goal's cap (for worst and crush the smallest) and
    /// cost, with the tuning given.
    pub config: Config,
    /// For worst and crush: the smallest cap and its proof.
    pub min_cap: Option<MinCap>,
}

/// Poses `goal` on `game`: for worst and crush finds the smallest cap
/// first (each smaller cap refuted by an exhaustive search run by
/// `driver`), then the [`Config`] of the search within it under `tuning`.
pub fn pose(
    game: &Game,
    goal: &Goal,
    tuning: &Tuning,
    driver: Driver<'_>,
) -> Result<Posed, SearchError> {
    let mut config = Config {
        objective: goal.cost(),
        tuning: tuning.clone(),
        ..Config::default()
    };
    let min_cap = match goal {
        Goal::Average { cap } => {
            config.cap = *cap;
            None
        }
        Goal::Costs(costs) => {
            config.cap = Some(costs.len());
            config.costs = costs.clone();
            None
        }
        Goal::Weighted { weights, cap } => {
            config.cap = *cap;
            config.weights = weights.clone();
            None
        }
        Goal::Worst | Goal::Crush => {
            let found = min_cap_with(game, tuning, driver)?;
            config.cap = Some(found.cap);
            Some(found)
        }
    };
    Ok(Posed { config, min_cap })
}

/// The optimum of a goal: the search's solution and how its cap was
/// found.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// The cap the tree was solved under (for worst and crush the
    /// smallest).
    pub cap: Option<usize>,
    /// For worst and crush: the smallest cap and its proof.
    pub min_cap: Option<MinCap>,
    /// The optimal cost, tree and the search's counters.
    pub solution: Solution,
}

/// Solves `goal` on `game` under `tuning`, run and reported by `driver`:
/// [`pose`], then the search (the tree does not depend on the tuning or
/// the driver).
///
/// ```
/// use optimoo::model::{Game, Objective};
/// use optimoo::search::{self, Driver, Goal, Tuning};
///
/// let game = Game::new("mm:3x3".parse().unwrap());
/// let goal = Goal::of(Objective::Worst, None, None).unwrap();
/// let best = search::optimize(&game, &goal, &Tuning::default(), Driver::sequential()).unwrap();
/// assert_eq!(best.min_cap.as_ref().map(|m| m.cap), best.cap);
/// assert_eq!(best.solution.stats.unwrap().max_depth, best.cap.unwrap());
/// ```
pub fn optimize(
    game: &Game,
    goal: &Goal,
    tuning: &Tuning,
    driver: Driver<'_>,
) -> Result<Optimum, SearchError> {
    let Posed { config, min_cap } = pose(game, goal, tuning, driver)?;
    let cap = config.cap;
    let solution = solve_with(game, config, driver)?;
    Ok(Optimum {
        cap,
        min_cap,
        solution,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{min_cap, solve, INF};

    fn game(name: &str) -> Game {
        Game::new(name.parse().unwrap())
    }

    /// Each objective of the command line and the files is the goal of one
    /// cost; what cannot be posed is refused with the reason.
    #[test]
    fn objectives_translate_to_costs_and_refusals_say_why() {
        let of = |o, cap, costs| Goal::of(o, cap, costs).map(|g| (g.cost(), g.finds_cap()));
        assert_eq!(
            of(Objective::Average, Some(5), None),
            Ok((Cost::Total, false))
        );
        assert_eq!(of(Objective::Worst, None, None), Ok((Cost::Total, true)));
        assert_eq!(of(Objective::Crush, None, None), Ok((Cost::Crush, true)));
        let costs = Some(vec![1, 2, 4]);
        assert_eq!(
            of(Objective::Costs, None, costs.clone()),
            Ok((Cost::PerGuess, false))
        );
        assert_eq!(
            of(Objective::Costs, Some(3), costs.clone()),
            Ok((Cost::PerGuess, false))
        );
        let refused = |o, cap, costs: Option<Vec<u64>>, why: &str| {
            let err = Goal::of(o, cap, costs).unwrap_err().to_string();
            assert!(err.contains(why), "{o}: {err}");
        };
        refused(Objective::Costs, Some(4), costs.clone(), "the cap is 4");
        refused(Objective::Costs, None, None, "missing");
        refused(Objective::Average, None, costs, "costs objective only");
        refused(Objective::Worst, Some(5), None, "found, not given");
        refused(Objective::Crush, Some(5), None, "found, not given");
        refused(Objective::Heuristic, None, None, "no optimum");
    }

    /// `optimize` is the sequence the command line ran by hand: the
    /// smallest cap (worst, crush), then the total or crush search within
    /// it; the same cost and tree, and the goal's cost of the tree found
    /// is the search's.
    #[test]
    fn optimize_is_min_cap_then_solve() {
        for name in ["mm:3x3", "moo:3x5", "mm:2x4"] {
            let g = game(name);
            let tuning = Tuning::default();
            let least = min_cap(&g, &tuning).unwrap();
            for (goal, cost) in [(Goal::Worst, Cost::Total), (Goal::Crush, Cost::Crush)] {
                let best = optimize(&g, &goal, &tuning, Driver::sequential()).unwrap();
                assert_eq!(best.cap, Some(least.cap), "{name} {goal:?}");
                let found = best.min_cap.as_ref().map(|m| (m.cap, m.counted));
                assert_eq!(found, Some((least.cap, least.counted)), "{name} {goal:?}");
                let by_hand = solve(
                    &g,
                    Config {
                        cap: Some(least.cap),
                        objective: cost,
                        ..Config::default()
                    },
                )
                .unwrap();
                assert_eq!(best.solution.cost, by_hand.cost, "{name} {goal:?}");
                assert_eq!(best.solution.tree, by_hand.tree, "{name} {goal:?}");
                let stats = best.solution.stats.as_ref().unwrap();
                assert_eq!(goal.cost_of(stats, best.cap), Some(by_hand.cost));
            }
            for cap in [None, Some(least.cap)] {
                let goal = Goal::Average { cap };
                let best = optimize(&g, &goal, &tuning, Driver::sequential()).unwrap();
                let by_hand = solve(
                    &g,
                    Config {
                        cap,
                        ..Config::default()
                    },
                )
                .unwrap();
                assert_eq!((best.cap, best.min_cap.is_none()), (cap, true));
                assert_eq!(best.solution.tree, by_hand.tree, "{name} cap {cap:?}");
            }
            // Costs: the cap is the vector's length, and the goal's cost of
            // the tree (the vector summed over its histogram) is the search's.
            let costs = vec![1, 3, 4, 9, 9, 20][..least.cap].to_vec();
            let goal = Goal::Costs(costs);
            let best = optimize(&g, &goal, &tuning, Driver::sequential()).unwrap();
            assert_eq!(best.cap, Some(least.cap));
            assert!(best.solution.cost < INF);
            let stats = best.solution.stats.as_ref().unwrap();
            assert_eq!(goal.cost_of(stats, best.cap), Some(best.solution.cost));
        }
    }

    /// The tuning changes how the search runs, never what it finds.
    #[test]
    fn the_tuning_never_changes_the_optimum() {
        let g = game("moo:3x6");
        let small = Tuning {
            memo_codes: 1 << 8,
            canon_max: 64,
            exact_small: 2,
            ..Tuning::small()
        };
        for goal in [Goal::Average { cap: None }, Goal::Crush] {
            let a = optimize(&g, &goal, &Tuning::default(), Driver::sequential()).unwrap();
            let b = optimize(&g, &goal, &small, Driver::sequential()).unwrap();
            assert_eq!(a.solution.cost, b.solution.cost, "{goal:?}");
            assert_eq!(a.solution.tree, b.solution.tree, "{goal:?}");
        }
    }

    #[test]
    fn crush_costs_split_into_their_parts() {
        for (at_cap, total) in [(0, 0), (1, 26274), (17, (1 << 32) - 1)] {
            assert_eq!(crush_parts(crush_cost(at_cap, total)), (at_cap, total));
        }
    }
}
