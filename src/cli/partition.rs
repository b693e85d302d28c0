//! `optimoo partition`: how a guess splits the secrets still possible.
//! Exit codes (README): 0 the classes, 1 a history no secret gives (as
//! `moo next`), 2 an error.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use super::EXIT_NEGATIVE;
use optimoo::model::moves;
use optimoo::model::partition;
use optimoo::model::Game;

use super::args::AnyGame;

/// Show how a guess splits the secrets consistent with a history.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed); games
    /// of more than 65,535 codes too (the candidates are rebuilt from the
    /// history, no table).
    #[arg(long, default_value = "moo:4x10")]
    pub game: AnyGame,
    /// The guess whose classes to count (default: the smallest code).
    #[arg(long)]
    pub guess: Option<String>,
    /// Earlier guesses and answers, each GUESS:FEEDBACK, e.g. 0123:0A1B.
    pub history: Vec<String>,
}

/// Runs `optimoo partition`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = match args.game {
        AnyGame::Small(rules) => rules,
        AnyGame::Huge(shape) => return run_huge(&args, shape),
    };
    let game = Game::new(rules);
    let history = moves::parse_history(&game, &args.history)?;
    let guess = match &args.guess {
        Some(g) => game.parse_code(g).context("--guess")?,
        None => optimoo::model::Code(0),
    };
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
    Ok(ExitCode::SUCCESS)
}

/// `partition` on a game of more than 65,535 codes.
fn run_huge(args: &Args, shape: optimoo::huge::Shape) -> anyhow::Result<ExitCode> {
    let history = args
        .history
        .iter()
        .map(|m| shape.parse_move(m))
        .collect::<Result<Vec<_>, _>>()?;
    let guess = match &args.guess {
        Some(g) => shape.parse(g).context("--guess")?,
        None => shape.unrank(0),
    };
    let left = shape.candidates_with(&history, &crate::driver::Rayon);
    if left.is_empty() {
        crate::exit::say_error(
            "optimoo",
            &format!("no secret of {shape} is consistent with that history: an answer is wrong"),
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let mut counts = vec![0u64; shape.feedback_slots()];
    for &s in &left {
        counts[shape.feedback(s, guess).index()] += 1;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} secret{} left; guess {}",
        left.len(),
        if left.len() == 1 { "" } else { "s" },
        shape.format(guess)
    )?;
    for (f, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
        let f = optimoo::model::Feedback(f as u8);
        writeln!(out, "{} {n}", f.format(shape.positions()))?;
    }
    Ok(ExitCode::SUCCESS)
}
