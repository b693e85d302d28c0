//! The wire layer of every file of optimoo's: the primitives the tree file
//! (`tree::format`), the tree file of a shape (`tree::format::shape`, written
//! by the phased strategy's walk) and the opening books (their CRC-32) are
//! written and read with, so no writer copies them or reaches into another
//! module's private parts.
//!
//! - varints ([`write_varint`], [`varint_len`], the [`Reader`] cursor):
//!   unsigned LEB128 (postcard's varint) of at most 64 bits, always in their
//!   shortest form: [`write_varint`] writes only that, and
//!   [`Reader::varint`] refuses anything else, so a value has exactly one
//!   encoding. A reader never reads past its slice: running out is an
//!   error that names the missing field;
//! - the frame and the header's common fields (docs/format.md): the fixed
//!   header ([`write_fixed`]: magic, version, length, game, flags,
//!   objective; [`check_start`], [`check_frame`]), the claims
//!   ([`write_claims`], [`read_claims`]: cap, total, histogram), a file
//!   closed by its length and checksum ([`seal`]), and a file read from
//!   disk never beyond its declared length plus one byte ([`read_bounded`]);
//! - the checksum ([`crc32`]): CRC-32/ISO-HDLC (zip, PNG, Ethernet):
//!   reflected polynomial `0xEDB88320`, initial value and final xor
//!   `0xFFFFFFFF`; its check value `crc32(b"123456789") == 0xCBF43926` is
//!   tested below.
//!
//! Invariants: checks run in the order of docs/format.md ("Reading order
//! and errors"): magic, version, length, checksum, header; the first
//! failure is the one reported. Nothing here knows a game beyond its
//! positions, symbols and flags, nor a tree beyond its statistics.

use std::io::Read;
use std::path::Path;

use super::{FormatError, MAGIC, VERSION};
use crate::model::objective::Objective;
use crate::tree::{Stats, MAX_DEPTH};

/// Bytes before the first varint of the header: magic, version, length,
/// game, flags, objective.
pub const FIXED_HEADER: usize = 13;
/// Bytes of the trailing checksum.
pub const CHECKSUM: usize = 4;

/// Flag bit 0: repeats allowed.
pub const FLAG_REPEATS: u8 = 1;
/// Flag bit 1: leaves implied, not written.
pub const FLAG_IMPLIED_LEAVES: u8 = 2;
/// Flag bit 2: a secret list follows the header.
pub const FLAG_SECRETS: u8 = 4;
/// Flag bit 3: an upper bound, not a proved optimum.
pub const FLAG_BOUND: u8 = 8;
/// Every flag bit a reader of this version knows.
/// Flag bit 4: an answer-rule byte follows the objective (1 black pegs, 2
/// Wordle); without it the rule is bulls and cows. Read by the tree file's
/// header only (the shape format refuses it as an unknown flag).
pub const FLAG_RULE: u8 = 16;
/// Flag bit 5: the game's codes are a list ([`crate::model::CodeList`]),
/// stored after the claims. Read by the tree file's header only.
pub const FLAG_LIST: u8 = 32;
/// Flags every reader knows (the tree header also knows [`FLAG_RULE`] and
/// [`FLAG_LIST`]).
pub const KNOWN_FLAGS: u8 = FLAG_REPEATS | FLAG_IMPLIED_LEAVES | FLAG_SECRETS | FLAG_BOUND;

/// The shortest possible file: the fixed header, one-byte cap, total and
/// max depth, the checksum. A smaller length field is malformed.
pub const MIN_LEN: usize = FIXED_HEADER + CHECKSUM;

/// `tree::format::read_file` with the game and bound checked by `check`, given the
/// fixed header (13 bytes, magic, version and length field already
/// checked) and the declared length: the bytes of a file whose game is
/// checked elsewhere (`crate::tree::format::shape`, games over 65,535 codes). A
/// file shorter than the fixed header is returned as it is, for the
/// decoder to name the problem.
pub fn read_bounded<E: From<FormatError>>(
    path: &Path,
    check: impl FnOnce(&[u8], usize) -> Result<(), E>,
) -> Result<Vec<u8>, E> {
    let mut file = std::fs::File::open(path).map_err(FormatError::from)?;
    let mut bytes = Vec::with_capacity(FIXED_HEADER);
    (&mut file)
        .take(FIXED_HEADER as u64)
        .read_to_end(&mut bytes)
        .map_err(FormatError::from)?;
    if bytes.len() < FIXED_HEADER {
        return Ok(bytes); // too short: the decoder names the problem
    }
    let declared = check_start(&bytes)?;
    check(&bytes, declared)?;
    file.take((declared + 1 - FIXED_HEADER) as u64)
        .read_to_end(&mut bytes)
        .map_err(FormatError::from)?;
    Ok(bytes)
}

/// Checks magic, version and the length field of the first bytes of a
/// file; returns the declared length (at least [`MIN_LEN`]).
pub fn check_start(bytes: &[u8]) -> Result<usize, FormatError> {
    let magic_len = bytes.len().min(MAGIC.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(FormatError::WrongMagic);
    }
    let truncated = FormatError::Truncated {
        expected: MIN_LEN,
        actual: bytes.len(),
    };
    if bytes.len() < 5 {
        return Err(truncated);
    }
    if bytes[4] != VERSION {
        return Err(FormatError::UnsupportedVersion {
            found: bytes[4],
            supported: VERSION,
        });
    }
    if bytes.len() < 9 {
        return Err(truncated);
    }
    let declared = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
    if declared < MIN_LEN {
        return Err(FormatError::Malformed {
            offset: 5,
            what: format!("file length {declared} is shorter than a header"),
        });
    }
    Ok(declared)
}

/// Checks magic, version, length and checksum; returns the bytes before the
/// checksum, for the header's reader.
pub fn check_frame(bytes: &[u8]) -> Result<&[u8], FormatError> {
    let declared = check_start(bytes)?;
    if bytes.len() < declared {
        return Err(FormatError::Truncated {
            expected: declared,
            actual: bytes.len(),
        });
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

/// Reads the header's claims after the objective byte: the cap (`None`
/// for 0), the total, the max depth `D` (at most [`MAX_DEPTH`]) and the
/// `D` histogram counts (their sum, which must not overflow, is the
/// number of secrets). Nothing is checked against the game here.
pub fn read_claims(r: &mut Reader<'_>) -> Result<(Option<usize>, Stats), FormatError> {
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
    let stats = Stats {
        secrets,
        total,
        max_depth,
        histogram,
    };
    Ok(((cap != 0).then_some(cap), stats))
}

/// Writes the fixed header: magic, version, the length field left 0 for
/// the caller to patch, the game, the flags and the objective.
pub fn write_fixed(out: &mut Vec<u8>, positions: u8, symbols: u8, flags: u8, objective: Objective) {
    out.extend_from_slice(&MAGIC);
    out.push(VERSION);
    out.extend_from_slice(&[0; 4]);
    out.push(positions);
    out.push(symbols);
    out.push(flags);
    out.push(objective.byte());
}

/// Writes the claims [`read_claims`] reads: cap (0 for none), total, max
/// depth and histogram. `stats` must be consistent (a histogram of
/// `max_depth` entries).
pub fn write_claims(out: &mut Vec<u8>, cap: Option<usize>, stats: &Stats) {
    write_varint(out, cap.unwrap_or(0) as u64);
    write_varint(out, stats.total);
    write_varint(out, stats.max_depth as u64);
    for &c in &stats.histogram {
        write_varint(out, c);
    }
}

/// Closes a file: `out` (header and body) gets its length written at
/// offset 5 and the CRC-32 of every byte appended.
pub fn seal(mut out: Vec<u8>) -> Result<Vec<u8>, FormatError> {
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

/// Appends `value` as a varint.
pub fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Bytes of the varint of `value` (1 to 10).
pub fn varint_len(value: u64) -> usize {
    let bits = 64 - value.leading_zeros() as usize;
    bits.div_ceil(7).max(1)
}

/// A cursor over the bytes of a file before its checksum; `pos` is the
/// offset in the file.
pub struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    /// The offset of the next byte read.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Goes on reading at `pos` (past the end: every read then fails).
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    pub fn malformed(&self, what: impl Into<String>) -> FormatError {
        FormatError::Malformed {
            offset: self.pos,
            what: what.into(),
        }
    }

    pub fn byte(&mut self, what: &str) -> Result<u8, FormatError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or_else(|| self.malformed(format!("{what} missing")))?;
        self.pos += 1;
        Ok(b)
    }

    pub fn varint(&mut self, what: &str) -> Result<u64, FormatError> {
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

    pub fn varint_usize(&mut self, what: &str, max: u64) -> Result<usize, FormatError> {
        let start = self.pos;
        let v = self.varint(what)?;
        if v > max {
            self.pos = start;
            return Err(self.malformed(format!("{what} is {v}, above {max}")));
        }
        Ok(v as usize)
    }

    pub fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(out.len(), varint_len(v), "{v}");
            let mut r = Reader::new(&out);
            assert_eq!(r.varint("x").unwrap(), v);
            assert!(r.at_end());
        }
        // Not shortest, too long, cut short.
        for bad in [&[0x80, 0x00][..], &[0xFF; 11][..], &[0x80][..]] {
            assert!(Reader::new(bad).varint("x").is_err(), "{bad:?}");
        }
    }
}

/// CRC-32 (IEEE 802.3) of `bytes`.
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

#[cfg(test)]
mod crc_tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
