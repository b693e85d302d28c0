//! What a tree file proves (issue "Trust II"): a tree grafted from a
//! plan's exact units is written as an upper bound with the plan's proven
//! lower bound and its exact classes, never as an optimum; `verify` says
//! so; the player's values are exact only where proved; and every tree of
//! data/ says what docs/results.md says it proves.

use std::path::Path;

use optimoo::model::Objective;
use optimoo::play::rank::{Advisor, Request, Source};
use optimoo::tree::format::TreeFile;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

fn data(name: &str) -> String {
    format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The reproduction: mm:4x6's units of at most 100 secrets solved,
/// the crush tree (5627) filled in. Before the fix the file said `average`
/// (proved), `verify` printed "average no cap", and the player ranked 0012
/// at 5627 "from tree", exact (the optimum is 5625).
#[test]
fn a_grafted_tree_is_an_upper_bound_and_says_so() {
    let dir = scratch("proof-plan");
    let tree = scratch("proof-grafted.tree");
    let _ = std::fs::remove_dir_all(&dir);
    let (d, t) = (dir.to_str().unwrap(), tree.to_str().unwrap());
    let (code, out, err) = run(OPTIMOO, &["plan", "--game", "mm:4x6", "-o", d], "");
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(OPTIMOO, &["work", d, "--all", "--max-secrets", "100"], "");
    assert_eq!(code, 0, "{out}{err}");
    let crush = data("mm-4x6-crush.tree");
    let (code, out, err) = run(
        OPTIMOO,
        &["merge", d, "--fill-from", &crush, "-o", t, "--json"],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let merged: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let (code, status, err) = run(OPTIMOO, &["status", d, "--json"], "");
    assert_eq!(code, 0, "{status}{err}");
    let status: serde_json::Value = serde_json::from_str(status.trim()).unwrap();
    assert_eq!(merged["lower"], status["lower"], "{merged} {status}");
    assert_eq!(merged["optimal"], false);

    let file = TreeFile::read(&tree, None).unwrap();
    let h = &file.header;
    assert_eq!(h.objective, Objective::Average);
    assert!(!h.proves_optimal());
    let bound = h.bound.as_ref().expect("an upper bound");
    assert_eq!(Some(bound.lower.unwrap()), status["lower"].as_u64());
    assert_eq!(
        bound.exact.len(),
        merged["exact_classes"].as_array().unwrap().len()
    );
    // verify prints what is proved.
    let (code, out, _) = run(OPTIMOO, &["verify", t], "");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("average upper bound, not proved optimal (proven lower bound"),
        "{out}"
    );
    assert!(!out.contains("average no cap"), "{out}");
    // The player's values: the root is searched (5625), never the tree's
    // 5627; the exact classes are the tree's; exporting keeps the bound.
    let game = h.game();
    let advisor = Advisor::of_file(&game, Some(&file));
    let request = Request {
        top: 1,
        deadline: None,
    };
    let r = advisor.rank(&[], request).unwrap();
    assert_eq!((r.rows[0].total, r.rows[0].exact), (Some(5625), true));
    assert_ne!(r.rows[0].source, Source::Tree);
    let first = file.tree.root.guess;
    for path in &bound.exact {
        let r = advisor.rank(&[(first, path[0])], request).unwrap();
        assert!(r.rows[0].exact);
    }
    let again = scratch("proof-again.tree");
    let (code, out, err) = run(
        OPTIMOO,
        &[
            "export",
            t,
            "--format",
            "tree",
            "-o",
            again.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&tree).unwrap()
    );
    let (code, html, err) = run(OPTIMOO, &["export", t, "--format", "html"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        html.contains("\"optimal\":false"),
        "the page calls it optimal"
    );
    assert!(html.contains("not proved optimal"));
}

/// One row of docs/results.md's table "What each tree of data/ proves".
struct Row {
    file: String,
    game: String,
    proves: String,
    total: u64,
    lower: String,
    exact: String,
}

fn table() -> Vec<Row> {
    let text =
        std::fs::read_to_string(format!("{}/docs/results.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let at = text
        .find("## What each tree of data/ proves")
        .expect("docs/results.md has the section");
    text[at..]
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(".tree |"))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            Row {
                file: c[1].into(),
                game: c[2].into(),
                proves: c[3].into(),
                total: c[4].parse().unwrap(),
                lower: c[5].into(),
                exact: c[6].into(),
            }
        })
        .collect()
}

/// Every tree of data/ states what docs/results.md says it proves, and an
/// upper bound's lower bound is proved by its plan (`optimoo status` shows
/// as much or more).
#[test]
fn every_tree_of_data_says_what_results_md_says() {
    let rows = table();
    let mut files: Vec<String> = std::fs::read_dir(data(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tree"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = rows.iter().map(|r| r.file.clone()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "docs/results.md lists other files than data/"
    );
    for row in &rows {
        let file = TreeFile::read(Path::new(&data(&row.file)), None).unwrap();
        let h = &file.header;
        let what = &row.file;
        assert_eq!(h.stats.total, row.total, "{what}");
        assert!(row.game.starts_with(&h.rules.to_string()), "{what}");
        match row.proves.as_str() {
            "optimal" => {
                assert!(h.proves_optimal(), "{what}");
                assert_eq!(row.exact, "all", "{what}");
                if let Ok(l) = row.lower.parse::<u64>() {
                    assert_eq!(l, h.stats.total, "{what}");
                }
            }
            "heuristic" => {
                assert_eq!((h.objective, &h.bound), (Objective::Heuristic, &None));
                assert_eq!((row.lower.as_str(), row.exact.as_str()), ("none", "none"));
            }
            "upper bound" => {
                let b = h.bound.as_ref().unwrap_or_else(|| panic!("{what}"));
                assert_eq!(b.exact.len().to_string(), row.exact, "{what}");
                if row.lower == "none" {
                    // A fixed first guess (`solve --first`): no bound of
                    // the game's optimum, nothing of a plan to check.
                    assert_eq!(b.lower, None, "{what}");
                    continue;
                }
                assert_eq!(b.lower.map(|l| l.to_string()), Some(row.lower.clone()));
                // The lower bound is proved by the plan's folder: at most
                // what `status` shows now (a run going on may raise the
                // plan's; the file keeps the one it was written with).
                let run_dir = data(&format!("runs/{}", h.rules.to_string().replace(':', "-")));
                let (code, out, err) = run(OPTIMOO, &["status", &run_dir, "--json"], "");
                assert_eq!(code, 0, "{out}{err}");
                let status: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
                let now = status["lower"].as_u64().unwrap();
                assert!(b.lower.unwrap() <= now, "{what}: {b:?}, status {now}");
            }
            other => panic!("{what}: unknown claim {other:?}"),
        }
    }
}

/// data/README.md's tables give each tree's total, average, max depth,
/// histogram and size in bytes: the file's own header (which `verify`
/// holds to a replay of every secret) and its length say the same. Session
/// 57 found the grafted tree's row two merges old (171623 where the file
/// holds 171598).
#[test]
fn data_readme_gives_each_trees_figures() {
    let text = std::fs::read_to_string(data("README.md")).unwrap();
    let mut header: Vec<String> = Vec::new();
    let mut checked = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let cells = &cells[1..cells.len() - 1];
        if cells[0] == "file" {
            header = cells.iter().map(|c| c.to_string()).collect();
            continue;
        }
        if !cells[0].ends_with(".tree") {
            continue;
        }
        let what = cells[0];
        let bytes = std::fs::metadata(data(what))
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .len();
        let stats = TreeFile::read(Path::new(&data(what)), None)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .header
            .stats;
        for (name, cell) in header.iter().zip(cells) {
            let want = match name.as_str() {
                "total" => stats.total.to_string(),
                "average" => format!("{:.4}", stats.average()),
                "max depth" => stats.max_depth.to_string(),
                "histogram" => stats.histogram_text(),
                "bytes" => bytes.to_string(),
                _ => continue,
            };
            assert_eq!(*cell, want, "data/README.md, {what}: {name}");
        }
        checked.push(what.to_string());
    }
    // The tables cover the optimal trees, Wordle's and the heuristic ones.
    for name in [
        "moo-4x10-cap7.tree",
        "wordle-salet.tree",
        "moo-5x10-grafted.tree",
    ] {
        assert!(
            checked.iter().any(|c| c == name),
            "{name} not in the tables"
        );
    }
}
