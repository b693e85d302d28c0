//! Secret sets: a game whose secrets are a list (word Mastermind), and the
//! guesses allowed with it.
//!
//! Invariants:
//! - A [`SecretSet`] holds a sorted list of distinct codes of one game, not
//!   empty; its [`GuessMode`] says whether any code may be guessed
//!   ([`GuessMode::All`]) or only the listed ones ([`GuessMode::Secrets`]).
//!   Either way every secret is an allowed guess, so guessing the
//!   candidates one by one always finishes.
//! - With an [`Alphabet`], symbol `i` is written as the alphabet's `i`-th
//!   character (`abcdefghijkl`: symbol 0 is `a`), so the game is `moo:KxN`
//!   or `mm:KxN` with `N` the alphabet's length; without one, codes are
//!   written as everywhere else (`0-9` then `a-z`).
//! - [`parse_list`] reads a list file's text and reports the first bad line
//!   as `name:line`: a code of the wrong length, a symbol outside the game
//!   (or the alphabet), a repeat the game forbids, a duplicate, or no code
//!   at all. Blank lines and lines starting with `#` are skipped.
//! - [`read_list`] never reads more than [`LIST_MAX_BYTES`] bytes, and
//!   drops a UTF-8 byte-order mark at the start of the file (as some
//!   editors save text): it is no letter of the first word. One anywhere
//!   else is read as any other character.
//! - [`load`] may play a word list over a smaller alphabet than the one
//!   given ([`reduced_alphabet`]), only when the game it implies has too
//!   many codes; the optimum and every strategy's figures are unchanged
//!   (the proof is on [`reduced_alphabet`]).

use std::io::Read;
use std::path::Path;

pub use crate::model::alphabet::{Alphabet, AlphabetError};
use crate::model::code::{Code, Codebook};
use crate::model::echo::Echo;
use crate::model::rules::Rules;

/// Largest list file read, in bytes (65,535 codes of 15 symbols and a line
/// end each fit with room for comments).
pub const LIST_MAX_BYTES: usize = 4 << 20;

/// Which codes may be guessed in a game with a secret list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GuessMode {
    /// Any code of the game (the default).
    #[default]
    All,
    /// Only the listed secrets.
    Secrets,
}

impl GuessMode {
    /// The names `--guesses` takes.
    pub const NAMES: &'static [(&'static str, GuessMode)] =
        &[("all", GuessMode::All), ("secrets", GuessMode::Secrets)];

    /// The name of the mode.
    pub fn name(self) -> &'static str {
        match self {
            GuessMode::All => "all",
            GuessMode::Secrets => "secrets",
        }
    }
}

/// Why a list or an alphabet is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ListError {
    /// A bad alphabet.
    #[error(transparent)]
    Alphabet(#[from] AlphabetError),
    /// A bad line of the list.
    #[error("{name}:{line}: {why}")]
    Line {
        /// the list's name (its file name)
        name: String,
        /// line number, from 1
        line: usize,
        /// what is wrong
        why: String,
    },
    /// A list without a code.
    #[error(
        "{name}: the list has no code (one code a line; blank lines and # comments are skipped)"
    )]
    Empty {
        /// the list's name
        name: String,
    },
    /// An alphabet that does not fit the game named.
    #[error("--alphabet has {letters} letters, but {rules} has {symbols} symbols: name a game with {letters} symbols, or leave the game out")]
    AlphabetSize {
        /// letters of the alphabet
        letters: usize,
        /// the game named
        rules: Rules,
        /// its symbols
        symbols: usize,
    },
    /// The file could not be read, or is too large or not UTF-8.
    #[error("{name}: {why}")]
    File {
        /// the list's name
        name: String,
        /// what went wrong
        why: String,
    },
}

/// A game's secrets as a list, and the guesses allowed with it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SecretSet {
    /// The secrets, sorted, distinct, not empty.
    codes: Vec<Code>,
    /// Which codes may be guessed.
    pub guesses: GuessMode,
    /// How codes are written, if not as usual.
    pub alphabet: Option<Alphabet>,
    /// Where the list came from (its file name), for messages.
    pub name: String,
}

impl SecretSet {
    /// A set of the given codes (sorted and deduplicated here); `None` when
    /// `codes` is empty.
    pub fn new(
        mut codes: Vec<Code>,
        guesses: GuessMode,
        alphabet: Option<Alphabet>,
        name: String,
    ) -> Option<SecretSet> {
        codes.sort_unstable();
        codes.dedup();
        (!codes.is_empty()).then_some(SecretSet {
            codes,
            guesses,
            alphabet,
            name,
        })
    }

    /// The secrets, smallest first.
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// Whether two sets play the same game: same codes, same guesses, same
    /// alphabet (the names may differ).
    pub fn same_game(&self, other: &SecretSet) -> bool {
        self.codes == other.codes
            && self.guesses == other.guesses
            && self.alphabet == other.alphabet
    }

    /// A one-line description: `N secrets of NAME, guesses G`.
    pub fn describe(&self) -> String {
        format!(
            "{} secrets of {}, guesses {}",
            self.codes.len(),
            self.name,
            self.guesses.name()
        )
    }
}

/// The game a word list over `alphabet` plays when none is named: `K` the
/// length of its first word, `N` the alphabet's length, repeats allowed
/// (`mm:KxN`) when some word repeats a letter, else `moo:KxN`.
pub fn infer_rules(text: &str, alphabet: &Alphabet, name: &str) -> Result<Rules, ListError> {
    let mut words = lines(text);
    let (line, first) = words.next().ok_or_else(|| ListError::Empty {
        name: name.to_string(),
    })?;
    let k = first.chars().count();
    let repeats = std::iter::once((line, first)).chain(words).any(|(_, w)| {
        w.chars()
            .enumerate()
            .any(|(i, c)| w.chars().take(i).any(|d| d == c))
    });
    Rules::new(k, alphabet.len(), repeats).map_err(|e| ListError::Line {
        name: name.to_string(),
        line,
        why: format!(
            "no game of {k}-letter words over {} letters: {e} (a smaller alphabet, \
             only the letters the words use, may fit)",
            alphabet.len()
        ),
    })
}

/// The alphabet's letters that some word of `text` uses, in alphabet order,
/// followed by its first unused letters: as many as a guess may hold (the
/// words' length without repeats, one with repeats, none when only listed
/// words may be guessed). `None` when nothing would be removed.
///
/// Why the optimum does not change: a letter no secret contains adds
/// nothing to the answer of any guess against any secret (no bull, no cow),
/// so two guesses that hold the same used letters at the same places answer
/// alike against every secret, whatever unused letters fill their other
/// places. Every guess over the whole alphabet thus has a twin over the
/// smaller one (its unused letters replaced by kept unused ones, distinct
/// when the game forbids repeats: at most K are needed; one suffices with
/// repeats) giving the same partition of every set of secrets, so every
/// strategy has a twin with the same figures, and the reverse holds
/// trivially. With `--guesses secrets` no guess holds an unused letter.
pub fn reduced_alphabet(text: &str, alphabet: &Alphabet, guesses: GuessMode) -> Option<Alphabet> {
    let mut used = vec![false; alphabet.len()];
    let mut k = 0;
    let mut repeats = false;
    for (_, word) in lines(text) {
        let chars: Vec<char> = word.chars().collect();
        k = k.max(chars.len());
        for (i, &c) in chars.iter().enumerate() {
            repeats |= chars[..i].contains(&c);
            if let Some(s) = alphabet.symbol(c) {
                used[s as usize] = true;
            }
        }
    }
    let spare = match guesses {
        GuessMode::Secrets => 0,
        GuessMode::All if repeats => 1,
        GuessMode::All => k,
    };
    let mut unused_kept = 0;
    let letters: String = (0..alphabet.len())
        .filter(|&s| {
            used[s] || {
                unused_kept += 1;
                unused_kept <= spare
            }
        })
        .map(|s| alphabet.char(s as u8))
        .collect();
    (letters.chars().count() < alphabet.len())
        .then(|| Alphabet::new(&letters).ok())
        .flatten()
}

/// The non-blank, non-comment lines of `text`, trimmed, with their numbers.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// Reads a list: one code a line (or one word over `alphabet`), blank
/// lines and `#` comments skipped; the codes in file order. The first bad
/// line is reported as `name:line`.
pub fn parse_list(
    book: &Codebook,
    text: &str,
    alphabet: Option<&Alphabet>,
    name: &str,
) -> Result<Vec<Code>, ListError> {
    let mut seen = rustc_hash::FxHashMap::default();
    let mut codes = Vec::new();
    for (line, word) in lines(text) {
        let code = match alphabet {
            Some(a) => a.parse(book, word),
            None => book.parse(word),
        }
        .map_err(|e| ListError::Line {
            name: name.to_string(),
            line,
            why: e.to_string(),
        })?;
        if let Some(first) = seen.insert(code, line) {
            return Err(ListError::Line {
                name: name.to_string(),
                line,
                why: format!(
                    "{} is listed twice (first on line {first})",
                    Echo::new(word)
                ),
            });
        }
        codes.push(code);
    }
    if codes.is_empty() {
        return Err(ListError::Empty {
            name: name.to_string(),
        });
    }
    Ok(codes)
}

/// Loads a list file for a game: `rules` if named (it must have as many
/// symbols as `alphabet` has letters), else with an alphabet the game its
/// words imply ([`infer_rules`]), else `default`. Returns the game's rules
/// and the set, named after the path.
pub fn load(
    path: &Path,
    alphabet: Option<&str>,
    guesses: GuessMode,
    rules: Option<Rules>,
    default: Rules,
) -> Result<(Rules, SecretSet), ListError> {
    let name = path.display().to_string();
    let text = read_list(path)?;
    let mut alphabet = alphabet.map(Alphabet::new).transpose()?;
    let rules = match (&alphabet.clone(), rules) {
        (Some(a), Some(rules)) if rules.symbols() != a.len() => {
            return Err(ListError::AlphabetSize {
                letters: a.len(),
                rules,
                symbols: rules.symbols(),
            })
        }
        (Some(a), None) => match infer_rules(&text, a, &name) {
            Ok(rules) => rules,
            Err(too_many) => {
                // Too many codes: the letters no word uses are
                // interchangeable, keep only as many as a guess can use.
                let smaller = reduced_alphabet(&text, a, guesses);
                let rules = smaller
                    .as_ref()
                    .and_then(|s| infer_rules(&text, s, &name).ok())
                    .ok_or(too_many)?;
                alphabet = smaller;
                rules
            }
        },
        (_, rules) => rules.unwrap_or(default),
    };
    let book = Codebook::new(rules);
    let codes = parse_list(&book, &text, alphabet.as_ref(), &name)?;
    let set = SecretSet::new(codes, guesses, alphabet, name).ok_or_else(|| ListError::Empty {
        name: path.display().to_string(),
    })?;
    Ok((rules, set))
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BOM: char = '\u{feff}';

/// Reads a list file's text: at most [`LIST_MAX_BYTES`] bytes, UTF-8, its
/// leading byte-order mark ([`BOM`]) if any dropped.
pub fn read_list(path: &Path) -> Result<String, ListError> {
    let name = path.display().to_string();
    let fail = |why: String| ListError::File {
        name: name.clone(),
        why,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(LIST_MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() > LIST_MAX_BYTES {
        return Err(fail(format!(
            "larger than {} MiB: not a list of codes",
            LIST_MAX_BYTES >> 20
        )));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        fail(format!("line {line} is not UTF-8 text"))
    })?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(game: &str) -> Codebook {
        Codebook::new(game.parse().unwrap())
    }

    #[test]
    fn words_map_to_codes_in_alphabet_order() {
        let a = Alphabet::new("abcd").unwrap();
        let b = book("moo:3x4");
        let codes = parse_list(&b, "# words\nabc\n\n dcb \n", Some(&a), "w").unwrap();
        assert_eq!(b.format(codes[0]), "012");
        assert_eq!(b.format(codes[1]), "321");
        assert_eq!(a.format(&b, codes[1]), "dcb");
        assert_eq!(a.parse(&b, "DCB").unwrap(), codes[1]);
    }

    #[test]
    fn bad_lines_are_named() {
        let a = Alphabet::new("abcd").unwrap();
        let b = book("moo:3x4");
        let err = |text: &str| {
            parse_list(&b, text, Some(&a), "w.txt")
                .unwrap_err()
                .to_string()
        };
        assert!(
            err("abc\nabcd\n").starts_with("w.txt:2: "),
            "{}",
            err("abc\nabcd")
        );
        assert!(err("abc\nabe\n").contains("w.txt:2: 'abe': 'e' is not"));
        assert!(err("abc\naba\n").contains("w.txt:2: 'aba' repeats the symbol 'a'"));
        assert!(err("abc\n#\nabc\n").contains("w.txt:3: 'abc' is listed twice (first on line 1)"));
        assert!(err("# nothing\n\n").contains("w.txt: the list has no code"));
        let plain = parse_list(&b, "012\n0123\n", None, "p")
            .unwrap_err()
            .to_string();
        assert!(plain.starts_with("p:2: '0123' has 4 symbols"), "{plain}");
    }

    /// A list saved with a UTF-8 byte-order mark (issue 16) reads as the
    /// same list: the mark is not a letter of the first word, with an
    /// alphabet or without.
    #[test]
    fn a_byte_order_mark_is_not_a_symbol() {
        let dir = std::env::temp_dir();
        let file = |name: &str, text: &str| {
            let path = dir.join(format!("optimoo-{}-{name}", std::process::id()));
            std::fs::write(&path, text).unwrap();
            path
        };
        let moo = "moo:3x4".parse().unwrap();
        for (alphabet, words) in [(Some("abcd"), "abc\ndcb\n"), (None, "012\n321\n")] {
            let plain = file("plain.txt", words);
            let marked = file("bom.txt", &format!("\u{feff}{words}"));
            let want = load(&plain, alphabet, GuessMode::All, None, moo).unwrap();
            let got = load(&marked, alphabet, GuessMode::All, None, moo);
            let (rules, set) = got.unwrap_or_else(|e| panic!("{alphabet:?}: {e}"));
            assert_eq!(rules, want.0);
            assert!(set.same_game(&want.1), "{alphabet:?}");
            assert!(!read_list(&marked).unwrap().starts_with('\u{feff}'));
            std::fs::remove_file(plain).unwrap();
            std::fs::remove_file(marked).unwrap();
        }
        // Only a leading mark is dropped: elsewhere it is still no letter.
        let inner = file("inner.txt", "abc\n\u{feff}dcb\n");
        let err = load(&inner, Some("abcd"), GuessMode::All, None, moo).unwrap_err();
        assert!(err.to_string().contains(":2: "), "{err}");
        std::fs::remove_file(inner).unwrap();
    }

    #[test]
    fn rules_are_inferred() {
        let a = Alphabet::new("abcdef").unwrap();
        assert_eq!(
            infer_rules("abc\nfed\n", &a, "w").unwrap(),
            "moo:3x6".parse().unwrap()
        );
        assert_eq!(
            infer_rules("abc\naab\n", &a, "w").unwrap(),
            "mm:3x6".parse().unwrap()
        );
        assert!(infer_rules("\n", &a, "w").is_err());
    }
}
