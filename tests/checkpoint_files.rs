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
fn first_secret_subtree(game: &optimoo::Game, set: &[optimoo::Code], out: &mut Vec<u16>) {
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
        subtree: Some(deep),
        seconds: 1.0,
        nodes: 1,
        peak_kib: None,
        checksum: String::new(),
    };
    f.checksum = f.compute_checksum();
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
