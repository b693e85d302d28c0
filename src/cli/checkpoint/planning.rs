//! Making the plan of a checkpoint folder, or opening the one there
//! (`plan`, `solve --checkpoint`).
//!
//! Invariant: the plan depends only on the game, cap, objective, upper
//! bound and version (never on threads or timing).

use std::path::Path;

use anyhow::bail;

use optimoo::heuristic::{build_tree_with, Heuristic, StrategyConfig};
use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::model::Rules;
use optimoo::search::INF;
use optimoo::search::{self, plan, Driver, Goal, Posed, Tuning};

use super::{goal_of, plan_file, Folder, PlanFile, PLAN_FILE, UNITS_DIR};
use crate::cli::plan_kinds::{refuse_other_plans, PlanKind};
use crate::driver::Rayon;

/// Opens the plan in `dir`, or makes it (in the current rayon pool), for
/// `rules` under `cap` (as [`crate::cli::args::Target::cap`] reads it).
/// An existing plan must be of the same game, cap and objective.
pub fn ensure(
    dir: &Path,
    rules: Rules,
    cap: Option<usize>,
    objective: Objective,
    upper: Option<u64>,
    depth: usize,
) -> anyhow::Result<Folder> {
    refuse_other_plans(dir, PlanKind::Exact)?;
    if dir.join(PLAN_FILE).exists() {
        let folder = Folder::open(dir)?;
        let f = &folder.file;
        let same_cap = objective != Objective::Average || f.cap == cap;
        if f.game != rules.to_string() || f.objective != objective.name() || !same_cap {
            bail!(
                "{} holds a plan of {} cap {} {}, not of {} cap {} {}: use another folder",
                dir.display(),
                f.game,
                f.cap.map_or("none".into(), |c| c.to_string()),
                f.objective,
                rules,
                cap.map_or("none".into(), |c| c.to_string()),
                objective
            );
        }
        return Ok(folder);
    }
    if dir.exists() && !dir.is_dir() {
        bail!("{} is a file: give a folder", dir.display());
    }
    let file = make(rules, cap, objective, upper, depth)?;
    std::fs::create_dir_all(dir.join(UNITS_DIR))
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.join(UNITS_DIR).display()))?;
    Folder::write_plan(dir, &file)?;
    Folder::open(dir)
}

/// Makes the plan (in the current rayon pool).
fn make(
    rules: Rules,
    cap: Option<usize>,
    objective: Objective,
    upper: Option<u64>,
    depth: usize,
) -> anyhow::Result<PlanFile> {
    let game = Game::new(rules);
    if game.len() < 3 {
        bail!("{rules} has fewer than 3 secrets: nothing to cut into units; use optimoo solve");
    }
    let driver = Driver::sequential();
    let driver = Driver {
        par: &Rayon,
        observer: driver.observer,
    };
    let goal = goal_of(objective, cap)?;
    let Posed { config, min_cap } = search::pose(&game, &goal, &Tuning::default(), driver)?;
    let proven = heuristic_upper(&game, config.cap, &goal, &Rayon);
    let limit = proven.map_or(INF, |p| p.0);
    let assumed = upper.unwrap_or(INF).min(limit);
    let p = plan::plan(&game, config.clone(), driver, limit, depth)?;
    Ok(plan_file(
        &game,
        &p,
        config.cap,
        objective,
        assumed,
        proven.map(|(c, name)| (c, name.to_string())),
        min_cap.as_ref(),
    ))
}

/// The cost of the best of a few heuristic trees (Irving, entropy, Kooi;
/// any guess allowed) that keep within `cap`, under `goal`, with the
/// heuristic's name: an upper bound on the optimum from a real tree,
/// the plan's cut-off (made here, where the plan is made: the search
/// itself knows no heuristic).
/// `None` when none keeps within the cap.
fn heuristic_upper(
    game: &Game,
    cap: Option<usize>,
    goal: &Goal,
    par: &dyn optimoo::exec::Parallel,
) -> Option<(u64, &'static str)> {
    let mut best: Option<(u64, &'static str)> = None;
    for h in [Heuristic::Irving, Heuristic::Entropy, Heuristic::Kooi] {
        let Ok(tree) = build_tree_with(game, &StrategyConfig::new(h), par) else {
            continue;
        };
        let Ok(stats) = tree.replay(game, cap) else {
            continue;
        };
        let Some(cost) = goal.cost_of(&stats, cap) else {
            continue;
        };
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, h.name()));
        }
    }
    best
}
