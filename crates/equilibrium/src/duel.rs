//! The two-player challenge's equilibrium: each player mixes trees.
//!
//! Payoffs depend only on the two players' length distributions
//! ([`optimoo::play::best_response::value`]), so the game over trees is a matrix game
//! whose rows are the first seat's trees and whose columns are the second
//! seat's. The loop (double oracle): solve the matrix game of the trees
//! found so far exactly ([`crate::matrix`]); compute each seat's exact best
//! response to the other's mixture; when neither gains beyond the matrix's
//! value, the mixtures are an equilibrium of the whole game; otherwise the
//! responses join the matrix (every tree found plays in both seats).
//!
//! **Best responses to a mixture.** Against a mixture `y` of trees with
//! lengths `h_j`, a player who takes `d` guesses wins with probability
//! `Σ_j y_j · score_j(d)`, nonincreasing in `d`: the per-guess cost search
//! with `c[d] = 2N − Σ_j y_j score_j(d)`, scaled to integers by the common
//! denominator of `y` and reduced by the costs' common divisor. The exact
//! search carries costs up to `2⁴⁸` in all ([`optimoo::search::check_costs`]),
//! so a mixture whose weights have a large denominator is answered in two
//! steps (the private `respond` and `corners`):
//!
//! 1. a search with the costs rounded gives a candidate tree `T`;
//! 2. the exact costs `c` are a nonnegative combination of integer cost
//!    vectors `b_k` small enough for the search, each of which has `T`
//!    (or a tree of the same lengths) as an exact optimum. Then for every
//!    tree `U`, `c · h(U) = Σ μ_k b_k · h(U) ≥ Σ μ_k b_k · h(T) = c · h(T)`:
//!    `T` is an exact best response to `c`, with no search at `c`'s
//!    precision. The `b_k` are the corners of a small simplex around `c`
//!    inside the space where `T` and the trees that tie with it under `c`
//!    keep tying; a corner with a better tree than `T` names either a tree
//!    that beats `T` under `c` (a better response) or one more tie.
//!
//! Invariant: every value and weight returned is an exact fraction, and
//! [`check`] proves it from the mixtures alone with exact best responses.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use optimoo::model::Game;
use optimoo::play::best_response::{self as rules, Rule, Seat};
use optimoo::search::{self, Config, Driver, Goal, SearchError};
use optimoo::tree::Tree;

use crate::matrix::{self, MatrixError};

/// Why the duel's equilibrium could not be computed or checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    /// The exact search refused.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The matrix game had no exact solution on its float supports.
    #[error(transparent)]
    Matrix(#[from] MatrixError),
    /// The duel is played over every code of a game, not a secret list.
    #[error("the duel is played over every code of a game, not a secret list")]
    List,
    /// A best response to a mixture could not be proven.
    #[error("cannot prove the best response in the {seat} seat: {why}")]
    Uncertified {
        /// The seat.
        seat: Seat,
        /// Why.
        why: String,
    },
    /// The loop did not close.
    #[error("no equilibrium after {0} best responses")]
    Rounds(usize),
}

/// A tree of the duel with its lengths (`lengths[d - 1]`: secrets solved
/// in `d` guesses).
#[derive(Debug, Clone)]
pub struct Played {
    /// The tree.
    pub tree: Tree,
    /// Its lengths over the game's secrets.
    pub lengths: Vec<u64>,
}

impl Played {
    /// `tree` with its lengths, from a replay of every secret.
    pub fn new(game: &Game, tree: Tree) -> Result<Played, String> {
        let stats = optimoo::tree::check::check(game, &tree, None).map_err(|e| e.to_string())?;
        Ok(Played {
            tree,
            lengths: stats.histogram,
        })
    }

    /// Its total number of guesses.
    pub fn total(&self) -> u64 {
        self.lengths
            .iter()
            .enumerate()
            .map(|(i, &h)| (i as u64 + 1) * h)
            .sum()
    }
}

/// An equilibrium of the duel.
#[derive(Debug, Clone)]
pub struct Duel {
    /// The rule.
    pub rule: Rule,
    /// The first seat's trees and weights (positive).
    pub first: Vec<(Played, BigRational)>,
    /// The second seat's.
    pub second: Vec<(Played, BigRational)>,
    /// The first seat's probability of winning (draws 1/2); the second's
    /// is `1 − value`.
    pub value: BigRational,
    /// Best-response searches run (rounded, exact and certificate corners).
    pub searches: usize,
    /// Trees found.
    pub trees: usize,
    /// The first tree of the loop.
    pub start: Played,
    /// Its worst-case probability of winning in each seat (first, second):
    /// what it wins against the other seat's exact best response to it.
    pub start_worst: [BigRational; 2],
}

/// One seat's exact cost per number of guesses against a mixture of
/// opponents (see the module doc), as exact fractions: `c[d − 1]` for `d`
/// in `1..=cap`, `cap` lossless (play::best_response's argument: beyond the last
/// depth that can still win, every cost is the largest, and the longest
/// opponent tree finishes any secret left).
struct Costs {
    /// `c[d] − c[1]`, scaled so that the last entry is 1 (all 0 when every
    /// tree ties).
    unit: Vec<BigRational>,
    /// `c[d]` itself, in units of `1 / (2N)` per secret.
    raw: Vec<BigRational>,
    /// Secrets of the game.
    n: u64,
}

impl Costs {
    fn new(rule: Rule, seat: Seat, opponents: &[(&[u64], &BigRational)]) -> Costs {
        let n: u64 = opponents.first().map_or(0, |(h, _)| h.iter().sum());
        let depth = opponents.iter().map(|(h, _)| h.len()).max().unwrap_or(0);
        let last_win = opponents
            .iter()
            .filter(|(_, w)| w.is_positive())
            .filter_map(|(h, _)| {
                (1..=h.len())
                    .rev()
                    .find(|&d| rules::score(rule, seat, h, d) > 0)
            })
            .max()
            .unwrap_or(0);
        let cap = (last_win + depth).max(1);
        let two_n = BigRational::from_integer(BigInt::from(2 * n));
        let raw: Vec<BigRational> = (1..=cap)
            .map(|d| {
                let scored: BigRational = opponents
                    .iter()
                    .map(|(h, w)| {
                        *w * BigRational::from_integer(rules::score(rule, seat, h, d).into())
                    })
                    .sum();
                &two_n - scored
            })
            .collect();
        let spread = &raw[cap - 1] - &raw[0];
        let unit = raw
            .iter()
            .map(|c| {
                if spread.is_zero() {
                    BigRational::zero()
                } else {
                    (c - &raw[0]) / &spread
                }
            })
            .collect();
        Costs { unit, raw, n }
    }

    fn cap(&self) -> usize {
        self.unit.len()
    }

    /// Lengths folded to the cap (a secret past the cap costs the last
    /// entry, as every entry from `last_win + 1` on is the largest).
    fn fold(&self, lengths: &[u64]) -> Vec<u64> {
        let mut out = vec![0; self.cap()];
        for (i, &h) in lengths.iter().enumerate() {
            out[i.min(self.cap() - 1)] += h;
        }
        out
    }

    /// `Σ unit[d] · h[d]` for lengths `h`.
    fn unit_cost(&self, lengths: &[u64]) -> BigRational {
        dot(&self.unit, &self.fold(lengths))
    }

    /// The probability of winning of a tree with these lengths.
    fn value(&self, lengths: &[u64]) -> BigRational {
        let two_n = BigRational::from_integer(BigInt::from(2 * self.n));
        let scored: BigRational = self
            .fold(lengths)
            .iter()
            .zip(&self.raw)
            .map(|(&h, c)| (&two_n - c) * BigRational::from_integer(h.into()))
            .sum();
        scored / BigRational::from_integer(BigInt::from(2 * self.n * self.n))
    }

    /// The exact costs as integers the search carries, if they fit.
    fn exact(&self) -> Option<Vec<u64>> {
        let scale = self
            .unit
            .iter()
            .fold(BigInt::one(), |l, c| l.lcm(c.denom()));
        let ints: Vec<BigInt> = self
            .unit
            .iter()
            .map(|c| (c * BigRational::from_integer(scale.clone())).to_integer())
            .collect();
        fit(&ints, self.n)
    }

    /// The costs rounded down to integers the search carries: a cost
    /// vector close to the exact one (for finding trees, not for proofs).
    fn rounded(&self) -> Vec<u64> {
        let s = BigRational::from_integer(BigInt::from(
            (search::MAX_PER_GUESS_TOTAL - 1) / self.n.max(1),
        ));
        self.unit
            .iter()
            .map(|c| (c * &s).floor().to_integer().to_u64().unwrap_or(0))
            .collect()
    }
}

/// `Σ a[i] · h[i]`.
fn dot(a: &[BigRational], h: &[u64]) -> BigRational {
    a.iter()
        .zip(h)
        .map(|(x, &y)| x * BigRational::from_integer(y.into()))
        .sum()
}

/// Integer costs reduced by their common divisor, if nonnegative and small
/// enough for the search.
fn fit(ints: &[BigInt], n: u64) -> Option<Vec<u64>> {
    let g = ints.iter().fold(BigInt::zero(), |g, c| g.gcd(c));
    let reduced: Vec<BigInt> = if g.is_zero() {
        ints.to_vec()
    } else {
        ints.iter().map(|c| c / &g).collect()
    };
    let out: Option<Vec<u64>> = reduced.iter().map(|c| c.to_u64()).collect();
    let out = out?;
    search::check_costs(&out, n as usize).ok()?;
    Some(out)
}

/// The least-cost tree for integer per-guess `costs` (its cap their
/// length).
fn search_costs(
    game: &Game,
    costs: Vec<u64>,
    base: &Config,
    driver: Driver<'_>,
) -> Result<Played, DuelError> {
    let solution = search::optimize(game, &Goal::Costs(costs), &base.tuning, driver)?.solution;
    let (Some(tree), Some(stats)) = (solution.tree, solution.stats) else {
        unreachable!("the lossless cap is met by the opponents' own trees")
    };
    Ok(Played {
        tree,
        lengths: stats.histogram,
    })
}

/// What every best response of one duel shares.
#[derive(Clone, Copy)]
struct Oracle<'a> {
    game: &'a Game,
    rule: Rule,
    base: &'a Config,
    driver: Driver<'a>,
}

/// How a best response is proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prove {
    /// By one exact search when the exact costs fit the search, else by
    /// the certificate.
    Exact,
    /// By the certificate always (to test it against the exact search).
    #[cfg_attr(not(test), allow(dead_code))]
    Certificate,
}

/// What a best response showed.
enum Response {
    /// No tree earns more than the target against the mixture: proven.
    Proven {
        /// Searches run.
        searches: usize,
        /// The best response's value, when its search was exact.
        best: Option<BigRational>,
    },
    /// A tree that earns more than the target.
    Better {
        /// It.
        tree: Played,
        /// Its value, and whether it is the best response's (an exact
        /// search).
        value: BigRational,
        /// Whether `value` is the best any tree earns.
        best: bool,
        /// Searches run.
        searches: usize,
    },
}

/// The best response in `seat` to the opponents' mixture, against
/// `target` (what the mixture is claimed to concede): either a tree that
/// earns more, or a proof that none does. `known`: trees that earn
/// exactly `target` (the candidates of the proof, see the module doc).
fn respond(
    oracle: &Oracle<'_>,
    seat: Seat,
    opponents: &[(&[u64], &BigRational)],
    target: &BigRational,
    known: &[&Played],
    prove: Prove,
) -> Result<Response, DuelError> {
    let Oracle {
        game,
        rule,
        base,
        driver,
    } = *oracle;
    let costs = Costs::new(rule, seat, opponents);
    let uncertified = |why: String| DuelError::Uncertified { seat, why };
    let exact = match prove {
        Prove::Exact => costs.exact(),
        Prove::Certificate => None,
    };
    if let Some(exact) = exact {
        let best = search_costs(game, exact, base, driver)?;
        let value = costs.value(&best.lengths);
        return Ok(if &value > target {
            Response::Better {
                tree: best,
                value,
                best: true,
                searches: 1,
            }
        } else {
            Response::Proven {
                searches: 1,
                best: Some(value),
            }
        });
    }
    let found = search_costs(game, costs.rounded(), base, driver)?;
    let mut searches = 1;
    let value = costs.value(&found.lengths);
    if &value > target {
        return Ok(Response::Better {
            tree: found,
            value,
            best: false,
            searches,
        });
    }
    // The candidate: a known tree at the target (or the one just found).
    let mut ties: Vec<Vec<u64>> = known
        .iter()
        .map(|p| costs.fold(&p.lengths))
        .chain(std::iter::once(costs.fold(&found.lengths)))
        .filter(|h| &costs.value(h) == target)
        .collect();
    let Some(candidate) = ties.first().cloned() else {
        return Err(uncertified(format!(
            "no known tree earns the target {}",
            matrix::show(target)
        )));
    };
    let candidate_cost = costs.unit_cost(&candidate);
    // Each pass either proves the candidate optimal, finds a better tree,
    // or adds one more tie (at most `cap` of them are independent).
    for _ in 0..=costs.cap() + 1 {
        let corners = corners(&costs, &candidate, &ties).map_err(uncertified)?;
        let mut tied = false;
        for corner in corners {
            let own: u64 = corner.iter().zip(&candidate).map(|(c, h)| c * h).sum();
            let best = search_costs(game, corner.clone(), base, driver)?;
            searches += 1;
            let folded = costs.fold(&best.lengths);
            let theirs: u64 = corner.iter().zip(&folded).map(|(c, h)| c * h).sum();
            if theirs >= own {
                continue;
            }
            let exact = costs.unit_cost(&folded);
            if exact < candidate_cost {
                return Ok(Response::Better {
                    value: costs.value(&best.lengths),
                    tree: best,
                    best: false,
                    searches,
                });
            }
            if exact > candidate_cost {
                return Err(uncertified(
                    "a corner of the certificate's simplex leaves the candidate's cone (costs too fine for 2^48)"
                        .into(),
                ));
            }
            ties.push(folded);
            tied = true;
            break;
        }
        if !tied {
            return Ok(Response::Proven {
                searches,
                best: None,
            });
        }
    }
    Err(uncertified("too many ties".into()))
}

/// The integer corners of a simplex around the exact unit costs, inside
/// the space where `candidate` and every tie keep equal costs and the
/// exact costs' flat steps stay flat, each small enough for the search;
/// the unit costs are a positive combination of the corners' (see the
/// module doc). Corners of weight 0 are left out.
fn corners(costs: &Costs, candidate: &[u64], ties: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, String> {
    let cap = costs.cap();
    let c = &costs.unit;
    let mut rows: Vec<Vec<BigRational>> = Vec::new();
    let unit_row = |d: usize, sign: i64| {
        let mut r = vec![BigRational::zero(); cap];
        r[d] = BigRational::from_integer(sign.into());
        r
    };
    rows.push(unit_row(0, 1));
    for d in 0..cap - 1 {
        if c[d] == c[d + 1] {
            let mut r = unit_row(d, 1);
            r[d + 1] = -BigRational::one();
            rows.push(r);
        }
    }
    for h in ties {
        rows.push(
            h.iter()
                .zip(candidate)
                .map(|(&a, &b)| BigRational::from_integer(BigInt::from(a) - BigInt::from(b)))
                .collect(),
        );
    }
    let basis = nullspace(rows, cap);
    if basis.is_empty() {
        // Every cost is pinned to 0: every tree ties.
        return Ok(Vec::new());
    }
    // Primitive integer generators and the coordinates of c.
    let mut gens: Vec<Vec<BigInt>> = Vec::new();
    let mut coords: Vec<BigRational> = Vec::new();
    for (free, raw) in &basis {
        let scale = raw.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
        let ints: Vec<BigInt> = raw
            .iter()
            .map(|x| (x * BigRational::from_integer(scale.clone())).to_integer())
            .collect();
        let g = ints.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
        let ints: Vec<BigInt> = ints.into_iter().map(|x| x / &g).collect();
        coords.push(&c[*free] / BigRational::from_integer(ints[*free].clone()));
        gens.push(ints);
    }
    // The scale: corners' entries stay below 2^48 / N.
    let spread: BigInt = (0..cap)
        .map(|d| gens.iter().map(|g| g[d].abs()).sum::<BigInt>())
        .max()
        .unwrap_or_default();
    let room = BigInt::from((search::MAX_PER_GUESS_TOTAL - 1) / costs.n.max(1)) - &spread - 1;
    if room < BigInt::from(1_000) {
        return Err("the space of tied costs has no small integer points".into());
    }
    let s = BigRational::from_integer(room);
    let scaled: Vec<BigRational> = coords.iter().map(|y| y * &s).collect();
    let floors: Vec<BigInt> = scaled.iter().map(|y| y.floor().to_integer()).collect();
    let fracs: Vec<BigRational> = scaled.iter().map(|y| y - y.floor()).collect();
    let mut order: Vec<usize> = (0..gens.len()).collect();
    order.sort_by(|&a, &b| fracs[b].cmp(&fracs[a]));
    let mut corner: Vec<BigInt> = (0..cap)
        .map(|d| gens.iter().zip(&floors).map(|(g, f)| &g[d] * f).sum())
        .collect();
    // Freudenthal's simplex: corner k adds the generators of the k largest
    // fractional parts; its weight is the drop between them.
    let mut out = Vec::new();
    let mut previous = BigRational::one();
    for step in 0..=order.len() {
        let next = order
            .get(step)
            .map_or_else(BigRational::zero, |&k| fracs[k].clone());
        if previous > next {
            out.push(to_costs(&corner, costs.n)?);
        }
        if let Some(&k) = order.get(step) {
            for (x, g) in corner.iter_mut().zip(&gens[k]) {
                *x += g;
            }
        }
        previous = next;
    }
    Ok(out)
}

/// A corner as a cost vector the search accepts.
fn to_costs(corner: &[BigInt], n: u64) -> Result<Vec<u64>, String> {
    let out: Option<Vec<u64>> = corner.iter().map(|x| x.to_u64()).collect();
    let out = out.ok_or("a corner of the certificate's simplex has a negative cost")?;
    search::check_costs(&out, n as usize)
        .map_err(|e| format!("a corner of the certificate's simplex: {e}"))?;
    Ok(out)
}

/// A basis of the rational null space of `rows` (each of `unknowns`
/// entries): for each free unknown, the vector with 1 there, 0 at the other
/// free unknowns.
fn nullspace(a: Vec<Vec<BigRational>>, unknowns: usize) -> Vec<(usize, Vec<BigRational>)> {
    let (a, pivots) = matrix::reduce(a, unknowns);
    (0..unknowns)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut v = vec![BigRational::zero(); unknowns];
            v[free] = BigRational::one();
            for (row, &p) in pivots.iter().enumerate() {
                v[p] = -a[row][free].clone();
            }
            (free, v)
        })
        .collect()
}

/// Most trees found before giving up.
const MAX_TREES: usize = 100;

/// The first seat's probability of winning with lengths `mine` against
/// `theirs`, exact.
pub fn payoff(rule: Rule, mine: &[u64], theirs: &[u64]) -> BigRational {
    let r = rules::value(rule, Seat::First, mine, theirs);
    BigRational::new(BigInt::from(r.num), BigInt::from(r.den))
}

/// The equilibrium of the duel on `game` under `rule` (see the module
/// doc), its searches run by `driver` with `base`'s tuning; `start`: the
/// first tree (the average-optimal one, say); `said` hears a line after
/// each round.
pub fn duel(
    game: &Game,
    rule: Rule,
    start: Played,
    base: &Config,
    driver: Driver<'_>,
    said: &mut dyn FnMut(&str),
) -> Result<Duel, DuelError> {
    if game.secret_set().is_some() {
        return Err(DuelError::List);
    }
    let oracle = Oracle {
        game,
        rule,
        base,
        driver,
    };
    let mut pool = vec![start];
    let mut searches = 0;
    let mut start_worst = [BigRational::zero(), BigRational::zero()];
    while pool.len() <= MAX_TREES {
        let table: Vec<Vec<BigRational>> = pool
            .iter()
            .map(|a| {
                pool.iter()
                    .map(|b| payoff(rule, &a.lengths, &b.lengths))
                    .collect()
            })
            .collect();
        let eq = matrix::solve(&table)?;
        let mut found = Vec::new();
        for seat in [Seat::First, Seat::Second] {
            let (mine, theirs, target) = match seat {
                Seat::First => (&eq.rows, &eq.cols, eq.value.clone()),
                Seat::Second => (&eq.cols, &eq.rows, BigRational::one() - &eq.value),
            };
            let opponents: Vec<(&[u64], &BigRational)> = pool
                .iter()
                .zip(theirs)
                .filter(|(_, w)| w.is_positive())
                .map(|(p, w)| (p.lengths.as_slice(), w))
                .collect();
            let known: Vec<&Played> = pool
                .iter()
                .zip(mine)
                .filter(|(_, w)| w.is_positive())
                .map(|(p, _)| p)
                .collect();
            let (best, s) = match respond(&oracle, seat, &opponents, &target, &known, Prove::Exact)?
            {
                Response::Proven { searches, best } => (best, searches),
                Response::Better {
                    tree,
                    value,
                    best,
                    searches,
                } => {
                    found.push(tree);
                    (best.then_some(value), searches)
                }
            };
            searches += s;
            if pool.len() == 1 {
                // Against the first tree alone: the other seat's worst case.
                let best = best.ok_or_else(|| DuelError::Uncertified {
                    seat,
                    why: "the best response to one tree must be exact".into(),
                })?;
                start_worst[seat.other() as usize] = BigRational::one() - best;
            }
        }
        said(&format!(
            "{} trees, value {} = {:.6}, {} searches, {} new",
            pool.len(),
            matrix::show(&eq.value),
            eq.value.to_f64().unwrap_or(f64::NAN),
            searches,
            found.len()
        ));
        if found.is_empty() {
            let pick = |mix: &[BigRational]| -> Vec<(Played, BigRational)> {
                pool.iter()
                    .zip(mix)
                    .filter(|(_, w)| w.is_positive())
                    .map(|(p, w)| (p.clone(), w.clone()))
                    .collect()
            };
            return Ok(Duel {
                rule,
                first: pick(&eq.rows),
                second: pick(&eq.cols),
                value: eq.value,
                searches,
                trees: pool.len(),
                start: pool[0].clone(),
                start_worst,
            });
        }
        for tree in found {
            if pool.iter().all(|p| p.lengths != tree.lengths) {
                pool.push(tree);
            }
        }
    }
    Err(DuelError::Rounds(searches))
}

/// Proves a written equilibrium from its mixtures alone: each mixture is
/// a distribution, the first seat's mixture against the second's is worth
/// `value`, and neither seat's exact best response to the other's mixture
/// earns more than its share (`value`, `1 − value`). Returns the searches
/// run.
pub fn check(
    game: &Game,
    rule: Rule,
    first: &[(Played, BigRational)],
    second: &[(Played, BigRational)],
    value: &BigRational,
    base: &Config,
    driver: Driver<'_>,
) -> Result<usize, String> {
    let one = BigRational::one();
    for (name, mix) in [("first", first), ("second", second)] {
        if mix.is_empty() || mix.iter().any(|(_, w)| w.is_negative()) {
            return Err(format!("the {name} seat's weights are not a distribution"));
        }
        if mix.iter().map(|(_, w)| w).sum::<BigRational>() != one {
            return Err(format!("the {name} seat's weights do not add up to 1"));
        }
    }
    let mixed: BigRational = first
        .iter()
        .flat_map(|(a, x)| {
            second
                .iter()
                .map(move |(b, y)| x * y * payoff(rule, &a.lengths, &b.lengths))
        })
        .sum();
    if &mixed != value {
        return Err(format!(
            "the mixtures give the first seat {}, not the value {}",
            matrix::show(&mixed),
            matrix::show(value)
        ));
    }
    let oracle = Oracle {
        game,
        rule,
        base,
        driver,
    };
    let mut searches = 0;
    for seat in [Seat::First, Seat::Second] {
        let (mine, theirs, target) = match seat {
            Seat::First => (first, second, value.clone()),
            Seat::Second => (second, first, &one - value),
        };
        let opponents: Vec<(&[u64], &BigRational)> = theirs
            .iter()
            .map(|(p, w)| (p.lengths.as_slice(), w))
            .collect();
        let known: Vec<&Played> = mine.iter().map(|(p, _)| p).collect();
        match respond(&oracle, seat, &opponents, &target, &known, Prove::Exact)
            .map_err(|e| e.to_string())?
        {
            Response::Proven { searches: s, .. } => searches += s,
            Response::Better { tree, .. } => {
                return Err(format!(
                    "in the {seat} seat a tree of {} guesses in all earns more than {}",
                    tree.total(),
                    matrix::show(&target)
                ))
            }
        }
    }
    Ok(searches)
}

#[cfg(test)]
mod tests;
