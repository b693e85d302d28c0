//! Judging a played game (`moo analyze`), move by move, the way chess
//! engines annotate a game.
//!
//! Definitions and invariants:
//! - Move `i` is judged in the position after the moves before it, with the
//!   values of [`crate::play::rank`]: `value` is the played guess's total ÷
//!   the secrets left, `best_value` the least over every guess, `loss` the
//!   difference (in expected guesses, at least 0).
//! - The played guess is searched first (with no cut-off), then the other
//!   guesses in the order of their lower bounds, each under the best total
//!   found so far, until a bound reaches it: then the best is proved
//!   (every bound is first raised to the position's proven floor,
//!   [`Advisor::floor`]: on a subtree proved optimal its total, so the
//!   tree's guess is proved the best without a search). The
//!   best move shown is the first guess found with the least total (the
//!   played one when it is optimal, else the tree's move when the history is
//!   on an optimal tree).
//! - When the budget runs out first, the best shown is the least exact
//!   total found, an upper bound of the optimum (`best_exact` false), or
//!   none when no guess's total was found (`best` is `None`); the loss shown
//!   is a proven lower bound: (the played guess's total or bound) − (the
//!   least exact total found), and at least 0 (0 when none was found);
//!   `exact` is false.
//! - A guess after which the cap cannot be met loses an unbounded amount
//!   (`loss` is `None`, exact) when another guess meets it, a blunder.
//!   Once no guess can meet the cap (proved), the moves are judged without
//!   it, as `rank` ranks them (`cap_dropped`), so the best there is the
//!   best without the cap, never a move merely as far over it as the rest.
//! - Verdicts, by the loss in expected guesses ([`Verdict::of`]): best (0),
//!   good (< 0.05), inaccuracy (< 0.2), mistake (< 0.5), blunder (≥ 0.5).
//!   A verdict is given only when the loss decides it ([`Verdict::proved`]):
//!   an exact loss, or a lower bound in the open-ended top range (a
//!   blunder). Otherwise the verdict is undecided within the budget
//!   (`verdict` is `None`) and `at_least` is the least one the bound allows
//!   (best when the bound is 0: nothing is decided).

use std::time::{Duration, Instant};

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::play::rank::{sort_rows, Advisor, RankError, Row};
use crate::search::bound::INF;

/// The verdict on a move, from its loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Loss 0: an optimal move.
    Best,
    /// Loss below 0.05 expected guesses.
    Good,
    /// Loss below 0.2.
    Inaccuracy,
    /// Loss below 0.5.
    Mistake,
    /// Loss of 0.5 or more, or a move after which the cap cannot be met.
    Blunder,
}

impl Verdict {
    /// Upper ends of the verdicts' loss ranges, in expected guesses (best is
    /// exactly 0). For scale: the best heuristic on moo:4x10 (entropy, 26424
    /// guesses) loses 150/5040 ≈ 0.03 guesses a game to the optimum in all,
    /// so a "good" move is off by less than that whole difference; half a
    /// guess or more on average is a blunder.
    pub const THRESHOLDS: [(Verdict, f64); 3] = [
        (Verdict::Good, 0.05),
        (Verdict::Inaccuracy, 0.2),
        (Verdict::Mistake, 0.5),
    ];

    /// The verdict for a loss of `loss` total guesses over `left` secrets
    /// (`None`: unbounded).
    pub fn of(loss: Option<u64>, left: usize) -> Verdict {
        let Some(loss) = loss else {
            return Verdict::Blunder;
        };
        if loss == 0 {
            return Verdict::Best;
        }
        let per = loss as f64 / left as f64;
        Verdict::THRESHOLDS
            .iter()
            .find(|(_, limit)| per < *limit)
            .map_or(Verdict::Blunder, |&(v, _)| v)
    }

    /// The verdict a loss of `loss` total guesses over `left` secrets
    /// proves: `exact`, [`Verdict::of`] it; a lower bound (`exact` false)
    /// decides only the open-ended top range, a blunder; below it the true
    /// loss may be any larger one, so `None`: undecided. An unbounded loss
    /// (`None`) is always a blunder.
    pub fn proved(loss: Option<u64>, exact: bool, left: usize) -> Option<Verdict> {
        let v = Verdict::of(loss, left);
        (exact || v == Verdict::Blunder).then_some(v)
    }

    /// The word used in the output.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }
}

/// One judged move.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The move played and its answer.
    pub guess: Code,
    /// The answer it got.
    pub answer: Feedback,
    /// Secrets left before it.
    pub left: usize,
    /// The played guess's total (exact, or a lower bound when
    /// `move_exact` is false); `None`: the cap cannot be met after it.
    pub total: Option<u64>,
    /// Whether `total` is exact.
    pub move_exact: bool,
    /// The best move found; `None`: no guess's total was found within the
    /// budget (then `best_total` is `None` too, and means nothing).
    pub best: Option<Code>,
    /// Its total, exact: the optimum when `best_exact`, else the least
    /// found, an upper bound of the optimum; `None` with `best_exact`: no
    /// guess meets the cap.
    pub best_total: Option<u64>,
    /// Whether `best_total` is proved the optimum.
    pub best_exact: bool,
    /// The loss in total guesses: exact when `exact`, else a lower bound;
    /// `None`: unbounded (exact).
    pub loss: Option<u64>,
    /// Whether the loss is exact (both totals exact and the best proved,
    /// or unbounded).
    pub exact: bool,
    /// The verdict, when the loss decides it ([`Verdict::proved`]); `None`:
    /// undecided within the budget.
    pub verdict: Option<Verdict>,
    /// The least verdict the loss allows ([`Verdict::of`] of the loss or its
    /// bound): the verdict when decided.
    pub at_least: Verdict,
    /// Guesses left within the cap before the move (`None`: no cap).
    pub depth: Option<usize>,
    /// Whether the cap could no longer be met before this move (proved: no
    /// guess meets it), so the move is judged without the cap (`depth` is
    /// `None`), as `rank` ranks such a position.
    pub cap_dropped: bool,
}

impl Judged {
    /// A total per secret: expected guesses.
    pub fn per(&self, total: Option<u64>) -> Option<f64> {
        total.map(|t| t as f64 / self.left as f64)
    }
}

/// Judges every move of `history`, each within `budget` (its time of
/// search at most, the move's rows included), and all of them by
/// `deadline`: each move then has an equal share of the time left (what
/// one move leaves unused goes to the later ones). `None`: no limit.
pub fn analyze(
    advisor: &Advisor<'_>,
    history: &[(Code, Feedback)],
    budget: Option<Duration>,
    deadline: Option<Instant>,
) -> Result<Vec<Judged>, RankError> {
    // The whole history is checked first: a contradiction anywhere is
    // reported before any search.
    match crate::play::rank::candidates_after(advisor.game, history) {
        Ok(_) | Err(crate::play::player::PlayError::Solved(_)) => {}
        Err(e) => return Err(e.into()),
    }
    if let Some(&(g, _)) = history.iter().find(|(g, _)| !advisor.game.is_guess(*g)) {
        return Err(crate::play::rank::RankError::NotAGuess(
            advisor.game.format_code(g),
        ));
    }
    let mut out = Vec::new();
    let n = history.len();
    for i in 0..n {
        let now = Instant::now();
        let share = deadline.map(|d| now + d.saturating_duration_since(now) / (n - i) as u32);
        let until = match (budget.map(|b| now + b), share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        out.push(judge(advisor, &history[..i], history[i], until)?);
    }
    Ok(out)
}

/// Judges one move `mv` after `before`: within the cap, or without it
/// when no guess can meet the cap any more (proved), as `rank` does.
fn judge(
    advisor: &Advisor<'_>,
    before: &[(Code, Feedback)],
    mv: (Code, Feedback),
    deadline: Option<Instant>,
) -> Result<Judged, RankError> {
    let position = advisor.position(before)?;
    let known = advisor.known(&position, before);
    let floor = advisor.floor(&position, before);
    let judged = judge_in(&position, &known, floor, mv, deadline)?;
    if position.capped && judged.best_exact && judged.best_total.is_none() {
        let free = crate::play::rank::Position::new(advisor.game, before, None)?;
        return Ok(Judged {
            cap_dropped: true,
            ..judge_in(&free, &[], 0, mv, deadline)?
        });
    }
    Ok(judged)
}

/// Judges `mv` in `position`, with the totals `known` without search and
/// every guess's total at least `floor` (proven: [`Advisor::floor`]).
fn judge_in(
    position: &crate::play::rank::Position<'_>,
    known: &[(Code, Option<u64>, crate::play::rank::Source)],
    floor: u64,
    mv: (Code, Feedback),
    deadline: Option<Instant>,
) -> Result<Judged, RankError> {
    let mut rows = position.rows();
    for r in rows.iter_mut().filter(|r| !r.exact) {
        if let Some(t) = r.total.as_mut() {
            *t = (*t).max(floor);
        }
    }
    for &(g, total, source) in known {
        let o = position.orbit_of(g);
        if let Some(r) = rows.iter_mut().find(|r| r.guess == o) {
            r.total = total;
            r.exact = true;
            r.source = source;
        }
    }
    sort_rows(&mut rows);
    let mut searcher = None;
    let mine = position.orbit_of(mv.0);
    let m = rows
        .iter()
        .position(|r| r.guess == mine)
        .expect("every orbit has a row");
    let mut finished = true;
    if !rows[m].exact {
        let s = searcher.insert(position.searcher(deadline)?);
        finished = position.evaluate(s, &mut rows[m], INF);
        // The search's bound starts from its own lookahead: keep the floor.
        let row = &mut rows[m];
        if let (Some(t), false) = (row.total.as_mut(), row.exact) {
            *t = (*t).max(floor);
        }
    }
    // The best so far: (total, row); the played guess first, then the
    // known ones in order.
    let value = |r: &Row| if r.exact { r.total.unwrap_or(INF) } else { INF };
    let mut best = m;
    for (i, r) in rows.iter().enumerate() {
        if value(r) < value(&rows[best]) {
            best = i;
        }
    }
    let mut proved = finished;
    if finished {
        for i in 0..rows.len() {
            let bound = value(&rows[best]);
            if rows[i].exact {
                continue;
            }
            if rows[i].total.unwrap_or(INF) >= bound {
                continue;
            }
            if searcher.is_none() {
                searcher = Some(position.searcher(deadline)?);
            }
            let s = searcher.as_ref().expect("made above");
            if !position.evaluate(s, &mut rows[i], bound) {
                proved = false;
                break;
            }
            if value(&rows[i]) < bound {
                best = i;
            }
        }
    }
    let (r, b) = (&rows[m], &rows[best]);
    // Proved: `b` is exact and the least. Otherwise `b` is the least exact
    // total found (an upper bound of the optimum), when one was.
    let found = proved || (b.exact && b.total.is_some());
    let best_total = b.total.filter(|_| found);
    let loss = match (r.total, best_total) {
        // The played guess cannot meet the cap (proved: `r.total` is `None`
        // only then), another can.
        (None, Some(_)) => None,
        (Some(t), Some(bt)) => Some(t.saturating_sub(bt)),
        // Proved: no guess meets the cap, or every one ties; else nothing
        // found: a bound of 0.
        (_, None) => Some(0),
    };
    let exact = loss.is_none() || (proved && r.exact);
    let left = position.set.len();
    // The code shown for the best: the played one, the tree's, or the
    // orbit's smallest.
    let best_code = if !found {
        None
    } else if best == m {
        Some(mv.0)
    } else {
        Some(
            known
                .iter()
                .map(|&(g, _, _)| g)
                .find(|&g| position.orbit_of(g) == b.guess)
                .unwrap_or(b.guess),
        )
    };
    Ok(Judged {
        guess: mv.0,
        answer: mv.1,
        left,
        total: r.total,
        move_exact: r.exact,
        best: best_code,
        best_total,
        best_exact: proved,
        loss,
        exact,
        verdict: Verdict::proved(loss, exact, left),
        at_least: Verdict::of(loss, left),
        depth: position.capped.then_some(position.depth),
        cap_dropped: false,
    })
}
