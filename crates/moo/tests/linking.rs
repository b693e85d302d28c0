//! The player is tiny: it links the library crate alone, no thread pool and
//! no progress bar (docs/architecture.md).

/// Packages `moo` links (normal dependencies, all depths), from `cargo tree`.
fn linked() -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .args(["tree", "-e", "normal", "-p", "moo", "--prefix", "none"])
        .args(["--offline", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn moo_links_neither_rayon_nor_indicatif() {
    let packages = linked();
    assert!(packages.iter().any(|p| p == "optimoo"), "{packages:?}");
    for banned in [
        "rayon",
        "rayon-core",
        "indicatif",
        "optimoo-cli",
        "tempfile",
    ] {
        assert!(
            !packages.iter().any(|p| p == banned),
            "moo links {banned}: {packages:?}"
        );
    }
}
