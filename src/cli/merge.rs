//! `optimoo merge`: assemble the optimal tree from a plan's unit files,
//! report it as `solve` does, and write it; and `solve --checkpoint`
//! (plan, work, merge in one command, resumable).
//!
//! Invariant: the tree written is the one `solve` writes for the same
//! game, cap and objective (the first optimal first guess in the search's
//! order, each class's subtree as the search builds it); it is replayed
//! against every secret before it is written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use optimoo::model::rules::Rules;
use optimoo::search::bound::INF;
use optimoo::search::plan::{self, Decision, Known};
use optimoo::search::{MinCap, Solution};
use optimoo::tree::format::{Objective, TreeFile};
use optimoo::tree::Tree;

use super::checkpoint::{plan_id, show_cost, Folder, Totals};
use super::output::Output;
use super::report::SolveReport;
use crate::driver;

/// Assemble the optimal tree from a plan's units; report it as solve does.
///
/// Checks that every unit file is present, valid and of this plan (names
/// the missing and bad ones), picks the optimal first guess and writes the
/// tree (-o) that `optimoo verify` accepts. When a unit only proved a bound
/// and the assembly needs its exact cost (an --upper below the optimum),
/// it raises the plan's upper bound (a new generation of plan.json; every
/// unit file stays valid) and names the units to rerun with their
/// cut-offs.
#[derive(Debug, clap::Args)]
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
    /// file differs (value, exactness or subtree). The folder's hashes only
    /// catch accidents (anyone can recompute them): --audit 1 is the check
    /// that trusts no unit file. Which units were re-solved is said on
    /// stderr.
    #[arg(long, value_name = "FRACTION", value_parser = super::audit::parse_fraction)]
    pub audit: Option<f64>,
    /// The seed that draws the audit's sample (the same seed, the same
    /// units) [default: 1]
    #[arg(long, value_name = "N", requires = "audit")]
    pub seed: Option<u64>,
    /// Worker threads of the audit (default: all cores).
    #[arg(long, requires = "audit")]
    pub threads: Option<usize>,
    /// Memory for each audited unit's memo in MiB, as `work --memo-mib`
    /// [default: 256]
    #[arg(long, requires = "audit")]
    pub memo_mib: Option<usize>,
    /// Refuse to audit when the estimated memory is above SIZE, as `work
    /// --max-memory` [default: the memory available]
    #[arg(long, value_name = "SIZE", value_parser = super::memory::parse_size, requires = "audit")]
    pub max_memory: Option<u64>,
}

/// What a merge came to.
pub enum Merged {
    /// The optimal tree (or the proof that the cap cannot be met).
    Done(Box<SolveReport>),
    /// A new generation was written: these units (index, cut-off) must run.
    Rerun(Vec<(usize, u64)>),
}

/// Runs `optimoo merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let folder = Folder::open(&args.dir)?;
    let mut output = args.output.as_deref().map(Output::create).transpose()?;
    if let Some(fraction) = args.audit {
        let threads = driver::check_threads(args.threads)?;
        let pool = driver::pool(threads)?;
        let memo_mib = args.memo_mib.unwrap_or(256);
        let in_flight = threads.min(folder.plan.units.len());
        super::work::fit_memory(&folder, memo_mib, threads, in_flight, args.max_memory)?;
        let seed = args.seed.unwrap_or(super::audit::DEFAULT_SEED);
        let say = |line: String| crate::exit::say(&line);
        pool.install(|| super::audit::audit(&folder, fraction, seed, memo_mib, &say))?;
    }
    match merge(&folder, &mut output)? {
        Merged::Done(report) => print(&report, args.json),
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

/// Prints a report as `solve` does; its exit code.
pub fn print(report: &SolveReport, json: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", report.json())?;
    } else {
        write!(out, "{report}")?;
    }
    out.flush()?;
    Ok(report.exit_code())
}

/// Assembles the tree, or writes the next generation of the plan.
pub fn merge(folder: &Folder, output: &mut Option<Output>) -> anyhow::Result<Merged> {
    let known = folder.known()?;
    let missing: Vec<String> = known
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == Known::Missing)
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
                &plan::bounds(game, super::checkpoint::cost_of(folder.objective)),
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
                out.commit(&bytes)?;
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

/// `solve --checkpoint DIR`: plan (or reuse the plan there), solve every
/// missing unit on this machine, merge; again after a new generation.
#[allow(clippy::too_many_arguments)]
pub fn solve_checkpoint(
    dir: &Path,
    game: Option<Rules>,
    cap: Option<usize>,
    objective: Objective,
    threads: usize,
    memo_mib: usize,
    verbose: bool,
    mut output: Option<Output>,
) -> anyhow::Result<SolveReport> {
    let pool = driver::pool(threads)?;
    pool.install(|| {
        let mut folder = super::plan::ensure(dir, game, cap, objective, None, 1)?;
        let say = |line: String| {
            if verbose {
                crate::exit::say(&line);
            }
        };
        // Each generation raises the upper bound to a real tree's cost,
        // then drops it: at most three rounds.
        for _ in 0..3 {
            let all: Vec<usize> = (0..folder.plan.units.len()).collect();
            super::work::work(&folder, &all, memo_mib, false, &say)?;
            match merge(&folder, &mut output)? {
                Merged::Done(report) => return Ok(*report),
                Merged::Rerun(_) => folder = Folder::open(dir)?,
            }
        }
        bail!(
            "the units of {} do not decide: a unit file is wrong",
            dir.display()
        )
    })
}
