//! Exact search: the optimal decision tree under a guess cap, by depth-first
//! branch and bound.
//!
//! cost(S, d) = own(S) + min over guesses g of Σ over the non-winning
//! classes C of g on S of cost(C, d − 1); a single secret costs
//! `Bounds::leaf(d)`; no guesses left with secrets left is infeasible.
//!
//! Invariants and design (see docs/search.md):
//! - Every legal guess is considered (candidates or not), up to symmetry:
//!   one guess per orbit of the stabilizer of the history
//!   (`crate::model::symmetry::Stabilizer`), and symbols no candidate contains
//!   are interchangeable. Guesses whose answer is the same for every
//!   candidate (and that are not candidates) never help and are skipped.
//! - A guess is scored by its one-step lookahead bound own + Σ lower(|C|,
//!   d−1); guesses are tried in the order (bound, non-candidate, code), and
//!   the scan stops when the next bound reaches the best cost found. Classes
//!   are solved smallest first, each under the cut-off its siblings leave.
//! - `solve(S, d, cutoff)` returns the exact cost when it is below the
//!   cut-off, else a proven lower bound at least the cut-off. Exact costs
//!   and bounds are kept in the `memo::Memo`.
//! - Determinism: the tree is rebuilt top-down after the costs are known,
//!   choosing at each node the *first* guess in the order above whose exact
//!   cost is optimal. That guess depends only on the node (its set, depth and
//!   history), never on timing, memo contents or the number of threads.
//!   Near the root, guesses may be evaluated side by side (`scan`): workers
//!   take them in order, read the best cost so far between classes, and
//!   ties go to the earlier guess, so each node's result is the sequential
//!   one.
//! - With a secret list ([`crate::model::secrets`]) the root set is the list,
//!   only allowed guesses are tried, and the root's group is the list's
//!   stabilizer (`Stabilizer::of_list`); with `--guesses secrets` the
//!   absent-symbol rule and canonical memo keys are off (docs/search.md,
//!   "Secret lists", says why).
//! - A set of `n` secrets never needs more than `n` guesses in an optimal
//!   tree, so depths are clamped to `n + 1`.
//!
//! Sources: the problem is Knuth's (1976: five guesses always suffice for
//! Mastermind 4x6, four do not); Koyama & Lai (1993) first found the least
//! average for Mastermind 4x6 (5625/1296) by exhaustive search with
//! symmetry; Ville (2013) for 4x7. Our figures are in docs/results.md.
//!
//! The entries: [`optimize`] (a [`Goal`], an objective with its data, posed
//! as a [`Config`] by [`pose`], for worst and crush after the smallest cap,
//! and solved), [`solve`]/[`solve_with`] (a `Config`: the problem and its
//! [`Tuning`]), [`min_cap`], the player's [`solve_after`],
//! [`solve_candidates`], [`min_guesses`] and [`PositionSearch`], [`plan`]
//! and [`improve`].
//!
//! Files: `config` (what is asked and answered: the problem, the tuning),
//! `goal` (the objectives and the entry by objective), `context` (what
//! every node reads and nothing changes), `searcher` (`solve`: memo and
//! node search; it owns the memo and the counters, its fields private to
//! it and its two steps `searcher::evaluate`, one guess's exact cost, and
//! `searcher::build`, the tree rebuilt), `pool` (a node's answers lent to
//! its guesses' evaluations), `lookahead` (the guess order
//! and its bounds, methods of the context), `kernel` (the bounds of every
//! guess at once, SIMD), `value` (the leaf types the others hand each
//! other: `Scored`, [`Outcome`]), `scan` (a node's guesses tried in order,
//! or side by side near the root, given the evaluation of one guess),
//! [`plan`] (the search cut into work units), `bound`, `memo`, `memory`
//! (what a search will hold); it reports through [`crate::observe`]; `tests`, `sweep_tests` and
//! `list_tests` (against brute force, the plain path and the heuristics),
//! `layout_tests` (no two files name each other).

pub(crate) mod bound;
pub(crate) mod config;
mod context;
mod goal;
#[cfg(test)]
mod guess_memo_tests;
mod hard;
mod improve;
mod kernel;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod list_tests;
mod lookahead;
pub(crate) mod memo;
pub(crate) mod memory;
pub mod plan;
mod pool;
mod recent;
mod scan;
mod searcher;
pub(crate) mod stats;
#[cfg(test)]
mod sweep_tests;
#[cfg(test)]
pub(crate) mod tests;
mod value;
pub(crate) mod weights;

use std::time::Instant;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::symmetry::Stabilizer;

use crate::observe::Silent;
use crate::tree::Node;

pub use crate::search::bound::{
    check_costs, Bounds, Cost, CostsError, CRUSH_UNIT, INF, MAX_PER_GUESS_TOTAL,
};
pub use crate::search::config::{Config, Driver, SearchError, Solution, Tuning, GUESS_MEMO_MIN};
pub use crate::search::goal::{crush_cost, crush_parts, optimize, pose, Goal, Optimum, Posed};
pub use crate::search::improve::Improve;
pub use crate::search::kernel::{KernelError, KernelPath, KERNEL_ENV};
pub use crate::search::memory::{memo_codes_within, memory_estimate, MemoryEstimate};
pub use crate::search::searcher::Refuted;
pub(crate) use crate::search::searcher::Searcher;
pub use crate::search::stats::report as stats_report;
pub use crate::search::value::Outcome;

/// The optimal subtree for a set of candidates (sorted, distinct) within
/// `cap` guesses, with its cost; `None` when the cap cannot be met. Single
/// threaded, no progress: for players answering from an arbitrary position.
pub fn solve_candidates(
    game: &Game,
    candidates: &[Code],
    cap: Option<usize>,
) -> Result<Option<(u64, Node)>, SearchError> {
    let config = Config {
        cap,
        tuning: Tuning::small(),
        ..Config::default()
    };
    let searcher = Searcher::for_set(game, config, candidates)?;
    Ok(searcher.solve_set(candidates, cap.unwrap_or(usize::MAX)))
}

/// A single-threaded exact search from one position of a game: the
/// secrets a history leaves and their subsets (it builds their feedback
/// rows, not the whole table), its memo kept from one question to the
/// next, giving up at a deadline. What a player ranking the guesses of a
/// position asks ([`crate::play::rank`]); the total objective, every cap.
pub struct PositionSearch<'g> {
    game: &'g Game,
    /// `None` when the deadline passed before the set's rows were built:
    /// every question then finds the deadline passed.
    searcher: Option<Searcher<'g>>,
}

impl<'g> PositionSearch<'g> {
    /// A search of `set` (sorted, distinct) and its subsets, giving up at
    /// `deadline` (`None`: never).
    pub fn new(
        game: &'g Game,
        set: &[Code],
        deadline: Option<Instant>,
    ) -> Result<PositionSearch<'g>, SearchError> {
        let config = Config {
            cap: None,
            tuning: Tuning::small(),
            ..Config::default()
        };
        let searcher = Searcher::for_set_until(game, config, set, deadline)?;
        Ok(PositionSearch { game, searcher })
    }

    /// The least total of `class` (a subset of the set) within `d` more
    /// guesses (`usize::MAX`: no cap) after the guesses `played` (whose
    /// symmetry prunes the search): `Some(Exact(cost))` when below
    /// `cutoff`, `Some(AtLeast(b))` with cost ≥ `b` ≥ `cutoff` otherwise
    /// (`INF`: infeasible within `d`), and `None` once the deadline has
    /// passed (nothing learnt).
    pub fn cost_below(
        &self,
        class: &[Code],
        d: usize,
        played: &[Code],
        cutoff: u64,
    ) -> Option<Outcome> {
        let searcher = self.searcher.as_ref()?;
        let codes = self.game.codes();
        let stab = played
            .iter()
            .fold(searcher.cx().root.clone(), |s, &g| s.fix(codes.symbols(g)));
        searcher.cost_below(class, d, &stab, cutoff)
    }
}

/// The values of first guesses of a whole game, each exact below a
/// cut-off or proved at least it: what a proof that no first guess beats
/// the best one asks, guess after guess (Selby's proof for Wordle: SALET,
/// 7920). One searcher, its table and memo kept from one guess to the
/// next (classes met after one first guess are met again after others).
/// The total objective under the game's cap; `driver` runs the classes of
/// each guess side by side (the values do not depend on it).
pub struct FirstGuesses<'g> {
    game: &'g Game,
    searcher: Searcher<'g>,
}

impl<'g> FirstGuesses<'g> {
    /// A search of `game`'s first guesses within `cap` guesses in all
    /// (`None`: no cap), tuned by `tuning`.
    pub fn new(
        game: &'g Game,
        cap: Option<usize>,
        tuning: Tuning,
        driver: Driver<'g>,
    ) -> Result<FirstGuesses<'g>, SearchError> {
        let config = Config {
            cap,
            tuning,
            ..Config::default()
        };
        if game.rules().guesses() == crate::model::GuessRule::Hard {
            return Err(SearchError::Hard(
                "the values of first guesses are searched in normal mode only so far".into(),
            ));
        }
        let searcher = Searcher::with_driver(game, config, driver)?;
        Ok(FirstGuesses { game, searcher })
    }

    /// The least total of the game when `first` is guessed first: `Exact`
    /// when below `cutoff`, else `AtLeast(b)` with the value at least `b`,
    /// itself at least `cutoff` (`INF`: the cap cannot be met after it). A code the game
    /// does not allow as a guess is refused.
    pub fn value(&self, first: Code, cutoff: u64) -> Result<Outcome, SearchError> {
        if first.index() >= self.game.len() || !self.game.is_guess(first) {
            return Err(SearchError::First(format!("#{}", first.index())));
        }
        let all = self.game.secrets();
        let stab = self.searcher.cx().root.clone();
        let d = self.searcher.root_depth();
        Ok(self.searcher.after_first(&all, d, &stab, first, cutoff))
    }

    /// Search nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }
}

/// The smallest cap within which every secret can be solved, with its
/// proof: every smaller cap refuted, by counting or by exhaustive search.
#[derive(Debug, Clone, PartialEq)]
pub struct MinCap {
    /// The smallest feasible cap.
    pub cap: usize,
    /// Caps below this are refuted by counting alone (the level bound:
    /// more secrets than `1 + b + … + b^(cap−1)`).
    pub counted: usize,
    /// Wall time of each exhaustive feasibility search, by cap, in order;
    /// all but the last were refutations.
    pub searches: Vec<(usize, bool, f64)>,
    /// Search nodes visited in all.
    pub nodes: u64,
}

/// Finds the smallest cap for `game`: refutes caps upward from what counting
/// allows, each by an exhaustive feasibility search, until one is feasible.
pub fn min_cap(game: &Game, tuning: &Tuning) -> Result<MinCap, SearchError> {
    min_cap_with(game, tuning, Driver::sequential())
}

/// [`min_cap`] run and reported by `driver`.
pub fn min_cap_with(
    game: &Game,
    tuning: &Tuning,
    driver: Driver<'_>,
) -> Result<MinCap, SearchError> {
    let n = game.secret_count();
    let branching = game.possible_feedbacks().count() - 1;
    let bounds = Bounds::new(Cost::Feasible, branching, n);
    let mut cap = 1;
    while bounds.lower(n, cap) >= INF {
        cap += 1;
    }
    let counted = cap;
    let mut searches = Vec::new();
    let mut nodes = 0;
    loop {
        let start = Instant::now();
        let searcher = Searcher::with_driver(
            game,
            Config {
                cap: Some(cap),
                objective: Cost::Feasible,
                tuning: tuning.clone(),
                ..Config::default()
            },
            Driver {
                par: driver.par,
                observer: &Silent,
            },
        )?;
        let feasible = searcher.optimum() < INF;
        nodes += searcher.nodes();
        searches.push((cap, feasible, start.elapsed().as_secs_f64()));
        if feasible {
            return Ok(MinCap {
                cap,
                counted,
                searches,
                nodes,
            });
        }
        cap += 1;
    }
}

/// The fewest guesses that always suffice to find any secret of `set`
/// (sorted, distinct, not empty) from here on, the winning guess included:
/// the smallest cap a strategy can meet, each smaller one refuted by an
/// exhaustive feasibility search. Single threaded; meant for small sets (an
/// adversarial codemaker's endgame), its time grows quickly with the set.
pub fn min_guesses(game: &Game, set: &[Code]) -> Result<usize, SearchError> {
    let config = Config {
        objective: Cost::Feasible,
        tuning: Tuning::small(),
        ..Config::default()
    };
    let searcher = Searcher::for_set(game, config, set)?;
    let rules = game.rules();
    let stab = Stabilizer::identity(rules.positions(), rules.symbols());
    let mut d = 1;
    while searcher.cx().bounds.lower(set.len(), d) >= INF
        || matches!(
            searcher.solve(set, d, &stab, INF, usize::MAX),
            Outcome::AtLeast(_)
        )
    {
        d += 1;
    }
    Ok(d)
}

/// The optimal subtree after a history of (guess, answer) pairs, within
/// `cap_left` more guesses: the candidates are those consistent with the
/// history, and the history's symmetry (the stabilizer of its guesses)
/// prunes the guesses, which makes this much faster than
/// [`solve_candidates`] on the same set. `None` when the cap cannot be met.
pub fn solve_after(
    game: &Game,
    history: &[(Code, Feedback)],
    cap_left: Option<usize>,
) -> Result<Option<(u64, Node)>, SearchError> {
    let config = Config {
        cap: cap_left,
        tuning: Tuning::small(),
        ..Config::default()
    };
    let set = crate::model::partition::consistent(game, history);
    if set.is_empty() {
        return Ok(None);
    }
    let searcher = Searcher::for_set(game, config, &set)?;
    let mut stab = searcher.cx().root.clone();
    for &(g, _) in history {
        stab = stab.fix(game.codes().symbols(g));
    }
    let d = cap_left.unwrap_or(usize::MAX);
    Ok(match searcher.solve(&set, d, &stab, INF, usize::MAX) {
        Outcome::Exact(c) => Some((c, searcher.build(&set, d, &stab, c))),
        Outcome::AtLeast(_) => None,
    })
}

/// The improve strategy of [`Improve`] for `game` (the total objective,
/// no cap; `config` gives the memo size and kernel): its total and tree,
/// or `None` when `deadline` passed first. The table and the classes of
/// large sets are run by `driver` (the tree does not depend on it).
pub fn improve_width(
    game: &Game,
    config: Config,
    r: Improve,
    deadline: Option<Instant>,
    driver: Driver<'_>,
) -> Result<Option<(u64, crate::tree::Tree)>, SearchError> {
    let mut out = None;
    improve(
        game,
        config,
        r.exact_below,
        &[r.width],
        None,
        deadline,
        driver,
        &mut |c, t, _| out = Some((c, t.clone())),
    )?;
    Ok(out)
}

/// Anytime upper bounds: the improve strategy of [`Improve`] with each
/// width of `widths` in turn (one searcher: the exact parts' memo is
/// shared), until `deadline`; `better` hears every tree whose total is
/// below every one before (with its width). Each pass runs under the cut-off
/// of the best total so far, so a pass that cannot beat it stops early.
///
/// With an `incumbent` (a tree of `game` that plays every secret) its first
/// guess is kept and each of its classes, smallest first, is improved on
/// its own: the improve strategy on the class under the cut-off of the
/// incumbent's subtree there, spliced in when below it; `better` hears the
/// tree after each such class, so a long pass gives its gains as they
/// come. Returns the passes finished.
#[allow(clippy::too_many_arguments)]
pub fn improve(
    game: &Game,
    config: Config,
    exact_below: usize,
    widths: &[usize],
    incumbent: Option<&crate::tree::Tree>,
    deadline: Option<Instant>,
    driver: Driver<'_>,
    better: &mut dyn FnMut(u64, &crate::tree::Tree, usize),
) -> Result<usize, SearchError> {
    let config = Config {
        cap: None,
        objective: Cost::Total,
        tuning: Tuning {
            parallel_levels: 0,
            ..config.tuning
        },
        ..config
    };
    let mut current = match incumbent {
        Some(t) => {
            let stats = t
                .replay(game, None)
                .map_err(|e| SearchError::Incumbent(e.to_string()))?;
            Some((stats.total, t.clone()))
        }
        None => None,
    };
    let searcher = Searcher::with_driver(game, config, driver)?.with_deadline(deadline);
    let mut best = INF;
    let mut finished = 0;
    for &width in widths {
        let r = Improve { exact_below, width };
        if let Some((total, tree)) = current.as_mut() {
            let done = searcher.improve_classes(r, &mut tree.root, total, &mut |c, root| {
                let tree = crate::tree::Tree {
                    rules: game.rules(),
                    root: root.clone(),
                };
                better(c, &tree, width);
            });
            if !done {
                break;
            }
            finished += 1;
            continue;
        }
        let Some(found) = searcher.improve_below(r, best) else {
            break;
        };
        finished += 1;
        if let Some((c, root)) = found {
            best = c;
            let tree = crate::tree::Tree {
                rules: game.rules(),
                root,
            };
            better(c, &tree, width);
        }
    }
    Ok(finished)
}

/// Solves `game` under `config` on this thread.
pub fn solve(game: &Game, config: Config) -> Result<Solution, SearchError> {
    Ok(Searcher::new(game, config)?.run())
}

/// [`solve_with`] under a cut-off: the optimum and its tree when below
/// `cutoff`, else `Err` with the bound proved, at least `cutoff`
/// (`Searcher::run_below`).
pub fn solve_below(
    game: &Game,
    config: Config,
    driver: Driver<'_>,
    cutoff: u64,
) -> Result<Result<Solution, Refuted>, SearchError> {
    Ok(Searcher::with_driver(game, config, driver)?.run_below(cutoff))
}

/// Solves `game` under `config`, run and reported by `driver` (the result
/// is the same whatever the driver).
pub fn solve_with(
    game: &Game,
    config: Config,
    driver: Driver<'_>,
) -> Result<Solution, SearchError> {
    Ok(Searcher::with_driver(game, config, driver)?.run())
}
