//! The HTML page of a tree (`optimoo export --format html`, and the page
//! `optimoo serve` serves): its caption, said the same way by both.
//!
//! Invariant: a page of tree files made here is byte for byte the page
//! `optimoo export FILE... --format html` writes (served: with the two
//! differences of [`html::render_page`]'s `served`).

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

/// The page of tree files, as `optimoo export FILE... --format html`
/// writes it (`served`: as `optimoo serve` sends it).
pub fn of_files(files: &[(&Game, &TreeFile)], served: bool) -> String {
    let captions: Vec<String> = files
        .iter()
        .map(|(game, file)| {
            let h = &file.header;
            caption(
                &game.rules().to_string(),
                h.objective,
                h.cap,
                None,
                h.bound.is_some(),
            )
        })
        .collect();
    let entries: Vec<html::Entry<'_>> = files
        .iter()
        .zip(&captions)
        .map(|((game, file), caption)| html::Entry {
            game,
            tree: &file.tree,
            caption,
            optimal: file.header.objective != Objective::Heuristic && file.header.bound.is_none(),
        })
        .collect();
    html::render_page(&entries, served)
}
