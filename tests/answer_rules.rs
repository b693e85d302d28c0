//! `--rules bulls-cows|black-peg|wordle`: the heuristics and the exact
//! search (`solve`) play every rule; what is not proven for a rule yet is
//! refused (exit code 2), naming it.

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
            &[
                "solve",
                "--game",
                "mm:3x3",
                "--rules",
                "wordle",
                "--checkpoint",
                "/nonexistent/optimoo-ck",
            ][..],
            "--rules wordle with --checkpoint",
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

/// Least total guesses for `set` within `d` guesses, every code tried at
/// every node (the model's answers, nothing of the search): a plain
/// recursion for small games, remembering the sets it solved.
fn brute(game: &Game, set: &[optimoo::model::Code], d: usize) -> u64 {
    brute_in(
        game,
        set,
        d.min(set.len() + 1),
        &mut std::collections::HashMap::new(),
    )
}

type Seen = std::collections::HashMap<(Vec<optimoo::model::Code>, usize), u64>;

fn brute_in(game: &Game, set: &[optimoo::model::Code], d: usize, seen: &mut Seen) -> u64 {
    const INF: u64 = u64::MAX / 4;
    if set.is_empty() {
        return 0;
    }
    if d == 0 {
        return INF;
    }
    if set.len() == 1 {
        return 1;
    }
    let d = d.min(set.len() + 1);
    if let Some(&v) = seen.get(&(set.to_vec(), d)) {
        return v;
    }
    let mut best = INF;
    for g in game.codes().all() {
        let classes = optimoo::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue;
        }
        let mut total = set.len() as u64;
        for (f, c) in &classes {
            if *f != game.win() {
                total = total.saturating_add(brute_in(game, c, d - 1, seen));
            }
        }
        best = best.min(total);
    }
    seen.insert((set.to_vec(), d), best);
    best
}

/// `optimoo solve --rules` on black-peg and Wordle games, whole and with
/// a word list: the optimum is brute force's, under a cap too; the tree
/// file records the rule and passes `verify`; worst proves the smallest
/// cap brute force allows, crush keeps the total at least the optimum.
#[test]
fn solve_finds_brute_force_optimum_under_each_rule() {
    let words = crate::trees::scratch("rules-words.txt");
    std::fs::write(&words, "abba\nbaca\ncabd\ndcab\nadda\nbbcd\ncdcd\nacdb\n").unwrap();
    let words = words.to_str().unwrap().to_string();
    for (rule, game_args) in [
        ("black-peg", vec!["--game", "mm:3x3"]),
        ("wordle", vec!["--game", "mm:3x3"]),
        ("wordle", vec!["--game", "moo:3x4"]),
        ("wordle", vec!["--secrets", &words, "--alphabet", "abcd"]),
        ("black-peg", vec!["--secrets", &words, "--alphabet", "abcd"]),
    ] {
        let tree = crate::trees::scratch(&format!("rules-{rule}.tree"));
        let tree = tree.to_str().unwrap();
        let mut args = vec!["solve", "--rules", rule, "--json", "-o", tree];
        args.extend(&game_args);
        let v = eval_json(&args);
        // The same game through the library, for brute force.
        let rules: Rules = v["game"]
            .as_str()
            .unwrap()
            .split([',', '/'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let rules = rules.with_answer(rule.parse().unwrap()).unwrap();
        let game = if game_args[0] == "--secrets" {
            // Letters a, b, c, d are symbols 0 to 3.
            let codes = std::fs::read_to_string(&words)
                .unwrap()
                .lines()
                .map(|w| {
                    let digits: String = w.bytes().map(|b| char::from(b - b'a' + b'0')).collect();
                    Game::new(rules).codes().parse(&digits).unwrap()
                })
                .collect();
            let set = optimoo::model::secrets::SecretSet::new(
                codes,
                optimoo::model::secrets::GuessMode::All,
                None,
                "words".into(),
            );
            Game::with_secrets(rules, set.unwrap())
        } else {
            Game::new(rules)
        };
        let secrets = game.secrets();
        let n = secrets.len();
        let optimum = brute(&game, &secrets, n + 1);
        assert_eq!(
            v["total"].as_u64().unwrap(),
            optimum,
            "{rule} {game_args:?}"
        );
        let (code, out, err) = run(OPTIMOO, &["verify", tree], "");
        assert_eq!(code, 0, "{rule}: {out} {err}");
        assert!(out.contains(&format!("/{rule}")), "{out}");
        // Under a cap of one less than the free tree's depth, if any strategy meets it.
        let depth = v["max_depth"].as_u64().unwrap() as usize;
        let capped = brute(&game, &secrets, depth - 1);
        let cap = (depth - 1).to_string();
        let mut args = vec!["solve", "--rules", rule, "--cap", &cap];
        args.extend(&game_args);
        let (code, out, err) = run(OPTIMOO, &args, "");
        if capped >= u64::MAX / 4 {
            assert_eq!(code, 1, "{rule} cap {cap}: {out} {err}");
        } else {
            assert_eq!(code, 0, "{rule} cap {cap}: {err}");
            assert!(out.contains(&format!("total      {capped}")), "{out}");
        }
        // Worst: the smallest cap brute force meets; crush within it.
        let min_cap = (1..=n)
            .find(|&d| brute(&game, &secrets, d) < u64::MAX / 4)
            .unwrap();
        for objective in ["worst", "crush"] {
            let mut args = vec!["solve", "--rules", rule, "--objective", objective, "--json"];
            args.extend(&game_args);
            let w = eval_json(&args);
            assert_eq!(
                w["min_cap"].as_u64().unwrap() as usize,
                min_cap,
                "{rule} {objective}"
            );
            let total = w["total"].as_u64().unwrap();
            let least = brute(&game, &secrets, min_cap);
            // Worst: the least total within the cap; crush: fewest at the
            // cap first, so no less.
            if objective == "worst" {
                assert_eq!(total, least, "{rule} {objective}");
            } else {
                assert!(total >= least, "{rule} {objective}");
            }
        }
    }
}

/// `--guesses consistent`: a rule of the game, solved under every answer
/// rule (no better than without the rule, no worse than a heuristic that
/// guesses candidates; brute force is the library's test: search/
/// sweep_tests.rs), recorded in the tree file (its game
/// reads back `/consistent`, and `verify` checks every guess is a
/// candidate), played by eval's heuristics; `--guesses all|secrets`
/// without `--secrets` is refused (exit code 2).
#[test]
fn consistent_guesses_are_solved_recorded_and_verified() {
    for rule in ["bulls-cows", "black-peg", "wordle"] {
        let tree = crate::trees::scratch(&format!("consistent-{rule}.tree"));
        let tree = tree.to_str().unwrap();
        let args = [
            "solve",
            "--game",
            "mm:3x3",
            "--rules",
            rule,
            "--guesses",
            "consistent",
            "--json",
            "-o",
            tree,
        ];
        let v = eval_json(&args);
        assert!(v["game"].as_str().unwrap().ends_with("/consistent"), "{v}");
        let bytes = std::fs::read(tree).unwrap();
        let header = optimoo::tree::format::Header::peek(&bytes).unwrap();
        assert_eq!(
            header.rules.guesses(),
            optimoo::model::GuessRule::Consistent
        );
        assert_eq!(header.rules.answer().name(), rule);
        let (code, out, err) = run(OPTIMOO, &["verify", tree], "");
        assert_eq!(code, 0, "{rule}: {out} {err}");
        // Consistent play costs at least the unrestricted optimum.
        let free = eval_json(&["solve", "--game", "mm:3x3", "--rules", rule, "--json"]);
        assert!(v["total"].as_u64() >= free["total"].as_u64(), "{rule}");
        // The heuristics play candidates only under the rule.
        let h = eval_json(&[
            "eval",
            "--game",
            "mm:3x3",
            "--rules",
            rule,
            "--guesses",
            "consistent",
            "--strategy",
            "minimax",
            "--json",
        ]);
        assert!(
            h["total"].as_u64() >= v["total"].as_u64(),
            "{rule}: a heuristic beats it"
        );
    }
    for bad in ["all", "secrets"] {
        let (code, _, err) = run(
            OPTIMOO,
            &["solve", "--game", "mm:3x3", "--guesses", bad],
            "",
        );
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--guesses"), "{err}");
    }
}

/// `--hard`: Wordle's hard mode solved, recorded in the tree file (the
/// game reads back `/hard`) and verified; never better than normal mode;
/// refused with another rule, with consistent guesses, with another
/// objective (exit code 2, naming --hard).
#[test]
fn hard_mode_is_solved_recorded_and_refused_where_not_done() {
    let tree = crate::trees::scratch("hard.tree");
    let tree = tree.to_str().unwrap();
    let game = ["--game", "mm:4x3", "--rules", "wordle"];
    let mut args = vec!["solve", "--hard", "--json", "-o", tree];
    args.extend(game);
    let v = eval_json(&args);
    assert!(v["game"].as_str().unwrap().ends_with("/wordle/hard"), "{v}");
    let header = optimoo::tree::format::Header::peek(&std::fs::read(tree).unwrap()).unwrap();
    assert_eq!(header.rules.guesses(), optimoo::model::GuessRule::Hard);
    let (code, out, err) = run(OPTIMOO, &["verify", tree], "");
    assert_eq!(code, 0, "{out} {err}");
    let mut args = vec!["solve", "--json"];
    args.extend(game);
    let free = eval_json(&args);
    assert!(v["total"].as_u64() >= free["total"].as_u64());
    for bad in [
        &["solve", "--game", "mm:3x3", "--hard"][..],
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--rules",
            "wordle",
            "--hard",
            "--guesses",
            "consistent",
        ],
        &[
            "solve",
            "--game",
            "mm:3x3",
            "--rules",
            "wordle",
            "--hard",
            "--objective",
            "worst",
        ],
    ] {
        let (code, _, err) = run(OPTIMOO, bad, "");
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.contains("--hard"), "{bad:?}: {err}");
    }
}
