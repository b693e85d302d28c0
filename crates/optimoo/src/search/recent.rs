//! The class bounds of small sets a thread computed lately, kept so that
//! the same set asked again is answered without a kernel pass.
//!
//! A class bound ([`crate::search::Context::class_bound`]) of a set under
//! a limit `L` and what is already known of it `K` (its level bound, or
//! the memo's; `K < L`) is `max(min(B, L), K)`, where `B`, the least
//! lookahead bound over every guess, depends only on the set and the
//! depth within one search. Sets of fewer than 33 secrets are not kept in
//! the memo (their bounds flushed the searches' entries out of it:
//! docs/benchmarks.md, session 25), yet on moo:5x10's classes two guesses
//! down nearly half of the class bounds of 9 to 32 secrets computed are
//! of a set whose bound the same thread computed before, most of them
//! within the last few thousand (docs/benchmarks.md, session 52): the
//! same class of a node's guesses reached by several guesses, or by the
//! same guesses at a sibling node.
//!
//! Invariants:
//! - An entry holds an interval `lo ≤ B ≤ hi` that a computed value
//!   proved: a value `r` with `K < r < L` is `B`; `r = K` shows `B ≤ K`;
//!   `r = L` shows `B ≥ L`. A later question `(L', K')` is answered only
//!   when the interval decides `max(min(B, L'), K')`, so the answer is
//!   the value a kernel pass would give, and the search (its nodes, its
//!   trees) is the same with or without this cache, on every thread
//!   count (tested against a search without it on a sweep of games).
//! - Entries belong to one search's context (its `owner`, a number no
//!   other context of the process shares): a thread that meets another
//!   owner's entries drops them. A thread holds at most `cap` entries,
//!   and drops them all when full.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap;

/// A new owner: a number no earlier call returned in this process.
pub(super) fn new_owner() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What is known of a set's least bound `B`: `lo ≤ B ≤ hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    lo: u64,
    hi: u64,
}

impl Known {
    /// What the value `r` of a class bound under limit `limit` and floor
    /// `known` (`known < limit`, `known ≤ r ≤ limit`) shows of `B`.
    fn from_value(limit: u64, known: u64, r: u64) -> Known {
        debug_assert!(known < limit && known <= r && r <= limit);
        if r >= limit {
            Known {
                lo: limit,
                hi: u64::MAX,
            }
        } else if r > known {
            Known { lo: r, hi: r }
        } else {
            Known { lo: 0, hi: known }
        }
    }

    /// `max(min(B, limit), known)` when this decides it.
    fn answer(self, limit: u64, known: u64) -> Option<u64> {
        if self.lo == self.hi {
            Some(self.lo.min(limit).max(known))
        } else if self.hi <= known {
            Some(known)
        } else if self.lo >= limit {
            Some(limit.max(known))
        } else {
            None
        }
    }

    fn and(self, other: Known) -> Known {
        let both = Known {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        };
        debug_assert!(both.lo <= both.hi, "{self:?} and {other:?} disagree");
        both
    }
}

/// One thread's entries (see the module doc).
#[derive(Default)]
struct Recent {
    owner: u64,
    map: FxHashMap<Box<[u16]>, Known>,
}

thread_local! {
    static RECENT: RefCell<Recent> = RefCell::new(Recent::default());
}

#[cfg(test)]
thread_local! {
    /// Class bounds this thread's entries decided (tests: the cache is
    /// used where it is meant to be).
    static RECALLED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The class bound of the set whose memo key is `key` under `limit` and
/// `known` (`known < limit`), if this thread's entries for `owner`
/// decide it.
pub(super) fn recall(owner: u64, key: &[u16], limit: u64, known: u64) -> Option<u64> {
    RECENT.with(|r| {
        let r = r.borrow();
        if r.owner != owner {
            return None;
        }
        let answer = r.map.get(key)?.answer(limit, known);
        #[cfg(test)]
        if answer.is_some() {
            RECALLED.with(|c| c.set(c.get() + 1));
        }
        answer
    })
}

/// Keeps what the value `value` of the class bound of the set whose memo
/// key is `key`, computed under `limit` and `known`, shows.
pub(super) fn learn(owner: u64, cap: usize, key: Vec<u16>, limit: u64, known: u64, value: u64) {
    let new = Known::from_value(limit, known, value);
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        if r.owner != owner || r.map.len() >= cap {
            r.map.clear();
            r.owner = owner;
        }
        r.map
            .entry(key.into_boxed_slice())
            .and_modify(|k| *k = k.and(new))
            .or_insert(new);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::search::config::with_workers;
    use crate::search::{solve_with, Config, Cost, KernelPath, Solution, Tuning};

    /// Searches with the cache (the default size, and two entries a
    /// thread, dropped all the time) and without it give the same cost,
    /// the same tree and, on one thread, the same nodes, on the best
    /// kernel path this CPU has, for games at the extremes (many symbols
    /// and two positions, one position, few symbols, answer rules other
    /// than bulls and cows), with and without a cap, and under the crush
    /// objective where a cap is set (its searches have no kernel: the
    /// cache stays out of them).
    #[test]
    fn the_same_search_with_or_without_recent_bounds() {
        let path = KernelPath::best();
        let games = crate::search::sweep_tests::extreme_games();
        let mut recalled = 0;
        for (rules, cap) in games {
            let game = Game::new(rules);
            let objectives = match cap {
                Some(_) => vec![Cost::Total, Cost::Crush],
                None => vec![Cost::Total],
            };
            for objective in objectives {
                let run = |recent_bounds: usize, workers: usize| -> Solution {
                    let config = Config {
                        cap,
                        objective,
                        tuning: Tuning {
                            kernel: Some(path),
                            recent_bounds,
                            ..Tuning::default()
                        },
                        ..Config::default()
                    };
                    with_workers(workers, |driver| solve_with(&game, config, driver).unwrap())
                };
                let plain = run(0, 1);
                let before = RECALLED.with(|c| c.get());
                let with = run(Tuning::default().recent_bounds, 1);
                recalled += RECALLED.with(|c| c.get()) - before;
                let tiny = run(2, 1);
                let two = run(Tuning::default().recent_bounds, 2);
                for (name, s) in [
                    ("default", &with),
                    ("two entries", &tiny),
                    ("two workers", &two),
                ] {
                    assert_eq!(s.cost, plain.cost, "{rules} {cap:?} {objective:?}: {name}");
                    assert_eq!(s.tree, plain.tree, "{rules} {cap:?} {objective:?}: {name}");
                }
                assert_eq!(with.nodes, plain.nodes, "{rules} {cap:?} {objective:?}");
                assert_eq!(tiny.nodes, plain.nodes, "{rules} {cap:?} {objective:?}");
            }
        }
        // The cache did answer (but not on the plain path, which has none).
        if path == KernelPath::Scalar {
            assert_eq!(recalled, 0);
        } else {
            assert!(recalled > 100, "only {recalled} class bounds recalled");
        }
    }

    /// Every answer given is `max(min(B, L), K)` for every `B` the
    /// values learnt allow, over a grid of small numbers: what was learnt
    /// from the plain formula never answers anything else.
    #[test]
    fn answers_are_the_formula_for_every_b_it_allows() {
        let f = |b: u64, l: u64, k: u64| b.min(l).max(k);
        for b in 0..12u64 {
            for l1 in 1..12 {
                for k1 in 0..l1 {
                    let first = Known::from_value(l1, k1, f(b, l1, k1));
                    assert!(first.lo <= b && b <= first.hi);
                    for l2 in 1..12 {
                        for k2 in 0..l2 {
                            let both = first.and(Known::from_value(l2, k2, f(b, l2, k2)));
                            assert!(both.lo <= b && b <= both.hi);
                            for l3 in 1..12 {
                                for k3 in 0..l3 {
                                    for k in [first, both] {
                                        if let Some(a) = k.answer(l3, k3) {
                                            assert_eq!(
                                                a,
                                                f(b, l3, k3),
                                                "B {b}, {k:?}, L {l3}, K {k3}"
                                            );
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // It does answer: the exact value, and the two one-sided cases.
        let exact = Known::from_value(10, 2, 5);
        assert_eq!(exact.answer(4, 1), Some(4));
        assert_eq!(exact.answer(20, 7), Some(7));
        assert_eq!(exact.answer(20, 1), Some(5));
        let at_most = Known::from_value(10, 6, 6);
        assert_eq!(at_most.answer(9, 6), Some(6));
        assert_eq!(at_most.answer(9, 5), None);
        let at_least = Known::from_value(10, 2, 10);
        assert_eq!(at_least.answer(8, 3), Some(8));
        assert_eq!(at_least.answer(11, 3), None);
    }

    /// Entries of another owner are never read, and a full thread drops
    /// its entries.
    #[test]
    fn owners_and_the_cap() {
        let (a, b) = (new_owner(), new_owner());
        learn(a, 4, vec![1, 2, 3], 10, 2, 5);
        assert_eq!(recall(a, &[1, 2, 3], 10, 2), Some(5));
        assert_eq!(recall(b, &[1, 2, 3], 10, 2), None);
        learn(b, 4, vec![1, 2, 3], 10, 2, 7);
        assert_eq!(recall(a, &[1, 2, 3], 10, 2), None);
        assert_eq!(recall(b, &[1, 2, 3], 10, 2), Some(7));
        for i in 0..4 {
            learn(b, 4, vec![i], 10, 2, 3);
        }
        assert_eq!(recall(b, &[1, 2, 3], 10, 2), None);
        assert_eq!(recall(b, &[3], 10, 2), Some(3));
    }
}
