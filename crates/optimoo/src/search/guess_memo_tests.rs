//! The kept bounds of refuted guesses ([`crate::search::memo::Memo::refuted`],
//! [`Tuning::guess_memo_min`]) change the speed, never a result: searches
//! that keep them from sets of two secrets up give the same cost and the
//! same tree as searches that keep none, on one worker and two, on games
//! at the extremes (many symbols and two positions, one position, few
//! symbols, answer rules other than bulls and cows), with and without a
//! cap, for the total, crush and worst-case objectives; and a search that
//! takes up the bounds an earlier one kept answers as a fresh one does.

use super::config::with_workers;
use super::memo::GUESS_HITS;
use super::searcher::Searcher;
use super::*;
use crate::model::game::Game;
use crate::model::rules::Rules;
use crate::model::symmetry::Stabilizer;

/// No set keeps its refuted guesses.
const NONE: usize = usize::MAX;

#[test]
fn the_same_search_with_or_without_kept_guess_bounds() {
    let games = crate::search::sweep_tests::extreme_games();
    let mut hits = 0;
    for (rules, cap) in games {
        let game = Game::new(rules);
        let objectives = match cap {
            Some(_) => vec![Cost::Total, Cost::Crush, Cost::Feasible],
            None => vec![Cost::Total],
        };
        for objective in objectives {
            let run = |min: usize, workers: usize| -> Solution {
                let config = Config {
                    cap,
                    objective,
                    tuning: Tuning {
                        guess_memo_min: min,
                        ..Tuning::default()
                    },
                    ..Config::default()
                };
                with_workers(workers, |driver| solve_with(&game, config, driver).unwrap())
            };
            let plain = run(NONE, 1);
            let before = GUESS_HITS.with(|c| c.get());
            let kept = run(2, 1);
            hits += GUESS_HITS.with(|c| c.get()) - before;
            let two = run(2, 2);
            for (name, s) in [("kept", &kept), ("kept, two workers", &two)] {
                assert_eq!(s.cost, plain.cost, "{rules} {cap:?} {objective:?}: {name}");
                assert_eq!(s.tree, plain.tree, "{rules} {cap:?} {objective:?}: {name}");
            }
            assert!(kept.nodes <= plain.nodes, "{rules} {cap:?} {objective:?}");
        }
    }
    assert!(hits > 0, "no guess answered by a kept bound");
}

/// A class searched under cut-offs rising from its level bound, as
/// `optimoo work` searches a class step by step, by one searcher that
/// keeps its refuted guesses from 16 secrets up; after each step, a new
/// searcher that has taken up only those kept bounds (as a run resumed
/// after a stop takes them up from `DIR/memo/I.bin`) searches the class
/// again under the same cut-off. Both answer what a fresh searcher keeping
/// none answers (the same exact cost, or bounds at least the cut-off),
/// and the resumed one has most guesses of the class answered by their
/// kept bounds. Classes: the largest of moo:5x6 after 01234 (0A2B) and of
/// mm:3x5 after 011.
#[test]
fn a_search_resumed_from_kept_guess_bounds_answers_as_a_fresh_one() {
    for (name, first) in [("moo:5x6", "01234"), ("mm:3x5", "011")] {
        let game = Game::new(name.parse::<Rules>().unwrap());
        let first = game.parse_code(first).unwrap();
        let all = game.all_codes();
        let classes = crate::model::partition::split(&game, first, &all);
        let (_, set) = classes
            .into_iter()
            .filter(|(f, _)| *f != game.win())
            .max_by_key(|(_, c)| c.len())
            .unwrap();
        let stab = Stabilizer::identity(game.positions(), game.rules().symbols());
        let config = |min: usize| Config {
            tuning: Tuning {
                guess_memo_min: min,
                ..Tuning::default()
            },
            ..Config::default()
        };
        let d = set.len() + 1;
        let exact = match Searcher::new(&game, config(NONE))
            .unwrap()
            .solve(&set, d, &stab, INF, 0)
        {
            Outcome::Exact(c) => c,
            Outcome::AtLeast(b) => panic!("{name}: no tree ({b})"),
        };
        let kept = Searcher::new(&game, config(16)).unwrap();
        let start = set.len() as u64 * 2;
        let (mut hits, mut kept_guesses) = (0, 0);
        for k in 0..12 {
            let cutoff = start + (exact + 1 - start) * k / 11;
            let fresh = Searcher::new(&game, config(NONE)).unwrap();
            let want = fresh.solve(&set, d, &stab, cutoff, 0);
            let got = kept.solve(&set, d, &stab, cutoff, 0);
            let resumed = Searcher::new(&game, config(16)).unwrap();
            for (key, guesses) in kept.memo().guess_entries(set.len() + 1) {
                for (g, b) in guesses {
                    resumed.memo().put_guess_bound(&key, g, b);
                    kept_guesses += 1;
                }
            }
            let before = GUESS_HITS.with(|c| c.get());
            let again = resumed.solve(&set, d, &stab, cutoff, 0);
            hits += GUESS_HITS.with(|c| c.get()) - before;
            for (who, r) in [("kept", got), ("resumed", again)] {
                match (r, want) {
                    (Outcome::Exact(a), Outcome::Exact(b)) => {
                        assert_eq!(a, b, "{name} {cutoff}: {who}")
                    }
                    (Outcome::AtLeast(a), Outcome::AtLeast(_)) => {
                        assert!(a >= cutoff && a <= exact, "{name} {cutoff}: {who} {a}")
                    }
                    (a, b) => panic!("{name} under {cutoff}: {who} {a:?}, fresh {b:?}"),
                }
            }
        }
        assert!(
            kept_guesses > 0 && hits * 2 > kept_guesses,
            "{name}: {hits} guesses answered by the {kept_guesses} bounds kept"
        );
    }
}
