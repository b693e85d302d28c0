//! `optimoo duel --against TREE`: the exact best response in the
//! two-player challenge. The library checks it against brute force
//! (play::duel); here the command: its report, its file, its errors.

use serde_json::Value;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// A heuristic's tree of mm:3x4, written to a scratch file.
fn opponent(name: &str) -> String {
    let path = scratch(name);
    let path = path.to_str().unwrap().to_string();
    let args = [
        "export",
        "--game",
        "mm:3x4",
        "--strategy",
        "minimax",
        "--format",
        "tree",
        "-o",
        &path,
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    path
}

fn ratio(v: &Value) -> f64 {
    let text = v.as_str().unwrap();
    match text.split_once('/') {
        Some((p, q)) => p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap(),
        None => text.parse().unwrap(),
    }
}

#[test]
fn the_best_response_beats_copying_and_its_file_verifies() {
    let against = opponent("duel-opponent-mm-3x4.tree");
    let out_file = scratch("duel-response-mm-3x4.tree");
    let out_path = out_file.to_str().unwrap();
    for (rule, seat) in [
        ("first-wins", "first"),
        ("first-wins", "second"),
        ("equal-turns", "first"),
    ] {
        let args = [
            "duel",
            "--rule",
            rule,
            "--seat",
            seat,
            "--against",
            &against,
            "--json",
            "-o",
            out_path,
        ];
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let fields = crate::cli::readme_fields("`duel --against TREE`");
        assert_eq!(crate::cli::keys(&out), fields);
        assert_eq!(v["game"], "mm:3x4");
        assert_eq!(v["tree"], out_path);
        let (best, copy) = (ratio(&v["value"]), ratio(&v["value_of_against"]));
        assert!(best >= copy && best <= 1.0, "{out}");
        if rule == "equal-turns" {
            assert_eq!(v["value_of_against"], "1/2");
        }
        let (code, text, err) = run(OPTIMOO, &["verify", out_path], "");
        assert_eq!(code, 0, "{err}");
        assert!(
            text.contains(&format!("ok: mm:3x4 costs cap {}", v["cap"])),
            "{text}"
        );
        assert!(text.contains(&format!("total {}", v["total"])), "{text}");
    }
    // The two seats of first-wins: each player's best response against the
    // same tree can only gain, and the tree's own values add up to 1.
    let seat = |s: &str| {
        let args = [
            "duel",
            "--rule",
            "first-wins",
            "--seat",
            s,
            "--against",
            &against,
            "--json",
        ];
        let (_, out, _) = run(OPTIMOO, &args, "");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let (first, second) = (seat("first"), seat("second"));
    let sum = ratio(&first["value_of_against"]) + ratio(&second["value_of_against"]);
    assert!((sum - 1.0).abs() < 1e-12, "{first} {second}");
}

#[test]
fn bad_duels_are_refused_with_the_reason() {
    let against = opponent("duel-opponent-bad.tree");
    let refused = |args: &[&str], words: &str| {
        let all = [&["duel"], args].concat();
        let (code, out, err) = run(OPTIMOO, &all, "");
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(words), "{all:?}: {err}");
    };
    refused(
        &["--rule", "fastest", "--against", &against],
        "unknown rule 'fastest'",
    );
    refused(
        &[
            "--rule",
            "first-wins",
            "--seat",
            "third",
            "--against",
            &against,
        ],
        "unknown seat 'third'",
    );
    refused(
        &[
            "--rule",
            "first-wins",
            "--against",
            &against,
            "--game",
            "mm:4x6",
        ],
        "plays mm:3x4, not the --game mm:4x6",
    );
    refused(&["--rule", "first-wins"], "needs --against TREE");
    refused(
        &["--rule", "first-wins", "--against", "/nonexistent.tree"],
        "/nonexistent.tree",
    );
}
