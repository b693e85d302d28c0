//! A hard-mode constraint ([`Hard`]) compiled to a few bit masks, to filter
//! long guess lists fast.
//!
//! Invariant: [`Needs::allows`] of a code is exactly [`Hard::allows`] of
//! its symbols, for the constraint [`Needs::of`] compiled (tested), on
//! codes of at most 5 positions and symbols below 64.

use crate::model::code::{Code, Codebook};
use crate::model::hard::Hard;

/// Bits a position takes in a packed code.
const BITS: u32 = 6;

/// Each code of a book packed for [`Needs::allows`].
#[derive(Debug)]
pub(super) struct Packed {
    /// `symbols[i] << (BITS · i)` summed over the positions.
    codes: Vec<u64>,
    /// The set of symbols each code holds.
    masks: Vec<u64>,
    /// Positions of a code.
    positions: u32,
}

impl Packed {
    /// Every code of `book`.
    pub(super) fn new(book: &Codebook) -> Packed {
        let codes = book
            .all()
            .map(|c| {
                book.symbols(c)
                    .iter()
                    .enumerate()
                    .fold(0u64, |v, (i, &s)| v | u64::from(s) << (BITS * i as u32))
            })
            .collect();
        let masks = book.all().map(|c| book.mask(c)).collect();
        Packed {
            codes,
            masks,
            positions: book.rules().positions() as u32,
        }
    }
}

/// A constraint as masks: the greens, the symbols needed once, the symbols
/// needed more than once.
#[derive(Debug, Clone, Default)]
pub(super) struct Needs {
    green_mask: u64,
    green_value: u64,
    letters: u64,
    /// Symbols needed at least twice, with their counts.
    multi: Vec<(u8, u8)>,
}

impl Needs {
    /// The masks of `hard`.
    pub(super) fn of(hard: &Hard) -> Needs {
        let mut needs = Needs::default();
        for (i, s) in hard.greens() {
            let shift = BITS * i as u32;
            needs.green_mask |= ((1u64 << BITS) - 1) << shift;
            needs.green_value |= u64::from(s) << shift;
        }
        for (s, m) in hard.least_counts() {
            needs.letters |= 1u64 << s;
            if m > 1 {
                needs.multi.push((s, m));
            }
        }
        needs
    }

    /// Whether the constraint allows nothing more than any code.
    pub(super) fn is_empty(&self) -> bool {
        self.green_mask == 0 && self.letters == 0
    }

    /// Whether `code` keeps the constraint.
    #[inline]
    pub(super) fn allows(&self, packed: &Packed, code: Code) -> bool {
        let v = packed.codes[code.index()];
        v & self.green_mask == self.green_value
            && packed.masks[code.index()] & self.letters == self.letters
            && self.multi.iter().all(|&(s, m)| {
                let copies = (0..packed.positions)
                    .filter(|&i| (v >> (BITS * i)) & ((1 << BITS) - 1) == u64::from(s))
                    .count();
                copies >= usize::from(m)
            })
    }

    /// The codes of `list` the constraint allows, in order.
    pub(super) fn filter(&self, packed: &Packed, list: &[Code]) -> Vec<Code> {
        list.iter()
            .copied()
            .filter(|&c| self.allows(packed, c))
            .collect()
    }
}
