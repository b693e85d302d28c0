//! The files of a checkpoint folder as serde types: `plan.json`
//! ([`PlanFile`]) and `units/I.json` ([`UnitFile`]), and the plan's
//! identity ([`plan_id`]).
//!
//! Invariant: `plan_id` hashes everything that defines the problem and the
//! units (never the generation or the assumed upper bound), so unit files
//! stay valid across generations and a file of another plan is recognized.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use optimoo::model::game::Game;
use optimoo::search::bound::INF;
use optimoo::search::plan::Plan;
use optimoo::search::MinCap;
use optimoo::tree::format::{crc32, Objective};

/// The plan's file name in the folder.
pub const PLAN_FILE: &str = "plan.json";
/// The folder of unit files.
pub const UNITS_DIR: &str = "units";
/// `format` of plan.json.
pub const PLAN_FORMAT: &str = "optimoo-plan/1";
/// `format` of a unit file.
pub const UNIT_FORMAT: &str = "optimoo-unit/1";

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
    /// The exact cost, or a proven lower bound at least `cutoff`.
    pub value: u64,
    /// The optimal subtree (exact only): guesses in preorder as code
    /// indices, single-secret leaves implied.
    pub subtree: Option<Vec<u16>>,
    /// Wall time of the unit (not compared).
    pub seconds: f64,
    /// Search nodes (not compared).
    pub nodes: u64,
    /// Peak resident memory of the process that solved it, KiB (not
    /// compared; `null` where /proc is not available).
    pub peak_kib: Option<u64>,
    /// CRC-32 of the result fields, hex.
    pub checksum: String,
}

impl UnitFile {
    /// The checksum of the fields that make the result.
    pub fn compute_checksum(&self) -> String {
        let text = format!(
            "{}|{}|{}|{}|{:?}|{}|{}|{}|{:?}",
            self.plan_id,
            self.unit,
            self.guess,
            self.answer,
            self.second,
            self.cutoff,
            self.exact,
            self.value,
            self.subtree
        );
        format!("{:08x}", crc32(text.as_bytes()))
    }
}

/// The hash identifying a plan: game, cap, objective, version, the proven
/// upper bound (it decides which first guesses are planned) and units.
/// Two CRC-32s of the same text with different prefixes give 64 bits (the
/// tree file's CRC is the one hash the library has; this is no defence
/// against forgery, only against mixing folders up).
pub fn plan_id(file: &PlanFile) -> String {
    let mut text = format!(
        "{}|{}|{:?}|{}|{}|{}|{:?}",
        PLAN_FORMAT,
        file.game,
        file.cap,
        file.objective,
        file.version,
        file.depth,
        file.proven_upper
    );
    for g in &file.guesses {
        text.push_str(&format!("|g{}:{}", g.guess, g.bound));
    }
    for u in &file.units {
        text.push_str(&format!(
            "|u{}:{}:{}:{}:{:?}:{:?}",
            u.guess, u.answer, u.secrets, u.lower, u.second, u.second_bound
        ));
    }
    let a = crc32(format!("a{text}").as_bytes());
    let b = crc32(format!("b{text}").as_bytes());
    format!("{a:08x}{b:08x}")
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
