//! `moo host`: the person guesses, the computer answers.

use optimoo::model::{Code, Game};

use crate::trees::run;
use crate::MOO;

/// Guesses every code of moo:3x4 in order; the game must end on the win.
fn all_codes_input(game: &Game) -> String {
    game.codes()
        .all()
        .map(|c| format!("{}\n", game.format_code(c)))
        .collect()
}

/// Checks a transcript: every answer is the feedback of its guess against
/// the code that finally won. Returns that code.
fn check_answers(game: &Game, out: &str) -> Code {
    let answers: Vec<&str> = out.lines().collect();
    let guesses: Vec<Code> = game.codes().all().take(answers.len()).collect();
    let secret = *guesses.last().unwrap();
    assert_eq!(*answers.last().unwrap(), game.format_feedback(game.win()));
    for (g, a) in guesses.iter().zip(&answers) {
        assert_eq!(game.format_feedback(game.feedback(secret, *g)), *a);
    }
    secret
}

#[test]
fn random_secret_is_seeded_and_answered_truly() {
    let game = Game::new("moo:3x4".parse().unwrap());
    let input = all_codes_input(&game);
    let mut secrets = std::collections::BTreeSet::new();
    for seed in 1..=6 {
        let seed = seed.to_string();
        let args = ["host", "--game", "moo:3x4", "--seed", &seed];
        let (code, out, err) = run(MOO, &args, &input);
        assert_eq!(code, 0, "{err}");
        let secret = check_answers(&game, &out);
        let n = secret.index() + 1;
        assert!(err.contains(&format!("in {n} guess")), "{err}");
        // The same seed gives the same game.
        assert_eq!(run(MOO, &args, &input).1, out);
        secrets.insert(secret);
    }
    assert!(secrets.len() > 1, "six seeds, one secret: {secrets:?}");
}

#[test]
fn the_adversary_keeps_the_most_secrets_and_never_lies() {
    let game = Game::new("moo:3x4".parse().unwrap());
    let input = all_codes_input(&game);
    let (code, out, err) = run(
        MOO,
        &["host", "--adversarial", "--game", "moo:3x4", "--seed", "3"],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    check_answers(&game, &out);
    // After 012, the largest class of the 24 secrets (computed here).
    let g = game.parse_code("012").unwrap();
    let mut sizes = std::collections::BTreeMap::new();
    for s in game.codes().all() {
        *sizes.entry(game.feedback(s, g)).or_insert(0) += 1;
    }
    let largest = sizes.values().max().unwrap();
    let (code, out, err) = run(
        MOO,
        &["host", "--adversarial", "--game", "moo:3x4"],
        "012\nleft\nquit\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    assert!(
        err.contains(&format!("{largest} secrets still possible after 1 guess")),
        "{err}"
    );
    assert!(err.contains("secrets were still possible"), "{err}");
}

#[test]
fn bad_guesses_are_refused_and_not_counted() {
    let (code, out, err) = run(MOO, &["host", "--seed", "9"], "01\n0012\nabcd\nleft\n");
    assert_eq!(code, 1, "input ended before the win");
    assert!(out.is_empty());
    assert!(
        err.contains("5040 secrets still possible after 0 guesses"),
        "{err}"
    );
    assert!(err.contains("repeats the symbol"), "{err}");
}
