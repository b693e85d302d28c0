//! The files of a checkpoint folder as serde types: `plan.json`
//! ([`PlanFile`]) and `units/I.json` ([`UnitFile`]), their bounded
//! reading ([`read_bounded`]), and their hashes: the plan's identity
//! ([`plan_id`]) and each unit file's [`UnitFile::compute_sha256`].
//!
//! Invariants:
//! - `plan_id` hashes everything that defines the problem and the units
//!   (never the generation, the assumed upper bound or the cut-offs it
//!   gives), so unit files stay valid across generations and a file of
//!   another plan is recognized; a unit's `sha256` hashes every other field
//!   of its file.
//! - Both are SHA-256 over canonical bytes ([`Canon`]: a fixed byte
//!   encoding of each field, docs/scale.md "What merge trusts"), never over
//!   Debug text or the JSON as written, so they do not depend on how a
//!   file is formatted.
//! - They guard against accidental corruption and mix-ups, not forgery:
//!   anyone can recompute them. `merge --audit 1` is the check that trusts
//!   no unit file.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::search::plan::Plan;
use optimoo::search::MinCap;
use optimoo::search::INF;

/// The plan's file name in the folder.
pub const PLAN_FILE: &str = "plan.json";
/// The folder of unit files.
pub const UNITS_DIR: &str = "units";
/// `format` of plan.json (2: SHA-256 hashes over canonical bytes; 1 had
/// CRC-32s over Debug text, without `min_cap`).
pub const PLAN_FORMAT: &str = "optimoo-plan/2";
/// `format` of a unit file.
pub const UNIT_FORMAT: &str = "optimoo-unit/2";
/// What every `format` of plan.json starts with.
pub const PLAN_FORMAT_PREFIX: &str = "optimoo-plan/";
/// What every `format` of a unit file starts with.
pub const UNIT_FORMAT_PREFIX: &str = "optimoo-unit/";

/// The most bytes `plan.json` may hold: far above any real plan (a plan of
/// mm:5x6 is 20 KB, moo:4x10 at `--depth 2` 40 KB), far below what would
/// strain a machine; a longer file (a link to /dev/zero) is refused
/// unread.
pub const PLAN_MAX_BYTES: u64 = 64 << 20;

/// The most bytes a unit file of a game of `codes` codes may hold: its
/// subtree has fewer guesses than the class has secrets (each of its
/// guesses splits its set), at most 12 bytes each as written (an index of
/// up to 5 digits, a comma, a line break, the indent), so 16 bytes per
/// code of the game and 64 KiB for the rest are more than a real file
/// ever needs.
pub fn unit_max_bytes(codes: usize) -> u64 {
    (64 << 10) + 16 * codes as u64
}

/// Lower-case hexadecimal digits of `bytes` (a hash as the files show it).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads the file at `path` without trusting its size: `None` when it
/// does not exist; an error of kind `FileTooLarge` when it holds more than
/// `max` bytes (a regular file by its size, before reading; anything else,
/// such as a link to /dev/zero, after reading `max + 1` bytes at most).
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than {max} bytes"),
        )
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > max {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(Some(bytes))
}

/// Reads a checkpoint file at `path` with [`read_bounded`]: `None` when
/// it does not exist; when it holds more than `max` bytes, the error
/// `refuse` makes of the reason (each kind of file says what to do about
/// it); any other failure to read, an error naming the file.
pub fn read_or_refuse(
    path: &Path,
    max: u64,
    refuse: impl FnOnce(String) -> anyhow::Error,
) -> anyhow::Result<Option<Vec<u8>>> {
    match read_bounded(path, max) {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            Err(refuse(format!("it is larger than {max} bytes")))
        }
        Err(e) => Err(anyhow::Error::new(e).context(format!("cannot read {}", path.display()))),
    }
}

/// How the smallest cap was found (worst, crush), kept for `merge`'s report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MinCapRecord {
    /// The smallest feasible cap.
    pub cap: usize,
    /// Caps below this refuted by counting.
    pub counted: usize,
    /// (cap, feasible, seconds) of each exhaustive search.
    pub searches: Vec<(usize, bool, f64)>,
    /// Search nodes.
    pub nodes: u64,
}

/// A planned first guess.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GuessRecord {
    /// The guess, e.g. `0123`.
    pub guess: String,
    /// Its lookahead bound.
    pub bound: u64,
}

/// A planned unit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnitRecord {
    /// The first guess.
    pub guess: String,
    /// The answer that makes the class.
    pub answer: String,
    /// Secrets in the class.
    pub secrets: usize,
    /// Its level bound.
    pub lower: u64,
    /// With --depth 2, for a large class: the second guess this unit
    /// tries (`null`: the unit is the whole class).
    pub second: Option<String>,
    /// The second guess's lookahead bound at the class.
    pub second_bound: Option<u64>,
    /// The cut-off it starts from in this generation.
    pub cutoff: u64,
}

/// `DIR/plan.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlanFile {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// Hash of what defines the problem and the units.
    pub plan_id: String,
    /// 1, then one more each time `merge` raises the upper bound.
    pub generation: u32,
    /// The game, e.g. `moo:4x10`.
    pub game: String,
    /// The cap (`null`: none); for worst and crush, the smallest cap.
    pub cap: Option<usize>,
    /// average, worst or crush.
    pub objective: String,
    /// The optimoo version that planned (units must be solved by it).
    pub version: String,
    /// Depth of the root.
    pub depth: usize,
    /// Assumed upper bound of this generation (`null`: none).
    pub upper: Option<u64>,
    /// Cost of a real tree (`null`: none known), and which.
    pub proven_upper: Option<u64>,
    /// Where `proven_upper` comes from.
    pub proven_by: Option<String>,
    /// For worst and crush: how the smallest cap was found.
    pub min_cap: Option<MinCapRecord>,
    /// The planned first guesses, in the search's order.
    pub guesses: Vec<GuessRecord>,
    /// The units: index = position.
    pub units: Vec<UnitRecord>,
}

/// `DIR/units/I.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitFile {
    /// Always [`UNIT_FORMAT`].
    pub format: String,
    /// The plan it belongs to.
    pub plan_id: String,
    /// Its index.
    pub unit: usize,
    /// Its first guess and answer (checked against the plan).
    pub guess: String,
    /// The answer.
    pub answer: String,
    /// The second guess (`--depth 2`), if the unit has one.
    pub second: Option<String>,
    /// The cut-off it was solved under.
    pub cutoff: u64,
    /// Whether `value` is the exact cost (else a lower bound).
    pub exact: bool,
    /// The exact cost, or a proven lower bound at least `cutoff` (below
    /// it only when `stopped`).
    pub value: u64,
    /// A unit stopped at its time limit (`work --time-limit`): `value` is
    /// the best lower bound it proved, below its cut-off; the unit must
    /// run again to finish. Absent (false) in every other file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// The optimal subtree (exact only): guesses in preorder as code
    /// indices, single-secret leaves implied.
    pub subtree: Option<Vec<u16>>,
    /// Wall time of the unit: every run's on it, added up (a resumed run
    /// starts from the seconds its progress file kept; not compared).
    pub seconds: f64,
    /// Search nodes of the run that wrote this file only: a run resumed
    /// from a progress file does not add the earlier runs' nodes, which no
    /// file keeps, so beside a resumed unit's `seconds` this undercounts
    /// (not compared).
    pub nodes: u64,
    /// Peak resident memory of the process that solved it, KiB (not
    /// compared; `null` where /proc is not available).
    pub peak_kib: Option<u64>,
    /// SHA-256 of every other field of the file, hex
    /// ([`UnitFile::compute_sha256`]).
    pub sha256: String,
}

/// The field of a file that says which format it is (read first, so an
/// earlier format is named as such rather than as corrupt).
#[derive(Debug, Deserialize)]
pub struct FormatOnly {
    /// The `format` field.
    pub format: String,
}

/// Whether `format` is an earlier format of the same kind as `current`
/// (same prefix, a smaller number): such files were written by an earlier
/// version of optimoo.
pub fn is_earlier_format(format: &str, prefix: &str, current: &str) -> bool {
    let version = |f: &str| f.strip_prefix(prefix).and_then(|v| v.parse::<u32>().ok());
    matches!((version(format), version(current)), (Some(a), Some(b)) if a < b)
}

/// The canonical bytes a hash of the folder covers, fed straight into
/// SHA-256. The encoding (also in docs/scale.md):
/// - an integer: 8 bytes, little-endian (`usize` as `u64`);
/// - a boolean: 1 byte, 0 or 1;
/// - a real number: its IEEE 754 binary64 bits as an integer;
/// - a string: its length in bytes as an integer, then its UTF-8 bytes;
/// - a value that may be null: 1 byte 0 for null, else 1 byte 1 and the
///   value;
/// - a list: its length as an integer, then each element;
/// - a record: each field in a fixed order, as its name (a string) then
///   its value;
/// - the whole: the file's format (a string), then the record.
pub struct Canon(Sha256);

impl Canon {
    /// Starts the bytes of a file of `format`.
    pub fn new(format: &str) -> Canon {
        let mut c = Canon(Sha256::new());
        c.str(format);
        c
    }

    /// A field's name (its value follows).
    pub fn field(&mut self, name: &str) -> &mut Canon {
        self.str(name);
        self
    }

    /// An integer.
    pub fn int(&mut self, v: u64) -> &mut Canon {
        self.0.update(v.to_le_bytes());
        self
    }

    /// A boolean.
    pub fn bool(&mut self, v: bool) -> &mut Canon {
        self.0.update([u8::from(v)]);
        self
    }

    /// A real number.
    pub fn real(&mut self, v: f64) -> &mut Canon {
        self.int(v.to_bits())
    }

    /// A string.
    pub fn str(&mut self, v: &str) -> &mut Canon {
        self.int(v.len() as u64);
        self.0.update(v.as_bytes());
        self
    }

    /// A value that may be null, written by `some` when it is not.
    pub fn opt<T>(&mut self, v: Option<T>, some: impl FnOnce(&mut Canon, T)) -> &mut Canon {
        match v {
            None => {
                self.0.update([0]);
            }
            Some(x) => {
                self.0.update([1]);
                some(self, x);
            }
        }
        self
    }

    /// A list's length (its elements follow).
    pub fn len(&mut self, n: usize) -> &mut Canon {
        self.int(n as u64)
    }

    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl UnitFile {
    /// The SHA-256 of the canonical bytes ([`Canon`]) of every field but
    /// `sha256`, in this order: plan_id, unit, guess, answer, second,
    /// cutoff, exact, value, subtree (a list of code indices), seconds,
    /// nodes, peak_kib, and `stopped` only when true (so files written
    /// before it keep their hash).
    pub fn compute_sha256(&self) -> String {
        let mut c = Canon::new(&self.format);
        c.field("plan_id").str(&self.plan_id);
        c.field("unit").int(self.unit as u64);
        c.field("guess").str(&self.guess);
        c.field("answer").str(&self.answer);
        c.field("second").opt(self.second.as_deref(), |c, s| {
            c.str(s);
        });
        c.field("cutoff").int(self.cutoff);
        c.field("exact").bool(self.exact);
        c.field("value").int(self.value);
        c.field("subtree").opt(self.subtree.as_deref(), |c, codes| {
            c.len(codes.len());
            for &g in codes {
                c.int(u64::from(g));
            }
        });
        c.field("seconds").real(self.seconds);
        c.field("nodes").int(self.nodes);
        c.field("peak_kib").opt(self.peak_kib, |c, k| {
            c.int(k);
        });
        if self.stopped {
            c.field("stopped").bool(true);
        }
        c.finish()
    }
}

/// The plan's identity: the SHA-256 of the canonical bytes ([`Canon`]) of
/// everything that defines the problem and the units, in this order:
/// game, cap, objective, version, depth, proven_upper (it decides which
/// first guesses are planned), proven_by, min_cap (cap, counted, searches
/// as records of cap, feasible, seconds, and nodes), guesses (guess,
/// bound) and units (guess, answer, secrets, lower, second, second_bound).
/// Not the generation, the assumed upper bound or the units' cut-offs,
/// which change from one generation to the next.
pub fn plan_id(file: &PlanFile) -> String {
    let mut c = Canon::new(&file.format);
    c.field("game").str(&file.game);
    c.field("cap").opt(file.cap, |c, v| {
        c.int(v as u64);
    });
    c.field("objective").str(&file.objective);
    c.field("version").str(&file.version);
    c.field("depth").int(file.depth as u64);
    c.field("proven_upper").opt(file.proven_upper, |c, v| {
        c.int(v);
    });
    c.field("proven_by").opt(file.proven_by.as_deref(), |c, v| {
        c.str(v);
    });
    c.field("min_cap").opt(file.min_cap.as_ref(), |c, m| {
        c.field("cap").int(m.cap as u64);
        c.field("counted").int(m.counted as u64);
        c.field("searches").len(m.searches.len());
        for &(cap, feasible, seconds) in &m.searches {
            c.field("cap").int(cap as u64);
            c.field("feasible").bool(feasible);
            c.field("seconds").real(seconds);
        }
        c.field("nodes").int(m.nodes);
    });
    c.field("guesses").len(file.guesses.len());
    for g in &file.guesses {
        c.field("guess").str(&g.guess);
        c.field("bound").int(g.bound);
    }
    c.field("units").len(file.units.len());
    for u in &file.units {
        c.field("guess").str(&u.guess);
        c.field("answer").str(&u.answer);
        c.field("secrets").int(u.secrets as u64);
        c.field("lower").int(u.lower);
        c.field("second").opt(u.second.as_deref(), |c, v| {
            c.str(v);
        });
        c.field("second_bound").opt(u.second_bound, |c, v| {
            c.int(v);
        });
    }
    c.finish()
}

/// The plan file of a library plan.
#[allow(clippy::too_many_arguments)]
pub fn plan_file(
    game: &Game,
    plan: &Plan,
    cap: Option<usize>,
    objective: Objective,
    upper: u64,
    proven: Option<(u64, String)>,
    min_cap: Option<&MinCap>,
) -> PlanFile {
    let mut file = PlanFile {
        format: PLAN_FORMAT.into(),
        plan_id: String::new(),
        generation: 1,
        game: game.rules().to_string(),
        cap,
        objective: objective.name().into(),
        version: env!("CARGO_PKG_VERSION").into(),
        depth: plan.depth,
        upper: (upper < INF).then_some(upper),
        proven_upper: proven.as_ref().map(|p| p.0),
        proven_by: proven.map(|p| p.1),
        min_cap: min_cap.map(|m| MinCapRecord {
            cap: m.cap,
            counted: m.counted,
            searches: m.searches.clone(),
            nodes: m.nodes,
        }),
        guesses: plan
            .guesses
            .iter()
            .map(|g| GuessRecord {
                guess: game.format_code(g.guess),
                bound: g.bound,
            })
            .collect(),
        units: plan
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| UnitRecord {
                guess: game.format_code(plan.guesses[u.guess].guess),
                answer: game.format_feedback(u.answer),
                secrets: u.secrets,
                lower: u.lower,
                second: u.second.as_ref().map(|h| game.format_code(h.guess)),
                second_bound: u.second.as_ref().map(|h| h.bound),
                cutoff: plan.cutoff(i, upper),
            })
            .collect(),
    };
    file.plan_id = plan_id(&file);
    file
}

#[cfg(test)]
mod tests {
    /// The unit file's hash covers `seconds` bit for bit, so the JSON
    /// reader must give back the very `f64` the writer wrote: serde_json's
    /// `float_roundtrip` (without it 15.858298487999999 came back one unit
    /// in the last place off, and a unit of data/runs/mm-5x6 was refused as
    /// corrupt).
    #[test]
    fn seconds_round_trip_bit_for_bit() {
        let mut rng = optimoo::rng::SplitMix64::new(5);
        let mut values = vec![15.858298487999999f64, 876.42, 0.1, 1e-9, 5806.7];
        values.extend((0..10_000).map(|_| rng.below(1 << 30) as f64 / 7919.0));
        for v in values {
            let text = serde_json::to_string_pretty(&serde_json::json!({ "seconds": v })).unwrap();
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            let b = back["seconds"].as_f64().unwrap();
            assert_eq!(b.to_bits(), v.to_bits(), "{v} read back as {b}");
        }
    }
}
