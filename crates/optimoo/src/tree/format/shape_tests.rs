//! The tree files of [`super::shape`] against the model's: the same bytes
//! as the model's writer for the strategy's tree, the same statistics,
//! JSON and picture as the model's reader, verify and renderers, on files
//! written by the search too; and every way to break a file refused with
//! an error, never a panic.

use crate::exec::{Scoped, Sequential};
use crate::heuristic::phased::walk;
use crate::heuristic::phased::{Chooser, Phased};
use crate::heuristic::Heuristic;
use crate::model::shape::{Packed, Shape};
use crate::model::{Game, Objective, Rules};
use crate::observe::Silent;
use crate::rng::SplitMix64;
use crate::tree::dot;
use crate::tree::format::wire::crc32;
use crate::tree::format::{FormatError, TreeFile, VerifyError};

use super::shape::{self as file, FileError};

/// Options small enough that every phase happens on small games.
fn every_phase() -> Phased {
    Phased {
        heuristic: Heuristic::Entropy,
        exact_below: 6,
        heuristic_below: 60,
        extra: 25,
        work: 300,
        big_pool: 12,
        big_sample: 40,
        climb: 2,
        first: None,
        rollout: 0,
        rollout_above: 0,
    }
}

/// The model's file of the strategy's tree: `walk::tree`, then the
/// model's writer (what `eval --strategy phased -o` writes for a small
/// game).
fn model_bytes(chooser: &Chooser) -> Vec<u8> {
    let tree = walk::tree(chooser, &Sequential).unwrap();
    let game = Game::new(tree.rules);
    let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    file.to_bytes(&game).unwrap()
}

/// The encoder writes the model writer's bytes, on one thread and three,
/// with every phase and at the defaults, and counts the walk's statistics.
#[test]
fn encode_writes_the_model_writers_bytes() {
    for (name, opts) in [
        ("mm:1x5", every_phase()),
        ("moo:1x9", every_phase()),
        ("mm:4x6", every_phase()),
        ("mm:4x6", Phased::default()),
        ("moo:4x10", every_phase()),
        ("mm:2x16", every_phase()),
        ("moo:5x6", every_phase()),
        ("mm:7x2", every_phase()),
        ("moo:3x9", Phased::default()),
    ] {
        let shape: Shape = name.parse().unwrap();
        let chooser = Chooser::new(shape, opts).unwrap();
        let theirs = model_bytes(&chooser);
        let mut codes = shape.all_codes();
        let mut marks = vec![true; codes.len()];
        let walked = walk::walk(&chooser, &mut codes, &mut marks, &Sequential, &Silent).unwrap();
        for threads in [1, 3] {
            let (ours, stats) = walk::encode(&chooser, &Scoped(threads), &Silent).unwrap();
            assert!(ours == theirs, "{name} {opts:?} on {threads} threads");
            assert_eq!(stats, walked, "{name}");
        }
    }
}

/// Small files read both ways: the replay's statistics are the model's
/// verify's, the JSON is `export --format json`'s, the picture is
/// `export --format dot`'s at every depth limit; on the phased strategy's
/// files and on the files of data/ (optimal and improved trees written by
/// the search, caps and the crush objective included).
#[test]
fn the_replay_reads_what_the_model_reads() {
    let mut files = Vec::new();
    for name in ["mm:4x6", "moo:4x10", "mm:2x16", "moo:5x6", "mm:3x3"] {
        let shape: Shape = name.parse().unwrap();
        let chooser = Chooser::new(shape, every_phase()).unwrap();
        files.push((name.to_string(), model_bytes(&chooser)));
    }
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    for name in [
        "mm-4x6.tree",
        "mm-4x6-cap5.tree",
        "mm-4x6-crush.tree",
        "moo-3x10.tree",
        "moo-4x10-cap7.tree",
        "moo-4x10-crush.tree",
        "moo-5x6.tree",
    ] {
        files.push((name.to_string(), std::fs::read(data.join(name)).unwrap()));
    }
    for (name, bytes) in files {
        let model = TreeFile::from_bytes(&bytes, None).unwrap();
        let game = model.header.game();
        let verified = model.verify(&game).unwrap();
        let replay = file::replay(&bytes, &mut ()).unwrap();
        assert_eq!(replay.stats, verified, "{name}");
        assert_eq!(replay.check(), Ok(()), "{name}");
        let h = &replay.header;
        assert_eq!(
            (h.objective, h.cap, &h.stats),
            (
                model.header.objective,
                model.header.cap,
                &model.header.stats
            ),
            "{name}"
        );
        assert_eq!(replay.rewrite(&bytes).unwrap(), bytes, "{name}");

        let mut json = Vec::new();
        file::write_json(&bytes, &mut json).unwrap();
        let theirs = serde_json::to_string(&model.tree.to_json(&game)).unwrap() + "\n";
        assert!(String::from_utf8(json).unwrap() == theirs, "{name}: json");
        for depth in [None, Some(1), Some(2), Some(3), Some(9)] {
            let mut picture = Vec::new();
            file::write_dot(&bytes, "a \"caption\"", depth, &mut picture).unwrap();
            let theirs = dot::render(&game, &model.tree, "a \"caption\"", depth);
            assert!(
                String::from_utf8(picture).unwrap() == theirs,
                "{name}: dot {depth:?}"
            );
        }
    }
}

/// A file whose claims are wrong replays, and `check` names the claim;
/// `rewrite` puts the replay's figures in and then verifies.
#[test]
fn wrong_claims_are_named_and_rewritten() {
    let shape: Shape = "mm:3x4".parse().unwrap();
    let chooser = Chooser::new(shape, every_phase()).unwrap();
    let (bytes, stats) = walk::encode(&chooser, &Sequential, &Silent).unwrap();
    // The total is the varint after the cap (0): byte 14.
    let mut bad = bytes.clone();
    assert_eq!(bad[13], 0, "no cap");
    let total_len = {
        let mut out = Vec::new();
        crate::tree::format::wire::write_varint(&mut out, stats.total);
        out.len()
    };
    let mut total = Vec::new();
    crate::tree::format::wire::write_varint(&mut total, stats.total + 1);
    assert_eq!(total.len(), total_len);
    bad[14..14 + total_len].copy_from_slice(&total);
    let bad = reframe(&bad[..bad.len() - 4]);
    let replay = file::replay(&bad, &mut ()).unwrap();
    let err = replay.check().unwrap_err();
    assert!(
        matches!(err, VerifyError::Stats { field: "total", .. }),
        "{err}"
    );
    let fixed = replay.rewrite(&bad).unwrap();
    assert_eq!(fixed, bytes);
    // A cap the tree exceeds: the first secret over it is named.
    let mut capped = bytes[..bytes.len() - 4].to_vec();
    capped[13] = 2;
    let capped = reframe(&capped);
    let err = file::replay(&capped, &mut ()).unwrap().check().unwrap_err();
    assert!(err.to_string().contains("more than the cap of 2"), "{err}");
}

/// Ranks are candidates first, then the other codes in code order, and
/// `code_of_rank` inverts `rank_in`, on random sets of games with and
/// without repeats.
#[test]
fn ranks_invert() {
    let mut rng = SplitMix64::new(7);
    for name in ["mm:3x4", "moo:3x6", "mm:2x16", "moo:1x9"] {
        let shape: Shape = name.parse().unwrap();
        let all = shape.all_codes();
        for _ in 0..20 {
            let keep = 1 + rng.below(4);
            let set: Vec<Packed> = all
                .iter()
                .copied()
                .filter(|_| rng.below(keep + 1) == 0)
                .collect();
            if set.is_empty() {
                continue;
            }
            let order: Vec<Packed> = (0..all.len() as u64)
                .map(|r| shape.code_of_rank(&set, r))
                .collect();
            let others: Vec<Packed> = all
                .iter()
                .copied()
                .filter(|c| set.binary_search(c).is_err())
                .collect();
            assert_eq!(order, [set.clone(), others].concat(), "{name}");
            for (r, &c) in order.iter().enumerate() {
                assert_eq!(shape.rank_in(&set, c), r as u64);
            }
        }
    }
}

/// The bytes before the checksum, framed again: length and checksum
/// fixed, so the reader reaches the header and the body.
fn reframe(content: &[u8]) -> Vec<u8> {
    let mut out = content.to_vec();
    let len = (out.len() + 4) as u32;
    out[5..9].copy_from_slice(&len.to_le_bytes());
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The error of replaying `bytes`, as text (a panic fails the test).
fn refused(bytes: &[u8]) -> String {
    match file::replay(bytes, &mut ()) {
        Ok(r) => panic!("accepted: {r:?}"),
        Err(e) => e.to_string(),
    }
}

/// Every byte flipped, every truncation, a byte more: refused, no panic.
/// Then well-framed files (length and checksum fixed) with a bad body or
/// header: each refused with the reason.
#[test]
fn broken_files_are_refused() {
    let shape: Shape = "mm:3x4".parse().unwrap();
    let chooser = Chooser::new(shape, every_phase()).unwrap();
    let (bytes, _) = walk::encode(&chooser, &Sequential, &Silent).unwrap();
    for i in 0..bytes.len() {
        for x in [0x01, 0x80, 0xFF] {
            let mut bad = bytes.clone();
            bad[i] ^= x;
            refused(&bad);
        }
    }
    for len in 0..bytes.len() {
        refused(&bytes[..len]);
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(refused(&long).contains("unexpected bytes"));

    let content = &bytes[..bytes.len() - 4];
    let body = file::replay(&bytes, &mut ()).unwrap().body;
    // The root's rank is the body's first varint (one byte here: 64
    // codes); ranks at and above the 64 codes are refused.
    assert!(content[body.start] < 0x80);
    for rank in [64u8, 65, 127] {
        let mut bad = content.to_vec();
        bad[body.start] = rank;
        let err = refused(&reframe(&bad));
        assert!(
            err.contains(&format!("guess rank {rank} is not below the 64 codes")),
            "{err}"
        );
        assert!(err.contains(&format!("at byte {}", body.start)), "{err}");
    }
    // A byte more after the tree, the tree cut short.
    let mut extra = content.to_vec();
    extra.push(0);
    assert!(refused(&reframe(&extra)).contains("1 bytes left after the tree"));
    let cut = &content[..content.len() - 1];
    assert!(refused(&reframe(cut)).contains("guess missing"));
    // Flags: none implied, a secret list, an upper-bound section (huge
    // files are heuristic trees), an unknown one.
    for (flags, what) in [
        (1u8, "implied-leaves flag must be set"),
        (1 | 2 | 4, "secret list"),
        (1 | 2 | 8, "upper-bound section"),
        (1 | 2 | 16, "unknown flags"),
    ] {
        let mut bad = content.to_vec();
        bad[11] = flags;
        let err = refused(&reframe(&bad));
        assert!(err.contains(what), "{flags}: {err}");
    }
    // A game no reader plays, an unknown objective.
    let mut bad = content.to_vec();
    bad[10] = 17;
    assert!(refused(&reframe(&bad)).contains("16 symbols"));
    let mut bad = content.to_vec();
    bad[12] = 9;
    assert!(refused(&reframe(&bad)).contains("unknown objective 9"));
    // Too deep: the same file against a smaller limit.
    let depth = file::replay(&bytes, &mut ()).unwrap().stats.max_depth;
    let err = file::replay_within(&bytes, &mut (), depth - 1).unwrap_err();
    assert!(err.to_string().contains("deeper than"), "{err}");
    assert!(file::replay_within(&bytes, &mut (), depth).is_ok());
}

/// A guess that does not split its set is refused, with its byte: mm:1x3
/// guessing 0, then after 0A0B (set {1, 2}) the code 0 again (rank 2 =
/// |S| + 0), which every secret answers 0A0B, then 1 (rank 0).
#[test]
fn a_guess_that_does_not_split_is_refused() {
    let mut content = b"MOOT\x01\0\0\0\0".to_vec();
    // mm:1x3, repeats + implied leaves, heuristic; no cap, total 6, depth
    // 3, histogram 1 1 1; body: 0, 2, 0.
    content.extend_from_slice(&[1, 3, 3, 3, 0, 6, 3, 1, 1, 1, 0, 2, 0]);
    let err = refused(&reframe(&content));
    assert!(
        err.contains("guess 0 does not split its set of 2 secrets (every one answers 0A0B)"),
        "{err}"
    );
    assert!(
        err.contains(&format!("at byte {}", content.len() - 2)),
        "{err}"
    );
    // The model's reader accepts it (it allows such guesses): the rule is
    // this reader's, which bounds its files by N − 1 written nodes.
    assert!(TreeFile::from_bytes(&reframe(&content), None).is_ok());
    // Guessing 1 there (rank 0) at once: a valid file.
    content.pop();
    let n = content.len();
    content[n - 1] = 0;
    let replay = file::replay(&reframe(&content), &mut ()).unwrap();
    assert_eq!(replay.stats.histogram, [1, 1, 1]);
    assert_eq!(replay.check(), Ok(()));
}

/// The smallest game the model refuses (mm:4x16, 65,536 codes): written,
/// replayed, read back from disk, its length field bounded before the rest
/// is read; the bounds of the doc.
#[test]
fn a_game_over_the_model_round_trips() {
    assert!(Rules::new(4, 16, true).is_err());
    let shape: Shape = "mm:4x16".parse().unwrap();
    let opts = Phased {
        heuristic_below: 30,
        big_pool: 8,
        big_sample: 200,
        extra: 8,
        work: 0,
        exact_below: 0,
        climb: 0,
        ..Phased::default()
    };
    let chooser = Chooser::new(shape, opts).unwrap();
    let (bytes, stats) = walk::encode(&chooser, &Scoped(2), &Silent).unwrap();
    assert_eq!(stats.secrets, 65_536);
    assert_eq!(file::huge_game(&bytes), Some(shape));
    assert!(
        TreeFile::from_bytes(&bytes, None).is_err(),
        "not the model's"
    );
    let replay = file::replay(&bytes, &mut ()).unwrap();
    assert_eq!(replay.stats, stats);
    assert_eq!(replay.header.stats, stats);
    assert_eq!(replay.header.objective, Objective::Heuristic);
    assert_eq!(replay.check(), Ok(()));
    assert!(bytes.len() as u64 <= file::max_len(shape));

    let dir = std::env::temp_dir().join(format!("optimoo-huge-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mm-4x16.tree");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(file::read_file(&path).unwrap(), bytes);
    // A length field above the bound: refused from the first 13 bytes.
    let mut head = bytes[..13].to_vec();
    head[5..9].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&path, &head).unwrap();
    let err = file::read_file(&path).unwrap_err();
    assert!(matches!(err, FileError::TooLong { .. }), "{err}");
    // A small game's file is bounded by the model's bound.
    head[9..12].copy_from_slice(&[4, 6, 3]);
    std::fs::write(&path, &head).unwrap();
    let err = file::read_file(&path).unwrap_err();
    assert!(
        matches!(err, FileError::Format(FormatError::TooLong { .. })),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!(file::max_len("moo:6x10".parse().unwrap()), 2_584 + 453_597);
    assert_eq!(file::max_len("mm:8x16".parse().unwrap()), u32::MAX as u64);
}
