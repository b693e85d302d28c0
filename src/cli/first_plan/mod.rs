//! `plan`, `work`, `status` and `merge` on a proof over first guesses:
//! every allowed first guess of a word-list game (`--game wordle`, or
//! `--rules R --secrets F --guesses F`) valued by the exact search
//! (`optimoo::search::FirstGuesses`), cut into units of N words that any
//! machine runs alone; merged, the least value is the game's optimum,
//! proved when every other word is worth as much or more.
//!
//! The folder: DIR/first.json (the game's word lists, its rule and cap,
//! the cut-off C, the units' size, the heuristic's words the plan valued)
//! and DIR/first/I.json (unit I: each word's outcome, exact below C or
//! proved at least C, and its seconds). Invariants: every word of a unit
//! file is valued under the plan's C, so a value under C is exact and a
//! bound is at least C: the least exact value is below every bound, and
//! merge says "proved optimal" only when it is also at most every other
//! exact value and no unit is missing. A unit file names the plan's id (a
//! hash of first.json's content) and lists the unit's words in the plan's
//! order, so a unit of another plan or of an edited plan is refused; it
//! carries the SHA-256 of its canonical bytes
//! ([`super::checkpoint::Canon`]), so a file edited by hand or damaged is
//! refused; unit files are written through a temporary file and renamed
//! without overwriting (a stopped unit loses at most itself). As with the
//! other plans, the hashes catch accidents, not forgery: `merge --audit F`
//! values a sample of the units again.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use optimoo::model::partition;
use optimoo::model::secrets::{Alphabet, GuessMode, SecretSet};
use optimoo::model::{AnswerRule, Code, CodeList, Game};
use optimoo::observe::Silent;
use optimoo::search::{Driver, FirstGuesses, Outcome, Tuning, INF};

use super::checkpoint::Canon;
use super::output::Output;
use super::plan_kinds::PlanKind;
use crate::exit::say;

/// The plan's file in DIR.
pub const PLAN: &str = PlanKind::First.file();
/// The units' folder in DIR.
const UNITS: &str = "first";
/// What first.json holds.
const KIND: &str = "first-guesses";
/// The format the unit files' hash starts from.
const UNIT_FORMAT: &str = "optimoo-first-unit/1";
/// The units a plan aims at when `--words-per-unit` is not given.
pub const UNITS_WANTED: usize = 128;
/// The heuristic's first words the plan values exactly.
pub const SEEDS: usize = 10;
/// The default cut-off's margin above the best value the plan found.
pub const MARGIN: u64 = 40;
/// The largest unit file read (a unit of every word of a large list).
const UNIT_MAX_BYTES: u64 = 64 << 20;

/// DIR/first.json.
#[derive(Debug, Serialize, Deserialize)]
pub struct PlanFile {
    /// What the folder holds: `first-guesses`.
    pub kind: String,
    /// The game's name (`wordle`, or the guesses' file).
    pub game: String,
    /// The answer rule.
    pub rule: String,
    /// The letters of the words, in symbol order.
    pub alphabet: String,
    /// Every code of the game (the allowed guesses' list), in code order,
    /// separated by spaces.
    pub guesses: String,
    /// The secrets, separated by spaces.
    pub secrets: String,
    /// Which codes may be guessed: `all` or `secrets`.
    pub guess_mode: String,
    /// Most guesses a secret may take (none: no cap).
    pub cap: Option<usize>,
    /// The cut-off C: values below it are exact, the others proved at
    /// least C.
    pub below: u64,
    /// How C was chosen.
    pub below_from: String,
    /// Words in a unit (the last may hold fewer).
    pub words_per_unit: usize,
    /// The units: the allowed guesses in code order, cut every
    /// `words_per_unit`.
    pub units: usize,
    /// The allowed guesses.
    pub words: usize,
    /// The heuristic's words the plan valued exactly to choose C.
    pub seeds: Vec<Seed>,
}

/// A word the plan valued.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Seed {
    /// The first guess.
    pub word: String,
    /// Its exact value (none: no tree within the cap opens with it).
    pub value: Option<u64>,
    /// Seconds it took.
    pub seconds: f64,
}

/// One word's outcome in a unit file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WordResult {
    /// The first guess.
    pub word: String,
    /// Whether `value` is the exact value (below C) or a bound (at least
    /// C).
    pub exact: bool,
    /// The value or the bound; none: no tree within the cap opens with
    /// the word.
    pub value: Option<u64>,
    /// Wall seconds it took.
    pub seconds: f64,
}

/// DIR/first/I.json.
#[derive(Debug, Serialize, Deserialize)]
pub struct UnitFile {
    /// `UNIT_FORMAT` (`optimoo-first-unit/1`).
    pub format: String,
    /// The plan's id.
    pub plan_id: String,
    /// The unit's index.
    pub unit: usize,
    /// The cut-off the words were valued under.
    pub below: u64,
    /// Each word's outcome, in the plan's order.
    pub words: Vec<WordResult>,
    /// Wall seconds of the unit.
    pub seconds: f64,
    /// CPU seconds (user and system, every thread) of the process while
    /// it valued the unit; the wall seconds where /proc cannot tell.
    pub cpu_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// [`UnitFile::compute_sha256`].
    pub sha256: String,
}

impl UnitFile {
    /// The SHA-256 of the canonical bytes (docs/scale.md) of every field
    /// but `sha256`, in order.
    pub fn compute_sha256(&self) -> String {
        let mut c = Canon::new(UNIT_FORMAT);
        c.field("format").str(&self.format);
        c.field("plan_id").str(&self.plan_id);
        c.field("unit").int(self.unit as u64);
        c.field("below").int(self.below);
        c.field("words").len(self.words.len());
        for w in &self.words {
            c.str(&w.word).bool(w.exact);
            c.opt(w.value, |c, v| {
                c.int(v);
            });
            c.real(w.seconds);
        }
        c.field("seconds").real(self.seconds);
        c.field("cpu_seconds").real(self.cpu_seconds);
        c.field("threads").int(self.threads as u64);
        c.finish()
    }
}

/// The game of a plan, and its plan file's id.
pub struct Opened {
    /// first.json.
    pub file: PlanFile,
    /// The plan's id.
    pub id: String,
    /// The game it plays.
    pub game: Game,
    /// The allowed guesses, in code order.
    pub words: Vec<Code>,
}

impl PlanFile {
    /// The plan's id: FNV-1a over its JSON (names the plan, catches
    /// mix-ups).
    fn id(&self) -> anyhow::Result<String> {
        let text = serde_json::to_string(self)?;
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        Ok(format!("{hash:016x}"))
    }

    /// The game the plan records.
    fn game(&self) -> anyhow::Result<Game> {
        let alphabet = Alphabet::new(&self.alphabet).context("first.json: alphabet")?;
        let text = self.guesses.split(' ').collect::<Vec<_>>().join("\n");
        let list =
            CodeList::parse(&text, Some(&alphabet), &self.game).context("first.json: guesses")?;
        let rule: AnswerRule = self
            .rule
            .parse()
            .map_err(|e| anyhow::anyhow!("first.json: rule {:?}: {e}", self.rule))?;
        let all = Game::of_list(list, rule, None).context("first.json")?;
        let codes = self
            .secrets
            .split(' ')
            .map(|w| all.parse_code(w))
            .collect::<Result<Vec<_>, _>>()
            .context("first.json: secrets")?;
        let mode = GuessMode::NAMES
            .iter()
            .find(|(n, _)| *n == self.guess_mode)
            .map(|&(_, m)| m)
            .with_context(|| format!("first.json: guess_mode {:?}", self.guess_mode))?;
        let set = SecretSet::new(codes, mode, None, self.game.clone())
            .context("first.json: no secret")?;
        Ok(all.with_secret_set(set))
    }
}

/// The allowed first guesses of `game`, in code order.
fn allowed(game: &Game) -> Vec<Code> {
    (0..game.len())
        .map(|i| Code(i as u16))
        .filter(|&c| game.is_guess(c))
        .collect()
}

/// The allowed guesses ranked by the most-parts heuristic at the root:
/// most classes first, then the least sum of squared class sizes, then
/// code order.
fn ranked(game: &Game, words: &[Code]) -> Vec<Code> {
    let secrets = game.secrets();
    let mut counts = vec![0u32; game.rules().feedback_slots()];
    let mut keyed: Vec<(std::cmp::Reverse<usize>, u64, Code)> = words
        .iter()
        .map(|&g| {
            partition::count(game, g, &secrets, &mut counts);
            let parts = counts.iter().filter(|&&n| n > 0).count();
            let squares = counts.iter().map(|&n| u64::from(n) * u64::from(n)).sum();
            (std::cmp::Reverse(parts), squares, g)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, _, g)| g).collect()
}

/// The search's tuning for a memo of `memo_mib` MiB.
fn tuning(memo_mib: usize) -> anyhow::Result<Tuning> {
    Ok(Tuning {
        memo_codes: super::memory::memo_codes(memo_mib)?,
        ..Tuning::default()
    })
}

/// Refuses a folder that holds a plan (of first guesses: it would be
/// overwritten; of another kind: it would be hidden).
fn refuse_other_plans(dir: &Path) -> anyhow::Result<()> {
    let path = dir.join(PLAN);
    if path.exists() {
        bail!(
            "{} exists: give a new folder for a new plan",
            path.display()
        );
    }
    super::plan_kinds::refuse_other_plans(dir, PlanKind::First)
}

/// What `plan` is given for a plan of first guesses.
pub struct PlanArgs<'a> {
    /// The checkpoint folder.
    pub dir: &'a Path,
    /// The game's name, as first.json records it.
    pub name: String,
    /// Most guesses a secret may take.
    pub cap: Option<usize>,
    /// `--below C`.
    pub below: Option<u64>,
    /// `--words-per-unit N`.
    pub words_per_unit: Option<usize>,
    /// The memo's MiB while valuing the heuristic's words.
    pub memo_mib: usize,
    /// Worker threads.
    pub threads: usize,
    /// One JSON object instead of the summary.
    pub json: bool,
}

/// Writes DIR/first.json: the allowed guesses of `game` cut into units,
/// and the cut-off: `--below`, else the best value of the heuristic's ten
/// first words plus [`MARGIN`], and at least one above the tenth of them.
pub fn plan(args: PlanArgs<'_>, game: &Game) -> anyhow::Result<ExitCode> {
    let dir = args.dir;
    refuse_other_plans(dir)?;
    let Some(list) = game.code_list() else {
        bail!("a plan of first guesses plays a word list (--game wordle, --guesses FILE)");
    };
    if game.rules().guesses() != optimoo::model::GuessRule::Any {
        bail!("a plan of first guesses takes any listed guess (no --hard, no --guesses consistent) so far");
    }
    let words = allowed(game);
    let per = match args.words_per_unit {
        Some(0) => bail!("--words-per-unit 0: give at least 1"),
        Some(n) => n,
        None => words.len().div_ceil(UNITS_WANTED).max(1),
    };
    if args.below == Some(0) {
        bail!("--below 0: no value is below 0; give a cut-off above the best value expected");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (below, below_from, seeds) = match args.below {
        Some(c) => (c.min(INF), "given (--below)".to_string(), Vec::new()),
        None => {
            let config = optimoo::search::Config {
                cap: args.cap,
                tuning: tuning(args.memo_mib)?,
                ..optimoo::search::Config::default()
            };
            // Stated on stderr, refused when it does not fit.
            let tuning = super::memory::fit(game, config, args.threads, None, false)?.tuning;
            let driver = Driver {
                par: &crate::driver::Rayon,
                observer: &Silent,
            };
            let search = FirstGuesses::new(game, args.cap, tuning, driver)?;
            let mut seeds = Vec::new();
            for &g in ranked(game, &words).iter().take(SEEDS) {
                let start = Instant::now();
                let value = match search.value(g, INF)? {
                    Outcome::Exact(v) => Some(v),
                    Outcome::AtLeast(_) => None,
                };
                let seed = Seed {
                    word: game.format_code(g),
                    value,
                    seconds: start.elapsed().as_secs_f64(),
                };
                say(&format!(
                    "plan: {} {} ({:.2} s)",
                    seed.word,
                    seed.value
                        .map_or("no tree within the cap".into(), |v| v.to_string()),
                    seed.seconds
                ));
                seeds.push(seed);
            }
            let values: Vec<u64> = seeds.iter().filter_map(|s| s.value).collect();
            match (values.iter().min(), values.iter().max()) {
                (Some(&best), Some(&last)) => {
                    let c = (best + MARGIN).max(last + 1);
                    let from = if c == best + MARGIN {
                        format!("the best of the heuristic's first words ({best}) + {MARGIN}")
                    } else {
                        format!(
                            "one above the worst of the heuristic's {} first words ({last})",
                            values.len()
                        )
                    };
                    (c, from, seeds)
                }
                _ => (
                    INF,
                    "none (no heuristic word meets the cap): every value exact".to_string(),
                    seeds,
                ),
            }
        }
    };
    let secrets: Vec<String> = game
        .secrets()
        .iter()
        .map(|&c| game.format_code(c))
        .collect();
    let mode = game.secret_set().map_or(GuessMode::All, |s| s.guesses);
    let file = PlanFile {
        kind: KIND.into(),
        game: args.name,
        rule: game.rules().answer().name().into(),
        alphabet: list.alphabet().text(),
        guesses: (0..game.len())
            .map(|i| game.format_code(Code(i as u16)))
            .collect::<Vec<_>>()
            .join(" "),
        secrets: secrets.join(" "),
        guess_mode: mode.name().into(),
        cap: args.cap,
        below,
        below_from,
        words_per_unit: per,
        units: words.len().div_ceil(per),
        words: words.len(),
        seeds,
    };
    let path = dir.join(PLAN);
    let text = serde_json::to_string_pretty(&file)? + "\n";
    Output::create(&path)?.commit(text.as_bytes())?;
    let id = file.id()?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = serde_json::json!({
            "dir": dir.display().to_string(), "plan_id": id, "game": file.game,
            "strategy": KIND, "words": file.words, "secrets": game.secret_count(),
            "units": file.units, "words_per_unit": per, "cap": file.cap,
            "below": (below < INF).then_some(below), "below_from": file.below_from,
            "seeds": file.seeds,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "plan       {}", path.display())?;
        writeln!(
            out,
            "game       {}: {} first guesses, {} secrets, {} rule, cap {}",
            file.game,
            file.words,
            game.secret_count(),
            file.rule,
            file.cap.map_or("none".into(), |c| c.to_string())
        )?;
        if let Some(best) = file
            .seeds
            .iter()
            .filter(|s| s.value.is_some())
            .min_by_key(|s| s.value)
        {
            writeln!(
                out,
                "incumbent  {} {} (the best of the {} heuristic first words valued)",
                best.word,
                best.value.unwrap_or(INF),
                file.seeds.len()
            )?;
        }
        writeln!(
            out,
            "cut-off    {} ({}): values below it are exact, the others proved at least it",
            show(below),
            file.below_from
        )?;
        let plural = if per == 1 { "" } else { "s" };
        writeln!(out, "units      {} of {per} word{plural}", file.units)?;
        writeln!(
            out,
            "next       optimoo work {} --unit I   (I = 0 … {}), then optimoo merge {}",
            dir.display(),
            file.units.saturating_sub(1),
            dir.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A cut-off as printed: the number, or "none".
fn show(c: u64) -> String {
    if c < INF {
        c.to_string()
    } else {
        "none".into()
    }
}

/// Reads DIR/first.json, if the folder holds a plan of first guesses,
/// and the game it records.
pub fn open(dir: &Path) -> anyhow::Result<Option<Opened>> {
    let path = dir.join(PLAN);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = super::checkpoint::read_bounded(&path, super::checkpoint::PLAN_MAX_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?
        .with_context(|| format!("cannot read {}", path.display()))?;
    let file: PlanFile = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{} is not a plan of first guesses of optimoo",
            path.display()
        )
    })?;
    if file.kind != KIND {
        bail!("{}: kind {:?}, not {KIND}", path.display(), file.kind);
    }
    let game = file.game().with_context(|| path.display().to_string())?;
    let words = allowed(&game);
    if words.len() != file.words
        || file.words_per_unit == 0
        || file.units != words.len().div_ceil(file.words_per_unit)
    {
        bail!(
            "{}: its words and units do not agree with its lists (edited?)",
            path.display()
        );
    }
    let id = file.id()?;
    Ok(Some(Opened {
        file,
        id,
        game,
        words,
    }))
}

impl Opened {
    /// Unit `u`'s words.
    fn unit_words(&self, u: usize) -> &[Code] {
        let per = self.file.words_per_unit;
        &self.words[u * per..((u + 1) * per).min(self.words.len())]
    }

    fn unit_path(&self, dir: &Path, u: usize) -> PathBuf {
        dir.join(UNITS).join(format!("{u}.json"))
    }

    /// Reads unit `u`'s file (`None` when absent), refused unless it is
    /// of this plan, of this unit, with its hash, the unit's words in
    /// order, and outcomes that agree with the cut-off.
    pub fn read_unit(&self, dir: &Path, u: usize) -> anyhow::Result<Option<UnitFile>> {
        let path = self.unit_path(dir, u);
        let Some(bytes) = super::checkpoint::read_bounded(&path, UNIT_MAX_BYTES)
            .with_context(|| format!("cannot read {}", path.display()))?
        else {
            return Ok(None);
        };
        let redo = || {
            format!(
                "delete it and run optimoo work {} --unit {u} again",
                dir.display()
            )
        };
        let file: UnitFile = serde_json::from_slice(&bytes).with_context(|| {
            format!(
                "{} is not a unit file of a plan of first guesses: {}",
                path.display(),
                redo()
            )
        })?;
        if file.format != UNIT_FORMAT {
            bail!(
                "{}: format {:?}, not {UNIT_FORMAT}: {}",
                path.display(),
                file.format,
                redo()
            );
        }
        if file.plan_id != self.id || file.unit != u {
            bail!(
                "{}: a unit of another plan (or another unit): {}",
                path.display(),
                redo()
            );
        }
        if file.sha256 != file.compute_sha256() {
            bail!(
                "{}: its sha256 does not match its content (edited or damaged): {}",
                path.display(),
                redo()
            );
        }
        let want = self.unit_words(u);
        let same = file.words.len() == want.len()
            && file
                .words
                .iter()
                .zip(want)
                .all(|(w, &c)| w.word == self.game.format_code(c));
        if !same || file.below != self.file.below {
            bail!(
                "{}: not this plan's words or cut-off: {}",
                path.display(),
                redo()
            );
        }
        for w in &file.words {
            let fits = match (w.exact, w.value) {
                (true, Some(v)) => v < file.below,
                (false, Some(b)) => b >= file.below,
                (false, None) => true,
                (true, None) => false,
            };
            if !fits {
                bail!(
                    "{}: {}'s outcome contradicts the cut-off {}: {}",
                    path.display(),
                    w.word,
                    file.below,
                    redo()
                );
            }
        }
        Ok(Some(file))
    }
}

/// Values the words of `codes` under the plan's cut-off, saying on
/// stderr where unit `u` stands every few seconds.
fn value_words(
    opened: &Opened,
    search: &FirstGuesses<'_>,
    u: usize,
    codes: &[Code],
) -> anyhow::Result<Vec<WordResult>> {
    let start = Instant::now();
    let mut said = start;
    let mut words = Vec::with_capacity(codes.len());
    for (k, &g) in codes.iter().enumerate() {
        let t = Instant::now();
        let below = opened.file.below;
        let outcome = search.value(g, below)?;
        if matches!(outcome, Outcome::Exact(v) if v >= below)
            || matches!(outcome, Outcome::AtLeast(b) if b < below)
        {
            bail!(
                "unit {u}: the search says {outcome} of {} under the cut-off {below}: a bug \
                 of this version; nothing written",
                opened.game.format_code(g)
            );
        }
        let (exact, value) = match outcome {
            Outcome::Exact(v) => (true, Some(v)),
            Outcome::AtLeast(b) => (false, (b < INF).then_some(b)),
        };
        words.push(WordResult {
            word: opened.game.format_code(g),
            exact,
            value,
            seconds: t.elapsed().as_secs_f64(),
        });
        if said.elapsed().as_secs_f64() >= 5.0 {
            said = Instant::now();
            say(&format!(
                "unit {u}: {} of {} words, {:.1} s",
                k + 1,
                codes.len(),
                start.elapsed().as_secs_f64()
            ));
        }
    }
    Ok(words)
}

/// Values the units (those not done yet) and writes DIR/first/I.json.
pub fn work(
    dir: &Path,
    opened: &Opened,
    units: &[usize],
    threads: usize,
    memo_mib: usize,
    max_memory: Option<u64>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let folder = dir.join(UNITS);
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let mut todo = Vec::new();
    for &u in units {
        if opened.read_unit(dir, u)?.is_some() {
            say(&format!(
                "unit {u}: done already ({})",
                opened.unit_path(dir, u).display()
            ));
        } else {
            todo.push(u);
        }
    }
    if todo.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let driver = Driver {
        par: &crate::driver::Rayon,
        observer: &Silent,
    };
    // Stated on stderr, refused when it does not fit (--max-memory, else
    // the memory available); a memo too large for it is shrunk.
    let config = optimoo::search::Config {
        cap: opened.file.cap,
        tuning: tuning(memo_mib)?,
        ..optimoo::search::Config::default()
    };
    let tuning = super::memory::fit(&opened.game, config, threads, max_memory, false)?.tuning;
    let search = FirstGuesses::new(&opened.game, opened.file.cap, tuning, driver)?;
    let mut out = std::io::stdout().lock();
    for u in todo {
        let start = Instant::now();
        let cpu = super::checkpoint::cpu_seconds();
        let words = value_words(opened, &search, u, opened.unit_words(u))?;
        let seconds = start.elapsed().as_secs_f64();
        let cpu_after = super::checkpoint::cpu_seconds();
        let mut record = UnitFile {
            format: UNIT_FORMAT.into(),
            plan_id: opened.id.clone(),
            unit: u,
            below: opened.file.below,
            words,
            seconds,
            cpu_seconds: if cpu >= 0.0 && cpu_after >= cpu {
                cpu_after - cpu
            } else {
                seconds
            },
            threads,
            sha256: String::new(),
        };
        record.sha256 = record.compute_sha256();
        let mine = write_unit(dir, opened, &record)?;
        let exact: Vec<&WordResult> = record.words.iter().filter(|w| w.exact).collect();
        if json {
            writeln!(out, "{}", serde_json::to_string(&record)?)?;
        } else {
            let best = exact.iter().min_by_key(|w| w.value);
            writeln!(
                out,
                "unit {u}: {} words, {} exact{}, {:.1} s ({:.1} CPU-s){}",
                record.words.len(),
                exact.len(),
                best.map_or(String::new(), |w| format!(
                    " (best {} {})",
                    w.word,
                    w.value.unwrap_or(INF)
                )),
                record.seconds,
                record.cpu_seconds,
                if mine {
                    ""
                } else {
                    "; written first by another worker, kept"
                }
            )?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes a unit file through a temporary file renamed without
/// overwriting: false when another worker wrote it first (its file is
/// kept when it agrees, refused when its exact values differ).
fn write_unit(dir: &Path, opened: &Opened, record: &UnitFile) -> anyhow::Result<bool> {
    let u = record.unit;
    let path = opened.unit_path(dir, u);
    let folder = dir.join(UNITS);
    let mut temp = super::output::new_file(&format!(".{u}.json."))
        .tempfile_in(&folder)
        .with_context(|| format!("cannot write in {}", folder.display()))?;
    let text = serde_json::to_string_pretty(record)? + "\n";
    temp.write_all(text.as_bytes())
        .and_then(|_| temp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    match temp.persist_noclobber(&path) {
        Ok(_) => Ok(true),
        Err(_) if path.exists() => {
            let Some(other) = opened.read_unit(dir, u)? else {
                bail!("cannot write {}", path.display());
            };
            if let Some(w) = differs(&other.words, &record.words) {
                bail!(
                    "{} already holds a different result ({w}): one of them is wrong; check \
                     the files and the versions that wrote them",
                    path.display()
                );
            }
            Ok(false)
        }
        Err(e) => Err(e.error).with_context(|| format!("cannot write {}", path.display())),
    }
}

/// The first word whose outcomes contradict each other (exactness, or an
/// exact value), said.
fn differs(a: &[WordResult], b: &[WordResult]) -> Option<String> {
    a.iter().zip(b).find_map(|(x, y)| {
        let same = x.word == y.word && x.exact == y.exact && (!x.exact || x.value == y.value);
        (!same).then(|| {
            format!(
                "{}: {} against {}",
                x.word,
                outcome_text(x),
                outcome_text(y)
            )
        })
    })
}

/// `7920`, `at least 7960`, or `no tree within the cap`.
fn outcome_text(w: &WordResult) -> String {
    match (w.exact, w.value) {
        (true, Some(v)) => v.to_string(),
        (_, Some(b)) => format!("at least {b}"),
        (_, None) => "no tree within the cap".into(),
    }
}

mod results;
pub use results::{audit, merge, status, BEST};
