//! Integration tests of the library crate: one binary, one module per
//! area, through the public API alone (no binary is run here: the
//! `optimoo` command's tests are in the top tests/, the `moo` player's in
//! crates/moo/tests/).

mod bad_files;
mod big;
mod checker;
mod duel;
mod exhaustive;
mod format;
mod fuzz;
mod heuristics;
mod improve;
mod layers;
mod trees;
