//! Secret lists (`--secrets`, `--alphabet`, `--guesses`) through the
//! command line: `solve` against a brute-force minimum written here, `eval`
//! and `export` against a replay of the exported JSON with the checker's
//! own bulls-and-cows count, tree files refused with the wrong list, bad
//! lists refused with their line.

use std::collections::HashMap;

use optimoo::model::secrets::{GuessMode, SecretSet};
use optimoo::model::{Code, Game};
use optimoo::rng::SplitMix64;
use optimoo::tree::check::answer;
use serde_json::Value;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// Least total guesses for the written `set` guessing only `guesses`
/// (written codes), counted with [`answer`]: every guess, no pruning.
fn brute(guesses: &[String], set: &[String], memo: &mut HashMap<Vec<String>, u64>) -> u64 {
    if set.len() <= 1 {
        return set.len() as u64;
    }
    if let Some(&v) = memo.get(set) {
        return v;
    }
    let k = set[0].chars().count();
    let mut best = u64::MAX;
    for g in guesses {
        let mut classes: HashMap<(usize, usize), Vec<String>> = HashMap::new();
        for s in set {
            classes.entry(answer(s, g)).or_default().push(s.clone());
        }
        if classes.len() == 1 && !classes.contains_key(&(k, 0)) {
            continue;
        }
        let mut total = set.len() as u64;
        for (a, class) in &classes {
            if a.0 != k {
                total += brute(guesses, class, memo);
            }
        }
        best = best.min(total);
    }
    memo.insert(set.to_vec(), best);
    best
}

/// Writes a list file (with a comment and a blank line) and returns its path.
fn list_file(name: &str, words: &[String]) -> String {
    let path = scratch(name);
    let text = format!("# test list\n\n{}\n", words.join("\n"));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// A random list of `n` codes of `game`, written.
fn random_list(game: &Game, n: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let mut codes: Vec<Code> = (0..n).map(|_| Code(rng.below(game.len()) as u16)).collect();
    codes.sort_unstable();
    codes.dedup();
    codes.iter().map(|&c| game.format_code(c)).collect()
}

/// Plays every written secret through an exported JSON tree with
/// [`answer`]; the total guesses, and every guess seen.
fn walk_json(json: &Value, secrets: &[String]) -> (u64, Vec<String>) {
    let mut total = 0;
    let mut seen = Vec::new();
    for s in secrets {
        let mut node = &json["root"];
        let k = s.chars().count();
        for depth in 1.. {
            let g = node["guess"].as_str().unwrap();
            seen.push(g.to_string());
            let (b, c) = answer(s, g);
            if b == k {
                total += depth;
                break;
            }
            node = &node["next"][format!("{b}A{c}B")];
            assert!(node.is_object(), "{s}: no move after {g}");
        }
    }
    (total, seen)
}

/// `optimoo ARGS --json`, which must succeed: its output.
fn json_of(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, &[args, &["--json"]].concat(), "");
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn json_field(out: &str, field: &str) -> u64 {
    let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    v[field].as_u64().unwrap()
}

#[test]
fn solve_with_lists_equals_brute_force() {
    for (rules, seed, n) in [("moo:3x4", 1, 8), ("mm:3x3", 2, 9), ("moo:4x5", 3, 10)] {
        let game = Game::new(rules.parse().unwrap());
        let list = random_list(&game, n, seed);
        let path = list_file(&format!("solve-{seed}.txt"), &list);
        let all: Vec<String> = game.codes().all().map(|c| game.format_code(c)).collect();
        for (mode, guesses) in [("all", &all), ("secrets", &list)] {
            let want = brute(guesses, &list, &mut HashMap::new());
            let args = [
                "solve",
                "--game",
                rules,
                "--secrets",
                &path,
                "--guesses",
                mode,
                "--json",
            ];
            let (code, out, err) = run(OPTIMOO, &args, "");
            assert_eq!(code, 0, "{err}");
            assert_eq!(json_field(&out, "total"), want, "{rules} {mode} {list:?}");
            assert!(out.contains(&format!("{} secrets of {path}, guesses {mode}", list.len())));
        }
    }
}

#[test]
fn words_over_an_alphabet_play_their_game() {
    // moo:3x5 written in the letters "pesto": the game is inferred.
    let words: Vec<String> = [
        "pet", "set", "top", "opt", "pot", "toe", "ops", "sop", "tse",
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    let path = list_file("words.txt", &words);
    let letters: Vec<char> = "pesto".chars().collect();
    let mut all = Vec::new();
    for a in &letters {
        for b in &letters {
            for c in &letters {
                if a != b && b != c && a != c {
                    all.push(format!("{a}{b}{c}"));
                }
            }
        }
    }
    let want = brute(&all, &words, &mut HashMap::new());
    let tree = scratch("words.tree");
    let tree = tree.to_str().unwrap();
    let args = [
        "solve",
        "--secrets",
        &path,
        "--alphabet",
        "pesto",
        "--json",
        "-o",
        tree,
    ];
    let (code, out, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_field(&out, "total"), want);
    assert!(out.contains("\"game\":\"moo:3x5, 9 secrets of"), "{out}");
    // The file plays the words: exported, replayed, verified.
    let (code, json, err) = run(OPTIMOO, &["export", tree], "");
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["secrets"]["alphabet"], "pesto");
    // In code order: alphabet order, p < e < s < t < o.
    let mut sorted = words.clone();
    let rank = |w: &String| {
        w.chars()
            .map(|c| "pesto".find(c).unwrap())
            .collect::<Vec<_>>()
    };
    sorted.sort_by_key(rank);
    assert_eq!(json["secrets"]["codes"], serde_json::json!(sorted));
    assert_eq!(walk_json(&json, &words).0, want);
    // The picture counts the listed secrets at the root.
    let dot = ["export", tree, "--format", "dot", "--depth", "1"];
    let (code, out, err) = run(OPTIMOO, &dot, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\\n9\\n"), "{out}");
    // The page embeds the list, its guess mode and its alphabet, and its
    // tree plays the words in the brute-force total.
    let html = ["export", tree, "--format", "html"];
    let (code, page, err) = run(OPTIMOO, &html, "");
    assert_eq!(code, 0, "{err}");
    let open = r#"<script type="application/json" id="tree-data">"#;
    let start = page.find(open).expect("the data element") + open.len();
    let data = &page[start..start + page[start..].find("</script>").expect("its end")];
    let (game, back) = optimoo::tree::html::decode(data).unwrap();
    let set = game.secret_set().expect("the page holds the list");
    assert_eq!(
        set.alphabet.as_ref().map(|a| a.text()).as_deref(),
        Some("pesto")
    );
    assert_eq!(set.guesses, GuessMode::All);
    let listed: Vec<String> = set.codes().iter().map(|&c| game.format_code(c)).collect();
    assert_eq!(listed, sorted);
    assert_eq!(back.replay(&game, None).unwrap().total, want);
    let (code, out, err) = run(OPTIMOO, &["verify", tree], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("total {want}")), "{out}");
    // The same list given again is accepted; another one is refused.
    let same = ["verify", tree, "--secrets", &path, "--alphabet", "pesto"];
    assert_eq!(run(OPTIMOO, &same, "").0, 0);
    let other = list_file("other.txt", &words[1..]);
    let wrong = ["verify", tree, "--secrets", &other, "--alphabet", "pesto"];
    let (code, _, err) = run(OPTIMOO, &wrong, "");
    assert_eq!(code, 2);
    assert!(
        err.contains("the tree file plays the list 9 secrets of"),
        "{err}"
    );
    let mode = [
        "verify",
        tree,
        "--secrets",
        &path,
        "--alphabet",
        "pesto",
        "--guesses",
        "secrets",
    ];
    assert_eq!(run(OPTIMOO, &mode, "").0, 2);
}

#[test]
fn eval_and_export_with_lists_replay_over_the_list() {
    let game = Game::new("moo:4x5".parse().unwrap());
    let list = random_list(&game, 14, 5);
    let path = list_file("eval.txt", &list);
    for mode in ["all", "secrets"] {
        let args = [
            "eval",
            "--game",
            "moo:4x5",
            "--secrets",
            &path,
            "--guesses",
            mode,
            "--json",
        ];
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 0, "{err}");
        let optimum = {
            let all: Vec<String> = game.codes().all().map(|c| game.format_code(c)).collect();
            let guesses = if mode == "all" { &all } else { &list };
            brute(guesses, &list, &mut HashMap::new())
        };
        for line in out.lines() {
            let row: Value = serde_json::from_str(line).unwrap();
            let strategy = row["strategy"].as_str().unwrap();
            assert_eq!(row["secrets"], list.len(), "{strategy}");
            let export = [
                "export",
                "--game",
                "moo:4x5",
                "--secrets",
                &path,
                "--guesses",
                mode,
                "--strategy",
                strategy,
            ];
            let (code, json, err) = run(OPTIMOO, &export, "");
            assert_eq!(code, 0, "{err}");
            let json: Value = serde_json::from_str(&json).unwrap();
            let (total, guesses) = walk_json(&json, &list);
            assert_eq!(row["total"], total, "{mode} {strategy}");
            assert!(total >= optimum, "{mode} {strategy}");
            if mode == "secrets" {
                assert!(guesses.iter().all(|g| list.contains(g)), "{strategy}");
            }
        }
    }
}

#[test]
fn bad_lists_are_refused_with_their_line() {
    let cases: [(&str, &[&str], &str); 7] = [
        (
            "012\n0123\n",
            &["--game", "moo:3x4"],
            ":2: '0123' has 4 symbols",
        ),
        (
            "012\n011\n",
            &["--game", "moo:3x4"],
            ":2: '011' repeats the symbol '1'",
        ),
        (
            "012\n019\n",
            &["--game", "moo:3x4"],
            ":2: '019': '9' is not a symbol",
        ),
        (
            "012\n# c\n012\n",
            &["--game", "moo:3x4"],
            ":3: '012' is listed twice (first on line 1)",
        ),
        (
            "# nothing\n\n",
            &["--game", "moo:3x4"],
            ": the list has no code",
        ),
        (
            "abc\nabz\n",
            &["--alphabet", "abcd"],
            ":2: 'abz': 'z' is not a symbol",
        ),
        (
            "abc\n",
            &["--alphabet", "abcd", "--game", "moo:3x5"],
            "--alphabet has 4 letters, but moo:3x5 has 5",
        ),
    ];
    for (i, (text, extra, want)) in cases.iter().enumerate() {
        let path = scratch(&format!("bad-{i}.txt"));
        std::fs::write(&path, text).unwrap();
        let path = path.display().to_string();
        for sub in ["solve", "eval"] {
            let mut args = vec![sub, "--secrets", &path];
            args.extend_from_slice(extra);
            let (code, _, err) = run(OPTIMOO, &args, "");
            assert_eq!(code, 2, "{sub} {text:?}: {err}");
            assert!(err.contains(want), "{sub} {text:?}: {err}");
        }
    }
    let (code, _, err) = run(OPTIMOO, &["solve", "--secrets", "/nonexistent/list"], "");
    assert_eq!(code, 2, "{err}");
    // A flag that needs --secrets.
    assert_eq!(run(OPTIMOO, &["solve", "--guesses", "secrets"], "").0, 2);
    // Too many codes for one game: the message says what to do.
    let wide: Vec<String> = ["abcde", "fghij", "klmno", "pqrst"]
        .map(String::from)
        .to_vec();
    let path = list_file("wide.txt", &wide);
    let args = [
        "eval",
        "--secrets",
        &path,
        "--alphabet",
        "abcdefghijklmnopqrstuvwxyz",
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2);
    assert!(err.contains("a smaller alphabet"), "{err}");
}

#[test]
fn the_shipped_word_tree_is_optimal_and_verified() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
    let tree = format!("{data}words4.tree");
    let list = format!("{data}words4.txt");
    let (code, out, err) = run(OPTIMOO, &["verify", &tree], "");
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&tree).unwrap();
    let header = optimoo::tree::format::Header::peek(&bytes).unwrap();
    let set: &SecretSet = header.secrets.as_ref().unwrap();
    assert_eq!(set.guesses, GuessMode::All);
    assert!(
        out.contains(&format!("total {}", header.stats.total)),
        "{out}"
    );
    // The search finds the same optimum again from the list.
    let out = json_of(&["solve", "--secrets", &list, "--alphabet", "aeilnoprst"]);
    assert_eq!(json_field(&out, "total"), header.stats.total);
    // Over the whole alphabet the game is cut to the words' letters and
    // four spare ones (moo:4x14), or the words' letters alone with
    // --guesses secrets, whose optimum is the same here.
    let az = [
        "--secrets",
        &list,
        "--alphabet",
        "abcdefghijklmnopqrstuvwxyz",
    ];
    let out = json_of(&[&["eval", "--strategy", "first"], &az[..]].concat());
    assert!(out.contains("\"game\":\"moo:4x14, 189 secrets"), "{out}");
    let out = json_of(&[&["solve", "--guesses", "secrets"], &az[..]].concat());
    assert!(out.contains("\"game\":\"moo:4x10, 189 secrets"), "{out}");
    assert_eq!(json_field(&out, "total"), header.stats.total);
    let words = std::fs::read_to_string(&list).unwrap();
    let words = words
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    assert_eq!(set.codes().len(), words.count());
}

/// Letters `"` and `\` (issue 16): the dot picture of a list tree escapes
/// them in its labels (Graphviz rejected the file), and the words read back.
#[test]
fn dot_labels_escape_quotes_and_backslashes() {
    let words: Vec<String> = ["\"\\x", "x\"\\", "\\\"y", "y\\x"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let list = list_file("dot-quotes.txt", &words);
    let tree = scratch("dot-quotes.tree").display().to_string();
    let args = [
        "solve",
        "--secrets",
        &list,
        "--alphabet",
        "\"\\xy",
        "-o",
        &tree,
    ];
    let (code, _, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let (code, dot, err) = run(OPTIMOO, &["export", &tree, "--format", "dot"], "");
    assert_eq!(code, 0, "{err}");
    // Each node label: the word escaped, then its count of secrets.
    let mut seen = Vec::new();
    let node = |l: &&str| {
        let l = l.trim_start();
        l.starts_with('n') && l[1..].starts_with(|c: char| c.is_ascii_digit()) && !l.contains("->")
    };
    for line in dot.lines().filter(node) {
        let label = line
            .split_once("[label=\"")
            .and_then(|(_, rest)| rest.split_once("\\n"))
            .map(|(word, _)| word)
            .unwrap_or_else(|| panic!("a node line without a label: {line}"));
        let mut read = String::new();
        let mut chars = label.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e @ ('"' | '\\')) => read.push(e),
                    other => panic!("{line}: a stray backslash before {other:?}"),
                },
                '"' => panic!("{line}: an unescaped quote"),
                c => read.push(c),
            }
        }
        seen.push(read);
    }
    assert_eq!(seen.len(), 4, "{dot}");
    for w in &words {
        assert!(seen.contains(w), "{w:?} in {seen:?}: {dot}");
    }
}

/// A list saved with a UTF-8 byte-order mark (issue 16) plays as without
/// it (`moo`: crates/moo/tests/lists.rs): the mark is not a letter of the first
/// word (it was: "has 4 symbols", or a symbol outside the alphabet).
#[test]
fn a_byte_order_mark_starts_no_word() {
    let words: Vec<String> = ["bake", "cake", "lake", "bale", "kale", "leak"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let plain = list_file("bom-plain.txt", &words);
    let marked = scratch("bom-marked.txt");
    let text = std::fs::read_to_string(&plain).unwrap();
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    let marked = marked.display().to_string();
    let solve = |list: &str| {
        let args = ["solve", "--secrets", list, "--alphabet", "abcekl", "--json"];
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 0, "{err}");
        (
            json_field(&out, "total"),
            out.contains("\"game\":\"moo:4x6"),
        )
    };
    let want = solve(&plain);
    assert!(want.1, "the game of 4-letter words over 6 letters");
    assert_eq!(solve(&marked), want);
    // Digits, no alphabet.
    let codes = scratch("bom-codes.txt");
    std::fs::write(&codes, "\u{feff}0123\n4567\n0145\n").unwrap();
    let codes = codes.display().to_string();
    let (code, out, err) = run(OPTIMOO, &["solve", "--secrets", &codes, "--json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 secrets of"), "{out}");
}
