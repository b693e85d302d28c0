//! The layout of `search/` by its sources: which file names which.
//!
//! Invariant checked: no two files name each other (through
//! `crate::search::` paths), but a module and the modules inside it.

/// No two files of `search/` name each other (through `crate::search::`
/// paths), but a module and the modules inside it: the searcher names the
/// node pool and the evaluation of a guess names the searcher, and not
/// the other way round (when the pool was in evaluate.rs, the two named
/// each other).
#[test]
fn no_two_search_files_name_each_other() {
    use std::collections::{BTreeMap, BTreeSet};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/search");
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(&dir).unwrap().with_extension("");
                let parts: Vec<String> = rel
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .filter(|p| p != "mod")
                    .collect();
                files.insert(parts.join("::"), std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let nested = |a: &str, b: &str| {
        a.is_empty() || b.is_empty() || a == b || {
            a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"))
        }
    };
    let mut names: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &files {
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for (at, _) in code.match_indices("crate::search::") {
            let path: Vec<&str> = code[at + "crate::search::".len()..]
                .split("::")
                .map_while(|p| {
                    let word: String = p
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    (!word.is_empty() && word.len() == p.len()).then_some(p)
                })
                .collect();
            let named = (1..=path.len())
                .rev()
                .map(|k| path[..k].join("::"))
                .find(|m| files.contains_key(m));
            if let Some(named) = named.filter(|n| !nested(module, n)) {
                names.entry(module.as_str()).or_default().insert(named);
            }
        }
    }
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for n in names.get(m.as_str()).into_iter().flatten() {
                if n == to {
                    return true;
                }
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        false
    };
    assert!(files.contains_key("searcher::evaluate") && files.contains_key("pool"));
    assert!(names["searcher::evaluate"].contains("pool") && names["searcher"].contains("pool"));
    for (module, named) in &names {
        for n in named {
            assert!(
                !reaches(n, module),
                "{module} names {n}, which names it back"
            );
        }
    }
}
