//! A size's search cut into tasks, run side by side, and kept by the
//! journal (module `journal`): the sets that begin with the same first
//! guesses are one task; the tasks cut the search order into consecutive
//! pieces, so the first set found is the same whatever the cut and the
//! threads.
//!
//! Invariants: a task is reported refuted only when it ran to its end,
//! a size is complete only when every task was refuted (by this run, or
//! by an earlier one the journal holds: a shard's run searches only its
//! own tasks, [`super::StaticConfig::shard`]),
//! and advanced to `g` (every guess below `g` at its first free depth
//! refuted) only when every one of them was searched to its end (the
//! task had not given up); the tasks the journal holds are skipped, and a
//! task begun starts where the journal says.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Shared, Task, TaskList};
use crate::model::code::Code;

/// A task as the journal knows it (module `journal`).
pub(super) struct Journaled {
    /// The set size.
    size: usize,
    /// The task's index in the list.
    index: usize,
    /// The first free depth (the prefix's length).
    pub(super) top: usize,
    /// The first guess tried at that depth (an earlier run's frontier).
    pub(super) begin: usize,
    /// Every guess below this at that depth is refuted.
    next: usize,
    /// The task's node count at its last report.
    nodes: u64,
    /// Its last report.
    since: Instant,
}

/// One size's search: the first separating set in the search order,
/// whether every set was tried, and the tasks (those refuted by earlier
/// runs, and all).
pub(super) struct LevelRun {
    pub(super) found: Option<Vec<usize>>,
    pub(super) complete: bool,
    pub(super) resumed: usize,
    pub(super) tasks: usize,
}

impl Shared<'_> {
    /// Searches every set of `t` guesses but the tasks the journal holds
    /// as refuted; returns the first separating set in the search order,
    /// and whether the search ran to its end.
    pub(super) fn level(&self, t: usize) -> LevelRun {
        let root = self.root_classes();
        if t == 0 {
            let found = root.is_empty().then(Vec::new);
            return LevelRun {
                found,
                complete: true,
                resumed: 0,
                tasks: 0,
            };
        }
        let stab = self.root_stabilizer();
        // Tasks: the prefixes of the first `depth` guesses, in order, the
        // depth the first (up to 3, below `t`) that gives `self.min_tasks`
        // tasks: they cut the search order into consecutive pieces
        // whatever the depth, so the first set found is the same.
        let mut prefixes = Vec::new();
        for depth in 0..t.min(4) {
            prefixes.clear();
            let found_by = AtomicUsize::new(usize::MAX);
            let mut task = self.task(0, &found_by);
            task.prefixes(&root, Some(&stab), 0, t, depth, &mut prefixes);
            self.nodes.fetch_add(task.nodes, Ordering::Relaxed);
            if prefixes.len() >= self.min_tasks {
                break;
            }
        }
        let codes: Vec<Vec<Code>> = prefixes
            .iter()
            .map(|p| p.iter().map(|&g| self.guesses[g]).collect())
            .collect();
        let list = TaskList {
            size: t,
            prefixes: &codes,
        };
        let mut skip = vec![false; prefixes.len()];
        // Where each task begins at its first free depth.
        let mut begin = vec![0; prefixes.len()];
        let resumed = match self.journal.resume(&list) {
            Ok(done) => {
                for i in done.refuted {
                    if let Some(s) = skip.get_mut(i) {
                        *s = true;
                    }
                }
                for (i, next) in done.begun {
                    if let Some(b) = begin.get_mut(i) {
                        *b = next;
                    }
                }
                skip.iter().filter(|&&s| s).count()
            }
            Err(error) => {
                self.fail(error);
                0
            }
        };
        // The order the tasks run in: `order[i]` is the `i`-th task run.
        let mut order: Vec<usize> = (0..prefixes.len()).collect();
        if self.far_first {
            order.reverse();
        }
        // A shard searches its own tasks; the size is refuted by it only
        // when every other task was refuted by an earlier run.
        let mine = |index: usize| self.shard.is_none_or(|(i, n)| index % n == i);
        let others_refuted = (0..prefixes.len()).all(|index| mine(index) || skip[index]);
        let found_by = AtomicUsize::new(usize::MAX);
        self.tasks.store(prefixes.len(), Ordering::Relaxed);
        self.tasks_done.store(resumed, Ordering::Relaxed);
        let results: Vec<Mutex<Option<Vec<usize>>>> =
            (0..prefixes.len()).map(|_| Mutex::new(None)).collect();
        // The runner hands the tasks out in order, one at a time, to
        // whichever thread is free (exec::Parallel::for_each): a thread is
        // idle only when no task is left to start.
        self.par.for_each(prefixes.len(), &|i| {
            let index = order[i];
            if skip[index]
                || !mine(index)
                || found_by.load(Ordering::Relaxed) < i
                || self.stop.load(Ordering::Relaxed)
            {
                return;
            }
            let mut task = self.task(i, &found_by);
            task.journal = Some(Journaled {
                size: t,
                index,
                top: prefixes[index].len(),
                begin: begin[index],
                next: begin[index],
                nodes: 0,
                since: Instant::now(),
            });
            let found = task.start(&prefixes[index], &root, &stab, t);
            self.nodes.fetch_add(task.nodes, Ordering::Relaxed);
            self.tasks_done.fetch_add(1, Ordering::Relaxed);
            if let Some(set) = found {
                found_by.fetch_min(i, Ordering::Relaxed);
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(set);
            } else if !task.gave_up {
                let (nodes, seconds) = task.since_report();
                if let Err(error) = self.journal.refute(t, index, nodes, seconds) {
                    self.fail(error);
                }
            }
        });
        let found = results
            .into_iter()
            .find_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()));
        let complete = !self.stop.load(Ordering::Relaxed) && others_refuted;
        LevelRun {
            found,
            complete,
            resumed,
            tasks: prefixes.len(),
        }
    }

    /// Keeps the journal's first error and stops the search.
    pub(super) fn fail(&self, error: String) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        failed.get_or_insert(error);
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Task<'_, '_> {
    /// Nodes and thread seconds since the task's last report.
    pub(super) fn since_report(&mut self) -> (u64, f64) {
        match &mut self.journal {
            Some(j) => {
                let nodes = self.total - j.nodes;
                let seconds = j.since.elapsed().as_secs_f64();
                j.nodes = self.total;
                j.since = Instant::now();
                (nodes, seconds)
            }
            None => (self.total, 0.0),
        }
    }

    /// At the first free depth, about to try guess `g`: every guess
    /// before it there is refuted; tells the journal, at most once a
    /// second.
    pub(super) fn advance(&mut self, g: usize) {
        let Some(j) = &self.journal else { return };
        // Every second (every guess in the tests, so that small games
        // exercise it).
        let every = if cfg!(test) {
            Duration::ZERO
        } else {
            Duration::from_secs(1)
        };
        if self.gave_up || g <= j.next || j.since.elapsed() < every {
            return;
        }
        let (size, index) = (j.size, j.index);
        let (nodes, seconds) = self.since_report();
        if let Some(j) = &mut self.journal {
            j.next = g;
        }
        if let Err(error) = self.ctx.journal.advance(size, index, g, nodes, seconds) {
            self.ctx.fail(error);
        }
    }
}
