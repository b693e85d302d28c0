//! Integration tests of the `optimoo` command: one binary, one module per
//! area. The suites that use only the library's API are beside it, in
//! crates/optimoo/tests/ (`cargo test -p optimoo`); the `moo` player's in
//! crates/moo/tests/. The helpers shared by the three are in the
//! test-support crate (crates/test-support), named here as modules of this
//! crate (`crate::trees::run`).

use test_support::{bad_files, readme_examples, trees};

mod answer_rules;
mod big;
mod checkpoint_files;
mod cli;
mod costs;
mod distributed;
mod duel;
mod eval_cli;
mod export_file;
mod first_guesses;
mod format;
mod graft;
mod help;
mod huge_files;
mod improve;
mod kernel;
mod limits;
mod lists;
mod memo_files;
mod nash;
mod new_user;
mod output_paths;
mod proof;
mod readme;
mod serve;
mod signals;
mod slurm;
mod sources;
mod static_game;
mod verify;
mod wordle;

/// The `optimoo` binary under test.
pub const OPTIMOO: &str = env!("CARGO_BIN_EXE_optimoo");
