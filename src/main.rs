//! The `optimoo` binary: parse the arguments, run, map errors to exit codes.

use std::process::ExitCode;

use optimoo_cli::cli::{run, Cli};
use optimoo_cli::exit;

fn main() -> ExitCode {
    match exit::parse_args::<Cli>() {
        Ok(cli) => exit::finish(run(cli), "optimoo"),
        Err(code) => code,
    }
}

/// mimalloc: the search's many small allocations cost a sixth of the
/// time under the system allocator (see Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
