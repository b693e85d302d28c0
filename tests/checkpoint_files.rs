//! The files of a checkpoint folder tried as an attacker or a broken disk
//! would: files without end, oversized files, forged unit files, an
//! unwritable `units/`, subtrees too deep for the stack, absurd times and
//! node counts, and two workers on one folder. Each is refused by name
//! (exit code 2), never a crash or a wrong answer.

use std::path::{Path, PathBuf};
use std::process::Command;

use optimoo_cli::cli::checkpoint::{Folder, PlanFile, UnitFile};

use crate::trees::{run, scratch};
use crate::OPTIMOO;

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

/// Runs `optimoo` with its address space limited to 2 GiB (`ulimit -v`),
/// so that a reader without a bound fails fast instead of taking the
/// machine's memory; returns the exit code (-1: killed by a signal),
/// stdout and stderr.
fn run_limited(args: &[&str]) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(OPTIMOO)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A planned folder of mm:3x4 cap 5 with every unit done.
fn done_folder(name: &str) -> PathBuf {
    let dir = folder(name);
    ok(&["plan", "--game", "mm:3x4", "--cap", "5", "-o", s(&dir)]);
    ok(&["work", s(&dir), "--all"]);
    dir
}

fn unit(dir: &Path, i: usize) -> PathBuf {
    dir.join(format!("units/{i}.json"))
}

/// plan.json or a unit file that never ends (a link to /dev/zero) or is
/// far larger than any real one: refused by name, fast, within 2 GiB.
#[cfg(unix)]
#[test]
fn endless_and_oversized_files_are_refused_by_name() {
    let dir = done_folder("files-size");
    let plan = dir.join("plan.json");
    let saved = std::fs::read(&plan).unwrap();
    // plan.json: endless, then a sparse file of 1 GiB.
    std::fs::remove_file(&plan).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &plan).unwrap();
    for cmd in ["status", "merge", "work"] {
        let mut args = vec![cmd, s(&dir)];
        if cmd == "work" {
            args.push("--all");
        }
        let (code, out, err) = run_limited(&args);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(
            err.contains("plan.json") && err.contains("larger than"),
            "{cmd}: {err}"
        );
    }
    std::fs::remove_file(&plan).unwrap();
    let f = std::fs::File::create(&plan).unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    let start = std::time::Instant::now();
    let (code, out, err) = run_limited(&["status", s(&dir)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("plan.json") && err.contains("larger than"),
        "{err}"
    );
    assert!(start.elapsed().as_secs() < 10);
    std::fs::write(&plan, &saved).unwrap();
    ok(&["status", s(&dir)]);
    // A unit file: endless, then sparse.
    let u = unit(&dir, 1);
    std::fs::remove_file(&u).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &u).unwrap();
    for cmd in ["status", "merge"] {
        let (code, out, err) = run_limited(&[cmd, s(&dir)]);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        let said = format!("{out}{err}");
        assert!(
            said.contains("units/1.json") && said.contains("larger than"),
            "{cmd}: {said}"
        );
    }
    std::fs::remove_file(&u).unwrap();
    let f = std::fs::File::create(&u).unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    let (code, out, err) = run_limited(&["merge", s(&dir)]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("units/1.json") && err.contains("larger than"),
        "{err}"
    );
    std::fs::remove_file(&u).unwrap();
    ok(&["work", s(&dir), "--unit", "1"]);
    ok(&["merge", s(&dir)]);
}

/// A plan of moo:5x10 without a cap (its depth: 30,241 levels) written
/// by hand, with one unit (the 120 secrets that answer 0A0B to 01234).
fn moo_5x10_plan(dir: &Path) -> Folder {
    std::fs::create_dir_all(dir.join("units")).unwrap();
    let text = r#"{
      "format": "", "plan_id": "", "generation": 1, "game": "moo:5x10",
      "cap": null, "objective": "average", "version": "", "depth": 30241,
      "upper": null, "proven_upper": null, "proven_by": null, "min_cap": null,
      "guesses": [ { "guess": "01234", "bound": 100000 } ],
      "units": [ { "guess": "01234", "answer": "0A0B", "secrets": 120,
                   "lower": 403, "second": null, "second_bound": null,
                   "cutoff": 1000000000 } ]
    }"#;
    let mut file: PlanFile = serde_json::from_str(text).unwrap();
    file.format = optimoo_cli::cli::checkpoint::PLAN_FORMAT.into();
    file.version = env!("CARGO_PKG_VERSION").into();
    file.plan_id = optimoo_cli::cli::checkpoint::plan_id(&file);
    Folder::write_plan(dir, &file).unwrap();
    Folder::open(dir).unwrap()
}

/// The encoded subtree (as in unit files) that guesses the first secret
/// of each set.
fn first_secret_subtree(
    game: &optimoo::model::Game,
    set: &[optimoo::model::Code],
    out: &mut Vec<u16>,
) {
    if set.len() == 1 {
        return;
    }
    out.push(set[0].0);
    for (f, c) in optimoo::model::partition::split(game, set[0], set) {
        if f != game.win() {
            first_secret_subtree(game, &c, out);
        }
    }
}

/// A unit file whose subtree repeats a guess that splits nothing 16,800
/// times (each level the same 120 secrets), then solves them: its cost
/// is right, and the depth is within the plan's (moo:5x10 without a cap:
/// 30,241), but no tree needs it: refused by name, no stack overflow
/// (`work` overflowed a worker thread's stack, exit code 134).
#[test]
fn a_subtree_deeper_than_any_tree_is_refused() {
    let dir = folder("files-deep");
    let folder = moo_5x10_plan(&dir);
    let guess = folder.game.parse_code("01234").unwrap();
    // 16,800 guesses of 01234, then a real subtree: each set guesses its
    // first secret.
    let mut deep = vec![guess.0; 16_800];
    let set = optimoo::search::plan::unit_set(&folder.game, &folder.plan, 0);
    first_secret_subtree(&folder.game, &set, &mut deep);
    let mut f = UnitFile {
        format: optimoo_cli::cli::checkpoint::UNIT_FORMAT.into(),
        plan_id: folder.file.plan_id.clone(),
        unit: 0,
        guess: "01234".into(),
        answer: "0A0B".into(),
        second: None,
        cutoff: 1_000_000_000,
        exact: true,
        value: 2_016_563,
        stopped: false,
        subtree: Some(deep),
        seconds: 1.0,
        nodes: 1,
        peak_kib: None,
        sha256: String::new(),
    };
    f.sha256 = f.compute_sha256();
    std::fs::write(unit(&dir, 0), serde_json::to_string(&f).unwrap()).unwrap();
    // `work` reads it on a worker thread (a small stack).
    for args in [
        vec!["status", s(&dir)],
        vec!["merge", s(&dir)],
        vec!["work", s(&dir), "--unit", "0", "--memo-mib", "1"],
    ] {
        let (code, out, err) = run(OPTIMOO, &args, "");
        let cmd = args[0];
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        let said = format!("{out}{err}");
        assert!(
            said.contains("units/0.json is refused: its subtree does not decode")
                && said.contains("16867 guesses for 120 secrets"),
            "{cmd}: {said}"
        );
    }
}

/// A planned folder of mm:4x6 with every unit done, and the merged total.
fn mm_4x6(name: &str) -> PathBuf {
    let dir = folder(name);
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    ok(&["work", s(&dir), "--all"]);
    assert!(ok(&["merge", s(&dir)]).contains("total      5625"));
    dir
}

/// Makes `node` (over `set`, within `d` guesses) one guess worse: the
/// first set of two secrets whose node guesses one of them guesses a code
/// that tells them apart instead (each then takes a guess more, the one
/// guessed first one more in all). Returns whether one was found.
fn one_worse(
    game: &optimoo::model::Game,
    set: &[optimoo::model::Code],
    node: &mut optimoo::tree::Node,
) -> bool {
    use optimoo::model::partition::split;
    if set.len() == 2 && set.contains(&node.guess) {
        let Some(c) = game
            .all_codes()
            .into_iter()
            .find(|&c| !set.contains(&c) && game.feedback(set[0], c) != game.feedback(set[1], c))
        else {
            return false;
        };
        node.guess = c;
        node.children = split(game, c, set)
            .into_iter()
            .map(|(f, s)| (f, optimoo::tree::Node::leaf(s[0])))
            .collect();
        return true;
    }
    let classes: Vec<_> = split(game, node.guess, set)
        .into_iter()
        .filter(|(f, _)| *f != game.win())
        .collect();
    for ((_, c), (_, child)) in classes.iter().zip(node.children.iter_mut()) {
        if one_worse(game, c, child) {
            return true;
        }
    }
    false
}

/// Two forgeries of a unit file with its sha256 recomputed, as anyone
/// can: a worse subtree with its cost (merge reports 5626 for mm:4x6,
/// whose optimum is 5625), and a unit claimed to cost at least 1,000,000
/// (merge picks another first guess: 5673). The hash cannot tell;
/// `merge --audit 1` re-solves every unit and names the forged one with
/// both values.
#[test]
fn forged_unit_files_are_caught_by_an_audit() {
    use optimoo::search::plan::{self, UnitResult};
    use optimoo::search::Outcome;
    let dir = mm_4x6("files-forged");
    let folder = Folder::open(&dir).unwrap();
    let game = &folder.game;
    let first: serde_json::Value =
        serde_json::from_str(&ok(&["merge", s(&dir), "--json"])).unwrap();
    let first = game
        .parse_code(first["first_guess"].as_str().unwrap())
        .unwrap();
    let d = folder.plan.depth - 1;
    let bounds = plan::bounds(game, optimoo::search::Cost::Total);
    // Forgery 1: a unit of the optimal first guess, one guess worse.
    let mut forged = None;
    for i in 0..folder.plan.units.len() {
        if folder.plan.guesses[folder.plan.units[i].guess].guess != first {
            continue;
        }
        let (f, r) = folder.read_unit(i).unwrap().unwrap();
        let (Outcome::Exact(c), Some(mut node)) = (r.outcome(), r.into_subtree()) else {
            continue;
        };
        let set = plan::unit_set(game, &folder.plan, i);
        if one_worse(game, &set, &mut node) {
            let cost = plan::subtree_cost(game, &bounds, &set, d, &node).unwrap();
            assert_eq!(cost, c + 1);
            let bad = UnitResult::exact(cost, node);
            let file = folder.unit_file(i, f.cutoff, &bad, f.seconds, f.nodes);
            let good = std::fs::read(unit(&dir, i)).unwrap();
            std::fs::write(unit(&dir, i), serde_json::to_string(&file).unwrap()).unwrap();
            forged = Some((i, c, good));
            break;
        }
    }
    let (i, c, good) = forged.expect("a unit to forge");
    // The hash matches: merge believes it.
    assert!(ok(&["merge", s(&dir)]).contains("total      5626"));
    let (code, out, err) = run(OPTIMOO, &["merge", s(&dir), "--audit", "1"], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("total"), "{out}");
    assert!(
        err.contains("audit: re-solving 52 of 52 units")
            && err.contains(&format!("unit {i} "))
            && err.contains(&format!("units/{i}.json says exact {}", c + 1))
            && err.contains(&format!("re-solving it gives exact {c}")),
        "{err}"
    );
    std::fs::write(unit(&dir, i), &good).unwrap();
    // Forgery 2: the same unit proven to cost at least 1,000,000.
    let (f, _) = folder.read_unit(i).unwrap().unwrap();
    let bad = UnitResult::at_least(1_000_000);
    let file = folder.unit_file(i, f.cutoff, &bad, f.seconds, f.nodes);
    std::fs::write(unit(&dir, i), serde_json::to_string(&file).unwrap()).unwrap();
    assert!(ok(&["merge", s(&dir)]).contains("total      5673"));
    let (code, out, err) = run(OPTIMOO, &["merge", s(&dir), "--audit", "1"], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(&format!("units/{i}.json says at least 1000000"))
            && err.contains(&format!("re-solving it gives exact {c}")),
        "{err}"
    );
    // Put back: the audit passes and merge reports the optimum.
    std::fs::write(unit(&dir, i), &good).unwrap();
    let (code, out, err) = run(OPTIMOO, &["merge", s(&dir), "--audit", "1"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("total      5625"), "{out}");
    assert!(
        err.contains("audit: the 52 units re-solved agree with their files"),
        "{err}"
    );
}

/// `--audit F` re-solves ceil(F × units) of them, the same ones for the
/// same `--seed`, and says which; a fraction outside (0, 1] is refused.
#[test]
fn an_audit_samples_by_its_seed() {
    let dir = done_folder("files-sample");
    let n = Folder::open(&dir).unwrap().plan.units.len();
    let audited = |args: &[&str]| {
        let mut all = vec!["merge", s(&dir), "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = run(OPTIMOO, &all, "");
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        // stdout is solve's JSON object alone.
        serde_json::from_str::<serde_json::Value>(&out).unwrap();
        err.lines()
            .find(|l| l.starts_with("audit: re-solving"))
            .unwrap_or_else(|| panic!("{err}"))
            .to_string()
    };
    let want = n.div_ceil(2);
    let a = audited(&["--audit", "0.5", "--seed", "7"]);
    assert!(
        a.contains(&format!("re-solving {want} of {n} units (seed 7)")),
        "{a}"
    );
    assert_eq!(audited(&["--audit", "0.5", "--seed", "7"]), a);
    let units: Vec<&str> = a.rsplit(": ").next().unwrap().split(", ").collect();
    assert_eq!(units.len(), want, "{a}");
    let b = audited(&["--audit", "0.5", "--seed", "8"]);
    let c = audited(&["--audit", "0.5", "--seed", "9"]);
    assert!(a != b || a != c, "{a} {b} {c}");
    let one = audited(&["--audit", "0.0001"]);
    assert!(
        one.contains(&format!("re-solving 1 of {n} units (seed ")),
        "{one}"
    );
    for bad in ["0", "1.5", "-1", "nan", "x"] {
        let arg = format!("--audit={bad}");
        let (code, _, err) = run(OPTIMOO, &["merge", s(&dir), &arg], "");
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--audit"), "{bad}: {err}");
    }
}

/// `min_cap` is part of the problem: an edited one (merge printed "min
/// cap 3" beside "cap 5") no longer matches plan_id.
#[test]
fn an_edited_min_cap_is_refused() {
    let dir = folder("files-min-cap");
    ok(&[
        "plan",
        "--game",
        "mm:3x4",
        "--objective",
        "worst",
        "-o",
        s(&dir),
    ]);
    ok(&["work", s(&dir), "--all"]);
    let plan = dir.join("plan.json");
    let text = std::fs::read_to_string(&plan).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cap = v["min_cap"]["cap"].as_u64().unwrap();
    assert_eq!(v["cap"].as_u64(), Some(cap));
    v["min_cap"]["cap"] = (cap - 1).into();
    std::fs::write(&plan, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    for cmd in ["status", "merge"] {
        let (code, out, err) = run(OPTIMOO, &[cmd, s(&dir)], "");
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(
            err.contains("plan.json is corrupt: its plan_id does not match"),
            "{cmd}: {err}"
        );
    }
    std::fs::write(&plan, text).unwrap();
    ok(&["merge", s(&dir)]);
}

/// A folder of the first format (CRC-32 checksums over Debug text) is
/// refused with what to do; so is a unit file of that format.
#[test]
fn folders_of_an_earlier_format_are_refused() {
    let dir = done_folder("files-old");
    let plan = dir.join("plan.json");
    let text = std::fs::read_to_string(&plan).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["format"] = "optimoo-plan/1".into();
    v["plan_id"] = "5b343ecf89411767".into();
    std::fs::write(&plan, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    for cmd in ["status", "merge", "work"] {
        let (code, out, err) = run(
            OPTIMOO,
            &[cmd, s(&dir), "--all"][..if cmd == "work" { 3 } else { 2 }],
            "",
        );
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(
            err.contains("written by an earlier version of optimoo")
                && err.contains("optimoo-plan/1")
                && err.contains("plan again"),
            "{cmd}: {err}"
        );
    }
    std::fs::write(&plan, text).unwrap();
    let u = unit(&dir, 0);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&u).unwrap()).unwrap();
    v["format"] = "optimoo-unit/1".into();
    std::fs::write(&u, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("units/0.json is refused: written by an earlier version of optimoo"),
        "{err}"
    );
}

/// `work` finds out that it cannot write its results before it solves
/// anything (it used to solve, then fail to write, losing the result):
/// `units/` missing, a file, a link to nothing, or read-only (where
/// permissions hold: root ignores them).
#[cfg(unix)]
#[test]
fn work_checks_that_it_can_write_before_solving() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("files-unwritable");
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    let units = dir.join("units");
    let check = |what: &str| {
        for args in [
            vec!["work", s(&dir), "--unit", "0"],
            vec!["work", s(&dir), "--all"],
            vec!["solve", "--game", "mm:4x6", "--checkpoint", s(&dir)],
        ] {
            let (code, out, err) = run(OPTIMOO, &args, "");
            assert_eq!(code, 2, "{what} {args:?}: {out}{err}");
            assert!(
                err.contains("units") && err.contains("nothing was solved"),
                "{what} {args:?}: {err}"
            );
            assert!(!out.contains("exact"), "{what} {args:?}: {out}");
        }
    };
    std::fs::remove_dir(&units).unwrap();
    check("missing");
    std::fs::write(&units, "not a folder").unwrap();
    check("a file");
    std::fs::remove_file(&units).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere"), &units).unwrap();
    check("a link to nothing");
    std::fs::remove_file(&units).unwrap();
    std::fs::create_dir(&units).unwrap();
    std::fs::set_permissions(&units, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(units.join("probe"), "").is_err() {
        check("read-only");
    } else {
        std::fs::remove_file(units.join("probe")).unwrap(); // root
    }
    std::fs::set_permissions(&units, std::fs::Permissions::from_mode(0o755)).unwrap();
    ok(&["work", s(&dir), "--unit", "0"]);
}

/// Rewrites unit `i`'s file through `edit`, its hash recomputed.
fn edit_unit(dir: &Path, i: usize, edit: impl FnOnce(&mut UnitFile)) {
    let folder = Folder::open(dir).unwrap();
    let (mut f, _) = folder.read_unit(i).unwrap().unwrap();
    edit(&mut f);
    f.sha256 = f.compute_sha256();
    std::fs::write(unit(dir, i), serde_json::to_string_pretty(&f).unwrap()).unwrap();
}

/// `seconds` that is no time, and times or node counts whose sum
/// overflows (merge showed "-inf s"; nodes wrapped): the file is refused
/// by name.
#[test]
fn unit_times_and_nodes_are_checked() {
    let dir = done_folder("files-times");
    let both = |cmd: &str, want: &[&str]| {
        let (code, out, err) = run(OPTIMOO, &[cmd, s(&dir)], "");
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        let said = format!("{out}{err}");
        for w in want {
            assert!(said.contains(w), "{cmd}: {w:?} in {said}");
        }
        assert!(!said.contains("inf"), "{said}");
    };
    let saved: Vec<Vec<u8>> = (0..2)
        .map(|i| std::fs::read(unit(&dir, i)).unwrap())
        .collect();
    let restore = || {
        for (i, b) in saved.iter().enumerate() {
            std::fs::write(unit(&dir, i), b).unwrap();
        }
    };
    edit_unit(&dir, 0, |f| f.seconds = -1e308);
    for cmd in ["status", "merge"] {
        both(cmd, &["units/0.json is refused", "seconds"]);
    }
    restore();
    for i in 0..2 {
        edit_unit(&dir, i, |f| f.seconds = 1.5e308);
    }
    for cmd in ["status", "merge"] {
        both(cmd, &["units/1.json is refused", "seconds", "overflow"]);
    }
    restore();
    for i in 0..2 {
        edit_unit(&dir, i, |f| f.nodes = u64::MAX);
    }
    for cmd in ["status", "merge"] {
        both(cmd, &["units/1.json is refused", "nodes", "overflow"]);
    }
    restore();
    ok(&["merge", s(&dir)]);
}

/// A memo so large that its figure overflows 64 bits (it was reported as
/// "memo up to 0 KiB" and the search started): refused with what to
/// change.
#[test]
fn memory_figures_that_overflow_are_refused() {
    let dir = folder("files-memo");
    ok(&["plan", "--game", "mm:3x3", "-o", s(&dir)]);
    let huge = "8796093022208";
    for args in [
        vec![
            "work",
            s(&dir),
            "--unit",
            "0",
            "--memo-mib",
            huge,
            "--max-memory",
            "1G",
        ],
        vec!["work", s(&dir), "--all", "--memo-mib", "4398046511104"],
        vec![
            "solve",
            "--game",
            "mm:3x3",
            "--memo-mib",
            huge,
            "--max-memory",
            "1G",
        ],
        vec!["solve", "--game", "mm:3x3", "--memo-mib", &"9".repeat(19)],
    ] {
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("--memo-mib") && err.contains("too large"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("0 KiB"), "{args:?}: {err}");
    }
    assert!(!unit(&dir, 0).exists());
    ok(&["work", s(&dir), "--all"]);
    let (code, out, err) = run(
        OPTIMOO,
        &["merge", s(&dir), "--audit", "1", "--memo-mib", huge],
        "",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("too large"), "{err}");
}

/// Two `work --all` on one folder at once: each counts only the units it
/// wrote (both used to say "52 of 52 units solved now"), and says which
/// units the other wrote first.
#[test]
fn two_workers_count_only_their_own_units() {
    let dir = folder("files-two-workers");
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    let n = Folder::open(&dir).unwrap().plan.units.len();
    let spawn = || {
        Command::new(OPTIMOO)
            .args(["work", s(&dir), "--all", "--threads", "1"])
            .output()
            .unwrap()
    };
    let (a, b) = std::thread::scope(|sc| {
        let a = sc.spawn(spawn);
        let b = sc.spawn(spawn);
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut written = 0;
    for o in [&a, &b] {
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{o:?}");
        let last = out.lines().last().unwrap();
        let count: usize = last
            .split(" of ")
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{last}"));
        assert!(last.contains(&format!("of {n} units solved now")), "{last}");
        let solved: Vec<&str> = out.lines().filter(|l| l.starts_with("unit ")).collect();
        let theirs = solved
            .iter()
            .filter(|l| l.contains("written first by another worker"))
            .count();
        assert_eq!(count, solved.len() - theirs, "{out}");
        if theirs > 0 {
            assert!(
                last.contains(&format!(
                    "{theirs} more solved here but written first by another"
                )),
                "{last}"
            );
        }
        written += count;
    }
    assert_eq!(written, n, "{a:?}\n{b:?}");
    ok(&["merge", s(&dir)]);
}

/// The audit re-solved units 14 and 15 alone, and they agree.
fn assert_audited_14_and_15(out: &str, err: &str) {
    for line in [
        "audit: re-solving 2 of 2 units (seed 1): 14, 15",
        "audit: the 2 units re-solved agree with their files",
    ] {
        assert!(err.contains(line), "{line}: {out}{err}");
    }
}

/// A unit stopped by a time limit holds a bound, not a result: the audit
/// names it and leaves it out (re-solving it would run it to the end and
/// call an honest file forged), and audits the finished units alone.
#[test]
fn an_audit_leaves_stopped_units_out() {
    let dir = folder("files-audit-stopped");
    ok(&["plan", "--game", "moo:5x8", "-o", s(&dir)]);
    // Unit 6 (01234 1A3B, 660 secrets) needs about a second: stopped at
    // 0.05 s. Units 14 and 15 (10 and 15 secrets) finish at once.
    let (code, out, err) = run(
        OPTIMOO,
        &[
            "work",
            s(&dir),
            "--unit",
            "6",
            "--threads",
            "1",
            "--time-limit",
            "0.05",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let stopped: UnitFile =
        serde_json::from_str(&std::fs::read_to_string(unit(&dir, 6)).unwrap()).unwrap();
    assert!(stopped.stopped && !stopped.exact, "{out}{err}");
    for i in ["14", "15"] {
        ok(&["work", s(&dir), "--unit", i, "--threads", "1"]);
    }
    let (_, out, err) = run(OPTIMOO, &["merge", s(&dir), "--audit", "1"], "");
    assert!(
        err.contains("audit: unit 6 stopped on the way, not audited"),
        "{out}{err}"
    );
    assert_audited_14_and_15(&out, &err);
    // The stopped unit is where its leg left it.
    let after: UnitFile =
        serde_json::from_str(&std::fs::read_to_string(unit(&dir, 6)).unwrap()).unwrap();
    assert_eq!(after.value, stopped.value);
}

/// `--audit-max-seconds S` draws only among the finished units whose file
/// records at most S seconds, and names the others; with none left it
/// fails rather than audit nothing.
#[test]
fn an_audit_can_leave_the_slow_units_out() {
    let dir = folder("files-audit-slow");
    ok(&["plan", "--game", "moo:5x8", "-o", s(&dir)]);
    // Unit 6 (660 secrets) takes about a second, 14 and 15 (10 and 15
    // secrets) a few milliseconds: the threshold between them is read
    // from the files, so the split does not depend on the machine.
    for i in ["6", "14", "15"] {
        ok(&["work", s(&dir), "--unit", i, "--threads", "1"]);
    }
    let seconds = |i: usize| -> f64 {
        let f: UnitFile =
            serde_json::from_str(&std::fs::read_to_string(unit(&dir, i)).unwrap()).unwrap();
        f.seconds
    };
    let fast = seconds(14).max(seconds(15));
    assert!(
        seconds(6) > fast,
        "unit 6 {} s, 14 and 15 {fast} s",
        seconds(6)
    );
    let limit = format!("{}", (fast + seconds(6)) / 2.0);
    let (_, out, err) = run(
        OPTIMOO,
        &[
            "merge",
            s(&dir),
            "--audit",
            "1",
            "--audit-max-seconds",
            &limit,
        ],
        "",
    );
    assert!(
        err.contains("audit: unit 6 took over ") && err.contains("not drawn (--audit-max-seconds)"),
        "{out}{err}"
    );
    assert_audited_14_and_15(&out, &err);
    let (code, out, err) = run(
        OPTIMOO,
        &["merge", s(&dir), "--audit", "1", "--audit-max-seconds", "0"],
        "",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("nothing to audit: every finished unit") && !err.contains("re-solving"),
        "{out}{err}"
    );
}
