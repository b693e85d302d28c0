//! The choice of a guess, tested on its own: the first guess counted and
//! listed, the options' checks and their serde type, the phases' guesses.

use super::*;

/// The options are one serde type: its JSON is the `options` object
/// the plan folders and `eval`'s rows have always had (the thresholds,
/// in this order, without the score and the first guess), and a file
/// written before `rollout` reads with no play-outs.
#[test]
fn the_options_are_one_serde_type() {
    let shape: Shape = "moo:10x10".parse().unwrap();
    let opts = Phased {
        heuristic: Heuristic::Kooi,
        exact_below: 5,
        heuristic_below: 600,
        extra: 30,
        work: 7,
        big_pool: 40,
        big_sample: 900,
        climb: 2,
        first: Some(shape.parse("0123456789").unwrap()),
        rollout: 3,
        rollout_above: 5000,
    };
    let text = serde_json::to_string(&opts).unwrap();
    let fields: Vec<&str> = text
        .trim_matches(|c| c == '{' || c == '}')
        .split(',')
        .map(|f| f.split(':').next().unwrap().trim_matches('"'))
        .collect();
    assert_eq!(
        fields,
        [
            "exact_below",
            "heuristic_below",
            "extra",
            "work",
            "big_pool",
            "big_sample",
            "climb",
            "rollout",
            "rollout_above"
        ]
    );
    let back: Phased = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back,
        Phased {
            heuristic: Heuristic::Entropy,
            first: None,
            ..opts
        }
    );
    let old = r#"{"exact_below":8,"heuristic_below":2000,"extra":200,"work":0,"big_pool":200,"big_sample":20000,"climb":4}"#;
    let back: Phased = serde_json::from_str(old).unwrap();
    assert_eq!((back.rollout, back.rollout_above), (0, 0));
    assert_eq!(back.big_sample, 20_000);
}

/// The first guess chosen on counted classes is the one the scan of
/// every code listed chooses, for every score, on games with several
/// patterns (and it needs no list: mm:8x16's first guess is chosen).
#[test]
fn the_counted_opening_is_the_listed_one() {
    use crate::exec::Sequential;
    for name in ["mm:4x6", "mm:5x8", "mm:6x6", "mm:8x4", "mm:3x16"] {
        let shape: Shape = name.parse().unwrap();
        let all = shape.all_codes();
        for heuristic in [
            Heuristic::Entropy,
            Heuristic::Minimax,
            Heuristic::Irving,
            Heuristic::Kooi,
        ] {
            let opts = Phased {
                heuristic,
                ..Phased::default()
            };
            let chooser = Chooser::new(shape, opts).unwrap();
            assert_eq!(
                chooser.opening_counted(),
                Some(chooser.opening_in(&all, &Sequential)),
                "{name} {heuristic:?}"
            );
        }
    }
    let big = Chooser::new("mm:8x16".parse().unwrap(), Phased::default()).unwrap();
    assert!(!big.opening_lists());
    assert!(big.opening_counted().is_some());
}

/// The exact phase against plain recursion without bounds.
#[test]
fn exact_matches_brute_force() {
    fn brute(shape: &Shape, set: &[Packed], others: &[Packed]) -> u32 {
        if set.len() == 1 {
            return 1;
        }
        let win = shape.positions() * (shape.positions() + 1);
        set.iter()
            .chain(others)
            .filter_map(|&g| {
                let mut classes: std::collections::BTreeMap<usize, Vec<Packed>> =
                    Default::default();
                for &s in set {
                    classes
                        .entry(shape.feedback(s, g).index())
                        .or_default()
                        .push(s);
                }
                (classes.len() > 1).then(|| {
                    set.len() as u32
                        + classes
                            .iter()
                            .filter(|(f, _)| **f != win)
                            .map(|(_, v)| brute(shape, v, others))
                            .sum::<u32>()
                })
            })
            .min()
            .unwrap()
    }
    let mut rng = SplitMix64::new(7);
    for name in ["moo:3x6", "mm:3x4", "mm:4x3", "moo:4x10", "mm:2x9"] {
        let shape: Shape = name.parse().unwrap();
        let all = shape.all_codes();
        for _ in 0..40 {
            let m = 2 + rng.below(7);
            let mut set: Vec<Packed> = (0..m).map(|_| all[rng.below(all.len())]).collect();
            set.sort_unstable();
            set.dedup();
            let others: Vec<Packed> = (0..rng.below(6))
                .map(|_| all[rng.below(all.len())])
                .filter(|g| !set.contains(g))
                .collect();
            let (cost, _) = exact(&shape, &set, &[], u32::MAX);
            assert_eq!(cost, brute(&shape, &set, &[]), "{name} {set:?}");
            let (cost, g) = exact(&shape, &set, &others, u32::MAX);
            assert_eq!(
                cost,
                brute(&shape, &set, &others),
                "{name} {set:?} {others:?}"
            );
            assert!(set.contains(&g) || others.contains(&g));
        }
    }
}

#[test]
fn patterns_are_the_partitions() {
    let c = Chooser::new("mm:4x6".parse().unwrap(), Phased::default()).unwrap();
    let shape = c.shape();
    let p: Vec<String> = c.patterns().iter().map(|&p| shape.format(p)).collect();
    assert_eq!(p, ["0000", "0001", "0011", "0012", "0123"]);
    let c = Chooser::new("mm:4x2".parse().unwrap(), Phased::default()).unwrap();
    assert_eq!(c.patterns().len(), 3); // 4, 3+1, 2+2
    let c = Chooser::new("moo:10x10".parse().unwrap(), Phased::default()).unwrap();
    assert_eq!(c.patterns().len(), 1);
}

#[test]
fn bad_options_are_refused() {
    let shape: Shape = "mm:4x6".parse().unwrap();
    let random = Phased {
        heuristic: Heuristic::Random,
        ..Phased::default()
    };
    assert!(Chooser::new(shape, random).is_err());
    let huge_exact = Phased {
        exact_below: 40,
        ..Phased::default()
    };
    assert!(Chooser::new(shape, huge_exact).is_err());
}
