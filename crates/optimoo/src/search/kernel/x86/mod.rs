//! The x86-64 SIMD paths: AVX2 (32 guesses a block) and AVX-512BW (64).
//! The bounds have one body, [`Kernel::bounds_simd`], generic over the
//! lane width ([`Lanes`], implemented by `avx2.rs` and `avx512.rs`); the
//! answer-mask kernels are AVX2's alone (the AVX-512 path runs them too).
//!
//! Invariants: every function here computes what its plain counterpart
//! in `scalar.rs` computes, for the guesses it is given (compared in debug
//! builds on every call, and by the tests on every path); the callers
//! check the CPU's features (the [`Kernel`]'s path) before any `unsafe`
//! call, and every [`Lanes`] method is `#[inline(always)]` and called only
//! from a function with its instruction set enabled (as memchr's
//! `Vector`), so that the generic body compiles to that set's code.

mod avx2;
mod avx512;

use super::{Kernel, AHEAD, NONE};
use crate::model::code::Code;
use crate::model::feedback::Feedback;

/// Answers counted per pass over the rows (a byte counter each).
const G: usize = 8;

/// One instruction set's vectors, as the bounds body uses them: `WIDTH`
/// byte lanes (one a guess), or `WIDTH / 2` `u16` lanes (half a block's
/// guesses), and a flag per byte lane ([`Lanes::Mask`]).
///
/// # Safety
/// Every method needs the instruction set of the implementation.
pub(super) trait Lanes {
    /// Guesses a block: byte lanes a vector.
    const WIDTH: usize;
    /// A vector.
    type V: Copy;
    /// A flag per byte lane.
    type Mask: Copy;
    /// Every lane 0.
    unsafe fn zero() -> Self::V;
    /// Every byte lane `x`.
    unsafe fn splat8(x: u8) -> Self::V;
    /// Every `u16` lane `x`.
    unsafe fn splat16(x: u16) -> Self::V;
    /// `WIDTH` bytes from `ptr`, those outside `lanes` (a bit a byte) 0;
    /// a path without masked loads needs every lane in `lanes`.
    unsafe fn load(ptr: *const u8, lanes: u64) -> Self::V;
    /// `cnt + 1` in the byte lanes where `v == f`.
    unsafe fn count_eq(cnt: Self::V, v: Self::V, f: Self::V) -> Self::V;
    /// Byte lanes: wrapping add.
    unsafe fn add8(a: Self::V, b: Self::V) -> Self::V;
    /// Byte lanes: unsigned least.
    unsafe fn min8(a: Self::V, b: Self::V) -> Self::V;
    /// Byte lanes: unsigned most.
    unsafe fn max8(a: Self::V, b: Self::V) -> Self::V;
    /// Byte lanes: unsigned saturating add.
    unsafe fn adds8(a: Self::V, b: Self::V) -> Self::V;
    /// Byte lanes: unsigned saturating subtract.
    unsafe fn subs8(a: Self::V, b: Self::V) -> Self::V;
    /// The bytes of half `h` (0: the first `WIDTH / 2`) as `u16` lanes.
    unsafe fn widen(x: Self::V, h: usize) -> Self::V;
    /// `u16` lanes: wrapping add.
    unsafe fn add16(a: Self::V, b: Self::V) -> Self::V;
    /// `u16` lanes: wrapping subtract.
    unsafe fn sub16(a: Self::V, b: Self::V) -> Self::V;
    /// `u16` lanes: unsigned saturating subtract.
    unsafe fn subs16(a: Self::V, b: Self::V) -> Self::V;
    /// Byte lanes where `a > b` (unsigned).
    unsafe fn gt8(a: Self::V, b: Self::V) -> Self::Mask;
    /// Byte lanes where `a == b`.
    unsafe fn eq8(a: Self::V, b: Self::V) -> Self::Mask;
    /// The guesses (byte lanes, in order) whose `u16` in `lo` (the first
    /// half) or `hi` (the second) is below `b`'s (unsigned).
    unsafe fn lt16(lo: Self::V, hi: Self::V, b: Self::V) -> Self::Mask;
    /// Flags in both.
    unsafe fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Flags in either.
    unsafe fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Flags in `a` and not in `b`.
    unsafe fn andnot(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Whether a flag of `m` is set among `lanes`.
    unsafe fn any(m: Self::Mask, lanes: u64) -> bool;
    /// Stores the `u16` values `b` of half `h` of a block at `out`, those
    /// of the byte lanes of `lanes` only, `NONE` where `bad`; returns
    /// `least` lowered by them.
    unsafe fn store16(
        out: *mut u16,
        b: Self::V,
        bad: Self::Mask,
        h: usize,
        lanes: u64,
        least: Self::V,
    ) -> Self::V;
    /// The least `u16` lane.
    unsafe fn hmin16(v: Self::V) -> u16;
}

/// What the bounds body counts: each row's first byte, the answers in
/// groups of [`G`] padded with a value no cell holds (0xFF: answers are at
/// most 15·16), how many answers are left after each group, and the
/// parameters of [`Kernel::bounds`] (`ceiling`: [`Kernel::least_counted`]'s).
pub(super) struct Job {
    ptrs: Vec<*const u8>,
    groups: Vec<[u8; G]>,
    rest: Vec<u16>,
    len: usize,
    cap: u8,
    stop: u16,
    ceiling: Option<u16>,
}

impl Job {
    /// The job of guesses `0..len` on `rows`, the answers counted in the
    /// order of `answers`.
    pub(super) fn new(
        rows: &[&[Feedback]],
        answers: &[u8],
        len: usize,
        cap: u8,
        stop: u16,
        ceiling: Option<u16>,
    ) -> Job {
        let groups: Vec<[u8; G]> = answers
            .chunks(G)
            .map(|c| {
                let mut a = [0xFFu8; G];
                a[..c.len()].copy_from_slice(c);
                a
            })
            .collect();
        Job {
            ptrs: rows.iter().map(|r| r.as_ptr() as *const u8).collect(),
            rest: (1..=groups.len())
                .map(|i| answers.len().saturating_sub(G * i) as u16)
                .collect(),
            groups,
            len,
            cap,
            stop,
            ceiling,
        }
    }
}

/// Adds one group's answers of the block at `o` to their counters `cnt`
/// (and with `FIRST` the win's to `w`, fetching the rows ahead).
#[inline(always)]
unsafe fn count_group<L: Lanes, const FIRST: bool>(
    ptrs: &[*const u8],
    o: usize,
    lanes: u64,
    winv: L::V,
    w: &mut L::V,
    fv: &[L::V; G],
    cnt: &mut [L::V; G],
) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    for &ptr in ptrs {
        if FIRST {
            // The rows are far apart (a stream per secret, too many for
            // the hardware's prefetch): ask for the bytes `AHEAD` on now.
            // A prefetch never faults.
            _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(o + AHEAD) as *const i8);
        }
        let v = L::load(ptr.add(o), lanes);
        if FIRST {
            *w = L::count_eq(*w, v, winv);
        }
        for j in 0..G {
            cnt[j] = L::count_eq(cnt[j], v, fv[j]);
        }
    }
}

/// `3n − 2w − p + e` (`base` = `3n`) of half `h` of a block as `u16`
/// lanes, from byte lanes `p`, `w` and `e` (with `WIDE`, `e16[h]` instead);
/// with `rest`, `r` is taken from `3n − 2w − p` before `e` is added, each
/// subtraction saturated at 0.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn bound<L: Lanes, const WIDE: bool>(
    base: L::V,
    p: L::V,
    w: L::V,
    e: L::V,
    e16: &[L::V; 2],
    rest: Option<L::V>,
    h: usize,
) -> L::V {
    let e = if WIDE { e16[h] } else { L::widen(e, h) };
    let w = L::widen(w, h);
    let p = L::widen(p, h);
    let b = match rest {
        Some(r) => L::subs16(L::subs16(L::subs16(base, L::add16(w, w)), p), r),
        None => L::sub16(L::sub16(base, L::add16(w, w)), p),
    };
    L::add16(b, e)
}

impl Kernel {
    /// The bounds of guesses `0..job.len`, `L::WIDTH` at a time (a
    /// partial last block needs masked loads: AVX2 is given whole blocks
    /// only), in `out`; returns their least. `WIDE`: the excess `e` in
    /// `u16` lanes (needed when `x(n) ≥ 255`), else in `u8` lanes.
    #[inline(always)]
    pub(super) unsafe fn bounds_simd<L: Lanes, const WIDE: bool>(
        &self,
        job: &Job,
        out: &mut [u16],
    ) -> u16 {
        let n = job.ptrs.len();
        let zero = L::zero();
        let one = L::splat8(1);
        let winv = L::splat8(self.win);
        let capv = L::splat8(job.cap);
        let base = L::splat16(3 * n as u16);
        let thr: Vec<L::V> = self.thresholds.iter().map(|&t| L::splat8(t)).collect();
        let full = u64::MAX >> (64 - L::WIDTH);
        let mut least = L::splat16(NONE);
        let mut o = 0;
        while o < job.len {
            // The last block may be partial: masked loads and stores.
            let lanes = if job.len - o >= L::WIDTH {
                full
            } else {
                (1u64 << (job.len - o)) - 1
            };
            let (mut p, mut e, mut m, mut w) = (zero, zero, zero, zero);
            let mut e16 = [zero; 2];
            // Whether no guess of the block can go below the least found.
            let mut left = false;
            let best = job.ceiling.map(|c| c.min(L::hmin16(least)));
            for (gi, group) in job.groups.iter().enumerate() {
                if let Some(best) = best.filter(|_| gi > 0) {
                    // Each guess's bound is at least 3n − 2w − p' − r + e'
                    // (saturated at 0: it is at least e' too), or it is
                    // unusable (a class above capacity).
                    let r = Some(L::splat16(job.rest[gi - 1]));
                    let lo = bound::<L, WIDE>(base, p, w, e, &e16, r, 0);
                    let hi = bound::<L, WIDE>(base, p, w, e, &e16, r, 1);
                    let below = L::lt16(lo, hi, L::splat16(best));
                    if !L::any(L::andnot(below, L::gt8(m, capv)), lanes) {
                        left = true;
                        break;
                    }
                }
                let fv: [L::V; G] = std::array::from_fn(|j| L::splat8(group[j]));
                let mut cnt = [zero; G];
                if gi == 0 {
                    count_group::<L, true>(&job.ptrs, o, lanes, winv, &mut w, &fv, &mut cnt);
                } else {
                    count_group::<L, false>(&job.ptrs, o, lanes, winv, &mut w, &fv, &mut cnt);
                }
                for c in cnt {
                    p = L::add8(p, L::min8(c, one));
                    m = L::max8(m, c);
                    for &t in &thr {
                        let x = L::subs8(c, t);
                        if WIDE {
                            e16 = [
                                L::add16(e16[0], L::widen(x, 0)),
                                L::add16(e16[1], L::widen(x, 1)),
                            ];
                        } else {
                            e = L::adds8(e, x);
                        }
                    }
                }
            }
            if !left {
                // Unusable: a class above capacity, or one class and no win.
                let bad = L::or(L::gt8(m, capv), L::and(L::eq8(w, zero), L::eq8(p, one)));
                for h in 0..2 {
                    let b = bound::<L, WIDE>(base, p, w, e, &e16, None, h);
                    let at = out.as_mut_ptr().add(o + L::WIDTH / 2 * h);
                    least = L::store16(at, b, bad, h, lanes, least);
                }
                if job.stop > 0 && L::hmin16(least) <= job.stop {
                    break;
                }
            }
            o += L::WIDTH;
        }
        L::hmin16(least)
    }
}

/// The mask values in `out` of the candidates `set` (of `n` secrets)
/// corrected, and the least value: the masks leave the win out, and the
/// win is one of a candidate's answers (`w = 1`), so a candidate is never
/// useless and its value is 2 less (`3n − 3` where its one other answer
/// made it `NONE`). `least` is the least before the correction.
pub(super) fn with_candidates(mut least: u16, set: &[Code], n: usize, out: &mut [u16]) -> u16 {
    let n3 = 3 * n as u16;
    for s in set {
        let m = &mut out[s.index()];
        *m = if *m == NONE { n3 - 3 } else { *m - 2 };
        least = least.min(*m);
    }
    least
}

#[cfg(test)]
mod tests {
    use super::super::KernelPath;
    use super::Lanes;
    use std::arch::x86_64::*;

    /// Values `0, 1, …` in the `u16` lanes of a vector, the halves of
    /// the guesses of a block of `2 · lanes` (lane `i` of `hi`: guess
    /// `lanes + i`).
    fn values(lanes: usize) -> (Vec<u16>, Vec<u16>) {
        (
            (0..lanes as u16).collect(),
            (lanes as u16..2 * lanes as u16).collect(),
        )
    }

    /// [`Lanes::lt16`] and [`Lanes::store16`] on AVX2 for threshold `k`:
    /// the flags, one byte a guess, and the values stored (NONE where a
    /// guess is flagged bad: the even ones).
    #[target_feature(enable = "avx2")]
    unsafe fn avx2(k: u16) -> ([u8; 32], [u16; 32]) {
        use super::avx2::Avx2;
        let (lo, hi) = values(16);
        let lo = _mm256_loadu_si256(lo.as_ptr() as *const __m256i);
        let hi = _mm256_loadu_si256(hi.as_ptr() as *const __m256i);
        let mut flags = [0u8; 32];
        let below = Avx2::lt16(lo, hi, Avx2::splat16(k));
        _mm256_storeu_si256(flags.as_mut_ptr() as *mut __m256i, below);
        let even: [u8; 32] = std::array::from_fn(|i| if i % 2 == 0 { 0xFF } else { 0 });
        let bad = _mm256_loadu_si256(even.as_ptr() as *const __m256i);
        let mut out = [0u16; 32];
        let mut least = Avx2::splat16(u16::MAX);
        for (h, v) in [lo, hi].into_iter().enumerate() {
            least = Avx2::store16(out.as_mut_ptr().add(16 * h), v, bad, h, 0xFFFF_FFFF, least);
        }
        assert_eq!(Avx2::hmin16(least), 1);
        (flags, out)
    }

    /// The same on AVX-512 (64 guesses), the last `partial` guesses of the
    /// block outside its lanes (not stored).
    #[target_feature(enable = "avx512bw,avx512f,avx2")]
    unsafe fn avx512(k: u16, partial: usize) -> (u64, [u16; 64]) {
        use super::avx512::Avx512;
        let (lo, hi) = values(32);
        let lo = _mm512_loadu_si512(lo.as_ptr() as *const __m512i);
        let hi = _mm512_loadu_si512(hi.as_ptr() as *const __m512i);
        let flags = Avx512::lt16(lo, hi, Avx512::splat16(k));
        let even = 0x5555_5555_5555_5555u64;
        let lanes = u64::MAX >> partial;
        let mut out = [7u16; 64];
        let mut least = Avx512::splat16(u16::MAX);
        for (h, v) in [lo, hi].into_iter().enumerate() {
            let at = out.as_mut_ptr().add(32 * h);
            least = Avx512::store16(at, v, even, h, lanes, least);
        }
        let valid = &out[..64 - partial];
        assert_eq!(Avx512::hmin16(least), *valid.iter().min().unwrap());
        (flags, out)
    }

    /// Both paths flag the guesses of a block in order (AVX2 packs its
    /// halves and puts their 128-bit lanes back in order), and store each
    /// guess's value at its place, `NONE` where it is bad, nothing outside
    /// the block's lanes: what the one bounds body assumes of each.
    #[test]
    fn lanes_keep_guesses_in_order() {
        let available = KernelPath::available();
        for k in [0u16, 1, 15, 16, 17, 31, 32, 33, 63, 64] {
            if available.contains(&KernelPath::Avx2) {
                // SAFETY: this CPU has AVX2.
                let (flags, out) = unsafe { avx2(k) };
                for g in 0..32 {
                    assert_eq!(
                        flags[g] == 0xFF,
                        (g as u16) < k,
                        "AVX2 flag of guess {g}, k {k}"
                    );
                    let want = if g % 2 == 0 { u16::MAX } else { g as u16 };
                    assert_eq!(out[g], want, "AVX2 value of guess {g}");
                }
            }
            if available.contains(&KernelPath::Avx512) {
                for partial in [0, 1, 33, 63] {
                    // SAFETY: this CPU has AVX-512BW.
                    let (flags, out) = unsafe { avx512(k, partial) };
                    for (g, &value) in out.iter().enumerate() {
                        assert_eq!(
                            flags >> g & 1 == 1,
                            (g as u16) < k,
                            "AVX-512 flag {g}, k {k}"
                        );
                        let want = match g {
                            _ if g >= 64 - partial => 7,
                            _ if g % 2 == 0 => u16::MAX,
                            _ => g as u16,
                        };
                        assert_eq!(value, want, "AVX-512 value of guess {g}, {partial} off");
                    }
                }
            }
        }
    }
}
