//! Embeds the minimal-total trees of data/ in the `moo` binary.
//!
//! Writes `$OUT_DIR/shipped_trees.rs`, items for `main.rs` to include:
//! `SHIPPED`, every data/*.tree whose header claims objective average (the
//! fewest guesses in all; byte 12 of the file, docs/format.md) over every
//! code of its game (no secret list: flag 4 of byte 11 clear) or over a
//! word-list game's answers (a code list, flag 32: `--game wordle`'s
//! trees, proved optimal or an upper bound with exact subtrees), by file
//! name, which `moo --game G` chooses from; and `EMBEDDED`,
//! `Some(the bytes of data/moo-4x10-cap7.tree)` when that file is present
//! at build time, else `None` (the `moo` binary then asks for `--tree
//! FILE`). Crush, worst and heuristic trees and the trees of a secret
//! list given by a file (words4.tree) are left out: `--game` never picks
//! them, and the binary stays under its 1.5 MiB.
//! Watching the data/ directory (not the files, which may not exist)
//! reruns this when a file appears.
//!
//! Also `BOOKS`: the text of every data/*.book (the phased strategy's
//! opening books, `optimoo export --format book`), which `moo --game G`
//! looks up on games of more than 65,535 codes.
//!
//! And `DUELS`: the equilibria of the two-player challenge in data/duel/
//! (each folder's duel.json, written by `optimoo duel -o DIR`), one entry
//! per tree: game, rule, seat, weight ("p/q") and the tree's bytes, which
//! `moo duel` draws from.

use std::path::PathBuf;

/// The standard game's tree, played without --tree and --game.
const STANDARD: &str = "moo-4x10-cap7.tree";

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let data = dir.join("..").join("..").join("data");
    println!("cargo::rerun-if-changed={}", data.display());
    println!("cargo::rerun-if-changed=build.rs");
    let trees = files(&data, "tree");
    let mut items = String::new();
    let mut names = Vec::new();
    let mut embedded = "None".to_string();
    for path in &trees {
        println!("cargo::rerun-if-changed={}", path.display());
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        // Objective average (byte 12), over every code (flag bit 2 clear)
        // or a preset's word lists (flag bit 5: a code list, whose secret
        // list the preset names; upper-bound trees, flag bit 3, included).
        let average_of_a_game =
            bytes.len() > 12 && (bytes[11] & 4 == 0 || bytes[11] & 32 != 0) && bytes[12] == 0;
        if !average_of_a_game {
            continue;
        }
        let name = path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        let item = format!("TREE_{}", names.len());
        items += &format!(
            "static {item}: &[u8] = include_bytes!({:?});\n",
            path.display().to_string()
        );
        if name == STANDARD {
            embedded = format!("Some({item})");
        }
        names.push(format!("({name:?}, {item})"));
    }
    items += &format!(
        "/// The tree embedded at build time, if data/{STANDARD} existed.\n\
         const EMBEDDED: Option<&[u8]> = {embedded};\n\
         /// The minimal-total trees of data/ at build time, by file name (`--game`).\n\
         const SHIPPED: &[(&str, &[u8])] = &[{}];\n",
        names.join(", ")
    );
    items += &books(&data);
    items += &duels(&data.join("duel"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("shipped_trees.rs"), items).expect("OUT_DIR is writable");
}

/// The files of `dir` named `*.EXT`, in name order (none if `dir` is
/// missing).
fn files(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

/// The `BOOKS` item: every data/*.book, in file name order.
fn books(data: &std::path::Path) -> String {
    let paths = files(data, "book");
    let rows: Vec<String> = paths
        .iter()
        .map(|p| {
            println!("cargo::rerun-if-changed={}", p.display());
            format!("include_str!({:?})", p.display().to_string())
        })
        .collect();
    format!(
        "/// The opening books of data/ at build time.\n\
         const BOOKS: &[&str] = &[{}];\n",
        rows.join(", ")
    )
}

/// The `DUELS` item: every tree of every data/duel/*/duel.json.
fn duels(dir: &std::path::Path) -> String {
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("duel.json").is_file())
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    let mut rows = Vec::new();
    for folder in folders {
        let json = folder.join("duel.json");
        println!("cargo::rerun-if-changed={}", json.display());
        let text = std::fs::read_to_string(&json).expect("a readable duel.json");
        let file: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
        let field = |v: &serde_json::Value, k: &str| -> String {
            v[k].as_str()
                .unwrap_or_else(|| panic!("{}: no {k}", json.display()))
                .to_string()
        };
        for seat in ["first", "second"] {
            for entry in file[seat].as_array().into_iter().flatten() {
                let tree = folder.join(field(entry, "tree"));
                println!("cargo::rerun-if-changed={}", tree.display());
                rows.push(format!(
                    "({:?}, {:?}, {seat:?}, {:?}, include_bytes!({:?}))",
                    field(&file, "game"),
                    field(&file, "rule"),
                    field(entry, "weight"),
                    tree.display().to_string()
                ));
            }
        }
    }
    format!(
        "/// The equilibria of data/duel/ at build time: (game, rule, seat, weight, tree).\n\
         const DUELS: &[(&str, &str, &str, &str, &[u8])] = &[{}];\n",
        rows.join(", ")
    )
}
