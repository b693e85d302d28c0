//! Static sets (the static game: every guess asked at once): their file,
//! and the independent checker behind `optimoo verify --static`.
//!
//! Invariants:
//! - The checker shares no code with the search beside it
//!   (`static_game::search`; crates/optimoo/tests/layers.rs checks that it
//!   names none of it) nor with the fast rule
//!   (`model::feedback`, `model::partition`): it works on the *written*
//!   codes and recomputes every answer with [`answer`], the dozen lines
//!   that count bulls and cows on two strings. A set passes when every
//!   secret's vector of answers is its own; otherwise the first two
//!   secrets (in code order) with equal answers are named. Its memory is
//!   bounded by the game (a class number per secret, each distinct guess
//!   once), never by the length of the list: a list of more guesses than
//!   the game has codes is refused.
//! - The file is text, versioned by its first line, and read within
//!   [`STATIC_FILE_MAX_BYTES`]; every line is checked, unknown keys are
//!   refused (docs/static.md, "The file").

use std::collections::HashMap;
use std::fmt::Write;

use crate::model::code::Code;
use crate::model::echo::Echo;
use crate::model::game::Game;
use crate::model::rules::Rules;
use crate::tree::check::answer;

/// The first line of a static-set file, version included.
pub const STATIC_MAGIC: &str = "optimoo-static 1";

/// Largest static-set file read: 4 MiB (every code of the largest game,
/// written, is under 1 MiB).
pub const STATIC_FILE_MAX_BYTES: u64 = 4 << 20;

/// Why a static set fails, or cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StaticCheckError {
    /// A guess the game does not allow (with a list and `--guesses
    /// secrets`, one not listed).
    #[error("{guess} may not be guessed in {game}")]
    NotAGuess {
        /// The guess as written.
        guess: String,
        /// The game's name.
        game: String,
    },
    /// Two secrets the set does not tell apart.
    #[error(
        "secrets {first} and {second} give the same answers ({answers}): \
         the set does not determine the secret"
    )]
    Collision {
        /// The smaller secret.
        first: String,
        /// The other.
        second: String,
        /// Their common answers, one per guess.
        answers: String,
    },
    /// More guesses than the game has codes: some must repeat, and a list
    /// that long is refused before any work.
    #[error(
        "a static set of {guesses} guesses is larger than {game}, which has {codes} codes: \
         give each guess once"
    )]
    TooMany {
        /// Guesses given.
        guesses: usize,
        /// The game's name.
        game: String,
        /// Codes in the game.
        codes: usize,
    },
    /// A file that is not a static-set file of this version, or a bad line.
    #[error("not a static-set file: {0}")]
    Format(String),
}

/// What a passing set is: its size and the game's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticCheck {
    /// Secrets told apart.
    pub secrets: usize,
    /// Guesses in the set (repeats counted once).
    pub guesses: usize,
}

/// Checks that `guesses` (written codes of `game`, already read) tell
/// apart every secret of `game`, recomputing each answer by [`answer`].
///
/// Memory is bounded by the game, never by the list: a repeated guess is
/// checked once (it tells nothing new), a list of more guesses than the
/// game has codes is refused at once ([`StaticCheckError::TooMany`]), and
/// the secrets are split guess by guess (a class number per secret, not a
/// vector of answers per secret), so the check holds a few words per secret
/// and per distinct guess.
pub fn check_static(game: &Game, guesses: &[Code]) -> Result<StaticCheck, StaticCheckError> {
    if guesses.len() > game.len() {
        return Err(StaticCheckError::TooMany {
            guesses: guesses.len(),
            game: game.name(),
            codes: game.len(),
        });
    }
    // The distinct guesses, in the order first given.
    let mut once = std::collections::HashSet::new();
    let distinct: Vec<Code> = guesses
        .iter()
        .copied()
        .filter(|g| once.insert(*g))
        .collect();
    drop(once);
    let written: Vec<String> = distinct.iter().map(|&g| game.format_code(g)).collect();
    for (&g, text) in distinct.iter().zip(&written) {
        if !game.is_guess(g) {
            return Err(StaticCheckError::NotAGuess {
                guess: text.clone(),
                game: game.name(),
            });
        }
    }
    let secrets: Vec<String> = game
        .secrets()
        .iter()
        .map(|&s| game.format_code(s))
        .collect();
    // class[i]: the class of secret i among the secrets, by their answers
    // to the guesses so far; equal classes, equal answers.
    let mut class = vec![0u32; secrets.len()];
    for g in &written {
        let mut ids: HashMap<(u32, (usize, usize)), u32> = HashMap::new();
        for (c, secret) in class.iter_mut().zip(&secrets) {
            let key = (*c, answer(secret, g));
            let next = ids.len() as u32;
            *c = *ids.entry(key).or_insert(next);
        }
    }
    // The first secret (in code order) whose answers an earlier one gave.
    let mut first_of: HashMap<u32, usize> = HashMap::new();
    for (i, &c) in class.iter().enumerate() {
        if let Some(&f) = first_of.get(&c) {
            let (first, second) = (&secrets[f], &secrets[i]);
            return Err(StaticCheckError::Collision {
                first: first.clone(),
                second: second.clone(),
                answers: written
                    .iter()
                    .map(|g| {
                        let (a, b) = answer(second, g);
                        format!("{g}:{a}A{b}B")
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            });
        }
        first_of.insert(c, i);
    }
    Ok(StaticCheck {
        secrets: secrets.len(),
        guesses: distinct.len(),
    })
}

/// A static set as its file holds it: the rules, the number of secrets,
/// and the guesses as written (read into codes against the game later).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticFile {
    /// The game's rules.
    pub rules: Rules,
    /// How many secrets the set was made for.
    pub secrets: usize,
    /// Whether the file claims the size is minimal.
    pub exact: bool,
    /// The guesses, as written.
    pub guesses: Vec<String>,
}

impl StaticFile {
    /// The file's text: the magic line, then `key value` lines.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{STATIC_MAGIC}");
        let _ = writeln!(out, "game {}", self.rules);
        let _ = writeln!(out, "secrets {}", self.secrets);
        let _ = writeln!(out, "size {}", self.guesses.len());
        let _ = writeln!(out, "exact {}", self.exact);
        let _ = writeln!(out, "guesses {}", self.guesses.join(" "));
        out
    }

    /// Reads a file's text (see [`StaticFile::to_text`]): every key once,
    /// `size` equal to the number of guesses.
    pub fn from_text(text: &str) -> Result<StaticFile, StaticCheckError> {
        let bad = |why: String| StaticCheckError::Format(why);
        let mut lines = text.lines();
        match lines.next() {
            Some(l) if l.trim_end() == STATIC_MAGIC => {}
            Some(l) => {
                return Err(bad(format!(
                    "the first line is {}, not {STATIC_MAGIC:?}",
                    Echo::new(l)
                )))
            }
            None => return Err(bad("the file is empty".into())),
        }
        let (mut rules, mut secrets, mut size, mut exact, mut guesses) =
            (None, None, None, None, None);
        for (i, line) in lines.enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = i + 2;
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let value = value.trim();
            let twice = || bad(format!("line {at}: {key} is given twice"));
            let number = |v: &str| {
                v.parse::<usize>()
                    .map_err(|_| bad(format!("line {at}: {} is not a number", Echo::new(v))))
            };
            match key {
                "game" => {
                    let r = value
                        .parse::<Rules>()
                        .map_err(|e| bad(format!("line {at}: {e}")))?;
                    if rules.replace(r).is_some() {
                        return Err(twice());
                    }
                }
                "secrets" => {
                    if secrets.replace(number(value)?).is_some() {
                        return Err(twice());
                    }
                }
                "size" => {
                    if size.replace(number(value)?).is_some() {
                        return Err(twice());
                    }
                }
                "exact" => {
                    let e = match value {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(bad(format!(
                                "line {at}: exact is true or false, not {}",
                                Echo::new(value)
                            )))
                        }
                    };
                    if exact.replace(e).is_some() {
                        return Err(twice());
                    }
                }
                "guesses" => {
                    let g: Vec<String> = value.split_whitespace().map(String::from).collect();
                    if guesses.replace(g).is_some() {
                        return Err(twice());
                    }
                }
                _ => return Err(bad(format!("line {at}: unknown key {}", Echo::new(key)))),
            }
        }
        let missing = |key: &str| bad(format!("no {key} line"));
        let guesses = guesses.ok_or_else(|| missing("guesses"))?;
        let size = size.ok_or_else(|| missing("size"))?;
        if size != guesses.len() {
            return Err(bad(format!(
                "size {size} but {} guesses are listed",
                guesses.len()
            )));
        }
        Ok(StaticFile {
            rules: rules.ok_or_else(|| missing("game"))?,
            secrets: secrets.ok_or_else(|| missing("secrets"))?,
            exact: exact.ok_or_else(|| missing("exact"))?,
            guesses,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(game: &Game, text: &str) -> Vec<Code> {
        text.split_whitespace()
            .map(|t| game.parse_code(t).unwrap())
            .collect()
    }

    #[test]
    fn a_separating_set_passes_and_a_short_one_names_two_secrets() {
        let game = Game::new("mm:2x2".parse().unwrap());
        let ok = check_static(&game, &codes(&game, "00 01")).unwrap();
        assert_eq!(
            ok,
            StaticCheck {
                secrets: 4,
                guesses: 2
            }
        );
        match check_static(&game, &codes(&game, "00")) {
            Err(StaticCheckError::Collision {
                first,
                second,
                answers,
            }) => {
                assert_eq!((first.as_str(), second.as_str()), ("01", "10"));
                assert_eq!(answers, "00:1A0B");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn repeats_count_once_and_a_list_longer_than_the_game_is_refused() {
        let game = Game::new("mm:2x2".parse().unwrap());
        // Every code of the game given, the separating pair repeated: the
        // same verdict as the pair alone, each guess counted once.
        let repeated = codes(&game, "00 01 00 01");
        assert_eq!(
            check_static(&game, &repeated).unwrap(),
            StaticCheck {
                secrets: 4,
                guesses: 2
            }
        );
        match check_static(&game, &codes(&game, "00 00 00")) {
            Err(StaticCheckError::Collision { answers, .. }) => assert_eq!(answers, "00:1A0B"),
            other => panic!("{other:?}"),
        }
        // One more guess than the game has codes: refused before any work.
        let long = codes(&game, "00 01 10 11 00");
        match check_static(&game, &long) {
            Err(e @ StaticCheckError::TooMany { .. }) => {
                let text = e.to_string();
                assert!(
                    text.contains("5 guesses") && text.contains("4 codes"),
                    "{text}"
                );
            }
            other => panic!("{other:?}"),
        }
        // The whole game as a set passes.
        let all = codes(&game, "00 01 10 11");
        assert_eq!(check_static(&game, &all).unwrap().guesses, 4);
    }

    #[test]
    fn the_file_round_trips_and_bad_files_are_refused() {
        let file = StaticFile {
            rules: "mm:4x6".parse().unwrap(),
            secrets: 1296,
            exact: true,
            guesses: vec!["0011".into(), "0123".into()],
        };
        assert_eq!(StaticFile::from_text(&file.to_text()).unwrap(), file);
        let text = file.to_text();
        for (bad, words) in [
            (String::new(), "empty"),
            (text.replace(STATIC_MAGIC, "optimoo-static 2"), "first line"),
            (text.replace("size 2", "size 3"), "size 3 but 2"),
            (text.replace("exact true", "exact maybe"), "true or false"),
            (text.replace("game mm:4x6", "game xx"), "line 2"),
            (format!("{text}colour red\n"), "unknown key"),
            (format!("{text}size 2\n"), "twice"),
            (text.replace("secrets 1296\n", ""), "no secrets"),
        ] {
            let err = StaticFile::from_text(&bad).unwrap_err().to_string();
            assert!(err.contains(words), "{err}");
        }
    }
}
