//! `optimoo export`: write a strategy's decision tree in a text format.
//!
//! The tree is replayed over every secret before it is written; a tree that
//! does not play correctly is not written (exit code 1).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::eval::StrategyOptions;
use super::EXIT_NEGATIVE;
use crate::game::Game;
use crate::rules::Rules;
use crate::strategy::{self, Heuristic};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `{"game": {...}, "root": {"guess": "0123", "next": {"0A1B": ...}}}`
    Json,
}

/// Write a strategy's decision tree.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed).
    #[arg(long, default_value = "moo:4x10")]
    pub game: Rules,
    /// The strategy whose tree to write.
    #[arg(long, value_enum)]
    pub strategy: Option<Heuristic>,
    #[command(flatten)]
    pub options: StrategyOptions,
    /// The output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `optimoo export`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::new(args.game);
    let heuristic = args
        .strategy
        .context("nothing to export: name a strategy with --strategy NAME")?;
    let config = args.options.config(&game, heuristic)?;
    let tree = strategy::build_tree(&game, &config)?;
    if let Err(e) = tree.replay(&game, None) {
        eprintln!("error: the {heuristic} tree does not play correctly: {e}");
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let text = match args.format {
        Format::Json => serde_json::to_string(&tree.to_json(&game))?,
    };
    match &args.output {
        Some(path) => std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{text}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
