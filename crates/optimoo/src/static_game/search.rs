//! The static game: every guess is given at once, before any answer, and
//! the answers alone must then determine the secret. A set of guesses
//! *separates* the secrets when the map secret → (its answer to each guess)
//! is injective; [`solve_static`] finds a smallest separating set and proves
//! that no smaller one exists (docs/static.md).
//!
//! Method: iterative deepening over the size `t` of the set. For each `t`
//! an exhaustive depth-first search over sets of `t` guesses, kept as the
//! partition of the secrets into classes of equal answers so far (only the
//! classes of two or more secrets are kept). A set of size `t` is refuted
//! for every `t` below the answer; the first `t` where a set is found is
//! the minimum. The deepening starts from an upper bound: a separating set
//! built greedily and made smaller by cheap searches (`upper`), then by a
//! tabu search one size lower at a time (`local`); both only ever return
//! separating sets, so they bound the answer from above and prove nothing
//! below it.
//!
//! Invariants (each the reason a pruned branch holds no solution):
//! - Order: a set is unordered, so its first guesses (four, or all of a
//!   set of four or fewer) are taken in increasing code order, each after
//!   the one before; below them the search branches on the hardest pair
//!   of secrets left together, on the least guess of the set that
//!   separates it (`hit`, proof there): every set is still met once.
//! - Symmetry: the first guess is the smallest code of its orbit under the
//!   game's group (symbol relabellings and position permutations, or the
//!   stabilizer of the secret list), and each next guess the smallest of
//!   its orbit under the elements fixing every guess chosen so far
//!   (`Stabilizer::fix`, `Stabilizer::orbit_filter`). Every set has an
//!   image of this form: map the guess whose orbit minimum is least to that
//!   minimum, then repeat inside its stabilizer; each next minimum is above
//!   the previous one (it lies in an orbit of the larger group whose least
//!   code is at least that one, and is not that code, which is fixed). A
//!   group element keeps every answer, so an image of a separating set
//!   separates. (A subset of the group, as a long list's stabilizer may
//!   be, only keeps more codes.)
//! - The least pair (`pairs`, proof there): every set also has an image
//!   whose first two guesses are a pair of least *pair value*; below the
//!   second guess only guesses that keep every pair's value at least the
//!   second guess are tried (the last one too, as far as the guesses
//!   chosen before the last two go).
//! - Counting: with `r` guesses left a class of `s` secrets splits into at
//!   most `A^r` classes, `A` the number of answers a guess can give; so
//!   `s > A^r` is a dead end. At the last guess (`r = 1`) a guess must give
//!   distinct answers inside every class: it is tested directly, pair by
//!   pair, on every candidate guess at once.
//! - Nothing is memoized.
//!
//! Beside this file: the classes kept at a node and their refinement by
//! a guess (`classes`), the last guesses' test on bits (`alive`) and its
//! sieve (`sieve`), the branching on pairs (`hit`), the least pair
//! (`pairs`), the upper bounds (`upper`, `local`), the tasks a size is cut
//! into (`tasks`) and the journal that lets a stopped run resume
//! (`journal`).
//!
//! Determinism: the search order is fixed, so the set returned is the
//! first of its size in that order, whatever the number of threads (near
//! the root the sets are cut into tasks by their first guesses; a task
//! stops early only when an earlier task has found a set). Only a run
//! stopped by its time budget may return another set (a valid one). Node
//! counts of the last level may vary with the threads (later tasks stop
//! at different points).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::exec::Parallel;
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::symmetry::Stabilizer;

mod alive;
mod classes;
mod hit;
mod journal;
mod local;
mod pairs;
mod sieve;
mod tasks;
mod upper;

use alive::Alive;
use classes::Classes;
pub use journal::{NoJournal, Resume, StaticJournal, TaskList};
use pairs::PairTable;
use tasks::{Journaled, LevelRun};

/// Iterations of the local search per size, by default (see
/// [`StaticConfig::local_iterations`]).
pub const DEFAULT_LOCAL_ITERATIONS: u64 = 20_000;

/// Most bytes the two answer tables of a static search may take
/// (guesses × secrets, twice): 1 GiB.
pub const STATIC_MAX_TABLE_BYTES: u64 = 1 << 30;

/// Why a static search cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaticError {
    /// The answer tables would be too large.
    #[error(
        "the static search of {game} needs {bytes} bytes of answer tables \
         (guesses × secrets, twice); at most {max} are allowed"
    )]
    TooLarge {
        /// The game's name.
        game: String,
        /// Bytes the tables would take.
        bytes: u64,
        /// The most allowed.
        max: u64,
    },
    /// A shard `i` of `n` with `n` = 0 or `i` ≥ `n`.
    #[error("shard {index} of {count} does not exist: the shards of {count} are 0 to {count} - 1")]
    Shard {
        /// The shard asked.
        index: usize,
        /// Shards in all.
        count: usize,
    },
    /// The journal of refuted tasks failed (module `journal`).
    #[error("{0}")]
    Journal(String),
}

/// What the search may spend.
#[derive(Debug, Clone, Copy)]
pub struct StaticConfig {
    /// Largest set size searched exhaustively (none: no limit).
    pub max_size: Option<usize>,
    /// Wall time after which the search stops with proven bounds.
    pub time_budget: Option<Duration>,
    /// Iterations of the local search (tabu search) for a separating set
    /// one guess smaller than the best known, per size tried (0: none).
    pub local_iterations: u64,
    /// Seed of the local search's draws.
    pub seed: u64,
    /// The least-pair cut of symmetric sets (module `pairs`): on by
    /// default; off only to compare with the plain search.
    pub least_pair: bool,
    /// Smallest size searched exhaustively (none: from the counting
    /// bound). A size refuted refutes every smaller one, so the bounds
    /// stay proven; a set found is then proven minimal only if the sizes
    /// below it are refuted.
    pub from_size: Option<usize>,
    /// Search each size's tasks last first: the sets whose guesses are
    /// far apart before those with a close pair (module `pairs`). Finds a
    /// set sooner when one exists; a refutation takes as long.
    pub far_first: bool,
    /// `Some((i, n))`: search only the tasks whose index is `i` modulo
    /// `n` (module `tasks`), one shard of `n` run apart (other machines,
    /// each with its own copy of a checkpoint, merged afterwards). A size
    /// is refuted only once every task is, by this run or the journal's
    /// earlier ones; a set found is a valid set, the first of the shard's
    /// tasks.
    pub shard: Option<(usize, usize)>,
    /// Cut each size into at least this many tasks when it can: the
    /// first depth (one to three first guesses, below the size) that
    /// gives as many. More tasks balance the threads better and make
    /// each piece a checkpoint keeps smaller (module `journal`); the
    /// sets searched and the set found are the same whatever the cut.
    pub tasks: usize,
    /// Below the first four guesses, branch on the hardest pair of
    /// secrets left together (module `hit`) instead of on the next guess
    /// in code order: on by default; off only to compare with the plain
    /// search. The sizes proven are the same; the set found may differ.
    pub hardest_pair: bool,
    /// Improve the greedy set before the exhaustive search (completions,
    /// hill climbing, then the local search): on by default. Off, the
    /// greedy set (under a second) is the upper bound the search starts
    /// from, for legs of a long search of one size below the best known
    /// (the improvement takes about 160 s on moo:4x10 and cannot help).
    pub improve: bool,
}

/// Tasks a size is cut into by default (see [`StaticConfig::tasks`]).
pub const DEFAULT_TASKS: usize = 256;

impl Default for StaticConfig {
    fn default() -> StaticConfig {
        StaticConfig {
            max_size: None,
            time_budget: None,
            local_iterations: DEFAULT_LOCAL_ITERATIONS,
            seed: 0,
            least_pair: true,
            from_size: None,
            far_first: false,
            shard: None,
            tasks: DEFAULT_TASKS,
            hardest_pair: true,
            improve: true,
        }
    }
}

/// One size tried by the local search.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticLocal {
    /// The set size.
    pub size: usize,
    /// A separating set of this size was found.
    pub found: bool,
    /// Iterations done.
    pub iterations: u64,
    /// Fewest pairs of secrets left together by a set of this size met
    /// (0 when found).
    pub pairs: u64,
    /// Wall time.
    pub seconds: f64,
}

/// A progress report, sent about every five seconds during a level.
#[derive(Debug, Clone, Copy)]
pub struct StaticProgress {
    /// The set size being searched.
    pub size: usize,
    /// Nodes visited so far, all levels.
    pub nodes: u64,
    /// Tasks of this size finished (tasks are sets of guesses with the
    /// same first few; they differ much in size).
    pub tasks_done: usize,
    /// Tasks of this size in all.
    pub tasks: usize,
    /// Seconds since the start.
    pub seconds: f64,
}

/// One size searched exhaustively (or stopped).
#[derive(Debug, Clone, PartialEq)]
pub struct StaticLevel {
    /// The set size.
    pub size: usize,
    /// Some set of this size separates.
    pub found: bool,
    /// Every set of this size was tried (false: stopped by the budget).
    pub complete: bool,
    /// Nodes visited at this size.
    pub nodes: u64,
    /// Wall time of this size.
    pub seconds: f64,
    /// Tasks of this size refuted by earlier runs (module `journal`), not
    /// searched again.
    pub resumed: usize,
    /// Tasks of this size in all.
    pub tasks: usize,
}

/// The result of a static search.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticSolution {
    /// A separating set, smallest code first: a smallest one when `exact`.
    pub guesses: Vec<Code>,
    /// Whether `guesses.len()` is proven minimal.
    pub exact: bool,
    /// Proven lower bound on the size (equal to `upper` when exact).
    pub lower: usize,
    /// The size of `guesses`: a proven upper bound.
    pub upper: usize,
    /// Number of secrets.
    pub secrets: usize,
    /// Search nodes visited (guess sets tried), all sizes.
    pub nodes: u64,
    /// Wall time in seconds, tables and greedy set included.
    pub seconds: f64,
    /// Sizes below this are refuted by counting alone (`A^t` < secrets).
    pub counted: usize,
    /// The size of the greedy set found first (the first upper bound).
    pub greedy: usize,
    /// The size the cheap heuristic reached (greedy, completions, hill
    /// climbing), where the local search starts.
    pub heuristic: usize,
    /// Each size tried by the local search, in order.
    pub local: Vec<StaticLocal>,
    /// Each size searched, in order.
    pub levels: Vec<StaticLevel>,
}

impl StaticSolution {
    /// The guesses needed in the worst case to *win* when a separating set
    /// of `size` questions is asked: see [`with_final`].
    pub fn with_final(&self) -> usize {
        with_final(self.upper, self.secrets)
    }

    /// Proven lower bound of [`StaticSolution::with_final`].
    pub fn with_final_lower(&self) -> usize {
        with_final(self.lower, self.secrets)
    }
}

/// The fewest guesses that win every secret in the static game with a
/// final guess, when `size` questions is the fewest that separate
/// `secrets` secrets: `min(size + 1, secrets)`.
///
/// Proof: asking a set `S` that separates, then naming the one secret its
/// answers leave, wins within `|S| + 1` guesses, or within `|S|` when every
/// secret is in `S` (each is then answered `kA0B` by itself). Conversely a
/// set after which one final guess always wins must separate the secrets
/// outside it (two of them with equal answers could not both be named),
/// and the secrets inside it are told apart by their `kA0B`; so it
/// separates, and it costs `|S| + 1 >= size + 1` unless it holds every
/// secret, which costs at least `secrets`. Both bounds are met.
pub fn with_final(size: usize, secrets: usize) -> usize {
    (size + 1).min(secrets)
}

/// The answer tables and the shared state of one search.
struct Shared<'a> {
    game: &'a Game,
    /// Number of secrets.
    n: usize,
    /// Number of allowed guesses.
    m: usize,
    /// The allowed guesses, in code order.
    guesses: Vec<Code>,
    /// `by_guess[g * n + s]`: answer index of secret `s` to guess `g`.
    by_guess: Vec<u8>,
    /// `by_secret[s * m + g]`: the same, row by secret.
    by_secret: Vec<u8>,
    /// `pow[r]`: `A^r`, saturated.
    pow: Vec<u64>,
    /// Answers a guess can give (`A`).
    answers: usize,
    /// One above the largest answer index in the tables.
    keys: usize,
    start: Instant,
    deadline: Option<Instant>,
    stop: AtomicBool,
    nodes: AtomicU64,
    /// Milliseconds since the start of the last progress report.
    reported: AtomicU64,
    /// Tasks of the current size: finished, and in all.
    tasks_done: AtomicUsize,
    tasks: AtomicUsize,
    progress: &'a (dyn Fn(&StaticProgress) + Sync),
    par: &'a dyn Parallel,
    /// Whether the least-pair cut is used.
    least_pair: bool,
    /// Whether each size's tasks run last first.
    far_first: bool,
    /// Only the tasks `i` modulo `n` (see [`StaticConfig::shard`]).
    shard: Option<(usize, usize)>,
    /// Tasks a size is cut into, at least, when it can be.
    min_tasks: usize,
    /// Guesses taken in code order before the search branches on pairs
    /// (module `hit`; `usize::MAX`: never). At least 2.
    lex: usize,
    /// Pools of at least this many words sift through the sieve's cache
    /// (module `sieve`, [`sieve::CACHE_MIN_WORDS`]; tests set 0 or
    /// `usize::MAX` to take either path).
    sieve_words: usize,
    /// The pair values of each first guess met (module `pairs`).
    pair_tables: Mutex<Vec<(usize, Option<std::sync::Arc<PairTable>>)>>,
    /// The tasks refuted by earlier runs, and told of each one refuted.
    journal: &'a dyn StaticJournal,
    /// The journal's first error: the search stops and returns it.
    failed: Mutex<Option<String>>,
}

/// One search task's own counters.
struct Task<'c, 'a> {
    ctx: &'c Shared<'a>,
    /// The task's index, and the least index of a task that found a set.
    index: usize,
    found_by: &'c AtomicUsize,
    /// Guesses chosen (indices into `ctx.guesses`).
    chosen: Vec<usize>,
    /// Nodes not yet added to the shared count.
    nodes: u64,
    /// Nodes visited in all.
    total: u64,
    /// The task stopped before its end (budget, an earlier task's set).
    gave_up: bool,
    /// The task's place in the journal (none for the prefixes' search).
    journal: Option<Journaled>,
    /// Buffer of the last level: the candidate last guesses.
    alive: Alive,
    /// The pairs weighed at the node of the last two guesses.
    sieve: sieve::Sieve,
    /// Bucket counters of a refinement.
    counts: Vec<u32>,
    /// A refinement's next place in each bucket.
    places: Vec<u32>,
    /// Scratch of a refinement's ordering of its classes by size.
    sizes: Vec<u32>,
    /// Buffer of the last two guesses' test: a class's secrets grouped by
    /// their answer to the next to last guess.
    grouped: Vec<u16>,
    /// The pair that ended the last call of the last two guesses' test
    /// without a last guess, when a pair did (module `sieve`'s killers).
    killer: Option<(u16, u16)>,
    /// The pair values of the first chosen guess, when the least-pair cut
    /// applies.
    pairs: Option<(usize, Option<std::sync::Arc<PairTable>>)>,
    /// For each number `d` of guesses chosen, the guesses the least-pair
    /// cut lets join the first `d` chosen (1: allowed), `m` bytes each:
    /// all allowed below `d = 2`, and row `d` narrows row `d - 1` by the
    /// `d`-th guess's pairs.
    allowed: Vec<u8>,
}

/// For tests: whether a set of each size in `sizes` separates, and
/// the nodes each size's search visited.
#[cfg(test)]
pub(crate) fn levels_for_test(
    game: &Game,
    config: StaticConfig,
    sizes: std::ops::RangeInclusive<usize>,
) -> Vec<(usize, bool, u64)> {
    sets_for_test(game, config, None, None, sizes)
        .into_iter()
        .map(|(t, set, nodes)| (t, set.is_some(), nodes))
        .collect()
}

/// For tests: the set found at each size in `sizes` (if any) and the
/// nodes visited, with the branching on pairs after `lex` guesses in code
/// order when given (at least 2; module `hit`).
#[cfg(test)]
pub(crate) fn sets_for_test(
    game: &Game,
    config: StaticConfig,
    lex: Option<usize>,
    sieve_words: Option<usize>,
    sizes: std::ops::RangeInclusive<usize>,
) -> Vec<(usize, Option<Vec<Code>>, u64)> {
    let mut ctx = Shared::quiet(game, config);
    if let Some(lex) = lex {
        assert!(lex >= 2 && config.hardest_pair);
        ctx.lex = lex;
    }
    if let Some(words) = sieve_words {
        ctx.sieve_words = words;
    }
    sizes
        .map(|t| {
            let before = ctx.nodes.load(Ordering::Relaxed);
            let run = ctx.level(t);
            assert!(run.complete);
            let set = run
                .found
                .map(|set| set.iter().map(|&g| ctx.guesses[g]).collect());
            (t, set, ctx.nodes.load(Ordering::Relaxed) - before)
        })
        .collect()
}

/// Finds a smallest separating set of `game`'s guesses for its secrets and
/// proves its size, within `config`; the work is spread by `par`,
/// `progress` is called about every five seconds while a size is searched.
pub fn solve_static(
    game: &Game,
    config: StaticConfig,
    par: &dyn Parallel,
    progress: &(dyn Fn(&StaticProgress) + Sync),
) -> Result<StaticSolution, StaticError> {
    solve_static_resumed(game, config, par, progress, &NoJournal)
}

/// [`solve_static`], skipping the tasks `journal` holds as refuted and
/// telling it each task refuted (module `journal`).
pub fn solve_static_resumed(
    game: &Game,
    config: StaticConfig,
    par: &dyn Parallel,
    progress: &(dyn Fn(&StaticProgress) + Sync),
    journal: &dyn StaticJournal,
) -> Result<StaticSolution, StaticError> {
    if let Some((index, count)) = config.shard.filter(|&(i, n)| i >= n) {
        return Err(StaticError::Shard { index, count });
    }
    let shared = Shared::new(game, config, par, progress, journal)?;
    let solution = shared.run(config);
    match shared
        .failed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        Some(error) => Err(StaticError::Journal(error)),
        None => Ok(solution),
    }
}

/// For tests: a search state, one thread, no progress, no journal.
#[cfg(test)]
impl<'a> Shared<'a> {
    pub(crate) fn quiet(game: &'a Game, config: StaticConfig) -> Shared<'a> {
        Shared::new(game, config, &crate::exec::Sequential, &|_| {}, &NoJournal).unwrap()
    }
}

impl<'a> Shared<'a> {
    /// The answer tables of `game` and a fresh search state.
    fn new(
        game: &'a Game,
        config: StaticConfig,
        par: &'a dyn Parallel,
        progress: &'a (dyn Fn(&StaticProgress) + Sync),
        journal: &'a dyn StaticJournal,
    ) -> Result<Shared<'a>, StaticError> {
        let start = Instant::now();
        let secrets = game.secrets();
        let guesses: Vec<Code> = game.codes().all().filter(|&c| game.is_guess(c)).collect();
        let (n, m) = (secrets.len(), guesses.len());
        let bytes = 2 * n as u64 * m as u64;
        if bytes > STATIC_MAX_TABLE_BYTES {
            return Err(StaticError::TooLarge {
                game: game.name(),
                bytes,
                max: STATIC_MAX_TABLE_BYTES,
            });
        }
        let mut by_guess = vec![0u8; n * m];
        let rows: Vec<Vec<u8>> = crate::exec::map(par, m, |g| {
            secrets
                .iter()
                .map(|&s| game.feedback(s, guesses[g]).0)
                .collect()
        });
        for (g, row) in rows.into_iter().enumerate() {
            by_guess[g * n..(g + 1) * n].copy_from_slice(&row);
        }
        let mut by_secret = vec![0u8; n * m];
        for g in 0..m {
            for s in 0..n {
                by_secret[s * m + g] = by_guess[g * n + s];
            }
        }
        let answers = game.possible_feedbacks().count().max(1);
        let keys = by_guess.iter().map(|&f| f as usize + 1).max().unwrap_or(1);
        let mut pow = vec![1u64];
        while pow.len() <= n + 1 {
            let last = *pow.last().expect("not empty");
            pow.push(last.saturating_mul(answers as u64));
        }
        let ctx = Shared {
            game,
            n,
            m,
            guesses,
            by_guess,
            by_secret,
            pow,
            answers,
            keys,
            start,
            deadline: config.time_budget.map(|b| start + b),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            reported: AtomicU64::new(0),
            tasks_done: AtomicUsize::new(0),
            tasks: AtomicUsize::new(0),
            progress,
            par,
            least_pair: config.least_pair,
            far_first: config.far_first,
            shard: config.shard,
            min_tasks: config.tasks,
            lex: if config.hardest_pair {
                hit::LEX_DEPTH.max(2)
            } else {
                usize::MAX
            },
            sieve_words: sieve::CACHE_MIN_WORDS,
            pair_tables: Mutex::new(Vec::new()),
            journal,
            failed: Mutex::new(None),
        };
        Ok(ctx)
    }
    fn run(&self, config: StaticConfig) -> StaticSolution {
        let n = self.n;
        // Counting: t questions give at most A^t answer vectors.
        let counted = if n <= 1 {
            0
        } else {
            (0..).find(|&t| self.pow[t] >= n as u64).unwrap_or(n)
        };
        let greedy = self.greedy(None, usize::MAX).0;
        let mut best = match config.improve {
            true => self.improve(greedy.clone()),
            false => greedy.clone(),
        };
        let heuristic = best.len();
        let local = match config.improve {
            true => self.descend(&mut best, counted, &config),
            false => Vec::new(),
        };
        let mut lower = counted;
        let mut levels = Vec::new();
        let mut exact = true;
        // Sizes below `from_size` are not searched; a size refuted still
        // refutes every smaller one (a separating set and any other
        // guesses separate), so `lower` is always one above the largest
        // size refuted.
        let mut t = counted.max(config.from_size.unwrap_or(0));
        while t < best.len() {
            if config.max_size.is_some_and(|max| t > max) {
                exact = false;
                break;
            }
            if self.late() {
                exact = false;
                break;
            }
            let level_start = Instant::now();
            let before = self.nodes.load(Ordering::Relaxed);
            let LevelRun {
                found,
                complete,
                resumed,
                tasks,
            } = self.level(t);
            levels.push(StaticLevel {
                size: t,
                found: found.is_some(),
                complete,
                nodes: self.nodes.load(Ordering::Relaxed) - before,
                seconds: level_start.elapsed().as_secs_f64(),
                resumed,
                tasks,
            });
            if let Some(set) = found {
                // The minimum when every smaller size is refuted.
                best = set;
                break;
            }
            if !complete {
                exact = false;
                break;
            }
            t += 1;
            lower = t;
        }
        let mut guesses: Vec<Code> = best.iter().map(|&g| self.guesses[g]).collect();
        guesses.sort_unstable();
        let upper = guesses.len();
        StaticSolution {
            guesses,
            exact: exact && lower == upper,
            lower: lower.min(upper),
            upper,
            secrets: n,
            nodes: self.nodes.load(Ordering::Relaxed),
            seconds: self.start.elapsed().as_secs_f64(),
            counted,
            greedy: greedy.len(),
            heuristic,
            local,
            levels,
        }
    }

    /// Whether the time budget is spent (the search then stops with what
    /// it has proven).
    fn late(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn task<'c>(&'c self, index: usize, found_by: &'c AtomicUsize) -> Task<'c, 'a> {
        Task {
            ctx: self,
            index,
            found_by,
            chosen: Vec::new(),
            nodes: 0,
            total: 0,
            gave_up: false,
            journal: None,
            alive: Alive::new(self.m),
            sieve: sieve::Sieve::new(self.sieve_words),
            counts: vec![0; 256],
            places: vec![0; 256],
            sizes: Vec::new(),
            grouped: Vec::new(),
            killer: None,
            pairs: None,
            allowed: vec![1; 2 * self.m],
        }
    }

    /// Every secret in one class (none when there is at most one secret).
    fn root_classes(&self) -> Classes {
        if self.n <= 1 {
            return Classes::default();
        }
        Classes {
            members: (0..self.n as u16).collect(),
            spans: vec![(0, self.n as u32)],
        }
    }

    /// The game's group: every relabelling and position permutation, or
    /// the stabilizer of the secret list.
    fn root_stabilizer(&self) -> Stabilizer {
        let book = self.game.codes();
        let rules = self.game.rules();
        match self.game.secret_set() {
            Some(set) => Stabilizer::of_list(book, set.codes()),
            None => Stabilizer::root(rules),
        }
    }

    /// The pair values of first guess `g1` (module `pairs`), built once
    /// and shared by the tasks; `None` when the cut is off or can do
    /// nothing.
    fn pair_table(&self, g1: usize) -> Option<std::sync::Arc<PairTable>> {
        if !self.least_pair {
            return None;
        }
        let mut tables = self.pair_tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, table)) = tables.iter().find(|(g, _)| *g == g1) {
            return table.clone();
        }
        let root = self.root_stabilizer();
        let table =
            PairTable::new(self.game, &self.guesses, g1, &root, self.par).map(std::sync::Arc::new);
        tables.push((g1, table.clone()));
        table
    }

    /// Counts nodes; stops the search past the deadline; reports progress.
    fn tick(&self, size: usize) {
        let elapsed = self.start.elapsed();
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.store(true, Ordering::Relaxed);
        }
        let ms = elapsed.as_millis() as u64;
        let last = self.reported.load(Ordering::Relaxed);
        if ms >= last + 5000
            && self
                .reported
                .compare_exchange(last, ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.report(size);
        }
    }

    fn report(&self, size: usize) {
        (self.progress)(&StaticProgress {
            size,
            nodes: self.nodes.load(Ordering::Relaxed),
            tasks_done: self.tasks_done.load(Ordering::Relaxed),
            tasks: self.tasks.load(Ordering::Relaxed),
            seconds: self.start.elapsed().as_secs_f64(),
        });
    }
}

impl Task<'_, '_> {
    /// Whether to give up: the budget is spent, or an earlier task found a
    /// set.
    fn cancelled(&mut self, t: usize) -> bool {
        self.nodes += 1;
        self.total += 1;
        if self.nodes.is_multiple_of(1024) {
            self.ctx.nodes.fetch_add(1024, Ordering::Relaxed);
            self.nodes -= 1024;
            self.ctx.tick(t);
        }
        self.gave_up |= self.ctx.stop.load(Ordering::Relaxed)
            || self.found_by.load(Ordering::Relaxed) < self.index;
        self.gave_up
    }

    /// Collects the prefixes of `depth` guesses that survive the bounds.
    fn prefixes(
        &mut self,
        classes: &Classes,
        stab: Option<&Stabilizer>,
        from: usize,
        t: usize,
        depth: usize,
        out: &mut Vec<Vec<usize>>,
    ) {
        if self.chosen.len() == depth {
            out.push(self.chosen.clone());
            return;
        }
        let left = t - self.chosen.len();
        let book = self.ctx.game.codes();
        let filter = stab.and_then(|s| s.orbit_filter(book));
        for g in from..=self.ctx.m.saturating_sub(left) {
            let code = self.ctx.guesses[g];
            if filter.as_ref().is_some_and(|f| !f.keeps(code)) {
                continue;
            }
            if !self.admits(g) {
                continue;
            }
            self.nodes += 1;
            let Some(next) = self.refine(classes, g, self.ctx.pow[left - 1]) else {
                continue;
            };
            let next_stab = stab.map(|s| s.fix(book.symbols(code)));
            self.push(g);
            self.prefixes(&next, next_stab.as_ref(), g + 1, t, depth, out);
            self.chosen.pop();
        }
    }

    /// Replays a prefix, then searches below it.
    fn start(
        &mut self,
        prefix: &[usize],
        root: &Classes,
        stab: &Stabilizer,
        t: usize,
    ) -> Option<Vec<usize>> {
        let book = self.ctx.game.codes();
        let mut classes = root.clone();
        let mut stab = stab.clone();
        for &g in prefix {
            let left = t - self.chosen.len();
            classes = self
                .refine(&classes, g, self.ctx.pow[left - 1])
                .expect("a prefix passed the bounds");
            stab = stab.fix(book.symbols(self.ctx.guesses[g]));
            self.push(g);
        }
        // An earlier run refuted every guess below `begin` here.
        let begin = self.journal.as_ref().map_or(0, |j| j.begin);
        let from = prefix.last().map_or(0, |&g| g + 1).max(begin);
        let stab = (!stab.is_trivial()).then_some(stab);
        self.search(&classes, stab.as_ref(), from, t)
    }

    /// The first separating completion of the chosen guesses by guesses
    /// from index `from` on, to `t` in all.
    fn search(
        &mut self,
        classes: &Classes,
        stab: Option<&Stabilizer>,
        from: usize,
        t: usize,
    ) -> Option<Vec<usize>> {
        if classes.is_empty() {
            return Some(self.chosen.clone());
        }
        let left = t - self.chosen.len();
        if left == 0 {
            return None;
        }
        if left == 1 {
            if self.cancelled(t) {
                return None;
            }
            let g = self.last(classes, from)?;
            let mut set = self.chosen.clone();
            set.push(g);
            return Some(set);
        }
        let book = self.ctx.game.codes();
        let filter = stab.and_then(|s| s.orbit_filter(book));
        // With two left, both come from the guesses from `from` on that
        // the least-pair cut allows: the sieve's pool (module `sieve`).
        let pool = if left == 2 {
            let pool = self.pool_from(from);
            if self.weigh(&mut &*classes, &pool, sieve::Weigh::InOrder) == 0 {
                return None;
            }
            pool
        } else {
            Vec::new()
        };
        for g in from..=self.ctx.m.saturating_sub(left) {
            let code = self.ctx.guesses[g];
            if filter.as_ref().is_some_and(|f| !f.keeps(code)) {
                continue;
            }
            if !self.admits(g) {
                continue;
            }
            if self.cancelled(t) {
                return None;
            }
            if self
                .journal
                .as_ref()
                .is_some_and(|j| j.top == self.chosen.len())
            {
                self.advance(g);
            }
            if left == 2 {
                // The last two guesses at once: no classes built.
                if let Some(h) = self.last_sifted(&mut &*classes, g, &pool, g + 1) {
                    let mut set = self.chosen.clone();
                    set.extend([g, h]);
                    return Some(set);
                }
                continue;
            }
            let Some(next) = self.refine(classes, g, self.ctx.pow[left - 1]) else {
                continue;
            };
            let next_stab = stab
                .map(|s| s.fix(book.symbols(code)))
                .filter(|s| !s.is_trivial());
            self.push(g);
            let found = if self.chosen.len() >= t.min(self.ctx.lex) {
                // `g` is the least of the guesses still free: the rest
                // come from the guesses after it (module `hit`).
                let pool = self.pool_from(g + 1);
                self.branch(&next, pool, t)
            } else {
                self.search(&next, next_stab.as_ref(), g + 1, t)
            };
            self.chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
}
