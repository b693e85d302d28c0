//! `--secrets FILE`, `--alphabet LETTERS`, `--guesses all|secrets|consistent`: the
//! options of every command that plays a game whose secrets are a list
//! (`optimoo eval`, `solve`, `export`, `verify`; `moo` and its subcommands).
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
    /// default), secrets (with --secrets: only the listed ones) or
    /// consistent (only a code every answer so far allows as the secret,
    /// Mastermind's "logical" play; a rule of the game, with or without
    /// --secrets).
    #[arg(long, global = true, value_name = "WHICH",
          value_parser = crate::names(Guesses::NAMES))]
    pub guesses: Option<Guesses>,
}

/// What `--guesses` takes: a list's guess mode, or consistent guesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guesses {
    /// Any code (`GuessMode::All`).
    All,
    /// The listed secrets (`GuessMode::Secrets`).
    Secrets,
    /// Candidates only (`GuessRule::Consistent`).
    Consistent,
}

impl Guesses {
    /// The names `--guesses` takes.
    pub const NAMES: &'static [(&'static str, Guesses)] = &[
        ("all", Guesses::All),
        ("secrets", Guesses::Secrets),
        ("consistent", Guesses::Consistent),
    ];
}

impl SecretArgs {
    /// The game: `game` (or, with --alphabet and no `game`, the one the
    /// words imply; else `default`), with the listed secrets if any.
    /// With `--guesses consistent` the game's guess rule says so.
    pub fn game(&self, game: Option<Rules>, default: Rules) -> anyhow::Result<Game> {
        let consistent = |r: Rules| match self.guesses {
            Some(Guesses::Consistent) => r
                .with_guesses(GuessRule::Consistent)
                .expect("any game takes consistent guesses"),
            _ => r,
        };
        let Some(path) = &self.secrets else {
            if let Some(g @ (Guesses::All | Guesses::Secrets)) = self.guesses {
                let name = if g == Guesses::All { "all" } else { "secrets" };
                anyhow::bail!(
                    "--guesses {name} goes with --secrets (the list's guesses): give --secrets \
                     FILE, or --guesses consistent"
                );
            }
            return Ok(Game::new(consistent(game.unwrap_or(default))));
        };
        let (rules, set) = self.load(path, game, default)?;
        Ok(Game::with_secrets(consistent(rules), set))
    }

    /// The list's guess mode: the listed secrets with `--guesses secrets`,
    /// else every code.
    fn mode(&self) -> GuessMode {
        match self.guesses {
            Some(Guesses::Secrets) => GuessMode::Secrets,
            _ => GuessMode::All,
        }
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
        secrets::load(path, self.alphabet.as_deref(), self.mode(), game, default).map_err(|err| {
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
        Some(p) => {
            let (_, set) = list.load(p, Some(header.rules), header.rules)?;
            Game::with_secrets(header.rules, set)
        }
        None => header.game(),
    };
    let file = TreeFile::from_bytes_in(&game, bytes)?;
    Ok((game, file))
}
