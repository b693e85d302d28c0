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

use crate::exec::Parallel;
use crate::model::code::Code;
use crate::search::value::Scored;

/// The bound as it stands while guesses are evaluated side by side.
pub(super) type Live<'l> = &'l (dyn Fn() -> u64 + Sync);

/// What a scan needs of the search: the exact cost of a guess if below the
/// bound given, else a lower bound at least that bound; with a live bound,
/// the bound read between classes ([`crate::search::evaluate`]).
pub(super) type Evaluate<'e> =
    &'e (dyn Fn(&Scored, u64, Option<Live<'_>>) -> Result<u64, u64> + Sync);

/// The running state of a node's scan over its guesses.
pub(super) struct Scan {
    /// What a guess must cost less than to matter (best so far or cut-off).
    pub(super) bound: u64,
    pub(super) best: Option<(u64, Code)>,
    /// Least lower bound over the guesses shown not to beat `bound`.
    pub(super) proven: u64,
}

impl Scan {
    /// Tries `order` in turn; true when nothing further can improve. With
    /// `par` (more than one worker, near the root) the guesses are
    /// evaluated side by side, with the same result; otherwise one after
    /// the other. `lower` is the node's lower bound: a guess that reaches
    /// it is optimal.
    pub(super) fn run(
        &mut self,
        order: &[Scored],
        lower: u64,
        evaluate: Evaluate<'_>,
        par: Option<&dyn Parallel>,
    ) -> bool {
        if let Some(par) = par.filter(|p| p.width() > 1 && order.len() > 1) {
            return self.run_side_by_side(order, lower, evaluate, par);
        }
        for s in order {
            if s.bound >= self.bound {
                self.proven = self.proven.min(s.bound);
                return true;
            }
            match evaluate(s, self.bound, None) {
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
    fn run_side_by_side(
        &mut self,
        order: &[Scored],
        lower: u64,
        evaluate: Evaluate<'_>,
        par: &dyn Parallel,
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
            let r = evaluate(&s, live(), Some(&live));
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
        let workers = par.width().min(order.len());
        par.for_each(workers, &|_| worker());
        let st = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        self.proven = st.proven;
        if let Some((cost, i)) = st.best {
            self.best = Some((cost, order[i].guess));
            self.bound = cost;
        }
        st.done
    }
}
