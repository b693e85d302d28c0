//! Tree files of games of any size (up to 2^32 codes, a
//! `model::shape::Shape`): the frame of such a file
//! ([`frame`], which the phased strategy's walk writes its tree into), and
//! a file read back (replayed, verified, printed as JSON, drawn) with the
//! shape alone.
//!
//! The bytes are the tree file of docs/format.md, version 1, by the same
//! rules as the rest of `tree::format`, which reads and writes the games
//! the model handles (the frame, header fields, varints and checksum of
//! [`super::wire`] are used here, not copied): the guesses only, in
//! preorder, each as its rank in `S`-first order (`Shape::rank_in`,
//! `Shape::code_of_rank`), leaves implied. Nothing here builds a
//! [`crate::tree::Tree`], a 16-bit code or a table of `N` entries beyond
//! the codes themselves.
//!
//! Invariants:
//! - [`frame`] writes what the model's writer writes around the same
//!   body; the phased strategy's walk (`heuristic::phased::walk::encode`)
//!   writes objective heuristic, no cap, implied leaves and the statistics
//!   of its walk, on a game the model handles exactly the bytes
//!   `TreeFile::to_bytes` writes for the strategy's tree (tested).
//! - Every written node's guess splits its set (the walk refuses a guess
//!   that does not, and so does the reader), so a file has at most
//!   `N − 1` written nodes and at most [`max_len`] bytes; a longer length
//!   field is refused before the rest is read ([`read_file`]).
//! - The reader holds the file, one array of every code and a partition's
//!   scratch (`Shape::memory_bytes` and the file's length); a rank of a
//!   code outside `S` is found by a binary search over `S`'s ranks.
//! - Reading never panics: a file that is short, long, corrupted, of a game
//!   no reader plays, with unknown flags, a secret list, written leaves, a
//!   rank not below `N`, a guess that does not split its set, a path
//!   deeper than [`MAX_DEPTH`] guesses or bytes after the tree gives a
//!   [`FileError`] that names the problem (and the byte, in the body).
//! - The header's statistics are claims: [`Replay::check`] compares them
//!   with the replay's own count, every secret solved once, at the depth
//!   of the guess that answers it `kA0B`. The replay uses the shape's
//!   answers, the strategy's own rule (tested against the model's on every
//!   small game), not the independent checker of `crate::tree::check`,
//!   which needs the model's codes.

use std::io;
use std::ops::Range;
use std::path::Path;

use crate::model::shape::{Packed, Shape, ShapeError};
use crate::model::{Feedback, Objective};
use crate::tree::{Stats, MAX_DEPTH};

use super::header::max_len_flags;
use super::verify::{check_claims, over_cap};
use super::wire::{
    check_frame, read_bounded, read_claims, seal, varint_len, write_claims, write_fixed, Reader,
    CHECKSUM, FIXED_HEADER, FLAG_BOUND, FLAG_IMPLIED_LEAVES, FLAG_REPEATS, FLAG_SECRETS,
    KNOWN_FLAGS,
};
use super::{FormatError, VerifyError, MAGIC};

pub use super::shape_show::{write_dot, write_json};

/// What a tree file of a [`Shape`] says about its tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    /// The game.
    pub shape: Shape,
    /// What the tree was made for ([`Objective::Heuristic`] for the
    /// phased strategy's).
    pub objective: Objective,
    /// The cap it claims (`None`: none).
    pub cap: Option<usize>,
    /// The claimed statistics (`secrets` is the histogram's sum).
    pub stats: Stats,
}

/// Why a tree file of a [`Shape`] cannot be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The frame, the header or the body, as the tree file's reader names
    /// it (`Malformed` with the byte offset in the body).
    #[error("{0}")]
    Format(#[from] FormatError),
    /// The header names a game no reader plays.
    #[error("the tree file names a game optimoo does not play: {0}")]
    Game(#[from] ShapeError),
    /// The length field is above [`max_len`] of the file's game.
    #[error("the tree file claims {declared} bytes, but no {game} tree file has more than {max}: it is corrupted or not a tree file")]
    TooLong {
        /// the length field
        declared: u64,
        /// the game named in the header
        game: Shape,
        /// [`max_len`] of the game
        max: u64,
    },
    /// Writing the JSON or the picture failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Most bytes a tree file of `shape` has for this reader: the header's
/// bound of docs/format.md (2,584 bytes, checksum included), and a body of
/// at most `N − 1` ranks below `N` (every written node's guess splits its
/// set, so at most `N − 1` nodes of two or more secrets are written), each
/// `varint_len(N − 1)` bytes; at most `u32::MAX`, the length field's
/// limit. 453,597 + 2,584 bytes for moo:6x10.
pub fn max_len(shape: Shape) -> u64 {
    let n = shape.code_count() as u64;
    let header = (FIXED_HEADER + 5 + 10 + 2 + MAX_DEPTH * 10 + CHECKSUM) as u64;
    let body = n.saturating_sub(1) * varint_len(n.saturating_sub(1)) as u64;
    (header + body).min(u32::MAX as u64)
}

fn check_bound(declared: u64, shape: Shape) -> Result<(), FileError> {
    let max = max_len(shape);
    if declared > max {
        return Err(FileError::TooLong {
            declared,
            game: shape,
            max,
        });
    }
    Ok(())
}

/// The game of a tree file whose header names a game the model does not
/// handle (more than 65,535 codes) but [`Shape`] does: such a file is read
/// here. `None` for any other bytes (a file of a game the model handles,
/// something else), which the model's reader takes.
pub fn huge_game(bytes: &[u8]) -> Option<Shape> {
    if bytes.len() < FIXED_HEADER || bytes[..MAGIC.len()] != MAGIC {
        return None;
    }
    let (k, n, repeats) = (
        bytes[9] as usize,
        bytes[10] as usize,
        bytes[11] & FLAG_REPEATS != 0,
    );
    match super::header::fixed_rules(bytes[9], bytes[10], bytes[11]) {
        Ok(_) => None,
        Err(_) => Shape::new(k, n, repeats).ok(),
    }
}

/// Reads a tree file of any game from disk without trusting its size: the
/// fixed header first, then at most the declared length and one byte more,
/// the length bounded by `tree::format::max_len_for` for a game the model
/// handles, by [`max_len`] for a larger one. [`huge_game`] tells which
/// reader decodes the bytes.
pub fn read_file(path: &Path) -> Result<Vec<u8>, FileError> {
    read_bounded(path, |bytes: &[u8], declared: usize| {
        let (k, n, repeats) = (
            bytes[9] as usize,
            bytes[10] as usize,
            bytes[11] & FLAG_REPEATS != 0,
        );
        match super::header::fixed_rules(bytes[9], bytes[10], bytes[11]) {
            Ok(rules) => {
                let max = max_len_flags(rules, bytes[11]);
                if declared > max {
                    return Err(FormatError::TooLong {
                        declared,
                        rules,
                        max,
                    }
                    .into());
                }
                Ok(())
            }
            Err(model) => match Shape::new(k, n, repeats) {
                Ok(shape) => check_bound(declared as u64, shape),
                // Neither reader plays it: the model's reason, as before.
                Err(_) => Err(model.into()),
            },
        }
    })
}

/// Checks the frame and reads the header; the reader is left at the body.
fn read_head(bytes: &[u8]) -> Result<(FileHeader, Reader<'_>), FileError> {
    let content = check_frame(bytes)?;
    let mut r = Reader::new(content);
    r.pos = 9;
    let positions = r.byte("positions")?;
    let symbols = r.byte("symbols")?;
    let flags_at = r.pos;
    let flags = r.byte("flags")?;
    if flags & !KNOWN_FLAGS != 0 {
        r.pos = flags_at;
        return Err(r.malformed(format!("unknown flags {flags:#04x}")).into());
    }
    let shape = Shape::new(
        positions as usize,
        symbols as usize,
        flags & FLAG_REPEATS != 0,
    )?;
    check_bound(bytes.len() as u64, shape)?;
    if flags & FLAG_BOUND != 0 {
        r.pos = flags_at;
        return Err(r
            .malformed(format!(
                "an upper-bound section: {shape} files are heuristic trees and carry none"
            ))
            .into());
    }
    if flags & FLAG_SECRETS != 0 {
        r.pos = flags_at;
        return Err(r
            .malformed(format!(
                "a secret list: {shape} is read as a whole game here (lists are for games of at most 65,535 codes)"
            ))
            .into());
    }
    if flags & FLAG_IMPLIED_LEAVES == 0 {
        r.pos = flags_at;
        return Err(r
            .malformed(
                "leaves are written although every one-secret node must guess its secret \
                 (the implied-leaves flag must be set)",
            )
            .into());
    }
    let objective = r.byte("objective")?;
    let objective =
        Objective::from_byte(objective).ok_or(FormatError::UnknownObjective(objective))?;
    let (cap, stats) = read_claims(&mut r)?;
    let header = FileHeader {
        shape,
        objective,
        cap,
        stats,
    };
    Ok((header, r))
}

/// Checks the frame (magic, version, length, checksum) and reads the
/// header of a tree file of a [`Shape`], without the body.
pub fn peek(bytes: &[u8]) -> Result<FileHeader, FileError> {
    Ok(read_head(bytes)?.0)
}

/// The whole file of `shape`'s game, `objective` and `cap`, with `stats`
/// as its claims and `body` as its guesses (ranks in `S`-first order,
/// preorder, implied leaves): header, body, length, checksum.
pub fn frame(
    shape: Shape,
    objective: Objective,
    cap: Option<usize>,
    stats: &Stats,
    body: &[u8],
) -> Result<Vec<u8>, FileError> {
    let mut out = Vec::with_capacity(FIXED_HEADER + 16 + 10 * stats.max_depth + body.len());
    let mut flags = FLAG_IMPLIED_LEAVES;
    if shape.repeats() {
        flags |= FLAG_REPEATS;
    }
    write_fixed(
        &mut out,
        shape.positions() as u8,
        shape.symbols() as u8,
        flags,
        objective,
    );
    write_claims(&mut out, cap, stats);
    out.extend_from_slice(body);
    Ok(seal(out)?)
}

/// Told the tree's nodes as a file is replayed, in preorder: a node
/// ([`Visitor::enter`]), then for each child the answer that leads to it
/// ([`Visitor::answer`]) and the child, then [`Visitor::leave`]. The JSON
/// and the picture are visitors; `()` visits nothing.
pub trait Visitor {
    /// A node at `depth` (the root is 1) guesses `guess`; `set` (sorted)
    /// holds the secrets still possible there. An implied leaf is a node
    /// whose set is its guess alone.
    fn enter(&mut self, guess: Packed, set: &[Packed], depth: usize) -> io::Result<()>;
    /// The next child of the node entered last and not left follows the
    /// answer `answer`.
    fn answer(&mut self, answer: Feedback) -> io::Result<()>;
    /// The node entered last and not left has no more children.
    fn leave(&mut self) -> io::Result<()>;
}

impl Visitor for () {
    fn enter(&mut self, _: Packed, _: &[Packed], _: usize) -> io::Result<()> {
        Ok(())
    }
    fn answer(&mut self, _: Feedback) -> io::Result<()> {
        Ok(())
    }
    fn leave(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A file replayed: its header's claims and what the replay counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The header.
    pub header: FileHeader,
    /// The statistics of the replay: every secret of the game, each at the
    /// depth of the guess that answers it `kA0B`.
    pub stats: Stats,
    /// The first secret (in the file's order) that needs more guesses
    /// than the header's cap, and how many.
    pub over_cap: Option<(Packed, usize)>,
    /// Where the body lies in the file's bytes.
    pub body: Range<usize>,
}

impl Replay {
    /// The header's claims against the replay: every secret within the
    /// cap, and the secrets, total, max depth and histogram equal to the
    /// replay's (for the worst and crush objectives, the cap set and
    /// reached), as `optimoo verify` checks small files.
    pub fn check(&self) -> Result<(), VerifyError> {
        let h = &self.header;
        if let (Some((secret, guesses)), Some(cap)) = (self.over_cap, h.cap) {
            return Err(over_cap(h.shape.format(secret), guesses, cap));
        }
        check_claims(&h.stats, h.objective, h.cap, &self.stats)
    }

    /// The file again with the replay's statistics as the header's claims
    /// (objective and cap kept): the same bytes when the claims held.
    /// `bytes` must be the file replayed.
    pub fn rewrite(&self, bytes: &[u8]) -> Result<Vec<u8>, FileError> {
        let h = &self.header;
        frame(
            h.shape,
            h.objective,
            h.cap,
            &self.stats,
            &bytes[self.body.clone()],
        )
    }
}

/// Reads a tree file of a [`Shape`] (bytes checked whole: frame, header,
/// body), replays every secret of the game through it with `visitor` told
/// each node, and returns the claims and the replay's statistics. The
/// memory is [`Shape::memory_bytes`] beside the bytes.
pub fn replay(bytes: &[u8], visitor: &mut dyn Visitor) -> Result<Replay, FileError> {
    replay_within(bytes, visitor, MAX_DEPTH)
}

/// [`replay`] with paths of at most `limit` guesses.
pub(super) fn replay_within(
    bytes: &[u8],
    visitor: &mut dyn Visitor,
    limit: usize,
) -> Result<Replay, FileError> {
    let (header, mut r) = read_head(bytes)?;
    let shape = header.shape;
    let start = r.pos;
    let mut codes = shape.all_codes();
    let mut decoder = Decoder {
        shape,
        win: shape.positions() * (shape.positions() + 1),
        codes: shape.code_count() as u64,
        limit,
        cap: header.cap,
        stats: Stats::default(),
        over_cap: None,
        visitor,
    };
    decoder.node(&mut r, &mut codes, 1)?;
    if !r.at_end() {
        return Err(r
            .malformed(format!(
                "{} bytes left after the tree",
                r.bytes.len() - r.pos
            ))
            .into());
    }
    let (stats, over_cap) = (decoder.stats, decoder.over_cap);
    Ok(Replay {
        header,
        stats,
        over_cap,
        body: start..r.pos,
    })
}

/// The replay of a file's body.
struct Decoder<'v> {
    shape: Shape,
    win: usize,
    /// The game's codes.
    codes: u64,
    limit: usize,
    cap: Option<usize>,
    stats: Stats,
    over_cap: Option<(Packed, usize)>,
    visitor: &'v mut dyn Visitor,
}

impl Decoder<'_> {
    fn solved(&mut self, secret: Packed, depth: usize) {
        self.stats.add(depth, 1);
        if self.over_cap.is_none() && self.cap.is_some_and(|c| depth > c) {
            self.over_cap = Some((secret, depth));
        }
    }

    /// Reads the subtree of the node whose secrets are `set` (sorted, not
    /// empty; permuted in place), `depth` guesses from the root.
    fn node(
        &mut self,
        r: &mut Reader<'_>,
        set: &mut [Packed],
        depth: usize,
    ) -> Result<(), FileError> {
        if depth > self.limit {
            return Err(r
                .malformed(format!("the tree goes deeper than {} guesses", self.limit))
                .into());
        }
        if set.len() == 1 {
            self.visitor.enter(set[0], set, depth)?;
            self.solved(set[0], depth);
            return Ok(self.visitor.leave()?);
        }
        let at = r.pos;
        let v = r.varint("guess")?;
        if v >= self.codes {
            r.pos = at;
            return Err(r
                .malformed(format!(
                    "guess rank {v} is not below the {} codes of {}",
                    self.codes, self.shape
                ))
                .into());
        }
        let guess = self.shape.code_of_rank(set, v);
        self.visitor.enter(guess, set, depth)?;
        let bounds = self.shape.partition(guess, set, None);
        if bounds.len() == 1 && bounds[0].0 != self.win {
            r.pos = at;
            return Err(r
                .malformed(format!(
                    "guess {} does not split its set of {} secrets (every one answers {})",
                    self.shape.format(guess),
                    set.len(),
                    Feedback(bounds[0].0 as u8).format(self.shape.positions())
                ))
                .into());
        }
        let mut rest = set;
        for (f, len) in bounds {
            let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            if f == self.win {
                self.solved(class[0], depth);
                continue;
            }
            self.visitor.answer(Feedback(f as u8))?;
            self.node(r, class, depth + 1)?;
        }
        Ok(self.visitor.leave()?)
    }
}
