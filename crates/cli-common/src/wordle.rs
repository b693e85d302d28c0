//! The word-list presets `--game wordle` and `--game wordle-nyt`:
//! Wordle's lists as data/wordle/ ships them (data/wordle/README.md),
//! embedded in both binaries.
//!
//! Invariants: `wordle` plays the original lists (the 2315 answers of
//! `wordlist_orig_hidden` as secrets, the 12972 guesses of
//! `wordlist_orig_all`), `wordle-nyt` the New York Times lists of March
//! 2022 (2309 answers, the same 12972 guesses in another order); both are
//! made from one file, `wordlist_orig_all`, packed at compile time into
//! three bytes a word, whose first 2315 words are the original answers,
//! less the six answers the Times removed for the NYT answers (tests
//! compare both with the files of data/wordle).
//! Wordle's answer rule; the alphabet `a-z`.

use optimoo::model::secrets::{self, GuessMode, SecretSet};
use optimoo::model::{AnswerRule, Code, CodeList, Game};

/// `wordlist_orig_all`: the original answers, then the other guesses,
/// five lower-case letters and a line end each. Read at compile time
/// only: the binaries hold [`PACKED`].
const ORIG_ALL: &[u8] = include_bytes!("../../../data/wordle/wordlist_orig_all");
/// Words of [`ORIG_ALL`].
const WORDS: usize = ORIG_ALL.len() / 6;
/// Answers of the original list, the first lines of [`ORIG_ALL`].
const ORIG_ANSWERS: usize = 2315;
/// The original answers the New York Times list of March 2022 does not
/// have (it added none).
const NYT_REMOVED: [&str; 6] = ["agora", "fibre", "lynch", "pupal", "slave", "wench"];

/// Each word of [`ORIG_ALL`] in its order as its number in base 26 (`a`
/// 0, the first letter the most significant: below 26^5 < 2^24), three
/// bytes little-endian: 38,916 bytes instead of the text's 77,832 (the
/// player's size). Packed at compile time; a file of another form does
/// not compile.
static PACKED: [u8; WORDS * 3] = pack();

const fn pack() -> [u8; WORDS * 3] {
    assert!(
        ORIG_ALL.len().is_multiple_of(6),
        "five letters and a line end a word"
    );
    let mut out = [0u8; WORDS * 3];
    let mut i = 0;
    while i < WORDS {
        let mut v: u32 = 0;
        let mut j = 0;
        while j < 5 {
            let c = ORIG_ALL[i * 6 + j];
            assert!(c.is_ascii_lowercase(), "a lower-case letter");
            v = v * 26 + (c - b'a') as u32;
            j += 1;
        }
        assert!(ORIG_ALL[i * 6 + 5] == b'\n', "one word a line");
        out[i * 3] = v as u8;
        out[i * 3 + 1] = (v >> 8) as u8;
        out[i * 3 + 2] = (v >> 16) as u8;
        i += 1;
    }
    out
}

/// The words' numbers, in the file's order.
fn numbers() -> impl Iterator<Item = u64> {
    PACKED
        .chunks_exact(3)
        .map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], 0])))
}

/// A word's number (five lower-case letters).
fn number(word: &str) -> u64 {
    word.bytes().fold(0, |v, b| v * 26 + u64::from(b - b'a'))
}

/// A word-list game named by `--game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordPreset {
    /// The original Wordle lists.
    Wordle,
    /// The New York Times lists of March 2022.
    WordleNyt,
}

impl WordPreset {
    /// The names `--game` takes.
    pub const NAMES: &'static [(&'static str, WordPreset)] = &[
        ("wordle", WordPreset::Wordle),
        ("wordle-nyt", WordPreset::WordleNyt),
    ];

    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            WordPreset::Wordle => "wordle",
            WordPreset::WordleNyt => "wordle-nyt",
        }
    }

    /// The preset named `text` (any case, spaces around).
    pub fn parse(text: &str) -> Option<WordPreset> {
        let t = text.trim().to_ascii_lowercase();
        WordPreset::NAMES
            .iter()
            .find(|(n, _)| *n == t)
            .map(|&(_, p)| p)
    }

    /// The names of the guess list and of the answer list, as data/wordle
    /// names their files.
    pub fn list_names(self) -> (&'static str, &'static str) {
        match self {
            WordPreset::Wordle => ("wordlist_orig_all", "wordlist_orig_hidden"),
            WordPreset::WordleNyt => ("wordlist_nyt20220316_all", "wordlist_nyt20220316_hidden"),
        }
    }

    /// The numbers of the answers (see [`PACKED`]).
    fn answers(self) -> Vec<u64> {
        let removed: Vec<u64> = NYT_REMOVED.iter().map(|w| number(w)).collect();
        numbers()
            .take(ORIG_ANSWERS)
            .filter(|v| self == WordPreset::Wordle || !removed.contains(v))
            .collect()
    }

    /// The code list of the guesses.
    pub fn code_list(self) -> CodeList {
        let alphabet =
            secrets::Alphabet::new("abcdefghijklmnopqrstuvwxyz").expect("26 distinct letters");
        let mut all: Vec<u64> = numbers().collect();
        all.sort_unstable();
        CodeList::from_numbers(5, alphabet, &all, self.list_names().0)
            .expect("the embedded list is valid")
    }

    /// The game: Wordle's rule over the guesses, the answers as secrets
    /// (or `secrets`, a set of codes of [`WordPreset::code_list`]).
    pub fn game(self, secrets: Option<SecretSet>) -> Game {
        let list = self.code_list();
        let all = Game::of_list(list, AnswerRule::Wordle, None).expect("a valid list");
        let set = secrets.unwrap_or_else(|| {
            let list = all.code_list().expect("a code list");
            let sorted: Vec<u64> = (0..list.len()).map(|i| list.number(i)).collect();
            let codes = self
                .answers()
                .iter()
                .map(|v| Code(sorted.binary_search(v).expect("an answer is a guess") as u16))
                .collect();
            SecretSet::new(codes, GuessMode::All, None, self.list_names().1.to_string())
                .expect("answers")
        });
        all.with_secret_set(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(name: &str) -> String {
        let path = format!("{}/../../data/wordle/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn sorted(text: &str) -> Vec<String> {
        let mut words: Vec<String> = text.lines().map(str::to_string).collect();
        words.sort();
        words
    }

    /// The presets play the lists of data/wordle: 2315 (2309) answers,
    /// 12972 guesses, each as its file has it.
    #[test]
    fn presets_load_the_lists_of_data_wordle() {
        for (preset, answers) in [(WordPreset::Wordle, 2315), (WordPreset::WordleNyt, 2309)] {
            let (all, hidden) = preset.list_names();
            let game = preset.game(None);
            assert_eq!(game.len(), 12972, "{all}");
            assert_eq!(game.secret_count(), answers, "{hidden}");
            let words = |codes: Vec<optimoo::model::Code>| {
                let mut w: Vec<String> = codes.into_iter().map(|c| game.format_code(c)).collect();
                w.sort();
                w
            };
            assert_eq!(words(game.all_codes()), sorted(&data(all)));
            assert_eq!(words(game.secrets()), sorted(&data(hidden)));
            assert_eq!(game.rules().answer(), AnswerRule::Wordle);
            assert_eq!(WordPreset::parse(preset.name()), Some(preset));
        }
        assert_eq!(
            WordPreset::Wordle.game(None).rules(),
            WordPreset::WordleNyt.game(None).rules(),
            "one guess list: one code list"
        );
    }
}
