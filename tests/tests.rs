//! Integration tests: one binary, one module per area.

mod big;
mod checker;
mod checkpoint_files;
mod cli;
mod distributed;
mod eval_cli;
mod exhaustive;
mod export_file;
mod format;
mod fuzz;
mod heuristics;
mod kernel;
mod lists;
mod new_user;
mod trees;
mod verify;

/// The `optimoo` binary under test.
pub const OPTIMOO: &str = env!("CARGO_BIN_EXE_optimoo");
