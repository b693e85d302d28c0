//! Alphabets: the letters that write the symbols of a word game.
//!
//! Invariant: an [`Alphabet`] has 1 to 36 distinct characters, none of them
//! whitespace, a control character, `:` or `,`; symbol `i` is written as its
//! `i`-th character, and reading also accepts a letter's upper case when
//! only the lower case is in the alphabet.

use crate::model::code::{char_symbol, symbol_char, Code, CodeError, Codebook};
use crate::model::echo::Echo;
use crate::model::rules::MAX_SYMBOLS;

/// Why an alphabet is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --alphabet {text}: {why}")]
pub struct AlphabetError {
    /// the alphabet as given
    pub text: Echo,
    /// what is wrong
    pub why: String,
}

/// The characters that write the symbols of a word game, in symbol order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Alphabet(Vec<char>);

impl Alphabet {
    /// Reads an alphabet: 1 to 36 distinct characters, none of them
    /// whitespace, a control character, `:` or `,` (which separate moves
    /// and answers).
    pub fn new(text: &str) -> Result<Alphabet, AlphabetError> {
        let bad = |why: String| AlphabetError {
            text: Echo::new(text),
            why,
        };
        let chars: Vec<char> = text.chars().collect();
        if chars.is_empty() || chars.len() > MAX_SYMBOLS as usize {
            return Err(bad(format!(
                "it has {} characters; an alphabet has 1 to {MAX_SYMBOLS}",
                chars.len()
            )));
        }
        for (i, &c) in chars.iter().enumerate() {
            if c.is_whitespace() || c.is_control() || c == ':' || c == ',' {
                return Err(bad(format!(
                    "{} cannot be a letter (no spaces, control characters, ':' or ',')",
                    Echo::new(&c.to_string())
                )));
            }
            if chars[..i].contains(&c) {
                return Err(bad(format!("{} appears twice", Echo::new(&c.to_string()))));
            }
        }
        Ok(Alphabet(chars))
    }

    /// Number of letters (the game's symbols).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: an alphabet has a letter.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The letters as one string.
    pub fn text(&self) -> String {
        self.0.iter().collect()
    }

    /// The symbol a character writes: the character itself, else its lower
    /// case (so `BAKE` reads as `bake` over a lower-case alphabet).
    pub fn symbol(&self, c: char) -> Option<u8> {
        let find = |c: char| self.0.iter().position(|&a| a == c).map(|i| i as u8);
        find(c).or_else(|| c.to_lowercase().next().and_then(find))
    }

    /// The character of symbol `s`.
    pub fn char(&self, s: u8) -> char {
        self.0[s as usize]
    }

    /// Reads a word as a code of `book` (whose symbols must be this
    /// alphabet's letters).
    pub fn parse(&self, book: &Codebook, text: &str) -> Result<Code, CodeError> {
        let rules = book.rules();
        let got = text.chars().count();
        if got != rules.positions() {
            return Err(CodeError::Length {
                text: Echo::new(text),
                rules,
                got,
                want: rules.positions(),
            });
        }
        let mut standard = String::with_capacity(got);
        for c in text.chars() {
            match self.symbol(c).filter(|&s| (s as usize) < rules.symbols()) {
                Some(s) => standard.push(symbol_char(s)),
                None => {
                    return Err(CodeError::Symbol {
                        text: Echo::new(text),
                        rules,
                        symbol: Echo::new(&c.to_string()),
                        range: format!("the letters of {}", Echo::new(&self.text())),
                    })
                }
            }
        }
        book.parse(&standard).map_err(|e| match e {
            CodeError::Repeat { symbol, .. } => {
                let s = symbol.to_string();
                let c = s
                    .chars()
                    .nth(1)
                    .and_then(char_symbol)
                    .map_or('?', |s| self.char(s));
                CodeError::Repeat {
                    text: Echo::new(text),
                    rules,
                    symbol: Echo::new(&c.to_string()),
                }
            }
            CodeError::NotListed { .. } => CodeError::NotListed {
                text: Echo::new(text),
                rules,
            },
            other => other,
        })
    }

    /// Writes a code of `book` in this alphabet.
    pub fn format(&self, book: &Codebook, code: Code) -> String {
        book.symbols(code).iter().map(|&s| self.char(s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets_are_checked() {
        assert!(Alphabet::new("abca")
            .unwrap_err()
            .to_string()
            .contains("'a' appears twice"));
        assert!(Alphabet::new("").is_err());
        assert!(Alphabet::new("ab c").is_err());
        assert!(Alphabet::new(&"x".repeat(37)).is_err());
        assert_eq!(Alphabet::new("xyz").unwrap().len(), 3);
    }
}
