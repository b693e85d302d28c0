//! `optimoo nash`: the codemaker's game, solved exactly (the `equilibrium`
//! crate, docs/duel.md), and `--check DIR` to re-derive a written one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use equilibrium::matrix;
use equilibrium::nash::{self, Nash};
use optimoo::model::{Game, Rules};
use optimoo::search::{Config, Driver};
use optimoo::tree::Tree;

use crate::cli::folder;
use crate::driver::{self, progress::Terminal, Rayon};

/// The codemaker's game: its exact equilibrium.
///
/// The codemaker's game: the codemaker chooses how likely each secret is,
/// to make games long; the codebreaker minimizes the expected number of
/// guesses (no cap).
///
/// Prints the exact value (a fraction), the codemaker's probability of
/// each orbit of codes (codes whose symbols repeat alike; uniform within
/// an orbit) and the codebreaker's mixture of trees, each played under a
/// random relabelling of symbols and positions. With -o DIR, writes
/// DIR/nash.json and the trees; `--check DIR` re-derives the value from
/// them alone.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::NASH)]
pub struct Args {
    /// The game (default: mm:4x6).
    #[arg(long)]
    pub game: Option<Rules>,
    /// Write DIR/nash.json and DIR/tree-I.tree (a new or empty folder).
    /// Each tree the loop finds is kept in DIR/progress/ as it is found: a
    /// run stopped (a machine gone, Ctrl-C) goes on from them when given the
    /// same DIR again.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        conflicts_with = "check"
    )]
    pub output: Option<PathBuf>,
    /// Re-derive the equilibrium written in DIR: the codebreaker's best
    /// response to the codemaker's mixture (a fresh exact search) and the
    /// codemaker's best orbit against the trees must both give the value,
    /// and every orbit (its least code and count) is re-derived from the
    /// game. Exit 0 when it holds, 1 when it does not.
    #[arg(long, value_name = "DIR")]
    pub check: Option<PathBuf>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// DIR/nash.json (the fields are kept exactly: scripts read them).
#[derive(Debug, Serialize, Deserialize)]
struct NashFile {
    game: String,
    /// The expected number of guesses at the equilibrium, "p/q".
    value: String,
    codemaker: Vec<OrbitWeight>,
    codebreaker: Vec<TreeWeight>,
    /// How the codebreaker plays its trees ([`PLAYED`]): the value holds
    /// only so. Absent in files written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    played: Option<String>,
}

/// How the codebreaker's trees are played: a tree played as written can
/// be exploited (mm:2x3: the secret 21 takes one tree 15/4 guesses on
/// average against the value 29/12).
const PLAYED: &str = "each tree under a uniformly random symmetry: the symbols relabelled \
                      and the positions permuted at random for each game (a tree played as \
                      written can be exploited)";

#[derive(Debug, Serialize, Deserialize)]
struct OrbitWeight {
    /// The orbit's least code.
    orbit: String,
    /// Codes in the orbit.
    codes: usize,
    /// The orbit's probability, "p/q" (uniform over its codes).
    weight: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct TreeWeight {
    /// The tree file, relative to DIR (or null without -o).
    tree: Option<String>,
    weight: String,
}

/// The JSON file of DIR.
const JSON: &str = "nash.json";

/// Runs `optimoo nash`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    let observer = Terminal::new(false, false);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    if let Some(dir) = &args.check {
        return pool.install(|| check(dir, threads, driver));
    }
    let game = Game::new(
        args.game
            .unwrap_or_else(|| "mm:4x6".parse().expect("a game")),
    );
    // The memory the searches need, stated and checked before the table.
    let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
    let known = match &args.output {
        Some(dir) => resume(dir, &game)?,
        None => Vec::new(),
    };
    let start = std::time::Instant::now();
    // Progress on stderr, one line per best response (stdout: the result).
    let mut progress = Kept {
        dir: args.output.as_deref(),
        game: &game,
    };
    let eq = pool.install(|| nash::nash(&game, &base, driver, known, &mut progress))?;
    let json = args.json;
    let seconds = start.elapsed().as_secs_f64();
    let mut file = describe(&game, &eq);
    if let Some(dir) = &args.output {
        write(dir, &game, &eq, &mut file)?;
    }
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&file)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let support: usize = file
        .codemaker
        .iter()
        .zip(&eq.codemaker)
        .filter(|(_, w)| **w != BigRational::from_integer(0.into()))
        .map(|(o, _)| o.codes)
        .sum();
    writeln!(out, "game        {}", file.game)?;
    writeln!(
        out,
        "value       {} = {:.6} guesses on average ({} codes in the codemaker's support)",
        file.value,
        num_traits::ToPrimitive::to_f64(&eq.value).unwrap_or(f64::NAN),
        support
    )?;
    writeln!(out, "codemaker   orbit  codes  probability")?;
    for o in &file.codemaker {
        writeln!(
            out,
            "            {:<6} {:>5}  {}",
            o.orbit, o.codes, o.weight
        )?;
    }
    writeln!(
        out,
        "codebreaker {} trees (best responses: {})",
        file.codebreaker.len(),
        eq.best_responses
    )?;
    for t in &file.codebreaker {
        let name = t.tree.as_deref().unwrap_or("-");
        writeln!(out, "            {name} {}", t.weight)?;
    }
    writeln!(out, "played      {PLAYED}")?;
    writeln!(out, "time        {seconds:.1} s")?;
    Ok(ExitCode::SUCCESS)
}

/// The JSON of an equilibrium (trees without files yet).
fn describe(game: &Game, eq: &Nash) -> NashFile {
    NashFile {
        game: game.name(),
        value: matrix::show(&eq.value),
        codemaker: eq
            .orbits
            .iter()
            .zip(&eq.codemaker)
            .map(|(o, w)| OrbitWeight {
                orbit: game.format_code(o.representative),
                codes: o.codes.len(),
                weight: matrix::show(w),
            })
            .collect(),
        codebreaker: eq
            .codebreaker
            .iter()
            .filter(|w| **w != BigRational::from_integer(0.into()))
            .map(|w| TreeWeight {
                tree: None,
                weight: matrix::show(w),
            })
            .collect(),
        played: Some(PLAYED.to_string()),
    }
}

/// Where the trees found are kept.
const PROGRESS: &str = "progress";

/// The loop's progress: lines on stderr, trees in DIR/progress/.
struct Kept<'a> {
    dir: Option<&'a Path>,
    game: &'a Game,
}

impl nash::NashObserver for Kept<'_> {
    fn said(&mut self, line: &str) {
        crate::exit::say(line);
    }

    fn found(&mut self, index: usize, tree: &Tree) -> Result<(), String> {
        let Some(dir) = self.dir else {
            return Ok(());
        };
        let name = format!("tree-{}.tree", index + 1);
        folder::write_tree(&dir.join(PROGRESS), &name, self.game, tree)
            .map_err(|e| format!("{e:#}"))
    }
}

/// Prepares DIR: a new or empty folder, or the folder of a run that
/// stopped (DIR/progress/, with no nash.json or tree-I.tree written yet;
/// other files, such as the logs a user keeps beside it, are left alone),
/// whose trees are returned.
fn resume(dir: &Path, game: &Game) -> anyhow::Result<Vec<Tree>> {
    let progress = dir.join(PROGRESS);
    let only_progress = std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).all(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name != "nash.json" && !(name.starts_with("tree-") && name.ends_with(".tree"))
        })
    }) && progress.is_dir();
    if !only_progress {
        folder::prepare(dir)?;
        std::fs::create_dir_all(&progress)
            .with_context(|| format!("cannot create {}", progress.display()))?;
        return Ok(Vec::new());
    }
    let mut trees = Vec::new();
    while let Ok(tree) = folder::read_tree(
        &progress,
        PROGRESS,
        &format!("tree-{}.tree", trees.len() + 1),
        game.rules(),
    ) {
        trees.push(tree);
    }
    let extra = std::fs::read_dir(&progress)?.count() - trees.len();
    if extra > 0 {
        bail!(
            "{}: {extra} file(s) besides tree-1.tree .. tree-{}.tree of {}: not the progress of \
             a run of nash --game {}; give a new or empty folder",
            progress.display(),
            trees.len(),
            game.name(),
            game.name()
        );
    }
    crate::exit::say(&format!(
        "resuming from the {} trees in {}",
        trees.len(),
        progress.display()
    ));
    Ok(trees)
}

/// Writes the trees of positive weight and nash.json into `dir`.
fn write(dir: &Path, game: &Game, eq: &Nash, file: &mut NashFile) -> anyhow::Result<()> {
    let kept = eq
        .trees
        .iter()
        .zip(&eq.codebreaker)
        .filter(|(_, w)| **w != BigRational::from_integer(0.into()));
    for (i, ((tree, _), entry)) in kept.zip(file.codebreaker.iter_mut()).enumerate() {
        let name = format!("tree-{}.tree", i + 1);
        folder::write_tree(dir, &name, game, tree)?;
        entry.tree = Some(name);
    }
    folder::write_json(dir, JSON, file)?;
    crate::cli::output::wrote(&dir.join(JSON));
    Ok(())
}

/// Whether `written` names `game`'s orbits, in order, each by its least
/// code and with its number of codes (the weights follow them by index).
fn same_orbits(game: &Game, written: &[OrbitWeight]) -> Result<(), String> {
    let orbits = nash::orbits(game);
    if written.len() != orbits.len() {
        return Err(format!(
            "{} orbits written, but {} has {}",
            written.len(),
            game.name(),
            orbits.len()
        ));
    }
    for (i, (w, o)) in written.iter().zip(&orbits).enumerate() {
        let label = game.format_code(o.representative);
        if w.orbit != label || w.codes != o.codes.len() {
            return Err(format!(
                "orbit {} is written as {:?} of {} codes, but {}'s orbit {} is {label} of {} codes",
                i + 1,
                w.orbit,
                w.codes,
                game.name(),
                i + 1,
                o.codes.len()
            ));
        }
    }
    Ok(())
}

/// `--check DIR`.
fn check(dir: &Path, threads: usize, driver: Driver<'_>) -> anyhow::Result<ExitCode> {
    let file: NashFile = folder::read_json(dir, JSON)?;
    let rules = folder::rules(dir, JSON, &file.game)?;
    let game = Game::new(rules);
    let ratio = |text: &str| folder::ratio(dir, JSON, text);
    if let Some(played) = file.played.as_ref().filter(|p| *p != PLAYED) {
        let why = format!("played is '{played}', not how optimoo's trees are played: '{PLAYED}'");
        return folder::verdict(dir, Err(why));
    }
    // Every orbit re-derived from the game: its least code and its count.
    if let Err(why) = same_orbits(&game, &file.codemaker) {
        return folder::verdict(dir, Err(why));
    }
    let codemaker = file
        .codemaker
        .iter()
        .map(|o| ratio(&o.weight))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut trees: Vec<(Tree, BigRational)> = Vec::new();
    for t in &file.codebreaker {
        let Some(name) = &t.tree else {
            bail!("{}: a tree without its file", dir.join(JSON).display());
        };
        trees.push((
            folder::read_tree(dir, JSON, name, rules)?,
            ratio(&t.weight)?,
        ));
    }
    let value = ratio(&file.value)?;
    let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
    let result = nash::check(&game, &codemaker, &trees, &value, &base, driver).map(|()| {
        format!(
            "{} value {} (the codebreaker's best response to the codemaker and the \
             codemaker's best orbit against the trees both give it; the {} orbits re-derived; \
             each tree played under a uniformly random symmetry)",
            game.name(),
            file.value,
            file.codemaker.len()
        )
    });
    folder::verdict(dir, result)
}
