//! Integration tests of the library crate: one binary, one module per
//! area, through the public API alone (no binary is run here: the
//! `optimoo` command's tests are in the top tests/, the `moo` player's in
//! crates/moo/tests/). The helpers shared with those are in the
//! test-support crate (crates/test-support), named here as modules of this
//! crate (`crate::trees::random_tree`).

use test_support::{bad_files, trees};

mod big;
mod checker;
mod duel;
mod exhaustive;
mod format;
mod fuzz;
mod heuristics;
mod improve;
mod layers;
