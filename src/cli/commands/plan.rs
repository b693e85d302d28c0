//! `optimoo plan`: cut an exact search into independent work units and
//! write `DIR/plan.json` (the plan is made in [`crate::cli::checkpoint`]; see
//! docs/scale.md).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::args::{self, Target};
use crate::cli::checkpoint::{self, show_cost};
use crate::driver;

/// Cut an exact search into independent work units (DIR/plan.json).
///
/// Each unit is one class of one first guess (one per symmetry orbit, in
/// the search's order), searched alone under a cut-off computed from an
/// upper bound (the best heuristic tree within the cap, or --upper), so
/// units never talk to each other. Run them with `optimoo work`, put the
/// tree together with `optimoo merge`. Same arguments as `solve`.
///
/// On a word-list game (--game wordle, wordle-nyt, or --rules R --secrets
/// F --guesses F) the plan is the proof over first guesses instead: every
/// allowed first guess valued exactly below a cut-off (--below) or proved
/// at least it, in units of --words-per-unit words; `merge` gives the
/// optimum, proved, and the ten best first words (docs/scale.md, "Proving
/// the best first word").
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::PLAN)]
pub struct Args {
    /// The game, the cap and the objective, as `solve` reads them (worst
    /// and crush find the smallest cap first, on this machine).
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
    #[command(flatten)]
    pub rules: args::RulesArg,
    /// First guesses of a word list: value exactly the words below C,
    /// prove the others at least C [default: the best of the most-parts
    /// heuristic's ten first words, valued exactly, plus 40, and above
    /// the tenth of them]
    #[arg(long, value_name = "C")]
    pub below: Option<u64>,
    /// First guesses of a word list: words in each unit [default: about
    /// 128 units]
    #[arg(long, value_name = "N")]
    pub words_per_unit: Option<usize>,
    /// First guesses of a word list: memory for the memo in MiB while the
    /// plan values the heuristic's words.
    #[arg(long, default_value_t = args::MEMO_MIB)]
    pub memo_mib: usize,
    /// Assume the optimum is at most N (tighter cut-offs, smaller units;
    /// if it is wrong, `merge` says which units to rerun).
    #[arg(long, value_name = "N")]
    pub upper: Option<u64>,
    /// Levels of the tree cut into units: 1, a unit per class of a first
    /// guess; 2, classes of 64 secrets or more cut again, a unit per second
    /// guess (more and smaller units, for many machines).
    #[arg(long, default_value = "1", value_parser = args::parse_depth)]
    pub depth: usize,
    /// The checkpoint folder (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: PathBuf,
    /// Worker threads for planning (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// `phased`: cut the whole-game evaluation of the phased strategy
    /// (`eval --strategy phased`, games of any size) instead of an exact
    /// search; `work` walks its units, `merge` adds them into eval's table.
    #[arg(long, value_name = "STRATEGY", value_parser = ["phased"])]
    pub strategy: Option<String>,
    #[command(flatten)]
    pub phased: cli_common::phased::PhasedArgs,
    /// Phased: play a uniform sample of N secrets (drawn from --seed).
    #[arg(long, value_name = "N", requires = "strategy")]
    pub sample: Option<u64>,
    /// Phased: the sample's seed.
    #[arg(long, default_value_t = 0, requires = "strategy")]
    pub seed: u64,
}

/// Runs `optimoo plan`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let words = matches!(args.target.game, Some(args::AnyGame::Words(_)))
        || matches!(
            args.list.guesses,
            Some(crate::cli::secrets::GuessArg::File(_))
        );
    if words {
        return plan_first(args);
    }
    if args.below.is_some() || args.words_per_unit.is_some() {
        anyhow::bail!(
            "--below and --words-per-unit belong to plans of first guesses of a word list \
             (--game wordle, or --rules R --secrets F --guesses F)"
        );
    }
    if args.list.secrets.is_some() || args.rules.rule.is_some() {
        anyhow::bail!(
            "--secrets and --rules: plan cuts the exact search of bulls and cows games of \
             every code, or values the first guesses of a word list (add --guesses FILE, or \
             --game wordle)"
        );
    }
    if args.strategy.is_some() {
        return plan_phased(args);
    }
    let cap = args.target.cap(false)?;
    crate::cli::args::refuse_costs(&args.target, "plan")?;
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    let folder = pool.install(|| {
        checkpoint::ensure(
            &args.output,
            args.target.rules()?,
            cap,
            args.target.objective.objective,
            args.upper,
            args.depth,
        )
    })?;
    let f = &folder.file;
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "dir": args.output.display().to_string(),
            "plan_id": f.plan_id,
            "generation": f.generation,
            "game": f.game,
            "cap": f.cap,
            "objective": f.objective,
            "guesses": f.guesses.len(),
            "units": f.units.len(),
            "upper": f.upper,
            "proven_upper": f.proven_upper,
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(
            out,
            "plan       {}",
            args.output.join("plan.json").display()
        )?;
        writeln!(
            out,
            "game       {} cap {} {}",
            f.game,
            f.cap.map_or("none".into(), |c| c.to_string()),
            f.objective
        )?;
        writeln!(
            out,
            "guesses    {} first guesses, {} units",
            f.guesses.len(),
            f.units.len()
        )?;
        if let (Some(u), Some(by)) = (f.proven_upper, &f.proven_by) {
            writeln!(
                out,
                "upper      {} (the {by} heuristic tree)",
                show_cost(folder.objective, u)
            )?;
        }
        if f.upper != f.proven_upper {
            writeln!(
                out,
                "assumed    {}",
                f.upper
                    .map_or("none".into(), |u| show_cost(folder.objective, u))
            )?;
        }
        writeln!(
            out,
            "next       optimoo work {} --unit I   (I = 0 … {})",
            args.output.display(),
            f.units.len().saturating_sub(1)
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The plan of first guesses of a word-list game
/// ([`crate::cli::first_plan`]).
fn plan_first(args: Args) -> anyhow::Result<ExitCode> {
    if args.strategy.is_some() || args.upper.is_some() || args.depth != 1 {
        anyhow::bail!(
            "--strategy, --upper and --depth belong to other plans: a plan of first guesses \
             takes --below, --words-per-unit and --cap"
        );
    }
    if args.target.objective.objective != optimoo::model::Objective::Average
        || args.target.objective.costs.is_some()
    {
        anyhow::bail!(
            "--objective: a plan of first guesses values each word by its least total (the \
             average objective); drop --objective"
        );
    }
    let cap = args.target.cap(true)?;
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    let game = args.rules.game(args.target.game, &args.list)?;
    let name = match (&args.target.game, &args.list.guesses) {
        (Some(args::AnyGame::Words(p)), _) => p.name().to_string(),
        (_, Some(crate::cli::secrets::GuessArg::File(f))) => f.display().to_string(),
        _ => game.rules().to_string(),
    };
    pool.install(|| {
        crate::cli::first_plan::plan(
            crate::cli::first_plan::PlanArgs {
                dir: &args.output,
                name,
                cap,
                below: args.below,
                words_per_unit: args.words_per_unit,
                memo_mib: args.memo_mib,
                threads,
                json: args.json,
            },
            &game,
        )
    })
}

/// `plan --strategy phased`: the cut of the phased strategy's walk.
fn plan_phased(args: Args) -> anyhow::Result<ExitCode> {
    use crate::cli::args::AnyGame;
    if args.target.cap.is_some() || args.upper.is_some() {
        anyhow::bail!("--cap and --upper belong to the exact search, not to --strategy phased");
    }
    let shape = match args.target.game {
        Some(AnyGame::Huge(shape)) => shape,
        Some(AnyGame::Small(rules)) => optimoo::model::shape::Shape::from_rules(rules)?,
        Some(AnyGame::Words(p)) => anyhow::bail!(
            "--game {}: the phased strategy plays whole games (moo:KxN, mm:KxN), not word lists",
            p.name()
        ),
        None => optimoo::model::shape::Shape::from_rules(optimoo::model::Rules::standard())?,
    };
    let threads = driver::check_threads(args.threads)?;
    let pool = driver::pool(threads)?;
    pool.install(|| {
        crate::cli::phased_plan::plan(
            &args.output,
            shape,
            args.phased.options(),
            args.sample,
            args.seed,
            args.depth,
            args.json,
        )
    })
}
