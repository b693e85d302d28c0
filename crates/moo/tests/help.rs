//! `moo -h` is the short help, `moo --help` the long one with the rules
//! and examples (of every subcommand), for the player and each
//! subcommand; the list of
//! subcommands gives each one line; every example works
//! (test_support::help).

use test_support::help::{help, run_examples, short_and_long, subcommands};
use test_support::trees::scratch;

use crate::MOO;

/// The subcommands `moo -h` lists (`help` left out).
fn names() -> Vec<String> {
    let listed = subcommands(&help(MOO, &[], "-h"));
    assert!(listed.len() >= 7, "{listed:?}");
    listed
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn short_and_long_help_of_moo_and_its_subcommands() {
    // The examples are those of `moo --help`, one or more a subcommand
    // (the subcommands' own would cost the player bytes).
    let examples = short_and_long(MOO, &[]);
    for name in names() {
        short_and_long(MOO, &[&name]);
        let pattern = format!(" {name}");
        assert!(
            name == "play" || examples.iter().any(|e| e.contains(&pattern)),
            "no example of moo {name}: {examples:?}"
        );
    }
    // The rules are in the long help alone.
    let rule = "A (bulls) counts the symbols that are right";
    assert!(help(MOO, &[], "--help").contains(rule));
    assert!(!help(MOO, &[], "-h").contains(rule));
}

#[test]
fn the_examples_of_every_help_work() {
    let mut all = vec![(String::new(), help(MOO, &[], "--help"))];
    for name in names() {
        let long = help(MOO, &[&name], "--help");
        all.push((name, long));
    }
    for (name, long) in all {
        let examples = test_support::help::examples(&long);
        let dir = scratch(&format!("help-{name}"));
        run_examples("moo", MOO, &examples, &dir);
        let _ = std::fs::remove_dir_all(dir);
    }
}
