//! The AVX2 path: its [`Lanes`] (32 guesses a block) for the bounds, and
//! the answer-mask kernels (also run on the AVX-512 path, which implies
//! AVX2), one body for the three ways a row codes its answers. Every
//! result equals plain counting's (`scalar.rs`) for the same guesses.

use std::arch::x86_64::*;

use super::super::{Kernel, NodeAnswers, AHEAD};
use super::{with_candidates, Job, Lanes};
use crate::model::code::Code;

/// A row of dense codes ([`crate::search::kernel::DenseTable`]).
const DENSE: u8 = 0;
/// A row of packed answers, every non-winning one below 16.
const LOW: u8 = 1;
/// A row of packed answers, some from 16 to 31.
const HIGH: u8 = 2;

/// `$kernel.$f::<C>($args)` for the coding `C` of rows dense or not.
macro_rules! by_codes {
    ($kernel:expr, $dense:expr, $f:ident, ($($arg:expr),*)) => {
        match $kernel.codes($dense) {
            DENSE => $kernel.$f::<DENSE>($($arg),*),
            LOW => $kernel.$f::<LOW>($($arg),*),
            _ => $kernel.$f::<HIGH>($($arg),*),
        }
    };
}

impl Kernel {
    /// How rows code their answers: [`DENSE`], else [`LOW`] or [`HIGH`].
    fn codes(&self, dense: bool) -> u8 {
        match (dense, self.has_high) {
            (true, _) => DENSE,
            (false, false) => LOW,
            (false, true) => HIGH,
        }
    }

    /// The bounds on the AVX2 path ([`Kernel::bounds_simd`], 32 guesses a
    /// block; `job.len` a multiple of 32). `wide`: the excess in `u16`
    /// lanes.
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn bounds_avx2(
        &self,
        job: &Job,
        wide: bool,
        out: &mut [u16],
    ) -> u16 {
        if wide {
            self.bounds_simd::<Avx2, true>(job, out)
        } else {
            self.bounds_simd::<Avx2, false>(job, out)
        }
    }

    /// [`Kernel::mask_values`] of the rows at `ptrs` (dense codes if
    /// `dense`, else packed answers), 32 guesses at a time (`len >= 32`;
    /// the last block overlaps the one before, so that every read is in
    /// the row). Each guess's answers are gathered as bits in byte lanes by
    /// table lookups ([`Kernel::or_block`]); the win is left out, and
    /// candidates (the guesses in `set`) are corrected afterwards.
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn mask_values_avx2(
        &self,
        ptrs: &[*const u8],
        dense: bool,
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        by_codes!(self, dense, mask_values_with, (ptrs, set, len, stop, out))
    }

    /// [`Kernel::mask_values_avx2`] for rows coded as `C` says.
    #[target_feature(enable = "avx2")]
    unsafe fn mask_values_with<const C: u8>(
        &self,
        ptrs: &[*const u8],
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        debug_assert!(len >= 32 && out.len() >= len);
        let n = ptrs.len();
        let mut least = _mm256_set1_epi16(-1);
        let mut o = 0;
        while o < len {
            let at = o.min(len - 32);
            let p = self.or_block::<C>(ahead(ptrs, at));
            let block = store_mask_values(p, n, out.as_mut_ptr().add(at));
            least = _mm256_min_epu16(least, block);
            o += 32;
            // A candidate's value here is 2 above its own (corrected
            // below): still at least the least.
            if stop > 0 && horizontal_min(least) <= stop {
                return horizontal_min(least);
            }
        }
        with_candidates(horizontal_min(least), set, n, out)
    }

    /// How many non-winning answers each guess `g < len` gives on the
    /// secrets whose rows are `rows` (dense codes if `dense`, else packed
    /// answers), in `out` (`len >= 32`; the last block overlaps).
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn answer_counts_avx2(
        &self,
        rows: &[&[u8]],
        dense: bool,
        len: usize,
        out: &mut [u8],
    ) {
        let ptrs: Vec<*const u8> = rows.iter().map(|r| r.as_ptr()).collect();
        by_codes!(self, dense, answer_counts_with, (&ptrs, len, out))
    }

    /// [`Kernel::answer_counts_avx2`] for rows coded as `C` says.
    #[target_feature(enable = "avx2")]
    unsafe fn answer_counts_with<const C: u8>(
        &self,
        ptrs: &[*const u8],
        len: usize,
        out: &mut [u8],
    ) {
        let mut o = 0;
        while o < len {
            let at = o.min(len - 32);
            let p = self.or_block::<C>(ahead(ptrs, at));
            _mm256_storeu_si256(out.as_mut_ptr().add(at) as *mut __m256i, p);
            o += 32;
        }
    }

    /// The values `3n − p` (`NONE` where `p = 1`) of block `b` of `node`
    /// for the secrets at `at` (`n` of them), in `out[..32]`; returns
    /// their least.
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn node_block_avx2(
        &self,
        node: &NodeAnswers<'_>,
        at: &[u32],
        b: usize,
        out: &mut [u16],
    ) -> u16 {
        debug_assert!(out.len() >= 32 && b < node.built);
        let base_ptr = node.cells.as_ptr().add(32 * b * node.set.len());
        let rows = at.iter().map(|&i| base_ptr.add(32 * i as usize));
        let p = by_codes!(self, node.dense, or_block, (rows));
        horizontal_min(store_mask_values(p, at.len(), out.as_mut_ptr()))
    }

    /// How many non-winning answers each of 32 guesses gives, as bytes,
    /// over the 32-byte rows at `ptrs`, coded as `C` says. Dense codes are
    /// their own lookup index (below 16, or the win's `DENSE_WIN`, whose
    /// top bit gives 0), the bits of codes 0–7 in one byte and 8–15 in
    /// another. Packed answers `a` are looked up in `lut_low` and
    /// `lut_high`: `t = a + 0x70` has its top bit clear exactly when
    /// `a < 16`, and its low four bits are `a mod 16`, so one lookup of
    /// `t` finds the bit of an answer below 16 and one of `t ^ 0x80` that
    /// of an answer from 16 to 31 (a lookup of a byte with its top bit set
    /// gives 0); [`LOW`] rows have none of the latter.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn or_block<const C: u8>(&self, ptrs: impl Iterator<Item = *const u8>) -> __m256i {
        let zero = _mm256_setzero_si256();
        let lut = |t: &[u8; 16]| {
            let x = _mm_loadu_si128(t.as_ptr() as *const __m128i);
            _mm256_broadcastsi128_si256(x)
        };
        let (lut0, lut1, lut2) = if C == DENSE {
            let (lut0, lut1) = dense_luts();
            (lut0, lut1, zero)
        } else {
            let lut0 = lut(&self.lut_low[0]);
            (lut0, lut(&self.lut_low[1]), lut(&self.lut_high))
        };
        let shift = _mm256_set1_epi8(0x70);
        let top = _mm256_set1_epi8(-128);
        let (mut a0, mut a1, mut a2) = (zero, zero, zero);
        for ptr in ptrs {
            let v = _mm256_loadu_si256(ptr as *const __m256i);
            let t = if C == DENSE {
                v
            } else {
                _mm256_add_epi8(v, shift)
            };
            a0 = _mm256_or_si256(a0, _mm256_shuffle_epi8(lut0, t));
            a1 = _mm256_or_si256(a1, _mm256_shuffle_epi8(lut1, t));
            if C == HIGH {
                let u = _mm256_xor_si256(t, top);
                a2 = _mm256_or_si256(a2, _mm256_shuffle_epi8(lut2, u));
            }
        }
        let p = _mm256_add_epi8(byte_popcount(a0), byte_popcount(a1));
        if C == HIGH {
            _mm256_add_epi8(p, byte_popcount(a2))
        } else {
            p
        }
    }
}

/// The rows at `ptrs` from byte `at` on, each row's bytes `AHEAD` further
/// asked for meanwhile: a stream per secret, too many for the hardware's
/// prefetch on large games (a prefetch never faults).
#[inline(always)]
unsafe fn ahead(ptrs: &[*const u8], at: usize) -> impl Iterator<Item = *const u8> + '_ {
    ptrs.iter().map(move |&ptr| {
        _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(at + AHEAD) as *const i8);
        ptr.add(at)
    })
}

/// How many bits each byte of `x` has set (a lookup per nibble).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn byte_popcount(x: __m256i) -> __m256i {
    let low4 = _mm256_set1_epi8(0x0F);
    #[rustfmt::skip]
    let pop = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    _mm256_add_epi8(
        _mm256_shuffle_epi8(pop, _mm256_and_si256(x, low4)),
        _mm256_shuffle_epi8(pop, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4)),
    )
}

/// The mask values `3n − p` of 32 guesses whose answer counts `p` are the
/// bytes of `p`, `NONE` where `p = 1`, stored at `out` (32 `u16`: the
/// first sixteen guesses' values, then the last sixteen's); returns the
/// lesser of each pair of lanes of the two halves (whose least is theirs).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_mask_values(p: __m256i, n: usize, out: *mut u16) -> __m256i {
    let base = _mm256_set1_epi16(3 * n as i16);
    let one16 = _mm256_set1_epi16(1);
    let mut least = _mm256_set1_epi16(-1);
    for h in 0..2 {
        let p16 = Avx2::widen(p, h);
        let b = _mm256_sub_epi16(base, p16);
        let b = _mm256_or_si256(b, _mm256_cmpeq_epi16(p16, one16));
        _mm256_storeu_si256(out.add(16 * h) as *mut __m256i, b);
        least = _mm256_min_epu16(least, b);
    }
    least
}

/// The bit lookups of a [`crate::search::kernel::DenseTable`]'s codes:
/// codes 0–7 in the first table, 8–15 in the second (a code with its top
/// bit set, the win, gives 0 in both).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dense_luts() -> (__m256i, __m256i) {
    #[rustfmt::skip]
    let lut0 = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    #[rustfmt::skip]
    let lut1 = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
    );
    (lut0, lut1)
}

/// The least of sixteen `u16`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn horizontal_min(v: __m256i) -> u16 {
    let m = _mm_min_epu16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_extract_epi16(_mm_minpos_epu16(m), 0) as u16
}

/// The AVX2 lanes: 32 bytes; a flag is a byte lane of all ones. Loads
/// are not masked: every block is whole.
pub(super) struct Avx2;

impl Lanes for Avx2 {
    const WIDTH: usize = 32;
    type V = __m256i;
    type Mask = __m256i;

    #[inline(always)]
    unsafe fn zero() -> __m256i {
        _mm256_setzero_si256()
    }
    #[inline(always)]
    unsafe fn splat8(x: u8) -> __m256i {
        _mm256_set1_epi8(x as i8)
    }
    #[inline(always)]
    unsafe fn splat16(x: u16) -> __m256i {
        _mm256_set1_epi16(x as i16)
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8, lanes: u64) -> __m256i {
        debug_assert_eq!(lanes, u64::from(u32::MAX));
        _mm256_loadu_si256(ptr as *const __m256i)
    }
    #[inline(always)]
    unsafe fn count_eq(cnt: __m256i, v: __m256i, f: __m256i) -> __m256i {
        // A match is −1 in its lane.
        _mm256_sub_epi8(cnt, _mm256_cmpeq_epi8(v, f))
    }
    #[inline(always)]
    unsafe fn add8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi8(a, b)
    }
    #[inline(always)]
    unsafe fn min8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_min_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn max8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_max_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn adds8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_adds_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn subs8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_subs_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn widen(x: __m256i, h: usize) -> __m256i {
        if h == 0 {
            _mm256_cvtepu8_epi16(_mm256_castsi256_si128(x))
        } else {
            _mm256_cvtepu8_epi16(_mm256_extracti128_si256(x, 1))
        }
    }
    #[inline(always)]
    unsafe fn add16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi16(a, b)
    }
    #[inline(always)]
    unsafe fn sub16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_sub_epi16(a, b)
    }
    #[inline(always)]
    unsafe fn subs16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_subs_epu16(a, b)
    }
    #[inline(always)]
    unsafe fn gt8(a: __m256i, b: __m256i) -> __m256i {
        // a > b (unsigned): max(a, b) ≠ b.
        let le = _mm256_cmpeq_epi8(_mm256_max_epu8(a, b), b);
        _mm256_xor_si256(le, _mm256_set1_epi8(-1))
    }
    #[inline(always)]
    unsafe fn eq8(a: __m256i, b: __m256i) -> __m256i {
        _mm256_cmpeq_epi8(a, b)
    }
    #[inline(always)]
    unsafe fn lt16(lo: __m256i, hi: __m256i, b: __m256i) -> __m256i {
        // lb < b (unsigned): max(lb, b) ≠ lb.
        let not_lo = _mm256_cmpeq_epi16(_mm256_max_epu16(lo, b), lo);
        let not_hi = _mm256_cmpeq_epi16(_mm256_max_epu16(hi, b), hi);
        // Back to one byte per guess, in order (the pack interleaves the
        // two halves' 128-bit lanes).
        let packed = _mm256_packs_epi16(not_lo, not_hi);
        let packed = _mm256_permute4x64_epi64(packed, 0b11_01_10_00);
        _mm256_xor_si256(packed, _mm256_set1_epi8(-1))
    }
    #[inline(always)]
    unsafe fn and(a: __m256i, b: __m256i) -> __m256i {
        _mm256_and_si256(a, b)
    }
    #[inline(always)]
    unsafe fn or(a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(a, b)
    }
    #[inline(always)]
    unsafe fn andnot(a: __m256i, b: __m256i) -> __m256i {
        _mm256_andnot_si256(b, a)
    }
    #[inline(always)]
    unsafe fn any(m: __m256i, lanes: u64) -> bool {
        debug_assert_eq!(lanes, u64::from(u32::MAX));
        _mm256_testz_si256(m, m) == 0
    }
    #[inline(always)]
    unsafe fn store16(
        out: *mut u16,
        b: __m256i,
        bad: __m256i,
        h: usize,
        lanes: u64,
        least: __m256i,
    ) -> __m256i {
        debug_assert_eq!(lanes, u64::from(u32::MAX));
        // A flag of all ones made `u16`: NONE.
        let bad16 = if h == 0 {
            _mm256_cvtepi8_epi16(_mm256_castsi256_si128(bad))
        } else {
            _mm256_cvtepi8_epi16(_mm256_extracti128_si256(bad, 1))
        };
        let b = _mm256_or_si256(b, bad16);
        _mm256_storeu_si256(out as *mut __m256i, b);
        _mm256_min_epu16(least, b)
    }
    #[inline(always)]
    unsafe fn hmin16(v: __m256i) -> u16 {
        horizontal_min(v)
    }
}
