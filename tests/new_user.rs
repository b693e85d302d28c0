//! What a new user hit (issue 17): files that follow the umask, help that
//! names what it does, figures sized to the game, no empty memo line, and
//! cross-argument rules refused by clap.

use std::os::unix::fs::PermissionsExt;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// Runs `optimoo ARGS` under `umask`; the exit code and stderr.
fn under_umask(umask: &str, args: &[&str]) -> (i32, String) {
    let mut all = vec!["-c", "umask \"$0\" && exec \"$@\"", umask, OPTIMOO];
    all.extend_from_slice(args);
    let (code, _, err) = run("sh", &all, "");
    (code, err)
}

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Every file written with -o (a tree, JSON, the page), and a checkpoint
/// folder's files, get 0666 less the umask, as `cp` gives: 0644 under 022
/// (a page on a web server can be read), 0600 under 077.
#[test]
fn outputs_follow_the_umask() {
    for (umask, want) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let dir = scratch(&format!("umask-{umask}"));
        std::fs::create_dir_all(&dir).unwrap();
        let p = |name: &str| dir.join(name).display().to_string();
        let runs: Vec<(Vec<String>, String)> = vec![
            (
                vec!["solve", "--game", "mm:2x3", "-o", &p("t.tree")]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                p("t.tree"),
            ),
            (
                vec!["solve", "--game", "mm:2x3", "-o", &p("t.json")]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                p("t.json"),
            ),
            (
                ["export", "--game", "mm:2x3", "--strategy", "kooi"]
                    .into_iter()
                    .chain(["--format", "html", "-o", &p("page.html")])
                    .map(String::from)
                    .collect(),
                p("page.html"),
            ),
            (
                ["export", "--game", "mm:2x3", "--strategy", "kooi"]
                    .into_iter()
                    .chain(["--format", "dot", "-o", &p("t.dot")])
                    .map(String::from)
                    .collect(),
                p("t.dot"),
            ),
            (
                vec!["plan", "--game", "moo:3x4", "-o", &p("run")]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                p("run/plan.json"),
            ),
            (
                vec!["work", &p("run"), "--unit", "0"]
                    .into_iter()
                    .map(String::from)
                    .collect(),
                p("run/units/0.json"),
            ),
        ];
        for (args, file) in runs {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, err) = under_umask(umask, &args);
            assert_eq!(code, 0, "{args:?}: {err}");
            let got = mode(std::path::Path::new(&file));
            assert_eq!(got, want, "umask {umask}: {file} is {got:o}, not {want:o}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Rules between arguments that clap can state are refused by clap: exit
/// code 2 and a message naming both arguments.
#[test]
fn cross_argument_rules_are_refused_by_clap() {
    let dir = scratch("conflicts").display().to_string();
    for (args, other) in [
        (
            vec![
                "solve",
                "--objective",
                "worst",
                "--cap-only",
                "--checkpoint",
                &dir,
            ],
            "--cap-only",
        ),
        (
            vec![
                "solve",
                "--secrets",
                "data/words4.txt",
                "--checkpoint",
                &dir,
            ],
            "--secrets",
        ),
        (vec!["work", &dir, "--unit", "0", "--all"], "--all"),
        (vec!["solve", "--cap-only", "--cap", "6"], "--cap"),
        (vec!["merge", &dir, "--seed", "3"], "--audit"),
        (vec!["eval", "--alphabet", "abc"], "--secrets"),
    ] {
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains(other) && err.contains("Usage"),
            "{args:?}: {err}"
        );
        assert!(!std::path::Path::new(&dir).exists(), "{args:?}");
    }
    // Rules that depend on a value are checked after parsing, with the
    // same exit code.
    for (args, said) in [
        (vec!["solve", "--cap-only"], "--objective worst"),
        (
            vec!["solve", "--objective", "crush", "--cap", "5"],
            "drop --cap",
        ),
        (
            vec!["plan", "--objective", "worst", "--cap", "5", "-o", &dir],
            "drop --cap",
        ),
        (vec!["plan", "--depth", "3", "-o", &dir], "give 1"),
    ] {
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
}

/// The memory a search needs is stated for its game, the memo's ceiling
/// apart: mm:4x6 needs megabytes (not "about 1.0 GiB"), and the memo may
/// grow to 1.0 GiB.
#[test]
fn memory_is_stated_for_the_game() {
    let (code, _, err) = run(
        OPTIMOO,
        &["solve", "--game", "mm:4x6", "--threads", "2"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let line = err.lines().find(|l| l.starts_with("memory: ")).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[..2], ["memory:", "about"], "{line}");
    let needed: f64 = words[2].parse().unwrap();
    assert_eq!(words[3], "MiB", "{line}");
    assert!(needed < 64.0, "{line}");
    assert!(
        line.contains("needed (feedback table 1.6 MiB, other "),
        "{line}"
    );
    assert!(line.contains("), the memo may grow to 1.0 GiB; "), "{line}");
    // A smaller memo, a smaller ceiling; the need is the same.
    let args = [
        "solve",
        "--game",
        "mm:4x6",
        "--threads",
        "2",
        "--memo-mib",
        "4",
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let small = err.lines().find(|l| l.starts_with("memory: ")).unwrap();
    assert!(small.contains("the memo may grow to 16.0 MiB"), "{small}");
    assert!(
        small.starts_with(&line[..line.find("the memo").unwrap()]),
        "{small}"
    );
}

/// `merge` and `solve --checkpoint` used no memo of their own: no memo
/// line (`solve` keeps its own); `partition` says "1 secret left".
#[test]
fn no_empty_memo_line_and_one_secret() {
    let dir = scratch("memo-line");
    let d = dir.display().to_string();
    let (code, out, err) = run(
        OPTIMOO,
        &["solve", "--game", "mm:2x4", "--checkpoint", &d],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("total      "), "{out}");
    assert!(!out.contains("memo "), "{out}");
    let (code, merged, err) = run(OPTIMOO, &["merge", &d], "");
    assert_eq!(code, 0, "{err}");
    assert!(!merged.contains("memo "), "{merged}");
    let (code, solved, err) = run(OPTIMOO, &["solve", "--game", "mm:2x4"], "");
    assert_eq!(code, 0, "{err}");
    assert!(solved.contains("\nmemo       "), "{solved}");
    let same = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("time") && !l.starts_with("nodes") && !l.starts_with("memo"))
            .map(String::from)
            .collect()
    };
    assert_eq!(same(&merged), same(&solved));
    std::fs::remove_dir_all(&dir).unwrap();

    let (code, out, _) = run(OPTIMOO, &["partition", "--game", "moo:3x4", "012:3A0B"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("1 secret left; guess"), "{out}");
    let (code, out, _) = run(OPTIMOO, &["partition", "--game", "moo:3x4"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("24 secrets left; guess"), "{out}");
}

/// `optimoo --help` says what `export` writes (every format), and `eval
/// --help` names the seed000 rule instead of "seed 000's whole rule".
#[test]
fn help_says_what_it_does() {
    let (code, help, _) = run(OPTIMOO, &["--help"], "");
    assert_eq!(code, 0);
    let export = help
        .lines()
        .find(|l| l.trim_start().starts_with("export"))
        .unwrap();
    for format in ["JSON", "dot", "tree file", "HTML"] {
        assert!(export.contains(format), "{export}");
    }
    let (code, help, _) = run(OPTIMOO, &["eval", "--help"], "");
    assert_eq!(code, 0);
    assert!(!help.contains("whole rule"), "{help}");
    for said in [
        "essentially different",
        "last candidate",
        "winning class is left out",
    ] {
        assert!(help.contains(said), "{said}: {help}");
    }
}
