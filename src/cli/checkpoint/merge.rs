//! Assembling the optimal tree from a plan's unit files (`merge`, `solve
//! --checkpoint`), or raising the plan's upper bound when the units only
//! proved bounds.
//!
//! Invariant: the tree written is the one `solve` writes for the same
//! game, cap and objective (the first optimal first guess in the search's
//! order, each class's subtree as the search builds it); it is replayed
//! against every secret before it is written.

use anyhow::bail;

use optimoo::search::plan::{self, Decision, Known};
use optimoo::search::INF;
use optimoo::search::{MinCap, Solution};
use optimoo::tree::format::TreeFile;
use optimoo::tree::Tree;

use super::{plan_id, Folder, Totals};
use crate::cli::output::Output;
use crate::cli::report::SolveReport;

/// What a merge came to.
pub enum Merged {
    /// The optimal tree (or the proof that the cap cannot be met).
    Done(Box<SolveReport>),
    /// A new generation was written: these units (index, cut-off) must run.
    Rerun(Vec<(usize, u64)>),
}

/// Assembles the tree, or writes the next generation of the plan.
pub fn merge(folder: &Folder, output: &mut Option<Output>) -> anyhow::Result<Merged> {
    let known = folder.known()?;
    let missing: Vec<String> = known
        .iter()
        .enumerate()
        .filter(|(_, k)| k.is_none())
        .map(|(i, _)| i.to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "{} of {} units are missing in {}: {} (run optimoo work {} --unit I for each, or --all)",
            missing.len(),
            known.len(),
            folder.dir.display(),
            missing.join(", "),
            folder.dir.display()
        );
    }
    let stale: Vec<String> = known
        .iter()
        .enumerate()
        .filter(|(i, k)| !folder.plan.serves(*i, **k, folder.upper()))
        .map(|(i, _)| i.to_string())
        .collect();
    if !stale.is_empty() {
        bail!(
            "{} of {} units only hold bounds below the cut-offs of generation {} of the plan: {} \
             (run optimoo work {} --all, or --unit I for each)",
            stale.len(),
            known.len(),
            folder.file.generation,
            stale.join(", "),
            folder.dir.display()
        );
    }
    let game = &folder.game;
    let cap = folder.file.cap;
    let mut solution = Solution {
        cost: INF,
        tree: None,
        stats: None,
        nodes: 0,
        memo_hits: 0,
        memo_lookups: 0,
        memo_entries: 0,
        seconds: 0.0,
    };
    let mut units = Vec::new();
    let mut totals = Totals::default();
    for i in 0..known.len() {
        let Some((f, r)) = folder.read_unit(i)? else {
            bail!(
                "{} disappeared during the merge",
                folder.unit_path(i).display()
            );
        };
        totals.add(&f, &folder.unit_path(i))?;
        units.push(r);
    }
    solution.nodes = totals.nodes;
    solution.seconds = totals.seconds;
    match plan::decide(&folder.plan, &known) {
        Decision::Infeasible => {}
        Decision::Optimal(g, cost) => {
            let root = plan::assemble(&folder.plan, g, &known, &units).ok_or_else(|| {
                anyhow::anyhow!("the decided first guess has a class without an exact unit")
            })?;
            let tree = Tree {
                rules: game.rules(),
                root,
            };
            let stats = tree.replay(game, cap)?;
            let replayed = plan::subtree_cost(
                game,
                &plan::bounds(game, folder.goal.cost()),
                &game.all_codes(),
                folder.plan.depth,
                &tree.root,
            )
            .map_err(|e| anyhow::anyhow!("the assembled tree does not play: {e}"))?;
            if replayed != cost {
                bail!("the assembled tree costs {replayed}, the units say {cost}: a unit file is wrong");
            }
            if let Some(out) = output.take() {
                let bytes = if out.path().extension().is_some_and(|e| e == "json") {
                    serde_json::to_string(&tree.to_json(game))?.into_bytes()
                } else {
                    TreeFile::new(game, tree.clone(), folder.objective, cap)?.to_bytes(game)?
                };
                let path = out.path().to_path_buf();
                out.commit(&bytes)?;
                crate::cli::output::wrote(&path);
            }
            solution.cost = cost;
            solution.tree = Some(tree);
            solution.stats = Some(stats);
        }
        Decision::Undecided(_) => return next_generation(folder, &known),
    }
    let min_cap = folder.file.min_cap.as_ref().map(|m| MinCap {
        cap: m.cap,
        counted: m.counted,
        searches: m.searches.clone(),
        nodes: m.nodes,
    });
    Ok(Merged::Done(Box::new(SolveReport::new(
        game,
        cap,
        folder.objective,
        &solution,
        min_cap.as_ref(),
    ))))
}

/// Raises the assumed upper bound to the proven one (a real tree), or
/// drops it, and writes the new generation of plan.json.
fn next_generation(folder: &Folder, known: &[Known]) -> anyhow::Result<Merged> {
    let upper = folder.upper();
    if upper >= INF {
        bail!("the units do not decide even without an upper bound: a unit file is wrong");
    }
    let new_upper = if upper < folder.proven() {
        folder.proven()
    } else {
        INF
    };
    let mut file = folder.file.clone();
    file.generation += 1;
    file.upper = (new_upper < INF).then_some(new_upper);
    for (i, u) in file.units.iter_mut().enumerate() {
        u.cutoff = folder.plan.cutoff(i, new_upper);
    }
    debug_assert_eq!(plan_id(&file), folder.file.plan_id);
    Folder::write_plan(&folder.dir, &file)?;
    Ok(Merged::Rerun(
        (0..known.len())
            .filter(|&i| !folder.plan.serves(i, known[i], new_upper))
            .map(|i| (i, folder.plan.cutoff(i, new_upper)))
            .collect(),
    ))
}
