//! Progress of a search on the terminal: an indicatif spinner on stderr
//! when it is a terminal, and with `--verbose` a line per solved class of
//! the first guess.
//!
//! Invariant: everything goes to stderr; nothing here is written when
//! neither a terminal nor `--verbose` asks for it.

use indicatif::{ProgressBar, ProgressStyle};
use optimoo::search::observe::{ClassReport, Observer, Phase, Progress};

/// Shows a search's progress on stderr.
#[derive(Debug)]
pub struct Terminal {
    bar: Option<ProgressBar>,
    verbose: bool,
}

impl Terminal {
    /// A spinner if `bar` (stderr is a terminal and the output is not
    /// JSON), class lines if `verbose`.
    pub fn new(bar: bool, verbose: bool) -> Terminal {
        let bar = bar.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Terminal { bar, verbose }
    }

    /// A line above the spinner (or on stderr without one).
    pub fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
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
        if self.verbose || self.bar.is_some() {
            self.say(&report.to_string());
        }
    }

    fn progress(&self, progress: &Progress) {
        if let Some(bar) = &self.bar {
            bar.set_message(progress.to_string());
            bar.tick();
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
