//! The player with a secret list: the shipped word tree played against
//! every listed word, a tree refused with another list, and `moo host`
//! drawing its secret from the list and refusing unlisted guesses.

use optimoo::tree::check::answer;

use crate::trees::{run, scratch};
use crate::MOO;

const TREE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/words4.tree");
const LIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/words4.txt");
const LETTERS: &str = "aeilnoprst";

fn words() -> Vec<String> {
    std::fs::read_to_string(LIST)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_word_tree_finds_every_listed_word() {
    let bytes = std::fs::read(TREE).unwrap();
    let header = optimoo::tree::format::Header::peek(&bytes).unwrap();
    let mut total = 0;
    // Every fifth word (each a process): answers checked with the
    // checker's own count, guesses summed against the header's histogram.
    for w in words().iter().step_by(5) {
        let (code, out, err) = run(MOO, &["--tree", TREE, "solve", w], "");
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        for line in &lines {
            let (g, a) = line.split_once(' ').unwrap();
            let (b, c) = answer(w, g);
            assert_eq!(a, format!("{b}A{c}B"), "{w}: {line}");
        }
        assert_eq!(lines.last().unwrap(), &format!("{w} 4A0B"));
        assert!(lines.len() <= header.stats.max_depth);
        total += lines.len();
    }
    assert!(total > 0);
    // With the list given, the same tree plays; a word outside it is
    // no secret of the game.
    plays_with_list(LIST);
}

/// `moo --tree TREE --secrets LIST next`: the tree plays, every word of
/// the list possible.
fn plays_with_list(list: &str) {
    let args = ["--tree", TREE, "--secrets", list, "--alphabet", LETTERS];
    let (code, out, err) = run(MOO, &[&args[..], &["next"]].concat(), "");
    assert_eq!(code, 0, "{list}: {err}");
    let want = format!("{} secrets possible", words().len());
    assert!(out.contains(&want), "{out}");
}

#[test]
fn a_tree_with_another_list_is_refused() {
    let other = scratch("other-words.txt");
    std::fs::write(&other, words()[1..].join("\n")).unwrap();
    let other = other.display().to_string();
    let args = [
        "--tree",
        TREE,
        "--secrets",
        &other,
        "--alphabet",
        LETTERS,
        "next",
    ];
    let (code, _, err) = run(MOO, &args, "");
    assert_eq!(code, 2);
    assert!(err.contains("the tree file plays the list"), "{err}");
    // The embedded tree has no list.
    let (code, _, err) = run(MOO, &["--secrets", LIST, "--alphabet", LETTERS, "next"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--tree FILE"), "{err}");
}

#[test]
fn host_draws_from_the_list_and_refuses_unlisted_guesses() {
    let words = words();
    // An unlisted code first (refused), then every word in order.
    let input: String = std::iter::once("aeil".to_string())
        .chain(words.iter().cloned())
        .map(|w| w + "\n")
        .collect();
    let mut found = std::collections::BTreeSet::new();
    for seed in 1..=4 {
        let seed = seed.to_string();
        let args = [
            "host",
            "--secrets",
            LIST,
            "--alphabet",
            LETTERS,
            "--guesses",
            "secrets",
            "--seed",
            &seed,
        ];
        let (code, out, err) = run(MOO, &args, &input);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("'aeil'") || err.contains("aeil is not in the secret list"),
            "{err}"
        );
        let answers: Vec<&str> = out.lines().collect();
        let secret = &words[answers.len() - 1];
        for (w, a) in words.iter().zip(&answers) {
            let (b, c) = answer(secret, w);
            assert_eq!(*a, format!("{b}A{c}B"));
        }
        found.insert(secret.clone());
    }
    assert!(found.len() > 1, "the seed draws the secret: {found:?}");
}

/// `moo rank` and `moo analyze` on a list tree with only listed guesses:
/// every ranked guess is listed, the best value is the search's optimum,
/// and an unlisted guess is refused.
#[test]
fn rank_with_a_list_ranks_listed_guesses() {
    use optimoo::model::secrets::{self, GuessMode, SecretSet};
    use optimoo::model::Objective;
    use optimoo::tree::format::TreeFile;
    let text: String = words()
        .iter()
        .step_by(4)
        .map(|w| format!("{w}\n"))
        .collect();
    let list = scratch("rank-words.txt");
    std::fs::write(&list, &text).unwrap();
    let alphabet = secrets::Alphabet::new(LETTERS).unwrap();
    let rules: optimoo::model::Rules = "moo:4x10".parse().unwrap();
    let book = optimoo::model::Codebook::new(rules);
    let codes = secrets::parse_list(&book, &text, Some(&alphabet), "l").unwrap();
    let n = codes.len();
    let set = SecretSet::new(codes, GuessMode::Secrets, Some(alphabet), "l".into()).unwrap();
    let game = optimoo::model::Game::with_secrets(rules, set);
    let solution = optimoo::search::solve(&game, Default::default()).unwrap();
    let file = TreeFile::new(&game, solution.tree.unwrap(), Objective::Average, None).unwrap();
    let tree = scratch("rank-words.tree");
    std::fs::write(&tree, file.to_bytes(&game).unwrap()).unwrap();
    let tree = tree.display().to_string();
    let (code, out, err) = run(MOO, &["--tree", &tree, "rank", "--top", "0", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let listed: Vec<String> = text.lines().map(str::to_string).collect();
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!rows.is_empty());
    for r in &rows {
        assert!(
            listed.contains(&r["guess"].as_str().unwrap().to_string()),
            "{r}"
        );
        assert_eq!(r["left"], n);
    }
    assert_eq!(rows[0]["total"], solution.cost);
    let (code, _, err) = run(MOO, &["--tree", &tree, "analyze", "aeil:0A1B"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("aeil is not in the secret list"), "{err}");
}

/// The word list saved with a UTF-8 byte-order mark (issue 16) is the
/// same list: the word tree plays it (the mark was read as a letter).
#[test]
fn a_list_with_a_byte_order_mark_is_the_same_list() {
    let marked = scratch("words4-bom.txt");
    let text = std::fs::read_to_string(LIST).unwrap();
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    let marked = marked.display().to_string();
    for list in [LIST, &marked] {
        plays_with_list(list);
    }
}
