//! A self-contained HTML page for a decision tree (`optimoo export --format
//! html`): play against a random secret with the tree's hints, let the tree
//! guess a secret, browse the tree level by level.
//!
//! Invariants of the output:
//! - one file, no network: the template, the CSS and the JavaScript beside
//!   this module (`html/page.{html,css,js}`) are embedded whole, and the tree
//!   goes in as data inside `<script type="application/json"
//!   id="tree-data">`. Nothing in the page names a URL to load.
//! - the data cannot end its script element early: every `<` in the JSON is
//!   written `\u003c` (JSON allows it anywhere a `<` can occur, inside
//!   strings), so no `</script>` or `<!--` appears in it.
//! - the tree is a flat array of integers in preorder (compact: the moo:4x10
//!   optimal tree is a few tens of KiB): a node is `guess, n, (answer,
//!   node) × n`, where `guess` is the code's index in lexicographic order of
//!   the game's codes ([`crate::model::code::Code`]) and `answer` the packed
//!   feedback `bulls × (k + 1) + cows` ([`crate::model::feedback::Feedback`]),
//!   children in answer order as in [`Tree`]. [`decode`] reads it back.
//! - deterministic: the same tree and caption give the same bytes.
//!
//! The page computes feedback, candidates and statistics itself, in
//! JavaScript (the browser test in tests/browser checks them against the
//! `optimoo` and `moo` commands).

use serde_json::json;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::rules::Rules;
use crate::tree::{Node, Tree, MAX_DEPTH};

const TEMPLATE: &str = include_str!("html/page.html");
const CSS: &str = include_str!("html/page.css");
const JS: &str = include_str!("html/page.js");

/// The version of the embedded data layout (`"format"` in the data).
pub const DATA_FORMAT: u32 = 1;

/// The page for `tree`, with `caption` as its subtitle; `optimal` says
/// whether the tree is a proven optimum (its hints then say so).
pub fn render(game: &Game, tree: &Tree, caption: &str, optimal: bool) -> String {
    let data = data_json(game, tree, caption, optimal);
    // Placeholders are filled in this order, the data last, so nothing in
    // the data is ever taken for a placeholder.
    TEMPLATE
        .replacen("/*{{CSS}}*/", CSS, 1)
        .replacen("/*{{JS}}*/", JS, 1)
        .replacen("{{DATA}}", &data, 1)
}

/// The data the page embeds, as JSON safe inside a `<script>` element.
pub fn data_json(game: &Game, tree: &Tree, caption: &str, optimal: bool) -> String {
    let mut flat = Vec::with_capacity(3 * tree.root.node_count());
    flatten(&tree.root, &mut flat);
    let value = json!({
        "format": DATA_FORMAT,
        "game": game.rules().to_string(),
        "positions": game.positions(),
        "symbols": game.rules().symbols(),
        "repeats": game.rules().repeats(),
        "caption": caption,
        "optimal": optimal,
        "tree": flat,
    });
    value.to_string().replace('<', "\\u003c")
}

fn flatten(node: &Node, out: &mut Vec<u32>) {
    out.push(node.guess.index() as u32);
    out.push(node.children.len() as u32);
    for (f, child) in &node.children {
        out.push(f.index() as u32);
        flatten(child, out);
    }
}

/// Why embedded page data cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// Not JSON, or a field missing or of the wrong type.
    #[error("page data: {0}")]
    Shape(String),
    /// The flat tree ends early, runs on, or nests too deep.
    #[error("page data: the flat tree is malformed at entry {0}")]
    Tree(usize),
}

/// Reads page data (the output of [`data_json`]) back into its rules and
/// tree. The tree is not replayed: call [`Tree::replay`] to check it.
pub fn decode(text: &str) -> Result<(Rules, Tree), DataError> {
    let shape = |what: &str| DataError::Shape(what.to_string());
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| DataError::Shape(e.to_string()))?;
    let rules: Rules = v["game"]
        .as_str()
        .ok_or_else(|| shape("no game"))?
        .parse()
        .map_err(|_| shape("a bad game"))?;
    let flat: Vec<u64> = v["tree"]
        .as_array()
        .ok_or_else(|| shape("no tree"))?
        .iter()
        .map(|x| {
            x.as_u64()
                .ok_or_else(|| shape("a tree entry is not a count"))
        })
        .collect::<Result<_, _>>()?;
    let mut at = 0;
    let root = unflatten(&flat, &mut at, 1)?;
    if at != flat.len() {
        return Err(DataError::Tree(at));
    }
    Ok((rules, Tree { rules, root }))
}

fn unflatten(flat: &[u64], at: &mut usize, depth: usize) -> Result<Node, DataError> {
    fn next(flat: &[u64], at: &mut usize) -> Result<u64, DataError> {
        let x = *flat.get(*at).ok_or(DataError::Tree(*at))?;
        *at += 1;
        Ok(x)
    }
    if depth > MAX_DEPTH {
        return Err(DataError::Tree(*at));
    }
    let guess = u16::try_from(next(flat, at)?).map_err(|_| DataError::Tree(*at))?;
    let n = next(flat, at)?;
    let mut node = Node::leaf(Code(guess));
    for _ in 0..n {
        let f = u8::try_from(next(flat, at)?).map_err(|_| DataError::Tree(*at))?;
        let child = unflatten(flat, at, depth + 1)?;
        node.children.push((Feedback(f), child));
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{build_tree, Heuristic, StrategyConfig};

    fn embedded(page: &str) -> &str {
        let open = r#"<script type="application/json" id="tree-data">"#;
        let start = page.find(open).expect("the data element") + open.len();
        let len = page[start..].find("</script>").expect("its end");
        &page[start..start + len]
    }

    #[test]
    fn the_embedded_data_reads_back_to_the_tree() {
        for (rules, h) in [
            (Rules::standard(), Heuristic::Minimax),
            (Rules::mm(4, 6).unwrap(), Heuristic::Kooi),
            (Rules::mm(3, 12).unwrap(), Heuristic::First),
        ] {
            let game = Game::new(rules);
            let tree = build_tree(&game, &StrategyConfig::new(h)).unwrap();
            let page = render(&game, &tree, "a caption", false);
            let (r, back) = decode(embedded(&page)).unwrap();
            assert_eq!(r, rules);
            assert_eq!(back, tree);
            assert_eq!(back.replay(&game, None), tree.replay(&game, None));
        }
    }

    #[test]
    fn the_page_is_self_contained_and_the_data_cannot_break_out() {
        let (game, tree) = crate::tree::chain();
        let caption = "</script><script>alert(1)</script><!-- </SCRIPT> \u{2028}";
        let page = render(&game, &tree, caption, true);
        // One script element of data, one of code, and nothing loaded.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2);
        let lower = page.to_ascii_lowercase();
        for bad in ["http://", "https://", "src=", "href=", "@import", "url("] {
            assert!(!lower.contains(bad), "{bad} in the page");
        }
        let data = embedded(&page);
        assert!(!data.contains('<'));
        let v: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(v["caption"], caption);
        assert_eq!(v["optimal"], true);
        assert_eq!(v["tree"], json!([0, 1, 0, 1, 1, 0, 2, 0]));
        // The embedded code and style cannot end their own elements.
        assert!(!JS.to_ascii_lowercase().contains("</script"));
        assert!(!CSS.to_ascii_lowercase().contains("</style"));
        assert!(!page.contains("{{"), "a placeholder left");
    }

    #[test]
    fn malformed_data_is_refused() {
        let ok = r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2,0]}"#;
        assert!(decode(ok).is_ok());
        for bad in [
            r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2]}"#,
            r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2,0,0]}"#,
            r#"{"game":"mm:1x3","tree":[0,1,300,1,0]}"#,
            r#"{"game":"mm:1x3","tree":[0,-1]}"#,
            r#"{"game":"xx","tree":[0,0]}"#,
            r#"{"tree":[0,0]}"#,
            "[",
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }
}
