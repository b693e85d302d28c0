//! A node's answers for the class bounds of its guesses' classes
//! ([`NodeAnswers`], [`Kernel::least_within`]). Invariants: those of
//! [`NodeAnswers`] below; `least_within` returns what [`Kernel::least`]
//! returns for the same class (tested against plain counting).

use super::{Kernel, KernelPath, DENSE_WIN, MAX_SET, NONE, WINDOW};
use crate::model::code::Code;
use crate::model::feedback::Feedback;

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
    pub(super) set: Vec<Code>,
    rows: Vec<&'t [u8]>,
    /// The answers among the node's own secrets, `n × n`: `inner[i·n +
    /// j] = rows[i][set[j]]` (the candidates' counts of a class read
    /// these, in the caches, where the rows at the secrets' places miss).
    inner: Vec<u8>,
    pub(super) dense: bool,
    order: Vec<u16>,
    block_answers: Vec<u8>,
    pub(super) cells: Vec<u8>,
    pub(super) built: usize,
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

impl Kernel {
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
}
