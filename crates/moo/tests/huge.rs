//! `moo --game G` for games over 65,535 codes: the phased strategy move by
//! move (optimoo::huge has the strategy's tests; here the command).

use optimoo::huge::Shape;

use crate::trees::run;
use crate::MOO;

/// `next` answers the guess the whole-game walk makes, and a piped game
/// against a secret ends in a win; bad input gets the usual exit codes.
#[test]
fn moo_plays_ten_digit_bulls_and_cows() {
    let (code, out, err) = run(MOO, &["--game", "moo:10x10", "next"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("0123456789 "), "{out}");
    let (code, out, err) = run(MOO, &["--game", "moo:10x10", "next", "0123456789:2A8B"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("667485 secrets"), "{out}");
    // A game against 5820369147, answered through a pipe.
    let shape: Shape = "moo:10x10".parse().unwrap();
    let secret = shape.parse("5820369147").unwrap();
    let mut answers = String::new();
    let mut history: Vec<String> = Vec::new();
    for _ in 0..20 {
        let (code, out, err) = run(
            MOO,
            &[
                &["--game", "moo:10x10", "next"][..],
                &history.iter().map(String::as_str).collect::<Vec<_>>(),
            ]
            .concat(),
            "",
        );
        assert_eq!(code, 0, "{err}");
        let guess = out.split_whitespace().next().unwrap().to_string();
        let f = shape.feedback(secret, shape.parse(&guess).unwrap());
        let text = f.format(10);
        answers.push_str(&text);
        answers.push('\n');
        history.push(format!("{guess}:{text}"));
        if text == "10A0B" {
            break;
        }
    }
    assert!(history.last().unwrap().ends_with(":10A0B"), "{history:?}");
    // play makes the same guesses.
    let (code, out, err) = run(MOO, &["--game", "moo:10x10", "play"], &answers);
    assert_eq!(code, 0, "{err}");
    let played: Vec<&str> = out.lines().collect();
    let wanted: Vec<&str> = history
        .iter()
        .map(|m| m.split(':').next().unwrap())
        .collect();
    assert_eq!(played, wanted);
    // A contradiction is 1; a command that needs a tree, a bad answer, 2.
    let (code, _, _) = run(
        MOO,
        &[
            "--game",
            "moo:10x10",
            "next",
            "0123456789:10A0B",
            "0123456789:1A9B",
        ],
        "",
    );
    assert_eq!(code, 2);
    let (code, _, err) = run(
        MOO,
        &[
            "--game",
            "moo:10x10",
            "next",
            "0123456789:0A10B",
            "1234567890:0A10B",
            "1234567890:10A0B",
        ],
        "",
    );
    assert_eq!(code, 1, "a win that contradicts an answer: {err}");
    let (code, _, err) = run(
        MOO,
        &["--game", "mm:8x8", "next", "00000000:8A0B", "11111111:1A0B"],
        "",
    );
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(
        MOO,
        &[
            "--game",
            "mm:8x8",
            "next",
            "00000000:0A0B",
            "11111111:0A0B",
            "22222222:0A0B",
            "33333333:0A0B",
            "44444444:0A0B",
            "55555555:0A0B",
            "66666666:0A0B",
            "77777777:0A0B",
        ],
        "",
    );
    assert_eq!(code, 1, "no code is left: {err}");
    let (code, _, err) = run(MOO, &["--game", "moo:10x10", "rank"], "");
    assert_eq!(code, 2);
    assert!(err.contains("nothing else"), "{err}");
    let (code, _, err) = run(MOO, &["--game", "moo:10x10", "next", "0123456789:9A1B"], "");
    assert_eq!(code, 2);
    assert!(err.contains("impossible"), "{err}");
}
