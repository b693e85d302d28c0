//! Embeds the optimal MOO tree in the `moo` binary when the file exists.
//!
//! Writes `$OUT_DIR/embedded_tree.rs`: an expression of type
//! `Option<&'static [u8]>`, `Some(include_bytes!(...))` when
//! data/moo-4x10-cap7.tree (at the top of the workspace) is present at build time, else `None` (the `moo`
//! binary then asks for `--tree FILE`). Watching the data/ directory (not
//! the file, which may not exist) reruns this when the file appears.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let data = dir.join("..").join("..").join("data");
    let tree = data.join("moo-4x10-cap7.tree");
    println!("cargo::rerun-if-changed={}", data.display());
    println!("cargo::rerun-if-changed=build.rs");
    let expr = if tree.is_file() {
        format!("Some(include_bytes!({:?}))", tree.display().to_string())
    } else {
        "None".to_string()
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("embedded_tree.rs"), expr).expect("OUT_DIR is writable");
}
