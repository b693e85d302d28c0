//! `optimoo status`: the progress of a plan from its folder alone: units
//! done, the time they took (each unit's wall clock, summed), an estimate
//! of what remains, and the best proven bounds on the optimum so far.
//!
//! Invariant: the bounds are proven: lower = the least, over the planned
//! first guesses, of own + Σ (exact cost, proven bound or level bound) of
//! its classes (guesses left out of the plan cost more than a real tree);
//! upper = the cost of the best first guess whose classes are all exact,
//! or of the plan's heuristic tree.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use optimoo::search::plan::Known;
use optimoo::search::INF;

use crate::cli::checkpoint::{show_cost, upper_tree, Folder, Totals, UpperTree};
use crate::cli::EXIT_ERROR;

/// Show a plan's progress: units done, time left, bounds so far.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::STATUS)]
pub struct Args {
    /// The checkpoint folder.
    pub dir: PathBuf,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// A tree of the plan's game (every code, within its cap) whose total,
    /// recounted by replaying every secret, is a proven upper bound: used
    /// when it is below the plan's (e.g. a tree of `optimoo improve`).
    /// Average objective only.
    #[arg(long, value_name = "FILE")]
    pub upper_tree: Option<PathBuf>,
    /// Also list every unit: its class, state (exact, a proven bound, or
    /// only the plan's bound), lower bound and, with --upper-tree, the
    /// tree's cost on the unit's secrets and the gap between the two:
    /// where the distance between the bounds lies.
    #[arg(long)]
    pub units: bool,
    /// Instead of the progress, what the kept memo (`work --keep-memo`)
    /// of the unit of these moves' class says of the set of secrets they
    /// leave: its exact cost or kept bound, and every guess refuted there
    /// with its bound, least first (kept for sets of at least `work
    /// --keep-guesses` secrets). A guess kept at or above a value cannot
    /// reach it; those kept lowest are the ones the last search left
    /// unrefuted, where an optimal guess the search found is sought first
    /// (docs/results.md, session 68). E.g. `--kept-at 01234:0A2B
    /// 12567:0A3B`.
    #[arg(long, value_name = "MOVES", num_args = 1.., conflicts_with_all = ["upper_tree", "units"])]
    pub kept_at: Option<Vec<String>>,
}

/// What the units left may take, and how that was estimated.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Remaining {
    seconds: f64,
    how: &'static str,
}

/// The unit time (wall seconds, as unit files count it) the units of
/// `left` secrets may take, from the
/// `(secrets, seconds)` of the units done: the power law `t = a·s^p`
/// fitted by least squares on logarithms (a unit's time grows much faster
/// than its size: about `s^3.4` over the units of moo:5x10 and mm:5x6)
/// when at least three units of different sizes took measurable time,
/// else time per secret. A rough guide either way: units of one size
/// vary a lot.
fn estimate(timed: &[(u64, f64)], left: &[u64]) -> Option<Remaining> {
    let points: Vec<(f64, f64)> = timed
        .iter()
        .filter(|&&(s, t)| s >= 2 && t >= 0.01 && t.is_finite())
        .map(|&(s, t)| ((s as f64).ln(), t.ln()))
        .collect();
    let m = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / m, b + y / m));
    let (sxx, sxy) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (x - mx), b + (x - mx) * (y - my))
    });
    if points.len() >= 3 && sxx > 1e-9 {
        // An exponent below 1 (noise on tiny units) would promise large
        // units for less per secret than small ones: not below 1.
        let p = (sxy / sxx).max(1.0);
        let a = my - p * mx;
        let seconds = left
            .iter()
            .fold(0.0, |t, &s| t + (a + p * (s as f64).ln()).exp());
        return Some(Remaining {
            seconds,
            how: "by a power of the unit's size",
        });
    }
    let (secrets, seconds) = timed
        .iter()
        .fold((0u64, 0.0), |(a, b), &(s, t)| (a + s, b + t));
    (secrets > 0).then(|| Remaining {
        seconds: seconds / secrets as f64 * left.iter().sum::<u64>() as f64,
        how: "by secrets",
    })
}

/// Runs `optimoo status`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(opened) = crate::cli::first_plan::open(&args.dir)? {
        if args.upper_tree.is_some() || args.units {
            anyhow::bail!("--upper-tree and --units are for exact plans, not of first guesses");
        }
        return crate::cli::first_plan::status(&args.dir, &opened, args.json);
    }
    if let Some(file) = crate::cli::phased_plan::open(&args.dir)? {
        if args.upper_tree.is_some() {
            anyhow::bail!("--upper-tree bounds exact plans, not a phased one");
        }
        return crate::cli::phased_plan::status(&args.dir, &file, args.json);
    }
    let folder = Folder::open(&args.dir)?;
    if let Some(moves) = &args.kept_at {
        return kept_at(&folder, moves, args.json);
    }
    let n = folder.plan.units.len();
    let upper_assumed = folder.upper();
    let mut known: Vec<Known> = vec![None; n];
    // Whether each unit's file was read (a bad one counts as none).
    let mut states = vec![State::Planned; n];
    let mut bad = Vec::new();
    let mut done = 0usize;
    let mut spent = Totals::default();
    // (secrets, seconds) of each unit done, and the secrets of each left.
    let (mut timed, mut left) = (Vec::new(), Vec::new());
    for (i, k) in known.iter_mut().enumerate() {
        let secrets = folder.plan.units[i].secrets as u64;
        let read = folder.read_unit(i).and_then(|r| match r {
            Some((ref f, _)) => spent.add(f, &folder.unit_path(i)).map(|_| r),
            None => Ok(r),
        });
        match read {
            Ok(Some((f, r))) => {
                *k = Some(r.outcome());
                states[i] = match r.outcome() {
                    optimoo::search::Outcome::Exact(_) => State::Exact,
                    optimoo::search::Outcome::AtLeast(_) => State::Bound,
                };
                if folder.plan.serves(i, *k, upper_assumed) {
                    done += 1;
                    timed.push((secrets, f.seconds));
                } else {
                    left.push(secrets);
                }
            }
            Ok(None) => left.push(secrets),
            Err(e) => {
                states[i] = State::Bad;
                bad.push(format!("{e:#}"));
                left.push(secrets);
            }
        }
    }
    let remaining = estimate(&timed, &left);
    let in_progress = (0..n).filter(|&i| folder.progress_path(i).exists()).count();
    // The wall seconds the units stopped on their way have had so far (a
    // progress file that does not read counts none: `work` refuses it by
    // name when the unit runs again).
    let progress_seconds: f64 = (0..n)
        .filter_map(|i| folder.read_progress(i).ok().flatten())
        .map(|(_, s)| s)
        .sum();
    // Units whose runs kept what their memo learned (`work --keep-memo`),
    // and the bytes those files hold.
    let (memo_files, memo_bytes) = (0..n)
        .filter_map(|i| std::fs::metadata(folder.memo_path(i)).ok())
        .fold((0usize, 0u64), |(f, b), m| (f + 1, b + m.len()));
    let tree = match &args.upper_tree {
        Some(path) => Some(upper_tree(&folder, path, args.units)?),
        None => None,
    };
    let proven = match &tree {
        Some(t) => folder.proven().min(t.total),
        None => folder.proven(),
    };
    let rows = args
        .units
        .then(|| unit_rows(&folder, &known, &states, tree.as_ref()));
    let (lower, upper) = folder.plan.anytime(&known, proven);
    let bound = |c: u64| (c < INF).then_some(c);
    // How far the bounds are apart: upper / lower − 1, in percent.
    let gap = (lower > 0 && lower < INF && upper < INF)
        .then(|| (upper as f64 / lower as f64 - 1.0) * 100.0);
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "game": folder.file.game,
            "cap": folder.file.cap,
            "objective": folder.file.objective,
            "generation": folder.file.generation,
            "done": done,
            "total": n,
            // The name is older than the label: the same wall seconds.
            "core_seconds": spent.seconds,
            "remaining_seconds": remaining.map(|r| r.seconds),
            "in_progress": in_progress,
            "progress_seconds": progress_seconds,
            "memo_files": memo_files,
            "memo_bytes": memo_bytes,
            "lower": bound(lower),
            "upper": bound(upper),
            "gap_percent": gap,
            "bad_files": bad,
        });
        let mut json = json;
        if let Some(rows) = &rows {
            json["units"] = rows.iter().map(Row::json).collect();
        }
        writeln!(out, "{json}")?;
    } else {
        let o = folder.objective;
        writeln!(
            out,
            "plan       {} cap {} {}, generation {}",
            folder.file.game,
            folder.file.cap.map_or("none".into(), |c| c.to_string()),
            folder.file.objective,
            folder.file.generation
        )?;
        writeln!(out, "units      {done} / {n} done")?;
        // Unit files hold wall seconds (a unit's runs summed), not CPU
        // time: the two agree for a unit run on one thread (`--threads
        // 1`); a unit run on T threads took up to T times its seconds of
        // core time.
        writeln!(
            out,
            "unit time  {:.1} s (each unit's wall clock, summed)",
            spent.seconds
        )?;
        match remaining {
            // An estimate the stopped units have already outrun says so:
            // the units done do not predict the ones left.
            Some(r) if r.seconds < progress_seconds => writeln!(
                out,
                "remaining  more than the {:.1} s of unit time the units done predict ({}): \
                 the units stopped on their way have had {progress_seconds:.1} s already",
                r.seconds, r.how
            )?,
            Some(r) => writeln!(
                out,
                "remaining  about {:.1} s of unit time ({}, from the units done)",
                r.seconds, r.how
            )?,
            None => writeln!(out, "remaining  unknown until a unit is done")?,
        }
        if in_progress > 0 {
            let (s, it) = if in_progress == 1 {
                ("", "it")
            } else {
                ("s", "them")
            };
            writeln!(
                out,
                "progress   {in_progress} unit{s} stopped on the way, {progress_seconds:.1} s \
                 of unit time in {it} so far, to go on from there (progress/)",
            )?;
        }
        if memo_files > 0 {
            let (s, its) = if memo_files == 1 {
                ("", "its")
            } else {
                ("s", "their")
            };
            writeln!(
                out,
                "memo       {memo_files} unit{s} kept what {its} memo learned, {:.1} MB, for the \
                 next run (memo/)",
                memo_bytes as f64 / 1e6
            )?;
        }
        writeln!(out, "lower      {}", show_cost(o, lower))?;
        writeln!(
            out,
            "upper      {}",
            if upper < INF {
                show_cost(o, upper)
            } else {
                "none yet".into()
            }
        )?;
        if gap.is_some() {
            writeln!(
                out,
                "gap        {} % (upper / lower - 1)",
                percent_up(upper, lower)
            )?;
        }
        for b in &bad {
            writeln!(out, "bad file   {b}")?;
        }
        if let Some(rows) = &rows {
            write_rows(&mut out, rows, tree.is_some())?;
        }
    }
    out.flush()?;
    Ok(if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_ERROR)
    })
}

/// What a unit's file says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    /// No file: the plan's bound only.
    Planned,
    /// The exact cost.
    Exact,
    /// A proven lower bound (a stopped or bound-only run, or a refutation).
    Bound,
    /// A file that could not be read (listed under "bad file").
    Bad,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::Planned => "planned",
            State::Exact => "exact",
            State::Bound => "bound",
            State::Bad => "bad file",
        }
    }
}

/// One unit of `status --units`.
struct Row {
    unit: usize,
    guess: String,
    answer: String,
    second: Option<String>,
    secrets: usize,
    state: State,
    in_progress: bool,
    /// The best lower bound known: the exact cost, or the larger of the
    /// file's bound and the plan's.
    lower: u64,
    /// The upper tree's cost on the unit, where the tree takes its path.
    tree: Option<u64>,
}

impl Row {
    /// tree / lower − 1, in percent.
    fn gap(&self) -> Option<f64> {
        let t = self.tree?;
        (self.lower > 0 && self.lower < INF).then(|| (t as f64 / self.lower as f64 - 1.0) * 100.0)
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "unit": self.unit,
            "guess": self.guess,
            "answer": self.answer,
            "second": self.second,
            "secrets": self.secrets,
            "state": self.state.name(),
            "in_progress": self.in_progress,
            "lower": (self.lower < INF).then_some(self.lower),
            "tree": self.tree,
            "gap_percent": self.gap(),
        })
    }
}

/// The rows of `status --units`.
fn unit_rows(
    folder: &Folder,
    known: &[Known],
    states: &[State],
    tree: Option<&UpperTree>,
) -> Vec<Row> {
    let game = &folder.game;
    folder
        .plan
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let lower = match known[i] {
                Some(optimoo::search::Outcome::Exact(c)) => c,
                Some(optimoo::search::Outcome::AtLeast(b)) => b.max(u.lower),
                None => u.lower,
            };
            Row {
                unit: i,
                guess: game.format_code(folder.plan.guesses[u.guess].guess),
                answer: game.format_feedback(u.answer),
                second: u.second.as_ref().map(|g| game.format_code(g.guess)),
                secrets: u.secrets,
                state: states[i],
                in_progress: folder.progress_path(i).exists(),
                lower,
                tree: tree.and_then(|t| t.units.get(i).copied().flatten()),
            }
        })
        .collect()
}

/// The table of `status --units`.
fn write_rows(out: &mut impl Write, rows: &[Row], with_tree: bool) -> std::io::Result<()> {
    writeln!(out)?;
    write!(
        out,
        "unit  class                    secrets  state              lower"
    )?;
    if with_tree {
        write!(out, "      tree        gap")?;
    }
    writeln!(out)?;
    for r in rows {
        let class = match &r.second {
            Some(g) => format!("{} {} then {}", r.guess, r.answer, g),
            None => format!("{} {}", r.guess, r.answer),
        };
        let state = format!(
            "{}{}",
            r.state.name(),
            if r.in_progress { ", resumable" } else { "" }
        );
        let lower = if r.lower < INF {
            r.lower.to_string()
        } else {
            "infeasible".into()
        };
        write!(
            out,
            "{:>4}  {class:<24} {:>7}  {state:<16} {lower:>7}",
            r.unit, r.secrets
        )?;
        if with_tree {
            match (r.tree, r.gap()) {
                (Some(t), Some(_)) => write!(out, "  {t:>8}  {:>7} %", percent_up(t, r.lower))?,
                (Some(t), None) => write!(out, "  {t:>8}")?,
                _ => write!(out, "         -")?,
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `upper / lower − 1` in percent, rounded up (exact integer arithmetic):
/// a gap is never printed below what it is, so "1.00 %" means at most 1 %
/// (1.0011 % prints as 1.01). Two decimals from 1 % up, four below (a gap
/// of 0.021 % prints as 0.0210, not 0.03: the last points of a long run
/// stay visible); no gap prints as 0.00. `lower` above 0.
fn percent_up(upper: u64, lower: u64) -> String {
    let den = i128::from(lower.max(1));
    let diff = i128::from(upper) - i128::from(lower);
    if diff == 0 {
        return "0.00".into();
    }
    let places = if diff.abs() * 100 >= den { 2 } else { 4 };
    let unit = 10i128.pow(places);
    // Units of 10^-places percent: ⌈diff · 100 · 10^places / lower⌉.
    let num = diff * 100 * unit;
    let q = num.div_euclid(den) + i128::from(num.rem_euclid(den) != 0);
    let sign = if q < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{:0width$}",
        q.abs() / unit,
        q.abs() % unit,
        width = places as usize
    )
}

/// `status --kept-at MOVES`: what the unit's kept memo says of the set the
/// moves leave.
fn kept_at(folder: &Folder, moves: &[String], json: bool) -> anyhow::Result<ExitCode> {
    let game = &folder.game;
    let history = optimoo::model::moves::parse_history(game, moves)?;
    let kept = folder.kept_at(&history)?;
    let mut out = std::io::stdout().lock();
    let code = |g| game.format_code(g);
    if json {
        let guesses: Vec<_> = kept
            .guesses
            .iter()
            .map(|&(g, b)| serde_json::json!({"guess": code(g), "bound": b}))
            .collect();
        let json = serde_json::json!({
            "moves": moves,
            "unit": kept.unit,
            "secrets": kept.secrets,
            "exact": kept.exact,
            "lower": kept.lower,
            "guesses": guesses,
        });
        writeln!(out, "{json}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "class      {}: {} secrets, unit {}'s kept memo ({})",
        moves.join(" "),
        kept.secrets,
        kept.unit,
        folder.memo_path(kept.unit).display()
    )?;
    let value = match (kept.exact, kept.lower) {
        (Some(c), _) => format!("exact {c}"),
        (None, Some(b)) => format!("at least {b}"),
        (None, None) => "nothing kept".into(),
    };
    writeln!(out, "value      {value}")?;
    writeln!(
        out,
        "refuted    {} guesses kept, least bound first:",
        kept.guesses.len()
    )?;
    for &(g, b) in &kept.guesses {
        writeln!(out, "{} {b}", code(g))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed gap is never below the true one and less than one
    /// unit of its last decimal above it (0.01 from 1 % up, 0.0001 below);
    /// exact values print as they are.
    #[test]
    fn gaps_print_rounded_up() {
        assert_eq!(percent_up(171710, 170008), "1.01"); // 1.0011 %
        assert_eq!(percent_up(171710, 170010), "1.0000"); // 0.99994 %
        assert_eq!(percent_up(101, 100), "1.00");
        assert_eq!(percent_up(100, 100), "0.00");
        assert_eq!(percent_up(13, 10), "30.00");
        assert_eq!(percent_up(171590, 171554), "0.0210"); // 0.020985 %
        assert_eq!(percent_up(99_999, 100_000), "-0.0010");
        assert_eq!(percent_up(98, 100), "-2.00");
        let mut rng = optimoo::rng::SplitMix64::new(5);
        for _ in 0..10_000 {
            let lower = 1 + rng.below(1 << 20) as u64;
            let upper = lower + rng.below(1 << 16) as u64;
            let text = percent_up(upper, lower);
            let shown: f64 = text.parse().unwrap();
            let exact = (upper - lower) as f64 * 100.0 / lower as f64;
            let wide = (upper - lower) * 100 >= lower;
            let step = if wide { 0.01 } else { 0.0001 };
            assert!(shown >= exact - 1e-9, "{upper} {lower}: {shown} < {exact}");
            assert!(shown < exact + step + 1e-9, "{upper} {lower}: {shown}");
            let two = text.split('.').nth(1).unwrap().len() == 2;
            assert_eq!(two, wide || upper == lower, "{text}");
        }
    }

    /// Units done on an exact power law give the law's own prediction;
    /// too few points fall back to time per secret; nothing done, none.
    #[test]
    fn the_estimate_follows_the_units_done() {
        let law = |s: u64| 0.002 * (s as f64).powf(2.5);
        let timed: Vec<(u64, f64)> = [40, 100, 300, 900].iter().map(|&s| (s, law(s))).collect();
        let r = estimate(&timed, &[2000, 50]).unwrap();
        let want = law(2000) + law(50);
        assert!((r.seconds / want - 1.0).abs() < 1e-9, "{r:?} vs {want}");
        assert_eq!(r.how, "by a power of the unit's size");
        assert_eq!(estimate(&timed, &[]).unwrap().seconds, 0.0);
        let r = estimate(&[(100, 2.0), (300, 6.0)], &[400]).unwrap();
        assert!((r.seconds - 8.0).abs() < 1e-9, "{r:?}");
        assert_eq!(r.how, "by secrets");
        // Faster per secret on larger units (noise): never below linear.
        let r = estimate(&[(10, 1.0), (100, 2.0), (1000, 4.0)], &[10000]).unwrap();
        assert!(r.seconds >= 40.0 - 1e-9, "{r:?}");
        assert_eq!(estimate(&[], &[10]), None);
    }
}
