//! The equilibria of a game's two-player race in the page data
//! ([`super`]'s `"duel"` and `"duel_trees"`): each rule's value and seats'
//! mixtures, the trees written short.
//!
//! Invariants: [`duel_guesses`] writes a tree's guesses in preorder, the
//! children of a node in answer order, omitting a node whose secrets left
//! are one code and whose guess is that code, and writing any other
//! one-secret node's guess as `guess + codes`; [`duel_tree`] reads exactly
//! that back by replaying the game's secrets (as the page's JavaScript
//! does), refusing a list that ends early or runs on. Each distinct tree
//! is written once ([`duel_json`]).

use serde_json::json;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::tree::{Node, Tree, MAX_DEPTH};

/// One rule's equilibrium of a game's two-player race (a folder of
/// data/duel, written by `optimoo duel -o DIR`): each seat's mixture.
#[derive(Debug, Clone)]
pub struct DuelRule {
    /// The rule's name (`first-wins`, `equal-turns`; the tree layer names
    /// nothing of `play`, which defines the rules).
    pub rule: String,
    /// The first seat's value, `"p/q"` as duel.json says it.
    pub value: String,
    /// The first seat's mixture: weight (`"p/q"`) and tree.
    pub first: Vec<(String, Tree)>,
    /// The second seat's.
    pub second: Vec<(String, Tree)>,
}

/// A duel tree written short (see the module doc).
pub fn duel_guesses(game: &Game, tree: &Tree) -> Vec<u32> {
    fn walk(game: &Game, node: &Node, set: &[Code], out: &mut Vec<u32>) {
        if set.len() == 1 && node.guess == set[0] && node.children.is_empty() {
            return;
        }
        let extra = if set.len() == 1 { game.len() as u32 } else { 0 };
        out.push(node.guess.index() as u32 + extra);
        for (f, child) in &node.children {
            let class: Vec<Code> = set
                .iter()
                .copied()
                .filter(|&s| game.feedback(s, node.guess) == *f)
                .collect();
            walk(game, child, &class, out);
        }
    }
    let mut out = Vec::new();
    walk(game, &tree.root, &game.secrets(), &mut out);
    out
}

/// A duel tree read back from [`duel_guesses`], replaying `game`'s secrets;
/// `None` if the list is malformed.
pub fn duel_tree(game: &Game, guesses: &[u32]) -> Option<Tree> {
    fn walk(game: &Game, set: &[Code], g: &[u32], at: &mut usize, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let len = game.len() as u32;
        let next = g.get(*at).copied();
        let guess = match (set.len(), next) {
            (1, Some(x)) if x >= len => {
                *at += 1;
                Code((x - len) as u16)
            }
            (1, _) => return Some(Node::leaf(set[0])),
            (_, Some(x)) if x < len => {
                *at += 1;
                Code(x as u16)
            }
            _ => return None,
        };
        let mut node = Node::leaf(guess);
        let mut classes: std::collections::BTreeMap<Feedback, Vec<Code>> = Default::default();
        for &s in set {
            classes.entry(game.feedback(s, guess)).or_default().push(s);
        }
        for (f, class) in classes {
            if f != game.win() {
                node.children
                    .push((f, walk(game, &class, g, at, depth + 1)?));
            }
        }
        Some(node)
    }
    let mut at = 0;
    let root = walk(game, &game.secrets(), guesses, &mut at, 1)?;
    (at == guesses.len()).then_some(Tree {
        rules: game.rules(),
        root,
    })
}

/// The `"duel"` and `"duel_trees"` of an entry.
pub(super) fn duel_json(game: &Game, rules: &[DuelRule]) -> (serde_json::Value, serde_json::Value) {
    fn mixture<'t>(seat: &'t [(String, Tree)], trees: &mut Vec<&'t Tree>) -> serde_json::Value {
        seat.iter()
            .map(|(weight, tree)| {
                let i = trees.iter().position(|t| *t == tree).unwrap_or_else(|| {
                    trees.push(tree);
                    trees.len() - 1
                });
                json!({"weight": weight, "tree": i})
            })
            .collect()
    }
    let mut trees: Vec<&Tree> = Vec::new();
    let duel: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            json!({
                "rule": r.rule,
                "value": r.value,
                "first": mixture(&r.first, &mut trees),
                "second": mixture(&r.second, &mut trees),
            })
        })
        .collect();
    let flat: Vec<Vec<u32>> = trees.iter().map(|t| duel_guesses(game, t)).collect();
    (json!(duel), json!(flat))
}

#[cfg(test)]
mod tests {
    use super::super::{flatten, render, render_page, Entry};
    use super::*;
    use crate::heuristic::{build_tree, Heuristic, StrategyConfig};
    use crate::model::rules::Rules;

    fn embedded(page: &str) -> &str {
        let open = r#"<script type="application/json" id="tree-data">"#;
        let start = page.find(open).expect("the data element") + open.len();
        let len = page[start..].find("</script>").expect("its end");
        &page[start..start + len]
    }

    /// Duel trees written short read back to themselves, a one-secret node
    /// that does not guess its secret included; a seat's trees appear once.
    #[test]
    fn duel_trees_read_back_and_are_embedded_once() {
        for (rules, h) in [
            (Rules::standard(), Heuristic::Minimax),
            (Rules::mm(4, 6).unwrap(), Heuristic::Kooi),
            (Rules::mm(2, 3).unwrap(), Heuristic::First),
        ] {
            let game = Game::new(rules);
            let tree = build_tree(&game, &StrategyConfig::new(h)).unwrap();
            let short = duel_guesses(&game, &tree);
            assert_eq!(duel_tree(&game, &short).as_ref(), Some(&tree));
            let mut flat = Vec::new();
            flatten(&tree.root, &mut flat);
            assert!(short.len() * 3 < flat.len(), "{rules}: short");
            // Cut or extended, it is refused.
            assert!(duel_tree(&game, &short[..short.len() - 1]).is_none());
            let mut more = short.clone();
            more.push(0);
            assert!(duel_tree(&game, &more).is_none());
        }
        // mm:1x3: guess 1; on 0A0B ({0, 2}) guess 0; on 0A0B ({2}) guess 1
        // again (not the secret), then 2.
        let game = Game::new(Rules::mm(1, 3).unwrap());
        let mut two = Node::leaf(Code(1));
        two.children.push((Feedback(0), Node::leaf(Code(2))));
        let mut zero = Node::leaf(Code(0));
        zero.children.push((Feedback(0), two));
        let mut root = Node::leaf(Code(1));
        root.children.push((Feedback(0), zero));
        let tree = Tree {
            rules: game.rules(),
            root,
        };
        assert!(tree.replay(&game, None).is_ok());
        let short = duel_guesses(&game, &tree);
        assert_eq!(short, vec![1, 0, 1 + 3]);
        assert_eq!(duel_tree(&game, &short), Some(tree.clone()));
        let rules = [DuelRule {
            rule: "equal-turns".into(),
            value: "1/2".into(),
            first: vec![("1".into(), tree.clone())],
            second: vec![("1".into(), tree.clone())],
        }];
        let entry = Entry {
            game: &game,
            tree: &tree,
            caption: "c",
            optimal: false,
            duel: &rules,
        };
        let page = render_page(&[entry], false);
        let v: serde_json::Value = serde_json::from_str(embedded(&page)).unwrap();
        let g = &v["games"][0];
        assert_eq!(g["duel"][0]["rule"], "equal-turns");
        assert_eq!(g["duel"][0]["first"][0]["tree"], 0);
        assert_eq!(g["duel"][0]["second"][0]["tree"], 0);
        assert_eq!(g["duel_trees"], json!([[1, 0, 4]]));
        // Without duel data: empty lists.
        let page = render(&game, &tree, "c", false);
        let v: serde_json::Value = serde_json::from_str(embedded(&page)).unwrap();
        assert_eq!(v["games"][0]["duel"], json!([]));
    }
}
