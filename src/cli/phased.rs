//! `optimoo eval --strategy phased` (and any strategy on a game of more
//! than 65,535 codes): the phased strategy, or the first candidate, played
//! over every secret or a uniform sample without the feedback table or the
//! tree (`optimoo::heuristic::phased` on `optimoo::model::shape`). With
//! `-o FILE` the phased strategy's tree file is written: through the
//! model's tree for a game it handles, straight from the walk
//! (`heuristic::phased::walk::encode`) for a larger one, replayed before
//! it is written.
//!
//! The memory is stated before the work and refused when it does not fit;
//! the walk reports to the driver's observer (`Terminal::secrets`: a bar
//! with the time left, drawn on a terminal).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use serde::Serialize;

use optimoo::heuristic::phased::walk;
use optimoo::heuristic::phased::{Chooser, Phased};
use optimoo::heuristic::Heuristic;
use optimoo::model::shape::Shape;
use optimoo::model::{Game, Objective};
use optimoo::tree::format::shape as shape_file;
use optimoo::tree::format::TreeFile;
use optimoo::tree::Stats;

use super::memory;
use super::output::Output;
use crate::driver::progress::Terminal;
use crate::exit::say;

/// What `eval` asks of the phased walk.
#[derive(Debug)]
pub struct Request {
    /// The game.
    pub shape: Shape,
    /// Play `first` (the first candidate) and/or the phased strategy.
    pub strategies: Vec<Heuristic>,
    /// The phased options (the first guess included).
    pub phased: Phased,
    /// Play this many secrets drawn from `seed`, instead of all.
    pub sample: Option<u64>,
    /// The seed of the sample.
    pub seed: u64,
    /// Write the phased strategy's tree file here.
    pub output: Option<PathBuf>,
    /// One JSON line per strategy.
    pub json: bool,
}

/// One strategy played: a JSON line or a row of the table.
#[derive(Debug, Serialize)]
pub struct PhasedRow {
    /// The game.
    pub game: String,
    /// `phased` or `first`.
    pub strategy: &'static str,
    /// The phased strategy's score (`null` for first).
    pub heuristic: Option<&'static str>,
    /// Secrets played.
    pub secrets: u64,
    /// The game's secrets.
    pub population: u64,
    /// Guesses over the secrets played.
    pub total: u64,
    /// `total` per secret.
    pub average: f64,
    /// With `--sample` of two secrets or more: the 95 % confidence
    /// interval of the whole game's average (absent for one secret).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<[f64; 2]>,
    /// Most guesses a played secret needed.
    pub max_depth: usize,
    /// Secrets solved in 1, 2, … guesses.
    pub histogram: Vec<u64>,
    /// Wall time.
    pub seconds: f64,
    /// The phased thresholds (`null` for first).
    pub options: Option<Phased>,
}

impl PhasedRow {
    /// The row of `stats` (a sample of `sample` secrets, or every one),
    /// played by `o` in `seconds`.
    pub fn new(shape: Shape, o: &Phased, stats: &Stats, sample: bool, seconds: f64) -> PhasedRow {
        let population = shape.code_count() as u64;
        let first = o.heuristic == Heuristic::First;
        PhasedRow {
            game: shape.to_string(),
            strategy: if first { "first" } else { "phased" },
            heuristic: (!first).then(|| o.heuristic.name()),
            secrets: stats.secrets,
            population,
            total: stats.total,
            average: stats.average(),
            interval: match sample {
                true => walk::interval(stats, population).map(|(lo, hi)| [lo, hi]),
                false => None,
            },
            max_depth: stats.max_depth,
            histogram: stats.histogram.clone(),
            seconds,
            options: (!first).then_some(*o),
        }
    }
}

/// Plays each strategy of the request and prints its row.
pub fn run(req: Request) -> anyhow::Result<ExitCode> {
    let shape = req.shape;
    let population = shape.code_count() as u64;
    if let Some(n) = req.sample {
        if n == 0 || n > population {
            bail!("--sample {n}: give 1 to {population} (the secrets of {shape})");
        }
    }
    // A bad -o is refused before the walk, not after it; so is an -o that
    // nothing would write (the file is the phased strategy's tree).
    if req.output.is_some() && req.strategies.iter().all(|&h| h == Heuristic::First) {
        bail!(
            "-o: --strategy first writes no tree file on {shape} (the file is the phased \
             strategy's tree): use --strategy phased, or leave -o out"
        );
    }
    if let Some(path) = &req.output {
        Output::create(path)?;
    }
    // A huge game's file is written from the walk: its bytes (at most
    // max_len, held twice while the classes' buffers are joined) come on
    // top of the codes.
    let huge_file = req.output.is_some() && shape.rules().is_none();
    let file_bytes = if huge_file {
        2 * shape_file::max_len(shape)
    } else {
        0
    };
    let mut stated = format!(
        "memory: about {} needed for the {population} codes of {shape}",
        memory::show(shape.memory_bytes() + file_bytes)
    );
    if huge_file {
        stated.push_str(&format!(
            " (its tree file: up to {} of it)",
            memory::show(file_bytes)
        ));
    }
    fit(
        &stated,
        shape.memory_bytes() + file_bytes,
        &shape.to_string(),
    )?;
    let mut out = std::io::stdout().lock();
    if !req.json {
        let what = match req.sample {
            Some(n) => format!("a sample of {n} secrets (seed {})", req.seed),
            None => "every secret".to_string(),
        };
        writeln!(out, "{shape}: {population} codes, {what}")?;
        writeln!(out, "{}", HEADER)?;
    }
    for &h in &req.strategies {
        let opts = if h == Heuristic::First {
            Phased {
                heuristic: Heuristic::First,
                ..req.phased
            }
        } else {
            req.phased
        };
        let chooser = Chooser::new(shape, opts)?;
        let phased = h != Heuristic::First;
        let (row, bytes) = play(&chooser, &req, phased && huge_file)?;
        if req.json {
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        } else {
            writeln!(out, "{row}")?;
        }
        out.flush()?;
        if phased {
            if let Some(path) = &req.output {
                match bytes {
                    Some(bytes) => write_huge(shape, &bytes, path)?,
                    None => write_tree(&chooser, path)?,
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Replays a huge game's tree file (`bytes`) for `verify` and `export`:
/// refuses a secret list (such a file plays every code), states the
/// memory and refuses when it does not fit, then replays every secret.
pub fn replay_file(
    shape: Shape,
    bytes: &[u8],
    list: &super::secrets::SecretArgs,
) -> anyhow::Result<optimoo::tree::format::shape::Replay> {
    if list.secrets.is_some() {
        bail!("--secrets: {shape} has more than 65,535 codes; its tree file plays every code, with no list");
    }
    let need = shape.memory_bytes() + bytes.len() as u64;
    fit(
        &format!(
            "memory: about {} needed to replay the {} codes of {shape}",
            memory::show(need),
            shape.code_count()
        ),
        need,
        &format!("replaying {shape}"),
    )?;
    Ok(optimoo::tree::format::shape::replay(bytes, &mut ())?)
}

pub use cli_common::memory::fit;

/// The heading of the table.
pub const HEADER: &str =
    "strategy         total average  max  seconds  histogram (secrets solved in 1, 2, ... guesses)";

impl std::fmt::Display for PhasedRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self.heuristic {
            Some(h) => format!("{}/{h}", self.strategy),
            None => self.strategy.to_string(),
        };
        let histogram: Vec<String> = self.histogram.iter().map(|h| h.to_string()).collect();
        write!(
            f,
            "{name:<14} {:>9} {:>7.4} {:>4} {:>8.1}  {}",
            self.total,
            self.average,
            self.max_depth,
            self.seconds,
            histogram.join(" ")
        )?;
        if let Some([lo, hi]) = self.interval {
            write!(f, "  (95 % interval of the average: {lo:.4} to {hi:.4})")?;
        } else if self.secrets < 2 && self.population > self.secrets {
            write!(f, "  (a sample of one secret: no interval of the average)")?;
        }
        Ok(())
    }
}

/// Plays one strategy; with `encode`, its tree file's bytes too (the
/// walk over every secret writes them; with a sample, the sample is
/// walked for the row and the whole tree encoded after it).
fn play(
    chooser: &Chooser,
    req: &Request,
    encode: bool,
) -> anyhow::Result<(PhasedRow, Option<Vec<u8>>)> {
    let shape = chooser.shape();
    let population = shape.code_count() as u64;
    let start = Instant::now();
    let played = req.sample.unwrap_or(population);
    let bar = Terminal::secrets(played, std::io::stderr().is_terminal() && !req.json);
    let (stats, bytes) = if encode && req.sample.is_none() {
        let (bytes, stats) = walk::encode(chooser, &crate::driver::Rayon, &bar)?;
        (stats, Some(bytes))
    } else {
        let mut marks = match req.sample {
            Some(n) => walk::sample_marks(population, n, req.seed)?,
            None => vec![true; population as usize],
        };
        let mut codes = shape.all_codes();
        let stats = walk::walk(chooser, &mut codes, &mut marks, &crate::driver::Rayon, &bar)?;
        (stats, None)
    };
    drop(bar);
    if stats.secrets != played {
        bail!(
            "the walk solved {} secrets of the {played} it played",
            stats.secrets
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    let bytes = match bytes {
        Some(bytes) => Some(bytes),
        None if encode => {
            say("writing the tree of every secret for -o");
            let bar = Terminal::secrets(population, std::io::stderr().is_terminal() && !req.json);
            let (bytes, _) = walk::encode(chooser, &crate::driver::Rayon, &bar)?;
            drop(bar);
            Some(bytes)
        }
        None => None,
    };
    Ok((
        PhasedRow::new(
            shape,
            chooser.options(),
            &stats,
            req.sample.is_some(),
            seconds,
        ),
        bytes,
    ))
}

/// Writes the tree file of a game over 65,535 codes, `bytes` from
/// `heuristic::phased::walk::encode`, after replaying it: every secret solved, the
/// header's claims the replay's.
fn write_huge(shape: Shape, bytes: &[u8], path: &std::path::Path) -> anyhow::Result<()> {
    let replay =
        shape_file::replay(bytes, &mut ()).context("the phased tree file does not replay")?;
    replay
        .check()
        .context("the phased tree file does not replay")?;
    Output::create(path)?.commit(bytes)?;
    say(&format!(
        "wrote {} ({} bytes; {} guesses over {} secrets of {shape})",
        path.display(),
        bytes.len(),
        replay.stats.total,
        replay.stats.secrets
    ));
    Ok(())
}

/// Writes the phased strategy's tree (a game of at most 65,535 codes),
/// checked by replaying every secret first.
fn write_tree(chooser: &Chooser, path: &std::path::Path) -> anyhow::Result<()> {
    let shape = chooser.shape();
    let Some(tree) = walk::tree(chooser, &crate::driver::Rayon) else {
        bail!("-o: {shape} has more than 65,535 codes: its tree has no model tree");
    };
    let game = Game::new(tree.rules);
    let stats: Stats = tree
        .replay(&game, None)
        .context("the phased tree does not play correctly")?;
    let bytes = TreeFile::new(&game, tree, Objective::Heuristic, None)?.to_bytes(&game)?;
    Output::create(path)?.commit(&bytes)?;
    say(&format!(
        "wrote {} ({} guesses over {} secrets)",
        path.display(),
        stats.total,
        stats.secrets
    ));
    Ok(())
}
