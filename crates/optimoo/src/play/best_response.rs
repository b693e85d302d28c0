//! The two-player challenge ("Mastermind Challenge"): each player hides a
//! secret, they guess in turn, each sees only the answers to their own
//! guesses, and whoever cracks the other's secret first wins.
//!
//! Against an opponent who plays a fixed tree (every secret equally
//! likely), all that matters of the opponent is the distribution of its
//! lengths: a player who takes `d` guesses wins with a probability that
//! depends only on `d` ([`score`]). That probability never grows with `d`,
//! so maximizing the probability of winning is minimizing the sum over the
//! secrets of a nondecreasing cost `c[d] = 2N − score(d)`: the per-guess
//! cost objective of the exact search ([`crate::search::Cost::PerGuess`]),
//! which gives the exact best response ([`best_response`]).
//!
//! Rules ([`Rule`]): `first-wins`, the player who starts wins when both
//! need the same number of guesses (`d1 ≤ d2`); `equal-turns`, the second
//! player gets the same number of turns, and equal lengths draw (worth 1/2).
//!
//! Invariants: values are exact fractions ([`Ratio`]), computed in
//! integers; scores are in units of `1 / (2N)` (2 per win, 1 per draw), so
//! every sum is an integer below `2N²` (at most 2⁳³ for 65,535 secrets).
//! The best response's cap is lossless: costs are the largest beyond the
//! last depth `L` where a win is still possible, and from any node after
//! `L` guesses the opponent's own tree (at most `D` deep) finishes every
//! secret, so a cap of `L + D` loses nothing against no cap.

use std::fmt;
use std::str::FromStr;

use crate::model::Game;
use crate::search::{self, Config, Driver, Goal, SearchError};
use crate::tree::{Stats, Tree};

/// A small enum of named values: `ALL`, `name()`, `Display` and a
/// case-insensitive `FromStr` whose error lists the names.
macro_rules! named {
    ($(#[$doc:meta])* $ty:ident, $what:literal, $($(#[$vdoc:meta])* $variant:ident => $name:literal),+ $(,)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $ty {
            $($(#[$vdoc])* $variant,)+
        }

        impl $ty {
            /// Every value, in order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// Its name on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = String;

            fn from_str(text: &str) -> Result<$ty, String> {
                $ty::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name().eq_ignore_ascii_case(text.trim()))
                    .ok_or_else(|| {
                        let names: Vec<&str> = $ty::ALL.iter().map(|v| v.name()).collect();
                        format!("unknown {} '{text}': use {}", $what, names.join(" or "))
                    })
            }
        }
    };
}

named!(
    /// Who wins when both players need the same number of guesses.
    Rule,
    "rule",
    /// The first player wins ties (`d1 ≤ d2`).
    FirstWins => "first-wins",
    /// The second player gets as many turns: equal lengths draw.
    EqualTurns => "equal-turns",
);

named!(
    /// Which player one is.
    Seat,
    "seat",
    /// The player who guesses first.
    First => "first",
    /// The player who guesses second.
    Second => "second",
);

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// An exact nonnegative fraction, in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: u128,
    /// Denominator (at least 1).
    pub den: u128,
}

impl Ratio {
    /// `num / den` in lowest terms (`den` at least 1).
    pub fn new(num: u128, den: u128) -> Ratio {
        assert!(den > 0, "a fraction with denominator 0");
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        // Products of values below 2^64 fit in u128.
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

/// "p/q", or "p" when the denominator is 1.
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// What a player who takes `d` guesses scores in `seat` under `rule`
/// against an opponent whose lengths are `opp` (`opp[i]`: secrets the
/// opponent solves with `i + 1` guesses), in units of `1 / (2N)`, `N` the
/// opponent's secrets: 2 per secret of the opponent it beats, 1 per draw.
pub fn score(rule: Rule, seat: Seat, opp: &[u64], d: usize) -> u64 {
    let longer: u64 = opp.iter().skip(d).sum();
    let equal = if d >= 1 {
        opp.get(d - 1).copied().unwrap_or(0)
    } else {
        0
    };
    match (rule, seat) {
        (Rule::FirstWins, Seat::First) => 2 * (longer + equal),
        (Rule::FirstWins, Seat::Second) => 2 * longer,
        (Rule::EqualTurns, _) => 2 * longer + equal,
    }
}

/// The probability that a player whose lengths are `mine` wins (draws 1/2)
/// in `seat` against an opponent whose lengths are `opp`, both over every
/// secret equally likely.
pub fn value(rule: Rule, seat: Seat, mine: &[u64], opp: &[u64]) -> Ratio {
    let n_mine: u64 = mine.iter().sum();
    let n_opp: u64 = opp.iter().sum();
    let scored: u128 = mine
        .iter()
        .enumerate()
        .map(|(i, &h)| u128::from(h) * u128::from(score(rule, seat, opp, i + 1)))
        .sum();
    Ratio::new(
        scored,
        2 * u128::from(n_mine.max(1)) * u128::from(n_opp.max(1)),
    )
}

/// The per-guess costs whose least sum is the best response (see the
/// module doc): `c[d] = 2N − score(d)` for `d` in `1..=cap`, with the
/// lossless cap `L + D`.
pub fn costs(rule: Rule, seat: Seat, opp: &[u64]) -> Vec<u64> {
    let n: u64 = opp.iter().sum();
    let depth = opp.len();
    let last_win = (1..=depth)
        .rev()
        .find(|&d| score(rule, seat, opp, d) > 0)
        .unwrap_or(0);
    (1..=last_win + depth)
        .map(|d| 2 * n - score(rule, seat, opp, d))
        .collect()
}

/// An exact best response: its tree, its statistics and its value.
#[derive(Debug, Clone)]
pub struct BestResponse {
    /// The tree that maximizes the probability of winning.
    pub tree: Tree,
    /// Its replay.
    pub stats: Stats,
    /// Its probability of winning (draws 1/2).
    pub value: Ratio,
    /// The per-guess costs it minimizes (their length is its cap).
    pub costs: Vec<u64>,
}

/// Why a best response cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    /// The search refused.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The opponent's lengths do not cover the game's secrets.
    #[error("the opponent's tree solves {tree} secrets, the game has {game}")]
    Secrets {
        /// Secrets in the opponent's histogram.
        tree: u64,
        /// Secrets of the game.
        game: usize,
    },
}

/// The exact best response in `seat` under `rule` to an opponent whose
/// lengths over `game`'s secrets are `opp`: the per-guess cost search of
/// [`costs`], run by `driver` with `base`'s tuning (memo size, kernel; its
/// cap and objective are set here).
pub fn best_response(
    game: &Game,
    rule: Rule,
    seat: Seat,
    opp: &[u64],
    base: &Config,
    driver: Driver<'_>,
) -> Result<BestResponse, DuelError> {
    let n: u64 = opp.iter().sum();
    if n != game.secret_count() as u64 {
        return Err(DuelError::Secrets {
            tree: n,
            game: game.secret_count(),
        });
    }
    let costs = costs(rule, seat, opp);
    let goal = Goal::Costs(costs.clone());
    let solution = search::optimize(game, &goal, &base.tuning, driver)?.solution;
    let (Some(tree), Some(stats)) = (solution.tree, solution.stats) else {
        unreachable!("the opponent's tree meets the cap, so the search finds a tree")
    };
    let value = value(rule, seat, &stats.histogram, opp);
    debug_assert_eq!(
        value,
        Ratio::new(
            u128::from(2 * n * n - solution.cost),
            2 * u128::from(n) * u128::from(n)
        )
    );
    Ok(BestResponse {
        tree,
        stats,
        value,
        costs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::partition;
    use crate::model::Code;
    use std::collections::HashMap;

    #[test]
    fn scores_follow_the_rules() {
        // Opponent: 1 secret in 1 guess, 2 in 2, 1 in 3 (N = 4).
        let opp = [1, 2, 1];
        assert_eq!(score(Rule::FirstWins, Seat::First, &opp, 2), 2 * 3);
        assert_eq!(score(Rule::FirstWins, Seat::Second, &opp, 2), 2);
        assert_eq!(score(Rule::EqualTurns, Seat::First, &opp, 2), 2 + 2);
        assert_eq!(score(Rule::EqualTurns, Seat::Second, &opp, 4), 0);
        // Equal-turns is symmetric: a tree against itself gets 1/2.
        let h = [3, 10, 7];
        assert_eq!(
            value(Rule::EqualTurns, Seat::First, &h, &h),
            Ratio::new(1, 2)
        );
        // First-wins: the first player's and the second's add up to 1.
        let a = value(Rule::FirstWins, Seat::First, &h, &opp);
        let b = value(Rule::FirstWins, Seat::Second, &opp, &h);
        assert_eq!(a.num * b.den + b.num * a.den, a.den * b.den);
        assert_eq!(
            costs(Rule::FirstWins, Seat::First, &opp),
            vec![0, 2, 6, 8, 8, 8]
        );
    }

    /// Brute force: the best probability of winning over every strategy
    /// (every guess at every node), by the definition.
    fn brute(
        game: &Game,
        set: &[Code],
        made: usize,
        cap: usize,
        win: &dyn Fn(usize) -> u64,
        memo: &mut HashMap<(Vec<Code>, usize), u64>,
    ) -> u64 {
        if set.is_empty() || made == cap {
            return 0;
        }
        if let Some(&v) = memo.get(&(set.to_vec(), made)) {
            return v;
        }
        let mut best = 0;
        for g in game.codes().all() {
            let classes = partition::split(game, g, set);
            if classes.len() == 1 && classes[0].0 != game.win() {
                continue;
            }
            let total: u64 = classes
                .iter()
                .map(|(f, c)| {
                    if *f == game.win() {
                        win(made + 1)
                    } else {
                        brute(game, c, made + 1, cap, win, memo)
                    }
                })
                .sum();
            best = best.max(total);
        }
        memo.insert((set.to_vec(), made), best);
        best
    }

    #[test]
    fn best_responses_equal_brute_force() {
        let mut seen = HashMap::new();
        for name in ["mm:2x3", "moo:2x4", "mm:3x2", "moo:3x4"] {
            let game = Game::new(name.parse().unwrap());
            let all = game.all_codes();
            // Opponents: the heuristics' trees.
            for h in crate::heuristic::Heuristic::ALL {
                let tree =
                    crate::heuristic::build_tree(&game, &crate::heuristic::StrategyConfig::new(h))
                        .unwrap();
                let opp = tree.replay(&game, None).unwrap().histogram;
                if seen.insert((name, opp.clone()), ()).is_some() {
                    continue;
                }
                for &rule in Rule::ALL {
                    for &seat in Seat::ALL {
                        let br = best_response(
                            &game,
                            rule,
                            seat,
                            &opp,
                            &Config::default(),
                            Driver::sequential(),
                        )
                        .unwrap();
                        let cap = br.costs.len();
                        let win = |d: usize| score(rule, seat, &opp, d);
                        // Brute force with one guess more than the lossless
                        // cap finds nothing better.
                        let best = brute(&game, &all, 0, cap + 1, &win, &mut HashMap::new());
                        let n = all.len() as u128;
                        assert_eq!(
                            br.value,
                            Ratio::new(u128::from(best), 2 * n * n),
                            "{name} {rule} {seat}"
                        );
                        assert!(br.value >= value(rule, seat, &opp, &opp));
                    }
                }
            }
        }
    }
}
