//! A node's guesses in order, and the lookahead bounds that order and
//! prune them.
//!
//! Invariants: the lookahead bound of a guess, own + Σ lower(|C|, d − 1)
//! over its non-winning classes (the level-filling bound of
//! [`crate::search::bound`]), never exceeds its exact cost; the order is
//! (bound, non-candidate, code) (for the feasibility objective the largest
//! class breaks ties of bound), so a scan may stop at the first bound that
//! reaches the best cost found. Guesses symmetric to a smaller one
//! ([`crate::model::symmetry`]) are left out. The first phase (candidates
//! that no non-candidate can beat) generalizes the "obviously optimal"
//! candidate of Koyama & Lai 1993. For the total objective and sets of up to
//! [`kernel::MAX_SET`] secrets, the bounds of phase two and of
//! [`Context::class_bound`] come from [`crate::search::kernel`], every
//! guess at once, with the same values.
//!
//! Ranges: class counts are `u32` (sets of at most 65,535 secrets), bounds
//! `u64` below [`INF`] (see [`crate::search::bound`]); the kernel's `u16`
//! values are widened at once, its "unusable" `NONE` read as `INF`, and the
//! early-stop value handed to it is clamped below `NONE`.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::partition;
use crate::model::symmetry::{self, Stabilizer};
use crate::search::bound::{Cost, INF};
use crate::search::context::Context;
use crate::search::kernel::{self, Kernel, NodeAnswers, NONE};
use crate::search::memo::{raw_key, Entry, Memo};
use crate::search::recent::{learn, recall};
use crate::search::value::Scored;

/// A node's guesses, phase one (see `Context::phases`).
pub(super) struct Phases {
    pub(super) first: Vec<Scored>,
    pub(super) non_candidate_lower: u64,
}

/// Smallest set whose class bound [`Context::class_bound`] keeps in the
/// memo. Below it a bound is recomputed when asked again: on moo:5x10's
/// unit 3 the class bounds of sets of 17 to 32 secrets were 19 million of
/// the memo's entries, of which 7 % were ever read, and they flushed the
/// entries of searches (which cost far more to redo) out of its bounded
/// generations (docs/benchmarks.md, session 25). The evaluation of a
/// guess hands each class's bound to the class's search instead.
pub(super) const BOUND_MEMO_MIN: usize = 33;

/// Which guesses to skip as symmetric to a smaller one.
pub(super) struct Filter<'s> {
    pub(super) absent: Option<u64>,
    pub(super) orbits: Option<symmetry::OrbitFilter<'s>>,
    pub(super) book: &'s crate::model::code::Codebook,
    /// Only listed codes may be guessed.
    pub(super) game: Option<&'s crate::model::game::Game>,
}

impl Filter<'_> {
    #[inline]
    fn keep(&self, g: Code) -> bool {
        if self.game.is_some_and(|game| !game.is_guess(g)) {
            return false;
        }
        let absent_ok = match self.absent {
            Some(a) => symmetry::absent_min(self.book.symbols(g), a),
            None => true,
        };
        absent_ok
            && match &self.orbits {
                Some(o) => o.keeps(g),
                None => true,
            }
    }
}

impl Context<'_> {
    /// Phase one of a node's guess order: the candidates whose lookahead
    /// bound is at most what any non-candidate can cost, by (bound, code).
    /// They come first in the full order (bound, non-candidate, code), so
    /// when one of them reaches that cost the other guesses need no scan.
    ///
    /// Under consistent guesses ([`crate::model::GuessRule::Consistent`])
    /// no non-candidate may be guessed: phase one is every candidate, and
    /// what a non-candidate costs is `INF` (phase two is empty).
    pub(super) fn phases(&self, set: &[Code], d: usize, stab: &Stabilizer) -> Phases {
        let non_candidate_lower = if self.game.rules().guesses().allows(false) {
            self.non_candidate_of(set, d)
        } else {
            INF
        };
        let filter = self.filter(set, stab);
        let mut counts = [0u32; 256];
        let cols = self.columns(set);
        let mut first: Vec<(u64, u32, Code)> = set
            .iter()
            .filter(|&&g| filter.keep(g))
            .filter_map(|&g| {
                let bound = self
                    .guess_bound(set, &cols, d, g, true, &mut counts, non_candidate_lower + 1)
                    .ok()?;
                Some((bound, self.spread(set, g), g))
            })
            .collect();
        first.sort_unstable();
        let first = first
            .into_iter()
            .map(|(bound, _, guess)| Scored { bound, guess })
            .collect();
        Phases {
            first,
            non_candidate_lower,
        }
    }

    /// Phase two: every other guess whose bound is below `limit`, in the
    /// order (bound, non-candidate, code); and the least bound left out.
    pub(super) fn rest(
        &self,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        phases: &Phases,
        limit: u64,
    ) -> (Vec<Scored>, u64) {
        // The kernel's sets: every level at once (the same list).
        if let Some(mut levels) = self.rest_levels(set, d, stab, phases, limit) {
            let mut out = Vec::new();
            while let Some(level) = levels.next_level() {
                out.extend(level);
            }
            return (out, levels.skipped);
        }
        let book = self.game.codes();
        let filter = self.filter(set, stab);
        let cols = self.columns(set);
        let mut out: Vec<(u64, u32, bool, Code)> = Vec::new();
        let mut skipped = INF;
        let mut counts = [0u32; 256];
        let mut in_set = vec![false; self.game.len()];
        for &s in set {
            in_set[s.index()] = true;
        }
        for g in book.all() {
            if !filter.keep(g) {
                continue;
            }
            let candidate = in_set[g.index()];
            let bound = match self.guess_bound(set, &cols, d, g, candidate, &mut counts, limit) {
                Ok(bound) => bound,
                Err(at_least) => {
                    skipped = skipped.min(at_least);
                    continue;
                }
            };
            if candidate && bound <= phases.non_candidate_lower {
                continue; // Already tried in phase one.
            }
            out.push((bound, self.spread(set, g), !candidate, g));
        }
        out.sort_unstable();
        let out = out
            .into_iter()
            .map(|(bound, _, _, guess)| Scored { bound, guess })
            .collect();
        (out, skipped)
    }

    /// Phase two handed out level by level ([`Levels`]): the same guesses
    /// in the same order as [`Context::rest`], for the kernel's sets
    /// (`None` otherwise: then [`Context::rest`]). Most nodes stop after
    /// their first level or two, where `rest` filters and orders every
    /// guess below `limit` (thousands on moo:5x8's small sets).
    pub(super) fn rest_levels<'s>(
        &'s self,
        set: &[Code],
        d: usize,
        stab: &'s Stabilizer,
        phases: &Phases,
        limit: u64,
    ) -> Option<Levels<'s>> {
        let kernel = self
            .kernel
            .as_ref()
            .filter(|_| set.len() <= kernel::MAX_SET)?;
        let cols = self.columns(set);
        let mut guesses: Vec<(u32, Code)> = Vec::new();
        let mut skipped = INF;
        BUF.with(|buf| {
            let mut bounds = buf.borrow_mut();
            let dense = self.dense_columns(set);
            kernel.every_bound(
                &cols,
                dense.as_deref(),
                set,
                self.game.len(),
                self.bounds.capacity(d - 1),
                &mut bounds,
            );
            let mut in_set = set.iter().peekable();
            for (g, &b) in bounds.iter().enumerate() {
                let candidate = in_set.peek().is_some_and(|c| c.index() == g);
                if candidate {
                    in_set.next();
                }
                let b = if b == NONE { INF } else { u64::from(b) };
                if b >= limit {
                    skipped = skipped.min(b);
                    continue;
                }
                if candidate && b <= phases.non_candidate_lower {
                    continue; // Already tried in phase one.
                }
                // b < NONE: the key fits (the kernel's bounds are u16).
                let key = (b as u32) * 2 + u32::from(!candidate);
                guesses.push((key, Code(g as u16)));
            }
        });
        Some(Levels {
            guesses,
            filter: self.filter(set, stab),
            next: 0,
            served: 0,
            sorted: false,
            skipped,
        })
    }

    /// Each secret's answers to every guess, for a scan of `set`: the
    /// table is by secret, so the row of secret `s` holds the answer of
    /// every guess `g` to it. Scanning guesses in code order then reads each
    /// row sequentially, where the guess's own row would be read at scattered
    /// places (the moo:4x10 table is 25 MB, beyond the caches).
    pub(super) fn columns(&self, set: &[Code]) -> Vec<&[Feedback]> {
        set.iter().map(|&s| self.table.row(s)).collect()
    }

    /// The rows of `set` in the dense table, when the search has one
    /// and the set is small enough for the answer masks to read them.
    pub(super) fn dense_columns(&self, set: &[Code]) -> Option<Vec<&[u8]>> {
        let dense = self
            .dense
            .as_ref()
            .filter(|_| set.len() <= kernel::MASK_MAX)?;
        Some(set.iter().map(|&s| dense.row(s)).collect())
    }

    /// The answers of a node's set `set` for the class bounds of its
    /// guesses' classes ([`Kernel::node_answers`]), where they apply.
    pub(super) fn node_answers(&self, set: &[Code]) -> Option<NodeAnswers<'_>> {
        let kernel = self.kernel.as_ref()?;
        if set.len() > kernel::MAX_SET {
            return None;
        }
        let cols = self.columns(set);
        let dense: Option<Vec<&[u8]>> = self
            .dense
            .as_ref()
            .map(|t| set.iter().map(|&s| t.row(s)).collect());
        kernel.node_answers(&cols, dense.as_deref(), set, self.game.len())
    }

    /// The most non-winning answers any guess gives on `set`, through
    /// the kernel's answer counts (`None` where they do not apply).
    pub(super) fn most_answers(&self, set: &[Code]) -> Option<u64> {
        let kernel = self.kernel.as_ref()?;
        let cols = self.columns(set);
        let dense: Option<Vec<&[u8]>> = self
            .dense
            .as_ref()
            .map(|t| set.iter().map(|&s| t.row(s)).collect());
        kernel
            .most_answers(&cols, dense.as_deref(), self.game.len())
            .map(u64::from)
    }

    pub(super) fn filter<'s>(&'s self, set: &[Code], stab: &'s Stabilizer) -> Filter<'s> {
        let absent = self.all_symbols & !self.game.codes().symbols_of(set);
        // Symbols no candidate contains are interchangeable when every code
        // may be guessed: swapping two of them fixes the set and the guesses.
        // With only listed guesses the swap need not keep the guesses, so
        // that reduction is off (the root's list stabilizer still applies).
        let restricted = self.game.guesses_restricted();
        Filter {
            absent: (absent.count_ones() >= 2 && !restricted).then_some(absent),
            game: restricted.then_some(self.game),
            orbits: stab.orbit_filter(self.game.codes()),
            book: self.game.codes(),
        }
    }

    /// The lookahead bound of guess `g` over `set` (whose rows are `cols`):
    /// [`Context::lookahead`], or with per-secret weights their own
    /// ([`crate::search::weights`]).
    #[allow(clippy::too_many_arguments)]
    fn guess_bound(
        &self,
        set: &[Code],
        cols: &[&[Feedback]],
        d: usize,
        g: Code,
        candidate: bool,
        counts: &mut [u32; 256],
        limit: u64,
    ) -> Result<u64, u64> {
        match &self.weights {
            Some(w) => w.lookahead(set, cols, d, g, self.win, limit),
            None => self.lookahead(cols, d, g, candidate, counts, limit),
        }
    }

    /// The lookahead bound of a guess, own + Σ lower(|C|, d − 1) over its
    /// non-winning classes: `Ok` when below `limit`, else `Err` with a bound
    /// at least `limit` (`INF` for a non-candidate that answers the same for
    /// every candidate: it never helps). `counts` must be all zero and is
    /// left so. Classes are filled one secret at a time and the scan stops
    /// as soon as the bound reaches `limit` (the bound only grows).
    pub(super) fn lookahead(
        &self,
        cols: &[&[Feedback]],
        d: usize,
        g: Code,
        candidate: bool,
        counts: &mut [u32; 256],
        limit: u64,
    ) -> Result<u64, u64> {
        let n = cols.len();
        let gi = g.index();
        let delta = self.bounds.deltas(d - 1);
        let extra = self.bounds.extras(d - 1);
        // Every secret but the guess itself adds at least delta[0]; add that
        // up front so that the bound reaches `limit` as early as it can.
        let solved_later = (n - usize::from(candidate)) as u64;
        let mut bound = self
            .bounds
            .own(n, d)
            .saturating_add(solved_later.saturating_mul(delta[0]));
        if bound >= limit {
            return Err(bound.min(INF));
        }
        let win = self.win.0;
        let mut scanned = n;
        for (i, col) in cols.iter().enumerate() {
            let f = col[gi].0;
            if f == win {
                continue; // The guess itself: its class is not solved further.
            }
            let c = counts[f as usize];
            // No overflow: bound < limit <= INF and extra <= INF.
            bound += extra[c as usize];
            counts[f as usize] = c + 1;
            if bound >= limit {
                scanned = i + 1;
                break;
            }
        }
        let stopped = scanned < n || bound >= limit;
        let useless = !stopped && !candidate && counts[cols[0][gi].0 as usize] as usize == n;
        for col in &cols[..scanned] {
            counts[col[gi].0 as usize] = 0;
        }
        if useless {
            Err(INF)
        } else if stopped {
            Err(bound.min(INF))
        } else {
            Ok(bound)
        }
    }

    /// A lower bound on `cost(set, d)`: the least lookahead bound over every
    /// guess (at least the memo's knowledge and the level bound), or a value
    /// at least `limit` when no guess goes below it. Recorded in the memo.
    pub(super) fn class_bound(
        &self,
        memo: &Memo,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        limit: u64,
    ) -> u64 {
        self.class_bound_in(memo, set, d, stab, limit, None)
    }

    /// [`Context::class_bound`] of a class of a node whose answers are
    /// `node` (its set a superset of `set`, with the places there of the
    /// class's secrets, as a guess's split records them): the same value,
    /// found with fewer guesses scanned ([`Kernel::least_within`]).
    pub(super) fn class_bound_in(
        &self,
        memo: &Memo,
        set: &[Code],
        d: usize,
        stab: &Stabilizer,
        limit: u64,
        node: Option<(&mut NodeAnswers<'_>, &[u32])>,
    ) -> u64 {
        let n = set.len();
        let d = self.clamp(n, d);
        let floor = self.lower_of(set, d);
        if floor >= limit {
            return floor;
        }
        let raw = raw_key(set, d);
        let known = match memo.get(&raw) {
            Some(Entry::Exact(c, _)) => {
                crate::search::stats::class_bound(n, false);
                return c;
            }
            Some(Entry::AtLeast(b)) => b.max(floor),
            None => floor,
        };
        if known >= limit {
            crate::search::stats::class_bound(n, false);
            return known;
        }
        if let Some(kernel) = self.kernel.as_ref().filter(|_| n <= kernel::MAX_SET) {
            // Small sets, not kept in the memo, are asked again soon after
            // often: this thread's recent values may decide the bound
            // (`recent`: the same value). Not on the scalar path, the plain
            // counterpart the other paths are tested against.
            let recent = self.config.tuning.recent_bounds > 0
                && n < BOUND_MEMO_MIN
                && kernel.path() != kernel::KernelPath::Scalar;
            if recent {
                if let Some(best) = recall(self.owner, &raw, limit, known) {
                    crate::search::stats::class_bound_recalled(n);
                    return best;
                }
            }
            crate::search::stats::class_bound(n, true);
            let cols = self.columns(set);
            let best = self.class_bound_kernel(kernel, &cols, d, set, known, limit, node);
            if best > known && n >= BOUND_MEMO_MIN {
                memo.put(raw, Entry::AtLeast(best));
            } else if recent {
                let cap = self.config.tuning.recent_bounds;
                learn(self.owner, cap, raw, limit, known, best);
            }
            return best;
        }
        crate::search::stats::class_bound(n, true);
        let cols = self.columns(set);
        let filter = self.filter(set, stab);
        let mut counts = [0u32; 256];
        let mut best = limit;
        let book = self.game.codes();
        for &g in set {
            if best <= known {
                break;
            }
            if filter.keep(g) {
                if let Ok(b) = self.guess_bound(set, &cols, d, g, true, &mut counts, best) {
                    best = b;
                }
            }
        }
        let ncl = self.non_candidate_of(set, d);
        if best > known && best > ncl {
            // The set is sorted: walk it alongside to skip the candidates.
            let mut next = set.iter().peekable();
            for g in book.all() {
                if best <= known.max(ncl) {
                    break;
                }
                if next.peek() == Some(&&g) {
                    next.next();
                    continue;
                }
                if !filter.keep(g) {
                    continue;
                }
                if let Ok(b) = self.guess_bound(set, &cols, d, g, false, &mut counts, best) {
                    best = b.max(ncl);
                }
            }
        }
        let best = best.max(known);
        if best > known && n >= BOUND_MEMO_MIN {
            memo.put(raw, Entry::AtLeast(best));
        }
        best
    }

    /// [`Context::class_bound`] through the kernel (before the memo
    /// update): at least `known`, and a lower bound on the cost.
    #[allow(clippy::too_many_arguments)]
    fn class_bound_kernel(
        &self,
        kernel: &Kernel,
        cols: &[&[Feedback]],
        d: usize,
        set: &[Code],
        known: u64,
        limit: u64,
        node: Option<(&mut NodeAnswers<'_>, &[u32])>,
    ) -> u64 {
        let capacity = self.bounds.capacity(d - 1);
        if kernel.masks_apply(set.len(), capacity) {
            // Small sets: every guess at once by answer masks, candidates
            // included (the same value as below: the least bound over every
            // guess, no more than `limit`, at least `known`; a non-candidate
            // costs at least ncl anyway). Reading the rows in order beats
            // the candidates' scattered reads.
            let stop = known.min(u64::from(NONE - 1)) as u16;
            let ceiling = limit.min(u64::from(NONE)) as u16;
            if let Some((node, at)) = node {
                let least = BUF.with(|buf| {
                    let len = self.game.len();
                    let buf = &mut buf.borrow_mut();
                    kernel.least_within(node, at, cols, set, len, capacity, stop, ceiling, buf)
                });
                let least = if least == NONE { INF } else { u64::from(least) };
                return least.min(limit).max(known);
            }
            let dense = self.dense_columns(set);
            let least = BUF.with(|buf| {
                kernel.least(
                    cols,
                    dense.as_deref(),
                    set,
                    self.game.len(),
                    capacity,
                    stop,
                    ceiling,
                    &mut buf.borrow_mut(),
                )
            });
            let least = if least == NONE { INF } else { u64::from(least) };
            return least.min(limit).max(known);
        }
        // The bound is min(candidates, max(non-candidates, ncl)). The
        // candidates first, one by one (n² work at most): when their least
        // is at most ncl, it is the bound and no other guess is scanned.
        let ncl = self.bounds.non_candidate(set.len(), d);
        let mut counts = [0u32; 256];
        let mut cand = limit;
        for &g in set {
            if cand <= known {
                break;
            }
            if let Ok(b) = self.lookahead(cols, d, g, true, &mut counts, cand) {
                cand = b;
            }
        }
        let best = if cand <= known.max(ncl) {
            cand
        } else {
            // Every guess at once, stopping at the first at most max(known,
            // ncl) (the bound is then ncl at most). min(candidates,
            // max(all, ncl)) is the bound too: if a candidate is the least
            // of all, both are its bound. Symmetric guesses have equal
            // bounds: no orbit test.
            // No guess at or above the candidates' least changes the
            // bound: that is the ceiling.
            let stop = known.max(ncl).min(u64::from(NONE - 1)) as u16;
            let ceiling = cand.min(u64::from(NONE)) as u16;
            let all = BUF.with(|buf| {
                let least = kernel.least(
                    cols,
                    None,
                    set,
                    self.game.len(),
                    capacity,
                    stop,
                    ceiling,
                    &mut buf.borrow_mut(),
                );
                if least == NONE {
                    INF
                } else {
                    u64::from(least)
                }
            });
            cand.min(all.max(ncl))
        };
        best.max(known)
    }

    /// A tie-break between guesses of equal bound: for the feasibility
    /// objective (whose bounds are all 0) the largest class, smallest first,
    /// so that promising guesses come first; 0 for the other objectives,
    /// whose order is (bound, non-candidate, code).
    pub(super) fn spread(&self, set: &[Code], g: Code) -> u32 {
        if self.config.objective != Cost::Feasible {
            return 0;
        }
        let mut counts = [0u32; 256];
        partition::count(self.game, g, set, &mut counts);
        counts.into_iter().max().unwrap_or(0)
    }
}

/// Phase two's guesses level by level ([`Context::rest_levels`]): each
/// level the guesses of one (bound, non-candidate), ascending, in code
/// order, the symmetric ones left out. Handed out in turn, the levels are
/// [`Context::rest`]'s list cut where its key changes: the same guesses in
/// the same order, and the same least bound left out (`skipped`).
pub(super) struct Levels<'s> {
    /// (key, guess) of every guess below the limit not tried in phase
    /// one, key = 2·bound + non-candidate; in code order, then (once
    /// sorted) by key from `next` on.
    guesses: Vec<(u32, Code)>,
    filter: Filter<'s>,
    /// The least key not handed out yet.
    next: u32,
    /// Levels handed out so far.
    served: usize,
    /// Whether `guesses` is in key order (after a few levels: a node that
    /// needs many pays one sort, not a pass per level).
    sorted: bool,
    /// The least bound at or above the limit (`INF`: none).
    pub(super) skipped: u64,
}

/// Levels handed out by passes over the list before it is sorted.
const LEVEL_PASSES: usize = 4;

impl Levels<'_> {
    /// The next level, or `None` when every one was handed out. A level
    /// may be empty (all its guesses symmetric to smaller ones).
    pub(super) fn next_level(&mut self) -> Option<Vec<Scored>> {
        let next = self.next;
        if !self.sorted && self.served >= LEVEL_PASSES {
            self.guesses.retain(|e| e.0 >= next);
            // Stable: each level stays in code order.
            self.guesses.sort_by_key(|e| e.0);
            self.sorted = true;
        }
        let key = if self.sorted {
            let start = self.guesses.partition_point(|e| e.0 < next);
            self.guesses.get(start)?.0
        } else {
            self.guesses
                .iter()
                .map(|e| e.0)
                .filter(|&k| k >= next)
                .min()?
        };
        self.next = key + 1;
        self.served += 1;
        let bound = u64::from(key / 2);
        let keep = |&&(k, g): &&(u32, Code)| k == key && self.filter.keep(g);
        let to_scored = |&(_, guess): &(u32, Code)| Scored { bound, guess };
        Some(if self.sorted {
            let start = self.guesses.partition_point(|e| e.0 < key);
            self.guesses[start..]
                .iter()
                .take_while(|e| e.0 == key)
                .filter(keep)
                .map(to_scored)
                .collect()
        } else {
            self.guesses.iter().filter(keep).map(to_scored).collect()
        })
    }
}

thread_local! {
    /// Per-thread buffer of the kernel's bounds.
    static BUF: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The levels, handed out in turn, are the guesses the filter keeps in
    /// the order (key, code): one key per level, ascending, whatever the
    /// number of levels (passes over the list, then the sort).
    #[test]
    fn levels_are_the_list_in_order() {
        let game = crate::model::game::Game::new("moo:4x6".parse().unwrap());
        let book = game.codes();
        // Symbols 4 and 5 absent: only the guesses with them in
        // increasing order are kept.
        let filter = || Filter {
            absent: Some(0b11_0000),
            orbits: None,
            book,
            game: None,
        };
        let mut rng = crate::rng::SplitMix64::new(3);
        for trial in 0..300 {
            let span = 1 + rng.below(if trial % 2 == 0 { 6 } else { 400 }) as u32;
            let mut guesses: Vec<(u32, Code)> = Vec::new();
            for g in book.all() {
                if rng.below(3) > 0 {
                    guesses.push((200 + rng.below(span as usize) as u32, g));
                }
            }
            let mut want: Vec<(u32, Code)> = guesses
                .iter()
                .copied()
                .filter(|&(_, g)| filter().keep(g))
                .collect();
            want.sort();
            assert!(
                want.len() < guesses.len(),
                "trial {trial}: nothing filtered"
            );
            let mut levels = Levels {
                guesses,
                filter: filter(),
                next: 0,
                served: 0,
                sorted: false,
                skipped: INF,
            };
            let mut got = Vec::new();
            let mut last = None;
            while let Some(level) = levels.next_level() {
                let keys: Vec<u64> = level.iter().map(|s| s.bound).collect();
                assert!(keys.windows(2).all(|w| w[0] == w[1]), "trial {trial}");
                if let (Some(&k), Some(l)) = (keys.first(), last) {
                    assert!(k >= l, "trial {trial}");
                }
                last = keys.first().copied().or(last);
                got.extend(level.iter().map(|s| s.guess));
                for w in level.windows(2) {
                    assert!(w[0].guess < w[1].guess, "trial {trial}: code order");
                }
            }
            let want_codes: Vec<Code> = want.iter().map(|e| e.1).collect();
            assert_eq!(got, want_codes, "trial {trial}");
            // Each guess's bound is its key's half.
            let bounds: Vec<u64> = want.iter().map(|e| u64::from(e.0 / 2)).collect();
            let mut levels_again = Levels {
                guesses: want.clone(),
                filter: filter(),
                next: 0,
                served: 0,
                sorted: false,
                skipped: INF,
            };
            let mut again = Vec::new();
            while let Some(level) = levels_again.next_level() {
                again.extend(level.iter().map(|s| s.bound));
            }
            assert_eq!(again, bounds, "trial {trial}");
        }
    }
}
