//! User text as shown back in messages.
//!
//! Invariant: an [`Echo`] holds no control character (an arrow key's escape
//! sequence cannot move the cursor), shows quotes and backslashes escaped,
//! and is at most [`ECHO_MAX`] characters long (then an ellipsis), whatever
//! the user typed. Every error that quotes user input quotes it this way.

use std::fmt;

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

#[cfg(test)]
mod tests {
    use super::*;

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
