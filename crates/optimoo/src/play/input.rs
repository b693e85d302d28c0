//! Lines typed by a person (or piped by a script), read with a bound.
//!
//! Invariant: reading a line holds at most [`LINE_MAX`] bytes in memory
//! and reads at most [`SKIP_MAX`] bytes before it returns, whatever the
//! input is (`/dev/zero`, binary data, an endless line): an over-long or
//! non-UTF-8 line is reported as [`Line::Unreadable`] so that the caller can
//! ask again, and input with no line end in sight is an error.
//! Text read from the user is shown back only escaped and cut: the model's
//! parse errors quote it through [`crate::model::echo::Echo`].
//! A UTF-8 byte-order mark at the start of a line (input piped from a file
//! saved with one, or from several such files) is dropped: it is no
//! character of the answer, as in a `--secrets` list.

use std::io::{self, BufRead};

use crate::model::secrets::BOM;

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

/// Reads one line of at most [`LINE_MAX`] bytes, a leading byte-order mark
/// dropped.
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
        Ok(text) => Ok(Line::Text(match text.strip_prefix(BOM) {
            Some(rest) => rest.to_string(),
            None => text,
        })),
        Err(_) => Ok(Line::Unreadable("that line is not UTF-8 text")),
    }
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

    /// Answers piped from a file saved with a byte-order mark, or from
    /// such files one after another (issue 16): the mark is no character
    /// of the line; one inside a line stays.
    #[test]
    fn a_byte_order_mark_starts_no_line() {
        assert_eq!(
            lines("\u{feff}1A2B\r\n\u{feff}quit\nx\u{feff}\n".as_bytes()),
            vec![
                Line::Text("1A2B".into()),
                Line::Text("quit".into()),
                Line::Text("x\u{feff}".into())
            ]
        );
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
}
