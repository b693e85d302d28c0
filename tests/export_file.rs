//! `optimoo export FILE` and `--format dot|tree`.

use optimoo::tree::format::{Objective, TreeFile};
use optimoo::Game;

use crate::trees::{first_consistent_file, run, scratch};
use crate::OPTIMOO;

#[test]
fn a_tree_file_exports_as_json_and_dot() {
    let game = Game::new("moo:3x5".parse().unwrap());
    let (tree, path) = first_consistent_file(&game, "e-json.tree");
    let path = path.to_str().unwrap();
    let (code, out, err) = run(OPTIMOO, &["export", path], "");
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json, tree.to_json(&game));

    let (code, full, _) = run(OPTIMOO, &["export", path, "--format", "dot"], "");
    assert_eq!(code, 0);
    // One edge per node but the root.
    assert_eq!(full.matches(" -> ").count(), tree.root.node_count() - 1);
    let (code, two, _) = run(
        OPTIMOO,
        &["export", path, "--format", "dot", "--depth", "2"],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(two.matches(" -> ").count(), tree.root.children.len());
    assert!(two.starts_with("digraph"), "{two}");

    let (code, _, err) = run(OPTIMOO, &["export", path, "--depth", "2"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--format dot"), "{err}");
    let (code, _, _) = run(OPTIMOO, &["export", path, "--strategy", "kooi"], "");
    assert_eq!(code, 2);
}

#[test]
fn a_strategy_exports_as_a_tree_file_that_verifies() {
    let out = scratch("e-kooi.tree");
    let out = out.to_str().unwrap();
    let args = [
        "export",
        "--game",
        "mm:3x4",
        "--strategy",
        "kooi",
        "--format",
        "tree",
        "-o",
        out,
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let file = TreeFile::read(out.as_ref(), None).unwrap();
    assert_eq!(file.header.objective, Objective::Heuristic);
    let (code, text, _) = run(OPTIMOO, &["verify", out], "");
    assert_eq!(code, 0, "{text}");
    // Round trip through export FILE --format tree: the same bytes.
    let again = scratch("e-kooi2.tree");
    let again = again.to_str().unwrap();
    let (code, _, err) = run(
        OPTIMOO,
        &["export", out, "--format", "tree", "-o", again],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(out).unwrap(), std::fs::read(again).unwrap());
}

#[test]
fn an_unreadable_file_is_an_error() {
    let bad = scratch("e-bad.tree");
    std::fs::write(&bad, b"MOOT\x07").unwrap();
    let (code, _, err) = run(OPTIMOO, &["export", bad.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("version 7"), "{err}");
}
