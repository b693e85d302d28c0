//! The workspace's sources keep the house rules a reader relies on: no
//! module is included from another folder by `#[path]` (the helpers the
//! test binaries share are the test-support crate), every `#[ignore]`
//! says why (`#[ignore = "reason"]`: `cargo test -- --ignored` lists it),
//! and no library file (crates/*/src) is over 1,000 lines.

use std::path::{Path, PathBuf};

/// Most lines a library source file may have.
const MAX_LIBRARY_LINES: usize = 1000;

/// The workspace's folder.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, build output and dot folders left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && name != "node_modules" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The workspace's Rust sources: src/, tests/ and crates/.
fn sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "crates"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "only {} sources found", files.len());
    files
}

/// The lines of `text` that hold `attribute` as code (a line that starts
/// with it, comments left out), as `FILE:LINE: text`.
fn attribute_lines(path: &Path, text: &str, found: impl Fn(&str) -> bool) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| found(line.trim_start()))
        .map(|(i, line)| {
            let file = path.strip_prefix(root()).unwrap().display();
            format!("{file}:{}: {}", i + 1, line.trim())
        })
        .collect()
}

/// Whether a line is a bare `#[ignore]` (no reason).
fn bare_ignore(line: &str) -> bool {
    line.starts_with("#[ignore]")
}

/// Whether a line includes a module from a path of its own choosing.
fn path_attribute(line: &str) -> bool {
    line.starts_with("#[path")
}

#[test]
fn the_rules_are_read_right() {
    // The scanners on lines they must and must not flag.
    assert!(bare_ignore("#[ignore]"));
    assert!(!bare_ignore("#[ignore = \"minutes\"]"));
    assert!(!bare_ignore("//! the `#[ignore]`d tests"));
    assert!(path_attribute("#[path = \"../x.rs\"]"));
    assert!(!path_attribute("// included by `#[path]`"));
}

#[test]
fn no_module_is_included_by_path() {
    let mut bad = Vec::new();
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        bad.extend(attribute_lines(&path, &text, path_attribute));
    }
    assert!(
        bad.is_empty(),
        "`#[path]` (a module of another folder):\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_ignored_test_says_why() {
    let mut bad = Vec::new();
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        bad.extend(attribute_lines(&path, &text, bare_ignore));
    }
    assert!(
        bad.is_empty(),
        "`#[ignore]` with no reason (write `#[ignore = \"why\"]`):\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_library_file_is_over_a_thousand_lines() {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    assert!(files.len() > 50, "only {} library files found", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            (lines > MAX_LIBRARY_LINES).then(|| {
                let file = path.strip_prefix(root()).unwrap().display();
                format!("{file}: {lines} lines")
            })
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LIBRARY_LINES} lines (split by what the parts do):\n{}",
        long.join("\n")
    );
}
