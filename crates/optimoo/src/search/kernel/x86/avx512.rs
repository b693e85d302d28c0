//! The AVX-512BW path's [`Lanes`]: 64 guesses a block, the last one with
//! masked loads and stores, flags in mask registers. The bounds' body is
//! the one both paths share ([`Kernel::bounds_simd`]); every result equals
//! plain counting's (`scalar.rs`) for the same guesses.

use std::arch::x86_64::*;

use super::super::Kernel;
use super::avx2::horizontal_min;
use super::{Job, Lanes};

impl Kernel {
    /// The bounds on the AVX-512 path ([`Kernel::bounds_simd`], 64
    /// guesses a block, any `job.len`). `wide`: the excess in `u16` lanes.
    #[target_feature(enable = "avx512bw,avx512f,avx2")]
    pub(in crate::search::kernel) unsafe fn bounds_avx512(
        &self,
        job: &Job,
        wide: bool,
        out: &mut [u16],
    ) -> u16 {
        if wide {
            self.bounds_simd::<Avx512, true>(job, out)
        } else {
            self.bounds_simd::<Avx512, false>(job, out)
        }
    }
}

/// The AVX-512BW lanes: 64 bytes; a flag is a bit of a `u64` mask.
pub(super) struct Avx512;

impl Lanes for Avx512 {
    const WIDTH: usize = 64;
    type V = __m512i;
    type Mask = u64;

    #[inline(always)]
    unsafe fn zero() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline(always)]
    unsafe fn splat8(x: u8) -> __m512i {
        _mm512_set1_epi8(x as i8)
    }
    #[inline(always)]
    unsafe fn splat16(x: u16) -> __m512i {
        _mm512_set1_epi16(x as i16)
    }
    #[inline(always)]
    unsafe fn load(ptr: *const u8, lanes: u64) -> __m512i {
        _mm512_maskz_loadu_epi8(lanes, ptr as *const i8)
    }
    #[inline(always)]
    unsafe fn count_eq(cnt: __m512i, v: __m512i, f: __m512i) -> __m512i {
        let k = _mm512_cmpeq_epi8_mask(v, f);
        _mm512_mask_add_epi8(cnt, k, cnt, _mm512_set1_epi8(1))
    }
    #[inline(always)]
    unsafe fn add8(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi8(a, b)
    }
    #[inline(always)]
    unsafe fn min8(a: __m512i, b: __m512i) -> __m512i {
        _mm512_min_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn max8(a: __m512i, b: __m512i) -> __m512i {
        _mm512_max_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn adds8(a: __m512i, b: __m512i) -> __m512i {
        _mm512_adds_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn subs8(a: __m512i, b: __m512i) -> __m512i {
        _mm512_subs_epu8(a, b)
    }
    #[inline(always)]
    unsafe fn widen(x: __m512i, h: usize) -> __m512i {
        if h == 0 {
            _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x))
        } else {
            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x, 1))
        }
    }
    #[inline(always)]
    unsafe fn add16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi16(a, b)
    }
    #[inline(always)]
    unsafe fn sub16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_sub_epi16(a, b)
    }
    #[inline(always)]
    unsafe fn subs16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_subs_epu16(a, b)
    }
    #[inline(always)]
    unsafe fn gt8(a: __m512i, b: __m512i) -> u64 {
        _mm512_cmpgt_epu8_mask(a, b)
    }
    #[inline(always)]
    unsafe fn eq8(a: __m512i, b: __m512i) -> u64 {
        _mm512_cmpeq_epi8_mask(a, b)
    }
    #[inline(always)]
    unsafe fn lt16(lo: __m512i, hi: __m512i, b: __m512i) -> u64 {
        let lo = _mm512_cmplt_epu16_mask(lo, b);
        let hi = _mm512_cmplt_epu16_mask(hi, b);
        u64::from(lo) | (u64::from(hi) << 32)
    }
    #[inline(always)]
    unsafe fn and(a: u64, b: u64) -> u64 {
        a & b
    }
    #[inline(always)]
    unsafe fn or(a: u64, b: u64) -> u64 {
        a | b
    }
    #[inline(always)]
    unsafe fn andnot(a: u64, b: u64) -> u64 {
        a & !b
    }
    #[inline(always)]
    unsafe fn any(m: u64, lanes: u64) -> bool {
        m & lanes != 0
    }
    #[inline(always)]
    unsafe fn store16(
        out: *mut u16,
        b: __m512i,
        bad: u64,
        h: usize,
        lanes: u64,
        least: __m512i,
    ) -> __m512i {
        let b = _mm512_mask_mov_epi16(b, (bad >> (32 * h)) as u32, _mm512_set1_epi16(-1));
        let valid = (lanes >> (32 * h)) as u32;
        _mm512_mask_storeu_epi16(out as *mut i16, valid, b);
        _mm512_mask_min_epu16(least, valid, least, b)
    }
    #[inline(always)]
    unsafe fn hmin16(v: __m512i) -> u16 {
        let m = _mm256_min_epu16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
        horizontal_min(m)
    }
}
