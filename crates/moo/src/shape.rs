//! `moo --game G` for games of more than 65,535 codes (moo:10x10, mm:8x8):
//! the phased strategy with the options `optimoo eval` measures by
//! default (docs/huge.md), called move by move; no tree is stored. `next`,
//! `play`, `host` (optimoo::play::shape_host, through the small host's
//! conversation) and `rank` (optimoo::play::shape_rank: bounds, never exact
//! values); the other commands need a tree or the exact search.
//!
//! Memory: a set is counted rather than listed wherever the strategy only
//! samples it (and the first guess is chosen on counted classes); a list
//! of codes is counted first and its memory stated and refused (exit code
//! 2) when it does not fit ([`cli_common::memory::fit`]), never allocated
//! blindly. A history has at most [`MAX_MOVES`] moves, a guess asked again
//! is read once.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use optimoo::exec::Scoped;
use optimoo::heuristic::phased::book::Book;
use optimoo::heuristic::phased::{Chooser, Phased};
use optimoo::model::shape::counted;
use optimoo::model::shape::counted::Counted;
use optimoo::model::shape::{Packed, Shape, MAX_MOVES};
use optimoo::model::Feedback;
use optimoo::play::host::{self, Codemaker, HostOutcome};
use optimoo::play::shape_host::{self, ShapeHost};
use optimoo::play::{report, shape_rank};

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
    /// A move (its number, from 1) after the winning answer.
    AfterWin(usize),
    /// The moves, none won.
    Open(Vec<(Packed, Feedback)>),
}

/// Reads `history` (each GUESS:FEEDBACK).
fn moves(shape: &Shape, history: &[String]) -> anyhow::Result<Moves> {
    let k = shape.positions();
    if history.len() > MAX_MOVES {
        bail!(
            "{} moves: a history of {shape} has at most {MAX_MOVES} (no game needs more)",
            history.len()
        );
    }
    let mut moves = Vec::new();
    for (i, mv) in history.iter().enumerate() {
        let (guess, answer) = shape
            .parse_move(mv)
            .with_context(|| format!("move {}", i + 1))?;
        if answer == Feedback::win(k) {
            if i + 1 < history.len() {
                return Ok(Moves::AfterWin(i + 2));
            }
            // The winning guess must agree with every earlier answer.
            if moves.iter().all(|&(g, f)| shape.feedback(guess, g) == f) {
                return Ok(Moves::Won);
            }
            return Ok(Moves::Wrong);
        }
        // A guess asked again adds nothing (or contradicts its answer).
        match moves.iter().find(|&&(g, _)| g == guess) {
            Some(&(_, f)) if f != answer => return Ok(Moves::Wrong),
            Some(_) => {}
            None => moves.push((guess, answer)),
        }
    }
    Ok(Moves::Open(moves))
}

/// Lists below this many bytes are built without a word; above, the
/// memory is stated first (and refused when it does not fit).
const QUIET_BYTES: u64 = 256 << 20;

/// States the memory of listing `codes` codes of `shape` (`extra` bytes
/// more beside them) when it is large, and refuses it (exit code 2) when
/// it does not fit; `what` is the work that lists them.
fn fit_list(shape: &Shape, codes: u64, extra: u64, what: &str) -> anyhow::Result<()> {
    fit_bytes(
        shape,
        codes,
        shape.list_bytes(codes).saturating_add(extra),
        what,
    )
}

/// [`fit_list`] of `need` bytes in all.
fn fit_bytes(shape: &Shape, codes: u64, need: u64, what: &str) -> anyhow::Result<()> {
    if need < QUIET_BYTES {
        return Ok(());
    }
    cli_common::memory::fit(
        &format!(
            "memory: about {} needed for {what} ({codes} codes of {shape} listed)",
            cli_common::memory::show(need)
        ),
        need,
        &format!("{what} of {shape}"),
    )
}

/// States and checks the memory of listing the candidates of `moves`
/// (their count, or a bound above it, taken without listing them).
fn fit_candidates(
    shape: &Shape,
    moves: &[(Packed, Feedback)],
    extra: u64,
    what: &str,
) -> anyhow::Result<()> {
    fit_list(shape, counted::len_at_most(*shape, moves), extra, what)
}

/// A move after the winning answer: said as the small games' commands say
/// it (optimoo::play::player::PlayError::AfterWin), exit code 1.
fn after_win(answer: usize) -> ExitCode {
    let err = optimoo::play::player::PlayError::AfterWin { answer };
    exit::say_error("moo", &err.to_string());
    ExitCode::from(EXIT_NEGATIVE)
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
/// candidates (`None`: there are none). A list of the codes is stated and
/// refused (exit code 2) when it does not fit.
fn strategy_move(
    chooser: &Chooser,
    book: Option<&Book>,
    moves: &[(Packed, Feedback)],
) -> anyhow::Result<Option<(Packed, u64)>> {
    if let Some(found) = book.and_then(|b| b.lookup(moves)) {
        return Ok(Some(found));
    }
    let shape = chooser.shape();
    if moves.is_empty() {
        if chooser.opening_lists() {
            // Every code, listed once (no parts to join).
            let codes = shape.code_count() as u64;
            let code = std::mem::size_of::<Packed>() as u64;
            fit_bytes(&shape, codes, codes.saturating_mul(code), "the first guess")?;
        }
        return Ok(Some((
            chooser.opening(&all_cores()),
            shape.code_count() as u64,
        )));
    }
    // A set the strategy only samples is counted, not listed (off the
    // book's path a history can leave a million codes).
    let counted = Counted::new(shape, moves);
    if let Some(counted) = &counted {
        if let Some(found) = counted_move(chooser, counted) {
            return Ok(found);
        }
    }
    let codes = match &counted {
        Some(c) => c.len(),
        None => counted::len_at_most(shape, moves),
    };
    fit_list(&shape, codes, 0, "the next guess")?;
    Ok(listed_move(
        chooser,
        &shape.candidates_with(moves, &all_cores()),
    ))
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
    fn after(
        chooser: &Chooser,
        book: Option<&Book>,
        moves: &[(Packed, Feedback)],
    ) -> anyhow::Result<Known> {
        if book.and_then(|b| b.lookup(moves)).is_some() {
            return Ok(Known::Book);
        }
        let shape = chooser.shape();
        let counted = Counted::new(shape, moves);
        let codes = match counted {
            Some(c) if chooser.samples(c.len()) => return Ok(Known::Counted(c)),
            Some(c) => c.len(),
            None => counted::len_at_most(shape, moves),
        };
        fit_list(&shape, codes, 0, "the next guess")?;
        Ok(Known::Listed(shape.candidates_with(moves, &all_cores())))
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
        Moves::AfterWin(n) => return Ok(after_win(n)),
        Moves::Open(moves) => Some(moves),
    };
    let book = book(shape, chooser.options());
    let found = match moves {
        Some(m) => strategy_move(&chooser, book.as_ref(), &m)?,
        None => None,
    };
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
            Known::Book => strategy_move(&chooser, book.as_ref(), &moves)?,
            Known::Counted(c) => match counted_move(&chooser, c) {
                Some(found) => found,
                None => strategy_move(&chooser, book.as_ref(), &moves)?,
            },
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
            _ => known = Known::after(&chooser, book.as_ref(), &moves)?,
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
    let mut host = ShapeHost::new(shape, kind, seed, &par)?;
    let stdin = std::io::stdin();
    let decorated = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let memory = adversarial.then(|| {
        format!(
            "(the adversary keeps a list of every code still possible: about {} MB at the start)",
            (shape_host::adversary_bytes(&shape) + 500_000) / 1_000_000
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
        match moves(&shape, history)? {
            Moves::Won => {
                exit::say("moo: the game is won");
                return Ok(ExitCode::SUCCESS);
            }
            Moves::AfterWin(n) => return Ok(after_win(n)),
            Moves::Wrong => Vec::new(),
            Moves::Open(moves) => {
                let extra = shape_rank::PLAY_OUT_MAX_BYTES;
                fit_candidates(&shape, &moves, extra, "ranking the guesses")?;
                shape.candidates_with(&moves, &all_cores())
            }
        }
    };
    if set.is_empty() {
        exit::say_error(
            "moo",
            "no secret of this game gives these answers: one of them is wrong",
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let request = shape_rank::Request { top, deadline };
    let ranking = shape_rank::rank(&chooser, &mut set, request, &all_cores());
    let mut out = std::io::stdout().lock();
    if json {
        for row in &ranking.rows {
            writeln!(out, "{}", report::shape_row_json(&shape, row, ranking.left))?;
        }
    } else {
        for line in report::shape_rank_text(&shape, &ranking) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
