//! A self-contained HTML page for one or several decision trees (`optimoo
//! export --format html`, and the page `optimoo serve` serves): play
//! against a random secret with the tree's hints, let the tree guess a
//! secret, browse the tree; a picker switches between the trees' games,
//! each labelled in plain words ([`label`]).
//!
//! Invariants of the output:
//! - one file, no network: the template, the CSS and the JavaScript beside
//!   this module (`html/page.{html,css,js}`) are embedded whole, and the
//!   trees go in as data inside `<script type="application/json"
//!   id="tree-data">`. Nothing in the page names a URL to load. A page
//!   rendered `served` differs only in its Content-Security-Policy
//!   (`connect-src 'self'`: it may ask the server that sent it) and in the
//!   data's `"served": true`; the page then asks `/api/rank`,
//!   `/api/analyze` and `/api/duel`, and never otherwise.
//! - the data cannot end its script element early: every `<` in the JSON is
//!   written `\u003c` (JSON allows it anywhere a `<` can occur, inside
//!   strings), so no `</script>` or `<!--` appears in it.
//! - the data is `{"format", "served", "games": [entry, ...]}`, one entry a
//!   game (at most one tree a game, in the order given; the first is shown
//!   first). An entry's tree is a flat array of integers in preorder
//!   (compact: the moo:4x10 optimal tree is a few tens of KiB): a node is
//!   `guess, n, (answer, node) × n`, where `guess` is the code's index in
//!   lexicographic order of the game's codes ([`crate::model::code::Code`])
//!   and `answer` the packed feedback `bulls × (k + 1) + cows`
//!   ([`crate::model::feedback::Feedback`]), children in answer order as in
//!   [`Tree`]. [`decode`] and [`decode_all`] read it back.
//! - a tree over a secret list ([`crate::model::secrets::SecretSet`]) embeds
//!   the list: `"secrets": {"codes", "guesses", "alphabet", "name"}`, the
//!   codes as indices (sorted, as in the set), `guesses` `all` or `secrets`,
//!   `alphabet` the letters that write the symbols (or null: codes as
//!   usual); `"secrets"` is null when the secrets are every code. The page
//!   draws, counts and lists secrets over the list only, and with
//!   `guesses: secrets` refuses a typed guess outside it.
//! - an entry may carry the equilibria of the game's two-player race
//!   (data/duel, docs/duel.md): `"duel": [{"rule", "value", "first",
//!   "second"}]`, `first` and `second` the seats' mixtures as lists of
//!   `{"weight": "p/q", "tree": i}`, `i` an index into the entry's
//!   `"duel_trees"` (each distinct tree once). A duel tree is stored short
//!   ([`duel_guesses`]): its guesses in preorder, the children of a node in
//!   answer order, a node whose secrets left are one code and whose guess
//!   is that code omitted (implied), any other one-secret node written as
//!   `guess + codes`; [`duel_tree`] reads it back by replaying the secrets,
//!   as the page does. No duel data: `"duel": []`.
//! - deterministic: the same trees and captions give the same bytes.
//!
//! The page computes feedback, candidates and statistics itself, in
//! JavaScript (the browser test in tests/browser checks them against the
//! `optimoo` and `moo` commands).

use serde_json::json;

use crate::model::alphabet::Alphabet;
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::rules::Rules;
use crate::model::secrets::{GuessMode, SecretSet};
use crate::tree::{Node, Tree, MAX_DEPTH};

mod duel;
use duel::duel_json;
pub use duel::{duel_guesses, duel_tree, DuelRule};

const TEMPLATE: &str = include_str!("html/page.html");
const CSS: &str = include_str!("html/page.css");
const JS: &str = include_str!("html/page.js");

/// The version of the embedded data layout (`"format"` in the data).
pub const DATA_FORMAT: u32 = 3;

/// What the Content-Security-Policy of a served page adds.
pub const SERVED_CONNECT: &str = "connect-src 'self'; ";

/// One game of a page: its tree, the caption (the technical title, shown in
/// the page's notes) and whether the tree is a proven optimum (its hints
/// then say so).
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// The game (with its secret list, if any).
    pub game: &'a Game,
    /// The tree played.
    pub tree: &'a Tree,
    /// The technical caption (`moo:4x10 optimal tree (average, cap 7)`).
    pub caption: &'a str,
    /// Whether the tree is proved optimal.
    pub optimal: bool,
    /// The equilibria of the game's race, if shipped (may be empty).
    pub duel: &'a [DuelRule],
}

/// The page for `tree` alone, with `caption` as its technical caption;
/// `optimal` says whether the tree is a proven optimum.
pub fn render(game: &Game, tree: &Tree, caption: &str, optimal: bool) -> String {
    let entry = Entry {
        game,
        tree,
        caption,
        optimal,
        duel: &[],
    };
    render_page(&[entry], false)
}

/// The page of several games, the first shown first; `served`: the page
/// `optimoo serve` sends, which may ask the server for exact values.
pub fn render_page(entries: &[Entry<'_>], served: bool) -> String {
    let data = data_json(entries, served);
    // Placeholders are filled in this order, the data last, so nothing in
    // the data is ever taken for a placeholder.
    TEMPLATE
        .replacen("{{CONNECT}}", if served { SERVED_CONNECT } else { "" }, 1)
        .replacen("/*{{CSS}}*/", CSS, 1)
        .replacen("/*{{JS}}*/", JS, 1)
        .replacen("{{DATA}}", &data, 1)
}

/// The name of a game in plain words, for people who never heard of
/// `moo:4x10`: "Bulls and Cows: 4 different digits", "Mastermind: 4 pegs, 6
/// colours", "Hit and Blow: 3 digits" (the three-digit game of TV's
/// Numer0n), "Words: 4 letters, 189 listed".
pub fn label(game: &Game) -> String {
    let rules = game.rules();
    let (k, n) = (rules.positions(), rules.symbols());
    if let Some(set) = game.secret_set() {
        if set.alphabet.is_some() {
            return format!("Words: {k} letters, {} listed", set.codes().len());
        }
    }
    let base = if rules.repeats() {
        format!("Mastermind: {k} pegs, {n} colours")
    } else {
        let digits = match n {
            10 => "digits".to_string(),
            n if n < 10 => format!("digits of 0–{}", n - 1),
            n => format!("symbols of {n}"),
        };
        if k == 3 && n == 10 {
            format!("Hit and Blow: {k} {digits}")
        } else {
            format!("Bulls and Cows: {k} different {digits}")
        }
    };
    match game.secret_set() {
        Some(set) => format!("{base}, {} listed secrets", set.codes().len()),
        None => base,
    }
}

/// The data the page embeds, as JSON safe inside a `<script>` element.
pub fn data_json(entries: &[Entry<'_>], served: bool) -> String {
    let games: Vec<serde_json::Value> = entries.iter().map(entry_json).collect();
    let value = json!({
        "format": DATA_FORMAT,
        "served": served,
        "games": games,
    });
    value.to_string().replace('<', "\\u003c")
}

/// One game of the data.
fn entry_json(e: &Entry<'_>) -> serde_json::Value {
    let (game, tree) = (e.game, e.tree);
    let mut flat = Vec::with_capacity(3 * tree.root.node_count());
    flatten(&tree.root, &mut flat);
    let secrets = game.secret_set().map(|set| {
        json!({
            "codes": set.codes().iter().map(|c| c.index()).collect::<Vec<_>>(),
            "guesses": set.guesses.name(),
            "alphabet": set.alphabet.as_ref().map(Alphabet::text),
            "name": set.name,
        })
    });
    let (duel, duel_trees) = duel_json(game, e.duel);
    json!({
        "game": game.rules().to_string(),
        "label": label(game),
        "positions": game.positions(),
        "symbols": game.rules().symbols(),
        "repeats": game.rules().repeats(),
        "caption": e.caption,
        "optimal": e.optimal,
        "secrets": secrets,
        "tree": flat,
        "duel": duel,
        "duel_trees": duel_trees,
    })
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

/// Reads page data (the output of [`data_json`]) back into its first game
/// (with its secret list, if any) and tree. The tree is not replayed: call
/// [`Tree::replay`] to check it.
pub fn decode(text: &str) -> Result<(Game, Tree), DataError> {
    decode_all(text)?
        .into_iter()
        .next()
        .ok_or_else(|| DataError::Shape("no game".to_string()))
}

/// Reads page data back into every game and tree, in the page's order.
pub fn decode_all(text: &str) -> Result<Vec<(Game, Tree)>, DataError> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| DataError::Shape(e.to_string()))?;
    v["games"]
        .as_array()
        .ok_or_else(|| DataError::Shape("no games".to_string()))?
        .iter()
        .map(decode_entry)
        .collect()
}

/// One game of the data.
fn decode_entry(v: &serde_json::Value) -> Result<(Game, Tree), DataError> {
    let shape = |what: &str| DataError::Shape(what.to_string());
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
    let game = match &v["secrets"] {
        serde_json::Value::Null => Game::new(rules),
        list => Game::with_secrets(rules, secret_set(rules, list)?),
    };
    let mut at = 0;
    let root = unflatten(&flat, &mut at, 1)?;
    if at != flat.len() {
        return Err(DataError::Tree(at));
    }
    Ok((game, Tree { rules, root }))
}

/// The `"secrets"` object of page data, checked against `rules`.
fn secret_set(rules: Rules, v: &serde_json::Value) -> Result<SecretSet, DataError> {
    let shape = |what: &str| DataError::Shape(what.to_string());
    let len = Game::new(rules).len();
    let codes = v["codes"]
        .as_array()
        .ok_or_else(|| shape("secrets without codes"))?
        .iter()
        .map(|x| match x.as_u64() {
            Some(i) if (i as usize) < len => Ok(Code(i as u16)),
            _ => Err(shape("a secret is not a code of the game")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let guesses = v["guesses"]
        .as_str()
        .and_then(|name| GuessMode::NAMES.iter().find(|(n, _)| *n == name))
        .map(|&(_, mode)| mode)
        .ok_or_else(|| shape("secrets without a guess mode"))?;
    let alphabet = match &v["alphabet"] {
        serde_json::Value::Null => None,
        a => {
            let text = a.as_str().ok_or_else(|| shape("a bad alphabet"))?;
            let alphabet = Alphabet::new(text).map_err(|_| shape("a bad alphabet"))?;
            if alphabet.len() != rules.symbols() {
                return Err(shape("an alphabet of the wrong length"));
            }
            Some(alphabet)
        }
    };
    let name = v["name"].as_str().unwrap_or_default().to_string();
    SecretSet::new(codes, guesses, alphabet, name).ok_or_else(|| shape("an empty secret list"))
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

    /// Page data of one game entry.
    fn one(entry: &str) -> String {
        format!(r#"{{"games":[{entry}]}}"#)
    }

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
            let (g, back) = decode(embedded(&page)).unwrap();
            assert_eq!(g.rules(), rules);
            assert!(g.secret_set().is_none());
            assert_eq!(back, tree);
            assert_eq!(back.replay(&game, None), tree.replay(&game, None));
        }
    }

    #[test]
    fn list_trees_read_back_with_their_list_mode_and_alphabet() {
        let rules = Rules::moo(3, 5).unwrap();
        let book = Game::new(rules);
        // Every fifth code, from the second: a list that is not a prefix.
        let codes: Vec<Code> = book.all_codes().into_iter().skip(1).step_by(5).collect();
        for (guesses, alphabet, h) in [
            (GuessMode::All, Some("pesto"), Heuristic::Minimax),
            (GuessMode::Secrets, Some("PeStO"), Heuristic::Entropy),
            (GuessMode::Secrets, None, Heuristic::First),
        ] {
            let alphabet = alphabet.map(|a| Alphabet::new(a).unwrap());
            // A list name that tries to end the data element early.
            let name = "</script><!--list.txt".to_string();
            let set = SecretSet::new(codes.clone(), guesses, alphabet, name).unwrap();
            let game = Game::with_secrets(rules, set.clone());
            let tree = build_tree(&game, &StrategyConfig::new(h)).unwrap();
            let page = render(&game, &tree, "a list", true);
            assert_eq!(
                page.matches("</script>").count(),
                2,
                "the data stays inside"
            );
            let data = embedded(&page);
            assert!(!data.contains('<'));
            let (g, back) = decode(data).unwrap();
            assert_eq!(g.rules(), rules);
            let got = g.secret_set().expect("the list");
            assert_eq!(got, &set);
            assert_eq!(got.name, set.name);
            assert_eq!(g.guesses_restricted(), guesses == GuessMode::Secrets);
            assert_eq!(back, tree);
            // Replayed over the list read back, as over the list given.
            let replay = back.replay(&g, None).unwrap();
            assert_eq!(replay.secrets, codes.len() as u64);
            assert_eq!(Some(replay), tree.replay(&game, None).ok());
            // The words as the alphabet writes them are the list's.
            let v: serde_json::Value = serde_json::from_str(data).unwrap();
            assert_eq!(
                v["games"][0]["secrets"]["codes"].as_array().unwrap().len(),
                codes.len()
            );
        }
        // A list that is not of the game, or an alphabet of the wrong size,
        // is refused.
        for bad in [
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[3],"guesses":"all","alphabet":null}}"#,
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[],"guesses":"all","alphabet":null}}"#,
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[0],"guesses":"some","alphabet":null}}"#,
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[0],"guesses":"all","alphabet":"ab"}}"#,
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[0],"guesses":"all","alphabet":"aab"}}"#,
            r#"{"game":"mm:1x3","tree":[0,0],"secrets":[0]}"#,
        ] {
            assert!(decode(&one(bad)).is_err(), "{bad}");
        }
        let ok = r#"{"game":"mm:1x3","tree":[0,0],"secrets":{"codes":[0],"guesses":"all","alphabet":"abc"}}"#;
        assert_eq!(decode(&one(ok)).unwrap().0.secret_count(), 1);
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
        assert_eq!(v["games"][0]["caption"], caption);
        assert_eq!(v["games"][0]["optimal"], true);
        assert_eq!(v["games"][0]["tree"], json!([0, 1, 0, 1, 1, 0, 2, 0]));
        assert_eq!(v["served"], false);
        assert!(!page.contains(SERVED_CONNECT));
        // The embedded code and style cannot end their own elements.
        assert!(!JS.to_ascii_lowercase().contains("</script"));
        assert!(!CSS.to_ascii_lowercase().contains("</style"));
        assert!(!page.contains("{{"), "a placeholder left");
    }

    #[test]
    fn malformed_data_is_refused() {
        let ok = r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2,0]}"#;
        assert!(decode(&one(ok)).is_ok());
        for bad in [
            r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2]}"#,
            r#"{"game":"mm:1x3","tree":[0,1,0,1,1,0,2,0,0]}"#,
            r#"{"game":"mm:1x3","tree":[0,1,300,1,0]}"#,
            r#"{"game":"mm:1x3","tree":[0,-1]}"#,
            r#"{"game":"xx","tree":[0,0]}"#,
            r#"{"tree":[0,0]}"#,
            "[",
        ] {
            assert!(decode(&one(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn labels_are_plain_words_derived_from_the_rules() {
        let cases = [
            ("moo:4x10", "Bulls and Cows: 4 different digits"),
            ("mm:4x6", "Mastermind: 4 pegs, 6 colours"),
            ("moo:3x10", "Hit and Blow: 3 digits"),
            ("moo:5x8", "Bulls and Cows: 5 different digits of 0–7"),
            ("moo:3x12", "Bulls and Cows: 3 different symbols of 12"),
            ("mm:5x8", "Mastermind: 5 pegs, 8 colours"),
        ];
        for (name, want) in cases {
            let game = Game::new(name.parse().unwrap());
            assert_eq!(label(&game), want, "{name}");
        }
        let rules = Rules::moo(3, 5).unwrap();
        let codes: Vec<Code> = Game::new(rules).all_codes().into_iter().take(7).collect();
        let words = Alphabet::new("pesto").unwrap();
        let set = SecretSet::new(codes.clone(), GuessMode::All, Some(words), "w".into()).unwrap();
        assert_eq!(
            label(&Game::with_secrets(rules, set)),
            "Words: 3 letters, 7 listed"
        );
        let set = SecretSet::new(codes, GuessMode::All, None, "w".into()).unwrap();
        assert_eq!(
            label(&Game::with_secrets(rules, set)),
            "Bulls and Cows: 3 different digits of 0–4, 7 listed secrets"
        );
    }

    #[test]
    fn several_games_read_back_in_order_and_a_served_page_may_ask_its_server() {
        let games: Vec<Game> = ["mm:3x4", "moo:3x5"]
            .iter()
            .map(|g| Game::new(g.parse().unwrap()))
            .collect();
        let trees: Vec<Tree> = games
            .iter()
            .map(|g| build_tree(g, &StrategyConfig::new(Heuristic::Minimax)).unwrap())
            .collect();
        let entries: Vec<Entry<'_>> = games
            .iter()
            .zip(&trees)
            .map(|(game, tree)| Entry {
                game,
                tree,
                caption: "c",
                optimal: false,
                duel: &[],
            })
            .collect();
        let file = render_page(&entries, false);
        let served = render_page(&entries, true);
        let back = decode_all(embedded(&file)).unwrap();
        assert_eq!(back.len(), 2);
        for ((g, t), (game, tree)) in back.iter().zip(games.iter().zip(&trees)) {
            assert_eq!(g.rules(), game.rules());
            assert_eq!(t, tree);
        }
        // The served page differs in its policy and its flag only.
        assert!(served.contains(SERVED_CONNECT) && !file.contains(SERVED_CONNECT));
        assert_eq!(
            served.replacen(SERVED_CONNECT, "", 1).replacen(
                r#""served":true"#,
                r#""served":false"#,
                1
            ),
            file
        );
        let v: serde_json::Value = serde_json::from_str(embedded(&file)).unwrap();
        assert_eq!(
            v["games"][1]["label"],
            "Bulls and Cows: 3 different digits of 0–4"
        );
    }
}
