//! `moo --game G` for games of more than 65,535 codes (moo:10x10, mm:8x8):
//! the phased strategy with the options `optimoo eval` measures by
//! default (docs/huge.md), called move by move; no tree is stored. `next`
//! and `play` only: the other commands need a tree or the exact search.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use anyhow::{bail, Context};
use optimoo::exec::Scoped;
use optimoo::huge::phased::{Chooser, Phased};
use optimoo::huge::{Packed, Shape};
use optimoo::model::Feedback;

use cli_common::exit::{self, EXIT_NEGATIVE};

/// Longest line read from a person.
const MAX_LINE: usize = 4096;

/// Scoped threads on every core: building the candidates and scoring a
/// large set are most of an answer's time (the threads end with each
/// call; nothing runs between moves).
fn all_cores() -> Scoped {
    Scoped(std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The candidates left after `history` (each GUESS:FEEDBACK); `Ok(None)`
/// when the last move won.
fn candidates(shape: &Shape, history: &[String]) -> anyhow::Result<Option<Vec<Packed>>> {
    let k = shape.positions();
    let mut moves = Vec::new();
    for (i, mv) in history.iter().enumerate() {
        let (guess, answer) = shape
            .parse_move(mv)
            .with_context(|| format!("move {}", i + 1))?;
        if answer == Feedback::win(k) {
            if i + 1 < history.len() {
                bail!("move {} won the game: nothing can follow it", i + 1);
            }
            // The winning guess must agree with every earlier answer.
            if moves.iter().all(|&(g, f)| shape.feedback(guess, g) == f) {
                return Ok(None);
            }
            return Ok(Some(Vec::new()));
        }
        moves.push((guess, answer));
    }
    // Both cores: the candidates are most of an answer's time.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(Some(
        shape.candidates_with(&moves, &optimoo::exec::Scoped(cores)),
    ))
}

/// `moo --game G next HISTORY`.
pub fn next(shape: Shape, history: &[String]) -> anyhow::Result<ExitCode> {
    let chooser = Chooser::new(shape, Phased::default())?;
    if history.is_empty() {
        let mut out = std::io::stdout().lock();
        let guess = chooser.opening(&all_cores());
        writeln!(
            out,
            "{} ({} secrets still possible)",
            shape.format(guess),
            shape.code_count()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    match candidates(&shape, history)? {
        None => {
            exit::say("the game is won");
            Ok(ExitCode::SUCCESS)
        }
        Some(set) if set.is_empty() => {
            exit::say("no secret of this game gives these answers: one of them is wrong");
            Ok(ExitCode::from(EXIT_NEGATIVE))
        }
        Some(set) => {
            let guess = chooser.choose(&set, &all_cores());
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "{} ({} secrets still possible)",
                shape.format(guess),
                set.len()
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `moo --game G play`: moo guesses, the person answers.
pub fn play(shape: Shape) -> anyhow::Result<ExitCode> {
    let chooser = Chooser::new(shape, Phased::default())?;
    let k = shape.positions();
    exit::say(&format!(
        "Think of a secret of {shape} ({} codes) and answer each guess with bulls and cows (e.g. 2A3B); quit to stop.",
        shape.code_count()
    ));
    // The first guess needs no list of codes; after its answer the
    // candidates are built from it alone, on every core.
    let mut set = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let mut out = std::io::stdout().lock();
    for turn in 1.. {
        let guess = if turn == 1 {
            chooser.opening(&all_cores())
        } else {
            chooser.choose(&set, &all_cores())
        };
        writeln!(out, "{}", shape.format(guess))?;
        out.flush()?;
        let answer = loop {
            let mut line = String::new();
            if (&mut lines).take(MAX_LINE as u64).read_line(&mut line)? == 0 {
                exit::say("the game is not finished");
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
            if line.trim().eq_ignore_ascii_case("quit") {
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
            match shape.parse_feedback(&line) {
                Ok(f) => break f,
                Err(e) => exit::say(&format!("{e:#}; try again")),
            }
        };
        if answer == Feedback::win(k) {
            exit::say(&format!("won in {turn} guesses"));
            return Ok(ExitCode::SUCCESS);
        }
        if turn == 1 {
            set = shape.candidates_with(&[(guess, answer)], &all_cores());
        } else {
            set.retain(|&s| shape.feedback(s, guess) == answer);
        }
        if set.is_empty() {
            exit::say("no secret gives these answers: one of them is wrong");
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
    }
    unreachable!("the loop returns")
}
