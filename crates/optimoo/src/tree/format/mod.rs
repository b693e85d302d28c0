//! The compact tree file: a versioned binary format for decision trees.
//!
//! The byte layout is documented in `docs/format.md`; in short (version 1):
//!
//! ```text
//! offset size  field
//!      0    4  magic "MOOT"
//!      4    1  format version (1)
//!      5    4  file length in bytes, checksum included (u32 little-endian)
//!      9    1  positions k
//!     10    1  symbols n
//!     11    1  flags: bit 0 repeats allowed, bit 1 implied leaves, bit 2
//!              secret list, bit 3 upper bound, bit 4 answer rule, bit 5
//!              code list; others 0
//!     12    1  objective: 0 average, 1 worst, 2 crush, 3 heuristic
//!     13    1  with flag bit 4 only: the answer rule, 1 black-peg, 2 wordle
//!              (then the varints start at 14; bulls-cows files have no such
//!              byte, so every older file reads as bulls and cows and
//!              bulls-cows files are unchanged)
//!  13/14    …  varints: cap (0 = none), total, max depth D, then D counts
//!              (secrets solved in 1, 2, …, D guesses)
//!      …    …  with flag bit 5 only: the game's code list ([`list`])
//!      …    …  with flag bit 2 only: the secret list ([`list`])
//!      …    …  body: one varint per written node, preorder
//!  len-4    4  CRC-32 (IEEE) of every byte before it (u32 little-endian)
//! ```
//!
//! Varints are unsigned LEB128 (postcard's varint): seven bits a byte, low
//! group first, high bit set on every byte but the last; the encoding must be
//! the shortest one.
//!
//! The body stores *only guesses*. The children of a node are implied by the
//! game: the reader keeps the set `S` of secrets still possible at each node
//! (all codes at the root, or the game's secret list), splits it by the node's guess, and reads one
//! child per non-winning class, in feedback order, each with that class as
//! its set. A guess is written as its *rank* in `S`-first order: a candidate
//! `S[i]` is `i`; any other code is `|S| + j` where `j` is its index among the
//! codes outside `S`. So every rank is below the number of codes, and small
//! sets give one-byte ranks. With the implied-leaves flag, a node whose set
//! is one secret guesses that secret and is not written at all.
//!
//! Invariants:
//! - A file decodes to exactly one tree, and every decoded tree is
//!   structurally valid for its game: legal guesses, one child per
//!   non-winning answer some remaining secret gives, no other child. So a
//!   reader never sees a missing or unreachable branch; the cap and the
//!   statistics are claims of the header, checked by `optimoo verify`.
//! - Encoding is canonical: `encode(decode(b)) == b` for every accepted `b`.
//! - Trees are at most [`crate::tree::MAX_DEPTH`] guesses deep (writer and reader refuse
//!   deeper ones, which also bounds the reader's recursion).
//! - A file of a game is at most [`max_len`] bytes; a file is read from disk
//!   header first and never beyond its declared length plus one byte.
//! - Reading never panics: a short, long, corrupted, foreign or newer file
//!   gives a [`FormatError`] that names the problem.
//!
//! Submodules, along the bytes: [`wire`] (public: the varints, the frame,
//! the header's claims, the length and CRC-32 seal: the one wire layer of
//! every file), `header` (the header, the size bound, bounded reading),
//! `encode` and `decode` (the body), `list` (a secret list), `verify` (the
//! header's claims against the independent checker), [`shape`] (the same
//! format for games of more than 65,535 codes, where the model's `Rules`
//! and 16-bit codes do not reach: framed for the phased strategy's walk,
//! read back with the shape alone; `shape_show` its JSON and picture).
//! This module depends only on the game model and the tree type, never on
//! the strategies or the search, so the player links nothing more.

mod decode;
mod encode;
mod header;
mod list;
pub mod shape;
mod shape_show;
#[cfg(test)]
mod shape_tests;
mod verify;
pub mod wire;

use std::path::Path;

pub use header::{max_len, max_len_for, read_file};
pub use verify::VerifyError;

use crate::model::codelist::CodeList;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::objective::Objective;
use crate::model::rules::{Rules, RulesError};
use crate::model::secrets::SecretSet;
use crate::tree::{Stats, Tree, TreeError};

/// The first four bytes of every tree file.
pub const MAGIC: [u8; 4] = *b"MOOT";
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;

/// What a tree that is *not* proved optimal does prove (flag bit 3,
/// `docs/format.md`, "Upper bound"): its total is an upper bound of the
/// optimum (it is a real strategy), `lower` a proven lower bound when one is
/// known, and `exact` the subtrees that are proved optimal for their sets
/// (the exact units of a checkpoint run grafted into a tree).
///
/// Invariants (the reader refuses a file that breaks one): only with the
/// objective average; `lower`, when set, is at least 1 and below the
/// header's total (a tree whose total is proved the optimum is written
/// without the flag); every path of `exact` is a sequence of non-winning
/// answers from the root that the tree follows to a node, none empty, the
/// paths sorted and none a prefix of another.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bound {
    /// A proven lower bound of the optimal total (`None`: none known).
    pub lower: Option<u64>,
    /// The subtrees proved optimal for their sets, each named by the
    /// answers that lead to it from the root.
    pub exact: Vec<Vec<Feedback>>,
}

/// Everything a tree file says about its tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub rules: Rules,
    /// The game's code list, for a game of one (flag bit 5, stored whole;
    /// `secrets` is then always set).
    pub universe: Option<CodeList>,
    /// The secret list the tree plays, if not every code (stored whole).
    pub secrets: Option<SecretSet>,
    /// What the tree was solved for.
    pub objective: Objective,
    /// The cap it was solved under (`None`: unlimited).
    pub cap: Option<usize>,
    /// The claimed statistics (`secrets` is the sum of the histogram).
    pub stats: Stats,
    /// `None`: the tree is what its objective says (optimal for average,
    /// worst, crush and costs; no claim for heuristic). `Some`: the tree is
    /// only an upper bound of its objective's optimum ([`Bound`]).
    pub bound: Option<Bound>,
}

impl Bound {
    /// Whether the node reached by `answers` from the root lies inside one
    /// of the exact subtrees: its path starts with one of theirs (the one
    /// test of [`Header::exact_after`] and of the ranking's tree values,
    /// [`crate::play::rank::Advisor`]).
    pub fn exact_at(&self, answers: impl IntoIterator<Item = Feedback> + Clone) -> bool {
        self.exact.iter().any(|path| {
            let mut along = answers.clone().into_iter();
            path.iter().all(|&f| along.next() == Some(f))
        })
    }
}

/// A tree with its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeFile {
    /// What the file claims.
    pub header: Header,
    /// The tree.
    pub tree: Tree,
}

/// Why a tree file cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the magic bytes.
    #[error("not an optimoo tree file (it does not start with \"MOOT\")")]
    WrongMagic,
    /// A format version this build does not read.
    #[error("tree file format version {found}, but this optimoo reads version {supported}: use the optimoo that wrote it, or regenerate the file")]
    UnsupportedVersion {
        /// version in the file
        found: u8,
        /// version this build reads
        supported: u8,
    },
    /// Fewer bytes than the file says it has.
    #[error("truncated tree file: {actual} bytes, but it should have {expected}")]
    Truncated {
        /// bytes the file should have
        expected: usize,
        /// bytes present
        actual: usize,
    },
    /// More bytes than the file says it has.
    #[error("{extra} unexpected bytes after the end of the tree file")]
    TrailingBytes {
        /// how many (when read from disk: at least this many)
        extra: usize,
    },
    /// The length field is larger than any file of the game can be.
    #[error("the tree file claims {declared} bytes, but no {rules} tree file has more than {max}: it is corrupted or not a tree file")]
    TooLong {
        /// the length field
        declared: usize,
        /// the game named in the header
        rules: Rules,
        /// [`max_len`] of the game
        max: usize,
    },
    /// The checksum does not match: the file is corrupted.
    #[error("corrupted tree file: checksum {computed:08x} does not match the stored {stored:08x}")]
    Checksum {
        /// CRC-32 stored in the file
        stored: u32,
        /// CRC-32 of the bytes read
        computed: u32,
    },
    /// The header names an impossible game.
    #[error("the tree file names an invalid game: {0}")]
    InvalidGame(#[from] RulesError),
    /// The file plays another game than the one asked for.
    #[error("the tree file plays {file}, not {expected}")]
    WrongGame {
        /// the file's game
        file: Rules,
        /// the game asked for
        expected: Rules,
    },
    /// The file plays another secret list (or none) than the one given.
    #[error(
        "the tree file plays {file}, but {given} was given: use the list the tree was made for"
    )]
    WrongSecrets {
        /// the file's secrets
        file: String,
        /// the secrets given
        given: String,
    },
    /// An objective byte this version does not know.
    #[error("unknown objective {0} in the tree file (written by a newer optimoo?)")]
    UnknownObjective(u8),
    /// Well-formed framing (length, checksum) around contents that do not
    /// decode: the writer was faulty.
    #[error("malformed tree file at byte {offset}: {what}")]
    Malformed {
        /// byte offset of the problem
        offset: usize,
        /// what is wrong
        what: String,
    },
    /// The tree to write does not play its game correctly (or is deeper
    /// than [`crate::tree::MAX_DEPTH`]).
    #[error("cannot write an invalid tree: {0}")]
    InvalidTree(#[from] TreeError),
}

impl Header {
    /// Whether the header proves the tree optimal for its objective (not a
    /// heuristic tree, not an upper bound).
    pub fn proves_optimal(&self) -> bool {
        self.objective != Objective::Heuristic && self.bound.is_none()
    }

    /// Whether the subtree reached by `answers` from the root is proved
    /// optimal for its set: the whole tree is, or an exact subtree of the
    /// [`Bound`] contains it. (A one-secret set is trivially solved
    /// optimally; callers know that without the file.)
    pub fn exact_after(&self, answers: &[Feedback]) -> bool {
        match &self.bound {
            None => self.proves_optimal(),
            Some(b) => b.exact_at(answers.iter().copied()),
        }
    }

    /// What the file proves, in words: the objective alone for a tree
    /// proved optimal for it (and `heuristic`, which claims nothing); for
    /// an upper-bound tree the objective, "upper bound, not proved
    /// optimal", its proven lower bound and exact subtrees (`average upper
    /// bound, not proved optimal (proven lower bound 171412; 66 subtrees
    /// proved exact)`), as data/moo-5x10-grafted.tree says.
    pub fn claim(&self) -> String {
        match (&self.bound, self.objective) {
            (None, o) => o.to_string(),
            (Some(b), o) => {
                let mut notes = Vec::new();
                if let Some(l) = b.lower {
                    notes.push(format!("proven lower bound {l}"));
                }
                if !b.exact.is_empty() {
                    let n = b.exact.len();
                    notes.push(format!(
                        "{n} subtree{} proved exact",
                        if n == 1 { "" } else { "s" }
                    ));
                }
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                };
                format!("{o} upper bound, not proved optimal{notes}")
            }
        }
    }

    /// The game the file plays: its rules, and its secret list if it has
    /// one.
    pub fn game(&self) -> Game {
        match (&self.universe, &self.secrets) {
            (Some(list), set) => Game::of_list_under(
                list.clone(),
                self.rules.answer(),
                self.rules.guesses(),
                set.clone(),
            )
            .expect("the reader checked the list against the rules"),
            (None, Some(set)) => Game::with_secrets(self.rules, set.clone()),
            (None, None) => Game::new(self.rules),
        }
    }
}

/// How a game's secrets are described in messages.
pub fn describe_secrets(game: &Game) -> String {
    match game.secret_set() {
        Some(set) => format!("the list {}", set.describe()),
        None => format!("every code of {}", game.rules()),
    }
}

impl TreeFile {
    /// Wraps a tree for writing: replays every secret to compute the
    /// statistics (and checks the cap and the depth), so the header cannot
    /// lie.
    pub fn new(
        game: &Game,
        tree: Tree,
        objective: Objective,
        cap: Option<usize>,
    ) -> Result<TreeFile, FormatError> {
        let stats = tree.replay(game, cap)?;
        Ok(TreeFile {
            header: Header {
                universe: game.code_list().cloned(),
                secrets: game.secret_set().cloned(),
                rules: tree.rules,
                objective,
                cap,
                stats,
                bound: None,
            },
            tree,
        })
    }

    /// Marks the file an upper bound ([`Bound`]), checked: objective
    /// average, the lower bound below the total (equal: the tree is proved
    /// optimal, and is written so, without the bound), every exact path a
    /// node of the tree. The paths are sorted and a path below another is
    /// dropped (the outer one covers it).
    pub fn with_bound(mut self, mut bound: Bound) -> Result<TreeFile, FormatError> {
        bound.exact.sort();
        bound.exact.dedup();
        let mut kept: Vec<Vec<Feedback>> = Vec::new();
        for p in bound.exact {
            if !kept.last().is_some_and(|q| p.starts_with(q)) {
                kept.push(p);
            }
        }
        bound.exact = kept;
        if bound.lower == Some(self.header.stats.total) {
            return Ok(self);
        }
        self.header.bound = Some(bound);
        check_bound(&self.header, Some(&self.tree))?;
        Ok(self)
    }

    /// Encodes the file. `game` must be the tree's game. The header is
    /// written as it is (only [`TreeFile::new`] computes it); the tree must
    /// be structurally valid for the game.
    pub fn to_bytes(&self, game: &Game) -> Result<Vec<u8>, FormatError> {
        encode::encode(game, self)
    }

    /// Decodes a file; with `expected`, a file for another game is refused.
    pub fn from_bytes(bytes: &[u8], expected: Option<Rules>) -> Result<TreeFile, FormatError> {
        let header = Header::peek(bytes)?;
        if let Some(expected) = expected.filter(|&e| e != header.rules) {
            return Err(FormatError::WrongGame {
                file: header.rules,
                expected,
            });
        }
        TreeFile::from_bytes_in(&header.game(), bytes)
    }

    /// Decodes a file that must play `game` (reuses the caller's game).
    pub fn from_bytes_in(game: &Game, bytes: &[u8]) -> Result<TreeFile, FormatError> {
        decode::decode(game, bytes)
    }

    /// Reads a file through [`read_file`] (header first, then at most the
    /// declared length); with `expected`, a file for another game is
    /// refused.
    pub fn read(path: &Path, expected: Option<Rules>) -> Result<TreeFile, FormatError> {
        TreeFile::from_bytes(&read_file(path)?, expected)
    }
}

/// Checks a [`Bound`] against its header and, when given, its tree (the
/// invariants on [`Bound`]; without the tree, all but the paths' nodes).
fn check_bound(h: &Header, tree: Option<&Tree>) -> Result<(), FormatError> {
    let Some(b) = &h.bound else { return Ok(()) };
    let malformed = |what: String| FormatError::Malformed { offset: 11, what };
    if h.objective != Objective::Average {
        return Err(malformed(format!(
            "an upper-bound tree must have the objective average, not {}",
            h.objective
        )));
    }
    match b.lower {
        Some(0) => return Err(malformed("a lower bound of 0".into())),
        Some(l) if l >= h.stats.total => {
            return Err(malformed(format!(
                "the proven lower bound {l} is not below the total {}{}",
                h.stats.total,
                if l == h.stats.total {
                    ": the tree is optimal, and is written without the bound"
                } else {
                    ""
                }
            )))
        }
        _ => {}
    }
    for (i, p) in b.exact.iter().enumerate() {
        if p.is_empty() {
            return Err(malformed(
                "an exact subtree at the root: the tree is optimal, and is written without the bound"
                    .into(),
            ));
        }
        if i > 0 && (b.exact[i - 1] >= *p || p.starts_with(&b.exact[i - 1])) {
            return Err(malformed(
                "the exact subtrees are not sorted, or one lies inside another".into(),
            ));
        }
        let Some(tree) = tree else { continue };
        let mut node = &tree.root;
        for f in p {
            node = node.child(*f).ok_or_else(|| {
                malformed(format!(
                    "an exact subtree at answers {:?} that the tree does not have",
                    p.iter().map(|f| f.0).collect::<Vec<_>>()
                ))
            })?;
        }
    }
    Ok(())
}
