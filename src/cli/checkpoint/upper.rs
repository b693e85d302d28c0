//! A verified tree as an upper bound on a plan (`status --upper-tree`,
//! `work --upper-tree`): its total, and its cost on each unit.
//!
//! Invariant: every value here is the cost of a real strategy, recounted
//! by replaying every secret of the plan's game within its cap (the file's
//! own claims are not trusted): the tree's cost on a unit is an upper
//! bound of the unit's exact cost, counted as the unit's value is (the
//! guesses after the first), and `None` where the tree does not take the
//! unit's path.

use anyhow::{bail, Context};
use optimoo::model::Objective;
use optimoo::tree::format::TreeFile;
use optimoo::tree::Tree;
use std::path::Path;

use super::Folder;

/// The tree of `--upper-tree`: its total, replayed over every secret of
/// the plan's game within its cap, and its cost on each unit.
pub struct UpperTree {
    /// The tree's total over every secret.
    pub total: u64,
    /// Per unit, the tree's cost on the unit's secrets, counted as the
    /// unit's value is (the guesses after the first), when the tree takes
    /// the unit's path: its first guess (and, for a unit of one second
    /// guess, that second guess).
    pub units: Vec<Option<u64>>,
}

/// Reads and replays the tree in `path` (average objective only); with
/// `per_unit`, its cost on each unit too.
pub fn upper_tree(folder: &Folder, path: &Path, per_unit: bool) -> anyhow::Result<UpperTree> {
    if folder.objective != Objective::Average {
        bail!(
            "--upper-tree bounds the average objective only, not {}",
            folder.objective
        );
    }
    let (file, total) = read_checked(folder, path)?;
    if !per_unit {
        return Ok(UpperTree {
            total,
            units: Vec::new(),
        });
    }
    let tree = &file.tree;
    let by_answer = class_costs(folder, tree)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    let units = folder
        .plan
        .units
        .iter()
        .map(|u| {
            let first = folder.plan.guesses[u.guess].guess;
            let at_class = (tree.root.guess == first)
                .then(|| tree.root.child(u.answer))
                .flatten()?;
            match &u.second {
                Some(second) if at_class.guess != second.guess => None,
                _ => Some(by_answer[usize::from(u.answer.0)]),
            }
        })
        .collect();
    Ok(UpperTree { total, units })
}

/// Reads the tree file in `path` (of the plan's game, no secret list) and
/// replays every secret within the plan's cap: the file and its total.
pub fn read_checked(folder: &Folder, path: &Path) -> anyhow::Result<(TreeFile, u64)> {
    let file = TreeFile::read(path, Some(folder.game.rules()))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if file.header.secrets.is_some() || folder.game.secret_set().is_some() {
        bail!("{}: secret lists are not supported", path.display());
    }
    let stats = optimoo::tree::check::check(&folder.game, &file.tree, folder.file.cap)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    Ok((file, stats.total))
}

/// Per answer to the tree's first guess, Σ over the secrets of that class
/// of the guesses after the first (indexed by the answer's byte).
pub fn class_costs(folder: &Folder, tree: &Tree) -> anyhow::Result<[u64; 256]> {
    let game = &folder.game;
    let mut by_answer = [0u64; 256];
    for s in game.secrets() {
        let moves = tree.play(game, s)?;
        if let Some(&(_, f)) = moves.first() {
            by_answer[usize::from(f.0)] += moves.len() as u64 - 1;
        }
    }
    Ok(by_answer)
}
