//! A better tree from a verified one and a plan's exact units (`merge
//! --fill-from TREE`): each class of the tree's first guess whose exact
//! unit costs less than the tree's subtree there takes the unit's subtree.
//!
//! Invariants: the result is a real strategy, not a claim of optimality:
//! the tree read is replayed over every secret first, each unit subtree
//! grafted was decoded and its cost recomputed when its file was read, and
//! the grafted tree is replayed over every secret again, within the plan's
//! cap, and its total must be the tree's total less the savings counted
//! class by class (else nothing is written). A unit is grafted only where
//! the tree's first guess is the unit's, and only when it is strictly
//! cheaper (ties keep the tree's subtree), so the total never rises.
//!
//! What is proved is recorded, no more: a class is exact in the result
//! when the plan decides it (`Plan::class_known`: its exact unit, or the
//! least of its second guesses with every other one bounded above) and the
//! result's subtree there costs that optimum; the lower bound is the
//! plan's anytime lower bound (`optimoo status`'s). The file is written as
//! an upper bound with these ([`optimoo::tree::format::Bound`]), or as the
//! optimum when the lower bound reaches the total.

use std::path::Path;

use anyhow::{bail, Context};

use optimoo::model::Objective;
use optimoo::search::plan::Known;
use optimoo::search::Outcome;
use optimoo::tree::format::{Bound, TreeFile};
use optimoo::tree::Tree;

use super::upper::{class_costs, read_checked};
use super::Folder;

/// One class whose subtree was replaced.
pub struct Graft {
    /// The unit whose subtree went in.
    pub unit: usize,
    /// The class's answer to the first guess, as the game prints it.
    pub answer: String,
    /// The tree's cost on the class before (guesses after the first).
    pub before: u64,
    /// The unit's exact cost, the class's cost now.
    pub after: u64,
}

/// The tree `merge --fill-from` made.
pub struct Grafted {
    /// The tree read's total over every secret.
    pub from: u64,
    /// The grafted tree, replayed.
    pub tree: Tree,
    /// Its total over every secret.
    pub total: u64,
    /// The classes replaced, by answer.
    pub grafts: Vec<Graft>,
    /// What is proved: the classes whose subtree is exact (their answer
    /// paths), and the plan's lower bound of the optimum.
    pub bound: Bound,
}

/// Reads the tree in `path`, replaces each class where an exact unit of
/// the plan beats it, and replays the result (average objective only).
pub fn graft(folder: &Folder, path: &Path) -> anyhow::Result<Grafted> {
    if folder.objective != Objective::Average {
        bail!(
            "--fill-from grafts trees of the average objective only, not {}",
            folder.objective
        );
    }
    let (TreeFile { tree, .. }, from) = read_checked(folder, path)?;
    let before = class_costs(folder, &tree)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    let game = &folder.game;
    // Per answer, the cheapest exact unit whose first guess is the tree's
    // (a unit of one second guess holds a whole subtree for the class too).
    let mut best: Vec<Option<(u64, usize, optimoo::tree::Node)>> = vec![None; 256];
    let mut known: Vec<Known> = vec![None; folder.plan.units.len()];
    for (i, u) in folder.plan.units.iter().enumerate() {
        let Some((_, r)) = folder.read_unit(i)? else {
            continue;
        };
        known[i] = Some(r.outcome());
        if folder.plan.guesses[u.guess].guess != tree.root.guess {
            continue;
        }
        let (Outcome::Exact(cost), Some(sub)) = (r.outcome(), r.subtree()) else {
            continue;
        };
        let slot = &mut best[usize::from(u.answer.0)];
        if slot.as_ref().is_none_or(|(c, _, _)| cost < *c) {
            *slot = Some((cost, i, sub.clone()));
        }
    }
    // The classes of the tree's first guess the plan decides: their optimum.
    let mut decided: Vec<Option<u64>> = vec![None; 256];
    for r in folder.plan.classes() {
        let u = &folder.plan.units[r.start];
        if folder.plan.guesses[u.guess].guess != tree.root.guess {
            continue;
        }
        if let (Some(Outcome::Exact(c)), Some(_)) = folder.plan.class_known(r, &known) {
            decided[usize::from(u.answer.0)] = Some(c);
        }
    }
    let mut tree = tree;
    let mut grafts = Vec::new();
    let mut exact = Vec::new();
    for (f, child) in tree.root.children.iter_mut() {
        let a = usize::from(f.0);
        let mut now = before[a];
        if let Some((cost, unit, sub)) = best[a].take() {
            if cost < before[a] {
                *child = sub;
                now = cost;
                grafts.push(Graft {
                    unit,
                    answer: game.format_feedback(*f),
                    before: before[a],
                    after: cost,
                });
            }
        }
        match decided[a] {
            Some(c) if c == now => exact.push(vec![*f]),
            Some(c) if c > now => bail!(
                "the plan proves class {} costs {c}, but the tree's subtree there costs {now}: \
                 a unit file or the tree is wrong",
                game.format_feedback(*f)
            ),
            _ => {}
        }
    }
    let stats = optimoo::tree::check::check(game, &tree, folder.file.cap)
        .context("the grafted tree does not play every secret: a unit file is wrong")?;
    let saved: u64 = grafts.iter().map(|g| g.before - g.after).sum();
    if stats.total != from - saved {
        bail!(
            "the grafted tree costs {}, not {} less {saved}: a unit file is wrong",
            stats.total,
            from
        );
    }
    let (lower, _) = folder
        .plan
        .anytime(&known, folder.proven().min(stats.total));
    let bound = Bound {
        lower: (lower > 0 && lower < optimoo::search::INF).then_some(lower),
        exact,
    };
    Ok(Grafted {
        from,
        tree,
        total: stats.total,
        grafts,
        bound,
    })
}
