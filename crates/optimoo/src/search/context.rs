//! What every node of a search reads and nothing changes: the game, its
//! feedback rows, the bounds of the objective, the configuration, the
//! symmetry of the root and the lookahead kernel.
//!
//! Invariant: a [`Context`] is fixed once the search starts (no interior
//! mutability): the guess order and the bounds of [`crate::search::lookahead`]
//! read only it and the memo, so they are the same on every thread.

use std::borrow::Cow;

use crate::model::code::Code;
use crate::model::feedback::{Feedback, FeedbackTable};
use crate::model::game::Game;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::Bounds;
use crate::search::config::Config;
use crate::search::kernel::{DenseTable, Kernel};
use crate::search::memo::{self, raw_key};
use crate::search::weights::Weights;

/// The read-only part of a search (see the module doc).
pub(super) struct Context<'a> {
    pub(super) game: &'a Game,
    /// The table by secret (`row(s)[g]`: the answer of guess `g` to secret
    /// `s`, [`FeedbackTable::by_secret`]): the game's full table under a
    /// symmetric rule, its transpose under Wordle's; or the rows of one
    /// set's secrets ([`crate::search::Searcher::for_set`]). The search
    /// reads the rows of secrets only.
    pub(super) table: Cow<'a, FeedbackTable>,
    pub(super) bounds: Bounds,
    pub(super) config: Config,
    pub(super) perms: Vec<Vec<u8>>,
    pub(super) all_symbols: u64,
    pub(super) slots: usize,
    pub(super) win: Feedback,
    /// The all-guesses lookahead kernel (objective `Total` only).
    pub(super) kernel: Option<Kernel>,
    /// The answers recoded for the kernel's masks
    /// ([`Kernel::dense_table`]), when the kernel takes them.
    pub(super) dense: Option<DenseTable>,
    /// The symmetry of the root: the whole group, or with a secret list the
    /// elements mapping the list onto itself ([`Stabilizer::of_list`]).
    pub(super) root: Stabilizer,
    /// Per-secret weights (objective `Weighted` only): the bounds below
    /// then depend on the set.
    pub(super) weights: Option<Weights>,
    /// This context's number, no other context's in the process
    /// ([`crate::search::recent`]: whose recent class bounds a thread
    /// holds).
    pub(super) owner: u64,
}

impl Context<'_> {
    /// The depth that matters for `n` secrets within `d` guesses: more
    /// than `n + 1` never helps, unless costs depend on the depth itself
    /// (per-guess costs: `d` is then kept as it is).
    pub(super) fn clamp(&self, n: usize, d: usize) -> usize {
        if self.bounds.depth_matters() {
            d
        } else {
            d.min(n + 1)
        }
    }

    /// The memo key of a set, followed by the depth: canonical
    /// ([`memo::canonical_key`]) for sets of at most `canon_max` secrets,
    /// else the set as it is.
    pub(super) fn key(&self, set: &[Code], d: usize) -> Vec<u16> {
        if set.len() <= self.config.tuning.canon_max {
            memo::canonical_key(
                self.game.codes(),
                |a, b| self.table.row(a)[b.index()].index(),
                set,
                d,
                self.slots,
                &self.perms,
            )
        } else {
            raw_key(set, d)
        }
    }

    /// Cost of a set solved directly, without search, if it is that easy.
    pub(super) fn direct_of(&self, set: &[Code], d: usize) -> Option<u64> {
        match &self.weights {
            Some(w) => w.direct(set, d),
            None => self.direct(set.len(), d),
        }
    }

    /// A lower bound on the cost of `set` within `d` guesses.
    pub(super) fn lower_of(&self, set: &[Code], d: usize) -> u64 {
        match &self.weights {
            Some(w) if self.bounds.lower(set.len(), d) < crate::search::bound::INF => {
                w.lower(set, d)
            }
            _ => self.bounds.lower(set.len(), d),
        }
    }

    /// What a node's own guess costs its secrets.
    pub(super) fn own_of(&self, set: &[Code], d: usize) -> u64 {
        match &self.weights {
            Some(w) => w.sum(set),
            None => self.bounds.own(set.len(), d),
        }
    }

    /// A lower bound on the cost of `set` after a guess that is no
    /// candidate.
    pub(super) fn non_candidate_of(&self, set: &[Code], d: usize) -> u64 {
        match &self.weights {
            Some(w) => w.non_candidate(set, d),
            None => self.bounds.non_candidate(set.len(), d),
        }
    }

    fn direct(&self, n: usize, d: usize) -> Option<u64> {
        match n {
            0 => Some(0),
            1 => Some(self.bounds.leaf(d)),
            // Guess one of the two: own + the other as a leaf.
            2 if d >= 2 => Some(self.bounds.own(2, d) + self.bounds.leaf(d - 1)),
            _ => None,
        }
    }
}
