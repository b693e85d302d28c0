//! Integration tests of the `moo` binary: one binary, one module per area.
//! The tree helpers are the workspace's (tests/trees.rs).

mod edges;
mod host;
mod linking;
mod lists;
mod new_user;
mod player;
mod rank;
#[path = "../../../tests/trees.rs"]
mod trees;

/// The `moo` binary under test.
pub const MOO: &str = env!("CARGO_BIN_EXE_moo");
