//! The independent checker of `optimoo verify` (tree/check.rs): its own
//! bulls-and-cows rule over written codes agrees with the solver's rule on
//! every pair of codes of small games of both families, and it rejects
//! trees and headers that do not hold (`optimoo verify` on such files: the
//! top tests/verify.rs).

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::tree::check::{answer, check};
use optimoo::tree::format::{TreeFile, VerifyError};
use optimoo::tree::Node;
use optimoo::tree::TreeError;

use crate::trees::{first_consistent, random_tree};

const GAMES: [&str; 8] = [
    "moo:3x5", "moo:4x6", "moo:2x10", "mm:3x4", "mm:4x4", "mm:2x6", "mm:1x5", "mm:4x6",
];

/// The two rules agree on every (secret, guess) pair: 1,296² pairs for
/// mm:4x6 and 360² for moo:4x6, among others.
#[test]
fn the_checker_rule_agrees_with_game_feedback_on_every_pair() {
    for name in GAMES {
        let game = Game::new(name.parse().unwrap());
        let k = game.positions();
        let written: Vec<String> = game
            .all_codes()
            .iter()
            .map(|&c| game.format_code(c))
            .collect();
        for secret in game.all_codes() {
            for guess in game.all_codes() {
                let f = game.feedback(secret, guess);
                let mine = answer(&written[secret.index()], &written[guess.index()]);
                assert_eq!(
                    mine,
                    (f.bulls(k), f.cows(k)),
                    "{name}: secret {} guess {}",
                    written[secret.index()],
                    written[guess.index()]
                );
            }
        }
    }
}

/// On valid trees (random ones, wasted guesses included) the checker and
/// the replay give the same statistics.
#[test]
fn the_checker_and_the_replay_agree_on_valid_trees() {
    for name in GAMES {
        let game = Game::new(name.parse().unwrap());
        for seed in 0..20u32 {
            let choices: Vec<u32> = (0..40)
                .map(|i| (seed * 7919 + i * 104_729) % 1000)
                .collect();
            let tree = random_tree(&game, &choices);
            assert_eq!(
                check(&game, &tree, None),
                tree.replay(&game, None),
                "{name}"
            );
        }
    }
}

/// A wrong branch: two subtrees of the root swapped (each still a valid
/// subtree of something), a child under an answer no secret gives, a
/// missing child, an illegal guess.
#[test]
fn the_checker_rejects_wrong_branches() {
    let game = Game::new("moo:3x5".parse().unwrap());
    let good = first_consistent(&game);
    assert!(check(&game, &good, None).is_ok());

    let mut swapped = good.clone();
    let n = swapped.root.children.len();
    let (a, b) = (
        swapped.root.children[0].1.clone(),
        swapped.root.children[n - 1].1.clone(),
    );
    swapped.root.children[0].1 = b;
    swapped.root.children[n - 1].1 = a;
    let err = check(&game, &swapped, None).unwrap_err();
    assert!(
        matches!(
            err,
            TreeError::MissingBranch { .. } | TreeError::UnreachableBranch { .. }
        ),
        "{err}"
    );

    let mut stray = good.clone();
    let impossible = optimoo::model::Feedback(0); // 0A0B
    stray.root.children.retain(|(f, _)| *f != impossible);
    let sub = stray.root.children[0].1.clone();
    stray.root.children.insert(0, (impossible, sub));
    // No secret of moo:3x5 avoids all of 0, 1 and 2 (the root's guess).
    assert!(matches!(
        check(&game, &stray, None),
        Err(TreeError::UnreachableBranch { .. })
    ));

    let mut missing = good.clone();
    missing.root.children.pop();
    assert!(matches!(
        check(&game, &missing, None),
        Err(TreeError::MissingBranch { .. })
    ));

    let mut illegal = good;
    illegal.root.children[0].1 = Node::leaf(optimoo::model::Code(60));
    assert!(matches!(
        check(&game, &illegal, None),
        Err(TreeError::IllegalGuess { index: 60, .. })
    ));
}

/// A header that lies about each statistic is caught.
#[test]
fn the_checker_rejects_a_lying_header() {
    let game = Game::new("mm:3x4".parse().unwrap());
    let file = TreeFile::new(&game, first_consistent(&game), Objective::Average, None).unwrap();
    assert!(file.verify(&game).is_ok());
    for (field, lie) in lying_headers(&file) {
        let err = lie.verify(&game).unwrap_err();
        assert!(
            matches!(&err, VerifyError::Stats { field: f, .. } if *f == field),
            "{field}: {err}"
        );
    }
}

/// `file` with its header lying about each statistic in turn: the name of
/// the statistic and the file.
fn lying_headers(file: &TreeFile) -> Vec<(&'static str, TreeFile)> {
    type Edit = (&'static str, fn(&mut TreeFile));
    let edits: [Edit; 4] = [
        ("total", |f| f.header.stats.total += 1),
        ("histogram", |f| f.header.stats.histogram.swap(1, 2)),
        ("max depth", |f| {
            f.header.stats.max_depth += 1;
            f.header.stats.histogram.push(0);
        }),
        ("secrets", |f| {
            f.header.stats.histogram[0] += 1;
            f.header.stats.secrets += 1;
        }),
    ];
    edits
        .into_iter()
        .map(|(field, edit)| {
            let mut lie = file.clone();
            edit(&mut lie);
            (field, lie)
        })
        .collect()
}
