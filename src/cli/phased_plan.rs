//! `plan --strategy phased`, `work` and `merge` on a phased evaluation:
//! the whole-game walk of the phased strategy cut into independent units
//! (the classes of its first guess, or of its first two), each walked on
//! any machine and added up by `merge` into the table `eval` prints.
//!
//! The folder: DIR/phased.json (the game, the options, the sample, the
//! units as the moves that lead to them, the secrets solved above them)
//! and DIR/phased/I.json (a unit's statistics). Invariants: a unit file
//! names the plan's id (a hash of phased.json's content), so a unit of
//! another plan is refused; it carries the SHA-256 of its canonical bytes
//! (the exact units' hash, [`super::checkpoint::Canon`]), so a file edited
//! by hand or damaged is refused by `merge` and `status`; unit files are
//! written atomically and never overwritten; merge refuses a folder with a
//! unit missing. Like the exact units' hashes, these catch accidents, not
//! forgery: `merge --audit F` walks a sample of the units again and fails
//! naming every unit whose file differs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use optimoo::heuristic::phased::walk;
use optimoo::heuristic::phased::{Chooser, Phased};
use optimoo::heuristic::Heuristic;
use optimoo::model::shape::{Packed, Shape};
use optimoo::model::Feedback;
use optimoo::observe::Silent;
use optimoo::tree::Stats;

use super::checkpoint::Canon;
use super::output::Output;
use super::phased::PhasedRow;
use super::plan_kinds::PlanKind;
use crate::exit::say;

/// The plan's file in DIR.
pub const PLAN: &str = PlanKind::Phased.file();
/// The units' folder in DIR.
const UNITS: &str = "phased";

/// DIR/phased.json.
#[derive(Debug, Serialize, Deserialize)]
pub struct PlanFile {
    /// What the folder holds.
    pub kind: String,
    /// The game.
    pub game: String,
    /// The score of the phased strategy.
    pub heuristic: String,
    /// Its thresholds (the score and the first guess are the fields
    /// beside them).
    pub options: Phased,
    /// The first guess, if given.
    pub first: Option<String>,
    /// Play a sample of this many secrets (none: all).
    pub sample: Option<u64>,
    /// The sample's seed.
    pub seed: u64,
    /// Levels cut.
    pub depth: usize,
    /// The units: each the moves that lead to it (`GUESS:xAyB`) and its
    /// candidates.
    pub units: Vec<UnitPlan>,
    /// The secrets the guesses above the units solve: `{depth, code}`.
    pub above: Vec<Above>,
}

/// One unit of the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnitPlan {
    /// `GUESS:xAyB` from the start of the game.
    pub history: Vec<String>,
    /// Candidates at the unit's node.
    pub size: u64,
}

/// A secret solved above the units.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Above {
    /// Guesses it takes.
    pub depth: usize,
    /// The secret (the guess itself).
    pub code: String,
}

/// DIR/phased/I.json.
#[derive(Debug, Serialize, Deserialize)]
struct UnitFile {
    plan_id: String,
    unit: usize,
    secrets: u64,
    total: u64,
    histogram: Vec<u64>,
    seconds: f64,
    /// [`UnitFile::compute_sha256`] (absent in files written before it).
    #[serde(default)]
    sha256: Option<String>,
}

/// The format the unit files' hash starts from.
const UNIT_FORMAT: &str = "optimoo-phased-unit/1";

impl UnitFile {
    /// The SHA-256 of the canonical bytes (docs/scale.md) of every field
    /// but `sha256`, in this order: plan_id, unit, secrets, total,
    /// histogram, seconds.
    fn compute_sha256(&self) -> String {
        let mut c = Canon::new(UNIT_FORMAT);
        c.field("plan_id").str(&self.plan_id);
        c.field("unit").int(self.unit as u64);
        c.field("secrets").int(self.secrets);
        c.field("total").int(self.total);
        c.field("histogram").len(self.histogram.len());
        for &h in &self.histogram {
            c.int(h);
        }
        c.field("seconds").real(self.seconds);
        c.finish()
    }

    /// Reads DIR/phased/`unit`.json (`None` when absent), refused unless
    /// it is of the plan `id`, of this unit, with its hash and its total
    /// the histogram's.
    fn read(dir: &Path, id: &str, unit: usize) -> anyhow::Result<Option<UnitFile>> {
        let path = unit_path(dir, unit);
        let Some(bytes) = super::checkpoint::read_bounded(&path, 1 << 20)
            .with_context(|| format!("cannot read {}", path.display()))?
        else {
            return Ok(None);
        };
        let file: UnitFile = serde_json::from_slice(&bytes)
            .with_context(|| format!("{} is not a unit file of optimoo", path.display()))?;
        if file.plan_id != id || file.unit != unit {
            bail!(
                "{}: a unit of another plan (or another unit)",
                path.display()
            );
        }
        match &file.sha256 {
            None => bail!(
                "{}: no sha256 (written by an earlier optimoo): delete it and run optimoo work {} \
                 --unit {unit} again",
                path.display(),
                dir.display()
            ),
            Some(h) if *h != file.compute_sha256() => bail!(
                "{}: its sha256 does not match its content (edited or damaged): delete it and \
                 run optimoo work {} --unit {unit} again",
                path.display(),
                dir.display()
            ),
            Some(_) => {}
        }
        if file.stats().total != file.total || file.stats().secrets != file.secrets {
            bail!("{}: its total does not match its histogram", path.display());
        }
        Ok(Some(file))
    }

    /// Its statistics, from the histogram.
    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for (d, &n) in self.histogram.iter().enumerate() {
            if n > 0 {
                s.add(d + 1, n);
            }
        }
        s
    }
}

impl PlanFile {
    fn shape(&self) -> anyhow::Result<Shape> {
        Ok(self.game.parse::<Shape>()?)
    }

    fn chooser(&self) -> anyhow::Result<Chooser> {
        let shape = self.shape()?;
        let first = match &self.first {
            Some(text) => Some(shape.parse(text)?),
            None => None,
        };
        let opts = Phased {
            heuristic: self.heuristic.parse::<Heuristic>()?,
            first,
            ..self.options
        };
        Ok(Chooser::new(shape, opts)?)
    }

    fn id(&self) -> anyhow::Result<String> {
        let text = serde_json::to_string(self)?;
        // FNV-1a over the plan's JSON: names the plan, catches mix-ups
        // (not an adversary: merge trusts the unit files).
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        Ok(format!("{hash:016x}"))
    }

    fn marks(&self) -> anyhow::Result<Option<Vec<bool>>> {
        let population = self.shape()?.code_count() as u64;
        self.sample
            .map(|n| walk::sample_marks(population, n, self.seed).map_err(Into::into))
            .transpose()
    }
}

/// Writes DIR/phased.json: the cut of the strategy's tree.
pub fn plan(
    dir: &Path,
    shape: Shape,
    opts: Phased,
    sample: Option<u64>,
    seed: u64,
    depth: usize,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let path = dir.join(PLAN);
    if path.exists() {
        bail!(
            "{} exists: give a new folder for a new plan",
            path.display()
        );
    }
    super::plan_kinds::refuse_other_plans(dir, PlanKind::Phased)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let population = shape.code_count() as u64;
    if let Some(n) = sample {
        if n == 0 || n > population {
            bail!("--sample {n}: give 1 to {population} (the secrets of {shape})");
        }
    }
    let chooser = Chooser::new(shape, opts)?;
    // The cut walks every code (mm:8x16: 2^32 of them): stated, refused
    // when it does not fit, as `eval` refuses it.
    super::phased::fit(
        &format!(
            "memory: about {} needed to cut the {population} codes of {shape} into units",
            super::memory::show(shape.memory_bytes())
        ),
        shape.memory_bytes(),
        &format!("cutting {shape}"),
    )?;
    let (units, above) = walk::cut(&chooser, depth, 1 << 12, &crate::driver::Rayon)?;
    let write = |h: &[(Packed, Feedback)]| -> Vec<String> {
        h.iter()
            .map(|&(g, f)| format!("{}:{}", shape.format(g), f.format(shape.positions())))
            .collect()
    };
    let file = PlanFile {
        kind: "phased-eval".into(),
        game: shape.to_string(),
        heuristic: opts.heuristic.name().into(),
        options: opts,
        first: opts.first.map(|f| shape.format(f)),
        sample,
        seed,
        depth,
        units: units
            .iter()
            .map(|u| UnitPlan {
                history: write(&u.history),
                size: u.size,
            })
            .collect(),
        above: above
            .iter()
            .map(|&(depth, code)| Above {
                depth,
                code: shape.format(code),
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&file)? + "\n";
    Output::create(&path)?.commit(text.as_bytes())?;
    let mut out = std::io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "dir": dir.display().to_string(), "plan_id": file.id()?, "game": file.game,
            "strategy": "phased", "units": file.units.len(), "sample": sample,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "plan       {}", path.display())?;
        writeln!(
            out,
            "game       {shape}, the phased strategy ({} units)",
            file.units.len()
        )?;
        writeln!(
            out,
            "next       optimoo work {} --unit I   (I = 0 … {}), then optimoo merge {}",
            dir.display(),
            file.units.len().saturating_sub(1),
            dir.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads DIR/phased.json, if the folder holds a phased plan.
pub fn open(dir: &Path) -> anyhow::Result<Option<PlanFile>> {
    let path = dir.join(PLAN);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let file: PlanFile = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not a phased plan of optimoo", path.display()))?;
    if file.kind != "phased-eval" {
        bail!("{}: kind {:?}, not phased-eval", path.display(), file.kind);
    }
    Ok(Some(file))
}

fn unit_path(dir: &Path, unit: usize) -> PathBuf {
    dir.join(UNITS).join(format!("{unit}.json"))
}

/// Walks the units (those not done yet) and writes DIR/phased/I.json.
pub fn work(dir: &Path, file: &PlanFile, units: &[usize], json: bool) -> anyhow::Result<ExitCode> {
    let chooser = file.chooser()?;
    let id = file.id()?;
    let marks = file.marks()?;
    std::fs::create_dir_all(dir.join(UNITS))?;
    let mut out = std::io::stdout().lock();
    for &u in units {
        let Some(unit) = file.units.get(u) else {
            bail!(
                "unit {u}: the plan has units 0 to {}",
                file.units.len().saturating_sub(1)
            );
        };
        let path = unit_path(dir, u);
        if path.exists() {
            say(&format!("unit {u}: done already ({})", path.display()));
            continue;
        }
        let start = Instant::now();
        let stats = walk_unit(&chooser, marks.as_deref(), u, unit)?;
        let mut record = UnitFile {
            plan_id: id.clone(),
            unit: u,
            secrets: stats.secrets,
            total: stats.total,
            histogram: stats.histogram.clone(),
            seconds: start.elapsed().as_secs_f64(),
            sha256: None,
        };
        record.sha256 = Some(record.compute_sha256());
        let text = serde_json::to_string(&record)? + "\n";
        Output::create(&path)?.commit(text.as_bytes())?;
        if json {
            writeln!(out, "{}", text.trim_end())?;
        } else {
            writeln!(
                out,
                "unit {u}: {} secrets, {} guesses, {:.1} s",
                stats.secrets, stats.total, record.seconds
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Walks unit `u` of a plan: the statistics of its secrets (those
/// `marks` keeps) under the strategy of `chooser`.
fn walk_unit(
    chooser: &Chooser,
    marks: Option<&[bool]>,
    u: usize,
    unit: &UnitPlan,
) -> anyhow::Result<Stats> {
    let shape = chooser.shape();
    let history = unit
        .history
        .iter()
        .map(|m| shape.parse_move(m))
        .collect::<Result<Vec<_>, _>>()?;
    // The unit's codes listed and walked: stated, refused when they do
    // not fit (a plan names its units' sizes).
    let need = shape.list_bytes(unit.size).saturating_add(
        unit.size
            .saturating_mul(optimoo::model::shape::BYTES_PER_CODE),
    );
    if need >= 256 << 20 {
        super::phased::fit(
            &format!(
                "unit {u}: memory: about {} needed for its {} codes",
                super::memory::show(need),
                unit.size
            ),
            need,
            &format!("unit {u} of {shape}"),
        )?;
    }
    let mut set = shape.candidates(&history);
    if set.len() as u64 != unit.size {
        bail!(
            "unit {u}: {} candidates, the plan says {}: not this version's plan",
            set.len(),
            unit.size
        );
    }
    let mut unit_marks: Vec<bool> = match marks {
        Some(m) => set.iter().map(|&c| m[shape.rank(c) as usize]).collect(),
        None => vec![true; set.len()],
    };
    Ok(walk::walk_from(
        chooser,
        &mut set,
        &mut unit_marks,
        history.len(),
        &crate::driver::Rayon,
        &Silent,
    )?)
}

/// `merge --audit FRACTION` of a phased plan: walks a sample of the
/// finished units again (drawn by `seed`, as the exact plans' audit) and
/// fails naming every unit whose file differs from the walk.
pub fn audit(dir: &Path, file: &PlanFile, fraction: f64, seed: u64) -> anyhow::Result<()> {
    let id = file.id()?;
    let mut finished = Vec::new();
    for u in 0..file.units.len() {
        if UnitFile::read(dir, &id, u)?.is_some() {
            finished.push(u);
        }
    }
    if finished.is_empty() {
        bail!(
            "nothing to audit: no unit of {} is finished (run optimoo work {} --all)",
            dir.display(),
            dir.display()
        );
    }
    let picked = super::checkpoint::sample(&finished, fraction, seed);
    say(&format!(
        "audit: walking {} of the {} finished units again (seed {seed}): {:?}",
        picked.len(),
        finished.len(),
        &picked[..picked.len().min(20)]
    ));
    let chooser = file.chooser()?;
    let marks = file.marks()?;
    let mut differ = Vec::new();
    for &u in &picked {
        let walked = walk_unit(&chooser, marks.as_deref(), u, &file.units[u])?;
        let unit = UnitFile::read(dir, &id, u)?.expect("read above");
        if walked.histogram != unit.histogram || walked.secrets != unit.secrets {
            differ.push(format!(
                "unit {u}: the file says {} secrets in {} guesses (histogram {:?}), the walk \
                 gives {} in {} (histogram {:?})",
                unit.secrets,
                unit.total,
                unit.histogram,
                walked.secrets,
                walked.total,
                walked.histogram
            ));
        }
    }
    if !differ.is_empty() {
        bail!(
            "the audit found {} unit file(s) that differ from this version's walk:\n{}",
            differ.len(),
            differ.join("\n")
        );
    }
    say(&format!(
        "audit: the {} units walked agree with their files",
        picked.len()
    ));
    Ok(())
}

/// Adds the units into the table `eval` prints.
pub fn merge(dir: &Path, file: &PlanFile, json: bool) -> anyhow::Result<ExitCode> {
    let shape = file.shape()?;
    let id = file.id()?;
    let marks = file.marks()?;
    let mut stats = Stats::default();
    for a in &file.above {
        let code = shape.parse(&a.code)?;
        if marks.as_ref().is_none_or(|m| m[shape.rank(code) as usize]) {
            stats.add(a.depth, 1);
        }
    }
    let mut seconds = 0.0;
    let mut missing = Vec::new();
    for u in 0..file.units.len() {
        let Some(unit) = UnitFile::read(dir, &id, u)? else {
            missing.push(u);
            continue;
        };
        walk::merge(&mut stats, &unit.stats());
        seconds += unit.seconds;
    }
    if !missing.is_empty() {
        bail!(
            "{} of {} units are not done: {:?}; run optimoo work {} --unit I for each",
            missing.len(),
            file.units.len(),
            &missing[..missing.len().min(20)],
            dir.display()
        );
    }
    let population = shape.code_count() as u64;
    let want = file.sample.unwrap_or(population);
    if stats.secrets != want {
        bail!("the units solve {} secrets, not {want}", stats.secrets);
    }
    let opts = Phased {
        heuristic: file.heuristic.parse::<Heuristic>()?,
        ..file.options
    };
    let row = PhasedRow::new(shape, &opts, &stats, file.sample.is_some(), seconds);
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&row)?)?;
    } else {
        writeln!(out, "{}", super::phased::HEADER)?;
        writeln!(out, "{row}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `status DIR` of a phased plan: the units done, the secrets they and
/// the guesses above them solve, and the guesses so far.
pub fn status(dir: &Path, file: &PlanFile, json: bool) -> anyhow::Result<ExitCode> {
    let id = file.id()?;
    let (mut done, mut secrets, mut total, mut todo) = (0usize, 0u64, 0u64, 0u64);
    for (u, unit) in file.units.iter().enumerate() {
        let read = UnitFile::read(dir, &id, u).ok().flatten();
        match read {
            Some(f) => {
                done += 1;
                secrets += f.secrets;
                total += f.total;
            }
            None => todo += unit.size,
        }
    }
    let mut out = std::io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "game": file.game, "strategy": "phased", "units": file.units.len(),
            "done": done, "secrets_done": secrets, "total_done": total,
            "codes_to_walk": todo, "sample": file.sample,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "game       {}, the phased strategy", file.game)?;
        writeln!(out, "units      {done} of {} done", file.units.len())?;
        writeln!(
            out,
            "done       {secrets} secrets played below the cut, {total} guesses"
        )?;
        writeln!(out, "left       {todo} codes in the units not done")?;
        if done == file.units.len() {
            writeln!(out, "next       optimoo merge {}", dir.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
