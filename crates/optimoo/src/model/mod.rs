//! The game model: rules → codes → feedback → partitions.
//!
//! What a user of the crate names, from this folder:
//! - [`Rules`]: a game's parameters (positions, symbols, repeats), checked;
//!   parsed from `moo:4x10` (4 distinct digits of 10) or `mm:4x6` (4 pegs
//!   of 6 colours, repeats allowed).
//! - [`Codebook`] and [`Code`]: every code of a game, numbered in
//!   lexicographic order.
//! - [`AnswerRule`]: what the codemaker answers (bulls and cows, black pegs
//!   or Wordle's colours), the one place each rule is defined; carried by
//!   [`Rules`].
//! - [`Feedback`]: the answer (by default bulls and cows, A: right symbol in
//!   the right place, B: right symbol in the wrong place), packed in a byte, and the
//!   `N²` table of answers ([`FeedbackTable`]).
//! - [`CodeList`]: the codes of a game that plays a word list (Wordle's
//!   12,972 guesses), beyond the 65,535 codes the model numbers otherwise;
//!   its [`Rules`] are listed ([`Rules::listed`]).
//! - [`Game`]: rules, codes and feedback bundled, the table built lazily,
//!   with an optional secret list.
//! - [`Objective`]: what a strategy is optimal for (average, worst, crush)
//!   or that it is a heuristic.
//! - [`partition`]: how a guess splits a set of secrets into answer classes.
//! - [`moves`]: the one parser of `GUESS:ANSWER` moves and histories.
//! - [`secrets`]: secret lists (word games), their alphabet and guess mode.
//! - [`shape`]: games of any size (up to 2^32 codes), the second
//!   representation of codes and candidate sets: [`shape::Shape`] and its
//!   [`shape::Packed`] codes, sets listed and partitioned in place, or
//!   counted without listing ([`shape::counted`]).
//!
//! Inside the crate: `signature` (feedback by bit signatures, for replaying
//! trees without the table), `echo` (user text as messages show it),
//! `symmetry` (the group of symbol and position permutations, the
//! stabilizer of a history or of a secret list, its orbits) and `canon` (a
//! canonical image of a set of codes under that group).
//!
//! Invariant of the whole folder: a code's number, its symbols and the
//! answer of any pair are pure functions of the rules; nothing here depends
//! on a strategy or a search.

pub(crate) mod alphabet;
pub mod answer;
pub(crate) mod canon;
pub(crate) mod code;
pub(crate) mod codelist;
pub(crate) mod echo;
pub(crate) mod feedback;
pub(crate) mod game;
pub(crate) mod hard;
pub mod moves;
pub(crate) mod objective;
pub mod partition;
pub(crate) mod rules;
pub mod secrets;
pub mod shape;
pub(crate) mod signature;
pub(crate) mod symmetry;

pub use answer::AnswerRule;
pub use code::{char_symbol, symbol_char, Code, CodeError, Codebook};
pub use codelist::CodeList;
pub use feedback::{Feedback, FeedbackError, FeedbackTable, TABLE_MAX_CODES};
pub use game::Game;
pub use hard::Hard;
pub use objective::Objective;
pub use rules::{
    parse_preset, GuessRule, ListId, Rules, RulesError, MAX_CODES, MAX_POSITIONS, MAX_SYMBOLS,
};
