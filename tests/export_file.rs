//! `optimoo export FILE` and `--format dot|tree`.

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::tree::format::TreeFile;

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

/// The data inside the page's `<script type="application/json">` element.
fn page_data(page: &str) -> &str {
    let open = r#"<script type="application/json" id="tree-data">"#;
    let start = page.find(open).expect("the data element") + open.len();
    &page[start..start + page[start..].find("</script>").expect("its end")]
}

#[test]
fn a_tree_file_exports_as_an_offline_page_holding_the_tree() {
    let game = Game::new("mm:3x4".parse().unwrap());
    let (tree, path) = first_consistent_file(&game, "e-page.tree");
    let out = scratch("e-page.html");
    let args = ["export", path.to_str().unwrap(), "--format", "html", "-o"];
    let (code, _, err) = run(OPTIMOO, &[&args[..], &[out.to_str().unwrap()]].concat(), "");
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(!page.contains("http://") && !page.contains("https://"));
    let (back_game, back) = optimoo::tree::html::decode(page_data(&page)).unwrap();
    assert_eq!(back_game.rules(), game.rules());
    assert!(back_game.secret_set().is_none());
    assert_eq!(back, tree);
    // A heuristic's tree straight to standard output: the same page layout.
    let (code, page, err) = run(
        OPTIMOO,
        &[
            "export",
            "--game",
            "moo:3x5",
            "--strategy",
            "minimax",
            "--format",
            "html",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (_, back) = optimoo::tree::html::decode(page_data(&page)).unwrap();
    assert_eq!(
        back.replay(&Game::new("moo:3x5".parse().unwrap()), None)
            .unwrap()
            .secrets,
        60
    );
}

#[test]
fn docs_moo_html_is_the_page_of_the_standard_tree() {
    let root = env!("CARGO_MANIFEST_DIR");
    let tree = format!("{root}/data/moo-4x10-cap7.tree");
    let (code, page, err) = run(OPTIMOO, &["export", &tree, "--format", "html"], "");
    assert_eq!(code, 0, "{err}");
    let committed = std::fs::read_to_string(format!("{root}/docs/moo.html")).unwrap();
    assert!(
        committed == page,
        "docs/moo.html is not the page of data/moo-4x10-cap7.tree: run scripts/page.sh"
    );
}

#[test]
fn docs_index_html_is_the_page_of_the_shipped_trees_world_readable() {
    let root = env!("CARGO_MANIFEST_DIR");
    // The trees scripts/make-index.sh exports, in its order.
    let script = std::fs::read_to_string(format!("{root}/scripts/make-index.sh")).unwrap();
    let trees: Vec<String> = script
        .split_whitespace()
        .filter(|w| w.starts_with("data/") && w.ends_with(".tree"))
        .map(|w| format!("{root}/{w}"))
        .collect();
    assert!(trees.len() >= 3, "{trees:?}");
    let args: Vec<&str> = ["export"]
        .into_iter()
        .chain(trees.iter().map(String::as_str))
        .chain(["--format", "html"])
        .collect();
    let (code, page, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let path = format!("{root}/docs/index.html");
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == page,
        "docs/index.html is not the page of the shipped trees: run scripts/make-index.sh"
    );
    // Every game of the script is on the page, labelled in plain words.
    let games = optimoo::tree::html::decode_all(page_data(&page)).unwrap();
    assert_eq!(games.len(), trees.len());
    for label in [
        "Bulls and Cows: 4 different digits",
        "Mastermind: 4 pegs, 6 colours",
        "Hit and Blow: 3 digits",
    ] {
        assert!(page.contains(label), "{label}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, 0o644,
        "docs/index.html must be world-readable (chmod 644)"
    );
}

#[test]
fn several_tree_files_make_one_page_and_other_formats_refuse_them() {
    let root = env!("CARGO_MANIFEST_DIR");
    let moo = format!("{root}/data/moo-3x10.tree");
    let mm = format!("{root}/data/mm-4x6.tree");
    let (code, page, err) = run(OPTIMOO, &["export", &mm, &moo, "--format", "html"], "");
    assert_eq!(code, 0, "{err}");
    let games = optimoo::tree::html::decode_all(page_data(&page)).unwrap();
    let names: Vec<String> = games.iter().map(|(g, _)| g.rules().to_string()).collect();
    assert_eq!(names, ["mm:4x6", "moo:3x10"]);
    for (game, tree) in &games {
        assert!(tree.replay(game, None).is_ok());
    }
    // Two trees of one game, or several files in another format: exit 2.
    let crush = format!("{root}/data/mm-4x6-crush.tree");
    let (code, _, err) = run(OPTIMOO, &["export", &mm, &crush, "--format", "html"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a second tree of mm:4x6"), "{err}");
    let (code, _, err) = run(OPTIMOO, &["export", &mm, &moo, "--format", "json"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("only --format html"), "{err}");
}

/// The page of a tree carries the race's equilibria found beside it
/// (data/duel), both rules, each tree read back playing every secret; a
/// word list's page (other secrets) carries none.
#[test]
fn the_page_embeds_the_race_equilibria_beside_the_tree() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (code, page, err) = run(
        OPTIMOO,
        &[
            "export",
            &format!("{root}/data/mm-4x6.tree"),
            "--format",
            "html",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(page_data(&page)).unwrap();
    let entry = &v["games"][0];
    let game = Game::new("mm:4x6".parse().unwrap());
    let rules: Vec<&str> = entry["duel"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["first-wins", "equal-turns"]);
    for r in entry["duel"].as_array().unwrap() {
        let json: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!(
                "{root}/data/duel/mm-4x6-{}/duel.json",
                r["rule"].as_str().unwrap()
            ))
            .unwrap(),
        )
        .unwrap();
        assert_eq!(r["value"], json["value"]);
        for seat in ["first", "second"] {
            let i = r[seat][0]["tree"].as_u64().unwrap() as usize;
            let short: Vec<u32> = serde_json::from_value(entry["duel_trees"][i].clone()).unwrap();
            let tree = optimoo::tree::html::duel_tree(&game, &short).unwrap();
            let stats = tree.replay(&game, None).unwrap();
            let want: Vec<u64> =
                serde_json::from_value(json[seat][0]["histogram"].clone()).unwrap();
            assert_eq!(stats.histogram, want, "{seat}");
        }
    }
    let (code, page, err) = run(
        OPTIMOO,
        &[
            "export",
            &format!("{root}/data/words4.tree"),
            "--format",
            "html",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(page_data(&page)).unwrap();
    assert_eq!(v["games"][0]["duel"], serde_json::json!([]));
}
