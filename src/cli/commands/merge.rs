//! `optimoo merge`: assemble the optimal tree from a plan's unit files,
//! report it as `solve` does, and write it (the tree is assembled, and the
//! units audited, in [`crate::cli::checkpoint`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use crate::cli::args;
use crate::cli::checkpoint::{self, show_cost, Folder, Merged};
use crate::cli::output::Output;
use crate::driver;
use optimoo::tree::format::TreeFile;

/// Assemble the optimal tree from a plan's units and report it.
///
/// Checks that every unit file is present, valid and of this plan (names
/// the missing and bad ones), picks the optimal first guess and writes the
/// tree (-o) that `optimoo verify` accepts. When a unit only proved a bound
/// and the assembly needs its exact cost (an --upper below the optimum),
/// it raises the plan's upper bound (a new generation of plan.json; every
/// unit file stays valid) and names the units to rerun with their
/// cut-offs.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::MERGE)]
pub struct Args {
    /// The checkpoint folder.
    pub dir: PathBuf,
    /// Save the tree to FILE: the compact tree file, or JSON when FILE ends
    /// in .json.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object (the one of `solve --json`) instead of the
    /// summary.
    #[arg(long)]
    pub json: bool,
    /// Before merging, re-solve a random sample of FRACTION of the
    /// finished units (0 < FRACTION <= 1; 1: every unit) with this
    /// version's search, on all cores, and fail naming every unit whose
    /// file differs (value, exactness or subtree; of a phased plan, the
    /// unit's walk: its secrets and histogram). The folder's hashes only
    /// catch accidents (anyone can recompute them): --audit 1 is the check
    /// that trusts no unit file. Which units were re-solved is said on
    /// stderr; a unit stopped by a time limit is named there and not
    /// re-solved (its bound is where the limit left it).
    #[arg(long, value_name = "FRACTION", value_parser = args::parse_fraction)]
    pub audit: Option<f64>,
    /// The seed that draws the audit's sample (the same seed, the same
    /// units) [default: 1]
    #[arg(long, value_name = "N", requires = "audit")]
    pub seed: Option<u64>,
    /// Draw the audit's sample only among the finished units whose file
    /// records a solve of at most SECONDS (wall time); the others are named
    /// on stderr and not re-solved. For a slow re-check (the scalar kernel,
    /// `OPTIMOO_KERNEL=scalar`, took 6 to 24 times as long as AVX2 on the
    /// games measured, docs/benchmarks.md) of the units it can afford; a
    /// file's time is that of the unit's first solve, by the engine of its
    /// day. Exact plans only.
    #[arg(long, value_name = "SECONDS", requires = "audit", value_parser = args::parse_seconds)]
    pub audit_max_seconds: Option<std::time::Duration>,
    /// Worker threads of the audit (default: all cores).
    #[arg(long, requires = "audit")]
    pub threads: Option<usize>,
    /// Memory for each audited unit's memo in MiB, as `work --memo-mib`
    /// [default: 256]
    #[arg(long, requires = "audit")]
    pub memo_mib: Option<usize>,
    /// Refuse to audit when the estimated memory is above SIZE, as `work
    /// --max-memory` [default: the memory available]
    #[arg(long, value_name = "SIZE", value_parser = args::parse_size, requires = "audit")]
    pub max_memory: Option<u64>,
    /// Instead of the optimal tree, improve the tree in FILE (of the plan's
    /// game, e.g. one of `optimoo improve`) with the units solved so far:
    /// each class of its first guess where an exact unit costs less takes
    /// the unit's subtree. Needs no missing unit; the result is a verified
    /// strategy (replayed over every secret, written with -o), an upper
    /// bound, not a proof of optimality. Average objective.
    #[arg(long, value_name = "FILE")]
    pub fill_from: Option<PathBuf>,
    /// With --fill-from: also put in the tree of FILE, made by `optimoo
    /// solve --secrets LIST -o FILE` for the secrets the tree leaves at one
    /// of its nodes (a class of a class, e.g. of the second guess), where
    /// it is cheaper. The node is found from the list; the file's tree is
    /// replayed over it. Repeat for several files.
    #[arg(long, value_name = "FILE", requires = "fill_from")]
    pub graft: Vec<PathBuf>,
}

/// Runs `optimoo merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(opened) = crate::cli::first_plan::open(&args.dir)? {
        if args.fill_from.is_some() || args.max_memory.is_some() || args.audit_max_seconds.is_some()
        {
            bail!(
                "--fill-from, --max-memory and --audit-max-seconds belong to exact plans: a plan of first \
                 guesses merges into its optimum and best words (-o: the optimal tree)"
            );
        }
        // Checked before the merge: a bad -o is refused at once.
        let output = args
            .output
            .as_deref()
            .map(crate::cli::output::Output::create)
            .transpose()?;
        if let Some(fraction) = args.audit {
            let threads = driver::check_threads(args.threads)?;
            let pool = driver::pool(threads)?;
            let seed = args.seed.unwrap_or(args::AUDIT_SEED);
            let memo_mib = args.memo_mib.unwrap_or(args::MEMO_MIB);
            pool.install(|| {
                crate::cli::first_plan::audit(&args.dir, &opened, fraction, seed, memo_mib)
            })?;
        }
        return crate::cli::first_plan::merge(&args.dir, &opened, args.json, output);
    }
    if let Some(file) = crate::cli::phased_plan::open(&args.dir)? {
        if args.output.is_some() || args.fill_from.is_some() {
            anyhow::bail!(
                "-o and --fill-from belong to exact plans: a phased plan merges into a table"
            );
        }
        if args.memo_mib.is_some() || args.max_memory.is_some() || args.audit_max_seconds.is_some()
        {
            anyhow::bail!(
                "--memo-mib, --max-memory and --audit-max-seconds belong to the audit of exact \
                 plans: a phased \
                 plan's audit walks its units again"
            );
        }
        if let Some(fraction) = args.audit {
            let threads = driver::check_threads(args.threads)?;
            let pool = driver::pool(threads)?;
            let seed = args.seed.unwrap_or(args::AUDIT_SEED);
            pool.install(|| crate::cli::phased_plan::audit(&args.dir, &file, fraction, seed))?;
        }
        return crate::cli::phased_plan::merge(&args.dir, &file, args.json);
    }
    let folder = Folder::open(&args.dir)?;
    let mut output = args.output.as_deref().map(Output::create).transpose()?;
    if let Some(fraction) = args.audit {
        let threads = driver::check_threads(args.threads)?;
        let pool = driver::pool(threads)?;
        let memo_mib = args.memo_mib.unwrap_or(args::MEMO_MIB);
        let in_flight = threads.min(folder.plan.units.len());
        checkpoint::fit_memory(&folder, memo_mib, threads, in_flight, args.max_memory)?;
        let seed = args.seed.unwrap_or(args::AUDIT_SEED);
        let say = |line: String| crate::exit::say(&line);
        pool.install(|| {
            checkpoint::audit(
                &folder,
                fraction,
                seed,
                memo_mib,
                args.audit_max_seconds.map(|d| d.as_secs_f64()),
                &say,
            )
        })?;
    }
    if let Some(path) = &args.fill_from {
        return fill_from(&folder, path, &args.graft, output, args.json);
    }
    match checkpoint::merge(&folder, &mut output)? {
        Merged::Done(report) => report.print(args.json),
        Merged::Rerun(units) => bail!(
            "the units only proved bounds, and the optimum is above the plan's upper bound: \
             plan.json is now generation {}; rerun {} unit(s) with their new cut-offs ({}), \
             e.g. optimoo work {} --all, then merge again",
            folder.file.generation + 1,
            units.len(),
            units
                .iter()
                .map(|(i, c)| format!("unit {i} cut-off {}", show_cost(folder.objective, *c)))
                .collect::<Vec<_>>()
                .join(", "),
            args.dir.display()
        ),
    }
}

/// `merge --fill-from TREE`: the tree improved by the exact units, printed
/// (and written with -o).
fn fill_from(
    folder: &Folder,
    path: &std::path::Path,
    subtrees: &[PathBuf],
    output: Option<Output>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let g = checkpoint::graft(folder, path, subtrees)?;
    let game = &folder.game;
    if let Some(out) = output {
        let bytes = if out.path().extension().is_some_and(|e| e == "json") {
            serde_json::to_string(&g.tree.to_json(game))?.into_bytes()
        } else {
            TreeFile::new(game, g.tree.clone(), folder.objective, folder.file.cap)?
                .with_bound(g.bound.clone())?
                .to_bytes(game)?
        };
        let path = out.path().to_path_buf();
        out.commit(&bytes)?;
        crate::cli::output::wrote(&path);
    }
    let n = game.len() as f64;
    if json {
        let grafts: Vec<_> = g
            .grafts
            .iter()
            .map(|x| {
                serde_json::json!({
                    "unit": x.unit, "answer": x.answer, "before": x.before, "after": x.after,
                })
            })
            .collect();
        let subtrees: Vec<_> = g
            .subtrees
            .iter()
            .map(|x| {
                serde_json::json!({
                    "file": x.file.display().to_string(),
                    "path": checkpoint::show_path(game, &x.path),
                    "before": x.before, "after": x.after, "taken": x.taken,
                    "memo_exact_unit": x.memo,
                })
            })
            .collect();
        let line = serde_json::json!({
            "game": folder.file.game,
            "from": g.from,
            "total": g.total,
            "average": g.total as f64 / n,
            "grafts": grafts,
            "subtrees": subtrees,
            "lower": g.bound.lower,
            "optimal": g.bound.lower == Some(g.total),
            "exact_classes": g.bound.exact.iter()
                .filter(|p| p.len() == 1)
                .map(|p| game.format_feedback(p[0]))
                .collect::<Vec<_>>(),
            "exact_subtrees": g.bound.exact.iter()
                .filter(|p| p.len() > 1)
                .map(|p| p.iter().map(|&f| game.format_feedback(f)).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>(),
        });
        println!("{line}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "from       {}: {} ({:.4})",
        path.display(),
        g.from,
        g.from as f64 / n
    );
    if g.grafts.is_empty() {
        println!("grafted    nothing: no exact unit of the plan beats the tree on its class");
    }
    for x in &g.grafts {
        println!(
            "grafted    unit {} ({}): {} -> {}",
            x.unit, x.answer, x.before, x.after
        );
    }
    for x in &g.subtrees {
        let at = checkpoint::show_path(game, &x.path);
        if x.taken {
            println!(
                "grafted    {} at {at}: {} -> {}",
                x.file.display(),
                x.before,
                x.after
            );
        } else {
            println!(
                "kept       the tree at {at}: {} (not above {}, {}'s)",
                x.before,
                x.after,
                x.file.display()
            );
        }
    }
    println!(
        "tree       {} ({:.4}), replayed over every secret{}",
        g.total,
        g.total as f64 / n,
        if g.grafts.is_empty() && !g.subtrees.iter().any(|x| x.taken) {
            ""
        } else {
            "; an upper bound, not a proof of optimality"
        }
    );
    let exact: Vec<String> = g
        .bound
        .exact
        .iter()
        .filter(|p| p.len() == 1)
        .map(|p| game.format_feedback(p[0]))
        .collect();
    let deeper: Vec<String> = g
        .bound
        .exact
        .iter()
        .filter(|p| p.len() > 1)
        .map(|p| {
            p.iter()
                .map(|&f| game.format_feedback(f))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    match g.bound.lower {
        Some(l) if l == g.total => println!(
            "proved     optimal: the plan's lower bound is the tree's total (written as the optimum)"
        ),
        lower => println!(
            "proved     an upper bound (the file says so): lower bound {}; {} of the first \
             guess's classes exact{}",
            lower.map_or("none".into(), |l| format!("{l} ({:.4})", l as f64 / n)),
            exact.len(),
            if exact.is_empty() {
                String::new()
            } else {
                format!(" ({})", exact.join(" "))
            }
        ),
    }
    for (x, unit) in g.subtrees.iter().filter_map(|x| x.memo.map(|u| (x, u))) {
        println!(
            "proved     exact at {}: {}, the set's cost unit {unit}'s kept memo holds",
            checkpoint::show_path(game, &x.path),
            x.after.min(x.before),
        );
    }
    if !deeper.is_empty() {
        println!(
            "proved     exact deeper (the --graft files, kept memos, the tree read): {}",
            deeper.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
