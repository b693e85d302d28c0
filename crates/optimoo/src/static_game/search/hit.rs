//! Below the first guesses, the static search branches on a pair of
//! secrets instead of on the next guess in code order (docs/static.md,
//! "The hardest pair").
//!
//! After the first [`LEX_DEPTH`] guesses (taken in increasing code order,
//! the least of the rest first), every set still to be met is the chosen
//! guesses and `left` more from a *pool*: the guesses after the least
//! free one that the least-pair cut allows. A pair of secrets the chosen
//! guesses leave together must be told apart by one of the `left` guesses,
//! so it must be one of the pool's guesses that separate that pair. Of a
//! few pairs left together, the one with the fewest such guesses is taken
//! (the *hardest*), and the search branches on `x`, the least of the set's
//! guesses that separate it, in increasing order: in the branch of `x` the
//! pair's separating guesses below `x` are out of the pool. Every set is
//! met once, in the branch of its least guess separating the pair.
//!
//! Invariants:
//! - The pool holds no guess at or above `m`, none chosen, none excluded
//!   by an earlier branch, and (after each guess chosen) only guesses the
//!   least-pair cut allows with every chosen one but the last.
//! - The cuts are those of the lexicographic search (counting, least
//!   pair), each a property of the set and not of its order, so each
//!   holds; the orbit test of the later guesses is not used (it needs the
//!   code order; leaving out a cut loses no set).
//! - The order the sets are met in depends only on the game and the size,
//!   not on how the size is cut into tasks: the first [`LEX_DEPTH`]
//!   guesses are at least as many as any task fixes plus one.

use super::classes::Partition;
use super::sieve::Weigh;
use super::{Classes, Task};

/// The guesses taken in increasing code order before the search branches
/// on pairs (every guess of a set of four or fewer): one more than the
/// most a task fixes (three), so that the order does not depend on the
/// cut; at least two, as the least-pair cut needs the second guess of the
/// set (the floor of its pair values) chosen first.
pub(super) const LEX_DEPTH: usize = 4;

impl Task<'_, '_> {
    /// [`Task::hit`] below the guesses taken in code order, without the
    /// killers of the nodes searched before: the killers weighed choose
    /// the pairs branched on, so the order the subtree's sets are met in
    /// is then the same in every run, resumed or not, and for every cut
    /// into tasks.
    pub(super) fn branch(
        &mut self,
        classes: &Classes,
        pool: Vec<u64>,
        t: usize,
    ) -> Option<Vec<usize>> {
        self.sieve.forget_killers();
        self.hit(classes, pool, t)
    }

    /// The first separating completion of the chosen guesses by `t` in
    /// all, the others from `pool`; at least two are left to choose.
    fn hit(&mut self, classes: &Classes, mut pool: Vec<u64>, t: usize) -> Option<Vec<usize>> {
        let left = t - self.chosen.len();
        debug_assert!(left >= 2);
        if left == 2 {
            return self.hit_two(&mut &*classes, pool, t);
        }
        if classes.is_empty() {
            return Some(self.chosen.clone());
        }
        // The hardest pair weighed (module `sieve`).
        let weigh = if left >= super::sieve::EVERY_PAIR_FROM {
            Weigh::EveryPair
        } else {
            Weigh::Branching
        };
        if self.weigh(&mut &*classes, &pool, weigh) == 0 {
            return None;
        }
        let branch = self.sieve.hardest();
        let limit = self.ctx.pow[left - 1];
        for x in branch {
            pool[x / 64] &= !(1 << (x % 64));
            if self.cancelled(t) {
                return None;
            }
            let found = if left == 3 {
                // The child's classes are made as its sieve and its full
                // tests read them: most read only the first few.
                let Some(mut next) = self.refine_lazily(classes, x, limit) else {
                    continue;
                };
                self.push(x);
                let child = self.narrowed(&pool);
                self.hit_two(&mut next, child, t)
            } else {
                let Some(next) = self.refine(classes, x, limit) else {
                    continue;
                };
                self.push(x);
                let child = self.narrowed(&pool);
                self.hit(&next, child, t)
            };
            self.chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// [`Task::hit`] with two guesses left: the hardest pair weighed (the
    /// sieve also narrows each last guess's candidates), then each of its
    /// separating guesses as the next-to-last.
    fn hit_two(
        &mut self,
        classes: &mut impl Partition,
        mut pool: Vec<u64>,
        t: usize,
    ) -> Option<Vec<usize>> {
        debug_assert_eq!(t - self.chosen.len(), 2);
        if classes.get(0).is_none() {
            return Some(self.chosen.clone());
        }
        let weigh = if 2 >= super::sieve::EVERY_PAIR_FROM {
            Weigh::EveryPair
        } else {
            Weigh::Branching
        };
        if self.weigh(classes, &pool, weigh) == 0 {
            return None;
        }
        let branch = self.sieve.hardest();
        self.sieve.sift_branch(&branch);
        for (j, x) in branch.into_iter().enumerate() {
            pool[x / 64] &= !(1 << (x % 64));
            if self.cancelled(t) {
                return None;
            }
            if let Some(y) = self.last_of_branch(classes, j, x, &pool) {
                let mut set = self.chosen.clone();
                set.extend([x, y]);
                return Some(set);
            }
        }
        None
    }

    /// The guesses from index `from` on that the least-pair cut lets
    /// join the chosen ones: the pool below the least free guess
    /// (`from` one after it), and the sieve's pool with two left.
    pub(super) fn pool_from(&self, from: usize) -> Vec<u64> {
        let m = self.ctx.m;
        let pool: Vec<u64> = (0..m.div_ceil(64))
            .map(|w| {
                let (lo, hi) = (w * 64, (w * 64 + 64).min(m));
                if hi <= from {
                    0
                } else {
                    let top = if hi - lo == 64 {
                        u64::MAX
                    } else {
                        (1u64 << (hi - lo)) - 1
                    };
                    top & (u64::MAX << from.saturating_sub(lo))
                }
            })
            .collect();
        self.narrowed(&pool)
    }

    /// `pool` less the guesses the least-pair cut does not let join the
    /// chosen ones.
    pub(super) fn narrowed(&self, pool: &[u64]) -> Vec<u64> {
        let m = self.ctx.m;
        let allowed = super::pairs::allowed_at(&self.allowed, self.chosen.len(), m);
        pool.iter()
            .enumerate()
            .map(|(w, &p)| {
                if p == 0 {
                    0
                } else {
                    p & !super::alive::eq_zero(allowed, w)
                }
            })
            .collect()
    }
}
