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
//! A long task is kept in pieces too: its guesses at the first depth
//! below its prefix are tried in increasing order, and once every guess
//! below `next` is refuted the search says so ([`StaticJournal::advance`]);
//! a resumed task starts at `next`.
//!
//! Invariants: the search reports a task refuted only when it ran to its
//! end, and a task advanced to `next` only when every guess below `next`
//! was searched to its end (not stopped by the budget, nor by an earlier task's set); a
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

/// What earlier runs did of a task list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resume {
    /// The tasks refuted (indices into the list's prefixes).
    pub refuted: Vec<usize>,
    /// Tasks begun: `(task, next)`, every guess (an index into the
    /// game's guesses, in code order) below `next` at the first depth
    /// below the task's prefix refuted.
    pub begun: Vec<(usize, usize)>,
}

/// Where a static search keeps the tasks it refuted.
pub trait StaticJournal: Sync {
    /// What earlier runs did of `list`; an error when the journal holds
    /// another list of this size.
    fn resume(&self, list: &TaskList<'_>) -> Result<Resume, String>;

    /// Task `task` of the list of `size` was searched to its end without
    /// a separating set; `nodes` nodes and `seconds` of its thread's time
    /// since its last report. Called from the worker threads.
    fn refute(&self, size: usize, task: usize, nodes: u64, seconds: f64) -> Result<(), String>;

    /// Every guess below `next` at the first depth below task `task`'s
    /// prefix is refuted; `nodes` and `seconds` since the task's last
    /// report.
    fn advance(
        &self,
        size: usize,
        task: usize,
        next: usize,
        nodes: u64,
        seconds: f64,
    ) -> Result<(), String>;
}

/// No journal: every task is searched, nothing is kept.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoJournal;

impl StaticJournal for NoJournal {
    fn resume(&self, _: &TaskList<'_>) -> Result<Resume, String> {
        Ok(Resume::default())
    }

    fn refute(&self, _: usize, _: usize, _: u64, _: f64) -> Result<(), String> {
        Ok(())
    }

    fn advance(&self, _: usize, _: usize, _: usize, _: u64, _: f64) -> Result<(), String> {
        Ok(())
    }
}
