//! `--secrets FILE`, `--alphabet LETTERS`, `--guesses all|secrets|consistent|FILE`: the
//! options of every command that plays a game whose secrets are a list
//! (`optimoo eval`, `solve`, `export`, `verify`; `moo` and its subcommands),
//! and the games of a word list: `--guesses FILE` (the game's codes are
//! the file's words, `optimoo::model::CodeList`) and the presets
//! `--game wordle`, `wordle-nyt` ([`SecretArgs::preset_game`]).
//!
//! Invariant: the game is checked before any work starts: a bad list is
//! refused with `--secrets FILE:LINE` and exit code 2 (every
//! error about the file names the option), a `--game` that does not fit
//! the alphabet is refused, and `--alphabet`/`--guesses` without
//! `--secrets` are refused by clap. The options are global: `moo host
//! --secrets FILE` and `moo --secrets FILE host` say the same (the `optimoo`
//! subcommands have no subcommands of their own, so there it changes
//! nothing).

use std::path::PathBuf;

use optimoo::model::secrets::{self, GuessMode, SecretSet};
use optimoo::model::Game;
use optimoo::model::{GuessRule, Rules};

/// Options that restrict the secrets to a list.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SecretArgs {
    /// Only the codes listed in FILE are secrets: one code a line (blank
    /// lines and # comments skipped), or one word a line with --alphabet.
    /// A tree file read must record that same list (a tree made with
    /// `optimoo solve --secrets`); without --secrets a tree file's own list
    /// is played.
    #[arg(long, global = true, value_name = "FILE")]
    pub secrets: Option<PathBuf>,
    /// The letters of the words of --secrets, in symbol order (the first
    /// letter is symbol 0). Without --game the game is moo:KxN (mm:KxN if
    /// a word repeats a letter), K the words' length, N the letters'.
    #[arg(long, global = true, value_name = "LETTERS", requires = "secrets")]
    pub alphabet: Option<String>,
    /// Which codes may be guessed: all (any code of the game, the
    /// default), secrets (with --secrets: only the listed ones),
    /// consistent (only a code every answer so far allows as the secret,
    /// Mastermind's "logical" play; a rule of the game, with or without
    /// --secrets), or a FILE of words, one a line (with --secrets:
    /// Wordle's allowed guesses, the secrets among them): the game's codes
    /// are then that list, whatever the number of codes of its length and
    /// letters, with --rules for the answers.
    #[arg(long, global = true, value_name = "WHICH|FILE", value_parser = GuessArg::parse)]
    pub guesses: Option<GuessArg>,
}

/// `--guesses`: a list's guess mode, consistent guesses, or a file of the
/// game's codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuessArg {
    /// `all` or `secrets` (`GuessMode`).
    Mode(GuessMode),
    /// `consistent`: candidates only (`GuessRule::Consistent`).
    Consistent,
    /// A list of words, the game's codes (`optimoo::model::CodeList`).
    File(PathBuf),
}

impl GuessArg {
    /// Reads `all`, `secrets`, `consistent`, or else a file's path.
    fn parse(text: &str) -> Result<GuessArg, String> {
        if text.is_empty() {
            return Err("write all, secrets, consistent, or a file of words".into());
        }
        if text == "consistent" {
            return Ok(GuessArg::Consistent);
        }
        Ok(GuessMode::NAMES
            .iter()
            .find(|(n, _)| *n == text)
            .map_or_else(
                || GuessArg::File(PathBuf::from(text)),
                |&(_, m)| GuessArg::Mode(m),
            ))
    }
}

impl SecretArgs {
    /// The game: `game` (or, with --alphabet and no `game`, the one the
    /// words imply; else `default`), with the listed secrets if any.
    /// With `--guesses consistent` the game's guess rule says so.
    pub fn game(&self, game: Option<Rules>, default: Rules) -> anyhow::Result<Game> {
        let consistent = |r: Rules| match self.guesses {
            Some(GuessArg::Consistent) => r
                .with_guesses(GuessRule::Consistent)
                .expect("any game takes consistent guesses"),
            _ => r,
        };
        let Some(path) = &self.secrets else {
            if let Some(GuessArg::Mode(m)) = &self.guesses {
                let name = m.name();
                anyhow::bail!(
                    "--guesses {name} goes with --secrets (the list's guesses): give --secrets \
                     FILE, or --guesses consistent"
                );
            }
            return Ok(Game::new(consistent(game.unwrap_or(default))));
        };
        if let Some(GuessArg::File(guesses)) = &self.guesses {
            if let Some(rules) = game {
                anyhow::bail!(
                    "--guesses {}: a list of guesses is the game's codes; drop --game {rules}",
                    guesses.display()
                );
            }
            return self.list_game(guesses, path);
        }
        let (rules, set) = self.load(path, game, default)?;
        Ok(Game::with_secrets(consistent(rules), set))
    }

    /// The list's guess mode: the listed secrets with `--guesses secrets`,
    /// else every code; a file of guesses goes with a game of its own.
    fn mode(&self) -> anyhow::Result<GuessMode> {
        match &self.guesses {
            Some(GuessArg::Mode(m)) => Ok(*m),
            Some(GuessArg::File(f)) => anyhow::bail!(
                "--guesses {}: a list of guesses goes with a game of its own, not with a \
                 tree file's or another game's codes",
                f.display()
            ),
            Some(GuessArg::Consistent) | None => Ok(GuessMode::All),
        }
    }

    /// The game of `--game wordle` (or `wordle-nyt`): its guesses, and
    /// its answers or the words of `--secrets` (which must be guesses).
    pub fn preset_game(&self, preset: crate::wordle::WordPreset) -> anyhow::Result<Game> {
        if self.guesses == Some(GuessArg::Consistent) {
            anyhow::bail!(
                "--guesses consistent: not played on --game {} yet (word-list games take any \
                 listed guess)",
                preset.name()
            );
        }
        if let Some(GuessArg::File(guesses)) = &self.guesses {
            anyhow::bail!(
                "--guesses {}: --game {} has its guesses; drop one",
                guesses.display(),
                preset.name()
            );
        }
        if self.alphabet.is_some() {
            anyhow::bail!("--alphabet: --game {} is written in a-z", preset.name());
        }
        let Some(path) = &self.secrets else {
            return Ok(preset.game(None));
        };
        let all = preset.game(None);
        let set = self.secrets_of(&all, path)?;
        Ok(all.with_secret_set(set))
    }

    /// The game whose codes are the words of the file `guesses` and whose
    /// secrets are those of `secrets` (each one of the guesses), under
    /// bulls and cows until `--rules` says otherwise.
    fn list_game(
        &self,
        guesses: &std::path::Path,
        secrets: &std::path::Path,
    ) -> anyhow::Result<Game> {
        let flag = |err: secrets::ListError| anyhow::anyhow!("--guesses {err}");
        let alphabet = self
            .alphabet
            .as_deref()
            .map(secrets::Alphabet::new)
            .transpose()?;
        let text = secrets::read_list(guesses).map_err(flag)?;
        let name = guesses.display().to_string();
        let list =
            optimoo::model::CodeList::parse(&text, alphabet.as_ref(), &name).map_err(flag)?;
        let all = Game::of_list(list, optimoo::model::AnswerRule::BullsCows, None)
            .map_err(|e| anyhow::anyhow!("--guesses {name}: {e}"))?;
        let set = self.secrets_of(&all, secrets)?;
        Ok(all.with_secret_set(set))
    }

    /// The list `path` as the secrets of a tree file's game (`header`):
    /// codes of its code list, if it has one, else of its rules.
    pub fn for_header(
        &self,
        header: &optimoo::tree::format::Header,
        path: &std::path::Path,
    ) -> anyhow::Result<SecretSet> {
        if header.universe.is_some() {
            return self.secrets_of(&header.game(), path);
        }
        Ok(self.load(path, Some(header.rules), header.rules)?.1)
    }

    /// The words of the file `path` as secrets of `game`, a game of a code
    /// list (each word one of its codes).
    pub fn secrets_of(&self, game: &Game, path: &std::path::Path) -> anyhow::Result<SecretSet> {
        let flag = |err: secrets::ListError| anyhow::anyhow!("--secrets {err}");
        let name = path.display().to_string();
        let text = secrets::read_list(path).map_err(flag)?;
        let alphabet = game.code_list().map(|l| l.alphabet().clone());
        let codes =
            secrets::parse_list(game.codes(), &text, alphabet.as_ref(), &name).map_err(flag)?;
        // A word list's secrets are some of its codes: any listed code is
        // a guess unless --guesses secrets says otherwise.
        let mode = match &self.guesses {
            Some(GuessArg::Mode(m)) => *m,
            _ => GuessMode::All,
        };
        SecretSet::new(codes, mode, None, name.clone())
            .ok_or_else(|| anyhow::anyhow!("--secrets {name}: the list has no code"))
    }

    /// The list as a secret set of the game it plays (see [`Self::game`]).
    /// An error about the file names the option: `--secrets FILE: ...`,
    /// `--secrets FILE:LINE: ...`.
    pub fn load(
        &self,
        path: &std::path::Path,
        game: Option<Rules>,
        default: Rules,
    ) -> anyhow::Result<(Rules, SecretSet)> {
        secrets::load(path, self.alphabet.as_deref(), self.mode()?, game, default).map_err(|err| {
            match err {
                secrets::ListError::Line { .. }
                | secrets::ListError::Empty { .. }
                | secrets::ListError::File { .. } => anyhow::anyhow!("--secrets {err}"),
                other => other.into(),
            }
        })
    }
}

/// Reads a tree file and the game it plays: with --secrets, the file's
/// rules and the given list, which must be the list the file records;
/// without, the file's own game (its recorded list, if any).
pub fn read_tree(
    path: &std::path::Path,
    list: &SecretArgs,
) -> anyhow::Result<(Game, optimoo::tree::format::TreeFile)> {
    read_tree_bytes(&optimoo::tree::format::read_file(path)?, list)
}

/// [`read_tree`] of a file's bytes already read (bounded, e.g. by
/// `optimoo::tree::format::shape::read_file`).
pub fn read_tree_bytes(
    bytes: &[u8],
    list: &SecretArgs,
) -> anyhow::Result<(Game, optimoo::tree::format::TreeFile)> {
    use optimoo::tree::format::{Header, TreeFile};
    let header = Header::peek(bytes)?;
    let game = match &list.secrets {
        Some(p) if header.universe.is_some() => {
            let game = header.game();
            let set = list.secrets_of(&game, p)?;
            game.with_secret_set(set)
        }
        Some(p) => Game::with_secrets(header.rules, list.for_header(&header, p)?),
        None => header.game(),
    };
    let file = TreeFile::from_bytes_in(&game, bytes)?;
    Ok((game, file))
}
