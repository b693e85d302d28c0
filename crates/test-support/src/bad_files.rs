//! Tree files no reader may read in full: a link to /dev/zero, huge sparse
//! files, endless FIFOs; and a watcher for the processes that must refuse
//! them. The library's reader is checked on them in
//! crates/optimoo/tests/format.rs, `optimoo verify` and `optimoo export` in
//! the top tests/format.rs, `moo --tree` in crates/moo/tests/format.rs,
//! their time and memory limits in the `limits` modules (ignored by
//! default: scripts/memory-check.sh runs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::tree::format::TreeFile;

use crate::trees::{random_tree, scratch};

/// A child still running after this long is killed (a reader that does not
/// stop): the test then fails on its exit code instead of hanging.
const GUARD: Duration = Duration::from_secs(20);
/// A child whose peak memory passes this is killed (a reader that reads on
/// and on): the test then fails instead of eating the machine.
const GUARD_KB: u64 = 200 * 1024;

/// A bad tree file: a path on disk, or a FIFO made anew (and fed without
/// end) for each reader.
pub enum BadFile {
    File(PathBuf),
    /// A FIFO at `path` fed `head`, then zeros until its reader goes.
    Fifo {
        path: PathBuf,
        head: Vec<u8>,
    },
}

impl BadFile {
    pub fn path(&self) -> &Path {
        match self {
            BadFile::File(p) | BadFile::Fifo { path: p, .. } => p,
        }
    }

    pub fn path_str(&self) -> &str {
        self.path().to_str().unwrap()
    }

    /// Before each reader: makes a FIFO anew and starts its writer (nothing
    /// for a plain file); [`Writer::finish`] after the reader is done.
    ///
    /// One writer per reader, joined before the next one opens the pipe: it
    /// writes the head, then zeros until the reader has gone. Each reader
    /// gets a FIFO made anew: a child that another test forks at the wrong
    /// moment inherits the last writer's end until it execs, which keeps the
    /// old pipe, and the zeros left in it, alive (seen once under heavy
    /// load: the next reader started with zeros).
    pub fn feed(&self) -> Option<Writer> {
        let BadFile::Fifo { path, head } = self else {
            return None;
        };
        let _ = std::fs::remove_file(path);
        let made = Command::new("mkfifo").arg(path).status();
        assert!(
            made.as_ref().is_ok_and(|s| s.success()),
            "mkfifo {} (GNU coreutils) is needed to test FIFOs: {made:?}",
            path.display()
        );
        let (path, head) = (path.clone(), head.clone());
        let fifo = path.clone();
        let handle = std::thread::spawn(move || {
            use std::io::Write;
            let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(&path) else {
                return;
            };
            let _ = w.write_all(&head);
            while w.write_all(&[0u8; 4096]).is_ok() {}
        });
        Some(Writer { fifo, handle })
    }
}

/// The writer of a FIFO, started by [`BadFile::feed`].
pub struct Writer {
    fifo: PathBuf,
    handle: JoinHandle<()>,
}

impl Writer {
    /// Lets the writer go on if it still waits for a reader, and joins it:
    /// opens the FIFO for reading without blocking (a blocking open would
    /// wait forever for a writer that has already finished) and closes it
    /// at once, so the writer's next write fails and it ends.
    pub fn finish(self) {
        use std::os::unix::fs::OpenOptionsExt;
        /// `O_NONBLOCK` on Linux.
        const O_NONBLOCK: i32 = 0o4000;
        // Until it ends: it may not have reached its own open yet.
        let start = Instant::now();
        while !self.handle.is_finished() && start.elapsed().as_secs() < 10 {
            let _ = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(O_NONBLOCK)
                .open(&self.fifo);
            std::thread::sleep(Duration::from_millis(5));
        }
        self.handle.join().unwrap();
    }
}

/// A good tree file of `game` (a random tree).
pub fn good_bytes(game: &str, choices: &[u32]) -> Vec<u8> {
    let game = Game::new(game.parse().unwrap());
    let tree = random_tree(&game, choices);
    let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    file.to_bytes(&game).unwrap()
}

/// Measured bug: `optimoo verify` on a link to /dev/zero read the whole
/// "file" and grew to 9.9 GB. The file and the words of its refusal.
pub fn dev_zero(tag: &str) -> Vec<(BadFile, &'static str)> {
    let link = scratch(&format!("{tag}-zero.tree"));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    vec![(BadFile::File(link), "not an optimoo tree file")]
}

/// A good header followed by a huge sparse tail (to be read up to the
/// declared length and one byte more), and a length field above any file
/// of the game (to be refused before reading on), 4 GiB each, sparse.
pub fn sparse(tag: &str) -> Vec<(BadFile, &'static str)> {
    let bytes = good_bytes("moo:3x5", &[1, 2, 3]);
    let tail = scratch(&format!("{tag}-sparse-tail.tree"));
    std::fs::write(&tail, &bytes).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&tail).unwrap();
    file.set_len(4 << 30).unwrap();
    drop(file);

    let mut long = bytes;
    long[5..9].copy_from_slice(&u32::MAX.to_le_bytes());
    let claim = scratch(&format!("{tag}-sparse-claim.tree"));
    std::fs::write(&claim, &long).unwrap();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&claim)
        .unwrap();
    file.set_len(u32::MAX as u64).unwrap();
    drop(file);
    vec![
        (BadFile::File(tail), "unexpected bytes after the end"),
        (BadFile::File(claim), "no moo:3x5 tree file has more than"),
    ]
}

/// Named pipes fed without end: a good file and then garbage, or zeros.
pub fn fifos(tag: &str) -> Vec<(BadFile, &'static str)> {
    vec![
        (
            BadFile::Fifo {
                path: scratch(&format!("{tag}-fifo-good.tree")),
                head: good_bytes("mm:2x3", &[0]),
            },
            "unexpected bytes after the end",
        ),
        (
            BadFile::Fifo {
                path: scratch(&format!("{tag}-fifo-zero.tree")),
                head: vec![0u8; 64],
            },
            "not an optimoo tree file",
        ),
    ]
}

/// What [`refused`] saw of a child process.
pub struct Watched {
    pub code: Option<i32>,
    pub stderr: String,
    pub seconds: f64,
    /// Peak resident memory (VmHWM) in kB, of the last sample read: it may
    /// miss a child that exits at once ([`peak_kb`] measures exactly).
    pub sampled_kb: u64,
}

/// Runs `bin args` (which read `file`, fed anew when a FIFO), sampling its
/// peak memory (`VmHWM` in /proc/PID/status) every 0.2 ms until it exits,
/// and asserts that it refuses the file: exit code 2 and `words` on
/// stderr. A child still running after 20 s or above 200 MB is killed
/// first (the guard: the test fails rather than hang or eat the machine).
pub fn refused(bin: &str, args: &[&str], file: &BadFile, words: &str) -> Watched {
    use std::io::Read;
    let writer = file.feed();
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let mut killed = false;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak_kb = peak_kb.max(hwm.unwrap_or(0));
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > GUARD || peak_kb > GUARD_KB {
            killed = true;
            child.kill().unwrap();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_micros(200));
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    if let Some(writer) = writer {
        writer.finish();
    }
    let w = Watched {
        code: status.code(),
        stderr,
        seconds,
        sampled_kb: peak_kb,
    };
    eprintln!(
        "{bin} {args:?}: exit {:?} in {:.3} s, peak {:.1} MB (sampled)",
        w.code,
        w.seconds,
        w.sampled_kb as f64 / 1024.0
    );
    assert!(
        !killed,
        "{args:?} killed: still reading after {:.1} s, {} kB",
        w.seconds, w.sampled_kb
    );
    assert_eq!(w.code, Some(2), "{args:?}: {}", w.stderr);
    assert!(w.stderr.contains(words), "{args:?}: {}", w.stderr);
    w
}

/// Every kind of bad file, tagged `tag`: a link to /dev/zero, huge sparse
/// files, endless FIFOs.
pub fn every_kind(tag: &str) -> Vec<(BadFile, &'static str)> {
    [dev_zero(tag), sparse(tag), fifos(tag)]
        .into_iter()
        .flatten()
        .collect()
}

/// Runs `bin` with each of `commands` on every bad file of `tag` (`FILE`
/// in a command stands for the file's path): each must refuse it
/// ([`refused`]); `then` is told each run.
pub fn refused_by(
    bin: &str,
    commands: &[&[&str]],
    tag: &str,
    then: impl Fn(&[&str], &BadFile, &Watched),
) {
    for (file, words) in every_kind(tag) {
        for command in commands {
            let args: Vec<&str> = command
                .iter()
                .map(|&a| if a == "FILE" { file.path_str() } else { a })
                .collect();
            let w = refused(bin, &args, &file, words);
            then(&args, &file, &w);
        }
    }
}

/// [`refused_by`], each refusal within a second and 50 MB (sampled while
/// it runs, then exactly by GNU time).
pub fn refused_within_limits(bin: &str, commands: &[&[&str]]) {
    refused_by(bin, commands, "limits", |args, file, w| {
        assert!(w.seconds < 1.0, "{args:?} took {:.3} s", w.seconds);
        let sampled = w.sampled_kb;
        assert!(sampled < 50 * 1024, "{args:?} used {sampled} kB");
        // Sampling can miss a child that exits at once: exactly.
        let kb = peak_kb(bin, args, Some(file));
        assert!(kb < 50 * 1024, "{args:?} used {kb} kB");
    });
}

/// GNU time, which measures a child's peak memory exactly.
const GNU_TIME: &str = "/usr/bin/time";

/// Peak resident memory (kB) of `bin args`, measured by GNU time (feeding
/// `file` first when it is a FIFO). Fails when GNU time is missing: the
/// tests that measure are ignored by default, and run on purpose.
pub fn peak_kb(bin: &str, args: &[&str], file: Option<&BadFile>) -> u64 {
    assert!(
        Path::new(GNU_TIME).is_file(),
        "{GNU_TIME} is needed to measure peak memory (Debian package `time`)"
    );
    // One report file per run: tests run side by side in this process.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let report = scratch(&format!("max-rss-{run}.txt"));
    let writer = file.and_then(BadFile::feed);
    let status = Command::new(GNU_TIME)
        .args(["-f", "%M", "-o", report.to_str().unwrap(), bin])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    if let Some(writer) = writer {
        writer.finish();
    }
    let text = std::fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("{GNU_TIME} wrote no report ({status}): {e}"));
    let kb: u64 = text
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("{GNU_TIME}: no peak in {text:?}"));
    eprintln!(
        "{bin} {args:?}: peak {:.1} MB ({status})",
        kb as f64 / 1024.0
    );
    kb
}
