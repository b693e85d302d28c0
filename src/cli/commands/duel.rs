//! `optimoo duel`: the two-player challenge. With `--against TREE`, the
//! exact best response to an opponent who plays TREE (the library's
//! `play::best_response`); without, the exact equilibrium between mixtures of trees
//! (the `equilibrium` crate); `--check DIR` re-derives a written one
//! (docs/duel.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use serde::{Deserialize, Serialize};

use equilibrium::duel::Played;
use equilibrium::matrix;
use optimoo::model::{Game, Objective, Rules};
use optimoo::play::best_response::{self, Rule, Seat};
use optimoo::search::{self, Config, Cost, Driver};
use optimoo::tree::format::TreeFile;

use crate::cli::folder;
use crate::cli::output::Output;
use crate::driver::{self, progress::Terminal, Rayon};

/// The two-player race: a best response, or the exact equilibrium.
///
/// The two-player challenge: both players hide a secret and guess in turn,
/// each seeing only the answers to their own guesses; whoever cracks the
/// other's secret first wins.
///
/// With --against TREE: the tree that maximizes the probability of winning
/// (draws count 1/2) against an opponent who plays TREE, every secret
/// equally likely; its exact value as a fraction; and the value TREE itself
/// would get in that seat against TREE. The best response is an exact
/// search: the probability of winning with d guesses only falls as d
/// grows, so it is the least sum of a nondecreasing cost per number of
/// guesses (solve --objective costs).
///
/// Without --against: the equilibrium. Each player mixes trees; the exact
/// value of each seat and an optimal mixture for each, found by alternating
/// exact best responses with a linear program over the trees found so far.
/// With -o DIR, writes DIR/duel.json and the trees; `--check DIR` proves
/// the written value again from the mixtures alone.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::DUEL)]
pub struct Args {
    /// The game (default: the game of TREE; if given, it must be TREE's;
    /// without --against: mm:4x6).
    #[arg(long)]
    pub game: Option<Rules>,
    /// first-wins: the first player wins when both need as many guesses;
    /// equal-turns: the second player gets as many turns, and equal
    /// lengths draw (worth 1/2).
    #[arg(long, required_unless_present = "check")]
    pub rule: Option<Rule>,
    /// The opponent's tree file.
    #[arg(long, value_name = "TREE")]
    pub against: Option<PathBuf>,
    /// The seat of the best response: first (guesses first) or second.
    #[arg(long, default_value = "first", requires = "against")]
    pub seat: Seat,
    /// With --against: save the best response to FILE (a tree file with
    /// objective costs, which `optimoo verify` checks). Without: write the
    /// equilibrium into the new or empty folder FILE (duel.json and
    /// first-I.tree, second-I.tree).
    #[arg(short = 'o', long = "output", value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// Re-derive the equilibrium written in DIR: each seat's exact best
    /// response to the other's mixture must earn no more than its share of
    /// the value, and every other claim of duel.json (value_second, each
    /// tree's total and histogram, average_optimal) must be re-derived.
    /// Exit 0 when it holds, 1 when it does not.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["against", "output", "rule", "game"])]
    pub check: Option<PathBuf>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores). The tree does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// What `duel --against` reports (`--json`: these fields).
#[derive(Debug, Serialize)]
struct Report {
    game: String,
    rule: &'static str,
    seat: &'static str,
    against: String,
    /// The best response's probability of winning, "p/q".
    value: String,
    /// What TREE gets in this seat against TREE, "p/q".
    value_of_against: String,
    /// The file written with -o, if any.
    tree: Option<String>,
    /// The best response's cap (lossless: see docs/duel.md).
    cap: usize,
    total: u64,
    average: f64,
    max_depth: usize,
    histogram: Vec<u64>,
    /// TREE's histogram.
    against_histogram: Vec<u64>,
    seconds: f64,
}

/// Runs `optimoo duel`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.check {
        return check(dir, args.threads);
    }
    let Some(rule) = args.rule else {
        bail!("duel needs --rule first-wins or --rule equal-turns");
    };
    let Some(against) = &args.against else {
        return equilibrium(&args, rule);
    };
    let threads = driver::check_threads(args.threads)?;
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let list = crate::cli::secrets::SecretArgs::default();
    let (game, file) = crate::cli::secrets::read_tree(against, &list)
        .with_context(|| format!("cannot read the opponent's tree {}", against.display()))?;
    if let Some(rules) = args.game {
        if rules != game.rules() {
            bail!(
                "{} plays {}, not the --game {rules}",
                against.display(),
                game.rules()
            );
        }
    }
    let opp = file.header.stats.histogram.clone();
    // The memory this search needs, stated and checked before the table.
    let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
    let pool = driver::pool(threads)?;
    let bar = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let observer = Terminal::new(bar, false);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    let start = std::time::Instant::now();
    let best =
        pool.install(|| best_response::best_response(&game, rule, args.seat, &opp, &base, driver))?;
    let seconds = start.elapsed().as_secs_f64();
    drop(observer);
    let copying = best_response::value(rule, args.seat, &opp, &opp);
    let written = match output {
        Some(out) => {
            let cap = Some(best.costs.len());
            let bytes =
                TreeFile::new(&game, best.tree.clone(), Objective::Costs, cap)?.to_bytes(&game)?;
            let shown = out.path().display().to_string();
            let path = out.path().to_path_buf();
            out.commit(&bytes)?;
            crate::cli::output::wrote(&path);
            Some(shown)
        }
        None => None,
    };
    let report = Report {
        game: game.name(),
        rule: rule.name(),
        seat: args.seat.name(),
        against: against.display().to_string(),
        value: best.value.to_string(),
        value_of_against: copying.to_string(),
        tree: written,
        cap: best.costs.len(),
        total: best.stats.total,
        average: best.stats.average(),
        max_depth: best.stats.max_depth,
        histogram: best.stats.histogram.clone(),
        against_histogram: opp,
        seconds,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        let join = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        writeln!(out, "game       {}", report.game)?;
        writeln!(out, "rule       {}, seat {}", report.rule, report.seat)?;
        writeln!(
            out,
            "against    {} (histogram {})",
            report.against,
            join(&report.against_histogram)
        )?;
        writeln!(
            out,
            "value      {} = {:.6}: the best response's probability of winning (draws 1/2)",
            best.value,
            best.value.to_f64()
        )?;
        writeln!(
            out,
            "copying    {} = {:.6}: the opponent's own tree in this seat",
            copying,
            copying.to_f64()
        )?;
        writeln!(
            out,
            "gain       {:+.6}",
            best.value.to_f64() - copying.to_f64()
        )?;
        writeln!(
            out,
            "response   total {}, average {:.4}, max depth {}, histogram {}",
            report.total,
            report.average,
            report.max_depth,
            join(&report.histogram)
        )?;
        if let Some(t) = &report.tree {
            writeln!(out, "tree       {t} (cap {})", report.cap)?;
        }
        writeln!(out, "time       {:.3} s", report.seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// DIR/duel.json (the fields are kept exactly: scripts read them).
#[derive(Debug, Serialize, Deserialize)]
struct DuelFile {
    game: String,
    rule: String,
    /// The first seat's probability of winning at the equilibrium, "p/q".
    value: String,
    /// The second seat's, `1 − value`.
    value_second: String,
    first: Vec<Mixed>,
    second: Vec<Mixed>,
    /// The average-optimal tree the loop started from: its worst-case
    /// probability of winning in each seat, "p/q".
    #[serde(default)]
    average_optimal: Option<Worst>,
    #[serde(default)]
    searches: usize,
    #[serde(default)]
    seconds: f64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Mixed {
    /// The tree file, relative to DIR (null without -o).
    tree: Option<String>,
    /// Its weight in the mixture, "p/q".
    weight: String,
    #[serde(default)]
    total: u64,
    #[serde(default)]
    histogram: Vec<u64>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Worst {
    total: u64,
    first: String,
    second: String,
}

/// The JSON file of DIR.
const JSON: &str = "duel.json";

/// Starts the rayon pool and a quiet driver for `work`.
fn with_driver<T>(
    threads: Option<usize>,
    work: impl FnOnce(usize, Driver<'_>) -> anyhow::Result<T> + Send,
) -> anyhow::Result<T>
where
    T: Send,
{
    let threads = driver::check_threads(threads)?;
    let pool = driver::pool(threads)?;
    let observer = Terminal::new(false, false);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    pool.install(|| work(threads, driver))
}

/// `duel` without `--against`: the equilibrium.
fn equilibrium(args: &Args, rule: Rule) -> anyhow::Result<ExitCode> {
    let game = Game::new(
        args.game
            .unwrap_or_else(|| "mm:4x6".parse().expect("a game")),
    );
    if game.secret_set().is_some() {
        bail!("the duel is played over every code of a game, not a secret list");
    }
    if let Some(dir) = &args.output {
        folder::prepare(dir)?;
    }
    let start = std::time::Instant::now();
    let eq = with_driver(args.threads, |threads, driver| {
        // The memory the searches need, stated and checked before the table.
        let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
        let first = search::solve_with(
            &game,
            Config {
                cap: None,
                objective: Cost::Total,
                ..base.clone()
            },
            driver,
        )?;
        let first = first.tree.expect("a game with no cap has a strategy");
        let first = Played::new(&game, first).map_err(anyhow::Error::msg)?;
        crate::exit::say(&format!(
            "the average-optimal tree: {} guesses in all; best responses follow",
            first.total()
        ));
        Ok(equilibrium::duel::duel(
            &game,
            rule,
            first,
            &base,
            driver,
            &mut |line| crate::exit::say(line),
        )?)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let mixed = |mix: &[(Played, BigRational)]| -> Vec<Mixed> {
        mix.iter()
            .map(|(p, w)| Mixed {
                tree: None,
                weight: matrix::show(w),
                total: p.total(),
                histogram: p.lengths.clone(),
            })
            .collect()
    };
    let mut file = DuelFile {
        game: game.name(),
        rule: rule.name().to_string(),
        value: matrix::show(&eq.value),
        value_second: matrix::show(&(BigRational::one() - &eq.value)),
        first: mixed(&eq.first),
        second: mixed(&eq.second),
        average_optimal: Some(Worst {
            total: eq.start.total(),
            first: matrix::show(&eq.start_worst[0]),
            second: matrix::show(&eq.start_worst[1]),
        }),
        searches: eq.searches,
        seconds,
    };
    if let Some(dir) = &args.output {
        for (seat, mix, entries) in [
            ("first", &eq.first, &mut file.first),
            ("second", &eq.second, &mut file.second),
        ] {
            for (i, ((p, _), entry)) in mix.iter().zip(entries.iter_mut()).enumerate() {
                let name = format!("{seat}-{}.tree", i + 1);
                folder::write_tree(dir, &name, &game, &p.tree)?;
                entry.tree = Some(name);
            }
        }
        folder::write_json(dir, JSON, &file)?;
        crate::cli::output::wrote(&dir.join(JSON));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&file)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let f = |r: &BigRational| r.to_f64().unwrap_or(f64::NAN);
    let join = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    writeln!(out, "game       {}", file.game)?;
    writeln!(out, "rule       {}", file.rule)?;
    writeln!(
        out,
        "value      first seat {} = {:.6}, second seat {} = {:.6}",
        file.value,
        f(&eq.value),
        file.value_second,
        1.0 - f(&eq.value)
    )?;
    for (seat, mix, entries) in [
        ("first", &eq.first, &file.first),
        ("second", &eq.second, &file.second),
    ] {
        writeln!(out, "{seat:<10} {} trees", mix.len())?;
        for ((p, w), e) in mix.iter().zip(entries) {
            writeln!(
                out,
                "           {} {} = {:.6}: total {}, average {:.4}, histogram {}",
                e.tree.as_deref().unwrap_or("-"),
                e.weight,
                f(w),
                p.total(),
                p.total() as f64 / game.secret_count() as f64,
                join(&p.lengths)
            )?;
        }
    }
    writeln!(
        out,
        "average-optimal tree ({} guesses): wins at least {:.6} first, {:.6} second",
        eq.start.total(),
        f(&eq.start_worst[0]),
        f(&eq.start_worst[1])
    )?;
    writeln!(
        out,
        "time       {seconds:.1} s ({} searches, {} trees found)",
        eq.searches, eq.trees
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The claims of `file` that a replay decides: `value_second` is
/// `1 − value`, and each tree's `total` and `histogram` are its replay's.
fn replayed(
    value: &BigRational,
    value_second: &BigRational,
    file: &DuelFile,
    first: &[(Played, BigRational)],
    second: &[(Played, BigRational)],
) -> Result<(), String> {
    let share = BigRational::one() - value;
    if *value_second != share {
        return Err(format!(
            "value_second is {}, not 1 - value = {}",
            matrix::show(value_second),
            matrix::show(&share)
        ));
    }
    for (seat, entries, mix) in [
        ("first", &file.first, first),
        ("second", &file.second, second),
    ] {
        for (e, (p, _)) in entries.iter().zip(mix) {
            let name = e.tree.as_deref().unwrap_or("-");
            if e.total != p.total() || e.histogram != p.lengths {
                return Err(format!(
                    "the {seat} seat's {name} is written with total {} and histogram {:?}, \
                     but its replay gives total {} and histogram {:?}",
                    e.total,
                    e.histogram,
                    p.total(),
                    p.lengths
                ));
            }
        }
    }
    Ok(())
}

/// The claim `average_optimal`: the average-optimal tree (the exact
/// search with no cap, which the loop starts from) has `total` guesses in
/// all, and wins `worst` (first seat, second seat) against the other
/// seat's exact best response to it.
fn average_optimal(
    game: &Game,
    rule: Rule,
    total: u64,
    worst: &[BigRational; 2],
    base: &Config,
    driver: Driver<'_>,
) -> anyhow::Result<Result<(), String>> {
    let start = search::solve_with(
        game,
        Config {
            cap: None,
            objective: Cost::Total,
            ..base.clone()
        },
        driver,
    )?;
    let start = start.tree.expect("a game with no cap has a strategy");
    let start = Played::new(game, start).map_err(anyhow::Error::msg)?;
    if start.total() != total {
        return Ok(Err(format!(
            "average_optimal.total is {total}, but the average-optimal tree takes {} guesses",
            start.total()
        )));
    }
    for (seat, name) in [(Seat::Second, "first"), (Seat::First, "second")] {
        // The worst case of the average-optimal tree in the seat `name`:
        // what the other seat's best response to it leaves.
        let best = best_response::best_response(game, rule, seat, &start.lengths, base, driver)?;
        let left =
            BigRational::one() - BigRational::new(best.value.num.into(), best.value.den.into());
        let claimed = &worst[usize::from(name == "second")];
        if *claimed != left {
            return Ok(Err(format!(
                "average_optimal.{name} is {}, but the average-optimal tree wins {} in the \
                 {name} seat against the exact best response to it",
                matrix::show(claimed),
                matrix::show(&left)
            )));
        }
    }
    Ok(Ok(()))
}

/// `duel --check DIR`.
fn check(dir: &Path, threads: Option<usize>) -> anyhow::Result<ExitCode> {
    let file: DuelFile = folder::read_json(dir, JSON)?;
    let rules = folder::rules(dir, JSON, &file.game)?;
    let rule: Rule = file
        .rule
        .parse()
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(JSON).display()))?;
    let game = Game::new(rules);
    let value = folder::ratio(dir, JSON, &file.value)?;
    let read = |entries: &[Mixed]| -> anyhow::Result<Vec<(Played, BigRational)>> {
        entries
            .iter()
            .map(|e| {
                let Some(name) = &e.tree else {
                    bail!("{}: a tree without its file", dir.join(JSON).display());
                };
                let tree = folder::read_tree(dir, JSON, name, rules)?;
                let played = Played::new(&game, tree)
                    .map_err(|why| anyhow::anyhow!("{}: {why}", dir.join(name).display()))?;
                Ok((played, folder::ratio(dir, JSON, &e.weight)?))
            })
            .collect()
    };
    let first = read(&file.first)?;
    let second = read(&file.second)?;
    let value_second = folder::ratio(dir, JSON, &file.value_second)?;
    let worst = match &file.average_optimal {
        Some(w) => Some((
            w.total,
            [
                folder::ratio(dir, JSON, &w.first)?,
                folder::ratio(dir, JSON, &w.second)?,
            ],
        )),
        None => None,
    };
    // The claims beside the value, each re-derived: the second seat's
    // share, every tree's total and histogram (a replay), and the
    // average-optimal tree's total and worst cases (its search again).
    if let Err(why) = replayed(&value, &value_second, &file, &first, &second) {
        return folder::verdict(dir, Err(why));
    }
    let result = with_driver(threads, |threads, driver| {
        let base = crate::cli::memory::fit(&game, Config::default(), threads, None, false)?;
        let checked = equilibrium::duel::check(&game, rule, &first, &second, &value, &base, driver);
        Ok(match (checked, worst) {
            (Ok(searches), Some((total, worst))) => {
                average_optimal(&game, rule, total, &worst, &base, driver)?.map(|()| searches)
            }
            (checked, _) => checked,
        })
    })?;
    let result = result.map(|searches| {
        format!(
            "{} {} value {} (each seat's exact best response to the other's mixture earns no \
             more; {searches} searches; value_second and the trees' totals and histograms \
             re-derived{})",
            game.name(),
            rule,
            file.value,
            if file.average_optimal.is_some() {
                ", and average_optimal"
            } else {
                ""
            }
        )
    });
    folder::verdict(dir, result)
}
