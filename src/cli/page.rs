//! The HTML page of a tree (`optimoo export --format html`, and the page
//! `optimoo serve` serves): its caption, said the same way by both.
//!
//! Invariant: a page of a tree file made here is byte for byte the page
//! `optimoo export FILE --format html` writes.

use optimoo::model::{Game, Objective};
use optimoo::tree::format::TreeFile;
use optimoo::tree::html;

/// The title of a picture or page of a tree of `game`.
pub fn caption(
    game: &str,
    objective: Objective,
    cap: Option<usize>,
    strategy: Option<&str>,
    bounded: bool,
) -> String {
    match (objective, strategy) {
        (Objective::Heuristic, Some(s)) => format!("{game} tree of the {s}"),
        (Objective::Heuristic, None) => format!("{game} tree (heuristic)"),
        (o, _) if bounded => format!(
            "{game} best tree known, not proved optimal ({o} upper bound{})",
            cap.map_or(String::new(), |c| format!(", cap {c}"))
        ),
        (o, _) => format!(
            "{game} optimal tree ({o}{})",
            cap.map_or(String::new(), |c| format!(", cap {c}"))
        ),
    }
}

/// The page of a tree file of `game`, as `optimoo export FILE --format
/// html` writes it.
pub fn of_file(game: &Game, file: &TreeFile) -> String {
    let h = &file.header;
    let bounded = h.bound.is_some();
    let caption = caption(&game.rules().to_string(), h.objective, h.cap, None, bounded);
    html::render(
        game,
        &file.tree,
        &caption,
        h.objective != Objective::Heuristic && !bounded,
    )
}
