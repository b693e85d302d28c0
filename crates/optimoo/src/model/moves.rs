//! The one parser of moves: `GUESS:ANSWER` words such as `0123:1A2B` (or
//! `0123:1,2`), alone or as a history, and the one way user input is echoed
//! back in messages.
//!
//! Invariant: a move parsed here holds a legal code of the game and an
//! answer the game can give (its bulls and cows add up to at most the
//! positions); whether a history is consistent is not decided here.

use std::fmt;

use crate::model::code::{Code, CodeError};
use crate::model::feedback::{Feedback, FeedbackError};
use crate::model::game::Game;

/// Most characters of user input shown back in a message.
pub const ECHO_MAX: usize = 80;

/// User input as shown in messages: control characters and quotes escaped
/// (an arrow key's escape sequence cannot move the cursor), cut to
/// [`ECHO_MAX`] characters with an ellipsis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Echo(String);

impl Echo {
    /// The shown form of `text`.
    pub fn new(text: &str) -> Echo {
        let mut shown = String::new();
        for (i, c) in text.chars().enumerate() {
            if i == ECHO_MAX {
                shown.push('…');
                break;
            }
            if c.is_control() || c == '\'' || c == '\\' {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
        Echo(shown)
    }
}

impl fmt::Display for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", self.0)
    }
}

/// Why a move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// Not written GUESS:ANSWER.
    #[error("{0}: write each move as GUESS:FEEDBACK, e.g. 0123:1A2B")]
    Syntax(Echo),
    /// A bad code.
    #[error("in {text}: {error}")]
    Code {
        /// the move
        text: Echo,
        /// what is wrong (in the message, so not chained as a source too)
        error: CodeError,
    },
    /// A bad answer.
    #[error("in {text}: {error}")]
    Feedback {
        /// the move
        text: Echo,
        /// what is wrong (in the message, so not chained as a source too)
        error: FeedbackError,
    },
}

/// Reads one move `GUESS:ANSWER`.
pub fn parse_move(game: &Game, text: &str) -> Result<(Code, Feedback), MoveError> {
    let (g, f) = text
        .split_once(':')
        .ok_or_else(|| MoveError::Syntax(Echo::new(text)))?;
    let g = game.parse_code(g).map_err(|error| MoveError::Code {
        text: Echo::new(text),
        error,
    })?;
    let f = game
        .parse_feedback(f)
        .map_err(|error| MoveError::Feedback {
            text: Echo::new(text),
            error,
        })?;
    Ok((g, f))
}

/// Reads a history, one move a word.
pub fn parse_history<S: AsRef<str>>(
    game: &Game,
    words: &[S],
) -> Result<Vec<(Code, Feedback)>, MoveError> {
    words.iter().map(|w| parse_move(game, w.as_ref())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    fn moo() -> Game {
        Game::new("moo:4x10".parse::<Rules>().unwrap())
    }

    #[test]
    fn moves_parse_in_every_answer_form() {
        let game = moo();
        for text in ["0123:1A2B", "0123:1a2b", "0123:1 2", "0123:1,2"] {
            let (g, f) = parse_move(&game, text).unwrap();
            assert_eq!(game.format_code(g), "0123");
            assert_eq!(game.format_feedback(f), "1A2B");
        }
        assert!(matches!(
            parse_move(&game, "0123"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            parse_move(&game, "0023:1A0B"),
            Err(MoveError::Code { .. })
        ));
        assert!(matches!(
            parse_move(&game, "0123:3A2B"),
            Err(MoveError::Feedback { .. })
        ));
    }

    #[test]
    fn echo_escapes_and_cuts() {
        assert_eq!(Echo::new("0123").to_string(), "'0123'");
        assert_eq!(Echo::new("\u{1b}[A").to_string(), "'\\u{1b}[A'");
        let long = "x".repeat(500);
        let shown = Echo::new(&long).to_string();
        assert_eq!(shown.chars().count(), ECHO_MAX + 3);
        assert!(shown.ends_with("…'"));
    }
}
