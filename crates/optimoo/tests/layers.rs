//! The library's layers (docs/architecture.md), checked on its sources: a
//! folder names only the folders below it.
//!
//! ```text
//! model  →  heuristic | search  →  huge | tree  →  play | static_game
//! ```
//!
//! `static_game` (the static game's search and its checker, side by side)
//! sits beside `play`; inside it the checker (check.rs) names nothing of
//! the search (search.rs), so that it stays an independent check.
//!
//! `huge` (games of any size) builds on the heuristics' scores and names
//! the tree type only, as `heuristic` and `search` do, with one exception:
//! huge/file.rs, the tree files of games over 65,535 codes, writes the
//! format of `tree::format` and draws the pictures of `tree::dot`, so it
//! may name those two (they name only the model and the tree type: no
//! cycle); huge/book.rs, the opening books, seals them with the tree
//! format's CRC-32, so it may name `tree::format`.
//! `heuristic` and `search` are peers: neither names the other. Both build
//! trees, so they may name the tree *type* (`crate::tree::Node`, `Tree`,
//! `Stats`, `MAX_DEPTH`, all in tree/mod.rs), not the rest of `tree` (its
//! file, pictures, checker). `exec` and `rng` are tools any folder may use.
//! Test code (files named `*tests.rs`, and everything after a file's first
//! `#[cfg(test)]`) may compare any layer with any other; comments are not
//! code.

use std::path::{Path, PathBuf};

/// The folders in order; a folder may name those of a lower rank.
const RANKS: [(&str, u8); 7] = [
    ("model", 0),
    ("heuristic", 1),
    ("search", 1),
    ("huge", 2),
    ("tree", 2),
    ("play", 3),
    ("static_game", 3),
];

/// What a lower folder may name of `tree`: the tree type of tree/mod.rs.
const TREE_TYPES: [&str; 4] = ["Node", "Tree", "Stats", "MAX_DEPTH"];

/// The files of `huge` that may name more of `tree`, and what.
const HUGE_FILES: [(&str, &[&str]); 2] =
    [("file.rs", &["format", "dot"]), ("book.rs", &["format"])];

fn rank(folder: &str) -> Option<u8> {
    RANKS.iter().find(|(f, _)| *f == folder).map(|r| r.1)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The product code of a file: test code and comments left out.
fn product_code(path: &Path) -> String {
    if path
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .ends_with("tests.rs")
    {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::FOLDER` a text names, with what follows it.
fn named(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let folder = rest[..end].to_string();
        let after: String = rest[end..].chars().take(60).collect();
        out.push((folder, after));
    }
    out
}

/// Whether `after` (the text after `crate::tree`) names one of the
/// modules `allowed` (`crate::tree::format::...`).
fn tree_module(after: &str, allowed: &[&str]) -> bool {
    let after = after.trim_start_matches("::");
    let end = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    allowed.contains(&&after[..end])
}

/// Whether `after` (the text after `crate::tree`) names only the tree type.
fn tree_type_only(after: &str) -> bool {
    let after = after.trim_start_matches("::");
    let names: Vec<&str> = if let Some(inner) = after.strip_prefix('{') {
        inner
            .split('}')
            .next()
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    } else {
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        vec![&after[..end]]
    };
    names.iter().all(|n| TREE_TYPES.contains(n))
}

#[test]
fn no_folder_names_a_higher_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    for (folder, own) in RANKS {
        let mut files = Vec::new();
        rust_files(&src.join(folder), &mut files);
        assert!(!files.is_empty(), "{folder}: no sources");
        for file in files {
            let name = file.file_name().and_then(|n| n.to_str());
            let huge_file = HUGE_FILES
                .iter()
                .find(|(f, _)| folder == "huge" && name == Some(*f))
                .map(|(_, modules)| *modules);
            for (other, after) in named(&product_code(&file)) {
                let Some(theirs) = rank(&other) else {
                    continue; // exec, rng, or the crate root
                };
                let ok = other == folder
                    || theirs < own
                    || (other == "tree"
                        && (own == 1 || folder == "huge")
                        && tree_type_only(&after))
                    || (other == "tree" && huge_file.is_some_and(|m| tree_module(&after, m)));
                if !ok {
                    violations.push(format!(
                        "{}: names crate::{other}{}",
                        file.strip_prefix(&src).unwrap().display(),
                        after.lines().next().unwrap_or("")
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "arrows against the layers:\n{}",
        violations.join("\n")
    );
}

/// Whether a text names the static game's search, by any path.
fn names_static_search(code: &str) -> bool {
    ["static_game::search", "super::search", "crate::search"]
        .iter()
        .any(|path| {
            code.match_indices(path).any(|(i, _)| {
                !code[i + path.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
        })
}

#[test]
fn the_static_checker_names_nothing_of_the_search() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/static_game");
    let checker = product_code(&dir.join("check.rs"));
    assert!(checker.contains("fn check_static"), "the checker moved");
    assert!(
        !names_static_search(&checker),
        "static_game/check.rs names the static search"
    );
    assert!(names_static_search("use super::search::solve_static;"));
    assert!(names_static_search(
        "crate::static_game::search::StaticConfig"
    ));
    assert!(!names_static_search("super::searcher"));
}

/// The checker itself: it sees an arrow against the layers.
#[test]
fn the_check_sees_violations() {
    let found = named("use crate::heuristic::Heuristic;\nlet x = crate::tree::format::read(b);");
    assert_eq!(found[0].0, "heuristic");
    assert_eq!(found[1].0, "tree");
    assert!(!tree_type_only(&found[1].1));
    assert!(tree_type_only("::{Node, Tree};"));
    assert!(tree_type_only("::Node;"));
    assert!(!tree_type_only("::{Node, check};"));
    assert!(tree_module("::format::crc32;", HUGE_FILES[0].1));
    assert!(tree_module("::dot::preamble(", HUGE_FILES[0].1));
    assert!(!tree_module("::check::check(", HUGE_FILES[0].1));
    assert!(!tree_module("::formatted::x", HUGE_FILES[0].1));
}
