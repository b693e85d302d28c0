//! Games of a word list from the command line: the presets `--game
//! wordle` and `wordle-nyt` (data/wordle/), `--rules R --secrets FILE
//! --guesses FILE` for any list; their heuristic trees written and
//! verified; bad lists and answers refused with exit code 2, naming the
//! option.

use optimoo::heuristic::{build_tree, Heuristic, StrategyConfig};
use optimoo::model::secrets::{GuessMode, SecretSet};
use optimoo::model::{AnswerRule, CodeList, Game};

use crate::trees::{run, scratch};
use crate::OPTIMOO;

fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The preset plays 2315 answers over 12972 guesses; each heuristic's own
/// first word is the literature's: minimax ARISE (largest class 168),
/// irving ROATE, entropy SOARE, most parts TRACE (150 classes).
#[test]
fn the_preset_and_the_literatures_first_words() {
    let rows = json_lines(&[
        "eval",
        "--game",
        "wordle",
        "--first",
        "best",
        "--strategy",
        "all",
        "--json",
    ]);
    let first = |s: &str| {
        let row = rows.iter().find(|r| r["strategy"] == s).expect(s);
        row["first"].as_str().unwrap().to_string()
    };
    assert_eq!(first("minimax"), "arise");
    assert_eq!(first("irving"), "roate");
    assert_eq!(first("entropy"), "soare");
    assert_eq!(first("kooi"), "trace");
    for row in &rows {
        let game = row["game"].as_str().unwrap();
        assert!(
            game.contains(
                "2315 secrets of wordlist_orig_hidden, guesses 12972 of wordlist_orig_all"
            ),
            "{game}"
        );
        let hist: u64 = row["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .sum();
        assert_eq!(hist, 2315);
    }
    let (code, out, err) = run(
        OPTIMOO,
        &["partition", "--game", "wordle", "--guess", "trace"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines()
            .filter(|l| l.len() > 6 && l.as_bytes()[5] == b' ')
            .count(),
        150
    );
    let (code, out, err) = run(
        OPTIMOO,
        &["partition", "--game", "wordle-nyt", "--guess", "trace"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2309 secrets left"), "{out}");
}

/// A heuristic tree of `--game wordle` is written, and `verify` (the
/// independent checker, with Wordle's rule on the written words) accepts
/// it from the file alone, every answer won.
#[test]
fn a_wordle_tree_is_written_and_verified() {
    let path = scratch("wordle-kooi.tree");
    let file = path.to_str().unwrap();
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "export",
            "--game",
            "wordle",
            "--strategy",
            "kooi",
            "--first",
            "trace",
            "--format",
            "tree",
            "-o",
            file,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(OPTIMOO, &["verify", file], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("2315 secrets of wordlist_orig_hidden"),
        "{out}"
    );
    assert!(out.contains(" heuristic no cap: total "), "{out}");
    let hist: u64 = out
        .split("histogram ")
        .nth(1)
        .expect("a histogram")
        .split_whitespace()
        .map(|h| h.parse::<u64>().unwrap())
        .sum();
    assert_eq!(hist, 2315, "{out}");
    // Played against another list (the NYT answers): refused.
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "verify",
            file,
            "--secrets",
            "data/wordle/wordlist_nyt20220316_hidden",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the tree file plays"), "{err}");
    std::fs::remove_file(path).unwrap();
}

/// `--rules R --secrets FILE --guesses FILE`: a game of any word list,
/// which `eval` plays as the library does under every rule.
#[test]
fn any_word_list_under_any_rule() {
    let guesses = scratch("guesses.txt");
    let secrets = scratch("secrets.txt");
    let words = [
        "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve",
        "heath", "dwarf", "model", "karma", "stink", "grade", "quiet", "bench", "abate", "feign",
    ];
    std::fs::write(&guesses, words.join("\n")).unwrap();
    std::fs::write(&secrets, words[..12].join("\n")).unwrap();
    let list = CodeList::parse(&words.join("\n"), None, "g").unwrap();
    for rule in [
        AnswerRule::Wordle,
        AnswerRule::BullsCows,
        AnswerRule::BlackPeg,
    ] {
        let rows = json_lines(&[
            "eval",
            "--rules",
            rule.name(),
            "--secrets",
            secrets.to_str().unwrap(),
            "--guesses",
            guesses.to_str().unwrap(),
            "--strategy",
            "entropy",
            "--json",
        ]);
        let all = Game::of_list(list.clone(), rule, None).unwrap();
        let codes = (0..12).map(|i| all.parse_code(words[i]).unwrap()).collect();
        let set = SecretSet::new(codes, GuessMode::All, None, "s".into()).unwrap();
        let game = all.with_secret_set(set);
        let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Entropy)).unwrap();
        let stats = optimoo::tree::check::check(&game, &tree, None).unwrap();
        assert_eq!(rows[0]["total"].as_u64(), Some(stats.total), "{rule}");
        assert_eq!(rows[0]["first"], "awake", "{rule}");
    }
    std::fs::remove_file(guesses).unwrap();
    std::fs::remove_file(secrets).unwrap();
}

/// Bad lists and answers: exit code 2, the option and the line named.
#[test]
fn bad_word_lists_and_answers_are_refused() {
    let write = |name: &str, text: &str| {
        let path = scratch(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let good = write("good.txt", "cigar\nrebut\nsissy\nhumph\n");
    let answers = write("answers.txt", "cigar\nrebut\n");
    let cases = [
        // A word of the wrong length.
        (
            write("len.txt", "cigar\nrebu\n"),
            "--guesses",
            ":2: 'rebu' has 4 letters",
        ),
        // A list with a duplicate.
        (
            write("dup.txt", "cigar\nrebut\ncigar\n"),
            "--guesses",
            ":3: 'cigar' is listed twice",
        ),
        // A letter outside the list's alphabet (the guesses' letters).
        (
            write("letter.txt", "cigar\nrebuz\n"),
            "--secrets",
            ":2: 'rebuz': 'z' is not a symbol",
        ),
        // A secret that is not one of the guesses.
        (
            write("notin.txt", "cigar\nhuris\n"),
            "--secrets",
            ":2: 'huris' is not in the list",
        ),
        (
            write("dup2.txt", "cigar\ncigar\n"),
            "--secrets",
            ":2: 'cigar' is listed twice",
        ),
        (
            write("len2.txt", "cigars\n"),
            "--secrets",
            ":1: 'cigars' has 6 symbols",
        ),
    ];
    for (file, flag, says) in &cases {
        let (g, s) = if *flag == "--guesses" {
            (file.as_str(), answers.as_str())
        } else {
            (good.as_str(), file.as_str())
        };
        let (code, _, err) = run(
            OPTIMOO,
            &["eval", "--rules", "wordle", "--secrets", s, "--guesses", g],
            "",
        );
        assert_eq!(code, 2, "{file}: {err}");
        assert!(
            err.contains(&format!("{flag} {file}{says}")),
            "{file}: {err}"
        );
    }
    // A letter outside a given alphabet.
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "eval",
            "--rules",
            "wordle",
            "--secrets",
            &answers,
            "--guesses",
            &good,
            "--alphabet",
            "abcdefghijklmnopqrst",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(":2: 'rebut': 'u' is not a letter of the alphabet"),
        "{err}"
    );
    // An answer pattern no word gives (four greens and a yellow), and a
    // pattern of the wrong length.
    for (answer, says) in [
        ("GGGGY", "GGGGY is impossible"),
        ("GGGG", "needs one colour per letter"),
    ] {
        let (code, _, err) = run(
            OPTIMOO,
            &[
                "partition",
                "--game",
                "wordle",
                "--guess",
                "trace",
                &format!("salet:{answer}"),
            ],
            "",
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    // A preset with a guess list, or with an alphabet: one game at a time.
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "eval",
            "--game",
            "wordle",
            "--secrets",
            &answers,
            "--guesses",
            &good,
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--guesses") && err.contains("has its guesses"),
        "{err}"
    );
    for (file, _, _) in &cases {
        std::fs::remove_file(file).unwrap();
    }
    std::fs::remove_file(good).unwrap();
    std::fs::remove_file(answers).unwrap();
}

/// The exact search on a word list whose words are every code of a game
/// (bulls and cows, the rule it proves so far) finds that game's optimum:
/// the list game numbers the same codes the same way, without symmetry.
#[test]
fn the_search_on_a_list_of_every_code_is_the_games() {
    let mut words = Vec::new();
    for a in "abcde".chars() {
        for b in "abcde".chars().filter(|&b| b != a) {
            for c in "abcde".chars().filter(|&c| c != a && c != b) {
                words.push(format!("{a}{b}{c}"));
            }
        }
    }
    let all = scratch("every35.txt");
    let some = scratch("some35.txt");
    std::fs::write(&all, words.join("\n")).unwrap();
    let third: Vec<&str> = words.iter().step_by(3).map(String::as_str).collect();
    std::fs::write(&some, third.join("\n")).unwrap();
    let total = |args: &[&str]| {
        let (code, out, err) = run(OPTIMOO, &[&["solve", "--json"][..], args].concat(), "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        v["total"].as_u64().unwrap()
    };
    let (a, s) = (all.to_str().unwrap(), some.to_str().unwrap());
    assert_eq!(
        total(&["--secrets", a, "--guesses", a]),
        total(&["--game", "moo:3x5"])
    );
    assert_eq!(
        total(&["--secrets", s, "--guesses", a]),
        total(&["--game", "moo:3x5", "--secrets", s, "--alphabet", "abcde"])
    );
    std::fs::remove_file(all).unwrap();
    std::fs::remove_file(some).unwrap();
}

/// `solve --game wordle --first salet`: Selby's (2022) 7920 over the 2315
/// answers, at most 5 guesses; the tree file is an upper bound whose
/// subtrees after SALET are exact, and the independent checker replays
/// it. `--below C` decides the cut-off without a tree (exit 1 when the
/// total is not below it); bad first guesses and objectives are refused.
#[test]
fn solve_wordle_from_a_first_word() {
    let tree = scratch("salet.tree");
    let t = tree.to_str().unwrap();
    let args = [
        "solve",
        "--game",
        "wordle",
        "--first",
        "SALET",
        "--threads",
        "1",
        "--json",
        "-o",
        t,
    ];
    let v = &json_lines(&args)[0];
    assert_eq!(v["total"], 7920, "{v}");
    assert_eq!(v["max_depth"], 5, "{v}");
    assert_eq!(v["first_guess"], "salet", "{v}");
    assert_eq!(v["first_fixed"], true, "{v}");
    let (code, out, err) = run(OPTIMOO, &["verify", t], "");
    assert_eq!(code, 0, "{out} {err}");
    assert!(
        out.contains("total 7920") && out.contains("upper bound"),
        "{out}"
    );
    std::fs::remove_file(&tree).unwrap();
    let below = |word: &str, c: &str| {
        let (code, out, err) = run(
            OPTIMOO,
            &[
                "solve", "--game", "wordle", "--first", word, "--below", c, "--json",
            ],
            "",
        );
        assert!(!err.contains("panicked"), "{err}");
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        (code, v)
    };
    let (code, v) = below("salet", "7921");
    assert_eq!(
        (code, v["exact"].as_bool(), v["total"].as_u64()),
        (0, Some(true), Some(7920))
    );
    let (code, v) = below("salet", "7920");
    assert_eq!((code, v["exact"].as_bool()), (1, Some(false)), "{v}");
    assert!(v["total"].as_u64().unwrap() >= 7920, "{v}");
    let (code, v) = below("least", "7921");
    assert_eq!((code, v["exact"].as_bool()), (1, Some(false)), "{v}");
    assert!(v["total"].as_u64().unwrap() >= 7921, "{v}");
    // Hard mode within the game's 6 guesses: Selby's 8122, its tree
    // replayed by the checker under the hard-mode constraint.
    let hard = scratch("salet-hard.tree");
    let h = hard.to_str().unwrap();
    let v = &json_lines(&[
        "solve",
        "--game",
        "wordle",
        "--hard",
        "--first",
        "salet",
        "--threads",
        "1",
        "--json",
        "-o",
        h,
    ])[0];
    assert_eq!(
        (v["total"].as_u64(), v["cap"].as_u64()),
        (Some(8122), Some(6)),
        "{v}"
    );
    let (code, out, err) = run(OPTIMOO, &["verify", h], "");
    assert_eq!(code, 0, "{out} {err}");
    assert!(
        out.contains("wordle/hard") && out.contains("total 8122"),
        "{out}"
    );
    std::fs::remove_file(&hard).unwrap();
    for (args, says) in [
        (&["--first", "zzzzz"][..], "--first"),
        (&["--first", "sale"][..], "--first"),
        (
            &["--first", "salet", "--objective", "worst"][..],
            "--first goes with the average",
        ),
        (
            &["--first", "salet", "--below", "7921", "-o", "x.tree"][..],
            "writes no tree",
        ),
    ] {
        let (code, out, err) = run(
            OPTIMOO,
            &[&["solve", "--game", "wordle"][..], args].concat(),
            "",
        );
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
