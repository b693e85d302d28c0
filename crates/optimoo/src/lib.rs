//! optimoo: provably optimal strategies for Bulls and Cows (MOO) and
//! Mastermind, and the heuristics they are measured against.
//!
//! The data flows one way, one folder a step (docs/architecture.md):
//! [`model`] (rules → codes and feedback → partitions) →
//! [`heuristic`] strategies | the exact [`search`] → [`tree`] (the tree,
//! its file, its pictures, the independent checker) → [`play`] (the player
//! and the codemaker). [`exec`] is how the search and the heuristics are
//! told to spread work over threads; this crate starts none itself.

pub mod exec;
pub mod heuristic;
pub mod model;
pub mod play;
pub mod rng;
pub mod search;
pub mod tree;

pub use model::code::Code;
pub use model::feedback::Feedback;
pub use model::game::Game;
pub use model::rules::Rules;
pub use tree::{Node, Stats, Tree};
