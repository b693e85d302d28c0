//! `merge --fill-from TREE --graft FILE`: a subtree solved for a class of
//! a class (`solve --secrets LIST`) goes in where the tree leaves exactly
//! that list, when cheaper; the total falls by what it saves and the tree
//! replays. Lists that are not a node of the tree are refused.

use std::path::Path;

use optimoo::model::{Code, Game};
use optimoo::tree::format::TreeFile;

use crate::distributed::{folder, ok, s};
use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// The secrets the tree leaves at the largest class of the largest class
/// of its first guess, with the path there.
fn second_class(game: &Game, tree: &Path) -> Vec<Code> {
    let file = TreeFile::read(tree, Some(game.rules())).unwrap();
    let mut set = game.secrets();
    let mut node = &file.tree.root;
    for _ in 0..2 {
        let split = optimoo::model::partition::split(game, node.guess, &set);
        let (f, class) = split
            .into_iter()
            .filter(|(f, _)| *f != game.win())
            .max_by_key(|(f, c)| (c.len(), *f))
            .unwrap();
        set = class;
        node = node.child(f).unwrap();
    }
    set
}

fn write_list(game: &Game, codes: &[Code], path: &Path) {
    let text: String = codes.iter().map(|&c| game.format_code(c) + "\n").collect();
    std::fs::write(path, text).unwrap();
}

fn replayed(tree: &Path) -> u64 {
    let out = ok(&["verify", s(tree)]);
    let (_, after) = out.split_once(" total ").unwrap_or_else(|| panic!("{out}"));
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn a_subtree_of_a_class_of_a_class_goes_in_where_cheaper() {
    let name = "moo:4x8";
    let game = Game::new(name.parse().unwrap());
    // The first-consistent tree: far from optimal below its first guess.
    let from = scratch("graft-first.tree");
    let args = [
        "export",
        "--game",
        name,
        "--strategy",
        "first",
        "--format",
        "tree",
    ];
    ok(&[&args[..], &["-o", s(&from)]].concat());
    let dir = folder("graft-plan");
    ok(&["plan", "--game", name, "-o", s(&dir)]);
    let class = second_class(&game, &from);
    assert!(class.len() > 20, "{} secrets", class.len());
    let list = scratch("graft-class.txt");
    write_list(&game, &class, &list);
    let sub = scratch("graft-class.tree");
    let args = [
        "solve",
        "--game",
        name,
        "--secrets",
        s(&list),
        "-o",
        s(&sub),
    ];
    ok(&args);
    let out = scratch("graft-out.tree");
    let fill = |extra: &[&str], out: &Path| -> (i32, String, String) {
        let base = [
            "merge",
            s(&dir),
            "--fill-from",
            s(&from),
            "--json",
            "-o",
            s(out),
        ];
        run(OPTIMOO, &[&base[..], extra].concat(), "")
    };
    let (code, line, err) = fill(&["--graft", s(&sub)], &out);
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value = serde_json::from_str(&line).unwrap();
    let g = &r["subtrees"][0];
    assert_eq!(g["taken"], true, "{r}");
    let (before, after) = (g["before"].as_u64().unwrap(), g["after"].as_u64().unwrap());
    assert!(after < before, "{r}");
    assert_eq!(g["path"].as_str().unwrap().split(' ').count(), 2, "{r}");
    // Solved optimally for its list: the file says so, the node is
    // recorded exact (its answers from the root).
    let answers: Vec<&str> = g["path"]
        .as_str()
        .unwrap()
        .split(' ')
        .map(|m| m.split_once(':').unwrap().1)
        .collect();
    assert_eq!(
        r["exact_subtrees"],
        serde_json::json!([answers.join(" ")]),
        "{r}"
    );
    let verified = ok(&["verify", s(&out)]);
    assert!(verified.contains("1 subtree proved exact"), "{verified}");
    // The optimum on the list, as solve reports it.
    let solved = TreeFile::read(&sub, None).unwrap().header.stats.total;
    assert_eq!(after, solved);
    let total = replayed(&from) - (before - after);
    assert_eq!(r["total"].as_u64(), Some(total), "{r}");
    assert_eq!(replayed(&out), total);
    // Again from the result: not cheaper, kept, the same total.
    let again = scratch("graft-again.tree");
    let base = [
        "merge",
        s(&dir),
        "--fill-from",
        s(&out),
        "--json",
        "-o",
        s(&again),
    ];
    let line = ok(&[&base[..], &["--graft", s(&sub)]].concat());
    let r: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(r["subtrees"][0]["taken"], false, "{r}");
    assert_eq!(r["total"].as_u64(), Some(total), "{r}");
    // What the tree read records goes on in the merge from it, with or
    // without the file that proved it.
    let recorded = serde_json::json!([answers.join(" ")]);
    assert_eq!(r["exact_subtrees"], recorded, "{r}");
    let r: serde_json::Value = serde_json::from_str(&ok(&base)).unwrap();
    assert_eq!(r["exact_subtrees"], recorded, "{r}");
    assert!(ok(&["verify", s(&again)]).contains("1 subtree proved exact"));
    // A cheaper subtree above the recorded node replaces it, and its proof
    // the node's: the whole class of the first answer, solved.
    let first_move = g["path"].as_str().unwrap().split(' ').next().unwrap();
    let top_list = scratch("graft-top.txt");
    ok(&[
        "partition",
        "--game",
        name,
        first_move,
        "--list",
        s(&top_list),
    ]);
    let top = scratch("graft-top.tree");
    ok(&[
        "solve",
        "--game",
        name,
        "--secrets",
        s(&top_list),
        "-o",
        s(&top),
    ]);
    let r: serde_json::Value =
        serde_json::from_str(&ok(&[&base[..], &["--graft", s(&top)]].concat())).unwrap();
    assert_eq!(r["subtrees"][0]["taken"], true, "{r}");
    assert_eq!(r["exact_classes"], serde_json::json!([answers[0]]), "{r}");
    assert_eq!(r["exact_subtrees"], serde_json::json!([]), "{r}");
    // A list split by a guess on the way: refused, nothing written.
    let refused = scratch("graft-refused.tree");
    let _ = std::fs::remove_file(&refused);
    let mut mixed = class[..class.len() / 2].to_vec();
    let other = game
        .secrets()
        .into_iter()
        .find(|c| !class.contains(c))
        .unwrap();
    mixed.push(other);
    mixed.sort();
    let bad_list = scratch("graft-mixed.txt");
    write_list(&game, &mixed, &bad_list);
    let bad = scratch("graft-mixed.tree");
    ok(&[
        "solve",
        "--game",
        name,
        "--secrets",
        s(&bad_list),
        "-o",
        s(&bad),
    ]);
    let (code, _, err) = fill(&["--graft", s(&bad)], &refused);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a class of the tree"), "{err}");
    assert!(!refused.exists());
    // A part of a class (a node the tree never reaches): refused.
    let part = &class[..class.len() - 1];
    let part_list = scratch("graft-part.txt");
    write_list(&game, part, &part_list);
    let part_tree = scratch("graft-part.tree");
    ok(&[
        "solve",
        "--game",
        name,
        "--secrets",
        s(&part_list),
        "-o",
        s(&part_tree),
    ]);
    let (code, _, err) = fill(&["--graft", s(&part_tree)], &refused);
    assert_eq!(code, 2, "{err}");
    assert!(!refused.exists());
    // A whole game's tree is not a subtree.
    let (code, _, err) = fill(&["--graft", s(&from)], &refused);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("secret list"), "{err}");
    // --graft needs --fill-from.
    let (code, _, err) = run(OPTIMOO, &["merge", s(&dir), "--graft", s(&sub)], "");
    assert_eq!(code, 2, "{err}");
}

/// `solve --below C` without `--first`: the optimum and its tree when it
/// is below C (the tree `solve` writes, the same total), else a proven
/// bound at least C, exit 1, nothing written. On a sweep of games,
/// lists among them, C just above, at and far above the optimum.
#[test]
fn below_decides_the_optimum_and_writes_its_tree() {
    let list = scratch("below-list.txt");
    std::fs::write(
        &list,
        "0123\n0132\n1023\n1203\n2301\n3210\n0145\n4501\n5410\n",
    )
    .unwrap();
    let games: [&[&str]; 5] = [
        &["--game", "mm:4x6"],
        &["--game", "moo:4x6"],
        &["--game", "mm:3x5", "--cap", "5"],
        &["--game", "moo:2x9"],
        &["--game", "moo:4x6", "--secrets", s(&list)],
    ];
    for game in games {
        let plain = scratch("below-plain.json");
        ok(&[&["solve"], game, &["-o", s(&plain), "--threads", "1"]].concat());
        let json = |line: &str| -> serde_json::Value { serde_json::from_str(line).unwrap() };
        let opt = json(&ok(&[&["solve", "--json"], game].concat()))["total"]
            .as_u64()
            .unwrap();
        for c in [opt + 1, opt + 40] {
            let out = scratch("below-tree.json");
            let _ = std::fs::remove_file(&out);
            let line = ok(&[
                &["solve", "--json", "--below", &c.to_string()],
                game,
                &["-o", s(&out)],
            ]
            .concat());
            assert_eq!(
                json(&line)["total"].as_u64(),
                Some(opt),
                "{game:?} below {c}"
            );
            assert_eq!(
                std::fs::read_to_string(&out).unwrap(),
                std::fs::read_to_string(&plain).unwrap(),
                "{game:?} below {c}: another tree"
            );
        }
        for c in [opt, opt - 1] {
            let out = scratch("below-none.tree");
            let _ = std::fs::remove_file(&out);
            let text = c.to_string();
            let args = [
                &["solve", "--json", "--below", &text],
                game,
                &["-o", s(&out)],
            ]
            .concat();
            let (code, line, err) = run(OPTIMOO, &args, "");
            assert_eq!(code, 1, "{game:?} below {c}: {err}");
            let r = json(&line);
            assert_eq!(r["exact"], false, "{r}");
            assert!(r["total"].as_u64().unwrap() >= c, "{r}");
            assert!(r["first"].is_null(), "{r}");
            assert!(!out.exists(), "{game:?} below {c}: a tree written");
        }
    }
    // The average objective only.
    let args = [
        "solve",
        "--game",
        "mm:3x3",
        "--objective",
        "worst",
        "--below",
        "9",
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2, "{err}");
}

/// `partition --list FILE` writes the secrets left after the history, one
/// a line, in code order: as many as it counts, each consistent with the
/// history (replayed here by the library), a list `solve --secrets` reads.
#[test]
fn partition_lists_the_secrets_left() {
    let game = Game::new("moo:4x6".parse().unwrap());
    let list = scratch("partition-list.txt");
    let out = ok(&[
        "partition",
        "--game",
        "moo:4x6",
        "--guess",
        "2345",
        "0123:0A2B",
        "1045:1A1B",
        "--list",
        s(&list),
    ]);
    let left: usize = out.split_whitespace().next().unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&list).unwrap();
    let codes: Vec<Code> = text.lines().map(|l| game.parse_code(l).unwrap()).collect();
    assert_eq!(codes.len(), left, "{out}");
    assert!(codes.windows(2).all(|w| w[0] < w[1]));
    let history = [("0123", "0A2B"), ("1045", "1A1B")];
    let want: Vec<Code> = game
        .secrets()
        .into_iter()
        .filter(|&c| {
            history.iter().all(|(g, f)| {
                game.format_feedback(game.feedback(c, game.parse_code(g).unwrap())) == *f
            })
        })
        .collect();
    assert_eq!(codes, want);
    let line = ok(&[
        "solve",
        "--game",
        "moo:4x6",
        "--secrets",
        s(&list),
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert!(r["total"].as_u64().unwrap() >= left as u64, "{r}");
    // A path it cannot write is refused before any work.
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "partition",
            "--game",
            "moo:4x6",
            "--list",
            "/nonexistent/dir/x.txt",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
}
