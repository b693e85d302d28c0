//! What a unit's run learned, kept between runs: the memo's facts about
//! large sets ([`Learned`]), handed to the caller while the run goes on
//! ([`MemoKeep`]) and taken up by the next run of the unit
//! ([`super::Effort::learned`]). A run stopped in the middle of a long
//! class search then goes on from what that search had settled, where it
//! used to start the class again.
//!
//! Invariants:
//! - Every fact was proven by the search for the set its key names, at
//!   the depth it names (the memo holds nothing else: a search past its
//!   deadline stores nothing). It holds for any run of the same game and
//!   objective (a plan fixes both); which run proved it, under which
//!   cut-off, does not matter.
//! - No guess is kept: an exact fact gives the cost alone, so a tree
//!   rebuilt after taking facts up is the one a fresh run builds (each
//!   node's first optimal guess in the search's order, found by a search).
//! - The same memo gives the same list (sorted by key).
//! - A run hands out at least what it took up: the facts it was given
//!   that its memo has since dropped are handed out again ([`keep`]), so a
//!   unit's file only gains (within its size budget) from leg to leg.

use std::time::Duration;

use crate::model::code::Code;
use crate::search::memo::{Entry, Memo};

/// What was proven of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// Its exact cost.
    Exact(u64),
    /// A lower bound of its cost.
    AtLeast(u64),
    /// Guesses refuted at it, each with a lower bound of its cost there
    /// (codes in the set's own coordinates, ascending):
    /// `Memo::guess_bound`.
    Guesses(Vec<(u16, u64)>),
}

/// A fact about one set, keyed as the memo keys it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learned {
    /// The set's codes (indices into the game's codes, an image of the set
    /// under the rules' symmetry), then the guesses left (saturated at
    /// 65,535).
    pub key: Vec<u16>,
    /// What was proven of it.
    pub fact: Fact,
}

/// Whom a run hands what it learned, and how often.
#[derive(Clone, Copy)]
pub struct MemoKeep<'a> {
    /// At most this often while it runs (from inside the search: the
    /// search waits while it is handed out), and once when it stops.
    pub every: Duration,
    /// Only facts about sets of at least this many secrets (the small ones
    /// are many and quick to find again).
    pub min_secrets: usize,
    /// At most this many codes in all (a fact about a set of `n` secrets
    /// holds `n + 1`): the largest sets first, the dearest to find again.
    pub max_codes: usize,
    /// Told what the memo holds.
    pub save: &'a (dyn Fn(Vec<Learned>) + Sync),
}

/// The facts of `memo` about sets of at least `min_secrets` secrets,
/// within `max_codes` codes (the largest sets first): first the refuted
/// guesses of its large sets (few sets, each guess counted as a code),
/// then its entries in the room they leave.
pub(super) fn export(memo: &Memo, min_secrets: usize, max_codes: usize) -> Vec<Learned> {
    let min_len = min_secrets.max(1) + 1;
    let mut room = max_codes;
    let mut out = Vec::new();
    for (key, guesses) in memo.guess_entries(min_len) {
        let codes = key.len() + guesses.len();
        if codes > room {
            continue;
        }
        room -= codes;
        out.push(Learned {
            key,
            fact: Fact::Guesses(guesses.into_iter().map(|(g, b)| (g.0, b)).collect()),
        });
    }
    out.extend(
        memo.entries(min_len, room)
            .into_iter()
            .map(|(key, e)| Learned {
                key,
                fact: match e {
                    Entry::Exact(c, _) => Fact::Exact(c),
                    Entry::AtLeast(b) => Fact::AtLeast(b),
                },
            }),
    );
    out
}

/// What a run hands out: the facts `memo` holds ([`export`]), together
/// with those it was given (`given`, about sets of at least
/// `min_secrets`) that its memo has since dropped as it filled: a run
/// never hands back less than it took up. One fact a set and kind, the
/// stronger where both lists hold one ([`union`]).
pub(super) fn keep(
    memo: &Memo,
    given: Option<&[Learned]>,
    min_secrets: usize,
    max_codes: usize,
) -> Vec<Learned> {
    let fresh = export(memo, min_secrets, max_codes);
    let min_len = min_secrets.max(1) + 1;
    let given = given
        .unwrap_or_default()
        .iter()
        .filter(|l| l.key.len() >= min_len)
        .cloned();
    union(given, fresh)
}

/// The facts of both lists, one a set and kind (sorted by key, the sets'
/// facts before their refuted guesses): where both hold one, the
/// stronger, an exact cost over a bound, the higher of two bounds, and
/// each refuted guess at the higher of its bounds. Each fact of the
/// result is one of the inputs' or the higher of two proven bounds, so
/// it is true wherever they are.
pub(super) fn union(a: impl IntoIterator<Item = Learned>, b: Vec<Learned>) -> Vec<Learned> {
    use std::collections::btree_map::{BTreeMap, Entry as Slot};
    let mut all: BTreeMap<(Vec<u16>, bool), Fact> = BTreeMap::new();
    for l in a.into_iter().chain(b) {
        let kind = matches!(l.fact, Fact::Guesses(_));
        match all.entry((l.key, kind)) {
            Slot::Vacant(v) => {
                v.insert(l.fact);
            }
            Slot::Occupied(mut o) => {
                let both = std::mem::replace(o.get_mut(), Fact::AtLeast(0));
                *o.get_mut() = stronger(both, l.fact);
            }
        }
    }
    all.into_iter()
        .map(|((key, _), fact)| Learned { key, fact })
        .collect()
}

/// The stronger of two facts about the same set and kind.
fn stronger(a: Fact, b: Fact) -> Fact {
    match (a, b) {
        // Two exact costs of one set are equal (both proven); the first.
        (Fact::Exact(c), _) | (Fact::AtLeast(_), Fact::Exact(c)) => Fact::Exact(c),
        (Fact::AtLeast(x), Fact::AtLeast(y)) => Fact::AtLeast(x.max(y)),
        (Fact::Guesses(x), Fact::Guesses(y)) => {
            let mut by_guess: std::collections::BTreeMap<u16, u64> = x.into_iter().collect();
            for (g, b) in y {
                let slot = by_guess.entry(g).or_insert(b);
                *slot = (*slot).max(b);
            }
            Fact::Guesses(by_guess.into_iter().collect())
        }
        // Not reached: the kinds are kept apart by key.
        (a @ Fact::Guesses(_), _) | (_, a @ Fact::Guesses(_)) => a,
    }
}

/// Takes `learned` up into `memo`.
pub(super) fn import(memo: &Memo, learned: &[Learned]) {
    for l in learned {
        let entry = match &l.fact {
            Fact::Exact(c) => Entry::Exact(*c, None),
            Fact::AtLeast(b) => Entry::AtLeast(*b),
            Fact::Guesses(guesses) => {
                for &(g, b) in guesses {
                    memo.put_guess_bound(&l.key, Code(g), b);
                }
                continue;
            }
        };
        memo.put(l.key.clone(), entry);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Instant;

    use super::*;
    use crate::model::code::Code;
    use crate::model::game::Game;
    use crate::model::symmetry::Stabilizer;
    use crate::search::bound::INF;
    use crate::search::config::{Config, Driver};
    use crate::search::plan::{bound_unit, plan, Depth, Effort};
    use crate::search::searcher::Searcher;
    use crate::search::value::Outcome;

    /// The union keeps one fact a set and kind, the stronger: an exact
    /// cost over a bound, the higher bound, each guess's higher bound, and
    /// a set's cost apart from its refuted guesses.
    #[test]
    fn union_keeps_the_stronger_fact() {
        let l = |key: &[u16], fact: Fact| Learned {
            key: key.to_vec(),
            fact,
        };
        let a = vec![
            l(&[1, 2, 5], Fact::AtLeast(7)),
            l(&[1, 3, 5], Fact::Exact(9)),
            l(&[2, 3, 5], Fact::AtLeast(4)),
            l(&[2, 3, 5], Fact::Guesses(vec![(1, 6), (4, 8)])),
            l(&[7, 8, 5], Fact::AtLeast(3)),
        ];
        let b = vec![
            l(&[1, 2, 5], Fact::Exact(8)),
            l(&[1, 3, 5], Fact::AtLeast(5)),
            l(&[2, 3, 5], Fact::AtLeast(6)),
            l(&[2, 3, 5], Fact::Guesses(vec![(1, 5), (2, 9)])),
            l(&[4, 5, 5], Fact::Exact(2)),
        ];
        let want = vec![
            l(&[1, 2, 5], Fact::Exact(8)),
            l(&[1, 3, 5], Fact::Exact(9)),
            l(&[2, 3, 5], Fact::AtLeast(6)),
            l(&[2, 3, 5], Fact::Guesses(vec![(1, 6), (2, 9), (4, 8)])),
            l(&[4, 5, 5], Fact::Exact(2)),
            l(&[7, 8, 5], Fact::AtLeast(3)),
        ];
        assert_eq!(union(a.clone(), b.clone()), want);
        assert_eq!(union(b, a), want);
        assert_eq!(union(Vec::new(), want.clone()), want);
    }

    /// A memo that fills drops its older generation, facts taken up from
    /// a file with it; what the run hands out still holds every fact it
    /// was given (those about sets under the size asked for aside), or a
    /// stronger one.
    #[test]
    fn a_run_hands_back_what_it_was_given() {
        let memo = Memo::new(256);
        let given: Vec<Learned> = (0..20u16)
            .map(|k| Learned {
                key: vec![k, k + 100, k + 200, 3],
                fact: if k % 2 == 0 {
                    Fact::Exact(u64::from(k) + 10)
                } else {
                    Fact::AtLeast(u64::from(k))
                },
            })
            .chain(std::iter::once(Learned {
                key: vec![5, 3],
                fact: Fact::Exact(1),
            }))
            .collect();
        import(&memo, &given);
        // Facts the search proves later: enough to roll the memo over
        // twice, then a stronger one for a given set.
        for k in 0..400u16 {
            memo.put(vec![k + 1000, k + 2000, k + 3000, 2], Entry::AtLeast(1));
        }
        memo.put(vec![1, 101, 201, 3], Entry::Exact(40, None));
        let exported = export(&memo, 3, usize::MAX);
        let lost = given
            .iter()
            .filter(|g| g.key.len() > 3 && !exported.iter().any(|e| e.key == g.key))
            .count();
        assert!(lost > 0, "the memo dropped none of the given facts");
        let kept = keep(&memo, Some(&given), 3, usize::MAX);
        for g in given.iter().filter(|g| g.key.len() > 3) {
            let fact = &kept.iter().find(|k| k.key == g.key).unwrap().fact;
            match (&g.fact, fact) {
                (Fact::Exact(a), Fact::Exact(b)) => assert_eq!(a, b),
                (Fact::AtLeast(a), Fact::AtLeast(b)) => assert!(b >= a),
                (Fact::AtLeast(a), Fact::Exact(b)) => assert!(b >= a),
                (g, k) => panic!("{g:?} handed back as {k:?}"),
            }
        }
        assert!(kept.iter().all(|k| k.key.len() > 3));
        assert!(kept.contains(&Learned {
            key: vec![1, 101, 201, 3],
            fact: Fact::Exact(40),
        }));
        let mut sorted = kept.clone();
        sorted.sort_by(|a, b| a.key.cmp(&b.key));
        assert_eq!(sorted, kept);
    }

    /// Every fact a run hands out is true of its set: an exact cost equal
    /// to a fresh search's (no symmetry pruning), a bound at most it, a
    /// refuted guess's bound at most that guess's cost (its classes
    /// solved by a fresh search); also for runs stopped by their deadline
    /// in the middle of a search. A run that takes them up ends at the
    /// same result as one that did not (also one that takes up a whole
    /// run's facts). Refuted guesses are kept from
    /// sets of 16 secrets up here (1,024 by default), so that these small
    /// games have some.
    #[test]
    fn facts_are_proven_and_change_no_result() {
        let (mut checked, mut cut_short, mut guesses) = (0, 0, 0);
        for name in ["moo:4x6", "mm:4x4", "moo:5x5", "moo:5x6", "mm:4x6"] {
            let game = Game::new(name.parse().unwrap());
            let mut config = Config::default();
            config.tuning.guess_memo_min = 16;
            let p = plan(&game, config.clone(), Driver::sequential(), INF, 1).unwrap();
            let fresh = Searcher::new(&game, config.clone()).unwrap();
            let all = Stabilizer::identity(game.positions(), game.rules().symbols());
            for i in 0..p.units.len() {
                let cutoff = p.cutoff(i, INF);
                let run = |micros: u64, learned: Option<&[Learned]>| {
                    let kept = Mutex::new(Vec::new());
                    let save = |f: Vec<Learned>| *kept.lock().unwrap() = f;
                    let effort = Effort {
                        learned,
                        memo_keep: Some(MemoKeep {
                            every: Duration::ZERO,
                            min_secrets: 2,
                            max_codes: usize::MAX,
                            save: &save,
                        }),
                        ..Effort::until(
                            Instant::now() + Duration::from_micros(micros),
                            Depth::Exact,
                        )
                    };
                    let config = config.clone();
                    let (r, _) =
                        bound_unit(&game, config, Driver::sequential(), &p, i, cutoff, effort)
                            .unwrap();
                    (r, kept.into_inner().unwrap())
                };
                let (whole, _) = run(3_600_000_000, None);
                // A whole run's facts too: refuted guesses whatever the
                // machine's speed (a stopped run's depend on it).
                for micros in [3_600_000_000, 0, 300, 3_000] {
                    let (stopped, facts) = run(micros, None);
                    if stopped != whole && !facts.is_empty() {
                        cut_short += 1;
                    }
                    // Every list of refuted guesses, and a sample of the rest.
                    let step = facts.len() / 40 + 1;
                    let sample = facts
                        .iter()
                        .enumerate()
                        .filter(|(k, f)| k % step == 0 || matches!(f.fact, Fact::Guesses(_)));
                    for (_, f) in sample {
                        let (d, codes) = f.key.split_last().unwrap();
                        let set: Vec<Code> = codes.iter().map(|&c| Code(c)).collect();
                        let d = fresh.cx().clamp(set.len(), usize::from(*d));
                        let Outcome::Exact(cost) = fresh.solve(&set, d, &all, INF, usize::MAX)
                        else {
                            panic!("{name} unit {i}: a fact about a set with no tree");
                        };
                        match &f.fact {
                            Fact::Exact(c) => assert_eq!(*c, cost, "{name} unit {i}: {f:?}"),
                            Fact::AtLeast(b) => assert!(*b <= cost, "{name} unit {i}: {f:?}"),
                            Fact::Guesses(list) => {
                                for &(g, b) in list {
                                    let own = fresh.cx().own_of(&set, d);
                                    let of_guess = fresh.classes(&set, Code(g)).iter().fold(
                                        own,
                                        |t, (_, c)| match fresh.solve(
                                            c,
                                            d - 1,
                                            &all,
                                            INF,
                                            usize::MAX,
                                        ) {
                                            Outcome::Exact(x) => t.saturating_add(x),
                                            Outcome::AtLeast(_) => INF,
                                        },
                                    );
                                    assert!(b <= of_guess, "{name} unit {i}: guess {g}: {b}");
                                    assert!(of_guess >= cost, "{name} unit {i}: guess {g}");
                                    guesses += 1;
                                }
                            }
                        }
                        checked += 1;
                    }
                    let (again, _) = run(3_600_000_000, Some(&facts));
                    assert_eq!(again, whole, "{name} unit {i} after {micros} µs");
                }
            }
        }
        assert!(checked > 100, "only {checked} facts checked");
        assert!(guesses > 100, "only {guesses} refuted guesses checked");
        assert!(
            cut_short > 5,
            "only {cut_short} runs stopped with facts learned"
        );
    }
}
