//! `optimoo improve`: anytime upper bounds for games the exact search
//! cannot finish: the improve strategy (exact on small sets, the best
//! few guesses above; `search::Improve`) with a growing width, each tree
//! better than the incumbent written as it is found.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::Serialize;

use optimoo::model::{Game, Objective, Rules};
use optimoo::search::{self, Config, Driver};
use optimoo::tree::format::TreeFile;

use crate::cli::output::Output;
use crate::driver::{self, progress::Terminal, Rayon};

/// Better trees where the optimum is out of reach, written as found.
///
/// Better trees for a game whose optimum is out of reach: exact on every
/// set of at most --exact-below secrets; on a larger set only the --width
/// most promising guesses are tried (one per orbit under the position's
/// symmetry, ranked like the entropy heuristic), each followed by the same
/// strategy. Widths --min-width, ... up to --max-width are run in turn (a
/// wider pass is never worse); every tree better than the best so far (and
/// than --from TREE) is written to -o at once, so the file always holds the
/// best tree found. Each pass is a branch and bound under the best total
/// so far: a guess is dropped as soon as it cannot beat it. With --from,
/// the incumbent's first guess is kept and each of its classes is improved
/// on its own, smallest first, the tree written after each class that got
/// better (a long pass gives its gains as they come). Stops at
/// --time-budget.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::IMPROVE)]
pub struct Args {
    /// The game (default: moo:5x10, or the --from tree's).
    #[arg(long)]
    pub game: Option<Rules>,
    /// The incumbent: only trees with fewer guesses in all are written.
    #[arg(long, value_name = "TREE")]
    pub from: Option<PathBuf>,
    /// Where the best tree goes (rewritten at each improvement).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Sets of at most N secrets are solved exactly.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub exact_below: usize,
    /// The narrowest pass (guesses tried per large set); a higher value
    /// skips the passes an incumbent from --from has already beaten.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub min_width: usize,
    /// The widest pass (guesses tried per large set).
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub max_width: usize,
    /// Stop after S seconds (decimals allowed); the file holds the best
    /// tree found by then.
    #[arg(long, value_name = "S", value_parser = crate::cli::args::parse_seconds)]
    pub time_budget: Option<Duration>,
    /// Worker threads (default: all cores; the trees do not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object at the end instead of the summary.
    #[arg(long)]
    pub json: bool,
}

/// What `improve --json` prints.
#[derive(Debug, Serialize)]
struct Report {
    game: String,
    /// The best total written (null: nothing beat the incumbent).
    total: Option<u64>,
    average: Option<f64>,
    /// The incumbent's total, if --from.
    from_total: Option<u64>,
    /// Passes finished, and the width of the best tree.
    passes: usize,
    width: Option<usize>,
    exact_below: usize,
    tree: String,
    seconds: f64,
}

/// Runs `optimoo improve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let incumbent = match &args.from {
        Some(path) => Some(
            TreeFile::read(path, args.game)
                .with_context(|| format!("cannot read the incumbent {}", path.display()))?,
        ),
        None => None,
    };
    let rules = match (&incumbent, args.game) {
        (Some(file), _) => file.header.rules,
        (None, Some(rules)) => rules,
        (None, None) => "moo:5x10".parse().expect("a game"),
    };
    if incumbent
        .as_ref()
        .is_some_and(|f| f.header.secrets.is_some())
    {
        bail!("improve plays every code of a game, not a secret list");
    }
    if args.min_width == 0 || args.max_width < args.min_width {
        bail!(
            "the widths run from --min-width to --max-width: need 1 <= {} <= {}",
            args.min_width,
            args.max_width
        );
    }
    let game = Game::new(rules);
    let output = Output::create(&args.output)?;
    drop(output);
    let threads = driver::check_threads(args.threads)?;
    let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
    let pool = driver::pool(threads)?;
    let observer = Terminal::new(false, false);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    let start = Instant::now();
    let deadline = args.time_budget.map(|b| start + b);
    let from_total = incumbent.as_ref().map(|f| f.header.stats.total);
    let mut best: Option<(u64, usize)> = None;
    let mut failed: Option<anyhow::Error> = None;
    let widths: Vec<usize> = (args.min_width..=args.max_width).collect();
    let n = game.secret_count() as f64;
    let passes = pool.install(|| {
        search::improve(
            &game,
            base.clone(),
            args.exact_below,
            &widths,
            incumbent.as_ref().map(|f| &f.tree),
            deadline,
            driver,
            &mut |total, tree, width| {
                crate::exit::say(&format!(
                    "width {width}: {total} guesses in all ({:.4} on average), {:.1} s",
                    total as f64 / n,
                    start.elapsed().as_secs_f64()
                ));
                if from_total.is_some_and(|f| total >= f) || failed.is_some() {
                    return;
                }
                let written = TreeFile::new(&game, tree.clone(), Objective::Heuristic, None)
                    .and_then(|f| f.to_bytes(&game))
                    .map_err(anyhow::Error::from)
                    .and_then(|bytes| Output::create(&args.output)?.commit(&bytes));
                match written {
                    Ok(()) => {
                        crate::cli::output::wrote(&args.output);
                        best = Some((total, width));
                    }
                    Err(e) => failed = Some(e),
                }
            },
        )
    })?;
    if let Some(e) = failed {
        return Err(e.context(format!("cannot write {}", args.output.display())));
    }
    let seconds = start.elapsed().as_secs_f64();
    let report = Report {
        game: game.name(),
        total: best.map(|b| b.0),
        average: best.map(|b| b.0 as f64 / n),
        from_total,
        passes,
        width: best.map(|b| b.1),
        exact_below: args.exact_below,
        tree: args.output.display().to_string(),
        seconds,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        match best {
            Some((total, width)) => writeln!(
                out,
                "{}: {total} guesses in all ({:.4} on average), width {width}, written to {}",
                report.game,
                total as f64 / n,
                report.tree
            )?,
            None => writeln!(
                out,
                "{}: nothing better than the incumbent ({}) in {seconds:.1} s",
                report.game,
                from_total.map_or("none".into(), |t| t.to_string())
            )?,
        }
        writeln!(
            out,
            "passes     {passes} of {} finished, {seconds:.1} s",
            widths.len()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
