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

/// What the units left may take, and how that was estimated.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Remaining {
    seconds: f64,
    how: &'static str,
}

/// The core time the units of `left` secrets may take, from the
/// `(secrets, seconds)` of the units done: the power law `t = a·s^p`
/// fitted by least squares on logarithms (a unit's time grows much faster
/// than its size: about `s^3.4` over the units of moo:5x10 and mm:5x6)
/// when at least three units of different sizes took measurable time,
/// else time per secret. A rough guide either way: units of one size
/// vary a lot.
fn estimate(timed: &[(u64, f64)], left: &[u64]) -> Option<Remaining> {
    let points: Vec<(f64, f64)> = timed
        .iter()
        .filter(|&&(s, t)| s >= 2 && t >= 0.01 && t.is_finite())
        .map(|&(s, t)| ((s as f64).ln(), t.ln()))
        .collect();
    let m = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / m, b + y / m));
    let (sxx, sxy) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (x - mx), b + (x - mx) * (y - my))
    });
    if points.len() >= 3 && sxx > 1e-9 {
        // An exponent below 1 (noise on tiny units) would promise large
        // units for less per secret than small ones: not below 1.
        let p = (sxy / sxx).max(1.0);
        let a = my - p * mx;
        let seconds = left
            .iter()
            .fold(0.0, |t, &s| t + (a + p * (s as f64).ln()).exp());
        return Some(Remaining {
            seconds,
            how: "by a power of the unit's size",
        });
    }
    let (secrets, seconds) = timed
        .iter()
        .fold((0u64, 0.0), |(a, b), &(s, t)| (a + s, b + t));
    (secrets > 0).then(|| Remaining {
        seconds: seconds / secrets as f64 * left.iter().sum::<u64>() as f64,
        how: "by secrets",
    })
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
    let mut done = 0usize;
    let mut core = Totals::default();
    // (secrets, seconds) of each unit done, and the secrets of each left.
    let (mut timed, mut left) = (Vec::new(), Vec::new());
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
                    timed.push((secrets, f.seconds));
                } else {
                    left.push(secrets);
                }
            }
            Ok(None) => left.push(secrets),
            Err(e) => {
                bad.push(format!("{e:#}"));
                left.push(secrets);
            }
        }
    }
    let remaining = estimate(&timed, &left);
    let in_progress = (0..n).filter(|&i| folder.progress_path(i).exists()).count();
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
            "remaining_seconds": remaining.map(|r| r.seconds),
            "in_progress": in_progress,
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
                "remaining  about {:.1} s of core time ({}, from the units done)",
                r.seconds, r.how
            )?,
            None => writeln!(out, "remaining  unknown until a unit is done")?,
        }
        if in_progress > 0 {
            writeln!(
                out,
                "progress   {in_progress} unit{} stopped on the way, to go on from there \
                 (progress/)",
                if in_progress == 1 { "" } else { "s" }
            )?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Units done on an exact power law give the law's own prediction;
    /// too few points fall back to time per secret; nothing done, none.
    #[test]
    fn the_estimate_follows_the_units_done() {
        let law = |s: u64| 0.002 * (s as f64).powf(2.5);
        let timed: Vec<(u64, f64)> = [40, 100, 300, 900].iter().map(|&s| (s, law(s))).collect();
        let r = estimate(&timed, &[2000, 50]).unwrap();
        let want = law(2000) + law(50);
        assert!((r.seconds / want - 1.0).abs() < 1e-9, "{r:?} vs {want}");
        assert_eq!(r.how, "by a power of the unit's size");
        assert_eq!(estimate(&timed, &[]).unwrap().seconds, 0.0);
        let r = estimate(&[(100, 2.0), (300, 6.0)], &[400]).unwrap();
        assert!((r.seconds - 8.0).abs() < 1e-9, "{r:?}");
        assert_eq!(r.how, "by secrets");
        // Faster per secret on larger units (noise): never below linear.
        let r = estimate(&[(10, 1.0), (100, 2.0), (1000, 4.0)], &[10000]).unwrap();
        assert!(r.seconds >= 40.0 - 1e-9, "{r:?}");
        assert_eq!(estimate(&[], &[10]), None);
    }
}
