//! The JSON rendering of a tree (`optimoo export`, `optimoo solve --json`).
//!
//! Invariant: the output is deterministic and mirrors the tree exactly:
//! `{"game": {"positions", "symbols", "repeats"}, "root": NODE}` with each
//! node `{"guess": "0123", "next": {"0A1B": NODE, ...}}` (a leaf has an empty
//! `next`); keys in exactly this order, `next` in feedback order
//! (serde_json's `preserve_order` feature keeps insertion order). A game
//! with a secret list has `"secrets": {"file", "guesses", "alphabet",
//! "codes"}` between `game` and `root` (`alphabet` null without one; the
//! codes as written, smallest first); other games have no such key.

use serde_json::{Map, Value};

use crate::model::game::Game;
use crate::tree::{Node, Tree};

impl Tree {
    /// The tree as JSON (see the module doc for the shape).
    pub fn to_json(&self, game: &Game) -> Value {
        let mut game_obj = Map::new();
        game_obj.insert("positions".into(), self.rules.positions().into());
        game_obj.insert("symbols".into(), self.rules.symbols().into());
        game_obj.insert("repeats".into(), self.rules.repeats().into());
        let mut top = Map::new();
        top.insert("game".into(), Value::Object(game_obj));
        if let Some(set) = game.secret_set() {
            let mut list = Map::new();
            list.insert("file".into(), set.name.clone().into());
            list.insert("guesses".into(), set.guesses.name().into());
            list.insert(
                "alphabet".into(),
                set.alphabet.as_ref().map(|a| a.text()).into(),
            );
            let codes: Vec<Value> = set
                .codes()
                .iter()
                .map(|&c| game.format_code(c).into())
                .collect();
            list.insert("codes".into(), Value::Array(codes));
            top.insert("secrets".into(), Value::Object(list));
        }
        top.insert("root".into(), node_json(game, &self.root));
        Value::Object(top)
    }
}

fn node_json(game: &Game, node: &Node) -> Value {
    let mut next = Map::new();
    for (f, child) in &node.children {
        next.insert(game.format_feedback(*f), node_json(game, child));
    }
    let mut obj = Map::new();
    obj.insert("guess".into(), game.format_code(node.guess).into());
    obj.insert("next".into(), Value::Object(next));
    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::feedback::Feedback;
    use crate::model::rules::Rules;

    #[test]
    fn small_tree_as_json() {
        let (game, tree) = crate::tree::chain();
        let json = tree.to_json(&game);
        assert_eq!(json["game"]["symbols"], 3);
        assert_eq!(json["root"]["next"]["0A0B"]["guess"], "1");
    }

    #[test]
    fn json_keys_keep_the_issue_order() {
        use crate::heuristic::{build_tree, Heuristic, StrategyConfig};
        let game = Game::new(Rules::standard());
        let tree = build_tree(&game, &StrategyConfig::new(Heuristic::First)).unwrap();
        let text = serde_json::to_string(&tree.to_json(&game)).unwrap();
        let prefix = r#"{"game":{"positions":4,"symbols":10,"repeats":false},"root":{"guess":"0123","next":{"0A0B":"#;
        assert!(text.starts_with(prefix), "{}", &text[..120]);
        // `next` lists the answers in feedback order, at every node.
        fn check(game: &Game, v: &Value) {
            let next = v["next"].as_object().unwrap();
            let answers: Vec<Feedback> = next
                .keys()
                .map(|k| game.parse_feedback(k).unwrap())
                .collect();
            assert!(answers.windows(2).all(|w| w[0] < w[1]), "{answers:?}");
            let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            assert_eq!(keys, ["guess", "next"]);
            next.values().for_each(|c| check(game, c));
        }
        let json = tree.to_json(&game);
        assert_eq!(json["root"]["next"].as_object().unwrap().len(), 13);
        check(&game, &json["root"]);
    }
}
