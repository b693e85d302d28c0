//! The driver: runs the library's work on a rayon thread pool and shows its
//! progress on the terminal. The library crate starts no thread and prints
//! nothing; this layer supplies [`Rayon`] (an [`optimoo::exec::Parallel`])
//! and [`progress::Terminal`] (an [`optimoo::observe::Observer`]).
//!
//! Invariant: the driver changes how fast and how visibly the work is done,
//! never its result (the library's results do not depend on the runner).

pub mod progress;

use optimoo::exec::Parallel;
use rayon::prelude::*;
use std::sync::atomic::AtomicUsize;

/// Most worker threads accepted: four per core, and never above this.
pub const THREADS_MAX: usize = 1024;

/// Runs tasks on the current rayon pool (the one [`pool`] built, once
/// `install`ed; otherwise rayon's global pool).
///
/// One worker per thread takes the next index from a shared counter, so
/// tasks start in index order and a thread that finishes takes the next
/// task at once. (rayon's `for_each` over a range cuts it into a few
/// consecutive runs, each run on one thread: a thread holding a run of
/// costly tasks kept the others idle. The static search's proof of
/// moo:4x7 took half the wall time once its tasks were handed out one
/// at a time, docs/benchmarks.md, session 49.)
#[derive(Debug, Clone, Copy, Default)]
pub struct Rayon;

impl Parallel for Rayon {
    fn for_each(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().clamp(1, n.max(1));
        (0..workers)
            .into_par_iter()
            .with_max_len(1)
            .for_each(|_| optimoo::exec::take_in_order(&next, n, task));
    }

    fn width(&self) -> usize {
        rayon::current_num_threads()
    }
}

/// Why a thread count is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// More than the machine can use.
    #[error("--threads {asked} is more than this machine can use (at most {max}: 4 per core, {cores} cores); leave --threads out to use every core")]
    TooMany {
        /// threads asked for
        asked: usize,
        /// the most accepted
        max: usize,
        /// cores seen
        cores: usize,
    },
    /// The pool could not start.
    #[error("cannot start {0} worker threads")]
    Start(usize),
}

/// The most threads accepted on a machine with `cores` cores.
pub fn threads_max(cores: usize) -> usize {
    (4 * cores.max(1)).min(THREADS_MAX)
}

/// Checks a `--threads` value against this machine (`None` or 0: every
/// core).
pub fn check_threads(asked: Option<usize>) -> Result<usize, ThreadsError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        None | Some(0) => Ok(cores),
        Some(n) if n > threads_max(cores) => Err(ThreadsError::TooMany {
            asked: n,
            max: threads_max(cores),
            cores,
        }),
        Some(n) => Ok(n),
    }
}

/// A pool of `threads` workers (already checked by [`check_threads`]).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|_| ThreadsError::Start(threads))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(threads_max(2), 8);
        assert_eq!(threads_max(1000), THREADS_MAX);
        assert!(check_threads(Some(100_000)).is_err());
        assert!(check_threads(Some(1)).is_ok());
        assert!(check_threads(None).unwrap() >= 1);
    }

    #[test]
    fn rayon_runs_every_task() {
        let pool = pool(3).unwrap();
        let got = pool.install(|| optimoo::exec::map(&Rayon, 50, |i| i * 2));
        assert_eq!(got, (0..50).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn rayon_starts_tasks_in_order() {
        use std::sync::Mutex;
        for threads in [1, 2, 5] {
            let pool = pool(threads).unwrap();
            let started = Mutex::new(Vec::new());
            pool.install(|| {
                Rayon.for_each(40, &|i| started.lock().unwrap().push(i));
                // Nested calls run every inner task too.
                let inner =
                    optimoo::exec::map(&Rayon, 7, |i| optimoo::exec::map(&Rayon, i, |j| j).len());
                assert_eq!(inner, (0..7).collect::<Vec<_>>());
            });
            let mut started = started.into_inner().unwrap();
            if threads > 1 {
                // Side by side, a task may record itself before the one
                // taken just before it.
                started.sort_unstable();
            }
            assert_eq!(started, (0..40).collect::<Vec<_>>());
        }
        Rayon.for_each(0, &|_| panic!("no task"));
    }
}
