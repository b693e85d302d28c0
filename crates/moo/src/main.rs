//! `moo`: the tiny player. It plays the optimal moo:4x10 tree embedded at
//! build time, any tree file given with `--tree`, or for `--game G` the
//! best tree of data/ for G (embedded too), and with none the heuristic and
//! the small exact search. Thin: arguments in,
//! [`optimoo::play::player`] does the work, errors out as exit codes (the
//! README's table: 0 success, a won game included; 1 a contradictory
//! history, a move after the win or an unfinished game; 2 an error). Nothing here panics on a
//! closed stream: stdout through `?` (a closed pipe ends the run with 0),
//! stderr through [`exit::Lossy`] and [`exit::say`], which ignore failures.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::{Parser, Subcommand};
use optimoo::model::moves;
use optimoo::play::codebreaker::{self, BreakerOutcome};
use optimoo::play::host::{self, Codemaker, Host, HostOutcome};
use optimoo::play::player::{self, PlayError, Player};

use cli_common::exit;
use cli_common::secrets::SecretArgs;

mod rank;
mod shape;

// EMBEDDED (data/moo-4x10-cap7.tree, if it existed at build time) and
// SHIPPED (the minimal-total trees of data/, by name): see build.rs.
include!(concat!(env!("OUT_DIR"), "/shipped_trees.rs"));

/// What `moo --help` says first (`-h`: [`SHORT_ABOUT`]): the game and its
/// answers in words.
const ABOUT: &str = "\
Bulls and Cows with an optimal strategy: think of a secret and answer its
guesses, or ask for the best next guess of your own game.

The rules: the secret is a code of K symbols. moo:4x10, the game played
unless --game or --tree says otherwise, is Bulls and Cows: 4 different
digits out of 0-9 (5040 secrets); moo:KxN is K different symbols out of N;
mm:KxN lets a symbol repeat (mm:4x6 is Mastermind: 4 of 0-5, 1296 secrets).
Each guess is answered xAyB: A (bulls) counts the symbols that are right
and in the right place, B (cows) those that are right but in the wrong
place. Against the secret 5293, the guess 1235 is answered 1A2B (2 in
place; 3 and 5 elsewhere). 4A0B wins.";

/// The first line of `moo -h` and `moo --help`.
const SHORT_ABOUT: &str =
    "Bulls and Cows with an optimal strategy: moo guesses, or helps you guess";

/// The examples of `moo --help` (`-h` leaves them out), one or more a
/// subcommand: the subcommands' long help has none of its own, since
/// every string costs the player bytes under its 1.5 MiB (these took
/// 2.5 KB). Each is quick and works from the workspace's folder (data/):
/// crates/moo/tests/help.rs runs them all.
const EXAMPLES: &str = "\
Examples:
  moo                                   # play: think of a secret, answer moo's guesses
  moo next 0123:0A1B 1456:1A1B          # the best next guess after your moves
  moo rank 0123:0A2B 4567:1A0B          # the 10 best next guesses, with their values
  moo solve 5293                        # the game the tree plays against 5293
  moo --game mm:4x6 solve 0012          # Mastermind: the tree shipped in data/
  moo analyze 0123:0A2B 4567:1A0B 0123:0A2B   # each move judged
  moo host --seed 7                     # you guess, moo answers
  moo duel --seed 7                     # the race: both guess in turn";

#[derive(Debug, Parser)]
#[command(
    name = "moo",
    version,
    propagate_version = true,
    about = SHORT_ABOUT,
    long_about = ABOUT,
    after_long_help = EXAMPLES
)]
struct Cli {
    /// Play this tree file (any game: see `optimoo solve -o`) instead of the
    /// embedded optimal moo:4x10 tree.
    #[arg(long, global = true, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// The game: moo:KxN (K different symbols out of N) or mm:KxN (repeats
    /// allowed) [default: the --tree file's, else moo:4x10]. Without --tree,
    /// moo plays the best tree shipped in data/ for it (mm:4x6, moo:3x10,
    /// ...), and for a game with none the heuristic and the small exact
    /// search.
    /// Games of more than 65,535 codes (moo:10x10, mm:8x8) are played by
    /// the phased strategy, move by move: `play`, `next`, `host` and
    /// `rank` (whose values are then bounds, never exact).
    /// wordle (wordle-nyt): Wordle's 2315 (2309) answers, 12972 guesses,
    /// answers typed GYBBY, gy--- or as the squares; played from the
    /// SALET tree of data/ (rank, analyze: exact where it proves it).
    #[arg(long, global = true)]
    game: Option<cli_common::phased::AnyGame>,
    /// Play the game as one of more than 65,535 codes (the phased
    /// strategy, no tree), whatever its size: for tests.
    #[arg(long, global = true, hide = true)]
    phased: bool,
    #[command(flatten)]
    list: SecretArgs,
    /// Print the time spent in the process (load, answer) to stderr; for
    /// scripts/bench-player.sh.
    #[arg(long, global = true, hide = true)]
    timings: bool,
    /// What to do (default: play).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play: moo guesses, you answer with A and B (the default).
    ///
    /// Answer each guess with A and B: 1A2B, 1a2b, '1 2' or 1,2; undo takes
    /// your last answer back, left counts the secrets still possible, quit
    /// gives up. With stdin not a terminal, each guess is a line of stdout
    /// and everything else goes to stderr.
    #[command(verbatim_doc_comment)]
    Play,
    /// Print the best next guess after your moves.
    ///
    /// The guess is the first word of stdout. After a winning answer it
    /// says the game is won (stdout empty, exit code 0); a contradictory
    /// history is exit code 1.
    #[command(verbatim_doc_comment)]
    Next {
        /// Moves so far, each GUESS:FEEDBACK.
        #[arg(value_name = "GUESS:FEEDBACK")]
        history: Vec<String>,
    },
    /// List the best next guesses after your moves, each with its value.
    ///
    /// The value of a guess is the expected number of guesses still needed
    /// (this one included) when it is played now and play is optimal after
    /// it, within the tree's cap.
    /// Exact, or a proven lower bound marked ≥ when the search would take
    /// longer than --budget. Equivalent guesses are one row with a count.
    /// Games of more than 65,535 codes have bounds only, never exact values:
    /// the best guesses of the phased strategy's pool, each with ≤ (the
    /// phased strategy played out after it, best rows first, within
    /// --budget) and ≥ (a proven lower bound); in JSON, total and value are
    /// the lower bound, upper_total and upper_value the upper one (null
    /// when not played out).
    #[command(verbatim_doc_comment)]
    Rank {
        /// Moves so far, each GUESS:FEEDBACK.
        #[arg(value_name = "GUESS:FEEDBACK")]
        history: Vec<String>,
        /// How many rows to list (0: every guess, all searched).
        #[arg(long, default_value_t = 10, value_name = "N")]
        top: usize,
        /// One JSON object per row.
        #[arg(long)]
        json: bool,
        /// Seconds of search at most (inf: no limit); beyond, lower bounds.
        #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
        budget: f64,
        /// Ignore the shipped opening table (for scripts/opening-table.sh).
        #[arg(long, hide = true)]
        no_table: bool,
    },
    /// Judge a played game: each move against the best, with a verdict.
    ///
    /// For each move: the best move there, the expected guesses still
    /// needed after each, the loss and a verdict (best, good < 0.05,
    /// inaccuracy < 0.2, mistake < 0.5, blunder); then the total expected
    /// loss.
    #[command(verbatim_doc_comment)]
    Analyze {
        /// The moves played, each GUESS:FEEDBACK, the win last if it came.
        #[arg(value_name = "GUESS:FEEDBACK", required = true)]
        history: Vec<String>,
        /// One JSON object per move.
        #[arg(long)]
        json: bool,
        /// Seconds of search at most per move (inf: no limit); beyond, the
        /// loss shown is a proven lower bound.
        #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
        budget: f64,
    },
    /// Show the game the tree plays against a secret.
    ///
    /// Each guess with its answer, up to the win: the game `moo play` plays
    /// when you think of that secret.
    #[command(verbatim_doc_comment)]
    Solve {
        /// The secret, e.g. 5293.
        secret: String,
    },
    /// The race: you and moo each hide a secret and guess in turn.
    ///
    /// Whoever cracks the other's first wins (first-wins), or the second
    /// gets as many turns and equal rounds draw (equal-turns). moo plays a tree
    /// drawn from the exact equilibrium shipped in data/duel (moo:4x10,
    /// mm:4x6; optimoo duel -o DIR makes others, play them with --tree), and
    /// draws its secret at random. You answer moo's guesses with A and B (a
    /// contradiction is refused at once; undo takes your last answer back)
    /// and type your own guesses.
    #[command(verbatim_doc_comment)]
    Duel {
        /// first-wins or equal-turns.
        #[arg(long, default_value = "first-wins")]
        rule: optimoo::play::best_response::Rule,
        /// Your seat: first (you guess first) or second.
        #[arg(long, default_value = "first")]
        seat: optimoo::play::best_response::Seat,
        /// Seed of moo's secret and of its draw from the mixture; default:
        /// from the clock.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Swap roles: you guess, moo answers.
    ///
    /// By default moo draws a random secret; with --adversarial it never
    /// commits to one and answers each guess so that the most secrets stay
    /// possible (the worst case for
    /// you; every answer stays consistent with some secret). Type `left` for
    /// the number of secrets still possible, `quit` to give up. With stdin
    /// not a terminal, each answer is a line of stdout. On games of more
    /// than 65,535 codes the adversary keeps the largest class and the list
    /// of every code still possible (24 bytes a code: moo:10x10 87 MB;
    /// refused above 200 MB, e.g. mm:8x8).
    #[command(verbatim_doc_comment)]
    Host {
        /// Seed of the random secret (and of the adversary's tie-breaks);
        /// default: from the clock.
        #[arg(long)]
        seed: Option<u64>,
        /// Never commit to a secret: always keep the most secrets possible.
        #[arg(long)]
        adversarial: bool,
    },
}

fn main() -> ExitCode {
    let start = std::time::Instant::now();
    match exit::parse_args::<Cli>() {
        Ok(cli) => {
            let plain = cli.game.is_none() && cli.tree.is_none();
            exit::finish(run(cli, start).map_err(|e| hint(e, plain)), "moo")
        }
        Err(code) => code,
    }
}

/// A code that does not fit moo:4x10, given with neither --game nor
/// --tree (`moo solve 0012`): the error, and how to name the game.
fn hint(err: anyhow::Error, plain: bool) -> anyhow::Error {
    use optimoo::model::moves::MoveError;
    use optimoo::model::CodeError;
    let misfit = err.chain().any(|e| {
        e.downcast_ref::<CodeError>().is_some()
            || matches!(e.downcast_ref::<MoveError>(), Some(MoveError::Code { .. }))
    });
    if !(plain && misfit) {
        return err;
    }
    anyhow!(
        "{}; moo plays moo:4x10 unless --game or --tree says otherwise: e.g. moo --game \
         mm:4x6 ... for Mastermind",
        exit::message(&err)
    )
}

fn run(mut cli: Cli, start: std::time::Instant) -> anyhow::Result<ExitCode> {
    use cli_common::phased::AnyGame;
    let huge = match cli.game {
        Some(AnyGame::Huge(shape)) => Some(shape),
        Some(AnyGame::Small(rules)) if cli.phased => {
            Some(optimoo::model::shape::Shape::from_rules(rules)?)
        }
        None if cli.phased => Some(optimoo::model::shape::Shape::from_rules(
            optimoo::model::Rules::standard(),
        )?),
        _ => None,
    };
    if let Some(shape) = huge {
        if cli.tree.is_some() || cli.list.secrets.is_some() {
            return Err(anyhow!(
                "{shape} has no tree file and no secret list: drop --tree and --secrets"
            ));
        }
        return match cli.command {
            None | Some(Command::Play) => shape::play(shape),
            Some(Command::Next { history }) => shape::next(shape, &history),
            Some(Command::Host { seed, adversarial }) => {
                shape::host(shape, seed.unwrap_or_else(clock_seed), adversarial)
            }
            Some(Command::Rank {
                history,
                top,
                json,
                budget,
                no_table: _,
            }) => shape::rank(shape, &history, top, json, budget, start),
            Some(_) => Err(anyhow!(
                "{shape} has {} codes: over 65,535 moo plays, answers next, hosts and ranks \
                 (with bounds), nothing else",
                shape.code_count()
            )),
        };
    }
    let (game, preset) = match cli.game.take() {
        Some(AnyGame::Small(rules)) => (Some(rules), None),
        Some(AnyGame::Words(p)) if cli.phased => {
            return Err(anyhow!(
                "--game {}: the phased strategy plays whole games, not word lists",
                p.name()
            ))
        }
        Some(AnyGame::Words(p)) => (None, Some(cli.list.preset_game(p)?)),
        _ => (None, None),
    };
    run_small(cli, game, preset, start)
}

fn run_small(
    cli: Cli,
    game_arg: Option<optimoo::model::Rules>,
    mut preset: Option<optimoo::model::Game>,
    start: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    let list = cli.list.clone();
    if let Some(Command::Host { seed, adversarial }) = cli.command {
        return host(cli.tree, &list, game_arg, preset, seed, adversarial);
    }
    if let Some(Command::Duel { rule, seat, seed }) = cli.command {
        if list.secrets.is_some() || preset.is_some() {
            return Err(anyhow!(
                "the race is played over every code of a game, not a list"
            ));
        }
        return duel(cli.tree, game_arg, rule, seat, seed);
    }
    let (bytes, name) = match (&cli.tree, game_arg) {
        (Some(path), _) => (
            Some(std::borrow::Cow::Owned(
                optimoo::tree::format::read_file(path)
                    .with_context(|| format!("reading {}", path.display()))?,
            )),
            path.display().to_string(),
        ),
        (None, None) if preset.is_some() => match preset.as_ref().and_then(shipped_words) {
            Some((name, bytes)) => (
                Some(std::borrow::Cow::Owned(bytes)),
                format!("the embedded {name}"),
            ),
            None => (None, String::new()),
        },
        (None, _) if list.secrets.is_some() => {
            return Err(anyhow!(
                "the embedded tree plays every moo:4x10 code, not a list: pass the tree \
                 made for the list with --tree FILE (optimoo solve --secrets ... -o FILE)"
            ))
        }
        (None, None) => (
            Some(std::borrow::Cow::Borrowed(EMBEDDED.ok_or_else(|| {
                anyhow!(
                    "this moo was built without data/moo-4x10-cap7.tree: pass --tree FILE \
                     (scripts/regenerate-data.sh makes the file)"
                )
            })?)),
            "the embedded tree".to_string(),
        ),
        (None, Some(rules)) => match shipped(rules) {
            Some((name, bytes)) => (
                Some(std::borrow::Cow::Borrowed(bytes)),
                format!("the embedded {name}"),
            ),
            None => (None, String::new()),
        },
    };
    let (game, file) = match &bytes {
        Some(bytes) => {
            let given = match &list.secrets {
                Some(path) => {
                    let header = optimoo::tree::format::Header::peek(bytes)
                        .with_context(|| format!("reading {name}"))?;
                    Some(list.for_header(&header, path)?)
                }
                None => None,
            };
            let (game, file) =
                player::load_with(bytes, given).with_context(|| format!("reading {name}"))?;
            if let Some(rules) = game_arg.filter(|&r| r != game.rules()) {
                return Err(anyhow!(
                    "{name} plays {}, not {rules}: drop --game, or give a tree of {rules} \
                     (optimoo solve --game {rules} -o FILE)",
                    game.rules()
                ));
            }
            let same = |p: &optimoo::model::Game| {
                p.rules() == game.rules()
                    && match (p.secret_set(), game.secret_set()) {
                        (Some(a), Some(b)) => a.same_game(b),
                        _ => false,
                    }
            };
            if let Some(p) = preset.as_ref().filter(|p| !same(p)) {
                return Err(anyhow!(
                    "{name} plays {}, not {}: drop --game, or give a tree of that game \
                     (optimoo export --game ... --strategy kooi --format tree -o FILE)",
                    game.name(),
                    p.name()
                ));
            }
            (game, Some(file))
        }
        None => match preset.take() {
            Some(game) => (game, None),
            None => (
                optimoo::model::Game::new(game_arg.expect("no tree: a --game")),
                None,
            ),
        },
    };
    let player = match &file {
        Some(file) => Player::new(&game, &file.tree)?.with_cap(file.header.cap),
        None => Player::without_tree(&game),
    };
    let loaded = start.elapsed();
    let timings = cli.timings;
    let report = move || {
        if timings {
            let total = start.elapsed();
            exit::say(&format!(
                "{:.3} ms in process (load {:.3} ms, answer {:.3} ms)",
                total.as_secs_f64() * 1e3,
                loaded.as_secs_f64() * 1e3,
                (total - loaded).as_secs_f64() * 1e3
            ));
        }
    };
    let mut out = std::io::stdout().lock();
    match cli.command.unwrap_or(Command::Play) {
        Command::Play => {
            let stdin = std::io::stdin();
            let decorated = stdin.is_terminal();
            let mut input = stdin.lock();
            let outcome = if decorated {
                let mut talk = std::io::stdout();
                codebreaker::interact(&player, &mut input, &mut out, &mut talk, true)?
            } else {
                let mut talk = exit::Lossy(std::io::stderr().lock());
                codebreaker::interact(&player, &mut input, &mut out, &mut talk, false)?
            };
            Ok(match outcome {
                BreakerOutcome::Won(_) | BreakerOutcome::Quit => ExitCode::SUCCESS,
                BreakerOutcome::Unfinished => ExitCode::from(exit::EXIT_NEGATIVE),
            })
        }
        Command::Next { history } => {
            let history = moves::parse_history(&game, &history)?;
            match player.advise(&history) {
                Ok(advice) => {
                    writeln!(out, "{}", player::describe_advice(&player, &advice))?;
                    report();
                    Ok(ExitCode::SUCCESS)
                }
                Err(err @ PlayError::Solved(_)) => {
                    // Done: no guess to make (stdout stays empty), exit 0.
                    exit::say(&format!("moo: {err}"));
                    report();
                    Ok(ExitCode::SUCCESS)
                }
                Err(err @ (PlayError::Contradiction { .. } | PlayError::AfterWin { .. })) => {
                    exit::say_error("moo", &err.to_string());
                    Ok(ExitCode::from(exit::EXIT_NEGATIVE))
                }
                Err(err) => Err(err.into()),
            }
        }
        Command::Host { .. } | Command::Duel { .. } => unreachable!("handled above"),
        Command::Rank {
            history,
            top,
            json,
            budget,
            no_table,
        } => {
            let advisor = optimoo::play::rank::Advisor {
                use_table: !no_table,
                ..optimoo::play::rank::Advisor::of_file(&game, file.as_ref())
            };
            rank::rank(&advisor, &history, top, json, budget, &mut out)
        }
        Command::Analyze {
            history,
            json,
            budget,
        } => rank::analyze(
            &optimoo::play::rank::Advisor::of_file(&game, file.as_ref()),
            &history,
            json,
            budget,
            &mut out,
        ),
        Command::Solve { secret } => {
            let secret = game.parse_code(&secret)?;
            if !game.is_secret(secret) {
                return Err(anyhow!(
                    "{} is not a secret of {}",
                    game.format_code(secret),
                    game.name()
                ));
            }
            for (g, f) in player.play(secret) {
                writeln!(out, "{} {}", game.format_code(g), game.format_feedback(f))?;
            }
            report();
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The best tree of data/ (embedded at build time: the trees of objective
/// average over every code) for `rules`: the smallest total (the fewest
/// guesses on average; mm:4x6's tree with no cap, 5625, before the one
/// within 5 guesses, 5626), then the file name. `None`: no tree of data/
/// plays that game.
fn shipped(rules: optimoo::model::Rules) -> Option<(&'static str, &'static [u8])> {
    SHIPPED
        .iter()
        .filter_map(|&(name, bytes)| {
            let h = optimoo::tree::format::Header::peek(bytes).ok()?;
            (h.rules == rules && h.secrets.is_none()).then_some(((h.stats.total, name), bytes))
        })
        .min()
        .map(|((_, name), bytes)| (name, bytes))
}

/// The tree of data/ (embedded at build time) for a word-list preset
/// (`--game wordle`, `wordle-nyt`): one whose code list, answer rule and
/// secret list are the preset's, proved optimal or an upper bound with
/// exact subtrees (the player's values say which); the smallest total,
/// then the file name. `None`: none ships (or a list given with
/// --secrets), and moo plays the heuristic.
fn shipped_words(preset: &optimoo::model::Game) -> Option<(&'static str, Vec<u8>)> {
    let secrets = preset.secret_set()?;
    WORD_TREES
        .iter()
        .filter_map(|&(name, before, list, after)| {
            // The file's bytes again (build.rs cut them); the checksum
            // checks them.
            let bytes = [before, list, after].concat();
            let h = optimoo::tree::format::Header::peek(&bytes).ok()?;
            let same = h.rules == preset.rules()
                && h.secrets.as_ref().is_some_and(|s| s.same_game(secrets));
            same.then_some(((h.stats.total, name), bytes))
        })
        .min()
        .map(|((_, name), bytes)| (name, bytes))
}

/// A seed from the clock and the process id.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ ((std::process::id() as u64) << 32)
}

/// `moo host`: the person guesses.
fn host(
    tree: Option<PathBuf>,
    list: &SecretArgs,
    game: Option<optimoo::model::Rules>,
    preset: Option<optimoo::model::Game>,
    seed: Option<u64>,
    adversarial: bool,
) -> anyhow::Result<ExitCode> {
    let header = match &tree {
        Some(path) => {
            let bytes = optimoo::tree::format::read_file(path)
                .with_context(|| format!("reading {}", path.display()))?;
            Some(
                optimoo::tree::format::Header::peek(&bytes)
                    .with_context(|| format!("reading {}", path.display()))?,
            )
        }
        None => None,
    };
    let game = match (game, &header, &list.secrets) {
        _ if preset.is_some() => preset.expect("a preset"),
        (None, Some(h), Some(path)) => h.game().with_secret_set(list.for_header(h, path)?),
        (game, _, Some(path)) => {
            let known = game.or(header.as_ref().map(|h| h.rules));
            let (rules, set) = list.load(path, known, optimoo::model::Rules::standard())?;
            optimoo::model::Game::with_secrets(rules, set)
        }
        (Some(rules), _, None) => optimoo::model::Game::new(rules),
        (None, Some(h), None) => h.game(),
        (None, None, None) => optimoo::model::Game::new(optimoo::model::Rules::standard()),
    };
    let seed = seed.unwrap_or_else(clock_seed);
    let kind = if adversarial {
        Codemaker::Adversarial
    } else {
        Codemaker::Random
    };
    let mut host = Host::new(&game, kind, seed);
    let stdin = std::io::stdin();
    let decorated = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let outcome = if decorated {
        let mut talk = std::io::stdout();
        writeln!(talk, "(seed {seed})")?;
        host::interact(&mut host, &mut input, &mut out, &mut talk, true)?
    } else {
        let mut talk = exit::Lossy(std::io::stderr().lock());
        writeln!(talk, "(seed {seed})")?;
        host::interact(&mut host, &mut input, &mut out, &mut talk, false)?
    };
    Ok(match outcome {
        HostOutcome::Found(_) | HostOutcome::Quit => ExitCode::SUCCESS,
        HostOutcome::Unfinished => ExitCode::from(exit::EXIT_NEGATIVE),
    })
}

/// `moo duel`: the race against the person (optimoo::play::duel).
fn duel(
    tree: Option<PathBuf>,
    game: Option<optimoo::model::Rules>,
    rule: optimoo::play::best_response::Rule,
    person: optimoo::play::best_response::Seat,
    seed: Option<u64>,
) -> anyhow::Result<ExitCode> {
    use optimoo::play::duel::{self, Duel, DuelOutcome};
    let seed = seed.unwrap_or_else(clock_seed);
    let game_given = game.is_some();
    let rules = game.unwrap_or_else(|| "moo:4x10".parse().expect("a game"));
    let seat = person.other().name();
    let name = optimoo::model::Game::new(rules).name();
    let mixture: Vec<&(&str, &str, &str, &str, &[u8])> = DUELS
        .iter()
        .filter(|d| d.0 == name && d.1 == rule.name() && d.2 == seat)
        .collect();
    let (bytes, said): (std::borrow::Cow<[u8]>, String) = match (&tree, mixture.is_empty()) {
        (Some(path), _) => (
            optimoo::tree::format::read_file(path)
                .with_context(|| format!("reading {}", path.display()))?
                .into(),
            format!("I play the tree {}", path.display()),
        ),
        (None, false) => {
            let weights: Vec<f64> = mixture.iter().map(|d| fraction(d.3)).collect();
            let pick = duel::draw(&weights, seed);
            (
                mixture[pick].4.into(),
                format!(
                    "I play a tree of the equilibrium ({} of {} in my mixture)",
                    pick + 1,
                    mixture.len()
                ),
            )
        }
        (None, true) => match shipped(rules) {
            Some((file, bytes)) => {
                // Say what the tree is proved to be: the shipped tree of a
                // game not solved yet is only the best known (an upper
                // bound).
                let what = match optimoo::tree::format::Header::peek(bytes) {
                    Ok(h) if h.proves_optimal() => "the average-optimal tree",
                    _ => "the best tree known (an upper bound, not proved optimal)",
                };
                (
                    bytes.into(),
                    format!(
                        "no equilibrium is shipped for {name} under {rule}: I play {what} {file}"
                    ),
                )
            }
            None => {
                return Err(anyhow!(
                    "no equilibrium or tree is shipped for {name}: make one with optimoo duel \
                     --game {name} --rule {rule} -o DIR and play DIR/{seat}-1.tree with --tree"
                ))
            }
        },
    };
    let (game, file) = player::load(&bytes).context("reading the tree")?;
    match &tree {
        // A --game the tree does not play is refused, as `moo next` refuses it.
        Some(path) if game_given && game.rules() != rules => {
            return Err(anyhow!(
                "{} plays {}, not {rules}: drop --game, or give a tree of {rules} \
                 (optimoo duel --game {rules} -o DIR)",
                path.display(),
                game.rules()
            ))
        }
        None if game.rules() != rules => {
            return Err(anyhow!(
                "the shipped tree plays {}, not {rules}",
                game.rules()
            ))
        }
        _ => {}
    }
    let player = Player::new(&game, &file.tree)?;
    let race = Duel {
        player: &player,
        rule,
        person,
        secret: Duel::secret_for(&player, optimoo::rng::splitmix64(seed)),
    };
    let stdin = std::io::stdin();
    let decorated = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    exit::say(&format!("({said}.)"));
    let outcome = if decorated {
        let mut talk = std::io::stdout();
        race.interact(&mut input, &mut out, &mut talk, true)?
    } else {
        let mut talk = exit::Lossy(std::io::stderr().lock());
        race.interact(&mut input, &mut out, &mut talk, false)?
    };
    Ok(match outcome {
        DuelOutcome::Unfinished => ExitCode::from(exit::EXIT_NEGATIVE),
        _ => ExitCode::SUCCESS,
    })
}

/// A weight "p/q" (or "p") as a float, for drawing; 0 if unreadable.
fn fraction(text: &str) -> f64 {
    let (p, q) = text.split_once('/').unwrap_or((text, "1"));
    match (p.parse::<f64>(), q.parse::<f64>()) {
        (Ok(p), Ok(q)) if q > 0.0 => p / q,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
