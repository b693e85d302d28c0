//! The exact cost of one guess at a node: its non-winning classes solved,
//! smallest first, each under the cut-off its siblings leave.
//!
//! Invariant: [`Searcher::evaluate`] returns `Ok(cost)` exactly when the
//! guess costs less than the bound it is given, and otherwise `Err(b)` with
//! the guess's cost at least `b >= bound`; near the root the classes run
//! side by side and the answer is the same. With a live bound (guesses
//! evaluated side by side, [`crate::search::scan`]) the bound may fall while
//! the guess is evaluated: `Ok(cost)` is then below every bound read, and
//! `Err(b)` proves the cost at least `b >=` the bound last read.

use std::time::Instant;

use crate::exec;
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::partition;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::{Cost, INF};
use crate::search::pool::NodePool;
use crate::search::scan::Live;
use crate::search::searcher::Searcher;
use crate::search::stats::{self, Fate};
use crate::search::value::Outcome;
use crate::search::value::Scored;

/// The size of set from which evaluating a guess reads the clock (smaller
/// sets read it only in the nodes they enter).
const CLOCK_MIN: usize = 64;

impl Searcher<'_> {
    /// The non-winning classes of a guess, smallest first (ties by answer;
    /// largest first for the feasibility objective).
    pub(in crate::search) fn classes(
        &self,
        set: &[Code],
        guess: Code,
    ) -> Vec<(Feedback, Vec<Code>)> {
        let mut out = partition::split(self.cx.game, guess, set);
        out.retain(|(f, _)| *f != self.cx.win);
        if self.cx.config.objective == Cost::Feasible {
            // To refute a cap, the class most likely to fail comes first.
            out.sort_by_key(|(f, c)| (std::cmp::Reverse(c.len()), *f));
        } else {
            out.sort_by_key(|(f, c)| (c.len(), *f));
        }
        out
    }

    /// [`Searcher::classes`] in one buffer (the same classes in the same
    /// order, each in the order of `set`): one allocation where a split
    /// makes one per class, for the guesses a node evaluates.
    pub(in crate::search) fn flat_classes(&self, set: &[Code], guess: Code) -> Classes {
        let win = self.cx.win.0;
        let mut answers = Vec::with_capacity(set.len());
        let mut counts = [0u32; 256];
        // The secrets' rows (the table is by secret), at the guess's
        // column: the node's scans keep those rows in the caches, where
        // the guess's own row, read at the secrets' places, missed them
        // (a tenth of moo:5x8's time).
        answers.extend(set.iter().map(|&s| self.cx.table.row(s)[guess.index()].0));
        for &f in &answers {
            counts[usize::from(f)] += 1;
        }
        // Every answer is below the game's slots (`Rules::feedback_slots`):
        // a pass over those, not over every byte value (a seventh of
        // `evaluate_in`'s own time went to the 256).
        let slots = self.cx.slots.min(256);
        let mut parts: Vec<(Feedback, u32, u32)> = (0..slots as u16)
            .map(|f| f as u8)
            .filter(|&f| f != win && counts[usize::from(f)] > 0)
            .map(|f| (Feedback(f), 0, counts[usize::from(f)]))
            .collect();
        if self.cx.config.objective == Cost::Feasible {
            parts.sort_by_key(|&(f, _, c)| (std::cmp::Reverse(c), f));
        } else {
            parts.sort_by_key(|&(f, _, c)| (c, f));
        }
        // Each class's start, by answer; then the codes in place.
        let mut next = [0u32; 256];
        let mut at = 0;
        for part in &mut parts {
            next[usize::from(part.0 .0)] = at;
            part.1 = at;
            at += part.2;
            part.2 = at;
        }
        let mut codes = vec![Code(0); at as usize];
        let mut places = vec![0u32; at as usize];
        for (k, (&s, &f)) in set.iter().zip(&answers).enumerate() {
            if f != win {
                let i = &mut next[usize::from(f)];
                codes[*i as usize] = s;
                places[*i as usize] = k as u32;
                *i += 1;
            }
        }
        Classes {
            codes,
            places,
            parts,
        }
    }

    /// Exact cost of guessing `s.guess` if below `bound`, else a lower bound
    /// at least `bound`. `live`, if given, is read between classes: the
    /// bound as it stands (at most `bound`).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn evaluate(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        s: &Scored,
        bound: u64,
        level: usize,
        live: Option<Live<'_>>,
    ) -> Result<u64, u64> {
        self.evaluate_in(set, d, stab, s, bound, level, live, None)
    }

    /// [`Searcher::evaluate`], the class bounds read through the node's
    /// `pool` of answers ([`NodePool`]) when given: the same result.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn evaluate_in<'s>(
        &'s self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        s: &Scored,
        bound: u64,
        level: usize,
        live: Option<Live<'_>>,
        pool: Option<&NodePool<'s>>,
    ) -> Result<u64, u64> {
        // Past the deadline every answer is void (see
        // [`crate::search::searcher`]): the guess is not even partitioned.
        // Without this, each node on the stack went on through its other
        // guesses, each class bound a lookahead, and a run on moo:5x10's
        // large classes stopped minutes after its deadline. On a large set
        // the clock is read here too: a node's scan of thousands of
        // guesses, each refuted by its class bounds alone, enters no node
        // (where the clock is read otherwise), and a 340 s step on
        // moo:5x10's unit 2 (1,778 secrets) ended 133 s past its deadline.
        // Reading it costs tens of nanoseconds; partitioning a set of
        // `CLOCK_MIN` secrets costs far more.
        if self.aborted() || (set.len() >= CLOCK_MIN && self.deadline_passed()) {
            return Err(INF);
        }
        // The bound may fall while the guess is evaluated (other guesses
        // evaluated side by side): read it again between classes.
        let mut bound = bound;
        let refresh = |b: &mut u64| {
            if let Some(f) = live {
                *b = (*b).min(f());
            }
        };
        // The node's answers, lent for the class bounds below (given back
        // when `lease` is dropped, on every return).
        let mut lease = pool.map(|p| p.lend(&self.cx, set));
        // No guess splits a class of this node into more classes than the
        // most answers any guess gives on the node (its answers count
        // them): the level bound with that branching, often well below
        // the game's on deep nodes (13 of 19 on moo:5x10's classes two
        // guesses down), refutes most guesses on their class sizes alone,
        // before the split (docs/benchmarks.md, sessions 18 and 27).
        let most = lease.as_ref().and_then(|l| l.most(&self.cx, set));
        if let (Some(most), None) = (most, &self.cx.weights) {
            if let Some(total) = self.within_branching(set, d, s.guess, most) {
                refresh(&mut bound);
                if total >= bound {
                    stats::fate(set.len(), Fate::Branching);
                    return Err(total);
                }
            }
        }
        let classes = self.flat_classes(set, s.guess);
        let child = stab.fix(self.cx.game.codes().symbols(s.guess));
        // Before any class is searched, raise each one's bound to what its
        // best guess's lookahead allows (largest first: they refute most).
        let mut lbs: Vec<u64> = classes
            .iter()
            .map(|(_, c)| self.cx.lower_of(c, d - 1))
            .collect();
        // The guess's bound summed here from its classes, not taken from
        // `s.bound` (the kernel's or the lookahead's value, equal to it by
        // their invariants): a wrong bound there may order or prune guesses
        // badly, but cannot make this total wrong.
        let mut total = lbs
            .iter()
            .fold(self.cx.own_of(set, d), |t, &lb| t.saturating_add(lb));
        debug_assert!(
            total == s.bound || (total >= INF && s.bound >= INF),
            "bound of guess {:?}: {} from its classes, {} scored",
            s.guess,
            total,
            s.bound
        );
        refresh(&mut bound);
        if total >= bound {
            stats::fate(set.len(), Fate::Lookahead);
            return Err(total);
        }
        // The classes run in parallel near the root, except for the
        // feasibility objective: it stops at its first failing class, which
        // the parallel path would not.
        let parallel = level < self.cx.config.tuning.parallel_levels
            && set.len() >= 64
            && self.cx.config.objective != Cost::Feasible;
        // The bound now (at most `bound`), for the parallel classes.
        let now = |b: u64| match live {
            Some(f) => b.min(f()),
            None => b,
        };
        if parallel {
            // Near the root the bounds are costly: compute them side by side,
            // each with the slack left if the others meet their level bounds.
            let raised: Vec<u64> = exec::map(self.par, classes.len(), |i| {
                let (c, lb) = (classes.get(i).1, lbs[i]);
                let b = now(bound);
                if c.len() < 3 || total >= b {
                    lb
                } else {
                    self.cx
                        .class_bound(&self.memo, c, d - 1, &child, b - (total - lb))
                }
            });
            for (lb, r) in lbs.iter_mut().zip(raised) {
                total = total.saturating_add(r.saturating_sub(*lb));
                *lb = r.max(*lb);
            }
            refresh(&mut bound);
            if total >= bound {
                return Err(total);
            }
        } else {
            // The node's branching again, on each class's own bound now
            // (it refuted the guess above if it could): the class
            // bounds' cut-offs start from there.
            if let (Some(most), None) = (most, &self.cx.weights) {
                for (i, lb_i) in lbs.iter_mut().enumerate() {
                    let c = classes.get(i).1;
                    let lb = self.cx.bounds.raised_within(*lb_i, c.len(), d - 1, most);
                    total = total.saturating_add(lb - *lb_i);
                    *lb_i = lb;
                }
                if total >= bound {
                    stats::fate(set.len(), Fate::Branching);
                    return Err(total);
                }
            }
            let mut first = true;
            for (i, lb_i) in lbs.iter_mut().enumerate().rev() {
                let c = classes.get(i).1;
                if c.len() < 3 {
                    continue;
                }
                refresh(&mut bound);
                if total >= bound {
                    return Err(total);
                }
                let node = lease
                    .as_mut()
                    .and_then(|l| l.node_mut())
                    .map(|node| (node, classes.places(i)));
                let lb = self.cx.class_bound_in(
                    &self.memo,
                    c,
                    d - 1,
                    &child,
                    bound - (total - *lb_i),
                    node,
                );
                if lb > *lb_i {
                    total = total.saturating_add(lb - *lb_i);
                    *lb_i = lb;
                    if total >= bound {
                        let how = match first {
                            true => Fate::FirstClassBound,
                            false => Fate::LaterClassBound,
                        };
                        stats::fate(set.len(), how);
                        return Err(total);
                    }
                }
                first = false;
            }
        }
        if parallel {
            // Each class gets the slack left if all others meet their bounds
            // (under the bound as it stands when the class starts).
            let results: Vec<(u64, Outcome, u64)> = exec::map(self.par, classes.len(), |i| {
                let ((f, c), lb) = (classes.get(i), lbs[i]);
                let b = now(bound);
                if total >= b {
                    // Refuted already: the guess costs at least `total`.
                    return (lb, Outcome::AtLeast(lb), 0);
                }
                let limit = b - (total - lb);
                let start = Instant::now();
                let r = self.solve_from(c, d - 1, &child, limit, level.saturating_add(1), lb);
                if level == 0 {
                    self.report(s.guess, f, c.len(), r, start);
                }
                (lb, r, b)
            });
            let mut failed = false;
            // A class that fails under bound b shows the guess costs b at least.
            let mut floor = 0;
            for (lb, r, b) in results {
                match r {
                    Outcome::Exact(c) => total = raise(total, lb, c),
                    Outcome::AtLeast(c) => {
                        total = raise(total, lb, c);
                        floor = floor.max(b);
                        failed = true;
                    }
                }
            }
            refresh(&mut bound);
            return if failed || total >= bound {
                Err(total.max(floor))
            } else {
                Ok(total)
            };
        }
        for ((_, c), &lb) in classes.iter().zip(&lbs) {
            refresh(&mut bound);
            if total >= bound {
                stats::fate(set.len(), Fate::Search);
                return Err(total);
            }
            let limit = bound - (total - lb);
            match self.solve_from(c, d - 1, &child, limit, level.saturating_add(1), lb) {
                Outcome::Exact(cost) => total = raise(total, lb, cost),
                Outcome::AtLeast(at_least) => {
                    stats::fate(set.len(), Fate::Search);
                    return Err(raise(total, lb, at_least).max(bound));
                }
            }
            if total >= bound {
                stats::fate(set.len(), Fate::Search);
                return Err(total);
            }
        }
        stats::fate(set.len(), Fate::Exact);
        if level <= 1 {
            self.observer.progress(&self.progress());
        }
        Ok(total)
    }
}

impl Searcher<'_> {
    /// The bound of `guess` on `set` with each class raised to the level
    /// bound of the node's branching `most`, as the evaluation raises
    /// them after the split (`own + Σ max(lower(|C|), lower_within(|C|,
    /// most))` over the guess's non-winning classes), from the class
    /// sizes alone; `None` where that branching raises nothing
    /// ([`crate::search::bound::Bounds::lower_within`]).
    fn within_branching(&self, set: &[Code], d: usize, guess: Code, most: u64) -> Option<u64> {
        let bounds = &self.cx.bounds;
        bounds.lower_within(1, d - 1, most)?;
        let mut counts = [0u32; 256];
        for &s in set {
            counts[usize::from(self.cx.table.row(s)[guess.index()].0)] += 1;
        }
        counts[usize::from(self.cx.win.0)] = 0;
        let slots = self.cx.slots.min(256);
        let total =
            counts[..slots]
                .iter()
                .filter(|&&c| c > 0)
                .fold(self.cx.own_of(set, d), |t, &c| {
                    let c = c as usize;
                    t.saturating_add(bounds.raised_within(bounds.lower(c, d - 1), c, d - 1, most))
                });
        Some(total)
    }
}

/// `total` with one class's bound `lb` (a part of it) replaced by what the
/// class was found to cost, `found >= lb` (its exact cost, or a bound at
/// least its cut-off, which is at least `lb`). Subtracting first cannot
/// wrap (`total >= lb`); debug builds check both ranges.
#[inline]
fn raise(total: u64, lb: u64, found: u64) -> u64 {
    debug_assert!(
        total >= lb && found >= lb,
        "total {total}, class bound {lb}, found {found}"
    );
    (total - lb.min(total)).saturating_add(found.max(lb))
}

/// A guess's non-winning classes in one buffer ([`Searcher::flat_classes`]).
pub(in crate::search) struct Classes {
    codes: Vec<Code>,
    /// Each code's place in the node's set (the set split).
    places: Vec<u32>,
    /// Each class's answer and range in `codes`, in the search's order.
    parts: Vec<(Feedback, u32, u32)>,
}

impl Classes {
    /// How many classes.
    pub(in crate::search) fn len(&self) -> usize {
        self.parts.len()
    }

    /// Class `i`: its answer and secrets.
    pub(in crate::search) fn get(&self, i: usize) -> (Feedback, &[Code]) {
        let (f, a, b) = self.parts[i];
        (f, &self.codes[a as usize..b as usize])
    }

    /// The places in the node's set of class `i`'s secrets.
    pub(in crate::search) fn places(&self, i: usize) -> &[u32] {
        let (_, a, b) = self.parts[i];
        &self.places[a as usize..b as usize]
    }

    /// The classes in order.
    pub(in crate::search) fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (Feedback, &[Code])> + ExactSizeIterator + '_ {
        (0..self.parts.len()).map(|i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::search::config::Config;

    /// Past the deadline, a guess of a large set is not evaluated: the clock is
    /// read there, not only in the nodes entered (a scan whose guesses are all
    /// refuted by class bounds enters none), and every answer since is void.
    /// Before it, the same guess is evaluated as usual.
    #[test]
    fn a_guess_of_a_large_set_is_not_evaluated_past_the_deadline() {
        let game = Game::new("moo:3x10".parse::<Rules>().unwrap());
        let set = game.all_codes();
        let stab = Stabilizer::identity(game.positions(), game.rules().symbols());
        let s = Scored {
            bound: 0,
            guess: set[0],
        };
        // A bound the guess cannot meet: its class bounds refute it, no node
        // below is entered.
        let bound = set.len() as u64 + 1;
        let on_time = Searcher::new(&game, Config::default()).unwrap();
        let r = on_time.evaluate(&set, 8, &stab, &s, bound, 0, None);
        assert!(matches!(r, Err(b) if (bound..INF).contains(&b)), "{r:?}");
        assert_eq!(on_time.nodes(), 0, "refuted by its class bounds alone");
        assert!(!on_time.aborted());
        let late = Searcher::new(&game, Config::default())
            .unwrap()
            .with_deadline(Some(std::time::Instant::now()));
        assert_eq!(late.evaluate(&set, 8, &stab, &s, bound, 0, None), Err(INF));
        assert!(late.aborted());
    }
}
