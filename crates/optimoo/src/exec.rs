//! How work is spread over threads, decided by the caller.
//!
//! The library starts no thread of its own: the exact search and the
//! heuristics take a `&dyn Parallel` and call [`Parallel::for_each`] where
//! independent work may run side by side (classes at the root of a tree,
//! and `width()` workers that take a node's guesses in order near the
//! root). [`Sequential`] runs it in order on the calling thread; the
//! command line supplies a thread pool. Invariant: results never depend on
//! which implementation runs them (each task writes only its own slot, and
//! slots are read in index order; the guess workers keep the sequential
//! choice, see the search's `scan` module).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs independent tasks, perhaps side by side.
pub trait Parallel: Sync {
    /// Calls `task(i)` once for every `i` in `0..n`, on any threads;
    /// returns when all have returned. The runners here and the command
    /// line's hand the indices out in increasing order, one at a time, to
    /// whichever thread is free, so a caller puts its costliest or most
    /// urgent tasks first; callers rely on the order for speed only, never
    /// for their result.
    fn for_each(&self, n: usize, task: &(dyn Fn(usize) + Sync));

    /// How many tasks may run at once (1: sequential).
    fn width(&self) -> usize;
}

/// Runs every task in order on the calling thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sequential;

impl Parallel for Sequential {
    fn for_each(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
        (0..n).for_each(task);
    }

    fn width(&self) -> usize {
        1
    }
}

/// `f(0), …, f(n − 1)` computed by `par`, in index order.
pub fn map<T: Send>(par: &dyn Parallel, n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let slots: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    par.for_each(n, &|i| {
        let value = f(i);
        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("Parallel::for_each runs every task")
        })
        .collect()
}

/// One worker's loop of a runner that hands indices out in order: takes
/// the next index below `n` from `next` and runs it, until none is left.
/// Every worker of a call shares one `next`, so each index runs once and
/// an idle worker takes the next task at once.
pub fn take_in_order(next: &AtomicUsize, n: usize, task: &(dyn Fn(usize) + Sync)) {
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        task(i);
    }
}

/// Runs tasks on `n` scoped threads that take indices from a shared
/// counter: a plain parallel runner, for the library's tests and for users
/// of the crate without a thread pool (the command line uses a rayon
/// pool). Threads are started anew for each call: fine for a few large
/// tasks, costly for many small ones.
#[derive(Debug, Clone, Copy)]
pub struct Scoped(pub usize);

impl Parallel for Scoped {
    fn for_each(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.0.min(n) {
                scope.spawn(|| take_in_order(&next, n, task));
            }
        });
    }

    fn width(&self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoped_threads_fill_every_slot() {
        assert_eq!(
            map(&Scoped(3), 100, |i| i + 1),
            (1..=100).collect::<Vec<_>>()
        );
    }

    #[test]
    fn map_keeps_index_order() {
        assert_eq!(map(&Sequential, 5, |i| i * i), vec![0, 1, 4, 9, 16]);
        assert!(map(&Sequential, 0, |i| i).is_empty());
    }
}
