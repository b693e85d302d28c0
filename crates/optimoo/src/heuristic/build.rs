//! Building a strategy's tree: each node's classes, each class's guess,
//! recursively, from one shared [`BuildContext`].
//!
//! Invariants: a node depends only on its candidates and its [`Position`]
//! (the symbols used so far and the random state, both functions of the
//! history), so children may be built in any order or side by side and the
//! tree is the same; a guess that does not split its candidates is never
//! kept (the first candidate replaces it), so every branch ends in a win.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::exec::{self, Parallel};
use crate::model::code::Code;
use crate::model::feedback::{Feedback, FeedbackTable};
use crate::model::game::Game;
use crate::model::partition;
use crate::rng::splitmix64;
use crate::tree::Node;

use super::entropy::smallest_prime_factors;
use super::{Heuristic, StrategyConfig};

/// Candidate sets at least this large build their children in parallel.
const PARALLEL_MIN: usize = 48;

/// What a position knows beyond its candidates: the symbols earlier guesses
/// used and the state of the random draw, both functions of the history.
#[derive(Debug, Clone, Copy)]
pub(super) struct Position {
    pub(super) used: u64,
    pub(super) rng: u64,
}

impl Position {
    pub(super) fn root(seed: u64) -> Position {
        Position {
            used: 0,
            rng: splitmix64(seed),
        }
    }

    pub(super) fn after(self, game: &Game, guess: Code, answer: Feedback) -> Position {
        Position {
            used: self.used | game.codes().mask(guess),
            rng: splitmix64(self.rng ^ ((guess.0 as u64) << 8 | answer.0 as u64)),
        }
    }
}

/// Shared, read-mostly state of one tree construction.
pub(super) struct BuildContext<'a> {
    pub(super) game: &'a Game,
    /// Who builds the children of large nodes.
    pub(super) par: &'a dyn Parallel,
    /// The feedback table, built by [`BuildContext::new`] (so that
    /// [`partition::split`] and [`partition::count`] read it too).
    pub(super) table: Option<&'a FeedbackTable>,
    pub(super) cfg: StrategyConfig,
    pub(super) slots: usize,
    pub(super) win: usize,
    /// Number of answers that can occur, or more (a candidate set larger
    /// than this cannot be split into singletons; every slot on a code
    /// list).
    pub(super) answers: usize,
    /// `nlnn[n] = n ln n` (entropy only).
    pub(super) nlnn: Vec<f64>,
    /// Smallest prime factor of each `n` (entropy only).
    pub(super) spf: Vec<u32>,
    /// Guess pools: key = used-symbol mask (orbit representatives) or
    /// `1 << 63 | p` (seed 000's enumeration).
    pub(super) pools: Mutex<FxHashMap<u64, Arc<[Code]>>>,
}

impl<'a> BuildContext<'a> {
    pub(super) fn new(
        game: &'a Game,
        cfg: &StrategyConfig,
        par: &'a dyn Parallel,
    ) -> BuildContext<'a> {
        BuildContext::with_table(game, cfg, par, game.table())
    }

    /// [`BuildContext::new`] with the table given (or none: the rule is
    /// computed).
    pub(super) fn with_table(
        game: &'a Game,
        cfg: &StrategyConfig,
        par: &'a dyn Parallel,
        table: Option<&'a FeedbackTable>,
    ) -> BuildContext<'a> {
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
        BuildContext {
            game,
            par,
            table,
            cfg: *cfg,
            slots: rules.feedback_slots(),
            win: game.win().index(),
            // On a code list, every slot: listing the answers that occur
            // takes every guess against every secret (0.4 s on Wordle's),
            // and more answers only lower the bound, which stays one.
            answers: match game.code_list() {
                Some(_) => game.rules().feedback_slots(),
                None => game.possible_feedbacks().count(),
            },
            nlnn,
            spf,
            pools: Mutex::new(FxHashMap::default()),
        }
    }

    /// The node guessing `guess` with these candidates, and all below it.
    pub(super) fn build_node(&self, cands: &[Code], pos: Position, guess: Code) -> Node {
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

    /// The guess of the strategy at a position with these candidates.
    pub(super) fn choose(&self, cands: &[Code], pos: Position) -> Code {
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
}
