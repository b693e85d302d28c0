//! From the units' results to the optimal first guess and the tree.
//!
//! Invariant: [`decide`] names a guess only when every other planned guess
//! is proven to cost more (or the same and come later in the search's
//! order), and [`assemble`] takes each class's subtree from the unit
//! [`Plan::class_known`] picks, so the tree is the search's own.

use super::{Known, Plan, UnitResult};
use crate::search::bound::INF;
use crate::search::value::Outcome;
use crate::tree::Node;

/// What the assembly decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The optimal first guess (index in [`Plan::guesses`]) and the cost.
    Optimal(usize, u64),
    /// No strategy meets the cap: every guess is proven infeasible.
    Infeasible,
    /// The known results do not decide: these units (indices) must be
    /// (re)computed, under the cut-offs of a larger upper bound.
    Undecided(Vec<usize>),
}

/// Decides the optimal first guess from the units' results: the first
/// guess in order whose units are all exact with the least total, provided
/// every other guess is proven worse (or equal and later).
pub fn decide(plan: &Plan, known: &[Known]) -> Decision {
    let gb = plan.guess_bounds(known);
    if gb.iter().all(|g| g.0 >= INF) {
        return Decision::Infeasible;
    }
    let best = gb
        .iter()
        .enumerate()
        .filter(|(_, g)| g.1)
        .min_by_key(|(i, g)| (g.0, *i))
        .map(|(i, g)| (i, g.0));
    let undecided = |i: usize, g: &(u64, bool)| match best {
        None => g.0 < INF,
        Some((b, cost)) => !g.1 && (g.0 < cost || (g.0 == cost && i < b)),
    };
    let open: Vec<usize> = gb
        .iter()
        .enumerate()
        .filter(|(i, g)| undecided(*i, g))
        .map(|(i, _)| i)
        .collect();
    match best {
        Some((b, cost)) if open.is_empty() => Decision::Optimal(b, cost),
        _ => Decision::Undecided(
            plan.units
                .iter()
                .enumerate()
                .filter(|(i, u)| {
                    open.contains(&u.guess) && !known[*i].is_some_and(Outcome::is_exact)
                })
                .map(|(i, _)| i)
                .collect(),
        ),
    }
}

/// The root node of the optimal tree: guess `plan.guesses[g]` (decided
/// by [`decide`]), one child per class, each the subtree of the unit
/// [`Plan::class_known`] picks; `None` if one of them is not exact.
pub fn assemble(plan: &Plan, g: usize, known: &[Known], results: &[UnitResult]) -> Option<Node> {
    let mut children = Vec::new();
    for r in plan.classes() {
        let u = &plan.units[r.start];
        if u.guess != g {
            continue;
        }
        let i = plan.class_known(r, known).1?;
        children.push((u.answer, results[i].subtree()?.clone()));
    }
    children.sort_by_key(|(f, _)| *f);
    Some(Node {
        guess: plan.guesses[g].guess,
        children,
    })
}
