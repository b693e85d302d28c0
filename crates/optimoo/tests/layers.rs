//! The library's layers (docs/architecture.md), checked on its sources: a
//! unit names only the units of a lower rank, in code and in doc links,
//! with no exception.
//!
//! ```text
//! exec | rng | observe  →  model  →  tree  →  heuristic | search  →  play | static_game
//! ```
//!
//! The tools (exec.rs, rng.rs, observe.rs) name no folder; the model names
//! only the tools; `tree` (the tree type, its file and the file of a shape,
//! its pictures, its independent checker) names only the model, so the
//! heuristics and the search, which build trees and write their files, may
//! name all of it and the checker none of them; `heuristic` and `search`
//! are peers: neither names the other. `static_game` (the static game's
//! search and its checker, side by side) sits beside `play`; inside it the
//! checker (check.rs) names nothing of the search (search.rs), so that it
//! stays an independent check.
//!
//! What counts as naming: `crate::UNIT` in code, and in doc comments an
//! intra-doc link whose path starts at a unit (`[`crate::search::Cost`]`,
//! `[`search`]`, `[text](crate::search)`, `[x]: crate::search`), `super::`
//! paths resolved from the file's module. Test code (files named
//! `*tests.rs`, and everything after a file's first `#[cfg(test)]`) may
//! compare any layer with any other; plain comments and text in backquotes
//! that is not a link are not code.
//!
//! docs/architecture.md stays true: it draws this order, names every
//! folder of the library (and every file beside them), and names no folder
//! that is not there.

use std::path::{Path, PathBuf};

/// The units in order; a unit may name those of a lower rank. A name
/// ending in `.rs` is a file beside the folders.
const RANKS: [(&str, u8); 10] = [
    ("exec.rs", 0),
    ("rng.rs", 0),
    ("observe.rs", 0),
    ("model", 1),
    ("tree", 2),
    ("heuristic", 3),
    ("search", 3),
    ("play", 4),
    ("static_game", 4),
    // The crate root names every unit, as it must to declare them.
    ("lib.rs", 5),
];

/// The unit a path's first segment names, if any.
fn unit(segment: &str) -> Option<(&'static str, u8)> {
    RANKS
        .iter()
        .find(|(u, _)| u.trim_end_matches(".rs") == segment)
        .copied()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

/// The text of a file before its first `#[cfg(test)]` (none for a file
/// of tests).
fn product_text(path: &Path) -> String {
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
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The product code of a text: comments left out.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The doc comments of a text (`///`, `//!`), without their markers, code
/// blocks left out.
fn docs_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let l = line.trim_start();
        let Some(doc) = l.strip_prefix("///").or_else(|| l.strip_prefix("//!")) else {
            continue;
        };
        if doc.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push(doc.to_string());
        }
    }
    out
}

/// Every `crate::UNIT` a text names, with what follows it.
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

/// The targets of the intra-doc links of a doc line: `[`path`]`,
/// `[text](path)` and `[text]: path` (web addresses and anchors left out).
fn link_targets(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = doc.as_bytes();
    let mut i = 0;
    while let Some(open) = doc[i..].find('[').map(|o| o + i) {
        let Some(close) = doc[open..].find(']').map(|c| c + open) else {
            break;
        };
        let inner = &doc[open + 1..close];
        let next = bytes.get(close + 1).copied();
        if next == Some(b'(') {
            if let Some(end) = doc[close..].find(')') {
                out.push(doc[close + 2..close + end].to_string());
            }
        } else if next == Some(b':') {
            out.push(doc[close + 2..].trim().to_string());
        } else if inner.len() > 2 && inner.starts_with('`') && inner.ends_with('`') {
            out.push(inner[1..inner.len() - 1].to_string());
        }
        i = close + 1;
    }
    out.retain(|t| !t.contains("://") && !t.starts_with('#') && !t.is_empty());
    out
}

/// The module path of a file: `src/tree/format/shape.rs` is
/// `["tree", "format", "shape"]`, a `mod.rs` its folder.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Whether `name` is a module beside `file` (a local name, not a unit).
fn local_module(file: &Path, name: &str) -> bool {
    let dir = if file.file_name().is_some_and(|n| n == "mod.rs") {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    let beside = file.parent().unwrap();
    file.parent() != Some(src().as_path())
        && [
            dir.join(format!("{name}.rs")),
            dir.join(name),
            beside.join(format!("{name}.rs")),
        ]
        .iter()
        .any(|p| p.exists())
}

/// The unit a doc link's target names from `file`, if any: `crate::`
/// paths, `super::` paths resolved, and first segments that are a unit's
/// name and no module beside the file.
fn link_unit(file: &Path, target: &str) -> Option<String> {
    let mut t = target.trim();
    if let Some(at) = t.find('@') {
        t = &t[at + 1..];
    }
    let t = t.trim_end_matches("()").trim_end_matches('!');
    let mut segments: Vec<&str> = t.split("::").collect();
    if segments.first() == Some(&"crate") {
        segments.remove(0);
    } else if segments.first() == Some(&"super") {
        let mut module = module_of(file);
        while segments.first() == Some(&"super") {
            segments.remove(0);
            module.pop();
        }
        if let Some(top) = module.first() {
            return Some(top.clone());
        }
    } else if segments
        .first()
        .is_some_and(|first| local_module(file, first))
    {
        return None;
    }
    let first = segments.first()?;
    unit(first).map(|(u, _)| u.trim_end_matches(".rs").to_string())
}

/// The unit a file belongs to.
fn unit_of(file: &Path) -> (&'static str, u8) {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel.iter().next().unwrap().to_str().unwrap();
    unit(first.trim_end_matches(".rs"))
        .unwrap_or_else(|| panic!("{}: in no unit of RANKS", rel.display()))
}

/// Every arrow against the layers in the product text of `file`.
fn violations(file: &Path, text: &str) -> Vec<String> {
    let (own_unit, own) = unit_of(file);
    let own_name = own_unit.trim_end_matches(".rs");
    let rel = file.strip_prefix(src()).unwrap().display().to_string();
    let mut out = Vec::new();
    for (other, after) in named(&code_of(text)) {
        if let Some((_, theirs)) = unit(&other) {
            if other != own_name && theirs >= own {
                let after = after.lines().next().unwrap_or("");
                out.push(format!("{rel}: names crate::{other}{after}"));
            }
        }
    }
    for doc in docs_of(text) {
        for target in link_targets(&doc) {
            if let Some(other) = link_unit(file, &target) {
                let theirs = unit(&other).unwrap().1;
                if other != own_name && theirs >= own {
                    out.push(format!("{rel}: a doc link to {target}"));
                }
            }
        }
    }
    out
}

#[test]
fn no_unit_names_a_higher_one() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut seen = Vec::new();
    let mut found = Vec::new();
    for file in &files {
        let (unit, _) = unit_of(file);
        if !seen.contains(&unit) {
            seen.push(unit);
        }
        found.extend(violations(file, &product_text(file)));
    }
    for (unit, _) in RANKS {
        assert!(seen.contains(&unit), "{unit}: no sources");
    }
    assert!(
        found.is_empty(),
        "arrows against the layers:\n{}",
        found.join("\n")
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
    let dir = src().join("static_game");
    let checker = code_of(&product_text(&dir.join("check.rs")));
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

/// The check itself: it sees an arrow against the layers, in code and in
/// doc links, and leaves comments, plain text and local names alone.
#[test]
fn the_check_sees_violations() {
    let found = named("use crate::heuristic::Heuristic;\nlet x = crate::tree::format::read(b);");
    assert_eq!(found[0].0, "heuristic");
    assert_eq!(found[1].0, "tree");

    let model = src().join("model/objective.rs");
    let tree = src().join("tree/format/shape.rs");
    let play = src().join("play/player.rs");
    let arrows = |file: &Path, text: &str| violations(file, text).len();
    // Code: up is an arrow, down is not; comments are not code.
    assert_eq!(arrows(&model, "use crate::search::Cost;\n"), 1);
    assert_eq!(arrows(&tree, "use crate::heuristic::Heuristic;\n"), 1);
    assert_eq!(arrows(&tree, "use crate::model::Rules;\n"), 0);
    assert_eq!(arrows(&play, "use crate::search::solve;\n"), 0);
    assert_eq!(arrows(&model, "// crate::search::Cost\n"), 0);
    // Peers name neither each other.
    let heuristic = src().join("heuristic/mod.rs");
    assert_eq!(arrows(&heuristic, "use crate::search::Config;\n"), 1);
    // A tool names no folder.
    let observe = src().join("observe.rs");
    assert_eq!(arrows(&observe, "use crate::search::Outcome;\n"), 1);
    // Doc links, in every form, are arrows too; text in backquotes is not.
    for doc in [
        "//! turns it into costs ([`crate::search::bound::Cost`]).\n",
        "/// see [`search`].\n",
        "/// see [`search::Config`].\n",
        "/// see [the search](crate::search).\n",
        "/// see [the search](mod@crate::search).\n",
        "/// see [Cost].\n///\n/// [Cost]: crate::search::Cost\n",
    ] {
        assert_eq!(arrows(&model, doc), 1, "{doc}");
    }
    assert_eq!(arrows(&model, "/// the search (`crate::search`).\n"), 0);
    assert_eq!(
        arrows(&model, "/// [`Rules`] and [`crate::model::Game`]\n"),
        0
    );
    assert_eq!(arrows(&model, "/// ```\n/// [`search`]\n/// ```\n"), 0);
    assert_eq!(arrows(&model, "/// <https://example.com/search>\n"), 0);
    // `super::` climbs out of the folder; a module beside the file named
    // like a unit is local (static_game::search).
    let packed = src().join("model/shape/packed.rs");
    assert_eq!(arrows(&packed, "/// [`super::counted`]\n"), 0);
    let check = src().join("static_game/check.rs");
    assert_eq!(arrows(&check, "/// [`search`] and [`super::search`]\n"), 0);
    assert_eq!(arrows(&check, "/// [`crate::search`]\n"), 0);
    assert_eq!(arrows(&tree, "/// [`crate::search`]\n"), 1);
}

/// The library folder by folder, as docs/architecture.md draws it.
fn architecture() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_architecture_doc_is_true() {
    let doc = architecture();
    // The order of the layers, as RANKS has it.
    let mut ranks: Vec<Vec<&str>> = Vec::new();
    for (unit, rank) in RANKS {
        if unit == "lib.rs" {
            continue;
        }
        let name = unit.trim_end_matches(".rs");
        match ranks.get_mut(rank as usize) {
            Some(level) => level.push(name),
            None => ranks.push(vec![name]),
        }
    }
    let order = ranks
        .iter()
        .map(|level| level.join(" | "))
        .collect::<Vec<_>>()
        .join("  →  ");
    assert!(
        doc.contains(&order),
        "docs/architecture.md does not draw the layers `{order}`"
    );
    // Every folder of the library (at any depth) and every file beside
    // the folders is named.
    let mut missing = Vec::new();
    let mut dirs = vec![src()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(src()).unwrap().display().to_string();
            if path.is_dir() {
                if !doc.contains(&format!("`{rel}/`")) {
                    missing.push(format!("`{rel}/`"));
                }
                dirs.push(path);
            } else if dir == src() && rel != "lib.rs" && !doc.contains(&format!("`{rel}`")) {
                missing.push(format!("`{rel}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name {}",
        missing.join(", ")
    );
    // Every folder its table of the library names is there.
    let table = doc
        .split("## The library, folder by folder")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the library's table");
    let mut stale = Vec::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let name = row[3..].split('`').next().unwrap();
        if !src().join(name.trim_end_matches('/')).exists() {
            stale.push(name.to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "docs/architecture.md names what is not there: {}",
        stale.join(", ")
    );
}
