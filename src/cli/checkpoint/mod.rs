//! The checkpoint folder of a search cut into units (`plan`, `work`,
//! `merge`, `status`, `solve --checkpoint`): `DIR/plan.json` and one
//! `DIR/units/I.json` per finished unit (docs/scale.md). This folder holds
//! everything those subcommands share, so that each of them is a leaf
//! that calls in here and never another subcommand: the files
//! ([`Folder`], `files`), making or opening the plan ([`ensure`]), solving
//! units ([`work`], [`fit_memory`]), assembling the tree ([`merge`]),
//! improving a verified tree with the exact units ([`graft`]), re-solving
//! a sample ([`audit`]) and all three in one command ([`solve`]).
//!
//! Invariants:
//! - No file is read without a bound: plan.json at most
//!   [`PLAN_MAX_BYTES`], a unit file at most [`unit_max_bytes`] of the
//!   game; a longer one (or a link to /dev/zero) is refused by name, unread.
//! - Every file is validated when read; a corrupt file, a file of another
//!   plan (its `plan_id`: the SHA-256 of game, cap, objective, version,
//!   min_cap and the units' definitions) or of another unit, or a file of
//!   an earlier format, is refused with its name.
//!   An exact unit's subtree is decoded (no deeper than a tree can be,
//!   every guess splitting its set, so no forged file overflows the stack)
//!   and its cost recomputed from the tree alone; a SHA-256 covers the
//!   rest of the file. Neither hash is a signature (anyone can recompute
//!   them): `merge --audit` re-solves units to check what they claim.
//! - Unit files are written to a temporary file in `units/`, synced, then
//!   linked into place without replacing anything (`persist_noclobber`), so
//!   two workers on one unit never corrupt it: the second finds the first's
//!   file and compares. The same result again is fine; a contradicting one
//!   (another exact cost or subtree, or a bound above the exact cost) is an
//!   error. Only a bound too low for the plan's current generation (which
//!   must be rerun under a higher cut-off) is replaced: by a result that
//!   serves, a higher bound, or the same bound with more seconds (a
//!   resumed run's, whose bound did not rise).
//! - `plan.json` only changes by a new generation (a larger assumed upper
//!   bound), written to a temporary file and renamed into place; unit
//!   definitions, hence `plan_id` and every unit file, stay valid.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::model::Rules;
use optimoo::search::plan::{self, Known, Plan, RootGuess, Unit, UnitResult};
use optimoo::search::Outcome;
use optimoo::search::{crush_parts, Config, Goal, Tuning, INF};

mod audit;
pub(crate) mod files;
mod graft;
mod memo_file;
pub use memo_file::KeptAt;
mod merge;
mod planning;
mod progress;
mod solve;
mod upper;
mod work;
pub use audit::{audit, sample};
pub use files::*;
pub use graft::{graft, show_path, Graft, Grafted, SubGraft};
pub use merge::{merge, Merged};
pub use planning::ensure;
pub use progress::{GuessProgress, ProgressFile, PROGRESS_DIR, PROGRESS_FORMAT};
pub use solve::solve;
pub use upper::{upper_tree, UpperTree};
pub use work::{cpu_seconds, fit_memory, solve_one, work, Done, KeepMemo, Limits, Solved};

/// A checkpoint folder, its plan read and checked.
pub struct Folder {
    /// The folder.
    pub dir: PathBuf,
    /// plan.json as read.
    pub file: PlanFile,
    /// The game.
    pub game: Game,
    /// The plan in the library's terms.
    pub plan: Plan,
    /// The objective.
    pub objective: Objective,
    /// The objective as the search takes it (how costs add up).
    pub goal: Goal,
    /// Cost tables to check subtrees.
    bounds: optimoo::search::Bounds,
}

/// A cost as text: the total, or for crush "N at the cap, total T".
pub fn show_cost(objective: Objective, c: u64) -> String {
    if c >= INF {
        "infeasible".into()
    } else if objective == Objective::Crush {
        let (at_cap, total) = crush_parts(c);
        format!("{at_cap} at the cap, total {total}")
    } else {
        c.to_string()
    }
}

/// The goal of a plan's objective: average within the plan's cap, worst
/// and crush (their cap, found when the plan was made, is the plan's).
pub fn goal_of(
    objective: Objective,
    cap: Option<usize>,
) -> Result<Goal, optimoo::search::SearchError> {
    let cap = if objective == Objective::Average {
        cap
    } else {
        None
    };
    Goal::of(objective, cap, None)
}

impl Folder {
    /// Reads and checks `DIR/plan.json`.
    pub fn open(dir: &Path) -> anyhow::Result<Folder> {
        let path = dir.join(PLAN_FILE);
        let read = read_or_refuse(&path, PLAN_MAX_BYTES, |why| {
            anyhow::anyhow!(
                "{} is refused: {why}, more than any plan holds: it is not an optimoo plan",
                path.display()
            )
        })?;
        let Some(bytes) = read else {
            bail!(
                "{} not found: make the plan first (optimoo plan --game G -o {})",
                path.display(),
                dir.display()
            );
        };
        let corrupt = |why: String| anyhow::anyhow!("{} is corrupt: {why}", path.display());
        if let Ok(FormatOnly { format }) = serde_json::from_slice(&bytes) {
            if is_earlier_format(&format, PLAN_FORMAT_PREFIX, PLAN_FORMAT) {
                bail!(
                    "{} was written by an earlier version of optimoo (format {format}; this \
                     version reads {PLAN_FORMAT}, whose hashes are SHA-256): plan again in a new \
                     folder (optimoo plan --game G -o NEW) and run the units again",
                    path.display()
                );
            }
        }
        let file: PlanFile = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
        if file.format != PLAN_FORMAT {
            bail!(
                "{} is not an optimoo plan of this version (format {:?}, not {PLAN_FORMAT})",
                path.display(),
                file.format
            );
        }
        if plan_id(&file) != file.plan_id {
            return Err(corrupt("its plan_id does not match its contents".into()));
        }
        if file.version != env!("CARGO_PKG_VERSION") {
            bail!(
                "{} was planned by optimoo {}, this is {}: use that version, or plan again in a new folder",
                path.display(),
                file.version,
                env!("CARGO_PKG_VERSION")
            );
        }
        let rules: Rules = file.game.parse().map_err(|e| corrupt(format!("{e}")))?;
        let objective = super::args::objective_named(&file.objective)
            .ok_or_else(|| corrupt(format!("unknown objective {}", file.objective)))?;
        let game = Game::new(rules);
        let mut guesses = Vec::new();
        for g in &file.guesses {
            let guess = game
                .parse_code(&g.guess)
                .map_err(|e| corrupt(e.to_string()))?;
            guesses.push(RootGuess {
                guess,
                bound: g.bound,
            });
        }
        let mut units = Vec::new();
        for u in &file.units {
            let guess = file
                .guesses
                .iter()
                .position(|g| g.guess == u.guess)
                .ok_or_else(|| corrupt(format!("unit guess {} is not planned", u.guess)))?;
            let answer = game
                .parse_feedback(&u.answer)
                .map_err(|e| corrupt(e.to_string()))?;
            let second = match (&u.second, u.second_bound) {
                (Some(h), Some(bound)) => Some(RootGuess {
                    guess: game.parse_code(h).map_err(|e| corrupt(e.to_string()))?,
                    bound,
                }),
                (None, None) => None,
                _ => return Err(corrupt("a second guess without its bound".into())),
            };
            units.push(Unit {
                guess,
                answer,
                secrets: u.secrets,
                lower: u.lower,
                second,
            });
        }
        let plan = Plan {
            depth: file.depth,
            guesses,
            units,
            limit: file.proven_upper.unwrap_or(INF).min(INF - 1),
        };
        let goal = goal_of(objective, file.cap).map_err(|e| corrupt(e.to_string()))?;
        let bounds = plan::bounds(&game, goal.cost());
        Ok(Folder {
            dir: dir.to_path_buf(),
            file,
            game,
            plan,
            objective,
            goal,
            bounds,
        })
    }

    /// The assumed upper bound of the current generation (INF: none).
    pub fn upper(&self) -> u64 {
        self.file.upper.unwrap_or(INF)
    }

    /// The cost of a real tree, or INF.
    pub fn proven(&self) -> u64 {
        self.file.proven_upper.unwrap_or(INF)
    }

    /// The search configuration of a unit (an error when `memo_mib` MiB
    /// do not fit 64 bits).
    pub fn config(&self, memo_mib: usize) -> anyhow::Result<Config> {
        Ok(Config {
            cap: self.file.cap,
            objective: self.goal.cost(),
            tuning: Tuning {
                memo_codes: super::memory::memo_codes(memo_mib)?,
                ..Tuning::default()
            },
            ..Config::default()
        })
    }

    /// Path of unit `i`'s file.
    pub fn unit_path(&self, i: usize) -> PathBuf {
        self.dir.join(UNITS_DIR).join(format!("{i}.json"))
    }

    /// Reads unit `i`'s file: `None` when absent; an error naming the
    /// file when it is corrupt, foreign or wrong.
    pub fn read_unit(&self, i: usize) -> anyhow::Result<Option<(UnitFile, UnitResult)>> {
        let path = self.unit_path(i);
        let max = unit_max_bytes(self.game.len());
        let bad = |why: &str| anyhow::anyhow!("{} is refused: {why}", path.display());
        let too_large = |why: String| {
            bad(&format!(
                "{why}, more than any unit file of {} holds; delete it and run the unit again",
                self.file.game
            ))
        };
        let Some(bytes) = read_or_refuse(&path, max, too_large)? else {
            return Ok(None);
        };
        if let Ok(FormatOnly { format }) = serde_json::from_slice(&bytes) {
            if is_earlier_format(&format, UNIT_FORMAT_PREFIX, UNIT_FORMAT) {
                return Err(bad(&format!(
                    "written by an earlier version of optimoo (format {format}; this version \
                     reads {UNIT_FORMAT}): delete it and run the unit again"
                )));
            }
        }
        let f: UnitFile = serde_json::from_slice(&bytes)
            .map_err(|e| bad(&format!("corrupt ({e}); delete it and run the unit again")))?;
        if f.format != UNIT_FORMAT {
            return Err(bad(&format!(
                "not an optimoo unit file of this version (format {:?}, not {UNIT_FORMAT})",
                f.format
            )));
        }
        if f.plan_id != self.file.plan_id {
            return Err(bad(&format!(
                "it belongs to another plan ({}, this folder's is {})",
                f.plan_id, self.file.plan_id
            )));
        }
        if !(f.seconds.is_finite() && f.seconds >= 0.0) {
            return Err(bad(&format!(
                "its seconds ({}) is not a time (a finite number at least 0); delete it and \
                 run the unit again",
                f.seconds
            )));
        }
        let def = &self.file.units[i];
        if f.unit != i || f.guess != def.guess || f.answer != def.answer || f.second != def.second {
            return Err(bad(&format!(
                "it holds unit {} ({} {}), not unit {i} ({} {})",
                f.unit, f.guess, f.answer, def.guess, def.answer
            )));
        }
        if f.compute_sha256() != f.sha256 {
            return Err(bad(
                "corrupt (its sha256 does not match its contents); delete it and run the unit again",
            ));
        }
        let result = if f.exact {
            let codes = f
                .subtree
                .as_ref()
                .ok_or_else(|| bad("an exact result without its subtree"))?;
            let set = plan::unit_set(&self.game, &self.plan, i);
            let d = self.plan.depth - 1;
            let node = plan::decode_subtree(&self.game, &set, d, codes)
                .map_err(|e| bad(&format!("its subtree does not decode: {e}")))?;
            let cost = plan::subtree_cost(&self.game, &self.bounds, &set, d, &node)
                .map_err(|e| bad(&format!("its subtree does not solve the class: {e}")))?;
            if cost != f.value {
                return Err(bad(&format!(
                    "its subtree costs {cost}, not the {} it claims",
                    f.value
                )));
            }
            UnitResult::exact(f.value, node)
        } else {
            if f.value < f.cutoff && !f.stopped {
                return Err(bad("a bound below its own cut-off"));
            }
            if f.value >= f.cutoff && f.stopped {
                return Err(bad("a stopped unit whose bound reaches its cut-off"));
            }
            UnitResult::at_least(f.value)
        };
        Ok(Some((f, result)))
    }

    /// Every unit's result as known (errors for bad files, all named).
    pub fn known(&self) -> anyhow::Result<Vec<Known>> {
        let mut known = Vec::with_capacity(self.plan.units.len());
        let mut errors = Vec::new();
        for i in 0..self.plan.units.len() {
            match self.read_unit(i) {
                Ok(None) => known.push(None),
                Ok(Some((_, r))) => known.push(Some(r.outcome())),
                Err(e) => {
                    errors.push(format!("{e:#}"));
                    known.push(None);
                }
            }
        }
        if !errors.is_empty() {
            bail!("{}", errors.join("\n"));
        }
        Ok(known)
    }

    /// The unit file of a result just computed.
    pub fn unit_file(
        &self,
        i: usize,
        cutoff: u64,
        result: &UnitResult,
        seconds: f64,
        nodes: u64,
    ) -> UnitFile {
        let subtree = result.subtree().map(|node| {
            let set = plan::unit_set(&self.game, &self.plan, i);
            let mut codes = Vec::new();
            plan::encode_subtree(&self.game, &set, node, &mut codes);
            codes
        });
        let def = &self.file.units[i];
        let mut f = UnitFile {
            format: UNIT_FORMAT.into(),
            plan_id: self.file.plan_id.clone(),
            unit: i,
            guess: def.guess.clone(),
            answer: def.answer.clone(),
            second: def.second.clone(),
            cutoff,
            exact: result.outcome().is_exact(),
            value: result.outcome().value(),
            stopped: !result.outcome().is_exact() && result.outcome().value() < cutoff,
            subtree,
            seconds,
            nodes,
            peak_kib: peak_kib(),
            sha256: String::new(),
        };
        f.sha256 = f.compute_sha256();
        f
    }

    /// Checks, before anything is solved, that unit files can be written:
    /// `units/` is a folder in which a file can be created (a probe file,
    /// created and removed). Otherwise a search would run to its end and
    /// lose its result.
    pub fn check_writable(&self) -> anyhow::Result<()> {
        let units = self.check_units_dir()?;
        tempfile::Builder::new()
            .prefix(".probe.")
            .suffix(".tmp")
            .tempfile_in(&units)
            .and_then(|probe| probe.close())
            .with_context(|| format!("cannot write in {}; {LOST}", units.display()))
    }

    /// Checks that `units/` is a folder (a link to one will do); returns
    /// its path.
    pub fn check_units_dir(&self) -> anyhow::Result<PathBuf> {
        let units = self.dir.join(UNITS_DIR);
        let lost = LOST;
        match std::fs::metadata(&units) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => bail!(
                "{} is not a folder: unit files go there; {lost}",
                units.display()
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
                "{} is missing (or a link to nothing): unit files go there; create it \
                 (mkdir) or plan again; {lost}",
                units.display()
            ),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot reach {}; {lost}", units.display()))
            }
        }
        Ok(units)
    }

    /// Writes unit `i`'s file safely (see the module's invariants).
    /// Returns whether this call wrote it: false when a result that agrees
    /// was there already (another worker wrote it first), which is kept.
    pub fn write_unit(&self, f: &UnitFile, result: &UnitResult) -> anyhow::Result<bool> {
        let i = f.unit;
        let path = self.unit_path(i);
        let temp = self.unit_temp(f)?;
        let temp = match temp.persist_noclobber(&path) {
            Ok(_) => return Ok(true),
            Err(e) if path.exists() => e.file,
            Err(e) => {
                return Err(e.error).with_context(|| format!("cannot write {}", path.display()))
            }
        };
        let Some((old_file, old)) = self.read_unit(i)? else {
            bail!("cannot write {}", path.display());
        };
        let contradiction = match (old.outcome(), result.outcome()) {
            (Outcome::Exact(a), Outcome::Exact(b)) => a != b || old.subtree() != result.subtree(),
            (Outcome::Exact(a), Outcome::AtLeast(b)) | (Outcome::AtLeast(b), Outcome::Exact(a)) => {
                b > a
            }
            (Outcome::AtLeast(_), Outcome::AtLeast(_)) => false,
        };
        if contradiction {
            bail!(
                "{} already holds a different result ({}; this run found {}): \
                 one of them is wrong; check the files and the versions that wrote them",
                path.display(),
                old.outcome(),
                result.outcome()
            );
        }
        let higher = matches!(
            (old.outcome(), result.outcome()),
            (Outcome::AtLeast(a), Outcome::AtLeast(b)) if b > a
        );
        // The same bound after more time on the unit (a resumed run whose
        // bound did not rise): its seconds (every run's, added up) and
        // nodes (this run's, as any unit file's) replace the stale ones.
        let longer = matches!(
            (old.outcome(), result.outcome()),
            (Outcome::AtLeast(a), Outcome::AtLeast(b)) if b == a
        ) && f.seconds > old_file.seconds;
        if !self.plan.serves(i, Some(old.outcome()), self.upper())
            && (self.plan.serves(i, Some(result.outcome()), self.upper()) || higher || longer)
        {
            // A bound too low for this generation (or a stopped unit's):
            // a result that serves, a higher bound, or the same bound
            // after longer, replaces it.
            temp.persist(&path)
                .map_err(|e| e.error)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Unit file `f` written and synced in a temporary file of `units/`,
    /// to be persisted under its name.
    fn unit_temp(&self, f: &UnitFile) -> anyhow::Result<tempfile::NamedTempFile> {
        let (i, path) = (f.unit, self.unit_path(f.unit));
        let units = self.dir.join(UNITS_DIR);
        let mut temp = super::output::new_file(&format!(".{i}.json."))
            .tempfile_in(&units)
            .with_context(|| format!("cannot write in {}", units.display()))?;
        let text = serde_json::to_string_pretty(f)? + "\n";
        temp.write_all(text.as_bytes())
            .and_then(|_| temp.as_file().sync_all())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(temp)
    }

    /// [`Folder::write_unit`], where `kept` is the bound this run kept in
    /// the unit's file while it ran (if any): a file that still holds
    /// that very bound is this run's own, and the final result replaces
    /// it (with its final time) even when no higher.
    pub fn write_unit_over(
        &self,
        f: &UnitFile,
        result: &UnitResult,
        kept: Option<u64>,
    ) -> anyhow::Result<bool> {
        if let (Some(k), Outcome::AtLeast(b)) = (kept, result.outcome()) {
            let own = matches!(
                self.read_unit(f.unit)?,
                Some((_, old)) if old.outcome() == Outcome::AtLeast(k)
            );
            if own && b >= k {
                let path = self.unit_path(f.unit);
                self.unit_temp(f)?
                    .persist(&path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                return Ok(true);
            }
        }
        self.write_unit(f, result)
    }

    /// Writes plan.json (a new plan or a new generation), atomically.
    pub fn write_plan(dir: &Path, file: &PlanFile) -> anyhow::Result<()> {
        let path = dir.join(PLAN_FILE);
        let text = serde_json::to_string_pretty(file)? + "\n";
        super::output::Output::create(&path)?.commit(text.as_bytes())
    }
}

/// The units' seconds and nodes added up, refusing by name the file whose
/// figure makes a sum overflow (each is checked when read: seconds finite
/// and at least 0, nodes a 64-bit count).
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    /// Seconds of the units added so far.
    pub seconds: f64,
    /// Nodes of the units added so far.
    pub nodes: u64,
}

impl Totals {
    /// Adds a unit file's figures (`path`: its name for the error).
    pub fn add(&mut self, f: &UnitFile, path: &Path) -> anyhow::Result<()> {
        let overflow = |what: &str, value: String| {
            anyhow::anyhow!(
                "{} is refused: its {what} ({value}) make the units' total overflow; delete it \
                 and run the unit again",
                path.display()
            )
        };
        let nodes = self
            .nodes
            .checked_add(f.nodes)
            .ok_or_else(|| overflow("nodes", f.nodes.to_string()))?;
        let seconds = self.seconds + f.seconds;
        if !seconds.is_finite() {
            return Err(overflow("seconds", f.seconds.to_string()));
        }
        *self = Totals { seconds, nodes };
        Ok(())
    }
}

/// What `work` says when it stops before solving for want of a place to
/// write.
const LOST: &str = "nothing was solved (its result could not be kept)";

/// Peak resident memory of this process in KiB: `VmHWM` of
/// /proc/self/status (Linux; no crate reads it without pulling in a
/// system-information library many times larger than this function).
pub fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
