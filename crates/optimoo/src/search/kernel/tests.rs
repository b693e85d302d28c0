//! The kernel's tests: every path against plain counting and the
//! level-filling table (the differential sweep is in `search::sweep_tests`).

use super::*;
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::rules::Rules;
use crate::model::AnswerRule;
use crate::search::bound::{Bounds, Cost, INF};
use proptest::prelude::*;

/// The bound by plain counting and the level-filling table, of every
/// guess within each of `depths` guesses: `out[i][g]` for `depths[i]`
/// (each guess's classes counted once for all the depths).
fn reference(game: &Game, bounds: &Bounds, set: &[Code], depths: &[usize]) -> Vec<Vec<u16>> {
    let mut out = vec![Vec::with_capacity(game.len()); depths.len()];
    let win = game.win().index();
    for g in game.codes().all() {
        let mut counts = [0usize; 256];
        for &s in set {
            counts[game.feedback(s, g).index()] += 1;
        }
        let candidate = counts[win] == 1;
        let useless = !candidate && counts.iter().filter(|&&c| c > 0).count() == 1;
        for (i, &d) in depths.iter().enumerate() {
            if useless {
                out[i].push(NONE);
                continue;
            }
            let mut total = bounds.own(set.len(), d);
            for (f, &c) in counts.iter().enumerate() {
                if f != win {
                    total = total.saturating_add(bounds.lower(c, d - 1));
                }
            }
            out[i].push(if total >= INF { NONE } else { total as u16 });
        }
    }
    out
}

/// What [`check_set`] needs of a game, built once for all its sets: the
/// rows by secret, as the search reads them, and every path with its
/// dense table (where the path takes one).
struct Fixture {
    game: Game,
    table: crate::model::feedback::FeedbackTable,
    kernels: Vec<(Kernel, Option<DenseTable>)>,
}

impl Fixture {
    fn new(game: Game) -> Fixture {
        let table = crate::model::feedback::FeedbackTable::by_secret(
            game.codes(),
            None,
            &crate::exec::Sequential,
        );
        let kernels = kernels(&game)
            .into_iter()
            .map(|k| {
                let dense = k.dense_table(game.len(), |c| table.row(c));
                (k, dense)
            })
            .collect();
        Fixture {
            game,
            table,
            kernels,
        }
    }
}

/// Every path this CPU has, for `game`.
fn kernels(game: &Game) -> Vec<Kernel> {
    let branching = game.possible_feedbacks().count() as u64 - 1;
    KernelPath::available()
        .into_iter()
        .map(|p| Kernel::new(game.possible_feedbacks(), game.win(), branching, p).unwrap())
        .collect()
}

/// Every path's bounds of every guess on `set` within `d` guesses equal
/// the reference; stopping early finds a bound at most `stop`.
fn check_set(fx: &Fixture, set: &[Code], depths: &[usize]) {
    let game = &fx.game;
    let table = &fx.table;
    let branching = game.possible_feedbacks().count() - 1;
    let bounds = Bounds::new(Cost::Total, branching, game.len());
    let rows: Vec<&[Feedback]> = set.iter().map(|&s| table.row(s)).collect();
    let references = reference(game, &bounds, set, depths);
    let mut out = Vec::new();
    for (&d, expected) in depths.iter().zip(references) {
        for (kernel, dense_table) in &fx.kernels {
            let dense_rows: Option<Vec<&[u8]>> = dense_table
                .as_ref()
                .map(|t| set.iter().map(|&s| t.row(s)).collect());
            let dense = dense_rows.as_deref();
            let least = kernel.bounds(&rows, game.len(), bounds.capacity(d - 1), 0, &mut out);
            assert_eq!(
                out,
                expected,
                "{} path {} set of {} d {d}",
                game.rules(),
                kernel.path(),
                set.len()
            );
            assert_eq!(least, expected.iter().copied().min().unwrap());
            // With the dense codes (where the path takes them) and
            // without: the same values.
            for dense in [None, dense] {
                let name = (game.rules(), kernel.path(), dense.is_some());
                let mut every = vec![7; 3];
                let cap = bounds.capacity(d - 1);
                kernel.every_bound(&rows, dense, set, game.len(), cap, &mut every);
                assert_eq!(every, expected, "every_bound: {name:?}");
                // The least bound alone (by answer masks on small sets).
                let alone = kernel.least(&rows, dense, set, game.len(), cap, 0, NONE, &mut out);
                assert_eq!(alone, least, "least: {name:?} set of {} d {d}", set.len());
                // Under a ceiling: the least, or the ceiling (blocks
                // left early below any of them: `least_counted`).
                for ceiling in [
                    least.saturating_sub(1),
                    least,
                    least.saturating_add(2),
                    least.saturating_add(40),
                ] {
                    let capped =
                        kernel.least(&rows, dense, set, game.len(), cap, 0, ceiling, &mut out);
                    assert_eq!(capped, least.min(ceiling), "{name:?}");
                }
                let stop = least.saturating_add(3);
                if stop < NONE {
                    let mut part = Vec::new();
                    let found = kernel.bounds(&rows, game.len(), cap, stop, &mut part);
                    assert!(found <= stop && found >= least);
                    for stop in [least, stop] {
                        let found =
                            kernel.least(&rows, dense, set, game.len(), cap, stop, NONE, &mut part);
                        assert!(found <= stop && found >= least, "{name:?}");
                    }
                }
            }
        }
    }
}

/// [`Kernel::least_within`] on subsets `subs` of `node_set`, one node's
/// answers shared by them all (as a node's guesses share them), with
/// the dense codes and without, equals the least of the reference
/// bounds, under every ceiling and stop tried.
fn check_within(game: &Game, node_set: &[Code], subs: &[Vec<Code>], depths: &[usize]) {
    let table = game.table().unwrap();
    let branching = game.possible_feedbacks().count() - 1;
    let bounds = Bounds::new(Cost::Total, branching, game.len());
    let node_rows: Vec<&[Feedback]> = node_set.iter().map(|&s| table.row(s)).collect();
    // The least reference bound of each subset within each depth.
    let leasts: Vec<Vec<u16>> = subs
        .iter()
        .map(|sub| {
            let all = reference(game, &bounds, sub, depths);
            all.iter().map(|v| *v.iter().min().unwrap()).collect()
        })
        .collect();
    for kernel in kernels(game) {
        let dense_table = kernel.dense_table(game.len(), |c| table.row(c));
        let dense_rows: Option<Vec<&[u8]>> = dense_table
            .as_ref()
            .map(|t| node_set.iter().map(|&s| t.row(s)).collect());
        for dense in [None, dense_rows.as_deref()] {
            let node = kernel.node_answers(&node_rows, dense, node_set, game.len());
            // Every game here has answers that fit the masks.
            let applies = kernel.path() != KernelPath::Scalar && game.len() >= 32;
            assert_eq!(node.is_some(), applies, "{}", game.rules());
            let Some(mut node) = node else {
                continue;
            };
            let mut vals = Vec::new();
            for (i, sub) in subs.iter().enumerate() {
                let rows: Vec<&[Feedback]> = sub.iter().map(|&s| table.row(s)).collect();
                for (j, &d) in depths.iter().enumerate() {
                    let cap = bounds.capacity(d - 1);
                    if !kernel.masks_apply(sub.len(), cap) {
                        continue;
                    }
                    let least = leasts[i][j];
                    let name = (game.rules(), kernel.path(), dense.is_some(), sub.len(), d);
                    let at = node.places(sub);
                    let mut within = |stop, ceiling| {
                        kernel.least_within(
                            &mut node,
                            &at,
                            &rows,
                            sub,
                            game.len(),
                            cap,
                            stop,
                            ceiling,
                            &mut vals,
                        )
                    };
                    assert_eq!(within(0, NONE), least, "{name:?}");
                    for ceiling in [least.saturating_sub(1), least, least.saturating_add(2)] {
                        assert_eq!(within(0, ceiling), least.min(ceiling), "{name:?}");
                    }
                    for stop in [least, least.saturating_add(3)] {
                        if stop < NONE {
                            let found = within(stop, NONE);
                            assert!(found <= stop && found >= least, "{name:?}");
                        }
                    }
                }
            }
        }
    }
}

/// Classes of a node's guesses and random subsets, with one node's
/// answers shared: games of five positions (where the masks skip most
/// guesses), four, two positions and many symbols (few answers, large
/// excess) and one position.
#[test]
fn least_within_a_node_equals_plain_counting() {
    for rules in [
        "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:3x3", "moo:3x8", "mm:2x16", "moo:2x16",
        "mm:1x36",
    ] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let all: Vec<Code> = game.codes().all().collect();
        let mut rng = crate::rng::SplitMix64::new(11);
        let first = Code(rng.below(game.len()) as u16);
        for (_, class) in crate::model::partition::split(&game, first, &all) {
            if class.len() > MAX_SET || class.len() < 3 {
                continue;
            }
            // The classes of a few guesses on the node's set, and
            // random subsets of it.
            let mut subs = Vec::new();
            for _ in 0..4 {
                let second = Code(rng.below(game.len()) as u16);
                for (_, sub) in crate::model::partition::split(&game, second, &class) {
                    if sub.len() <= MASK_MAX {
                        subs.push(sub);
                    }
                }
            }
            for _ in 0..3 {
                let keep = 1 + rng.below(4);
                let sub: Vec<Code> = class
                    .iter()
                    .copied()
                    .filter(|_| rng.below(keep) == 0)
                    .take(MASK_MAX)
                    .collect();
                if !sub.is_empty() {
                    subs.push(sub);
                }
            }
            check_within(&game, &class, &subs, &[2, 3, 4, 9]);
        }
    }
}

/// The most non-winning answers any guess gives on a set, counted by
/// the kernel (sets of any size) and by a node's answers (sets of at
/// most MAX_SET), equal plain counting: the classes of a first guess,
/// whole sets above MAX_SET included, on games of five positions to
/// one, with both answer codes.
#[test]
fn most_answers_equal_plain_counting() {
    for rules in [
        "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:2x16", "mm:1x36",
    ] {
        let game = Game::new(rules.parse::<Rules>().unwrap());
        let table = game.table().unwrap();
        let all: Vec<Code> = game.codes().all().collect();
        let mut sets = vec![all.clone()];
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..2 {
            let first = Code(rng.below(game.len()) as u16);
            sets.extend(
                crate::model::partition::split(&game, first, &all)
                    .into_iter()
                    .map(|(_, c)| c),
            );
        }
        for set in &sets {
            let plain = game
                .codes()
                .all()
                .map(|g| {
                    crate::model::partition::split(&game, g, set)
                        .iter()
                        .filter(|(f, _)| *f != game.win())
                        .count()
                })
                .max()
                .unwrap();
            let rows: Vec<&[Feedback]> = set.iter().map(|&s| table.row(s)).collect();
            for kernel in kernels(&game) {
                let dense_table = kernel.dense_table(game.len(), |c| table.row(c));
                let dense_rows: Option<Vec<&[u8]>> = dense_table
                    .as_ref()
                    .map(|t| set.iter().map(|&s| t.row(s)).collect());
                for dense in [None, dense_rows.as_deref()] {
                    let name = (game.rules(), kernel.path(), dense.is_some(), set.len());
                    let Some(most) = kernel.most_answers(&rows, dense, game.len()) else {
                        assert_eq!(kernel.path(), KernelPath::Scalar, "{name:?}");
                        continue;
                    };
                    assert_eq!(usize::from(most), plain, "{name:?}");
                    if let Some(node) = kernel.node_answers(&rows, dense, set, game.len()) {
                        assert_eq!(usize::from(node.most_answers()), plain, "{name:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn equals_plain_counting() {
    for rules in [
        "moo:4x10", "mm:4x6", "mm:5x4", "moo:3x5", "mm:2x3", "moo:5x7", "mm:5x5", "mm:2x16",
        "moo:2x12",
    ] {
        let fx = Fixture::new(Game::new(rules.parse::<Rules>().unwrap()));
        let game = &fx.game;
        let mut rng = crate::rng::SplitMix64::new(99);
        for trial in 0..20 {
            let size = 1 + rng.below(match trial % 3 {
                0 => 255,
                1 => MASK_MAX,
                _ => 40,
            });
            let mut set: Vec<Code> = (0..size)
                .map(|_| Code(rng.below(game.len()) as u16))
                .collect();
            set.sort();
            set.dedup();
            check_set(&fx, &set, &[2, 3, 4, 5, 9]);
        }
    }
}

/// Games of many answers (Wordle's rule: 3^k, beyond the 32-bit masks,
/// so the 256-bit masks of [`Kernel::wide_values`] where no class can
/// pass the first threshold, and counting beyond) and of few (black
/// pegs), on random sets up to the kernel's largest, every path.
#[test]
fn answer_rules_equal_plain_counting() {
    for (rules, rule) in [
        ("mm:5x3", AnswerRule::Wordle),
        ("mm:4x4", AnswerRule::Wordle),
        ("mm:3x7", AnswerRule::Wordle),
        ("mm:2x16", AnswerRule::Wordle),
        ("mm:4x5", AnswerRule::BlackPeg),
    ] {
        let rules = rules.parse::<Rules>().unwrap().with_answer(rule).unwrap();
        let fx = Fixture::new(Game::new(rules));
        let game = &fx.game;
        let mut rng = crate::rng::SplitMix64::new(41);
        for trial in 0..12 {
            let size = 1 + rng.below(match trial % 3 {
                0 => 255,
                1 => 120,
                _ => 12,
            });
            let mut set: Vec<Code> = (0..size)
                .map(|_| Code(rng.below(game.len()) as u16))
                .collect();
            set.sort();
            set.dedup();
            check_set(&fx, &set, &[2, 3, 4, 9]);
        }
    }
}

/// Sets the search meets: the classes of two guesses in a row, on games
/// of five positions (answers up to 30, the masks' limit) and four,
/// where classes are clumped and counting them settles the least bound.
#[test]
fn classes_of_two_guesses_equal_plain_counting() {
    for rules in [
        "moo:5x7", "mm:5x4", "moo:4x8", "mm:4x6", "mm:3x3", "moo:3x8",
    ] {
        let fx = Fixture::new(Game::new(rules.parse::<Rules>().unwrap()));
        let game = &fx.game;
        let all: Vec<Code> = game.codes().all().collect();
        let mut rng = crate::rng::SplitMix64::new(7);
        let first = Code(0);
        for (_, class) in crate::model::partition::split(game, first, &all) {
            for _ in 0..3 {
                let second = Code(rng.below(game.len()) as u16);
                for (_, sub) in crate::model::partition::split(game, second, &class) {
                    if sub.len() >= 3 && sub.len() <= 2 * MASK_MAX {
                        check_set(&fx, &sub, &[3, 4, 9]);
                    }
                }
            }
        }
    }
}

/// The sets of issue 16: few answers, so that one class's excess alone
/// passes 255 (mm:2x16's root, moo:2x24's first classes), and the
/// largest excess there is (one non-winning answer).
#[test]
fn excess_beyond_a_byte() {
    for (rules, d) in [
        ("mm:2x15", 30),
        ("mm:2x16", 30),
        ("moo:2x16", 9),
        ("mm:1x36", 36),
    ] {
        let fx = Fixture::new(Game::new(rules.parse::<Rules>().unwrap()));
        let game = &fx.game;
        let set: Vec<Code> = game.codes().all().take(MAX_SET).collect();
        let kernel = &kernels(game)[0];
        assert!(kernel.excess(set.len()) >= 255, "{rules}");
        check_set(&fx, &set, &[d, 4]);
    }
}

/// Random sets of a sweep of games, sizes up to 255: the kernel's
/// values on every path against plain counting and the level-filling
/// table, whatever the excess (most of these sets pass 255).
fn sweep_game() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "mm:2x9", "mm:2x16", "mm:2x20", "moo:2x18", "moo:2x24", "mm:3x7", "moo:3x9", "mm:1x30",
        "moo:4x7", "mm:4x5",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_sets_on_every_path(rules in sweep_game(), seed in any::<u64>(), size in 1usize..=255, d in 2usize..12) {
        let fx = Fixture::new(Game::new(rules.parse::<Rules>().unwrap()));
        let game = &fx.game;
        let mut rng = crate::rng::SplitMix64::new(seed);
        // Sets clumped on a few symbols give large classes.
        let clump = 1 + rng.below(3);
        let mut set: Vec<Code> = (0..size * 2)
            .map(|_| Code(rng.below(game.len().div_ceil(clump)) as u16))
            .collect();
        set.sort();
        set.dedup();
        set.truncate(size);
        check_set(&fx, &set, &[d]);
    }
}

#[test]
fn paths_by_name() {
    assert_eq!("scalar".parse::<KernelPath>(), Ok(KernelPath::Scalar));
    assert_eq!(" AVX2 ".parse::<KernelPath>(), Ok(KernelPath::Avx2));
    assert_eq!("avx512".parse::<KernelPath>(), Ok(KernelPath::Avx512));
    let err = "sse".parse::<KernelPath>().unwrap_err();
    assert!(err.to_string().contains("scalar, avx2 or avx512"), "{err}");
    assert!(KernelPath::available().contains(&KernelPath::Scalar));
    assert!(KernelPath::best().supported());
    for p in KernelPath::ALL {
        assert_eq!(p.check().is_ok(), p.supported());
        if !p.supported() {
            let msg = p.check().unwrap_err().to_string();
            assert!(msg.contains(p.name()) && msg.contains("scalar"), "{msg}");
        }
    }
}
