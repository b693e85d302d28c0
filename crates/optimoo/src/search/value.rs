//! What the search's parts hand each other, in a leaf module that imports
//! nothing of the search: a guess with its bound ([`Scored`]) and what a
//! node's search found ([`Outcome`]).
//!
//! Invariants: a `Scored` bound never exceeds its guess's exact cost; an
//! `Outcome::Exact(c)` is the exact cost, an `Outcome::AtLeast(b)` a proven
//! lower bound (see [`crate::search`]).

use crate::model::code::Code;
use crate::search::bound::INF;

/// A guess with its lookahead bound.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scored {
    pub(super) bound: u64,
    pub(super) guess: Code,
}

/// What a search of a set under a cut-off proves: its exact cost (below
/// the cut-off), or a lower bound (at least the cut-off). The one such
/// type of the crate: a node's search, a first-level class's report
/// (shown in [`crate::observe::ClassReport`]), a work unit's result
/// ([`crate::search::plan::UnitResult`]) and the player's exact costs
/// (`crate::search::Searcher::cost_below`) all answer with it.
/// (`level` arguments of the search count from the root; `usize::MAX` marks
/// calls outside the top-down search, which never run in parallel.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The exact cost.
    Exact(u64),
    /// A proven lower bound; [`INF`]: no strategy meets the cap.
    AtLeast(u64),
}

impl Outcome {
    /// The exact cost or the bound.
    pub fn value(self) -> u64 {
        match self {
            Outcome::Exact(c) | Outcome::AtLeast(c) => c,
        }
    }

    /// Whether the cost is known exactly.
    pub fn is_exact(self) -> bool {
        matches!(self, Outcome::Exact(_))
    }

    /// Whether no strategy meets the cap (a bound of [`INF`]).
    pub fn is_infeasible(self) -> bool {
        matches!(self, Outcome::AtLeast(b) if b >= INF)
    }

    /// The exact cost if it is below `cutoff`; else the bound it proves.
    pub fn below(cost: u64, cutoff: u64) -> Outcome {
        if cost < cutoff {
            Outcome::Exact(cost)
        } else {
            Outcome::AtLeast(cost)
        }
    }
}

/// "cost C", "cost at least B" or "infeasible".
impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Outcome::Exact(c) => write!(f, "cost {c}"),
            o if o.is_infeasible() => f.write_str("infeasible"),
            Outcome::AtLeast(b) => write!(f, "cost at least {b}"),
        }
    }
}
