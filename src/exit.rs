//! Exit codes and error lines, shared by both binaries (`moo` includes this
//! file with `#[path]`, so that it links nothing of the command line's
//! crate). The README's table: 0 success (a won game, a tree found, a
//! verified file), 1 a negative answer (no strategy within the cap, a
//! contradiction, an unfinished game, a tree that fails verification), 2 an
//! error (bad input, an unreadable or unwritable file).
//!
//! Invariant: nothing here panics when stderr is closed, and each error
//! is printed once, causes joined by ": " with repeated causes dropped.

use std::io::Write;
use std::process::ExitCode;

/// Exit code for a negative answer.
pub const EXIT_NEGATIVE: u8 = 1;
/// Exit code for an error.
pub const EXIT_ERROR: u8 = 2;

/// The exit code of a finished run of a binary: its own code, 0 for a
/// closed pipe (`... | head` is not an error), else the error on stderr
/// after `prefix` and exit code 2.
pub fn finish(result: anyhow::Result<ExitCode>, prefix: &str) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            // A closed stderr cannot be told anything: ignore the failure.
            let _ = writeln!(std::io::stderr(), "{prefix}: {}", message(&err));
            ExitCode::from(EXIT_ERROR)
        }
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
}
