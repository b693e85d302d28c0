//! The one parser of moves: `GUESS:ANSWER` words such as `0123:1A2B` (or
//! `0123:1,2`), alone or as a history, and the one way user input is echoed
//! back in messages.
//!
//! Invariant: a move parsed here holds a legal code of the game and an
//! answer the game can give (its bulls and cows add up to at most the
//! positions); whether a history is consistent is not decided here.

use crate::model::code::{Code, CodeError};
pub use crate::model::echo::{Echo, ECHO_MAX};
use crate::model::feedback::{Feedback, FeedbackError};
use crate::model::game::Game;

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

    /// Every parse error quotes the user's text escaped and cut, never raw
    /// (an arrow key's escape sequence, a 5000-character line).
    #[test]
    fn user_text_is_shown_escaped_and_cut() {
        let game = moo();
        let err = game.parse_code("01").unwrap_err().to_string();
        assert!(err.contains("'01' has 2 symbols"), "{err}");
        let up = "\u{1b}[A";
        for text in [up.to_string(), format!("0{up}12"), "9".repeat(5000)] {
            for err in [
                game.parse_code(&text).unwrap_err().to_string(),
                game.parse_feedback(&text).unwrap_err().to_string(),
                text.parse::<Rules>().unwrap_err().to_string(),
                parse_move(&game, &format!("{text}:1A0B"))
                    .unwrap_err()
                    .to_string(),
                parse_history(&game, &["0123:0A0B".to_string(), format!("0123:{text}")])
                    .unwrap_err()
                    .to_string(),
            ] {
                assert!(!err.contains('\u{1b}'), "{err:?}");
                assert!(err.chars().count() < 300, "{err:?}");
                assert!(err.contains('\''), "{err:?}");
            }
        }
    }
}
