//! A sieve for the next-to-last guess (docs/static.md, "The last two
//! guesses"): with two guesses left, a few pairs of secrets left together
//! are weighed once per node, each as the bit set of the guesses of the
//! pool that separate it; each next-to-last guess `x` tried then starts
//! its last guesses from the pool, less every guess that fails to
//! separate a weighed pair `x` leaves together: bit sets ANDed, no
//! answer row read. Most guesses `x` are dead after a few weighed pairs;
//! the others go on to the full test ([`Task::last_after_in`]), which
//! reads every pair.
//!
//! Invariants: the weighed pairs are pairs of secrets of one class (so
//! left together by every guess chosen); bit `j` of a pair's set is set
//! exactly when guess `j` is in the pool and answers its two secrets
//! differently; the sets are sorted fewest guesses first, so a guess dies
//! as early as the sieve can make it. The sieve only removes guesses that
//! cannot come last, so the candidates it hands on are a superset of the
//! full test's answer.

use super::alive::{neq, Alive};
use super::{Classes, Task};

/// Pairs kept in the sieve of a node: the hardest of those weighed.
pub(super) const WEIGHED: usize = 32;

/// Pairs weighed at a node, at most.
pub(super) const CANDIDATES: usize = 160;

/// The weighed pairs of one node and their separating guesses.
#[derive(Default)]
pub(super) struct Sieve {
    /// Words of a bit set.
    words: usize,
    /// The pairs, hardest first.
    pairs: Vec<(u16, u16)>,
    /// `sep[w * pairs.len() + k]`: word `w` of pair `k`'s separating
    /// guesses (word-major, so that a word of every pair is together).
    sep: Vec<u64>,
    /// Scratch: the hardest pairs met, with their counts; the pool's
    /// words not empty.
    kept: Vec<(u32, u16, u16)>,
    live: Vec<usize>,
}

impl Sieve {
    /// Weighs up to [`CANDIDATES`] pairs of `classes` (each class's
    /// first secret with every other, largest class first) against
    /// `pool` (`by_secret` rows of `m` answers) and keeps the [`WEIGHED`]
    /// hardest. Returns the fewest guesses separating a pair: 0 means no
    /// completion exists.
    pub(super) fn weigh(
        &mut self,
        classes: &Classes,
        pool: &[u64],
        by_secret: &[u8],
        m: usize,
    ) -> u32 {
        let words = pool.len();
        self.words = words;
        self.pairs.clear();
        self.sep.clear();
        // The hardest so far, fewest separating guesses first.
        let kept = &mut self.kept;
        kept.clear();
        let live: &mut Vec<usize> = &mut self.live;
        live.clear();
        live.extend((0..words).filter(|&w| pool[w] != 0));
        let row = |s: u16| &by_secret[s as usize * m..(s as usize + 1) * m];
        let mut weighed = 0;
        'classes: for i in 0..classes.spans.len() {
            let class = classes.class(i);
            let a = class[0];
            let ra = row(a);
            for &b in &class[1..] {
                let rb = row(b);
                // Counted only as far as it can still be kept.
                let bound = if kept.len() == WEIGHED {
                    kept[WEIGHED - 1].0
                } else {
                    u32::MAX
                };
                let mut count = 0;
                for &w in live.iter() {
                    count += (pool[w] & neq(ra, rb, w)).count_ones();
                    if count >= bound {
                        break;
                    }
                }
                if count == 0 {
                    return 0;
                }
                if count < bound {
                    let at = kept.partition_point(|k| k.0 <= count);
                    if kept.len() == WEIGHED {
                        kept.pop();
                    }
                    kept.insert(at, (count, a, b));
                }
                weighed += 1;
                if weighed == CANDIDATES {
                    break 'classes;
                }
            }
        }
        self.pairs.extend(kept.iter().map(|&(_, a, b)| (a, b)));
        self.sep.resize(words * kept.len(), 0);
        for (k, &(_, a, b)) in kept.iter().enumerate() {
            let (ra, rb) = (row(a), row(b));
            for (w, &p) in pool.iter().enumerate() {
                self.sep[w * kept.len() + k] = if p == 0 { 0 } else { p & neq(ra, rb, w) };
            }
        }
        kept.first().map_or(u32::MAX, |k| k.0)
    }

    /// The separating guesses of the hardest pair weighed, in order.
    pub(super) fn hardest(&self) -> Vec<usize> {
        let mut out = Vec::new();
        if self.pairs.is_empty() {
            return out;
        }
        for w in 0..self.words {
            let mut bits = self.sep[w * self.pairs.len()];
            while bits != 0 {
                out.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        out
    }

    /// Starts `alive` from the guesses of `pool` from index `from` on
    /// that separate every weighed pair guess `x` (its answer row `row`,
    /// by secret) leaves together; whether any is left. Word by word,
    /// each word given up as soon as it is empty.
    pub(super) fn sift(&self, row: &[u8], pool: &[u64], from: usize, alive: &mut Alive) -> bool {
        let kept = self.pairs.len();
        let mut together = [0u8; WEIGHED];
        let mut n = 0;
        for (k, &(a, b)) in self.pairs.iter().enumerate() {
            together[n] = k as u8;
            n += usize::from(row[a as usize] == row[b as usize]);
        }
        let together = &together[..n];
        alive.start_with(from / 64..pool.len(), |w| {
            let mut bits = pool[w];
            if w == from / 64 {
                bits &= u64::MAX << (from % 64);
            }
            let sep = &self.sep[w * kept..(w + 1) * kept];
            for &k in together {
                if bits == 0 {
                    break;
                }
                bits &= sep[k as usize];
            }
            bits
        })
    }
}

impl Task<'_, '_> {
    /// Weighs the pairs of `classes` against `pool` into the task's
    /// sieve; the fewest guesses of the pool separating one of them.
    pub(super) fn weigh(&mut self, classes: &Classes, pool: &[u64]) -> u32 {
        let ctx = self.ctx;
        self.sieve.weigh(classes, pool, &ctx.by_secret, ctx.m)
    }

    /// The first guess of `pool` from `from` on that, with `x`, separates
    /// every class: the sieve first, then the full test.
    pub(super) fn last_sifted(
        &mut self,
        classes: &Classes,
        x: usize,
        pool: &[u64],
        from: usize,
    ) -> Option<usize> {
        let ctx = self.ctx;
        let row = &ctx.by_guess[x * ctx.n..(x + 1) * ctx.n];
        if !self.sieve.sift(row, pool, from, &mut self.alive) {
            return None;
        }
        self.last_after_in(classes, x, super::alive::Pool::Started)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Shared, StaticConfig};
    use crate::model::game::Game;
    use crate::rng::SplitMix64;
    use std::sync::atomic::AtomicUsize;

    /// At nodes with two guesses left (random chosen guesses in code
    /// order, with and without the least-pair cut, on games with few and
    /// many symbols and positions), the sieve then the full test gives,
    /// for every next-to-last guess, the same last guess as the full test
    /// alone; and when the sieve's weighing says no completion exists,
    /// the full test finds none for any next-to-last guess.
    #[test]
    fn the_sieve_keeps_what_the_full_test_finds() {
        let mut rng = SplitMix64::new(11);
        let mut compared = 0;
        let mut dead = 0;
        for rules in [
            "mm:3x4", "moo:3x6", "mm:2x9", "moo:4x6", "mm:5x3", "moo:2x8",
        ] {
            let game = Game::new(rules.parse().unwrap());
            for least_pair in [true, false] {
                let config = StaticConfig {
                    least_pair,
                    local_iterations: 0,
                    ..StaticConfig::default()
                };
                let ctx = Shared::quiet(&game, config);
                let found_by = AtomicUsize::new(usize::MAX);
                for _ in 0..40 {
                    let mut task = ctx.task(0, &found_by);
                    let mut classes = ctx.root_classes();
                    let chosen = 1 + rng.below(3);
                    let mut from = 0;
                    let mut ok = true;
                    for _ in 0..chosen {
                        let choices: Vec<usize> =
                            (from..ctx.m).filter(|&g| task.admits(g)).collect();
                        if choices.len() < 3 {
                            ok = false;
                            break;
                        }
                        let g = choices[rng.below(choices.len() / 2)];
                        classes = task.refine(&classes, g, u64::MAX).unwrap();
                        task.push(g);
                        from = g + 1;
                    }
                    if !ok || classes.is_empty() {
                        continue;
                    }
                    let pool = task.pool_from(from);
                    let least = task.weigh(&classes, &pool);
                    for x in from..ctx.m {
                        if !task.admits(x) {
                            continue;
                        }
                        let plain = task.last_after(&classes, x);
                        if least == 0 {
                            assert_eq!(plain, None, "{rules}: weighed dead");
                            dead += 1;
                            continue;
                        }
                        let sifted = task.last_sifted(&classes, x, &pool, x + 1);
                        assert_eq!(sifted, plain, "{rules}: next to last {x}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 5000, "only {compared} compared");
        assert!(dead > 0, "no node weighed dead");
    }
}
