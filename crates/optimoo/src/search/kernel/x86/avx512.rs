//! The AVX-512BW path of the bounds: 64 guesses a block, the last one
//! with masked loads and stores. Every result equals plain counting's
//! (`scalar.rs`) for the same guesses.

use super::super::{Kernel, AHEAD};
use super::avx2::horizontal_min;
use crate::model::feedback::Feedback;

impl Kernel {
    /// Guesses `0..len`, 64 at a time. `WIDE`: the excess `e` in `u16`
    /// lanes (needed when `x(n) ≥ 255`), else in `u8` lanes.
    #[target_feature(enable = "avx512bw,avx512f,avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search::kernel) unsafe fn bounds_avx512<const WIDE: bool>(
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
        let n = rows.len();
        let (ptrs, groups) = Self::prepare::<G>(rows, answers);
        // With a ceiling, how many answers are left after each group.
        let rest: Vec<u16> = (1..=groups.len())
            .map(|i| answers.len().saturating_sub(G * i) as u16)
            .collect();
        let zero = _mm512_setzero_si512();
        let one = _mm512_set1_epi8(1);
        let winv = _mm512_set1_epi8(self.win as i8);
        let capv = _mm512_set1_epi8(cap as i8);
        let base = _mm512_set1_epi16(3 * n as i16);
        let ones16 = _mm512_set1_epi16(-1);
        let thr: Vec<__m512i> = self
            .thresholds
            .iter()
            .map(|&t| _mm512_set1_epi8(t as i8))
            .collect();
        // The bytes of `x` as `u16` lanes: guesses 0..32 and 32..64.
        let lo16 = |x: __m512i| _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x));
        let hi16 = |x: __m512i| _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x, 1));
        let mut least = _mm512_set1_epi16(-1);
        let mut o = 0;
        while o < len {
            // The last block may be partial: masked loads and stores.
            let lanes: u64 = if len - o >= 64 {
                u64::MAX
            } else {
                (1u64 << (len - o)) - 1
            };
            let (mut p, mut e, mut m, mut w) = (zero, zero, zero, zero);
            let (mut e_lo, mut e_hi) = (zero, zero);
            // Whether no guess of the block can go below the least found.
            let mut left = false;
            let best = ceiling.map(|c| c.min(horizontal_min512(least)));
            for (gi, group) in groups.iter().enumerate() {
                if let Some(best) = best.filter(|_| gi > 0) {
                    // Each guess's bound is at least 3n − 2w − p' − r + e'
                    // (saturated at 0: it is at least e' too), or it is
                    // unusable (a class above capacity).
                    let restv = _mm512_set1_epi16(rest[gi - 1] as i16);
                    let bestv = _mm512_set1_epi16(best as i16);
                    let over: u64 = _mm512_cmpgt_epu8_mask(m, capv);
                    let mut low = 0u64;
                    for half in 0..2 {
                        let pick = |x: __m512i| if half == 0 { lo16(x) } else { hi16(x) };
                        let e16 = match (WIDE, half) {
                            (true, 0) => e_lo,
                            (true, _) => e_hi,
                            (false, _) => pick(e),
                        };
                        let w16 = pick(w);
                        let lb = _mm512_subs_epu16(
                            _mm512_subs_epu16(
                                _mm512_subs_epu16(base, _mm512_add_epi16(w16, w16)),
                                pick(p),
                            ),
                            restv,
                        );
                        let lb = _mm512_add_epi16(lb, e16);
                        let below = _mm512_cmplt_epu16_mask(lb, bestv);
                        low |= u64::from(below) << (32 * half);
                    }
                    if low & !over & lanes == 0 {
                        left = true;
                        break;
                    }
                }
                let fv: [__m512i; G] = std::array::from_fn(|j| _mm512_set1_epi8(group[j] as i8));
                let mut cnt = [zero; G];
                if gi == 0 {
                    for &ptr in &ptrs {
                        // The rows are far apart (a stream per secret, too
                        // many for the hardware's prefetch): ask for the
                        // bytes `AHEAD` on now. A prefetch never faults.
                        _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(o + AHEAD) as *const i8);
                        let v = _mm512_maskz_loadu_epi8(lanes, ptr.add(o) as *const i8);
                        w = _mm512_mask_add_epi8(w, _mm512_cmpeq_epi8_mask(v, winv), w, one);
                        for j in 0..G {
                            let k = _mm512_cmpeq_epi8_mask(v, fv[j]);
                            cnt[j] = _mm512_mask_add_epi8(cnt[j], k, cnt[j], one);
                        }
                    }
                } else {
                    for &ptr in &ptrs {
                        let v = _mm512_maskz_loadu_epi8(lanes, ptr.add(o) as *const i8);
                        for j in 0..G {
                            let k = _mm512_cmpeq_epi8_mask(v, fv[j]);
                            cnt[j] = _mm512_mask_add_epi8(cnt[j], k, cnt[j], one);
                        }
                    }
                }
                for c in cnt {
                    p = _mm512_add_epi8(p, _mm512_min_epu8(c, one));
                    m = _mm512_max_epu8(m, c);
                    for &t in &thr {
                        let x = _mm512_subs_epu8(c, t);
                        if WIDE {
                            e_lo = _mm512_add_epi16(e_lo, lo16(x));
                            e_hi = _mm512_add_epi16(e_hi, hi16(x));
                        } else {
                            e = _mm512_adds_epu8(e, x);
                        }
                    }
                }
            }
            if left {
                o += 64;
                continue;
            }
            // Unusable: a class above capacity, or one class and no win.
            let bad: u64 = _mm512_cmpgt_epu8_mask(m, capv)
                | (_mm512_cmpeq_epi8_mask(w, zero) & _mm512_cmpeq_epi8_mask(p, one));
            for half in 0..2 {
                let pick = |x: __m512i| if half == 0 { lo16(x) } else { hi16(x) };
                let e16 = match (WIDE, half) {
                    (true, 0) => e_lo,
                    (true, _) => e_hi,
                    (false, _) => pick(e),
                };
                let w16 = pick(w);
                let b = _mm512_add_epi16(
                    _mm512_sub_epi16(_mm512_sub_epi16(base, _mm512_add_epi16(w16, w16)), pick(p)),
                    e16,
                );
                let k = (bad >> (32 * half)) as u32;
                let b = _mm512_mask_mov_epi16(b, k, ones16);
                let valid = (lanes >> (32 * half)) as u32;
                least = _mm512_mask_min_epu16(least, valid, least, b);
                _mm512_mask_storeu_epi16(out.as_mut_ptr().add(o + 32 * half) as *mut i16, valid, b);
            }
            o += 64;
            if stop > 0 && horizontal_min512(least) <= stop {
                break;
            }
        }
        horizontal_min512(least)
    }
}

/// The least of thirty-two `u16`.
#[target_feature(enable = "avx512bw,avx512f,avx2")]
unsafe fn horizontal_min512(v: std::arch::x86_64::__m512i) -> u16 {
    use std::arch::x86_64::*;
    let m = _mm256_min_epu16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    horizontal_min(m)
}
