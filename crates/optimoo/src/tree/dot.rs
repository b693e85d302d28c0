//! Graphviz pictures of decision trees (`optimoo export --format dot`).
//!
//! Invariants of the output: one graph node per tree node down to the depth
//! limit (the root is level 1), labelled with its guess and the number of
//! secrets still possible there; one edge per non-winning answer, labelled
//! `xAyB`. A node whose subtree is cut by the limit is drawn dashed with the
//! number of guessing nodes left out. Guesses that cannot win (not a
//! candidate) are drawn grey. Output is deterministic (feedback order).
//! Every text put in a quoted string (the caption, codes written in a
//! list's alphabet, which may hold `"` or `\`) is escaped, so
//! the file always parses and shows the text as given.

use std::fmt::Write;

use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::partition;
use crate::tree::{Node, Tree};

/// `text` for a double-quoted Graphviz string: `\` and `"` escaped with a
/// backslash (a lone `\` would start one of Graphviz's escapes, `\N`,
/// `\G`, ..., or escape the closing quote), a line break as `\n`.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The tree in Graphviz `dot` syntax, down to `depth` levels (all if
/// `None`), with `caption` as the first line of the title.
pub fn render(game: &Game, tree: &Tree, caption: &str, depth: Option<usize>) -> String {
    let mut out = preamble(caption, depth);
    let mut next_id = 0;
    node(
        game,
        &tree.root,
        &game.secrets(),
        1,
        depth.unwrap_or(usize::MAX),
        &mut next_id,
        &mut out,
    );
    out.push_str(END);
    out
}

/// The last line of a picture.
pub(crate) const END: &str = "}\n";

/// The lines before the first node: the graph, its title (`caption`, the
/// depth limit) and the default styles. Shared with the pictures of games
/// over 65,535 codes (`crate::tree::format::shape`), which stream theirs.
pub(crate) fn preamble(caption: &str, depth: Option<usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph tree {{");
    let _ = writeln!(
        out,
        "  graph [rankdir=LR, ranksep=0.35, nodesep=0.06, fontname=\"Helvetica\", fontsize=11, labelloc=t, label=\"{}{}\\nnode: guess, secrets left{}; grey: a guess that cannot win; edge: the answer\"];",
        escape(caption),
        depth.map_or(String::new(), |d| format!(", first {d} levels")),
        if depth.is_some() { ", +nodes cut (dashed)" } else { "" }
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\", fontname=\"Helvetica\", fontsize=10, height=0.2, margin=\"0.05,0.02\"];"
    );
    let _ = writeln!(
        out,
        "  edge [fontname=\"Helvetica\", fontsize=8, arrowsize=0.4];"
    );
    out
}

/// The line of node `id`: its guess (written, unescaped), the secrets
/// left there, the nodes its cut subtree hides (`Some`: drawn dashed),
/// grey when the guess is not a candidate.
pub(crate) fn node_line(
    id: usize,
    guess: &str,
    secrets: usize,
    hidden: Option<usize>,
    candidate: bool,
) -> String {
    let mut label = format!("{}\\n{secrets}", escape(guess));
    let mut style = String::new();
    if let Some(hidden) = hidden {
        let _ = write!(label, "\\n+{hidden}");
        style.push_str(", style=\"rounded,dashed,filled\"");
    }
    if !candidate {
        style.push_str(", fillcolor=\"#dddddd\"");
    }
    format!("  n{id} [label=\"{label}\"{style}];\n")
}

/// The line of the edge from node `from` to node `to` for an answer
/// (written, unescaped).
pub(crate) fn edge_line(from: usize, to: usize, answer: &str) -> String {
    format!("  n{from} -> n{to} [label=\"{}\"];\n", escape(answer))
}

fn node(
    game: &Game,
    n: &Node,
    set: &[Code],
    level: usize,
    limit: usize,
    next_id: &mut usize,
    out: &mut String,
) -> usize {
    let id = *next_id;
    *next_id += 1;
    let candidate = set.binary_search(&n.guess).is_ok();
    let cut = level >= limit && !n.children.is_empty();
    let hidden = cut.then(|| n.node_count() - 1);
    out.push_str(&node_line(
        id,
        &game.format_code(n.guess),
        set.len(),
        hidden,
        candidate,
    ));
    if cut {
        return id;
    }
    for (f, class) in partition::split(game, n.guess, set) {
        let Some(child) = n.child(f) else { continue };
        let c = node(game, child, &class, level + 1, limit, next_id, out);
        out.push_str(&edge_line(id, c, &game.format_feedback(f)));
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_levels_and_cuts() {
        let (game, tree) = crate::tree::chain();
        let full = render(&game, &tree, "t", None);
        assert_eq!(full.matches("->").count(), 2);
        assert!(full.contains("n0 [label=\"0\\n3\"]"));
        assert!(full.contains("n0 -> n1 [label=\"0A0B\"]"));
        let cut = render(&game, &tree, "t", Some(2));
        assert_eq!(cut.matches("->").count(), 1);
        assert!(cut.contains("1\\n2\\n+1"), "{cut}");
        assert!(cut.contains("dashed"));
    }

    /// Every `label="..."` of `dot`, decoded: the quoted string read up to
    /// its unescaped closing quote, `\"` and `\\` read as `"` and `\`,
    /// `\n` as a line break. Panics on a label that does not close, or on
    /// any other backslash sequence (Graphviz would read `\N`, `\G`, ... as
    /// its own escapes).
    fn labels(dot: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = dot;
        while let Some(at) = rest.find("label=\"") {
            let mut chars = rest[at + 7..].char_indices();
            let mut label = String::new();
            let end = loop {
                match chars.next() {
                    Some((i, '"')) => break i,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, '"')) => label.push('"'),
                        Some((_, '\\')) => label.push('\\'),
                        Some((_, 'n')) => label.push('\n'),
                        other => panic!("a stray backslash before {other:?} in {dot}"),
                    },
                    Some((_, '\n')) | None => panic!("a label that does not close in {dot}"),
                    Some((_, c)) => label.push(c),
                }
            };
            out.push(label);
            rest = &rest[at + 7 + end + 1..];
        }
        out
    }

    /// Letters `"` and `\` (issue 16), and a caption with both: every
    /// label is escaped, and reads back as the text meant.
    #[test]
    fn quotes_and_backslashes_are_escaped() {
        use crate::model::alphabet::Alphabet;
        use crate::model::secrets::{GuessMode, SecretSet};
        let (plain, tree) = crate::tree::chain();
        let alphabet = Alphabet::new("\"\\x").unwrap();
        let set =
            SecretSet::new(plain.secrets(), GuessMode::All, Some(alphabet), "t".into()).unwrap();
        let game = Game::with_secrets(plain.rules(), set);
        assert_eq!(game.format_code(Code(0)), "\"");
        assert_eq!(game.format_code(Code(1)), "\\");
        let dot = render(&game, &tree, "a \"quoted\" \\ caption\\", None);
        let all = labels(&dot);
        assert!(all[0].starts_with("a \"quoted\" \\ caption\\\n"), "{dot}");
        for want in ["\"\n3", "\\\n2", "x\n1"] {
            assert!(all.iter().any(|l| l == want), "{want:?} in {all:?}");
        }
        let cut = render(&game, &tree, "t", Some(2));
        assert!(labels(&cut).iter().any(|l| l == "\\\n2\n+1"), "{cut}");
    }
}
