//! A search cut into independent work units, and the optimal tree
//! assembled from their results (`optimoo plan / work / merge`).
//!
//! The root of the search guesses one code per orbit of the full symmetry
//! group, in the root scan's order (bound, non-candidate, code: the
//! searcher's `phases` then `rest`). A *unit* is one non-winning class of
//! one such guess `g`: its cost within `cap − 1` guesses, under the
//! stabilizer of `g`, searched alone. Each class `j` has a lower bound
//! `lower_j` (its level bound raised by a one-step lookahead, as the search
//! raises it), and `B(g) = own + Σ_j lower_j`, so the cost of `g` is
//! `B(g) + Σ_j (cost_j − lower_j)`. With depth 2, a class of at least
//! [`SPLIT_MIN`] secrets is cut again: a unit per second guess `h` (in the
//! search's order at the class), which returns `h`'s exact cost there or a
//! bound; the class costs the least of them. At either depth, the
//! `lower_j` of a class of at least [`SPLIT_MIN`] secrets is raised two
//! levels down: the cost of `h` at the class is at least `h`'s bound
//! with each of `h`'s classes raised by its own one-step lookahead (a
//! class costs at least its best guess's lookahead bound), so the class
//! costs at least the least of these over its second guesses (and the
//! ceiling the left-out ones cannot beat); while some of a class's units
//! are not done, it costs at least the least of what is known of them.
//!
//! Invariants:
//! - Cut-offs. With an assumed upper bound `U` on the optimum, unit `j` of
//!   `g` (and each second-guess unit of class `j`) starts from
//!   `cutoff_j = U + 1 − (B(g) − lower_j)`. A unit that comes back
//!   `AtLeast(b ≥ cutoff_j)` proves `cost(g) > U` (or that its second
//!   guess is not the class's best); when `U` is at least the optimum every
//!   class of every optimal guess is below its cut-off, so its units (and
//!   the best second guess's) come back exact. Units therefore prune
//!   without talking to each other.
//! - Only guesses with `B(g) <= limit` are planned, `limit` being the cost
//!   of a real tree (or [`INF`]): any other guess costs more than a tree we
//!   hold, so it is never optimal; likewise second guesses whose bound
//!   reaches their class's cut-off under `limit`.
//! - Determinism and byte-identity: [`assemble`] picks the *first* planned
//!   guess (in the root scan's order) whose exact cost is the least, as the
//!   searcher's own `build` does, and each unit's subtree is the searcher's
//!   `build` below that class with the same depth and stabilizer; so the
//!   assembled tree is the one [`crate::search::solve`] returns.
//! - Nothing here reads or writes files or starts threads; parallel work
//!   goes through the [`Driver`], and what a run keeps (its progress,
//!   what its memo learned: `learned`) is handed to the caller's
//!   callbacks. `subtree`: a unit's subtree checked and
//!   encoded on its own.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::INF;
use crate::search::config::{Config, Driver, SearchError};
use crate::search::searcher::Searcher;
use crate::search::value::Outcome;
use crate::search::value::Scored;
use crate::tree::Node;

mod anytime;
mod assembly;
mod learned;
mod subtree;
pub use anytime::{
    bound_unit, ClassProgress, Depth, Effort, Keep, SecondProgress, Stage, Step, StepKind,
    UnitProgress, CHASE_STEP, ESTIMATE_MIN,
};
pub use assembly::{assemble, decide, Decision};
pub use learned::{Fact, Learned, MemoKeep};
pub use subtree::{bounds, decode_subtree, encode_subtree, subtree_cost};

/// A first guess worth trying, with its lookahead bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootGuess {
    /// The guess.
    pub guess: Code,
    /// A lower bound of its cost: own + Σ of its classes' lower bounds
    /// (`B(g)`; for a second guess, its lookahead bound at the class).
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
    /// A lower bound of the class's cost: its level bound `lower(|C|, d −
    /// 1)` raised by a one-step lookahead (the least lookahead bound over
    /// its guesses); for a class of at least [`SPLIT_MIN`] secrets, by two
    /// levels (the least over its second guesses of their bound with each
    /// of their classes raised by its own one-step lookahead).
    pub lower: u64,
    /// With `--depth 2`, large classes are cut again: this unit is one
    /// second guess of the class (with its lookahead bound there), and
    /// returns that guess's exact cost at the class or a bound. `None`:
    /// the unit is the whole class.
    pub second: Option<RootGuess>,
}

/// The planned first guesses and their units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Depth of the root (the cap, clamped to the number of secrets + 1).
    pub depth: usize,
    /// The planned first guesses, in the root scan's order.
    pub guesses: Vec<RootGuess>,
    /// Their classes, guess by guess, by answer (a class cut by second
    /// guesses: consecutive units, in the search's order at the class).
    pub units: Vec<Unit>,
    /// The cost of a real tree the plan was made under ([`INF`]: none);
    /// second guesses whose bound reaches their class's cut-off under it
    /// are left out (they cost at least that cut-off).
    pub limit: u64,
}

/// Smallest class cut by second guesses with `--depth 2` (smaller ones are
/// a unit each: cutting them would cost more than it saves).
pub const SPLIT_MIN: usize = 64;

/// What a unit's search found: its [`Outcome`] (an exact cost, or a
/// proven lower bound at least the cut-off it was searched under), and with
/// an exact cost the class's optimal subtree (always, by construction).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitResult {
    outcome: Outcome,
    subtree: Option<Node>,
}

impl UnitResult {
    /// The class's exact cost and optimal subtree.
    pub fn exact(cost: u64, subtree: Node) -> UnitResult {
        UnitResult {
            outcome: Outcome::Exact(cost),
            subtree: Some(subtree),
        }
    }

    /// A proven lower bound.
    pub fn at_least(bound: u64) -> UnitResult {
        UnitResult {
            outcome: Outcome::AtLeast(bound),
            subtree: None,
        }
    }

    /// The exact cost or the bound.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The subtree (exact results only).
    pub fn subtree(&self) -> Option<&Node> {
        self.subtree.as_ref()
    }

    /// The subtree, taken (exact results only).
    pub fn into_subtree(self) -> Option<Node> {
        self.subtree
    }
}

/// What is known of each unit as the assembly sees it: `None` when not
/// computed yet.
pub type Known = Option<Outcome>;

/// Plans `game` under `config` (its `cap` and `objective` define the
/// problem): every first guess whose bound is at most `limit`.
pub fn plan(
    game: &Game,
    config: Config,
    driver: Driver<'_>,
    limit: u64,
    depth: usize,
) -> Result<Plan, SearchError> {
    let searcher = Searcher::with_driver(game, config, driver)?;
    let all = game.all_codes();
    let d = searcher.cx().clamp(all.len(), searcher.root_depth());
    let stab = root_stabilizer(game);
    let limit = limit.min(INF - 1);
    // The first guesses in the search's order, those whose bound is at
    // most the limit.
    let order = seconds_of(&searcher, &all, d, &stab, limit + 1);
    // Each class's lower bound raised by a one-step lookahead of its own
    // (as the search raises them before solving a guess's classes), and
    // each guess's bound with them: tighter cut-offs, same order.
    let root = root_stabilizer(game);
    let mut rows = Vec::new();
    for mut g in order {
        if g.bound > limit {
            continue;
        }
        let mut classes = searcher.classes(&all, g.guess);
        classes.sort_by_key(|(f, _)| *f);
        let stab = root.fix(game.codes().symbols(g.guess));
        let mut raised = Vec::with_capacity(classes.len());
        for (_, c) in &classes {
            let lower = searcher.cx().bounds.lower(c.len(), d - 1);
            let r = searcher
                .cx()
                .class_bound(searcher.memo(), c, d - 1, &stab, INF)
                .max(lower);
            g.bound = g.bound.saturating_add(r - lower).min(INF);
            raised.push(r);
        }
        if g.bound <= limit {
            rows.push((g, classes, raised, stab));
        }
    }
    let mut p = Plan {
        depth: d,
        guesses: rows.iter().map(|r| r.0.clone()).collect(),
        units: Vec::new(),
        limit,
    };
    for (i, (_, classes, raised, stab)) in rows.into_iter().enumerate() {
        for ((f, c), lower) in classes.into_iter().zip(raised) {
            let unit = Unit {
                guess: i,
                answer: f,
                secrets: c.len(),
                lower,
                second: None,
            };
            p.units.push(unit.clone());
            let dc = searcher.cx().clamp(c.len(), d - 1);
            if c.len() < SPLIT_MIN || dc < 2 {
                continue;
            }
            // The class's guesses in the search's order, up to its cut-off
            // under the limit (the others cannot be below it).
            let ceiling = p.cutoff(p.units.len() - 1, limit);
            let seconds = seconds_of(&searcher, &c, dc, &stab, ceiling);
            // Two levels down: the class costs at least the least, over its
            // second guesses, of a guess's bound with each of its own
            // classes raised by their one-step lookahead; a guess left out
            // costs at least the ceiling. Raising the class's bound and its
            // guess's by the same amount keeps every cut-off.
            let raised = two_level(&searcher, &c, dc, &stab, &seconds, ceiling, &|| false)
                .unwrap_or(ceiling);
            if raised > unit.lower {
                let delta = raised - unit.lower;
                p.guesses[i].bound = p.guesses[i].bound.saturating_add(delta).min(INF);
                p.units.last_mut().expect("just pushed").lower = raised;
            }
            let unit = p.units.last().expect("just pushed").clone();
            if depth >= 2 && seconds.len() >= 2 {
                p.units.pop();
                p.units.extend(seconds.into_iter().map(|h| Unit {
                    second: Some(h),
                    ..unit.clone()
                }));
            }
        }
    }
    Ok(p)
}

/// The guesses of `set` (depth `d`, symmetry `stab`) in the search's
/// order whose lookahead bound is below `ceiling` (the others cost at
/// least it), each with that bound.
fn seconds_of(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    ceiling: u64,
) -> Vec<RootGuess> {
    let phases = searcher.cx().phases(set, d, stab);
    let rest = if set.len() >= 2 {
        searcher.cx().rest(set, d, stab, &phases, ceiling).0
    } else {
        Vec::new()
    };
    phases
        .first
        .iter()
        .chain(&rest)
        .filter(|s| s.bound < ceiling)
        .map(|s| RootGuess {
            guess: s.guess,
            bound: s.bound,
        })
        .collect()
}

/// The least, over `seconds` (guesses of `set` with their lookahead
/// bounds at depth `d`), of the bound with each class of the guess raised
/// by its own one-step lookahead, or `ceiling` when none is below it
/// ([`INF`] when there is none): [`levels_down`] two levels down.
fn two_level(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    seconds: &[RootGuess],
    ceiling: u64,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    levels_down(searcher, set, d, stab, seconds, 2, ceiling, stop)
}

/// The bound of `set` at depth `d` `levels` guesses down (at least 2):
/// the least, over `seconds` (guesses of `set` with their lookahead
/// bounds), of the guess's bound with each of its classes raised
/// `levels − 1` levels down (one level: its one-step lookahead; a class
/// too small to go deeper, of fewer than 3 secrets or 2 guesses left, by
/// its one-step lookahead too), or `ceiling` when none is below it
/// ([`INF`] when there is none). A guess costs at least its classes'
/// costs, each at least its own bound that many levels down, so this is a
/// lower bound of the cost of `set` among those guesses. Each class is
/// asked only up to what would lift its guess to the least found so far,
/// so a guess is dropped as soon as it cannot be the least: the same
/// value. Given up (`None`) as soon as `stop` says so (checked before
/// each guess): a partial least is no bound.
#[allow(clippy::too_many_arguments)]
fn levels_down(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    seconds: &[RootGuess],
    levels: usize,
    ceiling: u64,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    let game = searcher.cx().game;
    let mut best = ceiling;
    for h in seconds {
        if h.bound >= best {
            continue;
        }
        if stop() {
            return None;
        }
        let child = stab.fix(game.codes().symbols(h.guess));
        let mut b = h.bound;
        for (_, sub) in searcher.classes(set, h.guess) {
            if b >= best {
                break;
            }
            let lower = searcher.cx().bounds.lower(sub.len(), d - 1);
            // At `limit` or above, this class alone lifts `h` to `best`.
            let limit = best - (b - lower);
            let mut r = searcher
                .cx()
                .class_bound(searcher.memo(), &sub, d - 1, &child, limit)
                .max(lower);
            let ds = searcher.cx().clamp(sub.len(), d - 1);
            if levels > 2 && r < limit && sub.len() >= 3 && ds >= 2 {
                let deeper = seconds_of(searcher, &sub, ds, &child, limit);
                let down =
                    levels_down(searcher, &sub, ds, &child, &deeper, levels - 1, limit, stop)?;
                r = r.max(down);
            }
            b = b.saturating_add(r - lower).min(INF);
        }
        best = best.min(b);
    }
    Some(best)
}

/// The stabilizer of an empty history.
fn root_stabilizer(game: &Game) -> Stabilizer {
    Stabilizer::root(game.rules())
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
            None => false,
            Some(Outcome::Exact(_)) => true,
            Some(Outcome::AtLeast(b)) => b >= self.cutoff(i, upper),
        }
    }

    /// The units of each class: ranges of consecutive units.
    pub fn classes(&self) -> Vec<std::ops::Range<usize>> {
        let mut out: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            match out.last_mut() {
                Some(r)
                    if {
                        let v = &self.units[r.start];
                        v.guess == u.guess && v.answer == u.answer
                    } =>
                {
                    r.end = i + 1
                }
                _ => out.push(i..i + 1),
            }
        }
        out
    }

    /// What is known of the class made of units `r`, and the unit whose
    /// subtree is the class's (exact classes): for a class cut by second
    /// guesses, the first in order of least exact cost (the search's
    /// choice); else the least bound, or the cut-off under the plan's limit
    /// that the second guesses left out cannot beat. While some of its
    /// units are not done, a bound: the least over its second guesses of
    /// what is known (their lookahead bounds for those not done), at least
    /// the class's own lower bound.
    pub fn class_known(
        &self,
        r: std::ops::Range<usize>,
        known: &[Known],
    ) -> (Known, Option<usize>) {
        if self.units[r.start].second.is_none() {
            let k = known[r.start];
            return (k, k.is_some_and(Outcome::is_exact).then_some(r.start));
        }
        let mut exact: Option<(u64, usize)> = None;
        let mut least = self.cutoff(r.start, self.limit);
        let r_all = r.clone();
        // Units not done yet: the class costs at least the least bound of
        // its second guesses (their lookahead bounds for those not done).
        let mut open = false;
        for i in r {
            match known[i] {
                None => {
                    open = true;
                    let h = self.units[i].second.as_ref().map_or(0, |h| h.bound);
                    least = least.min(h);
                }
                Some(Outcome::Exact(c)) if exact.is_none_or(|(e, _)| c < e) => exact = Some((c, i)),
                Some(Outcome::Exact(_)) => {}
                Some(Outcome::AtLeast(b)) => least = least.min(b),
            }
        }
        if open {
            let lower = self.units[r_all.start].lower;
            let b = exact.map_or(least, |(c, _)| least.min(c)).max(lower);
            return (Some(Outcome::AtLeast(b)), None);
        }
        match exact {
            // A bound from an earlier generation may be below the least
            // exact cost (or equal, for an earlier guess): then the class
            // is not decided, only bounded.
            Some((c, i))
                if r_all.clone().all(|j| match known[j] {
                    Some(Outcome::AtLeast(b)) => b > c || (b == c && j > i),
                    _ => true,
                }) =>
            {
                (Some(Outcome::Exact(c)), Some(i))
            }
            Some((c, _)) => (Some(Outcome::AtLeast(least.min(c))), None),
            None => (Some(Outcome::AtLeast(least)), None),
        }
    }

    /// The lower bound of each planned guess from what is known (exact
    /// costs, proven bounds, else the level bounds), and whether every
    /// class of it is exact.
    pub fn guess_bounds(&self, known: &[Known]) -> Vec<(u64, bool)> {
        let mut out: Vec<(u64, bool)> = self.guesses.iter().map(|g| (g.bound, true)).collect();
        for r in self.classes() {
            let u = &self.units[r.start];
            let slot = &mut out[u.guess];
            match self.class_known(r, known).0 {
                Some(Outcome::Exact(c)) => slot.0 = slot.0.saturating_add(c - u.lower.min(c)),
                Some(Outcome::AtLeast(b)) => {
                    slot.0 = slot.0.saturating_add(b.saturating_sub(u.lower));
                    slot.1 = false;
                }
                None => slot.1 = false,
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
    let result = match &u.second {
        None => match searcher.solve(&set, d, &stab, cutoff, 1) {
            Outcome::Exact(c) => UnitResult::exact(c, searcher.build(&set, d, &stab, c)),
            Outcome::AtLeast(b) => UnitResult::at_least(b),
        },
        Some(h) => {
            let dc = searcher.cx().clamp(set.len(), d);
            let s = Scored {
                bound: h.bound,
                guess: h.guess,
            };
            match searcher.evaluate(&set, dc, &stab, &s, cutoff, 1, None) {
                Ok(c) => {
                    // The node the search's build makes when it picks h here.
                    let child = stab.fix(game.codes().symbols(h.guess));
                    let mut classes = searcher.classes(&set, h.guess);
                    classes.sort_by_key(|(f, _)| *f);
                    let children = classes
                        .into_iter()
                        .map(|(f, sub)| {
                            let cost = match searcher.solve(&sub, dc - 1, &child, INF, usize::MAX) {
                                Outcome::Exact(v) => v,
                                Outcome::AtLeast(_) => {
                                    unreachable!("a class of a guess below its cut-off is feasible")
                                }
                            };
                            (f, searcher.build(&sub, dc - 1, &child, cost))
                        })
                        .collect();
                    UnitResult::exact(
                        c,
                        Node {
                            guess: h.guess,
                            children,
                        },
                    )
                }
                Err(b) => UnitResult::at_least(b),
            }
        }
    };
    Ok((result, searcher.nodes()))
}

#[cfg(test)]
mod tests;
