//! The phased strategy against the plain paths: the heuristic's own tree,
//! the tree's replay, the sequential walk, the whole walk.

use crate::exec::{Scoped, Sequential};
use crate::heuristic::{self, Heuristic, StrategyConfig};
use crate::model::{Code, Game, Rules};

use super::walk;
use super::{Chooser, Phased};
use crate::model::shape::Shape;
use crate::observe::Silent;

/// With every code in the pool and no exact phase, the phased strategy is
/// the heuristic (pool all, candidate-first), tree for tree.
#[test]
fn without_phases_it_is_the_heuristic() {
    for name in [
        "mm:3x3", "moo:3x5", "mm:4x4", "moo:4x6", "mm:2x9", "moo:2x12", "mm:4x6",
    ] {
        let rules: Rules = name.parse().unwrap();
        let game = Game::new(rules);
        let shape = Shape::from_rules(rules).unwrap();
        for h in [
            Heuristic::Minimax,
            Heuristic::Irving,
            Heuristic::Entropy,
            Heuristic::Kooi,
        ] {
            let opts = Phased {
                heuristic: h,
                exact_below: 0,
                heuristic_below: usize::MAX,
                extra: usize::MAX,
                first: Some(shape.unrank(0)),
                ..Phased::default()
            };
            let chooser = Chooser::new(shape, opts).unwrap();
            let ours = walk::tree(&chooser, &Sequential).unwrap();
            let theirs = heuristic::build_tree(&game, &StrategyConfig::new(h)).unwrap();
            assert!(ours == theirs, "{name} {h}");
        }
    }
}

/// Options small enough that every phase happens on small games.
fn every_phase(heuristic: Heuristic) -> Phased {
    Phased {
        heuristic,
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

/// [`every_phase`] with rollouts of 3 guesses at sets of 20 or more.
fn rolled(heuristic: Heuristic) -> Phased {
    Phased {
        rollout: 3,
        rollout_above: 20,
        ..every_phase(heuristic)
    }
}

/// Rollouts never cost more than the strategy without them, on the whole
/// game (each rolled node keeps its own guess unless another does better
/// when both are played out, and by induction over the tree no node gets
/// worse); the rolled walk is the replay of its tree, whatever the
/// threads.
#[test]
fn rollouts_never_cost_more() {
    let mut better = 0;
    for name in [
        "mm:1x5", "mm:5x2", "mm:2x16", "moo:2x16", "moo:4x10", "mm:4x6", "moo:5x6", "mm:7x2",
        "moo:3x9",
    ] {
        let rules: Rules = name.parse().unwrap();
        let game = Game::new(rules);
        let shape = Shape::from_rules(rules).unwrap();
        for h in [Heuristic::Entropy, Heuristic::Minimax] {
            let base = Chooser::new(shape, every_phase(h)).unwrap();
            let base = walk::tree(&base, &Sequential).unwrap();
            let base = base.replay(&game, None).unwrap();
            let chooser = Chooser::new(shape, rolled(h)).unwrap();
            let tree = walk::tree(&chooser, &Sequential).unwrap();
            let replay = tree.replay(&game, None).unwrap();
            assert!(
                replay.total <= base.total,
                "{name} {h}: {replay:?} {base:?}"
            );
            better += usize::from(replay.total < base.total);
            for threads in [1, 3] {
                let mut codes = shape.all_codes();
                let mut marks = vec![true; codes.len()];
                let stats = walk::walk(&chooser, &mut codes, &mut marks, &Scoped(threads), &Silent)
                    .unwrap();
                assert_eq!(stats, replay, "{name} {h} {threads}");
            }
        }
    }
    assert!(better >= 6, "rollouts improved {better} of 18 walks");
}

/// The walk's statistics are the replay of the strategy's tree (every
/// secret solved, the tree valid), whatever the threads, on a sweep of
/// games that includes the extremes.
#[test]
fn the_walk_is_the_replay_of_the_tree() {
    for name in [
        "mm:1x5", "moo:1x9", "mm:5x2", "mm:2x16", "moo:2x16", "moo:4x10", "mm:4x6", "moo:5x6",
        "mm:7x2", "moo:6x6",
    ] {
        let rules: Rules = name.parse().unwrap();
        let game = Game::new(rules);
        let shape = Shape::from_rules(rules).unwrap();
        for h in [Heuristic::Entropy, Heuristic::Minimax, Heuristic::Kooi] {
            let chooser = Chooser::new(shape, every_phase(h)).unwrap();
            let tree = walk::tree(&chooser, &Sequential).unwrap();
            let replay = tree.replay(&game, None).unwrap();
            for threads in [1, 3] {
                let mut codes = shape.all_codes();
                let mut marks = vec![true; codes.len()];
                let stats = walk::walk(&chooser, &mut codes, &mut marks, &Scoped(threads), &Silent)
                    .unwrap();
                assert_eq!(stats, replay, "{name} {h} {threads}");
            }
        }
    }
}

/// A sample walks exactly its secrets: the histogram of their depths in
/// the tree; and the whole game's average lies in most samples' interval.
#[test]
fn a_sample_plays_its_secrets() {
    let rules: Rules = "moo:4x10".parse().unwrap();
    let game = Game::new(rules);
    let shape = Shape::from_rules(rules).unwrap();
    let chooser = Chooser::new(shape, every_phase(Heuristic::Entropy)).unwrap();
    let tree = walk::tree(&chooser, &Sequential).unwrap();
    let whole = tree.replay(&game, None).unwrap();
    let mut inside = 0;
    for seed in 0..20 {
        let marks = walk::sample_marks(5040, 300, seed).unwrap();
        assert_eq!(marks.iter().filter(|&&m| m).count(), 300);
        let mut want = crate::tree::Stats::default();
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            want.add(tree.play(&game, Code(i as u16)).unwrap().len(), 1);
        }
        let mut codes = shape.all_codes();
        let mut m = marks.clone();
        let got = walk::walk(&chooser, &mut codes, &mut m, &Sequential, &Silent).unwrap();
        assert_eq!(got, want, "seed {seed}");
        let (lo, hi) = walk::interval(&got, 5040).unwrap();
        assert!(lo < got.average() && got.average() < hi);
        inside += usize::from(lo <= whole.average() && whole.average() <= hi);
    }
    assert!(inside >= 16, "{inside} of 20 intervals hold the average");
    // A sample of one secret has no interval (not one of width zero).
    let mut one = crate::tree::Stats::default();
    one.add(5, 1);
    assert_eq!(walk::interval(&one, 5040), None);
    assert!(walk::sample_marks(10, 11, 0).is_err());
    // The first candidate everywhere: the heuristic `first`.
    let opts = Phased {
        heuristic: Heuristic::First,
        ..Phased::default()
    };
    let first = walk::tree(&Chooser::new(shape, opts).unwrap(), &Sequential).unwrap();
    let theirs = heuristic::build_tree(&game, &StrategyConfig::new(Heuristic::First)).unwrap();
    assert!(first == theirs);
    assert_eq!(walk::sample_marks(10, 10, 0).unwrap(), vec![true; 10]);
}

/// The units of a cut, each walked alone from its candidates, add up to
/// the whole walk (with the secrets solved above the cut), at depth 1 and
/// 2, with every secret or a sample.
#[test]
fn units_add_up_to_the_walk() {
    for name in ["moo:4x10", "mm:4x6", "mm:2x16", "moo:5x6"] {
        let shape: Shape = name.parse().unwrap();
        // mm:4x6 with rollouts: a unit's rollouts are the whole walk's.
        let opts = if name == "mm:4x6" {
            rolled(Heuristic::Entropy)
        } else {
            every_phase(Heuristic::Entropy)
        };
        let chooser = Chooser::new(shape, opts).unwrap();
        let n = shape.code_count() as u64;
        for sample in [None, Some(n / 3)] {
            let marks = match sample {
                Some(m) => walk::sample_marks(n, m, 5).unwrap(),
                None => vec![true; n as usize],
            };
            let mut codes = shape.all_codes();
            let mut m = marks.clone();
            let whole = walk::walk(&chooser, &mut codes, &mut m, &Sequential, &Silent).unwrap();
            for depth in [1, 2] {
                let (units, above) = walk::cut(&chooser, depth, 20, &Sequential).unwrap();
                let mut sum = crate::tree::Stats::default();
                for &(d, code) in &above {
                    if marks[shape.rank(code) as usize] {
                        sum.add(d, 1);
                    }
                }
                let mut sizes = above.len() as u64;
                for unit in &units {
                    let mut set = shape.candidates(&unit.history);
                    assert_eq!(set.len() as u64, unit.size);
                    sizes += unit.size;
                    let mut unit_marks: Vec<bool> =
                        set.iter().map(|&c| marks[shape.rank(c) as usize]).collect();
                    let stats = walk::walk_from(
                        &chooser,
                        &mut set,
                        &mut unit_marks,
                        unit.history.len(),
                        &Scoped(2),
                        &Silent,
                    )
                    .unwrap();
                    walk::merge(&mut sum, &stats);
                }
                assert_eq!(sizes, n, "{name}");
                assert_eq!(sum, whole, "{name} depth {depth} {sample:?}");
            }
        }
    }
}

/// moo:7x10 (604,800 secrets): the whole walk solves every secret, and a
/// sample of secrets played one by one, as the player plays them
/// (candidates rebuilt from the moves, then the guess), takes exactly the
/// guesses the sampled walk counts. Slow: `cargo test --release -p optimoo
/// --lib huge -- --ignored`.
#[test]
#[ignore = "moo:7x10, 604,800 secrets walked: slow; cargo test --release -p optimoo --lib huge -- --ignored"]
fn moo_7x10_every_secret_and_one_by_one() {
    let shape: Shape = "moo:7x10".parse().unwrap();
    let chooser = Chooser::new(shape, Phased::default()).unwrap();
    let n = shape.code_count() as u64;
    let mut codes = shape.all_codes();
    let mut marks = vec![true; n as usize];
    let whole = walk::walk(&chooser, &mut codes, &mut marks, &Scoped(2), &Silent).unwrap();
    assert_eq!(whole.secrets, n);
    assert_eq!(whole.histogram.iter().sum::<u64>(), n);
    let marks = walk::sample_marks(n, 60, 9).unwrap();
    let mut codes = shape.all_codes();
    let mut m = marks.clone();
    let sampled = walk::walk(&chooser, &mut codes, &mut m, &Scoped(2), &Silent).unwrap();
    let mut one_by_one = crate::tree::Stats::default();
    for (rank, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
        let secret = shape.unrank(rank as u64);
        let mut history = Vec::new();
        loop {
            let guess = if history.is_empty() {
                chooser.opening(&Sequential)
            } else {
                chooser.choose(&shape.candidates(&history), &Sequential)
            };
            let f = shape.feedback(secret, guess);
            history.push((guess, f));
            if guess == secret {
                break;
            }
            assert!(history.len() < 30, "{}", shape.format(secret));
        }
        one_by_one.add(history.len(), 1);
    }
    assert_eq!(one_by_one, sampled);
}

/// A counted set gives the guess of its list, wherever the strategy
/// samples: random histories (random guesses answered by a random secret)
/// of games with and without repeats, with thresholds small enough to sample small
/// sets, every heuristic, and with the defaults on moo:10x10.
#[test]
fn counted_sets_choose_as_listed_ones() {
    use crate::model::feedback::Feedback;
    use crate::model::shape::counted::Counted;
    use crate::model::shape::Packed;
    use crate::rng::SplitMix64;

    let mut rng = SplitMix64::new(11);
    let small = |heuristic| Phased {
        heuristic,
        exact_below: 4,
        heuristic_below: 40,
        extra: 30,
        big_pool: 25,
        big_sample: 90,
        climb: 2,
        ..Phased::default()
    };
    let cases = [
        ("moo:4x10", small(Heuristic::Entropy), 30),
        ("moo:5x8", small(Heuristic::Minimax), 20),
        ("moo:6x9", small(Heuristic::Irving), 20),
        ("moo:3x16", small(Heuristic::Kooi), 20),
        ("mm:4x6", small(Heuristic::Entropy), 20),
        ("mm:5x8", small(Heuristic::Irving), 20),
        ("mm:3x16", small(Heuristic::Minimax), 10),
        ("moo:10x10", Phased::default(), 3),
        ("mm:8x8", Phased::default(), 3),
    ];
    let mut sampled = 0;
    for (name, opts, rounds) in cases {
        let shape: Shape = name.parse().unwrap();
        let chooser = Chooser::new(shape, opts).unwrap();
        let count = shape.code_count() as u64;
        for round in 0..rounds {
            let secret = shape.unrank(rng.next_u64() % count);
            let history: Vec<(Packed, Feedback)> = (0..1 + round % 3)
                .map(|_| {
                    let g = shape.unrank(rng.next_u64() % count);
                    (g, shape.feedback(secret, g))
                })
                .collect();
            let counted = Counted::new(shape, &history).unwrap();
            let found = chooser.choose_counted(&counted, &Scoped(2));
            assert_eq!(found.is_some(), chooser.samples(counted.len()), "{name}");
            if let Some(guess) = found {
                let list = shape.candidates(&history);
                assert_eq!(
                    guess,
                    chooser.choose(&list, &Sequential),
                    "{name} {history:?}"
                );
                sampled += 1;
            }
        }
    }
    assert!(sampled >= 60, "only {sampled} histories sampled");
}

/// Every walk reports through the one observer of the crate: the secrets
/// it solves, each once, from any thread (the statistics' walk, a sampled
/// walk and the tree file's writer alike).
#[test]
fn walks_tell_the_observer_every_secret_once() {
    use crate::observe::Observer;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[derive(Default)]
    struct Count(AtomicU64);
    impl Observer for Count {
        fn solved(&self, secrets: u64) {
            self.0.fetch_add(secrets, Ordering::Relaxed);
        }
    }

    let shape: Shape = "mm:4x6".parse().unwrap();
    let chooser = Chooser::new(shape, every_phase(Heuristic::Entropy)).unwrap();
    let n = shape.code_count() as u64;
    for threads in [1, 3] {
        let count = Count::default();
        let mut codes = shape.all_codes();
        let mut marks = vec![true; codes.len()];
        let stats = walk::walk(&chooser, &mut codes, &mut marks, &Scoped(threads), &count).unwrap();
        assert_eq!(stats.secrets, n);
        assert_eq!(
            count.0.load(Ordering::Relaxed),
            n,
            "walk, {threads} threads"
        );

        let count = Count::default();
        let mut codes = shape.all_codes();
        let mut marks = walk::sample_marks(n, 100, 7).unwrap();
        walk::walk(&chooser, &mut codes, &mut marks, &Scoped(threads), &count).unwrap();
        assert_eq!(
            count.0.load(Ordering::Relaxed),
            100,
            "sample, {threads} threads"
        );

        let count = Count::default();
        let (_, stats) = walk::encode(&chooser, &Scoped(threads), &count).unwrap();
        assert_eq!(stats.secrets, n);
        assert_eq!(
            count.0.load(Ordering::Relaxed),
            n,
            "encode, {threads} threads"
        );
    }
}
