//! `optimoo improve`'s strategy through the library's public paths
//! (`search::Improve`, `search::improve_width`, `search::improve`): at
//! full width it is the exact optimum, and a wider pass is never worse.

use optimoo::model::{Game, Rules};
use optimoo::search::{self, Config, Driver, Improve};

#[test]
fn improve_at_full_width_is_the_optimum() {
    for name in ["mm:2x3", "moo:2x4"] {
        let rules: Rules = name.parse().unwrap();
        let game = Game::new(rules);
        let exact = search::solve(&game, Config::default()).unwrap().cost;
        let full = Improve {
            exact_below: 1,
            width: usize::MAX,
        };
        let (total, tree) =
            search::improve_width(&game, Config::default(), full, None, Driver::sequential())
                .unwrap()
                .expect("no deadline");
        assert_eq!(total, exact, "{name}");
        assert_eq!(tree.replay(&game, None).unwrap().total, total, "{name}");
        let mut seen = Vec::new();
        search::improve(
            &game,
            Config::default(),
            1,
            &[1, usize::MAX],
            None,
            None,
            Driver::sequential(),
            &mut |c, _, w| seen.push((c, w)),
        )
        .unwrap();
        assert!(seen.windows(2).all(|p| p[1].0 < p[0].0), "{name}: {seen:?}");
        assert_eq!(seen.last().map(|s| s.0), Some(exact), "{name}");
    }
}
