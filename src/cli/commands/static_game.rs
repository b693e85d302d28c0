//! `optimoo static`: the static game (every guess asked at once, the
//! answers alone determine the secret): a smallest set of guesses, proven
//! minimal by exhaustive search, or proven bounds when a budget stops it.
//! Exit codes (README): 0 a result (exact or bounded), 2 an error.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use serde::Serialize;

use optimoo::model::Rules;
use optimoo::static_game::check::StaticFile;
use optimoo::static_game::search::{
    self as static_set, StaticConfig, StaticProgress, StaticSolution,
};

use crate::cli::output::Output;
use crate::cli::static_journal::{Journal, SizeTotals};
use crate::driver::{self, Rayon};

/// The static game: a smallest set of guesses asked all at once.
///
/// Find a smallest set of guesses that, asked all at once, determines the
/// secret, and prove that no smaller set does.
///
/// The size counts the questions; `with_final` counts the guesses needed
/// to win in the worst case when the secret must then be named by one more
/// guess (docs/static.md).
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::STATIC)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed)
    /// [default: moo:4x10, or with --alphabet the words' game]
    #[arg(long)]
    pub game: Option<Rules>,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Search sets of at most N guesses exhaustively; above, only the
    /// bounds are reported (exact false).
    #[arg(long, value_name = "N")]
    pub max_size: Option<usize>,
    /// Search sets of at least T guesses exhaustively (default: from the
    /// counting bound). A size refuted refutes every smaller one (a
    /// separating set with any guesses added still separates), so the
    /// bounds stay proven; a set found is proven minimal only when the
    /// sizes below it are refuted.
    #[arg(long, value_name = "T")]
    pub from_size: Option<usize>,
    /// Search each size's sets in reverse order: the largest second
    /// guesses first, which with the least-pair cut are the sets whose
    /// guesses are pairwise farthest apart (docs/static.md, "Symmetry").
    /// Finds a set sooner when one exists; a refutation takes as long. The
    /// set found may differ from the default order's.
    #[arg(long)]
    pub far_first: bool,
    /// Stop after S seconds (decimals allowed, above 0) with proven bounds
    /// (exact false, lower and upper); the run ends within a fraction of a
    /// second of it, after the feedback table and the first greedy set.
    #[arg(long, value_name = "S", value_parser = crate::cli::args::parse_budget)]
    pub time_budget: Option<Duration>,
    /// Save the set to FILE (the static-set file of docs/static.md, read by
    /// `optimoo verify`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Iterations of the local search (tabu search) that looks for a
    /// separating set one guess smaller than the best known, per size
    /// tried (0: none; docs/static.md).
    #[arg(long, value_name = "N", default_value_t = static_set::DEFAULT_LOCAL_ITERATIONS)]
    pub local_iterations: u64,
    /// Seed of the local search's draws (the same seed gives the same set).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: all cores). The set does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Turn off the least-pair cut (docs/static.md, "Symmetry"): the plain
    /// search, slower, for comparison. The sizes proven are the same; the
    /// set found at the minimum may differ.
    #[arg(long)]
    pub no_least_pair: bool,
    /// Turn off the hardest-pair branching (docs/static.md, "The hardest
    /// pair"): below the first four guesses, take each next guess in code
    /// order, as before it; slower, for comparison. The sizes proven are
    /// the same; the set found may differ.
    #[arg(long)]
    pub no_hardest_pair: bool,
    /// Take the greedy set (under a second) as the upper bound and skip
    /// its improvement (completions, hill climbing and the local search:
    /// about 160 s on moo:4x10): for a leg of a long exhaustive search of
    /// sizes below the best known, e.g. with --from-size, --max-size and
    /// --checkpoint. The bounds proven are the same; only a smaller set
    /// the improvement would have found is not looked for.
    #[arg(long)]
    pub greedy_only: bool,
    /// Keep the tasks refuted in FILE, and skip those FILE already holds:
    /// a run stopped (budget, signal, power) resumes where it was, losing
    /// at most the last 30 seconds' tasks. FILE is created when missing;
    /// it must be of the same game and cut (docs/static.md, "Resuming").
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Search only shard I of N (I from 0 to N-1: the tasks whose index
    /// is I modulo N), to share one long search among machines: each runs
    /// a shard from its own copy of the --checkpoint file, and
    /// --merge-checkpoints gathers them. A size is refuted only once every
    /// task is, by this run or the checkpoint's earlier ones; a set found
    /// is a valid set (docs/static.md, "Shards").
    #[arg(long, value_name = "I/N", value_parser = crate::cli::args::parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Merge into the --checkpoint file the shards' checkpoints FILE...
    /// (each a copy of it, run further with --shard), then exit without
    /// searching: a task refuted in any is refuted, a task begun keeps its
    /// furthest point, and the nodes and seconds each shard added are
    /// summed. Merge the shards of one round at once: each must still hold
    /// every task the --checkpoint file holds refuted.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "checkpoint",
          conflicts_with_all = ["shard", "output"])]
    pub merge_checkpoints: Vec<PathBuf>,

    /// Cut each size into at least N tasks, when its first one to three
    /// guesses give as many: more tasks balance the threads and make the
    /// pieces a checkpoint keeps smaller (a checkpoint holds the tasks of
    /// one cut; another N is another task list). The sets searched are
    /// the same.
    #[arg(long, value_name = "N", default_value_t = static_set::DEFAULT_TASKS as u64,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub tasks: u64,
}

/// The JSON report (`--json`); the fields are the README's.
#[derive(Debug, Serialize)]
pub struct StaticReport {
    /// The game's name.
    pub game: String,
    /// Number of secrets.
    pub secrets: usize,
    /// Questions in the set found (minimal when `exact`).
    pub size: usize,
    /// The set, as written.
    pub guesses: Vec<String>,
    /// Whether `size` is proven minimal.
    pub exact: bool,
    /// Proven lower bound on the size.
    pub lower: usize,
    /// Proven upper bound on the size (the set found).
    pub upper: usize,
    /// Guesses to win in the worst case with a final naming guess:
    /// `min(size + 1, secrets)` (docs/static.md).
    pub with_final: usize,
    /// Proven lower bound on `with_final`.
    pub with_final_lower: usize,
    /// Search nodes.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Sizes below this are refuted by counting alone.
    pub counted: usize,
    /// Each size searched: size, found, complete, nodes, seconds.
    pub levels: Vec<LevelReport>,
    /// The size of the cheap heuristic's set, where the local search
    /// starts.
    pub heuristic: usize,
    /// Each size tried by the local search: size, found, iterations,
    /// pairs (fewest pairs of secrets left together), seconds.
    pub local: Vec<LocalReport>,
    /// With `--checkpoint`: each size the file holds, all runs summed
    /// (null without).
    pub checkpoint: Option<Vec<SizeTotals>>,
    /// With `--shard I/N`: `[I, N]` (null without).
    pub shard: Option<[usize; 2]>,
}

/// The JSON report of `--merge-checkpoints` (the README's fields).
#[derive(Debug, Serialize)]
pub struct MergeReport {
    /// How many shard files were merged.
    pub merged: usize,
    /// Each size the merged file holds, all runs summed.
    pub checkpoint: Vec<SizeTotals>,
}

/// One size tried by the local search.
#[derive(Debug, Serialize)]
pub struct LocalReport {
    /// The set size.
    pub size: usize,
    /// A separating set of this size was found.
    pub found: bool,
    /// Iterations done.
    pub iterations: u64,
    /// Fewest pairs of secrets left together by a set met (0: found).
    pub pairs: u64,
    /// Seconds.
    pub seconds: f64,
}

/// One size searched.
#[derive(Debug, Serialize)]
pub struct LevelReport {
    /// The set size.
    pub size: usize,
    /// Some set of this size separates.
    pub found: bool,
    /// Every set of this size was tried.
    pub complete: bool,
    /// Nodes at this size.
    pub nodes: u64,
    /// Seconds at this size.
    pub seconds: f64,
    /// Tasks of this size.
    pub tasks: usize,
    /// Tasks refuted by earlier runs (`--checkpoint`), skipped.
    pub resumed: usize,
}

/// Runs `optimoo static`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = args.list.game(args.game, Rules::standard())?;
    let threads = driver::check_threads(args.threads)?;
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let config = StaticConfig {
        max_size: args.max_size,
        time_budget: args.time_budget,
        local_iterations: args.local_iterations,
        seed: args.seed,
        least_pair: !args.no_least_pair,
        from_size: args.from_size,
        far_first: args.far_first,
        improve: !args.greedy_only,
        tasks: args.tasks as usize,
        hardest_pair: !args.no_hardest_pair,
        shard: args.shard,
    };
    let quiet = args.json;
    let progress = move |p: &StaticProgress| {
        if !quiet {
            crate::exit::say(&format!(
                "static: trying {} guesses: {} of {} tasks done, {} nodes, {:.1} s",
                p.size, p.tasks_done, p.tasks, p.nodes, p.seconds
            ));
        }
    };
    let journal = args
        .checkpoint
        .as_deref()
        .map(|path| Journal::open(path, &game, config.least_pair))
        .transpose()?;
    if let (Some(journal), false) = (&journal, args.merge_checkpoints.is_empty()) {
        journal.merge(&args.merge_checkpoints, &game)?;
        journal.save()?;
        let totals = journal.totals();
        let mut out = std::io::stdout().lock();
        if args.json {
            let report = MergeReport {
                merged: args.merge_checkpoints.len(),
                checkpoint: totals,
            };
            let text = serde_json::to_string(&report).expect("a report always serializes");
            writeln!(out, "{text}")?;
        } else {
            let n = args.merge_checkpoints.len();
            let into = args
                .checkpoint
                .as_deref()
                .expect("--merge-checkpoints requires it");
            let s = if n == 1 { "" } else { "s" };
            writeln!(
                out,
                "merged {n} shard checkpoint{s} into {}",
                into.display()
            )?;
            write!(out, "{}", checkpoint_lines(&totals))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let pool = driver::pool(threads)?;
    let solved = pool.install(|| match &journal {
        Some(j) => static_set::solve_static_resumed(&game, config, &Rayon, &progress, j),
        None => static_set::solve_static(&game, config, &Rayon, &progress),
    });
    if let Some(j) = &journal {
        // What was refuted is kept even when the search failed.
        j.save()?;
    }
    let solution = solved.with_context(|| format!("cannot search {}", game.name()))?;
    let mut report = report(&game, &solution);
    report.checkpoint = journal.map(|j| j.totals());
    report.shard = args.shard.map(|(i, n)| [i, n]);
    if let Some(out) = output {
        let file = StaticFile {
            rules: game.rules(),
            secrets: solution.secrets,
            exact: solution.exact,
            guesses: report.guesses.clone(),
        };
        let path = out.path().to_path_buf();
        out.commit(file.to_text().as_bytes())?;
        crate::cli::output::wrote(&path);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&report).expect("a report always serializes")
        )?;
    } else {
        write!(out, "{}", summary(&report))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn report(game: &optimoo::model::Game, s: &StaticSolution) -> StaticReport {
    StaticReport {
        game: game.name(),
        secrets: s.secrets,
        size: s.upper,
        guesses: s.guesses.iter().map(|&g| game.format_code(g)).collect(),
        exact: s.exact,
        lower: s.lower,
        upper: s.upper,
        with_final: s.with_final(),
        with_final_lower: s.with_final_lower(),
        nodes: s.nodes,
        seconds: s.seconds,
        counted: s.counted,
        levels: s
            .levels
            .iter()
            .map(|l| LevelReport {
                size: l.size,
                found: l.found,
                complete: l.complete,
                nodes: l.nodes,
                seconds: l.seconds,
                tasks: l.tasks,
                resumed: l.resumed,
            })
            .collect(),
        heuristic: s.heuristic,
        local: s
            .local
            .iter()
            .map(|l| LocalReport {
                size: l.size,
                found: l.found,
                iterations: l.iterations,
                pairs: l.pairs,
                seconds: l.seconds,
            })
            .collect(),
        checkpoint: None,
        shard: None,
    }
}

/// The text summary.
fn summary(r: &StaticReport) -> String {
    let mut text = format!("{}: static game, {} secrets\n", r.game, r.secrets);
    if r.exact {
        text += &format!(
            "size {} (proven minimal), with a final guess {}\n",
            r.size, r.with_final
        );
    } else {
        text += &format!(
            "size between {} and {} (not proven: stopped, or sizes not searched), with a final guess between {} and {}\n",
            r.lower, r.upper, r.with_final_lower, r.with_final
        );
    }
    text += &format!("guesses {}\n", r.guesses.join(" "));
    if r.counted > 0 {
        text += &format!("sizes below {} refuted by counting answers\n", r.counted);
    }
    for l in &r.local {
        let what = if l.found {
            "found".to_string()
        } else {
            format!("not found (best left {} pairs together)", l.pairs)
        };
        text += &format!(
            "local search, size {}: {what}, {} iterations, {:.3} s\n",
            l.size, l.iterations, l.seconds
        );
    }
    for l in &r.levels {
        let what = match (l.found, l.complete) {
            (true, _) => "found",
            (false, true) => "refuted",
            (false, false) => "stopped",
        };
        let resumed = if l.resumed > 0 {
            format!(
                " ({} of {} tasks refuted by earlier runs)",
                l.resumed, l.tasks
            )
        } else {
            String::new()
        };
        text += &format!(
            "size {}: {what}, {} nodes, {:.3} s{resumed}\n",
            l.size, l.nodes, l.seconds
        );
    }
    if let Some([i, n]) = r.shard {
        text += &format!(
            "shard {i}/{n}: only the tasks {i} modulo {n} searched; a size is refuted once every shard's tasks are\n"
        );
    }
    text += &checkpoint_lines(r.checkpoint.as_deref().unwrap_or_default());
    text += &format!("proof: {} nodes, {:.3} s\n", r.nodes, r.seconds);
    text
}

/// A line for each size a checkpoint holds.
fn checkpoint_lines(totals: &[SizeTotals]) -> String {
    totals
        .iter()
        .map(|c| {
            format!(
                "checkpoint, size {}: {} of {} tasks refuted, {} begun, {} nodes, {:.1} thread-seconds, all runs\n",
                c.size, c.refuted, c.tasks, c.begun, c.nodes, c.task_seconds
            )
        })
        .collect()
}
