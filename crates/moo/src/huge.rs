//! `moo --game G` for games of more than 65,535 codes (moo:10x10, mm:8x8):
//! the phased strategy with the options `optimoo eval` measures by
//! default (docs/huge.md), called move by move; no tree is stored. `next`,
//! `play`, `host` (optimoo::play::huge_host, through the small host's
//! conversation) and `rank` (optimoo::play::huge_rank: bounds, never exact
//! values); the other commands need a tree or the exact search.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use optimoo::exec::Scoped;
use optimoo::huge::book::Book;
use optimoo::huge::counted::Counted;
use optimoo::huge::phased::{Chooser, Phased};
use optimoo::huge::{Packed, Shape};
use optimoo::model::Feedback;
use optimoo::play::host::{self, Codemaker, HostOutcome};
use optimoo::play::huge_host::{self, HugeHost};
use optimoo::play::{huge_rank, report};

use cli_common::exit::{self, EXIT_NEGATIVE};

use crate::BOOKS;

/// Candidates a rank before the first move may list (every code of the
/// game, 24 bytes each: mm:8x8's 16,777,216 take 403 MB).
const RANK_MAX_CODES: u128 = 1 << 25;

/// Longest line read from a person.
const MAX_LINE: usize = 4096;

/// Scoped threads on every core: building the candidates and scoring a
/// large set are most of an answer's time (the threads end with each
/// call; nothing runs between moves).
fn all_cores() -> Scoped {
    Scoped(std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A history as read: won, impossible, or still open.
enum Moves {
    /// The last move won.
    Won,
    /// The winning guess disagrees with an earlier answer.
    Wrong,
    /// The moves, none won.
    Open(Vec<(Packed, Feedback)>),
}

/// Reads `history` (each GUESS:FEEDBACK).
fn moves(shape: &Shape, history: &[String]) -> anyhow::Result<Moves> {
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
                return Ok(Moves::Won);
            }
            return Ok(Moves::Wrong);
        }
        moves.push((guess, answer));
    }
    Ok(Moves::Open(moves))
}

/// The candidates left after `history`; `Ok(None)` when the last move won.
fn candidates(shape: &Shape, history: &[String]) -> anyhow::Result<Option<Vec<Packed>>> {
    Ok(match moves(shape, history)? {
        Moves::Won => None,
        Moves::Wrong => Some(Vec::new()),
        Moves::Open(moves) => Some(shape.candidates_with(&moves, &all_cores())),
    })
}

/// The opening book of data/ for `shape` played with `opts`, if one was
/// embedded (build.rs) for that game and those options. A book that does
/// not read is skipped: the strategy is then computed, as without a book
/// (tests read every shipped book).
fn book(shape: Shape, opts: &Phased) -> Option<Book> {
    BOOKS
        .iter()
        .find_map(|text| Book::read(shape, opts, text).ok().flatten())
}

/// The strategy's guess after `moves` and the number of codes still
/// possible: from the book when it lists the node, else computed from the
/// candidates (`None`: there are none).
fn strategy_move(
    chooser: &Chooser,
    book: Option<&Book>,
    moves: &[(Packed, Feedback)],
) -> Option<(Packed, u64)> {
    if let Some(found) = book.and_then(|b| b.lookup(moves)) {
        return Some(found);
    }
    if moves.is_empty() {
        return Some((
            chooser.opening(&all_cores()),
            chooser.shape().code_count() as u64,
        ));
    }
    // A set the strategy only samples is counted, not listed (off the
    // book's path a history can leave a million codes).
    if let Some(counted) = Counted::new(chooser.shape(), moves) {
        if let Some(found) = counted_move(chooser, &counted) {
            return found;
        }
    }
    listed_move(
        chooser,
        &chooser.shape().candidates_with(moves, &all_cores()),
    )
}

/// The strategy's move on a counted set, when it only samples the set
/// (`Some(None)`: the set is empty); `None` when it needs the list.
fn counted_move(chooser: &Chooser, counted: &Counted) -> Option<Option<(Packed, u64)>> {
    if let Some(guess) = chooser.choose_counted(counted, &all_cores()) {
        return Some(Some((guess, counted.len())));
    }
    counted.is_empty().then_some(None)
}

/// The strategy's move on a listed set (`None`: it is empty).
fn listed_move(chooser: &Chooser, set: &[Packed]) -> Option<(Packed, u64)> {
    (!set.is_empty()).then(|| (chooser.choose(set, &all_cores()), set.len() as u64))
}

/// What `moo play` keeps of the candidates between turns.
enum Known {
    /// Nothing: the book has the node, or no move was made.
    Book,
    /// Counted: the strategy only samples them (see [`strategy_move`]).
    Counted(Counted),
    /// Listed, then filtered as the game goes on.
    Listed(Vec<Packed>),
}

impl Known {
    /// What to keep after `moves` (the list only when the book does not
    /// have the node and the strategy does not sample the set).
    fn after(chooser: &Chooser, book: Option<&Book>, moves: &[(Packed, Feedback)]) -> Known {
        if book.and_then(|b| b.lookup(moves)).is_some() {
            return Known::Book;
        }
        match Counted::new(chooser.shape(), moves) {
            Some(c) if chooser.samples(c.len()) => Known::Counted(c),
            _ => Known::Listed(chooser.shape().candidates_with(moves, &all_cores())),
        }
    }
}

/// `moo --game G next HISTORY`.
pub fn next(shape: Shape, history: &[String]) -> anyhow::Result<ExitCode> {
    let chooser = Chooser::new(shape, Phased::default())?;
    let moves = match moves(&shape, history)? {
        Moves::Won => {
            exit::say("moo: the game is won");
            return Ok(ExitCode::SUCCESS);
        }
        Moves::Wrong => None,
        Moves::Open(moves) => Some(moves),
    };
    let book = book(shape, chooser.options());
    let found = moves.and_then(|m| strategy_move(&chooser, book.as_ref(), &m));
    let Some((guess, n)) = found else {
        exit::say_error(
            "moo",
            "no secret of this game gives these answers: one of them is wrong",
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} ({n} secrets still possible)", shape.format(guess))?;
    Ok(ExitCode::SUCCESS)
}

/// `moo --game G play`: moo guesses, the person answers.
pub fn play(shape: Shape) -> anyhow::Result<ExitCode> {
    let chooser = Chooser::new(shape, Phased::default())?;
    let k = shape.positions();
    exit::say(&format!(
        "Think of a secret of {shape} ({} codes) and answer each guess with bulls and cows (e.g. 2A3B); quit to stop.",
        shape.code_count()
    ));
    // The book's nodes need no list of codes; after them the candidates
    // are built once from the moves, on every core, then filtered.
    let book = book(shape, chooser.options());
    let mut moves = Vec::new();
    let mut known = Known::Book;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let mut out = std::io::stdout().lock();
    for turn in 1.. {
        let found = match &known {
            Known::Book => strategy_move(&chooser, book.as_ref(), &moves),
            Known::Counted(c) => counted_move(&chooser, c)
                .unwrap_or_else(|| strategy_move(&chooser, book.as_ref(), &moves)),
            Known::Listed(set) => listed_move(&chooser, set),
        };
        let Some((guess, _)) = found else {
            exit::say("no secret gives these answers: one of them is wrong");
            return Ok(ExitCode::from(EXIT_NEGATIVE));
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
        moves.push((guess, answer));
        match &mut known {
            Known::Listed(set) => set.retain(|&s| shape.feedback(s, guess) == answer),
            _ => known = Known::after(&chooser, book.as_ref(), &moves),
        }
        if matches!(&known, Known::Listed(s) if s.is_empty()) {
            exit::say("no secret gives these answers: one of them is wrong");
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
    }
    unreachable!("the loop returns")
}

/// `moo --game G host`: the person guesses, moo answers (a random secret,
/// or `--adversarial`).
pub fn host(shape: Shape, seed: u64, adversarial: bool) -> anyhow::Result<ExitCode> {
    let kind = if adversarial {
        Codemaker::Adversarial
    } else {
        Codemaker::Random
    };
    let par = all_cores();
    let mut host = HugeHost::new(shape, kind, seed, &par)?;
    let stdin = std::io::stdin();
    let decorated = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let memory = adversarial.then(|| {
        format!(
            "(the adversary keeps a list of every code still possible: about {} MB at the start)",
            (huge_host::adversary_bytes(&shape) + 500_000) / 1_000_000
        )
    });
    let outcome = if decorated {
        let mut talk = std::io::stdout();
        writeln!(talk, "(seed {seed})")?;
        if let Some(m) = &memory {
            writeln!(talk, "{m}")?;
        }
        host::interact(&mut host, &mut input, &mut out, &mut talk, true)?
    } else {
        let mut talk = exit::Lossy(std::io::stderr().lock());
        writeln!(talk, "(seed {seed})")?;
        if let Some(m) = &memory {
            writeln!(talk, "{m}")?;
        }
        host::interact(&mut host, &mut input, &mut out, &mut talk, false)?
    };
    Ok(match outcome {
        HostOutcome::Found(_) | HostOutcome::Quit => ExitCode::SUCCESS,
        HostOutcome::Unfinished => ExitCode::from(EXIT_NEGATIVE),
    })
}

/// `moo --game G rank HISTORY`: the phased strategy's best guesses with
/// bounds on their values, within `seconds` from `start`.
pub fn rank(
    shape: Shape,
    history: &[String],
    top: usize,
    json: bool,
    seconds: f64,
    start: Instant,
) -> anyhow::Result<ExitCode> {
    let deadline = crate::rank::budget(seconds)?.map(|b| start + b);
    let chooser = Chooser::new(shape, Phased::default())?;
    let mut set = if history.is_empty() {
        if shape.code_count() > RANK_MAX_CODES {
            bail!(
                "ranking the first guess of {shape} would list its {} codes (about {} MB): \
                 give a first move",
                shape.code_count(),
                (shape.code_count() * std::mem::size_of::<Packed>() as u128).div_ceil(1_000_000)
            );
        }
        shape.all_codes()
    } else {
        match candidates(&shape, history)? {
            None => {
                exit::say("moo: the game is won");
                return Ok(ExitCode::SUCCESS);
            }
            Some(set) if set.is_empty() => {
                exit::say_error(
                    "moo",
                    "no secret of this game gives these answers: one of them is wrong",
                );
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
            Some(set) => set,
        }
    };
    let request = huge_rank::Request { top, deadline };
    let ranking = huge_rank::rank(&chooser, &mut set, request, &all_cores());
    let mut out = std::io::stdout().lock();
    if json {
        for row in &ranking.rows {
            writeln!(out, "{}", report::huge_row_json(&shape, row, ranking.left))?;
        }
    } else {
        for line in report::huge_rank_text(&shape, &ranking) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
