//! `optimoo partition`: how a guess splits the secrets still possible.
//! Exit codes (README): 0 the classes, 1 a history no secret gives or a
//! move after the winning answer (as `moo next`), 2 an error. The classes
//! of a game over 65,535 codes are counted, not listed, when the history
//! allows it; a list's memory is stated first and refused when it does
//! not fit.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use crate::cli::EXIT_NEGATIVE;
use optimoo::model::moves;
use optimoo::model::partition;
use optimoo::model::Game;

use crate::cli::args::AnyGame;

/// Show how a guess splits the secrets consistent with a history.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::PARTITION)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed); games
    /// of more than 65,535 codes too (the candidates are rebuilt from the
    /// history, no table).
    #[arg(long, default_value = "moo:4x10")]
    pub game: AnyGame,
    /// The guess whose classes to count (default: the smallest code).
    #[arg(long)]
    pub guess: Option<String>,
    /// Also write the secrets left after the history to FILE, one code a
    /// line: the list `solve --secrets FILE` solves (then `merge
    /// --fill-from TREE --graft` puts its tree in where TREE leaves that
    /// list).
    #[arg(long, value_name = "FILE")]
    pub list: Option<std::path::PathBuf>,
    /// Earlier guesses and answers, each GUESS:FEEDBACK, e.g. 0123:0A1B.
    pub history: Vec<String>,
}

/// Runs `optimoo partition`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = match args.game {
        AnyGame::Small(rules) => Game::new(rules),
        AnyGame::Words(preset) => preset.game(None),
        AnyGame::Huge(shape) => return run_huge(&args, shape),
    };
    let rules = game.rules();
    let history = moves::parse_history(&game, &args.history)?;
    // Checked before the work: a bad path is refused at once.
    let list = args
        .list
        .as_deref()
        .map(crate::cli::output::Output::create)
        .transpose()?;
    let guess = match &args.guess {
        Some(g) => game.parse_code(g).context("--guess")?,
        None => optimoo::model::Code(0),
    };
    if let Some(code) = after_win(&history, game.win()) {
        return Ok(code);
    }
    let left = partition::consistent(&game, &history);
    if left.is_empty() {
        // A negative answer, as `moo next` gives it: exit code 1.
        crate::exit::say_error(
            "optimoo",
            &format!("no secret of {rules} is consistent with that history: an answer is wrong"),
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} secret{} left; guess {}",
        left.len(),
        if left.len() == 1 { "" } else { "s" },
        game.format_code(guess)
    )?;
    for (f, class) in partition::split(&game, guess, &left) {
        writeln!(out, "{} {}", game.format_feedback(f), class.len())?;
    }
    if let Some(file) = list {
        let text: String = left.iter().map(|&c| game.format_code(c) + "\n").collect();
        let path = file.path().to_path_buf();
        file.commit(text.as_bytes())?;
        crate::cli::output::wrote(&path);
    }
    Ok(ExitCode::SUCCESS)
}

/// `partition` on a game of more than 65,535 codes.
fn run_huge(args: &Args, shape: optimoo::model::shape::Shape) -> anyhow::Result<ExitCode> {
    if args.list.is_some() {
        anyhow::bail!(
            "--list writes a list for `solve --secrets`, which plays games of at most \
             65,535 codes; {shape} has more"
        );
    }
    let most = optimoo::model::shape::MAX_MOVES;
    if args.history.len() > most {
        anyhow::bail!(
            "{} moves: a history of {shape} has at most {most} (no game needs more)",
            args.history.len()
        );
    }
    let history = args
        .history
        .iter()
        .map(|m| shape.parse_move(m))
        .collect::<Result<Vec<_>, _>>()?;
    let guess = match &args.guess {
        Some(g) => shape.parse(g).context("--guess")?,
        None => shape.unrank(0),
    };
    let win = optimoo::model::Feedback::win(shape.positions());
    if let Some(code) = after_win(&history, win) {
        return Ok(code);
    }
    // Counted, not listed, when the history allows it (bounded memory:
    // mm:8x16's 2^32 codes would take 96 GiB as a list); else listed,
    // its memory stated first and refused when it does not fit.
    let counts = match optimoo::model::shape::counted::split(shape, &history, guess) {
        Some(counts) => counts,
        None => {
            let bound = optimoo::model::shape::counted::len_at_most(shape, &history);
            let need = shape.list_bytes(bound);
            crate::cli::phased::fit(
                &format!(
                    "memory: about {} needed to list the up to {bound} secrets of {shape} \
                     left after {} moves",
                    crate::cli::memory::show(need),
                    history.len()
                ),
                need,
                &format!(
                    "partition --game {shape} with these {} moves",
                    history.len()
                ),
            )?;
            let left = shape.candidates_with(&history, &crate::driver::Rayon);
            let mut counts = vec![0u64; shape.feedback_slots()];
            for &s in &left {
                counts[shape.feedback(s, guess).index()] += 1;
            }
            counts
        }
    };
    let left: u64 = counts.iter().sum();
    if left == 0 {
        crate::exit::say_error(
            "optimoo",
            &format!("no secret of {shape} is consistent with that history: an answer is wrong"),
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} secret{} left; guess {}",
        left,
        if left == 1 { "" } else { "s" },
        shape.format(guess)
    )?;
    for (f, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
        let f = optimoo::model::Feedback(f as u8);
        writeln!(out, "{} {n}", f.format(shape.positions()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A move after the winning answer: refused as `moo next`, `moo rank` and
/// `moo analyze` refuse it (the same words, exit code 1); `None` when no
/// move follows a win.
fn after_win<C>(
    history: &[(C, optimoo::model::Feedback)],
    win: optimoo::model::Feedback,
) -> Option<ExitCode> {
    let i = history.iter().position(|&(_, f)| f == win)?;
    (i + 1 < history.len()).then(|| {
        let err = optimoo::play::player::PlayError::AfterWin { answer: i + 2 };
        crate::exit::say_error("optimoo", &err.to_string());
        ExitCode::from(EXIT_NEGATIVE)
    })
}
