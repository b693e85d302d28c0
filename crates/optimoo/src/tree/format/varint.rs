//! Varints and the cursor that reads them.
//!
//! Invariant: varints are unsigned LEB128 (postcard's varint) of at most 64
//! bits, always in their shortest form: [`write_varint`] writes only that,
//! and [`Reader::varint`] refuses anything else, so a value has exactly one
//! encoding. A reader never reads past its slice: running out is an error
//! that names the missing field.
//!
//! `pub(crate)`: the tree files of games over 65,535 codes
//! (`crate::huge::file`) are written and read with the same primitives.

use super::FormatError;

/// Appends `value` as a varint.
pub(crate) fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Bytes of the varint of `value` (1 to 10).
pub(crate) fn varint_len(value: u64) -> usize {
    let bits = 64 - value.leading_zeros() as usize;
    bits.div_ceil(7).max(1)
}

/// A cursor over the bytes of a file before its checksum; `pos` is the
/// offset in the file.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    pub(crate) fn malformed(&self, what: impl Into<String>) -> FormatError {
        FormatError::Malformed {
            offset: self.pos,
            what: what.into(),
        }
    }

    pub(crate) fn byte(&mut self, what: &str) -> Result<u8, FormatError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or_else(|| self.malformed(format!("{what} missing")))?;
        self.pos += 1;
        Ok(b)
    }

    pub(crate) fn varint(&mut self, what: &str) -> Result<u64, FormatError> {
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

    pub(crate) fn varint_usize(&mut self, what: &str, max: u64) -> Result<usize, FormatError> {
        let start = self.pos;
        let v = self.varint(what)?;
        if v > max {
            self.pos = start;
            return Err(self.malformed(format!("{what} is {v}, above {max}")));
        }
        Ok(v as usize)
    }

    pub(crate) fn at_end(&self) -> bool {
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
