//! Exit codes, error lines and the standard streams, shared by both
//! binaries (`optimoo` and `moo` link this crate; `moo` links nothing of
//! the command line's crate). The README's table: 0 success (a
//! won game, a tree found, a verified file), 1 a negative answer (no
//! strategy within the cap, a contradiction, an unfinished game, a tree that
//! fails verification), 2 an error (bad input, an unreadable or unwritable
//! file).
//!
//! Every error line has one form, the program's name, `error:` and the
//! message (`optimoo: error: --secrets words.txt: cannot read ...`, `moo:
//! error: ...`), clap's usage errors included; a message about a file
//! given by an option names the option; a negative answer told on stderr
//! (a history no secret gives: exit code 1) has the same form. Other lines
//! of the program's own on stderr (`moo: the game is won`) start with the
//! program's name.
//!
//! Invariants: nothing here panics when stdout or stderr is closed (a
//! closed stdout ends the run with exit code 0, a closed stderr is ignored);
//! each error is printed once, causes joined by ": " with repeated causes
//! dropped, control characters escaped so that no text of the user's (a
//! path, an argument) reaches the terminal raw.

use std::io::Write;
use std::process::ExitCode;

/// Exit code for a negative answer.
pub const EXIT_NEGATIVE: u8 = 1;
/// Exit code for an error.
pub const EXIT_ERROR: u8 = 2;

/// The exit code of a finished run of the binary `program`: its own code,
/// 0 for a closed pipe (`... | head` is not an error), else the error on
/// stderr ([`error_line`]) and exit code 2.
pub fn finish(result: anyhow::Result<ExitCode>, program: &str) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            say(&error_line(program, &message(&err)));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// The command line parsed, or the exit code of a run that ends here:
/// `--help` and `--version` (0, printed by clap), or a usage error (2, on
/// stderr). clap quotes a bad value as it was typed, so when an argument
/// holds a control character (an arrow key's escape sequence) the error
/// shown is the one for the arguments with their control characters
/// escaped.
pub fn parse_args<C: clap::Parser>() -> Result<C, ExitCode> {
    let err = match C::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(err) => err,
    };
    let code = ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(EXIT_ERROR));
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let shown = if args.iter().any(|a| a.chars().any(char::is_control)) {
        let safe = args.iter().map(|a| escaped(a, false));
        match C::try_parse_from(safe) {
            Err(again) => again,
            Ok(_) => {
                let name = <C as clap::CommandFactory>::command()
                    .get_name()
                    .to_string();
                say(&format!(
                    "{name}: {}",
                    escaped(&err.render().to_string(), true)
                ));
                return Err(code);
            }
        }
    } else {
        err
    };
    // clap's own printing: colours on a terminal, help on stdout; a closed
    // stream is ignored. An error (not --help, not --version) starts with
    // the program's name, as every error line does: `moo: error: ...`.
    if shown.use_stderr() {
        let name = <C as clap::CommandFactory>::command()
            .get_name()
            .to_string();
        let _ = write!(std::io::stderr(), "{name}: ");
    }
    let _ = shown.print();
    Err(code)
}

/// The error line of `program` for `text`: `PROGRAM: error: TEXT`, the one
/// form of every error either binary prints.
pub fn error_line(program: &str, text: &str) -> String {
    format!("{program}: error: {text}")
}

/// Writes `program`'s error line for `text` on stderr ([`error_line`]).
pub fn say_error(program: &str, text: &str) {
    say(&error_line(program, text));
}

/// Writes a line on stderr; a closed stderr is ignored (there is no one
/// left to tell). Control characters are escaped.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{}", escaped(line, false));
}

/// `text` with control characters written as escapes (`\u{1b}`), line ends
/// kept when `lines`.
pub fn escaped(text: &str, lines: bool) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !(lines && c == '\n') {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// A writer whose failures are ignored: for stderr, where a closed stream
/// must not end the run (the answers on stdout still matter).
#[derive(Debug)]
pub struct Lossy<W>(pub W);

impl<W: Write> Write for Lossy<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// An error and its causes on one line, a cause left out when the text
/// before it already ends with it (an I/O error's text is often repeated
/// by the error that wraps it).
pub fn message(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_cause_is_printed_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let text = io.to_string();
        let err = anyhow::Error::new(io).context(format!("reading x: {text}"));
        assert_eq!(message(&err), format!("reading x: {text}"));
        let err = anyhow::anyhow!("inner").context("outer");
        assert_eq!(message(&err), "outer: inner");
    }

    #[test]
    fn an_error_line_names_the_program_then_error() {
        assert_eq!(error_line("moo", "bad"), "moo: error: bad");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escaped("a\u{1b}[A\nb", false), "a\\u{1b}[A\\nb");
        assert_eq!(escaped("a\u{1b}[A\nb", true), "a\\u{1b}[A\nb");
    }

    #[test]
    fn lossy_writes_never_fail() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
        }
        let mut w = Lossy(Closed);
        assert!(writeln!(w, "hello").is_ok());
        assert!(w.flush().is_ok());
    }
}
