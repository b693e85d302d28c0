//! What a search tells its caller while it runs: the [`Observer`] trait.
//!
//! The search prints nothing; the command line implements the trait with a
//! progress bar and verbose lines, tests and the player use [`Silent`].
//! Invariant: observers only hear; nothing they do changes the search's
//! result.

use std::fmt;

use crate::search::value::Outcome;

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

/// A class of the first guess, solved.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassReport {
    /// The first guess.
    pub guess: String,
    /// The answer that makes the class.
    pub answer: String,
    /// Secrets in the class.
    pub secrets: usize,
    /// What the search found.
    pub outcome: Outcome,
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

/// Hears a search's progress. Every method has an empty default; they may
/// be called from several threads at once.
pub trait Observer: Sync {
    /// The search entered a phase.
    fn phase(&self, _phase: Phase) {}
    /// A class of the first guess is solved.
    fn class_done(&self, _report: &ClassReport) {}
    /// The counters, after some work near the root.
    fn progress(&self, _progress: &Progress) {}
}

/// Hears nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Observer for Silent {}
