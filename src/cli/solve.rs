//! `optimoo solve`: the exact optimal tree of a game under a guess cap.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use serde_json::json;

use optimoo::model::game::Game;
use optimoo::model::rules::Rules;
use optimoo::search::bound::Cost;
use optimoo::search::{self, Config, Driver, MinCap};
use optimoo::tree::format::{Objective, TreeFile};

use super::output::Output;
use crate::driver::{self, progress::Terminal, Rayon};

/// Compute a provably optimal decision tree by exhaustive search.
///
/// With neither --game nor --cap it solves moo:4x10 with at most 7 guesses
/// (the known optimum is 26274 guesses in all, 5.2131 on average; the tool
/// computes it). With --game and no --cap the number of guesses is
/// unlimited. An infeasible cap is reported ("no strategy solves ... within
/// N guesses") with exit code 1: a proof by exhaustion.
///
/// Objectives: `average` (default) minimizes the total number of guesses
/// within the cap; `worst` finds the smallest cap any strategy can meet,
/// refuting every smaller one, and returns the minimal-total tree within it;
/// `crush` then minimizes the secrets that need that last guess, and the
/// total after that.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed) [default: moo:4x10]
    #[arg(long)]
    pub game: Option<Rules>,
    /// Most guesses any secret may need, the winning one included
    /// [default: 7 when --game is not given, else unlimited]
    #[arg(long)]
    pub cap: Option<usize>,
    /// What to optimize: average, worst or crush.
    #[arg(long, default_value = "average", value_parser = parse_objective)]
    pub objective: Objective,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Save the tree to FILE: the compact tree file (docs/format.md), or
    /// JSON when FILE ends in .json.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: all cores). The tree does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory for the memo in MiB (two generations of this size at most).
    #[arg(long, default_value_t = 256)]
    pub memo_mib: usize,
    /// With --objective worst: only find and prove the smallest cap, without
    /// the minimal-total tree within it (much faster on large games).
    #[arg(long)]
    pub cap_only: bool,
    /// Print a line on stderr as each class of the first guess is solved.
    #[arg(short, long)]
    pub verbose: bool,
    /// Tuning: largest candidate set whose memo key is put in canonical
    /// form under symbol and position permutations (0: never).
    #[arg(long, default_value_t = Config::default().canon_max)]
    pub canon_max: usize,
    /// Tuning: sets of at most this many secrets are solved exactly
    /// whatever the cut-off.
    #[arg(long, default_value_t = Config::default().exact_small)]
    pub exact_small: usize,
}

fn parse_objective(text: &str) -> Result<Objective, String> {
    match text.parse::<Objective>()? {
        Objective::Heuristic => Err("solve optimizes average, worst or crush".to_string()),
        o => Ok(o),
    }
}

/// Runs `optimoo solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.game.unwrap_or_else(Rules::standard);
    if args.objective != Objective::Average && args.cap.is_some() {
        bail!(
            "--objective {} finds the smallest cap itself; drop --cap",
            args.objective
        );
    }
    let cap = match (args.game, args.cap, args.objective) {
        (None, None, Objective::Average) => Some(7),
        (_, cap, _) => cap,
    };
    let game = Game::new(rules);
    let bar = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let observer = Terminal::new(bar, args.verbose);
    let config = Config {
        cap,
        objective: Cost::Total,
        memo_codes: (args.memo_mib.max(1) << 20) / 2,
        canon_max: args.canon_max,
        exact_small: args.exact_small,
        ..Config::default()
    };
    let threads = driver::check_threads(args.threads)?;
    // Checked before the search: a bad -o is refused at once, not after.
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let pool = driver::pool(threads)?;
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    pool.install(|| solve(&args, &game, config, driver, output))
}

fn solve(
    args: &Args,
    game: &Game,
    mut config: Config,
    driver: Driver<'_>,
    output: Option<Output>,
) -> anyhow::Result<ExitCode> {
    let rules = game.rules();
    let mut out = std::io::stdout().lock();
    let min_cap = match args.objective {
        Objective::Average => None,
        _ => {
            let found = search::min_cap_with(game, &config, driver)?;
            config.cap = Some(found.cap);
            if args.objective == Objective::Crush {
                config.objective = Cost::Crush;
            }
            Some(found)
        }
    };
    if args.cap_only {
        let Some(m) = &min_cap else {
            bail!("--cap-only goes with --objective worst");
        };
        if args.json {
            let v = json!({
                "game": rules.to_string(), "objective": "worst", "min_cap": m.cap,
                "counted": m.counted, "refuted": refutations(m), "nodes": m.nodes,
                "seconds": m.searches.iter().map(|s| s.2).sum::<f64>(),
            });
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "game       {rules}")?;
            write_min_cap(&mut out, m)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let cap = config.cap;
    let solution = search::solve_with(game, config, driver)?;
    let (Some(tree), Some(stats)) = (&solution.tree, &solution.stats) else {
        let within = cap.map_or(String::new(), |c| format!(" within {c} guesses"));
        if args.json {
            let v = json!({
                "game": rules.to_string(), "cap": cap, "objective": args.objective.name(),
                "feasible": false, "seconds": solution.seconds, "nodes": solution.nodes,
            });
            writeln!(out, "{v}")?;
        } else {
            writeln!(out, "no strategy solves {rules}{within}")?;
            if solution.nodes == 0 {
                writeln!(
                    out,
                    "(proved by counting: more secrets than that many guesses can tell apart)"
                )?;
            } else {
                writeln!(
                    out,
                    "(proved by exhaustive search in {:.3} s, {} nodes)",
                    solution.seconds, solution.nodes
                )?;
            }
        }
        return Ok(ExitCode::from(crate::cli::EXIT_NEGATIVE));
    };
    if let Some(out) = output {
        let bytes = if out.path().extension().is_some_and(|e| e == "json") {
            serde_json::to_string(&tree.to_json(game))?.into_bytes()
        } else {
            TreeFile::new(game, tree.clone(), args.objective, cap)?.to_bytes(game)?
        };
        out.commit(&bytes)?;
    }
    let at_cap = cap
        .and_then(|c| stats.histogram.get(c - 1).copied())
        .unwrap_or(0);
    if args.json {
        let mut v = json!({
            "game": rules.to_string(),
            "cap": cap,
            "objective": args.objective.name(),
            "feasible": true,
            "total": stats.total,
            "average": stats.average(),
            "max_depth": stats.max_depth,
            "histogram": stats.histogram,
            "at_cap": at_cap,
            "first_guess": game.format_code(tree.root.guess),
            "seconds": solution.seconds,
            "nodes": solution.nodes,
            "memo_hits": solution.memo_hits,
            "memo_lookups": solution.memo_lookups,
            "memo_entries": solution.memo_entries,
        });
        if let Some(m) = &min_cap {
            v["min_cap"] = json!(m.cap);
            v["refuted"] = json!(refutations(m));
        }
        writeln!(out, "{v}")?;
    } else {
        let cap_text = cap.map_or("none".to_string(), |c| c.to_string());
        writeln!(out, "game       {rules}")?;
        writeln!(out, "objective  {}", args.objective)?;
        if let Some(m) = &min_cap {
            write_min_cap(&mut out, m)?;
        }
        writeln!(out, "cap        {cap_text}")?;
        writeln!(out, "total      {}", stats.total)?;
        writeln!(
            out,
            "average    {:.4} ({}/{})",
            stats.average(),
            stats.total,
            stats.secrets
        )?;
        writeln!(out, "max depth  {}", stats.max_depth)?;
        if cap.is_some() {
            writeln!(
                out,
                "at cap     {at_cap} secrets need all {cap_text} guesses"
            )?;
        }
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

fn write_min_cap(out: &mut impl Write, m: &MinCap) -> std::io::Result<()> {
    writeln!(out, "min cap    {}", m.cap)?;
    if m.counted > 1 {
        writeln!(
            out,
            "refuted    caps below {} by counting (too many secrets for the answers)",
            m.counted
        )?;
    }
    for (cap, feasible, seconds) in &m.searches {
        if *feasible {
            writeln!(out, "found      cap {cap} feasible in {seconds:.3} s")?;
        } else {
            writeln!(
                out,
                "refuted    cap {cap}: no strategy, by exhaustive search in {seconds:.3} s"
            )?;
        }
    }
    Ok(())
}

fn refutations(m: &MinCap) -> Vec<serde_json::Value> {
    m.searches
        .iter()
        .filter(|(_, feasible, _)| !feasible)
        .map(|(cap, _, seconds)| json!({"cap": cap, "seconds": seconds}))
        .collect()
}
