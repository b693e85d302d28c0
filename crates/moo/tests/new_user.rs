//! What a new user hit (issue 17): the rules said in words before A and B
//! are used, `--game` for every subcommand (the best tree of data/ for the
//! game, or with none the heuristic and the small exact search), and a
//! code of another game answered with how to name it.

use optimoo::model::Game;

use crate::trees::run;
use crate::MOO;

/// The game's tree in data/, if it was there at build time.
fn data_tree(name: &str) -> Option<optimoo::tree::format::TreeFile> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name);
    path.is_file()
        .then(|| optimoo::tree::format::TreeFile::read(&path, None).unwrap())
}

/// `moo --help` says what A and B count, and what moo:4x10 and mm:4x6
/// are, before any answer is written; so does the start of a game, and of
/// `moo host`.
#[test]
fn the_rules_come_first() {
    let (code, help, _) = run(MOO, &["--help"], "");
    assert_eq!(code, 0);
    let a = help
        .find("A (bulls) counts the symbols that are right")
        .unwrap();
    let b = help
        .find("B (cows) those that are right but in the wrong")
        .unwrap();
    let first_use = help.find("1A2B").unwrap();
    assert!(a < first_use && b < first_use, "{help}");
    for said in [
        "moo:4x10, the game played",
        "4 different\ndigits out of 0-9",
        "mm:KxN lets a symbol repeat (mm:4x6 is Mastermind",
        "moo:KxN is K different symbols out of N",
    ] {
        assert!(help.contains(said), "{said}: {help}");
    }
    for (args, first) in [
        (
            vec!["--game", "moo:3x5"],
            "Think of a secret of moo:3x5 (3 different symbols from 0-4; 60 possible)",
        ),
        (
            vec!["host", "--game", "mm:2x3", "--seed", "1"],
            "Guess my secret of mm:2x3 (2 symbols from 0-2, a symbol may repeat; 9 possible)",
        ),
    ] {
        let (_, _, err) = run(MOO, &args, "quit\n");
        let start = err.find(first).unwrap_or_else(|| panic!("{args:?}: {err}"));
        let a = err.find("A counts the symbols that are right and in the right place");
        assert!(a.is_some_and(|a| a > start), "{args:?}: {err}");
    }
}

/// `--game` for `next`, `solve`, `rank`, `analyze` and play: the best tree
/// of data/ for the game, or none (the heuristic, then the exact search).
#[test]
fn every_subcommand_takes_a_game() {
    if let Some(file) = data_tree("mm-4x6.tree") {
        let game = Game::new(file.header.rules);
        let (code, out, err) = run(MOO, &["--game", "mm:4x6", "next"], "");
        assert_eq!(code, 0, "{err}");
        let first = out.split_whitespace().next().unwrap();
        assert_eq!(first, game.format_code(file.tree.root.guess));
        assert!(out.contains("from the tree"), "{out}");
        let (code, out, err) = run(MOO, &["solve", "--game", "mm:4x6", "0012"], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().last(), Some("0012 4A0B"));
        let want = file
            .tree
            .play(&game, game.parse_code("0012").unwrap())
            .unwrap();
        assert_eq!(out.lines().count(), want.len());
    }
    // No tree of moo:3x6 in data/: the heuristic, and every secret won.
    let (code, out, err) = run(MOO, &["--game", "moo:3x6", "next"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("012 (no tree for moo:3x6: the entropy heuristic"),
        "{out}"
    );
    let (code, out, err) = run(MOO, &["--game", "moo:3x6", "next", "012:0A1B"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no tree for moo:3x6"), "{out}");
    let (code, out, err) = run(MOO, &["--game", "moo:3x6", "solve", "543"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("543 3A0B"), "{out}");
    let (code, out, err) = run(
        MOO,
        &["--game", "moo:3x6", "rank", "--top", "1", "012:0A1B"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no cap"), "{out}");
    let (code, out, err) = run(
        MOO,
        &["--game", "mm:3x3", "analyze", "000:1A0B", "111:1A0B"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("total expected loss"), "{out}");
    // A tree of another game than --game: refused, both named.
    let tree = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/moo-3x10.tree");
    if tree.is_file() {
        let t = tree.display().to_string();
        let (code, _, err) = run(MOO, &["--tree", &t, "--game", "mm:4x6", "next"], "");
        assert_eq!(code, 2);
        assert!(err.contains("plays moo:3x10, not mm:4x6"), "{err}");
    }
}

/// A code of another game than moo:4x10, with neither --game nor --tree:
/// the error says how to name the game, which then plays.
#[test]
fn a_code_of_another_game_names_the_option() {
    for args in [vec!["solve", "0012"], vec!["next", "0012:1A0B"]] {
        let (code, out, err) = run(MOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains("repeats the symbol"), "{err}");
        assert!(err.contains("--game"), "{err}");
    }
    let (code, out, err) = run(MOO, &["--game", "mm:4x10", "solve", "0012"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("0012 4A0B"), "{out}");
}
