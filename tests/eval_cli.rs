//! The `eval` and `export` subcommands, run as a user runs them.

use std::process::Command;

fn optimoo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_optimoo"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn eval_json_has_the_fields() {
    let (code, out, err) = optimoo(&["eval", "--game", "mm:3x4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "one line per strategy: {out}");
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let hist: Vec<u64> = v["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        assert_eq!(hist.iter().sum::<u64>(), 64);
        let total: u64 = hist
            .iter()
            .enumerate()
            .map(|(d, h)| (d as u64 + 1) * h)
            .sum();
        assert_eq!(v["total"].as_u64().unwrap(), total);
        assert_eq!(v["max_depth"].as_u64().unwrap(), hist.len() as u64);
        assert!((v["average"].as_f64().unwrap() - total as f64 / 64.0).abs() < 1e-9);
        assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        assert!(v["strategy"].is_string());
    }
}

#[test]
fn eval_prints_the_minimax_row() {
    let (code, out, err) = optimoo(&["eval", "--strategy", "minimax"]);
    assert_eq!(code, 0, "{err}");
    let row = out.lines().find(|l| l.starts_with("minimax")).expect(&out);
    assert!(row.contains("27139"), "{row}");
    assert!(row.contains("1 3 44 515 2124 2151 202"), "{row}");
}

#[test]
fn export_writes_a_tree_that_plays() {
    let (code, out, err) = optimoo(&[
        "export",
        "--game",
        "mm:2x3",
        "--strategy",
        "kooi",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"]["positions"], 2);
    assert_eq!(v["game"]["symbols"], 3);
    assert_eq!(v["game"]["repeats"], true);
    assert_eq!(v["root"]["guess"], "00");
    assert!(v["root"]["next"].as_object().unwrap().len() > 1);
}

#[test]
fn bad_options_are_errors() {
    let (code, _, err) = optimoo(&["eval", "--first", "0012"]);
    assert_eq!(code, 2);
    assert!(err.contains("repeats"), "{err}");
    let (code, _, _) = optimoo(&["eval", "--strategy", "knuth"]);
    assert_eq!(code, 2);
    let (code, _, err) = optimoo(&["export"]);
    assert_eq!(code, 2);
    assert!(err.contains("--strategy"), "{err}");
}

/// The phased strategy on a game too large for the model: a sample, its
/// interval and the README's fields; its tree on a game that fits is the
/// tree `verify` replays, with the same total.
#[test]
fn phased_plays_huge_games_and_samples() {
    let (code, out, err) = optimoo(&[
        "eval",
        "--game",
        "moo:8x10",
        "--strategy",
        "phased",
        "--sample",
        "300",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("memory: about"), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["secrets"], 300);
    assert_eq!(v["population"], 1_814_400);
    let hist: Vec<u64> = serde_json::from_value(v["histogram"].clone()).unwrap();
    assert_eq!(hist.iter().sum::<u64>(), 300);
    let [lo, hi]: [f64; 2] = serde_json::from_value(v["interval"].clone()).unwrap();
    let average = v["average"].as_f64().unwrap();
    assert!(lo < average && average < hi, "{lo} {average} {hi}");
    let dir = std::env::temp_dir().join(format!("optimoo-phased-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tree = dir.join("p.tree");
    let (code, out, err) = optimoo(&[
        "eval",
        "--game",
        "mm:4x5",
        "--strategy",
        "phased",
        "--json",
        "-o",
        tree.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let (code, vout, err) = optimoo(&["verify", tree.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(vout.contains(&v["total"].to_string()), "{vout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input on huge games is refused with a reason (exit code 2).
#[test]
fn huge_games_refuse_what_they_cannot_do() {
    for (args, says) in [
        (vec!["eval", "--game", "moo:15x16"], "2^32"),
        (
            vec!["eval", "--game", "moo:10x10", "--strategy", "entropy"],
            "phased or first",
        ),
        (
            vec![
                "eval",
                "--game",
                "moo:7x10",
                "--strategy",
                "phased",
                "--sample",
                "604801",
            ],
            "--sample",
        ),
        (
            vec!["eval", "--game", "moo:4x10", "--sample", "10"],
            "--strategy phased",
        ),
        (
            vec![
                "eval",
                "--game",
                "moo:7x10",
                "--strategy",
                "phased",
                "--exact-below",
                "99",
            ],
            "exact",
        ),
    ] {
        let (code, _, err) = optimoo(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// plan --strategy phased / work / merge give eval's table, every secret
/// or a sample, at depth 1 and 2; a missing unit and a second plan in the
/// same folder are refused.
#[test]
fn a_phased_plan_merges_into_evals_table() {
    let base = std::env::temp_dir().join(format!("optimoo-phased-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    for (game, sample, depth) in [
        ("moo:5x8", None, "1"),
        ("moo:5x8", None, "2"),
        ("moo:7x10", Some("400"), "1"),
    ] {
        let dir =
            base.join(format!("{game}-{depth}-{}", sample.unwrap_or("all")).replace(':', "-"));
        let d = dir.to_str().unwrap();
        let mut eval = vec!["eval", "--game", game, "--strategy", "phased", "--json"];
        let mut plan = vec![
            "plan",
            "--game",
            game,
            "--strategy",
            "phased",
            "-o",
            d,
            "--depth",
            depth,
        ];
        if let Some(n) = sample {
            eval.extend(["--sample", n, "--seed", "7"]);
            plan.extend(["--sample", n, "--seed", "7"]);
        }
        let v = |t: &str| serde_json::from_str::<serde_json::Value>(t.trim()).unwrap();
        let (code, want, err) = optimoo(&eval);
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = optimoo(&plan);
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = optimoo(&["merge", d, "--json"]);
        assert_eq!(code, 2, "a plan without its units merges: {err}");
        assert!(err.contains("not done"), "{err}");
        let (code, _, err) = optimoo(&["work", d, "--unit", "0"]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = optimoo(&["status", d, "--json"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v(&out)["done"], 1, "{out}");
        let (code, _, err) = optimoo(&["work", d, "--all"]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = optimoo(&["status", d, "--json"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v(&out)["done"], v(&out)["units"], "{out}");
        assert_eq!(v(&out)["codes_to_walk"], 0, "{out}");
        let (code, got, err) = optimoo(&["merge", d, "--json"]);
        assert_eq!(code, 0, "{err}");
        let (want, got) = (v(&want), v(&got));
        for key in [
            "secrets",
            "total",
            "histogram",
            "max_depth",
            "interval",
            "population",
        ] {
            assert_eq!(want[key], got[key], "{game} {depth} {key}");
        }
        let (code, _, err) = optimoo(&plan);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("exists"), "{err}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// partition on a game of millions of codes: the classes add up to the
/// candidates the history leaves, and a history no secret gives is exit 1.
#[test]
fn partition_splits_a_huge_game() {
    let (code, out, err) = optimoo(&[
        "partition",
        "--game",
        "moo:10x10",
        "--guess",
        "1032547698",
        "0123456789:2A8B",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let left: u64 = lines
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(left, 667_485); // the permutations of 10 with exactly 2 fixed points
    let sum: u64 = lines
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, left);
    let (code, _, err) = optimoo(&[
        "partition",
        "--game",
        "mm:8x8",
        "00000000:0A0B",
        "11111111:0A0B",
        "22222222:0A0B",
        "33333333:0A0B",
        "44444444:0A0B",
        "55555555:0A0B",
        "66666666:0A0B",
        "77777777:0A0B",
    ]);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = optimoo(&["partition", "--game", "moo:10x10", "0123456789:9A1B"]);
    assert_eq!(code, 2);
    assert!(err.contains("impossible"), "{err}");
}

/// A bad -o is refused before any secret is played; an absurd pool size
/// is bounded, not a crash.
#[test]
fn phased_refuses_a_bad_output_at_once() {
    let (code, out, err) = optimoo(&[
        "eval",
        "--game",
        "moo:7x10",
        "--strategy",
        "phased",
        "-o",
        "/nonexistent/dir/x.tree",
    ]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("does not exist") && !err.contains("memory"),
        "{out} {err}"
    );
    let (code, out, err) = optimoo(&[
        "eval",
        "--game",
        "mm:3x4",
        "--strategy",
        "phased",
        "-o",
        "/nonexistent/dir/x.tree",
    ]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("does not exist"),
        "{out} {err}"
    );
    let (code, _, err) = optimoo(&[
        "eval",
        "--game",
        "mm:3x4",
        "--strategy",
        "phased",
        "--work",
        "18446744073709551615",
    ]);
    assert_eq!(code, 0, "{err}");
}

/// A sample of one secret has no confidence interval (not one of width
/// zero); a sample of two has one.
#[test]
fn a_sample_of_one_has_no_interval() {
    let args = |n: &'static str| {
        vec![
            "eval",
            "--game",
            "moo:7x10",
            "--strategy",
            "phased",
            "--sample",
            n,
            "--json",
        ]
    };
    let (code, out, err) = optimoo(&args("1"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["secrets"], 1, "{out}");
    assert!(v.get("interval").is_none(), "{out}");
    let mut text = args("1");
    text.pop();
    let (code, out, err) = optimoo(&text);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a sample of one secret: no interval"), "{out}");
    assert!(!out.contains("95 % interval"), "{out}");
    let (code, out, err) = optimoo(&args("2"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["interval"].as_array().map(Vec::len), Some(2), "{out}");
}

/// `--strategy first -o FILE` on a game over 65,535 codes would write
/// nothing: refused at once, naming -o.
#[test]
fn first_with_an_output_on_a_huge_game_is_refused() {
    let dir = std::env::temp_dir().join(format!("optimoo-first-o-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("first.tree");
    let (code, out, err) = optimoo(&[
        "eval",
        "--game",
        "moo:7x10",
        "--strategy",
        "first",
        "--sample",
        "10",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("-o: --strategy first writes no tree file"),
        "{err}"
    );
    assert!(!path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
