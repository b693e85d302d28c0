//! Playing from a tree: [`player`] answers the best move after a history
//! (from the tree, or off the tree by the single-threaded search for small
//! sets and a heuristic beyond), [`codebreaker`] is the conversation when
//! the computer guesses and a person answers, [`host`] the codemaker when a
//! person guesses, [`explain`] says the rules in words; [`rank`] lists the
//! guesses of a position with their exact values, [`analyze`] judges a
//! played game move by move, and [`report`] writes both as text or JSON;
//! [`api`] answers them (and the next move) as JSON arrays for a server.
//! The two-player challenge: [`duel`] is the game played against a person
//! (`moo duel`), [`best_response`] the exact best response to an
//! opponent's tree (a per-guess cost search) and the challenge's rules
//! ([`best_response::Rule`], [`best_response::Seat`], the exact values),
//! [`chance`] the chance to win of a race in progress (the page's duel).
//! Each has its kind for games of any size ([`crate::model::shape`]),
//! chosen by the size of the game (a game of more than 65,535 codes has
//! no model `Game`, no tree file the model reads, no exact value):
//! [`shape_host`] is their codemaker (through [`host`]'s conversation),
//! [`shape_rank`] lists the phased strategy's best guesses with bounds on
//! their values, and their player is the phased strategy itself
//! ([`crate::heuristic::phased`], with its opening book).
//! Inside the crate, `input` reads lines with a length cap and `opening`
//! holds the shipped values of the standard game's second moves.
//!
//! Invariant: nothing here starts a thread or draws progress (the work of
//! games of any size runs on the caller's `exec::Parallel`); the `moo`
//! binary links this folder, the model, the tree file and the phased
//! strategy only.

pub mod analyze;
pub mod api;
pub mod best_response;
pub mod chance;
pub mod codebreaker;
pub mod duel;
pub mod explain;
pub mod host;
pub(crate) mod input;
pub(crate) mod opening;
pub mod player;
pub mod rank;
#[cfg(test)]
mod rank_tests;
pub mod report;
pub mod shape_host;
pub mod shape_rank;
