//! `moo duel`: the race against the computer, which plays a tree of the
//! equilibrium shipped in data/duel (optimoo::play::duel has the rules'
//! tests; here the command).

use optimoo::model::{Code, Game};

use crate::trees::run;
use crate::MOO;

/// The computer's secret of a seeded race, from a race the person quits.
fn secret_of(args: &[&str]) -> String {
    let (code, _, err) = run(MOO, args, "quit\n");
    assert_eq!(code, 0, "{err}");
    let at = err.find("My secret was ").expect("the secret said") + "My secret was ".len();
    err[at..].split('.').next().unwrap().to_string()
}

#[test]
fn a_seeded_race_is_won_by_guessing_the_secret() {
    for rule in ["first-wins", "equal-turns"] {
        let args = ["duel", "--rule", rule, "--seed", "11"];
        let secret = secret_of(&args);
        assert_eq!(secret.len(), 4);
        let (code, out, err) = run(MOO, &args, &format!("{secret}\n"));
        assert!(err.contains("a tree of the equilibrium"), "{err}");
        if rule == "first-wins" {
            assert_eq!(code, 0, "{err}");
            assert!(err.contains("You win (round 1)"), "{err}");
            assert_eq!(out.trim(), "4A0B");
        } else {
            // The computer still plays its first round (its guess is the
            // second line); the input ends before it is answered (exit 1).
            assert_eq!(code, 1, "{err}");
            assert!(out.starts_with("4A0B\n"), "{out}");
            assert_eq!(out.lines().count(), 2, "{out}");
            assert!(err.contains("Stopped"), "{err}");
        }
    }
}

#[test]
fn moo_answers_the_persons_guesses_and_refuses_contradictions() {
    // Mastermind, the computer first: its first guess, answered 0A0B, then
    // a guess of the person, then an impossible answer to the computer's
    // second guess (4A0B on a code that cannot be the secret, or any answer
    // no secret gives), refused at once.
    let args = [
        "duel", "--game", "mm:4x6", "--seat", "second", "--seed", "3",
    ];
    let game = Game::new("mm:4x6".parse().unwrap());
    let secret = game.parse_code(&secret_of(&args)).unwrap();
    let (_, out, _) = run(MOO, &args, "0A0B\n0000\n");
    let lines: Vec<&str> = out.lines().collect();
    let (g1, g2) = (
        game.parse_code(lines[0]).unwrap(),
        game.parse_code(lines[2]).unwrap(),
    );
    // The person's guess 0000 is answered truly.
    let zero = game.parse_code("0000").unwrap();
    assert_eq!(lines[1], game.format_feedback(game.feedback(secret, zero)));
    // An answer to g2 that no secret gives after 0A0B to g1.
    let zero_zero = game.parse_feedback("0A0B").unwrap();
    let left: Vec<Code> = game
        .secrets()
        .into_iter()
        .filter(|&s| game.feedback(s, g1) == zero_zero)
        .collect();
    let lie = game
        .possible_feedbacks()
        .filter(|&f| f != game.win())
        .find(|&f| left.iter().all(|&s| game.feedback(s, g2) != f))
        .map(|f| game.format_feedback(f))
        .unwrap();
    let (code, _, err) = run(MOO, &args, &format!("0A0B\n0000\n{lie}\nquit\n"));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("No secret gives {lie}")), "{err}");
    assert!(err.contains("answer again"), "{err}");
    assert!(err.contains("Stopped. My secret was"), "{err}");
    // A bad rule or seat: a usage error.
    for bad in [["duel", "--rule", "fastest"], ["duel", "--seat", "third"]] {
        let (code, _, err) = run(MOO, &bad, "");
        assert_eq!(code, 2, "{err}");
    }
    // A game with no equilibrium shipped: the average-optimal tree, said.
    let (code, _, err) = run(
        MOO,
        &["duel", "--game", "moo:3x10", "--seed", "1"],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("no equilibrium is shipped for moo:3x10"),
        "{err}"
    );
}

/// `--tree` with a `--game` the tree does not play is refused, as `moo
/// next` refuses it (it was silently ignored); the tree's own game is
/// played.
#[test]
fn a_tree_of_another_game_is_refused() {
    let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/mm-4x6.tree");
    for cmd in ["duel", "next"] {
        let (code, out, err) = run(MOO, &["--tree", tree, "--game", "moo:4x10", cmd], "quit\n");
        assert_eq!((code, out.as_str()), (2, ""), "{cmd}: {err}");
        assert!(err.contains("plays mm:4x6, not moo:4x10"), "{cmd}: {err}");
    }
    let (code, _, err) = run(MOO, &["--tree", tree, "--game", "mm:4x6", "duel"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("I play the tree"), "{err}");
}

/// `undo` in the race: a wrong answer to the computer's guess taken back
/// (it asks that guess again, in the same round), as `moo` takes it back;
/// an impossible answer is refused with undo offered, in both.
#[test]
fn the_race_has_undo() {
    let args = [
        "duel", "--game", "mm:4x6", "--seat", "second", "--seed", "3",
    ];
    let game = Game::new("mm:4x6".parse().unwrap());
    // 0A0B to the first guess, the person's guess 0000, then undo while
    // the second guess waits: the first guess is asked again.
    let (_, out, err) = run(MOO, &args, "0A0B\n0000\nundo\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    game.parse_code(lines[2]).unwrap();
    assert_eq!(lines[3], lines[0], "the first guess again: {out}");
    assert!(
        err.contains(&format!("Took back {}:0A0B.", lines[0])),
        "{err}"
    );
    // Nothing to undo before any answer; undo on the person's turn says
    // when it applies.
    let (_, _, err) = run(MOO, &args, "undo\nquit\n");
    assert!(err.contains("Nothing to undo."), "{err}");
    let first = ["duel", "--game", "mm:4x6", "--seed", "3"];
    let (_, _, err) = run(MOO, &first, "undo\nquit\n");
    assert!(err.contains("undo takes back your last answer"), "{err}");
    // The refusal offers undo.
    let (g1, g2) = (
        game.parse_code(lines[0]).unwrap(),
        game.parse_code(lines[2]).unwrap(),
    );
    let zero = game.parse_feedback("0A0B").unwrap();
    let left: Vec<Code> = game
        .secrets()
        .into_iter()
        .filter(|&s| game.feedback(s, g1) == zero)
        .collect();
    let lie = game
        .possible_feedbacks()
        .filter(|&f| f != game.win())
        .find(|&f| left.iter().all(|&s| game.feedback(s, g2) != f))
        .map(|f| game.format_feedback(f))
        .unwrap();
    let (_, _, err) = run(MOO, &args, &format!("0A0B\n0000\n{lie}\nquit\n"));
    assert!(
        err.contains("answer again, or type 'undo' to take your last answer back"),
        "{err}"
    );
}
