//! The x86-64 SIMD paths: AVX2 (32 guesses a block) and AVX-512BW (64),
//! and what they share. Every function here computes what its plain
//! counterpart in `scalar.rs` computes, for the guesses it is given; the
//! callers check the CPU's features (the [`Kernel`]'s path) before any
//! `unsafe` call.

mod avx2;
mod avx512;

use super::{Kernel, NONE};
use crate::model::code::Code;
use crate::model::feedback::Feedback;

impl Kernel {
    /// What both SIMD paths start from: each row's first byte, and the
    /// answers in groups of `G`, padded with a value no cell holds (0xFF:
    /// answers are at most 15·16).
    pub(super) fn prepare<const G: usize>(
        rows: &[&[Feedback]],
        answers: &[u8],
    ) -> (Vec<*const u8>, Vec<[u8; G]>) {
        let ptrs = rows.iter().map(|r| r.as_ptr() as *const u8).collect();
        let groups = answers
            .chunks(G)
            .map(|c| {
                let mut a = [0xFFu8; G];
                a[..c.len()].copy_from_slice(c);
                a
            })
            .collect();
        (ptrs, groups)
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
