//! `moo` under Wordle's rule: a game of a word list played from a tree
//! file (every answer checked against a slow scorer of this test, typed
//! in each form: `GYBBY`, `gy---`, the squares), `--game wordle` from
//! the trees shipped in data/ (`next`, `play`, `rank`, `analyze`, their
//! values against the exact search), and off them (the heuristic).

use optimoo::heuristic::{build_tree, Heuristic, StrategyConfig};
use optimoo::model::secrets::{GuessMode, SecretSet};
use optimoo::model::{AnswerRule, CodeList, Game, Objective};
use optimoo::tree::format::TreeFile;

use crate::trees::{run, scratch};
use crate::MOO;

/// Wordle's colours, slowly: green at equal places; then, left to right,
/// yellow while the secret has more copies of the letter outside the
/// greens than the guess has yellow copies of it to the left.
fn colours(secret: &str, guess: &str) -> String {
    let s: Vec<char> = secret.chars().collect();
    let g: Vec<char> = guess.chars().collect();
    (0..g.len())
        .map(|i| {
            if s[i] == g[i] {
                return 'G';
            }
            let free = (0..s.len())
                .filter(|&j| s[j] == g[i] && g[j] != s[j])
                .count();
            let used = (0..i).filter(|&j| g[j] == g[i] && s[j] != g[j]).count();
            if used < free {
                'Y'
            } else {
                'B'
            }
        })
        .collect()
}

/// A Wordle game of every ninth word of the original guesses, its secrets
/// the original answers among them; its kooi tree written to a file.
fn small_wordle() -> (Game, std::path::PathBuf) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wordle/");
    let all = std::fs::read_to_string(format!("{dir}wordlist_orig_all")).unwrap();
    let answers = std::fs::read_to_string(format!("{dir}wordlist_orig_hidden")).unwrap();
    let mut words: Vec<&str> = all.lines().collect();
    words.sort();
    let kept: Vec<&str> = words.iter().copied().step_by(9).collect();
    let list = CodeList::parse(&kept.join("\n"), None, "every-ninth").unwrap();
    let whole = Game::of_list(list, AnswerRule::Wordle, None).unwrap();
    let secrets = answers
        .lines()
        .filter_map(|w| whole.parse_code(w).ok())
        .collect();
    let set = SecretSet::new(secrets, GuessMode::All, None, "answers".into()).unwrap();
    let game = whole.with_secret_set(set);
    let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Kooi)).unwrap();
    let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    let path = scratch("small-wordle.tree");
    std::fs::write(&path, file.to_bytes(&game).unwrap()).unwrap();
    (game, path)
}

#[test]
fn moo_plays_wordle_from_a_tree() {
    let (game, path) = small_wordle();
    let tree = path.to_str().unwrap();
    assert!(game.secret_count() > 100, "{}", game.secret_count());
    let secrets: Vec<String> = game
        .secrets()
        .iter()
        .map(|&c| game.format_code(c))
        .collect();
    // `moo solve`: each answer is Wordle's, and the game ends on the secret.
    for secret in secrets.iter().step_by(37) {
        let (code, out, err) = run(MOO, &["--tree", tree, "solve", secret], "");
        assert_eq!(code, 0, "{secret}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        for line in &lines {
            let (guess, answer) = line.split_once(' ').unwrap();
            assert_eq!(answer, colours(secret, guess), "{secret}: {line}");
        }
        assert_eq!(lines.last().unwrap(), &format!("{secret} GGGGG"));
    }
    // Interactive: the answers typed in each form, as a person would.
    for (n, secret) in secrets.iter().step_by(53).enumerate() {
        let (mut history, mut input) = (Vec::new(), String::new());
        let mut guesses = Vec::new();
        loop {
            let (code, out, err) = run(
                MOO,
                &[
                    &["--tree", tree, "next"][..],
                    &history.iter().map(String::as_str).collect::<Vec<_>>(),
                ]
                .concat(),
                "",
            );
            assert_eq!(code, 0, "{err}");
            let guess = out.split_whitespace().next().unwrap().to_string();
            let answer = colours(secret, &guess);
            history.push(format!("{guess}:{answer}"));
            guesses.push(guess.clone());
            let typed = match (n + guesses.len()) % 3 {
                0 => answer.clone(),
                1 => answer.to_lowercase().replace('b', "-"),
                _ => answer
                    .chars()
                    .map(|c| match c {
                        'G' => "\u{1F7E9}",
                        'Y' => "\u{1F7E8}",
                        _ => "\u{2B1B}",
                    })
                    .collect(),
            };
            input.push_str(&typed);
            input.push('\n');
            if guess == *secret {
                break;
            }
        }
        let (code, out, err) = run(MOO, &["--tree", tree], &input);
        assert_eq!(code, 0, "{secret}: {err}");
        let played: Vec<&str> = out.lines().collect();
        assert_eq!(played, guesses, "{secret}");
        assert!(err.contains("colour per letter"), "{err}");
    }
    // Another game named: refused, naming both.
    let (code, _, err) = run(MOO, &["--game", "wordle", "--tree", tree, "next"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not mm:5x26/wordle"), "{err}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn moo_game_wordle_off_the_tree() {
    // With another secret list than the shipped trees': no tree, the kooi
    // heuristic's own first word.
    let answers = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/wordle/wordlist_orig_hidden"
    );
    let some: String = std::fs::read_to_string(answers)
        .unwrap()
        .lines()
        .step_by(3)
        .map(|w| format!("{w}\n"))
        .collect();
    let list = scratch("some-answers.txt");
    std::fs::write(&list, some).unwrap();
    let args = [
        "--game",
        "wordle",
        "--secrets",
        list.to_str().unwrap(),
        "next",
    ];
    let (code, out, err) = run(MOO, &args, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(no tree for mm:5x26/wordle"), "{out}");
    assert!(out.contains("772 secrets possible"), "{out}");
    std::fs::remove_file(list).unwrap();
    let (code, out, err) = run(MOO, &["--game", "wordle-nyt", "next", "trace:BBBBB"], "");
    assert_eq!(code, 0, "{err}");
    let n: usize = out
        .split("; ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let nyt = cli_common::wordle::WordPreset::WordleNyt.game(None);
    let left = nyt
        .secrets()
        .into_iter()
        .filter(|&s| colours(&nyt.format_code(s), "trace") == "BBBBB")
        .count();
    assert_eq!(n, left, "{out}");
    // An answer no word gives, a word of another length: exit code 2.
    for (history, says) in [
        ("trace:GGGGY", "GGGGY is impossible"),
        ("trac:BBBBB", "has 4 symbols"),
    ] {
        let (code, _, err) = run(MOO, &["--game", "wordle", "next", history], "");
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

/// `moo rank` and `moo analyze` on a word-list game (bulls and cows, the
/// rule the exact search proves so far): a list of every moo:3x5 code
/// ranks and judges as moo:3x5 itself, the words renamed.
#[test]
fn rank_and_analyze_on_a_word_list() {
    let letters = ['a', 'b', 'c', 'd', 'e'];
    let mut words = Vec::new();
    for a in letters {
        for b in letters.iter().filter(|&&b| b != a) {
            for c in letters.iter().filter(|&&c| c != a && c != *b) {
                words.push(format!("{a}{b}{c}"));
            }
        }
    }
    let list = CodeList::parse(&words.join("\n"), None, "words").unwrap();
    let listed = Game::of_list(list, AnswerRule::BullsCows, None).unwrap();
    let plain = Game::new("moo:3x5".parse().unwrap());
    let mut files = Vec::new();
    for (name, game) in [("listed", &listed), ("plain", &plain)] {
        let tree = build_tree(game, &StrategyConfig::new(Heuristic::Irving)).unwrap();
        let file = TreeFile::new(game, tree, Objective::Heuristic, None).unwrap();
        let path = scratch(&format!("{name}-35.tree"));
        std::fs::write(&path, file.to_bytes(game).unwrap()).unwrap();
        files.push(path);
    }
    // One JSON object a line.
    let json = |args: &[&str]| -> Vec<serde_json::Value> {
        let (code, out, err) = run(MOO, args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (l, p) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    // Every guess's total, each as often as its orbit counts (the plain
    // game ranks one guess an orbit of its symmetry, the list none).
    let totals = |rows: &[serde_json::Value]| {
        let mut all: Vec<u64> = rows
            .iter()
            .flat_map(|r| {
                let n = r["count"].as_u64().unwrap() as usize;
                std::iter::repeat_n(r["total"].as_u64().unwrap(), n)
            })
            .collect();
        all.sort_unstable();
        all
    };
    let ranked = json(&["--tree", l, "rank", "abc:0A1B", "--json", "--top", "100"]);
    let plain = json(&["--tree", p, "rank", "012:0A1B", "--json", "--top", "100"]);
    assert_eq!(ranked.len(), 60);
    assert_eq!(totals(&ranked), totals(&plain));
    let judged = json(&["--tree", l, "analyze", "abc:0A1B", "bcd:1A0B", "--json"]);
    let plain_judged = json(&["--tree", p, "analyze", "012:0A1B", "123:1A0B", "--json"]);
    let losses = |v: &[serde_json::Value]| {
        v.iter()
            .map(|r| r["loss_total"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(losses(&judged), losses(&plain_judged));
    assert_eq!(judged.len(), 2);
    for f in files {
        std::fs::remove_file(f).unwrap();
    }
}

/// The shipped Wordle tree of `preset` (`wordle-salet.tree`, ...), read
/// with its game.
fn shipped(name: &str) -> (Game, TreeFile) {
    let path = format!("{}/../../data/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = TreeFile::read(std::path::Path::new(&path), None).unwrap();
    (file.header.game(), file)
}

/// `moo --game wordle` and `wordle-nyt` play the trees of data/ (SALET
/// first, then the tree's moves): `next`, `solve` and `play` agree with
/// the tree file read by the library and with Wordle's colours.
#[test]
fn moo_plays_the_shipped_wordle_trees() {
    for (preset, name) in [
        ("wordle", "wordle-salet.tree"),
        ("wordle-nyt", "wordle-nyt-salet.tree"),
    ] {
        let (game, file) = shipped(name);
        let (code, out, err) = run(MOO, &["--game", preset, "next"], "");
        assert_eq!(code, 0, "{err}");
        let first = game.format_code(file.tree.root.guess);
        assert!(out.starts_with(&format!("{first} (from the tree")), "{out}");
        let secrets: Vec<String> = game
            .secrets()
            .iter()
            .map(|&c| game.format_code(c))
            .collect();
        for (n, secret) in secrets.iter().enumerate().step_by(331) {
            // The tree's own game against the secret.
            let code = game.parse_code(secret).unwrap();
            let mut node = &file.tree.root;
            let mut want = Vec::new();
            loop {
                let g = game.format_code(node.guess);
                let answer = colours(secret, &g);
                want.push(format!("{g} {answer}"));
                if g == *secret {
                    break;
                }
                node = node.child(game.feedback(code, node.guess)).unwrap();
            }
            let (status, out, err) = run(MOO, &["--game", preset, "solve", secret], "");
            assert_eq!(status, 0, "{secret}: {err}");
            assert_eq!(out.lines().collect::<Vec<_>>(), want, "{secret}");
            // `next` along the way, and `play` with the answers typed.
            let mut history = Vec::new();
            for line in &want[..want.len() - 1] {
                history.push(line.replace(' ', ":"));
                let args = [
                    &["--game", preset, "next"][..],
                    &history.iter().map(String::as_str).collect::<Vec<_>>(),
                ]
                .concat();
                let (status, out, err) = run(MOO, &args, "");
                assert_eq!(status, 0, "{err}");
                let next = &want[history.len()];
                assert!(out.starts_with(next.split(' ').next().unwrap()), "{out}");
                assert!(out.contains("from the tree"), "{out}");
            }
            let typed: String = want
                .iter()
                .map(|l| {
                    let a = l.split(' ').nth(1).unwrap();
                    if n % 2 == 0 {
                        format!("{a}\n")
                    } else {
                        format!("{}\n", a.to_lowercase().replace('b', "-"))
                    }
                })
                .collect();
            let (status, out, err) = run(MOO, &["--game", preset], &typed);
            assert_eq!(status, 0, "{secret}: {err}");
            let guesses: Vec<&str> = want.iter().map(|l| l.split(' ').next().unwrap()).collect();
            assert_eq!(out.lines().collect::<Vec<_>>(), guesses, "{secret}");
        }
    }
}

/// One JSON object a line of `moo` with these arguments.
fn json(args: &[&str]) -> Vec<serde_json::Value> {
    let (code, out, err) = run(MOO, args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `moo rank` and `moo analyze --game wordle`: the values the shipped
/// (upper-bound) tree proves are exact, and equal the exact search's
/// (`search::solve_after` on every class, no tree); the first word's
/// value is exact, and it is not called the best.
#[test]
fn wordle_rank_and_analyze_are_exact_where_proved() {
    use optimoo::search::solve_after;
    let (game, _) = shipped("wordle-salet.tree");
    // The search's total of `guess` after `history`: one per secret, plus
    // the optimum of each class it leaves.
    let searched = |history: &[(optimoo::model::Code, optimoo::model::Feedback)], guess: &str| {
        let g = game.parse_code(guess).unwrap();
        let set = optimoo::model::partition::consistent(&game, history);
        let mut total = set.len() as u64;
        for (f, _) in optimoo::model::partition::split(&game, g, &set) {
            if f != game.win() {
                let mut h = history.to_vec();
                h.push((g, f));
                total += solve_after(&game, &h, None).unwrap().unwrap().0;
            }
        }
        total
    };
    let parse = |text: &[&str]| {
        let text: Vec<String> = text.iter().map(|s| s.to_string()).collect();
        optimoo::model::moves::parse_history(&game, &text).unwrap()
    };
    let judged = json(&[
        "--game",
        "wordle",
        "analyze",
        "salet:BBBBB",
        "courd:BYBBB",
        "--json",
        "--budget",
        "0.3",
    ]);
    assert_eq!(judged.len(), 2);
    // Move 1: SALET's value is exact and is the search's; the best is not
    // proved (the tree is an upper bound).
    assert_eq!(judged[0]["move_exact"], true, "{}", judged[0]);
    assert_eq!(judged[0]["total"].as_u64(), Some(searched(&[], "salet")));
    assert_eq!(judged[0]["best_exact"], false, "{}", judged[0]);
    assert_ne!(judged[0]["verdict"], "best", "{}", judged[0]);
    // Move 2: on an exact subtree, proved the best without a search.
    let after = parse(&["salet:BBBBB"]);
    let optimum = solve_after(&game, &after, None).unwrap().unwrap().0;
    assert_eq!(judged[1]["best_exact"], true, "{}", judged[1]);
    assert_eq!(judged[1]["best_total"].as_u64(), Some(optimum));
    assert_eq!(judged[1]["total"].as_u64(), Some(searched(&after, "courd")));
    // The text says it in words.
    let (code, out, err) = run(
        MOO,
        &[
            "--game",
            "wordle",
            "analyze",
            "salet:BBBBB",
            "--budget",
            "0.2",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3.4212"), "{out}");
    assert!(out.contains("not proved the best guess"), "{out}");
    // rank after SALET: the tree's row, then searched ones, each the
    // search's total.
    let rows = json(&[
        "--game",
        "wordle",
        "rank",
        "salet:BBBBB",
        "--json",
        "--top",
        "3",
        "--budget",
        "inf",
    ]);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["source"], "tree", "{}", rows[0]);
    assert_eq!(rows[0]["total"].as_u64(), Some(optimum));
    for r in &rows {
        assert_eq!(r["exact"], true, "{r}");
        let guess = r["guess"].as_str().unwrap();
        assert_eq!(r["total"].as_u64(), Some(searched(&after, guess)), "{r}");
    }
    // rank at the root, within a small budget: SALET's exact value is
    // said even when the bounds fill the rows.
    let (code, out, err) = run(MOO, &["--game", "wordle", "rank", "--budget", "0.2"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("salet") && out.contains("3.4212"), "{out}");
    assert!(out.contains("not proved the best guess here"), "{out}");
}

/// A Wordle tree whose file claims the whole tree optimal (the shipped
/// one with its upper-bound section dropped, as the proof over every
/// first word would write it): SALET is then the proved best first word,
/// every other word at least its total, without a search.
#[test]
fn a_proved_wordle_tree_proves_the_first_word() {
    let (game, mut file) = shipped("wordle-salet.tree");
    file.header.bound = None;
    let path = scratch("proved-wordle.tree");
    std::fs::write(&path, file.to_bytes(&game).unwrap()).unwrap();
    let tree = path.to_str().unwrap();
    let judged = json(&[
        "--tree",
        tree,
        "analyze",
        "salet:BBBBB",
        "--json",
        "--budget",
        "0.2",
    ]);
    assert_eq!(judged[0]["best_exact"], true, "{}", judged[0]);
    assert_eq!(judged[0]["verdict"], "best", "{}", judged[0]);
    assert_eq!(judged[0]["total"], judged[0]["best_total"]);
    let total = judged[0]["total"].as_u64().unwrap();
    let rows = json(&[
        "--tree", tree, "rank", "--json", "--top", "5", "--budget", "0.2",
    ]);
    assert_eq!(rows[0]["guess"], "salet", "{}", rows[0]);
    assert_eq!(rows[0]["exact"], true);
    for r in &rows[1..] {
        assert!(r["total"].as_u64().unwrap() >= total, "{r}");
    }
    let (code, out, err) = run(MOO, &["--tree", tree, "rank", "--budget", "0.2"], "");
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("not proved the best"), "{out}");
    std::fs::remove_file(path).unwrap();
}

/// Bad input under `--game wordle`, for every command that reads a
/// history: a word of the wrong length, a word not in the list, an
/// answer no word gives: one error line, exit code 2.
#[test]
fn wordle_bad_histories_are_refused() {
    for command in ["next", "rank", "analyze"] {
        for (history, says) in [
            ("sale:BBBBB", "has 4 symbols"),
            ("zzzzz:BBBBB", "zzzzz"),
            ("salet:GGGGY", "GGGGY is impossible"),
            ("salet:BBBB", "BBBB"),
        ] {
            let (code, out, err) = run(MOO, &["--game", "wordle", command, history], "");
            assert_eq!(code, 2, "{command} {history}: {out}{err}");
            assert!(err.contains(says), "{command} {history}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}
