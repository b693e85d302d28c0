//! `optimoo duel`: the two-player challenge. With `--against TREE`, the
//! exact best response to an opponent who plays TREE (the library's
//! `play::duel`, docs/duel.md).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde::Serialize;

use optimoo::model::{Objective, Rules};
use optimoo::play::duel::{self, Rule, Seat};
use optimoo::search::{Config, Driver};
use optimoo::tree::format::TreeFile;

use super::output::Output;
use crate::driver::{self, progress::Terminal, Rayon};

/// The two-player challenge: both players hide a secret and guess in turn,
/// each seeing only the answers to their own guesses; whoever cracks the
/// other's secret first wins.
///
/// With --against TREE: the tree that maximizes the probability of winning
/// (draws count 1/2) against an opponent who plays TREE, every secret
/// equally likely; its exact value as a fraction; and the value TREE itself
/// would get in that seat against TREE. The best response is an exact
/// search: the probability of winning with d guesses only falls as d
/// grows, so it is the least sum of a nondecreasing cost per number of
/// guesses (solve --objective costs).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (default: the game of TREE; if given, it must be TREE's).
    #[arg(long)]
    pub game: Option<Rules>,
    /// first-wins: the first player wins when both need as many guesses;
    /// equal-turns: the second player gets as many turns, and equal
    /// lengths draw (worth 1/2).
    #[arg(long)]
    pub rule: Rule,
    /// The opponent's tree file.
    #[arg(long, value_name = "TREE")]
    pub against: Option<PathBuf>,
    /// The seat of the best response: first (guesses first) or second.
    #[arg(long, default_value = "first")]
    pub seat: Seat,
    /// Save the best response to FILE (a tree file with objective costs,
    /// which `optimoo verify` checks).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores). The tree does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// What `duel --against` reports (`--json`: these fields).
#[derive(Debug, Serialize)]
struct Report {
    game: String,
    rule: &'static str,
    seat: &'static str,
    against: String,
    /// The best response's probability of winning, "p/q".
    value: String,
    /// What TREE gets in this seat against TREE, "p/q".
    value_of_against: String,
    /// The file written with -o, if any.
    tree: Option<String>,
    /// The best response's cap (lossless: see docs/duel.md).
    cap: usize,
    total: u64,
    average: f64,
    max_depth: usize,
    histogram: Vec<u64>,
    /// TREE's histogram.
    against_histogram: Vec<u64>,
    seconds: f64,
}

/// Runs `optimoo duel`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(against) = &args.against else {
        bail!(
            "duel needs --against TREE (the opponent's tree file): the equilibrium between \
             mixtures of trees is not computed by this version"
        );
    };
    let threads = driver::check_threads(args.threads)?;
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let list = super::secrets::SecretArgs::default();
    let (game, file) = super::secrets::read_tree(against, &list)
        .with_context(|| format!("cannot read the opponent's tree {}", against.display()))?;
    if let Some(rules) = args.game {
        if rules != game.rules() {
            bail!(
                "{} plays {}, not the --game {rules}",
                against.display(),
                game.rules()
            );
        }
    }
    let opp = file.header.stats.histogram.clone();
    // The memory this search needs, stated and checked before the table.
    let base = super::memory::fit(&game, Config::default(), threads, None, false)?;
    let pool = driver::pool(threads)?;
    let bar = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let observer = Terminal::new(bar, false);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    let start = std::time::Instant::now();
    let best =
        pool.install(|| duel::best_response(&game, args.rule, args.seat, &opp, &base, driver))?;
    let seconds = start.elapsed().as_secs_f64();
    drop(observer);
    let copying = duel::value(args.rule, args.seat, &opp, &opp);
    let written = match output {
        Some(out) => {
            let cap = Some(best.costs.len());
            let bytes =
                TreeFile::new(&game, best.tree.clone(), Objective::Costs, cap)?.to_bytes(&game)?;
            let shown = out.path().display().to_string();
            out.commit(&bytes)?;
            Some(shown)
        }
        None => None,
    };
    let report = Report {
        game: game.name(),
        rule: args.rule.name(),
        seat: args.seat.name(),
        against: against.display().to_string(),
        value: best.value.to_string(),
        value_of_against: copying.to_string(),
        tree: written,
        cap: best.costs.len(),
        total: best.stats.total,
        average: best.stats.average(),
        max_depth: best.stats.max_depth,
        histogram: best.stats.histogram.clone(),
        against_histogram: opp,
        seconds,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        let join = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        writeln!(out, "game       {}", report.game)?;
        writeln!(out, "rule       {}, seat {}", report.rule, report.seat)?;
        writeln!(
            out,
            "against    {} (histogram {})",
            report.against,
            join(&report.against_histogram)
        )?;
        writeln!(
            out,
            "value      {} = {:.6}: the best response's probability of winning (draws 1/2)",
            best.value,
            best.value.to_f64()
        )?;
        writeln!(
            out,
            "copying    {} = {:.6}: the opponent's own tree in this seat",
            copying,
            copying.to_f64()
        )?;
        writeln!(
            out,
            "gain       {:+.6}",
            best.value.to_f64() - copying.to_f64()
        )?;
        writeln!(
            out,
            "response   total {}, average {:.4}, max depth {}, histogram {}",
            report.total,
            report.average,
            report.max_depth,
            join(&report.histogram)
        )?;
        if let Some(t) = &report.tree {
            writeln!(out, "tree       {t} (cap {})", report.cap)?;
        }
        writeln!(out, "time       {:.3} s", report.seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}
