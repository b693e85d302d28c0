//! `optimoo solve`: the exact optimal tree of a game under a guess cap.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::search::{self, Config, Driver, Goal, Optimum, Tuning};
use optimoo::tree::format::{Bound, TreeFile};

use crate::cli::args::{self, Target};
use crate::cli::checkpoint;
use crate::cli::memory;
use crate::cli::output::Output;
use crate::cli::report::SolveReport;
use crate::driver::{self, progress::Terminal, Rayon};

/// Compute a provably optimal decision tree by exhaustive search.
///
/// With neither --game nor --cap it solves moo:4x10 with at most 7 guesses
/// (the known optimum is 26274 guesses in all, 5.2131 on average; the tool
/// computes it). With --game and no --cap the number of guesses is
/// unlimited. An infeasible cap is reported ("no strategy solves ... within
/// N guesses") with exit code 1: a proof by exhaustion.
///
/// Objectives: `average` (default) minimizes the total number of guesses
/// within the cap; `worst` finds the smallest cap any strategy can meet,
/// refuting every smaller one, and returns the minimal-total tree within it;
/// `crush` then minimizes the secrets that need that last guess, and the
/// total after that.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::SOLVE)]
pub struct Args {
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
    #[command(flatten)]
    pub rules: args::RulesArg,
    /// Wordle's hard mode (with --rules wordle): every later guess keeps
    /// each green letter in its place and uses each revealed letter as
    /// often as an answer showed it (the average objective, with or
    /// without --cap).
    #[arg(long)]
    pub hard: bool,
    /// Fix the first guess (e.g. `--first salet`): the least total among
    /// the trees that open with it. That is an upper bound of the game's
    /// optimum, not the optimum: the report says "fixed", and the tree
    /// file is written as an upper bound whose subtrees after the first
    /// guess are proved optimal (docs/format.md). The average objective
    /// only (with or without --cap).
    #[arg(long, value_name = "GUESS")]
    pub first: Option<String>,
    /// Only decide whether the optimum is below C. Without --first: when
    /// it is, the usual report and the optimal tree (-o), found far faster
    /// than without a cut-off when C is close above it (a value proved
    /// elsewhere, e.g. by `work`); else a proven lower bound at least C
    /// (exit 1), no tree. With --first: whether the total after that guess
    /// is below C, the exact total when it is (exit 0), else a proven
    /// lower bound at least C (exit 1), without a tree: the cut-off of a
    /// proof that no first guess beats a known one (7921 for Wordle:
    /// every first word but SALET costs at least that). --first may then
    /// list several guesses, `crane,trace,least`: each is decided in turn
    /// by one search (its memo shared), a report each. The average
    /// objective only.
    #[arg(long, value_name = "C")]
    pub below: Option<u64>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Save the tree to FILE: the compact tree file (docs/format.md), or
    /// JSON when FILE ends in .json.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (default: all cores). The tree does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Memory for the memo in MiB (two generations of this size at most)
    /// [default: 256, shrunk to fit --max-memory]
    #[arg(long)]
    pub memo_mib: Option<usize>,
    /// Refuse a search whose estimated memory (stated on stderr before it
    /// starts: feedback table N² bytes, memo, the rest) is above SIZE:
    /// bytes, or K, M, G, T (powers of 1024; also KiB, MiB, GiB, TiB) or
    /// KB, MB, GB, TB (powers of 1000), e.g. 8G, 512M, 1.5GiB
    /// [default: the memory available]
    #[arg(long, value_name = "SIZE", value_parser = args::parse_size)]
    pub max_memory: Option<u64>,
    /// With --objective worst only: find and prove the smallest cap, without
    /// the minimal-total tree within it (much faster on large games).
    #[arg(long, conflicts_with = "cap")]
    pub cap_only: bool,
    /// Print a line on stderr as each class of the first guess is solved.
    #[arg(short, long)]
    pub verbose: bool,
    /// Tuning: largest candidate set whose memo key is put in canonical
    /// form under symbol and position permutations (0: never).
    #[arg(long, default_value_t = Tuning::default().canon_max)]
    pub canon_max: usize,
    /// Tuning: sets of at most this many secrets are solved exactly
    /// whatever the cut-off.
    #[arg(long, default_value_t = Tuning::default().exact_small)]
    pub exact_small: usize,
    /// Keep the work in folder DIR (plan, units) and resume from it when
    /// run again after a stop: at most the units in flight are lost
    /// (docs/scale.md). Not with --cap-only or --secrets. Without it, a
    /// game of more than 5040 secrets gets a reminder on stderr.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["cap_only", "secrets"])]
    pub checkpoint: Option<PathBuf>,
}

/// Games with more secrets than this (moo:4x10) get the reminder that
/// `--checkpoint` makes a solve resumable.
pub const LONG_SOLVE_SECRETS: usize = 5040;

/// Runs `optimoo solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let (Some(rule), Some(_)) = (args.rules.other(), &args.checkpoint) {
        bail!(
            "--rules {rule} with --checkpoint: the checkpoint folder's plan is made for \
             bulls-cows only so far; drop --checkpoint to solve {rule} in one run"
        );
    }
    let objective = args.target.objective.objective;
    let cap = args.target.cap(args.list.secrets.is_some())?;
    // --first (checked first: its words are the ones tests and users know)
    // and --below share their limits: one run, the average objective.
    for (flag, given) in [
        ("--first", args.first.is_some()),
        ("--below", args.below.is_some()),
    ] {
        if !given {
            continue;
        }
        if objective != Objective::Average || args.target.objective.costs.is_some() {
            bail!(
                "{flag} goes with the average objective (with or without --cap): \
                 drop --objective or {flag}"
            );
        }
        if args.checkpoint.is_some() || args.cap_only {
            bail!("{flag} solves in one run: drop --checkpoint and --cap-only");
        }
    }
    if args.first.is_some() && args.below.is_some() && args.output.is_some() {
        bail!(
            "--first with --below writes no tree (it decides the totals only): drop -o, \
             or drop --below to save the tree after --first"
        );
    }
    if args.cap_only && objective != Objective::Worst {
        bail!(
            "--cap-only goes with --objective worst (it proves the smallest cap, \
             without a tree): add --objective worst, or drop --cap-only"
        );
    }
    let threads = driver::check_threads(args.threads)?;
    // Checked before the search: a bad -o is refused at once, not after.
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let game = args.rules.game(args.target.game, &args.list)?;
    let game = if args.hard {
        if game.rules().guesses() != optimoo::model::GuessRule::Any {
            bail!("--hard and --guesses consistent are two guess rules: give one");
        }
        game.with_guess_rule(optimoo::model::GuessRule::Hard)
            .map_err(|e| anyhow::anyhow!("--hard: {e}"))?
    } else {
        game
    };
    let memo_mib = args.memo_mib.unwrap_or(args::MEMO_MIB);
    if let Some(dir) = &args.checkpoint {
        args::refuse_costs(&args.target, "solve --checkpoint")?;
        let rules = args.target.rules()?;
        let report = checkpoint::solve(
            dir,
            rules,
            cap,
            objective,
            threads,
            memo_mib,
            args.verbose,
            output,
        )?;
        return report.print(args.json);
    }
    if game.secret_count() > LONG_SOLVE_SECRETS && game.code_list().is_none() {
        crate::exit::say(&format!(
            "note: {} has {} secrets and may take long; --checkpoint DIR makes the \
             search resumable after a stop (docs/scale.md)",
            game.rules(),
            game.secret_count()
        ));
    }
    let costs = args.target.objective.costs.as_ref();
    let goal = Goal::of(objective, cap, costs.map(|c| c.scaled.clone()))?;
    let tuning = Tuning {
        memo_codes: memory::memo_codes(memo_mib)?,
        canon_max: args.canon_max,
        exact_small: args.exact_small,
        ..Tuning::default()
    };
    // Checked before the feedback table is built: refused, never killed.
    let estimated = Config {
        objective: goal.cost(),
        tuning,
        ..Config::default()
    };
    let tuning = memory::fit(
        &game,
        estimated,
        threads,
        args.max_memory,
        args.memo_mib.is_some(),
    )?
    .tuning;
    let pool = driver::pool(threads)?;
    let bar = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let observer = Terminal::new(bar, args.verbose);
    let driver = Driver {
        par: &Rayon,
        observer: &observer,
    };
    let report = pool.install(|| solve(&args, &game, &goal, &tuning, driver, output))?;
    drop(observer);
    if args.verbose {
        // The search's counters, when built with them (`--features stats`).
        if let Some(table) = optimoo::search::stats_report() {
            eprint!("{table}");
        }
    }
    report.print(args.json)
}

/// `--first G,... --below C`: whether the total after each `G` is below
/// `C`, one search for them all.
fn below(
    game: &Game,
    goal: &Goal,
    tuning: &Tuning,
    driver: Driver<'_>,
    words: &[&str],
    codes: &[optimoo::model::Code],
    cutoff: u64,
) -> anyhow::Result<SolveReport> {
    let search::Posed { config, .. } = search::pose(game, goal, tuning, driver)?;
    let values = search::FirstGuesses::new(game, config.cap, config.tuning, driver)?;
    let mut all = Vec::new();
    for (w, &g) in words.iter().zip(codes) {
        let (start, nodes) = (std::time::Instant::now(), values.nodes());
        let outcome = values.value(g, cutoff)?;
        let seconds = start.elapsed().as_secs_f64();
        all.push(SolveReport::below(
            game,
            config.cap,
            Some(w),
            cutoff,
            outcome,
            seconds,
            values.nodes() - nodes,
        ));
    }
    Ok(SolveReport::Below(all))
}

/// Searches, writes the tree file if asked, and returns the report.
fn solve(
    args: &Args,
    game: &Game,
    goal: &Goal,
    tuning: &Tuning,
    driver: Driver<'_>,
    output: Option<Output>,
) -> anyhow::Result<SolveReport> {
    let objective = args.target.objective.objective;
    if args.cap_only {
        // Worst only (checked by `run`): the smallest cap, no tree.
        let found = search::min_cap_with(game, tuning, driver)?;
        return Ok(SolveReport::cap_only(game, &found));
    }
    if let (Some(text), Some(cutoff)) = (&args.first, args.below) {
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        let codes = words
            .iter()
            .map(|w| game.parse_code(w).with_context(|| format!("--first {w}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        return below(game, goal, tuning, driver, &words, &codes, cutoff);
    }
    let first = match &args.first {
        None => None,
        Some(text) => Some(game.parse_code(text).context("--first")?),
    };
    let Optimum {
        cap,
        min_cap,
        solution,
    } = match (first, args.below) {
        (None, Some(cutoff)) => {
            let search::Posed { config, min_cap } = search::pose(game, goal, tuning, driver)?;
            let cap = config.cap;
            match search::solve_below(game, config, driver, cutoff)? {
                Ok(solution) => Optimum {
                    cap,
                    min_cap,
                    solution,
                },
                Err(r) => {
                    let outcome = optimoo::search::Outcome::AtLeast(r.bound);
                    return Ok(SolveReport::Below(vec![SolveReport::below(
                        game, cap, None, cutoff, outcome, r.seconds, r.nodes,
                    )]));
                }
            }
        }
        (None, None) => search::optimize(game, goal, tuning, driver)?,
        (Some(g), _) => {
            let search::Posed {
                mut config,
                min_cap,
            } = search::pose(game, goal, tuning, driver)?;
            config.first = Some(g);
            let cap = config.cap;
            Optimum {
                cap,
                min_cap,
                solution: search::solve_with(game, config, driver)?,
            }
        }
    };
    if let (Some(out), Some(tree)) = (output, &solution.tree) {
        let bytes = if out.path().extension().is_some_and(|e| e == "json") {
            serde_json::to_string(&tree.to_json(game))?.into_bytes()
        } else {
            let file = TreeFile::new(game, tree.clone(), objective, cap)?;
            let file = match first {
                None => file,
                // Optimal after the fixed guess: each subtree below the
                // root is proved, the whole only an upper bound.
                Some(_) => file.with_bound(Bound {
                    lower: None,
                    exact: tree.root.children.iter().map(|(f, _)| vec![*f]).collect(),
                })?,
            };
            file.to_bytes(game)?
        };
        let path = out.path().to_path_buf();
        out.commit(&bytes)?;
        crate::cli::output::wrote(&path);
    }
    let report = SolveReport::new(game, cap, objective, &solution, min_cap.as_ref())
        .with_first_fixed(first.is_some());
    Ok(match args.target.objective.costs.as_ref() {
        Some(costs) => report.with_costs(costs, solution.cost),
        None => report,
    })
}
