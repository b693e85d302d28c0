//! The proof over first guesses of a word-list game (`plan` of a word
//! list, `work`, `status`, `merge`): on a small list under Wordle's rule
//! the merged result is what `solve --first` says of each word one by one;
//! a deleted unit is redone alone; a unit edited, of another plan or of an
//! edited plan is refused by name; an incomplete run is refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use optimoo_cli::cli::first_plan::UnitFile;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// 35 words, the guesses; the first 24 are the secrets.
const WORDS: [&str; 35] = [
    "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve",
    "heath", "dwarf", "model", "karma", "stink", "grade", "quiet", "bench", "abate", "feign",
    "major", "death", "fresh", "crust", "stool", "colon", "abase", "marry", "react", "batty",
    "pride", "floss", "helix", "croak", "staff",
];

/// The lists written once per test (each test its own names).
struct Lists {
    guesses: PathBuf,
    secrets: PathBuf,
}

impl Lists {
    fn new(name: &str) -> Lists {
        let guesses = scratch(&format!("{name}-guesses.txt"));
        let secrets = scratch(&format!("{name}-secrets.txt"));
        std::fs::write(&guesses, WORDS.join("\n")).unwrap();
        std::fs::write(&secrets, WORDS[..24].join("\n")).unwrap();
        Lists { guesses, secrets }
    }

    /// `--rules wordle --secrets S --guesses G`.
    fn args(&self) -> Vec<&str> {
        vec![
            "--rules",
            "wordle",
            "--secrets",
            self.secrets.to_str().unwrap(),
            "--guesses",
            self.guesses.to_str().unwrap(),
        ]
    }
}

/// A fresh scratch folder.
fn folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `optimoo` and insists on exit code 0.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    out
}

/// Runs `optimoo` and insists on exit code 2; its stderr.
fn refused(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    err
}

/// `solve --first W` of every word: its total (none: no tree within the
/// cap opens with it).
fn brute(lists: &Lists, cap: Option<&str>) -> Vec<(String, Option<u64>)> {
    WORDS
        .iter()
        .map(|w| {
            let mut args = vec!["solve", "--json", "--first", w];
            args.extend(lists.args());
            if let Some(c) = cap {
                args.extend(["--cap", c]);
            }
            let (code, out, err) = run(OPTIMOO, &args, "");
            if code == 1 {
                return (w.to_string(), None);
            }
            assert_eq!(code, 0, "{args:?}: {err}");
            let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
            (w.to_string(), v["total"].as_u64())
        })
        .collect()
}

/// Every unit file's words, as (word, exact, value).
fn outcomes(dir: &Path, units: usize) -> Vec<(String, bool, Option<u64>)> {
    let mut all = Vec::new();
    for u in 0..units {
        let text = std::fs::read_to_string(dir.join("first").join(format!("{u}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for w in v["words"].as_array().unwrap() {
            all.push((
                w["word"].as_str().unwrap().to_string(),
                w["exact"].as_bool().unwrap(),
                w["value"].as_u64(),
            ));
        }
    }
    all
}

/// The plan's JSON line.
fn plan(dir: &Path, lists: &Lists, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["plan", "--json", "-o", s(dir)];
    args.extend(lists.args());
    args.extend_from_slice(extra);
    serde_json::from_str(ok(&args).trim()).unwrap()
}

/// Each unit in its own process (one by the index of a Slurm array), then
/// merge: the optimum, the best words and every outcome agree with
/// `solve --first` word by word, under the plan's own cut-off (every
/// value exact here), a cut-off given (the words at or above it proved at
/// least it), and a cap that some first words cannot meet.
#[test]
fn the_proof_agrees_with_each_first_guess_solved() {
    let lists = Lists::new("first-brute");
    let cases: [(&[&str], Option<&str>, usize); 3] = [
        (&["--words-per-unit", "8"], None, 8),
        (&["--words-per-unit", "6", "--below", "56"], None, 6),
        (&["--words-per-unit", "10", "--cap", "3"], Some("3"), 10),
    ];
    for (k, (extra, cap, per)) in cases.into_iter().enumerate() {
        let dir = folder(&format!("first-brute-{k}"));
        let p = plan(&dir, &lists, extra);
        let units = p["units"].as_u64().unwrap() as usize;
        let below = p["below"].as_u64().unwrap();
        assert_eq!(units, WORDS.len().div_ceil(per), "{p}");
        for u in (0..units).rev() {
            if u == 1 {
                let out = Command::new(OPTIMOO)
                    // As scripts/optimoo-array.sbatch runs it.
                    .args(["work", s(&dir), "--threads", "1", "--memo-mib", "768"])
                    .args(["--max-memory", "4096M"])
                    .env("SLURM_ARRAY_TASK_ID", "1")
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{out:?}");
            } else {
                ok(&["work", s(&dir), "--unit", &u.to_string()]);
            }
        }
        let merged: serde_json::Value =
            serde_json::from_str(ok(&["merge", s(&dir), "--json"]).trim()).unwrap();
        let truth = brute(&lists, cap);
        let mut sorted: Vec<(u64, &str)> = truth
            .iter()
            .filter_map(|(w, v)| v.map(|v| (v, w.as_str())))
            .collect();
        sorted.sort();
        let best = sorted[0].0;
        assert!(best < below, "{p}");
        assert_eq!(merged["optimum"]["total"].as_u64(), Some(best), "{merged}");
        assert_eq!(merged["proved_optimal"], true);
        let listed: Vec<(u64, &str)> = merged["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["total"].as_u64().unwrap(), b["word"].as_str().unwrap()))
            .collect();
        let want: Vec<(u64, &str)> = sorted
            .iter()
            .copied()
            .filter(|&(v, _)| v < below)
            .take(10)
            .collect();
        assert_eq!(listed, want, "{merged}");
        // Every word: exact below the cut-off, else a bound at least the
        // cut-off and at most the word's value.
        let got = outcomes(&dir, units);
        assert_eq!(got.len(), WORDS.len());
        let mut bounded = 0;
        for (word, exact, value) in &got {
            let truth = truth.iter().find(|(w, _)| w == word).unwrap().1;
            match truth {
                Some(t) if t < below => {
                    assert!(*exact && *value == Some(t), "{word}: {value:?} vs {t}")
                }
                _ => {
                    bounded += 1;
                    assert!(!exact, "{word}");
                    if let Some(b) = value {
                        assert!(*b >= below && truth.is_none_or(|t| *b <= t), "{word}: {b}");
                    }
                }
            }
        }
        assert_eq!(merged["at_least_below"].as_u64(), Some(bounded));
        let fields = crate::cli::readme_fields("`merge` of a plan of first guesses");
        assert_eq!(crate::cli::keys(&merged.to_string()), fields);
        if k == 0 {
            // The plan's own cut-off: at least ten words exact.
            assert!(merged["exact"].as_u64().unwrap() >= 10, "{merged}");
            // `-o`: the optimal tree, proved by the plan: its total is the
            // whole game's optimum as `solve` finds it over every first
            // word, and `verify` reads it as optimal (no upper bound).
            let tree = dir.join("optimal.tree");
            ok(&["merge", s(&dir), "-o", s(&tree)]);
            let solved: serde_json::Value = serde_json::from_str(
                ok(&[&["solve", "--json"][..], &lists.args()].concat())
                    .lines()
                    .last()
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(solved["total"].as_u64(), Some(best), "{solved}");
            let verified = ok(&["verify", s(&tree)]);
            assert!(
                verified.contains(&format!("total {best}")) && !verified.contains("upper bound"),
                "{verified}"
            );
        }
        if k == 1 {
            assert!(bounded > 0, "the cut-off 56 bounds some words");
        }
        if k == 2 {
            assert!(
                truth.iter().any(|(_, v)| v.is_none()),
                "some words miss the cap"
            );
        }
    }
}

/// A deleted unit file is redone alone (the others are done already);
/// merge refuses the run meanwhile, naming the unit, and gives the same
/// result after.
#[test]
fn a_deleted_unit_is_redone_alone() {
    let lists = Lists::new("first-resume");
    let dir = folder("first-resume");
    let d = s(&dir);
    plan(&dir, &lists, &["--words-per-unit", "7", "--below", "57"]);
    ok(&["work", d, "--all"]);
    let before: serde_json::Value =
        serde_json::from_str(ok(&["merge", d, "--json"]).trim()).unwrap();
    let unit2 = dir.join("first").join("2.json");
    std::fs::remove_file(&unit2).unwrap();
    let err = refused(&["merge", d]);
    assert!(err.contains("1 of 5 units are not done: [2]"), "{err}");
    let status = ok(&["status", d]);
    assert!(status.contains("units      4 / 5 done"), "{status}");
    let (code, out, err) = run(OPTIMOO, &["work", d, "--all"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("unit 2: 7 words") && out.lines().count() == 1,
        "{out}"
    );
    assert_eq!(err.matches("done already").count(), 4, "{err}");
    let after: serde_json::Value =
        serde_json::from_str(ok(&["merge", d, "--json"]).trim()).unwrap();
    for key in ["optimum", "best", "exact", "at_least_below", "ties"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    let status = ok(&["status", d]);
    assert!(status.contains("units      5 / 5 done"), "{status}");
    assert!(status.contains("next       optimoo merge"), "{status}");
}

/// A unit file edited by hand, one of another plan, and the units of a
/// plan edited after they were written are refused by `merge` and
/// `status`, naming the file; `merge --audit 1` values the units again
/// and catches a forged file whose hash was recomputed.
#[test]
fn tampered_and_stale_units_are_refused() {
    let lists = Lists::new("first-tamper");
    let dir = folder("first-tamper");
    let other = folder("first-tamper-other");
    let d = s(&dir);
    plan(&dir, &lists, &["--words-per-unit", "12", "--below", "57"]);
    plan(&other, &lists, &["--words-per-unit", "12", "--below", "58"]);
    ok(&["work", d, "--all"]);
    ok(&["work", s(&other), "--unit", "0"]);
    ok(&["merge", d, "--audit", "1"]);
    let path = dir.join("first").join("0.json");
    let good = std::fs::read_to_string(&path).unwrap();
    // An exact value lowered by hand.
    let mut unit: serde_json::Value = serde_json::from_str(&good).unwrap();
    let w = unit["words"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|w| w["exact"] == true)
        .unwrap();
    w["value"] = (w["value"].as_u64().unwrap() - 1).into();
    std::fs::write(&path, unit.to_string()).unwrap();
    let err = refused(&["merge", d]);
    assert!(err.contains("0.json: its sha256 does not match"), "{err}");
    let (code, out, _) = run(OPTIMOO, &["status", d], "");
    assert_eq!(code, 2);
    assert!(out.contains("bad file") && out.contains("0.json"), "{out}");
    // Unit 0 of the other plan (another cut-off).
    std::fs::copy(other.join("first").join("0.json"), &path).unwrap();
    let err = refused(&["merge", d]);
    assert!(err.contains("0.json: a unit of another plan"), "{err}");
    let err = refused(&["work", d, "--unit", "0"]);
    assert!(err.contains("a unit of another plan"), "{err}");
    // A forger who recomputes the hash (anyone can): merge takes the
    // file, the audit values the unit again and names it.
    let mut forged: UnitFile = serde_json::from_str(&good).unwrap();
    let w = forged.words.iter_mut().find(|w| w.exact).unwrap();
    w.value = w.value.map(|v| v - 1);
    forged.sha256 = forged.compute_sha256();
    std::fs::write(&path, serde_json::to_string(&forged).unwrap()).unwrap();
    ok(&["merge", d]);
    let err = refused(&["merge", d, "--audit", "1"]);
    assert!(err.contains("unit 0: the file says"), "{err}");
    std::fs::write(&path, &good).unwrap();
    ok(&["merge", d]);
    // The plan edited: a higher cut-off would make its bounds wrong.
    let plan_path = dir.join("first.json");
    let text = std::fs::read_to_string(&plan_path).unwrap();
    std::fs::write(&plan_path, text.replace("\"below\": 57", "\"below\": 60")).unwrap();
    let err = refused(&["merge", d]);
    assert!(err.contains("a unit of another plan"), "{err}");
    std::fs::write(&plan_path, text).unwrap();
    ok(&["merge", d]);
}

/// `merge` refuses a run with units left, naming them, and the folder of
/// another plan's kind is refused by `plan`; a run whose cut-off is below
/// every word proves no optimum (exit code 1).
#[test]
fn an_incomplete_run_is_refused() {
    let lists = Lists::new("first-incomplete");
    let dir = folder("first-incomplete");
    let d = s(&dir);
    plan(&dir, &lists, &["--words-per-unit", "5"]);
    ok(&["work", d, "--unit", "3"]);
    let err = refused(&["merge", d]);
    assert!(
        err.contains("6 of 7 units are not done: [0, 1, 2, 4, 5, 6]"),
        "{err}"
    );
    let line = ok(&["status", d, "--json"]);
    let fields = crate::cli::readme_fields("`status` of a plan of first guesses");
    assert_eq!(crate::cli::keys(&line), fields);
    let status: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(status["done"], 1);
    assert_eq!(status["words_done"], 5);
    let err = refused(&["plan", "--game", "mm:3x3", "-o", d]);
    assert!(err.contains("holds a plan of first guesses"), "{err}");
    let mut again = vec!["plan", "-o", d];
    again.extend(lists.args());
    let err = refused(&again);
    assert!(err.contains("first.json exists"), "{err}");
    let err = refused(&["work", d, "--unit", "0", "--max-memory", "1K"]);
    assert!(err.contains("--max-memory"), "{err}");
    assert!(!dir.join("first").join("0.json").exists());
    let err = refused(&["work", d, "--unit", "7"]);
    assert!(err.contains("unit 7 does not exist"), "{err}");
    for (flag, value) in [("--words-per-unit", "0"), ("--below", "0")] {
        let fresh = folder("first-bad-flag");
        let mut args = vec!["plan", "-o", s(&fresh), flag, value];
        args.extend(lists.args());
        let err = refused(&args);
        assert!(err.contains(&format!("{flag} 0")), "{err}");
    }
    // A cut-off below every word: no optimum, a negative answer (1).
    let low = folder("first-too-low");
    plan(&low, &lists, &["--below", "30"]);
    ok(&["work", s(&low), "--all"]);
    let (code, out, err) = run(OPTIMOO, &["merge", s(&low)], "");
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("optimum    at least 30"), "{out}");
    assert!(!out.contains("proved optimal"), "{out}");
}
