//! Lines typed by a person (or piped by a script), read with a bound.
//!
//! Invariant: reading a line holds at most [`LINE_MAX`] bytes in memory
//! and reads at most [`SKIP_MAX`] bytes before it returns, whatever the
//! input is (`/dev/zero`, binary data, an endless line): an over-long or
//! non-UTF-8 line is reported as [`Line::Unreadable`] so that the caller can
//! ask again, and input with no line end in sight is an error.
//!
//! Text read from the user is shown back only through [`Echo`] (escaped,
//! cut to [`ECHO_MAX`](crate::model::moves::ECHO_MAX) characters): [`code`],
//! [`feedback`] and [`history`] read codes, answers and moves and, when the
//! text is not [`plain`], replace the model's error (which quotes the text
//! as it is) with one that quotes its [`Echo`].

use std::io::{self, BufRead};

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::moves::{self, Echo, MoveError};

/// Longest line read as an answer, in bytes (its line end excluded).
pub const LINE_MAX: usize = 4096;

/// Most bytes of one over-long line skipped before giving up on the input.
pub const SKIP_MAX: usize = 1 << 20;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line, its line end removed.
    Text(String),
    /// A line that cannot be an answer: why.
    Unreadable(&'static str),
    /// The input has ended.
    End,
}

/// Reads one line of at most [`LINE_MAX`] bytes.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut seen = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if seen == 0 {
                return Ok(Line::End);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let body = &buf[..if done { chunk - 1 } else { chunk }];
        if !too_long && bytes.len() + body.len() <= LINE_MAX {
            bytes.extend_from_slice(body);
        } else {
            too_long = true;
            bytes.clear();
        }
        seen += chunk;
        input.consume(chunk);
        if done {
            break;
        }
        if seen > SKIP_MAX {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "no line end in the first {SKIP_MAX} bytes of input: not a text of answers"
                ),
            ));
        }
    }
    if too_long {
        return Ok(Line::Unreadable("that line is too long"));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Line::Text(text)),
        Err(_) => Ok(Line::Unreadable("that line is not UTF-8 text")),
    }
}

/// Whether `text` shows in a message as itself: [`Echo`] neither escapes
/// nor cuts anything of it (at most `ECHO_MAX` characters, no control
/// character, quote or backslash).
pub fn plain(text: &str) -> bool {
    let shown = Echo::new(text).to_string();
    shown.len() == text.len() + 2 && shown[1..shown.len() - 1] == *text
}

/// User text that cannot be read, with a message that shows the text
/// only as [`Echo`] does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(String);

impl Refused {
    /// The model's `error` about `text` when `text` is [`plain`] (its
    /// message quotes the text as it is), else `'text' is not {what}`.
    pub fn new(text: &str, error: impl std::fmt::Display, what: &str) -> Refused {
        if plain(text) {
            Refused(error.to_string())
        } else {
            Refused(format!("{} is not {what}", Echo::new(text)))
        }
    }
}

/// Reads a code typed by the user.
pub fn code(game: &Game, text: &str) -> Result<Code, Refused> {
    game.parse_code(text).map_err(|e| {
        let what = format!("a code of {}", game.rules());
        Refused::new(text, e, &what)
    })
}

/// Reads an answer typed by the user (`1A2B`, `1a2b`, `1 2`, `1,2`).
pub fn feedback(game: &Game, text: &str) -> Result<Feedback, Refused> {
    game.parse_feedback(text).map_err(|e| {
        Refused::new(
            text,
            e,
            "an answer: write bulls and cows as 1A2B, 1a2b, '1 2' or 1,2",
        )
    })
}

/// Reads one move `GUESS:ANSWER` typed by the user; a text that is not
/// [`plain`] and does not read is a [`MoveError::Syntax`] (which shows its
/// [`Echo`]).
pub fn parse_move(game: &Game, text: &str) -> Result<(Code, Feedback), MoveError> {
    moves::parse_move(game, text).map_err(|e| {
        if plain(text) {
            e
        } else {
            MoveError::Syntax(Echo::new(text))
        }
    })
}

/// Reads a history typed by the user, one move a word (see [`parse_move`]).
pub fn history<S: AsRef<str>>(
    game: &Game,
    words: &[S],
) -> Result<Vec<(Code, Feedback)>, MoveError> {
    words.iter().map(|w| parse_move(game, w.as_ref())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = io::BufReader::with_capacity(64, bytes);
        let mut out = Vec::new();
        loop {
            match read_line(&mut input).unwrap() {
                Line::End => return out,
                line => out.push(line),
            }
        }
    }

    #[test]
    fn lines_are_read_with_their_ends_removed() {
        assert_eq!(
            lines(b"1A2B\r\nquit\nlast"),
            vec![
                Line::Text("1A2B".into()),
                Line::Text("quit".into()),
                Line::Text("last".into())
            ]
        );
        assert_eq!(lines(b""), vec![]);
        assert_eq!(lines(b"\n"), vec![Line::Text(String::new())]);
    }

    #[test]
    fn long_and_binary_lines_are_unreadable_then_reading_goes_on() {
        let mut text = vec![b'x'; LINE_MAX + 1];
        text.extend_from_slice(b"\n\xff\xfe\n0A0B\n");
        let got = lines(&text);
        assert!(matches!(got[0], Line::Unreadable(_)));
        assert!(matches!(got[1], Line::Unreadable(_)));
        assert_eq!(got[2], Line::Text("0A0B".into()));
        // Exactly LINE_MAX bytes is still a line.
        let ok = vec![b'y'; LINE_MAX];
        assert!(matches!(&lines(&ok)[0], Line::Text(t) if t.len() == LINE_MAX));
    }

    #[test]
    fn endless_input_is_an_error_after_a_bounded_read() {
        // Like /dev/zero: no line end ever. `repeat` never ends, so this
        // test also shows the read stops by itself.
        let mut zeros = io::BufReader::new(io::repeat(0));
        let err = read_line(&mut zeros).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn user_text_is_shown_escaped_and_cut() {
        let game = Game::new("moo:4x10".parse().unwrap());
        assert!(plain("0123") && plain("12 3"));
        assert!(!plain("\u{1b}[A") && !plain("it's") && !plain(&"1".repeat(81)));
        // Short plain text: the model's own message.
        let err = code(&game, "01").unwrap_err().to_string();
        assert!(err.contains("'01' has 2 symbols"), "{err}");
        // An arrow key, a long line: escaped, cut, never raw.
        let up = "\u{1b}[A";
        for text in [up.to_string(), format!("0{up}12"), "9".repeat(5000)] {
            for err in [
                code(&game, &text).unwrap_err().to_string(),
                feedback(&game, &text).unwrap_err().to_string(),
                parse_move(&game, &format!("{text}:1A0B"))
                    .unwrap_err()
                    .to_string(),
                history(&game, &["0123:0A0B".to_string(), format!("0123:{text}")])
                    .unwrap_err()
                    .to_string(),
            ] {
                assert!(!err.contains('\u{1b}'), "{err:?}");
                assert!(err.chars().count() < 200, "{err:?}");
                assert!(err.contains('\''), "{err:?}");
            }
        }
        assert!(code(&game, "0123").is_ok());
        assert!(parse_move(&game, "0123:1a2b").is_ok());
    }
}
