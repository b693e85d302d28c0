//! The README against the tool: every quick `optimoo` example's figures are
//! what it prints (test_support::readme_examples reads them from README.md),
//! and every subcommand takes `--version`, as the README says.

use crate::readme_examples::{check, examples, skipped};
use crate::trees::run;
use crate::OPTIMOO;

/// Examples not run by default, each with its reason (a pattern the
/// command contains, or `=COMMAND`, the command itself).
const SLOW: &[(&str, &str)] = &[
    ("=solve", "moo:4x10 solved: 4 to 9 s"),
    (
        "static --game mm:4x6",
        "6 guesses proven minimal: 2 minutes",
    ),
    (
        "--game mm:8x8",
        "a sample of 20,000 phased games: 2 minutes",
    ),
    (
        "--against data/moo-4x10-cap7.tree",
        "a moo:4x10 best response: 2 minutes",
    ),
    ("--game moo:5x10", "an 872 MiB table"),
    ("--cap-only", "moo:4x10's caps refuted: seconds"),
    ("nash --game mm:4x6", "the equilibrium: 20 s"),
    (
        "plan --game wordle",
        "Wordle's ten heuristic first words valued: 12 s",
    ),
];

#[test]
fn quick_examples_print_the_readme_figures() {
    check("optimoo", OPTIMOO, SLOW, 8);
}

#[test]
#[ignore = "the README's slow examples (minutes): run with --ignored"]
fn slow_examples_print_the_readme_figures() {
    let quick: Vec<(&str, &str)> = examples("optimoo")
        .iter()
        .filter(|e| !SLOW.iter().any(|(p, _)| skipped(&e.command, p)))
        .map(|e| {
            (
                Box::leak(format!("={}", e.command).into_boxed_str()) as &str,
                "quick",
            )
        })
        .collect();
    check("optimoo", OPTIMOO, &quick, 1);
}

#[test]
fn the_readme_figures_are_read() {
    // The reader itself: a comment's figures, less those of the command.
    let all = examples("optimoo");
    let mm = all
        .iter()
        .find(|e| e.command == "solve --game mm:4x6 --cap 5")
        .expect("the README's mm:4x6 cap 5 example");
    assert_eq!(mm.figures, ["5626"]);
    let duel = all
        .iter()
        .find(|e| e.command.starts_with("duel --rule first-wins --against"))
        .expect("the README's duel example");
    assert!(
        duel.figures.contains(&"17376691/25401600".to_string()),
        "{duel:?}"
    );
}

#[test]
fn every_subcommand_takes_version() {
    let (code, help, _) = run(OPTIMOO, &["--help"], "");
    assert_eq!(code, 0);
    let names: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .collect();
    assert!(names.len() >= 10, "{help}");
    for name in names {
        let (code, out, err) = run(OPTIMOO, &[name, "--version"], "");
        assert_eq!(code, 0, "optimoo {name} --version: {out}{err}");
        assert!(out.contains(env!("CARGO_PKG_VERSION")), "{name}: {out}");
    }
}
