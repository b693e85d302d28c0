//! The rules of a game: how many positions, how many symbols, repeats or
//! not, and the answer rule ([`AnswerRule`]: bulls and cows by default).
//!
//! Invariants of a [`Rules`] value (checked by [`Rules::new`], the only way to
//! make one):
//! - `1 <= positions <= MAX_POSITIONS` and `1 <= symbols <= MAX_SYMBOLS`;
//! - without repeats, `symbols >= positions`;
//! - the number of legal codes is at most [`MAX_CODES`], so a code index
//!   always fits a `u16`;
//! - under Wordle's answer rule, at most
//!   [`crate::model::answer::WORDLE_MAX_POSITIONS`] positions;
//! - a game whose codes are a list ([`Rules::listed`], made from a
//!   [`crate::model::CodeList`]: Wordle's 12,972 guesses) has its list's
//!   size and identity ([`ListId`]) instead: its codes are the listed ones
//!   (1 to [`MAX_CODES`]), the codes of its positions and symbols may be
//!   many more (at most 2^64, so a code's number in lexicographic order
//!   fits a `u64`), and two lists are two games. Such rules have no
//!   codebook of their own: only their list makes one
//!   ([`crate::model::Codebook::from_list`]).
//!
//! The guess rule ([`GuessRule`]) says which codes may be guessed at a
//! position: any code (the default), or with [`GuessRule::Consistent`]
//! only a code still possible, one of the candidates the history leaves
//! (Mastermind's "logical" play; [`GuessRule::allows`] is the one place
//! that says it). It is part of the game: its name carries it
//! (`mm:4x6/consistent`), the tree file records it, the checker verifies it.
//!
//! A game under the default rule prints and serializes exactly as before
//! the rule existed (`moo:4x10`); under another rule its name carries it
//! (`mm:3x4/wordle`), which [`Rules::from_str`] does not read yet, so no
//! file made for another rule is ever read as bulls and cows.
//!
//! Presets are written `moo:KxN` (K distinct symbols out of N, no repeats: Bulls
//! and Cows, `moo:4x10` the standard game, `moo:3x10` Hit and Blow) and
//! `mm:KxN` (repeats allowed: Mastermind, `mm:4x6` the standard game).

use std::fmt;
use std::str::FromStr;

use crate::model::answer::AnswerRule;
use crate::model::answer::Feedback;
use crate::model::answer::WORDLE_MAX_POSITIONS;
use crate::model::echo::Echo;

/// Most positions a code may have (bulls and cows then fit a nibble each).
pub const MAX_POSITIONS: u8 = 15;
/// Most symbols: codes are written `0-9` then `a-z`.
pub const MAX_SYMBOLS: u8 = 36;
/// Most legal codes a game may have, so that a code index fits a `u16`.
pub const MAX_CODES: usize = 65_535;

/// Errors in the description of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// The text is not of the form `moo:KxN` or `mm:KxN`.
    #[error("cannot read game {0}: write moo:KxN (K distinct symbols out of N, e.g. moo:4x10) or mm:KxN (repeats allowed, e.g. mm:4x6)")]
    Syntax(Echo),
    /// Positions out of range.
    #[error("a game needs 1 to {MAX_POSITIONS} positions, not {0}")]
    Positions(usize),
    /// Symbols out of range.
    #[error("a game needs 1 to {MAX_SYMBOLS} symbols (written 0-9 then a-z), not {0}")]
    Symbols(usize),
    /// Without repeats there must be at least as many symbols as positions.
    #[error("moo:{positions}x{symbols} is impossible: without repeats a code of {positions} positions needs at least {positions} symbols")]
    TooFewSymbols {
        /// positions asked for
        positions: usize,
        /// symbols asked for
        symbols: usize,
    },
    /// The game has more codes than the tool supports.
    #[error("{game} has {codes} codes; optimoo supports games of at most {MAX_CODES} codes")]
    TooLarge {
        /// the game, written as a preset
        game: String,
        /// its number of codes (saturated)
        codes: u128,
    },
    /// A code list of no code, or of more than [`MAX_CODES`], or whose
    /// game has more than 2^64 codes.
    #[error("{0}")]
    List(String),
    /// An answer rule refused: Wordle's beyond
    /// [`crate::model::answer::WORDLE_MAX_POSITIONS`] positions (its
    /// answers would not fit a byte).
    #[error("{0}")]
    Answer(String),
}

/// The parameters of a game. Cheap to copy; see the module doc for invariants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    positions: u8,
    symbols: u8,
    repeats: bool,
    /// The answer rule; bulls and cows is not serialized, so a game
    /// under it reads and writes as before the rule existed.
    #[serde(default, skip_serializing_if = "AnswerRule::is_bulls_cows")]
    answer: AnswerRule,
    /// With a code list: its size and identity (the codes are the list's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    list: Option<ListId>,
    /// Which codes may be guessed; any code is not serialized.
    #[serde(default, skip_serializing_if = "GuessRule::is_any")]
    guesses: GuessRule,
}

/// Which codes a position allows as guesses (see the module doc).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum GuessRule {
    /// Any code of the game (or of its guess list).
    #[default]
    Any,
    /// Only a candidate: a code every answer so far allows as the secret.
    Consistent,
    /// Wordle's hard mode ([`crate::model::Hard`]): greens kept in place,
    /// revealed letters used; Wordle's rule only.
    Hard,
}

impl GuessRule {
    /// Whether this is the default, any code.
    pub fn is_any(&self) -> bool {
        *self == GuessRule::Any
    }

    /// Whether `guess` may be guessed at a position whose candidates (the
    /// secrets the history leaves) contain it or not (`candidate`); hard
    /// mode asks its history besides ([`crate::model::Hard::allows`]).
    #[inline]
    pub fn allows(self, candidate: bool) -> bool {
        match self {
            GuessRule::Any | GuessRule::Hard => true,
            GuessRule::Consistent => candidate,
        }
    }
}

/// The size and identity of a game's code list: the number of codes and
/// a 32-bit hash of them (FNV-1a of the positions, the symbols and every
/// code's symbols in order, [`crate::model::CodeList::id`]), so that two
/// lists of one size are two games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ListId {
    /// Number of listed codes, 1 to [`MAX_CODES`].
    pub codes: u16,
    /// The hash of the list.
    pub id: u32,
}

impl Rules {
    /// Checks and builds the rules of a game.
    pub fn new(positions: usize, symbols: usize, repeats: bool) -> Result<Rules, RulesError> {
        if positions == 0 || positions > MAX_POSITIONS as usize {
            return Err(RulesError::Positions(positions));
        }
        if symbols == 0 || symbols > MAX_SYMBOLS as usize {
            return Err(RulesError::Symbols(symbols));
        }
        if !repeats && symbols < positions {
            return Err(RulesError::TooFewSymbols { positions, symbols });
        }
        let codes = count_codes(positions, symbols, repeats);
        if codes > MAX_CODES as u128 {
            let prefix = if repeats { "mm" } else { "moo" };
            return Err(RulesError::TooLarge {
                game: format!("{prefix}:{positions}x{symbols}"),
                codes,
            });
        }
        Ok(Rules {
            positions: positions as u8,
            symbols: symbols as u8,
            repeats,
            answer: AnswerRule::BullsCows,
            list: None,
            guesses: GuessRule::Any,
        })
    }

    /// The rules of a game whose codes are a list of `codes` codes (1 to
    /// [`MAX_CODES`]) of `positions` symbols out of `symbols`, with
    /// repeats or not, identified by `id`; the game of every code may have
    /// up to 2^64 codes.
    pub fn listed(
        positions: usize,
        symbols: usize,
        repeats: bool,
        codes: usize,
        id: u32,
    ) -> Result<Rules, RulesError> {
        Rules::shape_of_list(positions, symbols, repeats)?;
        if codes == 0 || codes > MAX_CODES {
            return Err(RulesError::List(format!(
                "a code list has 1 to {MAX_CODES} codes, not {codes}"
            )));
        }
        Ok(Rules {
            positions: positions as u8,
            symbols: symbols as u8,
            repeats,
            answer: AnswerRule::BullsCows,
            list: Some(ListId {
                codes: codes as u16,
                id,
            }),
            guesses: GuessRule::Any,
        })
    }

    /// Checks the positions and symbols of a listed game: as
    /// [`Rules::new`], but any number of codes up to 2^64.
    pub(crate) fn shape_of_list(
        positions: usize,
        symbols: usize,
        repeats: bool,
    ) -> Result<(), RulesError> {
        if positions == 0 || positions > MAX_POSITIONS as usize {
            return Err(RulesError::Positions(positions));
        }
        if symbols == 0 || symbols > MAX_SYMBOLS as usize {
            return Err(RulesError::Symbols(symbols));
        }
        if !repeats && symbols < positions {
            return Err(RulesError::TooFewSymbols { positions, symbols });
        }
        if count_codes(positions, symbols, true) > u64::MAX as u128 {
            return Err(RulesError::List(format!(
                "codes of {positions} positions over {symbols} symbols are too many to list \
                 (more than 2^64)"
            )));
        }
        Ok(())
    }

    /// The list's size and identity, for a game whose codes are a list.
    #[inline]
    pub fn list(self) -> Option<ListId> {
        self.list
    }

    /// Whether the codes are a list ([`Rules::listed`]).
    #[inline]
    pub fn is_listed(self) -> bool {
        self.list.is_some()
    }

    /// Whether the symmetry group of symbol and position permutations
    /// keeps the game: not under Wordle's rule, not for a code list (a
    /// permutation would map a listed code to an unlisted one).
    #[inline]
    pub fn has_symmetry(self) -> bool {
        self.answer.keeps_position_permutations() && self.list.is_none()
    }

    /// The same game under another guess rule (hard mode: Wordle's rule
    /// only).
    pub fn with_guesses(self, guesses: GuessRule) -> Result<Rules, RulesError> {
        if guesses == GuessRule::Hard && self.answer != AnswerRule::Wordle {
            return Err(RulesError::Answer(format!(
                "hard mode is Wordle's: it goes with --rules wordle, not {}",
                self.answer
            )));
        }
        Ok(Rules { guesses, ..self })
    }

    /// The guess rule.
    #[inline]
    pub fn guesses(self) -> GuessRule {
        self.guesses
    }

    /// The same game under another answer rule.
    pub fn with_answer(self, answer: AnswerRule) -> Result<Rules, RulesError> {
        if answer == AnswerRule::Wordle && self.positions() > WORDLE_MAX_POSITIONS {
            return Err(RulesError::Answer(format!(
                "Wordle's rule takes at most {WORDLE_MAX_POSITIONS} positions, not {}",
                self.positions()
            )));
        }
        Ok(Rules { answer, ..self })
    }

    /// The answer rule.
    #[inline]
    pub fn answer(self) -> AnswerRule {
        self.answer
    }

    /// Bulls and Cows with `positions` distinct symbols out of `symbols`.
    pub fn moo(positions: usize, symbols: usize) -> Result<Rules, RulesError> {
        Rules::new(positions, symbols, false)
    }

    /// Mastermind with `positions` pegs of `symbols` colours, repeats allowed.
    pub fn mm(positions: usize, symbols: usize) -> Result<Rules, RulesError> {
        Rules::new(positions, symbols, true)
    }

    /// The standard game, `moo:4x10`.
    pub fn standard() -> Rules {
        Rules {
            positions: 4,
            symbols: 10,
            repeats: false,
            answer: AnswerRule::BullsCows,
            list: None,
            guesses: GuessRule::Any,
        }
    }

    /// Number of positions `k` of a code.
    pub fn positions(self) -> usize {
        self.positions as usize
    }

    /// Number of symbols `n`.
    pub fn symbols(self) -> usize {
        self.symbols as usize
    }

    /// Whether a code may use a symbol more than once.
    pub fn repeats(self) -> bool {
        self.repeats
    }

    /// Number of legal codes (at most [`MAX_CODES`]): the listed ones
    /// for a code list.
    pub fn code_count(self) -> usize {
        match self.list {
            Some(l) => l.codes as usize,
            None => count_codes(self.positions(), self.symbols(), self.repeats) as usize,
        }
    }

    /// Size of an array indexed by [`crate::model::feedback::Feedback::index`]:
    /// `(k + 1)²` under bulls and cows ([`AnswerRule::slots`]).
    pub fn feedback_slots(self) -> usize {
        self.answer().slots(self.positions())
    }

    /// The winning answer, the largest a pair gives ([`AnswerRule::win`]).
    pub fn win(self) -> Feedback {
        self.answer().win(self.positions())
    }
}

fn count_codes(positions: usize, symbols: usize, repeats: bool) -> u128 {
    let mut count: u128 = 1;
    for i in 0..positions {
        let factor = if repeats { symbols } else { symbols - i };
        count = count.saturating_mul(factor as u128);
    }
    count
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if self.repeats { "mm" } else { "moo" };
        write!(f, "{prefix}:{}x{}", self.positions, self.symbols)?;
        if !self.answer().is_bulls_cows() {
            write!(f, "/{}", self.answer())?;
        }
        match self.guesses() {
            GuessRule::Any => {}
            GuessRule::Consistent => f.write_str("/consistent")?,
            GuessRule::Hard => f.write_str("/hard")?,
        }
        if let Some(l) = self.list {
            write!(f, " of {} listed codes #{:08x}", l.codes, l.id)?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let (k, n, repeats) =
            parse_preset(text).ok_or_else(|| RulesError::Syntax(Echo::new(text)))?;
        Rules::new(k, n, repeats)
    }
}

/// Reads `moo:KxN` or `mm:KxN` (any case, spaces around): positions,
/// symbols and repeats, unchecked; the one reader of game names (the
/// games of any size of `crate::model::shape` read theirs here too).
pub fn parse_preset(text: &str) -> Option<(usize, usize, bool)> {
    let lower = text.trim().to_ascii_lowercase();
    let (kind, size) = lower.split_once(':')?;
    let repeats = match kind {
        "moo" => false,
        "mm" => true,
        _ => return None,
    };
    let (k, n) = size.split_once('x')?;
    Some((k.parse().ok()?, n.parse().ok()?, repeats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_print() {
        let moo: Rules = "moo:4x10".parse().unwrap();
        assert_eq!(moo, Rules::standard());
        assert_eq!(moo.code_count(), 5040);
        assert_eq!(moo.to_string(), "moo:4x10");
        let mm: Rules = "MM:4x6".parse().unwrap();
        assert_eq!(mm.code_count(), 1296);
        assert_eq!("moo:3x10".parse::<Rules>().unwrap().code_count(), 720);
    }

    #[test]
    fn bad_games_are_refused_with_reasons() {
        assert!(matches!(
            "moo4x10".parse::<Rules>(),
            Err(RulesError::Syntax(_))
        ));
        assert!(matches!(
            "moo:5x4".parse::<Rules>(),
            Err(RulesError::TooFewSymbols { .. })
        ));
        assert!(matches!(
            "mm:0x4".parse::<Rules>(),
            Err(RulesError::Positions(0))
        ));
        assert!(matches!(
            "mm:4x37".parse::<Rules>(),
            Err(RulesError::Symbols(37))
        ));
        assert!(matches!(
            "mm:8x4".parse::<Rules>(),
            Err(RulesError::TooLarge { codes: 65536, .. })
        ));
        assert!(matches!(
            "moo:10x36".parse::<Rules>(),
            Err(RulesError::TooLarge { .. })
        ));
        assert!("mm:16x16".parse::<Rules>().is_err());
        assert!("moo:4x16".parse::<Rules>().is_ok());
        assert!("mm:4x16".parse::<Rules>().is_err()); // 65,536 codes
    }

    #[test]
    fn answer_rules_ride_on_the_rules() {
        let mm = Rules::mm(4, 6).unwrap();
        assert_eq!(mm.answer(), AnswerRule::BullsCows);
        assert_eq!(mm.feedback_slots(), 25);
        assert_eq!(mm.win(), Feedback::win(4));
        let black = mm.with_answer(AnswerRule::BlackPeg).unwrap();
        assert_eq!(black.feedback_slots(), 5);
        assert_eq!(black.win(), Feedback(4));
        assert_eq!(black.to_string(), "mm:4x6/black-peg");
        assert_ne!(black, mm);
        let wordle = Rules::mm(5, 6)
            .unwrap()
            .with_answer(AnswerRule::Wordle)
            .unwrap();
        assert_eq!(wordle.feedback_slots(), 243);
        assert_eq!(wordle.win(), Feedback(242));
        let err = Rules::mm(6, 2).unwrap().with_answer(AnswerRule::Wordle);
        assert!(
            matches!(&err, Err(RulesError::Answer(m)) if m.contains("at most 5 positions, not 6"))
        );
        // Another rule's name is not read as bulls and cows.
        assert!("mm:4x6/black-peg".parse::<Rules>().is_err());
        // The default rule serializes as before the rule existed.
        assert_eq!(
            serde_json::to_string(&mm).unwrap(),
            r#"{"positions":4,"symbols":6,"repeats":false}"#.replace("false", "true")
        );
        let back: Rules = serde_json::from_str(&serde_json::to_string(&black).unwrap()).unwrap();
        assert_eq!(back, black);
    }
}
