//! Games of any size (up to 2^32 codes), a second representation of the
//! codes and candidate sets beside the model's: no `N x N` feedback table,
//! no 16-bit code index. The model's `Rules`, `Code` and `Game` stop at
//! 65,535 codes; a [`Shape`] goes on (`moo:10x10`, `mm:8x8`).
//!
//! A [`Shape`] is the rules of such a game; its codes are [`Packed`]
//! (packed.rs: symbols in nibbles and symbol counts in unary, so an answer
//! costs a few word operations and two popcounts), listed as candidate
//! sets ([`Shape::candidates`]) and partitioned in place
//! ([`Shape::partition`]). [`counted`] counts the set a history leaves and
//! picks codes from it without listing it, which is all the phased
//! strategy (`heuristic::phased`) reads of a large set. What is built on
//! them lives with its kind: the phased strategy with the heuristics, the
//! tree file of a shape with the tree file (`tree::format::shape`), the
//! players of such games in `play`.
//!
//! Invariants:
//! - a [`Shape`] has 1 to 15 positions, 1 to 16 symbols, at most 2^32
//!   codes, and with repeats `positions * symbols <= 128` (the unary
//!   counts fit 128 bits);
//! - a code's [`Packed`] order is the lexicographic order, so on a game
//!   that the model also handles, codes and answers are the model's
//!   (tested on every such game);
//! - like the rest of the model, nothing here knows a strategy, a tree or
//!   a search.

pub mod counted;
mod packed;

use std::fmt;
use std::str::FromStr;

use crate::model::Rules;

pub use packed::Packed;

/// Most positions (a code's symbols fit one word of nibbles).
pub const MAX_POSITIONS: usize = 15;
/// Most symbols (a symbol fits a nibble).
pub const MAX_SYMBOLS: usize = 16;
/// Most codes a game may have.
pub const MAX_CODES: u128 = 1 << 32;

/// The most moves a history of these games may have: no game needs more
/// (the phased strategy's games end in a fraction of it, every guess
/// splitting its set; its play-outs give up at this depth too), so a
/// longer history only repeats or wastes guesses. Commands refuse it
/// before any work: every move costs the candidate builder time on every
/// prefix.
pub const MAX_MOVES: usize = 64;
/// Bytes per code the walk holds: the code, its mark, and the scratch copy
/// a partition makes.
pub const BYTES_PER_CODE: u64 = 2 * (std::mem::size_of::<Packed>() as u64 + 1);

/// Errors in the description of a game or a code of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// Not `moo:KxN` or `mm:KxN`.
    #[error("cannot read game {0:?}: write moo:KxN (K distinct symbols out of N) or mm:KxN (repeats allowed)")]
    Syntax(String),
    /// Outside the limits of the module doc.
    #[error("{game}: {why}")]
    Limits {
        /// the game as written
        game: String,
        /// which limit
        why: String,
    },
    /// A code that is not a code of the game.
    #[error("cannot read {text:?}: {why}")]
    Code {
        /// the text (cut to 40 characters)
        text: String,
        /// why
        why: String,
    },
}

/// The rules of a game of any size (see the module doc for the limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    positions: usize,
    symbols: usize,
    repeats: bool,
    /// Bit 0 of each nibble a position uses.
    nibble_ones: u64,
}

impl Shape {
    /// Checks and builds the rules.
    pub fn new(positions: usize, symbols: usize, repeats: bool) -> Result<Shape, ShapeError> {
        let game = format!(
            "{}:{positions}x{symbols}",
            if repeats { "mm" } else { "moo" }
        );
        let limit = |why: String| ShapeError::Limits {
            game: game.clone(),
            why,
        };
        if positions == 0 || positions > MAX_POSITIONS {
            return Err(limit(format!(
                "a game needs 1 to {MAX_POSITIONS} positions"
            )));
        }
        if symbols == 0 || symbols > MAX_SYMBOLS {
            return Err(limit(format!(
                "games of more than 65,535 codes are played with 1 to {MAX_SYMBOLS} symbols"
            )));
        }
        if !repeats && symbols < positions {
            return Err(limit(format!(
                "without repeats a code of {positions} positions needs at least {positions} symbols"
            )));
        }
        if repeats && positions * symbols > 128 {
            return Err(limit(
                "with repeats, positions x symbols must be at most 128".to_string(),
            ));
        }
        let shape = Shape {
            positions,
            symbols,
            repeats,
            nibble_ones: (0..positions).fold(0, |m, i| m | 1 << (4 * i)),
        };
        if shape.code_count() > MAX_CODES {
            return Err(limit(format!(
                "{} codes; optimoo plays games of at most 2^32 = {MAX_CODES} codes",
                shape.code_count()
            )));
        }
        Ok(shape)
    }

    /// The shape of a game the model handles too.
    pub fn from_rules(rules: Rules) -> Result<Shape, ShapeError> {
        Shape::new(rules.positions(), rules.symbols(), rules.repeats())
    }

    /// The model's rules of this game, when it has at most 65,535 codes.
    pub fn rules(&self) -> Option<Rules> {
        Rules::new(self.positions, self.symbols, self.repeats).ok()
    }

    /// Positions `k`.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Symbols `n`.
    pub fn symbols(&self) -> usize {
        self.symbols
    }

    /// Whether a symbol may repeat.
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// Bits per symbol in the unary counts.
    fn width(&self) -> usize {
        if self.repeats {
            self.positions
        } else {
            1
        }
    }

    /// Number of legal codes.
    pub fn code_count(&self) -> u128 {
        (0..self.positions)
            .map(|i| {
                if self.repeats {
                    self.symbols as u128
                } else {
                    (self.symbols - i) as u128
                }
            })
            .product()
    }

    /// Bytes a walk over every code holds (codes, marks, partition
    /// scratch), before the per-thread buffers.
    pub fn memory_bytes(&self) -> u64 {
        self.code_count() as u64 * BYTES_PER_CODE
    }

    /// Sorts `set` (and `marks` alongside, when given) by answer to
    /// `guess`, stably: each class stays in its order. Returns the
    /// classes' answers (`Feedback::index`) and lengths in answer order.
    pub fn partition(
        &self,
        guess: Packed,
        set: &mut [Packed],
        marks: Option<&mut [bool]>,
    ) -> Vec<(usize, usize)> {
        let answers: Vec<u8> = set
            .iter()
            .map(|&s| self.feedback(s, guess).index() as u8)
            .collect();
        let mut counts = [0usize; 256];
        for &a in &answers {
            counts[a as usize] += 1;
        }
        let mut start = [0usize; 256];
        let mut at = 0;
        for f in 0..256 {
            start[f] = at;
            at += counts[f];
        }
        let mut codes = vec![Packed::default(); set.len()];
        let mut flags = vec![false; if marks.is_some() { set.len() } else { 0 }];
        for (i, &a) in answers.iter().enumerate() {
            let p = &mut start[a as usize];
            codes[*p] = set[i];
            if let Some(m) = marks.as_deref() {
                flags[*p] = m[i];
            }
            *p += 1;
        }
        set.copy_from_slice(&codes);
        if let Some(marks) = marks {
            marks.copy_from_slice(&flags);
        }
        (0..256)
            .filter(|&f| counts[f] > 0)
            .map(|f| (f, counts[f]))
            .collect()
    }

    /// Size of an array indexed by `Feedback::index`: `(k + 1)²`.
    pub fn feedback_slots(&self) -> usize {
        (self.positions + 1) * (self.positions + 1)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if self.repeats { "mm" } else { "moo" };
        write!(f, "{prefix}:{}x{}", self.positions, self.symbols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let (k, n, repeats) = crate::model::parse_preset(text)
            .ok_or_else(|| ShapeError::Syntax(text.chars().take(40).collect()))?;
        Shape::new(k, n, repeats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_count_and_refuse() {
        let s: Shape = "moo:10x10".parse().unwrap();
        assert_eq!(s.code_count(), 3_628_800);
        assert_eq!(s.to_string(), "moo:10x10");
        assert!(s.rules().is_none());
        assert_eq!("mm:8x8".parse::<Shape>().unwrap().code_count(), 1 << 24);
        assert_eq!(
            "moo:4x10".parse::<Shape>().unwrap().rules(),
            Some(Rules::standard())
        );
        for bad in [
            "mm:16x16",
            "mm:9x15",
            "moo:4x17",
            "moo:11x10",
            "mm:0x3",
            "x",
            "mm:4",
        ] {
            assert!(bad.parse::<Shape>().is_err(), "{bad}");
        }
        // 2^32 codes exactly is allowed; one position more is not.
        assert!("mm:8x16".parse::<Shape>().is_ok());
        assert!("mm:9x16".parse::<Shape>().is_err());
    }
}
