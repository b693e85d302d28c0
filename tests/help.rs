//! `optimoo -h` is the short help, `optimoo --help` the long one with
//! examples, for the command and every subcommand; the list of
//! subcommands gives each one line; every example works
//! (test_support::help).

use test_support::help::{help, run_examples, short_and_long, subcommands};
use test_support::trees::scratch;

use crate::OPTIMOO;

/// The subcommands `optimoo -h` lists (`help` left out).
fn names() -> Vec<String> {
    let listed = subcommands(&help(OPTIMOO, &[], "-h"));
    assert!(listed.len() >= 13, "{listed:?}");
    listed
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn short_and_long_help_of_optimoo_and_its_subcommands() {
    let top = short_and_long(OPTIMOO, &[]);
    assert!(
        top.iter().any(|e| e.starts_with("optimoo solve")),
        "{top:?}"
    );
    for name in names() {
        let examples = short_and_long(OPTIMOO, &[&name]);
        assert!(!examples.is_empty(), "optimoo {name} --help: no examples");
    }
    // The long help of solve says what -h leaves out.
    let short = help(OPTIMOO, &["solve"], "-h");
    let long = help(OPTIMOO, &["solve"], "--help");
    for said in ["Objectives:", "optimoo solve --game mm:4x6 --cap 5"] {
        assert!(
            long.contains(said) && !short.contains(said),
            "{said}: {short}"
        );
    }
}

#[test]
fn the_examples_of_every_help_work() {
    let mut all = vec![(String::new(), help(OPTIMOO, &[], "--help"))];
    for name in names() {
        let long = help(OPTIMOO, &[&name], "--help");
        all.push((name, long));
    }
    for (name, long) in all {
        let examples = test_support::help::examples(&long);
        let dir = scratch(&format!("help-{name}"));
        run_examples("optimoo", OPTIMOO, &examples, &dir);
        let _ = std::fs::remove_dir_all(dir);
    }
}
