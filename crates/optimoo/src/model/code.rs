//! Codes: the secrets and guesses of a game, and their list.
//!
//! Invariants:
//! - A [`Code`] is an index into the [`Codebook`] of one game: `0 <= index <
//!   rules.code_count() <= 65_535`. Indices follow the lexicographic order of
//!   the written codes, so `Code` order *is* lexicographic order and the
//!   smallest legal code is `Code(0)`.
//! - Codes are written one character a position, symbols `0-9` then `a-z`;
//!   reading also accepts `A-Z`.
//! - A game whose codes are a list ([`Rules::listed`]) has the codebook
//!   of its list ([`Codebook::from_list`]): the listed codes, sorted, are
//!   codes `0 .. len`, in the same lexicographic order; [`Codebook::new`]
//!   is only for the games of every code.
//! - The codebook stores, for every code, its symbols (`positions` bytes),
//!   the bit set of symbols it uses and, for games with repeats, how many
//!   times each symbol occurs: what the feedback rule needs.

use crate::model::echo::Echo;
use crate::model::rules::Rules;

/// Index of a legal code in its game's [`Codebook`] (lexicographic order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Code(pub u16);

impl Code {
    /// The index as a `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Errors reading a written code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodeError {
    /// Wrong number of characters.
    #[error("{text} has {got} symbols; a code of {rules} has exactly {want}")]
    Length {
        /// the text read
        text: Echo,
        /// the game
        rules: Rules,
        /// characters read
        got: usize,
        /// positions of the game
        want: usize,
    },
    /// A character that is not a symbol of the game.
    #[error("{text}: {symbol} is not a symbol of {rules}, whose symbols are {range}")]
    Symbol {
        /// the text read
        text: Echo,
        /// the game
        rules: Rules,
        /// the bad character
        symbol: Echo,
        /// the legal symbols, written as a range
        range: String,
    },
    /// A repeated symbol in a game without repeats.
    #[error("{text} repeats the symbol {symbol}, which {rules} does not allow (use mm:KxN for games with repeats)")]
    Repeat {
        /// the text read
        text: Echo,
        /// the game
        rules: Rules,
        /// the repeated character
        symbol: Echo,
    },
    /// A well-formed code that is not in the game's code list.
    #[error("{text} is not in the list of codes of {rules}")]
    NotListed {
        /// the text read
        text: Echo,
        /// the game
        rules: Rules,
    },
}

/// The character that writes symbol `s` (`0-9` then `a-z`).
pub fn symbol_char(s: u8) -> char {
    debug_assert!(s < 36);
    if s < 10 {
        (b'0' + s) as char
    } else {
        (b'a' + s - 10) as char
    }
}

/// The symbol a character writes, if any (`0-9`, `a-z`, `A-Z`).
pub fn char_symbol(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        _ => None,
    }
}

/// Every legal code of one game, with what the feedback rule needs.
#[derive(Debug, Clone)]
pub struct Codebook {
    rules: Rules,
    len: usize,
    /// `positions` symbols per code, code after code.
    symbols: Vec<u8>,
    /// Bit `s` set when the code uses symbol `s`.
    masks: Vec<u64>,
    /// With repeats: `symbols` counts per code, code after code; else empty.
    counts: Vec<u8>,
}

impl Codebook {
    /// Lists every legal code of `rules` in lexicographic order. The rules
    /// of a code list have no codebook of their own: only their list
    /// makes one (`Codebook::from_list`), and a caller holding listed
    /// rules always holds their game (a panic here is a bug).
    pub fn new(rules: Rules) -> Codebook {
        assert!(
            !rules.is_listed(),
            "a code list's codebook is made from the list"
        );
        let k = rules.positions();
        let n = rules.symbols() as u8;
        let len = rules.code_count();
        let mut symbols = Vec::with_capacity(len * k);
        let mut current = vec![0u8; k];
        // Odometer over all k-tuples, keeping the legal ones.
        'outer: loop {
            let legal = rules.repeats() || {
                let mut seen = 0u64;
                current.iter().all(|&s| {
                    let fresh = seen & (1 << s) == 0;
                    seen |= 1 << s;
                    fresh
                })
            };
            if legal {
                symbols.extend_from_slice(&current);
            }
            let mut i = k;
            loop {
                if i == 0 {
                    break 'outer;
                }
                i -= 1;
                current[i] += 1;
                if current[i] < n {
                    break;
                }
                current[i] = 0;
            }
        }
        debug_assert_eq!(symbols.len(), len * k);
        Codebook::with_symbols(rules, symbols)
    }

    /// The codebook of a code list: `symbols` holds the codes of `rules`
    /// (listed rules of as many codes), `positions` symbols each, sorted
    /// and distinct ([`crate::model::CodeList`] makes them so).
    pub(crate) fn from_list(rules: Rules, symbols: Vec<u8>) -> Codebook {
        debug_assert_eq!(symbols.len(), rules.code_count() * rules.positions());
        Codebook::with_symbols(rules, symbols)
    }

    fn with_symbols(rules: Rules, symbols: Vec<u8>) -> Codebook {
        let k = rules.positions();
        let len = symbols.len() / k;
        let masks = symbols
            .chunks_exact(k)
            .map(|c| c.iter().fold(0u64, |m, &s| m | 1 << s))
            .collect();
        let counts = if rules.repeats() {
            let mut counts = vec![0u8; len * rules.symbols()];
            for (i, c) in symbols.chunks_exact(k).enumerate() {
                for &s in c {
                    counts[i * rules.symbols() + s as usize] += 1;
                }
            }
            counts
        } else {
            Vec::new()
        };
        Codebook {
            rules,
            len,
            symbols,
            masks,
            counts,
        }
    }

    /// The game these codes belong to.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of legal codes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: every game has at least one code.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All codes, smallest first.
    pub fn all(&self) -> impl ExactSizeIterator<Item = Code> + Clone {
        (0..self.len as u16).map(Code)
    }

    /// The symbols of a code, one per position.
    #[inline]
    pub fn symbols(&self, code: Code) -> &[u8] {
        let k = self.rules.positions();
        &self.symbols[code.index() * k..code.index() * k + k]
    }

    /// The symbols of every code, in code order, one after another.
    pub(crate) fn all_symbols(&self) -> &[u8] {
        &self.symbols
    }

    /// Bit set of the symbols a code uses.
    #[inline]
    pub fn mask(&self, code: Code) -> u64 {
        self.masks[code.index()]
    }

    /// Bit set of the symbols used by some code of `set`.
    pub fn symbols_of(&self, set: &[Code]) -> u64 {
        set.iter().fold(0, |m, &c| m | self.mask(c))
    }

    /// How often each symbol occurs in a code (games with repeats only).
    #[inline]
    pub(crate) fn counts(&self, code: Code) -> &[u8] {
        let n = self.rules.symbols();
        &self.counts[code.index() * n..code.index() * n + n]
    }

    /// The code with these symbols, if it is legal.
    pub fn find(&self, symbols: &[u8]) -> Option<Code> {
        let k = self.rules.positions();
        if symbols.len() != k {
            return None;
        }
        // Codes are sorted lexicographically: binary search.
        let (mut lo, mut hi) = (0usize, self.len);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.symbols[mid * k..mid * k + k].cmp(symbols) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(Code(mid as u16)),
            }
        }
        None
    }

    /// Reads a written code such as `0123`.
    pub fn parse(&self, text: &str) -> Result<Code, CodeError> {
        let rules = self.rules;
        let trimmed = text.trim();
        let chars: Vec<char> = trimmed.chars().collect();
        if chars.len() != rules.positions() {
            return Err(CodeError::Length {
                text: Echo::new(trimmed),
                rules,
                got: chars.len(),
                want: rules.positions(),
            });
        }
        let mut symbols = Vec::with_capacity(chars.len());
        let mut seen = 0u64;
        for &c in &chars {
            let s = match char_symbol(c) {
                Some(s) if (s as usize) < rules.symbols() => s,
                _ => {
                    return Err(CodeError::Symbol {
                        text: Echo::new(trimmed),
                        rules,
                        symbol: Echo::new(&c.to_string()),
                        range: format!("0-{}", symbol_char(rules.symbols() as u8 - 1)),
                    })
                }
            };
            if !rules.repeats() && seen & (1 << s) != 0 {
                return Err(CodeError::Repeat {
                    text: Echo::new(trimmed),
                    rules,
                    symbol: Echo::new(&c.to_string()),
                });
            }
            seen |= 1 << s;
            symbols.push(s);
        }
        self.find(&symbols).ok_or_else(|| CodeError::NotListed {
            text: Echo::new(trimmed),
            rules,
        })
    }

    /// Writes a code, one character a position.
    pub fn format(&self, code: Code) -> String {
        self.symbols(code).iter().map(|&s| symbol_char(s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moo_codes_are_listed_in_order() {
        let book = Codebook::new(Rules::standard());
        assert_eq!(book.len(), 5040);
        assert_eq!(book.format(Code(0)), "0123");
        assert_eq!(book.format(Code(5039)), "9876");
        let all: Vec<String> = book.all().map(|c| book.format(c)).collect();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(all, sorted);
        for c in book.all() {
            assert_eq!(book.parse(&book.format(c)).unwrap(), c);
        }
    }

    #[test]
    fn mastermind_codes_and_parse_errors() {
        let book = Codebook::new(Rules::mm(4, 6).unwrap());
        assert_eq!(book.len(), 1296);
        assert_eq!(book.format(book.parse("5543").unwrap()), "5543");
        assert!(matches!(book.parse("123"), Err(CodeError::Length { .. })));
        assert!(matches!(book.parse("1236"), Err(CodeError::Symbol { .. })));
        let moo = Codebook::new(Rules::standard());
        assert!(matches!(moo.parse("1123"), Err(CodeError::Repeat { .. })));
        let big = Codebook::new(Rules::mm(2, 16).unwrap());
        assert_eq!(big.format(big.parse("FA").unwrap()), "fa");
    }
}
