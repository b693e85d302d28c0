//! The duel's tests: equilibria of small games checked again, against
//! brute force where it exists.

use super::*;
use optimoo::model::partition;
use optimoo::model::Code;
use std::collections::{BTreeSet, HashMap};

/// The equilibrium of `name` under `rule`, checked again.
pub(super) fn checked(name: &str, rule: Rule) -> (Game, Duel) {
    let game = Game::new(name.parse().unwrap());
    let base = Config::default();
    let start = search::solve(&game, Config::default()).unwrap();
    let start = Played::new(&game, start.tree.unwrap()).unwrap();
    let eq = duel(&game, rule, start, &base, Driver::sequential(), &mut |_| {})
        .unwrap_or_else(|e| panic!("{name} {rule}: {e}"));
    check(
        &game,
        rule,
        &eq.first,
        &eq.second,
        &eq.value,
        &base,
        Driver::sequential(),
    )
    .unwrap_or_else(|e| panic!("{name} {rule}: {e}"));
    (game, eq)
}

/// Every length distribution of a tree within `cap` guesses on `set`
/// after `made` guesses that no other one beats at every depth (a tree
/// that finishes at least as many secrets by every depth never earns
/// less, under either rule and in either seat).
fn frontier(
    game: &Game,
    set: &[Code],
    made: usize,
    cap: usize,
    memo: &mut HashMap<(Vec<Code>, usize), Vec<Vec<u64>>>,
) -> Vec<Vec<u64>> {
    if set.is_empty() {
        return vec![vec![0; cap]];
    }
    if made == cap {
        return Vec::new();
    }
    if let Some(v) = memo.get(&(set.to_vec(), made)) {
        return v.clone();
    }
    let mut all: BTreeSet<Vec<u64>> = BTreeSet::new();
    for g in game.codes().all() {
        let classes = partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut sums = vec![vec![0u64; cap]];
        for (f, class) in &classes {
            let parts = if *f == game.win() {
                let mut h = vec![0; cap];
                h[made] = 1;
                vec![h]
            } else {
                frontier(game, class, made + 1, cap, memo)
            };
            let mut next = BTreeSet::new();
            for a in &sums {
                for b in &parts {
                    next.insert(a.iter().zip(b).map(|(x, y)| x + y).collect::<Vec<u64>>());
                }
            }
            sums = pareto(next);
        }
        all.extend(sums);
    }
    let out = pareto(all);
    memo.insert((set.to_vec(), made), out.clone());
    out
}

/// The distributions no other one dominates (finishes at least as many
/// secrets by every depth).
fn pareto(set: BTreeSet<Vec<u64>>) -> Vec<Vec<u64>> {
    let cumulative = |h: &Vec<u64>| -> Vec<u64> {
        h.iter()
            .scan(0, |s, &x| {
                *s += x;
                Some(*s)
            })
            .collect()
    };
    let all: Vec<(Vec<u64>, Vec<u64>)> = set.into_iter().map(|h| (cumulative(&h), h)).collect();
    all.iter()
        .filter(|(c, _)| {
            !all.iter()
                .any(|(d, _)| d != c && d.iter().zip(c).all(|(x, y)| x >= y))
        })
        .map(|(_, h)| h.clone())
        .collect()
}

/// The duel's value by brute force: the matrix game over every
/// undominated length distribution of a tree within `cap` guesses.
fn brute_value(game: &Game, rule: Rule, cap: usize) -> BigRational {
    let hs = frontier(game, &game.all_codes(), 0, cap, &mut HashMap::new());
    let table: Vec<Vec<BigRational>> = hs
        .iter()
        .map(|a| hs.iter().map(|b| payoff(rule, a, b)).collect())
        .collect();
    matrix::solve(&table).unwrap().value
}

#[test]
fn equilibria_equal_brute_force_on_small_games() {
    for name in ["mm:2x2", "moo:3x4", "mm:3x3", "mm:2x5", "moo:2x6"] {
        for &rule in Rule::ALL {
            let (game, eq) = checked(name, rule);
            let cap = game.secret_count();
            assert_eq!(eq.value, brute_value(&game, rule, cap), "{name} {rule}");
            if rule == Rule::EqualTurns {
                assert_eq!(eq.value, matrix::ratio(1, 2), "{name}: a symmetric game");
            }
        }
    }
}

/// The certificate (a simplex of small cost vectors around the exact
/// ones) proves exactly what one exact search proves, and finds a
/// better tree when the candidate is not a best response; on random
/// mixtures of trees with large denominators, every rule and seat.
#[test]
fn certificates_agree_with_exact_searches() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let base = Config::default();
    let driver = Driver::sequential();
    let mut certified = 0;
    for name in ["moo:3x4", "mm:2x5", "mm:3x3", "moo:2x6"] {
        let game = Game::new(name.parse().unwrap());
        // Trees: optima of random nondecreasing cost vectors.
        let mut trees: Vec<Played> = Vec::new();
        for _ in 0..24 {
            let mut c = 0;
            let costs: Vec<u64> = (0..game.secret_count().min(8))
                .map(|_| {
                    c += next(3) * next(1000);
                    c
                })
                .collect();
            let t = search_costs(&game, costs, &base, driver).unwrap();
            if trees.iter().all(|p| p.lengths != t.lengths) {
                trees.push(t);
            }
        }
        assert!(trees.len() >= 3, "{name}: {} trees", trees.len());
        for _ in 0..4 {
            let mut picked: Vec<(&[u64], BigRational)> = Vec::new();
            let mut raw = Vec::new();
            for t in &trees {
                if next(2) == 0 || raw.is_empty() {
                    raw.push((t.lengths.as_slice(), 1 + next(1_000_000)));
                }
            }
            let sum: u64 = raw.iter().map(|r| r.1).sum();
            for (h, w) in raw {
                picked.push((h, matrix::ratio(w, sum)));
            }
            let opponents: Vec<(&[u64], &BigRational)> =
                picked.iter().map(|(h, w)| (*h, w)).collect();
            let oracle = Oracle {
                game: &game,
                rule: Rule::FirstWins,
                base: &base,
                driver,
            };
            for &rule in Rule::ALL {
                let oracle = Oracle { rule, ..oracle };
                for &seat in Seat::ALL {
                    let costs = Costs::new(rule, seat, &opponents);
                    let best = search_costs(&game, costs.exact().unwrap(), &base, driver).unwrap();
                    let value = costs.value(&best.lengths);
                    let proven = respond(
                        &oracle,
                        seat,
                        &opponents,
                        &value,
                        &[&best],
                        Prove::Certificate,
                    )
                    .unwrap();
                    assert!(
                        matches!(proven, Response::Proven { .. }),
                        "{name} {rule} {seat}: the best response is not proven"
                    );
                    certified += 1;
                    // A worse tree as the candidate: the certificate
                    // finds a better one.
                    if let Some(worse) = trees.iter().find(|t| costs.value(&t.lengths) < value) {
                        let target = costs.value(&worse.lengths);
                        match respond(
                            &oracle,
                            seat,
                            &opponents,
                            &target,
                            &[worse],
                            Prove::Certificate,
                        )
                        .unwrap()
                        {
                            Response::Better { value: v, .. } => assert!(v > target),
                            Response::Proven { .. } => {
                                panic!("{name} {rule} {seat}: a worse tree proven best")
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(certified >= 60);
}

/// Mastermind: both rules' equilibria pass `check` (inside `checked`),
/// a forged value fails it, equal-turns is worth 1/2 (the game is
/// symmetric), and no seat does worse at the equilibrium than the
/// average-optimal tree's worst case.
#[test]
fn mm_4x6_equilibria_check() {
    for &rule in Rule::ALL {
        let (game, eq) = checked("mm:4x6", rule);
        if rule == Rule::EqualTurns {
            assert_eq!(eq.value, matrix::ratio(1, 2));
        }
        assert!(eq.value >= eq.start_worst[0]);
        assert!(BigRational::one() - &eq.value >= eq.start_worst[1]);
        let forged = &eq.value + matrix::ratio(1, 1_000_000);
        let base = Config::default();
        assert!(check(
            &game,
            rule,
            &eq.first,
            &eq.second,
            &forged,
            &base,
            Driver::sequential()
        )
        .is_err());
    }
}
