//! The command line's edges, run as a user runs it: closed streams, echoed
//! input, error lines, exit codes, refused options, and the README kept in
//! step with `--help` and the JSON reports.

use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};

use optimoo::model::Game;

use crate::trees::{first_consistent_file, run};
use crate::OPTIMOO;

/// How a standard stream of the child is connected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stream {
    /// Read by the test.
    Piped,
    /// A socket whose other end is already closed: every write fails with
    /// EPIPE, as for `... | head` once head has exited.
    Closed,
}

fn closed() -> Stdio {
    let (ours, theirs) = UnixStream::pair().unwrap();
    drop(ours);
    Stdio::from(OwnedFd::from(theirs))
}

fn connect(s: Stream) -> Stdio {
    match s {
        Stream::Piped => Stdio::piped(),
        Stream::Closed => closed(),
    }
}

/// Runs `bin` with stdout and stderr connected as asked; returns the exit
/// code (-1 for a signal), stdout and stderr (empty when closed).
pub fn run_with(
    bin: &str,
    args: &[&str],
    stdin: &[u8],
    stdout: Stream,
    stderr: Stream,
) -> (i32, String, String) {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(connect(stdout))
        .stderr(connect(stderr))
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs with one stream closed; asserts no panic and returns the code.
pub fn quietly(bin: &str, args: &[&str], stdin: &[u8], closed: Stream) -> (i32, String, String) {
    let (out, err) = if closed == Stream::Closed {
        (Stream::Closed, Stream::Piped)
    } else {
        (Stream::Piped, Stream::Closed)
    };
    let got = run_with(bin, args, stdin, out, err);
    assert_ne!(got.0, 101, "{args:?} panicked: {}", got.2);
    assert_ne!(got.0, -1, "{args:?} died of a signal");
    assert!(!got.2.contains("panicked"), "{args:?}: {}", got.2);
    got
}

/// The long flags (`--name`) a help text lists.
pub fn long_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        if !line.starts_with('-') {
            continue;
        }
        for word in line.split(|c: char| c.is_whitespace() || c == ',') {
            if let Some(name) = word.strip_prefix("--") {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !name.is_empty() {
                    flags.push(format!("--{name}"));
                }
            }
        }
    }
    flags
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The backquoted field names in the README's JSON table row that starts
/// with `row`.
pub fn readme_fields(row: &str) -> Vec<String> {
    let text = readme();
    let table = text.split("## JSON output").nth(1).unwrap();
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("| {row} |")))
        .unwrap_or_else(|| panic!("no README row {row}"));
    let cells = line.split(" | ").nth(1).unwrap();
    cells
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .map(str::to_string)
        .collect()
}

pub fn keys(json: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn too_many_threads_are_refused() {
    for n in ["100000", "1025"] {
        let (code, out, err) = run(OPTIMOO, &["solve", "--game", "mm:3x3", "--threads", n], "");
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("--threads"), "{err}");
        assert!(out.is_empty());
    }
    let (code, _, err) = run(
        OPTIMOO,
        &["solve", "--game", "mm:3x3", "--threads", "2"],
        "",
    );
    assert_eq!(code, 0, "{err}");
}

/// Normal and error paths with stdout or stderr a closed pipe: no panic,
/// exit 0 on a closed stdout, the run's own code on a closed stderr.
#[test]
fn closed_streams_end_quietly() {
    use Stream::Closed as Out;
    use Stream::Piped as Err;
    // stdout closed: the report cannot be written, the run ends with 0.
    for args in [
        &["solve", "--game", "mm:3x3"][..],
        &["solve", "--game", "mm:3x3", "--json"],
        &["eval", "--game", "mm:3x4"],
        &["partition", "--game", "mm:3x3"],
        &["export", "--game", "mm:3x3", "--strategy", "kooi"],
        &["solve", "--help"],
    ] {
        let (code, _, err) = quietly(OPTIMOO, args, b"", Out);
        assert_eq!(code, 0, "{args:?}: {err}");
        // Only the memory a search will need, stated before it starts.
        assert!(
            err.lines().all(|l| l.starts_with("memory: ")),
            "{args:?}: {err}"
        );
    }
    // stderr closed: the report is still written; errors keep their code.
    // (-v writes a line per first-level class of mm:3x4 on stderr.)
    let (code, out, _) = quietly(OPTIMOO, &["solve", "--game", "mm:3x4", "-v"], b"", Err);
    assert_eq!(code, 0);
    assert!(out.contains("first      "), "{out}");
    for (args, want) in [
        (&["solve", "--game", "mm:3x3", "--threads", "100000"][..], 2),
        (&["solve", "--game", "nope"], 2),
        (&["partition", "--game", "mm:2x2", "00:1A0B", "00:0A0B"], 1),
        (&["solve", "--game", "mm:3x3", "--cap", "3"], 1),
    ] {
        let (code, _, _) = quietly(OPTIMOO, args, b"", Err);
        assert_eq!(code, want, "{args:?}");
    }
}

/// An arrow key typed into an argument comes back escaped, never raw; a
/// long one is cut.
#[test]
fn echoed_input_is_escaped_and_cut() {
    let up = "\u{1b}[A";
    let long = "7".repeat(3000);
    let cases: Vec<Vec<String>> = vec![
        vec!["partition".into(), format!("{up}:1A0B")],
        vec!["partition".into(), format!("0123:1A{up}")],
        vec!["partition".into(), "--guess".into(), format!("01{up}")],
        vec!["partition".into(), "--guess".into(), long.clone()],
        vec!["partition".into(), format!("{long}:1A0B")],
        vec!["eval".into(), "--first".into(), format!("{up}0")],
        vec![
            "export".into(),
            "--strategy".into(),
            "kooi".into(),
            "--first".into(),
            long,
        ],
        vec!["solve".into(), "--game".into(), format!("mm:{up}")],
        vec!["solve".into(), "--objective".into(), up.into()],
    ];
    for args in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(!err.contains('\u{1b}'), "{args:?}: {err:?}");
        assert!(err.len() < 600, "{args:?}: {} bytes", err.len());
        assert!(err.contains("'"), "{err}");
    }
    let (_, _, err) = run(OPTIMOO, &["partition", &format!("{up}:1A0B")], "");
    assert!(err.contains("\\u{1b}[A"), "{err}");
}

/// Each OS error's text is printed once.
#[test]
fn an_os_error_is_printed_once() {
    for args in [
        &["verify", "/nonexistent"][..],
        &["export", "/nonexistent"],
        &["export", "/nonexistent", "--format", "json"],
    ] {
        let (code, _, err) = run(OPTIMOO, args, "");
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.matches("No such file").count(), 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "export",
            "--strategy",
            "kooi",
            "--game",
            "mm:2x2",
            "-o",
            "/no/such/dir/x",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert_eq!(err.matches("does not exist").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The README's exit code table, command by command.
#[test]
fn exit_codes_follow_the_readme() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let (_, path) = first_consistent_file(&game, "cli-codes.tree");
    let path = path.to_str().unwrap();
    let cases: &[(&[&str], i32)] = &[
        (&["solve", "--game", "mm:3x3"], 0),
        (&["solve", "--game", "mm:3x3", "--cap", "3"], 1),
        (&["solve", "--game", "mm:3x3", "--cap", "2", "--json"], 1),
        (
            &[
                "solve",
                "--game",
                "mm:3x3",
                "--objective",
                "worst",
                "--cap-only",
            ],
            0,
        ),
        (
            &[
                "solve",
                "--game",
                "mm:3x3",
                "--objective",
                "crush",
                "--cap-only",
            ],
            2,
        ),
        (
            &[
                "solve",
                "--game",
                "mm:3x3",
                "--objective",
                "worst",
                "--cap",
                "4",
            ],
            2,
        ),
        (&["partition", "--game", "mm:2x3", "00:1A0B"], 0),
        (&["partition", "--game", "mm:2x3", "00:1A0B", "00:0A0B"], 1),
        (&["partition", "--game", "mm:2x3", "00:1A"], 2),
        (&["verify", path], 0),
        (&["verify", "/nonexistent"], 2),
        (&["static", "--game", "mm:2x3"], 0),
        (&["static", "--game", "mm:2x3", "--time-budget", "0"], 2),
        (&["static", "--game", "mm:2x"], 2),
        (&["verify", "--game", "mm:2x3", "--static", "01 02"], 0),
        (&["verify", "--game", "mm:2x3", "--static", "01"], 1),
        (&["verify", "--game", "mm:2x3", "--static", "01 0"], 2),
        (&["eval", "--game", "mm:2x3"], 0),
        (&["eval", "--game", "mm:2x3", "--first", "000"], 2),
        (&["export", path], 0),
        (&["export"], 2),
        (&["nonsense"], 2),
        (&["--version"], 0),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(OPTIMOO, args, "");
        assert_eq!(code, *want, "{args:?}: {out}{err}");
        if *want == 1 {
            assert!(!err.is_empty() || !out.is_empty(), "{args:?} says why");
        }
    }
}

/// `--cap-only` goes with `worst` only; `solve` never offers `heuristic`.
#[test]
fn solve_refuses_what_it_cannot_do() {
    let (code, out, err) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--objective",
            "crush",
            "--cap-only",
        ],
        "",
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--cap-only") && err.contains("worst"), "{err}");
    for bad in ["heuristic", "fastest"] {
        let (code, _, err) = run(OPTIMOO, &["solve", "--objective", bad], "");
        assert_eq!(code, 2);
        assert!(err.contains("average, worst, crush"), "{err}");
        assert!(
            !err.contains("heuristic]") && !err.contains(", heuristic"),
            "{err}"
        );
    }
    let (_, help, _) = run(OPTIMOO, &["solve", "--help"], "");
    for name in ["average (", "worst (", "crush (", "costs:C1"] {
        assert!(help.contains(name), "{help}");
    }
    assert!(!help.contains("heuristic"), "{help}");
    // Case does not matter, as before.
    let (code, out, _) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--objective",
            "WORST",
            "--cap-only",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.contains("min cap    4"), "{out}");
}

/// Every long flag of every subcommand's `--help` is in the README.
#[test]
fn help_and_readme_agree() {
    let readme = readme();
    for sub in [
        "",
        "partition",
        "verify",
        "eval",
        "export",
        "solve",
        "plan",
        "work",
        "merge",
        "status",
        "static",
    ] {
        let mut args: Vec<&str> = sub.split_whitespace().collect();
        args.push("--help");
        let (code, help, _) = run(OPTIMOO, &args, "");
        assert_eq!(code, 0);
        let flags = long_flags(&help);
        assert!(sub.is_empty() || !flags.is_empty(), "{help}");
        for flag in flags {
            assert!(
                readme.contains(&format!("`{flag}")) || readme.contains(&format!(" {flag} ")),
                "optimoo {sub} --help lists {flag}, the README does not"
            );
        }
    }
}

/// The README's table of JSON fields is what `--json` prints.
#[test]
fn json_fields_are_the_readmes() {
    let solved = readme_fields("`solve`, a tree found");
    let (_, out, _) = run(OPTIMOO, &["solve", "--game", "mm:3x3", "--json"], "");
    assert_eq!(keys(&out), solved);
    let (_, out, _) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--objective",
            "crush",
            "--json",
        ],
        "",
    );
    let mut with_cap = solved.clone();
    with_cap.extend(readme_fields(
        "`solve --objective worst` or `crush`, a tree found",
    ));
    assert_eq!(keys(&out), with_cap);
    let (_, out, _) = run(
        OPTIMOO,
        &["solve", "--game", "mm:3x3", "--cap", "3", "--json"],
        "",
    );
    assert_eq!(
        keys(&out),
        readme_fields("`solve`, no strategy within the cap")
    );
    let (_, out, _) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--objective",
            "costs:1,2,3,5",
            "--json",
        ],
        "",
    );
    let mut with_costs = solved.clone();
    with_costs.extend(readme_fields("`solve --objective costs:...`, a tree found"));
    assert_eq!(keys(&out), with_costs);
    let (_, out, _) = run(
        OPTIMOO,
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--objective",
            "worst",
            "--cap-only",
            "--json",
        ],
        "",
    );
    assert_eq!(
        keys(&out),
        readme_fields("`solve --objective worst --cap-only`")
    );
    let (_, out, _) = run(OPTIMOO, &["static", "--game", "mm:3x3", "--json"], "");
    assert_eq!(keys(&out), readme_fields("`static`"));
    let merged = crate::trees::scratch("readme-merged.static.json");
    let _ = std::fs::remove_file(&merged);
    let merged = merged.to_str().unwrap();
    let args = [
        "static",
        "--game",
        "mm:3x3",
        "--json",
        "--checkpoint",
        merged,
    ];
    let merge = [&args[..], &["--merge-checkpoints", merged]].concat();
    let (code, _, err) = run(OPTIMOO, &merge, "");
    assert_eq!(code, 2, "a merge needs an existing shard file: {err}");
    run(OPTIMOO, &args, "");
    let (_, out, _) = run(OPTIMOO, &merge, "");
    assert_eq!(keys(&out), readme_fields("`static --merge-checkpoints`"));
    let (_, out, _) = run(OPTIMOO, &["eval", "--game", "mm:2x3", "--json"], "");
    for line in out.lines() {
        assert_eq!(keys(line), readme_fields("`eval`, a line per strategy"));
    }
}

/// One report, two renderings: the text shows the JSON's figures.
#[test]
fn text_and_json_say_the_same() {
    for extra in [&[][..], &["--objective", "worst"], &["--cap", "3"]] {
        let mut args = vec!["solve", "--game", "mm:3x3"];
        args.extend(extra);
        let (_, text, _) = run(OPTIMOO, &args, "");
        args.push("--json");
        let (_, json, _) = run(OPTIMOO, &args, "");
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        if v["feasible"] == true {
            assert!(
                text.contains(&format!("total      {}", v["total"])),
                "{text}"
            );
            assert!(text.contains(&format!(
                "first      {}",
                v["first_guess"].as_str().unwrap()
            )));
            let hist: Vec<String> = v["histogram"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.to_string())
                .collect();
            assert!(
                text.contains(&format!("histogram  {}", hist.join(" "))),
                "{text}"
            );
        } else {
            assert!(
                text.starts_with("no strategy solves mm:3x3 within 3"),
                "{text}"
            );
        }
        if let Some(m) = v.get("min_cap") {
            assert!(text.contains(&format!("min cap    {m}")), "{text}");
        }
    }
    let (_, text, _) = run(
        OPTIMOO,
        &["eval", "--game", "mm:2x3", "--strategy", "kooi"],
        "",
    );
    let (_, json, _) = run(
        OPTIMOO,
        &["eval", "--game", "mm:2x3", "--strategy", "kooi", "--json"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let row = text.lines().find(|l| l.starts_with("kooi")).unwrap();
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(words[1], v["total"].to_string());
    assert_eq!(words[3], v["max_depth"].to_string());
}

/// Class lines on stderr with -v only (stderr is not a terminal here, so
/// there is no spinner either).
#[test]
fn verbose_lines_only_with_v() {
    let (code, _, err) = run(OPTIMOO, &["solve", "--game", "mm:3x4"], "");
    assert_eq!(code, 0);
    // The memory the search will need, and nothing else.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("memory: about "), "{err}");
    let (code, _, err) = run(OPTIMOO, &["solve", "--game", "mm:3x4", "-v"], "");
    assert_eq!(code, 0);
    assert!(err.contains("secrets, cost"), "{err}");
}

/// A search killed before it ends (a scheduler's time limit, SIGKILL)
/// leaves no temporary file beside its output: the file is only created
/// once the result is there. The game takes seconds to solve (moo:4x10,
/// about 3 s on one thread): moo:4x9 took 0.3 to 0.4 s, so the kill at
/// 300 ms could land while the finished tree was being written, where a
/// SIGKILL leaves the temporary file by its nature.
#[test]
fn a_killed_solve_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("killed.tree");
    let mut child = Command::new(OPTIMOO)
        .args(["solve", "--game", "moo:4x10", "--threads", "1", "-o"])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Killed, or finished on its own before the kill landed: the exit
    // status says which (a check before the kill would race with the end).
    let _ = child.kill();
    let still_running = !child.wait().unwrap().success();
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    if still_running {
        assert!(left.is_empty(), "left behind: {left:?}");
    } else {
        // A very fast machine finished first: only the tree is there.
        assert_eq!(left, [std::ffi::OsString::from("killed.tree")]);
    }
}

/// `partition` refuses a move after the winning answer as `moo next`,
/// `rank` and `analyze` do (exit code 1, the same words), on small and
/// huge games (it partitioned the one secret left); a huge game's history
/// longer than any game needs is refused (exit code 2).
#[test]
fn partition_refuses_a_move_after_the_win() {
    for args in [
        &["partition", "0123:4A0B", "4567:0A0B"][..],
        &[
            "partition",
            "--game",
            "moo:10x10",
            "0123456789:10A0B",
            "1234567890:0A10B",
        ],
    ] {
        let (code, out, err) = run(OPTIMOO, args, "");
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
        assert_eq!(
            err.trim(),
            "optimoo: error: move 2 comes after the winning answer: the game was over"
        );
    }
    let long: Vec<String> = (0..65).map(|_| "0123456789:0A10B".to_string()).collect();
    let mut args = vec!["partition", "--game", "moo:10x10"];
    args.extend(long.iter().map(String::as_str));
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at most 64"), "{err}");
}
