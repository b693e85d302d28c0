//! Playing from a tree: [`player`] answers the best move after a history
//! (from the tree, or off the tree by the single-threaded search for small
//! sets and a heuristic beyond), [`codebreaker`] is the conversation when
//! the computer guesses and a person answers, [`host`] the codemaker when a
//! person guesses, [`explain`] says the rules in words; [`rank`] lists the
//! guesses of a position with their exact values, [`analyze`] judges a
//! played game move by move, and [`report`] writes both as text or JSON.
//! Inside the crate, `input` reads lines with a length cap and `opening`
//! holds the shipped values of the standard game's second moves.
//!
//! Invariant: nothing here starts a thread or draws progress; the `moo`
//! binary links this folder, the model and the tree file only.

pub mod analyze;
pub mod codebreaker;
pub mod duel;
pub mod explain;
pub mod host;
pub(crate) mod input;
pub(crate) mod opening;
pub mod player;
pub mod race;
pub mod rank;
#[cfg(test)]
mod rank_tests;
pub mod report;
