//! A search cut into independent work units, and the optimal tree
//! assembled from their results (`optimoo plan / work / merge`).
//!
//! The root of the search guesses one code per orbit of the full symmetry
//! group, in the root scan's order (bound, non-candidate, code: the
//! searcher's `phases` then `rest`). A *unit* is one non-winning class of
//! one such guess `g`: its cost within `cap − 1` guesses, under the
//! stabilizer of `g`, searched alone. The cost of `g` is
//! `B(g) + Σ_j (cost_j − lower_j)`, with `B(g)` its lookahead bound and
//! `lower_j` the level bound of class `j`.
//!
//! Invariants:
//! - Cut-offs. With an assumed upper bound `U` on the optimum, unit `j` of
//!   `g` starts from `cutoff_j = U + 1 − (B(g) − lower_j)`. A unit that
//!   comes back `AtLeast(b ≥ cutoff_j)` proves `cost(g) > U`; when `U` is at
//!   least the optimum every class of every optimal guess is below its
//!   cut-off, so its units come back exact. Units therefore prune without
//!   talking to each other.
//! - Only guesses with `B(g) <= limit` are planned, `limit` being the cost
//!   of a real tree (or [`INF`]): any other guess costs more than a tree we
//!   hold, so it is never optimal.
//! - Determinism and byte-identity: [`assemble`] picks the *first* planned
//!   guess (in the root scan's order) whose exact cost is the least, as the
//!   searcher's own `build` does, and each unit's subtree is the searcher's
//!   `build` below that class with the same depth and stabilizer; so the
//!   assembled tree is the one [`crate::search::solve`] returns.
//! - Nothing here reads or writes files or starts threads; parallel work
//!   goes through the [`Driver`]. `subtree`: a unit's subtree checked and
//!   encoded on its own.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;
use crate::search::bound::{Cost, INF};
use crate::search::config::{Config, Driver, SearchError};
use crate::search::searcher::{Outcome, Searcher};
use crate::search::symmetry::Stabilizer;
use crate::tree::Node;

mod subtree;
pub use subtree::{bounds, decode_subtree, encode_subtree, subtree_cost};

/// A first guess worth trying, with its lookahead bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootGuess {
    /// The guess.
    pub guess: Code,
    /// Its lookahead bound `B(g)` (own + Σ level bounds of its classes).
    pub bound: u64,
}

/// One work unit: a non-winning class of a planned first guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Index of the first guess in [`Plan::guesses`].
    pub guess: usize,
    /// The answer that makes the class.
    pub answer: Feedback,
    /// Secrets in the class.
    pub secrets: usize,
    /// The class's level bound `lower(|C|, d − 1)`.
    pub lower: u64,
}

/// The planned first guesses and their units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Depth of the root (the cap, clamped to the number of secrets + 1).
    pub depth: usize,
    /// The planned first guesses, in the root scan's order.
    pub guesses: Vec<RootGuess>,
    /// Their classes, guess by guess, by answer.
    pub units: Vec<Unit>,
}

/// What a unit's search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitResult {
    /// The class's exact cost and optimal subtree.
    Exact(u64, Node),
    /// A proven lower bound, at least the cut-off it was searched under.
    AtLeast(u64),
}

impl UnitResult {
    /// The value (exact cost or bound).
    pub fn value(&self) -> u64 {
        match self {
            UnitResult::Exact(c, _) | UnitResult::AtLeast(c) => *c,
        }
    }
}

/// A unit's result as the assembly sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Not computed yet.
    Missing,
    /// Exact cost.
    Exact(u64),
    /// Proven lower bound.
    AtLeast(u64),
}

/// Plans `game` under `config` (its `cap` and `objective` define the
/// problem): every first guess whose bound is at most `limit`.
pub fn plan(
    game: &Game,
    config: Config,
    driver: Driver<'_>,
    limit: u64,
) -> Result<Plan, SearchError> {
    let searcher = Searcher::with_driver(game, config, driver)?;
    let all = game.all_codes();
    let d = searcher.clamp(all.len(), searcher.root_depth());
    let stab = root_stabilizer(game);
    let limit = limit.min(INF - 1);
    let phases = searcher.phases(&all, d, &stab);
    let mut order: Vec<RootGuess> = phases
        .first
        .iter()
        .map(|s| RootGuess {
            guess: s.guess,
            bound: s.bound,
        })
        .collect();
    if all.len() >= 2 {
        let (rest, _) = searcher.rest(&all, d, &stab, &phases, limit + 1);
        order.extend(rest.iter().map(|s| RootGuess {
            guess: s.guess,
            bound: s.bound,
        }));
    }
    order.retain(|g| g.bound <= limit);
    let mut units = Vec::new();
    for (i, g) in order.iter().enumerate() {
        let mut classes = searcher.classes(&all, g.guess);
        classes.sort_by_key(|(f, _)| *f);
        for (f, c) in classes {
            units.push(Unit {
                guess: i,
                answer: f,
                secrets: c.len(),
                lower: searcher.bounds.lower(c.len(), d - 1),
            });
        }
    }
    Ok(Plan {
        depth: d,
        guesses: order,
        units,
    })
}

/// The stabilizer of an empty history.
fn root_stabilizer(game: &Game) -> Stabilizer {
    Stabilizer::full(game.positions(), game.rules().symbols())
}

impl Plan {
    /// The cut-off unit `i` starts from when the optimum is assumed to be
    /// at most `upper` ([`INF`]: no assumption, the unit is solved exactly).
    pub fn cutoff(&self, i: usize, upper: u64) -> u64 {
        let u = &self.units[i];
        if upper >= INF {
            return INF;
        }
        let slack = self.guesses[u.guess].bound - u.lower;
        (upper + 1 + u.lower).saturating_sub(slack).min(INF)
    }

    /// Whether a known result serves under the cut-off of `upper`: exact,
    /// or a bound at least the cut-off.
    pub fn serves(&self, i: usize, known: Known, upper: u64) -> bool {
        match known {
            Known::Missing => false,
            Known::Exact(_) => true,
            Known::AtLeast(b) => b >= self.cutoff(i, upper),
        }
    }

    /// The lower bound of each planned guess from what is known (exact
    /// costs, proven bounds, else the level bounds), and whether every unit
    /// of it is exact.
    pub fn guess_bounds(&self, known: &[Known]) -> Vec<(u64, bool)> {
        let mut out: Vec<(u64, bool)> = self.guesses.iter().map(|g| (g.bound, true)).collect();
        for (u, k) in self.units.iter().zip(known) {
            let slot = &mut out[u.guess];
            match *k {
                Known::Exact(c) => slot.0 = slot.0.saturating_add(c - u.lower.min(c)),
                Known::AtLeast(b) => {
                    slot.0 = slot.0.saturating_add(b.saturating_sub(u.lower));
                    slot.1 = false;
                }
                Known::Missing => slot.1 = false,
            }
            slot.0 = slot.0.min(INF);
        }
        out
    }

    /// Anytime bounds on the optimum from what is known: (lower, upper).
    /// `proven` is the cost of a real tree (or [`INF`]); guesses left out of
    /// the plan cost more than it.
    pub fn anytime(&self, known: &[Known], proven: u64) -> (u64, u64) {
        let gb = self.guess_bounds(known);
        let lower = gb.iter().map(|g| g.0).min().unwrap_or(INF).min(proven);
        let upper = gb
            .iter()
            .filter(|g| g.1)
            .map(|g| g.0)
            .min()
            .unwrap_or(INF)
            .min(proven);
        (lower, upper)
    }
}

/// What the assembly decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The optimal first guess (index in [`Plan::guesses`]) and the cost.
    Optimal(usize, u64),
    /// No strategy meets the cap: every guess is proven infeasible.
    Infeasible,
    /// The known results do not decide: these units (indices) must be
    /// (re)computed, under the cut-offs of a larger upper bound.
    Undecided(Vec<usize>),
}

/// Decides the optimal first guess from the units' results: the first
/// guess in order whose units are all exact with the least total, provided
/// every other guess is proven worse (or equal and later).
pub fn decide(plan: &Plan, known: &[Known]) -> Decision {
    let gb = plan.guess_bounds(known);
    if gb.iter().all(|g| g.0 >= INF) {
        return Decision::Infeasible;
    }
    let best = gb
        .iter()
        .enumerate()
        .filter(|(_, g)| g.1)
        .min_by_key(|(i, g)| (g.0, *i))
        .map(|(i, g)| (i, g.0));
    let undecided = |i: usize, g: &(u64, bool)| match best {
        None => g.0 < INF,
        Some((b, cost)) => !g.1 && (g.0 < cost || (g.0 == cost && i < b)),
    };
    let open: Vec<usize> = gb
        .iter()
        .enumerate()
        .filter(|(i, g)| undecided(*i, g))
        .map(|(i, _)| i)
        .collect();
    match best {
        Some((b, cost)) if open.is_empty() => Decision::Optimal(b, cost),
        _ => Decision::Undecided(
            plan.units
                .iter()
                .enumerate()
                .filter(|(i, u)| open.contains(&u.guess) && !matches!(known[*i], Known::Exact(_)))
                .map(|(i, _)| i)
                .collect(),
        ),
    }
}

/// The root node of the optimal tree: guess `plan.guesses[g]`, one child
/// per class, from the units' subtrees (by answer).
pub fn assemble(plan: &Plan, g: usize, subtrees: Vec<(Feedback, Node)>) -> Node {
    let mut children = subtrees;
    children.sort_by_key(|(f, _)| *f);
    Node {
        guess: plan.guesses[g].guess,
        children,
    }
}

/// The class of unit `i` (sorted codes).
pub fn unit_set(game: &Game, plan: &Plan, i: usize) -> Vec<Code> {
    let u = &plan.units[i];
    partition::split(game, plan.guesses[u.guess].guess, &game.all_codes())
        .into_iter()
        .find(|(f, _)| *f == u.answer)
        .map(|(_, c)| c)
        .unwrap_or_default()
}

/// Solves unit `i` under `cutoff`: the exact cost and the searcher's own
/// subtree below the class when the cost is below the cut-off, else a
/// bound. Also returns the search nodes visited.
pub fn solve_unit(
    game: &Game,
    config: Config,
    driver: Driver<'_>,
    plan: &Plan,
    i: usize,
    cutoff: u64,
) -> Result<(UnitResult, u64), SearchError> {
    let searcher = Searcher::with_driver(game, config, driver)?;
    let u = &plan.units[i];
    let g = plan.guesses[u.guess].guess;
    let stab = root_stabilizer(game).fix(game.codes().symbols(g));
    let set = unit_set(game, plan, i);
    let d = plan.depth - 1;
    // Level 1: the class is searched as the whole search searches it (its
    // classes one after the other, guesses side by side).
    let result = match searcher.solve(&set, d, &stab, cutoff, 1) {
        Outcome::Exact(c) => UnitResult::Exact(c, searcher.build(&set, d, &stab, c)),
        Outcome::AtLeast(b) => UnitResult::AtLeast(b),
    };
    Ok((result, searcher.nodes()))
}

/// The cost of the best of a few heuristic trees (Irving, entropy, Kooi;
/// any guess allowed) that keep within `cap`, under `objective`, with the
/// heuristic's name: an upper bound on the optimum from a real tree.
/// `None` when none keeps within the cap.
pub fn heuristic_upper(
    game: &Game,
    cap: Option<usize>,
    objective: Cost,
    par: &dyn crate::exec::Parallel,
) -> Option<(u64, &'static str)> {
    use crate::heuristic::{build_tree_with, Heuristic, StrategyConfig};
    let mut best: Option<(u64, &'static str)> = None;
    for h in [Heuristic::Irving, Heuristic::Entropy, Heuristic::Kooi] {
        let Ok(tree) = build_tree_with(game, &StrategyConfig::new(h), par) else {
            continue;
        };
        let Ok(stats) = tree.replay(game, cap) else {
            continue;
        };
        let at_cap = match cap {
            Some(c) if objective == Cost::Crush => stats.histogram.get(c - 1).copied().unwrap_or(0),
            _ => 0,
        };
        let cost = at_cap * crate::search::bound::CRUSH_UNIT + stats.total;
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, h.name()));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;

    /// Plan, every unit, decide, assemble: the tree and cost of `solve`,
    /// and each subtree's cost recomputed from the tree alone.
    #[test]
    fn assembled_trees_are_solves() {
        for (name, cap, cost) in [
            ("moo:3x5", None, Cost::Total),
            ("mm:3x3", Some(3), Cost::Total),
            ("mm:3x3", Some(4), Cost::Crush),
            ("moo:4x5", Some(4), Cost::Total),
        ] {
            let game = Game::new(name.parse().unwrap());
            let config = Config {
                cap,
                objective: cost,
                ..Config::default()
            };
            let want = crate::search::solve(&game, config.clone()).unwrap();
            let limit =
                heuristic_upper(&game, cap, cost, &crate::exec::Sequential).map_or(INF, |h| h.0);
            let p = plan(&game, config.clone(), Driver::sequential(), limit).unwrap();
            let bounds = bounds(&game, cost);
            let mut known = Vec::new();
            let mut trees = Vec::new();
            for i in 0..p.units.len() {
                let (r, _) = solve_unit(
                    &game,
                    config.clone(),
                    Driver::sequential(),
                    &p,
                    i,
                    p.cutoff(i, limit),
                )
                .unwrap();
                if let UnitResult::Exact(c, node) = &r {
                    let set = unit_set(&game, &p, i);
                    assert_eq!(
                        subtree_cost(&game, &bounds, &set, p.depth - 1, node),
                        Ok(*c)
                    );
                    let mut codes = Vec::new();
                    encode_subtree(&game, &set, node, &mut codes);
                    assert_eq!(
                        decode_subtree(&game, &set, p.depth - 1, &codes).as_ref(),
                        Ok(node)
                    );
                }
                known.push(match &r {
                    UnitResult::Exact(c, _) => Known::Exact(*c),
                    UnitResult::AtLeast(b) => Known::AtLeast(*b),
                });
                trees.push(r);
            }
            match decide(&p, &known) {
                Decision::Optimal(g, c) => {
                    assert_eq!(c, want.cost, "{name}");
                    let subtrees = p
                        .units
                        .iter()
                        .zip(trees)
                        .filter(|(u, _)| u.guess == g)
                        .map(|(u, r)| match r {
                            UnitResult::Exact(_, n) => (u.answer, n),
                            UnitResult::AtLeast(_) => {
                                panic!("{name}: a bound in the optimal guess")
                            }
                        })
                        .collect();
                    let tree = Tree {
                        rules: game.rules(),
                        root: assemble(&p, g, subtrees),
                    };
                    assert_eq!(Some(tree), want.tree, "{name}");
                    assert_eq!(p.anytime(&known, limit), (c, c));
                }
                Decision::Infeasible => assert_eq!(want.cost, INF, "{name}"),
                Decision::Undecided(u) => panic!("{name}: undecided, units {u:?}"),
            }
        }
    }
}
