//! The `optimoo` binary: parse the arguments, run, map errors to exit codes.

use std::process::ExitCode;

use clap::Parser;
use optimoo_cli::cli::{finish, run, Cli};

fn main() -> ExitCode {
    finish(run(Cli::parse()), "error")
}
