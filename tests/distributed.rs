//! `plan`, `work`, `merge`, `status` and `solve --checkpoint`: the search
//! cut into units gives exactly `solve`'s answer (the same total and a
//! byte-identical tree file), whatever order and process runs the units;
//! a killed run resumes; bad unit files are refused by name.

use std::path::{Path, PathBuf};
use std::process::Command;

use optimoo::rng::SplitMix64;
use optimoo::search::plan::UnitResult;
use optimoo::search::Outcome;
use optimoo_cli::cli::checkpoint::Folder;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// A fresh scratch folder.
pub(crate) fn folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `optimoo` and insists on exit code 0.
pub(crate) fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    out
}

/// The number of units of the plan in `dir`.
fn units(dir: &Path) -> usize {
    Folder::open(dir).unwrap().plan.units.len()
}

/// Unit `i`'s file in `dir`, as JSON.
pub(crate) fn unit_json(dir: &Path, i: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("units").join(format!("{i}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The total a summary reports.
fn total(summary: &str) -> String {
    summary
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("no total in {summary}"))
        .to_string()
}

/// plan + each unit by its own process in a shuffled order + merge ==
/// solve, for several games, the three objectives and both depths.
#[test]
fn units_in_any_order_merge_into_solves_tree() {
    // (the game for plan and solve, plan's own options)
    let cases: &[(&[&str], &[&str])] = &[
        (&["--game", "moo:3x6"], &[]),
        (&["--game", "mm:3x3"], &[]),
        (&["--game", "moo:4x6"], &[]),
        (&["--game", "mm:3x4", "--cap", "4"], &[]),
        (&["--game", "moo:4x5", "--cap", "5"], &[]),
        (&["--game", "mm:4x4"], &[]),
        (&["--game", "mm:4x4", "--objective", "worst"], &[]),
        (&["--game", "mm:3x4", "--objective", "crush"], &[]),
        (&["--game", "moo:4x6", "--objective", "crush"], &[]),
        (&["--game", "mm:4x4"], &["--depth", "2"]),
        (
            &["--game", "moo:4x6", "--objective", "crush"],
            &["--depth", "2"],
        ),
    ];
    let mut rng = SplitMix64::new(11);
    for (k, (game, extra)) in cases.iter().enumerate() {
        let dir = folder(&format!("dist-order-{k}"));
        let mut plan = vec!["plan", "-o", s(&dir)];
        plan.extend_from_slice(game);
        plan.extend_from_slice(extra);
        ok(&plan);
        let n = units(&dir);
        assert!(n > 1, "{game:?}: {n} units");
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for i in order {
            ok(&["work", s(&dir), "--unit", &i.to_string(), "--threads", "1"]);
        }
        let merged = dir.join("merged.tree");
        let m = ok(&["merge", s(&dir), "-o", s(&merged)]);
        let solved = dir.join("solved.tree");
        let mut solve = vec!["solve", "-o", s(&solved)];
        solve.extend_from_slice(game);
        let sv = ok(&solve);
        assert_eq!(total(&m), total(&sv), "{game:?}");
        assert_eq!(
            std::fs::read(&merged).unwrap(),
            std::fs::read(&solved).unwrap(),
            "{game:?}: the merged tree is not solve's"
        );
        let v = ok(&["verify", s(&merged)]);
        assert!(v.contains(": ok: "), "{v}");
        // The JSON report is solve's, field for field (times aside).
        let mj: serde_json::Value =
            serde_json::from_str(&ok(&["merge", s(&dir), "--json"])).unwrap();
        solve.retain(|a| *a != "-o" && *a != s(&solved));
        solve.push("--json");
        let sj: serde_json::Value = serde_json::from_str(&ok(&solve)).unwrap();
        for key in [
            "game",
            "cap",
            "objective",
            "total",
            "histogram",
            "first_guess",
            "min_cap",
        ] {
            assert_eq!(mj.get(key), sj.get(key), "{game:?}: {key}");
        }
        let st: serde_json::Value =
            serde_json::from_str(&ok(&["status", s(&dir), "--json"])).unwrap();
        assert_eq!(st["done"], st["total"]);
        assert_eq!(st["lower"], st["upper"], "{st}");
        assert_eq!(st["gap_percent"], 0.0, "{st}");
        // The time spent is the units' own seconds added up (wall clock:
        // `core_seconds` is the JSON's older name for it), as the text
        // prints it.
        let seconds: f64 = (0..n)
            .map(|i| unit_json(&dir, i)["seconds"].as_f64().unwrap())
            .sum();
        let told = st["core_seconds"].as_f64().unwrap();
        assert!((told - seconds).abs() < 1e-6, "{game:?}: {st}");
        let text = ok(&["status", s(&dir)]);
        assert!(
            text.contains(&format!(
                "unit time  {seconds:.1} s (each unit's wall clock, summed)"
            )),
            "{game:?}: {text}"
        );
    }
}

/// An infeasible cap: every unit (if any) proves it, merge says so (1).
#[test]
fn an_infeasible_cap_merges_to_no_strategy() {
    let dir = folder("dist-infeasible");
    ok(&["plan", "--game", "mm:3x3", "--cap", "3", "-o", s(&dir)]);
    ok(&["work", s(&dir), "--all"]);
    let (code, out, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    let (scode, sout, _) = run(OPTIMOO, &["solve", "--game", "mm:3x3", "--cap", "3"], "");
    assert_eq!((code, scode), (1, 1), "{out}{err}");
    assert!(
        out.contains("no strategy solves mm:3x3 within 3 guesses"),
        "{out}"
    );
    assert!(sout.contains("no strategy solves mm:3x3 within 3 guesses"));
}

/// An --upper below the optimum: units come back as bounds, merge writes
/// generation 2 and names the units to rerun; after that, solve's tree.
#[test]
fn an_upper_bound_too_low_gives_a_new_generation() {
    let dir = folder("dist-upper");
    ok(&[
        "plan",
        "--game",
        "moo:4x6",
        "--upper",
        "1000",
        "-o",
        s(&dir),
    ]);
    let out = ok(&["work", s(&dir), "--all"]);
    assert!(out.contains("at least"), "{out}");
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("generation 2") && err.contains("cut-off"),
        "{err}"
    );
    let before: Vec<_> = (0..units(&dir))
        .map(|i| std::fs::read(dir.join(format!("units/{i}.json"))).unwrap())
        .collect();
    let out = ok(&["work", s(&dir), "--all"]);
    assert!(!out.contains("at least"), "{out}");
    let merged = dir.join("m.tree");
    let m = ok(&["merge", s(&dir), "-o", s(&merged)]);
    let solved = dir.join("s.tree");
    let sv = ok(&["solve", "--game", "moo:4x6", "-o", s(&solved)]);
    assert_eq!(total(&m), total(&sv));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&solved).unwrap()
    );
    // Exact results of generation 1 were kept, not recomputed.
    for (i, b) in before.iter().enumerate() {
        let text = String::from_utf8_lossy(b);
        if text.contains("\"exact\": true") {
            assert_eq!(
                &std::fs::read(dir.join(format!("units/{i}.json"))).unwrap(),
                b
            );
        }
    }
}

/// `solve --checkpoint` killed with SIGKILL part-way, then run again:
/// the same tree as `solve`, and the units done before the kill kept.
#[cfg(unix)]
#[test]
fn a_killed_checkpoint_run_resumes() {
    let dir = folder("dist-kill");
    let tree = dir.with_extension("tree");
    let args = |out: &Path| {
        vec![
            "solve".to_string(),
            "--game".into(),
            "mm:4x6".into(),
            "--threads".into(),
            "1".into(),
            "--checkpoint".into(),
            s(&dir).into(),
            "-o".into(),
            s(out).into(),
        ]
    };
    let mut child = Command::new(OPTIMOO)
        .args(args(&tree))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let first = dir.join("units");
    let start = std::time::Instant::now();
    let unit_files = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default()
    };
    while unit_files(&first).is_empty() && start.elapsed().as_secs() < 60 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let was_running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept: Vec<(PathBuf, Vec<u8>)> = unit_files(&first)
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    assert!(!tree.exists() || kept.len() == units(&dir));
    if was_running {
        // One unit at a time, largest first: killed part-way.
        assert!(kept.len() < units(&dir), "{} units done", kept.len());
    }
    let resumed = dir.with_extension("resumed.tree");
    let args2 = args(&resumed);
    let args2: Vec<&str> = args2.iter().map(String::as_str).collect();
    let r = ok(&args2);
    let solved = dir.with_extension("solved.tree");
    let sv = ok(&["solve", "--game", "mm:4x6", "-o", s(&solved)]);
    assert_eq!(total(&r), total(&sv));
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&solved).unwrap()
    );
    for (p, b) in kept {
        assert_eq!(std::fs::read(&p).unwrap(), b, "{} was redone", p.display());
    }
    // A second run finds everything done and gives the same tree again.
    ok(&args2);
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&solved).unwrap()
    );
    // Another game in the same folder is refused.
    let (code, _, err) = run(
        OPTIMOO,
        &["solve", "--game", "mm:4x5", "--checkpoint", s(&dir)],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("holds a plan of mm:4x6"), "{err}");
}

/// A planned folder of mm:3x4 with every unit done.
fn done_folder(name: &str, cap: &str) -> PathBuf {
    let dir = folder(name);
    ok(&["plan", "--game", "mm:3x4", "--cap", cap, "-o", s(&dir)]);
    ok(&["work", s(&dir), "--all"]);
    dir
}

/// Missing, corrupt and foreign unit files are named; merge refuses them.
#[test]
fn bad_unit_files_are_refused_by_name() {
    let dir = done_folder("dist-bad", "5");
    let other = done_folder("dist-bad-other", "4");
    let unit = |d: &Path, i: usize| d.join(format!("units/{i}.json"));
    let good = std::fs::read(unit(&dir, 1)).unwrap();
    // Missing.
    std::fs::remove_file(unit(&dir, 2)).unwrap();
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("1 of") && err.contains("missing") && err.contains(": 2 "),
        "{err}"
    );
    let st = ok(&["status", s(&dir)]);
    assert!(
        st.contains(&format!("{} / {} done", units(&dir) - 1, units(&dir))),
        "{st}"
    );
    ok(&["work", s(&dir), "--unit", "2"]);
    // Corrupt: not JSON, or a value changed (the sha256 fails).
    std::fs::write(unit(&dir, 1), b"{ \"format\": ").unwrap();
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2);
    assert!(err.contains("units/1.json is refused: corrupt"), "{err}");
    let (code, out, _) = run(OPTIMOO, &["status", s(&dir)], "");
    assert_eq!(code, 2);
    assert!(out.contains("units/1.json"), "{out}");
    let text = String::from_utf8(good.clone()).unwrap();
    let value = text.lines().find(|l| l.contains("\"value\"")).unwrap();
    std::fs::write(unit(&dir, 1), text.replace(value, "  \"value\": 1,")).unwrap();
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("units/1.json") && err.contains("sha256 does not match"),
        "{err}"
    );
    std::fs::write(unit(&dir, 1), &good).unwrap();
    // Foreign: a unit file of another plan (another cap).
    std::fs::copy(unit(&other, 0), unit(&dir, 0)).unwrap();
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("units/0.json") && err.contains("another plan"),
        "{err}"
    );
    // Work refuses to overwrite it too.
    let (code, _, err) = run(OPTIMOO, &["work", s(&dir), "--unit", "0"], "");
    assert_eq!(code, 2);
    assert!(err.contains("another plan"), "{err}");
    std::fs::remove_file(unit(&dir, 0)).unwrap();
    ok(&["work", s(&dir), "--unit", "0"]);
    ok(&["merge", s(&dir)]);
}

/// The same unit written twice: the same result is fine, a different one
/// is an error; two workers at once leave one valid file.
#[test]
fn a_unit_written_twice() {
    let dir = done_folder("dist-twice", "5");
    let folder = Folder::open(&dir).unwrap();
    let i = (0..folder.plan.units.len())
        .max_by_key(|&i| folder.plan.units[i].secrets)
        .unwrap();
    let (file, result) = folder.read_unit(i).unwrap().unwrap();
    // The same result again (another time, another machine): fine.
    let again = folder.unit_file(i, file.cutoff, &result, 9.0, 1);
    assert!(!folder.write_unit(&again, &result).unwrap());
    // A different exact cost: an error naming the file.
    let (Outcome::Exact(c), Some(node)) = (result.outcome(), result.subtree()) else {
        panic!("unit {i} is exact")
    };
    let wrong = UnitResult::exact(c + 1, node.clone());
    let f = folder.unit_file(i, file.cutoff, &wrong, 1.0, 1);
    let err = format!("{:#}", folder.write_unit(&f, &wrong).unwrap_err());
    assert!(
        err.contains(&format!("units/{i}.json already holds a different result")),
        "{err}"
    );
    // Two workers on the same unit at once.
    std::fs::remove_file(folder.unit_path(i)).unwrap();
    let spawn = || {
        Command::new(OPTIMOO)
            .args(["work", s(&dir), "--unit", &i.to_string()])
            .output()
            .unwrap()
    };
    let (a, b) = std::thread::scope(|sc| {
        let a = sc.spawn(spawn);
        let b = sc.spawn(spawn);
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(a.status.success() && b.status.success(), "{a:?} {b:?}");
    assert_eq!(folder.read_unit(i).unwrap().unwrap().1, result);
}

/// The unit index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; an
/// index out of range is an error.
#[test]
fn the_unit_index_comes_from_the_scheduler() {
    let dir = folder("dist-env");
    ok(&["plan", "--game", "moo:3x5", "-o", s(&dir)]);
    let n = units(&dir);
    let work = |var: Option<(&str, String)>, extra: &[&str]| {
        let mut c = Command::new(OPTIMOO);
        c.args(["work", s(&dir)]).args(extra);
        c.env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX");
        if let Some((k, v)) = var {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let o = work(Some(("SLURM_ARRAY_TASK_ID", "1".into())), &[]);
    assert!(o.status.success(), "{o:?}");
    assert!(dir.join("units/1.json").exists());
    let o = work(Some(("JOB_COMPLETION_INDEX", (n - 1).to_string())), &[]);
    assert!(o.status.success(), "{o:?}");
    assert!(dir.join(format!("units/{}.json", n - 1)).exists());
    for (var, extra) in [
        (Some(("SLURM_ARRAY_TASK_ID", n.to_string())), vec![]),
        (Some(("JOB_COMPLETION_INDEX", "x".into())), vec![]),
        (None, vec![]),
        (None, vec!["--unit".to_string(), (n + 5).to_string()]),
    ] {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let o = work(var.clone(), &extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{var:?} {extra:?}: {err}");
        assert!(
            err.contains("does not exist")
                || err.contains("not a unit index")
                || err.contains("which unit"),
            "{err}"
        );
    }
    let st = ok(&["status", s(&dir)]);
    assert!(st.contains(&format!("2 / {n} done")), "{st}");
}

/// A game of more than 5040 secrets gets the `--checkpoint` reminder once
/// on stderr (here the cap is refuted at once by counting); a smaller one
/// or a run with a checkpoint does not.
#[test]
fn long_solves_suggest_a_checkpoint() {
    let (code, _, err) = run(OPTIMOO, &["solve", "--game", "mm:4x9", "--cap", "1"], "");
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.matches("--checkpoint DIR").count(), 1, "{err}");
    let (code, _, err) = run(OPTIMOO, &["solve", "--game", "mm:4x8", "--cap", "1"], "");
    assert_eq!(code, 1);
    assert!(!err.contains("--checkpoint"), "{err}");
}

/// The committed run behind the new mm:5x6 optimum (docs/results.md, "New
/// results"): its 110 unit files are all there, belong to its plan, and
/// merge into data/mm-5x6.tree byte for byte, with lower bound = upper
/// bound in `status`.
#[test]
fn the_committed_mm_5x6_run_merges_into_its_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run_dir = root.join("data/runs/mm-5x6");
    let tree = root.join("data/mm-5x6.tree");
    // Merged from a copy: the committed folder is never written.
    let dir = folder("mm-5x6-run");
    std::fs::create_dir_all(dir.join("units")).unwrap();
    std::fs::copy(run_dir.join("plan.json"), dir.join("plan.json")).unwrap();
    for entry in std::fs::read_dir(run_dir.join("units")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join("units").join(entry.file_name())).unwrap();
    }
    let status = ok(&["status", s(&dir), "--json"]);
    assert!(status.contains("\"done\":110"), "{status}");
    assert!(
        status.contains("\"lower\":36721") && status.contains("\"upper\":36721"),
        "{status}"
    );
    let out = scratch("mm-5x6-merged.tree");
    let summary = ok(&["merge", s(&dir), "-o", s(&out)]);
    assert!(total(&summary).contains("36721"), "{summary}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&tree).unwrap());
}

/// `work` states its memory and refuses, before the feedback table is
/// built, a unit that would not fit `--max-memory`, as `solve` does.
#[test]
fn work_refuses_what_does_not_fit() {
    let dir = folder("work-max-memory");
    ok(&["plan", "--game", "moo:4x6", "-o", s(&dir)]);
    let (code, out, err) = run(
        OPTIMOO,
        &["work", s(&dir), "--unit", "0", "--max-memory", "1M"],
        "",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("max-memory"), "{err}");
    assert!(!dir.join("units/0.json").exists());
    let (code, out, err) = run(OPTIMOO, &["work", s(&dir), "--unit", "0"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("memory: about"), "{err}");
    assert!(dir.join("units/0.json").exists());
}

/// `status --upper-tree FILE`: a verified tree better than the plan's
/// heuristic lowers the upper bound (its replayed total); a tree of
/// another game is refused.
#[test]
fn status_takes_a_better_tree_as_the_upper_bound() {
    let dir = folder("status-upper-tree-moo-4x6");
    ok(&["plan", "--game", "moo:4x6", "-o", s(&dir)]);
    let before: serde_json::Value =
        serde_json::from_str(&ok(&["status", s(&dir), "--json"])).unwrap();
    let tree = scratch("status-upper-tree-moo-4x6.tree");
    ok(&["solve", "--game", "moo:4x6", "-o", s(&tree)]);
    let after: serde_json::Value = serde_json::from_str(&ok(&[
        "status",
        s(&dir),
        "--json",
        "--upper-tree",
        s(&tree),
    ]))
    .unwrap();
    let verified = ok(&["verify", s(&tree)]);
    let optimum: u64 = verified
        .split("total ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no total in {verified}"));
    assert!(optimum < before["upper"].as_u64().unwrap(), "{before}");
    assert_eq!(after["upper"].as_u64(), Some(optimum), "{after}");
    assert!(optimum >= after["lower"].as_u64().unwrap(), "{after}");
    let other = scratch("status-upper-tree-mm-3x4.tree");
    ok(&["solve", "--game", "mm:3x4", "-o", s(&other)]);
    let (code, _, err) = run(OPTIMOO, &["status", s(&dir), "--upper-tree", s(&other)], "");
    assert_eq!(code, 2, "{err}");
}

/// `status --units --upper-tree FILE`: one row per unit; an optimal
/// tree costs each exact unit its exact value, the rows of the tree's
/// first guess add up to its total, and the units of other first guesses
/// have no tree value.
#[test]
fn status_lists_the_units_against_the_tree() {
    for game in ["moo:4x6", "mm:3x4"] {
        let name = game.replace(':', "-");
        let dir = folder(&format!("status-units-{name}"));
        ok(&["plan", "--game", game, "-o", s(&dir)]);
        let n = units(&dir);
        ok(&["work", s(&dir), "--unit", "0", "--threads", "1"]);
        ok(&["work", s(&dir), "--unit", "1", "--threads", "1"]);
        let tree = scratch(&format!("status-units-{name}.tree"));
        ok(&["solve", "--game", game, "-o", s(&tree)]);
        let json: serde_json::Value = serde_json::from_str(&ok(&[
            "status",
            s(&dir),
            "--json",
            "--units",
            "--upper-tree",
            s(&tree),
        ]))
        .unwrap();
        let rows = json["units"].as_array().unwrap();
        assert_eq!(rows.len(), n, "{json}");
        let plan = Folder::open(&dir).unwrap();
        // The tree's first guess: the one of the rows with a tree value.
        let first = rows
            .iter()
            .find(|r| r["tree"].is_u64())
            .map(|r| r["guess"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("no unit on the tree's path: {json}"));
        let mut in_tree = 0;
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r["unit"].as_u64(), Some(i as u64), "{r}");
            let lower = r["lower"].as_u64().unwrap();
            let state = r["state"].as_str().unwrap();
            assert_eq!(state, if i < 2 { "exact" } else { "planned" }, "{r}");
            match r["tree"].as_u64() {
                Some(t) => {
                    assert_eq!(r["guess"].as_str(), Some(first.as_str()), "{r}");
                    assert!(t >= lower, "{r}");
                    if state == "exact" {
                        assert_eq!(t, lower, "an optimal tree's class: {r}");
                        assert_eq!(r["gap_percent"].as_f64(), Some(0.0), "{r}");
                    }
                    in_tree += t;
                }
                None => assert_ne!(r["guess"].as_str(), Some(first.as_str()), "{r}"),
            }
        }
        // The first guess once per secret, plus its classes.
        let secrets = plan.game.len() as u64;
        assert_eq!(in_tree + secrets, json["upper"].as_u64().unwrap(), "{json}");
        let text = ok(&["status", s(&dir), "--units", "--upper-tree", s(&tree)]);
        assert!(text.contains("unit  class"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.contains(" exact ")).count(),
            2,
            "{text}"
        );
        // Without a tree, no tree column.
        let text = ok(&["status", s(&dir), "--units"]);
        assert!(!text.contains("tree"), "{text}");
    }
}

/// `work --all --max-secrets N` solves exactly the units of at most N
/// secrets; the rest after it, and merge gives solve's total; an N below
/// every unit is refused with the smallest unit's size.
#[test]
fn work_max_secrets_solves_the_small_units_first() {
    let dir = folder("dist-max-secrets");
    ok(&["plan", "--game", "moo:4x6", "-o", s(&dir)]);
    let plan = Folder::open(&dir).unwrap().plan;
    let mut sizes: Vec<usize> = plan.units.iter().map(|u| u.secrets).collect();
    sizes.sort_unstable();
    let most = sizes[sizes.len() / 2];
    ok(&["work", s(&dir), "--all", "--max-secrets", &most.to_string()]);
    for (i, u) in plan.units.iter().enumerate() {
        let file = dir.join("units").join(format!("{i}.json"));
        assert_eq!(
            file.exists(),
            u.secrets <= most,
            "unit {i} of {} secrets",
            u.secrets
        );
    }
    let (code, _, err) = run(
        OPTIMOO,
        &["work", s(&dir), "--all", "--max-secrets", "0"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("the smallest has {}", sizes[0])),
        "{err}"
    );
    ok(&["work", s(&dir), "--all"]);
    let merged = ok(&["merge", s(&dir)]);
    let solved = ok(&["solve", "--game", "moo:4x6"]);
    assert_eq!(total(&merged), total(&solved));
}

/// `work --time-limit`: units stopped at once write bounds marked stopped,
/// at least the plan's own, which `status` adds up; a later `work`
/// finishes them, replacing the files, and merge gives solve's total.
#[test]
fn stopped_units_keep_their_bounds() {
    let dir = folder("dist-time-limit");
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    let lower = |text: &str| -> u64 {
        let line = text.lines().find(|l| l.starts_with("lower")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let before = lower(&ok(&["status", s(&dir)]));
    ok(&["work", s(&dir), "--all", "--time-limit", "0.000001"]);
    let plan = Folder::open(&dir).unwrap().plan;
    let stopped: Vec<(usize, u64)> = (0..plan.units.len())
        .filter_map(|i| {
            let text = std::fs::read_to_string(dir.join("units").join(format!("{i}.json"))).ok()?;
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            (v["stopped"] == true).then(|| (i, v["value"].as_u64().unwrap()))
        })
        .collect();
    assert!(!stopped.is_empty(), "no unit was stopped");
    for &(i, value) in &stopped {
        assert!(value >= plan.units[i].lower, "unit {i}");
    }
    let after = lower(&ok(&["status", s(&dir)]));
    assert!(after >= before, "{after} < {before}");
    let (code, _, err) = run(
        OPTIMOO,
        &["work", s(&dir), "--all", "--time-limit", "-1"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    ok(&["work", s(&dir), "--all"]);
    for &(i, value) in &stopped {
        let v = unit_json(&dir, i);
        assert!(v.get("stopped").is_none(), "unit {i} still stopped");
        assert!(v["value"].as_u64().unwrap() >= value, "unit {i}");
    }
    let merged = ok(&["merge", s(&dir)]);
    let solved = ok(&["solve", "--game", "mm:4x6"]);
    assert_eq!(total(&merged), total(&solved));
}

/// `work --bound-only`: every unit of a whole class is bounded three
/// guesses down (or solved, when too small to bound), at least the plan's
/// own bound and at most its exact cost; the same values on 1 and 2
/// threads; `status` adds them up; a later `work` finishes them and
/// merge gives solve's total. A plan of depth 2 and another objective
/// are refused by name.
#[test]
fn bound_only_units_are_three_level_bounds() {
    let exact_dir = folder("dist-bound-exact");
    ok(&["plan", "--game", "moo:4x6", "-o", s(&exact_dir)]);
    ok(&["work", s(&exact_dir), "--all"]);
    let lower = |text: &str| -> u64 {
        let line = text.lines().find(|l| l.starts_with("lower")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let dir = folder(&format!("dist-bound-only-{threads}"));
        ok(&["plan", "--game", "moo:4x6", "-o", s(&dir)]);
        let before = lower(&ok(&["status", s(&dir)]));
        let out = ok(&[
            "work",
            s(&dir),
            "--all",
            "--bound-only",
            "--threads",
            threads,
        ]);
        let plan = Folder::open(&dir).unwrap().plan;
        let mut values = Vec::new();
        for i in 0..plan.units.len() {
            let (ours, exact) = (unit_json(&dir, i), unit_json(&exact_dir, i));
            let (v, e) = (
                ours["value"].as_u64().unwrap(),
                exact["value"].as_u64().unwrap(),
            );
            assert!(
                v >= plan.units[i].lower && v <= e,
                "unit {i}: {v}, exact {e}"
            );
            if ours["stopped"] == true {
                assert!(out.contains("bounded three guesses down"), "{out}");
            } else {
                assert_eq!(v, e, "unit {i}");
            }
            values.push(v);
        }
        assert!(
            (0..plan.units.len()).any(|i| values[i] > plan.units[i].lower),
            "no unit raised: {values:?}"
        );
        let after = lower(&ok(&["status", s(&dir)]));
        assert!(after > before, "{after} <= {before}");
        ok(&["work", s(&dir), "--all"]);
        let merged = ok(&["merge", s(&dir)]);
        assert_eq!(total(&merged), total(&ok(&["solve", "--game", "moo:4x6"])));
        runs.push(values);
    }
    assert_eq!(runs[0], runs[1]);
    let deep = folder("dist-bound-depth2");
    ok(&["plan", "--game", "moo:4x6", "--depth", "2", "-o", s(&deep)]);
    let (code, _, err) = run(OPTIMOO, &["work", s(&deep), "--all", "--bound-only"], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--bound-only bounds units of a whole class"),
        "{err}"
    );
    let crush = folder("dist-bound-crush");
    ok(&[
        "plan",
        "--game",
        "moo:4x6",
        "--objective",
        "crush",
        "-o",
        s(&crush),
    ]);
    let (code, _, err) = run(
        OPTIMOO,
        &["work", s(&crush), "--unit", "0", "--bound-only"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("average objective"), "{err}");
}

/// A best-first unit stopped by its time limit keeps where it stands in
/// `progress/I.json` and the next run goes on from there: runs cut short
/// again and again end at the bounds of one whole run, then finish exact
/// (the progress removed) and merge into solve's tree. A corrupt progress
/// file is refused by name, before any work.
#[test]
fn stopped_units_resume_from_their_progress() {
    let game = "moo:5x7";
    let whole = folder("dist-progress-whole");
    ok(&["plan", "--game", game, "-o", s(&whole)]);
    ok(&["work", s(&whole), "--all", "--bound-only", "--threads", "1"]);
    let dir = folder("dist-progress-cut");
    ok(&["plan", "--game", game, "-o", s(&dir)]);
    let n = units(&dir);
    // Ever longer limits, so that the runs end however slow the machine.
    let (mut limit, mut runs, mut kept) = (0.01, 0, 0);
    loop {
        let out = ok(&[
            "work",
            s(&dir),
            "--all",
            "--bound-only",
            "--threads",
            "1",
            "--time-limit",
            &format!("{limit}"),
        ]);
        runs += 1;
        kept += (0..n)
            .filter(|&i| dir.join("progress").join(format!("{i}.json")).exists())
            .count();
        // A stopped unit's file counts every run that went into it, its
        // progress's seconds at least, whether or not its bound rose.
        for i in 0..n {
            let Ok(text) = std::fs::read_to_string(dir.join(format!("progress/{i}.json"))) else {
                continue;
            };
            let progress: serde_json::Value = serde_json::from_str(&text).unwrap();
            let unit = unit_json(&dir, i);
            assert!(
                unit["seconds"].as_f64().unwrap() >= progress["seconds"].as_f64().unwrap(),
                "unit {i} after run {runs}: {unit} {progress}"
            );
        }
        if !out.contains("stopped at the time limit") {
            break;
        }
        limit *= 1.5;
    }
    assert!(runs >= 3, "the units ran to their end in {runs} runs");
    assert!(kept > 0, "no progress was kept");
    for i in 0..n {
        assert_eq!(
            unit_json(&dir, i)["value"],
            unit_json(&whole, i)["value"],
            "unit {i} after {runs} runs"
        );
    }
    // A corrupt progress file: refused by name, nothing else touched.
    let some = (0..n)
        .find(|&i| dir.join("progress").join(format!("{i}.json")).exists())
        .expect("a unit bounded three levels down keeps its progress");
    let path = dir.join("progress").join(format!("{some}.json"));
    let good = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, good.replacen("\"lower\":[", "\"lower\":[1", 1)).unwrap();
    let unit = format!("{some}");
    let (code, _, err) = run(
        OPTIMOO,
        &["work", s(&dir), "--unit", &unit, "--bound-only"],
        "",
    );
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{some}.json is refused")) && err.contains("delete it"),
        "{err}"
    );
    std::fs::write(&path, good).unwrap();
    // `status` counts the seconds the stopped units have had: the sum of
    // their progress files' own.
    let had: f64 = (0..n)
        .filter_map(|i| std::fs::read_to_string(dir.join(format!("progress/{i}.json"))).ok())
        .map(|text| {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            v["seconds"].as_f64().unwrap()
        })
        .sum();
    let st: serde_json::Value = serde_json::from_str(&ok(&["status", s(&dir), "--json"])).unwrap();
    let counted = st["progress_seconds"].as_f64().unwrap();
    assert!((counted - had).abs() < 1e-6 && had > 0.0, "{st}");
    let text = ok(&["status", s(&dir)]);
    assert!(text.contains("s of unit time in"), "{text}");
    // Finished exact from where the bounds stand: no progress left, and
    // the tree of solve. Each unit's file counts the wall time of every
    // run that went into it, as its progress did.
    let saved: Vec<Option<f64>> = (0..n)
        .map(|i| {
            let path = dir.join("progress").join(format!("{i}.json"));
            let text = std::fs::read_to_string(path).ok()?;
            let progress: serde_json::Value = serde_json::from_str(&text).unwrap();
            progress["seconds"].as_f64()
        })
        .collect();
    assert!(
        saved.iter().any(Option::is_some),
        "no progress to finish from"
    );
    ok(&["work", s(&dir), "--all", "--time-limit", "3600"]);
    for (i, saved) in saved.iter().enumerate() {
        if let Some(before) = saved {
            let unit = unit_json(&dir, i);
            assert!(
                unit["seconds"].as_f64().unwrap() >= *before,
                "unit {i}: {unit} {before}"
            );
        }
    }
    let left = (0..n)
        .filter(|&i| dir.join("progress").join(format!("{i}.json")).exists())
        .count();
    assert_eq!(left, 0, "progress left behind");
    assert_eq!(
        total(&ok(&["merge", s(&dir)])),
        total(&ok(&["solve", "--game", game]))
    );
}

/// `work --bound-only --levels 4` bounds units four guesses down, from
/// where three levels left them: at least the three-level bounds, at most
/// the exact values, above them on some units; `--levels` needs
/// `--bound-only` and is 3 to 9. On moo:5x6 (a tenth of a second; the
/// first unit rises from 1060 to 1061): moo:5x7's four-level bounds took 9
/// of the test suite's seconds.
#[test]
fn bounds_four_guesses_down() {
    let game = "moo:5x6";
    let exact = folder("dist-levels-exact");
    ok(&["plan", "--game", game, "-o", s(&exact)]);
    ok(&["work", s(&exact), "--all"]);
    let dir = folder("dist-levels");
    ok(&["plan", "--game", game, "-o", s(&dir)]);
    ok(&["work", s(&dir), "--all", "--bound-only"]);
    let n = units(&dir);
    let value = |d: &Path, i: usize| unit_json(d, i)["value"].as_u64().unwrap();
    let three: Vec<u64> = (0..n).map(|i| value(&dir, i)).collect();
    let out = ok(&["work", s(&dir), "--all", "--bound-only", "--levels", "4"]);
    assert!(out.contains("bounded four guesses down"), "{out}");
    let mut above = 0;
    for (i, &t) in three.iter().enumerate() {
        let (four, e) = (value(&dir, i), value(&exact, i));
        assert!(t <= four && four <= e, "unit {i}: {t}, {four}, exact {e}");
        above += usize::from(four > t);
    }
    assert!(above > 0, "no unit rose from three levels to four");
    for bad in [&["--levels", "4"][..], &["--bound-only", "--levels", "2"]] {
        let mut args = vec!["work", s(&dir), "--all"];
        args.extend_from_slice(bad);
        let (code, _, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// `work --upper-tree FILE`: each unit on the tree's path is solved under
/// the tree's cost on it plus one, far below the plan's cut-off; the
/// units come out exact with the values and subtrees of a plain run,
/// whether the tree is a heuristic's or optimal (its cost on each unit is
/// then the exact value: the tightest cut-off that still finds it), and
/// by the best-first path (`--time-limit`) too. Each unit file records
/// the cut-off it ran under. A tree of another game is refused.
#[test]
fn work_under_a_trees_cut_off_finds_the_same_units() {
    let game = "moo:5x7";
    let plain = folder("dist-upper-plain");
    ok(&["plan", "--game", game, "-o", s(&plain)]);
    ok(&["work", s(&plain), "--all", "--threads", "1"]);
    let n = units(&plain);
    let optimal = scratch("dist-upper-optimal.tree");
    ok(&["merge", s(&plain), "-o", s(&optimal)]);
    let heuristic = scratch("dist-upper-entropy.tree");
    ok(&[
        "export",
        "--game",
        game,
        "--strategy",
        "entropy",
        "--format",
        "tree",
        "-o",
        s(&heuristic),
    ]);
    for (name, tree, limit) in [
        ("entropy", &heuristic, None),
        ("optimal", &optimal, None),
        ("optimal-best-first", &optimal, Some("3600")),
    ] {
        let dir = folder(&format!("dist-upper-{name}"));
        ok(&["plan", "--game", game, "-o", s(&dir)]);
        let mut args = vec!["work", s(&dir), "--all", "--threads", "2"];
        args.extend(["--upper-tree", s(tree)]);
        if let Some(t) = limit {
            args.extend(["--time-limit", t]);
        }
        ok(&args);
        let rows: serde_json::Value = serde_json::from_str(&ok(&[
            "status",
            s(&dir),
            "--json",
            "--units",
            "--upper-tree",
            s(tree),
        ]))
        .unwrap();
        let mut tighter = 0;
        for i in 0..n {
            let (a, b) = (unit_json(&plain, i), unit_json(&dir, i));
            assert_eq!(b["exact"], true, "{name}: unit {i}: {b}");
            assert_eq!(a["value"], b["value"], "{name}: unit {i}");
            assert_eq!(a["subtree"], b["subtree"], "{name}: unit {i}");
            if let Some(t) = rows["units"][i]["tree"].as_u64() {
                assert!(
                    b["cutoff"].as_u64().unwrap() <= t + 1,
                    "{name}: unit {i}: {b}"
                );
                if b["cutoff"].as_u64() < a["cutoff"].as_u64() {
                    tighter += 1;
                }
            }
        }
        assert!(tighter > 0, "{name}: no unit ran under a tighter cut-off");
        assert_eq!(
            total(&ok(&["merge", s(&dir)])),
            total(&ok(&["merge", s(&plain)]))
        );
    }
    let other = scratch("dist-upper-mm-3x4.tree");
    ok(&["solve", "--game", "mm:3x4", "-o", s(&other)]);
    let dir = folder("dist-upper-other");
    ok(&["plan", "--game", game, "-o", s(&dir)]);
    let (code, _, err) = run(
        OPTIMOO,
        &["work", s(&dir), "--unit", "0", "--upper-tree", s(&other)],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(!dir.join("units/0.json").exists());
}

/// `merge --fill-from`: a heuristic tree takes the exact units' subtrees
/// where they are cheaper; its total falls by the savings counted class by
/// class, it replays, and with every unit exact it costs the optimum.
#[test]
fn a_tree_filled_from_exact_units_costs_what_they_save() {
    let game = "moo:4x8";
    let heuristic = scratch("dist-fill-entropy.tree");
    ok(&[
        "export",
        "--game",
        game,
        "--strategy",
        "entropy",
        "--format",
        "tree",
        "-o",
        s(&heuristic),
    ]);
    let dir = folder("dist-fill");
    ok(&["plan", "--game", game, "-o", s(&dir)]);
    let n = units(&dir);
    assert!(n > 4, "{n} units");
    let fill = |out: &Path| -> serde_json::Value {
        let line = ok(&[
            "merge",
            s(&dir),
            "--fill-from",
            s(&heuristic),
            "--json",
            "-o",
            s(out),
        ]);
        serde_json::from_str(&line).unwrap()
    };
    let replayed = |tree: &Path| -> u64 {
        let out = ok(&["verify", s(tree)]);
        let (_, after) = out.split_once(" total ").unwrap_or_else(|| panic!("{out}"));
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    // No unit solved yet: the tree as it is.
    let none = scratch("dist-fill-none.tree");
    let r = fill(&none);
    assert_eq!(r["grafts"].as_array().unwrap().len(), 0, "{r}");
    assert_eq!(r["total"], r["from"]);
    assert_eq!(replayed(&none), replayed(&heuristic));
    // Half of the units: each graft strictly cheaper, the total down by
    // their savings, the tree replays to that total.
    for i in (0..n).step_by(2) {
        ok(&["work", s(&dir), "--unit", &i.to_string(), "--threads", "1"]);
    }
    let half = scratch("dist-fill-half.tree");
    let r = fill(&half);
    let mut saved = 0;
    for g in r["grafts"].as_array().unwrap() {
        let unit = g["unit"].as_u64().unwrap() as usize;
        assert_eq!(unit % 2, 0, "unit {unit} was not solved: {r}");
        let (before, after) = (g["before"].as_u64().unwrap(), g["after"].as_u64().unwrap());
        assert!(after < before, "{g}");
        assert_eq!(unit_json(&dir, unit)["value"].as_u64(), Some(after));
        saved += before - after;
    }
    assert!(
        saved > 0,
        "the entropy tree is optimal on every class solved: {r}"
    );
    let from = r["from"].as_u64().unwrap();
    assert_eq!(from, replayed(&heuristic));
    assert_eq!(r["total"].as_u64(), Some(from - saved));
    assert_eq!(replayed(&half), from - saved);
    // Every unit: the optimum (the entropy tree's first guess is the
    // plan's, every class optimal).
    ok(&["work", s(&dir), "--all", "--threads", "2"]);
    let optimal = scratch("dist-fill-optimal.tree");
    ok(&["merge", s(&dir), "-o", s(&optimal)]);
    let all = scratch("dist-fill-all.tree");
    let r = fill(&all);
    assert_eq!(r["total"].as_u64(), Some(replayed(&optimal)), "{r}");
    assert_eq!(replayed(&all), replayed(&optimal));
    // A tree of another game is refused, nothing written.
    let other = scratch("dist-fill-mm-3x4.tree");
    ok(&["solve", "--game", "mm:3x4", "-o", s(&other)]);
    let out = scratch("dist-fill-refused.tree");
    let _ = std::fs::remove_file(&out);
    let (code, _, err) = run(
        OPTIMOO,
        &["merge", s(&dir), "--fill-from", s(&other), "-o", s(&out)],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(!out.exists());
}

/// A phased plan and an exact plan never share a folder: the second plan
/// would hide the first (`work` said "done already" over it).
#[test]
fn a_plan_into_a_folder_of_the_other_kind_is_refused() {
    let phased = folder("mixed-phased-first");
    let exact = folder("mixed-exact-first");
    let (p, e) = (s(&phased), s(&exact));
    ok(&["plan", "--game", "mm:3x3", "--strategy", "phased", "-o", p]);
    let (code, out, err) = run(OPTIMOO, &["plan", "--game", "mm:3x3", "-o", p], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("holds a plan of the phased strategy"), "{err}");
    assert!(!phased.join("plan.json").exists());
    ok(&["plan", "--game", "mm:3x3", "-o", e]);
    let args = ["plan", "--game", "mm:3x3", "--strategy", "phased", "-o", e];
    let (code, out, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("holds a plan of the exact search"), "{err}");
    assert!(!exact.join("phased.json").exists());
}

/// Phased unit files carry the exact units' hash: a total edited by hand
/// (the histogram with it) is refused by `merge`; a forger who recomputes
/// the hash is caught by `merge --audit 1`, which walks the unit again.
#[test]
fn phased_units_are_hashed_and_audited() {
    use optimoo_cli::cli::checkpoint::Canon;
    let dir = folder("phased-hashed");
    let d = s(&dir);
    ok(&["plan", "--game", "mm:4x4", "--strategy", "phased", "-o", d]);
    ok(&["work", d, "--all"]);
    let merged = ok(&["merge", d, "--json"]);
    let audited = ok(&["merge", d, "--audit", "1", "--json"]);
    assert_eq!(merged, audited);
    let path = dir.join("phased").join("0.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let mut unit: serde_json::Value = serde_json::from_str(&good).unwrap();
    assert_eq!(unit["sha256"].as_str().map(str::len), Some(64), "{good}");
    // One secret moved a guess deeper: total and histogram agree.
    let h = unit["histogram"].as_array_mut().unwrap();
    let d0 = h.iter().position(|x| x.as_u64() > Some(0)).unwrap();
    h[d0] = (h[d0].as_u64().unwrap() - 1).into();
    if d0 + 1 == h.len() {
        h.push(0.into());
    }
    h[d0 + 1] = (h[d0 + 1].as_u64().unwrap() + 1).into();
    unit["total"] = (unit["total"].as_u64().unwrap() + 1).into();
    std::fs::write(&path, unit.to_string()).unwrap();
    let (code, out, err) = run(OPTIMOO, &["merge", d], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("0.json: its sha256 does not match"), "{err}");
    // The forger recomputes the hash (anyone can): the audit walks the
    // unit again and names it.
    let mut c = Canon::new("optimoo-phased-unit/1");
    c.field("plan_id").str(unit["plan_id"].as_str().unwrap());
    c.field("unit").int(0);
    c.field("secrets").int(unit["secrets"].as_u64().unwrap());
    c.field("total").int(unit["total"].as_u64().unwrap());
    let h = unit["histogram"].as_array().unwrap();
    c.field("histogram").len(h.len());
    for x in h {
        c.int(x.as_u64().unwrap());
    }
    c.field("seconds").real(unit["seconds"].as_f64().unwrap());
    unit["sha256"] = c.finish().into();
    std::fs::write(&path, unit.to_string()).unwrap();
    let forged = ok(&["merge", d, "--json"]);
    assert_ne!(forged, merged);
    let (code, out, err) = run(OPTIMOO, &["merge", d, "--audit", "1"], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("unit 0: the file says"), "{err}");
    std::fs::write(&path, good).unwrap();
    assert_eq!(ok(&["merge", d, "--json"]), merged);
}

/// `work --trace` prints each step of a best-first run on stderr, one
/// line of `key=value` fields (what scripts/bench-anytime.sh and the
/// measurements of docs/benchmarks.md read): every field present, the
/// proven bound never falling, and the unit's result the same as a run
/// without the flag.
#[test]
fn work_traces_its_steps() {
    let (dir, i) = largest_moo_5x5_unit("dist-trace");
    let unit = i.to_string();
    let args = [
        "work",
        s(&dir),
        "--unit",
        &unit,
        "--threads",
        "1",
        "--time-limit",
        "600",
    ];
    let (code, out, err) = run(OPTIMOO, &[&args[..], &["--trace"]].concat(), "");
    assert_eq!(code, 0, "{err}");
    let steps: Vec<&str> = err.lines().filter(|l| l.starts_with("step ")).collect();
    assert!(!steps.is_empty(), "{err}");
    // Each class search is told as it begins, with its guess, class size
    // and cut-off, the same fields its `step` line ends with.
    let lines: Vec<&str> = err.lines().collect();
    let field = |line: &str, key: &str| {
        line.split_whitespace()
            .find(|f| f.starts_with(key))
            .map(str::to_string)
    };
    let what = |line: &str| ["guess=", "secrets=", "before=", "cutoff="].map(|k| field(line, k));
    let mut searches = 0;
    for (j, line) in lines.iter().enumerate() {
        if line.starts_with("step ") && line.contains(" kind=search ") {
            searches += 1;
            let begun = lines[..j].iter().rev().find(|l| l.starts_with("begin "));
            assert_eq!(begun.map(|l| what(l)), Some(what(line)), "{line}");
        }
    }
    assert!(searches > 0, "{err}");
    let mut last = 0;
    for line in &steps {
        for key in [
            "unit=", "t=", "guess=", "kind=", "secrets=", "before=", "after=", "cutoff=", "exact=",
            "proven=", "nodes=", "lookups=", "hits=", "kept=", "seconds=", "cpu=",
        ] {
            assert!(line.contains(&format!(" {key}")), "{key} missing: {line}");
        }
        let proven: u64 = line
            .split_whitespace()
            .find_map(|f| f.strip_prefix("proven="))
            .unwrap()
            .parse()
            .unwrap();
        assert!(proven >= last, "{line}");
        last = proven;
    }
    let again = folder("dist-trace-plain");
    ok(&["plan", "--game", "moo:5x5", "-o", s(&again)]);
    let mut plain_args = args;
    plain_args[1] = s(&again);
    let plain = ok(&plain_args);
    let value = |dir: &Path| std::fs::read_to_string(dir.join("units").join(format!("{i}.json")));
    let (traced, untraced) = (value(&dir).unwrap(), value(&again).unwrap());
    let field =
        |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["value"].clone();
    assert_eq!(field(&traced), field(&untraced), "{out}\n{plain}");
}

/// A fresh plan of moo:5x5 in folder `name`, and its largest unit (a whole
/// class, which `work --time-limit` runs best-first).
fn largest_moo_5x5_unit(name: &str) -> (PathBuf, usize) {
    let dir = folder(name);
    ok(&["plan", "--game", "moo:5x5", "-o", s(&dir)]);
    let plan = Folder::open(&dir).unwrap().plan;
    let i = (0..plan.units.len())
        .max_by_key(|&i| plan.units[i].secrets)
        .unwrap();
    (dir, i)
}

/// `work --chase-step N` changes how much each search of a best-first run
/// asks for, never the value: the whole class at once (1) and no step
/// beyond the next least guess (a million) give the default's exact
/// value; 0 is refused with the range.
#[test]
fn work_chase_step_changes_no_value() {
    let value = |step: &str| {
        let (dir, i) = largest_moo_5x5_unit(&format!("dist-chase-{step}"));
        let unit = i.to_string();
        ok(&[
            "work",
            s(&dir),
            "--unit",
            &unit,
            "--threads",
            "1",
            "--time-limit",
            "600",
            "--chase-step",
            step,
        ]);
        let text = std::fs::read_to_string(dir.join("units").join(format!("{i}.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["exact"], serde_json::Value::Bool(true), "{text}");
        v["value"].clone()
    };
    let default = value("128");
    assert_eq!(value("1"), default);
    assert_eq!(value("1000000"), default);
    let dir = folder("dist-chase-zero");
    ok(&["plan", "--game", "moo:5x5", "-o", s(&dir)]);
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "work",
            s(&dir),
            "--unit",
            "0",
            "--time-limit",
            "5",
            "--chase-step",
            "0",
        ],
        "",
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("--chase-step") && err.contains("1..=1000000"),
        "{err}"
    );
}
