//! `optimoo static --checkpoint FILE`: the tasks a static search refuted,
//! kept in a JSON file so that a run stopped (by its budget, a signal, the
//! end of a session) resumes where it was (docs/static.md, "Resuming").
//!
//! The file, version 1:
//! `{"format": "optimoo-static-checkpoint", "version": 1, "game": NAME,
//! "secrets": N, "least_pair": BOOL, "levels": [{"size": T, "tasks": K,
//! "tasks_sha256": HEX, "refuted": [[A, B], ...], "nodes": N,
//! "task_seconds": S}, ...]}`: for each size searched, its task list
//! (the SHA-256 of the tasks' first guesses, in order) and the tasks
//! refuted, as sorted ranges `A..=B` of task indices, with the nodes and
//! the threads' seconds they took, summed over the runs.
//!
//! Invariants:
//! - A task is written only after the search reports it refuted (run to its
//!   end); the file is rewritten whole, to a temporary file then renamed,
//!   at most every [`SAVE_EVERY`] and once at the end, so a crash loses at
//!   most the tasks of the last interval, never the file.
//! - A file of another game, of the other setting of the least-pair cut,
//!   or whose task list of a size differs (another version's cut of the
//!   search), is refused by name: never a task skipped that was not
//!   refuted for the very same list.
//! - The file is read with a bound ([`MAX_BYTES`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use optimoo::model::Game;
use optimoo::static_game::search::{StaticJournal, TaskList};

use crate::cli::checkpoint::files::{hex, read_bounded};
use crate::cli::output::Output;

/// The format's name in the file.
const FORMAT: &str = "optimoo-static-checkpoint";
/// The format's version.
const VERSION: u32 = 1;
/// Longest file read: 64 MiB (a size of a million tasks, every other one
/// refuted, takes about 20 MiB).
const MAX_BYTES: u64 = 64 << 20;
/// Least time between two writes of the file.
const SAVE_EVERY: Duration = Duration::from_secs(30);

/// The file's contents.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    game: String,
    secrets: usize,
    least_pair: bool,
    levels: Vec<Level>,
}

/// One size's tasks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Level {
    size: usize,
    tasks: usize,
    tasks_sha256: String,
    refuted: Vec<[usize; 2]>,
    nodes: u64,
    task_seconds: f64,
}

/// A size's state in memory.
#[derive(Debug)]
struct Tasks {
    size: usize,
    tasks: usize,
    sha: String,
    refuted: BTreeSet<usize>,
    nodes: u64,
    seconds: f64,
}

/// What one size's journal says, for the summary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeTotals {
    /// The set size.
    pub size: usize,
    /// Tasks in all.
    pub tasks: usize,
    /// Tasks refuted, all runs.
    pub refuted: usize,
    /// Their nodes, all runs.
    pub nodes: u64,
    /// Their threads' seconds, all runs.
    pub task_seconds: f64,
}

#[derive(Debug)]
struct State {
    levels: Vec<Tasks>,
    saved: Instant,
    dirty: bool,
}

/// The journal of `optimoo static --checkpoint FILE`.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    game: String,
    secrets: usize,
    least_pair: bool,
    state: Mutex<State>,
}

impl Journal {
    /// Opens the journal at `path` for `game` (a new one when the file
    /// does not exist; it is written at the first save).
    pub fn open(path: &Path, game: &Game, least_pair: bool) -> anyhow::Result<Journal> {
        let name = game.name();
        let secrets = game.secrets().len();
        let what = || format!("cannot resume from {}", path.display());
        let levels = match read_bounded(path, MAX_BYTES).with_context(what)? {
            None => Vec::new(),
            Some(bytes) => {
                let file: File = serde_json::from_slice(&bytes)
                    .with_context(|| format!("{} is not a static checkpoint", path.display()))
                    .with_context(what)?;
                if file.format != FORMAT || file.version != VERSION {
                    bail!(
                        "{} is not a static checkpoint of version {VERSION} (format {:?}, version {})",
                        path.display(),
                        file.format,
                        file.version
                    );
                }
                if file.game != name || file.secrets != secrets {
                    bail!(
                        "{} is the checkpoint of {} ({} secrets), not of {name} ({secrets} secrets)",
                        path.display(),
                        file.game,
                        file.secrets
                    );
                }
                if file.least_pair != least_pair {
                    bail!(
                        "{} was written {} the least-pair cut; run {} --no-least-pair, or use another file",
                        path.display(),
                        if file.least_pair { "with" } else { "without" },
                        if file.least_pair { "without" } else { "with" }
                    );
                }
                let levels = file
                    .levels
                    .into_iter()
                    .map(|l| Tasks::from_file(l).with_context(what))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                let mut sizes: Vec<usize> = levels.iter().map(|l| l.size).collect();
                sizes.sort_unstable();
                if let Some(w) = sizes.windows(2).find(|w| w[0] == w[1]) {
                    bail!("{}: size {} is there twice", path.display(), w[0]);
                }
                levels
            }
        };
        Ok(Journal {
            path: path.to_path_buf(),
            game: name,
            secrets,
            least_pair,
            state: Mutex::new(State {
                levels,
                saved: Instant::now(),
                dirty: false,
            }),
        })
    }

    /// The sizes held, in order of size.
    pub fn totals(&self) -> Vec<SizeTotals> {
        let state = self.lock();
        let mut out: Vec<SizeTotals> = state
            .levels
            .iter()
            .map(|l| SizeTotals {
                size: l.size,
                tasks: l.tasks,
                refuted: l.refuted.len(),
                nodes: l.nodes,
                task_seconds: l.seconds,
            })
            .collect();
        out.sort_by_key(|t| t.size);
        out
    }

    /// Writes the file if anything changed since the last write.
    pub fn save(&self) -> anyhow::Result<()> {
        let mut state = self.lock();
        if state.dirty {
            self.write(&mut state)?;
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self, state: &mut State) -> anyhow::Result<()> {
        let mut levels: Vec<Level> = state.levels.iter().map(Tasks::to_file).collect();
        levels.sort_by_key(|l| l.size);
        let file = File {
            format: FORMAT.to_string(),
            version: VERSION,
            game: self.game.clone(),
            secrets: self.secrets,
            least_pair: self.least_pair,
            levels,
        };
        let mut text = serde_json::to_string_pretty(&file).expect("a checkpoint serializes");
        text.push('\n');
        Output::create(&self.path)?.commit(text.as_bytes())?;
        state.saved = Instant::now();
        state.dirty = false;
        Ok(())
    }
}

impl StaticJournal for Journal {
    fn refuted(&self, list: &TaskList<'_>) -> Result<Vec<usize>, String> {
        let mut hash = Sha256::new();
        for prefix in list.prefixes {
            hash.update((prefix.len() as u16).to_le_bytes());
            for code in prefix {
                hash.update(code.0.to_le_bytes());
            }
        }
        let sha = hex(&hash.finalize());
        let tasks = list.prefixes.len();
        if tasks == 0 {
            // Refuted by the bounds alone: nothing to keep.
            return Ok(Vec::new());
        }
        let mut state = self.lock();
        match state.levels.iter().find(|l| l.size == list.size) {
            Some(l) if l.tasks != tasks || l.sha != sha => Err(format!(
                "{} holds another task list for size {} ({} tasks, SHA-256 {}; this run has {tasks}, {sha}): \
                 it was written by another version of optimoo; use another file",
                self.path.display(),
                list.size,
                l.tasks,
                l.sha
            )),
            Some(l) => Ok(l.refuted.iter().copied().collect()),
            None => {
                state.levels.push(Tasks {
                    size: list.size,
                    tasks,
                    sha,
                    refuted: BTreeSet::new(),
                    nodes: 0,
                    seconds: 0.0,
                });
                Ok(Vec::new())
            }
        }
    }

    fn refute(&self, size: usize, task: usize, nodes: u64, seconds: f64) -> Result<(), String> {
        let mut state = self.lock();
        let Some(level) = state.levels.iter_mut().find(|l| l.size == size) else {
            return Err(format!(
                "task {task} of size {size} refuted before its list was opened"
            ));
        };
        if level.refuted.insert(task) {
            level.nodes += nodes;
            level.seconds += seconds;
        }
        state.dirty = true;
        if state.saved.elapsed() >= SAVE_EVERY {
            self.write(&mut state).map_err(|e| format!("{e:#}"))?;
        }
        Ok(())
    }
}

impl Tasks {
    fn from_file(l: Level) -> anyhow::Result<Tasks> {
        let mut refuted = BTreeSet::new();
        let mut last = None;
        for [a, b] in l.refuted {
            if a > b || b >= l.tasks || last.is_some_and(|x| a <= x) {
                bail!(
                    "size {}: the refuted ranges must be sorted, apart and below {} tasks (met {a}..={b})",
                    l.size,
                    l.tasks
                );
            }
            refuted.extend(a..=b);
            last = Some(b);
        }
        Ok(Tasks {
            size: l.size,
            tasks: l.tasks,
            sha: l.tasks_sha256,
            refuted,
            nodes: l.nodes,
            seconds: l.task_seconds,
        })
    }

    fn to_file(&self) -> Level {
        let mut ranges: Vec<[usize; 2]> = Vec::new();
        for &i in &self.refuted {
            match ranges.last_mut() {
                Some(r) if r[1] + 1 == i => r[1] = i,
                _ => ranges.push([i, i]),
            }
        }
        Level {
            size: self.size,
            tasks: self.tasks,
            tasks_sha256: self.sha.clone(),
            refuted: ranges,
            nodes: self.nodes,
            task_seconds: self.seconds,
        }
    }
}
