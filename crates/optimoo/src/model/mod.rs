//! The game model: rules → codes → feedback → partitions.
//!
//! - [`rules`]: a game's parameters (positions, symbols, repeats), checked.
//! - [`code`]: every code of a game, numbered in lexicographic order.
//! - [`feedback`]: the bulls-and-cows answer, packed in a byte, and the
//!   `N²` table of answers.
//! - [`game`]: rules, codes and feedback bundled, the table built lazily.
//! - [`partition`]: how a guess splits a set of secrets into answer classes.
//! - [`signature`]: feedback by bit signatures, for replaying trees without
//!   the table.
//! - [`objective`]: what a strategy is optimal for (average, worst,
//!   crush) or that it is a heuristic.
//! - [`echo`]: user text as messages show it (escaped, cut).
//! - [`moves`]: the one parser of `GUESS:ANSWER` moves and histories.
//! - [`symmetry`]: the group of symbol and position permutations, the
//!   stabilizer of a history or of a secret list, and its orbits.
//! - [`canon`]: a canonical image of a set of codes under that group.
//! - [`secrets`]: secret lists (word games), their alphabet and guess mode;
//!   [`alphabet`]: the letters of a word game.
//!
//! Invariant of the whole folder: a code's number, its symbols and the
//! answer of any pair are pure functions of the rules; nothing here depends
//! on a strategy or a search.

pub mod alphabet;
pub mod canon;
pub mod code;
pub mod echo;
pub mod feedback;
pub mod game;
pub mod moves;
pub mod objective;
pub mod partition;
pub mod rules;
pub mod secrets;
pub mod signature;
pub mod symmetry;
