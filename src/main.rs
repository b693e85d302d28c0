//! The `optimoo` binary: parse the arguments, run, map errors to exit codes.

use std::process::ExitCode;

use clap::Parser;
use optimoo::cli::{run, Cli, EXIT_ERROR};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            // A closed pipe (`optimoo ... | head`) is not an error.
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
