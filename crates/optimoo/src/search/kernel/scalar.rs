//! Plain counting, one guess at a time: the whole kernel on the scalar
//! path, the guesses the AVX2 path leaves over, and the reference every
//! SIMD result is compared with (in debug builds on every call, and by
//! the tests). Invariant: every value here is the lookahead bound (or
//! mask value) of the parent module's definition by direct counting,
//! with no assumption on the CPU.

use super::{Kernel, NONE};
use crate::model::feedback::Feedback;

impl Kernel {
    /// The bound of guess `g` by counting its classes (`n <= MASK_MAX`, no
    /// class above capacity: [`Kernel::least`]).
    pub(super) fn exact(&self, rows: &[&[Feedback]], g: usize) -> u16 {
        let mut counts = [0u8; 32];
        for r in rows {
            counts[r[g].0 as usize] += 1;
        }
        let w = u32::from(counts[self.win as usize]);
        let (mut p, mut e) = (0u32, 0u32);
        for &a in &self.answers {
            let c = counts[a as usize];
            p += u32::from(c.min(1));
            e += u32::from(self.excess_small[c as usize]);
        }
        if w == 0 && p == 1 {
            NONE
        } else {
            (3 * rows.len() as u32 - 2 * w - p + e) as u16
        }
    }

    /// In debug builds, the SIMD results `out[from..to]` against plain
    /// counting.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn debug_check(
        &self,
        rows: &[&[Feedback]],
        from: usize,
        to: usize,
        cap: u8,
        out: &[u16],
    ) {
        if cfg!(debug_assertions) {
            let mut plain = vec![0u16; to];
            self.bounds_scalar(rows, from, to, cap, &mut plain);
            for g in from..to {
                assert_eq!(
                    out[g],
                    plain[g],
                    "kernel path {} differs from plain counting on guess {g} of a set of {}",
                    self.path,
                    rows.len()
                );
            }
        }
    }

    /// Plain counting for guesses `from..to`.
    pub(super) fn bounds_scalar(
        &self,
        rows: &[&[Feedback]],
        from: usize,
        to: usize,
        cap: u8,
        out: &mut [u16],
    ) {
        let n = rows.len();
        let mut counts = [0u32; 256];
        for g in from..to {
            for r in rows {
                counts[r[g].0 as usize] += 1;
            }
            let w = counts[self.win as usize];
            let (mut p, mut e, mut m) = (0u32, 0u32, 0u32);
            for &a in &self.answers {
                let c = counts[a as usize];
                p += c.min(1);
                for &t in &self.thresholds {
                    e += c.saturating_sub(u32::from(t));
                }
                m = m.max(c);
            }
            for r in rows {
                counts[r[g].0 as usize] = 0;
            }
            out[g] = if m > u32::from(cap) || (w == 0 && p == 1) {
                NONE
            } else {
                let b = 3 * n as u32 - 2 * w - p + e;
                debug_assert!(w <= 1 && e <= self.excess(n) && b < u32::from(NONE));
                b as u16
            };
        }
    }

    /// [`Kernel::mask_values`] by plain masks, one guess at a time (the
    /// win among the bits, so candidates need no correction).
    pub(super) fn mask_values_scalar(
        &self,
        rows: &[&[Feedback]],
        len: usize,
        out: &mut [u16],
    ) -> u16 {
        let mut masks = vec![0u32; len];
        for r in rows {
            for (m, f) in masks.iter_mut().zip(&r[..len]) {
                *m |= 1u32 << f.0;
            }
        }
        let n = rows.len() as u32;
        let mut least = NONE;
        for (o, m) in out.iter_mut().zip(masks) {
            let w = (m >> self.win) & 1;
            let p = (m & !(1u32 << self.win)).count_ones();
            *o = if w == 0 && p == 1 {
                NONE
            } else {
                (3 * n - 2 * w - p) as u16
            };
            least = least.min(*o);
        }
        least
    }

    /// The bound `3n − 2w − p` of every guess `g < len` in `out` (`NONE`
    /// for a useless guess: one class and no win), from each guess's
    /// answers gathered in a 256-bit mask: the bound itself when
    /// [`Kernel::wide_apply`] holds (no excess, no overflow). Returns the
    /// least; with `stop > 0` it may return as soon as a block's least is
    /// at most `stop` (`out` then incomplete).
    ///
    /// Blocks of [`WIDE_BLOCK`] guesses, so that their masks stay in the
    /// first-level cache while every row passes over them: a shift and an
    /// `or` per secret and guess, where counting Wordle's 238 non-winning
    /// answers a group of eight at a time took thirty passes over the rows
    /// (tested against plain counting).
    pub(in crate::search) fn wide_values(
        &self,
        rows: &[&[Feedback]],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        let n = rows.len() as u32;
        let win = usize::from(self.win);
        let mut masks = [[0u64; 4]; WIDE_BLOCK];
        let mut least = NONE;
        for start in (0..len).step_by(WIDE_BLOCK) {
            let end = (start + WIDE_BLOCK).min(len);
            let masks = &mut masks[..end - start];
            masks.fill([0; 4]);
            for r in rows {
                for (m, f) in masks.iter_mut().zip(&r[start..end]) {
                    m[usize::from(f.0 >> 6)] |= 1u64 << (f.0 & 63);
                }
            }
            for (o, m) in out[start..end].iter_mut().zip(masks.iter()) {
                let w = (m[win >> 6] >> (win & 63)) as u32 & 1;
                let p = m.iter().map(|x| x.count_ones()).sum::<u32>() - w;
                *o = if w == 0 && p == 1 {
                    NONE
                } else {
                    (3 * n - 2 * w - p) as u16
                };
                least = least.min(*o);
            }
            if stop > 0 && least <= stop {
                return least;
            }
        }
        if cfg!(debug_assertions) && stop == 0 {
            let mut plain = vec![0u16; len];
            self.bounds_scalar(rows, 0, len, u8::MAX, &mut plain);
            assert_eq!(&out[..len], &plain[..], "wide masks against plain counting");
        }
        least
    }
}

/// Guesses a block of [`Kernel::wide_values`]: 256 masks of 32 bytes, 8 KiB.
const WIDE_BLOCK: usize = 256;
