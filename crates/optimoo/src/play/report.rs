//! The text and JSON output of `moo rank` and `moo analyze` (the library
//! prints nothing: these build the lines, the binary writes them).
//!
//! Invariants: the text and the JSON show the same figures; a value that is
//! only a lower bound is marked `≥` in text and `"exact": false` in JSON
//! (`"move_exact"` for a judged move's own value); a best value that is
//! only the least found, an upper bound, is marked `≤` in text and
//! `"best_exact": false` in JSON, and none found is `?`/`unknown` in text
//! and `null` in JSON; a value that cannot be met within the cap is `over
//! cap` in text and `null` in JSON (never a value merely not found); a
//! verdict the loss does not decide is `undecided` in both. Values are
//! totals ÷ secrets left, with 4 decimals in text and full precision in
//! JSON.
//!
//! A ranking of a game of any size ([`crate::play::shape_rank`]) has bounds
//! only: in text a `≤` column (the phased strategy played out, `-` when
//! not played out) and a `≥` column (proven); in JSON the small rank's
//! fields with `total`/`value` the proven lower bound (`exact` true only
//! when the two bounds meet), and `upper_total`/`upper_value` the upper
//! bound (null when not played out); `source` is `phased` when played out,
//! else `bound`.

use serde_json::json;

use crate::model::game::Game;
use crate::model::shape::Shape;
use crate::play::analyze::{Judged, Verdict};
use crate::play::player::{describe_advice, Advice, Player, Source};
use crate::play::rank::{Ranking, Row};
use crate::play::shape_rank;

fn value_text(total: Option<u64>, exact: bool, left: usize) -> String {
    match total {
        None => "over cap".to_string(),
        Some(t) => format!(
            "{}{:.4}",
            if exact { "" } else { "≥" },
            t as f64 / left as f64
        ),
    }
}

fn depth_text(depth: Option<usize>) -> String {
    match depth {
        Some(d) => format!(
            "{d} guess{} left within the cap",
            if d == 1 { "" } else { "es" }
        ),
        None => "no cap".to_string(),
    }
}

/// The text table of a ranking, a line a row after two header lines, and
/// a closing note.
pub fn rank_text(game: &Game, ranking: &Ranking) -> Vec<String> {
    let mut out = vec![
        format!(
            "{} secret{} left, {}; {} guess{} up to symmetry",
            ranking.left,
            if ranking.left == 1 { "" } else { "s" },
            depth_text(ranking.depth),
            ranking.orbits,
            if ranking.orbits == 1 { "" } else { "es" }
        ),
        format!(
            "{:>4}  {:<8} {:>5}  {:<4} {:>7} {:>7}  {:>10} {:>8}  {:<6}  {:>7} {:>7}",
            "rank",
            "guess",
            "count",
            "cand",
            "classes",
            "largest",
            "value",
            "total",
            "from",
            "E|C|",
            "entropy"
        ),
    ];
    for (i, r) in ranking.rows.iter().enumerate() {
        let total = match r.total {
            None => "-".to_string(),
            Some(t) if r.exact => t.to_string(),
            Some(t) => format!("≥{t}"),
        };
        out.push(format!(
            "{:>4}  {:<8} {:>5}  {:<4} {:>7} {:>7}  {:>10} {:>8}  {:<6}  {:>7.2} {:>7.3}",
            i + 1,
            game.format_code(r.guess),
            r.count,
            if r.candidate { "yes" } else { "no" },
            r.classes,
            r.largest,
            value_text(r.total, r.exact, ranking.left),
            total,
            r.source.name(),
            r.expected_size,
            r.entropy
        ));
    }
    out.push(
        "value: expected guesses still needed (this one included) with optimal play after it"
            .to_string(),
    );
    if !ranking.complete {
        out.push(
            "≥: a proven lower bound, not exact (the time budget ran out: raise --budget); \
             E|C| and entropy are the heuristic scores"
                .to_string(),
        );
    }
    out
}

/// One JSON object per row.
pub fn row_json(game: &Game, row: &Row, left: usize) -> String {
    json!({
        "guess": game.format_code(row.guess),
        "candidate": row.candidate,
        "classes": row.classes,
        "largest": row.largest,
        "total": row.total,
        "value": row.total.map(|t| t as f64 / left as f64),
        "exact": row.exact,
        "count": row.count,
        "left": left,
        "source": row.source.name(),
        "expected_size": row.expected_size,
        "entropy": row.entropy,
    })
    .to_string()
}

/// One JSON object for the move the player advises (`optimoo serve`'s
/// `/api/next`): the guess, how it was chosen (`source`: `tree`, `last`,
/// `exact` or `heuristic`, with the heuristic's name in `heuristic`), the
/// secrets left, and `line`, the very line `moo next` prints.
pub fn advice_json(player: &Player<'_>, advice: &Advice) -> String {
    let (source, heuristic) = match advice.source {
        Source::Tree => ("tree", None),
        Source::LastCandidate => ("last", None),
        Source::Exact => ("exact", None),
        Source::Heuristic(name) => ("heuristic", Some(name)),
    };
    json!({
        "guess": player.game().format_code(advice.guess),
        "source": source,
        "heuristic": heuristic,
        "left": advice.candidates.len(),
        "line": describe_advice(player, advice),
    })
    .to_string()
}

/// The text table of a ranking of a game of any size: two header lines, a
/// line a row, then what the bounds mean.
pub fn shape_rank_text(shape: &Shape, ranking: &shape_rank::Ranking) -> Vec<String> {
    let left = ranking.left;
    let width = shape.positions().max(5);
    let mut out = vec![
        format!(
            "{left} secret{} left; {} of the {} guesses the phased strategy scored, \
             with bounds, never exact; moo next plays {}",
            if left == 1 { "" } else { "s" },
            ranking.rows.len(),
            ranking.pool,
            shape.format(ranking.strategy)
        ),
        format!(
            "{:>4}  {:<width$} {:>7}  {:<4} {:>7} {:>8}  {:>9} {:>9}  {:>9} {:>9}  {:<6}  {:>9} {:>7}",
            "rank",
            "guess",
            "count",
            "cand",
            "classes",
            "largest",
            "≤ value",
            "≥ value",
            "≤ total",
            "≥ total",
            "from",
            "E|C|",
            "entropy"
        ),
    ];
    let per = |t: u64| t as f64 / left as f64;
    for (i, r) in ranking.rows.iter().enumerate() {
        let (upper, upper_total) = match r.upper {
            Some(u) => (format!("≤{:.4}", per(u)), format!("≤{u}")),
            None => ("-".to_string(), "-".to_string()),
        };
        out.push(format!(
            "{:>4}  {:<width$} {:>7}  {:<4} {:>7} {:>8}  {:>9} {:>9}  {:>9} {:>9}  {:<6}  {:>9.2} {:>7.3}",
            i + 1,
            shape.format(r.guess),
            r.count,
            if r.candidate { "yes" } else { "no" },
            r.classes,
            r.largest,
            upper,
            format!("≥{:.4}", per(r.lower)),
            upper_total,
            format!("≥{}", r.lower),
            if r.upper.is_some() { "phased" } else { "bound" },
            r.expected_size,
            r.entropy
        ));
    }
    out.push(
        "value: expected guesses still needed (this one included); ≤: this guess, then the \
         phased strategy (moo's own play), played out; ≥: a proven lower bound for any play \
         after it (its classes, filled level by level)"
            .to_string(),
    );
    if let Some(bytes) = ranking.too_large {
        out.push(format!(
            "-: not played out: {left} secrets would need about {} MB more (at most {} MB)",
            bytes.div_ceil(1_000_000),
            shape_rank::PLAY_OUT_MAX_BYTES / 1_000_000
        ));
    } else if !ranking.complete() {
        out.push("-: not played out within the time budget (raise --budget)".to_string());
    }
    out
}

/// One JSON object per row of a ranking of a game of any size.
pub fn shape_row_json(shape: &Shape, row: &shape_rank::Row, left: u64) -> String {
    use serde_json::Value;
    let per = |t: u64| t as f64 / left as f64;
    let fields: [(&str, Value); 14] = [
        ("guess", shape.format(row.guess).into()),
        ("candidate", row.candidate.into()),
        ("classes", row.classes.into()),
        ("largest", row.largest.into()),
        ("total", row.lower.into()),
        ("value", per(row.lower).into()),
        ("exact", row.exact().into()),
        ("count", row.count.into()),
        ("left", left.into()),
        (
            "source",
            if row.upper.is_some() {
                "phased"
            } else {
                "bound"
            }
            .into(),
        ),
        ("expected_size", row.expected_size.into()),
        ("entropy", row.entropy.into()),
        ("upper_total", row.upper.into()),
        ("upper_value", row.upper.map(per).into()),
    ];
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
    .to_string()
}

/// The best value of a judged move: exact, an upper bound (`≤`, the least
/// found), over cap (proved), or unknown (none found).
fn best_value_text(j: &Judged) -> String {
    match (j.best, j.best_total) {
        (None, _) => "unknown".to_string(),
        (Some(_), Some(t)) if !j.best_exact => format!("≤{:.4}", t as f64 / j.left as f64),
        (Some(_), t) => value_text(t, true, j.left),
    }
}

/// The verdict of a judged move: its name, or undecided with the least
/// verdict the loss's bound allows when that is more than best.
fn verdict_text(j: &Judged) -> String {
    match (j.verdict, j.at_least) {
        (Some(v), _) => v.name().to_string(),
        (None, Verdict::Best) => "undecided".to_string(),
        (None, v) => format!("undecided ({} or worse)", v.name()),
    }
}

/// The text table of a judged game, the total expected loss, and a note
/// for each mark used.
pub fn analyze_text(game: &Game, moves: &[Judged]) -> Vec<String> {
    let mut out = vec![format!(
        "{:>4}  {:<8} {:<6} {:>5}  {:>9}  {:<8} {:>10}  {:>9}  {}",
        "move", "guess", "answer", "left", "value", "best", "best value", "loss", "verdict"
    )];
    for (i, j) in moves.iter().enumerate() {
        let loss = match j.loss {
            None => "∞".to_string(),
            Some(l) => format!(
                "{}{:.4}",
                if j.exact { "" } else { "≥" },
                l as f64 / j.left as f64
            ),
        };
        out.push(format!(
            "{:>4}  {:<8} {:<6} {:>5}  {:>9}  {:<8} {:>10}  {:>9}  {}",
            i + 1,
            game.format_code(j.guess),
            game.format_feedback(j.answer),
            j.left,
            value_text(j.total, j.move_exact, j.left),
            j.best.map_or("?".to_string(), |b| game.format_code(b)),
            best_value_text(j),
            loss,
            verdict_text(j)
        ));
    }
    let (sum, all_exact, _) = total_loss(moves);
    let bound = if all_exact { "" } else { "at least " };
    out.push(if let Some((at, before, after)) = loss_around(moves) {
        format!(
            "total expected loss: unbounded: move {} made the cap impossible to meet; \
             {bound}{before:.4} guesses before it, {bound}{after:.4} after it (without the cap)",
            at + 1
        )
    } else if all_exact {
        format!("total expected loss: {sum:.4} guesses")
    } else {
        format!(
            "total expected loss: at least {sum:.4} guesses (≥: a lower bound, the time budget \
             ran out: raise --budget)"
        )
    });
    let dropped: Vec<String> = (0..moves.len())
        .filter(|&i| moves[i].cap_dropped)
        .map(|i| (i + 1).to_string())
        .collect();
    if !dropped.is_empty() {
        out.push(format!(
            "move{} {}: no guess could meet the cap any more, judged without it (as rank \
             ranks them)",
            if dropped.len() == 1 { "" } else { "s" },
            dropped.join(", ")
        ));
    }
    if moves.iter().any(|j| j.best.is_some() && !j.best_exact) {
        out.push("≤: the best value found within the budget; the best may be lower".to_string());
    }
    if moves.iter().any(|j| j.best.is_none()) {
        out.push("?, unknown: no guess's value was found within the budget".to_string());
    }
    if moves.iter().any(|j| j.verdict.is_none()) {
        out.push(
            "undecided: the loss's bound does not decide the verdict (the time budget ran \
             out: raise --budget)"
                .to_string(),
        );
    }
    out
}

/// The sum of the losses in expected guesses, whether every one is exact,
/// and whether one is unbounded.
pub fn total_loss(moves: &[Judged]) -> (f64, bool, bool) {
    let sum = moves
        .iter()
        .filter_map(|j| j.loss.map(|l| l as f64 / j.left as f64))
        .sum();
    (
        sum,
        moves.iter().all(|j| j.exact),
        moves.iter().any(|j| j.loss.is_none()),
    )
}

/// The first move whose loss is unbounded (it made the cap impossible to
/// meet), with the sums of the losses before it and after it, in expected
/// guesses; `None` when every loss is bounded.
pub fn loss_around(moves: &[Judged]) -> Option<(usize, f64, f64)> {
    let at = moves.iter().position(|j| j.loss.is_none())?;
    let sum = |part: &[Judged]| -> f64 {
        part.iter()
            .filter_map(|j| j.loss.map(|l| l as f64 / j.left as f64))
            .sum()
    };
    Some((at, sum(&moves[..at]), sum(&moves[at + 1..])))
}

/// One JSON object per judged move.
pub fn judged_json(game: &Game, j: &Judged) -> String {
    json!({
        "move": game.format_code(j.guess),
        "answer": game.format_feedback(j.answer),
        "left": j.left,
        "best": j.best.map(|b| game.format_code(b)),
        "total": j.total,
        "value": j.per(j.total),
        "move_exact": j.move_exact,
        "best_total": j.best_total,
        "best_value": j.per(j.best_total),
        "best_exact": j.best_exact,
        "loss": j.per(j.loss),
        "loss_total": j.loss,
        "exact": j.exact,
        "verdict": j.verdict.map_or("undecided", Verdict::name),
        "verdict_at_least": j.at_least.name(),
        "cap_dropped": j.cap_dropped,
    })
    .to_string()
}
