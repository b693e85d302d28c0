//! Exact equilibria of the games around Bulls and Cows in which players
//! mix trees, over optimoo's exact searches.
//!
//! - [`matrix`]: finite zero-sum matrix games, solved by a linear program
//!   in floating point and re-derived exactly in rationals.
//! - [`nash`]: the codemaker's game: the codemaker chooses a distribution
//!   of secrets, the codebreaker a mixture of trees; a double-oracle loop
//!   over the codebreaker's exact weighted best responses.
//! - [`duel`]: the two-player challenge: each seat mixes trees; a
//!   double-oracle loop over exact per-guess cost searches, with a
//!   certificate for mixtures too fine for the search's integers.
//!
//! Invariant: every value and weight this crate returns is an exact
//! fraction that has been checked exactly; floating point only guides the
//! search for it.

pub mod duel;
pub mod matrix;
pub mod nash;
