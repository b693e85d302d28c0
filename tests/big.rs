//! Games above 16,384 codes (the old limit of the exact search) through
//! the command line, and the memory stated before a search. The library's
//! search of mm:5x7 is in crates/optimoo/tests/big.rs.

use optimoo::model::{Game, Rules};

use crate::limits;
use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// moo:5x10 (30,240 codes, an 872 MiB table: ignored by default): five
/// guesses are refuted, as counting one level down shows independently:
/// every first guess is 01234 up to symmetry, and its class 0A2B holds
/// 7800 secrets, more than the 1 + 19 + 19² + 19³ = 7240 that four more
/// guesses can tell apart with 19 non-winning answers.
#[test]
#[ignore = "an 872 MiB table (13 s measured): cargo test --release big:: -- --ignored"]
fn moo_5x10_five_guesses_are_refuted() {
    use optimoo::tree::check::answer;
    let game = Game::new("moo:5x10".parse::<Rules>().unwrap());
    let codes: Vec<String> = game.codes().all().map(|c| game.format_code(c)).collect();
    let mut classes = std::collections::HashMap::new();
    for s in &codes {
        *classes.entry(answer(s, "01234")).or_insert(0u64) += 1;
    }
    // Every guess is 01234 up to symmetry: its answers are all there are.
    let b = classes.len() as u64 - 1;
    assert_eq!(b, 19);
    let four_more = 1 + b + b * b + b * b * b;
    assert!(classes.values().any(|&c| c > four_more), "{classes:?}");
    let (code, out, err) = run(OPTIMOO, &["solve", "--game", "moo:5x10", "--cap", "5"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("no strategy solves moo:5x10 within 5 guesses"),
        "{out}"
    );
    assert!(err.contains("feedback table 872.1 MiB"), "{err}");
}

/// The command line solves a game above the old limit, stating the memory
/// (the 16,807² bytes of the table among it) before it starts.
#[test]
fn solve_runs_above_16384_codes() {
    let (code, out, err) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:5x7",
            "--objective",
            "worst",
            "--cap-only",
            "--memo-mib",
            "16",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["min_cap"], 6, "{out}");
    assert!(
        err.contains("memory: about") && err.contains("feedback table 269.4 MiB"),
        "{err}"
    );
}

/// `--max-memory 1M` refuses moo:4x10 with exit code 2 and says what it
/// needs and what to change, before the 24 MiB table is built.
#[test]
fn too_little_memory_is_refused_before_allocating() {
    let args = ["solve", "--game", "moo:4x10", "--max-memory", "1M"];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2, "{err}");
    for words in [
        "needs about",
        "--max-memory allows 1.0 MiB",
        "--memo-mib",
        "24.2 MiB",
    ] {
        assert!(err.contains(words), "{words}: {err}");
    }
    // Its peak (under 20 MB): tests/limits.rs.

    // A bad size is refused with the units.
    let (code, _, err) = run(OPTIMOO, &["solve", "--max-memory", "8 parsecs"], "");
    assert_eq!(code, 2);
    assert!(err.contains("KiB") && err.contains("GB"), "{err}");
}

/// A default memo too large for the limit is shrunk, and said so; a memo
/// asked for is not. Two threads, whatever the machine's cores: the
/// estimate counts each thread (about 54 MiB needed here).
#[test]
fn the_default_memo_shrinks_to_fit() {
    let solve = [
        "solve",
        "--game",
        "mm:3x3",
        "--threads",
        "2",
        "--max-memory",
        "128M",
    ];
    let (code, _, err) = run(OPTIMOO, &solve, "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("memo is shrunk"), "{err}");
    let (code, _, err) = run(OPTIMOO, &[&solve[..], &["--memo-mib", "256"]].concat(), "");
    assert_eq!(code, 2, "{err}");
}

/// The estimate stated before the search is `search::memory_estimate`
/// (mm:4x6 within 5 guesses, a 1 MiB memo, 2 threads): what the game needs,
/// then the memo's ceiling, the two adding up to the estimate; how near it
/// is to the measured peak: tests/limits.rs.
#[test]
fn the_stated_estimate_is_memory_estimate() {
    let (code, _, err) = run(OPTIMOO, &limits::ESTIMATED, "");
    assert_eq!(code, 0, "{err}");
    let game = optimoo::model::Game::new("mm:4x6".parse().unwrap());
    let config = optimoo::search::Config {
        tuning: optimoo::search::Tuning {
            memo_codes: (1 << 20) / 2,
            ..optimoo::search::Tuning::default()
        },
        ..optimoo::search::Config::default()
    };
    let e = optimoo::search::memory_estimate(&game, &config, 2).unwrap();
    assert_eq!(e.total(), limits::estimated_bytes());
    let mib = |b: u64| b as f64 / 1048576.0;
    assert!(
        err.contains(&format!("about {:.1} MiB needed", mib(e.fixed())))
            && err.contains(&format!("the memo may grow to {:.1} MiB", mib(e.memo))),
        "{err}"
    );
}

/// The estimate stated for each objective is the one of the searches it
/// runs: with the total (average, worst) the kernel's dense copy of the
/// table is counted, with crush (feasibility searches, then the crush
/// search: neither builds it) it is not. Before the objectives were posed
/// by the library, crush was estimated as a total search.
#[test]
fn the_stated_estimate_follows_the_objective() {
    use optimoo::search::{memory_estimate, Config, Cost, Tuning};
    let game = optimoo::model::Game::new("mm:4x5".parse().unwrap());
    let mib = |b: u64| b as f64 / 1048576.0;
    let mut stated = Vec::new();
    for (objective, cost) in [("worst", Cost::Total), ("crush", Cost::Crush)] {
        let mut args = vec!["solve", "--game", "mm:4x5", "--objective", objective];
        args.extend(["--memo-mib", "1", "--threads", "2"]);
        if objective == "worst" {
            args.push("--cap-only");
        }
        let (code, _, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 0, "{err}");
        let config = Config {
            objective: cost,
            tuning: Tuning {
                memo_codes: (1 << 20) / 2,
                ..Tuning::default()
            },
            ..Config::default()
        };
        let e = memory_estimate(&game, &config, 2).unwrap();
        let line = format!("about {:.1} MiB needed", mib(e.fixed()));
        assert!(err.contains(&line), "{objective}: {line} in {err}");
        stated.push(e.fixed());
    }
    assert!(stated[1] < stated[0], "{stated:?}");
}

/// Heuristic trees of games above the old limit round-trip: `export
/// --format tree`, then `verify` (`moo --tree` on such a tree:
/// crates/moo/tests/big.rs).
#[test]
fn moo_5x10_tree_files_round_trip() {
    round_trip("moo:5x10", "first");
}

/// [`moo_5x10_tree_files_round_trip`] with the minimax strategy (about 20
/// s of tree building).
#[test]
#[ignore = "about 20 s of tree building: cargo test --release big:: -- --ignored"]
fn moo_5x10_minimax_round_trips() {
    round_trip("moo:5x10", "minimax");
}

fn round_trip(game: &str, strategy: &str) {
    let path = scratch(&format!("{}-{strategy}.tree", game.replace(':', "-")));
    let file = path.to_str().unwrap();
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "export",
            "--game",
            game,
            "--strategy",
            strategy,
            "--format",
            "tree",
            "-o",
            file,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(OPTIMOO, &["verify", file], "");
    assert_eq!(code, 0, "{out}{err}");
}

/// `partition` on games of 2^32 and 2^28 codes with repeats, under a
/// 2 GiB address space: the classes counted, not listed (it grew to
/// 23.6 GB before); a history too long to count is listed only when the
/// list fits, its memory stated first, else refused (exit code 2).
#[test]
fn partition_of_games_with_repeats_fits_in_memory() {
    for (game, zeros, left) in [
        ("mm:8x16", "00000000", 4_294_967_296u64),
        ("mm:7x16", "0000000", 268_435_456),
    ] {
        let args = ["partition", "--game", game, "--guess", zeros];
        let (code, out, err, secs) = crate::trees::run_capped(OPTIMOO, &args, "", 2);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(secs < 30.0, "{game}: {secs} s");
        assert!(
            out.starts_with(&format!("{left} secrets left; guess {zeros}")),
            "{out}"
        );
        let classes: u64 = out
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(classes, left, "{out}");
        // Eight moves that leave 15^k codes: too many to count, too many to list.
        let moves: Vec<String> = (0..8).map(|_| format!("{zeros}:0A0B")).collect();
        let mut args: Vec<&str> = args.to_vec();
        args.extend(moves.iter().map(String::as_str));
        let (code, _, err, secs) = crate::trees::run_capped(OPTIMOO, &args, "", 2);
        assert_eq!(code, 2, "{game}: {err}");
        assert!(secs < 30.0, "{game}: {secs} s");
        assert!(
            err.contains("memory: about ") && err.contains("does not fit"),
            "{game}: {err}"
        );
    }
}

/// `plan --strategy phased` walks every code to cut the units: on mm:8x16
/// and mm:7x16 under a 2 GiB address space its memory is stated and
/// refused at once (exit code 2), as `eval` refuses it (it listed 96 GiB).
#[test]
fn a_phased_plan_of_a_game_too_large_is_refused() {
    for game in ["mm:8x16", "mm:7x16"] {
        let dir = scratch(&format!("big-plan-{}", game.replace(':', "-")));
        let _ = std::fs::remove_dir_all(&dir);
        let args = [
            "plan",
            "--game",
            game,
            "--strategy",
            "phased",
            "-o",
            dir.to_str().unwrap(),
        ];
        let (code, _, err, secs) = crate::trees::run_capped(OPTIMOO, &args, "", 2);
        assert_eq!(code, 2, "{game}: {err}");
        assert!(secs < 30.0, "{game}: {secs} s");
        assert!(
            err.contains("memory: about ") && err.contains("does not fit"),
            "{game}: {err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
