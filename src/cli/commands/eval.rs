//! `optimoo eval`: play every secret with one strategy or all of them and
//! print the totals, as the published tables do.
//!
//! Every tree is replayed (`Tree::replay`) before anything is printed: the
//! figures come from the replay, not from the construction.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use optimoo::heuristic::{self, Heuristic, StrategyConfig};
use optimoo::model::Game;
use optimoo::model::Rules;
use optimoo::tree::Stats;

use crate::cli::args::{self, heuristics, AnyGame, StrategyChoice, StrategyOptions};
use crate::cli::report::EvalRow;

/// Play every secret with heuristic strategies and print the totals.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::EVAL)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed)
    /// [default: moo:4x10, or with --alphabet the words' game]. Games of
    /// more than 65,535 codes (up to 2^32: moo:10x10, mm:8x8) are played by
    /// the phased strategy and the first candidate, without the feedback
    /// table (docs/huge.md).
    #[arg(long)]
    pub game: Option<AnyGame>,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
    #[command(flatten)]
    pub rules: args::RulesArg,
    /// The strategy to evaluate, or all of them: all, first (the first
    /// candidate), random (a candidate drawn from --seed), minimax (Knuth:
    /// smallest largest class), irving (smallest sum of squared class
    /// sizes), entropy (Neuwirth: largest entropy), kooi (most classes),
    /// phased (games of any size: a sampled pool on large sets, the
    /// --heuristic below --heuristic-below, exact below --exact-below;
    /// not in all). On a game over 65,535 codes, all means first and
    /// phased.
    #[arg(long, default_value = "all", value_parser = args::strategy_choice())]
    pub strategy: StrategyChoice,
    #[command(flatten)]
    pub options: StrategyOptions,
    #[command(flatten)]
    pub phased: cli_common::phased::PhasedArgs,
    /// Phased and huge games: play a uniform sample of N secrets (drawn
    /// from --seed) instead of all, and print a 95 % confidence interval of
    /// the average.
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// Phased: write the strategy's tree to FILE (a tree file `verify`
    /// and `export` read; over 65,535 codes written straight from the
    /// walk, docs/huge.md).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// One JSON object per line and strategy instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One evaluated strategy.
#[derive(Debug, Clone)]
pub struct Row {
    /// The strategy.
    pub config: StrategyConfig,
    /// Statistics from replaying its tree.
    pub stats: Stats,
    /// Wall time to build the tree and replay it.
    pub seconds: f64,
}

/// Builds and replays the tree of one strategy.
pub fn evaluate(game: &Game, config: &StrategyConfig) -> anyhow::Result<Row> {
    let start = Instant::now();
    let tree = heuristic::build_tree_with(game, config, &crate::driver::Rayon)?;
    let stats = tree
        .replay(game, None)
        .with_context(|| format!("the {} tree does not play correctly", config.heuristic))?;
    Ok(Row {
        config: *config,
        stats,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Runs `optimoo eval`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(rule) = args.rules.other() {
        if matches!(args.game, Some(AnyGame::Huge(_))) || args.strategy == StrategyChoice::Phased {
            bail!(
                "--rules {rule} goes with the heuristics on games of at most 65,535 codes: \
                 the phased strategy and larger games play bulls and cows only"
            );
        }
    }
    if let (Some(AnyGame::Words(p)), StrategyChoice::Phased) = (args.game, args.strategy) {
        bail!(
            "--game {}: the phased strategy plays whole games (moo:KxN, mm:KxN), not word lists",
            p.name()
        );
    }
    let huge = match args.game {
        Some(AnyGame::Huge(shape)) => Some(shape),
        _ if args.strategy == StrategyChoice::Phased => Some(
            optimoo::model::shape::Shape::from_rules(match args.game {
                Some(AnyGame::Small(rules)) => rules,
                _ => Rules::standard(),
            })
            .context("--strategy phased")?,
        ),
        _ => None,
    };
    if let Some(shape) = huge {
        return run_huge(args, shape);
    }
    if args.sample.is_some() || args.output.is_some() {
        anyhow::bail!("--sample and -o go with --strategy phased (or a game over 65,535 codes)");
    }
    let game = args.rules.game(args.game, &args.list)?;
    // The feedback table is shared by every strategy: build it first.
    let start = Instant::now();
    game.table();
    let table_seconds = start.elapsed().as_secs_f64();
    let configs = heuristics(args.strategy)
        .into_iter()
        .map(|h| args.options.config(&game, h))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut out = std::io::stdout().lock();
    if !args.json {
        let o = &args.options;
        let first = match o.first.as_deref() {
            Some("best") => "each strategy's best".to_string(),
            _ => game.format_code(configs[0].first_in(&game)),
        };
        writeln!(
            out,
            "{}: {}, first guess {first}, pool {}, ties {}, seed {} \
             (feedback table {table_seconds:.3} s)",
            game.rules(),
            game.secret_set()
                .map_or(format!("{} secrets", game.len()), |s| s.describe()),
            o.pool,
            o.ties,
            o.seed
        )?;
        writeln!(out, "{}", EvalRow::HEADER)?;
    }
    for config in &configs {
        let row = evaluate(&game, config)?.report(&game, table_seconds);
        if args.json {
            writeln!(out, "{}", row.json())?;
        } else {
            writeln!(out, "{row}")?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The huge path: `first` and `phased` on any game, every secret or a
/// sample (cli/phased.rs).
fn run_huge(args: Args, shape: optimoo::model::shape::Shape) -> anyhow::Result<ExitCode> {
    if args.list.secrets.is_some() {
        anyhow::bail!("--secrets: the phased strategy plays whole games (moo:KxN, mm:KxN)");
    }
    let strategies = match args.strategy {
        StrategyChoice::All => vec![Heuristic::First, Heuristic::Entropy],
        StrategyChoice::Phased => vec![Heuristic::Entropy],
        StrategyChoice::One(Heuristic::First) => vec![Heuristic::First],
        StrategyChoice::One(h) => anyhow::bail!(
            "{shape} has {} codes: over 65,535 only --strategy phased or first play it \
             (the {h} heuristic scores every code at every node)",
            shape.code_count()
        ),
    };
    let mut phased = args.phased.options();
    if let Some(text) = &args.options.first {
        phased.first = Some(shape.parse(text).context("--first")?);
    }
    // The phased entry stands for the phased strategy with its own score.
    let strategies = strategies
        .into_iter()
        .map(|h| {
            if h == Heuristic::First {
                h
            } else {
                phased.heuristic
            }
        })
        .collect();
    crate::cli::phased::run(crate::cli::phased::Request {
        shape,
        strategies,
        phased,
        sample: args.sample,
        seed: args.options.seed,
        output: args.output,
        json: args.json,
    })
}

impl Row {
    /// The report of this row (`table_seconds`: the shared feedback table's
    /// time).
    pub fn report(&self, game: &Game, table_seconds: f64) -> EvalRow {
        let c = &self.config;
        let s = &self.stats;
        EvalRow {
            game: game.name(),
            strategy: c.heuristic.name(),
            first: game.format_code(c.first_in(game)),
            pool: c.pool.to_string(),
            ties: c.ties.to_string(),
            seed: c.seed,
            secrets: s.secrets,
            total: s.total,
            average: s.average(),
            max_depth: s.max_depth,
            histogram: s.histogram.clone(),
            seconds: self.seconds,
            table_seconds,
        }
    }
}
