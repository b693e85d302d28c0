//! `optimoo static --checkpoint FILE`: the tasks a static search refuted,
//! kept in a JSON file so that a run stopped (by its budget, a signal, the
//! end of a session) resumes where it was (docs/static.md, "Resuming").
//!
//! The file, version 1:
//! `{"format": "optimoo-static-checkpoint", "version": 1, "game": NAME,
//! "secrets": N, "least_pair": BOOL, "levels": [{"size": T, "tasks": K,
//! "tasks_sha256": HEX, "refuted": "A-B,C,...", "begun": "I:G,...",
//! "nodes": N, "task_seconds": S}, ...]}`: for each size searched, its
//! task list (the SHA-256 of the tasks' first guesses, in order), the
//! tasks refuted, as sorted ranges of task indices (`A-B` from A to B,
//! `C` alone), the tasks begun (`I:G`: task I has every guess below index
//! G refuted at its first free depth), and the nodes and the threads'
//! seconds all that took, summed over the runs.
//!
//! Invariants:
//! - A task is written only after the search reports it refuted (run to its
//!   end); the file is rewritten whole, to a temporary file then renamed,
//!   at most every `SAVE_EVERY` and once at the end, so a crash loses at
//!   most the tasks of the last interval, never the file.
//! - A file of another game, of the other setting of the least-pair cut,
//!   or whose task list of a size differs (another version's cut of the
//!   search), is refused by name: never a task skipped that was not
//!   refuted for the very same list.
//! - The file is read with a bound (`MAX_BYTES`).
//! - Merging shards ([`Journal::merge`]) only adds what a shard's own run
//!   refuted to a file it was copied from: a shard of another game, cut
//!   or task list, or one that lacks a task the file holds refuted, is
//!   refused by name.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use optimoo::model::Game;
use optimoo::static_game::search::{Resume, StaticJournal, TaskList};

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
    refuted: String,
    #[serde(default)]
    begun: String,
    nodes: u64,
    task_seconds: f64,
}

/// A size's state in memory.
#[derive(Debug, Clone)]
struct Tasks {
    size: usize,
    tasks: usize,
    sha: String,
    /// `refuted[i]`: task `i` is refuted.
    refuted: Vec<bool>,
    /// How many are.
    count: usize,
    /// Tasks begun: task → the guess index every guess below is refuted.
    begun: std::collections::BTreeMap<usize, usize>,
    nodes: u64,
    seconds: f64,
}

/// What one size's journal says, for the summary and the JSON report
/// (its `checkpoint` list).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SizeTotals {
    /// The set size.
    pub size: usize,
    /// Tasks in all.
    pub tasks: usize,
    /// Tasks refuted, all runs.
    pub refuted: usize,
    /// Tasks begun and not refuted.
    pub begun: usize,
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
                refuted: l.count,
                begun: l.begun.len(),
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

    /// Merges into this journal the checkpoints of shards (`optimoo static
    /// --shard`), each a copy of this file run further: a task refuted in
    /// any is refuted, a task begun keeps its furthest point, and the
    /// nodes and seconds each shard added to what this file held are
    /// summed. A shard must exist, be of the same game, cut and task
    /// lists, and hold refuted every task this file holds refuted (else it
    /// is not a copy of this file run further, or this file changed since:
    /// the shards of one round are merged at once).
    pub fn merge(&self, shards: &[PathBuf], game: &Game) -> anyhow::Result<()> {
        let mut state = self.lock();
        let original = state.levels.clone();
        let mut seen = std::collections::HashSet::new();
        for path in shards {
            if !path.exists() {
                bail!("cannot merge {}: no such file", path.display());
            }
            // Its nodes and seconds would be counted twice.
            let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            if !seen.insert(same) {
                bail!("cannot merge {}: it is given twice", path.display());
            }
            let shard = Journal::open(path, game, self.least_pair)?;
            let levels = shard
                .state
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .levels;
            for level in levels {
                let base = original.iter().find(|b| b.size == level.size);
                if let Some(b) = base {
                    if (b.tasks, &b.sha) != (level.tasks, &level.sha) {
                        bail!(
                            "cannot merge {}: its task list of size {} differs from {}'s (another version or --tasks)",
                            path.display(),
                            level.size,
                            self.path.display()
                        );
                    }
                    let lost = (0..b.tasks).find(|&i| b.refuted[i] && !level.refuted[i]);
                    if lost.is_some() || level.nodes < b.nodes || level.seconds < b.seconds {
                        bail!(
                            "cannot merge {}: it is not {} run further (size {}{}); \
                             each shard starts from a copy of the file it is merged into, \
                             and the shards of one round are merged at once",
                            path.display(),
                            self.path.display(),
                            level.size,
                            lost.map(|i| format!(
                                ": task {i} is refuted in the file, not in the shard"
                            ))
                            .unwrap_or_default()
                        );
                    }
                }
                let (nodes, seconds) = base.map_or((0, 0.0), |b| (b.nodes, b.seconds));
                let at = match state.levels.iter().position(|t| t.size == level.size) {
                    Some(at) => at,
                    None => {
                        state.levels.push(Tasks {
                            refuted: vec![false; level.tasks],
                            count: 0,
                            begun: Default::default(),
                            nodes: 0,
                            seconds: 0.0,
                            ..level.clone()
                        });
                        state.levels.len() - 1
                    }
                };
                let target = &mut state.levels[at];
                if (target.tasks, &target.sha) != (level.tasks, &level.sha) {
                    bail!(
                        "cannot merge {}: its task list of size {} differs from another shard's",
                        path.display(),
                        level.size
                    );
                }
                for i in 0..level.tasks {
                    if level.refuted[i] && !target.refuted[i] {
                        target.refuted[i] = true;
                        target.count += 1;
                        target.begun.remove(&i);
                    }
                }
                for (&i, &g) in &level.begun {
                    if !target.refuted[i] {
                        let at = target.begun.entry(i).or_insert(0);
                        *at = (*at).max(g);
                    }
                }
                target.nodes += level.nodes - nodes;
                target.seconds += level.seconds - seconds;
            }
        }
        state.dirty = true;
        Ok(())
    }
}

impl StaticJournal for Journal {
    fn resume(&self, list: &TaskList<'_>) -> Result<Resume, String> {
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
            return Ok(Resume::default());
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
            Some(l) => Ok(Resume {
                refuted: (0..tasks).filter(|&i| l.refuted[i]).collect(),
                begun: l.begun.iter().map(|(&i, &g)| (i, g)).collect(),
            }),
            None => {
                state.levels.push(Tasks {
                    size: list.size,
                    tasks,
                    sha,
                    refuted: vec![false; tasks],
                    count: 0,
                    begun: Default::default(),
                    nodes: 0,
                    seconds: 0.0,
                });
                Ok(Resume::default())
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
        let Some(done) = level.refuted.get_mut(task) else {
            return Err(format!(
                "task {task} of size {size} is not one of its {}",
                level.tasks
            ));
        };
        if !*done {
            *done = true;
            level.count += 1;
            level.nodes += nodes;
            level.seconds += seconds;
            level.begun.remove(&task);
        }
        self.changed(&mut state)
    }

    fn advance(
        &self,
        size: usize,
        task: usize,
        next: usize,
        nodes: u64,
        seconds: f64,
    ) -> Result<(), String> {
        let mut state = self.lock();
        let Some(level) = state.levels.iter_mut().find(|l| l.size == size) else {
            return Err(format!(
                "task {task} of size {size} begun before its list was opened"
            ));
        };
        if task >= level.tasks || level.refuted[task] {
            return Err(format!(
                "task {task} of size {size} advanced, but it is refuted or not one of its {}",
                level.tasks
            ));
        }
        let at = level.begun.entry(task).or_insert(0);
        *at = (*at).max(next);
        level.nodes += nodes;
        level.seconds += seconds;
        self.changed(&mut state)
    }
}

impl Journal {
    /// Marks the state changed; writes it if the last write is old.
    fn changed(&self, state: &mut State) -> Result<(), String> {
        state.dirty = true;
        if state.saved.elapsed() >= SAVE_EVERY {
            self.write(state).map_err(|e| format!("{e:#}"))?;
        }
        Ok(())
    }
}

impl Tasks {
    fn from_file(l: Level) -> anyhow::Result<Tasks> {
        if l.tasks > 100_000_000 {
            bail!(
                "size {}: {} tasks is more than a search makes",
                l.size,
                l.tasks
            );
        }
        let mut refuted = vec![false; l.tasks];
        let mut count = 0;
        let mut last = None;
        for range in l.refuted.split(',').filter(|r| !r.is_empty()) {
            let number = |x: &str| {
                x.parse::<usize>()
                    .with_context(|| format!("size {}: {range:?} is not a task range", l.size))
            };
            let (a, b) = match range.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => (number(range)?, number(range)?),
            };
            if a > b || b >= l.tasks || last.is_some_and(|x| a <= x) {
                bail!(
                    "size {}: the refuted ranges must be sorted, apart and below {} tasks (met {a}..={b})",
                    l.size,
                    l.tasks
                );
            }
            refuted[a..=b].fill(true);
            count += b - a + 1;
            last = Some(b);
        }
        let mut begun = std::collections::BTreeMap::new();
        for item in l.begun.split(',').filter(|r| !r.is_empty()) {
            let bad = || {
                format!(
                    "size {}: {item:?} is not TASK:GUESS of a task begun",
                    l.size
                )
            };
            let (i, g) = item.split_once(':').with_context(bad)?;
            let (i, g): (usize, usize) =
                (i.parse().with_context(bad)?, g.parse().with_context(bad)?);
            if i >= l.tasks || refuted[i] || begun.insert(i, g).is_some() {
                bail!("{}: not a task begun, or there twice", bad());
            }
        }
        Ok(Tasks {
            size: l.size,
            tasks: l.tasks,
            sha: l.tasks_sha256,
            refuted,
            count,
            begun,
            nodes: l.nodes,
            seconds: l.task_seconds,
        })
    }

    fn to_file(&self) -> Level {
        let mut ranges: Vec<[usize; 2]> = Vec::new();
        for i in (0..self.tasks).filter(|&i| self.refuted[i]) {
            match ranges.last_mut() {
                Some(r) if r[1] + 1 == i => r[1] = i,
                _ => ranges.push([i, i]),
            }
        }
        let ranges: Vec<String> = ranges
            .iter()
            .map(|&[a, b]| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        Level {
            size: self.size,
            tasks: self.tasks,
            tasks_sha256: self.sha.clone(),
            refuted: ranges.join(","),
            begun: self
                .begun
                .iter()
                .map(|(i, g)| format!("{i}:{g}"))
                .collect::<Vec<_>>()
                .join(","),
            nodes: self.nodes,
            task_seconds: self.seconds,
        }
    }
}
