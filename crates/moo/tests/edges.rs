//! The `moo` binary's edges: closed streams, endless or unreadable input,
//! echoed input, error lines and exit codes, `--help` against the README.

use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use optimoo::model::Game;

use crate::trees::{first_consistent_file, run};
use crate::MOO;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stream {
    Piped,
    /// A socket whose other end is closed: writes fail with EPIPE.
    Closed,
}

fn connect(s: Stream) -> Stdio {
    match s {
        Stream::Piped => Stdio::piped(),
        Stream::Closed => {
            let (ours, theirs) = UnixStream::pair().unwrap();
            drop(ours);
            Stdio::from(OwnedFd::from(theirs))
        }
    }
}

/// Runs moo with stdout or stderr closed; asserts it did not panic.
fn quietly(args: &[&str], stdin: &[u8], closed_out: bool) -> (i32, String, String) {
    let (out, err) = if closed_out {
        (Stream::Closed, Stream::Piped)
    } else {
        (Stream::Piped, Stream::Closed)
    };
    let mut child = Command::new(MOO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(connect(out))
        .stderr(connect(err))
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let got = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&got.stderr).into_owned();
    let code = got.status.code().unwrap_or(-1);
    assert_ne!(code, 101, "{args:?} panicked: {stderr}");
    assert_ne!(code, -1, "{args:?} died of a signal");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (
        code,
        String::from_utf8_lossy(&got.stdout).into_owned(),
        stderr,
    )
}

fn setup(name: &str) -> (Game, String) {
    let game = Game::new("moo:3x5".parse().unwrap());
    let (_, path) = first_consistent_file(&game, name);
    (game, path.to_str().unwrap().to_string())
}

#[test]
fn closed_streams_end_quietly() {
    let (game, path) = setup("x-closed.tree");
    let p = path.as_str();
    // stdout closed: a run ends with 0 (a game at its first guess).
    for args in [
        &["--tree", p, "solve", "432"][..],
        &["--tree", p, "next"],
        &["--tree", p],
        &["host", "--game", "moo:3x5"],
        &["--help"],
    ] {
        let (code, _, err) = quietly(args, b"012\n1A0B\n", true);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
    // stderr closed: errors keep their codes, a scripted game goes on.
    for (args, want) in [
        (&["--tree", "/nonexistent/x.tree", "next"][..], 2),
        (&["--tree", p, "next", "012:1A0B", "012:2A0B"], 1),
        (&["--tree", p, "next", "012:3A0B"], 0),
        (&["--tree", p, "next", "01:1A0B"], 2),
        (&["--tree", p, "--timings", "next"], 0),
        (&["--bogus"], 2),
    ] {
        let (code, _, _) = quietly(args, b"", false);
        assert_eq!(code, want, "{args:?}");
    }
    let secret = game.parse_code("432").unwrap();
    let tree = crate::trees::first_consistent(&game);
    let moves = tree.play(&game, secret).unwrap();
    let answers: String = moves
        .iter()
        .map(|&(_, f)| format!("{}\n", game.format_feedback(f)))
        .collect();
    let (code, out, _) = quietly(&["--tree", p], answers.as_bytes(), false);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), moves.len(), "every guess: {out}");
    let (code, out, _) = quietly(
        &["host", "--game", "moo:3x5", "--seed", "1"],
        b"012\nquit\n",
        false,
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn endless_input_is_an_error_at_once() {
    let (_, path) = setup("x-zero.tree");
    for args in [
        &["--tree", path.as_str()][..],
        &["host", "--game", "moo:3x5"],
    ] {
        let start = Instant::now();
        let got = Command::new(MOO)
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(20));
        let err = String::from_utf8_lossy(&got.stderr);
        assert_eq!(got.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no line end"), "{err}");
    }
}

#[test]
fn unreadable_lines_are_asked_again() {
    let (game, path) = setup("x-unreadable.tree");
    let secret = game.parse_code("432").unwrap();
    let tree = crate::trees::first_consistent(&game);
    let moves = tree.play(&game, secret).unwrap();
    let mut input = vec![b'1'; 10_000];
    input.extend_from_slice(b"\n\xff\xfe1A0B\n");
    for &(_, f) in &moves {
        input.extend_from_slice(format!("{}\n", game.format_feedback(f)).as_bytes());
    }
    let mut child = Command::new(MOO)
        .args(["--tree", &path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let got = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&got.stderr);
    assert_eq!(got.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("Unreadable answer").count(), 2, "{err}");
    assert!(err.contains("Solved in"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&got.stdout).lines().count(),
        moves.len()
    );
    // The host too.
    let mut input = vec![b'0'; 10_000];
    input.extend_from_slice(b"\n\xff\n012\nquit\n");
    let mut child = Command::new(MOO)
        .args(["host", "--game", "moo:3x5", "--seed", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let got = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&got.stderr);
    assert_eq!(got.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("Unreadable guess").count(), 2, "{err}");
    assert_eq!(String::from_utf8_lossy(&got.stdout).lines().count(), 1);
}

/// An arrow key typed as an answer, a guess, a move or a secret comes back
/// escaped; a long text is cut.
#[test]
fn echoed_input_is_escaped_and_cut() {
    let (_, path) = setup("x-echo.tree");
    let p = path.as_str();
    let up = "\u{1b}[A";
    let long = "3".repeat(3000);
    let play = format!("{up}\n{long}\nquit\n");
    let cases: Vec<(Vec<String>, String)> = vec![
        (vec!["--tree".into(), p.into()], play.clone()),
        (
            vec!["host".into(), "--game".into(), "moo:3x5".into()],
            play.clone(),
        ),
        (
            vec![
                "--tree".into(),
                p.into(),
                "next".into(),
                format!("01{up}:1A0B"),
            ],
            String::new(),
        ),
        (
            vec![
                "--tree".into(),
                p.into(),
                "next".into(),
                format!("012:{up}"),
            ],
            String::new(),
        ),
        (
            vec![
                "--tree".into(),
                p.into(),
                "next".into(),
                format!("{long}:1A0B"),
            ],
            String::new(),
        ),
        (
            vec!["--tree".into(), p.into(), "solve".into(), format!("0{up}")],
            String::new(),
        ),
        (
            vec!["--tree".into(), p.into(), "solve".into(), long.clone()],
            String::new(),
        ),
        (
            vec!["host".into(), "--game".into(), format!("{up}")],
            String::new(),
        ),
    ];
    for (args, input) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, _, err) = run(MOO, &args, &input);
        assert!(!err.contains('\u{1b}'), "{args:?}: {err:?}");
        assert!(
            err.contains("\\u{1b}[A") || err.contains('…'),
            "{args:?}: {err}"
        );
        assert!(
            err.lines().all(|l| l.chars().count() < 400),
            "{args:?}: a line too long"
        );
    }
}

#[test]
fn exit_codes_follow_the_readme() {
    let (_, path) = setup("x-codes.tree");
    let p = path.as_str();
    // A won game is 0 and says so; nothing on stdout (no guess to make).
    let (code, out, err) = run(MOO, &["--tree", p, "next", "012:3A0B"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("won"), "{err}");
    let (code, _, err) = run(MOO, &["--tree", p, "next", "012:1A0B", "012:2A0B"], "");
    assert_eq!(code, 1, "{err}");
    for (args, input, want) in [
        (&["--tree", p, "next"][..], "", 0),
        (&["--tree", p, "next", "012:9A0B"], "", 2),
        (&["--tree", p, "solve", "432"], "", 0),
        (&["--tree", p, "solve", "4"], "", 2),
        (&["--tree", p], "quit\n", 0),
        (&["--tree", p], "1A0B\n", 1),
        (&["host", "--game", "moo:3x5"], "quit\n", 0),
        // The adversary never gives the win while another answer is
        // possible: one guess cannot end the game (a random secret could
        // be 012, one time in 60).
        (&["host", "--game", "moo:3x5", "--adversarial"], "012\n", 1),
        (&["host", "--game", "moo:3x5", "--seed", "x"], "", 2),
        (&["--version"], "", 0),
    ] {
        let (code, out, err) = run(MOO, args, input);
        assert_eq!(code, want, "{args:?}: {out}{err}");
    }
}

#[test]
fn an_os_error_is_printed_once() {
    for args in [
        &["--tree", "/nonexistent", "next"][..],
        &["--tree", "/nonexistent", "host"],
    ] {
        let (code, _, err) = run(MOO, args, "");
        assert_eq!(code, 2);
        assert_eq!(err.matches("No such file").count(), 1, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Every long flag of every `moo` subcommand's `--help` is in the README.
#[test]
fn help_and_readme_agree() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    for sub in ["", "play", "next", "solve", "host"] {
        let mut args: Vec<&str> = sub.split_whitespace().collect();
        args.push("--help");
        let (code, help, _) = run(MOO, &args, "");
        assert_eq!(code, 0);
        for line in help
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with('-'))
        {
            for word in line.split(|c: char| c.is_whitespace() || c == ',') {
                let Some(name) = word.strip_prefix("--") else {
                    continue;
                };
                let flag: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                let flag = format!("--{flag}");
                assert!(
                    readme.contains(&format!("`{flag}")) || readme.contains(&format!(" {flag} ")),
                    "moo {sub} --help lists {flag}, the README does not"
                );
            }
        }
    }
}

/// One error form (issue 39): `moo: error: ...` for an error (clap's too)
/// and for a history no secret gives, on every path that says it.
#[test]
fn error_lines_have_one_form() {
    for (args, want) in [
        (vec!["--bogus"], 2),
        (vec!["next", "0123:4A0B", "0123:0A0B"], 1),
        (vec!["rank", "0123:0A0B", "4567:0A0B", "8901:0A0B"], 1),
        (
            vec![
                "--game",
                "moo:10x10",
                "next",
                "0123456789:2A8B",
                "0123456789:0A10B",
            ],
            1,
        ),
        (vec!["solve", "0012"], 2),
    ] {
        let (code, out, err) = run(MOO, &args, "");
        assert_eq!(code, want, "{args:?}: {out}{err}");
        assert!(err.starts_with("moo: error: "), "{args:?}: {err}");
    }
}
