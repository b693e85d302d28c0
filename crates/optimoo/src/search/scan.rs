//! A node's scan over its guesses in order, one after the other or side by
//! side.
//!
//! Invariant: the scan's result (the least cost below the cut-off, and
//! among equal costs the first guess in order; otherwise a proven lower
//! bound) is the sequential one whatever the number of workers and their
//! timing. Side by side, workers take the guesses in order and each
//! evaluation reads the best cost found so far between classes; ties go to
//! the earlier guess (see [`Scan::run_side_by_side`]).

use std::sync::Mutex;

use crate::model::code::Code;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::Cost;
use crate::search::searcher::Searcher;
use crate::search::value::Scored;

/// The running state of a node's scan over its guesses.
pub(super) struct Scan {
    /// What a guess must cost less than to matter (best so far or cut-off).
    pub(super) bound: u64,
    pub(super) best: Option<(u64, Code)>,
    /// Least lower bound over the guesses shown not to beat `bound`.
    pub(super) proven: u64,
}

impl Scan {
    /// Tries `order` in turn; true when nothing further can improve. Near
    /// the root, with more than one worker, the guesses are evaluated side
    /// by side (with the same result); otherwise one after the other.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &mut self,
        searcher: &Searcher<'_>,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        lower: u64,
        level: usize,
        order: &[Scored],
    ) -> bool {
        if level < searcher.config.parallel_guess_levels
            && set.len() >= searcher.config.parallel_guess_min
            && searcher.config.objective != Cost::Feasible
            && order.len() > 1
            && searcher.par.width() > 1
        {
            return self.run_side_by_side(searcher, set, d, stab, lower, level, order);
        }
        for s in order {
            if s.bound >= self.bound {
                self.proven = self.proven.min(s.bound);
                return true;
            }
            match searcher.evaluate(set, d, stab, s, self.bound, level, None) {
                Ok(cost) => {
                    self.best = Some((cost, s.guess));
                    self.bound = cost;
                    if cost <= lower {
                        return true; // The node's lower bound: optimal.
                    }
                }
                Err(at_least) => self.proven = self.proven.min(at_least),
            }
        }
        false
    }

    /// [`Scan::run`] with the guesses evaluated side by side: each worker
    /// takes the next guess in order, and every evaluation reads the best
    /// cost found so far between classes. The result is the sequential
    /// one: the least cost, and among equal costs the first guess in order.
    /// A guess is dispatched only if its bound is below the best so far
    /// (which always comes from an earlier guess, as dispatch is in order);
    /// a guess evaluated while a *later* guess holds the best may still tie
    /// it (its bound is that cost + 1), so the first optimal guess always
    /// gets its exact cost, whatever the timing.
    #[allow(clippy::too_many_arguments)]
    fn run_side_by_side(
        &mut self,
        searcher: &Searcher<'_>,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        lower: u64,
        level: usize,
        order: &[Scored],
    ) -> bool {
        struct Shared {
            /// Best (cost, index) found in this list.
            best: Option<(u64, usize)>,
            /// The next guess to dispatch.
            next: usize,
            done: bool,
            proven: u64,
        }
        // What a guess must cost less than when this list starts: the
        // cut-off or the best of an earlier list (earlier in order).
        let start = self.bound;
        let shared = Mutex::new(Shared {
            best: None,
            next: 0,
            done: false,
            proven: self.proven,
        });
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        // The bound of guess `i` given the best so far.
        let bound_for = |st: &Shared, i: usize| match st.best {
            Some((c, j)) if j > i => start.min(c + 1),
            Some((c, _)) => start.min(c),
            None => start,
        };
        let worker = || loop {
            let (i, s) = {
                let mut st = lock();
                if st.done || st.next >= order.len() {
                    return;
                }
                let i = st.next;
                let s = order[i];
                if s.bound >= bound_for(&st, i) {
                    st.proven = st.proven.min(s.bound);
                    st.done = true;
                    return;
                }
                st.next += 1;
                (i, s)
            };
            let live = || bound_for(&lock(), i);
            let r = searcher.evaluate(set, d, stab, &s, live(), level, Some(&live));
            let mut st = lock();
            match r {
                Ok(cost) => {
                    let better = match st.best {
                        None => true,
                        Some((c, j)) => cost < c || (cost == c && i < j),
                    };
                    if better && cost < start {
                        st.best = Some((cost, i));
                        if cost <= lower {
                            st.done = true; // The node's lower bound: optimal.
                        }
                    }
                }
                Err(at_least) => st.proven = st.proven.min(at_least),
            }
        };
        let workers = searcher.par.width().min(order.len());
        searcher.par.for_each(workers, &|_| worker());
        let st = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        self.proven = st.proven;
        if let Some((cost, i)) = st.best {
            self.best = Some((cost, order[i].guess));
            self.bound = cost;
        }
        st.done
    }
}
