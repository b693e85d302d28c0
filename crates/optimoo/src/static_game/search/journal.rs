//! Resuming a static search: the tasks a run refuted, kept by the caller
//! (`optimoo static --checkpoint`), are skipped by the next run.
//!
//! Each size's search is cut into tasks, the sets that begin with the same
//! few guesses ([`TaskList`]); a task searched to its end without a
//! separating set is *refuted*, and stays refuted whatever run searches
//! the other tasks. So a size is refuted once every task is, by one run or
//! several, and the set a resumed run finds is the first of the size in
//! the search order (the tasks skipped hold none).
//!
//! Invariants: the search reports a task refuted only when it ran to its
//! end (not stopped by the budget, nor by an earlier task's set); a
//! journal hands back only tasks of the same list (the caller compares
//! the prefixes, by a hash); an error of the journal stops the search,
//! which then returns it ([`super::StaticError::Journal`]).

use crate::model::code::Code;

/// The tasks of one size, in the search's default order (also with
/// `far_first`): task `i` is every set whose first guesses are
/// `prefixes[i]`.
#[derive(Debug, Clone, Copy)]
pub struct TaskList<'p> {
    /// The set size searched.
    pub size: usize,
    /// Each task's first guesses.
    pub prefixes: &'p [Vec<Code>],
}

/// Where a static search keeps the tasks it refuted.
pub trait StaticJournal: Sync {
    /// The tasks of `list` refuted by earlier runs (indices into
    /// `list.prefixes`); an error when the journal holds another list of
    /// this size.
    fn refuted(&self, list: &TaskList<'_>) -> Result<Vec<usize>, String>;

    /// Task `task` of the list of `size` was searched to its end without
    /// a separating set, in `nodes` nodes and `seconds` of its thread's
    /// time. Called from the worker threads.
    fn refute(&self, size: usize, task: usize, nodes: u64, seconds: f64) -> Result<(), String>;
}

/// No journal: every task is searched, nothing is kept.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoJournal;

impl StaticJournal for NoJournal {
    fn refuted(&self, _: &TaskList<'_>) -> Result<Vec<usize>, String> {
        Ok(Vec::new())
    }

    fn refute(&self, _: usize, _: usize, _: u64, _: f64) -> Result<(), String> {
        Ok(())
    }
}
