//! Heuristic strategies: one guess at a time, chosen by a score of the
//! partition it makes, and the whole decision tree they play.
//!
//! # Heuristics
//! - `first`: the first candidate (a code still consistent with every
//!   answer) in lexicographic order.
//! - `random`: a candidate drawn by splitmix64 ([`crate::rng`]) from
//!   `--seed`; the draw at a position depends only on the seed and the
//!   history that leads there, so the tree is the same whatever order (or
//!   thread) builds it, and no crate version can change it.
//! - `minimax` (Knuth 1976): the smallest largest class.
//! - `irving` (Irving 1979): the smallest Σ n² over the classes (the
//!   expected size of the class that remains, times the candidate count).
//! - `entropy` (Neuwirth 1982): the smallest Σ n ln n, i.e. the largest
//!   entropy of the answer.
//! - `kooi` (Kooi 2005): the most non-empty classes, the winning class
//!   counted.
//!
//! `first` and `random` always guess a candidate and ignore pool and ties.
//!
//! # Scores and the winning class
//! With the default tie rules the winning class (`kA0B`, which holds the
//! guess itself when it is a candidate) is **counted** in every score:
//! `minimax` takes the maximum over all classes, `irving` adds 1 for a
//! candidate guess, `kooi` counts the winning class as a class; `entropy`
//! does not care (1·ln 1 = 0). This reproduces the published rows of
//! `../shared/REFERENCE.md` (MOO 4x10: minimax 27139, irving 26551, kooi
//! 26751; Mastermind 4x6: 5801, 5696, 5668). Only `kooi` needs it (without
//! the winning class: 26957 and 5688): for `minimax` a candidate guess among
//! two or more candidates leaves a non-empty non-winning class, so the
//! variants agree; for `irving`, Σ n² ≡ N (mod 2) makes a candidate's Σ over
//! the other classes differ from any non-candidate's, and the +1 turns
//! "strictly lower" into "lower or equal", which candidate-first resolves
//! for the candidate: the variants agree under candidate-first.
//! With `--ties seed000` the winning class is left out of every score, as
//! seed 000's program does.
//!
//! # Guess pool and ties
//! - Pool `all` (default): any legal code may be guessed; `candidates`: only
//!   candidates.
//! - Ties `candidate-first` (default): the lowest score wins; among equal
//!   scores a candidate, then the smallest code. `smallest`: the lowest
//!   score, then the smallest code. `seed000`: seed 000's whole rule (its
//!   `find`/`dfs2` functions): the pool is its "essentially different"
//!   enumeration — with `p` the largest symbol used by earlier guesses
//!   (`p` starts at `k - 1`), a symbol `j > p + 1` may appear only if `j - 1`
//!   appears earlier in the same guess, and every code is enumerated once
//!   `p >= n - 2` — scanned in lexicographic order, the best so far being
//!   replaced when a guess scores strictly lower, or equal and is a
//!   candidate (so the *last* candidate of the best score wins); scores
//!   leave out the winning class.
//! - Every rule guesses a single remaining candidate at once, and the first
//!   guess is fixed (`--first`, default the smallest legal code).
//!
//! # Invariants
//! - Deterministic: the tree depends only on the game and the
//!   [`StrategyConfig`], never on the thread count (children are built in
//!   parallel but each depends only on its own class and history).
//! - Every guess makes progress: a candidate always splits two or more
//!   candidates, and each scoring heuristic rates a guess that does not
//!   split the candidates strictly worse than any candidate, so the chosen
//!   guess splits them (a guard falls back to the first candidate should it
//!   ever not). Hence every tree built here replays every secret to a win.
//! - Ties are exact. Integer scores (max, Σ n², class count) are exact in an
//!   `f64` (below 2^53). Entropy scores Σ n ln n = ln Π nⁿ are compared in
//!   `f64` when they differ by more than [`ENTROPY_TOLERANCE`] (far above the
//!   rounding error, < 1e-8 for any game of at most 65,535 codes); closer
//!   scores are compared exactly: equal iff the prime-exponent vectors
//!   Σ n·v_p(n) agree, and otherwise by comparing the two integers
//!   Π p^{e_p} with big-integer arithmetic.
//!
//! # Speed
//! The choice is always the one a scan of the whole pool would make, but:
//! - With pool `all` and the `candidate-first` or `smallest` rules, only one
//!   guess per orbit of "symbols that no earlier guess used are
//!   interchangeable" is scored: the lexicographically smallest. A
//!   permutation σ of the unused symbols fixes every earlier guess, hence
//!   maps the candidate set onto itself, and `feedback(s, σg) =
//!   feedback(σ⁻¹s, g)`: the guesses of an orbit have the same class sizes,
//!   the same score and the same candidacy. The winner under (score, not
//!   candidate, code) or (score, code) is therefore the smallest member of
//!   its orbit, which is its representative, so the restriction never
//!   changes the choice (the reference and brute-force tests confirm it).
//!   Seed 000's enumeration is this same idea in its own form and is used as
//!   is under `seed000`.
//! - Under `candidate-first` and `seed000` the candidates (of the pool) are
//!   scored first; a guess that is not a candidate must then score strictly
//!   lower, and none scores below the even spread of the candidates over the
//!   non-winning answers (every score is Schur-convex in the class sizes, or
//!   minus their number), so the scan stops once the best reaches that bound.
//!   With `candidate-first` a candidate splitting the others into singletons
//!   is optimal for every score and taken at once.
//! - Class sizes come from the feedback table: for small candidate sets from
//!   the candidates' own rows (by symmetry the feedback against every guess,
//!   walked in guess order), else from the guess's row, with four
//!   interleaved counters.
//! - Each node is computed once; the classes of a node are built in parallel.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::exec::{self, Parallel, Sequential};
use crate::model::code::Code;
use crate::model::feedback::{Feedback, FeedbackTable};
use crate::model::game::Game;
use crate::model::partition;
use crate::rng::splitmix64;
use crate::tree::{Node, Tree};

/// Entropy scores closer than this are compared exactly (see module doc).
pub const ENTROPY_TOLERANCE: f64 = 1e-6;

/// Candidate sets smaller than this are counted from their own table rows:
/// walking a few rows in order is cache-friendly, where one row per guess
/// read at a few scattered places is not.
const TRANSPOSED_MAX: usize = 256;

/// Candidate sets at least this large build their children in parallel.
const PARALLEL_MIN: usize = 48;

/// A heuristic: how a strategy picks its next guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// The first candidate in lexicographic order.
    First,
    /// A candidate drawn from `--seed` (deterministic).
    Random,
    /// Smallest largest class (Knuth).
    Minimax,
    /// Smallest Σ n² over the classes (Irving).
    Irving,
    /// Smallest Σ n ln n, the largest entropy (Neuwirth).
    Entropy,
    /// Most non-empty classes (Kooi).
    Kooi,
}

impl Heuristic {
    /// Every heuristic, in the order tables list them.
    pub const ALL: [Heuristic; 6] = [
        Heuristic::First,
        Heuristic::Random,
        Heuristic::Minimax,
        Heuristic::Irving,
        Heuristic::Entropy,
        Heuristic::Kooi,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        Heuristic::NAMES
            .iter()
            .find(|(_, h)| *h == self)
            .map(|(name, _)| *name)
            .expect("every heuristic is named")
    }
}

/// Which codes a scoring heuristic may guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Pool {
    /// Every legal code (default).
    #[default]
    All,
    /// Only codes still consistent with every answer.
    Candidates,
}

/// How a scoring heuristic breaks ties (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ties {
    /// A candidate first, then the smallest code (default).
    #[default]
    CandidateFirst,
    /// The smallest code.
    Smallest,
    /// Seed 000's whole rule: its enumeration, its scan, no winning class.
    Seed000,
}

/// Names on the command line, in the order `--help` lists them.
pub trait Named: Sized + Copy + 'static {
    /// Every value with its name.
    const NAMES: &'static [(&'static str, Self)];
}

impl Named for Heuristic {
    const NAMES: &'static [(&'static str, Heuristic)] = &[
        ("first", Heuristic::First),
        ("random", Heuristic::Random),
        ("minimax", Heuristic::Minimax),
        ("irving", Heuristic::Irving),
        ("entropy", Heuristic::Entropy),
        ("kooi", Heuristic::Kooi),
    ];
}

impl Named for Pool {
    const NAMES: &'static [(&'static str, Pool)] =
        &[("all", Pool::All), ("candidates", Pool::Candidates)];
}

impl Named for Ties {
    const NAMES: &'static [(&'static str, Ties)] = &[
        ("candidate-first", Ties::CandidateFirst),
        ("smallest", Ties::Smallest),
        ("seed000", Ties::Seed000),
    ];
}

macro_rules! names {
    ($t:ty, $what:literal) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let (name, _) = <$t as Named>::NAMES
                    .iter()
                    .find(|(_, v)| v == self)
                    .expect("every value is named");
                f.write_str(name)
            }
        }

        impl FromStr for $t {
            type Err = StrategyError;

            fn from_str(text: &str) -> Result<Self, StrategyError> {
                <$t as Named>::NAMES
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case(text))
                    .map(|&(_, v)| v)
                    .ok_or_else(|| StrategyError::UnknownName {
                        what: $what,
                        text: text.to_string(),
                        allowed: <$t as Named>::NAMES
                            .iter()
                            .map(|(name, _)| *name)
                            .collect::<Vec<_>>()
                            .join(", "),
                    })
            }
        }
    };
}
names!(Heuristic, "strategy");
names!(Pool, "pool");
names!(Ties, "tie rule");

/// Errors of the strategy module.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StrategyError {
    /// A name that is not one of ours.
    #[error("unknown {what} '{text}': use one of {allowed}")]
    UnknownName {
        /// what was named
        what: &'static str,
        /// the text read
        text: String,
        /// the names allowed
        allowed: String,
    },
    /// A code index outside the game.
    #[error("code #{index} is not a code of this game ({len} codes)")]
    IllegalCode {
        /// the index
        index: usize,
        /// the number of codes of the game
        len: usize,
    },
    /// No candidate left: some answer was wrong.
    #[error("no secret is consistent with the answers given: one of them is wrong")]
    NoCandidates,
}

/// A complete strategy: a heuristic and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StrategyConfig {
    /// How to choose each guess after the first.
    pub heuristic: Heuristic,
    /// The first guess; `None` (default): the smallest legal code, `Code(0)`.
    pub first: Option<Code>,
    /// Which codes may be guessed (default [`Pool::All`]); ignored by
    /// `first` and `random`.
    pub pool: Pool,
    /// How ties are broken (default [`Ties::CandidateFirst`]); ignored by
    /// `first` and `random`.
    pub ties: Ties,
    /// Seed of `random` (any `u64`, default 0); ignored by the others.
    pub seed: u64,
}

impl StrategyConfig {
    /// The heuristic with every option at its default.
    pub fn new(heuristic: Heuristic) -> StrategyConfig {
        StrategyConfig {
            heuristic,
            first: None,
            pool: Pool::All,
            ties: Ties::CandidateFirst,
            seed: 0,
        }
    }

    /// The first guess.
    pub fn first_guess(&self) -> Code {
        self.first.unwrap_or(Code(0))
    }

    /// Whether the winning class counts in the scores (see the module doc).
    fn counts_win(&self) -> bool {
        self.ties != Ties::Seed000
    }
}

/// Builds the whole decision tree of a strategy for `game`: every secret
/// played to a win. Each node is computed once, on this thread.
pub fn build_tree(game: &Game, cfg: &StrategyConfig) -> Result<Tree, StrategyError> {
    build_tree_with(game, cfg, &Sequential)
}

/// [`build_tree`], the children of large nodes built side by side by `par`
/// (the tree is the same whatever `par` is).
pub fn build_tree_with(
    game: &Game,
    cfg: &StrategyConfig,
    par: &dyn Parallel,
) -> Result<Tree, StrategyError> {
    let first = cfg.first_guess();
    check_code(game, first)?;
    let ctx = Context::new(game, cfg, par);
    let all = game.all_codes();
    let root = ctx.build_node(&all, Position::root(cfg.seed), first);
    Ok(Tree {
        rules: game.rules(),
        root,
    })
}

/// The strategy's guess in one position: `candidates` are the codes
/// consistent with `history` (they are sorted and deduplicated here). With an
/// empty history this is the first guess; otherwise the same guess
/// [`build_tree`] makes after that history, whether or not the history
/// follows the tree.
pub fn best_guess(
    game: &Game,
    candidates: &[Code],
    history: &[(Code, Feedback)],
    cfg: &StrategyConfig,
) -> Result<Code, StrategyError> {
    for &(g, _) in history {
        check_code(game, g)?;
    }
    if history.is_empty() {
        let first = cfg.first_guess();
        check_code(game, first)?;
        return Ok(first);
    }
    let mut cands = candidates.to_vec();
    cands.sort_unstable();
    cands.dedup();
    if let Some(&c) = cands.last() {
        check_code(game, c)?;
    } else {
        return Err(StrategyError::NoCandidates);
    }
    let ctx = Context::new(game, cfg, &Sequential);
    let mut pos = Position::root(cfg.seed);
    for &(g, f) in history {
        pos = pos.after(game, g, f);
    }
    Ok(ctx.choose(&cands, pos))
}

fn check_code(game: &Game, code: Code) -> Result<(), StrategyError> {
    if code.index() < game.len() {
        Ok(())
    } else {
        Err(StrategyError::IllegalCode {
            index: code.index(),
            len: game.len(),
        })
    }
}

/// What a position knows beyond its candidates: the symbols earlier guesses
/// used and the state of the random draw, both functions of the history.
#[derive(Debug, Clone, Copy)]
struct Position {
    used: u64,
    rng: u64,
}

impl Position {
    fn root(seed: u64) -> Position {
        Position {
            used: 0,
            rng: splitmix64(seed),
        }
    }

    fn after(self, game: &Game, guess: Code, answer: Feedback) -> Position {
        Position {
            used: self.used | game.codes().mask(guess),
            rng: splitmix64(self.rng ^ ((guess.0 as u64) << 8 | answer.0 as u64)),
        }
    }
}

/// Shared, read-mostly state of one tree construction.
struct Context<'a> {
    game: &'a Game,
    /// Who builds the children of large nodes.
    par: &'a dyn Parallel,
    table: Option<&'a FeedbackTable>,
    cfg: StrategyConfig,
    slots: usize,
    win: usize,
    /// Number of answers that can occur (a candidate set larger than this
    /// cannot be split into singletons).
    answers: usize,
    /// `nlnn[n] = n ln n` (entropy only).
    nlnn: Vec<f64>,
    /// Smallest prime factor of each `n` (entropy only).
    spf: Vec<u32>,
    /// Guess pools: key = used-symbol mask (orbit representatives) or
    /// `1 << 63 | p` (seed 000's enumeration).
    pools: Mutex<FxHashMap<u64, Arc<[Code]>>>,
}

impl<'a> Context<'a> {
    fn new(game: &'a Game, cfg: &StrategyConfig, par: &'a dyn Parallel) -> Context<'a> {
        let rules = game.rules();
        let (nlnn, spf) = if cfg.heuristic == Heuristic::Entropy {
            let n = game.len();
            let nlnn = (0..=n)
                .map(|i| {
                    if i < 2 {
                        0.0
                    } else {
                        i as f64 * (i as f64).ln()
                    }
                })
                .collect();
            (nlnn, smallest_prime_factors(n))
        } else {
            (Vec::new(), Vec::new())
        };
        Context {
            game,
            par,
            table: game.table(),
            cfg: *cfg,
            slots: rules.feedback_slots(),
            win: game.win().index(),
            answers: game.possible_feedbacks().count(),
            nlnn,
            spf,
            pools: Mutex::new(FxHashMap::default()),
        }
    }

    /// The node guessing `guess` with these candidates, and all below it.
    fn build_node(&self, cands: &[Code], pos: Position, guess: Code) -> Node {
        let mut classes = partition::split(self.game, guess, cands);
        if classes.len() == 1 && classes[0].1.len() == cands.len() && cands.len() > 1 {
            // A guess that does not split: never chosen by the heuristics
            // (see the module doc); guess the first candidate instead.
            return self.build_node(cands, pos, cands[0]);
        }
        let build = |(f, class): &(Feedback, Vec<Code>)| {
            let next = pos.after(self.game, guess, *f);
            let g = self.choose(class, next);
            (*f, self.build_node(class, next, g))
        };
        classes.retain(|(f, _)| f.index() != self.win);
        let children = if cands.len() >= PARALLEL_MIN && self.par.width() > 1 {
            exec::map(self.par, classes.len(), |i| build(&classes[i]))
        } else {
            classes.iter().map(build).collect()
        };
        Node { guess, children }
    }

    /// Class sizes of `guess` over `cands` into `counts[..slots]`, from
    /// the candidates' `rows` when there are any (see [`Context::scan`]).
    #[inline]
    fn tally(&self, guess: Code, cands: &[Code], rows: &[&[Feedback]], counts: &mut [u32; 256]) {
        if rows.is_empty() {
            return partition::count(self.game, guess, cands, counts);
        }
        counts[..self.slots].fill(0);
        let g = guess.index();
        for row in rows {
            counts[row[g].0 as usize] += 1;
        }
    }

    /// The guess of the strategy at a position with these candidates.
    fn choose(&self, cands: &[Code], pos: Position) -> Code {
        debug_assert!(!cands.is_empty());
        if cands.len() == 1 {
            return cands[0];
        }
        match self.cfg.heuristic {
            Heuristic::First => cands[0],
            Heuristic::Random => {
                let r = splitmix64(pos.rng) as u128;
                cands[((r * cands.len() as u128) >> 64) as usize]
            }
            _ => self.scan(cands, pos),
        }
    }

    /// Scores the pool and keeps the best guess by the tie rule.
    fn scan(&self, cands: &[Code], pos: Position) -> Code {
        let ties = self.cfg.ties;
        // Few candidates: read their table rows (feedback against every
        // guess, by symmetry), each walked in order as the guesses are.
        let rows: Vec<&[Feedback]> = match self.table {
            Some(t) if cands.len() < TRANSPOSED_MAX => cands.iter().map(|&s| t.row(s)).collect(),
            _ => Vec::new(),
        };
        let mut counts = [0u32; 256];
        let mut best_counts = [0u32; 256];
        let mut best: Option<(Code, f64)> = None;
        let owned;
        let pool: &[Code] = match self.cfg.pool {
            Pool::Candidates => cands,
            Pool::All => {
                owned = self.pool(pos);
                &owned
            }
        };
        if ties == Ties::Smallest {
            for &g in pool {
                self.tally(g, cands, &rows, &mut counts);
                let key = self.key(&counts);
                let better = best.map_or(true, |(_, best_key)| {
                    self.compare(key, &counts, best_key, &best_counts) == Ordering::Less
                });
                if better {
                    best = Some((g, key));
                    best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
                }
            }
            return best.map_or(cands[0], |(g, _)| g);
        }
        // Both other rules prefer a candidate among equal scores: the
        // smallest (candidate-first) or the last scanned (seed000). Score
        // the candidates of the pool first, then look for a guess that is
        // not a candidate and scores strictly lower.
        let last = ties == Ties::Seed000;
        for &g in cands {
            if self.cfg.pool == Pool::All && pool.binary_search(&g).is_err() {
                continue; // another member of its orbit is in the pool
            }
            self.tally(g, cands, &rows, &mut counts);
            if !last && counts[..self.slots].iter().all(|&c| c <= 1) {
                // Split into singletons: optimal for every score (only a
                // split into singletons reaches it), and the first such.
                return g;
            }
            let key = self.key(&counts);
            let better = best.map_or(true, |(_, best_key)| {
                let ord = self.compare(key, &counts, best_key, &best_counts);
                ord == Ordering::Less || (last && ord == Ordering::Equal)
            });
            if better {
                best = Some((g, key));
                best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
            }
        }
        // No guess that is not a candidate scores below `bound`: stop as
        // soon as the best reaches it.
        let (bound_key, bound_counts) = self.non_candidate_bound(cands.len());
        let done = |key: f64, counts: &[u32; 256]| {
            self.compare(key, counts, bound_key, &bound_counts) != Ordering::Greater
        };
        if let Some((g, key)) = best {
            if done(key, &best_counts) {
                return g;
            }
        }
        for &g in pool {
            self.tally(g, cands, &rows, &mut counts);
            if counts[self.win] == 1 {
                continue; // a candidate: already scored
            }
            let key = self.key(&counts);
            let better = best.map_or(true, |(_, best_key)| {
                self.compare(key, &counts, best_key, &best_counts) == Ordering::Less
            });
            if better {
                best = Some((g, key));
                best_counts[..self.slots].copy_from_slice(&counts[..self.slots]);
                if done(key, &counts) {
                    break;
                }
            }
        }
        best.map_or(cands[0], |(g, _)| g)
    }

    /// The lowest score a guess that is not a candidate can have with `n`
    /// candidates, and class sizes that reach it: `n` spread as evenly as
    /// possible over the non-winning answers (every score here is a
    /// Schur-convex function of the sizes, or minus the number of classes).
    fn non_candidate_bound(&self, n: usize) -> (f64, [u32; 256]) {
        let mut counts = [0u32; 256];
        let classes = self.answers - 1;
        let (q, r) = (n / classes, n % classes);
        for (i, c) in counts.iter_mut().take(classes).enumerate() {
            *c = (q + usize::from(i < r)) as u32;
        }
        // The positions of the sizes do not matter, except that none may
        // sit in the winning slot.
        if classes > self.win {
            counts[self.win..].rotate_right(1);
        }
        (self.key(&counts), counts)
    }

    /// The score of class sizes (lower is better), see the module doc.
    #[inline]
    fn key(&self, counts: &[u32; 256]) -> f64 {
        let all = &counts[..self.slots];
        let skip_win = !self.cfg.counts_win();
        let w = self.win;
        match self.cfg.heuristic {
            Heuristic::Minimax => {
                let mut m = 0;
                for (i, &c) in all.iter().enumerate() {
                    if c > m && !(skip_win && i == w) {
                        m = c;
                    }
                }
                m as f64
            }
            Heuristic::Irving => {
                let mut s = 0u64;
                for &c in all {
                    s += c as u64 * c as u64;
                }
                if skip_win {
                    s -= all[w] as u64;
                }
                s as f64
            }
            Heuristic::Entropy => all.iter().map(|&c| self.nlnn[c as usize]).sum(),
            Heuristic::Kooi => {
                let mut n = all.iter().filter(|&&c| c > 0).count();
                if skip_win && all[w] > 0 {
                    n -= 1;
                }
                -(n as f64)
            }
            Heuristic::First | Heuristic::Random => 0.0,
        }
    }

    /// Compares two scores; entropy scores closer than the tolerance are
    /// compared exactly from their class sizes.
    #[inline]
    fn compare(&self, a: f64, a_counts: &[u32; 256], b: f64, b_counts: &[u32; 256]) -> Ordering {
        if self.cfg.heuristic != Heuristic::Entropy {
            return a.partial_cmp(&b).expect("scores are finite");
        }
        if a < b - ENTROPY_TOLERANCE {
            Ordering::Less
        } else if a > b + ENTROPY_TOLERANCE {
            Ordering::Greater
        } else {
            compare_power_products(&a_counts[..self.slots], &b_counts[..self.slots], &self.spf)
        }
    }

    /// The guess pool of a position under pool `all` (shared, cached).
    fn pool(&self, pos: Position) -> Arc<[Code]> {
        let rules = self.game.rules();
        let n = rules.symbols();
        let k = rules.positions();
        let key = if self.cfg.ties == Ties::Seed000 {
            // The largest symbol used so far, at least k - 1.
            let p = if pos.used == 0 {
                k - 1
            } else {
                (63 - pos.used.leading_zeros() as usize).max(k - 1)
            };
            1 << 63 | p as u64
        } else {
            pos.used
        };
        if let Some(p) = self
            .pools
            .lock()
            .expect("no panics hold the lock")
            .get(&key)
        {
            return p.clone();
        }
        let book = self.game.codes();
        let pool: Arc<[Code]> = if key >> 63 == 1 {
            let p = (key & 0xff) as usize;
            book.all()
                .filter(|&g| p + 2 >= n || seed000_enumerates(book.symbols(g), p))
                .collect()
        } else {
            let unused: Vec<u8> = (0..n as u8).filter(|&s| key & 1 << s == 0).collect();
            book.all()
                .filter(|&g| orbit_representative(book.symbols(g), key, &unused))
                .collect()
        };
        self.pools
            .lock()
            .expect("no panics hold the lock")
            .entry(key)
            .or_insert(pool)
            .clone()
    }
}

/// Seed 000's `dfs2`: symbol `j` may appear if `j <= p + 1` or `j - 1`
/// appears earlier in the same guess.
fn seed000_enumerates(symbols: &[u8], p: usize) -> bool {
    symbols
        .iter()
        .enumerate()
        .all(|(i, &j)| j as usize <= p + 1 || symbols[..i].contains(&(j - 1)))
}

/// Whether a code is the smallest of its orbit under permutations of the
/// symbols outside `used`: its unused symbols appear, in order of first
/// occurrence, as the smallest unused symbols in increasing order.
fn orbit_representative(symbols: &[u8], used: u64, unused: &[u8]) -> bool {
    let mut next = 0;
    let mut seen = used;
    for &s in symbols {
        if seen & 1 << s != 0 {
            continue;
        }
        if unused.get(next) != Some(&s) {
            return false;
        }
        next += 1;
        seen |= 1 << s;
    }
    true
}

/// `spf[n]`: the smallest prime factor of `n` (0 for `n < 2`).
fn smallest_prime_factors(max: usize) -> Vec<u32> {
    let mut spf = vec![0u32; max + 1];
    for i in 2..=max {
        if spf[i] == 0 {
            for j in (i..=max).step_by(i) {
                if spf[j] == 0 {
                    spf[j] = i as u32;
                }
            }
        }
    }
    spf
}

/// Compares Π aᵢ^aᵢ with Π bᵢ^bᵢ exactly (class sizes `a`, `b`, all below
/// `spf.len()`): the orders of Σ n ln n.
fn compare_power_products(a: &[u32], b: &[u32], spf: &[u32]) -> Ordering {
    // e[p] = exponent of p in Π aᵢ^aᵢ minus that in Π bᵢ^bᵢ.
    let mut e: Vec<(u32, i64)> = Vec::new();
    let mut add = |n: u32, sign: i64| {
        let mut m = n;
        while m >= 2 {
            let p = spf[m as usize];
            let mut v = 0;
            while m % p == 0 {
                m /= p;
                v += 1;
            }
            let d = sign * n as i64 * v;
            match e.iter_mut().find(|(q, _)| *q == p) {
                Some((_, x)) => *x += d,
                None => e.push((p, d)),
            }
        }
    };
    for &n in a {
        add(n, 1);
    }
    for &n in b {
        add(n, -1);
    }
    if e.iter().all(|&(_, x)| x == 0) {
        return Ordering::Equal;
    }
    let side = |sign: i64| {
        let mut big = BigUint::one();
        for &(p, x) in &e {
            for _ in 0..(x * sign).max(0) {
                big.mul_small(p);
            }
        }
        big
    };
    side(1).cmp(&side(-1))
}

/// Just enough of an unsigned big integer to compare products of primes.
#[derive(Debug, PartialEq, Eq)]
struct BigUint {
    /// Base 2³² digits, least significant first, no leading zero digit.
    digits: Vec<u32>,
}

impl BigUint {
    fn one() -> BigUint {
        BigUint { digits: vec![1] }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for d in &mut self.digits {
            let x = *d as u64 * m as u64 + carry;
            *d = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.digits.push(carry as u32);
        }
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.digits
            .len()
            .cmp(&other.digits.len())
            .then_with(|| self.digits.iter().rev().cmp(other.digits.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    /// Π nⁿ as a big integer, directly.
    fn power_product(sizes: &[u32]) -> BigUint {
        let mut big = BigUint::one();
        for &n in sizes {
            for _ in 0..n {
                if n > 1 {
                    big.mul_small(n);
                }
            }
        }
        big
    }

    #[test]
    fn exact_entropy_comparison_matches_big_integers() {
        let spf = smallest_prime_factors(64);
        // 4⁴·1 = 2²·2²·2²·2² = 256: a classic exact tie of different sizes.
        assert_eq!(
            compare_power_products(&[4, 1, 1, 1, 1], &[2, 2, 2, 2], &spf),
            Ordering::Equal
        );
        // Every pair of partitions of 12 secrets (sizes in decreasing order).
        fn partitions(n: u32, max: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if n == 0 {
                out.push(prefix.clone());
            }
            for part in (1..=n.min(max)).rev() {
                prefix.push(part);
                partitions(n - part, part, prefix, out);
                prefix.pop();
            }
        }
        let mut parts = Vec::new();
        partitions(12, 12, &mut Vec::new(), &mut parts);
        assert_eq!(parts.len(), 77);
        let mut ties = 0;
        for x in &parts {
            for y in &parts {
                let want = power_product(x).cmp(&power_product(y));
                assert_eq!(compare_power_products(x, y, &spf), want, "{x:?} {y:?}");
                let fx: f64 = x.iter().map(|&n| n as f64 * (n.max(1) as f64).ln()).sum();
                let fy: f64 = y.iter().map(|&n| n as f64 * (n.max(1) as f64).ln()).sum();
                if want != Ordering::Equal {
                    assert!((fx - fy).abs() > ENTROPY_TOLERANCE);
                } else if x != y {
                    ties += 1;
                }
            }
        }
        assert!(ties > 0, "some different multisets tie exactly");
    }

    #[test]
    fn orbit_representatives_after_0123() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let used = book.mask(game.parse_code("0123").unwrap());
        let unused: Vec<u8> = (4..10).collect();
        let reps: Vec<Code> = book
            .all()
            .filter(|&g| orbit_representative(book.symbols(g), used, &unused))
            .collect();
        // 24 + 4·3·2·4 + 4·3·6 + 4·4 + 1 = 24 + 96 + 72 + 16 + 1.
        assert_eq!(reps.len(), 209);
        let text = |g: &str| game.parse_code(g).unwrap();
        assert!(reps.contains(&text("0145")));
        assert!(!reps.contains(&text("0154")));
        assert!(reps.contains(&text("4567")));
        // Seed 000's enumeration with p = 3 is the same set.
        let seed: Vec<Code> = book
            .all()
            .filter(|&g| seed000_enumerates(book.symbols(g), 3))
            .collect();
        assert_eq!(seed, reps);
    }

    #[test]
    fn names_round_trip() {
        for h in Heuristic::ALL {
            assert_eq!(h.to_string().parse::<Heuristic>().unwrap(), h);
            assert_eq!(h.to_string(), h.name());
        }
        assert_eq!("seed000".parse::<Ties>().unwrap(), Ties::Seed000);
        assert_eq!(
            "candidate-first".parse::<Ties>().unwrap(),
            Ties::CandidateFirst
        );
        let err = "knuth".parse::<Heuristic>().unwrap_err().to_string();
        assert!(err.contains("minimax"), "{err}");
    }

    #[test]
    fn best_guess_follows_the_tree() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        for h in Heuristic::ALL {
            let cfg = StrategyConfig::new(h);
            let tree = build_tree(&game, &cfg).unwrap();
            for secret in game.codes().all() {
                let moves = tree.play(&game, secret).unwrap();
                for i in 0..moves.len() {
                    let history = &moves[..i];
                    let cands = crate::model::partition::consistent(&game, history);
                    assert_eq!(
                        best_guess(&game, &cands, history, &cfg).unwrap(),
                        moves[i].0,
                        "{h} secret {}",
                        game.format_code(secret)
                    );
                }
            }
        }
        let cfg = StrategyConfig::new(Heuristic::Minimax);
        let first = game.parse_code("012").unwrap();
        assert!(matches!(
            best_guess(&game, &[], &[(first, Feedback(0))], &cfg),
            Err(StrategyError::NoCandidates)
        ));
    }
}
