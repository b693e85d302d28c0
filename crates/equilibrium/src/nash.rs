//! The codemaker's game: the codemaker chooses a distribution of secrets,
//! the codebreaker a strategy; the codebreaker pays the expected number of
//! guesses (no cap). Its value for Mastermind 4x6 is 5600/1290 (Wiener's
//! analysis; Bonnet and Viennot, "Nash Equilibrium in Mastermind",
//! Computers and Games 2016).
//!
//! **Symmetry.** Relabelling symbols and permuting positions maps the game
//! onto itself, so (averaging any equilibrium over the group) there is an
//! equilibrium in which the codemaker gives every code of an orbit the same
//! probability and the codebreaker plays a tree under a uniformly random
//! symmetry. Two codes are in one orbit exactly when their symbols repeat
//! alike ([`orbits`]): Mastermind 4x6 has five (`0000`, `0001`, `0011`,
//! `0012`, `0123`); every MOO game has one (its codes have distinct symbols
//! and the group moves any to any), so its codemaker can do no better than
//! the uniform choice, and its value is the optimal average (`solve` with
//! no cap).
//!
//! **The loop** (double oracle): the codebreaker's trees found so far make
//! a matrix game against the orbits (each entry: the tree's average number
//! of guesses over the orbit), solved exactly ([`crate::matrix`]); the
//! codebreaker's exact best response to the codemaker's mixture is the
//! weighted exact search ([`optimoo::search::Cost::Weighted`], each code
//! weighing its orbit's probability over the orbit's size). When that best
//! response does no better than the value, no tree does, and the two
//! mixtures are an equilibrium of the whole game; otherwise it joins the
//! matrix. The codemaker's side needs no oracle: every orbit is a row.
//!
//! Invariant: [`check`] re-derives the value from the written mixtures
//! alone: the codebreaker's best response to the codemaker's mixture (a
//! fresh exact search) costs exactly the value, and no orbit takes the
//! codebreaker's mixture longer on average than the value.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use optimoo::model::{Code, Game};
use optimoo::search::{self, Config, Driver, Goal, SearchError};
use optimoo::tree::Tree;

use crate::matrix::{self, MatrixError};

/// An orbit of codes under symbol and position permutations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orbit {
    /// Its least code.
    pub representative: Code,
    /// Its codes, in order.
    pub codes: Vec<Code>,
}

/// The orbits of `game`'s codes, by least code.
pub fn orbits(game: &Game) -> Vec<Orbit> {
    let book = game.codes();
    let mut by_pattern: std::collections::BTreeMap<Vec<u8>, Vec<Code>> = Default::default();
    for c in book.all() {
        let mut counts = [0u8; 64];
        for &s in book.symbols(c) {
            counts[s as usize] += 1;
        }
        let mut pattern: Vec<u8> = counts.into_iter().filter(|&x| x > 0).collect();
        pattern.sort_unstable();
        by_pattern.entry(pattern).or_default().push(c);
    }
    let mut out: Vec<Orbit> = by_pattern
        .into_values()
        .map(|codes| Orbit {
            representative: codes[0],
            codes,
        })
        .collect();
    out.sort_by_key(|o| o.representative);
    out
}

/// Why the equilibrium could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NashError {
    /// The exact search refused.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The matrix game had no exact solution on its float supports.
    #[error(transparent)]
    Matrix(#[from] MatrixError),
    /// A game with a secret list.
    #[error("the codemaker's game is played over every code of a game, not a secret list")]
    List,
    /// The codemaker's weights need a denominator the search cannot carry.
    #[error("the codemaker's mixture has a denominator of {0} digits: beyond the exact search's weights (2^48)")]
    TooFine(usize),
    /// The loop did not close.
    #[error("no equilibrium after {0} best responses")]
    Rounds(usize),
    /// A tree found could not be kept.
    #[error("cannot keep a tree found: {0}")]
    Keep(String),
}

/// An equilibrium of the codemaker's game.
#[derive(Debug, Clone)]
pub struct Nash {
    /// The orbits of the game.
    pub orbits: Vec<Orbit>,
    /// The codemaker's probability of each orbit (uniform within it).
    pub codemaker: Vec<BigRational>,
    /// The codebreaker's trees (each played under a uniformly random
    /// symmetry of the game).
    pub trees: Vec<Tree>,
    /// Their weights.
    pub codebreaker: Vec<BigRational>,
    /// The expected number of guesses at the equilibrium.
    pub value: BigRational,
    /// Exact best responses computed.
    pub best_responses: usize,
}

impl Nash {
    /// [`check`] of this equilibrium's mixtures against `value`.
    pub fn check(
        &self,
        game: &Game,
        value: &BigRational,
        base: &Config,
        driver: Driver<'_>,
    ) -> Result<(), String> {
        let trees: Vec<(Tree, BigRational)> = self
            .trees
            .iter()
            .cloned()
            .zip(self.codebreaker.iter().cloned())
            .collect();
        check(game, &self.codemaker, &trees, value, base, driver)
    }
}

/// Most best responses before giving up.
const MAX_ROUNDS: usize = 200;

/// Who hears the loop (its observer, as the search's is `Observer`): a line after each best response, and each new
/// tree (to keep it: a run that stops can start again from the trees
/// found, `known` of [`nash`]).
pub trait NashObserver {
    /// A line of progress.
    fn said(&mut self, line: &str);
    /// The `index`-th tree of the loop (from 0), new.
    fn found(&mut self, index: usize, tree: &Tree) -> Result<(), String>;
}

/// The equilibrium of `game`'s codemaker's game (see the module doc), its
/// searches run by `driver` with `base`'s tuning (memo size, kernel);
/// `known`: the trees of an earlier run of the loop, in order (the loop is
/// deterministic, so it goes on from them as if it had not stopped).
pub fn nash(
    game: &Game,
    base: &Config,
    driver: Driver<'_>,
    known: Vec<Tree>,
    progress: &mut dyn NashObserver,
) -> Result<Nash, NashError> {
    if game.secret_set().is_some() {
        return Err(NashError::List);
    }
    let orbits = orbits(game);
    let uniform: Vec<BigRational> = orbits
        .iter()
        .map(|o| matrix::ratio(o.codes.len() as u64, game.len() as u64))
        .collect();
    let mut trees = known;
    if trees.is_empty() {
        let (first, _) = best_response(game, &orbits, &uniform, base, driver)?;
        progress.found(0, &first).map_err(NashError::Keep)?;
        trees.push(first);
    }
    let mut lengths: Vec<Vec<u64>> = trees
        .iter()
        .map(|t| orbit_lengths(game, &orbits, t))
        .collect();
    for round in trees.len()..=MAX_ROUNDS {
        let payoff = payoff(&orbits, &lengths);
        let eq = matrix::solve(&payoff)?;
        let (tree, cost) = best_response(game, &orbits, &eq.rows, base, driver)?;
        progress.said(&format!(
            "best response {round}: {} trees, value {} = {:.6}, the best response to the codemaker's mixture {:.6}",
            trees.len(),
            matrix::show(&eq.value),
            eq.value.to_f64().unwrap_or(f64::NAN),
            cost.to_f64().unwrap_or(f64::NAN)
        ));
        if cost >= eq.value {
            return Ok(Nash {
                orbits,
                codemaker: eq.rows,
                trees,
                codebreaker: eq.cols,
                value: eq.value,
                best_responses: round + 1,
            });
        }
        lengths.push(orbit_lengths(game, &orbits, &tree));
        progress
            .found(trees.len(), &tree)
            .map_err(NashError::Keep)?;
        trees.push(tree);
    }
    Err(NashError::Rounds(MAX_ROUNDS + 1))
}

/// Each orbit's total number of guesses under `tree`.
pub fn orbit_lengths(game: &Game, orbits: &[Orbit], tree: &Tree) -> Vec<u64> {
    orbits
        .iter()
        .map(|o| {
            o.codes
                .iter()
                .map(|&s| tree.play(game, s).map_or(u64::MAX / 4, |m| m.len() as u64))
                .sum()
        })
        .collect()
}

/// The matrix game: orbit `o` (row) against tree `t` (column) pays the
/// tree's average number of guesses over the orbit.
fn payoff(orbits: &[Orbit], lengths: &[Vec<u64>]) -> Vec<Vec<BigRational>> {
    orbits
        .iter()
        .enumerate()
        .map(|(o, orbit)| {
            lengths
                .iter()
                .map(|l| matrix::ratio(l[o], orbit.codes.len() as u64))
                .collect()
        })
        .collect()
}

/// The codebreaker's exact best response to the codemaker's orbit
/// probabilities `q`, and its expected number of guesses.
pub fn best_response(
    game: &Game,
    orbits: &[Orbit],
    q: &[BigRational],
    base: &Config,
    driver: Driver<'_>,
) -> Result<(Tree, BigRational), NashError> {
    // Each code weighs q_o / |o|; scaled by the common denominator.
    let per_code: Vec<BigRational> = orbits
        .iter()
        .zip(q)
        .map(|(o, w)| w / BigRational::from_integer(BigInt::from(o.codes.len())))
        .collect();
    let scale = per_code.iter().fold(BigInt::one(), |l, w| l.lcm(w.denom()));
    let too_fine = || NashError::TooFine(scale.to_string().len());
    if scale > BigInt::from(1u64 << 48) {
        return Err(too_fine());
    }
    let mut weights = vec![0u64; game.len()];
    for (o, w) in orbits.iter().zip(&per_code) {
        let scaled = (w * BigRational::from_integer(scale.clone())).to_integer();
        let scaled = scaled.to_u64().ok_or_else(too_fine)?;
        for &c in &o.codes {
            weights[c.index()] = scaled;
        }
    }
    // Equal weights are the total objective, whose bounds the SIMD kernel
    // computes: the same optimum, faster.
    let equal = weights.iter().all(|&w| w == weights[0]) && weights[0] > 0;
    let (goal, factor) = if equal {
        (Goal::Average { cap: None }, weights[0])
    } else {
        (Goal::Weighted { weights, cap: None }, 1)
    };
    let solution = search::optimize(game, &goal, &base.tuning, driver)?.solution;
    let tree = solution
        .tree
        .expect("a game with no cap always has a strategy");
    let cost = BigRational::new(BigInt::from(solution.cost) * BigInt::from(factor), scale);
    Ok((tree, cost))
}

/// Re-derives an equilibrium from its mixtures alone (see the module
/// doc): `Ok(value)` when both best responses gain nothing beyond it.
pub fn check(
    game: &Game,
    codemaker: &[BigRational],
    trees: &[(Tree, BigRational)],
    value: &BigRational,
    base: &Config,
    driver: Driver<'_>,
) -> Result<(), String> {
    let orbits = orbits(game);
    if codemaker.len() != orbits.len() {
        return Err(format!(
            "{} codemaker weights for the {} orbits of {}",
            codemaker.len(),
            orbits.len(),
            game.name()
        ));
    }
    let one = BigRational::one();
    let weights_ok = |ws: &mut dyn Iterator<Item = &BigRational>| {
        let ws: Vec<&BigRational> = ws.collect();
        !ws.iter().any(|w| w.is_negative()) && ws.into_iter().sum::<BigRational>() == one
    };
    if !weights_ok(&mut codemaker.iter()) {
        return Err("the codemaker's weights are not a distribution".into());
    }
    if !weights_ok(&mut trees.iter().map(|t| &t.1)) {
        return Err("the codebreaker's weights are not a distribution".into());
    }
    // The codemaker's best response: the orbit the mixture takes longest.
    // Each tree checked once, then its guesses per orbit.
    let mut lengths = Vec::with_capacity(trees.len());
    for (tree, _) in trees {
        optimoo::tree::check::check(game, tree, None).map_err(|e| e.to_string())?;
        lengths.push(orbit_lengths(game, &orbits, tree));
    }
    let mut longest = BigRational::zero();
    for (o, orbit) in orbits.iter().enumerate() {
        let expected: BigRational = trees
            .iter()
            .zip(&lengths)
            .map(|((_, w), l)| w * matrix::ratio(l[o], orbit.codes.len() as u64))
            .sum();
        longest = longest.max(expected);
    }
    if &longest > value {
        return Err(format!(
            "an orbit takes the codebreaker's mixture {} guesses on average, above the value {}",
            matrix::show(&longest),
            matrix::show(value)
        ));
    }
    // The codebreaker's best response: a fresh exact search.
    let (_, cost) =
        best_response(game, &orbits, codemaker, base, driver).map_err(|e| e.to_string())?;
    if &cost < value {
        return Err(format!(
            "a tree takes {} guesses on average against the codemaker's mixture, below the value {}",
            matrix::show(&cost),
            matrix::show(value)
        ));
    }
    if longest != *value || cost != *value {
        return Err(format!(
            "the mixtures give {} and {}, not the value {}",
            matrix::show(&longest),
            matrix::show(&cost),
            matrix::show(value)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_are_repetition_patterns() {
        let sizes = |name: &str| -> Vec<usize> {
            let game = Game::new(name.parse().unwrap());
            orbits(&game).iter().map(|o| o.codes.len()).collect()
        };
        assert_eq!(sizes("mm:4x6"), vec![6, 120, 90, 720, 360]);
        assert_eq!(sizes("moo:4x10"), vec![5040]);
        assert_eq!(sizes("mm:2x3"), vec![3, 6]);
    }

    /// Hears nothing, keeps nothing.
    pub(super) struct Quiet;

    impl NashObserver for Quiet {
        fn said(&mut self, _: &str) {}
        fn found(&mut self, _: usize, _: &Tree) -> Result<(), String> {
            Ok(())
        }
    }

    /// The equilibrium of `name`, checked again from its mixtures alone.
    pub(super) fn checked(name: &str) -> (Game, Nash) {
        let game = Game::new(name.parse().unwrap());
        let base = Config::default();
        let eq = nash(&game, &base, Driver::sequential(), Vec::new(), &mut Quiet).unwrap();
        eq.check(&game, &eq.value, &base, Driver::sequential())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        (game, eq)
    }

    /// Keeps every tree found.
    struct Keep(Vec<Tree>);

    impl NashObserver for Keep {
        fn said(&mut self, _: &str) {}
        fn found(&mut self, index: usize, tree: &Tree) -> Result<(), String> {
            assert_eq!(index, self.0.len());
            self.0.push(tree.clone());
            Ok(())
        }
    }

    /// A run started again from the trees an earlier run found (any prefix
    /// of them) ends on the same equilibrium.
    #[test]
    fn a_resumed_run_ends_alike() {
        let game = Game::new("mm:3x3".parse().unwrap());
        let base = Config::default();
        let mut kept = Keep(Vec::new());
        let whole = nash(&game, &base, Driver::sequential(), Vec::new(), &mut kept).unwrap();
        assert!(kept.0.len() >= 2, "{} trees", kept.0.len());
        for cut in 1..kept.0.len() {
            let again = nash(
                &game,
                &base,
                Driver::sequential(),
                kept.0[..cut].to_vec(),
                &mut Quiet,
            )
            .unwrap();
            assert_eq!(again.value, whole.value);
            assert_eq!(again.codebreaker, whole.codebreaker);
            assert_eq!(again.trees.len(), whole.trees.len());
        }
    }

    /// Small games: each equilibrium passes `check` and a wrong value does
    /// not; the codemaker never does worse than the uniform choice, and
    /// for MOO (one orbit) the value is the optimal average.
    #[test]
    fn small_equilibria_check_and_moo_is_uniform() {
        for name in [
            "mm:2x2", "mm:2x3", "mm:3x2", "mm:2x4", "mm:3x3", "moo:3x4", "moo:2x5",
        ] {
            let (game, eq) = checked(name);
            let wrong = &eq.value + matrix::ratio(1, 1000);
            assert!(eq
                .check(&game, &wrong, &Config::default(), Driver::sequential())
                .is_err());
            let best = search::solve(&game, Config::default()).unwrap();
            let uniform = matrix::ratio(best.cost, game.len() as u64);
            assert!(eq.value >= uniform, "{name}");
            if name.starts_with("moo") {
                assert_eq!(eq.value, uniform, "{name}");
            }
        }
    }

    /// Wiener; Bonnet and Viennot 2016: mm:4x6 has value 5600/1290, the
    /// codemaker uniform over the 1,290 codes that are not one colour.
    #[test]
    #[ignore = "a few exact weighted searches of mm:4x6: seconds to a minute"]
    fn mm_4x6_is_5600_over_1290() {
        let (_, eq) = checked("mm:4x6");
        assert_eq!(eq.value, matrix::ratio(5600, 1290));
        let expect: Vec<BigRational> = eq
            .orbits
            .iter()
            .map(|o| match o.codes.len() {
                6 => BigRational::zero(),
                n => matrix::ratio(n as u64, 1290),
            })
            .collect();
        assert_eq!(eq.codemaker, expect);
    }
}
