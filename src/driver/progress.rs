//! Progress of a long computation on the terminal, the one observer of
//! the command line: for a search, an indicatif spinner on stderr when it
//! is a terminal, and with `--verbose` a line per solved class of the first
//! guess; for a walk of the phased strategy over secrets (`eval`, `export`
//! on games of any size), a bar of the secrets solved with the time left
//! ([`Terminal::secrets`]).
//!
//! Invariants: everything goes to stderr; class lines are written with
//! `--verbose` only (above the spinner when there is one); nothing is
//! written when neither a terminal nor `--verbose` asks for it; a closed
//! stderr is ignored, never a panic.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use optimoo::observe::{ClassReport, Observer, Phase, Progress};

use crate::exit::Lossy;

/// Shows a long computation's progress on stderr.
pub struct Terminal {
    bar: Option<ProgressBar>,
    verbose: bool,
    /// Secrets solved so far (a walk's bar).
    solved: AtomicU64,
    /// Where lines go when no spinner is drawn (stderr; a buffer in tests).
    lines: Mutex<Lossy<Box<dyn Write + Send>>>,
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("bar", &self.bar)
            .field("verbose", &self.verbose)
            .finish_non_exhaustive()
    }
}

impl Terminal {
    /// A spinner if `bar` (stderr is a terminal and the output is not
    /// JSON), class lines if `verbose`.
    pub fn new(bar: bool, verbose: bool) -> Terminal {
        Terminal::with_lines(bar, verbose, Box::new(std::io::stderr()))
    }

    /// The same, its lines written to `lines` when no spinner is drawn.
    pub fn with_lines(bar: bool, verbose: bool, lines: Box<dyn Write + Send>) -> Terminal {
        let bar = bar.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Terminal {
            bar,
            verbose,
            solved: AtomicU64::new(0),
            lines: Mutex::new(Lossy(lines)),
        }
    }

    /// A bar of `len` secrets solved, with the time left, drawn when `bar`
    /// (stderr is a terminal and the output is not JSON): what a walk of
    /// the phased strategy tells through [`Observer::solved`].
    pub fn secrets(len: u64, bar: bool) -> Terminal {
        let bar = bar.then(|| {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} secrets, {elapsed_precise} elapsed, about {eta} left",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Terminal {
            bar,
            verbose: false,
            solved: AtomicU64::new(0),
            lines: Mutex::new(Lossy(Box::new(std::io::stderr()))),
        }
    }

    /// The secrets solved so far, as [`Observer::solved`] added them.
    pub fn solved_so_far(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }

    /// A line above the spinner (or on stderr without one).
    pub fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) if !bar.is_hidden() => bar.println(line),
            _ => {
                let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(lines, "{line}");
            }
        }
    }
}

impl Observer for Terminal {
    fn phase(&self, phase: Phase) {
        if let Some(bar) = &self.bar {
            match phase {
                Phase::Build => bar.set_message("building the tree"),
                Phase::Done => bar.finish_and_clear(),
                _ => {}
            }
        }
    }

    fn class_done(&self, report: &ClassReport) {
        if self.verbose {
            self.say(&report.to_string());
        }
    }

    fn progress(&self, progress: &Progress) {
        if let Some(bar) = &self.bar {
            bar.set_message(progress.to_string());
            bar.tick();
        }
    }

    fn solved(&self, secrets: u64) {
        let done = self.solved.fetch_add(secrets, Ordering::Relaxed) + secrets;
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use optimoo::search::Outcome;
    use std::sync::Arc;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn report() -> ClassReport {
        ClassReport {
            guess: "0123".into(),
            answer: "0A1B".into(),
            secrets: 7,
            outcome: Outcome::Exact(20).to_string(),
            seconds: 0.5,
            progress: Progress {
                classes_done: 1,
                nodes: 10,
                nodes_per_second: 20.0,
                memo_entries: 3,
                memo_hits: 1,
            },
        }
    }

    /// Class lines only with --verbose, with or without the spinner.
    #[test]
    fn class_lines_only_when_verbose() {
        for bar in [false, true] {
            let quiet = Shared::default();
            let t = Terminal::with_lines(bar, false, Box::new(quiet.clone()));
            t.class_done(&report());
            drop(t);
            assert!(quiet.0.lock().unwrap().is_empty(), "bar {bar}");
            let loud = Shared::default();
            Terminal::with_lines(false, true, Box::new(loud.clone())).class_done(&report());
            let text = String::from_utf8(loud.0.lock().unwrap().clone()).unwrap();
            assert!(text.starts_with("0123 0A1B: 7 secrets, cost 20"), "{text}");
        }
    }

    /// A walk's secrets add up, from any thread, with the bar drawn or
    /// not; a bar that is not drawn writes nothing.
    #[test]
    fn secrets_add_up() {
        for bar in [false, true] {
            let t = Terminal::secrets(100, bar);
            std::thread::scope(|s| {
                for _ in 0..4 {
                    s.spawn(|| {
                        for _ in 0..5 {
                            t.solved(3);
                        }
                    });
                }
            });
            assert_eq!(t.solved_so_far(), 60, "bar {bar}");
            if let Some(b) = &t.bar {
                assert_eq!(b.position(), 60);
            }
        }
    }
}
