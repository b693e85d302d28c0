//! A tree of a game above 16,384 codes (the old limit of the exact search)
//! played by `moo --tree`: moo:5x10, 30,240 codes, whose feedback table
//! would take 872 MiB. `optimoo export` and `verify` of such trees: the top
//! tests/big.rs; the memory `moo next` takes: crates/moo/tests/limits.rs.

use optimoo::heuristic::{build_tree, Heuristic, StrategyConfig};
use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::tree::format::TreeFile;

use crate::trees::{run, scratch};
use crate::MOO;

/// A history off the trees' path (their first guess is 01234): `moo next`
/// answers it by an exact search over the ten candidates left.
pub const OFF_TREE: &str = "98765:3A2B";

/// Writes the moo:5x10 tree of `strategy` (what `optimoo export --game
/// moo:5x10 --strategy S --format tree` writes) to a scratch file.
pub fn tree_file(strategy: Heuristic) -> String {
    let game = Game::new("moo:5x10".parse().unwrap());
    let tree = build_tree(&game, &StrategyConfig::new(strategy)).unwrap();
    let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    let path = scratch(&format!("moo-5x10-{strategy}.tree"));
    std::fs::write(&path, file.to_bytes(&game).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// `moo --tree` plays the tree (on the tree) and answers off it (an exact
/// search that builds only its candidates' rows).
fn plays(file: &str) {
    let (code, out, err) = run(MOO, &["--tree", file, "solve", "98765"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("98765 5A0B"), "{out}");
    let (code, out, err) = run(MOO, &["--tree", file, "next", OFF_TREE], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("exact search") || out.contains("exact search"),
        "{out}{err}"
    );
}

#[test]
fn moo_5x10_trees_play() {
    plays(&tree_file(Heuristic::First));
}

/// [`moo_5x10_trees_play`] with the minimax tree (about 20 s of tree
/// building).
#[test]
#[ignore = "about 20 s of tree building: cargo test --release big:: -- --ignored"]
fn moo_5x10_minimax_tree_plays() {
    plays(&tree_file(Heuristic::Minimax));
}
