//! The tree file: round trips, canonical bytes, and every way to break it
//! (through the library; `optimoo` and `moo` refusing bad files: the top
//! tests/format.rs and crates/moo/tests/format.rs).

use optimoo::model::Feedback;
use optimoo::model::Objective;
use optimoo::model::{Game, Rules};
use optimoo::tree::format::wire::crc32;
use optimoo::tree::format::{Bound, FormatError, Header, TreeFile};
use proptest::prelude::*;

use crate::bad_files::{self, BadFile};
use crate::trees::{first_consistent, random_tree};

const SMALL_GAMES: [&str; 8] = [
    "mm:1x1", "mm:1x4", "mm:2x3", "moo:2x4", "mm:3x3", "moo:3x5", "moo:3x4", "mm:2x5",
];

fn encoded(game: &Game, choices: &[u32]) -> (TreeFile, Vec<u8>) {
    let tree = random_tree(game, choices);
    let file = TreeFile::new(game, tree, Objective::Heuristic, None).unwrap();
    let bytes = file.to_bytes(game).unwrap();
    (file, bytes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random valid trees come back equal, header and all, and re-encode to
    /// the same bytes.
    #[test]
    fn random_trees_round_trip(
        game in prop::sample::select(&SMALL_GAMES[..]),
        choices in prop::collection::vec(any::<u32>(), 0..48),
        objective in prop::sample::select(&Objective::ALL[..]),
        slack in prop::option::of(0usize..3),
    ) {
        let game = Game::new(game.parse().unwrap());
        let tree = random_tree(&game, &choices);
        let depth = tree.replay(&game, None).unwrap().max_depth;
        let file = TreeFile::new(&game, tree, objective, slack.map(|s| depth + s)).unwrap();
        let bytes = file.to_bytes(&game).unwrap();
        let back = TreeFile::from_bytes(&bytes, Some(game.rules())).unwrap();
        prop_assert_eq!(&back, &file);
        prop_assert_eq!(back.to_bytes(&game).unwrap(), bytes.clone());
        prop_assert_eq!(Header::peek(&bytes).unwrap(), file.header);
    }
}

#[test]
fn leaves_are_implied_unless_a_tree_wastes_one() {
    let game = Game::new(Rules::mm(1, 3).unwrap());
    let plain = first_consistent(&game);
    let file = TreeFile::new(&game, plain.clone(), Objective::Heuristic, None).unwrap();
    let bytes = file.to_bytes(&game).unwrap();
    assert_eq!(bytes[11] & 2, 2, "a plain tree implies its leaves");
    // Guess 0, then 1, then (one secret left: 2) the useless 0, then 2.
    let mut wasteful = plain;
    let miss = game.parse_feedback("0A0B").unwrap();
    let last = &mut wasteful.root.children[0].1.children[0].1;
    *last = optimoo::tree::Node {
        guess: optimoo::model::Code(0),
        children: vec![(miss, optimoo::tree::Node::leaf(optimoo::model::Code(2)))],
    };
    let file = TreeFile::new(&game, wasteful, Objective::Heuristic, None).unwrap();
    assert_eq!(file.header.stats.total, 1 + 2 + 4);
    let bytes = file.to_bytes(&game).unwrap();
    assert_eq!(bytes[11] & 2, 0, "every node is written");
    assert_eq!(TreeFile::from_bytes(&bytes, None).unwrap(), file);
}

#[test]
fn every_flipped_byte_and_every_truncation_is_refused() {
    let game = Game::new("mm:3x3".parse().unwrap());
    let (_, bytes) = encoded(&game, &[1, 2, 5, 9, 13]);
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x10, 0x80, 0xFF] {
            let mut bad = bytes.clone();
            bad[i] ^= mask;
            let err = TreeFile::from_bytes(&bad, None).unwrap_err();
            let expected = match i {
                0..=3 => matches!(err, FormatError::WrongMagic),
                4 => matches!(err, FormatError::UnsupportedVersion { .. }),
                5..=8 => matches!(
                    err,
                    FormatError::Truncated { .. }
                        | FormatError::TrailingBytes { .. }
                        | FormatError::Malformed { .. }
                ),
                _ => matches!(err, FormatError::Checksum { .. }),
            };
            assert!(expected, "byte {i} ^ {mask:#x}: {err}");
        }
    }
    for len in 0..bytes.len() {
        let err = TreeFile::from_bytes(&bytes[..len], None).unwrap_err();
        assert!(
            matches!(err, FormatError::Truncated { .. }),
            "{len} bytes: {err}"
        );
        assert!(err.to_string().contains("truncated"), "{err}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        TreeFile::from_bytes(&long, None),
        Err(FormatError::TrailingBytes { extra: 1 })
    ));
}

/// Rewrites a byte and fixes the checksum, as a faulty writer would.
fn forge(bytes: &[u8], at: usize, value: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at] = value;
    let n = out.len() - 4;
    let crc = crc32(&out[..n]);
    out[n..].copy_from_slice(&crc.to_le_bytes());
    out
}

#[test]
fn bad_contents_behind_a_good_checksum_are_named() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let (_, bytes) = encoded(&game, &[0]);
    let err = |b: &[u8]| TreeFile::from_bytes(b, None).unwrap_err().to_string();
    assert!(err(&forge(&bytes, 9, 0)).contains("invalid game"));
    assert!(err(&forge(&bytes, 10, 99)).contains("invalid game"));
    assert!(err(&forge(&bytes, 11, bytes[11] | 0x40)).contains("unknown flags"));
    assert!(err(&forge(&bytes, 12, 7)).contains("unknown objective 7"));
    // The last body byte is the rank of a guess: far above the 9 codes.
    let last = bytes.len() - 5;
    assert!(err(&forge(&bytes, last, 0x7F)).contains("guess rank 127"));
    // A body byte as a varint continuation: the tree runs off the end.
    assert!(err(&forge(&bytes, last, 0x80)).contains("missing"));
    // Claiming a version 2 file.
    let v2 = forge(&bytes, 4, 2);
    assert!(matches!(
        TreeFile::from_bytes(&v2, None),
        Err(FormatError::UnsupportedVersion {
            found: 2,
            supported: 1
        })
    ));
    assert!(matches!(
        TreeFile::from_bytes(b"PK\x03\x04rest", None),
        Err(FormatError::WrongMagic)
    ));
}

#[test]
fn a_file_for_another_game_is_refused_when_a_game_is_expected() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let (_, bytes) = encoded(&game, &[0]);
    let other: Rules = "moo:2x3".parse().unwrap();
    let err = TreeFile::from_bytes(&bytes, Some(other)).unwrap_err();
    assert!(matches!(err, FormatError::WrongGame { .. }));
    assert_eq!(err.to_string(), "the tree file plays mm:2x3, not moo:2x3");
    assert!(TreeFile::from_bytes_in(&Game::new(other), &bytes).is_err());
}

#[test]
fn invalid_trees_are_not_written() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let mut tree = first_consistent(&game);
    tree.root.children.pop();
    let file = optimoo::tree::format::TreeFile {
        header: Header {
            universe: None,
            secrets: None,
            rules: game.rules(),
            objective: Objective::Heuristic,
            cap: None,
            stats: Default::default(),
            bound: None,
        },
        tree: tree.clone(),
    };
    assert!(matches!(
        file.to_bytes(&game),
        Err(FormatError::InvalidTree(_))
    ));
    assert!(TreeFile::new(&game, tree, Objective::Heuristic, None).is_err());
    let good = first_consistent(&game);
    let depth = good.replay(&game, None).unwrap().max_depth;
    assert!(TreeFile::new(&game, good, Objective::Average, Some(depth - 1)).is_err());
}

#[test]
fn moo_tree_file_is_small() {
    let game = Game::new(Rules::standard());
    let tree = first_consistent(&game);
    let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    let bytes = file.to_bytes(&game).unwrap();
    let nodes = file.tree.root.node_count();
    // The published total of the first consistent code in lexicographic
    // order (Mo Tao; docs/heuristics.md).
    assert_eq!(file.header.stats.total, 28024);
    eprintln!(
        "moo:4x10 first-consistent tree: {nodes} nodes, {} bytes",
        bytes.len()
    );
    assert!(bytes.len() <= 16 * 1024);
    assert_eq!(TreeFile::from_bytes(&bytes, None).unwrap(), file);
    // Kept for scripts/bench-player.sh runs by hand.
    std::fs::write(crate::trees::scratch("moo-first.tree"), &bytes).unwrap();
}

/// Games too wide for bit signatures (k * n > 64) decode through the rule.
#[test]
fn wide_games_round_trip() {
    let game = Game::new("mm:2x36".parse().unwrap());
    let file = TreeFile::new(&game, first_consistent(&game), Objective::Heuristic, None).unwrap();
    let bytes = file.to_bytes(&game).unwrap();
    assert_eq!(TreeFile::from_bytes(&bytes, None).unwrap(), file);
}

/// The library's bounded reader ([`TreeFile::read`], through
/// `format::read_file`) refuses a file it must not read in full, with the
/// words the commands show (the commands: the top tests/format.rs and
/// crates/moo/tests/format.rs).
fn refused_by_the_reader(files: Vec<(BadFile, &str)>) {
    for (file, words) in files {
        let writer = file.feed();
        let result = TreeFile::read(file.path(), None);
        if let Some(writer) = writer {
            writer.finish();
        }
        let err = result.expect_err(file.path_str());
        assert!(
            err.to_string().contains(words),
            "{}: {err}",
            file.path_str()
        );
    }
}

/// Measured bug: `optimoo verify` on a link to /dev/zero read the whole
/// "file" and grew to 9.9 GB. Now the fixed header is read first.
#[cfg(target_os = "linux")]
#[test]
fn a_link_to_dev_zero_is_refused_at_once() {
    refused_by_the_reader(bad_files::dev_zero("format"));
}

/// A good header followed by a huge sparse tail: read up to the declared
/// length and one byte more. A length field above any file of the game:
/// refused before reading on.
#[cfg(target_os = "linux")]
#[test]
fn huge_sparse_files_are_refused_without_being_read() {
    let files = bad_files::sparse("format");
    let claim = files[1].0.path().to_path_buf();
    refused_by_the_reader(files);
    let err = TreeFile::read(&claim, None).unwrap_err();
    assert!(matches!(err, FormatError::TooLong { .. }), "{err}");
}

/// A named pipe fed without end: a good file and then garbage, or zeros.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_fifo_is_refused() {
    refused_by_the_reader(bad_files::fifos("format"));
}

/// The bound of docs/format.md holds for real files, and a length field
/// one above it is refused even when the bytes are all there.
#[test]
fn the_length_bound_is_sound_and_enforced() {
    use optimoo::tree::format::max_len;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let mut files = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "tree") {
            let bytes = std::fs::read(&path).unwrap();
            let rules = Header::peek(&bytes).unwrap().rules;
            assert!(bytes.len() <= max_len(rules), "{}", path.display());
            files += 1;
        }
    }
    assert!(files > 0, "no data/*.tree (they are in git)");
    let rules = Rules::mm(1, 1).unwrap();
    let max = max_len(rules);
    assert_eq!(max, 2584 + 255);
    let mut big = b"MOOT\x01".to_vec();
    big.extend_from_slice(&(max as u32 + 1).to_le_bytes());
    big.extend_from_slice(&[1, 1, 1, 0]);
    big.resize(max + 1 - 4, 0);
    let crc = crc32(&big);
    big.extend_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        TreeFile::from_bytes(&big, None),
        Err(FormatError::TooLong { declared, max: m, .. }) if declared == max + 1 && m == max
    ));
}

/// Regression: the replay accepted two children for one answer (and
/// children out of order), so the writer encoded a tree that decoded to
/// another one. The one structural check now refuses them, for the writer
/// too.
#[test]
fn duplicate_or_unordered_children_are_not_written() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let good = first_consistent(&game);
    let mut doubled = good.clone();
    let twin = doubled.root.children[0].clone();
    doubled.root.children.insert(0, twin);
    let mut swapped = good.clone();
    swapped.root.children.swap(0, 1);
    for tree in [doubled, swapped] {
        let err = tree.replay(&game, None).unwrap_err();
        assert!(
            matches!(err, optimoo::tree::TreeError::Unordered { .. }),
            "{err}"
        );
        assert!(TreeFile::new(&game, tree.clone(), Objective::Heuristic, None).is_err());
        let mut file = TreeFile::new(&game, good.clone(), Objective::Heuristic, None).unwrap();
        file.tree = tree;
        assert!(matches!(
            file.to_bytes(&game),
            Err(FormatError::InvalidTree(_))
        ));
    }
}

/// A tree deeper than the format allows (a one-secret node guessing
/// another code, again and again) is refused by the one structural check.
#[test]
fn trees_deeper_than_the_format_are_refused() {
    use optimoo::model::Code;
    use optimoo::tree::Node;
    let game = Game::new(Rules::mm(1, 2).unwrap());
    let miss = game.parse_feedback("0A0B").unwrap();
    // Guess 0: secret 1 answers 0A0B; then guess 0 again and again.
    let mut node = Node::leaf(Code(1));
    for _ in 0..300 {
        node = Node {
            guess: Code(0),
            children: vec![(miss, node)],
        };
    }
    let tree = optimoo::tree::Tree {
        rules: game.rules(),
        root: node,
    };
    assert!(matches!(
        tree.replay(&game, None),
        Err(optimoo::tree::TreeError::TooDeep { .. })
    ));
    assert!(matches!(
        optimoo::tree::check::check(&game, &tree, None),
        Err(optimoo::tree::TreeError::TooDeep { .. })
    ));
    assert!(TreeFile::new(&game, tree, Objective::Heuristic, None).is_err());
}

/// The tree modules stay small (about 600 lines at most) and each opens
/// with a doc comment (its invariant).
#[test]
fn tree_modules_are_small_and_documented() {
    fn walk(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tree");
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(files.len() >= 8, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(
            text.lines().count() <= 600,
            "{}: {} lines",
            f.display(),
            text.lines().count()
        );
        assert!(
            text.starts_with("//! "),
            "{} has no module doc",
            f.display()
        );
    }
}

/// Regression (found by tests/fuzz.rs): a file with the implied-leaves flag
/// cleared but no one-secret node guessing another code decoded, and
/// re-encoded with the flag set: two encodings of one tree. Only the
/// canonical one is accepted now.
#[test]
fn non_canonical_implied_leaves_flag_is_refused() {
    let game = Game::new(Rules::mm(1, 3).unwrap());
    let file = TreeFile::new(&game, first_consistent(&game), Objective::Heuristic, None).unwrap();
    let canonical = file.to_bytes(&game).unwrap();
    assert_eq!(canonical[11], 3, "repeats | implied leaves");
    // The same tree with its leaf written: flags 1, one more body byte
    // (rank 0 of {2}).
    let mut long = canonical[..canonical.len() - 4].to_vec();
    long[11] = 1;
    long.push(0);
    long.extend_from_slice(&[0; 4]);
    let len = long.len() as u32;
    long[5..9].copy_from_slice(&len.to_le_bytes());
    let n = long.len() - 4;
    let crc = crc32(&long[..n]);
    long[n..].copy_from_slice(&crc.to_le_bytes());
    let err = TreeFile::from_bytes(&long, None).unwrap_err();
    assert!(err.to_string().contains("implied-leaves flag"), "{err}");
}

/// The unsigned LEB128 bytes of `l` (docs/format.md), written out here
/// so that the test does not use the writer's own.
fn lower_bytes(mut l: u64) -> Vec<u8> {
    let mut v = Vec::new();
    loop {
        let b = (l & 0x7f) as u8;
        l >>= 7;
        if l == 0 {
            v.push(b);
            return v;
        }
        v.push(b | 0x80);
    }
}

/// The answer paths of every node of `tree` below the root.
fn paths(node: &optimoo::tree::Node, prefix: &mut Vec<Feedback>, out: &mut Vec<Vec<Feedback>>) {
    for (f, child) in &node.children {
        prefix.push(*f);
        out.push(prefix.clone());
        paths(child, prefix, out);
        prefix.pop();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// An upper-bound tree (flag bit 3) comes back with its lower bound and
    /// exact subtrees, re-encodes to the same bytes, and its header says
    /// what is proved: not optimal, exact only inside its exact subtrees.
    #[test]
    fn upper_bound_trees_round_trip(
        game in prop::sample::select(&SMALL_GAMES[..]),
        choices in prop::collection::vec(any::<u32>(), 0..48),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        lower in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let game = Game::new(game.parse().unwrap());
        let tree = random_tree(&game, &choices);
        let file = TreeFile::new(&game, tree, Objective::Average, None).unwrap();
        let total = file.header.stats.total;
        let mut all = Vec::new();
        paths(&file.tree.root, &mut Vec::new(), &mut all);
        let exact: Vec<Vec<Feedback>> = if all.is_empty() {
            Vec::new()
        } else {
            picks.iter().map(|i| i.get(&all).clone()).collect()
        };
        let lower = lower
            .filter(|_| total > 1)
            .map(|i| 1 + i.index(total as usize - 1) as u64);
        let file = file.with_bound(Bound { lower, exact: exact.clone() }).unwrap();
        let bytes = file.to_bytes(&game).unwrap();
        let back = TreeFile::from_bytes(&bytes, None).unwrap();
        prop_assert_eq!(&back, &file);
        prop_assert_eq!(back.to_bytes(&game).unwrap(), bytes.clone());
        prop_assert_eq!(Header::peek(&bytes).unwrap(), file.header.clone());
        let h = &back.header;
        prop_assert!(!h.proves_optimal());
        prop_assert!(!h.exact_after(&[]));
        for p in &all {
            let inside = exact.iter().any(|e| p.starts_with(e));
            prop_assert_eq!(h.exact_after(p), inside);
        }
        prop_assert!(h.claim().contains("upper bound, not proved optimal"), "{}", h.claim());
    }
}

/// A proved tree is exact everywhere; a heuristic one nowhere; a lower bound
/// equal to the total makes the file the optimum it proves.
#[test]
fn what_a_header_proves() {
    let game = Game::new("mm:2x3".parse().unwrap());
    let tree = first_consistent(&game);
    let f = Feedback(0);
    let average = TreeFile::new(&game, tree.clone(), Objective::Average, None).unwrap();
    assert!(average.header.proves_optimal() && average.header.exact_after(&[f]));
    assert_eq!(average.header.claim(), "average");
    let heuristic = TreeFile::new(&game, tree.clone(), Objective::Heuristic, None).unwrap();
    assert!(!heuristic.header.proves_optimal() && !heuristic.header.exact_after(&[f]));
    let total = average.header.stats.total;
    let closed = average
        .clone()
        .with_bound(Bound {
            lower: Some(total),
            exact: Vec::new(),
        })
        .unwrap();
    assert_eq!(closed, average);
    let open = average
        .clone()
        .with_bound(Bound {
            lower: Some(total - 1),
            exact: Vec::new(),
        })
        .unwrap();
    assert_eq!(
        open.header.claim(),
        format!(
            "average upper bound, not proved optimal (proven lower bound {})",
            total - 1
        )
    );
}

/// Every way a bound can lie or be written twice is refused, by the writer
/// and by the reader: a lower bound above the total or of 0, a path the
/// tree does not have, paths out of order or one inside another, an exact
/// root, another objective than average, and the flag on a file without
/// its section.
#[test]
fn bad_bounds_are_refused() {
    let game = Game::new("mm:3x3".parse().unwrap());
    let tree = first_consistent(&game);
    let file = TreeFile::new(&game, tree.clone(), Objective::Average, None).unwrap();
    let total = file.header.stats.total;
    let mut all = Vec::new();
    paths(&file.tree.root, &mut Vec::new(), &mut all);
    let deep = all.iter().find(|p| p.len() == 2).unwrap().clone();
    let bound = |lower, exact| Bound { lower, exact };
    // The writer.
    assert!(file
        .clone()
        .with_bound(bound(Some(total + 1), vec![]))
        .is_err());
    let missing = vec![Feedback(250)];
    assert!(file.clone().with_bound(bound(None, vec![missing])).is_err());
    assert!(file.clone().with_bound(bound(None, vec![vec![]])).is_err());
    let heuristic = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
    assert!(heuristic.with_bound(bound(None, vec![])).is_err());
    // Nested paths are merged by the writer (the outer one covers both).
    let merged = file
        .clone()
        .with_bound(bound(None, vec![deep.clone(), deep[..1].to_vec()]))
        .unwrap();
    assert_eq!(
        merged.header.bound.as_ref().unwrap().exact,
        vec![deep[..1].to_vec()]
    );
    // The reader: forge the section of a good file and reseal it.
    let good = file
        .clone()
        .with_bound(bound(Some(total - 1), vec![deep.clone()]))
        .unwrap()
        .to_bytes(&game)
        .unwrap();
    let plain = file.to_bytes(&game).unwrap();
    // The bound section sits between the header's claims and the body: it
    // is what the bounded file has more than the plain one.
    let extra = good.len() - plain.len();
    let reseal = |mut b: Vec<u8>| {
        let len = b.len() as u32;
        b[5..9].copy_from_slice(&len.to_le_bytes());
        let n = b.len() - 4;
        let crc = crc32(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        b
    };
    // Where the section starts: after the fixed header and the claims (cap
    // 0, total, max depth, histogram).
    let stats = &file.header.stats;
    let at = 13
        + 1
        + lower_bytes(total).len()
        + lower_bytes(stats.max_depth as u64).len()
        + stats
            .histogram
            .iter()
            .map(|&h| lower_bytes(h).len())
            .sum::<usize>();
    let with_section = |section: &[u8]| {
        let mut b = good[..at].to_vec();
        b.extend_from_slice(section);
        b.extend_from_slice(&good[at + extra..]);
        reseal(b)
    };
    // The section as written: lower, one path of two answers.
    let written = &good[at..at + extra];
    assert_eq!(with_section(written), good);
    let path = [1u8, 2, deep[0].0, deep[1].0];
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            [lower_bytes(total), path.to_vec()].concat(),
            "not below the total",
        ),
        (
            [lower_bytes(total + 5), path.to_vec()].concat(),
            "not below the total",
        ),
        (vec![0, 1, 2, deep[0].0, 250], "does not have"),
        (vec![0, 1, 0], "at the root"),
        (
            [vec![0, 2], path[1..].to_vec(), path[1..].to_vec()].concat(),
            "not sorted",
        ),
        (
            [vec![0, 2, 1, deep[0].0], path[1..].to_vec()].concat(),
            "lies inside another",
        ),
    ];
    for (section, what) in cases {
        let err = TreeFile::from_bytes(&with_section(&section), None).unwrap_err();
        assert!(
            matches!(err, FormatError::Malformed { .. }) && err.to_string().contains(what),
            "{section:?}: {err}"
        );
    }
    // The bound flag on a file of another objective.
    let mut other = good.clone();
    other[12] = Objective::Worst.byte();
    let err = TreeFile::from_bytes(&reseal(other), None).unwrap_err();
    assert!(err.to_string().contains("objective average"), "{err}");
    // The flag set on the plain file: its body is read as the section.
    let mut flagged = plain.clone();
    flagged[11] |= 8;
    assert!(TreeFile::from_bytes(&reseal(flagged), None).is_err());
}

/// The wire layer is one public module: a tree file's frame is checked,
/// its claims read, and the file sealed again to the same bytes with its
/// primitives alone (what the tree file of a shape is written with).
#[test]
fn the_wire_layer_frames_every_file() {
    use optimoo::tree::format::wire;
    let game = Game::new(Rules::mm(3, 3).unwrap());
    let (file, bytes) = encoded(&game, &[0; 64]);
    let content = wire::check_frame(&bytes).unwrap();
    assert_eq!(content.len(), bytes.len() - wire::CHECKSUM);
    assert_eq!(
        wire::crc32(content).to_le_bytes(),
        bytes[bytes.len() - wire::CHECKSUM..]
    );
    let mut r = wire::Reader::new(content);
    r.seek(wire::FIXED_HEADER);
    let (cap, stats) = wire::read_claims(&mut r).unwrap();
    assert_eq!(cap, file.header.cap);
    assert_eq!(stats, file.header.stats);

    let mut again = Vec::new();
    wire::write_fixed(&mut again, 3, 3, bytes[11], file.header.objective);
    wire::write_claims(&mut again, cap, &stats);
    again.extend_from_slice(&content[r.pos()..]);
    assert_eq!(wire::seal(again).unwrap(), bytes);
}

/// The answer rule is recorded in the header (flag bit 4 and a byte after
/// the objective), read back, checked, and refused when unknown; a
/// bulls-cows file has neither.
#[test]
fn the_answer_rule_is_recorded_and_checked() {
    use optimoo::model::AnswerRule;
    let plain = Game::new("mm:3x3".parse().unwrap());
    let (_, plain_bytes) = encoded(&plain, &[1, 2, 3]);
    assert_eq!(plain_bytes[11] & 16, 0, "bulls-cows: no rule flag");
    for rule in [AnswerRule::BlackPeg, AnswerRule::Wordle] {
        let rules = "mm:3x3"
            .parse::<Rules>()
            .unwrap()
            .with_answer(rule)
            .unwrap();
        let game = Game::new(rules);
        for choices in [&[][..], &[5, 1, 7, 2][..], &[9, 9, 9][..]] {
            let (file, bytes) = encoded(&game, choices);
            assert_eq!(bytes[11] & 16, 16, "{rules}");
            assert_eq!(bytes[13], if rule == AnswerRule::Wordle { 2 } else { 1 });
            let back = TreeFile::from_bytes(&bytes, None).unwrap();
            assert_eq!(back.header.rules, rules);
            assert_eq!(back.tree, file.tree);
            assert_eq!(back.to_bytes(&game).unwrap(), bytes, "canonical");
            // The checker replays it under the rule and agrees.
            assert_eq!(
                optimoo::tree::check::check(&game, &back.tree, None).unwrap(),
                back.header.stats
            );
            // Expecting the bulls-cows game: refused, naming both.
            let err = TreeFile::from_bytes(&bytes, Some(plain.rules()))
                .unwrap_err()
                .to_string();
            assert!(err.contains("mm:3x3/"), "{err}");
            // An unknown rule byte, and bulls-cows (0) written with the flag.
            for bad in [0u8, 3, 255] {
                let err = TreeFile::from_bytes(&forge(&bytes, 13, bad), None)
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("unknown answer rule"), "{bad}: {err}");
            }
            // Without the flag the byte would be misread: never accepted
            // as the same tree.
            let unflagged = forge(&bytes, 11, bytes[11] & !16);
            assert!(TreeFile::from_bytes(&unflagged, None)
                .map_or(true, |f| f.tree != file.tree || f.header.rules != rules));
        }
    }
}
