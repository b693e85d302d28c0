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
