//! The last guess's test in bits: the guesses that could still come last
//! (give distinct answers inside every class) kept as a bit set, 64
//! guesses a word, with the list of the words not yet empty.
//!
//! Narrowing by a pair of secrets clears the guesses that answer both
//! alike; it reads only the live words of the two secrets' answer rows, so
//! once few candidates are left (usually after a few pairs) a pair costs a
//! few cache lines. The byte-wise narrowing this replaces read each pair's
//! whole rows (`m` bytes each), and was 90 % of the static search's time
//! (docs/benchmarks.md, session 32).
//!
//! Invariants: bit `j` of word `w` stands for guess `64 w + j`; no bit
//! below `from` (the first guess allowed) or at or above `m` is ever set;
//! `live` lists, in increasing order, exactly the words that are not zero.
//! Words outside `live` may hold stale bits and are never read.

use super::classes::Partition;
use super::{Classes, Task};

/// Classes up to this size are read pair by pair in
/// [`Task::last_after`]; larger ones are sorted by answer first.
const SMALL_CLASS: usize = 8;

/// The candidates of one test; reused from call to call (no allocation).
pub(super) struct Alive {
    words: Vec<u64>,
    live: Vec<u32>,
}

impl Alive {
    /// Room for `m` guesses.
    pub(super) fn new(m: usize) -> Alive {
        let words = m.div_ceil(64);
        Alive {
            words: vec![0; words],
            live: Vec::with_capacity(words),
        }
    }

    /// Starts from the guesses `j` in `from..m` (`m` the rows' length)
    /// with `allowed[j] != 0` and `ra[j] != rb[j]`; whether any is left.
    pub(super) fn start(&mut self, from: usize, allowed: &[u8], ra: &[u8], rb: &[u8]) -> bool {
        let m = ra.len();
        debug_assert!(rb.len() == m && allowed.len() == m && self.words.len() * 64 >= m);
        self.live.clear();
        if from >= m {
            return false;
        }
        let first = from / 64;
        for w in first..m.div_ceil(64) {
            let mut bits = neq(ra, rb, w) & !eq_zero(allowed, w);
            if w == first {
                bits &= u64::MAX << (from % 64);
            }
            self.words[w] = bits;
            if bits != 0 {
                self.live.push(w as u32);
            }
        }
        !self.live.is_empty()
    }

    /// Starts from the words `word(w)` for `w` in `words` (the others
    /// empty); whether any guess is left.
    #[inline]
    pub(super) fn start_with(
        &mut self,
        words: std::ops::Range<usize>,
        mut word: impl FnMut(usize) -> u64,
    ) -> bool {
        debug_assert!(words.end <= self.words.len());
        self.live.clear();
        for w in words {
            let bits = word(w);
            self.words[w] = bits;
            if bits != 0 {
                self.live.push(w as u32);
            }
        }
        !self.live.is_empty()
    }

    /// Starts from the words `(w, bits)` given, in increasing `w` (the
    /// others empty); whether any guess is left.
    #[inline]
    pub(super) fn start_sparse(&mut self, words: impl Iterator<Item = (usize, u64)>) -> bool {
        self.live.clear();
        for (w, bits) in words {
            debug_assert!(self.live.last().is_none_or(|&l| (l as usize) < w));
            self.words[w] = bits;
            if bits != 0 {
                self.live.push(w as u32);
            }
        }
        !self.live.is_empty()
    }

    /// The candidates, in increasing order.
    #[cfg(test)]
    pub(super) fn candidates(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for &w in &self.live {
            let mut bits = self.words[w as usize];
            while bits != 0 {
                out.push(w as usize * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        out
    }

    /// Clears the guesses with `ra[j] == rb[j]`; whether any is left.
    #[inline]
    pub(super) fn narrow(&mut self, ra: &[u8], rb: &[u8]) -> bool {
        let mut keep = 0;
        for i in 0..self.live.len() {
            let w = self.live[i] as usize;
            let bits = self.words[w] & neq(ra, rb, w);
            self.words[w] = bits;
            if bits != 0 {
                self.live[keep] = w as u32;
                keep += 1;
            }
        }
        self.live.truncate(keep);
        keep > 0
    }

    /// The least guess left.
    pub(super) fn first(&self) -> Option<usize> {
        let &w = self.live.first()?;
        let w = w as usize;
        Some(w * 64 + self.words[w].trailing_zeros() as usize)
    }
}

/// The last guesses' tests of the search, on the bits.
impl Task<'_, '_> {
    /// The first guess from index `from` on that gives distinct answers
    /// inside every class: each pair of a class rules out the guesses that
    /// answer both alike, largest class first, until none is left.
    pub(super) fn last(&mut self, classes: &Classes, from: usize) -> Option<usize> {
        let ctx = self.ctx;
        let m = ctx.m;
        if from >= m || classes.class(0).len() > ctx.answers {
            return None;
        }
        let allowed = super::pairs::allowed_at(&self.allowed, self.chosen.len(), m);
        let alive = &mut self.alive;
        let row = |s: u16| &ctx.by_secret[s as usize * m..(s as usize + 1) * m];
        let mut started = false;
        for i in 0..classes.spans.len() {
            let class = classes.class(i);
            for (j, &a) in class.iter().enumerate() {
                for &b in &class[j + 1..] {
                    let any = if started {
                        alive.narrow(row(a), row(b))
                    } else {
                        started = true;
                        alive.start(from, allowed, row(a), row(b))
                    };
                    if !any {
                        return None;
                    }
                }
            }
        }
        if !started {
            return allowed[from..]
                .iter()
                .position(|&a| a != 0)
                .map(|j| from + j);
        }
        alive.first()
    }

    /// [`Task::last`] after guess `g`, without building its classes: the
    /// first guess after `g` that, with `g`, gives distinct answers inside
    /// every class. Only the pairs `g` leaves together count; a class that
    /// `g` leaves with more than `A` secrets together is a dead end as soon
    /// as its turn comes (the classes are read in order, and most calls
    /// end within the first one or two).
    pub(super) fn last_after(&mut self, classes: &Classes, g: usize) -> Option<usize> {
        self.last_after_in(&mut &*classes, g, Pool::After(g + 1))
    }

    /// [`Task::last_after`] with the last guess taken from `pool`.
    pub(super) fn last_after_in(
        &mut self,
        classes: &mut impl Partition,
        g: usize,
        pool: Pool,
    ) -> Option<usize> {
        let ctx = self.ctx;
        let m = ctx.m;
        // Set again only by a pair that ends this call.
        self.killer = None;
        if let Pool::After(from) = pool {
            if from >= m {
                return None;
            }
        }
        // The answers to `g` read from the secrets' rows, not from `g`'s:
        // the node's classes stay while its guesses `g` come in
        // increasing order, so a secret's answers to one `g` and the next
        // share a cache line, where `g`'s own row is a new one each time,
        // read at scattered places.
        let by = &ctx.by_secret;
        let answer = |s: u16| by[s as usize * m + g];
        let counts = &mut self.counts;
        let allowed = super::pairs::allowed_at(&self.allowed, self.chosen.len(), m);
        let alive = &mut self.alive;
        let grouped = &mut self.grouped;
        let killer = &mut self.killer;
        let keys = ctx.keys;
        let by_secret = |s: u16| &ctx.by_secret[s as usize * m..(s as usize + 1) * m];
        // The first pair `g` leaves together sets the candidates (those
        // the least-pair cut allows), each next one narrows them. A small
        // class is read pair by pair; a larger one is first sorted by its
        // answers to `g` (a counting sort), so that only the pairs `g`
        // leaves together are met. Most calls end after a few pairs, so a
        // class is sorted only when its turn comes.
        let mut first = !matches!(pool, Pool::Started);
        let mut pair = |a: u16, b: u16| {
            if first {
                first = false;
                match pool {
                    Pool::After(from) => alive.start(from, allowed, by_secret(a), by_secret(b)),
                    Pool::Started => unreachable!("started candidates are narrowed"),
                }
            } else {
                alive.narrow(by_secret(a), by_secret(b))
            }
        };
        let mut i = 0;
        while let Some(class) = classes.get(i) {
            i += 1;
            if class.len() <= SMALL_CLASS {
                for (j, &a) in class.iter().enumerate() {
                    let fa = answer(a);
                    for &b in &class[j + 1..] {
                        if answer(b) == fa && !pair(a, b) {
                            *killer = Some((a, b));
                            return None;
                        }
                    }
                }
                continue;
            }
            let mut worst = 0;
            for &s in class {
                let c = &mut counts[answer(s) as usize];
                *c += 1;
                worst = worst.max(*c);
            }
            if worst as usize > ctx.answers {
                // More secrets left together than one guess has answers:
                // a dead end, found when the class's turn comes (most
                // calls end in their first class or two, so the larger
                // classes are not read ahead for it).
                counts[..keys].fill(0);
                return None;
            }
            let mut at = 0;
            for c in &mut counts[..keys] {
                let size = *c;
                *c = at;
                at += size;
            }
            grouped.resize(class.len(), 0);
            for &s in class {
                let c = &mut counts[answer(s) as usize];
                grouped[*c as usize] = s;
                *c += 1;
            }
            // `counts[k]` is now the end of group `k`; each is cleared
            // before its pairs are read (a dead end returns at once).
            let mut start = 0;
            for k in 0..keys {
                let end = counts[k];
                counts[k] = 0;
                let group = &grouped[start as usize..end as usize];
                start = end;
                for (j, &a) in group.iter().enumerate() {
                    for &b in &group[j + 1..] {
                        if !pair(a, b) {
                            counts[k..keys].fill(0);
                            *killer = Some((a, b));
                            return None;
                        }
                    }
                }
            }
        }
        if first {
            // `g` separates every class alone: any guess of the pool
            // completes.
            return match pool {
                Pool::After(from) => allowed[from..]
                    .iter()
                    .position(|&a| a != 0)
                    .map(|j| from + j),
                Pool::Started => unreachable!("started candidates are narrowed"),
            };
        }
        alive.first()
    }
}

/// Where [`Task::last_after_in`] takes the last guess from.
#[derive(Clone, Copy)]
pub(super) enum Pool {
    /// The guesses from this index on that the least-pair cut allows
    /// after the guesses chosen (the lexicographic search).
    After(usize),
    /// The candidates already in the task's [`Alive`], not empty (a
    /// sieve's, module `sieve`).
    Started,
}

/// Bit `j` set when `a[64 w + j] != b[64 w + j]` (bits past the rows'
/// end clear).
#[inline(always)]
pub(super) fn neq(a: &[u8], b: &[u8], w: usize) -> u64 {
    let at = w * 64;
    match (a.get(at..at + 64), b.get(at..at + 64)) {
        (Some(x), Some(y)) => !eq64(x, y),
        _ => {
            let mut bits = 0u64;
            for (j, (p, q)) in a[at..].iter().zip(&b[at..]).enumerate() {
                bits |= u64::from(p != q) << j;
            }
            bits
        }
    }
}

/// Bit `j` set when `a[64 w + j] == 0` (bits past the end set).
#[inline(always)]
pub(super) fn eq_zero(a: &[u8], w: usize) -> u64 {
    let at = w * 64;
    match a.get(at..at + 64) {
        Some(x) => eq64(x, &[0; 64]),
        None => {
            let mut bits = u64::MAX;
            for (j, &p) in a[at..].iter().enumerate() {
                bits &= !(u64::from(p != 0) << j);
            }
            bits
        }
    }
}

/// Bit `j` set when `x[j] == y[j]`, for slices of 64 bytes.
///
/// The compiler does not turn the portable loop ([`eq64_plain`]) into
/// compare-and-movemask, so on x86_64 the compares are written with
/// intrinsics: SSE2 ([`eq64_sse2`]: part of every x86_64 processor, so no
/// runtime test), or AVX2 ([`eq64_avx2`]: two compares of 32 bytes) when
/// the build enables it (`RUSTFLAGS="-C target-cpu=native"` on a
/// processor that has it). That is a compile-time choice: a runtime test
/// in this innermost loop would cost more than it saves. Measured on
/// moo:4x10's task 1208 in a native build (docs/benchmarks.md, session
/// 41): the AVX2 compares 0.96x the time of the SSE2 ones.
#[inline(always)]
fn eq64(x: &[u8], y: &[u8]) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: this build enables AVX2 (the `cfg` above), so the
        // processor running it has it.
        unsafe { eq64_avx2(x, y) }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    {
        eq64_sse2(x, y)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        eq64_plain(x, y)
    }
}

/// [`eq64`] with AVX2 compares of 32 bytes.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(not(target_feature = "avx2"), allow(dead_code))]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn eq64_avx2(x: &[u8], y: &[u8]) -> u64 {
    use std::arch::x86_64::{__m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8};
    assert!(x.len() >= 64 && y.len() >= 64);
    let mut bits = 0u64;
    for k in 0..2 {
        // SAFETY: both loads read 32 bytes inside slices of at least 64
        // (asserted above), unaligned loads being allowed; AVX2 is the
        // caller's promise.
        let eq = unsafe {
            let p = _mm256_loadu_si256(x.as_ptr().add(32 * k) as *const __m256i);
            let q = _mm256_loadu_si256(y.as_ptr().add(32 * k) as *const __m256i);
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(p, q))
        };
        bits |= u64::from(eq as u32) << (32 * k);
    }
    bits
}

/// [`eq64`] with SSE2 compares of 16 bytes.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(target_feature = "avx2", allow(dead_code))]
#[inline(always)]
fn eq64_sse2(x: &[u8], y: &[u8]) -> u64 {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
    assert!(x.len() >= 64 && y.len() >= 64);
    let mut bits = 0u64;
    for k in 0..4 {
        // SAFETY: SSE2 is in the x86_64 baseline; both loads read 16
        // bytes inside slices of at least 64 (asserted above), unaligned
        // loads being allowed.
        let eq = unsafe {
            let p = _mm_loadu_si128(x.as_ptr().add(16 * k) as *const __m128i);
            let q = _mm_loadu_si128(y.as_ptr().add(16 * k) as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(p, q))
        };
        bits |= u64::from(eq as u16) << (16 * k);
    }
    bits
}

/// The portable [`eq64`], and its reference in the tests.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn eq64_plain(x: &[u8], y: &[u8]) -> u64 {
    let mut bits = 0u64;
    for j in 0..64 {
        bits |= u64::from(x[j] == y[j]) << j;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The byte-wise test the bits replace: the least `j` in `from..m`
    /// allowed and told apart by every pair.
    fn plain(
        from: usize,
        allowed: &[u8],
        rows: &[Vec<u8>],
        pairs: &[(usize, usize)],
    ) -> Option<usize> {
        (from..allowed.len())
            .find(|&j| allowed[j] != 0 && pairs.iter().all(|&(a, b)| rows[a][j] != rows[b][j]))
    }

    /// The bits against the plain test on random rows: row lengths from 1
    /// to 300 (inside a word, on a word's edge, several words with a
    /// partial last one), every start, few or many answer values (so the
    /// candidates die slowly or at once), sparse or dense allowed masks.
    #[test]
    fn the_bits_find_what_the_bytes_find() {
        let mut rng = SplitMix64::new(43);
        let mut alive = Alive::new(300);
        let mut checked = 0;
        for m in [1, 2, 63, 64, 65, 127, 128, 129, 200, 300] {
            for values in [2usize, 3, 14, 255] {
                let rows: Vec<Vec<u8>> = (0..8)
                    .map(|_| (0..m).map(|_| rng.below(values) as u8).collect())
                    .collect();
                for dense in [1usize, 2, 10] {
                    let allowed: Vec<u8> =
                        (0..m).map(|_| u8::from(rng.below(dense) == 0)).collect();
                    for from in (0..=m).step_by(1 + m / 20) {
                        let pairs: Vec<(usize, usize)> = (0..1 + rng.below(6))
                            .map(|_| (rng.below(8), rng.below(8)))
                            .filter(|(a, b)| a != b)
                            .collect();
                        let Some(&(a, b)) = pairs.first() else {
                            continue;
                        };
                        let mut any = alive.start(from, &allowed, &rows[a], &rows[b]);
                        for &(a, b) in &pairs[1..] {
                            if any {
                                any = alive.narrow(&rows[a], &rows[b]);
                            }
                        }
                        let got = if any { alive.first() } else { None };
                        assert_eq!(
                            got,
                            plain(from, &allowed, &rows, &pairs),
                            "m {m}, from {from}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    /// Every compare against the plain loop: the one the build uses, and
    /// on x86_64 both intrinsic ones (AVX2 where the processor has it,
    /// whatever the build enables).
    #[test]
    fn the_simd_compares_are_the_plain_one() {
        let mut rng = SplitMix64::new(7);
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::is_x86_feature_detected!("avx2");
        let mut checked = 0;
        for values in [1usize, 2, 256] {
            for _ in 0..200 {
                let x: Vec<u8> = (0..64).map(|_| rng.below(values) as u8).collect();
                let y: Vec<u8> = (0..64).map(|_| rng.below(values) as u8).collect();
                let want = eq64_plain(&x, &y);
                assert_eq!(eq64(&x, &y), want);
                assert_eq!(eq64(&x, &x), u64::MAX);
                #[cfg(target_arch = "x86_64")]
                {
                    assert_eq!(eq64_sse2(&x, &y), want);
                    if avx2 {
                        // SAFETY: the processor has AVX2 (tested above).
                        assert_eq!(unsafe { eq64_avx2(&x, &y) }, want);
                        checked += 1;
                    }
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(!avx2 || checked == 600);
        let _ = checked;
    }
}
