//! `work --keep-memo`: what a best-first unit's memo learned, kept in
//! `DIR/memo/I.bin` between runs. A unit run in legs too short for its
//! class searches ends at the exact cost and subtree of an uninterrupted
//! run; the file goes when the unit is done; a file that is corrupt,
//! foreign or another unit's is refused by name (one of the format before
//! refuted guesses were kept is read), and `--keep-memo 0` neither reads
//! nor writes one.

use std::path::Path;

use crate::distributed::{folder, ok, s, unit_json};
use crate::trees::run;
use crate::OPTIMOO;

const GAME: &str = "moo:5x8";
/// 01234 1A3B: 660 secrets, about a second uninterrupted.
const UNIT: usize = 6;

/// One leg of the unit: `--time-limit 0.4`, the memo written every 0.05 s.
fn leg(dir: &Path, extra: &[&str]) -> (i32, String) {
    leg_of(dir, "0.4", extra)
}

/// One leg of the unit of `seconds`.
fn leg_of(dir: &Path, seconds: &str, extra: &[&str]) -> (i32, String) {
    let unit = UNIT.to_string();
    let mut args = vec!["work", s(dir), "--unit", &unit, "--threads", "1"];
    args.extend(["--time-limit", seconds, "--keep-memo-every", "0.05"]);
    args.extend(extra);
    let (code, out, err) = run(OPTIMOO, &args, "");
    (code, format!("{out}{err}"))
}

/// Plans `dir` and works the unit whole on one thread: the seconds it took.
fn whole_unit_seconds(dir: &Path) -> f64 {
    ok(&["plan", "--game", GAME, "-o", s(dir)]);
    let started = std::time::Instant::now();
    let unit = UNIT.to_string();
    ok(&["work", s(dir), "--unit", &unit, "--threads", "1"]);
    started.elapsed().as_secs_f64()
}

/// The classes of `guess` on the unit's class (01234 1A3B), from
/// `partition`'s table: each answer and its size, the win among them.
fn classes(guess: &str) -> Vec<(String, usize)> {
    let table = ok(&["partition", "--game", GAME, "--guess", guess, "01234:1A3B"]);
    table
        .lines()
        .skip(1)
        .map(|l| {
            let (answer, n) = l.split_once(' ').unwrap();
            (answer.to_string(), n.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn a_unit_in_short_legs_ends_where_a_whole_run_does() {
    let whole = folder("memo-whole");
    let whole_seconds = whole_unit_seconds(&whole);
    // Legs of 0.7 of the whole run (0.4 s at least), whatever the
    // machine's speed: each too short for the unit, and the unit done
    // within a few of them. A fixed 0.4 s left a slow or loaded machine
    // with legs that did little more than start.
    let seconds = (whole_seconds * 0.7).max(0.4);
    let seconds = format!("{seconds:.2}");
    let want = unit_json(&whole, UNIT);
    assert_eq!(want["exact"], true);

    let dir = folder("memo-legs");
    ok(&["plan", "--game", GAME, "-o", s(&dir)]);
    let memo = dir.join("memo").join(format!("{UNIT}.bin"));
    let mut seen_file = false;
    let mut legs = 0;
    while unit_json_exact(&dir) != Some(true) {
        legs += 1;
        assert!(legs <= 60, "not exact after 60 legs");
        // Refuted guesses kept from sets of 32 secrets up (1,024 by
        // default, more than this unit's 660): written and taken up too.
        let (code, out) = leg_of(
            &dir,
            &seconds,
            &["--keep-memo", "16", "--keep-guesses", "32"],
        );
        assert_eq!(code, 0, "{out}");
        if memo.exists() {
            seen_file = true;
            let bytes = std::fs::read(&memo).unwrap();
            assert!(bytes.starts_with(b"optimoo-memo/2\n"), "{memo:?}");
            let status = memo_status(&dir);
            assert_eq!(status, (1, bytes.len() as u64), "status --json");
            assert!(ok(&["status", s(&dir)]).contains("memo       1 unit kept"));
        }
    }
    assert!(seen_file || legs == 1, "no memo file after {legs} legs");
    let got = unit_json(&dir, UNIT);
    assert_eq!(got["value"], want["value"]);
    assert_eq!(got["subtree"], want["subtree"]);
    assert!(!memo.exists(), "the memo file outlived the unit");
    assert_eq!(memo_status(&dir), (0, 0));
    assert!(!ok(&["status", s(&dir)]).contains("memo "));
}

/// `status --json`'s `memo_files` and `memo_bytes`.
fn memo_status(dir: &Path) -> (u64, u64) {
    let v: serde_json::Value = serde_json::from_str(&ok(&["status", s(dir), "--json"])).unwrap();
    (
        v["memo_files"].as_u64().unwrap(),
        v["memo_bytes"].as_u64().unwrap(),
    )
}

/// The unit's file says exact (`None`: no file yet).
fn unit_json_exact(dir: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(dir.join("units").join(format!("{UNIT}.json"))).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    Some(v["exact"] == true)
}

#[test]
fn bad_memo_files_are_refused_by_name() {
    let dir = folder("memo-bad");
    ok(&["plan", "--game", GAME, "-o", s(&dir)]);
    // A first leg, stopped at once with a file to tamper with.
    let (code, out) = leg(&dir, &["--keep-memo", "16"]);
    assert_eq!(code, 0, "{out}");
    if unit_json_exact(&dir) == Some(true) {
        return; // This machine solved it in one leg: nothing left to read.
    }
    let memo = dir.join("memo").join(format!("{UNIT}.bin"));
    let good = std::fs::read(&memo).unwrap();
    let header_end = good
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    let flipped = {
        let mut b = good.clone();
        if b.len() > header_end + 2 {
            b[header_end + 2] ^= 0x55;
        } else {
            b.push(0);
        }
        b
    };
    let other_unit = String::from_utf8_lossy(&good)
        .replacen(&format!("\"unit\":{UNIT}"), "\"unit\":5", 1)
        .into_bytes();
    let cases: [(&[u8], &str); 4] = [
        (b"garbage", "not an optimoo memo file"),
        (&flipped, "checksum"),
        (&other_unit, "unit 5's"),
        (b"optimoo-memo/1\n{}\n", "corrupt header"),
    ];
    for (bytes, why) in cases {
        std::fs::write(&memo, bytes).unwrap();
        let (code, out) = leg(&dir, &[]);
        assert_ne!(code, 0, "{why}: {out}");
        assert!(
            out.contains(s(&memo)) && out.contains("refused"),
            "{why}: {out}"
        );
        assert!(out.contains(why), "{why}: {out}");
        // --keep-memo 0 neither reads nor writes it (a leg stopped at once:
        // the unit stays unfinished).
        let (code, out) = leg_of(&dir, "0.000001", &["--keep-memo", "0"]);
        assert_eq!(code, 0, "{why}: {out}");
        assert_eq!(std::fs::read(&memo).unwrap(), bytes, "{why}");
    }
    // A file written before refuted guesses were kept (`optimoo-memo/1`,
    // facts of kinds 0 and 1 only, as `good` holds at this unit's size) is
    // read as it was.
    let mut old = b"optimoo-memo/1\n".to_vec();
    old.extend_from_slice(&good[b"optimoo-memo/2\n".len()..]);
    std::fs::write(&memo, &old).unwrap();
    let (code, out) = leg(&dir, &[]);
    assert_eq!(code, 0, "a file of optimoo-memo/1: {out}");
    for bad in [
        "--keep-guesses=-1",
        "--keep-memo=-1",
        "--keep-memo-every=0",
        "--keep-memo-max=lots",
    ] {
        let (code, out) = leg(&dir, &[bad]);
        assert_eq!(code, 2, "{bad}: {out}");
    }
}

/// `status DIR --kept-at MOVES`: the guesses a unit's kept memo refuted at
/// the set the moves leave, each with its bound, least first. Each bound
/// is checked by a search of its own (`solve --secrets CLASS --first G
/// --below B` proves the guess costs at least that), and a kept exact
/// cost is the class's optimum. Moves of no unit, a unit without a memo
/// file and answers no secret gives are refused by name.
#[test]
fn status_kept_at_lists_the_refuted_guesses_with_true_bounds() {
    let whole = folder("kept-whole");
    // Legs of 0.7 of the whole run, as above, then shorter ones from the
    // start again when a loaded machine's legs all but finished the unit
    // first.
    let whole_seconds = whole_unit_seconds(&whole);
    let mut found = None;
    let mut dir = whole.clone();
    for (attempt, share) in [0.7, 0.5, 0.35].into_iter().enumerate() {
        dir = folder(&format!("kept-at-{attempt}"));
        ok(&["plan", "--game", GAME, "-o", s(&dir)]);
        let seconds = format!("{:.2}", (whole_seconds * share).max(0.3));
        found = kept_class(&dir, &seconds);
        if found.is_some() {
            break;
        }
    }
    for (moves, why) in [
        (&["76543:1A3B"][..], "no unit of"),
        (&["01234:0A5B"][..], "has no kept memo"),
        (&["01234:1A3B", "01234:0A2B"][..], "gives those answers"),
    ] {
        let mut args = vec!["status", s(&dir), "--kept-at"];
        args.extend(moves);
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{moves:?}: {out}{err}");
        assert!(err.contains(why), "{moves:?}: {err}");
    }
    let Some((second, v)) = found else {
        eprintln!("this machine solved the unit before a class kept refuted guesses");
        return;
    };
    assert_eq!(v["unit"], UNIT);
    let list = dir.join("class.txt");
    ok(&[
        "partition",
        "--game",
        GAME,
        "--guess",
        "01234",
        "01234:1A3B",
        &second,
        "--list",
        s(&list),
    ]);
    let n = std::fs::read_to_string(&list).unwrap().lines().count();
    assert_eq!(v["secrets"], n);
    let guesses = v["guesses"].as_array().unwrap();
    let bounds: Vec<u64> = guesses
        .iter()
        .map(|g| g["bound"].as_u64().unwrap())
        .collect();
    assert!(bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
    let picked = guesses.iter().take(3).chain(guesses.iter().rev().take(3));
    for g in picked {
        let (guess, bound) = (g["guess"].as_str().unwrap(), g["bound"].as_u64().unwrap());
        let below = bound.to_string();
        let args = [
            "solve",
            "--game",
            GAME,
            "--secrets",
            s(&list),
            "--first",
            guess,
            "--below",
            &below,
            "--json",
        ];
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 1, "{guess} is kept at {bound}: {out}{err}");
    }
    if let Some(exact) = v["exact"].as_u64() {
        let out = ok(&["solve", "--game", GAME, "--secrets", s(&list), "--json"]);
        let out: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(out["total"].as_u64(), Some(exact));
    }
    let text = ok(&["status", s(&dir), "--kept-at", "01234:1A3B", &second]);
    assert!(
        text.contains(&format!("{n} secrets, unit {UNIT}'s kept memo")),
        "{text}"
    );
}

/// Legs of `seconds` of the unit (refuted guesses kept from sets of 32
/// secrets up) until a class the chase solved holds some: its second move
/// and `status --kept-at --json` there (`None`: the unit was done first).
fn kept_class(dir: &Path, seconds: &str) -> Option<(String, serde_json::Value)> {
    for _ in 0..40 {
        let (code, out) = leg_of(dir, seconds, &["--keep-memo", "16", "--keep-guesses", "32"]);
        assert_eq!(code, 0, "{out}");
        if unit_json_exact(dir) == Some(true) {
            return None;
        }
        let progress = std::fs::read_to_string(dir.join(format!("progress/{UNIT}.json"))).unwrap();
        let progress: serde_json::Value = serde_json::from_str(&progress).unwrap();
        let searched = progress["guesses"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["stage"].as_str().unwrap().contains('e'));
        for g in searched {
            let g = g["guess"].as_str().unwrap();
            for (answer, n) in classes(g) {
                if n < 32 {
                    continue;
                }
                let second = format!("{g}:{answer}");
                let args = [
                    "status",
                    s(dir),
                    "--json",
                    "--kept-at",
                    "01234:1A3B",
                    &second,
                ];
                let v: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
                if !v["guesses"].as_array().unwrap().is_empty() {
                    return Some((second, v));
                }
            }
        }
    }
    None
}

/// `merge --fill-from TREE --graft FILE`: a node of the result that no
/// file proves optimal is recorded exact when the unit's kept memo holds
/// its set exact at what the node costs, and not when the memo holds
/// nothing of the set. The tree is a heuristic one with an optimal
/// subtree of the unit's class grafted in, so each node under the class
/// costs its set's optimum (a subtree of an optimal tree of the average objective is
/// optimal for its own set).
#[test]
fn a_kept_exact_cost_proves_a_grafted_node() {
    let whole = folder("graft-memo-whole");
    let whole_seconds = whole_unit_seconds(&whole);
    let heuristic = whole.join("entropy.tree");
    ok(&[
        "export",
        "--game",
        GAME,
        "--strategy",
        "entropy",
        "--format",
        "tree",
        "-o",
        s(&heuristic),
    ]);
    // The unit's class solved under a cap that never binds (20 guesses):
    // optimal there, but its file proves nothing for the uncapped node,
    // so the tree made with it records no exact subtree.
    let class = whole.join("class.txt");
    ok(&[
        "partition",
        "--game",
        GAME,
        "01234:1A3B",
        "--list",
        s(&class),
    ]);
    let solved = whole.join("class.tree");
    ok(&[
        "solve",
        "--game",
        GAME,
        "--secrets",
        s(&class),
        "--cap",
        "20",
        "-o",
        s(&solved),
    ]);
    let fresh = folder("graft-memo-fresh");
    ok(&["plan", "--game", GAME, "-o", s(&fresh)]);
    let best = whole.join("best.tree");
    let made: serde_json::Value = serde_json::from_str(&ok(&[
        "merge",
        s(&fresh),
        "--fill-from",
        s(&heuristic),
        "--graft",
        s(&solved),
        "--json",
        "-o",
        s(&best),
    ]))
    .unwrap();
    assert_eq!(made["subtrees"][0]["taken"], true, "{made}");
    assert_eq!(made["exact_subtrees"], serde_json::json!([]), "{made}");
    let json = whole.join("best.json");
    ok(&["export", s(&best), "--format", "json", "-o", s(&json)]);
    let tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(tree["root"]["guess"], "01234");
    let at = &tree["root"]["next"]["1A3B"];
    let second = at["guess"].as_str().unwrap().to_string();
    // The classes of the tree's second guess and their sizes.
    let classes: Vec<(String, usize)> = classes(&second)
        .into_iter()
        .filter(|(a, _)| a != "5A0B")
        .collect();
    let kept = |dir: &Path, answer: &str| -> serde_json::Value {
        let moves = format!("{second}:{answer}");
        let args = [
            "status",
            s(dir),
            "--json",
            "--kept-at",
            "01234:1A3B",
            &moves,
        ];
        serde_json::from_str(&ok(&args)).unwrap()
    };
    // The chase solves the classes of the tree's second guess in the last
    // tenth or so of the unit's work: legs of a few percent of that work
    // each (after their set-up, read from the trace) stop in there.
    let mut found = None;
    let mut dir = whole.clone();
    'attempts: for attempt in 0..3 {
        dir = folder(&format!("graft-memo-{attempt}"));
        ok(&["plan", "--game", GAME, "-o", s(&dir)]);
        let mut setup = whole_seconds * 0.3;
        let mut share = 0.04 / f64::from(attempt + 1);
        let mut limit = setup;
        for _ in 0..60 {
            let seconds = format!("{limit:.3}");
            let (code, out) = leg_of(&dir, &seconds, &["--keep-memo", "16", "--trace"]);
            assert_eq!(code, 0, "{out}");
            if unit_json_exact(&dir) == Some(true) {
                continue 'attempts;
            }
            // The set-up: the time of the leg's first step.
            let first = out
                .lines()
                .filter(|l| l.starts_with("step ") || l.starts_with("begin "))
                .find_map(|l| l.split(' ').find_map(|f| f.strip_prefix("t=")))
                .and_then(|t| t.parse::<f64>().ok());
            if let Some(t) = first {
                setup = setup.min(t);
            }
            // A leg that finished no step was shorter than the step it
            // was in, which the next leg starts again: longer legs.
            if !out.lines().any(|l| l.starts_with("step ")) {
                share *= 2.0;
            }
            limit = setup + ((whole_seconds - setup) * share).max(0.01);
            found = classes
                .iter()
                .filter(|&&(_, n)| n >= 16)
                .find(|(a, _)| kept(&dir, a)["exact"].is_u64())
                .cloned();
            if found.is_some() {
                break 'attempts;
            }
        }
    }
    let Some((answer, _)) = found else {
        eprintln!("this machine solved the unit before a class of {second} was kept exact");
        return;
    };
    let exact = kept(&dir, &answer)["exact"].as_u64().unwrap();
    // A file for the node that proves nothing at its root: its first guess
    // fixed (optimal after it), one guess the tree does not play there.
    let graft_for = |answer: &str, name: &str| {
        let node = &at["next"][answer];
        let list = dir.join(format!("{name}.txt"));
        let moves = format!("{second}:{answer}");
        ok(&[
            "partition",
            "--game",
            GAME,
            "01234:1A3B",
            &moves,
            "--list",
            s(&list),
        ]);
        let first = ["01567", "12345", "23456"]
            .into_iter()
            .find(|g| node["guess"] != *g)
            .unwrap();
        let file = dir.join(format!("{name}.tree"));
        ok(&[
            "solve",
            "--game",
            GAME,
            "--secrets",
            s(&list),
            "--first",
            first,
            "-o",
            s(&file),
        ]);
        file
    };
    let proved = graft_for(&answer, "proved");
    let merge = |file: &Path, out: &Path| {
        let args = [
            "merge",
            s(&dir),
            "--fill-from",
            s(&best),
            "--graft",
            s(file),
            "--json",
            "-o",
            s(out),
        ];
        run(OPTIMOO, &args, "")
    };
    let merged = |file: &Path| -> serde_json::Value {
        let (code, out, err) = merge(file, &dir.join("merged.tree"));
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let v = merged(&proved);
    let sub = &v["subtrees"][0];
    assert_eq!(sub["before"].as_u64(), Some(exact), "{v}");
    assert_eq!(sub["memo_exact_unit"], UNIT, "{v}");
    let path = format!("1A3B {answer}");
    let listed = v["exact_subtrees"].as_array().unwrap();
    assert!(listed.iter().any(|p| p == path.as_str()), "{v}");
    // The tree written says so, and verify holds it to a replay.
    let text = ok(&["verify", s(&dir.join("merged.tree"))]);
    assert!(text.contains("1 subtree proved exact"), "{text}");
    // A class too small for the memo to keep anything of: not recorded,
    // though the tree is optimal there too.
    let (small, _) = classes
        .iter()
        .find(|&&(_, n)| (2..16).contains(&n))
        .unwrap();
    assert!(kept(&dir, small)["exact"].is_null());
    let v = merged(&graft_for(small, "small"));
    assert!(v["subtrees"][0]["memo_exact_unit"].is_null(), "{v}");
    assert!(v["exact_subtrees"].as_array().unwrap().is_empty(), "{v}");
    // A memo corrupted on disk is refused by name, not read as holding
    // nothing: the merge writes no tree.
    let memo = dir.join("memo").join(format!("{UNIT}.bin"));
    let mut bytes = std::fs::read(&memo).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&memo, bytes).unwrap();
    let out = dir.join("refused.tree");
    let (code, _, err) = merge(&proved, &out);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains(&format!("{UNIT}.bin")), "{err}");
    assert!(!out.exists());
}
