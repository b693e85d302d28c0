//! What a plan of first guesses adds up to: `status` (units done, the
//! least exact value, the words left), `merge` (the optimum, proved only
//! when every other word is worth as much or more and no unit is missing)
//! and `merge --audit` (units valued again and compared). Invariant: only
//! unit files that [`super::Opened`] read and checked are counted.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};

use optimoo::observe::Silent;
use optimoo::search::{Driver, FirstGuesses, INF};

use super::{differs, show, tuning, value_words, Opened, KIND};
use crate::cli::output::Output;
use crate::exit::say;

/// What the unit files say so far.
#[derive(Default)]
struct Tally {
    done: usize,
    missing: Vec<usize>,
    bad: Vec<String>,
    /// Exact words: (value, word).
    exact: Vec<(u64, String)>,
    /// Words proved at least the cut-off (or without a tree in the cap).
    bounded: usize,
    words_done: usize,
    seconds: f64,
    cpu_seconds: f64,
}

/// Reads every unit file; a bad one is listed (`strict`: refused).
fn tally(dir: &Path, opened: &Opened, strict: bool) -> anyhow::Result<Tally> {
    let mut t = Tally::default();
    for u in 0..opened.file.units {
        match opened.read_unit(dir, u) {
            Ok(Some(f)) => {
                t.done += 1;
                t.words_done += f.words.len();
                t.seconds += f.seconds;
                t.cpu_seconds += f.cpu_seconds;
                for w in f.words {
                    match (w.exact, w.value) {
                        (true, Some(v)) => t.exact.push((v, w.word)),
                        _ => t.bounded += 1,
                    }
                }
            }
            Ok(None) => t.missing.push(u),
            Err(e) if strict => return Err(e),
            Err(e) => {
                t.bad.push(format!("{e:#}"));
                t.missing.push(u);
            }
        }
    }
    t.exact.sort();
    Ok(t)
}

/// `status DIR` of a plan of first guesses.
pub fn status(dir: &Path, opened: &Opened, json: bool) -> anyhow::Result<ExitCode> {
    let t = tally(dir, opened, false)?;
    let f = &opened.file;
    let left_words = f.words - t.words_done;
    // CPU seconds per word of the units done, times the words left.
    let rate = (t.words_done > 0).then(|| t.cpu_seconds / t.words_done as f64);
    let left = rate.map(|r| r * left_words as f64);
    let best = t.exact.first();
    // Words proved worse than the best so far: exact above it, or at
    // least the cut-off.
    let worse = best.map_or(0, |(b, _)| {
        t.bounded + t.exact.iter().filter(|(v, _)| v > b).count()
    });
    let mut out = std::io::stdout().lock();
    if json {
        let v = serde_json::json!({
            "dir": dir.display().to_string(), "game": f.game, "strategy": KIND,
            "units": f.units, "done": t.done, "words": f.words, "words_done": t.words_done,
            "below": (f.below < INF).then_some(f.below),
            "best": best.map(|(v, w)| serde_json::json!({"word": w, "total": v})),
            "exact": t.exact.len(), "proved_worse": worse,
            "core_seconds": t.cpu_seconds, "wall_seconds": t.seconds,
            "remaining_core_seconds": left, "bad_files": t.bad,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "plan       {}: first guesses below {}",
            f.game,
            show(f.below)
        )?;
        writeln!(
            out,
            "units      {} / {} done ({} of {} words)",
            t.done, f.units, t.words_done, f.words
        )?;
        match best {
            Some((v, w)) => writeln!(out, "best       {w} {v} so far")?,
            None => writeln!(out, "best       none below {} yet", show(f.below))?,
        }
        writeln!(
            out,
            "worse      {worse} words proved worse than the best so far ({} exact below the \
             cut-off)",
            t.exact.len()
        )?;
        writeln!(
            out,
            "spent      {:.1} CPU-s ({:.1} s of unit wall time)",
            t.cpu_seconds, t.seconds
        )?;
        match left {
            Some(s) => writeln!(
                out,
                "remaining  about {s:.0} CPU-s ({:.2} core-hours) for {left_words} words, at \
                 the done units' rate",
                s / 3600.0
            )?,
            None => writeln!(out, "remaining  unknown until a unit is done")?,
        }
        for b in &t.bad {
            writeln!(out, "bad file   {b}")?;
        }
        if t.done == f.units {
            writeln!(out, "next       optimoo merge {}", dir.display())?;
        }
    }
    out.flush()?;
    Ok(if t.bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::cli::EXIT_ERROR)
    })
}

/// How many of the best words merge lists.
pub const BEST: usize = 10;

/// `merge DIR` of a plan of first guesses: the optimum and the best
/// words, once every unit is done.
pub fn merge(
    dir: &Path,
    opened: &Opened,
    json: bool,
    output: Option<Output>,
) -> anyhow::Result<ExitCode> {
    let t = tally(dir, opened, true)?;
    let f = &opened.file;
    if !t.missing.is_empty() {
        bail!(
            "{} of {} units are not done: {:?}{}; run optimoo work {} --unit I for each (or \
             --all), then merge again",
            t.missing.len(),
            f.units,
            &t.missing[..t.missing.len().min(20)],
            if t.missing.len() > 20 { " …" } else { "" },
            dir.display()
        );
    }
    let n = opened.game.secret_count() as f64;
    let best: Vec<_> = t.exact.iter().take(BEST).collect();
    // Proved optimal: the least exact value is at most every other exact
    // value (sorted) and below every bound (each at least the cut-off,
    // which the exact values are below: checked as each file was read).
    let optimum = t.exact.first();
    let ties: Vec<&str> = t
        .exact
        .iter()
        .take_while(|(v, _)| Some(v) == optimum.map(|(o, _)| o))
        .map(|(_, w)| w.as_str())
        .collect();
    let mut out = std::io::stdout().lock();
    if json {
        let row = |(v, w): &&(u64, String)| serde_json::json!({"word": w, "total": v, "average": *v as f64 / n});
        let v = serde_json::json!({
            "game": f.game, "strategy": KIND, "words": f.words,
            "secrets": opened.game.secret_count(), "cap": f.cap,
            "below": (f.below < INF).then_some(f.below),
            "optimum": optimum.as_ref().map(row),
            "proved_optimal": optimum.is_some(),
            "ties": ties,
            "best": best.iter().map(row).collect::<Vec<_>>(),
            "exact": t.exact.len(), "at_least_below": t.bounded,
            "core_seconds": t.cpu_seconds, "wall_seconds": t.seconds, "units": f.units,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "game       {}: {} first guesses, {} secrets, cap {}",
            f.game,
            f.words,
            opened.game.secret_count(),
            f.cap.map_or("none".into(), |c| c.to_string())
        )?;
        match optimum {
            Some((v, w)) => writeln!(
                out,
                "optimum    {w} {v} ({:.4} a secret): proved optimal, every other first word \
                 is worth {}{}",
                *v as f64 / n,
                if ties.len() > 1 {
                    format!("as much ({} tied: {}) or more", ties.len(), ties.join(" "))
                } else {
                    "more".into()
                },
                t.exact
                    .get(ties.len())
                    .map_or(String::new(), |(v2, _)| format!(" (the next {v2})"))
            )?,
            None => writeln!(
                out,
                "optimum    at least {}: no first word is below the cut-off; make a plan \
                 with a higher --below",
                show(f.below)
            )?,
        }
        for (k, (v, w)) in best.iter().enumerate() {
            writeln!(
                out,
                "{}{:>2}. {w} {v} ({:.4})",
                if k == 0 { "best       " } else { "           " },
                k + 1,
                *v as f64 / n
            )?;
        }
        writeln!(
            out,
            "words      {} exact (below {}), {} proved at least {}",
            t.exact.len(),
            show(f.below),
            t.bounded,
            show(f.below)
        )?;
        writeln!(
            out,
            "time       {:.1} CPU-s ({:.3} core-hours), {:.1} s of unit wall time, {} units",
            t.cpu_seconds,
            t.cpu_seconds / 3600.0,
            t.seconds,
            f.units
        )?;
    }
    out.flush()?;
    drop(out);
    if let (Some(out), Some((v, w))) = (output, optimum) {
        write_optimal(opened, w, *v, out)?;
    }
    Ok(if optimum.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::cli::EXIT_NEGATIVE)
    })
}

/// `merge -o FILE` of a proved plan: the tree that opens with the best
/// first word `word` and is optimal after it, solved again here (its
/// total must be the plan's `value`), written as the game's optimal tree:
/// the plan proves no first word does better, so the file claims the
/// optimum (no upper-bound flag).
fn write_optimal(opened: &Opened, word: &str, value: u64, out: Output) -> anyhow::Result<()> {
    let game = &opened.game;
    let first = game.parse_code(word).context("the plan's best word")?;
    let config = optimoo::search::Config {
        cap: opened.file.cap,
        first: Some(first),
        ..optimoo::search::Config::default()
    };
    let solution =
        optimoo::search::solve_with(game, config, optimoo::search::Driver::sequential())?;
    let tree = match solution.tree {
        Some(tree) if solution.cost == value => tree,
        _ => bail!(
            "{word}: solved again to {}, not the plan's {value}: the folder does not hold this \
             version's values (merge --audit 1 re-checks them)",
            solution.cost
        ),
    };
    let bytes = optimoo::tree::format::TreeFile::new(
        game,
        tree,
        optimoo::model::Objective::Average,
        opened.file.cap,
    )?
    .to_bytes(game)?;
    let path = out.path().to_path_buf();
    out.commit(&bytes)?;
    crate::cli::output::wrote(&path);
    Ok(())
}

/// `merge --audit FRACTION`: values a sample of the finished units again
/// (drawn by `seed`) and fails naming every unit whose file differs
/// (exactness or exact value of a word).
pub fn audit(
    dir: &Path,
    opened: &Opened,
    fraction: f64,
    seed: u64,
    memo_mib: usize,
) -> anyhow::Result<()> {
    let mut finished = Vec::new();
    for u in 0..opened.file.units {
        if opened.read_unit(dir, u)?.is_some() {
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
    let picked = crate::cli::checkpoint::sample(&finished, fraction, seed);
    say(&format!(
        "audit: valuing {} of the {} finished units again (seed {seed}): {:?}",
        picked.len(),
        finished.len(),
        &picked[..picked.len().min(20)]
    ));
    let driver = Driver {
        par: &crate::driver::Rayon,
        observer: &Silent,
    };
    let search = FirstGuesses::new(&opened.game, opened.file.cap, tuning(memo_mib)?, driver)?;
    let mut bad = Vec::new();
    for &u in &picked {
        let words = value_words(opened, &search, u, opened.unit_words(u))?;
        let file = opened.read_unit(dir, u)?.context("read above")?;
        if let Some(w) = differs(&file.words, &words) {
            bad.push(format!(
                "unit {u}: the file says, and this search finds, {w}"
            ));
        }
    }
    if !bad.is_empty() {
        bail!(
            "the audit found {} unit file(s) that differ from this version's search:\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
    say(&format!(
        "audit: the {} units valued agree with their files",
        picked.len()
    ));
    Ok(())
}
