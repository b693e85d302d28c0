//! The local search behind the upper bound of [`super::solve_static`]: a
//! tabu search over sets of exactly `t` guesses for one that separates the
//! secrets (docs/static.md, "The upper bound").
//!
//! The objective is the number of pairs of secrets a set leaves together
//! (`Σ C(s, 2)` over its classes of equal answers); a set separates when it
//! is 0. A move replaces one guess of the set by a guess outside it. Every
//! iteration scores every move: for each position `p` the secrets are
//! grouped by their answers to the other `t − 1` guesses (their answer
//! vectors packed in one integer, the `p`-th field masked, then sorted),
//! and each pair of secrets left together there counts, for every guess at
//! once, whether that guess answers both alike (the two secrets' rows of
//! answers compared byte by byte; a large class counts its buckets guess
//! by guess instead). The best move is taken (ties drawn), except that a
//! guess taken out may not come back for 7 to 14 iterations (drawn), unless it would
//! beat the best score met; after many iterations without a new best the
//! search restarts from the best set with a few guesses drawn anew.
//!
//! Invariants: the set always holds `t` distinct guesses; a set is
//! returned only when it leaves no pair together, i.e. it separates (the
//! tests check each with the independent checker); the generator is
//! seeded, so a run is a function of its start, seed and iteration limit
//! (only the time budget may end it earlier, looked at before each
//! position's scoring). It spawns no threads. The answer vectors are packed
//! in a `u128`, so sets of more than `128 / bits` guesses (`bits` the
//! width of an answer's index: 5 for four pegs) are not searched: the
//! start set is returned as it is if it separates.

use crate::rng::SplitMix64;

use super::{Shared, StaticConfig, StaticLocal};

/// What one run of the local search did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LocalRun {
    /// Iterations done (each scores every move once).
    pub iterations: u64,
    /// Fewest pairs of secrets left together by a set met (0: separating).
    pub best_pairs: u64,
}

/// Classes of at most this many secrets are scored pair by pair (a
/// vectorized comparison of two rows); larger ones bucket by bucket.
const PAIRWISE: usize = 48;
/// Iterations without a new best before a restart from the best set.
const STALL: u64 = 150;

impl Shared<'_> {
    /// Lowers `best` (a separating set) size after size while the local
    /// search finds a separating set one guess smaller, each search
    /// starting from `best` less the guess whose loss leaves the fewest
    /// pairs together; never below `floor` (sizes refuted by counting).
    /// Returns each size tried.
    pub(super) fn descend(
        &self,
        best: &mut Vec<usize>,
        floor: usize,
        config: &StaticConfig,
    ) -> Vec<StaticLocal> {
        let mut tried = Vec::new();
        while config.local_iterations > 0 && best.len() > floor.max(1) && !self.late() {
            let clock = std::time::Instant::now();
            let u = best.len() - 1;
            let drop = (0..best.len())
                .min_by_key(|&p| {
                    let others: Vec<usize> = (0..best.len())
                        .filter(|&q| q != p)
                        .map(|q| best[q])
                        .collect();
                    self.pairs(&self.labels(&others))
                })
                .expect("a set of two or more guesses");
            let start: Vec<usize> = (0..best.len())
                .filter(|&q| q != drop)
                .map(|q| best[q])
                .collect();
            let seed = crate::rng::splitmix64(config.seed ^ ((u as u64) << 32));
            let (found, run) = self.tabu(&start, config.local_iterations, seed);
            tried.push(StaticLocal {
                size: u,
                found: found.is_some(),
                iterations: run.iterations,
                pairs: run.best_pairs,
                seconds: clock.elapsed().as_secs_f64(),
            });
            match found {
                Some(mut set) => {
                    set.sort_unstable();
                    *best = set;
                }
                None => break,
            }
        }
        tried
    }

    /// A tabu search over sets of `start.len()` guesses, from `start`
    /// (distinct guess indices), for at most `iterations` iterations and
    /// within the time budget; returns a separating set of that size if it
    /// meets one, and what it did.
    pub(super) fn tabu(
        &self,
        start: &[usize],
        iterations: u64,
        seed: u64,
    ) -> (Option<Vec<usize>>, LocalRun) {
        let (n, m, t) = (self.n, self.m, start.len());
        let max_answer = self.by_guess.iter().copied().max().unwrap_or(0);
        let bits = (8 - max_answer.leading_zeros()).max(1) as usize;
        let mut run = LocalRun {
            iterations: 0,
            best_pairs: u64::MAX,
        };
        let start_pairs = self.pairs(&self.labels(start));
        if start_pairs == 0 || t * bits > 128 || m <= t {
            run.best_pairs = start_pairs;
            return ((start_pairs == 0).then(|| start.to_vec()), run);
        }
        let field = |p: usize| ((1u128 << bits) - 1) << (p * bits);
        let mut set = start.to_vec();
        let mut keys = vec![0u128; n];
        let put = |keys: &mut [u128], p: usize, g: usize| {
            let row = &self.by_guess[g * n..(g + 1) * n];
            for (k, &a) in keys.iter_mut().zip(row) {
                *k = (*k & !field(p)) | (u128::from(a) << (p * bits));
            }
        };
        for (p, &g) in set.iter().enumerate() {
            put(&mut keys, p, g);
        }
        let mut rng = SplitMix64::new(seed);
        let mut in_set = vec![false; m];
        for &g in &set {
            in_set[g] = true;
        }
        // `tabu_until[g]`: the first iteration at which `g` may come back.
        let mut tabu_until = vec![0u64; m];
        let mut best_set = set.clone();
        let mut best_pairs = start_pairs;
        let mut since_best = 0u64;
        let mut sorted: Vec<(u128, u16)> = Vec::with_capacity(n);
        let mut total = vec![0u64; m];
        let mut acc = vec![0u16; m];
        let mut counts = [0u32; 256];
        while run.iterations < iterations && !self.late() {
            let iter = run.iterations;
            run.iterations += 1;
            // The best move: (pairs left, position, guess), ties drawn.
            let mut best_move: Option<(u64, usize, usize)> = None;
            let mut ties = 0usize;
            let mut current = u64::MAX;
            for p in 0..t {
                if p > 0 && self.late() {
                    // Past the budget mid-iteration: no move, the best
                    // set met stands.
                    best_move = None;
                    break;
                }
                sorted.clear();
                sorted.extend(
                    keys.iter()
                        .enumerate()
                        .map(|(s, &k)| (k & !field(p), s as u16)),
                );
                sorted.sort_unstable();
                total.fill(0);
                acc.fill(0);
                let mut in_acc = 0u32;
                let mut i = 0;
                while i < n {
                    let mut j = i + 1;
                    while j < n && sorted[j].0 == sorted[i].0 {
                        j += 1;
                    }
                    let class = &sorted[i..j];
                    i = j;
                    if class.len() < 2 {
                        continue;
                    }
                    if class.len() <= PAIRWISE {
                        for (x, &(_, a)) in class.iter().enumerate() {
                            let ra = &self.by_secret[a as usize * m..(a as usize + 1) * m];
                            for &(_, b) in &class[x + 1..] {
                                let rb = &self.by_secret[b as usize * m..(b as usize + 1) * m];
                                if in_acc == u32::from(u16::MAX) {
                                    for (y, z) in total.iter_mut().zip(acc.iter_mut()) {
                                        *y += u64::from(*z);
                                        *z = 0;
                                    }
                                    in_acc = 0;
                                }
                                for ((z, &u), &v) in acc.iter_mut().zip(ra).zip(rb) {
                                    *z += u16::from(u == v);
                                }
                                in_acc += 1;
                            }
                        }
                    } else {
                        for (g, y) in total.iter_mut().enumerate() {
                            let row = &self.by_guess[g * n..(g + 1) * n];
                            let mut pairs = 0u64;
                            for &(_, s) in class {
                                let c = &mut counts[row[s as usize] as usize];
                                pairs += u64::from(*c);
                                *c += 1;
                            }
                            for &(_, s) in class {
                                counts[row[s as usize] as usize] = 0;
                            }
                            *y += pairs;
                        }
                    }
                }
                for (y, z) in total.iter_mut().zip(&acc) {
                    *y += u64::from(*z);
                }
                current = total[set[p]];
                for g in 0..m {
                    let score = total[g];
                    if in_set[g] || (tabu_until[g] > iter && score >= best_pairs) {
                        continue;
                    }
                    match best_move {
                        Some((b, _, _)) if score > b => {}
                        Some((b, _, _)) if score == b => {
                            ties += 1;
                            if rng.below(ties) == 0 {
                                best_move = Some((score, p, g));
                            }
                        }
                        _ => {
                            best_move = Some((score, p, g));
                            ties = 1;
                        }
                    }
                }
            }
            // `current` is the set's own score (position 0 always runs).
            if current < best_pairs {
                (best_pairs, best_set, since_best) = (current, set.clone(), 0);
            }
            if best_pairs == 0 || (best_move.is_none() && self.late()) {
                break;
            }
            since_best += 1;
            let Some((score, p, g)) = best_move else {
                break;
            };
            if since_best > STALL {
                // Restart from the best set, a few guesses drawn anew.
                set.clone_from(&best_set);
                in_set.fill(false);
                for &h in &set {
                    in_set[h] = true;
                }
                for _ in 0..2 {
                    let p = rng.below(t);
                    let h = loop {
                        let h = rng.below(m);
                        if !in_set[h] {
                            break h;
                        }
                    };
                    in_set[set[p]] = false;
                    in_set[h] = true;
                    set[p] = h;
                }
                for (p, &h) in set.iter().enumerate() {
                    put(&mut keys, p, h);
                }
                tabu_until.fill(0);
                since_best = 0;
                continue;
            }
            let old = set[p];
            in_set[old] = false;
            in_set[g] = true;
            set[p] = g;
            put(&mut keys, p, g);
            tabu_until[old] = iter + 8 + rng.below(8) as u64;
            if score < best_pairs {
                (best_pairs, best_set, since_best) = (score, set.clone(), 0);
                if score == 0 {
                    break;
                }
            }
        }
        run.best_pairs = best_pairs;
        ((best_pairs == 0).then_some(best_set), run)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{solve_static, Shared, StaticConfig};
    use crate::exec::Sequential;
    use crate::model::code::Code;
    use crate::model::game::Game;
    use crate::static_game::check::check_static;

    fn game(rules: &str) -> Game {
        Game::new(rules.parse().unwrap())
    }

    fn codes(ctx: &Shared<'_>, set: &[usize]) -> Vec<Code> {
        set.iter().map(|&g| ctx.guesses[g]).collect()
    }

    /// The local search alone, from the greedy set (no completions, no
    /// hill climbing), reaches the size the exhaustive search proves
    /// minimal on small games; every set it reports passes the independent
    /// checker, and none is below the proven minimum.
    #[test]
    fn local_sets_separate_and_reach_the_proven_minimum() {
        for rules in [
            "mm:2x8", "moo:3x8", "mm:3x6", "moo:4x5", "moo:4x6", "mm:4x4",
        ] {
            let g = game(rules);
            let plain = StaticConfig {
                local_iterations: 0,
                ..StaticConfig::default()
            };
            let exact = solve_static(&g, plain, &Sequential, &|_| {}).unwrap();
            assert!(exact.exact, "{rules}");
            let config = StaticConfig {
                local_iterations: 3000,
                ..StaticConfig::default()
            };
            let ctx = Shared::quiet(&g, config);
            let mut best = ctx.greedy(None, usize::MAX).0;
            let tried = ctx.descend(&mut best, 0, &config);
            let found = codes(&ctx, &best);
            check_static(&g, &found).unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert!(found.len() >= exact.upper, "{rules}");
            assert_eq!(found.len(), exact.upper, "{rules}: {tried:?}");
            // The last size tried is refused (it is below the minimum),
            // after every iteration allowed, some pair left together.
            let last = tried.last().unwrap();
            assert!(!last.found && last.pairs > 0 && last.iterations == 3000);
            assert_eq!(last.size, exact.upper - 1, "{rules}");
        }
    }

    /// The same seed gives the same set and the same iterations; the
    /// found set separates.
    #[test]
    fn a_seed_fixes_the_run() {
        let g = game("moo:4x6");
        let config = StaticConfig::default();
        let ctx = Shared::quiet(&g, config);
        // Five guesses drawn by the greedy rule from its second pick on:
        // not separating at the start.
        let start = ctx.greedy(None, 5).0;
        assert!(ctx.pairs(&ctx.labels(&start)) > 0);
        let runs: Vec<_> = (0..2).map(|_| ctx.tabu(&start, 2000, 7)).collect();
        assert_eq!(runs[0], runs[1]);
        let (set, run) = &runs[0];
        let set = set.as_ref().expect("moo:4x6 has separating sets of 5");
        assert!(run.iterations > 0 && run.best_pairs == 0);
        assert_eq!(set.len(), 5);
        check_static(&g, &codes(&ctx, set)).unwrap();
    }

    /// A spent budget stops the search before its first iteration: it
    /// reports the start's own pairs, and no set.
    #[test]
    fn a_spent_budget_stops_at_once() {
        let g = game("moo:4x6");
        let config = StaticConfig {
            time_budget: Some(std::time::Duration::ZERO),
            ..StaticConfig::default()
        };
        let ctx = Shared::quiet(&g, config);
        let start = ctx.greedy(None, 4).0;
        let pairs = ctx.pairs(&ctx.labels(&start));
        assert!(pairs > 0);
        let (set, run) = ctx.tabu(&start, 1000, 0);
        assert_eq!(set, None);
        assert_eq!((run.iterations, run.best_pairs), (0, pairs));
        let mut best = ctx.greedy(None, usize::MAX).0;
        let before = best.clone();
        assert!(ctx.descend(&mut best, 0, &config).is_empty());
        assert_eq!(best, before);
    }

    /// Through `solve_static`: the local search lowers the upper bound
    /// that the exhaustive search starts from, and the answer is the same
    /// with it or without it.
    #[test]
    fn the_local_search_leaves_the_proof_alone() {
        for rules in ["moo:3x7", "mm:3x5", "moo:4x5"] {
            let g = game(rules);
            let with = solve_static(&g, StaticConfig::default(), &Sequential, &|_| {}).unwrap();
            let without = StaticConfig {
                local_iterations: 0,
                ..StaticConfig::default()
            };
            let without = solve_static(&g, without, &Sequential, &|_| {}).unwrap();
            assert!(with.exact && without.exact, "{rules}");
            assert_eq!(with.upper, without.upper, "{rules}");
            assert!(without.local.is_empty());
            check_static(&g, &with.guesses).unwrap();
            assert!(with.heuristic >= with.upper);
            for l in &with.local {
                assert!(l.size < with.heuristic && l.found == (l.pairs == 0));
            }
        }
    }
}
