//! `moo` under Wordle's rule: a game of a word list played from a tree
//! file (every answer checked against a slow scorer of this test, typed
//! in each form: `GYBBY`, `gy---`, the squares), and `--game wordle`
//! without a tree (the heuristic's own first word).

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
fn moo_game_wordle_without_a_tree() {
    let (code, out, err) = run(MOO, &["--game", "wordle", "next"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("trace (no tree for mm:5x26/wordle"),
        "{out}"
    );
    assert!(out.contains("2315 secrets possible"), "{out}");
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
