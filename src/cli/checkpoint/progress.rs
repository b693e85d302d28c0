//! Where a unit's best-first run stands, kept between runs:
//! `DIR/progress/I.json` ([`ProgressFile`]), written by `work
//! --time-limit` and `work --bound-only` while a unit of a whole class
//! runs and when it stops short of its exact cost, and read by the next
//! run of the unit to go on from there ([`plan::UnitProgress`]).
//!
//! Invariants:
//! - It only ever saves work: every bound in it was proven by a run of the
//!   unit under the plan it names (checked: format, `plan_id`, unit, a
//!   SHA-256 over canonical bytes against accidental corruption, not
//!   forgery; `merge --audit` re-solves what units claim), and the library
//!   takes up a second guess only when its classes match. A file that
//!   does not pass is refused by name, never silently dropped.
//! - Written to a temporary file in `progress/`, synced, then renamed into
//!   place: a run killed mid-write leaves the previous file whole. Removed
//!   when the unit's file holds its final result (exact, or refuted).
//! - Its size is bounded when read: a second guess's classes are at most
//!   the game's answers, and there are at most as many second guesses as
//!   codes.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use optimoo::search::plan::{self, ClassProgress, SecondProgress, Stage};

use super::files::{read_or_refuse, Canon};
use super::Folder;

/// The folder of progress files.
pub const PROGRESS_DIR: &str = "progress";
/// `format` of a progress file.
pub const PROGRESS_FORMAT: &str = "optimoo-progress/1";

/// `DIR/progress/I.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressFile {
    /// Always [`PROGRESS_FORMAT`].
    pub format: String,
    /// The plan it belongs to.
    pub plan_id: String,
    /// The unit's index.
    pub unit: usize,
    /// The cut-off its bounds were proven under.
    pub cutoff: u64,
    /// The best lower bound of the unit proven (for the reader: the unit
    /// file keeps it too).
    pub bound: u64,
    /// Wall seconds of every run that went into it, added up.
    pub seconds: f64,
    /// The second guesses still in the race, in the search's order.
    pub guesses: Vec<GuessProgress>,
    /// SHA-256 of every other field ([`ProgressFile::compute_sha256`]).
    pub sha256: String,
}

/// One second guess of a [`ProgressFile`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessProgress {
    /// The guess, as written in the game.
    pub guess: String,
    /// Whether every class was raised by its one-step lookahead.
    pub raised: bool,
    /// Each class's lower bound, in the order of their answers.
    pub lower: Vec<u64>,
    /// How far each class was raised, a letter per class: `b` its bound
    /// (level or one-step), `t` two levels down, `3` to `9` that many
    /// levels down, `e` exact.
    pub stage: String,
}

impl ProgressFile {
    /// The SHA-256 of the canonical bytes of every field but `sha256`, in
    /// order.
    pub fn compute_sha256(&self) -> String {
        let mut c = Canon::new(&self.format);
        c.field("plan_id").str(&self.plan_id);
        c.field("unit").int(self.unit as u64);
        c.field("cutoff").int(self.cutoff);
        c.field("bound").int(self.bound);
        c.field("seconds").real(self.seconds);
        c.field("guesses").len(self.guesses.len());
        for g in &self.guesses {
            c.str(&g.guess).bool(g.raised).len(g.lower.len());
            for &b in &g.lower {
                c.int(b);
            }
            c.str(&g.stage);
        }
        c.finish()
    }
}

impl Folder {
    /// Path of unit `i`'s progress file.
    pub fn progress_path(&self, i: usize) -> PathBuf {
        self.dir.join(PROGRESS_DIR).join(format!("{i}.json"))
    }

    /// Reads unit `i`'s progress: `None` when absent; an error naming the
    /// file when it is corrupt, foreign or of another unit. Also returns
    /// the wall seconds already spent on it.
    pub fn read_progress(&self, i: usize) -> anyhow::Result<Option<(plan::UnitProgress, f64)>> {
        let path = self.progress_path(i);
        let bad = |why: &str| {
            anyhow::anyhow!(
                "{} is refused: {why}; delete it to run the unit from its start",
                path.display()
            )
        };
        // Per code of the game: a guess of a few bytes, per class a bound
        // of up to 20 digits and its letter, for each of the answers.
        let k = self.game.positions();
        let answers = (k + 1) * (k + 2) / 2;
        let max = (1 << 20) + self.game.len() as u64 * (64 + 24 * answers as u64);
        let Some(bytes) = read_or_refuse(&path, max, |why| bad(&why))? else {
            return Ok(None);
        };
        let f: ProgressFile =
            serde_json::from_slice(&bytes).map_err(|e| bad(&format!("corrupt ({e})")))?;
        if f.format != PROGRESS_FORMAT {
            return Err(bad(&format!(
                "not an optimoo progress file of this version (format {:?}, not \
                 {PROGRESS_FORMAT})",
                f.format
            )));
        }
        if f.plan_id != self.file.plan_id {
            return Err(bad(&format!(
                "it belongs to another plan ({}, this folder's is {})",
                f.plan_id, self.file.plan_id
            )));
        }
        if f.unit != i {
            return Err(bad(&format!("it holds unit {}, not unit {i}", f.unit)));
        }
        if f.compute_sha256() != f.sha256 {
            return Err(bad("corrupt (its sha256 does not match its contents)"));
        }
        if !(f.seconds.is_finite() && f.seconds >= 0.0) {
            return Err(bad(&format!("its seconds ({}) is not a time", f.seconds)));
        }
        let mut seconds = Vec::with_capacity(f.guesses.len());
        for g in &f.guesses {
            let guess = self
                .game
                .parse_code(&g.guess)
                .map_err(|e| bad(&format!("guess {:?}: {e}", g.guess)))?;
            if g.stage.len() != g.lower.len() {
                return Err(bad(&format!(
                    "guess {}: {} classes but {} stages",
                    g.guess,
                    g.lower.len(),
                    g.stage.len()
                )));
            }
            let mut classes = Vec::with_capacity(g.lower.len());
            for (&lower, s) in g.lower.iter().zip(g.stage.chars()) {
                let stage = match s {
                    'b' => Stage::Bound,
                    't' => Stage::Down(2),
                    '3'..='9' => Stage::Down(s as u8 - b'0'),
                    'e' => Stage::Exact,
                    other => {
                        return Err(bad(&format!("guess {}: stage {other:?}", g.guess)));
                    }
                };
                classes.push(ClassProgress { lower, stage });
            }
            seconds.push(SecondProgress {
                guess,
                raised: g.raised,
                classes,
            });
        }
        let progress = plan::UnitProgress {
            cutoff: f.cutoff,
            seconds,
        };
        Ok(Some((progress, f.seconds)))
    }

    /// Writes unit `i`'s progress (its best bound `bound`, `seconds` of
    /// wall in all), replacing the last.
    pub fn write_progress(
        &self,
        i: usize,
        progress: &plan::UnitProgress,
        bound: u64,
        seconds: f64,
    ) -> anyhow::Result<()> {
        let path = self.progress_path(i);
        let dir = self.dir.join(PROGRESS_DIR);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let guesses = progress
            .seconds
            .iter()
            .map(|h| GuessProgress {
                guess: self.game.format_code(h.guess),
                raised: h.raised,
                lower: h.classes.iter().map(|c| c.lower).collect(),
                stage: h
                    .classes
                    .iter()
                    .map(|c| match c.stage {
                        Stage::Bound => 'b',
                        Stage::Down(2) => 't',
                        Stage::Down(k) => char::from(b'0' + k.clamp(3, 9)),
                        Stage::Exact => 'e',
                    })
                    .collect(),
            })
            .collect();
        let mut f = ProgressFile {
            format: PROGRESS_FORMAT.to_string(),
            plan_id: self.file.plan_id.clone(),
            unit: i,
            cutoff: progress.cutoff,
            bound,
            seconds,
            guesses,
            sha256: String::new(),
        };
        f.sha256 = f.compute_sha256();
        let mut temp = crate::cli::output::new_file(&format!(".{i}.json."))
            .tempfile_in(&dir)
            .with_context(|| format!("cannot write in {}", dir.display()))?;
        // One second guess per line: diffs of a committed run stay short.
        let mut text = serde_json::to_string_pretty(&ProgressFile {
            guesses: Vec::new(),
            ..f.clone()
        })?;
        let mut lines = Vec::with_capacity(f.guesses.len());
        for g in &f.guesses {
            lines.push(format!("    {}", serde_json::to_string(g)?));
        }
        let list = if lines.is_empty() {
            "[]".to_string()
        } else {
            format!("[\n{}\n  ]", lines.join(",\n"))
        };
        let empty = "\"guesses\": []";
        if !text.contains(empty) {
            bail!("cannot lay out {}", path.display());
        }
        text = text.replacen(empty, &format!("\"guesses\": {list}"), 1) + "\n";
        temp.write_all(text.as_bytes())
            .and_then(|_| temp.as_file().sync_all())
            .with_context(|| format!("cannot write {}", path.display()))?;
        temp.persist(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }

    /// Removes unit `i`'s progress, if any (its file holds the final
    /// result).
    pub fn remove_progress(&self, i: usize) -> anyhow::Result<()> {
        let path = self.progress_path(i);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
        }
    }
}
