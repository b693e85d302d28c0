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
pub fn upper_tree(
    folder: &Folder,
    path: &std::path::Path,
    per_unit: bool,
) -> anyhow::Result<UpperTree> {
    if folder.objective != Objective::Average {
        bail!(
            "--upper-tree bounds the average objective only, not {}",
            folder.objective
        );
    }
    let file = TreeFile::read(path, Some(folder.game.rules()))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if file.header.secrets.is_some() || folder.game.secret_set().is_some() {
        bail!("--upper-tree: secret lists are not supported");
    }
    let (tree, game) = (&file.tree, &folder.game);
    let stats = optimoo::tree::check::check(game, tree, folder.file.cap)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    if !per_unit {
        return Ok(UpperTree {
            total: stats.total,
            units: Vec::new(),
        });
    }
    // Each class of the tree's first guess: Σ over its secrets of the
    // guesses after the first (the check above showed every secret won).
    let mut by_answer = [0u64; 256];
    for s in game.secrets() {
        let moves = tree
            .play(game, s)
            .with_context(|| format!("{} does not play every secret", path.display()))?;
        if let Some(&(_, f)) = moves.first() {
            by_answer[usize::from(f.0)] += moves.len() as u64 - 1;
        }
    }
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
    Ok(UpperTree {
        total: stats.total,
        units,
    })
}
