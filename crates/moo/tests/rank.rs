//! `moo rank` and `moo analyze`: the standard game's values against the
//! tree's total, a known poor move's loss against the value `moo rank`
//! gives after it, the JSON fields, bounds under a spent budget, and the
//! usual errors. (Every guess's value against brute force: the library's
//! play::rank_tests.)

use serde_json::Value;

use crate::trees::{first_consistent_file, run};
use crate::MOO;

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn total(v: &Value) -> u64 {
    v["total"].as_u64().unwrap()
}

#[test]
fn the_first_move_is_worth_the_trees_total() {
    let (code, out, err) = run(MOO, &["rank", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 1, "one orbit of first guesses");
    let r = &rows[0];
    assert_eq!(
        (total(r), r["count"].as_u64(), r["exact"].as_bool()),
        (26274, Some(5040), Some(true))
    );
    assert_eq!(r["value"].as_f64().unwrap(), 26274.0 / 5040.0);
    assert_eq!(r["guess"], "0123");
    let (code, out, _) = run(MOO, &["rank"], "");
    assert_eq!(code, 0);
    assert!(out.contains("5.2131") && out.contains("26274"), "{out}");
}

/// Repeating the first guess third teaches nothing: its value is one guess
/// more than the best with one guess fewer (what `moo rank` says after it),
/// a positive loss against the best third move.
#[test]
fn a_repeated_guess_loses() {
    let h = ["0123:0A2B", "4567:1A0B", "0123:0A2B"];
    let mut args = vec!["analyze", "--json", "--budget", "inf"];
    args.extend(h);
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let moves = json_lines(&out);
    assert_eq!(moves.len(), 3);
    let third = &moves[2];
    assert_eq!(third["exact"], true);
    let left = third["left"].as_u64().unwrap();
    let mut args = vec!["rank", "--json", "--top", "1", "--budget", "inf"];
    args.extend(h);
    let (_, after, _) = run(MOO, &args, "");
    let best_after = total(&json_lines(&after)[0]);
    assert_eq!(total(third), left + best_after);
    let mut args = vec!["rank", "--json", "--top", "1", "--budget", "inf"];
    args.extend(&h[..2]);
    let (_, before, _) = run(MOO, &args, "");
    assert_eq!(
        third["best_total"].as_u64(),
        Some(total(&json_lines(&before)[0]))
    );
    let loss = third["loss"].as_f64().unwrap();
    assert!(loss > 0.5, "{third}");
    assert_eq!(third["verdict"], "blunder");
    let value = third["value"].as_f64().unwrap();
    assert!((value - third["best_value"].as_f64().unwrap() - loss).abs() < 1e-9);
    for field in [
        "move",
        "best",
        "value",
        "best_value",
        "loss",
        "exact",
        "verdict",
    ] {
        assert!(third.get(field).is_some(), "{field}");
    }
}

/// The tree's own game: every move is best, the first worth 26274/5040.
#[test]
fn the_trees_game_has_no_loss() {
    let (_, game, _) = run(MOO, &["solve", "5293"], "");
    let h: Vec<String> = game
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(":"))
        .collect();
    let mut args = vec!["analyze", "--json", "--budget", "5"];
    args.extend(h.iter().map(String::as_str));
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let moves = json_lines(&out);
    assert_eq!(moves.len(), h.len());
    assert_eq!(moves[0]["value"].as_f64().unwrap(), 26274.0 / 5040.0);
    for m in &moves {
        assert_eq!(m["loss"].as_f64(), Some(0.0), "{m}");
    }
    let mut args = vec!["analyze", "--budget", "5"];
    args.extend(h.iter().map(String::as_str));
    let (_, text, _) = run(MOO, &args, "");
    assert!(text.contains("total expected loss"), "{text}");
}

/// A small game, every guess searched: the rows hold together, and with
/// no budget they are lower bounds of the exact ones.
#[test]
fn json_rows_are_consistent_and_budgets_give_bounds() {
    let game = optimoo::model::Game::new("moo:3x6".parse().unwrap());
    let (_, path) = first_consistent_file(&game, "rank-json.tree");
    let path = path.to_str().unwrap();
    let args = ["--tree", path, "rank", "--json", "--top", "0", "012:0A1B"];
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    let counts: u64 = rows.iter().map(|r| r["count"].as_u64().unwrap()).sum();
    assert_eq!(counts, game.len() as u64);
    for r in &rows {
        let left = r["left"].as_f64().unwrap();
        assert_eq!(r["exact"], true);
        assert_eq!(
            r["value"].as_f64().unwrap(),
            r["total"].as_f64().unwrap() / left
        );
        for f in [
            "guess",
            "candidate",
            "classes",
            "largest",
            "total",
            "value",
            "exact",
            "count",
        ] {
            assert!(r.get(f).is_some(), "{f}");
        }
    }
    let args = [
        "--tree", path, "rank", "--json", "--top", "0", "--budget", "0", "012:0A1B",
    ];
    let (code, out, _) = run(MOO, &args, "");
    assert_eq!(code, 0);
    let bounded = json_lines(&out);
    assert!(bounded.iter().any(|r| r["exact"] == false));
    for b in &bounded {
        let exact = rows.iter().find(|r| r["guess"] == b["guess"]).unwrap();
        if b["exact"] == true {
            assert_eq!(b["total"], exact["total"]);
        } else {
            assert!(total(b) <= total(exact));
        }
    }
    let args = ["--tree", path, "rank", "--budget", "0", "012:0A1B"];
    let (_, text, _) = run(MOO, &args, "");
    assert!(text.contains('≥'), "{text}");
}

#[test]
fn bad_histories_get_the_usual_errors() {
    for cmd in ["rank", "analyze"] {
        let (code, out, err) = run(MOO, &[cmd, "0123:1A0B", "0123:0A2B"], "");
        assert_eq!(code, 1, "{cmd}: {out}");
        assert!(err.contains("contradicts"), "{err}");
        let (code, _, err) = run(MOO, &[cmd, "0023:1A0B"], "");
        assert_eq!(code, 2, "{err}");
        let (code, _, err) = run(MOO, &[cmd, "--budget", "-1", "0123:1A0B"], "");
        assert_eq!(code, 2, "{err}");
    }
    let (code, _, err) = run(MOO, &["analyze", "0123:4A0B", "4567:0A0B"], "");
    assert_eq!(code, 1);
    assert!(err.contains("after the winning answer"), "{err}");
    let (code, out, err) = run(MOO, &["rank", "0123:4A0B"], "");
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("won"), "{err}");
    let (code, _, _) = run(MOO, &["analyze"], "");
    assert_eq!(code, 2, "analyze needs moves");
}

/// Under a spent budget a verdict is given only when the loss decides it:
/// exact, or a proven lower bound in the open-ended top range (a blunder);
/// a bound of ≥0 decides nothing (issue 16). The third move repeats the
/// second on 720 secrets: no search finishes within a budget of 0, so its
/// loss is only bounded, its verdict undecided, and no best move or best
/// value is claimed for it.
#[test]
fn a_bound_is_not_a_verdict() {
    let h = ["0123:1A1B", "0123:1A1B", "0123:1A1B"];
    let mut args = vec!["analyze", "--json", "--budget", "0"];
    args.extend(h);
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let moves = json_lines(&out);
    assert_eq!(moves.len(), 3);
    for m in &moves {
        let verdict = m["verdict"].as_str().unwrap();
        if m["exact"] == true {
            assert_ne!(verdict, "undecided", "{m}");
            continue;
        }
        // A bound decides only the top verdict (or an unbounded loss).
        match m["loss"].as_f64() {
            Some(l) if l >= 0.5 => assert_eq!(verdict, "blunder", "{m}"),
            None => assert_eq!(verdict, "blunder", "{m}"),
            Some(_) => assert_eq!(verdict, "undecided", "{m}"),
        }
        // An inexact best total is the best found, an upper bound on the
        // optimum; none found: no best move claimed.
        if m["best_exact"] != true {
            assert!(m["best"].is_null() == m["best_total"].is_null(), "{m}");
        }
    }
    let third = &moves[2];
    assert_eq!(third["exact"], false, "{third}");
    assert_eq!(third["verdict"], "undecided", "{third}");
    for m in &moves {
        // The least verdict the proven loss allows: the verdict once decided.
        if m["verdict"] != "undecided" {
            assert_eq!(m["verdict_at_least"], m["verdict"], "{m}");
        }
    }
    assert_eq!(third["verdict_at_least"], "best", "{third}");
    assert!(third["best"].is_null(), "{third}");
    assert_eq!(third["best_exact"], false, "{third}");
    assert_eq!(third["move_exact"], false, "{third}");
    let mut args = vec!["analyze", "--budget", "0"];
    args.extend(h);
    let (code, text, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    let line = lines[3];
    assert!(line.trim_end().ends_with("undecided"), "{text}");
    assert!(
        !line.contains("best") && !line.contains("over cap"),
        "{text}"
    );
    assert!(text.contains("undecided:"), "the note explains it: {text}");
}

/// The shipped moo:5x10 tree is an upper bound (two classes of its first
/// guess are not solved): its total is never shown as an exact value. Before
/// the file said what it proves, `rank` printed the root at 171710 and
/// 12567 after 01234:0A2B at 39048, both "exact" and "from tree", and `moo
/// duel` called it "the average-optimal tree". Inside a class its file
/// proves (1A1B), the tree's value is exact; at the root every guess is
/// worth at least the file's proven lower bound.
#[test]
fn an_upper_bound_tree_is_not_shown_as_exact() {
    let budget = ["--budget", "0.2", "--json", "--game", "moo:5x10"];
    let (code, out, err) = run(MOO, &[&["rank", "--top", "3"][..], &budget].concat(), "");
    assert_eq!(code, 0, "{err}");
    for r in json_lines(&out) {
        assert_eq!(r["exact"], false, "{r}");
        assert_ne!(r["source"], "tree", "{r}");
        // At least the file's proven lower bound (the plan's), below the
        // tree's total.
        assert!((171554..171590).contains(&total(&r)), "{r}");
    }
    let open = [&["rank", "--top", "40"][..], &budget, &["01234:0A2B"]].concat();
    let (code, out, err) = run(MOO, &open, "");
    assert_eq!(code, 0, "{err}");
    for r in json_lines(&out) {
        assert_ne!(r["source"], "tree", "{r}");
    }
    // The one row `rank --top TOP` marks as the tree's move after `history`.
    let tree_row = |top: &str, history: &[&str]| -> Value {
        let args = [&["rank", "--top", top][..], &budget, history].concat();
        let (code, out, err) = run(MOO, &args, "");
        assert_eq!(code, 0, "{err}");
        let rows = json_lines(&out);
        let tree: Vec<&Value> = rows.iter().filter(|r| r["source"] == "tree").collect();
        assert_eq!(tree.len(), 1, "{out}");
        tree[0].clone()
    };
    // 16556 guesses after the first, over the class's 3,600 secrets: the
    // exact unit of data/runs/moo-5x10 grafted in.
    let row = tree_row("40", &["01234:1A1B"]);
    assert_eq!((total(&row), &row["exact"]), (16556, &true.into()));
    // Deeper, a class of the open unit whose optimal subtree `merge
    // --graft` put in (docs/results.md, session 30): exact, 3431 over its
    // 874 secrets.
    let row = tree_row("3", &["01234:0A2B", "12567:1A1B"]);
    assert_eq!((total(&row), &row["exact"]), (3431, &true.into()));
    // Beside it, 1A2B (session 31): the tree's third guess is the one a
    // screen found, 12058, its subtree `solve --first 12058`'s (every class
    // after it exact), so playing it is worth exactly 4792, the class's
    // optimum by work's chase (the tree had 4816 before).
    let row = tree_row("0", &["01234:0A2B", "12567:1A2B"]);
    assert_eq!(row["guess"], "12058", "{row}");
    assert_eq!((total(&row), &row["exact"]), (4792, &true.into()));
    // And 0A1B (session 55): work's chase proved 2270 over its 560 secrets,
    // the tree had 2271; `solve --below 2271` wrote the optimal subtree
    // (third guess 85349), which the file now records as exact.
    let row = tree_row("0", &["01234:0A2B", "12567:0A1B"]);
    assert_eq!(row["guess"], "85349", "{row}");
    assert_eq!((total(&row), &row["exact"]), (2270, &true.into()));
    // And 0A3B (session 68): work's chase proved 7011 over its 1,660
    // secrets without naming a guess; the kept memo's refuted guesses led
    // to 56423, whose subtree makes 7011. The file records the node itself
    // exact on the kept memo's word (session 69), so no guess ranks below
    // the optimum there, and the tree's comes first.
    let args = [
        &["rank", "--top", "5"][..],
        &budget,
        &["01234:0A2B", "12567:0A3B"],
    ]
    .concat();
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows[0]["guess"], "56423", "{out}");
    assert_eq!((total(&rows[0]), &rows[0]["exact"]), (7011, &true.into()));
    assert!(rows.iter().all(|r| total(r) >= 7011), "{out}");
    let (code, out, err) = run(MOO, &["duel", "--game", "moo:5x10", "--seed", "1"], "q\n");
    assert!(
        !out.contains("average-optimal") && !err.contains("average-optimal"),
        "{code} {out}{err}"
    );
    assert!(
        out.contains("not proved optimal") || err.contains("not proved optimal"),
        "{out}{err}"
    );
}

/// A move after the winning answer: `next`, `rank` and `analyze` refuse it
/// alike (exit code 1, the same words), on small and huge games (`moo
/// next` said the game was won, exit 0; the huge games' commands exit 2).
#[test]
fn a_move_after_the_win_is_refused_alike() {
    let games: [(&[&str], [&str; 2]); 2] = [
        (&[], ["0123:4A0B", "4567:0A0B"]),
        (
            &["--game", "moo:10x10"],
            ["0123456789:10A0B", "1234567890:0A10B"],
        ),
    ];
    for (game, moves) in games {
        for cmd in ["next", "rank", "analyze"] {
            if cmd == "analyze" && !game.is_empty() {
                continue; // huge games have no analyze
            }
            let args: Vec<&str> = game.iter().chain(&[cmd]).chain(&moves).copied().collect();
            let (code, out, err) = run(MOO, &args, "");
            assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
            assert_eq!(
                err.trim(),
                "moo: error: move 2 comes after the winning answer: the game was over",
                "{args:?}"
            );
        }
    }
}

/// A history of a huge game longer than any game needs is refused at once
/// (3,000 moves of moo:10x10 took 60 s); a guess asked again is read once.
#[test]
fn huge_histories_are_bounded() {
    let long: Vec<String> = (0..65).map(|_| "0123456789:0A10B".to_string()).collect();
    for cmd in ["next", "rank"] {
        let mut args = vec!["--game", "moo:10x10", cmd];
        args.extend(long.iter().map(String::as_str));
        let start = std::time::Instant::now();
        let (code, _, err) = run(MOO, &args, "");
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("65 moves") && err.contains("at most 64"),
            "{err}"
        );
        assert!(start.elapsed().as_secs_f64() < 1.0);
    }
    let mut args = vec!["--game", "moo:10x10", "next"];
    args.extend(long[..64].iter().map(String::as_str));
    let start = std::time::Instant::now();
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let (_, once, _) = run(MOO, &["--game", "moo:10x10", "next", &long[0]], "");
    assert_eq!(out, once);
    assert!(start.elapsed().as_secs_f64() < 5.0);
}

/// Once no guess can meet the cap, analyze judges without it, as rank
/// ranks: move 4 of this game was called "best" at a loss of 0 (every
/// guess over the cap), while rank put 0172 at 3.6407 above it.
#[test]
fn analyze_drops_the_cap_as_rank_does() {
    let history = ["1234:0A2B", "1235:0A2B", "1236:0A2B", "5678:0A1B"];
    let args: Vec<&str> = ["analyze", "--json", "--budget", "inf"]
        .into_iter()
        .chain(history)
        .collect();
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    // Move 3 made the cap impossible to meet: unbounded, within the cap.
    assert_eq!(rows[2]["cap_dropped"], false);
    assert!(rows[2]["loss"].is_null(), "{}", rows[2]);
    // Move 4 is judged without the cap: its best is rank's.
    let rank_args: Vec<&str> = ["rank", "--json", "--top", "1", "--budget", "inf"]
        .into_iter()
        .chain(history[..3].iter().copied())
        .collect();
    let (code, ranked, err) = run(MOO, &rank_args, "");
    assert_eq!(code, 0, "{err}");
    let first: Value = serde_json::from_str(ranked.lines().next().unwrap()).unwrap();
    assert_eq!(rows[3]["cap_dropped"], true);
    assert_eq!(rows[3]["best_total"], first["total"], "{}", rows[3]);
    assert_eq!(rows[3]["best_exact"], true);
    assert!(rows[3]["loss_total"].as_u64().unwrap() > 0, "{}", rows[3]);
    assert_ne!(rows[3]["verdict"], "best");
    // The summary gives the loss before and after move 3.
    let text_args: Vec<&str> = ["analyze"].into_iter().chain(history).collect();
    let (code, text, err) = run(MOO, &text_args, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("total expected loss: unbounded: move 3 made the cap impossible to meet; ")
            && text.contains("guesses before it, ")
            && text.contains("after it (without the cap)"),
        "{text}"
    );
    assert!(
        text.contains("move 4: no guess could meet the cap any more"),
        "{text}"
    );
}
