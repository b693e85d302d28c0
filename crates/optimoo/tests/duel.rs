//! The two-player challenge through the library's public paths: the game
//! played against a person is `play::duel`, the exact best response and
//! the challenge's rules and values are `play::best_response`.

use optimoo::play::best_response::{self, Ratio, Rule, Seat};
use optimoo::play::duel;

/// Under equal turns the game is symmetric: a tree against itself is worth
/// exactly one half, from either seat.
#[test]
fn a_tree_against_itself_is_even_under_equal_turns() {
    let lengths = [0, 1, 3, 6, 2];
    for seat in [Seat::First, Seat::Second] {
        let v = best_response::value(Rule::EqualTurns, seat, &lengths, &lengths);
        assert_eq!(v, Ratio::new(1, 2), "{seat:?}");
    }
    // Under first-wins the first seat wins every tie: more than a half.
    let first = best_response::value(Rule::FirstWins, Seat::First, &lengths, &lengths);
    assert!(first > Ratio::new(1, 2));
}

/// `moo duel` draws its tree from the equilibrium's weights: a tree of
/// weight 0 is never drawn.
#[test]
fn the_duel_draws_only_trees_of_positive_weight() {
    for seed in 0..50 {
        assert_eq!(duel::draw(&[0.0, 2.0, 0.0], seed), 1);
        assert_ne!(duel::draw(&[1.0, 0.0, 1.0], seed), 1);
    }
}
