//! `--rules bulls-cows|black-peg|wordle`: the heuristics play every rule;
//! what is not proven for a rule yet is refused (exit code 2), naming it.

use optimoo::heuristic::{build_tree, Heuristic, StrategyConfig};
use optimoo::model::{AnswerRule, Game, Rules};

use crate::trees::run;
use crate::OPTIMOO;

fn eval_json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.lines().next().expect("a line")).unwrap()
}

#[test]
fn eval_plays_each_rule_as_the_library_does() {
    for (game, rule) in [
        ("mm:3x3", AnswerRule::Wordle),
        ("mm:3x3", AnswerRule::BlackPeg),
        ("moo:3x5", AnswerRule::Wordle),
    ] {
        let v = eval_json(&[
            "eval",
            "--game",
            game,
            "--rules",
            rule.name(),
            "--strategy",
            "minimax",
            "--json",
        ]);
        let rules = game.parse::<Rules>().unwrap().with_answer(rule).unwrap();
        let g = Game::new(rules);
        let tree = build_tree(&g, &StrategyConfig::new(Heuristic::Minimax)).unwrap();
        let stats = optimoo::tree::check::check(&g, &tree, None).unwrap();
        assert_eq!(v["total"].as_u64().unwrap(), stats.total, "{game} {rule}");
        assert_eq!(v["max_depth"].as_u64().unwrap(), stats.max_depth as u64);
    }
    // --rules bulls-cows is the default game.
    let plain = eval_json(&["eval", "--game", "mm:3x3", "--strategy", "irving", "--json"]);
    let named = eval_json(&[
        "eval",
        "--game",
        "mm:3x3",
        "--rules",
        "bulls-cows",
        "--strategy",
        "irving",
        "--json",
    ]);
    assert_eq!(plain["total"], named["total"]);
    assert_eq!(plain["histogram"], named["histogram"]);
}

#[test]
fn what_is_not_proven_for_a_rule_is_refused() {
    for (args, says) in [
        (
            &["solve", "--game", "mm:3x3", "--rules", "wordle"][..],
            "--rules wordle",
        ),
        (
            &["solve", "--game", "mm:2x3", "--rules", "black-peg"][..],
            "--rules black-peg",
        ),
        (
            &[
                "eval",
                "--game",
                "mm:3x3",
                "--rules",
                "wordle",
                "--strategy",
                "phased",
            ][..],
            "--rules wordle",
        ),
        (
            &["eval", "--game", "mm:6x2", "--rules", "wordle"][..],
            "at most 5 positions",
        ),
        (
            &["eval", "--game", "mm:3x3", "--rules", "dots"][..],
            "--rules",
        ),
    ] {
        let (code, out, err) = run(OPTIMOO, args, "");
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A tree file of a black-peg or Wordle game (a heuristic's, written by
/// the library) is verified under its rule by the independent checker; a
/// header that claims another total is caught.
#[test]
fn verify_checks_a_tree_file_under_its_rule() {
    use optimoo::model::Objective;
    use optimoo::tree::format::TreeFile;
    for rule in [AnswerRule::BlackPeg, AnswerRule::Wordle] {
        let rules = Rules::mm(3, 3).unwrap().with_answer(rule).unwrap();
        let game = Game::new(rules);
        let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Entropy)).unwrap();
        let file = TreeFile::new(&game, tree.clone(), Objective::Heuristic, None).unwrap();
        let path = crate::trees::scratch(&format!("rule-{rule}.tree"));
        std::fs::write(&path, file.to_bytes(&game).unwrap()).unwrap();
        let (code, out, err) = run(OPTIMOO, &["verify", path.to_str().unwrap()], "");
        assert_eq!(code, 0, "{rule}: {out} {err}");
        assert!(out.contains(&rules.to_string()), "{rule}: {out}");
        // The same file claiming more than the tree does: refused.
        let mut lie = file.clone();
        lie.header.stats.total += 1;
        std::fs::write(&path, lie.to_bytes(&game).unwrap()).unwrap();
        let (code, _, err) = run(OPTIMOO, &["verify", path.to_str().unwrap()], "");
        assert_ne!(code, 0, "{rule}: a lying header passes: {err}");
    }
}
