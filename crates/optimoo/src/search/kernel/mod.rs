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
//! `bound = n + 2·(n − w) − p + e`, `e = Σ_f x(c_f)`,
//! `x(c) = Σ_{j ≥ 2} max(0, c − t_j)`
//!
//! where `w` (0 or 1) says whether the guess is a candidate and `p` is the
//! number of non-empty non-winning classes. A class larger than the
//! capacity of `d − 1` guesses makes the guess infeasible, and a guess that
//! is not a candidate and leaves every secret in one class never helps:
//! both are reported as [`NONE`].
//!
//! Ranges (each checked in debug builds, where every SIMD result is also
//! compared with plain counting):
//! - `n ≤ MAX_SET = 255`, so every class count `c_f`, `w ≤ 1` and
//!   `p ≤ 135` (the answers of 15 positions) fit a byte; the SIMD paths
//!   count them in `u8` lanes with wrapping adds that cannot wrap.
//! - `x` is convex with `x(0) = 0`, hence superadditive, so
//!   `e ≤ x(n) ≤ x(255) ≤ 32,131` (the worst case is one non-winning
//!   answer, `b = 1`: thresholds 2, 3, …, 254). When `x(n) ≤ 254` the SIMD
//!   paths sum `e` in `u8` lanes (saturating adds that then never
//!   saturate); otherwise in `u16` lanes (`Kernel::wide_from`). Summing in
//!   saturating bytes whatever `n` was the bug of issue 16: `e` stuck at
//!   255 gave bounds below the truth on games with few answers (mm:2x16
//!   printed 2174 as its optimum, 1862 is).
//! - `bound ≤ 3·255 + 32,131 < NONE = 65,535`, in `u16` lanes.
//!
//! Invariant (tested against plain counting and against the level-filling
//! table, on every code path, on sets whose `e` exceeds 255): for every
//! guess, the value is the lookahead bound exactly, or `NONE`; the result
//! never depends on which path ran. Paths ([`KernelPath`]): AVX-512BW, 64
//! guesses at a time, the last block with masked loads and stores; AVX2,
//! 32 at a time, and plain counting for the rest; plain counting alone.
//! The default is the best the CPU has (`is_x86_feature_detected!`); the
//! environment variable `OPTIMOO_KERNEL=scalar|avx2|avx512` chooses one,
//! and a path the CPU lacks is refused ([`KernelError`]), so that every
//! path can be tested on every machine that has it.
//!
//! The AVX-512 intrinsics are stable since Rust 1.89, the workspace's
//! rust-version.
//!
//! Files: this one holds the [`Kernel`], the choice of path and the
//! bound's arithmetic (which operation runs where); `scalar.rs` the plain
//! counting every other path is checked against; `x86/mod.rs` the one
//! body of the SIMD bounds, generic over the lane width, `x86/avx2.rs`
//! and `x86/avx512.rs` the lanes of each instruction set (and AVX2's
//! answer-mask kernels); `dense.rs` the [`DenseTable`];
//! `node.rs` the [`NodeAnswers`] of a node's class bounds; `tests.rs` the
//! tests against plain counting and the level-filling table.

use std::str::FromStr;

mod dense;
mod node;
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use dense::DenseTable;
pub use node::NodeAnswers;

use crate::model::code::Code;
use crate::model::feedback::Feedback;

/// A guess that cannot be used (infeasible, or useless).
pub const NONE: u16 = u16::MAX;

/// Largest set the kernel handles (class counts fit in a byte).
pub const MAX_SET: usize = 255;

/// Largest set whose least bound [`Kernel::least`] finds from each
/// guess's answers as a bit mask (beyond it most guesses give every answer
/// and the masks no longer tell them apart).
pub const MASK_MAX: usize = 64;

/// How many mask values above the least [`Kernel::least`] tries before it
/// counts every guess's classes instead.
const WINDOW: u16 = 8;

/// Largest game whose answers [`Kernel::dense_table`] copies into a dense
/// table (`N²` more bytes: 45 MB for moo:5x8's 6,720 codes, 144 MB here).
pub const DENSE_MAX_CODES: usize = 12_000;

/// How far ahead in each secret's row the SIMD paths ask for bytes while
/// they read a block: each row is a stream of its own, too many streams
/// for the hardware's prefetch on large games (moo:5x10's rows are 30 kB
/// apart), so without it most blocks wait on memory. Two blocks of 64
/// (measured against one and four: docs/benchmarks.md).
const AHEAD: usize = 128;

/// The code of the win (and of any answer no guess gives) in a
/// [`DenseTable`]: its top bit makes a byte lookup give 0.
const DENSE_WIN: u8 = 0x80;

/// The environment variable that chooses the kernel's code path.
pub const KERNEL_ENV: &str = "OPTIMOO_KERNEL";

/// The code path of the all-guesses bound kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KernelPath {
    /// Plain counting, one guess at a time (every CPU).
    Scalar,
    /// 32 guesses at a time (x86-64 with AVX2).
    Avx2,
    /// 64 guesses at a time (x86-64 with AVX-512BW).
    Avx512,
}

/// A kernel path that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// `OPTIMOO_KERNEL` names no path.
    #[error("{KERNEL_ENV}={value:?} names no kernel path: use scalar, avx2 or avx512 (or unset it for the best this CPU has: {best})")]
    Unknown {
        /// The value given.
        value: String,
        /// The best path of this CPU.
        best: KernelPath,
    },
    /// The CPU lacks the instructions of the path asked for.
    #[error("the {path} kernel path needs instructions this CPU lacks (it has: {available}); set {KERNEL_ENV} to one of those or unset it")]
    Unsupported {
        /// The path asked for.
        path: KernelPath,
        /// The paths this CPU has, by name.
        available: String,
    },
}

impl KernelPath {
    /// Every path, slowest first.
    pub const ALL: [KernelPath; 3] = [KernelPath::Scalar, KernelPath::Avx2, KernelPath::Avx512];

    /// The name `OPTIMOO_KERNEL` takes.
    pub fn name(self) -> &'static str {
        match self {
            KernelPath::Scalar => "scalar",
            KernelPath::Avx2 => "avx2",
            KernelPath::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path.
    pub fn supported(self) -> bool {
        match self {
            KernelPath::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            KernelPath::Avx512 => {
                std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx2")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The paths this CPU can run, slowest first.
    pub fn available() -> Vec<KernelPath> {
        KernelPath::ALL
            .into_iter()
            .filter(|p| p.supported())
            .collect()
    }

    /// The fastest path this CPU can run.
    pub fn best() -> KernelPath {
        KernelPath::available().pop().unwrap_or(KernelPath::Scalar)
    }

    /// The path itself if this CPU can run it, else an error naming those
    /// it can.
    pub fn check(self) -> Result<KernelPath, KernelError> {
        if self.supported() {
            Ok(self)
        } else {
            Err(KernelError::Unsupported {
                path: self,
                available: KernelPath::available()
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// The path `OPTIMOO_KERNEL` chooses (checked against the CPU), or the
    /// best one when it is unset or empty.
    pub fn from_env() -> Result<KernelPath, KernelError> {
        match std::env::var(KERNEL_ENV) {
            Ok(v) if !v.trim().is_empty() => v.parse::<KernelPath>()?.check(),
            Ok(_) | Err(std::env::VarError::NotPresent) => Ok(KernelPath::best()),
            Err(std::env::VarError::NotUnicode(v)) => Err(KernelError::Unknown {
                value: v.to_string_lossy().into_owned(),
                best: KernelPath::best(),
            }),
        }
    }
}

impl std::fmt::Display for KernelPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KernelPath {
    type Err = KernelError;

    fn from_str(s: &str) -> Result<KernelPath, KernelError> {
        let t = s.trim();
        KernelPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| KernelError::Unknown {
                value: s.to_string(),
                best: KernelPath::best(),
            })
    }
}

/// What the kernel needs to know of a game.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Non-winning answers (packed values).
    answers: Vec<u8>,
    win: u8,
    /// The code path (supported by this CPU: checked when made).
    path: KernelPath,
    /// The thresholds `t_j` for `j ≥ 2` that are below 255.
    thresholds: Vec<u8>,
    /// The smallest set size `n` with `x(n) ≥ 255`: from there on the SIMD
    /// paths sum the excess in `u16` lanes (`MAX_SET + 1`: never).
    wide_from: usize,
    /// Whether every answer (the win included) is below 32, so that a
    /// guess's answers fit a `u32` mask ([`Kernel::least`]), and at most
    /// eight non-winning answers are 16 or more (one byte of `lut_high`).
    masks_fit: bool,
    /// The bit of each non-winning answer below 16 by its value, in two
    /// bytes (values 0–7, 8–15); the win's entry is 0.
    lut_low: [[u8; 16]; 2],
    /// The bit of each non-winning answer `a` from 16 to 31 at `a − 16`
    /// (one bit each, in order); the win's entry is 0.
    lut_high: [u8; 16],
    /// Whether any non-winning answer is 16 or more.
    has_high: bool,
    /// `x(c)` for `c <= MASK_MAX`.
    excess_small: Vec<u16>,
    /// The largest `c` with `x(0..=c)` all 0: counts up to it add no
    /// excess.
    excess_free: usize,
    /// The largest `n <= MAX_SET` with `x(n) = 0`: a set of at most that
    /// many secrets has no class with excess, whatever the guess.
    wide_free: usize,
    /// Each answer's code in a [`DenseTable`]: the `i`-th non-winning
    /// answer `i`, the win and impossible answers [`DENSE_WIN`].
    dense_code: [u8; 256],
}

impl Kernel {
    /// A kernel for a game with these possible answers (`win` among them)
    /// and `branching` non-winning answers per guess, on `path` (which
    /// this CPU must support: [`KernelPath::check`]).
    pub fn new(
        possible: impl Iterator<Item = Feedback>,
        win: Feedback,
        branching: u64,
        path: KernelPath,
    ) -> Result<Kernel, KernelError> {
        let path = path.check()?;
        let answers: Vec<u8> = possible.filter(|&f| f != win).map(|f| f.0).collect();
        let possible_max = answers.iter().copied().max().unwrap_or(0);
        debug_assert!(answers.len() < 255 && answers.iter().all(|&a| a != 0xFF));
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
        let mut kernel = Kernel {
            answers,
            win: win.0,
            path,
            thresholds,
            wide_from: MAX_SET + 1,
            masks_fit: win.0 < 32 && possible_max < 32,
            lut_low: [[0; 16]; 2],
            lut_high: [0; 16],
            has_high: false,
            excess_small: Vec::new(),
            excess_free: 0,
            wide_free: 0,
            dense_code: [DENSE_WIN; 256],
        };
        for (i, &a) in kernel.answers.iter().enumerate() {
            if i < 16 {
                kernel.dense_code[usize::from(a)] = i as u8;
            }
        }
        let mut high = 0;
        for &a in &kernel.answers {
            match a {
                0..=15 => kernel.lut_low[usize::from(a / 8)][usize::from(a)] = 1 << (a % 8),
                16..=31 if high < 8 => {
                    kernel.lut_high[usize::from(a - 16)] = 1 << high;
                    high += 1;
                }
                _ => kernel.masks_fit = false,
            }
        }
        kernel.has_high = high > 0;
        kernel.excess_small = (0..=MASK_MAX).map(|c| kernel.excess(c) as u16).collect();
        kernel.excess_free = kernel.excess_small.iter().take_while(|&&x| x == 0).count() - 1;
        kernel.wide_free = (0..=MAX_SET)
            .take_while(|&n| kernel.excess(n) == 0)
            .last()
            .unwrap_or(0);
        kernel.wide_from = (0..=MAX_SET)
            .find(|&n| kernel.excess(n) >= 255)
            .unwrap_or(MAX_SET + 1);
        Ok(kernel)
    }

    /// The code path this kernel runs.
    pub fn path(&self) -> KernelPath {
        self.path
    }

    /// `x(c) = Σ_{j ≥ 2} max(0, c − t_j)`: what a class of `c` adds to the
    /// bound beyond `2c − 1`.
    fn excess(&self, c: usize) -> u32 {
        self.thresholds
            .iter()
            .map(|&t| c.saturating_sub(t as usize) as u32)
            .sum()
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
        assert!(rows.iter().all(|r| r.len() >= len));
        out.clear();
        out.resize(len, 0);
        let cap = capacity.min(255) as u8;
        let (least, done) = self.count_simd(rows, &self.answers, len, cap, stop, None, out);
        if done > 0 {
            if stop > 0 && least <= stop {
                return least;
            }
            self.debug_check(rows, 0, done, cap, out);
        }
        self.bounds_scalar(rows, done, len, cap, out);
        least.min(out[done..].iter().copied().min().unwrap_or(NONE))
    }

    /// The SIMD part of [`Kernel::bounds`] and [`Kernel::least_counted`]:
    /// the guesses `0..done` counted on this kernel's path (all of them on
    /// AVX-512, the whole blocks of 32 on AVX2, none on the scalar path),
    /// their bounds in `out[..done]` (with a `ceiling`, only those of the
    /// blocks not left early), and their least (`NONE` when none). The
    /// answers are counted in the order of `answers`; `stop` as for
    /// [`Kernel::bounds`].
    #[allow(clippy::too_many_arguments)]
    fn count_simd(
        &self,
        rows: &[&[Feedback]],
        answers: &[u8],
        len: usize,
        cap: u8,
        stop: u16,
        ceiling: Option<u16>,
        out: &mut [u16],
    ) -> (u16, usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let wide = rows.len() >= self.wide_from;
            let to = match self.path {
                KernelPath::Scalar => 0,
                KernelPath::Avx512 => len,
                KernelPath::Avx2 => len / 32 * 32,
            };
            if to == 0 {
                return (NONE, 0);
            }
            let job = x86::Job::new(rows, answers, to, cap, stop, ceiling);
            // SAFETY: the path was checked against the CPU when the kernel
            // was made; every row holds at least `len >= to` bytes and only
            // the first `to` are read (AVX-512: masked).
            let least = unsafe {
                match self.path {
                    KernelPath::Avx512 => self.bounds_avx512(&job, wide, out),
                    _ => self.bounds_avx2(&job, wide, out),
                }
            };
            (least, to)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (rows, answers, len, cap, stop, ceiling, out);
            (NONE, 0)
        }
    }

    /// The least of [`Kernel::bounds`]'s values, no more than `ceiling`;
    /// with `stop > 0` possibly some value at least that least and at most
    /// `stop` instead. `out` is scratch (its values are not the bounds).
    ///
    /// The SIMD paths count a block of guesses answer group by answer
    /// group, the answers of the largest classes first (by a sample of
    /// guesses), and leave a block as soon as none of its guesses can go
    /// below the least found (or the ceiling): once some answers are
    /// counted, a guess's bound `3n − 2w − p + e` is at least `3n − 2w −
    /// p' − r + e'`, where `p'` and `e'` are the classes and excess of the
    /// answers counted and `r` how many answers are left (each adds at most
    /// one class and no negative excess), and at least `e'` (as `3n − 2w −
    /// p ≥ 2n − 1`); a class already above capacity makes the guess
    /// unusable. The value is the same as without (tested against plain
    /// counting on every path).
    pub fn least_counted(
        &self,
        rows: &[&[Feedback]],
        len: usize,
        capacity: u64,
        stop: u16,
        ceiling: u16,
        out: &mut Vec<u16>,
    ) -> u16 {
        let n = rows.len();
        assert!((1..=MAX_SET).contains(&n));
        assert!(rows.iter().all(|r| r.len() >= len));
        out.clear();
        out.resize(len, 0);
        let cap = capacity.min(255) as u8;
        let answers = if cfg!(target_arch = "x86_64") && self.path != KernelPath::Scalar {
            self.answers_by_size(rows, len)
        } else {
            Vec::new()
        };
        let ceil = Some(ceiling);
        let (least, done) = self.count_simd(rows, &answers, len, cap, stop, ceil, out);
        if done > 0 && stop > 0 && least <= stop {
            return least;
        }
        self.bounds_scalar(rows, done, len, cap, out);
        let least = least
            .min(out[done..].iter().copied().min().unwrap_or(NONE))
            .min(ceiling);
        if cfg!(debug_assertions) && stop == 0 {
            let mut plain = vec![0u16; len];
            self.bounds_scalar(rows, 0, len, cap, &mut plain);
            let expected = plain.into_iter().min().unwrap_or(NONE).min(ceiling);
            assert_eq!(least, expected, "kernel path {} pruned", self.path);
        }
        least
    }

    /// The non-winning answers, those of the most secrets first over a
    /// sample of the guesses `0..len` (up to 64, spread evenly): the order
    /// in which [`Kernel::least_counted`] counts them, so that the excess
    /// of the largest classes is known early.
    fn answers_by_size(&self, rows: &[&[Feedback]], len: usize) -> Vec<u8> {
        let mut counts = [0u32; 256];
        let step = len.div_ceil(64).max(1);
        for g in (0..len).step_by(step) {
            for r in rows {
                counts[usize::from(r[g].0)] += 1;
            }
        }
        let mut answers = self.answers.clone();
        answers.sort_by_key(|&a| (std::cmp::Reverse(counts[usize::from(a)]), a));
        answers
    }

    /// The bound of every guess `g < len` on `set` (whose rows are `rows`)
    /// in `out`, as [`Kernel::bounds`] gives them with no early stop:
    /// from the answer masks when they are the bounds themselves (no class
    /// can pass the first threshold nor the capacity), else by counting.
    ///
    /// `dense`, if given, holds the same rows in a [`DenseTable`]'s codes:
    /// the masks then read those (the same values, fewer instructions).
    pub fn every_bound(
        &self,
        rows: &[&[Feedback]],
        dense: Option<&[&[u8]]>,
        set: &[Code],
        len: usize,
        capacity: u64,
        out: &mut Vec<u16>,
    ) {
        let n = rows.len();
        if self.masks_apply(n, capacity) && self.excess_small[n] == 0 {
            assert!(rows.iter().all(|r| r.len() >= len));
            out.resize(len, 0);
            self.mask_values(rows, dense, set, len, 0, out);
        } else if self.wide_apply(n, capacity) {
            assert!(rows.iter().all(|r| r.len() >= len));
            out.resize(len, 0);
            self.wide_values(rows, len, 0, out);
        } else {
            self.bounds(rows, len, capacity, 0, out);
        }
    }

    /// Whether the answers of a set of `n` secrets whose classes may hold
    /// `capacity` secrets are gathered as 256-bit masks
    /// ([`Kernel::wide_values`]): answers that do not fit the 32-bit masks
    /// (Wordle's 243), no class able to overflow, and no class able to
    /// pass the first threshold (`x(n) = 0`: for Wordle's lists, 237
    /// non-winning answers, every set of at most 238 secrets), so that the mask value is the bound itself.
    pub fn wide_apply(&self, n: usize, capacity: u64) -> bool {
        !self.masks_fit && (1..=self.wide_free).contains(&n) && capacity >= n as u64
    }

    /// Whether [`Kernel::least`] takes its cheaper road for a set of `n`
    /// secrets whose classes may hold `capacity` secrets.
    pub fn masks_apply(&self, n: usize, capacity: u64) -> bool {
        self.masks_fit && (1..=MASK_MAX).contains(&n) && capacity >= n as u64
    }

    /// The least bound of every guess `g < len` on `set`, whose rows are
    /// `rows`, as [`Kernel::bounds`] returns it (the least of its values,
    /// `NONE` when no guess is usable), but no more than `ceiling`; with
    /// `stop > 0` possibly some value at least that least and at most
    /// `stop` instead. `out` is scratch space.
    ///
    /// Sets of at most [`MASK_MAX`] secrets that no class can overflow
    /// ([`Kernel::masks_apply`]) take a cheaper road: each guess's answers
    /// are gathered as a bit mask (a table lookup and an `or` per secret
    /// and 32 guesses, where counting classes takes a compare and an add
    /// per answer), which gives `m_g = 3n − 2w − p`, the bound less its
    /// excess `e ≥ 0`. When no class can pass the first threshold (`x(n) =
    /// 0`) that is the bound itself; otherwise guesses are counted exactly
    /// in the order of `m_g` until the least bound found is at most the
    /// next `m_g` (or the ceiling). The value is the same (tested against
    /// plain counting on every path). `dense`: as for
    /// [`Kernel::every_bound`].
    #[allow(clippy::too_many_arguments)]
    pub fn least(
        &self,
        rows: &[&[Feedback]],
        dense: Option<&[&[u8]]>,
        set: &[Code],
        len: usize,
        capacity: u64,
        stop: u16,
        ceiling: u16,
        out: &mut Vec<u16>,
    ) -> u16 {
        let n = rows.len();
        if !self.masks_apply(n, capacity) {
            if self.wide_apply(n, capacity) {
                assert!(rows.iter().all(|r| r.len() >= len));
                out.resize(len, 0);
                return self.wide_values(rows, len, stop, out).min(ceiling);
            }
            return self.least_counted(rows, len, capacity, stop, ceiling, out);
        }
        assert!(rows.iter().all(|r| r.len() >= len));
        // Every value is written below (no need to clear the buffer).
        out.resize(len, 0);
        debug_assert_eq!(set.len(), n);
        let exact = self.excess_small[n] == 0;
        let least = self.mask_values(rows, dense, set, len, if exact { stop } else { 0 }, out);
        if least == NONE || exact || least >= ceiling {
            return least.min(ceiling);
        }
        // Guesses by mask value, level by level, counted exactly until the
        // least bound found is at most the next level (every bound is at
        // least its mask value). Rarely more than a level or two: the
        // guesses of most answers have small classes, hence no excess.
        let mut best = NONE;
        let mut level = least;
        while level < best && level < ceiling {
            if level - least >= WINDOW {
                return self.least_counted(rows, len, capacity, stop, ceiling.min(best), out);
            }
            for (g, &m) in out.iter().enumerate() {
                if m == level {
                    best = best.min(self.exact(rows, g));
                    if best == level {
                        return best;
                    }
                }
            }
            if stop > 0 && best <= stop {
                return best;
            }
            level += 1;
        }
        best.min(ceiling)
    }

    /// `m_g = 3n − 2w − p` of every guess in `out` (`NONE` for a useless
    /// guess: one class and no win), from the answers' bit masks; returns
    /// the least, or with `stop > 0` possibly a value at least the least
    /// and at most `stop` (`out` then incomplete). Needs `masks_fit` and
    /// `n <= MASK_MAX`.
    fn mask_values(
        &self,
        rows: &[&[Feedback]],
        dense: Option<&[&[u8]]>,
        set: &[Code],
        len: usize,
        stop: u16,
        out: &mut [u16],
    ) -> u16 {
        #[cfg(target_arch = "x86_64")]
        if let Some(dense) = dense.filter(|_| self.path != KernelPath::Scalar && len >= 32) {
            debug_assert!(dense.len() == rows.len() && dense.iter().all(|r| r.len() >= len));
            let ptrs: Vec<*const u8> = dense.iter().map(|r| r.as_ptr()).collect();
            // SAFETY: as below; the dense rows hold at least `len` bytes.
            let least = unsafe { self.mask_values_avx2(&ptrs, true, set, len, stop, out) };
            if cfg!(debug_assertions) && (stop == 0 || least > stop) {
                let mut plain = vec![0u16; len];
                let want = self.mask_values(rows, None, set, len, 0, &mut plain);
                assert_eq!((least, &out[..len]), (want, &plain[..]), "dense masks");
            }
            return least;
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = dense; // Only the SIMD paths read the dense codes.
        #[cfg(target_arch = "x86_64")]
        if self.path != KernelPath::Scalar && len >= 32 {
            let ptrs: Vec<*const u8> = rows.iter().map(|r| r.as_ptr() as *const u8).collect();
            // SAFETY: the AVX-512 path implies AVX2 (checked when the
            // kernel was made); every row holds at least `len` bytes and
            // only the first `len` are read.
            return unsafe { self.mask_values_avx2(&ptrs, false, set, len, stop, out) };
        }
        let _ = stop; // Plain masks do not stop early.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = set; // The scalar masks hold the win.
        self.mask_values_scalar(rows, len, out)
    }

    /// The most non-winning answers any guess `g < len` gives on the
    /// secrets whose rows are `rows` (`dense` their dense codes if the
    /// search has them), of any number: what [`NodeAnswers::most_answers`]
    /// tells of a node too large for its answers. `None` where the answer
    /// counts do not apply (the scalar path, answers that do not fit the
    /// masks, fewer than 32 guesses).
    pub fn most_answers(
        &self,
        rows: &[&[Feedback]],
        dense: Option<&[&[u8]]>,
        len: usize,
    ) -> Option<u8> {
        if self.path == KernelPath::Scalar || !self.masks_fit || len < 32 || rows.is_empty() {
            return None;
        }
        let (_, answers) = self.answers_per_guess(rows, dense, len);
        answers.iter().copied().max()
    }

    /// The rows as bytes (the dense codes where given) and how many
    /// non-winning answers each guess `g < len` gives on them. Needs a
    /// SIMD path, answers that fit the masks and `len >= 32`.
    fn answers_per_guess<'t>(
        &self,
        rows: &[&'t [Feedback]],
        dense: Option<&[&'t [u8]]>,
        len: usize,
    ) -> (Vec<&'t [u8]>, Vec<u8>) {
        let bytes: Vec<&'t [u8]> = match dense {
            Some(d) => d.to_vec(),
            // SAFETY: `Feedback` is `repr(transparent)` over a `u8`.
            None => rows
                .iter()
                .map(|r| unsafe { std::slice::from_raw_parts(r.as_ptr() as *const u8, r.len()) })
                .collect(),
        };
        assert!(bytes.len() == rows.len() && bytes.iter().all(|r| r.len() >= len));
        let mut answers = vec![0u8; len];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SIMD path implies AVX2 (checked when the kernel was
        // made); every row holds at least `len >= 32` bytes.
        unsafe {
            self.answer_counts_avx2(&bytes, dense.is_some(), len, &mut answers)
        };
        (bytes, answers)
    }
}
