//! A game above 16,384 codes (the old limit of the exact search) through
//! the library's search: mm:5x7, 16,807 codes (a 269 MiB feedback table).
//!
//! Evidence: the counting bound (`Bounds::lower`), the independent tree
//! checker (`tree::check`, which shares no code with the search), and two
//! objectives whose searches take different paths (the feasibility search
//! scans guesses by their largest class, the total search through the
//! kernel). The command line's runs of such games (and moo:5x10) are in
//! the top tests/big.rs.

use optimoo::model::TABLE_MAX_CODES;
use optimoo::model::{Game, Rules};
use optimoo::search::{min_cap, solve, Config, Tuning};
use optimoo::search::{Bounds, Cost, INF};

/// mm:5x7 (16,807 codes): four guesses are refuted by counting, five by
/// both searches (feasibility and total), and six are met by a tree the
/// independent checker accepts; `min_cap` agrees.
#[test]
fn mm_5x7_needs_six_guesses() {
    let game = Game::new("mm:5x7".parse::<Rules>().unwrap());
    assert!(game.len() > TABLE_MAX_CODES);
    let branching = game.possible_feedbacks().count() - 1;
    let counting = Bounds::new(Cost::Feasible, branching, game.len());
    assert!(
        counting.lower(game.len(), 4) >= INF,
        "4 refuted by counting"
    );
    assert!(counting.lower(game.len(), 5) < INF, "5 is not");
    let config = |cap, objective| Config {
        cap: Some(cap),
        objective,
        tuning: Tuning {
            memo_codes: 1 << 22,
            ..Tuning::default()
        },
        ..Config::default()
    };
    for objective in [Cost::Feasible, Cost::Total] {
        let five = solve(&game, config(5, objective)).unwrap();
        assert_eq!(five.cost, INF, "{objective:?}: five guesses refuted");
        assert!(five.tree.is_none());
    }
    let six = solve(&game, config(6, Cost::Feasible)).unwrap();
    let tree = six.tree.expect("six guesses suffice");
    let stats = optimoo::tree::check::check(&game, &tree, Some(6)).expect("the tree holds");
    assert_eq!(stats.secrets as usize, game.len());
    assert_eq!(stats.max_depth, 6);
    let found = min_cap(&game, &config(1, Cost::Total).tuning).unwrap();
    assert_eq!((found.cap, found.counted), (6, 5));
}
