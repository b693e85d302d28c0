//! The `optimoo` command line: the subcommands, one module each, in
//! [`commands`]; beside them the helpers they share (`args`, `checkpoint`,
//! `folder`, `memory`, `output`, `phased`, `phased_plan`, `report`).
//!
//! Each subcommand validates its raw arguments into checked values before any
//! work starts, then calls into the library. Exit codes (the README's
//! table, [`crate::exit`]): 0 success, 1 a negative answer (no strategy
//! within the cap, a contradictory history, a tree that fails
//! verification), 2 an error (bad input, unreadable file). Results go to
//! stdout through `?` (a closed pipe ends the run quietly with 0), messages
//! to stderr through [`crate::exit::say`] (a closed stderr is ignored).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod args;
pub mod checkpoint;
pub mod commands;
pub mod folder;
pub mod memory;
pub mod output;
pub mod phased;
pub mod phased_plan;
pub mod report;
pub use cli_common::secrets;

use commands::{
    duel, eval, export, improve, merge, nash, partition, plan, solve, static_game, status, verify,
    work,
};

pub use crate::exit::{finish, EXIT_ERROR, EXIT_NEGATIVE};

/// Optimal and heuristic strategies for Bulls and Cows and Mastermind.
#[derive(Debug, Parser)]
#[command(name = "optimoo", version, propagate_version = true, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show how a guess splits the secrets still possible.
    Partition(partition::Args),
    /// Check tree files: replay every secret and compare with the header.
    Verify(verify::Args),
    /// Play every secret with heuristic strategies; print totals and histograms.
    Eval(eval::Args),
    /// Write a decision tree (a strategy's or a tree file's) as JSON, a
    /// Graphviz picture (dot), a tree file or an HTML page.
    Export(export::Args),
    /// Compute a provably optimal decision tree by exhaustive search.
    Solve(solve::Args),
    /// Cut an exact search into independent work units (DIR/plan.json).
    Plan(plan::Args),
    /// Solve work units of a plan and write DIR/units/I.json.
    Work(work::Args),
    /// Assemble the optimal tree from a plan's units; report it as solve does.
    Merge(merge::Args),
    /// Show a plan's progress: units done, time spent, time left, bounds so far.
    Status(status::Args),
    /// Better trees where the optimum is out of reach: exact on small sets,
    /// the best few guesses above; each improvement written at once.
    Improve(improve::Args),
    /// The two-player challenge: the exact best response to an opponent's
    /// tree and its probability of winning, or the exact equilibrium.
    Duel(duel::Args),
    /// The codemaker's game: the exact equilibrium when the codemaker
    /// chooses how likely each secret is.
    Nash(nash::Args),
    /// The static game: a smallest set of guesses that, asked all at once,
    /// determines the secret, proven minimal.
    #[command(name = "static")]
    Static(static_game::Args),
}

/// Runs a parsed command line; `Ok` carries the exit code of a finished run.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Partition(args) => partition::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Export(args) => export::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Work(args) => work::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Status(args) => status::run(args),
        Command::Improve(args) => improve::run(args),
        Command::Duel(args) => duel::run(args),
        Command::Nash(args) => nash::run(args),
        Command::Static(args) => static_game::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
