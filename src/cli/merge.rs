//! `optimoo merge`: assemble the optimal tree from a plan's unit files,
//! report it as `solve` does, and write it (the tree is assembled, and the
//! units audited, in [`super::checkpoint`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::args;
use super::checkpoint::{self, show_cost, Folder, Merged};
use super::output::Output;
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
    #[arg(long, value_name = "FRACTION", value_parser = args::parse_fraction)]
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
    #[arg(long, value_name = "SIZE", value_parser = args::parse_size, requires = "audit")]
    pub max_memory: Option<u64>,
}

/// Runs `optimoo merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(file) = super::phased_plan::open(&args.dir)? {
        if args.output.is_some() || args.audit.is_some() {
            anyhow::bail!(
                "-o and --audit belong to exact plans: a phased plan merges into a table"
            );
        }
        return super::phased_plan::merge(&args.dir, &file, args.json);
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
        pool.install(|| checkpoint::audit(&folder, fraction, seed, memo_mib, &say))?;
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
