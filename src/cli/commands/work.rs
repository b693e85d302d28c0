//! `optimoo work`: solve one unit of a plan (`--unit I`, or the index a
//! Slurm job array or a Kubernetes Indexed Job gives), or every missing one
//! (`--all`), and write `DIR/units/I.json` (the units are solved in
//! [`crate::cli::checkpoint`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context};

use crate::cli::args;
use crate::cli::checkpoint::{self, Folder};
use crate::driver;

/// The environment variables that carry a task index, in the order read.
pub const INDEX_VARS: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// Solve work units of a plan and write DIR/units/I.json.
///
/// Without --unit and --all the unit index is read from
/// SLURM_ARRAY_TASK_ID (a Slurm job array) or JOB_COMPLETION_INDEX (a
/// Kubernetes Indexed Job), so one command line serves every task. A unit
/// already done is not solved again; a file written meanwhile by another
/// worker is compared, never overwritten.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::WORK)]
pub struct Args {
    /// The checkpoint folder made by `optimoo plan`.
    pub dir: PathBuf,
    /// The unit to solve (0-based).
    #[arg(long, conflicts_with = "all")]
    pub unit: Option<usize>,
    /// Solve every missing unit on this machine, with all its cores.
    #[arg(long)]
    pub all: bool,
    /// With --all: only the units of at most N secrets (the small ones
    /// first, when the large ones would not finish on this machine).
    #[arg(long, value_name = "N", requires = "all")]
    pub max_secrets: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory for each unit's memo in MiB (with --all, per unit in flight).
    #[arg(long, default_value_t = args::MEMO_MIB)]
    pub memo_mib: usize,
    /// Refuse to start when the estimated memory (stated on stderr: the
    /// feedback table N² bytes, a memo per unit in flight, the rest) is
    /// above SIZE, as `solve --max-memory` does (e.g. 8G, 512M)
    /// [default: the memory available]
    #[arg(long, value_name = "SIZE", value_parser = args::parse_size)]
    pub max_memory: Option<u64>,
    /// Print a JSON line per unit solved instead of text.
    #[arg(long)]
    pub json: bool,
    /// Stop each unit after SECONDS: a unit of a whole class is then
    /// solved best-first over its second guesses, and one not finished in
    /// time writes the best lower bound it proved (marked stopped; `status`
    /// adds it up, and the unit runs again next time). Where the run
    /// stands is kept in DIR/progress/I.json (at most once a minute, and
    /// when it stops): the next run goes on from there. Ctrl-C (or
    /// SIGTERM) stops the run the same way at once, keeping all that;
    /// a second Ctrl-C quits without. Average objective.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<std::time::Duration>,
    /// Prove each unit's lower bound three guesses down and stop there,
    /// solving no class exactly: the least, over the class's second
    /// guesses, of their bound with each of their classes bounded two
    /// levels down (docs/search.md, "Lower bounds"). Written as a stopped
    /// unit that `status` adds up (and that `work` without this flag
    /// finishes later); far cheaper than the exact cost on large units,
    /// and the same value whatever the threads. With --time-limit, the
    /// bound reached by then, kept with where the run stands in
    /// DIR/progress/I.json: the next run (with or without this flag) goes
    /// on from there. Units of a whole class (a plan of depth 1), average
    /// objective.
    #[arg(long)]
    pub bound_only: bool,
    /// With --bound-only: bound each unit K guesses down instead of three
    /// (each class of each second guess raised K − 1 levels), 3 to 9.
    /// Each level costs about the set's guesses times its classes more
    /// than the last: four levels are for units that three levels leave
    /// far from their best tree's value. Resumes from a shallower run's
    /// progress; the value does not depend on the threads either.
    #[arg(long, value_name = "K", requires = "bound_only", default_value_t = 3,
          value_parser = clap::value_parser!(u8).range(3..=9))]
    pub levels: u8,
    /// A tree of the plan's game (every code, within its cap; e.g. one of
    /// `optimoo improve`), replayed over every secret first: each unit
    /// whose path it takes is solved under the tree's cost on the unit
    /// plus one instead of the plan's cut-off, when that is lower. The
    /// unit's exact cost is at most the tree's, so the result is the same
    /// exact cost; but every second guess and class is refuted against
    /// that cost rather than solved, far cheaper on large units. A unit's
    /// progress (DIR/progress/) is kept under the cut-off it ran under: a
    /// later run under a higher one (without this flag) raises its bounds
    /// again. Average objective.
    #[arg(long, value_name = "FILE")]
    pub upper_tree: Option<PathBuf>,
    /// With --time-limit or --bound-only: print each step of the
    /// best-first run on stderr, one line of `key=value` fields (the
    /// second guess, what was done to which class, the bounds before and
    /// after, the unit's proven bound, nodes, memo lookups and hits,
    /// guesses answered by their kept bounds, seconds), a `begin` line
    /// as each class search starts (its guess, class size, bound and
    /// cut-off: a search may outlast the run), and with
    /// --keep-memo a `memo` line each time DIR/memo/I.bin is written (its
    /// facts, the refuted guesses of large sets among them), for
    /// measurements (scripts/bench-anytime.sh).
    #[arg(long)]
    pub trace: bool,
    /// With --time-limit or --bound-only: keep what the unit's memo
    /// learned about sets of at least MIN secrets (their exact costs and
    /// proven bounds) in DIR/memo/I.bin, written as the run goes
    /// (--keep-memo-every) and when it stops, and take it up when the
    /// unit runs again: a run stopped inside a long class search goes on
    /// from what that search had settled, instead of starting the class
    /// again. What a run took up is written again with what it learned,
    /// so the file only gains from run to run (up to --keep-memo-max).
    /// The file is removed when the unit is done. 0: nothing kept,
    /// nothing read. Units of a whole class.
    #[arg(long, value_name = "MIN", default_value_t = 64)]
    pub keep_memo: usize,
    /// With --keep-memo: write DIR/memo/I.bin at most every SECONDS while
    /// the unit runs (the search waits while it is written: about a
    /// second a GiB of memo).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds,
          default_value = "300")]
    pub keep_memo_every: std::time::Duration,
    /// With --keep-memo: at most SIZE bytes in DIR/memo/I.bin (e.g. 64M,
    /// 1G), the facts about the largest sets first (the dearest to find
    /// again).
    #[arg(long, value_name = "SIZE", value_parser = args::parse_size,
          default_value = "256M")]
    pub keep_memo_max: u64,
    /// With --time-limit: a best-first unit searches its least second
    /// guess's smallest open class under the cut-off that lifts the guess
    /// just past the next least, plus 1/N of the class's bound. A smaller
    /// N asks more of each search (fewer searches of the same class, each
    /// longer). Every step proves only true bounds: N changes the speed
    /// and where a stopped run stands, never a value.
    #[arg(long, value_name = "N", default_value_t = 128,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub chase_step: u64,
    /// With --time-limit: once every open class of the least second
    /// guess has at least N secrets, the chase estimates each one's cost
    /// from above (a tree by the entropy ranking, exact on sets of up to
    /// 32 secrets: about a second a class of 1,800) and searches the one
    /// with the most room over its bound for the size of its search;
    /// below N, the smallest open class first. A search costs far more
    /// near a class's cost than far below it. 0 and 1 estimate every
    /// choice; a huge N keeps the smallest first. Every choice proves only
    /// true bounds: N changes the speed, never a value.
    #[arg(long, value_name = "N", default_value_t = optimoo::search::plan::ESTIMATE_MIN)]
    pub chase_estimate_min: usize,
    /// A set of at least MIN secrets searched under a cut-off keeps, for
    /// each guess it refutes, the bound proven for that guess (in the
    /// memo, and with --keep-memo in DIR/memo/I.bin): searched again,
    /// under a higher cut-off or by a later run after a stop, it
    /// evaluates only the guesses whose kept bound is below its cut-off.
    /// A chase step on a large class that a stop cuts short is then not
    /// lost. 0: none kept. Changes the speed, never a value.
    #[arg(long, value_name = "MIN", default_value_t = optimoo::search::GUESS_MEMO_MIN)]
    pub keep_guesses: usize,
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(std::time::Duration::from_secs_f64(s)),
        _ => Err(format!(
            "{text:?}: give a number of seconds above 0, e.g. 600"
        )),
    }
}

/// Runs `optimoo work`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(opened) = crate::cli::first_plan::open(&args.dir)? {
        if args.max_secrets.is_some()
            || args.time_limit.is_some()
            || args.bound_only
            || args.upper_tree.is_some()
            || args.trace
        {
            bail!(
                "--max-secrets, --time-limit, --bound-only, --upper-tree and --trace are for \
                 plans of the exact search, not of first guesses"
            );
        }
        let units: Vec<usize> = if args.all {
            (0..opened.file.units).collect()
        } else {
            vec![index(args.unit, opened.file.units, &args.dir)?]
        };
        let threads = driver::check_threads(args.threads)?;
        let pool = driver::pool(threads)?;
        return pool.install(|| {
            crate::cli::first_plan::work(
                &args.dir,
                &opened,
                &units,
                threads,
                args.memo_mib,
                args.max_memory,
                args.json,
            )
        });
    }
    if let Some(file) = crate::cli::phased_plan::open(&args.dir)? {
        if args.max_secrets.is_some()
            || args.time_limit.is_some()
            || args.bound_only
            || args.upper_tree.is_some()
        {
            bail!("--max-secrets, --time-limit, --bound-only and --upper-tree are for plans of the exact search, not of the phased strategy");
        }
        let units: Vec<usize> = if args.all {
            (0..file.units.len()).collect()
        } else {
            vec![index(args.unit, file.units.len(), &args.dir)?]
        };
        let threads = driver::check_threads(args.threads)?;
        let pool = driver::pool(threads)?;
        return pool.install(|| crate::cli::phased_plan::work(&args.dir, &file, &units, args.json));
    }
    let folder = Folder::open(&args.dir)?;
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    let units: Vec<usize> = if args.all {
        let most = args.max_secrets.unwrap_or(usize::MAX);
        (0..folder.plan.units.len())
            .filter(|&i| folder.plan.units[i].secrets <= most)
            .collect()
    } else {
        vec![index(args.unit, folder.plan.units.len(), &args.dir)?]
    };
    if units.is_empty() && args.max_secrets.is_some() && !folder.plan.units.is_empty() {
        bail!(
            "no unit has at most {} secrets: the smallest has {}",
            args.max_secrets.unwrap_or(0),
            folder
                .plan
                .units
                .iter()
                .map(|u| u.secrets)
                .min()
                .unwrap_or(0)
        );
    }
    if args.bound_only {
        if folder.objective != optimoo::model::Objective::Average {
            bail!(
                "--bound-only bounds units of the average objective; this plan's is {:?}",
                folder.objective
            );
        }
        if let Some(&i) = units
            .iter()
            .find(|&&i| folder.plan.units[i].second.is_some())
        {
            bail!(
                "--bound-only bounds units of a whole class; unit {i} is one second guess \
                 of a class (a plan of depth 2): solve it with `work` alone"
            );
        }
    }
    let tree = match &args.upper_tree {
        Some(path) => {
            let t = checkpoint::upper_tree(&folder, path, true)?;
            for &i in &units {
                if t.units[i].is_none() && !args.all {
                    eprintln!(
                        "note: {} does not take unit {i}'s path: the plan's cut-off",
                        path.display()
                    );
                }
            }
            Some(t.units)
        }
        None => None,
    };
    let in_flight = if args.all {
        threads.min(units.len())
    } else {
        1
    };
    checkpoint::fit_memory(&folder, args.memo_mib, threads, in_flight, args.max_memory)?;
    let report = |line: String| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
    };
    // Only a run that keeps its work part way can stop early and keep it.
    let interrupt = (args.time_limit.is_some() || args.bound_only)
        .then(stop_on_signal)
        .flatten();
    let done = pool.install(|| {
        checkpoint::work(
            &folder,
            &units,
            args.memo_mib,
            args.json,
            checkpoint::Limits {
                time_limit: args.time_limit,
                bound_only: args.bound_only.then_some(args.levels),
                tree: tree.as_deref(),
                trace: args.trace,
                keep_memo: (args.keep_memo > 0).then_some(checkpoint::KeepMemo {
                    min_secrets: args.keep_memo,
                    every: args.keep_memo_every,
                    max_bytes: args.keep_memo_max,
                }),
                chase_step: Some(args.chase_step),
                estimate_min: Some(args.chase_estimate_min),
                keep_guesses: Some(args.keep_guesses),
                interrupt,
            },
            &report,
        )
    })?;
    if interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
        let left = match done.left {
            0 => String::new(),
            n => format!("; {n} units not started"),
        };
        eprintln!(
            "interrupted: what each unit proved is kept (its file, DIR/progress/, DIR/memo/){left}; \
             the same command goes on from there"
        );
        // 128 + SIGINT, as a shell reports a run ended by Ctrl-C: a script
        // looping over legs sees it was stopped, not finished.
        return Ok(ExitCode::from(130));
    }
    if args.all {
        let theirs = if done.theirs > 0 {
            format!(
                "; {} more {} here but written first by another worker",
                done.theirs,
                if args.bound_only { "bounded" } else { "solved" }
            )
        } else {
            String::new()
        };
        report(format!(
            "{} of {} units {} now{theirs}; the others were done already",
            done.written,
            units.len(),
            if args.bound_only { "bounded" } else { "solved" }
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// Set by the first Ctrl-C or SIGTERM (and SIGHUP); the second quits at once.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handler that sets [`STOP`]: the flag, or `None` (with a
/// note) where no handler can be installed, and the signals keep their
/// default action.
fn stop_on_signal() -> Option<&'static AtomicBool> {
    let handler = || {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("interrupted again: quitting; the step running is lost");
            std::process::exit(130);
        }
        eprintln!(
            "stopping: keeping the bound, progress and memo proven so far \
             (Ctrl-C again quits at once, losing the step running)"
        );
    };
    match ctrlc::set_handler(handler) {
        Ok(()) => Some(&STOP),
        Err(e) => {
            eprintln!("note: Ctrl-C will end the run without keeping its last step ({e})");
            None
        }
    }
}

/// The unit index: `--unit`, else the first index variable set.
fn index(unit: Option<usize>, total: usize, dir: &Path) -> anyhow::Result<usize> {
    let i = match unit {
        Some(i) => i,
        None => {
            let Some((name, value)) = INDEX_VARS
                .iter()
                .find_map(|v| std::env::var(v).ok().map(|x| (*v, x)))
            else {
                bail!(
                    "which unit? give --unit I (0 … {}) or --all, or run as a Slurm job \
                     array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)",
                    total.saturating_sub(1)
                );
            };
            value
                .trim()
                .parse()
                .with_context(|| format!("{name}={value:?} is not a unit index"))?
        }
    };
    if i >= total {
        bail!(
            "unit {i} does not exist: the plan in {} has {total} units (0 … {})",
            dir.display(),
            total.saturating_sub(1)
        );
    }
    Ok(i)
}
