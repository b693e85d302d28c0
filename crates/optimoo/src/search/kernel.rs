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

use std::str::FromStr;

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
    /// Each answer's code in a [`DenseTable`]: the `i`-th non-winning
    /// answer `i`, the win and impossible answers [`DENSE_WIN`].
    dense_code: [u8; 256],
}

/// A node's secrets' answers to every guess, the guesses put in order of
/// how many non-winning answers each gives on the node's set (most
/// first), for the class bounds of the classes of the node's guesses
/// ([`Kernel::least_within`]). A class `C` of the node's set `S` gets at
/// most as many answers from a guess as `S` does, so once the guesses left
/// give too few answers on `S` to go below the least found, the scan of
/// `C` stops. The answers are gathered block by block of 32 guesses, as
/// far as some class's scan needs them.
///
/// Invariants: `order` holds every guess once, by (answers on `S`
/// decreasing, code), then copies of its last guess up to a multiple of
/// 32; `block_answers[b]` is the answers on `S` of `order[32 b]`, the most
/// of its block; `cells` holds `built` blocks, block `b` the codes (dense
/// or packed, as `dense` says) of secret `i`'s answers to `order[32 b ..
/// 32 b + 32]` at `32 (b |S| + i)`.
#[derive(Debug)]
pub struct NodeAnswers<'t> {
    set: Vec<Code>,
    rows: Vec<&'t [u8]>,
    /// The answers among the node's own secrets, `n × n`: `inner[i·n +
    /// j] = rows[i][set[j]]` (the candidates' counts of a class read
    /// these, in the caches, where the rows at the secrets' places miss).
    inner: Vec<u8>,
    dense: bool,
    order: Vec<u16>,
    block_answers: Vec<u8>,
    cells: Vec<u8>,
    built: usize,
}

impl NodeAnswers<'_> {
    /// The places in the node's set of the secrets of `set`, a sorted
    /// subset of it (panics otherwise): what [`Kernel::least_within`]
    /// reads (the search's classes have them from their split).
    #[cfg(test)]
    pub fn places(&self, set: &[Code]) -> Vec<u32> {
        let mut at = Vec::with_capacity(set.len());
        let mut i = 0;
        for &c in set {
            while self.set[i] != c {
                i += 1;
            }
            at.push(i as u32);
        }
        at
    }

    /// The most non-winning answers any guess gives on the node's set:
    /// no guess splits a subset of it into more classes.
    pub fn most_answers(&self) -> u8 {
        self.block_answers.first().copied().unwrap_or(u8::MAX)
    }

    /// Gathers blocks up to `b` (included).
    fn build_to(&mut self, b: usize) {
        let n = self.set.len();
        while self.built <= b {
            let cols = &self.order[32 * self.built..32 * self.built + 32];
            for row in &self.rows {
                self.cells.extend(cols.iter().map(|&g| row[usize::from(g)]));
            }
            self.built += 1;
        }
        debug_assert_eq!(self.cells.len(), self.built * 32 * n);
    }
}

/// The answers of a game recoded for [`Kernel::least`]'s masks: the
/// `i`-th non-winning answer as `i` (below 16), the win as [`DENSE_WIN`],
/// so that two byte lookups of the code itself give its bit (where the
/// packed answers, up to 30, take an add, an exclusive or and three
/// lookups). Symmetric, as the feedback table is; `N²` bytes.
///
/// Invariant: `row(s)[g]` is `dense_code` of the answer of `g` to `s`.
#[derive(Debug, Clone)]
pub struct DenseTable {
    len: usize,
    cells: Vec<u8>,
}

impl DenseTable {
    /// The codes of every guess's answer to secret `s` (the table being
    /// symmetric: of `s`'s answer to every secret).
    #[inline]
    pub fn row(&self, s: Code) -> &[u8] {
        &self.cells[s.index() * self.len..(s.index() + 1) * self.len]
    }
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
        kernel.wide_from = (0..=MAX_SET)
            .find(|&n| kernel.excess(n) >= 255)
            .unwrap_or(MAX_SET + 1);
        Ok(kernel)
    }

    /// The code path this kernel runs.
    #[cfg(test)]
    pub fn path(&self) -> KernelPath {
        self.path
    }

    /// Whether searches of a game of `len` codes take the dense table
    /// ([`Kernel::dense_table`]): a SIMD path, answers that fit the masks
    /// and at most 16 non-winning ones (their bits in two bytes), and at
    /// most [`DENSE_MAX_CODES`] codes. The scalar path never does: it is
    /// the plain counterpart the tests compare with.
    pub fn dense_applies(&self, len: usize) -> bool {
        self.path != KernelPath::Scalar
            && Kernel::dense_fits(self.masks_fit, self.answers.len(), len)
    }

    /// [`Kernel::dense_applies`] but for the path, for the memory
    /// estimate: answers that fit masks, at most 16 non-winning ones, at
    /// most [`DENSE_MAX_CODES`] codes.
    pub fn dense_fits(masks_fit: bool, answers: usize, len: usize) -> bool {
        masks_fit && answers <= 16 && len <= DENSE_MAX_CODES
    }

    /// Whether the answers of a game fit the masks (every answer below 32,
    /// at most eight of them 16 or more), from its possible answers and
    /// win; with their count, for [`Kernel::dense_fits`].
    pub fn masks_fit_of(possible: impl Iterator<Item = Feedback>, win: Feedback) -> (bool, usize) {
        let answers: Vec<u8> = possible.filter(|&f| f != win).map(|f| f.0).collect();
        let high = answers.iter().filter(|&&a| a >= 16).count();
        let fit = win.0 < 32 && answers.iter().all(|&a| a < 32) && high <= 8;
        (fit, answers.len())
    }

    /// The dense table of a game of `len` codes from its full feedback
    /// table (`rows(c)`: the row of code `c`), or `None` when it does not
    /// apply ([`Kernel::dense_applies`]).
    pub fn dense_table<'t>(
        &self,
        len: usize,
        rows: impl Fn(Code) -> &'t [Feedback],
    ) -> Option<DenseTable> {
        if !self.dense_applies(len) {
            return None;
        }
        let mut cells = Vec::with_capacity(len * len);
        for c in 0..len {
            let row = rows(Code(c as u16));
            cells.extend(row[..len].iter().map(|f| self.dense_code[usize::from(f.0)]));
        }
        Some(DenseTable { len, cells })
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
            // SAFETY: the path was checked against the CPU when the kernel
            // was made; every row holds at least `len >= to` bytes and only
            // the first `to` are read (AVX-512: masked).
            let least = unsafe {
                match (self.path, wide) {
                    (KernelPath::Avx512, true) => {
                        self.bounds_avx512::<true>(rows, answers, to, cap, stop, ceiling, out)
                    }
                    (KernelPath::Avx512, false) => {
                        self.bounds_avx512::<false>(rows, answers, to, cap, stop, ceiling, out)
                    }
                    (_, true) => {
                        self.bounds_avx2::<true>(rows, answers, to, cap, stop, ceiling, out)
                    }
                    (_, false) => {
                        self.bounds_avx2::<false>(rows, answers, to, cap, stop, ceiling, out)
                    }
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
        } else {
            self.bounds(rows, len, capacity, 0, out);
        }
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
            // SAFETY: as below; the dense rows hold at least `len` bytes.
            let least = unsafe { self.mask_values_dense_avx2(dense, set, len, stop, out) };
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
            // SAFETY: the AVX-512 path implies AVX2 (checked when the
            // kernel was made); every row holds at least `len` bytes and
            // only the first `len` are read.
            return unsafe { self.mask_values_avx2(rows, set, len, stop, out) };
        }
        let _ = stop; // Plain masks do not stop early.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = set; // The scalar masks hold the win.
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

    /// [`Kernel::mask_values`], 32 guesses at a time (`len >= 32`; the last
    /// block overlaps the one before, so that every read is in the row).
    /// Each guess's answers are gathered as bits in byte lanes by table
    /// lookups (`lut_low`, `lut_high`): `t = a + 0x70` has its top bit
    /// clear exactly when `a < 16`, and its low four bits are `a mod 16`,
    /// so one lookup of `t` finds the bit of an answer below 16 and one of
    /// `t ^ 0x80` that of an answer from 16 to 31 (a lookup of a byte with
    /// its top bit set gives 0). The win is left out, and candidates (the
    /// guesses in `set`) are corrected afterwards.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn mask_values_avx2(
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
    #[cfg(target_arch = "x86_64")]
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
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn mask_values_dense_avx2(
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

    /// The answers of `set` (whose rows are `rows`, and `dense` their
    /// dense codes if the search has them) ordered for
    /// [`Kernel::least_within`], or `None` where it does not apply: the
    /// scalar path, answers that do not fit the masks, fewer than 32 guesses
    /// or a set of more than [`MAX_SET`] secrets.
    pub fn node_answers<'t>(
        &self,
        rows: &[&'t [Feedback]],
        dense: Option<&[&'t [u8]]>,
        set: &[Code],
        len: usize,
    ) -> Option<NodeAnswers<'t>> {
        if self.path == KernelPath::Scalar
            || !self.masks_fit
            || len < 32
            || !(1..=MAX_SET).contains(&set.len())
        {
            return None;
        }
        assert!(rows.len() == set.len());
        let (bytes, answers) = self.answers_per_guess(rows, dense, len);
        // Counting sort: most answers first, then by code.
        let mut start = [0usize; 34];
        for &a in &answers {
            start[32 - usize::from(a.min(32)) + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut order = vec![0u16; len.div_ceil(32) * 32];
        for (g, &a) in answers.iter().enumerate() {
            let k = 32 - usize::from(a.min(32));
            order[start[k]] = g as u16;
            start[k] += 1;
        }
        let last = order[len - 1];
        order[len..].fill(last);
        let block_answers = order
            .iter()
            .step_by(32)
            .map(|&g| answers[usize::from(g)])
            .collect();
        let inner = bytes
            .iter()
            .flat_map(|row| set.iter().map(move |c| row[c.index()]))
            .collect();
        Some(NodeAnswers {
            set: set.to_vec(),
            rows: bytes,
            inner,
            dense: dense.is_some(),
            order,
            block_answers,
            cells: Vec::new(),
            built: 0,
        })
    }

    /// [`Kernel::least`] for a subset `set` of `node`'s set (its rows
    /// `rows`; both sorted), with the same value: the least of the
    /// guesses' bounds, at most `ceiling`, or with `stop > 0` possibly a
    /// value at least that least and at most `stop`. `vals` is scratch.
    ///
    /// Needs [`Kernel::masks_apply`]. A guess that gives `P` answers on the
    /// node's set gives at most `min(P, n − w)` on `set` (`n` secrets, `w`
    /// whether it is one of them), so its value `3n − 2w − p + e` is at
    /// least `3n − 2w − min(P, n − w)`. The candidates (at most `n`) are
    /// valued first, exactly; the other guesses are scanned in `node`'s
    /// order, and the scan stops at the first block whose most answers
    /// give `3n − min(P, n)` at least the least found (when the masks are
    /// the bounds) or at least `ceiling` (otherwise): no guess after it can
    /// be below. Where the masks are not the bounds, the guesses scanned
    /// and the candidates are counted by mask value as [`Kernel::least`]
    /// does.
    #[allow(clippy::too_many_arguments)]
    pub fn least_within(
        &self,
        node: &mut NodeAnswers<'_>,
        at: &[u32],
        rows: &[&[Feedback]],
        set: &[Code],
        len: usize,
        capacity: u64,
        stop: u16,
        ceiling: u16,
        vals: &mut Vec<u16>,
    ) -> u16 {
        let n = set.len();
        assert!(self.masks_apply(n, capacity) && rows.len() == n && at.len() == n);
        debug_assert!(set.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(at.iter().zip(set).all(|(&i, &c)| node.set[i as usize] == c));
        let n3 = 3 * n as u16;
        let exact = self.excess_small[n] == 0;
        // The candidates' bounds, exactly (w = 1, the win left out), each
        // from its own row (the node's: the table is symmetric) read at
        // the class's secrets. The least is a bound some guess has.
        let mut best = NONE;
        let mut counts = [0u8; 32];
        let ns = node.set.len();
        // No class of a candidate exceeds n − 1 secrets: up to the excess'
        // free sizes the bound needs only how many answers the candidate
        // gives, one bit each (no counts stored and read back).
        let no_excess = n - 1 <= self.excess_free;
        for &i in at {
            let i = i as usize;
            let row = &node.inner[i * ns..(i + 1) * ns];
            if no_excess {
                let mut bits = 0u32;
                for &j in at {
                    let v = row[j as usize];
                    bits |= u32::from(v < DENSE_WIN) << (v & 31);
                }
                if !node.dense {
                    bits &= !(1 << self.win);
                }
                best = best.min(n3 - 2 - bits.count_ones() as u16);
                continue;
            }
            for &j in at {
                // Packed answers are below 32; the dense win is DENSE_WIN.
                let v = row[j as usize];
                counts[usize::from(v & 31)] += u8::from(v < DENSE_WIN);
            }
            if !node.dense {
                counts[usize::from(self.win)] = 0;
            }
            // Branch-free passes over the 32 counts (vectorized); the
            // excess only where a class is large enough to have one.
            let p = counts.iter().map(|&c| u16::from(c > 0)).sum::<u16>();
            let most = counts.iter().copied().max().unwrap_or(0);
            let e = if usize::from(most) <= self.excess_free {
                0
            } else {
                counts
                    .iter()
                    .map(|&c| self.excess_small[usize::from(c)])
                    .sum()
            };
            counts = [0; 32];
            best = best.min(n3 - 2 - p + e);
        }
        if stop > 0 && best <= stop {
            return best;
        }
        // The other guesses by blocks in the node's order, until a block's
        // most answers cannot go below the least bound found (or the
        // ceiling). Values are masks: where they are the bounds, each
        // block's least is one.
        vals.clear();
        let blocks = node.block_answers.len();
        let mut scanned = 0;
        let mut least = best;
        while scanned < blocks {
            let most = u16::from(node.block_answers[scanned]).min(n as u16);
            if n3 - most >= best.min(ceiling) {
                break;
            }
            node.build_to(scanned);
            vals.resize(vals.len() + 32, 0);
            let out = &mut vals[32 * scanned..];
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a SIMD path (`node_answers` is `None` otherwise);
            // block `scanned` is built, 32 bytes per secret of the node.
            let block = unsafe { self.node_block_avx2(node, at, scanned, out) };
            #[cfg(not(target_arch = "x86_64"))]
            let block = unreachable!("node answers need a SIMD path");
            least = least.min(block);
            if exact {
                best = best.min(block);
            }
            scanned += 1;
            if stop > 0 && best <= stop {
                return best;
            }
        }
        if exact || least >= best.min(ceiling) {
            return best.min(ceiling);
        }
        // As in `least`: by mask value, level by level, counted exactly
        // (a guess's bound is at least its mask value; the candidates'
        // bounds are known already).
        let mut level = least;
        while level < best && level < ceiling {
            if level - least >= WINDOW {
                return self.least_counted(rows, len, capacity, stop, ceiling.min(best), vals);
            }
            for (&m, &g) in vals.iter().zip(&node.order) {
                if m == level {
                    best = best.min(self.exact(rows, usize::from(g)));
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

    /// How many non-winning answers each guess `g < len` gives on the
    /// secrets whose rows are `rows` (dense codes if `dense`, else packed
    /// answers), in `out` (`len >= 32`; the last block overlaps).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn answer_counts_avx2(&self, rows: &[&[u8]], dense: bool, len: usize, out: &mut [u8]) {
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
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn node_block_avx2(
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
    #[cfg(target_arch = "x86_64")]
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

    /// The bound of guess `g` by counting its classes (`n <= MASK_MAX`, no
    /// class above capacity: [`Kernel::least`]).
    fn exact(&self, rows: &[&[Feedback]], g: usize) -> u16 {
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
    fn debug_check(&self, rows: &[&[Feedback]], from: usize, to: usize, cap: u8, out: &[u16]) {
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
    fn bounds_scalar(
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

    /// What both SIMD paths start from: each row's first byte, and the
    /// answers in groups of `G`, padded with a value no cell holds (0xFF:
    /// answers are at most 15·16).
    #[cfg(target_arch = "x86_64")]
    fn prepare<const G: usize>(
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

    /// Guesses `0..len`, 64 at a time. `WIDE`: the excess `e` in `u16`
    /// lanes (needed when `x(n) ≥ 255`), else in `u8` lanes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512bw,avx512f,avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn bounds_avx512<const WIDE: bool>(
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

    /// Guesses `0..len` (a multiple of 32), 32 at a time. `WIDE`: as for
    /// AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn bounds_avx2<const WIDE: bool>(
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
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
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

/// The mask values in `out` of the candidates `set` (of `n` secrets)
/// corrected, and the least value: the masks leave the win out, and the
/// win is one of a candidate's answers (`w = 1`), so a candidate is never
/// useless and its value is 2 less (`3n − 3` where its one other answer
/// made it `NONE`). `least` is the least before the correction.
#[cfg(target_arch = "x86_64")]
fn with_candidates(mut least: u16, set: &[Code], n: usize, out: &mut [u16]) -> u16 {
    let n3 = 3 * n as u16;
    for s in set {
        let m = &mut out[s.index()];
        *m = if *m == NONE { n3 - 3 } else { *m - 2 };
        least = least.min(*m);
    }
    least
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
    use proptest::prelude::*;

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
        let mut total = bounds.own(set.len(), d);
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

    /// Every path this CPU has, for `game`.
    fn kernels(game: &Game) -> Vec<Kernel> {
        let branching = game.possible_feedbacks().count() as u64 - 1;
        KernelPath::available()
            .into_iter()
            .map(|p| Kernel::new(game.possible_feedbacks(), game.win(), branching, p).unwrap())
            .collect()
    }

    /// Every path's bounds of every guess on `set` within `d` guesses equal
    /// the reference; stopping early finds a bound at most `stop`.
    fn check_set(game: &Game, set: &[Code], depths: &[usize]) {
        let table = game.table().unwrap();
        let branching = game.possible_feedbacks().count() - 1;
        let bounds = Bounds::new(Cost::Total, branching, game.len());
        let rows: Vec<&[Feedback]> = set.iter().map(|&s| table.row(s)).collect();
        let mut out = Vec::new();
        for &d in depths {
            let expected: Vec<u16> = game
                .codes()
                .all()
                .map(|g| reference(game, &bounds, set, d, g))
                .collect();
            for kernel in kernels(game) {
                let dense_table = kernel.dense_table(game.len(), |c| table.row(c));
                let dense_rows: Option<Vec<&[u8]>> = dense_table
                    .as_ref()
                    .map(|t| set.iter().map(|&s| t.row(s)).collect());
                let dense = dense_rows.as_deref();
                let least = kernel.bounds(&rows, game.len(), bounds.capacity(d - 1), 0, &mut out);
                assert_eq!(
                    out,
                    expected,
                    "{} path {} set of {} d {d}",
                    game.rules(),
                    kernel.path(),
                    set.len()
                );
                assert_eq!(least, expected.iter().copied().min().unwrap());
                // With the dense codes (where the path takes them) and
                // without: the same values.
                for dense in [None, dense] {
                    let name = (game.rules(), kernel.path(), dense.is_some());
                    let mut every = vec![7; 3];
                    let cap = bounds.capacity(d - 1);
                    kernel.every_bound(&rows, dense, set, game.len(), cap, &mut every);
                    assert_eq!(every, expected, "every_bound: {name:?}");
                    // The least bound alone (by answer masks on small sets).
                    let alone = kernel.least(&rows, dense, set, game.len(), cap, 0, NONE, &mut out);
                    assert_eq!(alone, least, "least: {name:?} set of {} d {d}", set.len());
                    // Under a ceiling: the least, or the ceiling (blocks
                    // left early below any of them: `least_counted`).
                    for ceiling in [
                        least.saturating_sub(1),
                        least,
                        least.saturating_add(2),
                        least.saturating_add(40),
                    ] {
                        let capped =
                            kernel.least(&rows, dense, set, game.len(), cap, 0, ceiling, &mut out);
                        assert_eq!(capped, least.min(ceiling), "{name:?}");
                    }
                    let stop = least.saturating_add(3);
                    if stop < NONE {
                        let mut part = Vec::new();
                        let found = kernel.bounds(&rows, game.len(), cap, stop, &mut part);
                        assert!(found <= stop && found >= least);
                        for stop in [least, stop] {
                            let found = kernel.least(
                                &rows,
                                dense,
                                set,
                                game.len(),
                                cap,
                                stop,
                                NONE,
                                &mut part,
                            );
                            assert!(found <= stop && found >= least, "{name:?}");
                        }
                    }
                }
            }
        }
    }

    /// [`Kernel::least_within`] on subsets `subs` of `node_set`, one node's
    /// answers shared by them all (as a node's guesses share them), with
    /// the dense codes and without, equals the least of the reference
    /// bounds, under every ceiling and stop tried.
    fn check_within(game: &Game, node_set: &[Code], subs: &[Vec<Code>], depths: &[usize]) {
        let table = game.table().unwrap();
        let branching = game.possible_feedbacks().count() - 1;
        let bounds = Bounds::new(Cost::Total, branching, game.len());
        let node_rows: Vec<&[Feedback]> = node_set.iter().map(|&s| table.row(s)).collect();
        for kernel in kernels(game) {
            let dense_table = kernel.dense_table(game.len(), |c| table.row(c));
            let dense_rows: Option<Vec<&[u8]>> = dense_table
                .as_ref()
                .map(|t| node_set.iter().map(|&s| t.row(s)).collect());
            for dense in [None, dense_rows.as_deref()] {
                let node = kernel.node_answers(&node_rows, dense, node_set, game.len());
                // Every game here has answers that fit the masks.
                let applies = kernel.path() != KernelPath::Scalar && game.len() >= 32;
                assert_eq!(node.is_some(), applies, "{}", game.rules());
                let Some(mut node) = node else {
                    continue;
                };
                let mut vals = Vec::new();
                for sub in subs {
                    let rows: Vec<&[Feedback]> = sub.iter().map(|&s| table.row(s)).collect();
                    for &d in depths {
                        let cap = bounds.capacity(d - 1);
                        if !kernel.masks_apply(sub.len(), cap) {
                            continue;
                        }
                        let least = game
                            .codes()
                            .all()
                            .map(|g| reference(game, &bounds, sub, d, g))
                            .min()
                            .unwrap();
                        let name = (game.rules(), kernel.path(), dense.is_some(), sub.len(), d);
                        let at = node.places(sub);
                        let mut within = |stop, ceiling| {
                            kernel.least_within(
                                &mut node,
                                &at,
                                &rows,
                                sub,
                                game.len(),
                                cap,
                                stop,
                                ceiling,
                                &mut vals,
                            )
                        };
                        assert_eq!(within(0, NONE), least, "{name:?}");
                        for ceiling in [least.saturating_sub(1), least, least.saturating_add(2)] {
                            assert_eq!(within(0, ceiling), least.min(ceiling), "{name:?}");
                        }
                        for stop in [least, least.saturating_add(3)] {
                            if stop < NONE {
                                let found = within(stop, NONE);
                                assert!(found <= stop && found >= least, "{name:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Classes of a node's guesses and random subsets, with one node's
    /// answers shared: games of five positions (where the masks skip most
    /// guesses), four, two positions and many symbols (few answers, large
    /// excess) and one position.
    #[test]
    fn least_within_a_node_equals_plain_counting() {
        for rules in [
            "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:3x3", "moo:3x8", "mm:2x16", "moo:2x16",
            "mm:1x36",
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let all: Vec<Code> = game.codes().all().collect();
            let mut rng = crate::rng::SplitMix64::new(11);
            let first = Code(rng.below(game.len()) as u16);
            for (_, class) in crate::model::partition::split(&game, first, &all) {
                if class.len() > MAX_SET || class.len() < 3 {
                    continue;
                }
                // The classes of a few guesses on the node's set, and
                // random subsets of it.
                let mut subs = Vec::new();
                for _ in 0..4 {
                    let second = Code(rng.below(game.len()) as u16);
                    for (_, sub) in crate::model::partition::split(&game, second, &class) {
                        if sub.len() <= MASK_MAX {
                            subs.push(sub);
                        }
                    }
                }
                for _ in 0..3 {
                    let keep = 1 + rng.below(4);
                    let sub: Vec<Code> = class
                        .iter()
                        .copied()
                        .filter(|_| rng.below(keep) == 0)
                        .take(MASK_MAX)
                        .collect();
                    if !sub.is_empty() {
                        subs.push(sub);
                    }
                }
                check_within(&game, &class, &subs, &[2, 3, 4, 9]);
            }
        }
    }

    /// The most non-winning answers any guess gives on a set, counted by
    /// the kernel (sets of any size) and by a node's answers (sets of at
    /// most MAX_SET), equal plain counting: the classes of a first guess,
    /// whole sets above MAX_SET included, on games of five positions to
    /// one, with both answer codes.
    #[test]
    fn most_answers_equal_plain_counting() {
        for rules in [
            "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:2x16", "mm:1x36",
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let table = game.table().unwrap();
            let all: Vec<Code> = game.codes().all().collect();
            let mut sets = vec![all.clone()];
            let mut rng = crate::rng::SplitMix64::new(5);
            for _ in 0..2 {
                let first = Code(rng.below(game.len()) as u16);
                sets.extend(
                    crate::model::partition::split(&game, first, &all)
                        .into_iter()
                        .map(|(_, c)| c),
                );
            }
            for set in &sets {
                let plain = game
                    .codes()
                    .all()
                    .map(|g| {
                        crate::model::partition::split(&game, g, set)
                            .iter()
                            .filter(|(f, _)| *f != game.win())
                            .count()
                    })
                    .max()
                    .unwrap();
                let rows: Vec<&[Feedback]> = set.iter().map(|&s| table.row(s)).collect();
                for kernel in kernels(&game) {
                    let dense_table = kernel.dense_table(game.len(), |c| table.row(c));
                    let dense_rows: Option<Vec<&[u8]>> = dense_table
                        .as_ref()
                        .map(|t| set.iter().map(|&s| t.row(s)).collect());
                    for dense in [None, dense_rows.as_deref()] {
                        let name = (game.rules(), kernel.path(), dense.is_some(), set.len());
                        let Some(most) = kernel.most_answers(&rows, dense, game.len()) else {
                            assert_eq!(kernel.path(), KernelPath::Scalar, "{name:?}");
                            continue;
                        };
                        assert_eq!(usize::from(most), plain, "{name:?}");
                        if let Some(node) = kernel.node_answers(&rows, dense, set, game.len()) {
                            assert_eq!(usize::from(node.most_answers()), plain, "{name:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn equals_plain_counting() {
        for rules in [
            "moo:4x10", "mm:4x6", "mm:5x4", "moo:3x5", "mm:2x3", "moo:5x7", "mm:5x5", "mm:2x16",
            "moo:2x12",
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let mut rng = crate::rng::SplitMix64::new(99);
            for trial in 0..20 {
                let size = 1 + rng.below(match trial % 3 {
                    0 => 255,
                    1 => MASK_MAX,
                    _ => 40,
                });
                let mut set: Vec<Code> = (0..size)
                    .map(|_| Code(rng.below(game.len()) as u16))
                    .collect();
                set.sort();
                set.dedup();
                check_set(&game, &set, &[2, 3, 4, 5, 9]);
            }
        }
    }

    /// Sets the search meets: the classes of two guesses in a row, on games
    /// of five positions (answers up to 30, the masks' limit) and four,
    /// where classes are clumped and counting them settles the least bound.
    #[test]
    fn classes_of_two_guesses_equal_plain_counting() {
        for rules in [
            "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:3x3", "moo:3x8",
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let all: Vec<Code> = game.codes().all().collect();
            let mut rng = crate::rng::SplitMix64::new(7);
            let first = Code(0);
            for (_, class) in crate::model::partition::split(&game, first, &all) {
                for _ in 0..3 {
                    let second = Code(rng.below(game.len()) as u16);
                    for (_, sub) in crate::model::partition::split(&game, second, &class) {
                        if sub.len() >= 3 && sub.len() <= 2 * MASK_MAX {
                            check_set(&game, &sub, &[3, 4, 9]);
                        }
                    }
                }
            }
        }
    }

    /// The sets of issue 16: few answers, so that one class's excess alone
    /// passes 255 (mm:2x16's root, moo:2x24's first classes), and the
    /// largest excess there is (one non-winning answer).
    #[test]
    fn excess_beyond_a_byte() {
        for (rules, d) in [
            ("mm:2x15", 30),
            ("mm:2x16", 30),
            ("moo:2x16", 9),
            ("mm:1x36", 36),
        ] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let set: Vec<Code> = game.codes().all().take(MAX_SET).collect();
            let kernel = &kernels(&game)[0];
            assert!(kernel.excess(set.len()) >= 255, "{rules}");
            check_set(&game, &set, &[d, 4]);
        }
    }

    /// Random sets of a sweep of games, sizes up to 255: the kernel's
    /// values on every path against plain counting and the level-filling
    /// table, whatever the excess (most of these sets pass 255).
    fn sweep_game() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "mm:2x9", "mm:2x16", "mm:2x20", "moo:2x18", "moo:2x24", "mm:3x7", "moo:3x9", "mm:1x30",
            "moo:4x7", "mm:4x5",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_sets_on_every_path(rules in sweep_game(), seed in any::<u64>(), size in 1usize..=255, d in 2usize..12) {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let mut rng = crate::rng::SplitMix64::new(seed);
            // Sets clumped on a few symbols give large classes.
            let clump = 1 + rng.below(3);
            let mut set: Vec<Code> = (0..size * 2)
                .map(|_| Code(rng.below(game.len().div_ceil(clump)) as u16))
                .collect();
            set.sort();
            set.dedup();
            set.truncate(size);
            check_set(&game, &set, &[d]);
        }
    }

    #[test]
    fn paths_by_name() {
        assert_eq!("scalar".parse::<KernelPath>(), Ok(KernelPath::Scalar));
        assert_eq!(" AVX2 ".parse::<KernelPath>(), Ok(KernelPath::Avx2));
        assert_eq!("avx512".parse::<KernelPath>(), Ok(KernelPath::Avx512));
        let err = "sse".parse::<KernelPath>().unwrap_err();
        assert!(err.to_string().contains("scalar, avx2 or avx512"), "{err}");
        assert!(KernelPath::available().contains(&KernelPath::Scalar));
        assert!(KernelPath::best().supported());
        for p in KernelPath::ALL {
            assert_eq!(p.check().is_ok(), p.supported());
            if !p.supported() {
                let msg = p.check().unwrap_err().to_string();
                assert!(msg.contains(p.name()) && msg.contains("scalar"), "{msg}");
            }
        }
    }
}
