//! Exact search: the optimal decision tree under a guess cap, by depth-first
//! branch and bound.
//!
//! cost(S, d) = own(S) + min over guesses g of Σ over the non-winning
//! classes C of g on S of cost(C, d − 1); a single secret costs
//! `Bounds::leaf(d)`; no guesses left with secrets left is infeasible.
//!
//! Invariants and design (see docs/search.md and SEARCH-NOTES.md):
//! - Every legal guess is considered (candidates or not), up to symmetry:
//!   one guess per orbit of the stabilizer of the history
//!   ([`crate::search::symmetry::Stabilizer`]), and symbols no candidate contains
//!   are interchangeable. Guesses whose answer is the same for every
//!   candidate (and that are not candidates) never help and are skipped.
//! - A guess is scored by its one-step lookahead bound own + Σ lower(|C|,
//!   d−1); guesses are tried in the order (bound, non-candidate, code), and
//!   the scan stops when the next bound reaches the best cost found. Classes
//!   are solved smallest first, each under the cut-off its siblings leave.
//! - `solve(S, d, cutoff)` returns the exact cost when it is below the
//!   cut-off, else a proven lower bound at least the cut-off. Exact costs
//!   and bounds are kept in the [`Memo`].
//! - Determinism: the tree is rebuilt top-down after the costs are known,
//!   choosing at each node the *first* guess in the order above whose exact
//!   cost is optimal. That guess depends only on the node (its set, depth and
//!   history), never on timing, memo contents or the number of threads.
//! - A set of `n` secrets never needs more than `n` guesses in an optimal
//!   tree, so depths are clamped to `n + 1`.

pub mod bound;
pub mod memo;
pub mod observe;
pub mod symmetry;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::exec::{self, Parallel, Sequential};
use crate::model::code::Code;
use crate::model::feedback::{Feedback, FeedbackTable};
use crate::model::game::Game;
use crate::model::partition;
use crate::search::bound::{Bounds, Cost, INF};
use crate::search::memo::{Entry, Memo};
use crate::search::observe::{ClassOutcome, ClassReport, Observer, Phase, Progress, Silent};
use crate::search::symmetry::Stabilizer;
use crate::tree::{Node, Stats, Tree};

/// Errors of the search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The feedback table would not fit in memory.
    #[error("{0} is too large for the exact search (more than {max} codes); try a smaller game", max = crate::model::feedback::TABLE_MAX_CODES)]
    TooLarge(crate::model::rules::Rules),
    /// A cap of zero guesses.
    #[error("a cap of 0 guesses solves nothing; give --cap 1 or more")]
    ZeroCap,
}

/// How to search. Defaults: no cap, minimal total, memo of 2^26 codes per
/// generation (about 0.5 GiB at most), canonical keys for sets of up to 64
/// secrets, parallel classes at the two top levels.
#[derive(Debug, Clone)]
pub struct Config {
    /// Most guesses any secret may take (`None`: unlimited).
    pub cap: Option<usize>,
    /// What to minimize.
    pub objective: Cost,
    /// Memo size: codes stored per generation (range 1..; default 2^26).
    pub memo_codes: usize,
    /// Largest set whose memo key is put in canonical form (default 64; 0
    /// disables canonical keys).
    pub canon_max: usize,
    /// Smallest set stored in the memo (default 3).
    pub memo_min: usize,
    /// Levels of the tree whose classes are solved in parallel (default 2).
    pub parallel_levels: usize,
    /// Sets of at most this many secrets are solved exactly whatever the
    /// cut-off, so that each is searched once (default 8).
    pub exact_small: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            cap: None,
            objective: Cost::Total,
            memo_codes: 1 << 26,
            canon_max: 64,
            memo_min: 3,
            parallel_levels: 2,
            exact_small: 8,
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

/// Outcome of `solve`: exact below the cut-off, else a bound at least it.
/// (`level` arguments count from the root; `usize::MAX` marks calls outside
/// the top-down search, which never run in parallel.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Exact(u64),
    AtLeast(u64),
}

/// The search state shared by every node (and thread).
pub struct Searcher<'a> {
    game: &'a Game,
    table: &'a FeedbackTable,
    bounds: Bounds,
    memo: Memo,
    config: Config,
    perms: Vec<Vec<u8>>,
    all_symbols: u64,
    slots: usize,
    win: Feedback,
    nodes: AtomicU64,
    /// First-level classes solved so far (for progress).
    classes_done: AtomicU64,
    started: Instant,
    /// Who runs independent classes side by side.
    par: &'a dyn Parallel,
    /// Who hears about progress.
    observer: &'a dyn Observer,
}

/// Who runs a search's parallel work and hears its progress (the library
/// has no thread pool or terminal of its own).
#[derive(Clone, Copy)]
pub struct Driver<'a> {
    /// Runs independent classes near the root side by side.
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

/// A node's guesses, phase one (see `Searcher::phases`).
struct Phases {
    first: Vec<Scored>,
    non_candidate_lower: u64,
}

/// Which guesses to skip as symmetric to a smaller one.
struct Filter<'s> {
    absent: Option<u64>,
    orbits: Option<symmetry::OrbitFilter<'s>>,
    book: &'s crate::model::code::Codebook,
}

impl Filter<'_> {
    #[inline]
    fn keep(&self, g: Code) -> bool {
        let absent_ok = match self.absent {
            Some(a) => symmetry::absent_min(self.book.symbols(g), a),
            None => true,
        };
        absent_ok
            && match &self.orbits {
                Some(o) => o.keeps(g),
                None => true,
            }
    }
}

/// The running state of a node's scan over its guesses.
struct Scan {
    /// What a guess must cost less than to matter (best so far or cut-off).
    bound: u64,
    best: Option<(u64, Code)>,
    /// Least lower bound over the guesses shown not to beat `bound`.
    proven: u64,
}

impl Scan {
    /// Tries `order` in turn; true when nothing further can improve.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        searcher: &Searcher<'_>,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        lower: u64,
        level: usize,
        order: &[Scored],
    ) -> bool {
        for s in order {
            if s.bound >= self.bound {
                self.proven = self.proven.min(s.bound);
                return true;
            }
            match searcher.evaluate(set, d, stab, s, self.bound, level) {
                Ok(cost) => {
                    self.best = Some((cost, s.guess));
                    self.bound = cost;
                    if cost <= lower {
                        return true; // The node's lower bound: optimal.
                    }
                }
                Err(at_least) => self.proven = self.proven.min(at_least),
            }
        }
        false
    }
}

/// A guess with its lookahead bound.
#[derive(Debug, Clone, Copy)]
struct Scored {
    bound: u64,
    guess: Code,
}

impl<'a> Searcher<'a> {
    /// Prepares a single-threaded, silent search of `game` (builds the
    /// feedback table).
    pub fn new(game: &'a Game, config: Config) -> Result<Searcher<'a>, SearchError> {
        Searcher::with_driver(game, config, Driver::sequential())
    }

    /// Prepares a search of `game` run and reported by `driver`.
    pub fn with_driver(
        game: &'a Game,
        config: Config,
        driver: Driver<'a>,
    ) -> Result<Searcher<'a>, SearchError> {
        if config.cap == Some(0) {
            return Err(SearchError::ZeroCap);
        }
        let table = game
            .table_with(driver.par)
            .ok_or(SearchError::TooLarge(game.rules()))?;
        let branching = game.possible_feedbacks().count() - 1;
        let bounds = Bounds::new(config.objective, branching, game.len());
        let rules = game.rules();
        Ok(Searcher {
            game,
            table,
            bounds,
            memo: Memo::new(config.memo_codes),
            perms: symmetry::position_permutations(rules.positions()),
            all_symbols: (1u64 << rules.symbols()) - 1,
            slots: rules.feedback_slots(),
            win: game.win(),
            nodes: AtomicU64::new(0),
            classes_done: AtomicU64::new(0),
            started: Instant::now(),
            par: driver.par,
            observer: driver.observer,
            config,
        })
    }

    /// The depth to search the whole game with.
    fn root_depth(&self) -> usize {
        self.config.cap.unwrap_or(usize::MAX)
    }

    /// Solves the whole game: the optimal cost and tree.
    pub fn run(self) -> Solution {
        let start = Instant::now();
        let all = self.game.all_codes();
        let stab = Stabilizer::full(self.game.positions(), self.game.rules().symbols());
        self.observer.phase(Phase::Search);
        let d = self.root_depth();
        let cost = match self.solve(&all, d, &stab, INF, 0) {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(_) => INF,
        };
        self.observer.phase(Phase::Build);
        let tree = (cost < INF).then(|| Tree {
            rules: self.game.rules(),
            root: self.build(&all, d, &stab, cost),
        });
        self.observer.phase(Phase::Done);
        let stats = tree.as_ref().map(|t| {
            t.replay(self.game, self.config.cap)
                .expect("the search builds trees that solve every secret within the cap")
        });
        Solution {
            cost,
            tree,
            stats,
            nodes: self.nodes.load(Ordering::Relaxed),
            memo_hits: self.memo.hits(),
            memo_lookups: self.memo.lookups(),
            memo_entries: self.memo.len(),
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The optimal cost of the whole game (`INF`: the cap cannot be met),
    /// without building the tree.
    pub fn optimum(&self) -> u64 {
        let all = self.game.all_codes();
        let stab = Stabilizer::full(self.game.positions(), self.game.rules().symbols());
        match self.solve(&all, self.root_depth(), &stab, INF, 0) {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(_) => INF,
        }
    }

    /// Search nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The optimal subtree for one candidate set (no history: its symmetry
    /// is only that of absent symbols), if `d` guesses suffice.
    pub fn solve_set(&self, set: &[Code], d: usize) -> Option<(u64, Node)> {
        let rules = self.game.rules();
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

    fn clamp(&self, n: usize, d: usize) -> usize {
        d.min(n + 1)
    }

    /// The canonical memo key of a set (an image of it, the same for every
    /// set of its orbit), followed by the depth.
    fn key(&self, set: &[Code], d: usize) -> Vec<u16> {
        let mut key = if set.len() <= self.config.canon_max {
            let classes =
                symmetry::invariants(|a, b| self.table.row(a)[b.index()].index(), set, self.slots);
            symmetry::canonical(self.game.codes(), set, &classes, &self.perms)
        } else {
            set.iter().map(|c| c.0).collect()
        };
        key.push(d as u16);
        key
    }

    /// Cost of a set solved directly, without search, if it is that easy.
    fn direct(&self, n: usize, d: usize) -> Option<u64> {
        match n {
            0 => Some(0),
            1 => Some(self.bounds.leaf(d)),
            // Guess one of the two: own + the other as a leaf.
            2 if d >= 2 => Some(self.bounds.own(2) + self.bounds.leaf(d - 1)),
            _ => None,
        }
    }

    /// Exact cost if below `cutoff`, else a lower bound at least `cutoff`.
    fn solve(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cutoff: u64,
        level: usize,
    ) -> Outcome {
        let n = set.len();
        let d = self.clamp(n, d);
        let lower = self.bounds.lower(n, d);
        if lower >= INF {
            return Outcome::AtLeast(INF);
        }
        if let Some(c) = self.direct(n, d) {
            return if c < cutoff {
                Outcome::Exact(c)
            } else {
                Outcome::AtLeast(c)
            };
        }
        if lower >= cutoff {
            return Outcome::AtLeast(lower);
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let mut lower = lower;
        // Look the set up as it is first (cheap), then in canonical form.
        let mut keys: Vec<Vec<u16>> = Vec::new();
        if n >= self.config.memo_min {
            keys.push(raw_key(set, d));
            if n <= self.config.canon_max {
                keys.push(self.key(set, d));
            }
        }
        for (i, key) in keys.iter().enumerate() {
            let found = self.memo.get(key);
            if let (true, Some(entry)) = (i > 0, found) {
                // Remember the set as it is too: the next visit is cheaper.
                self.memo.put(keys[0].clone(), entry);
            }
            match found {
                Some(Entry::Exact(c, _)) => {
                    return if c < cutoff {
                        Outcome::Exact(c)
                    } else {
                        Outcome::AtLeast(c)
                    };
                }
                Some(Entry::AtLeast(b)) if b >= cutoff => return Outcome::AtLeast(b),
                Some(Entry::AtLeast(b)) => lower = lower.max(b),
                None => {}
            }
        }
        // Small sets are solved exactly whatever the cut-off: one search,
        // then every later visit is a memo hit.
        let search_cutoff = if n <= self.config.exact_small {
            INF
        } else {
            cutoff
        };
        let (best, proven) = self.search_node(set, d, stab, search_cutoff, lower, level);
        let entry = match best {
            Some((cost, guess)) => Entry::Exact(cost, Some(guess)),
            None => Entry::AtLeast(proven.max(search_cutoff)),
        };
        for (i, key) in keys.into_iter().enumerate() {
            // The guess is in the set's own coordinates: only for its raw key.
            let entry = match entry {
                Entry::Exact(c, _) if i > 0 => Entry::Exact(c, None),
                e => e,
            };
            self.memo.put(key, entry);
        }
        match entry {
            Entry::Exact(c, _) if c < cutoff => Outcome::Exact(c),
            Entry::Exact(c, _) | Entry::AtLeast(c) => Outcome::AtLeast(c),
        }
    }

    /// Scans the guesses of a node. Returns the best (cost, guess) found
    /// below `cutoff` (the first in order among equals), and otherwise a
    /// proven lower bound.
    fn search_node(
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
        let phases = self.phases(set, d, stab);
        let done = scan.run(self, set, d, stab, lower, level, &phases.first);
        if !done {
            if scan.bound > phases.non_candidate_lower {
                let (rest, skipped) = self.rest(set, d, stab, &phases, scan.bound);
                scan.proven = scan.proven.min(skipped);
                scan.run(self, set, d, stab, lower, level, &rest);
            } else {
                // Phase two was not scanned: its guesses cost at least this.
                scan.proven = scan.proven.min(phases.non_candidate_lower);
            }
        }
        (scan.best, scan.proven)
    }

    /// Phase one of a node's guess order: the candidates whose lookahead
    /// bound is at most what any non-candidate can cost, by (bound, code).
    /// They come first in the full order (bound, non-candidate, code), so
    /// when one of them reaches that cost the other guesses need no scan.
    fn phases(&self, set: &[Code], d: usize, stab: &Stabilizer) -> Phases {
        let n = set.len();
        let non_candidate_lower = self.bounds.non_candidate(n, d);
        let filter = self.filter(set, stab);
        let mut counts = [0u32; 256];
        let cols = self.columns(set);
        let mut first: Vec<(u64, u32, Code)> = set
            .iter()
            .filter(|&&g| filter.keep(g))
            .filter_map(|&g| {
                let bound = self
                    .lookahead(&cols, d, g, true, &mut counts, non_candidate_lower + 1)
                    .ok()?;
                Some((bound, self.spread(set, g), g))
            })
            .collect();
        first.sort_unstable();
        let first = first
            .into_iter()
            .map(|(bound, _, guess)| Scored { bound, guess })
            .collect();
        Phases {
            first,
            non_candidate_lower,
        }
    }

    /// Phase two: every other guess whose bound is below `limit`, in the
    /// order (bound, non-candidate, code); and the least bound left out.
    fn rest(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        phases: &Phases,
        limit: u64,
    ) -> (Vec<Scored>, u64) {
        let book = self.game.codes();
        let filter = self.filter(set, stab);
        let mut counts = [0u32; 256];
        let cols = self.columns(set);
        let mut in_set = vec![false; self.game.len()];
        for &s in set {
            in_set[s.index()] = true;
        }
        let mut out: Vec<(u64, u32, bool, Code)> = Vec::new();
        let mut skipped = INF;
        for g in book.all() {
            if !filter.keep(g) {
                continue;
            }
            let candidate = in_set[g.index()];
            let bound = match self.lookahead(&cols, d, g, candidate, &mut counts, limit) {
                Ok(bound) => bound,
                Err(at_least) => {
                    skipped = skipped.min(at_least);
                    continue;
                }
            };
            if candidate && bound <= phases.non_candidate_lower {
                continue; // Already tried in phase one.
            }
            out.push((bound, self.spread(set, g), !candidate, g));
        }
        out.sort_unstable();
        let out = out
            .into_iter()
            .map(|(bound, _, _, guess)| Scored { bound, guess })
            .collect();
        (out, skipped)
    }

    /// Each secret's answers to every guess, for a scan of `set`: the
    /// table is symmetric, so the row of secret `s` holds the answer of
    /// every guess `g` to it. Scanning guesses in code order then reads each
    /// row sequentially, where the guess's own row would be read at scattered
    /// places (the moo:4x10 table is 25 MB, beyond the caches).
    fn columns(&self, set: &[Code]) -> Vec<&[Feedback]> {
        set.iter().map(|&s| self.table.row(s)).collect()
    }

    fn filter<'s>(&'s self, set: &[Code], stab: &'s Stabilizer) -> Filter<'s> {
        let absent = self.all_symbols & !symmetry::symbols_of(self.game.codes(), set);
        Filter {
            absent: (absent.count_ones() >= 2).then_some(absent),
            orbits: stab.orbit_filter(self.game.codes()),
            book: self.game.codes(),
        }
    }

    /// The lookahead bound of a guess, own + Σ lower(|C|, d − 1) over its
    /// non-winning classes: `Ok` when below `limit`, else `Err` with a bound
    /// at least `limit` (`INF` for a non-candidate that answers the same for
    /// every candidate: it never helps). `counts` must be all zero and is
    /// left so. Classes are filled one secret at a time and the scan stops
    /// as soon as the bound reaches `limit` (the bound only grows).
    fn lookahead(
        &self,
        cols: &[&[Feedback]],
        d: usize,
        g: Code,
        candidate: bool,
        counts: &mut [u32; 256],
        limit: u64,
    ) -> Result<u64, u64> {
        let n = cols.len();
        let gi = g.index();
        let delta = self.bounds.deltas(d - 1);
        let extra = self.bounds.extras(d - 1);
        // Every secret but the guess itself adds at least delta[0]; add that
        // up front so that the bound reaches `limit` as early as it can.
        let solved_later = (n - usize::from(candidate)) as u64;
        let mut bound = self
            .bounds
            .own(n)
            .saturating_add(solved_later.saturating_mul(delta[0]));
        if bound >= limit {
            return Err(bound.min(INF));
        }
        let win = self.win.0;
        let mut scanned = n;
        for (i, col) in cols.iter().enumerate() {
            let f = col[gi].0;
            if f == win {
                continue; // The guess itself: its class is not solved further.
            }
            let c = counts[f as usize];
            // No overflow: bound < limit <= INF and extra <= INF.
            bound += extra[c as usize];
            counts[f as usize] = c + 1;
            if bound >= limit {
                scanned = i + 1;
                break;
            }
        }
        let stopped = scanned < n || bound >= limit;
        let useless = !stopped && !candidate && counts[cols[0][gi].0 as usize] as usize == n;
        for col in &cols[..scanned] {
            counts[col[gi].0 as usize] = 0;
        }
        if useless {
            Err(INF)
        } else if stopped {
            Err(bound.min(INF))
        } else {
            Ok(bound)
        }
    }

    /// A lower bound on `cost(set, d)`: the least lookahead bound over every
    /// guess (at least the memo's knowledge and the level bound), or a value
    /// at least `limit` when no guess goes below it. Recorded in the memo.
    fn class_bound(&self, set: &[Code], d: usize, stab: &Stabilizer, limit: u64) -> u64 {
        let n = set.len();
        let d = self.clamp(n, d);
        let floor = self.bounds.lower(n, d);
        if floor >= limit {
            return floor;
        }
        let raw = raw_key(set, d);
        let known = match self.memo.get(&raw) {
            Some(Entry::Exact(c, _)) => return c,
            Some(Entry::AtLeast(b)) => b.max(floor),
            None => floor,
        };
        if known >= limit {
            return known;
        }
        let filter = self.filter(set, stab);
        let mut counts = [0u32; 256];
        let cols = self.columns(set);
        let mut best = limit;
        let book = self.game.codes();
        for &g in set {
            if best <= known {
                break;
            }
            if filter.keep(g) {
                if let Ok(b) = self.lookahead(&cols, d, g, true, &mut counts, best) {
                    best = b;
                }
            }
        }
        let ncl = self.bounds.non_candidate(n, d);
        if best > known && best > ncl {
            // The set is sorted: walk it alongside to skip the candidates.
            let mut next = set.iter().peekable();
            for g in book.all() {
                if best <= known.max(ncl) {
                    break;
                }
                if next.peek() == Some(&&g) {
                    next.next();
                    continue;
                }
                if !filter.keep(g) {
                    continue;
                }
                if let Ok(b) = self.lookahead(&cols, d, g, false, &mut counts, best) {
                    best = b.max(ncl);
                }
            }
        }
        let best = best.max(known);
        if best > known {
            self.memo.put(raw, Entry::AtLeast(best));
        }
        best
    }

    /// A tie-break between guesses of equal bound: for the feasibility
    /// objective (whose bounds are all 0) the largest class, smallest first,
    /// so that promising guesses come first; 0 for the other objectives,
    /// whose order is (bound, non-candidate, code).
    fn spread(&self, set: &[Code], g: Code) -> u32 {
        if self.config.objective != Cost::Feasible {
            return 0;
        }
        let mut counts = [0u32; 256];
        partition::count(self.game, g, set, &mut counts);
        counts.into_iter().max().unwrap_or(0)
    }

    /// The non-winning classes of a guess, smallest first (ties by answer;
    /// largest first for the feasibility objective).
    fn classes(&self, set: &[Code], guess: Code) -> Vec<(Feedback, Vec<Code>)> {
        let mut out = partition::split(self.game, guess, set);
        out.retain(|(f, _)| *f != self.win);
        if self.config.objective == Cost::Feasible {
            // To refute a cap, the class most likely to fail comes first.
            out.sort_by_key(|(f, c)| (std::cmp::Reverse(c.len()), *f));
        } else {
            out.sort_by_key(|(f, c)| (c.len(), *f));
        }
        out
    }

    /// Exact cost of guessing `s.guess` if below `bound`, else a lower bound
    /// at least `bound`.
    fn evaluate(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        s: &Scored,
        bound: u64,
        level: usize,
    ) -> Result<u64, u64> {
        let classes = self.classes(set, s.guess);
        let child = stab.fix(self.game.codes().symbols(s.guess));
        // Before any class is searched, raise each one's bound to what its
        // best guess's lookahead allows (largest first: they refute most).
        let mut lbs: Vec<u64> = classes
            .iter()
            .map(|(_, c)| self.bounds.lower(c.len(), d - 1))
            .collect();
        let mut total = s.bound;
        // The classes run in parallel near the root, except for the
        // feasibility objective: it stops at its first failing class, which
        // the parallel path would not.
        let parallel = level < self.config.parallel_levels
            && set.len() >= 64
            && self.config.objective != Cost::Feasible;
        if parallel {
            // Near the root the bounds are costly: compute them side by side,
            // each with the slack left if the others meet their level bounds.
            let raised: Vec<u64> = exec::map(self.par, classes.len(), |i| {
                let (c, lb) = (&classes[i].1, lbs[i]);
                if c.len() < 3 {
                    lb
                } else {
                    self.class_bound(c, d - 1, &child, bound - (total - lb))
                }
            });
            for (lb, r) in lbs.iter_mut().zip(raised) {
                total = total.saturating_add(r.saturating_sub(*lb));
                *lb = r.max(*lb);
            }
            if total >= bound {
                return Err(total);
            }
        } else {
            for (c, lb_i) in classes.iter().map(|(_, c)| c).zip(lbs.iter_mut()).rev() {
                if c.len() < 3 {
                    continue;
                }
                let lb = self.class_bound(c, d - 1, &child, bound - (total - *lb_i));
                if lb > *lb_i {
                    total = total.saturating_add(lb - *lb_i);
                    *lb_i = lb;
                    if total >= bound {
                        return Err(total);
                    }
                }
            }
        }
        if parallel {
            // Each class gets the slack left if all others meet their bounds.
            let results: Vec<(u64, Outcome)> = exec::map(self.par, classes.len(), |i| {
                let ((f, c), lb) = (&classes[i], lbs[i]);
                let limit = bound - (total - lb);
                let start = Instant::now();
                let r = self.solve(c, d - 1, &child, limit, level.saturating_add(1));
                if level == 0 {
                    self.report(s.guess, *f, c.len(), r, start);
                }
                (lb, r)
            });
            let mut failed = false;
            for (lb, r) in results {
                match r {
                    Outcome::Exact(c) => total += c - lb,
                    Outcome::AtLeast(c) => {
                        total = total.saturating_add(c - lb);
                        failed = true;
                    }
                }
            }
            return if failed || total >= bound {
                Err(total.max(bound))
            } else {
                Ok(total)
            };
        }
        for ((_, c), &lb) in classes.iter().zip(&lbs) {
            let limit = bound - (total - lb);
            match self.solve(c, d - 1, &child, limit, level.saturating_add(1)) {
                Outcome::Exact(cost) => total += cost - lb,
                Outcome::AtLeast(at_least) => {
                    return Err(total.saturating_add(at_least - lb).max(bound))
                }
            }
            if total >= bound {
                return Err(total);
            }
        }
        if level <= 1 {
            self.observer.progress(&self.progress());
        }
        Ok(total)
    }

    /// Tells the observer that a first-level class is solved.
    fn report(&self, guess: Code, f: Feedback, n: usize, r: Outcome, start: Instant) {
        self.classes_done.fetch_add(1, Ordering::Relaxed);
        self.observer.class_done(&ClassReport {
            guess: self.game.format_code(guess),
            answer: self.game.format_feedback(f),
            secrets: n,
            outcome: match r {
                Outcome::Exact(c) => ClassOutcome::Exact(c),
                Outcome::AtLeast(c) if c >= INF => ClassOutcome::Infeasible,
                Outcome::AtLeast(c) => ClassOutcome::AtLeast(c),
            },
            seconds: start.elapsed().as_secs_f64(),
            progress: self.progress(),
        });
    }

    /// The counters as they stand.
    fn progress(&self) -> Progress {
        let nodes = self.nodes.load(Ordering::Relaxed);
        Progress {
            classes_done: self.classes_done.load(Ordering::Relaxed),
            nodes,
            nodes_per_second: nodes as f64 / self.started.elapsed().as_secs_f64().max(1e-3),
            memo_entries: self.memo.len(),
            memo_hits: self.memo.hits(),
        }
    }

    /// The optimal guess the search recorded for this very set, if the memo
    /// still holds it.
    fn remembered(&self, set: &[Code], d: usize, cost: u64) -> Option<Code> {
        if set.len() < self.config.memo_min {
            return None;
        }
        match self.memo.get(&raw_key(set, d)) {
            Some(Entry::Exact(c, guess)) if c == cost => guess,
            _ => None,
        }
    }

    /// The first guess in order whose exact cost is `cost` (searched anew).
    fn choose(&self, set: &[Code], d: usize, stab: &Stabilizer, cost: u64) -> Code {
        let phases = self.phases(set, d, stab);
        let reaches =
            |s: &&Scored| self.evaluate(set, d, stab, s, cost + 1, usize::MAX) == Ok(cost);
        match phases
            .first
            .iter()
            .take_while(|s| s.bound <= cost)
            .find(reaches)
        {
            Some(s) => s.guess,
            None => {
                self.rest(set, d, stab, &phases, cost + 1)
                    .0
                    .iter()
                    .take_while(|s| s.bound <= cost)
                    .find(reaches)
                    .expect("some guess reaches the optimal cost")
                    .guess
            }
        }
    }

    /// Rebuilds the optimal subtree of cost `cost`: at each node the first
    /// guess in order whose exact cost is `cost`.
    fn build(&self, set: &[Code], d: usize, stab: &Stabilizer, cost: u64) -> Node {
        let n = set.len();
        let d = self.clamp(n, d);
        if n == 1 {
            return Node::leaf(set[0]);
        }
        let chosen = match self.remembered(set, d, cost) {
            Some(g) => g,
            None => self.choose(set, d, stab, cost),
        };
        let child_stab = stab.fix(self.game.codes().symbols(chosen));
        let mut classes = self.classes(set, chosen);
        classes.sort_by_key(|(f, _)| *f);
        let children = exec::map(self.par, classes.len(), |i| {
            let (f, c) = &classes[i];
            let sub = match self.solve(c, d - 1, &child_stab, INF, usize::MAX) {
                Outcome::Exact(v) => v,
                Outcome::AtLeast(_) => unreachable!("a class of an optimal guess is feasible"),
            };
            (*f, self.build(c, d - 1, &child_stab, sub))
        });
        Node {
            guess: chosen,
            children,
        }
    }
}

/// The memo key of a set as it is (no canonical form): its codes, then the
/// depth.
fn raw_key(set: &[Code], d: usize) -> Vec<u16> {
    let mut key: Vec<u16> = set.iter().map(|c| c.0).collect();
    key.push(d as u16);
    key
}

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
        parallel_levels: 0,
        memo_codes: 1 << 20,
        ..Config::default()
    };
    let searcher = Searcher::new(game, config)?;
    Ok(searcher.solve_set(candidates, cap.unwrap_or(usize::MAX)))
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
/// `config.cap` and `config.objective` are ignored.
pub fn min_cap(game: &Game, config: &Config) -> Result<MinCap, SearchError> {
    min_cap_with(game, config, Driver::sequential())
}

/// [`min_cap`] run and reported by `driver`.
pub fn min_cap_with(
    game: &Game,
    config: &Config,
    driver: Driver<'_>,
) -> Result<MinCap, SearchError> {
    let n = game.len();
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
                ..config.clone()
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
        parallel_levels: 0,
        memo_codes: 1 << 20,
        ..Config::default()
    };
    let searcher = Searcher::new(game, config)?;
    let rules = game.rules();
    let stab = Stabilizer::identity(rules.positions(), rules.symbols());
    let mut d = 1;
    while searcher.bounds.lower(set.len(), d) >= INF
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
        parallel_levels: 0,
        memo_codes: 1 << 20,
        ..Config::default()
    };
    let searcher = Searcher::new(game, config)?;
    let rules = game.rules();
    let mut stab = Stabilizer::full(rules.positions(), rules.symbols());
    for &(g, _) in history {
        stab = stab.fix(game.codes().symbols(g));
    }
    let set = crate::model::partition::consistent(game, history);
    if set.is_empty() {
        return Ok(None);
    }
    let d = cap_left.unwrap_or(usize::MAX);
    Ok(match searcher.solve(&set, d, &stab, INF, usize::MAX) {
        Outcome::Exact(c) => Some((c, searcher.build(&set, d, &stab, c))),
        Outcome::AtLeast(_) => None,
    })
}

/// Solves `game` under `config` on this thread.
pub fn solve(game: &Game, config: Config) -> Result<Solution, SearchError> {
    Ok(Searcher::new(game, config)?.run())
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::rules::Rules;
    use std::collections::HashMap;

    /// Plain exhaustive minimum: every guess, no symmetry, no bounds.
    fn brute(
        game: &Game,
        set: &[Code],
        d: usize,
        memo: &mut HashMap<(Vec<Code>, usize), u64>,
    ) -> u64 {
        if set.len() == 1 {
            return 1;
        }
        if d == 0 || set.is_empty() {
            return if set.is_empty() { 0 } else { INF };
        }
        if d == 1 {
            return INF;
        }
        let key = (set.to_vec(), d);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut best = INF;
        for g in game.codes().all() {
            let classes = crate::model::partition::split(game, g, set);
            if classes.len() == 1 && classes[0].0 != game.win() {
                continue;
            }
            let mut total = set.len() as u64;
            for (f, c) in &classes {
                if *f != game.win() {
                    total = total.saturating_add(brute(game, c, d - 1, memo));
                }
            }
            best = best.min(total);
        }
        memo.insert(key, best);
        best
    }

    fn tree_of(game: &Game, threads: usize, canon_max: usize) -> Tree {
        let config = Config {
            cap: Some(5),
            canon_max,
            ..Config::default()
        };
        let par = crate::exec::Scoped(threads);
        let driver = Driver {
            par: &par,
            observer: &Silent,
        };
        solve_with(game, config, driver).unwrap().tree.unwrap()
    }

    #[test]
    fn same_tree_whatever_the_threads_and_memo() {
        for rules in ["mm:3x5", "moo:3x6"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let one = tree_of(&game, 1, 64);
            assert_eq!(one, tree_of(&game, 2, 64), "{rules}: 1 vs 2 threads");
            assert_eq!(one, tree_of(&game, 3, 0), "{rules}: canonical keys or not");
        }
    }

    #[test]
    fn isomorphic_sets_share_one_memo_entry() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let parse = |codes: &[&str]| -> Vec<Code> {
            let mut v: Vec<Code> = codes.iter().map(|t| book.parse(t).unwrap()).collect();
            v.sort();
            v
        };
        // The seed-004 position plus one code, and its image under the
        // symbol swaps 2↔7, 0↔4 with the first two positions swapped.
        let a = parse(&["2754", "2854", "4396", "4936", "9346", "3456"]);
        let pi = [4u8, 1, 7, 3, 0, 5, 6, 2, 8, 9];
        let mut b: Vec<Code> = a
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                book.find(&[
                    pi[s[1] as usize],
                    pi[s[0] as usize],
                    pi[s[2] as usize],
                    pi[s[3] as usize],
                ])
                .unwrap()
            })
            .collect();
        b.sort();
        assert_ne!(a, b);
        let config = Config {
            parallel_levels: 0,
            ..Config::default()
        };
        let searcher = Searcher::new(&game, config).unwrap();
        let (cost_a, _) = searcher.solve_set(&a, 7).unwrap();
        let entries = searcher.memo().len();
        let hits = searcher.memo().hits();
        let nodes = searcher.nodes();
        let (cost_b, _) = searcher.solve_set(&b, 7).unwrap();
        assert_eq!(cost_a, cost_b);
        // B is not searched: one node (its lookup), a hit on A's canonical
        // entry, and only B's raw alias of that entry is added.
        assert_eq!(searcher.nodes(), nodes + 1, "B is answered from the memo");
        assert_eq!(searcher.memo().len(), entries + 1);
        assert!(searcher.memo().hits() > hits, "B hits A's entry");
    }

    #[test]
    fn after_a_history_equals_the_set_alone() {
        let game = Game::new(Rules::standard());
        let g = game.parse_code("0123").unwrap();
        let f = game.parse_feedback("0A4B").unwrap();
        let (cost, node) = solve_after(&game, &[(g, f)], Some(6)).unwrap().unwrap();
        let set = crate::model::partition::consistent(&game, &[(g, f)]);
        let (alone, _) = solve_candidates(&game, &set, Some(6)).unwrap().unwrap();
        assert_eq!(cost, alone);
        // The subtree solves every one of the 9 secrets.
        let tree = Tree {
            rules: game.rules(),
            root: Node {
                guess: g,
                children: vec![(f, node)],
            },
        };
        for &s in &set {
            assert!(tree.play(&game, s).unwrap().len() <= 7);
        }
    }

    #[test]
    fn a_cap_below_the_optimum_is_refuted() {
        // moo:3x5 has 60 codes and 8 non-winning answers at most per guess:
        // 1 + 8 < 60, so 2 guesses can never suffice, and the search says so.
        let game = Game::new("moo:3x5".parse::<Rules>().unwrap());
        let sol = solve(
            &game,
            Config {
                cap: Some(2),
                ..Config::default()
            },
        )
        .unwrap();
        assert_eq!(sol.cost, INF);
        assert!(sol.tree.is_none());
        let free = solve(&game, Config::default()).unwrap();
        let depth = free.stats.unwrap().max_depth;
        let at_depth = solve(
            &game,
            Config {
                cap: Some(depth),
                ..Config::default()
            },
        )
        .unwrap();
        assert_eq!(
            at_depth.cost, free.cost,
            "the unlimited optimum fits its own depth"
        );
    }

    /// Plain exhaustive crush minimum: (secrets solved at relative depth
    /// `d`, total), compared in that order.
    fn brute_crush(
        game: &Game,
        set: &[Code],
        d: usize,
        memo: &mut HashMap<(Vec<Code>, usize), (u64, u64)>,
    ) -> (u64, u64) {
        const NO: (u64, u64) = (u64::MAX, u64::MAX);
        if set.len() == 1 {
            return (u64::from(d == 1), 1);
        }
        if d <= 1 {
            return NO;
        }
        if let Some(&v) = memo.get(&(set.to_vec(), d)) {
            return v;
        }
        let mut best = NO;
        for g in game.codes().all() {
            let classes = crate::model::partition::split(game, g, set);
            if classes.len() == 1 && classes[0].0 != game.win() {
                continue;
            }
            let mut cost = (0u64, set.len() as u64);
            for (f, c) in &classes {
                if *f != game.win() {
                    let sub = brute_crush(game, c, d - 1, memo);
                    if sub == NO {
                        cost = NO;
                        break;
                    }
                    cost = (cost.0 + sub.0, cost.1 + sub.1);
                }
            }
            best = best.min(cost);
        }
        memo.insert((set.to_vec(), d), best);
        best
    }

    #[test]
    fn worst_case_and_crush_equal_brute_force() {
        for rules in [
            "mm:2x3", "mm:2x4", "moo:2x5", "mm:3x3", "moo:3x4", "moo:3x5",
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let all = game.all_codes();
            let brute_cap = (1..)
                .find(|&d| brute(&game, &all, d, &mut HashMap::new()) < INF)
                .unwrap();
            let found = min_cap(&game, &Config::default()).unwrap();
            assert_eq!(found.cap, brute_cap, "{rules}: minimal cap");
            // Every cap below was refuted, by counting or by search.
            assert!(found
                .searches
                .iter()
                .all(|&(c, ok, _)| ok == (c == brute_cap)));
            assert_eq!(found.searches.first().map(|s| s.0), Some(found.counted));
            let (at_cap, total) = brute_crush(&game, &all, brute_cap, &mut HashMap::new());
            let config = Config {
                cap: Some(brute_cap),
                objective: Cost::Crush,
                ..Config::default()
            };
            let sol = solve(&game, config).unwrap();
            let stats = sol.stats.unwrap();
            assert_eq!(
                stats.histogram[brute_cap - 1],
                at_cap,
                "{rules}: crush count"
            );
            assert_eq!(stats.total, total, "{rules}: crush total");
            assert_eq!(sol.cost, at_cap * crate::search::bound::CRUSH_UNIT + total);
        }
    }

    /// Worst case by brute force: every guess, no symmetry, no bounds.
    pub(crate) fn brute_worst(
        game: &Game,
        set: &[Code],
        memo: &mut HashMap<Vec<Code>, usize>,
    ) -> usize {
        if set.len() == 1 {
            return 1;
        }
        if let Some(&v) = memo.get(set) {
            return v;
        }
        let mut best = usize::MAX;
        for g in game.codes().all() {
            let classes = crate::model::partition::split(game, g, set);
            if classes.len() == 1 && classes[0].0 != game.win() {
                continue;
            }
            let worst = classes
                .iter()
                .map(|(f, c)| {
                    if *f == game.win() {
                        1
                    } else {
                        1 + brute_worst(game, c, memo)
                    }
                })
                .max()
                .unwrap();
            best = best.min(worst);
        }
        memo.insert(set.to_vec(), best);
        best
    }

    #[test]
    fn min_guesses_equals_brute_force() {
        for rules in ["moo:3x5", "mm:3x3"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let mut memo = HashMap::new();
            // The classes of two guesses: sets of every size the game has.
            for a in game.codes().all().step_by(11) {
                for (_, c) in crate::model::partition::split(&game, a, &game.all_codes()) {
                    let expected = brute_worst(&game, &c, &mut memo);
                    assert_eq!(min_guesses(&game, &c).unwrap(), expected, "{rules}");
                }
            }
        }
    }

    #[test]
    fn refutation_by_hand_mm_2x2() {
        // mm:2x2 has codes 00 01 10 11. Any first guess leaves a class of two
        // secrets with the same answer (e.g. 00: 01 and 10 both answer 1A0B),
        // so 2 guesses cannot always suffice; 3 can.
        let game = Game::new("mm:2x2".parse::<Rules>().unwrap());
        let found = min_cap(&game, &Config::default()).unwrap();
        assert_eq!(found.cap, 3);
        assert_eq!(
            found.searches.iter().filter(|s| !s.1).count(),
            1,
            "cap 2 refuted by search"
        );
    }

    #[test]
    fn equals_brute_force_on_small_games() {
        for (rules, caps) in [
            ("mm:2x3", vec![None, Some(3), Some(2)]),
            ("mm:2x4", vec![None, Some(3)]),
            ("moo:2x4", vec![None, Some(3)]),
            ("moo:2x5", vec![None, Some(4)]),
            ("mm:3x3", vec![None, Some(4), Some(3)]),
            ("moo:3x4", vec![None, Some(4)]),
            ("moo:3x5", vec![None, Some(5), Some(4)]),
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            for cap in caps {
                let expect = brute(
                    &game,
                    &game.all_codes(),
                    cap.unwrap_or(64),
                    &mut HashMap::new(),
                );
                let sol = solve(
                    &game,
                    Config {
                        cap,
                        ..Config::default()
                    },
                )
                .unwrap();
                assert_eq!(sol.cost, expect, "{rules} cap {cap:?}");
                if expect < INF {
                    assert_eq!(sol.stats.unwrap().total, expect, "{rules} cap {cap:?}");
                }
            }
        }
    }
}
