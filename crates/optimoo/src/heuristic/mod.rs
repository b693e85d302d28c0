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
//! the published tables (docs/heuristics.md names the sources; MOO 4x10: minimax 27139, irving 26551, kooi
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
//!
//! # Files
//! This file: the names, options and entry points. `build` (the tree and
//! its shared context), `score` (scores and the scan of the pool), `pool`
//! (orbit representatives and seed 000's enumeration), `entropy` (exact
//! ties of entropy scores); `phased/` the phased strategy of games of any
//! size (its guess, its walk over every secret and its tree file, its
//! opening book), public as [`phased`].

mod build;
mod entropy;
pub mod phased;
mod pool;
mod score;

use std::fmt;
use std::str::FromStr;

use crate::exec::{Parallel, Sequential};
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::tree::Tree;

use build::{BuildContext, Position};

/// Entropy scores closer than this are compared exactly (see module doc).
pub const ENTROPY_TOLERANCE: f64 = 1e-6;

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

impl Heuristic {
    /// The heuristics that score guesses (every one but first and random).
    pub const NAMES_SCORING: &'static [(&'static str, Heuristic)] = &[
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
    /// A code that is not in the guess list (`--guesses secrets`).
    #[error("{code} is not in the secret list, and only listed codes may be guessed")]
    NotAGuess {
        /// the code, written
        code: String,
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

    /// The first guess in `game` (by default its smallest allowed guess).
    pub fn first_in(&self, game: &Game) -> Code {
        self.first.unwrap_or_else(|| default_first(game))
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
    // Consistent guesses (a rule of the game): the candidates alone.
    let consistent;
    let cfg = if game.rules().guesses().allows(false) {
        cfg
    } else {
        consistent = StrategyConfig {
            pool: Pool::Candidates,
            ..*cfg
        };
        &consistent
    };
    let first = cfg.first.unwrap_or_else(|| default_first(game));
    check_code(game, first)?;
    let ctx = BuildContext::new(game, cfg, par);
    let all = game.secrets();
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
        let first = cfg.first.unwrap_or_else(|| default_first(game));
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
    let ctx = one_move(game, cfg);
    let mut pos = Position::root(cfg.seed);
    for &(g, f) in history {
        pos = pos.after(game, g, f);
    }
    Ok(ctx.choose(&cands, pos))
}

/// The context of one move: on a game of a code list (Wordle's 12,972
/// guesses: a table of 168 MB) the table is used if built, never built
/// for one move, which reads `guesses × candidates` answers only.
fn one_move<'a>(game: &'a Game, cfg: &StrategyConfig) -> BuildContext<'a> {
    let table = match game.code_list() {
        Some(_) => game.built_table(),
        None => game.table(),
    };
    BuildContext::with_table(game, cfg, &Sequential, table)
}

/// The strategy's own choice of a first guess: its score over every
/// allowed guess against every secret, as at any other node (the fixed
/// first guess of `cfg` ignored). On games without symmetry, as Wordle's
/// word lists, the first guess matters: `eval --first best`.
pub fn root_guess(game: &Game, cfg: &StrategyConfig) -> Result<Code, StrategyError> {
    let cands = game.secrets();
    if cands.is_empty() {
        return Err(StrategyError::NoCandidates);
    }
    let ctx = one_move(game, cfg);
    Ok(ctx.choose(&cands, Position::root(cfg.seed)))
}

/// The default first guess: the smallest code that may be guessed.
pub fn default_first(game: &Game) -> Code {
    if game.guesses_restricted() {
        game.secrets()[0]
    } else {
        Code(0)
    }
}

fn check_code(game: &Game, code: Code) -> Result<(), StrategyError> {
    if game.is_guess(code) {
        Ok(())
    } else if code.index() < game.len() {
        Err(StrategyError::NotAGuess {
            code: game.format_code(code),
        })
    } else {
        Err(StrategyError::IllegalCode {
            index: code.index(),
            len: game.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

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
