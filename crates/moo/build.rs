//! Embeds the minimal-total trees of data/ in the `moo` binary.
//!
//! Writes `$OUT_DIR/shipped_trees.rs`, items for `main.rs` to include:
//! `SHIPPED`, every data/*.tree whose header claims objective average (the
//! fewest guesses in all; byte 12 of the file, docs/format.md) over every
//! code of its game (no secret list: flag 4 of byte 11 clear), by file
//! name, which `moo --game G` chooses from; `WORD_TREES`, those over a
//! word-list game's answers (a code list, flag 32: `--game wordle`'s
//! trees, proved optimal or upper bounds with exact subtrees), each cut
//! around its code list so that trees of one list share it (`main.rs`
//! puts the bytes back together: the file's checksum checks them); and
//! `EMBEDDED`,
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
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let (mut words, mut lists) = (Vec::new(), Vec::<Vec<u8>>::new());
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
        if bytes[11] & 32 != 0 {
            words.push(split_word_tree(&name, &bytes, &mut lists, &out));
            continue;
        }
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
    for (i, _) in lists.iter().enumerate() {
        items += &format!(
            "static LIST_{i}: &[u8] = include_bytes!({:?});\n",
            out.join(format!("list-{i}.bin")).display().to_string()
        );
    }
    items += &format!(
        "/// The trees of word-list games in data/ at build time, by file name:\n\
         /// (name, the bytes before the code list's words, the words, the bytes\n\
         /// after them), the words shared by the trees of one list.\n\
         type WordTree = (&'static str, &'static [u8], &'static [u8], &'static [u8]);\n\
         const WORD_TREES: &[WordTree] = &[{}];\n",
        words.join(", ")
    );
    items += &books(&data);
    items += &duels(&data.join("duel"));
    std::fs::write(out.join("shipped_trees.rs"), items).expect("OUT_DIR is writable");
}

/// A varint's end in `bytes` from `at` (docs/format.md: LEB128).
fn varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = bytes[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            break;
        }
    }
    v
}

/// A tree of a word-list game (flag bit 5) cut in three around its code
/// list's words and alphabet (docs/format.md, "Code list": the count, the
/// codes, the alphabet; the list's name stays in the file's own bytes):
/// Wordle's 12,972 words take 17 KB of each 21 KB tree, and the trees of
/// `wordle` and `wordle-nyt` hold the same words, embedded once. Writes
/// the parts to `out` and returns the `WORD_TREES` row.
fn split_word_tree(
    name: &str,
    bytes: &[u8],
    lists: &mut Vec<Vec<u8>>,
    out: &std::path::Path,
) -> String {
    // The fixed header (13 bytes), the rule byte (flag bit 4), then cap,
    // total, max depth D and D counts.
    let mut at = 13 + usize::from(bytes[11] & 16 != 0);
    varint(bytes, &mut at);
    varint(bytes, &mut at);
    let depth = varint(bytes, &mut at);
    for _ in 0..depth {
        varint(bytes, &mut at);
    }
    let start = at;
    let count = varint(bytes, &mut at);
    for _ in 0..count {
        varint(bytes, &mut at);
    }
    let alphabet = varint(bytes, &mut at) as usize;
    at += alphabet;
    let list = bytes[start..at].to_vec();
    let index = match lists.iter().position(|l| *l == list) {
        Some(i) => i,
        None => {
            std::fs::write(out.join(format!("list-{}.bin", lists.len())), &list)
                .expect("OUT_DIR is writable");
            lists.push(list);
            lists.len() - 1
        }
    };
    let stem = name.trim_end_matches(".tree");
    let (before, after) = (
        out.join(format!("{stem}-before.bin")),
        out.join(format!("{stem}-after.bin")),
    );
    std::fs::write(&before, &bytes[..start]).expect("OUT_DIR is writable");
    std::fs::write(&after, &bytes[at..]).expect("OUT_DIR is writable");
    format!(
        "({name:?}, include_bytes!({:?}), LIST_{index}, include_bytes!({:?}))",
        before.display().to_string(),
        after.display().to_string()
    )
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
