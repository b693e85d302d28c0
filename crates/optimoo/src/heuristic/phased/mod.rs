//! The phased strategy: a guess for any candidate set of a game of any
//! size, by phases of the set's size.
//!
//! 1. **The first guess**, chosen up to symmetry: every first guess is one
//!    of the patterns `0..0 1..1 2..2 …` (a partition of the positions
//!    into runs of one symbol; without repeats the one pattern `012…`),
//!    each scored on every code (on games of more than
//!    [`COUNTED_OPENING`] codes, on its classes counted, not listed: the
//!    same guess).
//! 2. **Large sets** (more than `heuristic_below` candidates): the pool is
//!    `big_pool` candidates spread evenly over the set, and `extra` codes
//!    drawn at random (seeded by the set); each is scored on `big_sample`
//!    candidates spread evenly over the set.
//! 3. **The heuristic** (at most `heuristic_below` candidates): every
//!    candidate and `extra` other codes (every code when the game has at
//!    most `extra`) are scored on the whole set.
//! 4. **The exact phase** (at most `exact_below` candidates): the guess of
//!    least total over the strategies that guess only candidates, by a
//!    branch and bound (a set of `m` costs at least `2m − 1`).
//!
//! Scores are the heuristics' (module [`crate::heuristic`]: `minimax`,
//! `irving`, `entropy`, `kooi`, the winning class counted), and ties go to a
//! candidate, then to the smallest code: with `extra` at least the number
//! of codes and no exact phase, the strategy *is* the heuristic with pool
//! `all` and ties `candidate-first` (tested tree for tree). Entropy scores
//! closer than [`crate::heuristic::ENTROPY_TOLERANCE`] are compared exactly
//! on sets of at most [`EXACT_TIES_MAX`]; above, the first scanned wins.
//!
//! Invariant: [`Chooser::choose`] depends only on the set (sorted, as the
//! walk keeps it) and the options: never on the path or the threads.
//! The guess chosen at a node is the same in the whole-game walk, a
//! sampled walk and the player.
//!
//! # Files
//! This file: the options ([`Phased`], the one type of them: serde writes
//! and reads it in the plan folders and the JSON rows) and the guess
//! ([`Chooser`]); [`walk`] plays it over every secret or a sample without
//! materialising its tree, and writes its tree file by the same walk
//! ([`walk::encode`], the format of `crate::tree::format::shape`); [`book`]
//! its first levels as an opening book the player looks up. Games and
//! candidate sets are `crate::model::shape`'s. Tests: `choice_tests` (a
//! guess), `game_tests` (whole games, against the heuristics and the model).

pub mod book;
pub mod walk;

#[cfg(test)]
mod choice_tests;
#[cfg(test)]
mod game_tests;

use std::cmp::Ordering;

use super::entropy::{compare_power_products, smallest_prime_factors};
use crate::exec::{self, Parallel};
use crate::heuristic::{Heuristic, ENTROPY_TOLERANCE};
use crate::model::shape::counted::{self, Counted};
use crate::model::shape::{Packed, Shape};
use crate::rng::{splitmix64, SplitMix64};

/// A sorted candidate set as the strategy reads it: listed, or counted
/// (module [`counted`]). A large set is read only through these.
trait Sorted {
    /// The number of codes.
    fn size(&self) -> usize;
    /// The first and the last code.
    fn ends(&self) -> (Packed, Packed);
    /// Every `step`-th code, from the first.
    fn stepped(&self, step: usize) -> Vec<Packed>;
    /// Whether `code` is in the set.
    fn holds(&self, code: Packed) -> bool;
    /// The list, when the set is listed.
    fn listed(&self) -> Option<&[Packed]>;
}

impl Sorted for [Packed] {
    fn size(&self) -> usize {
        self.len()
    }
    fn ends(&self) -> (Packed, Packed) {
        (self[0], self[self.len() - 1])
    }
    fn stepped(&self, step: usize) -> Vec<Packed> {
        self.iter().step_by(step).copied().collect()
    }
    fn holds(&self, code: Packed) -> bool {
        self.binary_search(&code).is_ok()
    }
    fn listed(&self) -> Option<&[Packed]> {
        Some(self)
    }
}

impl Sorted for Counted {
    fn size(&self) -> usize {
        self.len() as usize
    }
    fn ends(&self) -> (Packed, Packed) {
        let ends = self.select(&[0, self.len() - 1]);
        (ends[0], ends[ends.len() - 1])
    }
    fn stepped(&self, step: usize) -> Vec<Packed> {
        let places: Vec<u64> = (0..self.len()).step_by(step).collect();
        self.select(&places)
    }
    fn holds(&self, code: Packed) -> bool {
        self.contains(code)
    }
    fn listed(&self) -> Option<&[Packed]> {
        None
    }
}

/// Largest set whose entropy near-ties are decided exactly.
pub const EXACT_TIES_MAX: usize = 1 << 16;

/// Games of at most this many codes keep the list of every code, drawn
/// from when a node's draw would cover the game.
const SMALL: u128 = 1 << 16;

/// Games of more than this many codes choose their first guess on counted
/// classes, without listing every code (24 bytes a code: mm:8x16's would
/// take 96 GiB); the guess is the listed scan's (tested).
pub const COUNTED_OPENING: u128 = 1 << 24;

/// Pool guesses scored per parallel task.
const CHUNK: usize = 64;

/// The options of the phased strategy (see the module doc): the one type
/// of them, for the library, both command lines and the files.
///
/// Serde writes and reads the thresholds (`exact_below` to
/// `rollout_above`, in this order): the `options` object of `optimoo eval`'s
/// JSON rows and of a phased plan's phased.json. The score and the first
/// guess are not in it (their owners write them beside it, by name and as
/// a code of the game): read back, they are [`Heuristic::Entropy`] and
/// `None`, for the reader to set. `rollout` and `rollout_above` read as 0
/// when absent (files written before them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Phased {
    /// The score: minimax, irving, entropy or kooi; `first` plays the
    /// first candidate everywhere (the simplest strategy, no phases).
    #[serde(skip, default = "entropy")]
    pub heuristic: Heuristic,
    /// Sets of at most this many candidates are solved exactly (over
    /// candidate guesses); 0 or 1: no exact phase.
    pub exact_below: usize,
    /// Sets of at most this many candidates are scored whole, every
    /// candidate in the pool.
    pub heuristic_below: usize,
    /// Codes drawn at random into every pool (every code, when the game
    /// has at most this many).
    pub extra: usize,
    /// Codes drawn into the pool of a set of `n` candidates: at least
    /// `extra`, and up to `work / n` (the answers computed per node).
    pub work: usize,
    /// Candidates in the pool of a large set.
    pub big_pool: usize,
    /// Candidates a large set's pool is scored on.
    pub big_sample: usize,
    /// Rounds of hill climbing from the best guess of the pool: its
    /// neighbours (two positions swapped, one symbol changed) are scored,
    /// and one strictly better replaces it. 0: none.
    pub climb: usize,
    /// The first guess, instead of the best pattern.
    #[serde(skip)]
    pub first: Option<Packed>,
    /// Guesses compared by playing them out: at a set of at least
    /// `rollout_above` candidates (and at the first guess), the `rollout`
    /// best of the pool (the chosen one first) are each played to the end
    /// with the strategy without rollouts, and the one of least total
    /// guesses wins (the first, among equals). 0 or 1: none.
    #[serde(default)]
    pub rollout: usize,
    /// The smallest set that compares guesses by playing them out.
    #[serde(default)]
    pub rollout_above: usize,
}

/// The score a [`Phased`] read by serde has, until its reader sets it.
fn entropy() -> Heuristic {
    Heuristic::Entropy
}

impl Default for Phased {
    fn default() -> Phased {
        Phased {
            heuristic: Heuristic::Entropy,
            exact_below: 8,
            heuristic_below: 2000,
            extra: 200,
            work: 0,
            big_pool: 200,
            big_sample: 20_000,
            climb: 4,
            first: None,
            rollout: 0,
            rollout_above: 10_000,
        }
    }
}

/// Errors in the options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PhasedError {
    /// A heuristic that does not score guesses.
    #[error("the phased strategy scores guesses with minimax, irving, entropy or kooi (or plays first), not {0}")]
    Heuristic(&'static str),
    /// A threshold that makes no sense.
    #[error("{0}")]
    Options(String),
}

/// The phased strategy ready to choose guesses in one game.
#[derive(Debug)]
pub struct Chooser {
    shape: Shape,
    opts: Phased,
    slots: usize,
    win: usize,
    /// Every code, when the game has at most `extra`.
    all: Option<Vec<Packed>>,
    /// `nlnn[n] = n ln n` for the sets scored exactly.
    nlnn: Vec<f64>,
    /// Smallest prime factors up to [`EXACT_TIES_MAX`] (entropy only).
    spf: Vec<u32>,
}

/// Class sizes of one guess.
type Counts = [u32; 256];

impl Chooser {
    /// Checks the options.
    pub fn new(shape: Shape, opts: Phased) -> Result<Chooser, PhasedError> {
        if opts.heuristic == Heuristic::Random {
            return Err(PhasedError::Heuristic(opts.heuristic.name()));
        }
        if opts.big_sample == 0 || opts.heuristic_below == 0 {
            return Err(PhasedError::Options(
                "--heuristic-below and --big-sample must be at least 1".into(),
            ));
        }
        if opts.exact_below > 16 {
            return Err(PhasedError::Options(format!(
                "--exact-below {} is too large: the exact phase is exponential; at most 16",
                opts.exact_below
            )));
        }
        if let Some(f) = opts.first {
            if shape.parse(&shape.format(f)).ok() != Some(f) {
                return Err(PhasedError::Options("the first guess is not a code".into()));
            }
        }
        let all =
            (shape.code_count() <= (opts.extra as u128).max(SMALL)).then(|| shape.all_codes());
        let top = (opts.heuristic_below.max(opts.big_sample) as u128)
            .max(shape.code_count())
            .min(EXACT_TIES_MAX as u128) as usize;
        let (nlnn, spf) = if opts.heuristic == Heuristic::Entropy {
            ((0..=top).map(nlnn).collect(), smallest_prime_factors(top))
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Chooser {
            shape,
            opts,
            slots: shape.feedback_slots(),
            win: shape.positions() * (shape.positions() + 1),
            all,
            nlnn,
            spf,
        })
    }

    /// The game.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The options.
    pub fn options(&self) -> &Phased {
        &self.opts
    }

    /// The guess for the candidate set `set` (sorted, not empty).
    pub fn choose(&self, set: &[Packed], par: &dyn Parallel) -> Packed {
        debug_assert!(set.windows(2).all(|w| w[0] < w[1]));
        let n = set.len();
        if n as u128 == self.shape.code_count() {
            return self.opening_in(set, par);
        }
        let rivals = if n >= self.opts.rollout_above {
            self.opts.rollout.saturating_sub(1)
        } else {
            0
        };
        let (guess, rivals) = self.pick(set, par, rivals);
        self.roll(set, guess, rivals, par)
    }

    /// Whether a set of `n` candidates (not every code) is read only by
    /// sampling: the guess [`Chooser::choose`] takes is then
    /// [`Chooser::choose_counted`]'s.
    pub fn samples(&self, n: u64) -> bool {
        (n as u128) < self.shape.code_count()
            && self.opts.heuristic != Heuristic::First
            && n > self.opts.exact_below.max(self.opts.heuristic_below).max(2) as u64
            && n > self.opts.big_sample as u64
            && (n < self.opts.rollout_above as u64 || self.opts.rollout <= 1)
    }

    /// The guess for the candidates `set` counts, when
    /// [`Chooser::samples`] the set: the guess
    /// [`Chooser::choose`] takes on their list (tested equal), without
    /// listing them; `None` otherwise.
    pub fn choose_counted(&self, set: &Counted, par: &dyn Parallel) -> Option<Packed> {
        self.samples(set.len())
            .then(|| self.pick_large(set, par, 0).0)
    }

    /// The guess of the strategy without rollouts, and up to `rivals`
    /// other guesses of its pool, the best scored first.
    fn pick(&self, set: &[Packed], par: &dyn Parallel, rivals: usize) -> (Packed, Vec<Packed>) {
        let n = set.len();
        if n <= 2 || self.opts.heuristic == Heuristic::First {
            return (set[0], Vec::new());
        }
        if n <= self.opts.exact_below {
            // The exact phase tries at most `extra` other codes, spread
            // over the draw.
            let extra = self.draw(set, self.opts.extra);
            let step = extra.len().div_ceil(self.opts.extra.max(1)).max(1);
            let others: Vec<Packed> = extra
                .iter()
                .step_by(step)
                .copied()
                .filter(|g| set.binary_search(g).is_err())
                .collect();
            return (exact(&self.shape, set, &others, u32::MAX).1, Vec::new());
        }
        if n <= self.opts.heuristic_below {
            let extra = self.extra(set);
            return self.scan(set, set, &extra, set, par, rivals);
        }
        self.pick_large(set, par, rivals)
    }

    /// [`Chooser::pick`] on a set of more than `heuristic_below`
    /// candidates: a pool of `big_pool` candidates spread evenly over the
    /// set and `extra` drawn codes, scored on `big_sample` candidates
    /// spread evenly.
    fn pick_large<S: Sorted + ?Sized>(
        &self,
        set: &S,
        par: &dyn Parallel,
        rivals: usize,
    ) -> (Packed, Vec<Packed>) {
        let n = set.size();
        let extra = self.extra(set);
        let cands = set.stepped(n.div_ceil(self.opts.big_pool.max(1)));
        let sample = set.stepped(n.div_ceil(self.opts.big_sample));
        self.scan(set, &cands, &extra, &sample, par, rivals)
    }

    /// Of `guess` and `rivals`, the first of least total guesses over
    /// `set` when each is played first and the strategy without rollouts
    /// after it.
    fn roll(
        &self,
        set: &[Packed],
        guess: Packed,
        rivals: Vec<Packed>,
        par: &dyn Parallel,
    ) -> Packed {
        if rivals.is_empty() {
            return guess;
        }
        let options: Vec<Packed> = std::iter::once(guess).chain(rivals).collect();
        let totals = exec::map(par, options.len(), |i| {
            self.play_out(&mut set.to_vec(), options[i], par, 0)
        });
        let best = (0..options.len())
            .min_by_key(|&i| (totals[i], i))
            .expect("one option at least");
        options[best]
    }

    /// The guesses the strategy without rollouts takes on every code of
    /// `set` (sorted; permuted in place) when `guess` comes first,
    /// counted from this node; `u64::MAX` when a guess does not split its
    /// set.
    fn play_out(&self, set: &mut [Packed], guess: Packed, par: &dyn Parallel, depth: usize) -> u64 {
        const MAX_DEPTH: usize = 64;
        let bounds = self.shape.partition(guess, set, None);
        if depth > MAX_DEPTH || (bounds.len() == 1 && bounds[0].0 != self.win) {
            return u64::MAX;
        }
        let mut total = set.len() as u64;
        let mut rest = set;
        for (f, len) in bounds {
            let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            if f == self.win {
                continue;
            }
            let next = self.pick(class, par, 0).0;
            match self.play_out(class, next, par, depth + 1) {
                u64::MAX => return u64::MAX,
                c => total += c,
            }
        }
        total
    }

    /// The first guess: the one given, the one pattern of a game without
    /// repeats, or the best pattern scored on every code (built here).
    pub fn opening(&self, par: &dyn Parallel) -> Packed {
        if let Some(g) = self.single_opening() {
            return g;
        }
        if self.opening_counts() {
            if let Some(g) = self.opening_counted() {
                return g;
            }
        }
        self.opening_in(&self.shape.all_codes(), par)
    }

    /// Whether [`Chooser::opening`] lists every code of the game (24 bytes
    /// a code: a caller states that memory first); not when the first
    /// guess is given, the game has one pattern, or the patterns' classes
    /// are counted ([`COUNTED_OPENING`]).
    pub fn opening_lists(&self) -> bool {
        self.single_opening().is_none() && !self.opening_counts()
    }

    /// Whether the opening scores the patterns on counted classes: on
    /// games of more than [`COUNTED_OPENING`] codes, without rollouts
    /// (which play every code out).
    fn opening_counts(&self) -> bool {
        self.shape.code_count() > COUNTED_OPENING && self.opts.rollout <= 1
    }

    /// [`Chooser::opening_in`] without the list of every code: each
    /// pattern's classes counted ([`counted::split`]), then the
    /// same choice as its scan (the first of strictly best score; no
    /// climbing, no rollouts). `None` when a class cannot be counted.
    fn opening_counted(&self) -> Option<Packed> {
        let n = self.shape.code_count() as usize;
        let mut best: Option<(Packed, f64, Counts)> = None;
        for p in self.patterns() {
            let classes = counted::split(self.shape, &[], p)?;
            let mut counts = [0u32; 256];
            for (c, &x) in counts.iter_mut().zip(&classes) {
                // A class is never every code (the pattern wins alone).
                *c = u32::try_from(x).ok()?;
            }
            let key = self.key(&counts);
            let beats = best
                .as_ref()
                .is_none_or(|(_, bk, bc)| self.compare(key, &counts, *bk, bc, n) == Ordering::Less);
            if beats {
                best = Some((p, key, counts));
            }
        }
        best.map(|b| b.0)
    }

    fn single_opening(&self) -> Option<Packed> {
        if self.opts.heuristic == Heuristic::First {
            return Some(self.shape.unrank(0));
        }
        let patterns = self.patterns();
        self.opts
            .first
            .or((patterns.len() == 1).then(|| patterns[0]))
    }

    /// The first guess, `all` being every code.
    fn opening_in(&self, all: &[Packed], par: &dyn Parallel) -> Packed {
        if let Some(g) = self.single_opening() {
            return g;
        }
        // Every first guess is a pattern up to symmetry: no climbing.
        let rivals = self.opts.rollout.saturating_sub(1);
        let (guess, rivals) = self.scan_with(all, &self.patterns(), &[], all, par, 0, rivals);
        self.roll(all, guess, rivals, par)
    }

    /// The first-guess patterns ([`Shape::patterns`]).
    fn patterns(&self) -> Vec<Packed> {
        self.shape.patterns().into_iter().map(|(p, _)| p).collect()
    }

    /// The codes that are not candidates in the pool of `set`: every code
    /// when the game is small enough, else `extra` drawn from a seed that
    /// depends only on the set.
    fn extra<S: Sorted + ?Sized>(&self, set: &S) -> Vec<Packed> {
        self.draw(set, self.opts.extra.max(self.opts.work / set.size()))
    }

    /// Most codes a node draws: a draw this large covers any game the
    /// list of every code is kept for, and bounds the memory of the others.
    const DRAW_MAX: usize = 1 << 22;

    /// `want` codes drawn from a seed that depends only on `set`, sorted
    /// (every code, when that covers a small game).
    fn draw<S: Sorted + ?Sized>(&self, set: &S, want: usize) -> Vec<Packed> {
        let want = want.min(Self::DRAW_MAX);
        if let Some(all) = self.all.as_ref().filter(|a| want >= a.len()) {
            return all.clone();
        }
        let (first, last) = set.ends();
        let seed = [set.size() as u64, first.pos, last.pos]
            .iter()
            .fold(0x6f70_7469_6d6f_6f21, |h, &x| splitmix64(h ^ x));
        let mut rng = SplitMix64::new(seed);
        let count = self.shape.code_count() as u64;
        let mut out: Vec<Packed> = (0..want)
            .map(|_| self.shape.unrank(rng.next_u64() % count))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Scores `cands` (candidates, in order) then `others` (codes that may
    /// be candidates: those are skipped when `set` holds them, as they
    /// were scored first) on `scored`; the best by score, then a
    /// candidate, then the smallest code.
    fn scan<S: Sorted + ?Sized>(
        &self,
        set: &S,
        cands: &[Packed],
        others: &[Packed],
        scored: &[Packed],
        par: &dyn Parallel,
        rivals: usize,
    ) -> (Packed, Vec<Packed>) {
        self.scan_with(set, cands, others, scored, par, self.opts.climb, rivals)
    }

    /// [`Chooser::scan`] with `climb` rounds of hill climbing; with
    /// `rivals`, also that many other guesses of the pool, by score.
    #[allow(clippy::too_many_arguments)]
    fn scan_with<S: Sorted + ?Sized>(
        &self,
        set: &S,
        cands: &[Packed],
        others: &[Packed],
        scored: &[Packed],
        par: &dyn Parallel,
        climb: usize,
        rivals: usize,
    ) -> (Packed, Vec<Packed>) {
        let others: Vec<Packed> = others.iter().copied().filter(|&g| !set.holds(g)).collect();
        let pool: Vec<Packed> = cands.iter().chain(&others).copied().collect();
        let best = self
            .best_in(&pool, scored, par, None)
            .expect("the pool is not empty");
        let chosen = self.climb(pool[best.0], best.1, best.2, scored, par, climb);
        let chosen = match set.listed() {
            Some(set) if set.len() == scored.len() && !self.splits(chosen, set) => {
                set[0] // never happens: a candidate always splits
            }
            _ => chosen,
        };
        let rivals = if rivals == 0 {
            Vec::new()
        } else {
            self.top(&pool, scored, par)
                .into_iter()
                .map(|i| pool[i])
                .filter(|&g| g != chosen)
                .take(rivals)
                .collect()
        };
        (chosen, rivals)
    }

    /// The indices of `list` by score on `scored`, the best first (among
    /// equal scores, in list order).
    fn top(&self, list: &[Packed], scored: &[Packed], par: &dyn Parallel) -> Vec<usize> {
        let keys: Vec<f64> = exec::map(par, list.len().div_ceil(CHUNK), |i| {
            let mut counts = [0u32; 256];
            list.iter()
                .skip(i * CHUNK)
                .take(CHUNK)
                .map(|&g| {
                    self.tally(g, scored, &mut counts);
                    self.key(&counts)
                })
                .collect::<Vec<f64>>()
        })
        .concat();
        let mut order: Vec<usize> = (0..list.len()).collect();
        order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        order
    }

    /// The first guess of `list` (in order) that scores strictly best on
    /// `scored`, and strictly better than `incumbent` when one is given:
    /// its index, score and classes. Scored in chunks run by `par` when
    /// the work is large; the chunks' winners are compared in list order,
    /// so the answer is the sequential scan's.
    fn best_in(
        &self,
        list: &[Packed],
        scored: &[Packed],
        par: &dyn Parallel,
        incumbent: Option<(f64, Counts)>,
    ) -> Option<(usize, f64, Counts)> {
        let n = scored.len();
        let beats = |k: f64, c: &Counts, best: &Option<(usize, f64, Counts)>| {
            let against = best
                .as_ref()
                .map(|b| (b.1, &b.2))
                .or(incumbent.as_ref().map(|i| (i.0, &i.1)));
            against.is_none_or(|(bk, bc)| self.compare(k, c, bk, bc, n) == Ordering::Less)
        };
        let chunk = |i: usize| -> Option<(usize, f64, Counts)> {
            let mut counts = [0u32; 256];
            let mut best = None;
            for (j, &g) in list.iter().enumerate().skip(i * CHUNK).take(CHUNK) {
                self.tally(g, scored, &mut counts);
                let key = self.key(&counts);
                if beats(key, &counts, &best) {
                    best = Some((j, key, counts));
                }
            }
            best
        };
        let chunks = list.len().div_ceil(CHUNK);
        let found: Vec<_> = if n * list.len() < 1 << 16 {
            (0..chunks).map(chunk).collect()
        } else {
            exec::map(par, chunks, chunk)
        };
        let mut best = None;
        for (j, k, c) in found.into_iter().flatten() {
            if beats(k, &c, &best) {
                best = Some((j, k, c));
            }
        }
        best
    }

    /// Hill climbing from `guess` (score `key`, classes `counts`): up to
    /// `climb` rounds, each moving to the first best of the neighbours
    /// that score strictly better on `scored`.
    fn climb(
        &self,
        mut guess: Packed,
        mut key: f64,
        mut counts: Counts,
        scored: &[Packed],
        par: &dyn Parallel,
        rounds: usize,
    ) -> Packed {
        for _ in 0..rounds {
            let near = self.shape.neighbours(guess);
            let Some((j, k, c)) = self.best_in(&near, scored, par, Some((key, counts))) else {
                break;
            };
            (guess, key, counts) = (near[j], k, c);
        }
        guess
    }

    /// Whether `guess` leaves more than one class.
    fn splits(&self, guess: Packed, set: &[Packed]) -> bool {
        let f = self.shape.feedback(set[0], guess);
        set.iter().any(|&s| self.shape.feedback(s, guess) != f)
    }

    #[inline]
    fn tally(&self, guess: Packed, set: &[Packed], counts: &mut Counts) {
        counts[..self.slots].fill(0);
        for &s in set {
            counts[self.shape.feedback(s, guess).index()] += 1;
        }
    }

    /// The heuristic's score (lower is better), the winning class counted.
    fn key(&self, counts: &Counts) -> f64 {
        let all = &counts[..self.slots];
        match self.opts.heuristic {
            Heuristic::Minimax => all.iter().copied().max().unwrap_or(0) as f64,
            Heuristic::Irving => all.iter().map(|&c| c as u64 * c as u64).sum::<u64>() as f64,
            Heuristic::Kooi => -(all.iter().filter(|&&c| c > 0).count() as f64),
            _ => all
                .iter()
                .map(|&c| match self.nlnn.get(c as usize) {
                    Some(&x) => x,
                    None => nlnn(c as usize),
                })
                .sum(),
        }
    }

    /// The order of two scores of sets of `n` codes.
    fn compare(&self, a: f64, ac: &Counts, b: f64, bc: &Counts, n: usize) -> Ordering {
        if self.opts.heuristic != Heuristic::Entropy {
            return a.total_cmp(&b);
        }
        if a < b - ENTROPY_TOLERANCE {
            Ordering::Less
        } else if a > b + ENTROPY_TOLERANCE {
            Ordering::Greater
        } else if n < self.spf.len() {
            compare_power_products(&ac[..self.slots], &bc[..self.slots], &self.spf)
        } else {
            Ordering::Equal
        }
    }

    /// The class index of the winning answer.
    pub fn win(&self) -> usize {
        self.win
    }
}

fn nlnn(i: usize) -> f64 {
    if i < 2 {
        0.0
    } else {
        i as f64 * (i as f64).ln()
    }
}

/// The least total number of guesses that solves every code of `set`
/// guessing candidates or codes of `others` (codes that are not
/// candidates), and the first guess that reaches it (candidates first, in
/// order); a total of `bound` or more is reported as `(u32::MAX, set[0])`.
/// A set of `m` costs at least `2m − 1`, and `2m` unless a candidate
/// guesses first: codes of `others` are tried only when no candidate
/// reaches `2m`.
pub fn exact(shape: &Shape, set: &[Packed], others: &[Packed], bound: u32) -> (u32, Packed) {
    let m = set.len() as u32;
    if m == 1 {
        return if bound > 1 {
            (1, set[0])
        } else {
            (u32::MAX, set[0])
        };
    }
    let mut best = (bound, set[0]);
    let mut found = false;
    let win = shape.positions() * (shape.positions() + 1);
    let mut classes: Vec<(usize, Vec<Packed>)> = Vec::new();
    for (i, &g) in set.iter().chain(others).enumerate() {
        // Cheapest possible: 2m − 1 for a candidate, 2m for another code.
        let floor = if i < set.len() { 2 * m - 1 } else { 2 * m };
        if floor >= best.0 {
            if i < set.len() {
                continue;
            }
            break;
        }
        classes.clear();
        for &s in set {
            let f = shape.feedback(s, g).index();
            match classes.iter_mut().find(|(c, _)| *c == f) {
                Some((_, v)) => v.push(s),
                None => classes.push((f, vec![s])),
            }
        }
        if classes.len() == 1 {
            continue;
        }
        let rest: Vec<&Vec<Packed>> = classes
            .iter()
            .filter(|(f, _)| *f != win)
            .map(|(_, v)| v)
            .collect();
        // Each class of c codes costs at least 2c − 1.
        let mut lower: u32 = m + rest.iter().map(|v| 2 * v.len() as u32 - 1).sum::<u32>();
        if lower >= best.0 {
            continue;
        }
        let mut total = m;
        for v in &rest {
            let own = 2 * v.len() as u32 - 1;
            let room = best.0 - (lower - own);
            let (c, _) = exact(shape, v, others, room);
            if c >= room {
                total = u32::MAX;
                break;
            }
            lower += c - own;
            total += c;
        }
        if total < best.0 {
            best = (total, g);
            found = true;
        }
    }
    if found {
        best
    } else {
        (u32::MAX, set[0])
    }
}
