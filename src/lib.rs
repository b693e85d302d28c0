//! optimoo: provably optimal strategies for Bulls and Cows (MOO) and
//! Mastermind, and the heuristics they are measured against.
//!
//! The data flows one way, one module a step:
//! [`rules`] → [`code`] and [`feedback`] (bundled in [`game`]) →
//! [`partition`] → strategies and the exact search → [`tree`] → file → player.

pub mod bound;
pub mod cli;
pub mod code;
pub mod dot;
pub mod feedback;
pub mod format;
pub mod game;
pub mod host;
pub mod memo;
pub mod partition;
pub mod player;
pub mod rules;
pub mod search;
pub mod signature;
pub mod strategy;
pub mod symmetry;
pub mod tree;

pub use code::Code;
pub use feedback::Feedback;
pub use game::Game;
pub use rules::Rules;
pub use tree::{Node, Stats, Tree};
