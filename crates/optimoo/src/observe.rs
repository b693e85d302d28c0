//! What a long computation tells its caller while it runs: the one
//! [`Observer`] trait of the crate.
//!
//! The exact search reports its phases, its counters and its solved
//! classes of the first guess; the phased strategy's walks (its
//! statistics, its tree file, a unit of a phased plan) report the secrets
//! they solve. The library prints nothing; the command line implements the
//! trait with a progress bar and verbose lines (`driver::progress`), tests
//! and the player use [`Silent`].
//!
//! Invariants: observers only hear; nothing they do changes a result.
//! This module is a tool beside `exec`: it names no folder of the crate,
//! so the heuristics and the search (peers) may both report through it.

use std::fmt;

/// A phase of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Computing the optimal cost.
    Search,
    /// Rebuilding the optimal tree from the costs found.
    Build,
    /// Finished.
    Done,
}

/// The search's counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// First-level classes solved so far.
    pub classes_done: u64,
    /// Search nodes visited.
    pub nodes: u64,
    /// Nodes per second since the search started.
    pub nodes_per_second: f64,
    /// Entries in the memo.
    pub memo_entries: usize,
    /// Memo lookups that found something.
    pub memo_hits: u64,
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} first-level classes done, {} nodes ({:.0}/s), memo {} entries, {} hits",
            self.classes_done, self.nodes, self.nodes_per_second, self.memo_entries, self.memo_hits
        )
    }
}

/// A class of the first guess, solved (the search's outcome of it as its
/// line says it: `cost C`, `cost at least B` or `infeasible`; this module
/// names nothing of the search).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassReport {
    /// The first guess.
    pub guess: String,
    /// The answer that makes the class.
    pub answer: String,
    /// Secrets in the class.
    pub secrets: usize,
    /// What the search found, as the search's `Outcome` displays it.
    pub outcome: String,
    /// Seconds spent on it.
    pub seconds: f64,
    /// The counters when it was done.
    pub progress: Progress,
}

impl fmt::Display for ClassReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} secrets, {} in {:.2} s; {}",
            self.guess, self.answer, self.secrets, self.outcome, self.seconds, self.progress
        )
    }
}

/// Hears a long computation's progress. Every method has an empty
/// default; they may be called from several threads at once.
pub trait Observer: Sync {
    /// The search entered a phase.
    fn phase(&self, _phase: Phase) {}
    /// A class of the first guess is solved.
    fn class_done(&self, _report: &ClassReport) {}
    /// The search's counters, after some work near the root.
    fn progress(&self, _progress: &Progress) {}
    /// A walk over secrets (the phased strategy's): `secrets` more were
    /// solved.
    fn solved(&self, _secrets: u64) {}
}

/// Hears nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Observer for Silent {}
