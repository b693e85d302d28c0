//! The answers of a JSON API over the player (`optimoo serve`'s
//! `/api/next`, `/api/rank` and `/api/analyze`): a history read from one
//! string, bounded, and answered as one JSON array of the very lines the
//! `moo` player prints.
//!
//! Invariants:
//! - [`rank`] answers the lines of `moo rank --json` ([`report::row_json`])
//!   and [`analyze`] those of `moo analyze --json`
//!   ([`report::judged_json`]), the same functions building them, as one
//!   JSON array in their order; [`next`] answers one object
//!   ([`report::advice_json`]) whose `line` is the line `moo next` prints.
//! - a won history answers `[]` for `next` and `rank` (`moo next` and
//!   `moo rank` print nothing then), and is judged move by move by
//!   `analyze`; a contradictory history, or a move after the win, is an
//!   [`ApiError::Refused`] carrying `moo`'s message.
//! - a history holds at most [`MAX_MOVES`] moves, counted before any is
//!   read; every search stops at its deadline with proven bounds (the
//!   lines say which values are exact), as `moo rank --budget` does.
//! - nothing here reads or writes a file, starts a thread or prints.

use std::time::Instant;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::moves::{self, MoveError};
use crate::play::player::{PlayError, Player};
use crate::play::rank::{Advisor, RankError, Request};
use crate::play::{analyze as judge, report};

/// The most moves a history may hold (a game of moo:4x10 played well
/// takes at most 7, one played badly rarely more than 15).
pub const MAX_MOVES: usize = 64;

/// Why a request cannot be answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// More moves than [`MAX_MOVES`].
    #[error("history: {count} moves, more than the {max} a request may hold")]
    TooLong {
        /// the moves given
        count: usize,
        /// the limit
        max: usize,
    },
    /// A move that cannot be read.
    #[error("history: {0}")]
    Move(#[from] MoveError),
    /// No history where one is needed (`analyze`).
    #[error("history: no moves to judge; give them as CODE:xAyB separated by spaces or commas")]
    Empty,
    /// A history the player refuses: contradictory, or played on after
    /// the win (as `moo` refuses it, exit code 1).
    #[error("{0}")]
    Refused(PlayError),
    /// The position cannot be ranked (too large for the exact search, a
    /// guess outside a secret list).
    #[error("{0}")]
    Unanswerable(String),
}

impl From<RankError> for ApiError {
    fn from(err: RankError) -> ApiError {
        match err {
            RankError::Play(PlayError::Move(e)) => ApiError::Move(e),
            RankError::Play(e) => ApiError::Refused(e),
            e => ApiError::Unanswerable(e.to_string()),
        }
    }
}

/// The moves of `text`, separated by spaces or commas (empty pieces
/// skipped): at most [`MAX_MOVES`], each `CODE:FEEDBACK` with the feedback
/// written without a space or a comma (`1A2B`, `12`).
pub fn parse_history(game: &Game, text: &str) -> Result<Vec<(Code, Feedback)>, ApiError> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    if words.len() > MAX_MOVES {
        return Err(ApiError::TooLong {
            count: words.len(),
            max: MAX_MOVES,
        });
    }
    Ok(moves::parse_history(game, &words)?)
}

/// One JSON array of `lines`, each a JSON value.
pub fn array(lines: &[String]) -> String {
    format!("[{}]", lines.join(","))
}

/// `next`: the player's move after `history`, as one object
/// ([`report::advice_json`]); none after a winning answer.
pub fn next(player: &Player<'_>, history: &[(Code, Feedback)]) -> Result<Vec<String>, ApiError> {
    match player.advise(history) {
        Ok(advice) => Ok(vec![report::advice_json(player, &advice)]),
        Err(PlayError::Solved(_)) => Ok(Vec::new()),
        Err(PlayError::Move(e)) => Err(ApiError::Move(e)),
        Err(e) => Err(ApiError::Refused(e)),
    }
}

/// `rank`: the first `top` rows (0: all) after `history`, searched until
/// `deadline`; none after a winning answer.
pub fn rank(
    advisor: &Advisor<'_>,
    history: &[(Code, Feedback)],
    top: usize,
    deadline: Option<Instant>,
) -> Result<Vec<String>, ApiError> {
    let ranking = match advisor.rank(history, Request { top, deadline }) {
        Ok(r) => r,
        Err(RankError::Play(PlayError::Solved(_))) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    Ok(ranking
        .rows
        .iter()
        .map(|row| report::row_json(advisor.game, row, ranking.left))
        .collect())
}

/// `analyze`: every move of `history` judged, all of them by `deadline`
/// (each move an equal share of the time left).
pub fn analyze(
    advisor: &Advisor<'_>,
    history: &[(Code, Feedback)],
    deadline: Option<Instant>,
) -> Result<Vec<String>, ApiError> {
    if history.is_empty() {
        return Err(ApiError::Empty);
    }
    let judged = judge::analyze(advisor, history, None, deadline)?;
    Ok(judged
        .iter()
        .map(|j| report::judged_json(advisor.game, j))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    fn mm() -> Game {
        Game::new("mm:4x6".parse::<Rules>().unwrap())
    }

    #[test]
    fn spaces_and_commas_separate_moves() {
        let game = mm();
        let a = parse_history(&game, "0011:1A0B, 2233:0A1B").unwrap();
        let b = parse_history(&game, " 0011:1A0B 2233:0A1B ").unwrap();
        let c = moves::parse_history(&game, &["0011:1A0B", "2233:0A1B"]).unwrap();
        assert_eq!(a, c);
        assert_eq!(b, c);
        assert!(parse_history(&game, "").unwrap().is_empty());
    }

    #[test]
    fn a_long_history_is_refused_before_it_is_read() {
        let game = mm();
        let text = vec!["junk"; MAX_MOVES + 1].join(" ");
        assert!(matches!(
            parse_history(&game, &text),
            Err(ApiError::TooLong { count, .. }) if count == MAX_MOVES + 1
        ));
        let ok = vec!["0011:1A0B"; MAX_MOVES].join(",");
        assert_eq!(parse_history(&game, &ok).unwrap().len(), MAX_MOVES);
    }

    #[test]
    fn a_won_history_answers_nothing_and_a_contradiction_is_refused() {
        let game = mm();
        let player = Player::without_tree(&game);
        let advisor = Advisor::of_file(&game, None);
        let won = parse_history(&game, "0011:4A0B").unwrap();
        assert!(next(&player, &won).unwrap().is_empty());
        assert!(rank(&advisor, &won, 3, None).unwrap().is_empty());
        assert_eq!(analyze(&advisor, &won, None).unwrap().len(), 1);
        let bad = parse_history(&game, "0011:4A0B 0011:0A0B").unwrap();
        assert!(matches!(next(&player, &bad), Err(ApiError::Refused(_))));
        assert!(matches!(
            rank(&advisor, &bad, 3, None),
            Err(ApiError::Refused(_))
        ));
        assert!(matches!(analyze(&advisor, &[], None), Err(ApiError::Empty)));
    }

    #[test]
    fn analyze_stops_every_move_at_the_one_deadline() {
        let game = mm();
        let advisor = Advisor::of_file(&game, None);
        let history = parse_history(&game, "0012:0A1B,1134:1A1B,2245:1A0B").unwrap();
        let exact = |deadline| -> Vec<bool> {
            analyze(&advisor, &history, deadline)
                .unwrap()
                .iter()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["exact"] == true)
                .collect()
        };
        // Unlimited, every loss is exact; with the deadline already past,
        // every move is still judged, and the first, which needs the
        // search of the whole game, is not exact.
        assert_eq!(exact(None), vec![true; 3]);
        let past = exact(Some(Instant::now()));
        assert_eq!(past.len(), 3);
        assert!(!past[0], "{past:?}");
    }

    #[test]
    fn answers_are_one_json_array_of_moo_lines() {
        let game = mm();
        let advisor = Advisor::of_file(&game, None);
        let history = parse_history(&game, "0011:1A0B,2233:0A1B").unwrap();
        let lines = rank(&advisor, &history, 2, None).unwrap();
        assert_eq!(lines.len(), 2);
        let parsed: serde_json::Value = serde_json::from_str(&array(&lines)).unwrap();
        let first: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(parsed[0], first);
        assert!(first["guess"].is_string() && first["exact"] == true);
        let player = Player::without_tree(&game);
        let advice = next(&player, &history).unwrap();
        let object: serde_json::Value = serde_json::from_str(&advice[0]).unwrap();
        let line = object["line"].as_str().unwrap();
        assert!(
            line.starts_with(object["guess"].as_str().unwrap()),
            "{line}"
        );
    }
}
