//! `optimoo duel`: the exact best response to a tree (`--against`) and the
//! equilibrium (`-o DIR`, `--check DIR`) of the two-player challenge. The
//! libraries check them against brute force (play::best_response, equilibrium::duel);
//! here the command: its reports, its files, its errors.

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
    refused(&[], "--rule");
    refused(&["--rule", "first-wins", "--seat", "second"], "--against");
    refused(
        &["--check", "/nonexistent-duel", "--rule", "first-wins"],
        "cannot be used with",
    );
    refused(
        &["--rule", "first-wins", "--against", "/nonexistent.tree"],
        "/nonexistent.tree",
    );
}

/// `duel -o DIR` writes the equilibrium (duel.json and the trees, which
/// `verify` reads); `--check DIR` proves it again, and refuses it when a
/// weight or the value is changed.
#[test]
fn the_equilibrium_is_written_and_checked() {
    let dir = scratch("duel-equilibrium-moo-2x6");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_path = dir.to_str().unwrap();
    let args = [
        "duel",
        "--game",
        "moo:2x6",
        "--rule",
        "first-wins",
        "-o",
        dir_path,
        "--json",
    ];
    let (code, out, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{out}{err}");
    let json: Value = serde_json::from_str(out.trim()).unwrap();
    for key in crate::cli::readme_fields("`duel -o DIR`") {
        assert!(json.get(&key).is_some(), "no {key} in {out}");
    }
    // The value 593/900 is the brute-force matrix game's over every
    // undominated tree (equilibrium::duel's tests).
    assert_eq!(json["value"], "593/900");
    assert_eq!(json["rule"], "first-wins");
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("duel.json")).unwrap()).unwrap();
    assert_eq!(file["value"], json["value"]);
    for seat in ["first", "second"] {
        let list = file[seat].as_array().unwrap();
        assert!(!list.is_empty());
        let mut sum = 0.0;
        for entry in list {
            sum += ratio(&entry["weight"]);
            let tree = dir.join(entry["tree"].as_str().unwrap());
            let (code, out, err) = run(OPTIMOO, &["verify", tree.to_str().unwrap()], "");
            assert_eq!(code, 0, "{out}{err}");
        }
        assert!((sum - 1.0).abs() < 1e-12);
    }
    let check = |expect: i32, words: &str| {
        let (code, out, err) = run(OPTIMOO, &["duel", "--check", dir_path], "");
        assert_eq!(code, expect, "{out}{err}");
        assert!(out.contains(words), "{out}");
    };
    check(0, "ok: moo:2x6 first-wins value 593/900");
    let text = std::fs::read_to_string(dir.join("duel.json")).unwrap();
    std::fs::write(
        dir.join("duel.json"),
        text.replace("\"value\": \"593/900\"", "\"value\": \"1/2\""),
    )
    .unwrap();
    check(1, "FAILED");
    std::fs::write(dir.join("duel.json"), &text).unwrap();
    check(0, "ok");
    // Every claim beside the value is re-derived: each forgery fails.
    let good: Value = serde_json::from_str(&text).unwrap();
    let forge = |edit: &dyn Fn(&mut Value), words: &str| {
        let mut f = good.clone();
        edit(&mut f);
        std::fs::write(dir.join("duel.json"), f.to_string()).unwrap();
        check(1, words);
    };
    forge(
        &|f| f["value_second"] = "1/2".into(),
        "FAILED: value_second",
    );
    forge(
        &|f| {
            let t = f["first"][0]["total"].as_u64().unwrap();
            f["first"][0]["total"] = (t + 1).into();
        },
        "but its replay gives",
    );
    forge(
        &|f| {
            let h = f["second"][0]["histogram"].as_array_mut().unwrap();
            h.push(0.into());
        },
        "but its replay gives",
    );
    forge(
        &|f| {
            let t = f["average_optimal"]["total"].as_u64().unwrap();
            f["average_optimal"]["total"] = (t + 1).into();
        },
        "FAILED: average_optimal.total",
    );
    for seat in ["first", "second"] {
        forge(
            &|f| f["average_optimal"][seat] = "0".into(),
            &format!("FAILED: average_optimal.{seat}"),
        );
    }
    // Fractions are read in their canonical form only (refused, exit 2).
    for bad in ["-593/-900", "+593/900", "0593/0900", "1186/1800"] {
        let mut f = good.clone();
        f["value"] = bad.into();
        std::fs::write(dir.join("duel.json"), f.to_string()).unwrap();
        let (code, out, err) = run(OPTIMOO, &["duel", "--check", dir_path], "");
        assert_eq!(code, 2, "{bad}: {out}{err}");
        assert!(err.contains(&format!("'{bad}' is not a fraction")), "{err}");
    }
    std::fs::write(dir.join("duel.json"), &text).unwrap();
    check(0, "and average_optimal");
}
