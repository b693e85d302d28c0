//! The tree rebuilt top-down once the costs are known.
//!
//! Invariant (determinism): each node guesses the *first* guess in the
//! search's order whose exact cost is optimal, so the tree depends only on
//! the game and the objective, never on timing, memo contents or the number
//! of threads. A searcher whose deadline passes during a build returns a
//! tree of no meaning (never a panic): callers with a deadline check
//! [`Searcher::aborted`] after it, as after any search.

use crate::exec;
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::INF;
use crate::search::memo::raw_key;
use crate::search::memo::Entry;
use crate::search::searcher::Searcher;
use crate::search::value::Outcome;
use crate::search::value::Scored;
use crate::tree::Node;

impl Searcher<'_> {
    /// The optimal guess the search recorded for this very set, if the memo
    /// still holds it.
    pub(in crate::search) fn remembered(&self, set: &[Code], d: usize, cost: u64) -> Option<Code> {
        if set.len() < self.cx.config.tuning.memo_min {
            return None;
        }
        match self.memo.get(&raw_key(set, d)) {
            Some(Entry::Exact(c, guess)) if c == cost => guess,
            _ => None,
        }
    }

    /// The first guess in order whose exact cost is `cost` (searched anew).
    pub(in crate::search) fn choose(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cost: u64,
    ) -> Code {
        let phases = self.cx.phases(set, d, stab);
        let reaches =
            |s: &&Scored| self.evaluate(set, d, stab, s, cost + 1, usize::MAX, None) == Ok(cost);
        match phases
            .first
            .iter()
            .take_while(|s| s.bound <= cost)
            .find(reaches)
        {
            Some(s) => s.guess,
            None => self
                .cx
                .rest(set, d, stab, &phases, cost + 1)
                .0
                .iter()
                .take_while(|s| s.bound <= cost)
                .find(reaches)
                .map(|s| s.guess)
                .or_else(|| self.aborted().then_some(set[0]))
                .expect("some guess reaches the optimal cost"),
        }
    }

    /// Rebuilds the optimal subtree of cost `cost`: at each node the first
    /// guess in order whose exact cost is `cost`.
    pub(in crate::search) fn build(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        cost: u64,
    ) -> Node {
        let n = set.len();
        let d = self.cx.clamp(n, d);
        if n == 1 || self.aborted() {
            return Node::leaf(set[0]);
        }
        let chosen = match self.remembered(set, d, cost) {
            Some(g) => g,
            None => self.choose(set, d, stab, cost),
        };
        self.build_with(set, d, stab, chosen)
    }

    /// The optimal subtree of `set` that guesses `chosen` first (each
    /// class rebuilt by [`Searcher::build`]).
    pub(in crate::search) fn build_with(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        chosen: Code,
    ) -> Node {
        self.build_known(set, d, stab, chosen, None)
    }

    /// [`Searcher::build_with`], the cost of each class given when `known`
    /// (in the order of [`Searcher::classes`]; each must be the class's
    /// exact cost at depth `d - 1`, as a search proved it) rather than
    /// solved again: the same tree.
    pub(in crate::search) fn build_known(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        chosen: Code,
        known: Option<&[u64]>,
    ) -> Node {
        let d = self.cx.clamp(set.len(), d);
        let child_stab = stab.fix(self.cx.game.codes().symbols(chosen));
        let mut classes: Vec<(Feedback, Vec<Code>, Option<u64>)> = self
            .classes(set, chosen)
            .into_iter()
            .enumerate()
            .map(|(k, (f, c))| (f, c, known.map(|costs| costs[k])))
            .collect();
        classes.sort_by_key(|(f, _, _)| *f);
        let children = exec::map(self.par, classes.len(), |i| {
            let (f, c, cost) = &classes[i];
            let sub = match cost {
                Some(v) => *v,
                None => match self.solve(c, d - 1, &child_stab, INF, usize::MAX) {
                    Outcome::Exact(v) => v,
                    Outcome::AtLeast(_) if self.aborted() => return (*f, Node::leaf(c[0])),
                    Outcome::AtLeast(_) => {
                        unreachable!("a class of an optimal guess is feasible")
                    }
                },
            };
            (*f, self.build(c, d - 1, &child_stab, sub))
        });
        Node {
            guess: chosen,
            children,
        }
    }
}
