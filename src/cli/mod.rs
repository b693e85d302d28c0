//! The `optimoo` command line: the subcommands, one module each, in
//! [`commands`]; beside them the helpers they share (`args`, `checkpoint`,
//! `first_plan`, `folder`, `help`, `http`, `memory`, `output`, `page`, `phased`,
//! `phased_plan`, `report`, `static_journal`).
//!
//! Help: `-h` gives each command's one-line summary and its options' first
//! lines; `--help` the long text and examples ([`help`]). Each subcommand's
//! summary and long text are the doc comment of its `Args` (a one-line first
//! paragraph, kept verbatim), its examples a constant of [`help`].
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
pub mod first_plan;
pub mod folder;
pub mod help;
pub mod http;
pub mod memory;
pub mod output;
pub mod page;
pub mod phased;
pub mod phased_plan;
pub mod plan_kinds;
pub mod report;
pub mod static_journal;
pub use cli_common::secrets;

use commands::{
    duel, eval, export, improve, merge, nash, partition, plan, serve, solve, static_game, status,
    verify, work,
};

pub use crate::exit::{finish, EXIT_ERROR, EXIT_NEGATIVE};

/// The `optimoo` command line.
#[derive(Debug, Parser)]
#[command(
    name = "optimoo",
    version,
    propagate_version = true,
    about = help::ABOUT,
    long_about = help::LONG_ABOUT,
    after_long_help = help::OPTIMOO
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each one's help (its one-line summary, the long text,
/// the examples) is on its `Args`: a doc comment here would replace it.
#[derive(Debug, Subcommand)]
pub enum Command {
    Partition(partition::Args),
    Verify(verify::Args),
    Eval(eval::Args),
    Export(export::Args),
    Solve(solve::Args),
    Plan(plan::Args),
    Work(work::Args),
    Merge(merge::Args),
    Status(status::Args),
    Improve(improve::Args),
    Duel(duel::Args),
    Nash(nash::Args),
    Serve(serve::Args),
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
        Command::Serve(args) => serve::run(args),
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
