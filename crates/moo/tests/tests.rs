//! Integration tests of the `moo` binary: one binary, one module per area.
//! The helpers are shared with the other test binaries
//! (crates/optimoo/tests/, `#[path]`).

#[path = "../../optimoo/tests/bad_files.rs"]
mod bad_files;
mod big;
mod duel;
mod edges;
mod format;
mod host;
mod huge;
mod limits;
mod linking;
mod lists;
mod new_user;
mod player;
mod rank;
mod readme;
#[path = "../../../tests/readme_examples.rs"]
mod readme_examples;
#[path = "../../optimoo/tests/trees.rs"]
mod trees;

/// The `moo` binary under test.
pub const MOO: &str = env!("CARGO_BIN_EXE_moo");
