//! `optimoo plan`: cut an exact search into independent work units and
//! write `DIR/plan.json` (see [`super::checkpoint`] and docs/scale.md).
//!
//! Invariant: the plan depends only on the game, cap, objective, upper
//! bound and version (never on threads or timing).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use optimoo::heuristic::{build_tree_with, Heuristic, StrategyConfig};
use optimoo::model::game::Game;
use optimoo::model::rules::Rules;
use optimoo::search::bound::{Cost, INF};
use optimoo::search::{self, plan, Config, Driver};
use optimoo::tree::format::Objective;

use super::checkpoint::{cost_of, plan_file, show_cost, Folder, PlanFile, UNITS_DIR};
use crate::driver::{self, Rayon};

/// Cut an exact search into independent work units (DIR/plan.json).
///
/// Each unit is one class of one first guess (one per symmetry orbit, in
/// the search's order), searched alone under a cut-off computed from an
/// upper bound (the best heuristic tree within the cap, or --upper), so
/// units never talk to each other. Run them with `optimoo work`, put the
/// tree together with `optimoo merge`. Same arguments as `solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN or mm:KxN [default: moo:4x10]
    #[arg(long)]
    pub game: Option<Rules>,
    /// Most guesses any secret may need [default: 7 when --game is not
    /// given, else unlimited]
    #[arg(long)]
    pub cap: Option<usize>,
    /// What to optimize: average, worst or crush (worst and crush find the
    /// smallest cap first, on this machine).
    #[arg(long, default_value = "average", ignore_case = true, value_parser = super::solve::objectives())]
    pub objective: Objective,
    /// Assume the optimum is at most N (tighter cut-offs, smaller units;
    /// if it is wrong, `merge` says which units to rerun).
    #[arg(long, value_name = "N")]
    pub upper: Option<u64>,
    /// Levels of the tree cut into units: 1, a unit per class of a first
    /// guess; 2, classes of 64 secrets or more cut again, a unit per second
    /// guess (more and smaller units, for many machines).
    #[arg(long, default_value_t = 1)]
    pub depth: usize,
    /// The checkpoint folder (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: PathBuf,
    /// Worker threads for planning (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// Runs `optimoo plan`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(1..=2).contains(&args.depth) {
        bail!(
            "--depth {}: give 1 (a unit per class of a first guess) or 2 (large classes cut by second guess)",
            args.depth
        );
    }
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    let folder = pool.install(|| {
        ensure(
            &args.output,
            args.game,
            args.cap,
            args.objective,
            args.upper,
            args.depth,
        )
    })?;
    let f = &folder.file;
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "dir": args.output.display().to_string(),
            "plan_id": f.plan_id,
            "generation": f.generation,
            "game": f.game,
            "cap": f.cap,
            "objective": f.objective,
            "guesses": f.guesses.len(),
            "units": f.units.len(),
            "upper": f.upper,
            "proven_upper": f.proven_upper,
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(
            out,
            "plan       {}",
            args.output.join("plan.json").display()
        )?;
        writeln!(
            out,
            "game       {} cap {} {}",
            f.game,
            f.cap.map_or("none".into(), |c| c.to_string()),
            f.objective
        )?;
        writeln!(
            out,
            "guesses    {} first guesses, {} units",
            f.guesses.len(),
            f.units.len()
        )?;
        if let (Some(u), Some(by)) = (f.proven_upper, &f.proven_by) {
            writeln!(
                out,
                "upper      {} (the {by} heuristic tree)",
                show_cost(folder.objective, u)
            )?;
        }
        if f.upper != f.proven_upper {
            writeln!(
                out,
                "assumed    {}",
                f.upper
                    .map_or("none".into(), |u| show_cost(folder.objective, u))
            )?;
        }
        writeln!(
            out,
            "next       optimoo work {} --unit I   (I = 0 … {})",
            args.output.display(),
            f.units.len().saturating_sub(1)
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The cap a game is solved under, as `solve` reads its arguments.
pub fn effective_cap(
    game: Option<Rules>,
    cap: Option<usize>,
    objective: Objective,
) -> anyhow::Result<Option<usize>> {
    if objective != Objective::Average && cap.is_some() {
        bail!("--objective {objective} finds the smallest cap itself; drop --cap");
    }
    Ok(match (game, cap, objective) {
        (None, None, Objective::Average) => Some(7),
        (_, cap, _) => cap,
    })
}

/// Opens the plan in `dir`, or makes it (in the current rayon pool). An
/// existing plan must be of the same game, cap and objective.
pub fn ensure(
    dir: &Path,
    game: Option<Rules>,
    cap: Option<usize>,
    objective: Objective,
    upper: Option<u64>,
    depth: usize,
) -> anyhow::Result<Folder> {
    let rules = game.unwrap_or_else(Rules::standard);
    let cap = effective_cap(game, cap, objective)?;
    if dir.join(super::checkpoint::PLAN_FILE).exists() {
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
    let mut config = Config {
        cap,
        ..Config::default()
    };
    let min_cap = match objective {
        Objective::Average => None,
        _ => {
            let m = search::min_cap_with(&game, &config, driver)?;
            config.cap = Some(m.cap);
            Some(m)
        }
    };
    config.objective = cost_of(objective);
    let proven = heuristic_upper(&game, config.cap, config.objective, &Rayon);
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
/// any guess allowed) that keep within `cap`, under `objective`, with the
/// heuristic's name: an upper bound on the optimum from a real tree,
/// the plan's cut-off (made here, where the plan is made: the search
/// itself knows no heuristic).
/// `None` when none keeps within the cap.
fn heuristic_upper(
    game: &Game,
    cap: Option<usize>,
    objective: Cost,
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
        let at_cap = match cap {
            Some(c) if objective == Cost::Crush => stats.histogram.get(c - 1).copied().unwrap_or(0),
            _ => 0,
        };
        let cost = at_cap * optimoo::search::bound::CRUSH_UNIT + stats.total;
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, h.name()));
        }
    }
    best
}
