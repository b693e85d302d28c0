//! The static game: every guess asked at once, before any answer, and the
//! answers alone must then tell the secret (docs/static.md). Its two
//! halves live here together:
//! - [`search`]: a smallest set of guesses that separates the secrets,
//!   proven minimal by iterative deepening (`optimoo static`);
//! - [`check`]: the static-set file and the independent checker behind
//!   `optimoo verify --static`.
//!
//! Invariants: the checker names nothing of the search (it recomputes
//! every answer on the written codes with the tree checker's own rule,
//! `tree::check::answer`), which crates/optimoo/tests/layers.rs checks; so
//! this folder sits above `tree` in the layers, beside `play`, and names
//! only the folders below it (`model`, `tree`) and the tools (`exec`,
//! `rng`). `search_tests` checks the search against brute force.

pub mod check;
pub mod search;
#[cfg(test)]
mod search_tests;
