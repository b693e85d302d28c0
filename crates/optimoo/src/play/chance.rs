//! The chance to win of a race in progress (the page's duel, `/api/duel`):
//! after complete rounds, with the computer playing a known tree.
//!
//! The model, in the words the page shows:
//! - the computer goes on with its tree: from the node its guesses reached,
//!   it needs, for each secret of the person's still consistent with the
//!   person's answers (each equally likely, or the one secret the person
//!   gave), the guesses [`tree_lengths`] counts;
//! - the computer's secret is equally likely to be any code the
//!   computer's answers leave (it was drawn uniformly); the person's
//!   further guesses are not known, so the chance is given as two bounds:
//!   **at least** what the person wins by always guessing, among the
//!   secrets left, the one that splits them into the most answers
//!   ([`splitting_lengths`], a strategy the person can follow), and **at
//!   most** what a player wins who needs the fewest guesses any strategy
//!   could ([`fastest_lengths`]: one secret found per guess at the first,
//!   then at most as many as the answers can tell apart). When both bounds
//!   are equal the chance is exact.
//!
//! Invariants: the lengths are histograms (`h[i]` secrets found with
//! `i + 1` more guesses, the next one included) summing to the size of
//! the set; `splitting_lengths` is a real strategy's, so its histogram is
//! dominated by `fastest_lengths` (at every depth, no more secrets found
//! within it), and any strategy's probability of winning lies between
//! the two bounds' ([`crate::play::best_response::value`]: the score never
//! grows with the number of guesses). The page computes the same numbers
//! in JavaScript (same tie-breaks), and the browser test compares them.
//! Work: `O(m²)` feedbacks per level for `m` secrets left (splitting) and
//! `O(codes · m)` (fastest).

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::play::best_response::{value, Ratio, Rule, Seat};
use crate::tree::Node;

/// Adds `lengths` shifted by `by` guesses into `into`.
fn add(into: &mut Vec<u64>, lengths: &[u64], by: usize) {
    if into.len() < lengths.len() + by {
        into.resize(lengths.len() + by, 0);
    }
    for (i, &h) in lengths.iter().enumerate() {
        into[i + by] += h;
    }
}

/// The classes of `set` under `guess`, by answer (in answer order).
fn classes(game: &Game, guess: Code, set: &[Code]) -> Vec<(Feedback, Vec<Code>)> {
    let mut by: std::collections::BTreeMap<Feedback, Vec<Code>> = Default::default();
    for &s in set {
        by.entry(game.feedback(s, guess)).or_default().push(s);
    }
    by.into_iter().collect()
}

/// The guesses `node`'s subtree needs for each secret of `set` (the node's
/// own guess included), as a histogram; `None` if a secret leaves the tree
/// (an answer with no child) before it is found.
pub fn tree_lengths(game: &Game, node: &Node, set: &[Code]) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    for (f, class) in classes(game, node.guess, set) {
        if f == game.win() {
            add(&mut out, &[class.len() as u64], 0);
            continue;
        }
        let child = node.children.iter().find(|(g, _)| *g == f)?;
        add(&mut out, &tree_lengths(game, &child.1, &class)?, 1);
    }
    Some(out)
}

/// The lengths of the splitting strategy over `set` (sorted, not empty):
/// guess the secret left that gives the most distinct answers, ties to
/// the smallest largest class, then to the smallest code; recurse.
pub fn splitting_lengths(game: &Game, set: &[Code]) -> Vec<u64> {
    if set.len() <= 1 {
        return vec![set.len() as u64];
    }
    let mut best: Option<(usize, usize, Code)> = None;
    let mut seen = vec![0usize; usize::from(game.win().0) + 1];
    for &g in set {
        seen.iter_mut().for_each(|x| *x = 0);
        for &s in set {
            seen[usize::from(game.feedback(s, g).0)] += 1;
        }
        let parts = seen.iter().filter(|&&x| x > 0).count();
        let largest = seen.iter().copied().max().unwrap_or(0);
        let better = match best {
            None => true,
            Some((p, l, _)) => parts > p || (parts == p && largest < l),
        };
        if better {
            best = Some((parts, largest, g));
        }
    }
    let guess = best.expect("the set is not empty").2;
    let mut out = vec![1];
    for (f, class) in classes(game, guess, set) {
        if f != game.win() {
            add(&mut out, &splitting_lengths(game, &class), 1);
        }
    }
    out
}

/// The answers other than the win that a guess can get: every `xAyB` with
/// `x + y ≤ k`, but `kA0B` and `(k−1)A1B`.
pub fn answers_but_the_win(game: &Game) -> u64 {
    let k = game.positions() as u64;
    (k + 1) * (k + 2) / 2 - 2
}

/// A histogram no strategy over `set` beats: within `j` guesses at most
/// `N_j` secrets are found, `N_1 = 1`, `N_2` the most that one guess (any
/// the game allows) finds or tells apart (`[g ∈ set]` + its classes that
/// are not the win), and beyond `N_j ≤ 1 + R · G_{j−1}` (`R` the answers
/// but the win, `G_1 = 1`, `G_j = 1 + R · G_{j−1}`), each at most `m`.
pub fn fastest_lengths(game: &Game, set: &[Code]) -> Vec<u64> {
    let m = set.len() as u64;
    if m <= 1 {
        return vec![m];
    }
    let mut seen = vec![false; usize::from(game.win().0) + 1];
    let mut two = 0u64;
    for g in game.all_codes() {
        if !game.is_guess(g) {
            continue;
        }
        seen.iter_mut().for_each(|x| *x = false);
        let mut told = 0u64;
        for &s in set {
            let f = game.feedback(s, g);
            let i = usize::from(f.0);
            if !seen[i] {
                seen[i] = true;
                told += 1;
            }
        }
        two = two.max(told);
    }
    let r = answers_but_the_win(game);
    let mut found = vec![1u64, two.min(m)];
    let mut generic = 1 + r;
    while *found.last().expect("two entries") < m {
        generic = 1 + r.saturating_mul(generic);
        let last = *found.last().expect("two entries");
        found.push(generic.min(m).max(last));
    }
    let mut out = Vec::with_capacity(found.len());
    let mut before = 0;
    for n in found {
        out.push(n - before);
        before = n;
    }
    out
}

/// The person's chance to win after complete rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chance {
    /// What the splitting strategy wins from here (draws 1/2).
    pub low: Ratio,
    /// What no strategy beats.
    pub high: Ratio,
}

impl Chance {
    /// Whether the bounds meet.
    pub fn exact(&self) -> bool {
        self.low == self.high
    }
}

/// The person's chance in `seat` under `rule` (see the module doc): the
/// computer needs `engine` more guesses (a histogram over the secrets the
/// person may hold), the person's secrets left are `mine` (the codes the
/// computer's answers leave, not empty).
pub fn chance(game: &Game, rule: Rule, seat: Seat, engine: &[u64], mine: &[Code]) -> Chance {
    Chance {
        low: value(rule, seat, &splitting_lengths(game, mine), engine),
        high: value(rule, seat, &fastest_lengths(game, mine), engine),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{build_tree, Heuristic, StrategyConfig};
    use std::collections::HashMap;

    /// The best probability of winning, in units of `1/(2·n_engine)` per
    /// secret of `set`, over every strategy (any guess at every node), by
    /// the definition: `made` guesses so far.
    fn brute(
        game: &Game,
        set: &[Code],
        made: usize,
        score: &dyn Fn(usize) -> u64,
        memo: &mut HashMap<(Vec<Code>, usize), u64>,
    ) -> u64 {
        if set.is_empty() || score(made + 1) == 0 {
            return 0;
        }
        if let Some(&v) = memo.get(&(set.to_vec(), made)) {
            return v;
        }
        let mut best = 0;
        for g in game.all_codes() {
            let mut total = 0;
            let mut progress = false;
            for (f, class) in classes(game, g, set) {
                if f == game.win() {
                    total += score(made + 1);
                    progress = true;
                } else if class.len() < set.len() {
                    total += brute(game, &class, made + 1, score, memo);
                    progress = true;
                }
            }
            if progress {
                best = best.max(total);
            }
        }
        memo.insert((set.to_vec(), made), best);
        best
    }

    fn histogram_of(per: &[usize]) -> Vec<u64> {
        let mut h = vec![0; per.iter().copied().max().unwrap_or(0)];
        per.iter().for_each(|&d| h[d - 1] += 1);
        h
    }

    /// The bounds bracket the exact optimum, found by brute force over
    /// every strategy, on every set left after a first guess and answer,
    /// against a tree's lengths, for each rule and seat; and the engine's
    /// lengths are its tree's, secret by secret.
    #[test]
    fn the_bounds_bracket_the_brute_force_optimum() {
        for name in ["mm:2x3", "moo:3x4", "mm:3x3"] {
            let game = Game::new(name.parse().unwrap());
            let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Minimax)).unwrap();
            let secrets = game.secrets();
            // The engine's lengths at its root, and after its first answer.
            let per: Vec<usize> = secrets
                .iter()
                .map(|&s| {
                    let mut n = &tree.root;
                    let mut d = 1;
                    while game.feedback(s, n.guess) != game.win() {
                        let f = game.feedback(s, n.guess);
                        n = &n.children.iter().find(|(g, _)| *g == f).unwrap().1;
                        d += 1;
                    }
                    d
                })
                .collect();
            assert_eq!(
                tree_lengths(&game, &tree.root, &secrets),
                Some(histogram_of(&per))
            );
            let mut exact_seen = 0;
            for first in game.all_codes() {
                for (_, set) in classes(&game, first, &secrets) {
                    if set.contains(&first) && set.len() == 1 {
                        continue;
                    }
                    let low = splitting_lengths(&game, &set);
                    let high = fastest_lengths(&game, &set);
                    assert_eq!(low.iter().sum::<u64>(), set.len() as u64);
                    assert_eq!(high.iter().sum::<u64>(), set.len() as u64);
                    for (_, (f, child)) in tree.root.children.iter().enumerate().take(2) {
                        let theirs: Vec<Code> = secrets
                            .iter()
                            .copied()
                            .filter(|&s| game.feedback(s, tree.root.guess) == *f)
                            .collect();
                        let engine = tree_lengths(&game, child, &theirs).unwrap();
                        for rule in [Rule::FirstWins, Rule::EqualTurns] {
                            for seat in [Seat::First, Seat::Second] {
                                let c = chance(&game, rule, seat, &engine, &set);
                                let score = |d: usize| {
                                    crate::play::best_response::score(rule, seat, &engine, d)
                                };
                                let mut memo = HashMap::new();
                                let best = brute(&game, &set, 0, &score, &mut memo);
                                let n_engine: u64 = engine.iter().sum();
                                let opt = Ratio::new(
                                    u128::from(best),
                                    2 * set.len() as u128 * u128::from(n_engine),
                                );
                                assert!(
                                    c.low.to_f64() <= opt.to_f64() + 1e-12
                                        && opt.to_f64() <= c.high.to_f64() + 1e-12,
                                    "{name} {rule} {seat}: {:?} {opt:?} {:?}",
                                    c.low,
                                    c.high
                                );
                                if c.exact() {
                                    assert_eq!(c.low, opt);
                                    exact_seen += 1;
                                }
                            }
                        }
                    }
                }
            }
            assert!(exact_seen > 0, "{name}: some position is exact");
        }
    }
}
