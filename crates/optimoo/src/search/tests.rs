//! The search checked against brute force on small games (every guess, no
//! symmetry, no bounds, no memo tricks), and for independence from threads
//! and memo settings.

use super::*;
use crate::model::rules::Rules;
use crate::tree::Tree;
use std::collections::HashMap;

/// Plain exhaustive minimum: every guess, no symmetry, no bounds.
pub(crate) fn brute(
    game: &Game,
    set: &[Code],
    d: usize,
    memo: &mut HashMap<(Vec<Code>, usize), u64>,
) -> u64 {
    if set.len() == 1 {
        return 1;
    }
    if d == 0 || set.is_empty() {
        return if set.is_empty() { 0 } else { INF };
    }
    if d == 1 {
        return INF;
    }
    let key = (set.to_vec(), d);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = INF;
    for g in game.codes().all() {
        let classes = crate::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut total = set.len() as u64;
        for (f, c) in &classes {
            if *f != game.win() {
                total = total.saturating_add(brute(game, c, d - 1, memo));
            }
        }
        best = best.min(total);
    }
    memo.insert(key, best);
    best
}

/// The least `Σ costs[d − 1]` over `set`, `d` the guesses each secret
/// takes, with `made` guesses made and `costs.len()` allowed (INF: no
/// strategy), by trying every code at every node: the definition, sharing
/// nothing with the search's charges per level.
pub(crate) fn brute_costs(
    game: &Game,
    set: &[Code],
    made: usize,
    costs: &[u64],
    memo: &mut HashMap<(Vec<Code>, usize), u64>,
) -> u64 {
    if set.is_empty() {
        return 0;
    }
    if made == costs.len() {
        return INF;
    }
    if let Some(&v) = memo.get(&(set.to_vec(), made)) {
        return v;
    }
    let mut best = INF;
    for g in game.codes().all() {
        let classes = crate::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut total = 0u64;
        for (f, c) in &classes {
            total = total.saturating_add(if *f == game.win() {
                costs[made]
            } else {
                brute_costs(game, c, made + 1, costs, memo)
            });
        }
        best = best.min(total.min(INF));
    }
    memo.insert((set.to_vec(), made), best);
    best
}

/// `Σ histogram[d − 1] · costs[d − 1]`: what a tree's replay costs.
pub(crate) fn cost_of(stats: &crate::tree::Stats, costs: &[u64]) -> u64 {
    stats
        .histogram
        .iter()
        .zip(costs)
        .map(|(&h, &c)| h * c)
        .sum()
}

#[test]
fn per_guess_costs_equal_brute_force_for_random_vectors() {
    let mut rng = crate::rng::SplitMix64::new(2026);
    for name in [
        "mm:2x3", "mm:2x4", "moo:2x4", "moo:2x5", "mm:3x2", "moo:3x4", "mm:3x3",
    ] {
        let game = Game::new(name.parse().unwrap());
        let all = game.all_codes();
        let least = crate::search::min_cap(&game, &Tuning::default())
            .unwrap()
            .cap;
        for trial in 0..6 {
            let cap = least + trial % 3;
            // Steps of 0 to 4: flat stretches, jumps, and all equal.
            let mut costs = Vec::new();
            let mut c = rng.below(3) as u64;
            for _ in 0..cap {
                c += rng.below(5) as u64;
                costs.push(c);
            }
            let config = Config {
                cap: Some(cap),
                objective: Cost::PerGuess,
                costs: costs.clone(),
                ..Config::default()
            };
            let sol = solve(&game, config).unwrap();
            let expect = brute_costs(&game, &all, 0, &costs, &mut HashMap::new());
            assert_eq!(sol.cost, expect, "{name} cap {cap} costs {costs:?}");
            let stats = sol.stats.unwrap();
            assert_eq!(
                cost_of(&stats, &costs),
                sol.cost,
                "{name} {costs:?}: replay"
            );
            assert!(stats.max_depth <= cap);
        }
    }
}

#[test]
fn per_guess_costs_are_checked() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let config = |cap, costs: Vec<u64>| Config {
        cap,
        objective: Cost::PerGuess,
        costs,
        ..Config::default()
    };
    let err = solve(&game, config(Some(3), vec![1, 3, 2])).unwrap_err();
    assert!(
        err.to_string()
            .contains("decreases: entry 3 (2) is below entry 2 (3)"),
        "{err}"
    );
    let err = solve(&game, config(Some(4), vec![1, 2, 3])).unwrap_err();
    assert!(
        err.to_string().contains("3 entries but the cap is 4"),
        "{err}"
    );
    let err = solve(&game, config(None, vec![1, 2, 3])).unwrap_err();
    assert!(err.to_string().contains("the cap is none"), "{err}");
    assert!(solve(&game, config(Some(0), vec![])).is_err());
    let err = solve(&game, config(Some(1), vec![1 << 47])).unwrap_err();
    assert!(err.to_string().contains("exceeds 2^48"), "{err}");
    // Linear costs are the total.
    let total = solve(
        &game,
        Config {
            cap: Some(3),
            ..Config::default()
        },
    )
    .unwrap();
    let linear = solve(&game, config(Some(3), vec![1, 2, 3])).unwrap();
    assert_eq!(linear.cost, total.cost);
}

/// The least `Σ w_s · d_s` over `set` within `d` guesses by trying every
/// code at every node (the definition; INF: no strategy).
pub(crate) fn brute_weighted(
    game: &Game,
    set: &[Code],
    d: usize,
    w: &[u64],
    memo: &mut HashMap<(Vec<Code>, usize), u64>,
) -> u64 {
    if set.is_empty() {
        return 0;
    }
    if d == 0 {
        return INF;
    }
    if let Some(&v) = memo.get(&(set.to_vec(), d)) {
        return v;
    }
    let own: u64 = set.iter().map(|c| w[c.index()]).sum();
    let mut best = INF;
    for g in game.codes().all() {
        let classes = crate::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut total = own;
        for (f, c) in &classes {
            if *f != game.win() {
                total = total.saturating_add(brute_weighted(game, c, d - 1, w, memo));
            }
        }
        best = best.min(total.min(INF));
    }
    memo.insert((set.to_vec(), d), best);
    best
}

#[test]
fn weighted_search_equals_brute_force() {
    let mut rng = crate::rng::SplitMix64::new(7);
    for name in ["mm:2x3", "mm:2x4", "moo:2x4", "mm:3x2", "moo:3x4", "mm:3x3"] {
        let game = Game::new(name.parse().unwrap());
        let all = game.all_codes();
        let least = crate::search::min_cap(&game, &Tuning::default())
            .unwrap()
            .cap;
        for trial in 0..9 {
            // Random weights (zeros included, counted by group), then
            // weights per orbit (the symmetric path), all ones (the
            // total), and all distinct (more than 16: sorted, not counted).
            let w: Vec<u64> = match trial {
                6 => vec![1; game.len()],
                8 => (1..=game.len() as u64).map(|i| i * 7 % 31).collect(),
                7 => all
                    .iter()
                    .map(|&c| {
                        1 + game
                            .codes()
                            .symbols(c)
                            .iter()
                            .collect::<std::collections::BTreeSet<_>>()
                            .len() as u64
                    })
                    .collect(),
                _ => (0..game.len()).map(|_| rng.below(6) as u64).collect(),
            };
            let cap = [None, Some(least), Some(least + 1)][trial % 3];
            let config = Config {
                cap,
                objective: Cost::Weighted,
                weights: w.clone(),
                ..Config::default()
            };
            let sol = solve(&game, config).unwrap();
            let d = cap.unwrap_or(all.len() + 1);
            let expect = brute_weighted(&game, &all, d, &w, &mut HashMap::new());
            assert_eq!(sol.cost, expect, "{name} cap {cap:?} weights {w:?}");
            // The tree's replay, weighed, is the cost.
            let tree = sol.tree.unwrap();
            let weighed: u64 = all
                .iter()
                .map(|&s| w[s.index()] * tree.play(&game, s).unwrap().len() as u64)
                .sum();
            assert_eq!(weighed, sol.cost, "{name} {w:?}: replay");
            if trial == 6 {
                let total = solve(
                    &game,
                    Config {
                        cap,
                        ..Config::default()
                    },
                )
                .unwrap();
                assert_eq!(sol.cost, total.cost);
            }
        }
    }
    let game = Game::new("mm:2x3".parse().unwrap());
    let bad = Config {
        objective: Cost::Weighted,
        weights: vec![1; 3],
        ..Config::default()
    };
    let err = solve(&game, bad).unwrap_err();
    assert!(
        err.to_string().contains("3 weights for the 9 codes"),
        "{err}"
    );
}

fn tree_of(game: &Game, threads: usize, canon_max: usize) -> Tree {
    let config = Config {
        cap: Some(5),
        tuning: Tuning {
            canon_max,
            ..Tuning::default()
        },
        ..Config::default()
    };
    let par = crate::exec::Scoped(threads);
    let driver = Driver {
        par: &par,
        observer: &Silent,
    };
    solve_with(game, config, driver).unwrap().tree.unwrap()
}

#[test]
fn same_tree_whatever_the_threads_and_memo() {
    for rules in ["mm:3x5", "moo:3x6"] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let one = tree_of(&game, 1, 64);
        assert_eq!(one, tree_of(&game, 2, 64), "{rules}: 1 vs 2 threads");
        assert_eq!(one, tree_of(&game, 3, 0), "{rules}: canonical keys or not");
    }
}

/// Guesses evaluated side by side at every level, with any number of
/// threads: the same costs and the same tree as one thread, many times over
/// (timing varies from run to run).
#[test]
fn parallel_guesses_keep_the_tree() {
    for (rules, cap) in [("mm:3x5", Some(5)), ("moo:3x6", None), ("mm:4x4", None)] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let run = |threads: usize, min: usize| {
            let config = Config {
                cap,
                tuning: Tuning {
                    parallel_guess_levels: 8,
                    parallel_guess_min: min,
                    ..Tuning::default()
                },
                ..Config::default()
            };
            let par = crate::exec::Scoped(threads);
            let driver = Driver {
                par: &par,
                observer: &Silent,
            };
            let sol = solve_with(&game, config, driver).unwrap();
            (sol.cost, sol.tree.unwrap())
        };
        let one = run(1, 3);
        for round in 0..4 {
            for threads in [2, 3, 4] {
                assert_eq!(
                    one,
                    run(threads, 3),
                    "{rules}: {threads} threads, round {round}"
                );
            }
        }
        assert_eq!(one, run(2, 1000), "{rules}: sequential guesses");
    }
}

/// The class bound is a lower bound whatever the limit, and with no limit
/// it is the least one-step bound over every guess.
#[test]
fn class_bound_never_exceeds_brute_force() {
    for rules in ["moo:3x5", "mm:3x3", "moo:3x6", "mm:2x4"] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let mut memo = HashMap::new();
        let all = game.all_codes();
        let stab = Stabilizer::identity(game.positions(), game.rules().symbols());
        let split = crate::model::partition::split;
        let mut sets = Vec::new();
        for a in game.codes().all().step_by(7) {
            for (_, c) in split(&game, a, &all) {
                for b in game.codes().all().step_by(13) {
                    sets.extend(split(&game, b, &c).into_iter().map(|(_, x)| x));
                }
                sets.push(c);
            }
        }
        sets.retain(|c| c.len() >= 3);
        sets.sort();
        sets.dedup();
        let step = sets.len().div_ceil(120);
        for set in sets.iter().step_by(step) {
            for d in [3, 4, 6] {
                let exact = brute(&game, set, d, &mut memo);
                // The least one-step bound by plain counting.
                let config = Config {
                    tuning: Tuning {
                        memo_codes: 1 << 16,
                        ..Tuning::default()
                    },
                    ..Config::default()
                };
                let searcher = Searcher::new(&game, config).unwrap();
                let dd = searcher.cx().clamp(set.len(), d);
                let ncl = searcher.cx().bounds.non_candidate(set.len(), dd);
                let mut least = searcher.cx().bounds.lower(set.len(), dd);
                let mut one_step = INF;
                for g in game.codes().all() {
                    let classes = split(&game, g, set);
                    let candidate = set.contains(&g);
                    if classes.len() == 1 && !candidate {
                        continue;
                    }
                    let mut b = set.len() as u64;
                    for (f, c) in &classes {
                        if *f != game.win() {
                            b = b.saturating_add(searcher.cx().bounds.lower(c.len(), dd - 1));
                        }
                    }
                    if !candidate {
                        b = b.max(ncl);
                    }
                    one_step = one_step.min(b.min(INF));
                }
                least = least.max(one_step);
                let got = searcher
                    .cx()
                    .class_bound(searcher.memo(), set, d, &stab, INF);
                assert_eq!(got, least, "{rules} d {d} {set:?}");
                assert!(got <= exact, "{rules} d {d} {set:?}: {got} > {exact}");
                for limit in [exact.saturating_sub(2), exact, exact + 1] {
                    let fresh = Searcher::new(&game, Config::default()).unwrap();
                    let b = fresh
                        .cx()
                        .class_bound(fresh.memo(), set, d, &stab, limit.max(1));
                    assert!(b <= exact, "{rules} d {d} limit {limit}: {b} > {exact}");
                }
            }
        }
    }
}

/// The level bound with the branching of a set's most answers
/// (`Bounds::lower_within`, used by a node's evaluations) never exceeds the
/// exact cost of the set or of any class a guess makes of it, by brute
/// force on small games; and it binds (is above the game's level bound)
/// on some of them.
#[test]
fn lower_within_never_exceeds_brute_force() {
    let mut binds = 0;
    for rules in ["moo:3x5", "mm:3x3", "moo:3x6", "mm:2x4"] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let searcher = Searcher::new(&game, Config::default()).unwrap();
        let bounds = &searcher.cx().bounds;
        let mut memo = HashMap::new();
        let all = game.all_codes();
        let split = crate::model::partition::split;
        let mut sets = Vec::new();
        for a in game.codes().all().step_by(5) {
            for (_, c) in split(&game, a, &all) {
                for b in game.codes().all().step_by(11) {
                    sets.extend(split(&game, b, &c).into_iter().map(|(_, x)| x));
                }
                sets.push(c);
            }
        }
        sets.retain(|c| c.len() >= 2);
        sets.sort();
        sets.dedup();
        let step = sets.len().div_ceil(80);
        for set in sets.iter().step_by(step) {
            // The most non-winning answers any guess gives on the set.
            let most = game
                .codes()
                .all()
                .map(|g| {
                    split(&game, g, set)
                        .iter()
                        .filter(|(f, _)| *f != game.win())
                        .count()
                })
                .max()
                .unwrap() as u64;
            let mut below = vec![set.clone()];
            for g in game.codes().all().step_by(3) {
                below.extend(split(&game, g, set).into_iter().map(|(_, c)| c));
            }
            for c in &below {
                for d in [2, 3, 4, 6] {
                    let Some(lb) = bounds.lower_within(c.len(), d, most) else {
                        continue;
                    };
                    let exact = brute(&game, c, d, &mut memo);
                    assert!(
                        lb <= exact,
                        "{rules} d {d} most {most} {c:?}: {lb} > {exact}"
                    );
                    binds += usize::from(lb > bounds.lower(c.len(), d));
                }
            }
        }
    }
    assert!(binds > 0, "the bound never rose above the level bound");
}

/// Under any limit the class bound is `max(level bound, min(limit, least
/// one-step bound))`, the least found by plain counting, whichever road the
/// kernel takes (answer masks for sets of up to 64 secrets that no class
/// can overflow, counting otherwise): games of two to five positions, many
/// symbols or few, sets from 3 to 150 secrets, caps that bind and that do
/// not.
#[test]
fn class_bound_under_a_limit_is_the_capped_least() {
    use crate::search::kernel::KernelPath;
    for rules in [
        "moo:5x6", "mm:5x3", "moo:4x7", "mm:4x5", "moo:3x8", "mm:3x3", "mm:2x16", "moo:2x12",
    ] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let all = game.all_codes();
        let stab = Stabilizer::identity(game.positions(), game.rules().symbols());
        let split = crate::model::partition::split;
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut sets = Vec::new();
        for (_, c) in split(&game, Code(0), &all) {
            for _ in 0..4 {
                let b = Code(rng.below(game.len()) as u16);
                sets.extend(split(&game, b, &c).into_iter().map(|(_, x)| x));
            }
            sets.push(c);
        }
        sets.retain(|c| (3..=150).contains(&c.len()));
        sets.sort();
        sets.dedup();
        let step = sets.len().div_ceil(40);
        for set in sets.iter().step_by(step) {
            for d in [3, 4, 9] {
                let plain = Searcher::new(&game, Config::default()).unwrap();
                let dd = plain.cx().clamp(set.len(), d);
                let floor = plain.cx().bounds.lower(set.len(), dd);
                if floor >= INF {
                    continue;
                }
                let mut least = INF;
                for g in game.codes().all() {
                    let classes = split(&game, g, set);
                    if classes.len() == 1 && !set.contains(&g) {
                        continue;
                    }
                    let mut b = set.len() as u64;
                    for (f, c) in &classes {
                        if *f != game.win() {
                            b = b.saturating_add(plain.cx().bounds.lower(c.len(), dd - 1));
                        }
                    }
                    least = least.min(b.min(INF));
                }
                let limits = [
                    INF,
                    floor + 1,
                    least.saturating_sub(1).max(1),
                    least,
                    least.saturating_add(1),
                ];
                for path in KernelPath::available() {
                    for &limit in &limits {
                        let config = Config {
                            tuning: Tuning {
                                kernel: Some(path),
                                ..Tuning::default()
                            },
                            ..Config::default()
                        };
                        let fresh = Searcher::new(&game, config).unwrap();
                        let got = fresh.cx().class_bound(fresh.memo(), set, d, &stab, limit);
                        let expected = if floor >= limit {
                            floor
                        } else {
                            floor.max(least.min(limit))
                        };
                        assert_eq!(
                            got,
                            expected,
                            "{rules} {path} d {d} limit {limit} set of {}",
                            set.len()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn isomorphic_sets_share_one_memo_entry() {
    let game = Game::new(Rules::standard());
    let book = game.codes();
    let parse = |codes: &[&str]| -> Vec<Code> {
        let mut v: Vec<Code> = codes.iter().map(|t| book.parse(t).unwrap()).collect();
        v.sort();
        v
    };
    // The seed-004 position plus one code, and its image under the
    // symbol swaps 2↔7, 0↔4 with the first two positions swapped.
    let a = parse(&["2754", "2854", "4396", "4936", "9346", "3456"]);
    let pi = [4u8, 1, 7, 3, 0, 5, 6, 2, 8, 9];
    let mut b: Vec<Code> = a
        .iter()
        .map(|&c| {
            let s = book.symbols(c);
            book.find(&[
                pi[s[1] as usize],
                pi[s[0] as usize],
                pi[s[2] as usize],
                pi[s[3] as usize],
            ])
            .unwrap()
        })
        .collect();
    b.sort();
    assert_ne!(a, b);
    let config = Config {
        tuning: Tuning {
            parallel_levels: 0,
            canon_max: 64,
            ..Tuning::default()
        },
        ..Config::default()
    };
    let searcher = Searcher::new(&game, config).unwrap();
    let (cost_a, _) = searcher.solve_set(&a, 7).unwrap();
    let entries = searcher.memo().len();
    let hits = searcher.memo().hits();
    let nodes = searcher.nodes();
    let (cost_b, _) = searcher.solve_set(&b, 7).unwrap();
    assert_eq!(cost_a, cost_b);
    // B is not searched: one node (its lookup), a hit on A's canonical
    // entry, and only B's raw alias of that entry is added.
    assert_eq!(searcher.nodes(), nodes + 1, "B is answered from the memo");
    assert_eq!(searcher.memo().len(), entries + 1);
    assert!(searcher.memo().hits() > hits, "B hits A's entry");
}

#[test]
fn after_a_history_equals_the_set_alone() {
    let game = Game::new(Rules::standard());
    let g = game.parse_code("0123").unwrap();
    let f = game.parse_feedback("0A4B").unwrap();
    let (cost, node) = solve_after(&game, &[(g, f)], Some(6)).unwrap().unwrap();
    let set = crate::model::partition::consistent(&game, &[(g, f)]);
    let (alone, _) = solve_candidates(&game, &set, Some(6)).unwrap().unwrap();
    assert_eq!(cost, alone);
    // The subtree solves every one of the 9 secrets.
    let tree = Tree {
        rules: game.rules(),
        root: Node {
            guess: g,
            children: vec![(f, node)],
        },
    };
    for &s in &set {
        assert!(tree.play(&game, s).unwrap().len() <= 7);
    }
}

/// The position search (the public entry of `play::rank`) answers a
/// class of a position with the optimum of the class alone, within the
/// cap or not, and says nothing once its deadline has passed.
#[test]
fn a_position_search_answers_each_class_exactly() {
    let game = Game::new("moo:3x6".parse().unwrap());
    let first = game.parse_code("012").unwrap();
    let f = game.parse_feedback("0A1B").unwrap();
    let set = crate::model::partition::consistent(&game, &[(first, f)]);
    let search = PositionSearch::new(&game, &set, None).unwrap();
    let g = game.parse_code("134").unwrap();
    for (answer, class) in crate::model::partition::split(&game, g, &set) {
        if answer == game.win() {
            continue;
        }
        for cap in [None, Some(2), Some(3)] {
            let d = cap.unwrap_or(usize::MAX);
            let alone = solve_candidates(&game, &class, cap).unwrap();
            let got = search.cost_below(&class, d, &[first, g], INF);
            match alone {
                Some((cost, _)) => assert_eq!(got, Some(Outcome::Exact(cost)), "{cap:?}"),
                None => assert_eq!(got, Some(Outcome::AtLeast(INF)), "{cap:?}"),
            }
        }
    }
    let late = PositionSearch::new(&game, &set, Some(std::time::Instant::now())).unwrap();
    let (_, big) = crate::model::partition::split(&game, g, &set)
        .into_iter()
        .max_by_key(|(_, c)| c.len())
        .unwrap();
    assert_eq!(late.cost_below(&big, usize::MAX, &[first, g], INF), None);
}

#[test]
fn a_cap_below_the_optimum_is_refuted() {
    // moo:3x5 has 60 codes and 8 non-winning answers at most per guess:
    // 1 + 8 < 60, so 2 guesses can never suffice, and the search says so.
    let game = Game::new("moo:3x5".parse::<Rules>().unwrap());
    let sol = solve(
        &game,
        Config {
            cap: Some(2),
            ..Config::default()
        },
    )
    .unwrap();
    assert_eq!(sol.cost, INF);
    assert!(sol.tree.is_none());
    let free = solve(&game, Config::default()).unwrap();
    let depth = free.stats.unwrap().max_depth;
    let at_depth = solve(
        &game,
        Config {
            cap: Some(depth),
            ..Config::default()
        },
    )
    .unwrap();
    assert_eq!(
        at_depth.cost, free.cost,
        "the unlimited optimum fits its own depth"
    );
}

/// Plain exhaustive crush minimum: (secrets solved at relative depth
/// `d`, total), compared in that order.
fn brute_crush(
    game: &Game,
    set: &[Code],
    d: usize,
    memo: &mut HashMap<(Vec<Code>, usize), (u64, u64)>,
) -> (u64, u64) {
    const NO: (u64, u64) = (u64::MAX, u64::MAX);
    if set.len() == 1 {
        return (u64::from(d == 1), 1);
    }
    if d <= 1 {
        return NO;
    }
    if let Some(&v) = memo.get(&(set.to_vec(), d)) {
        return v;
    }
    let mut best = NO;
    for g in game.codes().all() {
        let classes = crate::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut cost = (0u64, set.len() as u64);
        for (f, c) in &classes {
            if *f != game.win() {
                let sub = brute_crush(game, c, d - 1, memo);
                if sub == NO {
                    cost = NO;
                    break;
                }
                cost = (cost.0 + sub.0, cost.1 + sub.1);
            }
        }
        best = best.min(cost);
    }
    memo.insert((set.to_vec(), d), best);
    best
}

#[test]
fn worst_case_and_crush_equal_brute_force() {
    for rules in [
        "mm:2x3", "mm:2x4", "moo:2x5", "mm:3x3", "moo:3x4", "moo:3x5",
    ] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let all = game.all_codes();
        let brute_cap = (1..)
            .find(|&d| brute(&game, &all, d, &mut HashMap::new()) < INF)
            .unwrap();
        let found = min_cap(&game, &Tuning::default()).unwrap();
        assert_eq!(found.cap, brute_cap, "{rules}: minimal cap");
        // Every cap below was refuted, by counting or by search.
        assert!(found
            .searches
            .iter()
            .all(|&(c, ok, _)| ok == (c == brute_cap)));
        assert_eq!(found.searches.first().map(|s| s.0), Some(found.counted));
        let (at_cap, total) = brute_crush(&game, &all, brute_cap, &mut HashMap::new());
        let config = Config {
            cap: Some(brute_cap),
            objective: Cost::Crush,
            ..Config::default()
        };
        let sol = solve(&game, config).unwrap();
        let stats = sol.stats.unwrap();
        assert_eq!(
            stats.histogram[brute_cap - 1],
            at_cap,
            "{rules}: crush count"
        );
        assert_eq!(stats.total, total, "{rules}: crush total");
        assert_eq!(sol.cost, at_cap * crate::search::bound::CRUSH_UNIT + total);
    }
}

/// Worst case by brute force: every guess, no symmetry, no bounds.
pub(crate) fn brute_worst(
    game: &Game,
    set: &[Code],
    memo: &mut HashMap<Vec<Code>, usize>,
) -> usize {
    if set.len() == 1 {
        return 1;
    }
    if let Some(&v) = memo.get(set) {
        return v;
    }
    let mut best = usize::MAX;
    for g in game.codes().all() {
        let classes = crate::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let worst = classes
            .iter()
            .map(|(f, c)| {
                if *f == game.win() {
                    1
                } else {
                    1 + brute_worst(game, c, memo)
                }
            })
            .max()
            .unwrap();
        best = best.min(worst);
    }
    memo.insert(set.to_vec(), best);
    best
}

#[test]
fn min_guesses_equals_brute_force() {
    for rules in ["moo:3x5", "mm:3x3"] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let mut memo = HashMap::new();
        // The classes of two guesses: sets of every size the game has.
        for a in game.codes().all().step_by(11) {
            for (_, c) in crate::model::partition::split(&game, a, &game.all_codes()) {
                let expected = brute_worst(&game, &c, &mut memo);
                assert_eq!(min_guesses(&game, &c).unwrap(), expected, "{rules}");
            }
        }
    }
}

#[test]
fn refutation_by_hand_mm_2x2() {
    // mm:2x2 has codes 00 01 10 11. Any first guess leaves a class of two
    // secrets with the same answer (e.g. 00: 01 and 10 both answer 1A0B),
    // so 2 guesses cannot always suffice; 3 can.
    let game = Game::new("mm:2x2".parse::<Rules>().unwrap());
    let found = min_cap(&game, &Tuning::default()).unwrap();
    assert_eq!(found.cap, 3);
    assert_eq!(
        found.searches.iter().filter(|s| !s.1).count(),
        1,
        "cap 2 refuted by search"
    );
}

#[test]
fn equals_brute_force_on_small_games() {
    for (rules, caps) in [
        ("mm:2x3", vec![None, Some(3), Some(2)]),
        ("mm:2x4", vec![None, Some(3)]),
        ("moo:2x4", vec![None, Some(3)]),
        ("moo:2x5", vec![None, Some(4)]),
        ("mm:3x3", vec![None, Some(4), Some(3)]),
        ("moo:3x4", vec![None, Some(4)]),
        ("moo:3x5", vec![None, Some(5), Some(4)]),
    ] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        for cap in caps {
            let expect = brute(
                &game,
                &game.all_codes(),
                cap.unwrap_or(64),
                &mut HashMap::new(),
            );
            let sol = solve(
                &game,
                Config {
                    cap,
                    ..Config::default()
                },
            )
            .unwrap();
            assert_eq!(sol.cost, expect, "{rules} cap {cap:?}");
            if expect < INF {
                assert_eq!(sol.stats.unwrap().total, expect, "{rules} cap {cap:?}");
            }
        }
    }
}

/// Wiener's analysis of the codemaker's game (Bonnet & Viennot 2016): the
/// codebreaker's best against the uniform choice of the 1,290 codes of
/// mm:4x6 that are not all one colour takes 5600 guesses in all.
#[test]
#[ignore = "a weighted search of mm:4x6: seconds to a minute"]
fn mm_4x6_against_the_non_monochrome_codes_takes_5600() {
    let game = Game::new("mm:4x6".parse().unwrap());
    let w: Vec<u64> = game
        .all_codes()
        .iter()
        .map(|&c| {
            let s = game.codes().symbols(c);
            u64::from(s.iter().any(|&x| x != s[0]))
        })
        .collect();
    assert_eq!(w.iter().sum::<u64>(), 1290);
    let config = Config {
        objective: Cost::Weighted,
        weights: w,
        ..Config::default()
    };
    let sol = solve(&game, config).unwrap();
    assert_eq!(sol.cost, 5600);
}

/// The exact search solves every answer rule, by each way in (whole game,
/// a set's rows): the optimum is brute force's, under Wordle's asymmetric
/// answers too, and the tree replays under the rule.
#[test]
fn other_answer_rules_are_solved_by_each_way_in() {
    use crate::model::AnswerRule;
    for rule in [AnswerRule::BlackPeg, AnswerRule::Wordle] {
        let game = Game::new(Rules::mm(3, 3).unwrap().with_answer(rule).unwrap());
        let all = game.all_codes();
        let want = brute(&game, &all, all.len() + 1, &mut HashMap::new());
        let sol = crate::search::solve(&game, Config::default()).unwrap();
        assert_eq!(sol.cost, want, "{rule}");
        let stats = crate::tree::check::check(&game, sol.tree.as_ref().unwrap(), None).unwrap();
        assert_eq!(stats.total, want, "{rule}");
        let set: Vec<Code> = game
            .codes()
            .all()
            .filter(|c| c.index() % 3 != 1)
            .take(9)
            .collect();
        let want = brute(&game, &set, set.len() + 1, &mut HashMap::new());
        let (cost, _) = crate::search::solve_candidates(&Game::new(game.rules()), &set, None)
            .unwrap()
            .expect("a tree");
        assert_eq!(cost, want, "{rule}: a set's rows");
    }
}

/// Class bounds of sets below [`BOUND_MEMO_MIN`] are not kept in the
/// memo (they flooded it); larger ones are, when above the level
/// bound. Either way the value is the same as with the memo already
/// holding it.
#[test]
fn small_class_bounds_stay_out_of_the_memo() {
    use crate::search::lookahead::BOUND_MEMO_MIN;
    use crate::search::memo::Memo;
    use crate::search::searcher::Searcher;
    let game = crate::model::game::Game::new("moo:4x7".parse().unwrap());
    let searcher = Searcher::new(&game, Config::default()).unwrap();
    let cx = searcher.cx();
    let stab = Stabilizer::identity(4, 7);
    let mut rng = crate::rng::SplitMix64::new(43);
    let (mut small_raised, mut large_kept) = (0, 0);
    for trial in 0..200 {
        let n = 3 + rng.below(60);
        let mut set: Vec<Code> = game.codes().all().filter(|_| rng.below(840) < n).collect();
        set.truncate(n);
        if set.len() < 3 {
            continue;
        }
        let d = 6;
        let memo = Memo::new(1 << 20);
        let floor = cx.lower_of(&set, cx.clamp(set.len(), d));
        let b = cx.class_bound(&memo, &set, d, &stab, INF);
        let again = cx.class_bound(&memo, &set, d, &stab, INF);
        assert_eq!(b, again, "trial {trial}");
        if set.len() < BOUND_MEMO_MIN {
            assert_eq!(memo.len(), 0, "trial {trial}: {} secrets", set.len());
            small_raised += usize::from(b > floor);
        } else if b > floor {
            assert_eq!(memo.len(), 1, "trial {trial}: {} secrets", set.len());
            large_kept += 1;
        }
    }
    assert!(small_raised > 10, "{small_raised} small sets raised");
    assert!(large_kept > 10, "{large_kept} large sets kept");
}
