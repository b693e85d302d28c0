//! `optimoo eval`: play every secret with one strategy or all of them and
//! print the totals, as the published tables do.
//!
//! Every tree is replayed (`Tree::replay`) before anything is printed: the
//! figures come from the replay, not from the construction.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::builder::TypedValueParser;

use optimoo::heuristic::{self, Heuristic, Named, Pool, StrategyConfig, Ties};
use optimoo::model::game::Game;
use optimoo::model::rules::Rules;
use optimoo::tree::Stats;

use super::report::EvalRow;

/// Reads one of `T`'s names (a heuristic, a pool, a tie rule).
pub fn named<T: Named + Clone + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    let names: Vec<&'static str> = T::NAMES.iter().map(|(n, _)| *n).collect();
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        T::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .expect("clap accepts only these names")
    })
}

/// Options shared by every command that runs a strategy.
#[derive(Debug, Clone, clap::Args)]
pub struct StrategyOptions {
    /// The first guess (default: the smallest legal code, e.g. 0123).
    #[arg(long, value_name = "CODE")]
    pub first: Option<String>,
    /// Which codes the scoring heuristics may guess.
    #[arg(long, default_value = "all", value_parser = named::<Pool>())]
    pub pool: Pool,
    /// How the scoring heuristics break ties: candidate-first (a candidate,
    /// then the smallest code), smallest, or seed000 (seed 000's whole rule).
    #[arg(long, default_value = "candidate-first", value_parser = named::<Ties>())]
    pub ties: Ties,
    /// Seed of the random strategy.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl StrategyOptions {
    /// The checked configuration of `heuristic` for `game`.
    pub fn config(&self, game: &Game, heuristic: Heuristic) -> anyhow::Result<StrategyConfig> {
        let first = match &self.first {
            Some(text) => Some(game.parse_code(text).context("--first")?),
            None => None,
        };
        Ok(StrategyConfig {
            heuristic,
            first,
            pool: self.pool,
            ties: self.ties,
            seed: self.seed,
        })
    }
}

/// A strategy, or all of them (`None`).
pub type StrategyChoice = Option<Heuristic>;

/// Reads `all` or a heuristic's name.
fn strategy_choice() -> impl clap::builder::TypedValueParser<Value = StrategyChoice> {
    let names = std::iter::once("all").chain(Heuristic::NAMES.iter().map(|(n, _)| *n));
    clap::builder::PossibleValuesParser::new(names.collect::<Vec<_>>())
        .map(|name| name.parse::<Heuristic>().ok())
}

/// The heuristics a choice names.
pub fn heuristics(choice: StrategyChoice) -> Vec<Heuristic> {
    match choice {
        None => Heuristic::ALL.to_vec(),
        Some(h) => vec![h],
    }
}

/// Play every secret with heuristic strategies and print the totals.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed)
    /// [default: moo:4x10, or with --alphabet the words' game]
    #[arg(long)]
    pub game: Option<Rules>,
    #[command(flatten)]
    pub list: super::secrets::SecretArgs,
    /// The strategy to evaluate, or all of them: all, first (the first
    /// candidate), random (a candidate drawn from --seed), minimax (Knuth:
    /// smallest largest class), irving (smallest sum of squared class
    /// sizes), entropy (Neuwirth: largest entropy), kooi (most classes).
    #[arg(long, default_value = "all", value_parser = strategy_choice())]
    pub strategy: StrategyChoice,
    #[command(flatten)]
    pub options: StrategyOptions,
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
    let game = args.list.game(args.game, Rules::standard())?;
    let configs = heuristics(args.strategy)
        .into_iter()
        .map(|h| args.options.config(&game, h))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // The feedback table is shared by every strategy: build it first.
    let start = Instant::now();
    game.table();
    let table_seconds = start.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if !args.json {
        let o = &args.options;
        let first = game.format_code(configs[0].first_in(&game));
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
