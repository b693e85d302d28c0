//! Integration tests of the `moo` binary: one binary, one module per area.
//! The helpers shared with the other test binaries are in the test-support
//! crate (crates/test-support), named here as modules of this crate
//! (`crate::trees::run`).

use test_support::{bad_files, readme_examples, trees};

mod big;
mod duel;
mod edges;
mod format;
mod help;
mod host;
mod huge;
mod limits;
mod linking;
mod lists;
mod new_user;
mod player;
mod rank;
mod readme;
mod wordle;

/// The `moo` binary under test.
pub const MOO: &str = env!("CARGO_BIN_EXE_moo");
