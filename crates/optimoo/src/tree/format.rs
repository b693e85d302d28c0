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
//!     11    1  flags: bit 0 repeats allowed, bit 1 implied leaves; others 0
//!     12    1  objective: 0 average, 1 worst, 2 crush, 3 heuristic
//!     13    …  varints: cap (0 = none), total, max depth D, then D counts
//!              (secrets solved in 1, 2, …, D guesses)
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
//! (all codes at the root), splits it by the node's guess, and reads one
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
//! - Trees are at most [`MAX_DEPTH`] guesses deep (writer and reader refuse
//!   deeper ones, which also bounds the reader's recursion).
//! - Reading never panics: a short, long, corrupted, foreign or newer file
//!   gives a [`FormatError`] that names the problem.
//!
//! This module depends only on the game model and the tree type, never on
//! the strategies or the search, so the player links nothing more.

use std::path::Path;

pub use crate::model::objective::Objective;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;
use crate::model::rules::{Rules, RulesError};
use crate::model::signature::Oracle;
use crate::tree::{Node, Stats, Tree, TreeError};

/// The first four bytes of every tree file.
pub const MAGIC: [u8; 4] = *b"MOOT";
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;
/// Most guesses a tree may need (deeper trees are refused).
pub const MAX_DEPTH: usize = 255;
/// Bytes before the first varint of the header.
const FIXED_HEADER: usize = 13;
/// Bytes of the trailing checksum.
const CHECKSUM: usize = 4;

const FLAG_REPEATS: u8 = 1;
const FLAG_IMPLIED_LEAVES: u8 = 2;
const KNOWN_FLAGS: u8 = FLAG_REPEATS | FLAG_IMPLIED_LEAVES;

/// Everything a tree file says about its tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub rules: Rules,
    /// What the tree was solved for.
    pub objective: Objective,
    /// The cap it was solved under (`None`: unlimited).
    pub cap: Option<usize>,
    /// The claimed statistics (`secrets` is the sum of the histogram).
    pub stats: Stats,
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
        /// how many
        extra: usize,
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
    /// A tree deeper than [`MAX_DEPTH`].
    #[error("the tree is deeper than {MAX_DEPTH} guesses, which the file format does not store")]
    TooDeep,
    /// The tree to write does not play its game correctly.
    #[error("cannot write an invalid tree: {0}")]
    InvalidTree(#[from] TreeError),
}

impl TreeFile {
    /// Wraps a tree for writing: replays every secret to compute the
    /// statistics (and checks the cap), so the header cannot lie.
    pub fn new(
        game: &Game,
        tree: Tree,
        objective: Objective,
        cap: Option<usize>,
    ) -> Result<TreeFile, FormatError> {
        let stats = tree.replay(game, cap)?;
        if stats.max_depth > MAX_DEPTH {
            return Err(FormatError::TooDeep);
        }
        Ok(TreeFile {
            header: Header {
                rules: tree.rules,
                objective,
                cap,
                stats,
            },
            tree,
        })
    }

    /// Encodes the file. `game` must be the tree's game. The header is
    /// written as it is (only [`TreeFile::new`] computes it); the tree must
    /// be structurally valid for the game.
    pub fn to_bytes(&self, game: &Game) -> Result<Vec<u8>, FormatError> {
        encode(game, self)
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
        TreeFile::from_bytes_in(&Game::new(header.rules), bytes)
    }

    /// Decodes a file that must play `game` (reuses the caller's game).
    pub fn from_bytes_in(game: &Game, bytes: &[u8]) -> Result<TreeFile, FormatError> {
        decode(game, bytes)
    }

    /// Reads a file; with `expected`, a file for another game is refused.
    pub fn read(path: &Path, expected: Option<Rules>) -> Result<TreeFile, FormatError> {
        TreeFile::from_bytes(&std::fs::read(path)?, expected)
    }
}

/// Why a readable tree file fails verification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A secret is not won, or not within the cap.
    #[error("{0}")]
    Tree(#[from] TreeError),
    /// The header claims other statistics than the replay gives.
    #[error("the header claims {field} {claimed}, but replaying every secret gives {replayed}")]
    Stats {
        /// which statistic
        field: &'static str,
        /// the header's value
        claimed: String,
        /// the replay's value
        replayed: String,
    },
    /// A worst-case or crush tree must reach its cap exactly (the cap is the
    /// claimed minimum).
    #[error("a {objective} tree claims {cap} guesses as the minimal worst case, but {problem}")]
    Cap {
        /// the objective
        objective: Objective,
        /// the cap written as text ("no cap" when missing)
        cap: String,
        /// what is wrong
        problem: String,
    },
}

impl TreeFile {
    /// Replays every secret of `game` (which must be the file's), checks each
    /// wins within the cap, recomputes the statistics and compares them with
    /// the header. For the worst and crush objectives the cap must be set and
    /// reached. Optimality itself is not re-proven here (that takes the
    /// search); the claimed figures are.
    pub fn verify(&self, game: &Game) -> Result<Stats, VerifyError> {
        let h = &self.header;
        let stats = self.tree.replay(game, h.cap)?;
        let mismatch = |field, claimed: String, replayed: String| {
            Err(VerifyError::Stats {
                field,
                claimed,
                replayed,
            })
        };
        if h.stats.secrets != stats.secrets {
            return mismatch(
                "secrets",
                h.stats.secrets.to_string(),
                stats.secrets.to_string(),
            );
        }
        if h.stats.total != stats.total {
            return mismatch("total", h.stats.total.to_string(), stats.total.to_string());
        }
        if h.stats.max_depth != stats.max_depth {
            return mismatch(
                "max depth",
                h.stats.max_depth.to_string(),
                stats.max_depth.to_string(),
            );
        }
        if h.stats.histogram != stats.histogram {
            return mismatch(
                "histogram",
                h.stats.histogram_text(),
                stats.histogram_text(),
            );
        }
        if matches!(h.objective, Objective::Worst | Objective::Crush) {
            let problem = match h.cap {
                None => Some("the file has no cap".to_string()),
                Some(cap) if cap != stats.max_depth => Some(format!(
                    "the tree never needs more than {}",
                    stats.max_depth
                )),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                return Err(VerifyError::Cap {
                    objective: h.objective,
                    cap: h.cap.map_or("no cap".into(), |c| c.to_string()),
                    problem,
                });
            }
        }
        Ok(stats)
    }
}

impl Header {
    /// Checks the framing (magic, version, length, checksum) and reads the
    /// header, without decoding the tree.
    pub fn peek(bytes: &[u8]) -> Result<Header, FormatError> {
        let body = check_frame(bytes)?;
        let mut r = Reader::new(body);
        let header = read_header(&mut r)?;
        Ok(header.0)
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`, initial value and
/// final xor `0xFFFFFFFF`): the checksum of zip and PNG. `crc32(b"123456789")
/// == 0xCBF43926`.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut bit = 0;
            while bit < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                bit += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc = TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc ^ 0xFFFF_FFFF
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A cursor over the bytes between the fixed header and the checksum.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    fn malformed(&self, what: impl Into<String>) -> FormatError {
        FormatError::Malformed {
            offset: self.pos,
            what: what.into(),
        }
    }

    fn byte(&mut self, what: &str) -> Result<u8, FormatError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or_else(|| self.malformed(format!("{what} missing")))?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self, what: &str) -> Result<u64, FormatError> {
        let start = self.pos;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            let part = (b & 0x7F) as u64;
            if shift == 63 && part > 1 {
                break;
            }
            value |= part << shift;
            if b & 0x80 == 0 {
                if b == 0 && shift > 0 {
                    self.pos = start;
                    return Err(self.malformed(format!("{what}: varint not in shortest form")));
                }
                return Ok(value);
            }
        }
        self.pos = start;
        Err(self.malformed(format!("{what}: varint overflows 64 bits")))
    }

    fn varint_usize(&mut self, what: &str, max: u64) -> Result<usize, FormatError> {
        let start = self.pos;
        let v = self.varint(what)?;
        if v > max {
            self.pos = start;
            return Err(self.malformed(format!("{what} is {v}, above {max}")));
        }
        Ok(v as usize)
    }

    fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

/// Checks magic, version, length and checksum; returns the bytes between
/// the fixed header's first byte and the checksum (the whole file minus the
/// checksum), for [`read_header`].
fn check_frame(bytes: &[u8]) -> Result<&[u8], FormatError> {
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(FormatError::WrongMagic);
    }
    let truncated = |expected| FormatError::Truncated {
        expected,
        actual: bytes.len(),
    };
    if bytes.len() < 5 {
        return Err(truncated(FIXED_HEADER + CHECKSUM));
    }
    if bytes[4] != VERSION {
        return Err(FormatError::UnsupportedVersion {
            found: bytes[4],
            supported: VERSION,
        });
    }
    if bytes.len() < 9 {
        return Err(truncated(FIXED_HEADER + CHECKSUM));
    }
    let declared = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
    if declared < FIXED_HEADER + CHECKSUM {
        return Err(FormatError::Malformed {
            offset: 5,
            what: format!("file length {declared} is shorter than a header"),
        });
    }
    if bytes.len() < declared {
        return Err(truncated(declared));
    }
    if bytes.len() > declared {
        return Err(FormatError::TrailingBytes {
            extra: bytes.len() - declared,
        });
    }
    let (content, tail) = bytes.split_at(declared - CHECKSUM);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let computed = crc32(content);
    if stored != computed {
        return Err(FormatError::Checksum { stored, computed });
    }
    Ok(content)
}

/// Reads the header from a reader over [`check_frame`]'s bytes; returns it
/// and whether leaves are implied.
fn read_header(r: &mut Reader<'_>) -> Result<(Header, bool), FormatError> {
    r.pos = 9;
    let positions = r.byte("positions")?;
    let symbols = r.byte("symbols")?;
    let flags_at = r.pos;
    let flags = r.byte("flags")?;
    if flags & !KNOWN_FLAGS != 0 {
        r.pos = flags_at;
        return Err(r.malformed(format!("unknown flags {flags:#04x}")));
    }
    let rules = Rules::new(
        positions as usize,
        symbols as usize,
        flags & FLAG_REPEATS != 0,
    )?;
    let objective = r.byte("objective")?;
    let objective =
        Objective::from_byte(objective).ok_or(FormatError::UnknownObjective(objective))?;
    let cap = r.varint_usize("cap", u32::MAX as u64)?;
    let total = r.varint("total")?;
    let max_depth = r.varint_usize("max depth", MAX_DEPTH as u64)?;
    let mut histogram = Vec::with_capacity(max_depth);
    let mut secrets = 0u64;
    for _ in 0..max_depth {
        let h = r.varint("histogram")?;
        secrets = secrets
            .checked_add(h)
            .ok_or_else(|| r.malformed("histogram sum overflows"))?;
        histogram.push(h);
    }
    let header = Header {
        rules,
        objective,
        cap: (cap != 0).then_some(cap),
        stats: Stats {
            secrets,
            total,
            max_depth,
            histogram,
        },
    };
    Ok((header, flags & FLAG_IMPLIED_LEAVES != 0))
}

fn encode(game: &Game, file: &TreeFile) -> Result<Vec<u8>, FormatError> {
    let h = &file.header;
    if file.tree.rules != game.rules() || h.rules != game.rules() {
        return Err(FormatError::WrongGame {
            file: file.tree.rules,
            expected: game.rules(),
        });
    }
    if h.stats.max_depth > MAX_DEPTH || h.stats.histogram.len() != h.stats.max_depth {
        return Err(FormatError::Malformed {
            offset: 0,
            what: format!(
                "header: max depth {} with a histogram of {} entries",
                h.stats.max_depth,
                h.stats.histogram.len()
            ),
        });
    }
    let all = game.all_codes();
    // Implied leaves when every one-secret node guesses its secret (always
    // so for a sensible tree); else every node is written.
    let mut body = Vec::new();
    let implied = match encode_node(game, &file.tree.root, &all, 1, true, &mut body) {
        Ok(()) => true,
        Err(Unimplied) => {
            body.clear();
            encode_node(game, &file.tree.root, &all, 1, false, &mut body)
                .map_err(|_| unreachable_err())?;
            false
        }
    };
    // The walk above trusts the structure; check it (and the depth) too.
    check_structure(game, &file.tree.root, &all, 1, &mut Vec::new())?;

    let mut out = Vec::with_capacity(FIXED_HEADER + 16 + body.len() + CHECKSUM);
    out.extend_from_slice(&MAGIC);
    out.push(VERSION);
    out.extend_from_slice(&[0; 4]); // length, patched below
    out.push(h.rules.positions() as u8);
    out.push(h.rules.symbols() as u8);
    let mut flags = 0;
    if h.rules.repeats() {
        flags |= FLAG_REPEATS;
    }
    if implied {
        flags |= FLAG_IMPLIED_LEAVES;
    }
    out.push(flags);
    out.push(h.objective.byte());
    write_varint(&mut out, h.cap.unwrap_or(0) as u64);
    write_varint(&mut out, h.stats.total);
    write_varint(&mut out, h.stats.max_depth as u64);
    for &c in &h.stats.histogram {
        write_varint(&mut out, c);
    }
    out.extend_from_slice(&body);
    let len = out.len() + CHECKSUM;
    let len32 = u32::try_from(len).map_err(|_| FormatError::Malformed {
        offset: 5,
        what: format!("a file of {len} bytes does not fit the length field"),
    })?;
    out[5..9].copy_from_slice(&len32.to_le_bytes());
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// A one-secret node guesses something else: leaves cannot be implied.
struct Unimplied;

fn unreachable_err() -> FormatError {
    FormatError::Malformed {
        offset: 0,
        what: "internal error: encoding without implied leaves failed".into(),
    }
}

/// The rank of `guess` in `set`-first order (see the module doc).
fn rank(set: &[Code], guess: Code) -> usize {
    match set.binary_search(&guess) {
        Ok(i) => i,
        Err(below) => set.len() + guess.index() - below,
    }
}

/// The code of rank `r` in `set`-first order, if `r` is below `codes`.
fn unrank(set: &[Code], r: usize, codes: usize) -> Option<Code> {
    if r < set.len() {
        return Some(set[r]);
    }
    let mut c = r - set.len();
    if c >= codes - set.len() {
        return None;
    }
    // The c-th code outside the sorted set: skip each member at or below.
    for s in set {
        if s.index() <= c {
            c += 1;
        } else {
            break;
        }
    }
    Some(Code(c as u16))
}

/// Writes the guesses of a subtree, preorder. Structure errors are left to
/// [`check_structure`]; this only stops early when a leaf cannot be implied.
fn encode_node(
    game: &Game,
    node: &Node,
    set: &[Code],
    depth: usize,
    implied: bool,
    out: &mut Vec<u8>,
) -> Result<(), Unimplied> {
    if set.len() == 1 && implied {
        if node.guess == set[0] && node.children.is_empty() {
            return Ok(());
        }
        return Err(Unimplied);
    }
    if node.guess.index() >= game.len() || depth > MAX_DEPTH {
        return Ok(()); // reported by check_structure
    }
    write_varint(out, rank(set, node.guess) as u64);
    for (f, class) in partition::split(game, node.guess, set) {
        if f == game.win() {
            continue;
        }
        if let Some(child) = node.child(f) {
            encode_node(game, child, &class, depth + 1, implied, out)?;
        }
    }
    Ok(())
}

/// Checks that every node's children are exactly its non-winning classes
/// and that no path is deeper than [`MAX_DEPTH`].
fn check_structure(
    game: &Game,
    node: &Node,
    set: &[Code],
    depth: usize,
    path: &mut Vec<String>,
) -> Result<(), FormatError> {
    if depth > MAX_DEPTH {
        return Err(FormatError::TooDeep);
    }
    if node.guess.index() >= game.len() {
        return Err(TreeError::IllegalGuess {
            path: path.join(" "),
            index: node.guess.index(),
            rules: game.rules(),
        }
        .into());
    }
    let classes = partition::split(game, node.guess, set);
    for (f, _) in &node.children {
        if *f == game.win() || !classes.iter().any(|(g, _)| g == f) {
            return Err(TreeError::UnreachableBranch {
                path: path.join(" "),
                feedback: game.format_feedback(*f),
            }
            .into());
        }
    }
    for (f, class) in classes {
        if f == game.win() {
            continue;
        }
        let child = node.child(f).ok_or_else(|| TreeError::MissingBranch {
            path: path.join(" "),
            secret: game.format_code(class[0]),
            feedback: game.format_feedback(f),
        })?;
        path.push(format!(
            "{}:{}",
            game.format_code(node.guess),
            game.format_feedback(f)
        ));
        check_structure(game, child, &class, depth + 1, path)?;
        path.pop();
    }
    Ok(())
}

fn decode(game: &Game, bytes: &[u8]) -> Result<TreeFile, FormatError> {
    let content = check_frame(bytes)?;
    let mut r = Reader::new(content);
    let (header, implied) = read_header(&mut r)?;
    if header.rules != game.rules() {
        return Err(FormatError::WrongGame {
            file: header.rules,
            expected: game.rules(),
        });
    }
    let mut decoder = Decoder {
        oracle: Oracle::new(game),
        game,
        implied,
        arena: game.all_codes(),
        answers: Vec::new(),
        counts: Vec::new(),
        classes: Vec::new(),
    };
    let root = decoder.node(&mut r, 0, game.len(), 1)?;
    if !r.at_end() {
        return Err(r.malformed(format!(
            "{} bytes left after the tree",
            content.len() - r.pos
        )));
    }
    Ok(TreeFile {
        tree: Tree {
            rules: header.rules,
            root,
        },
        header,
    })
}

/// Rebuilds a tree from its guesses. The sets of secrets live in one
/// arena: a node's set is a range of it, and its classes are appended after
/// the end (a stable counting sort by feedback, so each class stays sorted)
/// and dropped when the node is done. The player decodes a whole tree at
/// start-up, so this allocates nothing per node but the node's children.
struct Decoder<'a> {
    oracle: Oracle<'a>,
    game: &'a Game,
    implied: bool,
    arena: Vec<Code>,
    /// Feedback of each secret of the node being split (scratch).
    answers: Vec<u8>,
    /// Class sizes, then offsets, of the node being split (scratch; a
    /// class has at most 65,535 codes).
    counts: Vec<u32>,
    /// The classes waiting for their subtree: (answer, start, length) in
    /// the arena; each node pushes its own and pops them when done.
    classes: Vec<(Feedback, usize, usize)>,
}

impl Decoder<'_> {
    fn node(
        &mut self,
        r: &mut Reader<'_>,
        lo: usize,
        hi: usize,
        depth: usize,
    ) -> Result<Node, FormatError> {
        if depth > MAX_DEPTH {
            return Err(r.malformed(format!("the tree goes deeper than {MAX_DEPTH} guesses")));
        }
        if self.implied && hi - lo == 1 {
            return Ok(Node::leaf(self.arena[lo]));
        }
        let game = self.game;
        let at = r.pos;
        let v = r.varint("guess")?;
        let guess = usize::try_from(v)
            .ok()
            .and_then(|v| unrank(&self.arena[lo..hi], v, game.len()))
            .ok_or_else(|| FormatError::Malformed {
                offset: at,
                what: format!(
                    "guess rank {v} is not below the {} codes of {}",
                    game.len(),
                    game.rules()
                ),
            })?;
        let win = game.win().index();
        let slots = game.rules().feedback_slots();
        self.counts.clear();
        self.counts.resize(slots, 0);
        self.answers.clear();
        for i in lo..hi {
            let f = self.oracle.feedback(self.arena[i], guess).index();
            self.counts[f] += 1;
            self.answers.push(f as u8);
        }
        // Turn counts into the offsets where each class starts, and note the
        // classes that get a child.
        let base = self.arena.len();
        let first_class = self.classes.len();
        let mut next = 0;
        for f in 0..slots {
            let count = self.counts[f];
            if count > 0 && f != win {
                self.classes
                    .push((Feedback(f as u8), base + next as usize, count as usize));
            }
            self.counts[f] = next;
            next += count;
        }
        self.arena.resize(base + (hi - lo), Code(0));
        for i in lo..hi {
            let f = self.answers[i - lo] as usize;
            self.arena[base + self.counts[f] as usize] = self.arena[i];
            self.counts[f] += 1;
        }
        let mut children = Vec::with_capacity(self.classes.len() - first_class);
        for c in first_class..self.classes.len() {
            let (f, start, len) = self.classes[c];
            children.push((f, self.node(r, start, start + len, depth + 1)?));
        }
        self.classes.truncate(first_class);
        self.arena.truncate(base);
        Ok(Node { guess, children })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn varints_are_leb128() {
        let mut out = Vec::new();
        write_varint(&mut out, 300);
        assert_eq!(out, [0xAC, 0x02]);
        let mut r = Reader::new(&out);
        assert_eq!(r.varint("x").unwrap(), 300);
        for v in [0, 1, 127, 128, 16383, 16384, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            let mut r = Reader::new(&out);
            assert_eq!(r.varint("x").unwrap(), v);
            assert!(r.at_end());
        }
        // Not shortest, too long, cut short.
        for bad in [&[0x80, 0x00][..], &[0xFF; 11][..], &[0x80][..]] {
            assert!(Reader::new(bad).varint("x").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ranks_order_the_set_first() {
        let set = [Code(1), Code(3), Code(4)];
        let order: Vec<Code> = (0..7).map(|r| unrank(&set, r, 7).unwrap()).collect();
        assert_eq!(
            order,
            [1, 3, 4, 0, 2, 5, 6].map(Code),
            "candidates first, then the others in code order"
        );
        for (r, &c) in order.iter().enumerate() {
            assert_eq!(rank(&set, c), r);
        }
        assert_eq!(unrank(&set, 7, 7), None);
    }

    /// mm:1x3 guessing 0, then 1, then 2: two written nodes, one implied.
    #[test]
    fn small_file_layout() {
        let (game, tree) = crate::tree::chain();
        let file = TreeFile::new(&game, tree, Objective::Average, Some(3)).unwrap();
        let bytes = file.to_bytes(&game).unwrap();
        let mut expected = b"MOOT\x01".to_vec();
        expected.extend_from_slice(&25u32.to_le_bytes());
        // k=1, n=3, repeats + implied leaves, average; cap 3, total 6,
        // depth 3, histogram 1 1 1; body: rank 0 at the root, rank 0 in
        // {1, 2}; the leaf {2} is implied.
        expected.extend_from_slice(&[1, 3, 3, 0, 3, 6, 3, 1, 1, 1, 0, 0]);
        let crc = crc32(&expected);
        assert_eq!(crc, 0x7f1d_597d, "the example of docs/format.md");
        expected.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(bytes, expected);
        assert_eq!(TreeFile::from_bytes(&bytes, None).unwrap(), file);
    }
}
