//! The upper bound that starts the deepening of [`super::solve_static`]:
//! a separating set built greedily, then made smaller where a cheap search
//! finds it so (greedy prefixes completed by an exhaustive search of their
//! last two guesses, hill climbing).
//!
//! Invariant: every set these return separates the secrets (it only ever
//! lowers the upper bound, never the proven lower one); past the time
//! budget they stop early with what they have, still a separating set.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Classes, Shared, Task};

impl Shared<'_> {
    /// A separating set built greedily: each guess the one that leaves the
    /// fewest pairs of secrets together (the first such; with `rng`, one of
    /// the three best, drawn), until every class is a single secret or `stop_at` guesses
    /// are chosen. Past the time budget each guess is the best of the
    /// first few dozen that leave fewer pairs together. Always ends: a guess that is a secret of a class of two
    /// or more splits it (its own answer `kA0B` is unique), and with a
    /// secret list every secret may be guessed.
    pub(super) fn greedy(
        &self,
        mut rng: Option<&mut crate::rng::SplitMix64>,
        stop_at: usize,
    ) -> (Vec<usize>, Vec<u32>) {
        let n = self.n;
        let mut labels = vec![0u32; n];
        let mut classes = if n == 0 { 0 } else { 1 };
        let mut chosen = Vec::new();
        let slots = 256;
        while classes < n && chosen.len() < stop_at {
            let mut stamp = vec![u32::MAX; classes * slots];
            let mut count = vec![0u32; classes * slots];
            // The three best (score, guess), best first: the score is the
            // number of pairs of secrets left together (Σ s(s−1)/2 over
            // the classes), the smaller the better.
            let mut top = [(u64::MAX, usize::MAX); 3];
            // Past the budget, the first guesses that leave fewer pairs
            // together than now are enough (the set stays a valid upper
            // bound); the whole scan takes a second on a large game.
            let now = self.pairs(&labels);
            for g in 0..self.m {
                if g % 64 == 0 && top[0].0 < now && self.late() {
                    break;
                }
                let row = &self.by_guess[g * n..(g + 1) * n];
                let mut pairs = 0u64;
                for (s, &label) in labels.iter().enumerate() {
                    let key = label as usize * slots + row[s] as usize;
                    if stamp[key] != g as u32 {
                        stamp[key] = g as u32;
                        count[key] = 0;
                    }
                    pairs += u64::from(count[key]);
                    count[key] += 1;
                }
                if let Some(i) = top.iter().position(|&(p, _)| pairs < p) {
                    top[i..].rotate_right(1);
                    top[i] = (pairs, g);
                }
            }
            let pick = match rng.as_deref_mut() {
                Some(r) => {
                    let usable = top.iter().filter(|&&(_, g)| g != usize::MAX).count().max(1);
                    r.below(usable)
                }
                None => 0,
            };
            let g = top[pick].1;
            let row = &self.by_guess[g * n..(g + 1) * n];
            let mut renumber = rustc_hash::FxHashMap::default();
            for (s, label) in labels.iter_mut().enumerate() {
                let key = (*label, row[s]);
                let next = renumber.len() as u32;
                *label = *renumber.entry(key).or_insert(next);
            }
            classes = renumber.len();
            chosen.push(g);
        }
        (chosen, labels)
    }

    /// A smaller set than `best` if one is found cheaply, size after size:
    /// a few greedy prefixes (the plain one, then drawn ones) two short of
    /// the size, each completed by an exhaustive search of the last two
    /// guesses; then a local search from `best` less one guess (each guess
    /// in turn replaced by the one leaving the fewest pairs together, until
    /// none are left or nothing improves), whose last state is also tried
    /// with each two of its guesses searched anew. A heuristic: it only
    /// ever lowers the upper bound, with a set that separates; it stops at
    /// the deadline.
    pub(super) fn improve(&self, mut best: Vec<usize>) -> Vec<usize> {
        const ATTEMPTS: u64 = 6;
        const RESTARTS: usize = 8;
        let found_by = AtomicUsize::new(usize::MAX);
        let mut task = self.task(0, &found_by);
        let late = || self.late();
        'sizes: while best.len() > 2 {
            let u = best.len() - 1;
            for attempt in 0..ATTEMPTS {
                if late() {
                    break 'sizes;
                }
                let mut rng = crate::rng::SplitMix64::new(attempt);
                let (prefix, labels) = self.greedy((attempt > 0).then_some(&mut rng), u - 2);
                if let Some(rest) = self.complete(&mut task, &labels) {
                    best = prefix.into_iter().chain(rest).collect();
                    best.sort_unstable();
                    best.dedup();
                    continue 'sizes;
                }
            }
            // Local search from `best` less its last guess, then from
            // drawn sets of that size.
            let mut set = best[..u].to_vec();
            let mut score = self.climb(&mut set, &late);
            let mut rng = crate::rng::SplitMix64::new(u as u64);
            for _restart in 0..RESTARTS {
                if score == 0 || late() {
                    break;
                }
                let mut other: Vec<usize> = Vec::with_capacity(u);
                while other.len() < u {
                    let g = rng.below(self.m);
                    if !other.contains(&g) {
                        other.push(g);
                    }
                }
                let other_score = self.climb(&mut other, &late);
                if other_score < score {
                    (set, score) = (other, other_score);
                }
            }
            if score == 0 {
                best = set;
                best.sort_unstable();
                best.dedup();
                continue 'sizes;
            }
            for i in 0..set.len() {
                for j in i + 1..set.len() {
                    if late() {
                        break 'sizes;
                    }
                    let others: Vec<usize> = (0..set.len())
                        .filter(|&k| k != i && k != j)
                        .map(|k| set[k])
                        .collect();
                    if let Some(rest) = self.complete(&mut task, &self.labels(&others)) {
                        best = others.into_iter().chain(rest).collect();
                        best.sort_unstable();
                        best.dedup();
                        continue 'sizes;
                    }
                }
            }
            break;
        }
        self.nodes.fetch_add(task.nodes, Ordering::Relaxed);
        best
    }

    /// Hill climbing on `set`: each guess in turn replaced by the guess
    /// leaving the fewest pairs of secrets together, moves that keep the
    /// number taken too, for a few rounds or until no pair is left;
    /// returns the pairs left.
    pub(super) fn climb(&self, set: &mut [usize], late: &dyn Fn() -> bool) -> u64 {
        const ROUNDS: usize = 12;
        let mut score = self.pairs(&self.labels(set));
        for _round in 0..ROUNDS {
            if score == 0 || late() {
                break;
            }
            let mut moved = false;
            for pos in 0..set.len() {
                if late() {
                    break;
                }
                let others: Vec<usize> = (0..set.len())
                    .filter(|&i| i != pos)
                    .map(|i| set[i])
                    .collect();
                if let Some((pairs, g)) = self.best_next(&self.labels(&others), set) {
                    if pairs <= score {
                        (set[pos], score, moved) = (g, pairs, true);
                    }
                }
                if score == 0 {
                    break;
                }
            }
            if !moved {
                break;
            }
        }
        score
    }

    /// Two guesses that, after the labelling `labels` (secret → class),
    /// separate every class: an exhaustive search.
    pub(super) fn complete(&self, task: &mut Task<'_, '_>, labels: &[u32]) -> Option<Vec<usize>> {
        let classes = Classes::from_labels(labels);
        if classes.is_empty() {
            return Some(Vec::new());
        }
        if classes.class(0).len() > self.answers * self.answers {
            return None;
        }
        // The budget is looked at for each first guess: a search of all
        // the pairs may take seconds on a large game.
        (0..self.m)
            .take_while(|_| !self.late())
            .find_map(|g| task.last_after(&classes, g).map(|h| vec![g, h]))
    }

    /// The classes (secret → class number) of a set of guesses.
    pub(super) fn labels(&self, set: &[usize]) -> Vec<u32> {
        let n = self.n;
        let mut labels = vec![0u32; n];
        for &g in set {
            let row = &self.by_guess[g * n..(g + 1) * n];
            let mut renumber = rustc_hash::FxHashMap::default();
            for (s, label) in labels.iter_mut().enumerate() {
                let next = renumber.len() as u32;
                *label = *renumber.entry((*label, row[s])).or_insert(next);
            }
        }
        labels
    }

    /// Pairs of secrets with the same label.
    pub(super) fn pairs(&self, labels: &[u32]) -> u64 {
        let mut count = vec![0u64; self.n.max(1)];
        labels
            .iter()
            .map(|&l| {
                count[l as usize] += 1;
                count[l as usize] - 1
            })
            .sum()
    }

    /// The guess not in `taken` leaving the fewest pairs together after
    /// `labels`, with that number (the first such guess).
    pub(super) fn best_next(&self, labels: &[u32], taken: &[usize]) -> Option<(u64, usize)> {
        let n = self.n;
        let slots = 256;
        let classes = labels.iter().max().map_or(0, |&l| l as usize + 1);
        let mut stamp = vec![u32::MAX; classes * slots];
        let mut count = vec![0u32; classes * slots];
        let mut best: Option<(u64, usize)> = None;
        for g in (0..self.m).filter(|g| !taken.contains(g)) {
            let row = &self.by_guess[g * n..(g + 1) * n];
            let mut pairs = 0u64;
            for (s, &label) in labels.iter().enumerate() {
                let key = label as usize * slots + row[s] as usize;
                if stamp[key] != g as u32 {
                    stamp[key] = g as u32;
                    count[key] = 0;
                }
                pairs += u64::from(count[key]);
                count[key] += 1;
            }
            if best.is_none_or(|(p, _)| pairs < p) {
                best = Some((pairs, g));
            }
        }
        best
    }
}
