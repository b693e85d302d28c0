//! The README against the player: every quick `moo` example's figures
//! are what it prints (read from README.md by test_support::readme_examples),
//! and every subcommand takes `--version`, as the README says.

use crate::readme_examples::check;
use crate::trees::run;
use crate::MOO;

/// Examples not run, each with its reason (see `readme_examples::skipped`).
const SKIP: &[(&str, &str)] = &[
    (
        "--budget 30",
        "the figures are the options' (30 s, default 2)",
    ),
    ("host", "interactive"),
];

#[test]
fn quick_examples_print_the_readme_figures() {
    check("moo", MOO, SKIP, 2);
}

#[test]
fn every_subcommand_takes_version() {
    let (code, help, _) = run(MOO, &["--help"], "");
    assert_eq!(code, 0);
    let names: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .collect();
    assert!(names.len() >= 5, "{help}");
    for name in names {
        let (code, out, err) = run(MOO, &[name, "--version"], "");
        assert_eq!(code, 0, "moo {name} --version: {out}{err}");
        assert!(out.contains(env!("CARGO_PKG_VERSION")), "{name}: {out}");
    }
}
