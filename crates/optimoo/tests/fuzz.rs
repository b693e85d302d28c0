//! Fuzzing on stable Rust: property tests over arbitrary and mutated input
//! for every reader of untrusted text or bytes.
//!
//! - the tree-file reader ([`TreeFile::from_bytes`], [`Header::peek`]):
//!   never panics; whatever it accepts re-encodes to the same bytes, fits
//!   [`max_len`], and passes the structural check; inputs are arbitrary
//!   bytes, arbitrary bodies behind a well-formed frame, and valid files
//!   mutated (bytes flipped or set, cut, extended, inserted, removed), with
//!   and without the frame (length, checksum) fixed afterwards;
//! - the code parser ([`Game::parse_code`]), the answer parser
//!   ([`Game::parse_feedback`]), the move and history parser
//!   ([`parse_move`], [`parse_history`]), the game parser (`Rules`'s
//!   `FromStr`): never panic, and what they accept is legal and reads back
//!   the same from its written form.
//!
//! The default run tries a few thousand cases in all; the `#[ignore]`d
//! `fuzz_long_*` tests try 1,190,000 (docs/fuzzing.md):
//! `cargo test --release fuzz_long -- --ignored`.

use std::sync::OnceLock;

use optimoo::model::moves::{parse_history, parse_move};
use optimoo::model::Objective;
use optimoo::model::{Game, Rules};
use optimoo::tree::format::wire::crc32;
use optimoo::tree::format::{max_len, Header, TreeFile};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::trees::random_tree;

/// Cases per target in the default run.
const FAST: u32 = 2_000;
/// Cases per target in the long run (7 targets: 1,190,000 in all).
const LONG: u32 = 170_000;

/// Games small enough that a case costs microseconds, of both families.
const GAMES: [&str; 8] = [
    "mm:1x1", "mm:1x3", "mm:2x2", "moo:2x3", "mm:2x3", "moo:3x4", "mm:3x3", "moo:1x5",
];

/// Valid files to mutate: random trees (some wasting guesses, so some
/// without implied leaves) of the small games, every objective, with and
/// without a cap; and data/moo-3x10.tree (in git).
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut out = Vec::new();
        for (i, name) in GAMES.iter().enumerate() {
            let game = Game::new(name.parse().unwrap());
            for seed in 0..6u32 {
                let choices: Vec<u32> = (0..24)
                    .map(|j| (seed * 2_654_435_761u32).wrapping_add(j * 40_503) % 997)
                    .collect();
                let tree = random_tree(&game, &choices);
                let depth = tree.replay(&game, None).unwrap().max_depth;
                let objective = Objective::ALL[(i + seed as usize) % 4];
                let cap = (seed % 2 == 0).then_some(depth + seed as usize / 2);
                let file = TreeFile::new(&game, tree, objective, cap).unwrap();
                out.push(file.to_bytes(&game).unwrap());
            }
        }
        let data =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/moo-3x10.tree");
        out.push(std::fs::read(&data).unwrap_or_else(|e| {
            panic!("{} (in git): {e}", data.display());
        }));
        out
    })
}

/// Writes the length field and the checksum of `bytes` as a writer would
/// (when there is room for them).
fn fix_frame(bytes: &mut [u8]) {
    if bytes.len() < 13 {
        return;
    }
    let len = bytes.len() as u32;
    bytes[5..9].copy_from_slice(&len.to_le_bytes());
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// The properties of the tree-file reader on any input.
fn check_tree_bytes(bytes: &[u8]) -> Result<(), TestCaseError> {
    let peeked = Header::peek(bytes);
    match TreeFile::from_bytes(bytes, None) {
        Ok(file) => {
            let rules = file.header.rules;
            prop_assert_eq!(peeked.ok(), Some(file.header.clone()));
            prop_assert!(bytes.len() <= max_len(rules));
            let game = Game::new(rules);
            prop_assert!(file.tree.replay(&game, None).is_ok());
            let again = file.to_bytes(&game);
            prop_assert!(again.is_ok(), "accepted but not re-encoded: {:?}", again);
            prop_assert_eq!(again.unwrap(), bytes.to_vec(), "not canonical");
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

/// A mutation of a valid file.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Cut(usize),
    Extend(Vec<u8>),
    Insert(usize, u8),
    Remove(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(i, m)| Mutation::Flip(i, m)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
        any::<usize>().prop_map(Mutation::Cut),
        prop::collection::vec(any::<u8>(), 1..8).prop_map(Mutation::Extend),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<usize>().prop_map(Mutation::Remove),
    ]
}

fn mutate(seed: &[u8], mutations: &[Mutation], fix: bool) -> Vec<u8> {
    let mut b = seed.to_vec();
    for m in mutations {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match m {
            Mutation::Flip(i, mask) if !b.is_empty() => {
                let i = at(*i, b.len());
                b[i] ^= mask;
            }
            Mutation::Set(i, v) if !b.is_empty() => {
                let i = at(*i, b.len());
                b[i] = *v;
            }
            Mutation::Cut(i) => b.truncate(at(*i, b.len() + 1)),
            Mutation::Extend(more) => b.extend_from_slice(more),
            Mutation::Insert(i, v) => b.insert(at(*i, b.len() + 1), *v),
            Mutation::Remove(i) if !b.is_empty() => {
                b.remove(at(*i, b.len()));
            }
            _ => {}
        }
    }
    if fix {
        fix_frame(&mut b);
    }
    b
}

/// A well-formed frame (magic, version, length, checksum) of a small or
/// invalid game around arbitrary header varints and body.
fn framed() -> impl Strategy<Value = Vec<u8>> {
    (
        0..=4u8,
        0..=6u8,
        0..=3u8,
        0..=4u8,
        prop::collection::vec(any::<u8>(), 0..40),
        prop::collection::vec(0..4u8, 0..40),
    )
        .prop_map(|(k, n, flags, objective, header, body)| {
            let mut b = b"MOOT\x01\0\0\0\0".to_vec();
            b.extend_from_slice(&[k, n, flags, objective]);
            b.extend_from_slice(&header);
            // Small body bytes: ranks that often name a code.
            b.extend_from_slice(&body);
            b.extend_from_slice(&[0; 4]);
            fix_frame(&mut b);
            b
        })
}

/// Header varints that make sense (cap, total, depth, histogram) behind a
/// good frame, then an arbitrary small body: reaches the body decoder.
fn plausible() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(&GAMES[..]),
        0..=3u8,
        0..=3u8,
        0..6u8,
        prop::collection::vec(0..6u8, 0..6),
        prop::collection::vec(0..8u8, 0..24),
    )
        .prop_map(|(game, flags, objective, cap, histogram, body)| {
            let rules: Rules = game.parse().unwrap();
            let mut b = b"MOOT\x01\0\0\0\0".to_vec();
            let repeats = rules.repeats() as u8;
            b.extend_from_slice(&[rules.positions() as u8, rules.symbols() as u8]);
            b.extend_from_slice(&[(flags & 2) | repeats, objective, cap]);
            let total: usize = (1..).zip(&histogram).map(|(d, &h)| d * h as usize).sum();
            b.push((total as u8) & 0x7F);
            b.push(histogram.len() as u8);
            b.extend_from_slice(&histogram);
            b.extend_from_slice(&body);
            b.extend_from_slice(&[0; 4]);
            fix_frame(&mut b);
            b
        })
}

/// A game by name (so that a failure prints the name, not the code book).
fn game() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["moo:4x10", "mm:4x6", "moo:3x5", "mm:2x12", "mm:1x36"][..])
}

fn play(name: &str) -> Game {
    Game::new(name.parse().unwrap())
}

/// Text near what the parsers expect, and arbitrary text, with answers
/// whose numbers reach up to 300 below `usize::MAX` (they found an overflow
/// in `Game::parse_feedback`, docs/fuzzing.md).
fn text() -> impl Strategy<Value = String> {
    let top = usize::MAX - 300;
    prop_oneof![
        any::<String>(),
        "[0-9a-zA-Z:,AaBb x\\-+ ]{0,12}",
        "[0-9a-f]{0,6}:[0-9]{0,2}[Aa ,][0-9]{0,2}[Bb]?",
        "(moo|mm|MOO|Mm| mm)?:?[0-9]{0,3}[xX]?[0-9]{0,3} ?",
        ("[0-9]{1,4}", 0..4usize, "[0-9]{1,4}").prop_map(|(a, sep, b)| {
            format!(
                "{a}{}{b}{}",
                ["A", " ", ",", "a"][sep],
                if sep == 0 { "B" } else { "" }
            )
        }),
        // Numbers at the edges of usize, to catch overflow.
        (
            prop_oneof![0..300usize, top..=top.saturating_add(300)],
            0..300usize
        )
            .prop_map(|(a, b)| format!("{a}A{b}B")),
    ]
}

fn check_code(game: &Game, text: &str) -> Result<(), TestCaseError> {
    if let Ok(code) = game.parse_code(text) {
        prop_assert!(code.index() < game.len());
        prop_assert_eq!(game.parse_code(&game.format_code(code)).unwrap(), code);
    }
    Ok(())
}

fn check_feedback(game: &Game, text: &str) -> Result<(), TestCaseError> {
    if let Ok(f) = game.parse_feedback(text) {
        let k = game.positions();
        prop_assert!(game.is_possible(f), "{:?} gives an impossible answer", text);
        prop_assert!(f.bulls(k) + f.cows(k) <= k);
        prop_assert_eq!(game.parse_feedback(&game.format_feedback(f)).unwrap(), f);
        // The numbers read are the numbers written.
        let written = game.format_feedback(f);
        let digits = |s: &str| -> Vec<u128> {
            s.split(|c: char| !c.is_ascii_digit())
                .filter(|p| !p.is_empty())
                .map(|p| p.parse::<u128>().unwrap_or(u128::MAX))
                .collect()
        };
        prop_assert_eq!(
            digits(text),
            digits(&written),
            "{:?} read as {}",
            text,
            written
        );
    }
    Ok(())
}

fn check_move(game: &Game, text: &str) -> Result<(), TestCaseError> {
    match parse_move(game, text) {
        Ok((code, f)) => {
            prop_assert!(code.index() < game.len());
            prop_assert!(game.is_possible(f));
            let written = format!("{}:{}", game.format_code(code), game.format_feedback(f));
            prop_assert_eq!(parse_move(game, &written).unwrap(), (code, f));
        }
        Err(e) => {
            // Echoed input is cut: a message stays short whatever the input.
            prop_assert!(e.to_string().chars().count() < 2_000);
        }
    }
    Ok(())
}

fn check_rules(text: &str) -> Result<(), TestCaseError> {
    if let Ok(rules) = text.parse::<Rules>() {
        prop_assert!(rules.code_count() <= optimoo::model::MAX_CODES);
        prop_assert!(rules.code_count() >= 1);
        prop_assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
    }
    Ok(())
}

fn check_history(game: &Game, words: &[String]) -> Result<(), TestCaseError> {
    let one_by_one: Result<Vec<_>, _> = words.iter().map(|w| parse_move(game, w)).collect();
    prop_assert_eq!(parse_history(game, words).ok(), one_by_one.ok());
    Ok(())
}

macro_rules! fuzz_targets {
    ($cases:expr, $($attr:meta),* ; $bytes:ident, $mutated:ident, $framed:ident,
     $codes:ident, $answers:ident, $moves:ident, $games:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig {
                cases: $cases,
                max_shrink_iters: 2_000,
                failure_persistence: Some(Box::new(
                    proptest::test_runner::FileFailurePersistence::Direct(
                        // Relative to crates/optimoo (where cargo runs the tests).
                        "proptest-regressions/fuzz.txt",
                    ),
                )),
                ..ProptestConfig::default()
            })]

            $(#[$attr])*
            #[test]
            fn $bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
                check_tree_bytes(&bytes)?;
                let mut framed = bytes.clone();
                framed.splice(0..framed.len().min(5), b"MOOT\x01".iter().copied());
                fix_frame(&mut framed);
                check_tree_bytes(&framed)?;
            }

            $(#[$attr])*
            #[test]
            fn $mutated(
                seed in any::<prop::sample::Index>(),
                mutations in prop::collection::vec(mutation(), 1..4),
                fix in any::<bool>(),
            ) {
                let seeds = seeds();
                let bytes = mutate(&seeds[seed.index(seeds.len())], &mutations, fix);
                check_tree_bytes(&bytes)?;
            }

            $(#[$attr])*
            #[test]
            fn $framed(a in framed(), b in plausible()) {
                check_tree_bytes(&a)?;
                check_tree_bytes(&b)?;
            }

            $(#[$attr])*
            #[test]
            fn $codes(game in game(), text in text()) {
                check_code(&play(game), &text)?;
            }

            $(#[$attr])*
            #[test]
            fn $answers(game in game(), text in text()) {
                check_feedback(&play(game), &text)?;
            }

            $(#[$attr])*
            #[test]
            fn $moves(
                game in game(),
                text in text(),
                words in prop::collection::vec(text(), 0..4),
                joined in ("[0-9a-f]{0,5}", text()),
            ) {
                let game = play(game);
                check_move(&game, &text)?;
                check_move(&game, &format!("{}:{}", joined.0, joined.1))?;
                check_history(&game, &words)?;
            }

            $(#[$attr])*
            #[test]
            fn $games(text in text()) {
                check_rules(&text)?;
            }
        }
    };
}

fuzz_targets!(FAST, ; fuzz_tree_bytes, fuzz_tree_mutated, fuzz_tree_framed,
    fuzz_codes, fuzz_answers, fuzz_moves, fuzz_games);
fuzz_targets!(LONG, ignore = "long: cargo test --release fuzz_long -- --ignored";
    fuzz_long_tree_bytes, fuzz_long_tree_mutated, fuzz_long_tree_framed,
    fuzz_long_codes, fuzz_long_answers, fuzz_long_moves, fuzz_long_games);

/// The seeds themselves are accepted and canonical.
#[test]
fn fuzz_seeds_are_valid_files() {
    assert!(seeds().len() >= GAMES.len() * 6);
    for bytes in seeds() {
        check_tree_bytes(bytes).unwrap();
        assert!(TreeFile::from_bytes(bytes, None).is_ok());
    }
}

/// Found by `fuzz_long_answers`: `18446744073709551555A61B` was read as
/// `2A2B` in moo:4x10 (bulls + cows overflowed `usize` and wrapped; a debug
/// build panics instead). Fixed in `Game::parse_feedback` (`checked_add`).
#[test]
fn answer_numbers_that_overflow_usize_are_refused() {
    let game = Game::new(Rules::standard());
    for text in ["18446744073709551555A61B", "18446744073709551615A1B"] {
        assert!(game.parse_feedback(text).is_err(), "{text}");
        assert!(
            parse_move(&game, &format!("0123:{text}")).is_err(),
            "{text}"
        );
    }
}
