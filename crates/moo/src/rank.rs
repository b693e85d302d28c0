//! `moo rank` and `moo analyze`: thin wrappers over
//! [`optimoo::play::rank`] and [`optimoo::play::analyze`] (the figures and
//! the lines come from the library; here only arguments, streams and exit
//! codes: a contradictory history is exit code 1, a won one ranks nothing
//! and exits 0, as `moo next` does).

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::bail;
use optimoo::model::moves;
use optimoo::play::analyze;
use optimoo::play::player::PlayError;
use optimoo::play::rank::{Advisor, RankError, Request};
use optimoo::play::report;

use cli_common::exit;

/// The budget as a duration: `None` for no limit (`inf`).
pub fn budget(seconds: f64) -> anyhow::Result<Option<Duration>> {
    if seconds.is_nan() || seconds < 0.0 {
        bail!("--budget takes a number of seconds, 0 or more (inf: no limit)");
    }
    Ok(Duration::try_from_secs_f64(seconds).ok())
}

/// The exit code for a history the player refuses.
fn refused(err: RankError) -> anyhow::Result<ExitCode> {
    match err {
        RankError::Play(e @ PlayError::Solved(_)) => {
            exit::say(&format!("moo: {e}"));
            Ok(ExitCode::SUCCESS)
        }
        RankError::Play(e @ (PlayError::Contradiction { .. } | PlayError::AfterWin { .. })) => {
            exit::say_error("moo", &e.to_string());
            Ok(ExitCode::from(exit::EXIT_NEGATIVE))
        }
        e => Err(e.into()),
    }
}

/// `moo rank`.
pub fn rank(
    advisor: &Advisor<'_>,
    history: &[String],
    top: usize,
    json: bool,
    seconds: f64,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let game = advisor.game;
    let history = moves::parse_history(game, history)?;
    let request = Request {
        top,
        deadline: budget(seconds)?.map(|b| Instant::now() + b),
    };
    let ranking = match advisor.rank(&history, request) {
        Ok(r) => r,
        Err(e) => return refused(e),
    };
    if json {
        for row in &ranking.rows {
            writeln!(out, "{}", report::row_json(game, row, ranking.left))?;
        }
    } else {
        for line in report::rank_text(game, &ranking) {
            writeln!(out, "{line}")?;
        }
        for line in tree_note(advisor, &history, &ranking.rows) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What the rows do not say of the tree's guess when only its value is
/// exact, not that it is the best (the root of an upper-bound tree whose
/// first guess was fixed: `--game wordle`'s SALET): its value when no row
/// shows it (the rows above may be lower bounds below it), and that it
/// is not proved the best.
fn tree_note(
    advisor: &Advisor<'_>,
    history: &[(optimoo::model::Code, optimoo::model::Feedback)],
    rows: &[optimoo::play::rank::Row],
) -> Vec<String> {
    let game = advisor.game;
    let Some((guess, false)) = advisor.tree_move(history) else {
        return Vec::new();
    };
    let Ok(position) = advisor.position(history) else {
        return Vec::new();
    };
    let word = game.format_code(guess);
    let mut out = Vec::new();
    let shown = rows.iter().any(|r| r.guess == position.orbit_of(guess));
    let total = advisor
        .known(&position, history)
        .into_iter()
        .find_map(|(g, t, _)| (g == guess).then_some(t).flatten());
    if let (false, Some(t)) = (shown, total) {
        out.push(format!(
            "{word}, the tree's guess: value {:.4} (total {t}), exact, not among the rows above \
             (their ≥ values are lower bounds: each of those guesses may be better or worse)",
            t as f64 / position.set.len() as f64
        ));
    }
    out.push(format!(
        "the tree file is an upper bound, not proved optimal: {word}'s value is exact (the \
         subtree after each of its answers is proved optimal), but {word} is not proved the \
         best guess here"
    ));
    out
}

/// `moo analyze`.
pub fn analyze(
    advisor: &Advisor<'_>,
    history: &[String],
    json: bool,
    seconds: f64,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let game = advisor.game;
    let history = moves::parse_history(game, history)?;
    let judged = match analyze::analyze(advisor, &history, budget(seconds)?, None) {
        Ok(j) => j,
        Err(e) => return refused(e),
    };
    if json {
        for j in &judged {
            writeln!(out, "{}", report::judged_json(game, j))?;
        }
    } else {
        for line in report::analyze_text(game, &judged) {
            writeln!(out, "{line}")?;
        }
        for (i, j) in judged.iter().enumerate() {
            if let (Some((guess, false)), false) = (advisor.tree_move(&history[..i]), j.best_exact)
            {
                writeln!(
                    out,
                    "move {}: {}, the tree's guess, has an exact value, but the tree file is an \
                     upper bound, not proved optimal: it is not proved the best guess there",
                    i + 1,
                    game.format_code(guess)
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
