//! The AVX2 path: the bounds, 32 guesses a block, and the answer-mask
//! kernels (also run on the AVX-512 path, which implies AVX2). Every
//! result equals plain counting's (`scalar.rs`) for the same guesses.

use super::super::{Kernel, NodeAnswers, AHEAD};
use super::with_candidates;
use crate::model::code::Code;
use crate::model::feedback::Feedback;

impl Kernel {
    /// [`Kernel::mask_values`], 32 guesses at a time (`len >= 32`; the last
    /// block overlaps the one before, so that every read is in the row).
    /// Each guess's answers are gathered as bits in byte lanes by table
    /// lookups (`lut_low`, `lut_high`): `t = a + 0x70` has its top bit
    /// clear exactly when `a < 16`, and its low four bits are `a mod 16`,
    /// so one lookup of `t` finds the bit of an answer below 16 and one of
    /// `t ^ 0x80` that of an answer from 16 to 31 (a lookup of a byte with
    /// its top bit set gives 0). The win is left out, and candidates (the
    /// guesses in `set`) are corrected afterwards.
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn mask_values_avx2(
        &self,
        rows: &[&[Feedback]],
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        if self.has_high {
            self.mask_values_avx2_with::<true>(rows, set, len, stop, out)
        } else {
            self.mask_values_avx2_with::<false>(rows, set, len, stop, out)
        }
    }

    /// [`Kernel::mask_values_avx2`]; `HIGH`: some answer is 16 or more.
    #[target_feature(enable = "avx2")]
    unsafe fn mask_values_avx2_with<const HIGH: bool>(
        &self,
        rows: &[&[Feedback]],
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        use std::arch::x86_64::*;
        debug_assert!(len >= 32 && out.len() >= len);
        let n = rows.len();
        let ptrs: Vec<*const u8> = rows.iter().map(|r| r.as_ptr() as *const u8).collect();
        let lut = |t: &[u8; 16]| {
            let x = _mm_loadu_si128(t.as_ptr() as *const __m128i);
            _mm256_broadcastsi128_si256(x)
        };
        let (lut0, lut1, lut2) = (
            lut(&self.lut_low[0]),
            lut(&self.lut_low[1]),
            lut(&self.lut_high),
        );
        let zero = _mm256_setzero_si256();
        let shift = _mm256_set1_epi8(0x70);
        let top = _mm256_set1_epi8(-128);
        let base = _mm256_set1_epi16(3 * n as i16);
        let mut least = _mm256_set1_epi16(-1);
        let mut o = 0;
        while o < len {
            let at = o.min(len - 32);
            let (mut a0, mut a1, mut a2) = (zero, zero, zero);
            for &ptr in &ptrs {
                // A stream per secret: fetched ahead ([`Kernel::bounds`]).
                _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(at + AHEAD) as *const i8);
                let v = _mm256_loadu_si256(ptr.add(at) as *const __m256i);
                let t = _mm256_add_epi8(v, shift);
                a0 = _mm256_or_si256(a0, _mm256_shuffle_epi8(lut0, t));
                a1 = _mm256_or_si256(a1, _mm256_shuffle_epi8(lut1, t));
                if HIGH {
                    let u = _mm256_xor_si256(t, top);
                    a2 = _mm256_or_si256(a2, _mm256_shuffle_epi8(lut2, u));
                }
            }
            let mut p = _mm256_add_epi8(byte_popcount(a0), byte_popcount(a1));
            if HIGH {
                p = _mm256_add_epi8(p, byte_popcount(a2));
            }
            // 3n − p of 32 guesses, NONE where p = 1 (useless unless a
            // candidate: corrected below).
            let (lo, hi) = mask_values32(p, base);
            _mm256_storeu_si256(out.as_mut_ptr().add(at) as *mut __m256i, lo);
            _mm256_storeu_si256(out.as_mut_ptr().add(at + 16) as *mut __m256i, hi);
            least = _mm256_min_epu16(least, _mm256_min_epu16(lo, hi));
            o += 32;
            // A candidate's value here is 2 above its own (corrected
            // below): still at least the least.
            if stop > 0 && horizontal_min(least) <= stop {
                return horizontal_min(least);
            }
        }
        with_candidates(horizontal_min(least), set, n, out)
    }

    /// [`Kernel::mask_values`] from a [`DenseTable`]'s rows, 32 guesses
    /// at a time (`len >= 32`; the last block overlaps the one before):
    /// each code is its own lookup index (below 16, or the win's
    /// [`DENSE_WIN`], whose top bit gives 0), the bits of codes 0–7 in one
    /// byte and 8–15 in another: two lookups and two `or`s per secret and
    /// 32 guesses. Candidates are corrected afterwards, as there.
    #[target_feature(enable = "avx2")]
    pub(in crate::search::kernel) unsafe fn mask_values_dense_avx2(
        &self,
        rows: &[&[u8]],
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        use std::arch::x86_64::*;
        debug_assert!(len >= 32 && out.len() >= len);
        let n = rows.len();
        let ptrs: Vec<*const u8> = rows.iter().map(|r| r.as_ptr()).collect();
        let (lut0, lut1) = dense_luts();
        let zero = _mm256_setzero_si256();
        let base = _mm256_set1_epi16(3 * n as i16);
        let mut least = _mm256_set1_epi16(-1);
        let mut o = 0;
        while o < len {
            let at = o.min(len - 32);
            let (mut a0, mut a1) = (zero, zero);
            for &ptr in &ptrs {
                // A stream per secret: fetched ahead ([`Kernel::bounds`]).
                _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(at + AHEAD) as *const i8);
                let v = _mm256_loadu_si256(ptr.add(at) as *const __m256i);
                a0 = _mm256_or_si256(a0, _mm256_shuffle_epi8(lut0, v));
                a1 = _mm256_or_si256(a1, _mm256_shuffle_epi8(lut1, v));
            }
            let p = _mm256_add_epi8(byte_popcount(a0), byte_popcount(a1));
            // 3n − p of 32 guesses, NONE where p = 1 (useless unless a
            // candidate: corrected below).
            let (lo, hi) = mask_values32(p, base);
            _mm256_storeu_si256(out.as_mut_ptr().add(at) as *mut __m256i, lo);
            _mm256_storeu_si256(out.as_mut_ptr().add(at + 16) as *mut __m256i, hi);
            least = _mm256_min_epu16(least, _mm256_min_epu16(lo, hi));
            o += 32;
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
        use std::arch::x86_64::*;
        let ptrs: Vec<*const u8> = rows.iter().map(|r| r.as_ptr()).collect();
        let mut o = 0;
        while o < len {
            let at = o.min(len - 32);
            for &ptr in &ptrs {
                _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(at + AHEAD) as *const i8);
            }
            let p = self.or_block(ptrs.iter().map(|&p| p.add(at)), dense);
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
        use std::arch::x86_64::*;
        debug_assert!(out.len() >= 32 && b < node.built);
        let base_ptr = node.cells.as_ptr().add(32 * b * node.set.len());
        let p = self.or_block(
            at.iter().map(|&i| base_ptr.add(32 * i as usize)),
            node.dense,
        );
        let base = _mm256_set1_epi16(3 * at.len() as i16);
        let (lo, hi) = mask_values32(p, base);
        _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, lo);
        _mm256_storeu_si256(out.as_mut_ptr().add(16) as *mut __m256i, hi);
        horizontal_min(_mm256_min_epu16(lo, hi))
    }

    /// How many non-winning answers each of 32 guesses gives, as bytes,
    /// over the 32-byte rows at `ptrs` (dense codes if `dense`, else
    /// packed answers: [`Kernel::mask_values_avx2`]'s lookups).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn or_block(
        &self,
        ptrs: impl Iterator<Item = *const u8>,
        dense: bool,
    ) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let zero = _mm256_setzero_si256();
        let (mut a0, mut a1, mut a2) = (zero, zero, zero);
        if dense {
            let (lut0, lut1) = dense_luts();
            for ptr in ptrs {
                let v = _mm256_loadu_si256(ptr as *const __m256i);
                a0 = _mm256_or_si256(a0, _mm256_shuffle_epi8(lut0, v));
                a1 = _mm256_or_si256(a1, _mm256_shuffle_epi8(lut1, v));
            }
            return _mm256_add_epi8(byte_popcount(a0), byte_popcount(a1));
        }
        let lut = |t: &[u8; 16]| {
            let x = _mm_loadu_si128(t.as_ptr() as *const __m128i);
            _mm256_broadcastsi128_si256(x)
        };
        let (lut0, lut1, lut2) = (
            lut(&self.lut_low[0]),
            lut(&self.lut_low[1]),
            lut(&self.lut_high),
        );
        let shift = _mm256_set1_epi8(0x70);
        let top = _mm256_set1_epi8(-128);
        for ptr in ptrs {
            let v = _mm256_loadu_si256(ptr as *const __m256i);
            let t = _mm256_add_epi8(v, shift);
            a0 = _mm256_or_si256(a0, _mm256_shuffle_epi8(lut0, t));
            a1 = _mm256_or_si256(a1, _mm256_shuffle_epi8(lut1, t));
            let u = _mm256_xor_si256(t, top);
            a2 = _mm256_or_si256(a2, _mm256_shuffle_epi8(lut2, u));
        }
        _mm256_add_epi8(
            _mm256_add_epi8(byte_popcount(a0), byte_popcount(a1)),
            byte_popcount(a2),
        )
    }

    /// Guesses `0..len` (a multiple of 32), 32 at a time. `WIDE`: as for
    /// AVX-512.
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search::kernel) unsafe fn bounds_avx2<const WIDE: bool>(
        &self,
        rows: &[&[Feedback]],
        answers: &[u8],
        len: usize,
        cap: u8,
        stop: u16,
        ceiling: Option<u16>,
        out: &mut [u16],
    ) -> u16 {
        use std::arch::x86_64::*;
        const G: usize = 8;
        debug_assert!(len.is_multiple_of(32));
        let n = rows.len();
        let (ptrs, groups) = Self::prepare::<G>(rows, answers);
        let rest: Vec<u16> = (1..=groups.len())
            .map(|i| answers.len().saturating_sub(G * i) as u16)
            .collect();
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi8(1);
        let winv = _mm256_set1_epi8(self.win as i8);
        let capv = _mm256_set1_epi8(cap as i8);
        let base = _mm256_set1_epi16(3 * n as i16);
        let thr: Vec<__m256i> = self
            .thresholds
            .iter()
            .map(|&t| _mm256_set1_epi8(t as i8))
            .collect();
        // The bytes of `x` as `u16` lanes: guesses 0..16 and 16..32.
        let lo16 = |x: __m256i| _mm256_cvtepu8_epi16(_mm256_castsi256_si128(x));
        let hi16 = |x: __m256i| _mm256_cvtepu8_epi16(_mm256_extracti128_si256(x, 1));
        let mut least = _mm256_set1_epi16(-1);
        let mut o = 0;
        while o < len {
            let (mut p, mut e, mut m, mut w) = (zero, zero, zero, zero);
            let (mut e_lo, mut e_hi) = (zero, zero);
            // As on AVX-512: leave the block once no guess can go below.
            let mut left = false;
            let best = ceiling.map(|c| c.min(horizontal_min(least)));
            for (gi, group) in groups.iter().enumerate() {
                if let Some(best) = best.filter(|_| gi > 0) {
                    let restv = _mm256_set1_epi16(rest[gi - 1] as i16);
                    let bestv = _mm256_set1_epi16(best as i16);
                    // Usable so far (no class above capacity), by byte.
                    let usable = _mm256_cmpeq_epi8(_mm256_max_epu8(m, capv), capv);
                    let mut below = [zero; 2];
                    for (half, below) in below.iter_mut().enumerate() {
                        let pick = |x: __m256i| if half == 0 { lo16(x) } else { hi16(x) };
                        let e16 = match (WIDE, half) {
                            (true, 0) => e_lo,
                            (true, _) => e_hi,
                            (false, _) => pick(e),
                        };
                        let w16 = pick(w);
                        let lb = _mm256_subs_epu16(
                            _mm256_subs_epu16(
                                _mm256_subs_epu16(base, _mm256_add_epi16(w16, w16)),
                                pick(p),
                            ),
                            restv,
                        );
                        let lb = _mm256_add_epi16(lb, e16);
                        // lb < best (unsigned): max(lb, best) ≠ lb.
                        let not_below = _mm256_cmpeq_epi16(_mm256_max_epu16(lb, bestv), lb);
                        *below = _mm256_xor_si256(not_below, _mm256_set1_epi8(-1));
                    }
                    // Back to one byte per guess, in order (the pack
                    // interleaves the two halves' 128-bit lanes).
                    let packed = _mm256_packs_epi16(below[0], below[1]);
                    let packed = _mm256_permute4x64_epi64(packed, 0b11_01_10_00);
                    if _mm256_testz_si256(packed, usable) == 1 {
                        left = true;
                        break;
                    }
                }
                let fv: [__m256i; G] = std::array::from_fn(|j| _mm256_set1_epi8(group[j] as i8));
                let mut cnt = [zero; G];
                if gi == 0 {
                    for &ptr in &ptrs {
                        _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(o + AHEAD) as *const i8);
                        let v = _mm256_loadu_si256(ptr.add(o) as *const __m256i);
                        w = _mm256_sub_epi8(w, _mm256_cmpeq_epi8(v, winv));
                        for j in 0..G {
                            cnt[j] = _mm256_sub_epi8(cnt[j], _mm256_cmpeq_epi8(v, fv[j]));
                        }
                    }
                } else {
                    for &ptr in &ptrs {
                        let v = _mm256_loadu_si256(ptr.add(o) as *const __m256i);
                        for j in 0..G {
                            cnt[j] = _mm256_sub_epi8(cnt[j], _mm256_cmpeq_epi8(v, fv[j]));
                        }
                    }
                }
                for c in cnt {
                    p = _mm256_add_epi8(p, _mm256_min_epu8(c, one));
                    m = _mm256_max_epu8(m, c);
                    for &t in &thr {
                        let x = _mm256_subs_epu8(c, t);
                        if WIDE {
                            e_lo = _mm256_add_epi16(e_lo, lo16(x));
                            e_hi = _mm256_add_epi16(e_hi, hi16(x));
                        } else {
                            e = _mm256_adds_epu8(e, x);
                        }
                    }
                }
            }
            if left {
                o += 32;
                continue;
            }
            // Unusable: a class above capacity, or one class and no win.
            let over = _mm256_xor_si256(
                _mm256_cmpeq_epi8(_mm256_max_epu8(m, capv), capv),
                _mm256_set1_epi8(-1),
            );
            let useless = _mm256_and_si256(_mm256_cmpeq_epi8(w, zero), _mm256_cmpeq_epi8(p, one));
            let bad = _mm256_or_si256(over, useless);
            for half in 0..2 {
                let pick = |x: __m256i| if half == 0 { lo16(x) } else { hi16(x) };
                let bad16 = if half == 0 {
                    _mm256_cvtepi8_epi16(_mm256_castsi256_si128(bad))
                } else {
                    _mm256_cvtepi8_epi16(_mm256_extracti128_si256(bad, 1))
                };
                let e16 = match (WIDE, half) {
                    (true, 0) => e_lo,
                    (true, _) => e_hi,
                    (false, _) => pick(e),
                };
                let w16 = pick(w);
                let b = _mm256_add_epi16(
                    _mm256_sub_epi16(_mm256_sub_epi16(base, _mm256_add_epi16(w16, w16)), pick(p)),
                    e16,
                );
                let b = _mm256_or_si256(b, bad16);
                least = _mm256_min_epu16(least, b);
                _mm256_storeu_si256(out.as_mut_ptr().add(o + 16 * half) as *mut __m256i, b);
            }
            o += 32;
            if stop > 0 && horizontal_min(least) <= stop {
                break;
            }
        }
        horizontal_min(least)
    }
}

/// How many bits each byte of `x` has set (a lookup per nibble).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn byte_popcount(x: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
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
/// bytes of `p` (`base`: `3n` in every `u16` lane), `NONE` where `p = 1`:
/// the first sixteen guesses' values, then the last sixteen's.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn mask_values32(
    p: std::arch::x86_64::__m256i,
    base: std::arch::x86_64::__m256i,
) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let one16 = _mm256_set1_epi16(1);
    let value = |p: __m256i| {
        let b = _mm256_sub_epi16(base, p);
        _mm256_or_si256(b, _mm256_cmpeq_epi16(p, one16))
    };
    (
        value(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(p))),
        value(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(p, 1))),
    )
}

/// The bit lookups of a [`DenseTable`]'s codes: codes 0–7 in the first
/// table, 8–15 in the second (a code with its top bit set, the win, gives
/// 0 in both).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn dense_luts() -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
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
pub(super) unsafe fn horizontal_min(v: std::arch::x86_64::__m256i) -> u16 {
    use std::arch::x86_64::*;
    let m = _mm_min_epu16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_extract_epi16(_mm_minpos_epu16(m), 0) as u16
}
