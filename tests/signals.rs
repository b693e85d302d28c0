//! `work` stopped by a signal: Ctrl-C (SIGINT) or SIGTERM sent to a
//! best-first unit (`--time-limit`) stops it as its time limit would. The
//! run says so, exits with 130, and keeps the unit's bound, progress and
//! memo. Legs stopped that way end, once a last leg runs to the end, at the
//! value and subtree of an uninterrupted run.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::distributed::{folder, ok, s, unit_json};
use crate::OPTIMOO;

const GAME: &str = "moo:5x8";
/// 01234 1A3B: 660 secrets, about a second uninterrupted.
const UNIT: &str = "6";

/// One leg of the unit with a time limit far beyond it. `signal` (such as
/// "INT") is sent as the first class search begins. Returns the exit code,
/// stdout, stderr and whether the signal was sent.
fn leg(dir: &Path, signal: Option<&str>) -> (Option<i32>, String, String, bool) {
    let mut child = Command::new(OPTIMOO)
        .args(["work", s(dir), "--unit", UNIT, "--threads", "1"])
        .args([
            "--time-limit",
            "600",
            "--keep-memo-every",
            "0.05",
            "--trace",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    let mut sent = false;
    let stderr = BufReader::new(child.stderr.take().unwrap());
    for line in stderr.lines() {
        let line = line.unwrap();
        if let (Some(sig), false) = (signal, sent) {
            if line.starts_with("begin ") {
                let pid = child.id().to_string();
                let status = Command::new("kill")
                    .args([&format!("-{sig}"), &pid])
                    .status()
                    .unwrap();
                assert!(status.success(), "kill -{sig} {pid}");
                sent = true;
            }
        }
        err.push_str(&line);
        err.push('\n');
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), stdout, err, sent)
}

#[test]
fn work_stopped_by_a_signal_keeps_its_work_and_ends_at_the_whole_value() {
    let whole = folder("signal-whole");
    ok(&["plan", "--game", GAME, "-o", s(&whole)]);
    ok(&["work", s(&whole), "--unit", UNIT, "--threads", "1"]);
    let want = unit_json(&whole, 6);
    assert_eq!(want["exact"], true);

    let dir = folder("signal-legs");
    ok(&["plan", "--game", GAME, "-o", s(&dir)]);
    let mut stopped = 0;
    for (k, sig) in ["INT", "TERM", "INT", "TERM"].into_iter().enumerate() {
        let (code, out, err, sent) = leg(&dir, Some(sig));
        let got = unit_json(&dir, 6);
        if code == Some(0) {
            // The unit ended before the signal came (or had no class to
            // search): it is exact, and no leg is left to stop.
            assert_eq!(got["exact"], true, "leg {k}: {out}{err}");
            break;
        }
        assert!(sent, "leg {k}: {out}{err}");
        assert_eq!(code, Some(130), "leg {k} (SIG{sig}): {out}{err}");
        assert!(
            out.contains("stopped by a signal, at least"),
            "leg {k}: {out}"
        );
        assert!(
            err.contains("interrupted: what each unit proved is kept"),
            "{err}"
        );
        // What the unit's file says: a true bound, kept with its progress.
        assert_eq!(got["stopped"], true, "leg {k}: {got}");
        assert!(got["value"].as_u64() <= want["value"].as_u64(), "{got}");
        assert!(dir.join("progress").join("6.json").exists(), "leg {k}");
        stopped += 1;
    }
    assert!(stopped >= 1, "no leg was stopped by its signal");
    // The last leg, to the end: the uninterrupted run's value and subtree,
    // and nothing left behind.
    let (code, out, err, _) = leg(&dir, None);
    assert_eq!(code, Some(0), "{out}{err}");
    let got = unit_json(&dir, 6);
    assert_eq!(got["exact"], true);
    assert_eq!(got["value"], want["value"]);
    assert_eq!(got["subtree"], want["subtree"]);
    assert!(!dir.join("progress").join("6.json").exists());
    assert!(!dir.join("memo").join("6.bin").exists());
}
