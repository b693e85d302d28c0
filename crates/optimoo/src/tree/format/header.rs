//! The frame and the header of a tree file, the size bound, and reading a
//! file from disk with that bound.
//!
//! Invariants:
//! - Checks run in the order of `docs/format.md` ("Reading order and
//!   errors"): magic, version, length, checksum, header; the first failure
//!   is the one reported.
//! - No accepted file of a game is longer than [`max_len`] of that game (the
//!   derivation is on [`max_len`] and in `docs/format.md`), and a longer
//!   length field is refused before anything else is read.
//! - [`read_file`] reads the fixed header first, then at most the declared
//!   length plus one byte (to see a longer file), whatever the path names:
//!   an endless device, a pipe, a huge sparse file.

use std::path::Path;

use super::wire::{
    check_frame, read_bounded, read_claims, varint_len, write_claims, write_fixed, write_varint,
    Reader, CHECKSUM, FIXED_HEADER, FLAG_BOUND, FLAG_IMPLIED_LEAVES, FLAG_REPEATS, FLAG_SECRETS,
    KNOWN_FLAGS,
};
use super::wire::{FLAG_LIST, FLAG_RULE};
use super::{check_bound as check_claimed_bound, list, Bound, FormatError, Header};
use crate::model::answer::AnswerRule;
use crate::model::feedback::Feedback;
use crate::model::objective::Objective;
use crate::model::rules::{GuessRule, Rules};

/// The bit of the rule byte that says only consistent guesses are played.
const GUESSES_CONSISTENT: u8 = 16;
/// The bit of the rule byte that says Wordle's hard mode is played.
const GUESSES_HARD: u8 = 32;
use crate::tree::MAX_DEPTH;

/// Most bytes a tree file of `rules` can have (`N` codes):
///
/// - the fixed header, 13 bytes;
/// - the varints of the header: cap ≤ `u32::MAX` (5 bytes), total (≤ 10),
///   max depth `D` ≤ 255 (≤ 2), `D` ≤ [`crate::tree::MAX_DEPTH`] histogram counts (≤ 10
///   each): at most 2,567 bytes;
/// - the body: one varint per written node, each a rank below `N`, so at
///   most `varint_len(N − 1)` bytes (1 up to 128 codes, 2 up to 16,384, 3
///   beyond). The sets of the nodes at one depth are disjoint and not empty
///   (the children of a node split a part of its set), so each depth holds
///   at most `N` nodes, and there are at most [`crate::tree::MAX_DEPTH`] depths: at most
///   `255 · N` nodes;
/// - the checksum, 4 bytes.
///
/// So `max_len = 2,584 + 255 · N · varint_len(N − 1)`: 2.6 MB for
/// moo:4x10, 50 MB for the largest games (65,535 codes). Real files are far
/// smaller (1,665 bytes for the optimal moo:4x10 tree).
pub fn max_len(rules: Rules) -> usize {
    let n = rules.code_count();
    let header = FIXED_HEADER + 5 + 10 + 2 + MAX_DEPTH * 10;
    header + MAX_DEPTH * n * varint_len(n.saturating_sub(1) as u64) + CHECKSUM
}

/// [`max_len`], plus the secret-list extension when `listed`
/// (`list::extra_max`: `407 + 3 · N` bytes). A file with the upper-bound
/// section (flag bit 3) may have `15 + 257 · N` bytes more
/// (`bound_extra_max`), which the readers add from the flags byte; a file
/// without it keeps its bound.
pub fn max_len_for(rules: Rules, listed: bool) -> usize {
    max_len_flags(rules, if listed { FLAG_SECRETS } else { 0 })
}

/// [`max_len_for`] from the flags byte. With a code list (flag bit 5)
/// the number of codes is not in the fixed header: the bound is that of
/// the most codes a list has ([`crate::model::MAX_CODES`]), plus the
/// list's section (`list::codes_extra_max`).
pub(super) fn max_len_flags(rules: Rules, flags: u8) -> usize {
    let mut n = rules.code_count();
    let mut max = max_len(rules);
    if flags & FLAG_LIST != 0 {
        n = crate::model::MAX_CODES;
        let header = FIXED_HEADER + 5 + 10 + 2 + MAX_DEPTH * 10;
        max =
            header + MAX_DEPTH * n * varint_len(n as u64 - 1) + CHECKSUM + list::codes_extra_max();
    }
    if flags & FLAG_SECRETS != 0 {
        max += list::extra_max(n);
    }
    if flags & FLAG_BOUND != 0 {
        max += bound_extra_max(n);
    }
    max
}

/// Most bytes of the upper-bound section of a game of `n` codes: the lower
/// bound (≤ 10 bytes), the count of exact paths (≤ 5), and at most `n`
/// paths (they end at nodes of disjoint, non-empty sets), each a length
/// (≤ 2 bytes) and at most 255 answers of one byte.
fn bound_extra_max(n: usize) -> usize {
    15 + n * (2 + MAX_DEPTH)
}

/// Reads a tree file's bytes from `path` without trusting its size: the
/// fixed header first (magic, version, length field, game), a length field
/// above [`max_len`] of the game refused, then at most the declared length
/// and one byte more, so a longer file is seen (as trailing bytes) without
/// being read. The bytes are for [`TreeFile::from_bytes`], which checks the
/// rest; this only refuses what it must to stay bounded.
///
/// [`TreeFile::from_bytes`]: super::TreeFile::from_bytes
pub fn read_file(path: &Path) -> Result<Vec<u8>, FormatError> {
    read_bounded(path, |bytes, declared| {
        let rules = fixed_rules(bytes[9], bytes[10], bytes[11])?;
        check_bound(declared, rules, bytes[11])
    })
}

/// The rules the fixed header names: a game the model numbers, or with
/// flag bit 5 the positions and symbols of a code list (as a stand-in
/// listed game of [`crate::model::MAX_CODES`] codes until the list is
/// read).
pub(super) fn fixed_rules(positions: u8, symbols: u8, flags: u8) -> Result<Rules, FormatError> {
    let (k, n, repeats) = (
        positions as usize,
        symbols as usize,
        flags & FLAG_REPEATS != 0,
    );
    if flags & FLAG_LIST != 0 {
        return Ok(Rules::listed(k, n, repeats, crate::model::MAX_CODES, 0)?);
    }
    Ok(Rules::new(k, n, repeats)?)
}

impl Header {
    /// Checks the framing (magic, version, length, checksum) and reads the
    /// header, without decoding the tree.
    pub fn peek(bytes: &[u8]) -> Result<Header, FormatError> {
        let content = check_frame(bytes)?;
        Ok(read_header(&mut Reader::new(content))?.0)
    }
}

fn check_bound(declared: usize, rules: Rules, flags: u8) -> Result<(), FormatError> {
    let max = max_len_flags(rules, flags);
    if declared > max {
        return Err(FormatError::TooLong {
            declared,
            rules,
            max,
        });
    }
    Ok(())
}

/// The flags this reader knows: the writer's, the answer rule's and the
/// code list's.
const READ_FLAGS: u8 = KNOWN_FLAGS | FLAG_RULE | FLAG_LIST;

/// Reads the header from a reader over [`check_frame`]'s bytes (the length
/// within the game's bound); returns it and whether leaves are implied.
pub(super) fn read_header(r: &mut Reader<'_>) -> Result<(Header, bool), FormatError> {
    r.pos = 9;
    let positions = r.byte("positions")?;
    let symbols = r.byte("symbols")?;
    let flags_at = r.pos;
    let flags = r.byte("flags")?;
    if flags & !READ_FLAGS != 0 {
        r.pos = flags_at;
        return Err(r.malformed(format!("unknown flags {flags:#04x}")));
    }
    let rules = fixed_rules(positions, symbols, flags)?;
    check_bound(r.bytes.len() + CHECKSUM, rules, flags)?;
    if flags & FLAG_LIST != 0 && flags & FLAG_SECRETS == 0 {
        r.pos = flags_at;
        return Err(
            r.malformed("a code list without its secret list (flag bit 5 needs flag bit 2)")
        );
    }
    let objective = r.byte("objective")?;
    let objective =
        Objective::from_byte(objective).ok_or(FormatError::UnknownObjective(objective))?;
    let rules = if flags & FLAG_RULE != 0 {
        // The low nibble the answer rule (0 bulls-cows), bit 4 the
        // consistent guesses; a byte of 0 is written without the flag.
        let at = r.pos;
        let byte = r.byte("answer rule")?;
        let answer = match byte & !(GUESSES_CONSISTENT | GUESSES_HARD) {
            0 if byte != 0 => AnswerRule::BullsCows,
            1 => AnswerRule::BlackPeg,
            2 => AnswerRule::Wordle,
            other => {
                r.pos = at;
                return Err(r.malformed(format!(
                    "unknown answer rule {other} (1 black-peg, 2 wordle, and 16 for consistent guesses; bulls-cows with any guess is written without the flag)"
                )));
            }
        };
        let guesses = match byte & (GUESSES_CONSISTENT | GUESSES_HARD) {
            0 => GuessRule::Any,
            GUESSES_CONSISTENT => GuessRule::Consistent,
            GUESSES_HARD => GuessRule::Hard,
            _ => {
                r.pos = at;
                return Err(r.malformed("consistent guesses and hard mode both set".to_string()));
            }
        };
        rules.with_answer(answer)?.with_guesses(guesses)?
    } else {
        rules
    };
    let (cap, stats) = read_claims(r)?;
    let (rules, universe) = if flags & FLAG_LIST != 0 {
        let list = list::read_codes(r, rules.positions(), rules.symbols(), rules.repeats())?;
        (
            list.rules(rules.answer())?.with_guesses(rules.guesses())?,
            Some(list),
        )
    } else {
        (rules, None)
    };
    let listed = if flags & FLAG_SECRETS != 0 {
        Some(list::read(r, rules)?)
    } else {
        None
    };
    let bound = if flags & FLAG_BOUND != 0 {
        Some(read_bound(r, rules.code_count())?)
    } else {
        None
    };
    let header = Header {
        universe,
        secrets: listed,
        rules,
        objective,
        cap,
        stats,
        bound,
    };
    check_claimed_bound(&header, None)?;
    Ok((header, flags & FLAG_IMPLIED_LEAVES != 0))
}

/// Reads the upper-bound section (flag bit 3): the lower bound (0: none),
/// the number of exact paths (at most `codes`), each its length (1 to
/// [`MAX_DEPTH`] − 1) and its answers, a byte each. Their order and their
/// place in the tree are checked by the caller.
fn read_bound(r: &mut Reader<'_>, codes: usize) -> Result<Bound, FormatError> {
    let lower = r.varint("lower bound")?;
    let count = r.varint_usize("exact subtrees", codes as u64)?;
    let mut exact = Vec::with_capacity(count.min(1024));
    for _ in 0..count {
        let len = r.varint_usize("exact subtree depth", MAX_DEPTH as u64 - 1)?;
        if len == 0 {
            return Err(r.malformed(
                "an exact subtree at the root: the tree is optimal, and is written without the bound",
            ));
        }
        let mut path = Vec::with_capacity(len);
        for _ in 0..len {
            path.push(Feedback(r.byte("exact subtree answer")?));
        }
        exact.push(path);
    }
    Ok(Bound {
        lower: (lower != 0).then_some(lower),
        exact,
    })
}

/// Writes what [`read_bound`] reads.
fn write_bound(out: &mut Vec<u8>, b: &Bound) {
    write_varint(out, b.lower.unwrap_or(0));
    write_varint(out, b.exact.len() as u64);
    for p in &b.exact {
        write_varint(out, p.len() as u64);
        out.extend(p.iter().map(|f| f.0));
    }
}

/// Writes the header of `h` (the length field left 0 for the caller to
/// patch). `h` must be consistent: a histogram of `max_depth` entries, at
/// most [`crate::tree::MAX_DEPTH`], a cap that fits 32 bits.
pub(super) fn write_header(out: &mut Vec<u8>, h: &Header, implied: bool) {
    let mut flags = 0;
    if h.rules.repeats() {
        flags |= FLAG_REPEATS;
    }
    if implied {
        flags |= FLAG_IMPLIED_LEAVES;
    }
    if h.secrets.is_some() {
        flags |= FLAG_SECRETS;
    }
    if h.bound.is_some() {
        flags |= FLAG_BOUND;
    }
    if h.universe.is_some() {
        flags |= FLAG_LIST;
    }
    let answer = match h.rules.answer() {
        AnswerRule::BullsCows => 0,
        AnswerRule::BlackPeg => 1,
        AnswerRule::Wordle => 2,
    };
    let guesses = match h.rules.guesses() {
        GuessRule::Any => 0,
        GuessRule::Consistent => GUESSES_CONSISTENT,
        GuessRule::Hard => GUESSES_HARD,
    };
    let rule = Some(answer | guesses).filter(|&b| b != 0);
    if rule.is_some() {
        flags |= FLAG_RULE;
    }
    write_fixed(
        out,
        h.rules.positions() as u8,
        h.rules.symbols() as u8,
        flags,
        h.objective,
    );
    out.extend(rule);
    write_claims(out, h.cap, &h.stats);
    if let Some(list) = &h.universe {
        list::write_codes(out, list);
    }
    if let Some(set) = &h.secrets {
        list::write(out, set);
    }
    if let Some(b) = &h.bound {
        write_bound(out, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_of_docs_format() {
        assert_eq!(max_len(Rules::mm(1, 3).unwrap()), 2584 + 255 * 3);
        assert_eq!(max_len(Rules::standard()), 2584 + 255 * 5040 * 2);
        let widest = Rules::mm(2, 36).unwrap();
        assert_eq!(max_len(widest), 2584 + 255 * 1296 * 2);
    }
}
