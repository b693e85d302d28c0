//! The `moo` binary: one-shot answers, scripted games, contradictions,
//! moves off the tree.

use optimoo::model::{Code, Feedback, Game};
use optimoo::tree::Tree;

use crate::trees::{first_consistent_file, run};
use crate::MOO;

fn fmt_moves(game: &Game, moves: &[(Code, Feedback)]) -> Vec<String> {
    moves
        .iter()
        .map(|&(g, f)| format!("{}:{}", game.format_code(g), game.format_feedback(f)))
        .collect()
}

fn setup(rules: &str, name: &str) -> (Game, Tree, String) {
    let game = Game::new(rules.parse().unwrap());
    let (tree, path) = first_consistent_file(&game, name);
    (game, tree, path.to_str().unwrap().to_string())
}

#[test]
fn next_follows_the_tree() {
    let (game, tree, path) = setup("moo:3x5", "p-next.tree");
    for secret in game.codes().all() {
        let moves = tree.play(&game, secret).unwrap();
        for i in 0..moves.len() {
            let mut args = vec!["--tree", &path, "next"];
            let history = fmt_moves(&game, &moves[..i]);
            args.extend(history.iter().map(|s| s.as_str()));
            let (code, out, err) = run(MOO, &args, "");
            assert_eq!(code, 0, "{err}");
            let first = out.split_whitespace().next().unwrap();
            assert_eq!(first, game.format_code(moves[i].0), "{out}");
            assert!(
                out.contains("from the tree") || out.contains("only secret"),
                "{out}"
            );
        }
    }
}

#[test]
fn next_refuses_contradictions_and_bad_input() {
    let (_, _, path) = setup("moo:3x5", "p-contra.tree");
    let (code, out, err) = run(MOO, &["--tree", &path, "next", "012:1A0B", "012:0A2B"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty());
    assert!(err.contains("contradicts"), "{err}");
    let (code, _, err) = run(MOO, &["--tree", &path, "next", "012:3A1B"], "");
    assert_eq!(code, 2);
    assert!(err.contains("impossible"), "{err}");
    let (code, out, err) = run(MOO, &["--tree", &path, "next", "012:3A0B"], "");
    assert_eq!(code, 0, "a won game is done");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("game is won"), "{err}");
    let (code, _, err) = run(MOO, &["--tree", "/nonexistent/x.tree", "next"], "");
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.tree"), "{err}");
}

#[test]
fn next_off_the_tree_uses_the_candidates() {
    let (game, tree, path) = setup("moo:3x5", "p-off.tree");
    // The first-consistent tree opens with 012; open with 340 instead.
    assert_eq!(game.format_code(tree.root.guess), "012");
    for answer in ["0A1B", "1A1B", "0A3B", "2A0B"] {
        let (code, out, err) = run(
            MOO,
            &["--tree", &path, "next", &format!("340:{answer}")],
            "",
        );
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("off the tree") || out.contains("only secret"),
            "{out}"
        );
        let guess = game
            .parse_code(out.split_whitespace().next().unwrap())
            .unwrap();
        // A sensible guess: it wins or splits the secrets left.
        let f = game.parse_feedback(answer).unwrap();
        let left: Vec<Code> = game
            .codes()
            .all()
            .filter(|&s| game.feedback(s, game.parse_code("340").unwrap()) == f)
            .collect();
        let splits = optimoo::model::partition::split(&game, guess, &left).len() > 1;
        assert!(left.contains(&guess) || splits, "{out}");
    }
}

#[test]
fn solve_shows_the_trees_game() {
    let (game, tree, path) = setup("mm:3x3", "p-solve.tree");
    for secret in game.codes().all() {
        let text = game.format_code(secret);
        let (code, out, _) = run(MOO, &["--tree", &path, "solve", &text], "");
        assert_eq!(code, 0);
        let want: Vec<String> = tree
            .play(&game, secret)
            .unwrap()
            .iter()
            .map(|&(g, f)| format!("{} {}", game.format_code(g), game.format_feedback(f)))
            .collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
    }
}

/// Each secret's answers piped in: stdout holds exactly the tree's guesses.
#[test]
fn scripted_games_print_only_guesses_on_stdout() {
    let (game, tree, path) = setup("moo:3x4", "p-play.tree");
    for secret in game.codes().all() {
        let moves = tree.play(&game, secret).unwrap();
        let answers: String = moves
            .iter()
            .map(|&(_, f)| format!("{}\n", game.format_feedback(f)))
            .collect();
        let (code, out, err) = run(MOO, &["--tree", &path], &answers);
        assert_eq!(code, 0, "{err}");
        let guesses: Vec<String> = moves.iter().map(|&(g, _)| game.format_code(g)).collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), guesses, "{err}");
        assert!(
            err.contains(&format!("Solved in {} guess", moves.len())),
            "{err}"
        );
    }
}

#[test]
fn undo_contradiction_and_bad_answers() {
    let (game, tree, path) = setup("moo:3x5", "p-undo.tree");
    let secret = game.parse_code("432").unwrap();
    let moves = tree.play(&game, secret).unwrap();
    let f = |i: usize| game.format_feedback(moves[i].1);
    let g = |i: usize| game.format_code(moves[i].0);
    // A wrong first answer taken back; a bad answer; an impossible one.
    let wrong = if f(0) == "0A3B" { "1A0B" } else { "0A3B" };
    let input = format!("{wrong}\nundo\n9A9B\n3A1B\n{}\nleft\n", f(0))
        + &(1..moves.len())
            .map(|i| format!("{}\n", f(i)))
            .collect::<String>();
    let (code, out, err) = run(MOO, &["--tree", &path], &input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Guess 1, the guess after the wrong answer, guess 1 again, then the rest.
    assert_eq!(lines[0], g(0));
    assert_eq!(lines[2], g(0));
    assert_eq!(&lines[3..], (1..moves.len()).map(g).collect::<Vec<_>>());
    assert!(err.contains("Took back"), "{err}");
    assert!(err.contains("impossible"), "{err}");
    assert!(err.contains("still possible after 1 guess: "), "{err}");

    // An answer no secret gives: refused at once (not recorded), undo
    // offered, the same guess asked again; the true answers then win.
    let second = game.parse_code(&g(1)).unwrap();
    let left: Vec<_> = game
        .secrets()
        .into_iter()
        .filter(|&s| game.feedback(s, moves[0].0) == moves[0].1)
        .collect();
    let lie = game
        .possible_feedbacks()
        .filter(|&x| x != game.win())
        .find(|&x| left.iter().all(|&s| game.feedback(s, second) != x))
        .map(|x| game.format_feedback(x))
        .unwrap();
    let input = format!("{}\n{lie}\n", f(0))
        + &(1..moves.len())
            .map(|i| format!("{}\n", f(i)))
            .collect::<String>();
    let (code, out, err) = run(MOO, &["--tree", &path], &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "No secret gives {lie} to {} and your answers before: answer again, or type 'undo'",
            g(1)
        )),
        "{err}"
    );
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        (0..moves.len()).map(g).collect::<Vec<_>>()
    );
    // Input ending before the win: exit 1.
    let (code, out, _) = run(MOO, &["--tree", &path], &format!("{}\n", f(0)));
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn an_impossible_answer_is_refused_at_once() {
    // mm:2x2 first-consistent: 00, then after 0A0B the only secret 11.
    let (game, tree, path) = setup("mm:2x2", "p-win.tree");
    assert_eq!(game.format_code(tree.root.guess), "00");
    let (code, out, err) = run(MOO, &["--tree", &path], "1A0B\n2A0B\n");
    // 00 answered 1A0B leaves 01 and 10; the next guess is 01; "2A0B"
    // wins.
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "00\n01\n");
    let (code, out, err) = run(MOO, &["--tree", &path], "0A0B\n0A0B\n2A0B\n");
    // After 00:0A0B only 11 is left; 11 answered 0A0B is refused at once
    // (asked again, undo offered), then 2A0B wins.
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "00\n11\n");
    assert!(err.contains("No secret gives 0A0B to 11"), "{err}");
    assert!(err.contains("Solved in 2 guesses"), "{err}");
}

/// `moo` with no --tree plays the embedded moo:4x10 tree when
/// data/moo-4x10-cap7.tree existed at build time, and otherwise says how to
/// give a tree.
#[test]
fn the_embedded_tree_or_a_clear_message() {
    let data =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/moo-4x10-cap7.tree");
    let (code, out, err) = run(MOO, &["next"], "");
    if data.is_file() {
        assert_eq!(code, 0, "{err}");
        let file = optimoo::tree::format::TreeFile::read(&data, None).unwrap();
        let game = Game::new(file.header.rules);
        let first = out.split_whitespace().next().unwrap();
        assert_eq!(first, game.format_code(file.tree.root.guess));
        let (code, out, _) = run(MOO, &["solve", "5293"], "");
        assert_eq!(code, 0);
        assert_eq!(out.lines().last().unwrap(), "5293 4A0B");
        assert!(out.lines().count() <= 7);
    } else {
        assert_eq!(code, 2);
        assert!(err.contains("--tree FILE"), "{err}");
    }
}

/// Plain exhaustive minimum of the total guesses to solve `set`: every
/// code considered, no bounds, no symmetry.
fn brute_total(
    game: &Game,
    set: &[Code],
    memo: &mut std::collections::HashMap<Vec<Code>, u64>,
) -> u64 {
    if set.len() == 1 {
        return 1;
    }
    if let Some(&v) = memo.get(set) {
        return v;
    }
    let mut best = u64::MAX;
    for g in game.codes().all() {
        let classes = optimoo::model::partition::split(game, g, set);
        if classes.len() == 1 && classes[0].0 != game.win() {
            continue; // learns nothing
        }
        let mut total = set.len() as u64;
        for (f, class) in &classes {
            if *f != game.win() {
                total += brute_total(game, class, memo);
            }
        }
        best = best.min(total);
    }
    memo.insert(set.to_vec(), best);
    best
}

/// Off the tree with few secrets left, the player's guess is optimal: it
/// reaches the brute-force minimum.
#[test]
fn off_the_tree_small_sets_get_the_exact_move() {
    use optimoo::play::player::{Player, Source, EXACT_MAX};
    let game = Game::new("moo:3x5".parse().unwrap());
    let tree = crate::trees::first_consistent(&game);
    let player = Player::new(&game, &tree).unwrap();
    let mut memo = std::collections::HashMap::new();
    let mut checked = 0;
    let mut example = None;
    // Open with 340 (the tree opens with 012), then every answer and a
    // second guess 123.
    let g1 = game.parse_code("340").unwrap();
    let g2 = game.parse_code("123").unwrap();
    for f1 in game.possible_feedbacks() {
        for f2 in game.possible_feedbacks() {
            let history = [(g1, f1), (g2, f2)];
            let Ok(advice) = player.advise(&history) else {
                continue;
            };
            let set = &advice.candidates;
            if set.len() < 2 || set.len() > EXACT_MAX {
                continue;
            }
            assert_eq!(advice.source, Source::Exact);
            let mut total = set.len() as u64;
            for (f, class) in optimoo::model::partition::split(&game, advice.guess, set) {
                if f != game.win() {
                    total += brute_total(&game, &class, &mut memo);
                }
            }
            assert_eq!(total, brute_total(&game, set, &mut memo), "{history:?}");
            checked += 1;
            example.get_or_insert(history);
        }
    }
    assert!(checked >= 5, "only {checked} positions checked");
    let (game, _, path) = setup("moo:3x5", "p-exact.tree");
    let moves: Vec<String> = example
        .unwrap()
        .iter()
        .map(|&(g, f)| format!("{}:{}", game.format_code(g), game.format_feedback(f)))
        .collect();
    let (code, out, err) = run(MOO, &["--tree", &path, "next", &moves[0], &moves[1]], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("exact search"), "{out}");
    assert!(game
        .parse_code(out.split_whitespace().next().unwrap())
        .is_ok());
}

/// Answers piped from a file saved with a UTF-8 byte-order mark (issue
/// 16): the first answer is read as typed, not refused and then taken as
/// the answer to the same guess (which shifted every answer after it).
#[test]
fn a_byte_order_mark_on_stdin_is_skipped() {
    let (game, tree, path) = setup("moo:3x4", "p-bom.tree");
    let secret = game.codes().all().last().unwrap();
    let moves = tree.play(&game, secret).unwrap();
    let answers: String = moves
        .iter()
        .map(|&(_, f)| format!("{}\n", game.format_feedback(f)))
        .collect();
    let (code, out, err) = run(MOO, &["--tree", &path], &format!("\u{feff}{answers}"));
    assert_eq!(code, 0, "{err}");
    let guesses: Vec<String> = moves.iter().map(|&(g, _)| game.format_code(g)).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), guesses, "{err}");
    assert!(!err.contains("cannot read"), "{err}");
    // `moo host`: the first guess, marked, is a guess.
    let args = ["--tree", &path, "host", "--seed", "1"];
    let (code, _, err) = run(MOO, &args, "\u{feff}012\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("a code of") && !err.contains("is not a symbol"),
        "{err}"
    );
}
