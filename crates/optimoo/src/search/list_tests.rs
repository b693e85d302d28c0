//! Secret lists checked against brute force on small games: the search's
//! optimum against a plain minimum over the allowed guesses (no symmetry, no
//! bounds), the list stabilizer against the whole group tried element by
//! element, and the heuristics against a naive rewrite of their rule.

use std::collections::HashMap;

use super::*;
use crate::heuristic::{build_tree, Heuristic, Pool, StrategyConfig, Ties};
use crate::model::partition::split;
use crate::model::secrets::{GuessMode, SecretSet};
use crate::model::symmetry::position_permutations;
use crate::rng::SplitMix64;

/// Least total guesses for `set` within `d` guesses, guessing only
/// `guesses`: every guess tried, nothing pruned.
fn brute(
    game: &Game,
    guesses: &[Code],
    set: &[Code],
    d: usize,
    memo: &mut HashMap<(Vec<Code>, usize), u64>,
) -> u64 {
    if set.is_empty() {
        return 0;
    }
    if d == 0 {
        return INF;
    }
    if set.len() == 1 {
        return 1;
    }
    let key = (set.to_vec(), d);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = INF;
    for &g in guesses {
        let classes = split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut total = set.len() as u64;
        for (f, c) in &classes {
            if *f != game.win() {
                total = total.saturating_add(brute(game, guesses, c, d - 1, memo));
            }
        }
        best = best.min(total);
    }
    memo.insert(key, best);
    best
}

/// The image of a code under (positions σ, symbols π): c'[σ(i)] = π(c[i]).
fn image(game: &Game, sigma: &[u8], pi: &[u8], c: Code) -> Option<Code> {
    let mut out = vec![0u8; sigma.len()];
    for (i, &s) in game.codes().symbols(c).iter().enumerate() {
        out[sigma[i] as usize] = pi[s as usize];
    }
    let text: String = out
        .iter()
        .map(|&s| crate::model::code::symbol_char(s))
        .collect();
    game.codes().parse(&text).ok()
}

/// Every permutation of `0..n`.
fn perms(n: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for s in 0..n as u8 {
                if !p.contains(&s) {
                    let mut q = p.clone();
                    q.push(s);
                    next.push(q);
                }
            }
        }
        out = next;
    }
    out
}

/// Test lists of a game: random subsets of several sizes, and random
/// subsets closed under a symmetry (so the list keeps some symmetry).
fn lists(game: &Game, seed: u64) -> Vec<Vec<Code>> {
    let n = game.len();
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for size in [3, 6, 9, 13] {
        let mut l: Vec<Code> = (0..size).map(|_| Code(rng.below(n) as u16)).collect();
        l.sort_unstable();
        l.dedup();
        out.push(l.clone());
        // Closed under reversing the positions and mirroring the symbols.
        let k = game.positions();
        let m = game.rules().symbols();
        let sigma: Vec<u8> = (0..k as u8).rev().collect();
        let pi: Vec<u8> = (0..m as u8).rev().collect();
        let mut closed = l.clone();
        closed.extend(l.iter().filter_map(|&c| image(game, &sigma, &pi, c)));
        closed.sort_unstable();
        closed.dedup();
        out.push(closed);
    }
    out
}

fn listed(game: &Game, list: &[Code], mode: GuessMode) -> Game {
    let set = SecretSet::new(list.to_vec(), mode, None, "test".into()).unwrap();
    Game::with_secrets(game.rules(), set)
}

#[test]
fn optimum_equals_brute_force_with_lists() {
    for (rules, seed) in [("moo:3x4", 1), ("mm:3x3", 2), ("moo:4x5", 3)] {
        let whole = Game::new(rules.parse().unwrap());
        for list in lists(&whole, seed) {
            for mode in [GuessMode::All, GuessMode::Secrets] {
                let game = listed(&whole, &list, mode);
                let guesses: Vec<Code> =
                    whole.codes().all().filter(|&g| game.is_guess(g)).collect();
                for cap in [None, Some(3)] {
                    let want = brute(
                        &game,
                        &guesses,
                        &list,
                        cap.unwrap_or(usize::MAX),
                        &mut HashMap::new(),
                    );
                    let config = Config {
                        cap,
                        tuning: Tuning {
                            canon_max: 64,
                            ..Tuning::default()
                        },
                        ..Config::default()
                    };
                    let sol = solve(&game, config).unwrap();
                    let what = format!("{rules} {mode:?} cap {cap:?} list {list:?}");
                    assert_eq!(sol.cost, want, "{what}");
                    if let Some(tree) = &sol.tree {
                        let stats = crate::tree::check::check(&game, tree, cap).unwrap();
                        assert_eq!(stats.total, want, "{what}");
                        assert_eq!(stats.secrets, list.len() as u64, "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn list_stabilizer_is_the_whole_group_tried_element_by_element() {
    for (rules, seed) in [("moo:3x4", 4), ("mm:3x3", 5), ("moo:3x5", 6)] {
        let game = Game::new(rules.parse().unwrap());
        let (k, n) = (game.positions(), game.rules().symbols());
        for list in lists(&game, seed) {
            let stab = Stabilizer::of_list(game.codes(), &list);
            let used = game.codes().symbols_of(&list);
            // Brute force: every (σ, π) mapping the list onto itself,
            // counted by σ and π on the used symbols (the others are free).
            let mut found = std::collections::HashSet::new();
            let mut group = Vec::new();
            for sigma in position_permutations(k) {
                for pi in perms(n) {
                    let keeps = list.iter().all(|&c| {
                        image(&game, &sigma, &pi, c).is_some_and(|i| list.binary_search(&i).is_ok())
                    });
                    if keeps {
                        let on_used: Vec<u8> = (0..n)
                            .map(|s| if used & (1 << s) != 0 { pi[s] } else { u8::MAX })
                            .collect();
                        found.insert((sigma.clone(), on_used));
                        group.push((sigma.clone(), pi));
                    }
                }
            }
            assert_eq!(stab.elements(), found.len(), "{rules} {list:?}");
            // The orbit test keeps exactly the least code of each orbit of
            // the brute-force group.
            for g in game.codes().all() {
                let least = group
                    .iter()
                    .filter_map(|(sigma, pi)| image(&game, sigma, pi, g))
                    .min()
                    .unwrap();
                assert_eq!(
                    stab.is_orbit_min(game.codes().symbols(g)),
                    least == g,
                    "{rules} {list:?} {g:?}"
                );
            }
        }
    }
}

/// A score of class sizes.
type Score = fn(&[usize]) -> usize;

/// A naive scoring heuristic: every allowed guess scored on the
/// candidates (`score` of the class sizes, the win's class included), the
/// least score kept, a candidate first among equals, then the smallest code.
fn naive(
    game: &Game,
    cands: &[Code],
    first: Code,
    score: fn(&[usize]) -> usize,
) -> crate::tree::Node {
    let guesses: Vec<Code> = game.codes().all().filter(|&g| game.is_guess(g)).collect();
    let choose = |set: &[Code]| -> Code {
        if set.len() == 1 {
            return set[0];
        }
        let scored: Vec<(usize, bool, Code)> = guesses
            .iter()
            .map(|&g| {
                let sizes: Vec<usize> = split(game, g, set).iter().map(|(_, c)| c.len()).collect();
                (score(&sizes), set.binary_search(&g).is_err(), g)
            })
            .collect();
        scored.into_iter().min().unwrap().2
    };
    fn build(
        game: &Game,
        set: &[Code],
        g: Code,
        choose: &dyn Fn(&[Code]) -> Code,
    ) -> crate::tree::Node {
        let children = split(game, g, set)
            .into_iter()
            .filter(|(f, _)| *f != game.win())
            .map(|(f, c)| (f, build(game, &c, choose(&c), choose)))
            .collect();
        crate::tree::Node { guess: g, children }
    }
    build(game, cands, first, &choose)
}

#[test]
fn heuristics_with_lists_equal_a_naive_rewrite() {
    for (rules, seed) in [("moo:3x4", 7), ("mm:3x3", 8), ("moo:4x5", 9)] {
        let whole = Game::new(rules.parse().unwrap());
        for list in lists(&whole, seed) {
            for mode in [GuessMode::All, GuessMode::Secrets] {
                let game = listed(&whole, &list, mode);
                let first = crate::heuristic::default_first(&game);
                let rules_of: [(Heuristic, Score); 2] = [
                    (Heuristic::Minimax, |s| s.iter().copied().max().unwrap_or(0)),
                    (Heuristic::Irving, |s| s.iter().map(|c| c * c).sum()),
                ];
                for (h, score) in rules_of {
                    let cfg = StrategyConfig {
                        pool: Pool::All,
                        ties: Ties::CandidateFirst,
                        ..StrategyConfig::new(h)
                    };
                    let tree = build_tree(&game, &cfg).unwrap();
                    let want = naive(&game, &list, first, score);
                    assert_eq!(tree.root, want, "{rules} {mode:?} {h:?} {list:?}");
                    // The totals: replay against a plain walk of each secret.
                    let stats = tree.replay(&game, None).unwrap();
                    let walked: usize = list
                        .iter()
                        .map(|&s| tree.play(&game, s).unwrap().len())
                        .sum();
                    assert_eq!(stats.total, walked as u64);
                    assert_eq!(stats.secrets, list.len() as u64);
                    let optimum = brute(
                        &game,
                        &game
                            .codes()
                            .all()
                            .filter(|&g| game.is_guess(g))
                            .collect::<Vec<_>>(),
                        &list,
                        usize::MAX,
                        &mut HashMap::new(),
                    );
                    assert!(optimum <= stats.total);
                }
            }
        }
    }
}

/// A word list over a large alphabet and over the reduced one
/// (`reduced_alphabet`: used letters and a few spare ones) has the same
/// optimum, in both guess modes, with and without repeats.
#[test]
fn reduced_alphabets_keep_the_optimum() {
    use crate::model::code::Codebook;
    use crate::model::secrets::{infer_rules, parse_list, reduced_alphabet, Alphabet};
    let cases = [
        ("abc\nbad\ncab\ndab\nadc\nbca\ncdb\n", "abcdefgh"),
        ("aab\nbad\ncab\nddb\nabc\nbcc\n", "abcdefg"),
        ("ab\nba\nbc\nca\n", "abcdef"),
    ];
    for (text, letters) in cases {
        let big = Alphabet::new(letters).unwrap();
        for mode in [GuessMode::All, GuessMode::Secrets] {
            let small = reduced_alphabet(text, &big, mode).unwrap();
            assert!(small.len() < big.len());
            let optimum = |a: &Alphabet| {
                let rules = infer_rules(text, a, "t").unwrap();
                let codes = parse_list(&Codebook::new(rules), text, Some(a), "t").unwrap();
                let set = SecretSet::new(codes, mode, Some(a.clone()), "t".into()).unwrap();
                let game = Game::with_secrets(rules, set);
                let guesses: Vec<Code> = game.codes().all().filter(|&g| game.is_guess(g)).collect();
                let want = brute(
                    &game,
                    &guesses,
                    &game.secrets(),
                    usize::MAX,
                    &mut HashMap::new(),
                );
                assert_eq!(solve(&game, Config::default()).unwrap().cost, want);
                want
            };
            assert_eq!(
                optimum(&big),
                optimum(&small),
                "{text:?} {mode:?} {}",
                small.text()
            );
        }
    }
}
