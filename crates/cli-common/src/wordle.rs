//! The word-list presets `--game wordle` and `--game wordle-nyt`:
//! Wordle's lists as data/wordle/ ships them (data/wordle/README.md),
//! embedded in both binaries.
//!
//! Invariants: `wordle` plays the original lists (the 2315 answers of
//! `wordlist_orig_hidden` as secrets, the 12972 guesses of
//! `wordlist_orig_all`), `wordle-nyt` the New York Times lists of March
//! 2022 (2309 answers, the same 12972 guesses in another order); both are
//! made from one embedded file, `wordlist_orig_all`, whose first 2315
//! lines are the original answers, less the six answers the Times removed
//! for the NYT answers (tests compare both with the files of data/wordle).
//! Wordle's answer rule; the alphabet `a-z`.

use optimoo::model::secrets::{self, GuessMode, SecretSet};
use optimoo::model::{AnswerRule, CodeList, Game};

/// `wordlist_orig_all`: the original answers, then the other guesses.
const ORIG_ALL: &str = include_str!("../../../data/wordle/wordlist_orig_all");
/// Answers of the original list, the first lines of [`ORIG_ALL`].
const ORIG_ANSWERS: usize = 2315;
/// The original answers the New York Times list of March 2022 does not
/// have (it added none).
const NYT_REMOVED: [&str; 6] = ["agora", "fibre", "lynch", "pupal", "slave", "wench"];

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

    /// The guesses, one word a line.
    pub fn guesses_text(self) -> &'static str {
        ORIG_ALL
    }

    /// The answers, one word a line.
    pub fn answers_text(self) -> String {
        let answers = ORIG_ALL.lines().take(ORIG_ANSWERS);
        let kept: Vec<&str> = match self {
            WordPreset::Wordle => answers.collect(),
            WordPreset::WordleNyt => answers.filter(|w| !NYT_REMOVED.contains(w)).collect(),
        };
        kept.join("\n")
    }

    /// The code list of the guesses.
    pub fn code_list(self) -> CodeList {
        let alphabet =
            secrets::Alphabet::new("abcdefghijklmnopqrstuvwxyz").expect("26 distinct letters");
        CodeList::parse(self.guesses_text(), Some(&alphabet), self.list_names().0)
            .expect("the embedded list is valid")
    }

    /// The game: Wordle's rule over the guesses, the answers as secrets
    /// (or `secrets`, a set of codes of [`WordPreset::code_list`]).
    pub fn game(self, secrets: Option<SecretSet>) -> Game {
        let list = self.code_list();
        let all = Game::of_list(list, AnswerRule::Wordle, None).expect("a valid list");
        let set = secrets.unwrap_or_else(|| {
            let alphabet = all.code_list().map(|l| l.alphabet().clone());
            let name = self.list_names().1;
            let codes =
                secrets::parse_list(all.codes(), &self.answers_text(), alphabet.as_ref(), name)
                    .expect("the answers are guesses");
            SecretSet::new(codes, GuessMode::All, None, name.to_string()).expect("answers")
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
