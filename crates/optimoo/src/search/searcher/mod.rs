//! The node search: `solve(S, d, cutoff)` by depth-first branch and bound
//! over the memo (see the invariants in [`crate::search`]).
//!
//! Invariant: `solve` returns `Exact(cost(S, d))` when that is below the
//! cut-off and otherwise `AtLeast(b)` with `cost(S, d) >= b >= cutoff`;
//! whatever it stores in the [`Memo`] is true of the set (exact costs, or
//! lower bounds), under its raw key and, for small sets, its canonical one
//! ([`crate::model::canon`]).
//!
//! Every answer rule ([`crate::model::AnswerRule`]): the search reads each
//! secret's answers to every guess (its table by secret,
//! [`FeedbackTable::by_secret`]: the game's own table under a symmetric
//! rule, its transpose under Wordle's), and its bounds hold for any rule
//! (docs/search.md, "Answer rules"). Under consistent guesses
//! ([`crate::model::GuessRule::Consistent`]) only candidates are scanned;
//! Wordle's hard mode, whose allowed guesses depend on the history, is
//! searched by [`crate::search::hard`] from [`Searcher::run`] and
//! [`Searcher::optimum`] alone (`SearchError::Hard` for the rest).
//!
//! A deadline ([`Searcher::with_deadline`]) breaks that invariant on
//! purpose: once it has passed, `solve` answers `AtLeast(INF)` at once and
//! [`Searcher::aborted`] is true; from then on nothing the searcher answers
//! or stored is to be trusted, and callers keep only the results of calls
//! that returned before it was set (see [`Searcher::cost_below`]).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::exec::Parallel;
use crate::model::code::Code;
use crate::model::feedback::{Feedback, FeedbackTable};
use crate::model::game::Game;
use crate::model::symmetry::{self, Stabilizer};
use crate::model::GuessRule;
use crate::observe::{ClassReport, Observer, Phase, Progress};
use crate::search::bound::{check_costs, Bounds, Cost, INF, MAX_PER_GUESS_TOTAL};
use crate::search::config::{Config, Driver, SearchError, Solution};
use crate::search::context::Context;
use crate::search::kernel::{Kernel, KernelPath};
use crate::search::memo::{raw_key, Entry, Memo};
use crate::search::pool::NodePool;
use crate::search::scan::{Live, Scan};
use crate::search::value::{Outcome, Scored};
use crate::search::weights::Weights;
use crate::tree::{Node, Tree};

mod build;
mod evaluate;

/// A search under a cut-off that proved the optimum is not below it
/// (`Searcher::run_below`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Refuted {
    /// The bound proved: at least the cut-off ([`INF`]: no strategy meets
    /// the cap).
    pub bound: u64,
    /// Search nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
}

/// The search state shared by every node (and thread).
pub struct Searcher<'a> {
    /// What every node reads and nothing changes.
    cx: Context<'a>,
    memo: Memo,
    nodes: AtomicU64,
    /// First-level classes solved so far (for progress).
    classes_done: AtomicU64,
    started: Instant,
    /// Who runs independent classes and guesses side by side.
    par: &'a dyn Parallel,
    /// Who hears about progress.
    observer: &'a dyn Observer,
    /// When to give up (see the module doc); `None`: never.
    deadline: Option<Instant>,
    /// Set once the deadline has passed: every later answer is void.
    aborted: AtomicBool,
    /// A flag that, once set, brings the deadline forward to now (a
    /// stop asked from outside, such as Ctrl-C); read only while there is
    /// a deadline.
    interrupt: Option<&'a AtomicBool>,
    /// Who is shown the memo now and then while the search runs.
    keeper: Option<Keeper<'a>>,
}

/// Shows the memo to `keep` at most once every `every`, from inside the
/// search (the node that finds it due waits for it).
struct Keeper<'a> {
    every: Duration,
    /// When it is next due, in nanoseconds since the searcher started.
    next: AtomicU64,
    keep: &'a (dyn Fn(&Memo) + Sync),
}

impl<'a> Searcher<'a> {
    /// Prepares a single-threaded, silent search of `game` (builds the
    /// feedback table).
    pub fn new(game: &'a Game, config: Config) -> Result<Searcher<'a>, SearchError> {
        Searcher::with_driver(game, config, Driver::sequential())
    }

    /// Prepares a search of `game` run and reported by `driver` (builds
    /// the full feedback table, `N²` bytes: see [`crate::search::memory`];
    /// under an asymmetric rule its transpose, [`FeedbackTable::by_secret`],
    /// the search's own).
    pub fn with_driver(
        game: &'a Game,
        config: Config,
        driver: Driver<'a>,
    ) -> Result<Searcher<'a>, SearchError> {
        let table = if game.rules().answer().is_symmetric() {
            Cow::Borrowed(game.table_with(driver.par))
        } else {
            // Only the secrets' rows are read (a word list's 2315 answers
            // of its 12972 codes: 30 MB, not 168 MB).
            Cow::Borrowed(game.secret_rows_with(driver.par))
        };
        Searcher::with_table(game, config, driver, table)
    }

    /// Prepares a single-threaded, silent search of `set` (sorted,
    /// distinct) and its subsets only: the game's table if it is built,
    /// else the rows of `set` alone (`|set| · N` bytes), so that a player
    /// asking about a few secrets of a large game pays for those.
    pub fn for_set(
        game: &'a Game,
        config: Config,
        set: &[Code],
    ) -> Result<Searcher<'a>, SearchError> {
        let searcher = Searcher::for_set_until(game, config, set, None)?;
        Ok(searcher.expect("without a deadline the rows are built"))
    }

    /// [`Searcher::for_set`], giving up on building the rows of `set` once
    /// `deadline` has passed (`Ok(None)`), and searching until it
    /// ([`Searcher::with_deadline`]).
    pub fn for_set_until(
        game: &'a Game,
        config: Config,
        set: &[Code],
        deadline: Option<Instant>,
    ) -> Result<Option<Searcher<'a>>, SearchError> {
        if game.rules().guesses() == GuessRule::Hard {
            return Err(SearchError::Hard(
                "a position's search (the player's, ranks) is not done for hard mode yet; \
                 optimoo solve --hard solves the whole game"
                    .into(),
            ));
        }
        let symmetric = game.rules().answer().is_symmetric();
        let table = match game.built_table() {
            Some(t) if symmetric => Cow::Borrowed(t),
            _ => match FeedbackTable::by_secret_until(game.codes(), set, deadline) {
                Some(t) => Cow::Owned(t),
                None => return Ok(None),
            },
        };
        let searcher = Searcher::with_table(game, config, Driver::sequential(), table)?;
        Ok(Some(searcher.with_deadline(deadline)))
    }

    fn with_table(
        game: &'a Game,
        mut config: Config,
        driver: Driver<'a>,
        table: Cow<'a, FeedbackTable>,
    ) -> Result<Searcher<'a>, SearchError> {
        if game.guesses_restricted() || !rules_have_canon(game) {
            // Canonical keys identify sets symmetric under the whole group,
            // whose costs differ when only listed codes may be guessed; a
            // rule without symmetry (Wordle's) has no canonical form.
            config.tuning.canon_max = 0;
        }
        if config.cap == Some(0) {
            return Err(SearchError::ZeroCap);
        }
        if let Some(g) = config.first {
            if g.index() >= game.len() || !game.is_guess(g) {
                let text = if g.index() < game.len() {
                    game.codes().format(g)
                } else {
                    format!("#{}", g.index())
                };
                return Err(SearchError::First(text));
            }
        }
        if game.rules().guesses() == GuessRule::Hard && config.objective != Cost::Total {
            return Err(SearchError::Hard(
                "hard mode is searched for the average objective (with or without --cap) only so \
                 far: drop --objective"
                    .into(),
            ));
        }
        let branching = game.possible_feedbacks().count() - 1;
        let bounds = if config.objective == Cost::PerGuess {
            check_costs(&config.costs, game.len())?;
            if config.cap != Some(config.costs.len()) {
                return Err(SearchError::CostsCap {
                    len: config.costs.len(),
                    cap: config.cap,
                });
            }
            Bounds::per_guess(&config.costs, branching, game.len())
        } else {
            Bounds::new(config.objective, branching, game.len())
        };
        // The path is checked whatever the objective, so that a bad
        // OPTIMOO_KERNEL is refused by every search, not only some.
        let path = match config.tuning.kernel {
            Some(path) => path,
            None => KernelPath::from_env()?,
        };
        let kernel = Kernel::new(
            game.possible_feedbacks(),
            game.win(),
            branching as u64,
            path,
        )?;
        let rules = game.rules();
        let weights = if config.objective == Cost::Weighted {
            Some(check_weights(game, &config.weights, branching)?)
        } else {
            None
        };
        // Weights that differ within an orbit of the group break its
        // symmetry: no reduction then but the absent symbols' (which fix
        // every candidate), and no canonical keys.
        let symmetric = config.objective != Cost::Weighted
            || (game.secret_set().is_none() && per_orbit(game, &config.weights));
        if !symmetric {
            config.tuning.canon_max = 0;
        }
        let memo_codes = config.tuning.memo_codes;
        let root = match game.secret_set() {
            _ if !symmetric => Stabilizer::identity(rules.positions(), rules.symbols()),
            Some(set) => Stabilizer::of_list(game.codes(), set.codes()),
            None => Stabilizer::root(rules),
        };
        // The dense codes only where the whole table is (a table of some
        // rows serves a player's few secrets, which never need them).
        let dense = (config.objective == Cost::Total && table.is_full())
            .then(|| kernel.dense_table(game.len(), |c| table.row(c)))
            .flatten();
        Ok(Searcher {
            cx: Context {
                dense,
                root,
                game,
                table,
                bounds,
                perms: symmetry::position_permutations(rules.positions()),
                all_symbols: (1u64 << rules.symbols()) - 1,
                slots: rules.feedback_slots(),
                win: game.win(),
                kernel: (config.objective == Cost::Total).then_some(kernel),
                weights,
                config,
                owner: crate::search::recent::new_owner(),
            },
            memo: Memo::new(memo_codes),
            nodes: AtomicU64::new(0),
            classes_done: AtomicU64::new(0),
            started: Instant::now(),
            par: driver.par,
            observer: driver.observer,
            deadline: None,
            aborted: AtomicBool::new(false),
            interrupt: None,
            keeper: None,
        })
    }

    /// The same searcher, told to give up at `deadline` (see the module
    /// doc: after that its answers are void).
    pub fn with_deadline(self, deadline: Option<Instant>) -> Searcher<'a> {
        Searcher { deadline, ..self }
    }

    /// The same searcher, whose deadline comes at once when `flag` is set
    /// (`None`: no flag). Without a deadline the flag is not read: a
    /// search that has none must run to its end.
    pub fn with_interrupt(self, flag: Option<&'a AtomicBool>) -> Searcher<'a> {
        Searcher {
            interrupt: flag,
            ..self
        }
    }

    /// Whether the deadline (or the interrupt) says to stop now; false
    /// without a deadline.
    #[inline]
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|deadline| {
            self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) || Instant::now() >= deadline
        })
    }

    /// The same searcher, showing its memo to `keep` at most once every
    /// `every` while it searches (what it stores is proven: see
    /// [`Memo`]).
    pub(crate) fn with_keeper(
        self,
        every: Duration,
        keep: &'a (dyn Fn(&Memo) + Sync),
    ) -> Searcher<'a> {
        let next = AtomicU64::new(nanos(self.started.elapsed() + every));
        Searcher {
            keeper: Some(Keeper { every, next, keep }),
            ..self
        }
    }

    /// Shows the memo to the keeper if it is due.
    fn tick(&self) {
        if let Some(k) = &self.keeper {
            let now = nanos(self.started.elapsed());
            let due = k.next.load(Ordering::Relaxed);
            if now >= due
                && k.next
                    .compare_exchange(
                        due,
                        now + nanos(k.every),
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            {
                (k.keep)(&self.memo);
            }
        }
    }

    /// Moves the deadline (an aborted searcher stays aborted).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether the deadline has passed during a search: every answer
    /// since is void.
    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    /// Whether the deadline has passed (now or before): the searcher is
    /// aborted from then on (for steps outside the node search, which
    /// reads the clock itself).
    pub(super) fn deadline_passed(&self) -> bool {
        if self.deadline.is_some() && (self.aborted() || self.past_deadline()) {
            self.aborted.store(true, Ordering::Relaxed);
        }
        self.aborted()
    }

    /// What every node reads and nothing changes.
    #[inline]
    pub(super) fn cx(&self) -> &Context<'a> {
        &self.cx
    }

    /// Who runs independent classes and guesses side by side.
    #[inline]
    pub(super) fn par(&self) -> &'a dyn Parallel {
        self.par
    }

    /// The exact cost of `set` within `d` guesses (`usize::MAX`: no cap),
    /// its guesses pruned by `stab` (the symmetry of the history that left
    /// `set`): `Some(Exact(cost))` when below `cutoff`, `Some(AtLeast(b))`
    /// with cost ≥ `b` ≥ `cutoff` otherwise (`INF`: infeasible within `d`),
    /// and `None` when the deadline passed first (nothing learnt).
    pub fn cost_below(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cutoff: u64,
    ) -> Option<Outcome> {
        if self.aborted() {
            return None;
        }
        let r = self.solve(set, d, stab, cutoff, usize::MAX);
        if self.aborted() {
            return None;
        }
        Some(r)
    }

    /// The depth to search the whole game with.
    pub(super) fn root_depth(&self) -> usize {
        self.cx.config.cap.unwrap_or(usize::MAX)
    }

    /// Solves the whole game: the optimal cost and tree.
    pub fn run(self) -> Solution {
        if self.cx.game.rules().guesses() == GuessRule::Hard {
            return self.run_hard();
        }
        match self.run_below(INF) {
            Ok(solution) => solution,
            Err(_) => unreachable!("below no cut-off, a search is always decided"),
        }
    }

    /// [`Searcher::run`] under a cut-off: the optimum and its tree when it
    /// is below `cutoff`, else `Err` with the bound proved ([`Refuted`]: at
    /// least `cutoff`; [`INF`] when no strategy meets the cap). With [`INF`] it
    /// is [`Searcher::run`]: no strategy meeting the cap is then a
    /// solution of cost [`INF`] without a tree. The cut-off prunes from the
    /// start, so an optimum known to be close is proved far faster than
    /// by a search that must find its own bounds first (`solve --below`).
    pub fn run_below(self, cutoff: u64) -> Result<Solution, Refuted> {
        if self.cx.game.rules().guesses() == GuessRule::Hard {
            // Hard mode has no search under a cut-off: the whole search,
            // then the comparison (the same answer, no faster).
            let solution = self.run_hard();
            return if solution.cost < cutoff {
                Ok(solution)
            } else {
                Err(Refuted {
                    bound: solution.cost,
                    nodes: solution.nodes,
                    seconds: solution.seconds,
                })
            };
        }
        let start = Instant::now();
        let all = self.cx.game.secrets();
        let stab = self.cx.root.clone();
        self.observer.phase(Phase::Search);
        let d = self.root_depth();
        let cost = match self.solve_root(&all, d, &stab, cutoff) {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(bound) if cutoff < INF => {
                return Err(Refuted {
                    bound,
                    nodes: self.nodes.load(Ordering::Relaxed),
                    seconds: start.elapsed().as_secs_f64(),
                })
            }
            Outcome::AtLeast(_) => INF,
        };
        self.observer.phase(Phase::Build);
        let tree = (cost < INF).then(|| Tree {
            rules: self.cx.game.rules(),
            root: match self.cx.config.first {
                Some(g) => self.build_with(&all, d, &stab, g),
                None => self.build(&all, d, &stab, cost),
            },
        });
        self.observer.phase(Phase::Done);
        let stats = tree.as_ref().map(|t| {
            t.replay(self.cx.game, self.cx.config.cap)
                .expect("the search builds trees that solve every secret within the cap")
        });
        Ok(Solution {
            cost,
            tree,
            stats,
            nodes: self.nodes.load(Ordering::Relaxed),
            memo_hits: self.memo.hits(),
            memo_lookups: self.memo.lookups(),
            memo_entries: self.memo.len(),
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// [`Searcher::run`] in hard mode: the state of a node is its set and
    /// its history's constraint ([`crate::search::hard`]).
    fn run_hard(self) -> Solution {
        let start = Instant::now();
        let all = self.cx.game.secrets();
        let search = crate::search::hard::HardSearch::new(self.cx.game);
        self.observer.phase(Phase::Search);
        let d = self.root_depth();
        let hard = crate::model::hard::Hard::new();
        let cost = match self.hard_root(&search, &all, d) {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(_) => INF,
        };
        self.observer.phase(Phase::Build);
        let tree = (cost < INF).then(|| Tree {
            rules: self.cx.game.rules(),
            root: match self.cx.config.first {
                None => search.build(&all, hard, d),
                Some(g) => search.build_first(&all, hard, g, d),
            },
        });
        self.observer.phase(Phase::Done);
        let stats = tree.as_ref().map(|t| {
            t.replay(self.cx.game, self.cx.config.cap)
                .expect("the search builds trees that solve every secret within the cap")
        });
        let (nodes, entries, hits, lookups) = search.counters();
        Solution {
            cost,
            tree,
            stats,
            nodes,
            memo_hits: hits,
            memo_lookups: lookups,
            memo_entries: entries,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The optimal cost of the whole game (`INF`: the cap cannot be met),
    /// without building the tree.
    pub fn optimum(&self) -> u64 {
        let all = self.cx.game.secrets();
        if self.cx.game.rules().guesses() == GuessRule::Hard {
            let search = crate::search::hard::HardSearch::new(self.cx.game);
            return match self.hard_root(&search, &all, self.root_depth()) {
                Outcome::Exact(c) => c,
                Outcome::AtLeast(_) => INF,
            };
        }
        let stab = self.cx.root.clone();
        match self.solve_root(&all, self.root_depth(), &stab, INF) {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(_) => INF,
        }
    }

    /// The whole game's cost in hard mode: the search's first guess, or
    /// the one [`Config::first`] fixes (its classes each searched under
    /// the constraint its answer leaves).
    fn hard_root(
        &self,
        search: &crate::search::hard::HardSearch<'_>,
        all: &[Code],
        d: usize,
    ) -> Outcome {
        let hard = crate::model::hard::Hard::new();
        match self.cx.config.first {
            None => search.solve(all, hard, d, INF),
            Some(g) => search.solve_first(all, hard, g, d, INF),
        }
    }

    /// The whole game's cost if below `cutoff` (else a bound at least
    /// `cutoff`): the search's choice of first guess, or the one
    /// [`Config::first`] fixes.
    fn solve_root(&self, all: &[Code], d: usize, stab: &Stabilizer, cutoff: u64) -> Outcome {
        match self.cx.config.first {
            None => self.solve(all, d, stab, cutoff, 0),
            Some(g) => self.after_first(all, d, stab, g, cutoff),
        }
    }

    /// The least cost of `set` within `d` guesses when `first` is guessed
    /// first, if below `cutoff`; else a bound at least `cutoff` (`INF`:
    /// infeasible).
    pub fn after_first(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        first: Code,
        cutoff: u64,
    ) -> Outcome {
        let d = self.cx.clamp(set.len(), d);
        if d == 0 {
            return Outcome::AtLeast(INF);
        }
        let bound = self
            .flat_classes(set, first)
            .iter()
            .fold(self.cx.own_of(set, d), |t, (_, c)| {
                t.saturating_add(self.cx.lower_of(c, d - 1))
            });
        if bound >= INF {
            return Outcome::AtLeast(INF);
        }
        let scored = Scored {
            bound,
            guess: first,
        };
        match self.evaluate(set, d, stab, &scored, cutoff, 0, None) {
            Ok(c) => Outcome::Exact(c),
            Err(b) => Outcome::AtLeast(b.max(cutoff)),
        }
    }

    /// Search nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The optimal subtree for one candidate set (no history: its symmetry
    /// is only that of absent symbols), if `d` guesses suffice.
    pub fn solve_set(&self, set: &[Code], d: usize) -> Option<(u64, Node)> {
        let rules = self.cx.game.rules();
        let stab = Stabilizer::identity(rules.positions(), rules.symbols());
        match self.solve(set, d, &stab, INF, usize::MAX) {
            Outcome::Exact(c) => Some((c, self.build(set, d, &stab, c))),
            Outcome::AtLeast(_) => None,
        }
    }

    /// The memo (for statistics and tests).
    pub fn memo(&self) -> &Memo {
        &self.memo
    }

    /// Exact cost if below `cutoff`, else a lower bound at least `cutoff`.
    pub(super) fn solve(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cutoff: u64,
        level: usize,
    ) -> Outcome {
        self.solve_from(set, d, stab, cutoff, level, 0)
    }

    /// [`Searcher::solve`] of a set whose cost is known to be at least
    /// `known` (a class bound the caller holds, which the memo need not
    /// keep: the class bounds of small classes are not stored, see
    /// [`crate::search::lookahead`]): the same result.
    pub(super) fn solve_from(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cutoff: u64,
        level: usize,
        known: u64,
    ) -> Outcome {
        let n = set.len();
        let d = self.cx.clamp(n, d);
        let lower = self.cx.lower_of(set, d);
        if lower >= INF {
            return Outcome::AtLeast(INF);
        }
        if let Some(c) = self.cx.direct_of(set, d) {
            return Outcome::below(c, cutoff);
        }
        let lower = lower.max(known);
        if lower >= cutoff {
            return Outcome::AtLeast(lower);
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        crate::search::stats::node(n, level);
        if self.deadline.is_some() {
            // The clock is read at every node: a node costs microseconds on
            // small games, and seconds on the large classes of moo:5x10,
            // where reading it every 64 nodes overshot a 300 s limit by
            // minutes.
            if self.aborted() || self.past_deadline() {
                self.aborted.store(true, Ordering::Relaxed);
                return Outcome::AtLeast(INF);
            }
        }
        self.tick();
        let mut lower = lower;
        // Look the set up as it is first (cheap), then in canonical form.
        let mut keys: Vec<Vec<u16>> = Vec::new();
        if n >= self.cx.config.tuning.memo_min {
            keys.push(raw_key(set, d));
            if n <= self.cx.config.tuning.canon_max {
                keys.push(self.cx.key(set, d));
            }
        }
        for (i, key) in keys.iter().enumerate() {
            let found = self.memo.get(key);
            if let (true, Some(entry)) = (i > 0, found) {
                // Remember the set as it is too: the next visit is cheaper.
                self.memo.put(keys[0].clone(), entry);
            }
            match found {
                Some(Entry::Exact(c, _)) => return Outcome::below(c, cutoff),
                Some(Entry::AtLeast(b)) if b >= cutoff => return Outcome::AtLeast(b),
                Some(Entry::AtLeast(b)) => lower = lower.max(b),
                None => {}
            }
        }
        // Small sets are solved exactly whatever the cut-off: one search,
        // then every later visit is a memo hit.
        let search_cutoff = if n <= self.cx.config.tuning.exact_small {
            INF
        } else {
            cutoff
        };
        let (best, proven) = self.search_node(set, d, stab, search_cutoff, lower, level);
        let entry = match best {
            Some((cost, guess)) => Entry::Exact(cost, Some(guess)),
            None => Entry::AtLeast(proven.max(search_cutoff)),
        };
        if self.aborted() {
            // Past the deadline the answer is void: the memo holds only
            // what was proven (its entries may be kept between runs).
            return Outcome::AtLeast(INF);
        }
        for (i, key) in keys.into_iter().enumerate() {
            // The guess is in the set's own coordinates: only for its raw key.
            let entry = match entry {
                Entry::Exact(c, _) if i > 0 => Entry::Exact(c, None),
                e => e,
            };
            self.memo.put(key, entry);
        }
        match entry {
            Entry::Exact(c, _) => Outcome::below(c, cutoff),
            Entry::AtLeast(c) => Outcome::AtLeast(c),
        }
    }

    /// Scans the guesses of a node. Returns the best (cost, guess) found
    /// below `cutoff` (the first in order among equals), and otherwise a
    /// proven lower bound.
    pub(super) fn search_node(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cutoff: u64,
        lower: u64,
        level: usize,
    ) -> (Option<(u64, Code)>, u64) {
        let mut scan = Scan {
            bound: cutoff,
            best: None,
            proven: INF,
        };
        let phases = self.cx.phases(set, d, stab);
        let pool = NodePool::new();
        // A large set's guesses keep the bounds they are refuted by: one
        // kept at least the bound is that guess's answer (a lower bound at
        // least the bound, as `evaluate_in` answers), and the scan goes on
        // as it would (the order and the dispatch are the scan's own).
        // (Not in the player's build: the feature `kept-guesses`.)
        let key = (cfg!(feature = "kept-guesses")
            && set.len() >= self.cx.config.tuning.guess_memo_min)
            .then(|| raw_key(set, d));
        let evaluate = |s: &Scored, bound: u64, live: Option<Live<'_>>| {
            if let Some(key) = &key {
                let now = live.map_or(bound, |f| bound.min(f()));
                if let Some(kept) = self.memo.refuted(key, s.guess, now) {
                    return Err(kept);
                }
            }
            // One call: the evaluation is large, and inlined at two calls
            // it grew the player past its size (.ci/run).
            let r = self.evaluate_in(set, d, stab, s, bound, level, live, Some(&pool));
            // Past the deadline the answer is void (`aborted` never goes
            // back to false, so a search that saw it set reads it here).
            if let (Some(key), Err(b), false) = (&key, r, self.aborted()) {
                self.memo.put_guess_bound(key, s.guess, b);
            }
            r
        };
        // Near the root, with more than one worker, guesses side by side.
        let config = &self.cx.config;
        let par = (level < config.tuning.parallel_guess_levels
            && set.len() >= config.tuning.parallel_guess_min
            && config.objective != Cost::Feasible)
            .then_some(self.par);
        let done = scan.run(&phases.first, lower, &evaluate, par);
        // One guess at a time: phase two by levels where the kernel
        // applies (the whole list otherwise, and side by side).
        let lazily = !done
            && par.is_none()
            && scan.bound > phases.non_candidate_lower
            && self.rest_lazily(&mut scan, set, d, stab, &phases, lower, &evaluate);
        if !done && !lazily {
            if scan.bound > phases.non_candidate_lower && !self.aborted() {
                let (rest, skipped) = self.cx.rest(set, d, stab, &phases, scan.bound);
                scan.proven = scan.proven.min(skipped);
                scan.run(&rest, lower, &evaluate, par);
            } else {
                // Phase two was not scanned: its guesses cost at least this.
                scan.proven = scan.proven.min(phases.non_candidate_lower);
            }
        }
        (scan.best, scan.proven)
    }

    /// Phase two of a node scanned level by level ([`Levels`]), as far as
    /// the scan goes: the same guesses in the same order as
    /// [`Context::rest`]'s list, whose making (every guess below the bound
    /// filtered and put in order, thousands on moo:5x8's small sets) cost
    /// more than the scan itself on most nodes, which stop after a level
    /// or two.
    ///
    /// [`Context::rest`]: crate::search::context::Context
    /// [`Levels`]: crate::search::lookahead::Levels
    #[allow(clippy::too_many_arguments)]
    fn rest_lazily(
        &self,
        scan: &mut Scan,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        phases: &crate::search::lookahead::Phases,
        lower: u64,
        evaluate: crate::search::scan::Evaluate<'_>,
    ) -> bool {
        let Some(mut levels) = self.cx.rest_levels(set, d, stab, phases, scan.bound) else {
            return false;
        };
        scan.proven = scan.proven.min(levels.skipped);
        // Each level is a lookahead over its guesses: none is made past
        // the deadline (the answer is void then).
        while !self.aborted() {
            let Some(level) = levels.next_level() else {
                break;
            };
            if scan.run(&level, lower, evaluate, None) {
                break;
            }
        }
        true
    }

    /// Tells the observer that a first-level class is solved.
    pub(super) fn report(&self, guess: Code, f: Feedback, n: usize, r: Outcome, start: Instant) {
        self.classes_done.fetch_add(1, Ordering::Relaxed);
        self.observer.class_done(&ClassReport {
            guess: self.cx.game.format_code(guess),
            answer: self.cx.game.format_feedback(f),
            secrets: n,
            outcome: r.to_string(),
            seconds: start.elapsed().as_secs_f64(),
            progress: self.progress(),
        });
    }

    /// The counters as they stand.
    pub(super) fn progress(&self) -> Progress {
        let nodes = self.nodes.load(Ordering::Relaxed);
        Progress {
            classes_done: self.classes_done.load(Ordering::Relaxed),
            nodes,
            nodes_per_second: nodes as f64 / self.started.elapsed().as_secs_f64().max(1e-3),
            memo_entries: self.memo.len(),
            memo_hits: self.memo.hits(),
        }
    }
}

/// Checks per-secret weights (one per code of the game, adding up to less
/// than 2^48) and makes their bounds.
fn check_weights(game: &Game, w: &[u64], branching: usize) -> Result<Weights, SearchError> {
    if w.len() != game.len() {
        return Err(SearchError::Weights(format!(
            "{} weights for the {} codes of {}",
            w.len(),
            game.len(),
            game.name()
        )));
    }
    let total = w.iter().try_fold(0u64, |t, &x| t.checked_add(x));
    if total.is_none_or(|t| t >= MAX_PER_GUESS_TOTAL) {
        return Err(SearchError::Weights(
            "the weights add up to 2^48 or more".into(),
        ));
    }
    Ok(Weights::new(w.to_vec(), branching))
}

/// Whether the weights are the same on every orbit of the whole group
/// (symbol and position permutations): two codes are in one orbit exactly
/// when their symbols repeat alike (the same counts, in any order).
fn per_orbit(game: &Game, w: &[u64]) -> bool {
    let book = game.codes();
    // (pattern, weight) of each orbit seen: few (the partitions of the
    // number of positions), so a list.
    let mut seen: Vec<([u8; 16], u64)> = Vec::new();
    book.all().all(|c| {
        let mut counts = [0u8; 64];
        for &s in book.symbols(c) {
            counts[s as usize] += 1;
        }
        // The multiplicities, largest first (at most 16 positions).
        let mut pattern = [0u8; 16];
        for (slot, m) in pattern.iter_mut().zip(
            (1..=16u8)
                .rev()
                .flat_map(|m| std::iter::repeat_n(m, counts.iter().filter(|&&x| x == m).count())),
        ) {
            *slot = m;
        }
        match seen.iter().find(|(p, _)| *p == pattern) {
            Some(&(_, x)) => x == w[c.index()],
            None => {
                seen.push((pattern, w[c.index()]));
                true
            }
        }
    })
}

/// Whether the rule's group has more than the identity, so that canonical
/// keys can meet ([`crate::model::canon`] returns Wordle's sets as they are:
/// the raw key already).
fn rules_have_canon(game: &Game) -> bool {
    game.rules().answer().keeps_position_permutations()
}

/// `d` in nanoseconds (saturated: about 584 years).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}
