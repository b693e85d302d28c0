//! `optimoo status`: the progress of a plan from its folder alone: units
//! done, core time spent, an estimate of what remains, and the best proven
//! bounds on the optimum so far.
//!
//! Invariant: the bounds are proven: lower = the least, over the planned
//! first guesses, of own + Σ (exact cost, proven bound or level bound) of
//! its classes (guesses left out of the plan cost more than a real tree);
//! upper = the cost of the best first guess whose classes are all exact,
//! or of the plan's heuristic tree.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use optimoo::model::Objective;
use optimoo::search::plan::Known;
use optimoo::search::INF;
use optimoo::tree::format::TreeFile;

use super::checkpoint::{show_cost, Folder, Totals};
use super::EXIT_ERROR;

/// Show a plan's progress: units done, core time, time left, bounds so far.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The checkpoint folder.
    pub dir: PathBuf,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// A tree of the plan's game (every code, within its cap) whose total,
    /// recounted by replaying every secret, is a proven upper bound: used
    /// when it is below the plan's (e.g. a tree of `optimoo improve`).
    /// Average objective only.
    #[arg(long, value_name = "FILE")]
    pub upper_tree: Option<PathBuf>,
}

/// The total of the tree in `path`, replayed over every secret of the
/// plan's game within its cap (only for the average objective).
fn tree_total(folder: &Folder, path: &std::path::Path) -> anyhow::Result<u64> {
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
    let stats = optimoo::tree::check::check(&folder.game, &file.tree, folder.file.cap)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    Ok(stats.total)
}

/// Runs `optimoo status`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(file) = super::phased_plan::open(&args.dir)? {
        if args.upper_tree.is_some() {
            anyhow::bail!("--upper-tree bounds exact plans, not a phased one");
        }
        return super::phased_plan::status(&args.dir, &file, args.json);
    }
    let folder = Folder::open(&args.dir)?;
    let n = folder.plan.units.len();
    let upper_assumed = folder.upper();
    let mut known: Vec<Known> = vec![None; n];
    let mut bad = Vec::new();
    let (mut done, mut done_secrets, mut todo_secrets) = (0usize, 0u64, 0u64);
    let mut core = Totals::default();
    let mut done_seconds = 0.0;
    for (i, k) in known.iter_mut().enumerate() {
        let secrets = folder.plan.units[i].secrets as u64;
        let read = folder.read_unit(i).and_then(|r| match r {
            Some((ref f, _)) => core.add(f, &folder.unit_path(i)).map(|_| r),
            None => Ok(r),
        });
        match read {
            Ok(Some((f, r))) => {
                *k = Some(r.outcome());
                if folder.plan.serves(i, *k, upper_assumed) {
                    done += 1;
                    done_secrets += secrets;
                    done_seconds += f.seconds;
                } else {
                    todo_secrets += secrets;
                }
            }
            Ok(None) => todo_secrets += secrets,
            Err(e) => {
                bad.push(format!("{e:#}"));
                todo_secrets += secrets;
            }
        }
    }
    // Time per secret of the units done, times the secrets left: a rough
    // guide (units of one size vary a lot).
    let remaining =
        (done_secrets > 0).then(|| done_seconds / done_secrets as f64 * todo_secrets as f64);
    let proven = match &args.upper_tree {
        Some(path) => folder.proven().min(tree_total(&folder, path)?),
        None => folder.proven(),
    };
    let (lower, upper) = folder.plan.anytime(&known, proven);
    let bound = |c: u64| (c < INF).then_some(c);
    // How far the bounds are apart: upper / lower − 1, in percent.
    let gap = (lower > 0 && lower < INF && upper < INF)
        .then(|| (upper as f64 / lower as f64 - 1.0) * 100.0);
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "game": folder.file.game,
            "cap": folder.file.cap,
            "objective": folder.file.objective,
            "generation": folder.file.generation,
            "done": done,
            "total": n,
            "core_seconds": core.seconds,
            "remaining_seconds": remaining,
            "lower": bound(lower),
            "upper": bound(upper),
            "gap_percent": gap,
            "bad_files": bad,
        });
        writeln!(out, "{json}")?;
    } else {
        let o = folder.objective;
        writeln!(
            out,
            "plan       {} cap {} {}, generation {}",
            folder.file.game,
            folder.file.cap.map_or("none".into(), |c| c.to_string()),
            folder.file.objective,
            folder.file.generation
        )?;
        writeln!(out, "units      {done} / {n} done")?;
        writeln!(out, "core time  {:.1} s", core.seconds)?;
        match remaining {
            Some(r) => writeln!(
                out,
                "remaining  about {r:.1} s of core time (by secrets, from the units done)"
            )?,
            None => writeln!(out, "remaining  unknown until a unit is done")?,
        }
        writeln!(out, "lower      {}", show_cost(o, lower))?;
        writeln!(
            out,
            "upper      {}",
            if upper < INF {
                show_cost(o, upper)
            } else {
                "none yet".into()
            }
        )?;
        if let Some(g) = gap {
            writeln!(out, "gap        {g:.2} % (upper / lower - 1)")?;
        }
        for b in &bad {
            writeln!(out, "bad file   {b}")?;
        }
    }
    out.flush()?;
    Ok(if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_ERROR)
    })
}
