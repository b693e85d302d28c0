//! `solve --checkpoint DIR`: plan, work and merge in one command on this
//! machine, resumable: killed and run again, it loses at most the units in
//! flight.

use std::path::Path;

use anyhow::bail;

use optimoo::model::Objective;
use optimoo::model::Rules;

use super::{ensure, merge, work, Folder, Limits, Merged};
use crate::cli::output::Output;
use crate::cli::report::SolveReport;
use crate::driver;

/// `solve --checkpoint DIR`: plan (or reuse the plan there), solve every
/// missing unit on this machine, merge; again after a new generation.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    dir: &Path,
    rules: Rules,
    cap: Option<usize>,
    objective: Objective,
    threads: usize,
    memo_mib: usize,
    verbose: bool,
    mut output: Option<Output>,
) -> anyhow::Result<SolveReport> {
    let pool = driver::pool(threads)?;
    pool.install(|| {
        let mut folder = ensure(dir, rules, cap, objective, None, 1)?;
        let say = |line: String| {
            if verbose {
                crate::exit::say(&line);
            }
        };
        // Each generation raises the upper bound to a real tree's cost,
        // then drops it: at most three rounds.
        for _ in 0..3 {
            let all: Vec<usize> = (0..folder.plan.units.len()).collect();
            work(&folder, &all, memo_mib, false, Limits::default(), &say)?;
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
