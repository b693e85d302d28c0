//! What a search is asked and what it answers: [`Config`] (the problem:
//! cap, objective and its data) with its [`Tuning`] (every field documents
//! its default and range), [`Driver`] (who runs the parallel work and hears
//! progress), [`Solution`] and [`SearchError`].
//!
//! Invariant: the tuning changes how fast the search runs, never the tree
//! it returns; `cap`, `objective`, `costs` and `weights` define the
//! problem.

use crate::exec::{Parallel, Sequential};
use crate::model::code::Code;
use crate::observe::{Observer, Silent};
use crate::search::bound::{Cost, CostsError};
use crate::search::kernel::{KernelError, KernelPath};
use crate::tree::{Stats, Tree};

/// Errors of the search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// Hard mode asked for with an objective or an entry point it does
    /// not have yet: it is searched for the average (total) objective,
    /// with or without a cap, over the whole game.
    #[error("--hard: {0}")]
    Hard(String),
    /// A fixed first guess the game does not allow.
    #[error("the first guess {0} is not a guess this game allows")]
    First(String),
    /// A cap of zero guesses.
    #[error("a cap of 0 guesses solves nothing; give --cap 1 or more")]
    ZeroCap,
    /// The kernel path asked for (`OPTIMOO_KERNEL` or [`Tuning::kernel`])
    /// cannot run here.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// A cost vector that is refused ([`Cost::PerGuess`]).
    #[error(transparent)]
    Costs(#[from] CostsError),
    /// Per-secret weights that are refused ([`Cost::Weighted`]).
    #[error("weights: {0}")]
    Weights(String),
    /// Per-guess costs whose length is not the cap.
    #[error(
        "the cost vector has {len} entries but the cap is {}: give one cost per number of \
         guesses up to the cap",
        cap.map_or("none".to_string(), |c| c.to_string())
    )]
    CostsCap {
        /// Entries of the vector.
        len: usize,
        /// The cap asked for.
        cap: Option<usize>,
    },
    /// A goal that cannot be posed (see [`crate::search::Goal::of`]).
    #[error("objective {0}")]
    Goal(String),
    /// An incumbent tree that does not play every secret of its game.
    #[error("the incumbent tree does not play every secret: {0}")]
    Incumbent(String),
}

/// What a search solves and how: the problem (`cap`, `objective` and the
/// objective's data, `costs` or `weights`: they define the optimum and the
/// tree) and its [`Tuning`] (how fast it gets there, never what it finds).
/// Defaults: no cap, minimal total, the default tuning. The command line
/// takes its defaults from here. A goal named as the command line names it
/// (average, worst, crush, costs) is posed as a `Config` by
/// [`crate::search::pose`].
#[derive(Debug, Clone)]
pub struct Config {
    /// Most guesses any secret may take (`None`: unlimited).
    pub cap: Option<usize>,
    /// What to minimize.
    pub objective: Cost,
    /// With [`Cost::PerGuess`]: `c[1..=cap]`, the cost of a secret that
    /// takes `d` guesses, nondecreasing integers (its length is the cap);
    /// empty for the other objectives (default).
    pub costs: Vec<u64>,
    /// With [`Cost::Weighted`]: the weight of each code, by index (the
    /// search minimizes `Σ w_s · d_s` over the secrets; codes that are no
    /// secret are never weighed); empty for the other objectives.
    pub weights: Vec<u64>,
    /// The first guess, fixed (`None`: the search chooses it). The cost
    /// and tree are then the least after that guess: optimal among the
    /// trees that open with it, an upper bound of the game's optimum
    /// (Wordle's optimum from SALET, Selby 2022). It must be a guess the
    /// game allows ([`SearchError::First`] otherwise).
    pub first: Option<Code>,
    /// How to search (never changes the tree).
    pub tuning: Tuning,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            cap: None,
            objective: Cost::Total,
            costs: Vec::new(),
            weights: Vec::new(),
            first: None,
            tuning: Tuning::default(),
        }
    }
}

/// The default [`Tuning::guess_memo_min`]: the open classes `optimoo
/// work` searches step by step on moo:5x10 hold 1,000 to 2,500 secrets,
/// and a class's search from scratch visits few other sets this large
/// (each keeps a bound for every guess it refutes: up to a code's worth
/// of guesses per set).
pub const GUESS_MEMO_MIN: usize = 1024;

/// How to search: every field changes how fast the search runs and how
/// much it holds, never the cost or the tree it returns. Defaults: memo of
/// 2^26 codes per generation (about 0.5 GiB at most), no canonical keys
/// (with the fast class bounds of [`crate::search`]'s kernel they cost
/// more than their hits save), parallel classes at the root and guesses
/// evaluated side by side at the three top levels.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// Memo size: codes stored per generation (range 1..; default 2^26).
    pub memo_codes: usize,
    /// Largest set whose memo key is put in canonical form (default 0:
    /// none; 64 was the default before the fast class bounds).
    pub canon_max: usize,
    /// Smallest set stored in the memo (default 3).
    pub memo_min: usize,
    /// Levels of the tree whose classes are solved in parallel (default 1:
    /// parallel classes lose the refinement of each class's slack by its
    /// siblings' exact costs, which costs twice the work one level down).
    pub parallel_levels: usize,
    /// Levels of the tree whose guesses are evaluated side by side, each
    /// under the best cost found so far (default 3; 0: never). Only when
    /// the driver runs more than one task at once.
    pub parallel_guess_levels: usize,
    /// Smallest set whose guesses are evaluated side by side (default 64).
    pub parallel_guess_min: usize,
    /// Sets of at most this many secrets are solved exactly whatever the
    /// cut-off, so that each is searched once (default 8).
    pub exact_small: usize,
    /// The code path of the bound kernel (default `None`: the one the
    /// environment variable `OPTIMOO_KERNEL` names, else the best this CPU
    /// has). Every path gives the same bounds; a path the CPU lacks is
    /// refused with [`SearchError::Kernel`].
    pub kernel: Option<KernelPath>,
    /// Class bounds of small sets each thread keeps for the same set
    /// asked again (default 2^14 a thread; 0: none): the same values,
    /// fewer kernel passes (docs/search.md, "Memo": `search::recent`).
    pub recent_bounds: usize,
    /// Smallest set whose guesses each keep, once refuted, the bound
    /// proved for them (default 1024; `usize::MAX`: none): searched again
    /// (a later cut-off, a run resumed from what the last one learned),
    /// such a set evaluates only the guesses whose kept bound is below
    /// the cut-off (`Memo::guess_bound`, docs/search.md, "Memo").
    pub guess_memo_min: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            memo_codes: 1 << 26,
            canon_max: 0,
            memo_min: 3,
            parallel_levels: 1,
            parallel_guess_levels: 3,
            parallel_guess_min: 64,
            exact_small: 8,
            kernel: None,
            recent_bounds: 1 << 14,
            guess_memo_min: GUESS_MEMO_MIN,
        }
    }
}

impl Tuning {
    /// The tuning of a search from an arbitrary position of a player: one
    /// thread's worth (no parallel levels) and a memo of 2^20 codes.
    pub fn small() -> Tuning {
        Tuning {
            parallel_levels: 0,
            memo_codes: 1 << 20,
            ..Tuning::default()
        }
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The optimal cost (`INF` when the cap cannot be met).
    pub cost: u64,
    /// The optimal tree, if the cap can be met.
    pub tree: Option<Tree>,
    /// Its statistics, from a replay of every secret.
    pub stats: Option<Stats>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Memo lookups that found something.
    pub memo_hits: u64,
    /// Memo lookups.
    pub memo_lookups: u64,
    /// Entries in the memo at the end.
    pub memo_entries: usize,
    /// Wall time.
    pub seconds: f64,
}

/// Who runs a search's parallel work and hears its progress (the library
/// has no thread pool or terminal of its own).
#[derive(Clone, Copy)]
pub struct Driver<'a> {
    /// Runs independent classes and guesses near the root side by side.
    pub par: &'a dyn Parallel,
    /// Told of each solved first-level class and of phases.
    pub observer: &'a dyn Observer,
}

impl Driver<'static> {
    /// One thread, no reports.
    pub fn sequential() -> Driver<'static> {
        Driver {
            par: &Sequential,
            observer: &Silent,
        }
    }
}

impl std::fmt::Debug for Driver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("width", &self.par.width())
            .finish_non_exhaustive()
    }
}

/// Runs `f` with a silent driver of `workers` workers: the sequential
/// runner for one, scoped threads for more.
#[cfg(test)]
pub(crate) fn with_workers<R>(workers: usize, f: impl FnOnce(Driver<'_>) -> R) -> R {
    let scoped = crate::exec::Scoped(workers);
    f(Driver {
        par: if workers > 1 {
            &scoped
        } else {
            &crate::exec::Sequential
        },
        observer: &crate::observe::Silent,
    })
}
