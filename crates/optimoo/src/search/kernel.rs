//! The one-step lookahead bound of every guess at once, for the `Total`
//! objective, counted 32 or 64 guesses at a time with byte compares.
//!
//! For a set of `n` secrets and a guess whose non-winning classes have
//! `c_f` secrets, the bound is `own(n) + Σ_f lower(c_f, d − 1)`. For the
//! total objective level filling gives, for every feasible class,
//! `lower(c) = Σ_{j ≥ 0} max(0, c − t_j)` with `t_0 = 0`, `t_1 = 1`,
//! `t_2 = 1 + b`, `t_3 = 1 + b + b²`, … (the secrets past each level's
//! capacity pay one more guess each). Summed over the classes:
//!
//! `bound = n + 2·(n − w) − p + Σ_f Σ_{j ≥ 2} max(0, c_f − t_j)`
//!
//! where `w` (0 or 1) says whether the guess is a candidate and `p` is the
//! number of non-empty non-winning classes. A class larger than the
//! capacity of `d − 1` guesses makes the guess infeasible, and a guess that
//! is not a candidate and leaves every secret in one class never helps:
//! both are reported as [`NONE`].
//!
//! Invariant (tested against plain counting, on every code path): for every
//! guess, the value is the lookahead bound exactly, or `NONE`; the result
//! never depends on which path ran. Paths, found at run time
//! (`is_x86_feature_detected!`): AVX-512BW, 64 guesses at a time, the last
//! block with masked loads and stores; else AVX2, 32 at a time, and plain
//! counting for the rest; plain counting alone on every other target.
//!
//! The AVX-512 intrinsics are stable since Rust 1.89, the workspace's
//! rust-version.

use crate::model::feedback::Feedback;

/// A guess that cannot be used (infeasible, or useless).
pub const NONE: u16 = u16::MAX;

/// Largest set the kernel handles (class counts fit in a byte).
pub const MAX_SET: usize = 255;

/// What the kernel needs to know of a game.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Non-winning answers (packed values).
    answers: Vec<u8>,
    win: u8,
    /// Use AVX2 even where AVX-512BW is present (for tests).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    no_avx512: bool,
    /// Plain counting only, whatever the CPU (for tests).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    no_simd: bool,
    /// The thresholds `t_j` for `j ≥ 2` that are below 255.
    thresholds: Vec<u8>,
}

impl Kernel {
    /// A kernel for a game with these possible answers (`win` among them)
    /// and `branching` non-winning answers per guess.
    pub fn new(possible: impl Iterator<Item = Feedback>, win: Feedback, branching: u64) -> Kernel {
        let answers = possible.filter(|&f| f != win).map(|f| f.0).collect();
        let mut thresholds = Vec::new();
        let mut t = 1u64;
        let mut level = branching.max(1);
        loop {
            t += level;
            if t >= 255 {
                break;
            }
            thresholds.push(t as u8);
            level = level.saturating_mul(branching.max(1));
        }
        Kernel {
            answers,
            win: win.0,
            no_avx512: false,
            no_simd: false,
            thresholds,
        }
    }

    /// The bound of every guess `g < len` on the set whose rows are `rows`
    /// (`rows[i][g]` = the answer of guess `g` to secret `i`; each row at
    /// least `len` long), with at most `capacity` secrets per class, in
    /// `out` (resized to `len`); returns the least of them. With `stop > 0`
    /// it may stop early, as soon as a bound at most `stop` is found (it
    /// is then returned, and `out` is incomplete). Needs `1 <= rows.len()
    /// <= MAX_SET`.
    pub fn bounds(
        &self,
        rows: &[&[Feedback]],
        len: usize,
        capacity: u64,
        stop: u16,
        out: &mut Vec<u16>,
    ) -> u16 {
        let n = rows.len();
        assert!((1..=MAX_SET).contains(&n));
        debug_assert!(rows.iter().all(|r| r.len() >= len));
        out.clear();
        out.resize(len, 0);
        let cap = capacity.min(255) as u8;
        #[allow(unused_mut)]
        let mut done = 0;
        #[allow(unused_mut)]
        let mut least = NONE;
        #[cfg(target_arch = "x86_64")]
        if !self.no_simd {
            if std::is_x86_feature_detected!("avx512bw") && !self.no_avx512 {
                let to = len;
                // SAFETY: AVX-512BW is present; every row holds at least
                // `len` bytes and only the first `len` are read (masked).
                least = unsafe { self.bounds_avx512(rows, to, cap, stop, out) };
                if least <= stop {
                    return least;
                }
                done = to;
            }
            if std::is_x86_feature_detected!("avx2") {
                let to = len / 32 * 32;
                if to > done {
                    // SAFETY: AVX2 is present; as above.
                    least = least.min(unsafe { self.bounds_avx2(rows, done, to, cap, stop, out) });
                    if least <= stop {
                        return least;
                    }
                    done = to;
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = stop; // Only the SIMD paths stop early.
        self.bounds_scalar(rows, done, len, cap, out);
        least.min(out[done..].iter().copied().min().unwrap_or(NONE))
    }

    /// Plain counting for guesses `from..to`.
    fn bounds_scalar(
        &self,
        rows: &[&[Feedback]],
        from: usize,
        to: usize,
        cap: u8,
        out: &mut [u16],
    ) {
        let n = rows.len();
        let mut counts = [0u16; 256];
        for g in from..to {
            for r in rows {
                counts[r[g].0 as usize] += 1;
            }
            let w = counts[self.win as usize];
            let (mut p, mut e, mut m) = (0u16, 0u16, 0u16);
            for &a in &self.answers {
                let c = counts[a as usize];
                p += c.min(1);
                for &t in &self.thresholds {
                    e += c.saturating_sub(t as u16);
                }
                m = m.max(c);
            }
            for r in rows {
                counts[r[g].0 as usize] = 0;
            }
            out[g] = if m > cap as u16 || (w == 0 && p == 1) {
                NONE
            } else {
                3 * n as u16 - 2 * w - p + e
            };
        }
    }

    /// What both SIMD paths start from: each row's first byte, and the
    /// answers in groups of `G`, padded with a value no cell holds.
    #[cfg(target_arch = "x86_64")]
    fn prepare<const G: usize>(&self, rows: &[&[Feedback]]) -> (Vec<*const u8>, Vec<[u8; G]>) {
        let ptrs = rows.iter().map(|r| r.as_ptr() as *const u8).collect();
        let groups = self
            .answers
            .chunks(G)
            .map(|c| {
                let mut a = [0xFFu8; G];
                a[..c.len()].copy_from_slice(c);
                a
            })
            .collect();
        (ptrs, groups)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512bw,avx512f,avx2")]
    unsafe fn bounds_avx512(
        &self,
        rows: &[&[Feedback]],
        len: usize,
        cap: u8,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        use std::arch::x86_64::*;
        const G: usize = 8;
        let n = rows.len();
        let (ptrs, groups) = self.prepare::<G>(rows);
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
            for (gi, group) in groups.iter().enumerate() {
                let fv: [__m512i; G] = std::array::from_fn(|j| _mm512_set1_epi8(group[j] as i8));
                let mut cnt = [zero; G];
                if gi == 0 {
                    for &ptr in &ptrs {
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
                    p = _mm512_adds_epu8(p, _mm512_min_epu8(c, one));
                    m = _mm512_max_epu8(m, c);
                    for &t in &thr {
                        e = _mm512_adds_epu8(e, _mm512_subs_epu8(c, t));
                    }
                }
            }
            // Unusable: a class above capacity, or one class and no win.
            let bad: u64 = _mm512_cmpgt_epu8_mask(m, capv)
                | (_mm512_cmpeq_epi8_mask(w, zero) & _mm512_cmpeq_epi8_mask(p, one));
            for half in 0..2 {
                let pick = |x: __m512i| -> __m512i {
                    if half == 0 {
                        _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x))
                    } else {
                        _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x, 1))
                    }
                };
                let w16 = pick(w);
                let b = _mm512_add_epi16(
                    _mm512_sub_epi16(_mm512_sub_epi16(base, _mm512_add_epi16(w16, w16)), pick(p)),
                    pick(e),
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

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn bounds_avx2(
        &self,
        rows: &[&[Feedback]],
        from: usize,
        len: usize,
        cap: u8,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        use std::arch::x86_64::*;
        const G: usize = 8;
        let n = rows.len();
        let (ptrs, groups) = self.prepare::<G>(rows);
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
        let mut least = _mm256_set1_epi16(-1);
        let mut o = from;
        while o < len {
            let (mut p, mut e, mut m, mut w) = (zero, zero, zero, zero);
            for (gi, group) in groups.iter().enumerate() {
                let fv: [__m256i; G] = std::array::from_fn(|j| _mm256_set1_epi8(group[j] as i8));
                let mut cnt = [zero; G];
                if gi == 0 {
                    for &ptr in &ptrs {
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
                    p = _mm256_adds_epu8(p, _mm256_min_epu8(c, one));
                    m = _mm256_max_epu8(m, c);
                    for &t in &thr {
                        e = _mm256_adds_epu8(e, _mm256_subs_epu8(c, t));
                    }
                }
            }
            // Unusable: a class above capacity, or one class and no win.
            let over = _mm256_xor_si256(
                _mm256_cmpeq_epi8(_mm256_max_epu8(m, capv), capv),
                _mm256_set1_epi8(-1),
            );
            let useless = _mm256_and_si256(_mm256_cmpeq_epi8(w, zero), _mm256_cmpeq_epi8(p, one));
            let bad = _mm256_or_si256(over, useless);
            for half in 0..2 {
                let pick = |x: __m256i| -> __m256i {
                    if half == 0 {
                        _mm256_cvtepu8_epi16(_mm256_castsi256_si128(x))
                    } else {
                        _mm256_cvtepu8_epi16(_mm256_extracti128_si256(x, 1))
                    }
                };
                let bad16 = if half == 0 {
                    _mm256_cvtepi8_epi16(_mm256_castsi256_si128(bad))
                } else {
                    _mm256_cvtepi8_epi16(_mm256_extracti128_si256(bad, 1))
                };
                let w16 = pick(w);
                let b = _mm256_add_epi16(
                    _mm256_sub_epi16(_mm256_sub_epi16(base, _mm256_add_epi16(w16, w16)), pick(p)),
                    pick(e),
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

/// The least of sixteen `u16`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn horizontal_min(v: std::arch::x86_64::__m256i) -> u16 {
    use std::arch::x86_64::*;
    let m = _mm_min_epu16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_extract_epi16(_mm_minpos_epu16(m), 0) as u16
}

/// The least of thirty-two `u16`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512bw,avx512f,avx2")]
unsafe fn horizontal_min512(v: std::arch::x86_64::__m512i) -> u16 {
    use std::arch::x86_64::*;
    let m = _mm256_min_epu16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    horizontal_min(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::code::Code;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::search::bound::{Bounds, Cost, INF};

    /// The bound by plain counting and the level-filling table.
    fn reference(game: &Game, bounds: &Bounds, set: &[Code], d: usize, g: Code) -> u16 {
        let mut counts = [0usize; 256];
        for &s in set {
            counts[game.feedback(s, g).index()] += 1;
        }
        let win = game.win().index();
        let candidate = counts[win] == 1;
        if !candidate && counts.iter().filter(|&&c| c > 0).count() == 1 {
            return NONE;
        }
        let mut total = bounds.own(set.len());
        for (f, &c) in counts.iter().enumerate() {
            if f != win {
                total = total.saturating_add(bounds.lower(c, d - 1));
            }
        }
        if total >= INF {
            NONE
        } else {
            total as u16
        }
    }

    #[test]
    fn equals_plain_counting() {
        for rules in ["moo:4x10", "mm:4x6", "mm:5x4", "moo:3x5", "mm:2x3"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let table = game.table().unwrap();
            let branching = game.possible_feedbacks().count() as u64 - 1;
            let bounds = Bounds::new(Cost::Total, branching as usize, game.len());
            let fast = Kernel::new(game.possible_feedbacks(), game.win(), branching);
            let avx2 = Kernel {
                no_avx512: true,
                ..fast.clone()
            };
            let scalar = Kernel {
                no_simd: true,
                ..fast.clone()
            };
            let mut rng = crate::rng::SplitMix64::new(99);
            let mut rnd = |m: usize| rng.below(m);
            let mut out = Vec::new();
            for trial in 0..60 {
                let size = 1 + rnd(if trial % 3 == 0 { 255 } else { 40 });
                let mut set: Vec<Code> = (0..size).map(|_| Code(rnd(game.len()) as u16)).collect();
                set.sort();
                set.dedup();
                let rows: Vec<&[Feedback]> = set.iter().map(|&s| table.row(s)).collect();
                for (d, kernel) in [2, 3, 4, 5, 9]
                    .into_iter()
                    .flat_map(|d| [(d, &fast), (d, &avx2), (d, &scalar)])
                {
                    let least =
                        kernel.bounds(&rows, game.len(), bounds.capacity(d - 1), 0, &mut out);
                    assert_eq!(least, out.iter().copied().min().unwrap());
                    // Stopping early still finds a bound at most `stop`.
                    let mut part = Vec::new();
                    let stop = least.saturating_add(3);
                    if stop < NONE {
                        let found = kernel.bounds(
                            &rows,
                            game.len(),
                            bounds.capacity(d - 1),
                            stop,
                            &mut part,
                        );
                        assert!(found <= stop && found >= least);
                    }
                    for g in game.codes().all() {
                        assert_eq!(
                            out[g.index()],
                            reference(&game, &bounds, &set, d, g),
                            "{rules} trial {trial} d {d} guess {}",
                            game.format_code(g)
                        );
                    }
                }
            }
        }
    }
}
