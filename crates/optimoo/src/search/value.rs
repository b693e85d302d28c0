//! What the search's parts hand each other, in a leaf module that imports
//! nothing of the search: a guess with its bound ([`Scored`]) and what a
//! node's search found ([`Outcome`]).
//!
//! Invariants: a `Scored` bound never exceeds its guess's exact cost; an
//! `Outcome::Exact(c)` is the exact cost, an `Outcome::AtLeast(b)` a proven
//! lower bound (see [`crate::search`]).

use crate::model::code::Code;

/// A guess with its lookahead bound.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scored {
    pub(super) bound: u64,
    pub(super) guess: Code,
}

/// Outcome of `solve`: exact below the cut-off, else a bound at least it.
/// (`level` arguments count from the root; `usize::MAX` marks calls outside
/// the top-down search, which never run in parallel.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Exact(u64),
    AtLeast(u64),
}
