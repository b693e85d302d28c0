//! `optimoo verify`: exit 0 when every file holds, 1 when a tree fails its
//! claims, 2 when a file cannot be read.

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::tree::format::TreeFile;

use crate::trees::{first_consistent, first_consistent_file, run, scratch};
use crate::OPTIMOO;

#[test]
fn good_files_pass() {
    let (_, a) = first_consistent_file(&Game::new("mm:3x3".parse().unwrap()), "v-a.tree");
    let (_, b) = first_consistent_file(&Game::new("moo:3x5".parse().unwrap()), "v-b.tree");
    let (code, out, err) = run(
        OPTIMOO,
        &["verify", a.to_str().unwrap(), b.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches(": ok: ").count(), 2, "{out}");
    assert!(out.contains("mm:3x3 heuristic no cap: total"), "{out}");
}

/// A header that lies, written as a faulty solver would.
fn lying_file(name: &str, edit: impl FnOnce(&mut TreeFile)) -> std::path::PathBuf {
    let game = Game::new("moo:3x4".parse().unwrap());
    let mut file = TreeFile::new(&game, first_consistent(&game), Objective::Average, None).unwrap();
    edit(&mut file);
    let path = scratch(name);
    std::fs::write(&path, file.to_bytes(&game).unwrap()).unwrap();
    path
}

#[test]
fn claims_that_do_not_hold_fail_with_exit_1() {
    let total = lying_file("v-total.tree", |f| f.header.stats.total -= 1);
    let hist = lying_file("v-hist.tree", |f| {
        f.header.stats.histogram.swap(1, 2);
    });
    let cap = lying_file("v-cap.tree", |f| {
        f.header.cap = Some(f.header.stats.max_depth - 1)
    });
    let worst = lying_file("v-worst.tree", |f| {
        f.header.objective = Objective::Worst;
        f.header.cap = Some(f.header.stats.max_depth + 1);
    });
    for (path, words) in [
        (&total, "claims total"),
        (&hist, "claims histogram"),
        (&cap, "more than the cap"),
        (&worst, "never needs more than"),
    ] {
        let (code, out, _) = run(OPTIMOO, &["verify", path.to_str().unwrap()], "");
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("FAILED") && out.contains(words), "{out}");
    }
}

/// A header that lies about each statistic the independent checker
/// recomputes (crates/optimoo/tests/checker.rs checks the same in memory):
/// `optimoo verify` names the statistic and exits 1.
#[test]
fn each_lying_statistic_is_named() {
    let game = Game::new("mm:3x4".parse().unwrap());
    let file = TreeFile::new(&game, first_consistent(&game), Objective::Average, None).unwrap();
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
    for (field, edit) in edits {
        let mut lie = file.clone();
        edit(&mut lie);
        let path = scratch(&format!("c-lie-{}.tree", field.replace(' ', "-")));
        std::fs::write(&path, lie.to_bytes(&game).unwrap()).unwrap();
        let (code, out, _) = run(OPTIMOO, &["verify", path.to_str().unwrap()], "");
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(&format!("claims {field}")), "{out}");
    }
}

#[test]
fn unreadable_files_exit_2_and_the_others_are_still_checked() {
    let (_, good) = first_consistent_file(&Game::new("mm:2x3".parse().unwrap()), "v-good.tree");
    let bad = scratch("v-corrupt.tree");
    let mut bytes = std::fs::read(&good).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    std::fs::write(&bad, bytes).unwrap();
    let missing = scratch("v-missing.tree");
    let lie = lying_file("v-lie2.tree", |f| f.header.stats.total += 3);
    let args = [
        "verify",
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
        lie.to_str().unwrap(),
    ];
    let (code, out, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("checksum"), "{err}");
    assert!(out.contains(": ok: ") && out.contains("FAILED"), "{out}");
    let (code, _, _) = run(
        OPTIMOO,
        &["verify", good.to_str().unwrap(), lie.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 1);
}

/// The committed optimal trees hold their claims and the published optima
/// (Tanaka 1996 for moo:4x10, Koyama & Lai 1993 for mm:4x6).
#[test]
fn data_trees_have_the_published_optima() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let known = [
        ("moo-4x10-cap7.tree", 26274, 7),
        ("mm-4x6.tree", 5625, 6),
        ("mm-4x6-cap5.tree", 5626, 5),
    ];
    let mut seen = 0;
    for (name, total, depth) in known {
        let path = data.join(name);
        if !path.is_file() {
            continue; // not generated yet: scripts/regenerate-data.sh
        }
        let file = TreeFile::read(&path, None).unwrap();
        let game = Game::new(file.header.rules);
        let stats = file.verify(&game).unwrap();
        assert_eq!((stats.total, stats.max_depth), (total, depth), "{name}");
        assert_eq!(file.header.objective, Objective::Average);
        seen += 1;
    }
    let trees = std::fs::read_dir(&data)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "tree")
        })
        .count();
    assert!(seen > 0 || trees == 0);
}

/// The Wordle trees of data/ (`solve --game wordle --first salet`, and
/// `wordle-nyt`): SALET first, the published totals (7920 over the 2315
/// original answers, Selby 2022; 7897 over the 2309 NYT answers), at most
/// 5 guesses, under the independent checker; an upper bound whose every
/// subtree after SALET is proved exact, or (once the proof over every
/// first word rewrites them) proved optimal.
#[test]
fn data_wordle_trees_hold_salet() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for (name, total, answers) in [
        ("wordle-salet.tree", 7920, 2315),
        ("wordle-nyt-salet.tree", 7897, 2309),
    ] {
        let file = TreeFile::read(&data.join(name), None).unwrap();
        let game = file.header.game();
        let stats = file.verify(&game).unwrap();
        assert_eq!((stats.total, stats.max_depth), (total, 5), "{name}");
        assert_eq!(game.secret_count(), answers, "{name}");
        assert_eq!(file.header.objective, Objective::Average);
        assert_eq!(game.format_code(file.tree.root.guess), "salet", "{name}");
        if let Some(bound) = &file.header.bound {
            for (f, _) in &file.tree.root.children {
                assert!(bound.exact_at([*f]), "{name}: {}", game.format_feedback(*f));
            }
        }
    }
}

/// `optimoo verify data/*.tree`: every committed tree holds its claims
/// under the independent checker.
#[test]
fn verify_passes_on_every_data_tree() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let files: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tree"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    assert!(
        !files.is_empty(),
        "no data/*.tree: they are in git (scripts/regenerate-data.sh makes them)"
    );
    let mut args = vec!["verify"];
    args.extend(files.iter().map(|f| f.as_str()));
    let (code, out, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches(": ok: ").count(), files.len(), "{out}");
}
