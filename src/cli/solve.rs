//! `optimoo solve`: the exact optimal tree of a game under a guess cap.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::bound::Objective;
use crate::game::Game;
use crate::rules::Rules;
use crate::search::{self, Config};

/// Compute a provably optimal decision tree by exhaustive search.
///
/// With neither --game nor --cap it solves moo:4x10 with at most 7 guesses
/// (Tanaka 1996: 26274 guesses in all, 5.2131 on average). With --game and
/// no --cap the number of guesses is unlimited.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed) [default: moo:4x10]
    #[arg(long)]
    pub game: Option<Rules>,
    /// Most guesses any secret may need, the winning one included
    /// [default: 7 when --game is not given, else unlimited]
    #[arg(long)]
    pub cap: Option<usize>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Save the tree to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: all cores). The tree does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory for the memo, in MiB (it keeps two generations of this size).
    #[arg(long, default_value_t = 256)]
    pub memo_mib: usize,
}

/// Runs `optimoo solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.game.unwrap_or_else(Rules::standard);
    let cap = match (args.game, args.cap) {
        (None, None) => Some(7),
        (_, cap) => cap,
    };
    let game = Game::new(rules);
    let config = Config {
        cap,
        objective: Objective::Total,
        memo_codes: (args.memo_mib.max(1) << 20) / 2,
        progress: !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        ..Config::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let solution = pool.install(|| search::solve(&game, config))?;
    if std::env::var("OPTIMOO_DEBUG").is_ok() {
        let h: Vec<u64> = search::DEBUG_HIST
            .iter()
            .map(|a| a.load(std::sync::atomic::Ordering::Relaxed))
            .collect();
        eprintln!("{h:?}");
    }
    let cap_text = cap.map_or("none".to_string(), |c| c.to_string());
    let mut out = std::io::stdout().lock();
    let (Some(tree), Some(stats)) = (&solution.tree, &solution.stats) else {
        let within = cap.map_or(String::new(), |c| format!(" within {c} guesses"));
        if args.json {
            let v = serde_json::json!({
                "game": rules.to_string(), "cap": cap, "feasible": false,
                "seconds": solution.seconds, "nodes": solution.nodes,
            });
            writeln!(out, "{v}")?;
        }
        eprintln!("no strategy solves {rules}{within}");
        return Ok(ExitCode::from(crate::cli::EXIT_NEGATIVE));
    };
    if let Some(path) = &args.output {
        let text = serde_json::to_string(&tree.to_json(&game))?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        let v = serde_json::json!({
            "game": rules.to_string(),
            "cap": cap,
            "feasible": true,
            "total": stats.total,
            "average": stats.average(),
            "max_depth": stats.max_depth,
            "histogram": stats.histogram,
            "first_guess": game.format_code(tree.root.guess),
            "seconds": solution.seconds,
            "nodes": solution.nodes,
            "memo_hits": solution.memo_hits,
            "memo_lookups": solution.memo_lookups,
            "memo_entries": solution.memo_entries,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "game       {rules}")?;
        writeln!(out, "cap        {cap_text}")?;
        writeln!(out, "total      {} (search {})", stats.total, solution.cost)?;
        writeln!(
            out,
            "average    {:.4} ({}/{})",
            stats.average(),
            stats.total,
            stats.secrets
        )?;
        writeln!(out, "max depth  {}", stats.max_depth)?;
        writeln!(out, "histogram  {}", stats.histogram_text())?;
        writeln!(out, "first      {}", game.format_code(tree.root.guess))?;
        writeln!(out, "time       {:.3} s", solution.seconds)?;
        writeln!(out, "nodes      {}", solution.nodes)?;
        writeln!(
            out,
            "memo       {} entries, {} hits of {} lookups",
            solution.memo_entries, solution.memo_hits, solution.memo_lookups
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
