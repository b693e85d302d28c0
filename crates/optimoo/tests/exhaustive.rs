//! The long exhaustive runs, ignored by default: the published optima of
//! Tanaka 1996 (moo:4x10: 26274, worst case 7), Koyama & Lai 1993 (mm:4x6:
//! 5625, 5626 within 5 guesses), Knuth 1976 (mm:4x6 worst case 5) and A.
//! Slovesnov (moo:4x10 crush: 50 secrets at 7), found by the search, never
//! read from a table.
//!
//! Run them with `cargo test --release -- --ignored` (all of them) or name
//! one, e.g. `cargo test --release exhaustive::mm_4x6 -- --ignored`. Each
//! returned tree is replayed over every secret by `Tree::replay`, so the
//! totals asserted are those of a tree that really plays within its cap.
//! scripts/results.sh runs the same searches through the CLI for docs/results.md.

use optimoo::model::{Game, Rules};
use optimoo::search::Cost;
use optimoo::search::{min_cap, solve, Config, MinCap, Tuning};
use optimoo::tree::Stats;

fn game(name: &str) -> Game {
    Game::new(name.parse::<Rules>().expect("a known game"))
}

/// Solves `game` under `cap` and `objective`, replays the tree within the
/// cap and returns its statistics.
fn solve_and_replay(game: &Game, cap: Option<usize>, objective: Cost) -> Stats {
    let config = Config {
        cap,
        objective,
        ..Config::default()
    };
    let solution = solve(game, config).expect("the search runs");
    let tree = solution.tree.unwrap_or_else(|| {
        panic!("{}: no strategy within cap {cap:?}", game.rules());
    });
    let stats = tree
        .replay(game, cap)
        .unwrap_or_else(|e| panic!("{}: the tree does not replay: {e}", game.rules()));
    assert_eq!(stats.secrets as usize, game.len());
    assert_eq!(
        Some(&stats),
        solution.stats.as_ref(),
        "reported vs replayed"
    );
    stats
}

/// Solves `name` for the crush objective within `cap` (its minimal cap) and
/// checks that exactly `at_cap` secrets need the last guess, and that the
/// total is at least the minimal one, `optimum` (crushing the last level
/// never beats the minimal-average tree).
fn assert_crush(name: &str, cap: usize, at_cap: u64, optimum: u64) {
    let stats = solve_and_replay(&game(name), Some(cap), Cost::Crush);
    assert_eq!(stats.max_depth, cap, "{name}");
    assert_eq!(stats.histogram[cap - 1], at_cap, "{name}");
    assert!(stats.total >= optimum, "{name}: {stats:?}");
}

#[test]
#[ignore = "exhaustive search, seconds to minutes: cargo test --release -- --ignored"]
fn mm_4x6_minimal_average_is_5625() {
    // Koyama & Lai 1993: 5625/1296 = 4.3403, worst case 6.
    let g = game("mm:4x6");
    let stats = solve_and_replay(&g, None, Cost::Total);
    assert_eq!(stats.total, 5625);
    assert_eq!(stats.max_depth, 6);
}

#[test]
#[ignore = "exhaustive search, seconds to minutes: cargo test --release -- --ignored"]
fn mm_4x6_minimal_average_within_5_guesses_is_5626() {
    // Koyama & Lai 1993: 5626/1296 = 4.3410 under a 5-guess cap.
    let g = game("mm:4x6");
    let stats = solve_and_replay(&g, Some(5), Cost::Total);
    assert_eq!(stats.total, 5626);
    assert_eq!(stats.max_depth, 5);
}

#[test]
#[ignore = "exhaustive search, seconds to minutes: cargo test --release -- --ignored"]
fn mm_4x6_worst_case_is_5_and_4_is_refuted() {
    // Knuth 1976: 5 guesses always suffice and 4 do not.
    let g = game("mm:4x6");
    let found = assert_min_cap(&g, 5);
    assert!(found
        .searches
        .iter()
        .all(|&(cap, feasible, _)| feasible == (cap == 5)));
    // The minimal-total tree within the minimal cap.
    let stats = solve_and_replay(&g, Some(found.cap), Cost::Total);
    assert_eq!(stats.total, 5626);
}

#[test]
#[ignore = "exhaustive search, seconds to minutes: cargo test --release -- --ignored"]
fn mm_4x6_crush_is_539_secrets_at_5() {
    // A. Slovesnov: 539 secrets need the 5th guess while all others take
    // at most 4; the exhaustive search confirms it is the fewest.
    assert_crush("mm:4x6", 5, 539, 5626);
}

#[test]
#[ignore = "exhaustive search of MOO, minutes to hours: cargo test --release -- --ignored"]
fn moo_4x10_minimal_average_within_7_guesses_is_26274() {
    // Tanaka 1996: 26274/5040 = 5.2131 with at most 7 guesses.
    let g = game("moo:4x10");
    let stats = solve_and_replay(&g, Some(7), Cost::Total);
    assert_eq!(stats.total, 26274);
    assert_eq!(stats.max_depth, 7);
}

#[test]
#[ignore = "exhaustive search of MOO, minutes to hours: cargo test --release -- --ignored"]
fn moo_4x10_worst_case_is_7_and_6_is_refuted() {
    // No strategy guarantees 6 guesses; 7 can be guaranteed (Tanaka 1996).
    assert_min_cap(&game("moo:4x10"), 7);
}

/// The smallest cap of `g` is `cap`, and the search itself refuted
/// `cap − 1` (not only the counting bound).
fn assert_min_cap(g: &Game, cap: usize) -> MinCap {
    let found = min_cap(g, &Tuning::default()).expect("the search runs");
    assert_eq!(found.cap, cap);
    assert!(
        found.searches.iter().any(|&(c, ok, _)| c == cap - 1 && !ok),
        "cap {} refuted by search: {:?}",
        cap - 1,
        found.searches
    );
    found
}

#[test]
#[ignore = "exhaustive search of MOO, minutes to hours: cargo test --release -- --ignored"]
fn moo_4x10_crush_is_50_secrets_at_7() {
    // A. Slovesnov: 50 secrets need the 7th guess while all others take at
    // most 6 (first announced as the best found, later as optimal); the
    // exhaustive search under the crush objective confirms it is the fewest.
    assert_crush("moo:4x10", 7, 50, 26274);
}
