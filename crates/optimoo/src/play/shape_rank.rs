//! Ranking the guesses of a position of a game of any size (`moo --game
//! moo:10x10 rank`): the best guesses of the phased strategy's pool, each
//! with its answer classes and two bounds on its value, never an exact
//! value from a search (the exact search needs a game of the model).
//!
//! Definitions and invariants:
//! - A position is the candidate set `S` after a history (`n` codes,
//!   sorted; every code of the game before the first move). The **total**
//!   of a guess `g` is the number of guesses still needed, summed over the
//!   `n` secrets, when `g` is played now: `n` (this guess, the win
//!   included) plus, for each non-winning class `C` of `g`, the guesses
//!   that solve `C`. Its **value** is total ÷ `n`.
//! - The rows are guesses of the phased strategy's pool
//!   ([`crate::heuristic::phased`]): the strategy's own guess (always a row),
//!   the candidates (every one up to `heuristic_below`, else `big_pool`
//!   spread evenly), `extra` codes drawn from a seed that depends only on
//!   `S`, and the neighbours of the strategy's guess (two positions
//!   swapped, one symbol changed: where its hill climbing looks). They are
//!   scored as the strategy scores them (entropy, the winning class
//!   counted, on `big_sample` candidates spread evenly above
//!   `heuristic_below`), and the `top` best are the rows. Before the first
//!   move the rows are the first-guess patterns `0..0 1..1 …` instead, each
//!   standing for its orbit (`count`): every first guess is one of them up
//!   to symbol and position permutations, and the counts add up to the
//!   game's codes. Elsewhere a row is one code (`count` 1).
//! - `lower` is a proven lower bound on the total ([`lower_total`]: the
//!   level filling of each class); `upper` is the total of the phased
//!   strategy played after `g` ([`play_out`], the figure of
//!   [`crate::heuristic::phased::walk::walk_from`] over every class), so `lower ≤ best
//!   play after g ≤ upper`. Play-outs run in the order of the rows' scores
//!   on `S` (the strategy's guess first) until the deadline; a play-out
//!   cut by the deadline leaves nothing behind (`upper` stays `None`).
//! - Order: rows with an upper bound by it, then the others by their lower
//!   bound, then code order.
//! - Results depend on the budget only in which rows have an upper bound.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::exec::{self, Parallel};
use crate::heuristic::phased::Chooser;
use crate::model::feedback::Feedback;
use crate::model::shape::{Packed, Shape};
use crate::rng::{splitmix64, SplitMix64};

/// The most memory the play-outs of a position may take beyond its
/// candidates, in bytes: the copy and the answers the first partition
/// makes ([`PLAY_OUT_BYTES_PER_CODE`] a candidate; the set itself is
/// partitioned in place). moo:10x10 before the first move takes 91 MB;
/// mm:8x8 would take 420 MB and gets lower bounds only.
pub const PLAY_OUT_MAX_BYTES: u64 = 200_000_000;

/// Bytes per candidate a play-out holds beyond the set, at its largest.
pub const PLAY_OUT_BYTES_PER_CODE: u64 = std::mem::size_of::<Packed>() as u64 + 1;

/// Nodes of at least this many codes play their classes out in parallel.
const PARALLEL_MIN: usize = 4096;
/// Deeper than this a play-out gives up (it never happens: every guess of
/// the strategy splits its set).
const MAX_DEPTH: usize = 64;

/// One guess of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The guess (before the first move: the smallest code of its orbit).
    pub guess: Packed,
    /// How many guesses it stands for (its orbit before the first move,
    /// else 1).
    pub count: u64,
    /// Whether the guess can still be the secret.
    pub candidate: bool,
    /// Answer classes (the winning one included).
    pub classes: usize,
    /// Secrets in the largest class.
    pub largest: u64,
    /// A proven lower bound on the total ([`lower_total`]).
    pub lower: u64,
    /// The total when the phased strategy plays after this guess (`None`:
    /// not played out within the budget, or the set too large).
    pub upper: Option<u64>,
    /// Heuristic: the expected size of the class of the secret, Σ|C|²/n.
    pub expected_size: f64,
    /// Heuristic: the entropy of the answer, in bits.
    pub entropy: f64,
}

impl Row {
    /// Whether the bounds meet: the total is then known exactly.
    pub fn exact(&self) -> bool {
        self.upper == Some(self.lower)
    }
}

/// The ranked guesses of a position.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// The rows, in order.
    pub rows: Vec<Row>,
    /// Secrets left.
    pub left: u64,
    /// Guesses of the pool scored.
    pub pool: usize,
    /// The phased strategy's own guess here (what `moo next` answers).
    pub strategy: Packed,
    /// `Some(bytes)` when the play-outs were not run because they would
    /// take `bytes` beyond the set (more than [`PLAY_OUT_MAX_BYTES`]).
    pub too_large: Option<u64>,
}

impl Ranking {
    /// Whether every row has its upper bound.
    pub fn complete(&self) -> bool {
        self.rows.iter().all(|r| r.upper.is_some())
    }
}

/// What [`rank`] is asked.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// Rows wanted (0: every guess of the pool).
    pub top: usize,
    /// When to stop playing out (`None`: never).
    pub deadline: Option<Instant>,
}

/// At most how many answers other than the win a guess of `shape` can
/// have: the pairs `(a, b)` with `a + b` between the fewest common symbols
/// two codes can have (`2k − n` without repeats, else 0) and `k`, less the
/// win `kA0B` and the impossible `(k−1)A1B`. At least the true number (so
/// the bounds built on it hold); equal to it on the games of the model
/// tested but mm:2x2 (where 0A1B cannot happen either).
pub fn branching(shape: &Shape) -> u64 {
    let k = shape.positions() as u64;
    let low = if shape.repeats() {
        0
    } else {
        (2 * k).saturating_sub(shape.symbols() as u64)
    };
    let pairs: u64 = (low..=k).map(|c| c + 1).sum();
    pairs.saturating_sub(2).max(1)
}

/// The least total number of guesses that can solve `m` secrets when
/// every guess has at most `b` answers other than the win: the levels of
/// capacity 1, b, b², … filled greedily. Proof: a strategy's tree has at
/// most b^(d−1) guesses at depth d and each guess wins for at most one
/// secret, so the secrets' depths sum to at least that filling, which is
/// at least 2m − 1 (one secret at depth 1, the others deeper), or m for
/// m ≤ 1.
pub fn level_fill(m: u64, b: u64) -> u64 {
    let b = b.max(1);
    let (mut total, mut left, mut level, mut depth) = (0u64, m, 1u64, 1u64);
    while left > 0 {
        let take = left.min(level);
        total = total.saturating_add(take.saturating_mul(depth));
        left -= take;
        level = level.saturating_mul(b);
        depth += 1;
    }
    total
}

/// A proven lower bound on the total of a guess whose classes over the
/// `n` secrets of a position are `counts` (by `Feedback::index`): `n`
/// (this guess) plus the [`level_fill`] of every non-winning class.
pub fn lower_total(shape: &Shape, counts: &[u64]) -> u64 {
    let b = branching(shape);
    let win = Feedback::win(shape.positions()).index();
    let n: u64 = counts.iter().sum();
    counts
        .iter()
        .enumerate()
        .filter(|&(f, &c)| f != win && c > 0)
        .fold(n, |t, (_, &c)| t.saturating_add(level_fill(c, b)))
}

/// The first-guess patterns of `shape` (runs of the symbols 0, 1, 2, …
/// whose lengths are a partition of the positions into at most `symbols`
/// parts, non-increasing), each with the number of codes of its orbit
/// under the permutations of symbols and positions, in code order.
pub fn patterns(shape: &Shape) -> Vec<(Packed, u64)> {
    let k = shape.positions();
    let n = shape.symbols();
    let factorial = |x: usize| (1..=x as u128).product::<u128>();
    shape
        .patterns()
        .into_iter()
        .map(|(code, parts)| {
            // Symbols for the parts, parts of equal length interchangeable;
            // then the positions, a part's own order irrelevant.
            let r = parts.len();
            let mut choose: u128 = (0..r).map(|i| (n - i) as u128).product();
            let mut i = 0;
            while i < r {
                let same = parts[i..].iter().take_while(|&&p| p == parts[i]).count();
                choose /= factorial(same);
                i += same;
            }
            let arrange = parts.iter().fold(factorial(k), |a, &p| a / factorial(p));
            (code, (choose * arrange) as u64)
        })
        .collect()
}

/// `want` codes drawn from a seed that depends only on `set` (every code
/// when the game has at most `want`).
fn draw(shape: &Shape, set: &[Packed], want: usize) -> Vec<Packed> {
    let count = shape.code_count() as u64;
    if count <= want as u64 {
        return (0..count).map(|i| shape.unrank(i)).collect();
    }
    let seed = [set.len() as u64, set[0].pos, set[set.len() - 1].pos]
        .iter()
        .fold(0x7261_6e6b_2068_7567, |h, &x| splitmix64(h ^ x));
    let mut rng = SplitMix64::new(seed);
    (0..want)
        .map(|_| shape.unrank(rng.next_u64() % count))
        .collect()
}

/// The class sizes of `guess` over `set`, by `Feedback::index`.
pub(crate) fn tally(shape: &Shape, guess: Packed, set: &[Packed]) -> Vec<u64> {
    let mut counts = vec![0u64; shape.feedback_slots()];
    for &s in set {
        counts[shape.feedback(s, guess).index()] += 1;
    }
    counts
}

/// A score as a key that sorts as it does (scores are never negative).
fn key(score: f64) -> u64 {
    score.max(0.0).to_bits()
}

/// The indices of `keys` in the order of the keys (one sort for every
/// order here: the binary's size).
fn ordered(keys: Vec<(u64, u64, u64)>) -> Vec<usize> {
    let mut keyed: Vec<(u64, u64, u64, usize)> = keys
        .into_iter()
        .enumerate()
        .map(|(i, (a, b, c))| (a, b, c, i))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|k| k.3).collect()
}

/// The entropy score of classes (Σ c ln c: lower is better).
fn score(counts: &[u64]) -> f64 {
    counts
        .iter()
        .filter(|&&c| c > 1)
        .map(|&c| c as f64 * (c as f64).ln())
        .sum()
}

/// Ranks the guesses of the position whose candidates are `set` (sorted,
/// not empty; every code of the game before the first move) for the
/// phased strategy `chooser` (see the module doc), the work run by `par`.
/// The play-outs partition `set` in place: it is sorted again after each
/// one that finishes, and left in any order by one the deadline cuts.
pub fn rank(
    chooser: &Chooser,
    set: &mut [Packed],
    request: Request,
    par: &dyn Parallel,
) -> Ranking {
    let shape = chooser.shape();
    let n = set.len();
    let strategy = chooser.choose(set, par);
    let opening = n as u128 == shape.code_count();
    // The rows' guesses and counts.
    let (pool, chosen): (usize, Vec<(Packed, u64)>) = if opening {
        let p = patterns(&shape);
        (p.len(), p)
    } else {
        let opts = chooser.options();
        let (mut guesses, sample): (Vec<Packed>, Vec<Packed>) = if n <= opts.heuristic_below {
            (set.to_vec(), set.to_vec())
        } else {
            let spread = |want: usize| -> Vec<Packed> {
                set.iter()
                    .step_by(n.div_ceil(want.max(1)))
                    .copied()
                    .collect()
            };
            (spread(opts.big_pool), spread(opts.big_sample))
        };
        guesses.extend(draw(&shape, set, opts.extra));
        guesses.extend(shape.neighbours(strategy));
        guesses.push(strategy);
        guesses.sort_unstable();
        guesses.dedup();
        // One thread: a few tens of milliseconds (the binary's size).
        let scores: Vec<f64> = guesses
            .iter()
            .map(|&g| score(&tally(&shape, g, &sample)))
            .collect();
        let order = ordered(
            guesses
                .iter()
                .zip(&scores)
                .map(|(g, &k)| (key(k), u64::from(set.binary_search(g).is_err()), g.pos))
                .collect(),
        );
        let want = if request.top == 0 {
            order.len()
        } else {
            request.top.min(order.len())
        };
        let mut rows: Vec<(Packed, u64)> = order[..want].iter().map(|&i| (guesses[i], 1)).collect();
        if !rows.iter().any(|&(g, _)| g == strategy) {
            rows.pop();
            rows.push((strategy, 1));
        }
        (guesses.len(), rows)
    };
    // Each row's classes over the whole set.
    let counts: Vec<Vec<u64>> = chosen.iter().map(|&(g, _)| tally(&shape, g, set)).collect();
    let mut rows: Vec<Row> = chosen
        .iter()
        .zip(&counts)
        .map(|(&(guess, count), counts)| {
            let nf = n as f64;
            let (mut expected, mut entropy) = (0.0, 0.0);
            for &c in counts.iter().filter(|&&c| c > 0) {
                let p = c as f64 / nf;
                expected += c as f64 * p;
                entropy -= p * p.log2();
            }
            Row {
                guess,
                count,
                candidate: set.binary_search(&guess).is_ok(),
                classes: counts.iter().filter(|&&c| c > 0).count(),
                largest: counts.iter().copied().max().unwrap_or(0),
                lower: lower_total(&shape, counts),
                upper: None,
                expected_size: expected,
                entropy,
            }
        })
        .collect();
    // Play-outs, the strategy's guess first, then by score on the set.
    let need = n as u64 * PLAY_OUT_BYTES_PER_CODE;
    let too_large = (need > PLAY_OUT_MAX_BYTES).then_some(need);
    if too_large.is_none() {
        let order = ordered(
            rows.iter()
                .zip(&counts)
                .map(|(r, c)| (u64::from(r.guess != strategy), key(score(c)), r.guess.pos))
                .collect(),
        );
        let stop = Stop::new(request.deadline);
        for i in order {
            if stop.now() {
                break;
            }
            rows[i].upper = split(chooser, set, rows[i].guess, par, &stop, 0);
            if rows[i].upper.is_none() {
                break;
            }
            set.sort_unstable();
        }
    }
    let order = ordered(
        rows.iter()
            .map(|r| {
                (
                    u64::from(r.upper.is_none()),
                    r.upper.unwrap_or(r.lower),
                    r.guess.pos,
                )
            })
            .collect(),
    );
    let rows = order.into_iter().map(|i| rows[i].clone()).collect();
    Ranking {
        rows,
        left: n as u64,
        pool,
        strategy,
        too_large,
    }
}

/// Tells every thread of a play-out when the deadline has passed.
struct Stop {
    deadline: Option<Instant>,
    hit: AtomicBool,
}

impl Stop {
    fn new(deadline: Option<Instant>) -> Stop {
        Stop {
            deadline,
            hit: AtomicBool::new(false),
        }
    }

    /// Whether to stop (once true, always true).
    fn now(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.hit.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// The total number of guesses over the codes of `set` (sorted; permuted
/// in place) when `guess` is played first and the phased strategy after
/// it, counted from this guess; `None` when `deadline` came first. Equal
/// to `set.len()` plus [`crate::heuristic::phased::walk::walk_from`]'s total over each
/// non-winning class, every mark set (tested).
pub fn play_out(
    chooser: &Chooser,
    set: &mut [Packed],
    guess: Packed,
    par: &dyn Parallel,
    deadline: Option<Instant>,
) -> Option<u64> {
    split(chooser, set, guess, par, &Stop::new(deadline), 0)
}

/// `guess` played on `set` at `depth`, the strategy on its classes.
fn split(
    chooser: &Chooser,
    set: &mut [Packed],
    guess: Packed,
    par: &dyn Parallel,
    stop: &Stop,
    depth: usize,
) -> Option<u64> {
    let shape = chooser.shape();
    let n = set.len() as u64;
    let bounds = shape.partition(guess, set, None);
    let win = chooser.win();
    if depth > 0 && bounds.len() == 1 && bounds[0].0 != win {
        return None; // the strategy repeats itself: never happens
    }
    let mut children: Vec<&mut [Packed]> = Vec::new();
    let mut rest = set;
    for (f, len) in bounds {
        let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        if f != win {
            children.push(class);
        }
    }
    let mut total = n;
    let size: usize = children.iter().map(|c| c.len()).sum();
    if size >= PARALLEL_MIN && children.len() > 1 {
        let slots: Vec<Mutex<Option<&mut [Packed]>>> =
            children.into_iter().map(|c| Mutex::new(Some(c))).collect();
        let costs = exec::map(par, slots.len(), |i| {
            let class = slots[i].lock().unwrap_or_else(|e| e.into_inner()).take()?;
            cost(chooser, class, par, stop, depth + 1)
        });
        for c in costs {
            total += c?;
        }
    } else {
        for class in children {
            total += cost(chooser, class, par, stop, depth + 1)?;
        }
    }
    Some(total)
}

/// The strategy's total over `set` (not empty), counted from its guess.
fn cost(
    chooser: &Chooser,
    set: &mut [Packed],
    par: &dyn Parallel,
    stop: &Stop,
    depth: usize,
) -> Option<u64> {
    if depth > MAX_DEPTH || stop.now() {
        return None;
    }
    let guess = chooser.choose(set, par);
    split(chooser, set, guess, par, stop, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Scoped, Sequential};
    use crate::heuristic::phased::walk::walk_from;
    use crate::heuristic::phased::Phased;
    use crate::model::{Code, Game, Rules};
    use crate::observe::Silent;
    use crate::play::rank::{Advisor, Position, Request as SmallRequest};

    #[test]
    fn branching_is_the_number_of_answers_less_the_win() {
        for name in [
            "moo:1x1", "moo:1x5", "moo:2x3", "moo:3x4", "moo:3x6", "moo:4x4", "moo:4x10",
            "moo:5x6", "moo:6x7", "mm:1x3", "mm:2x2", "mm:3x4", "mm:4x6", "mm:5x3", "mm:2x16",
        ] {
            let rules: Rules = name.parse().unwrap();
            let game = Game::new(rules);
            let shape = Shape::from_rules(rules).unwrap();
            let answers = game.possible_feedbacks().count() as u64;
            // Never fewer (the bounds hold); on mm:2x2 one more: 0A1B
            // needs a third symbol.
            let extra = u64::from(name == "mm:2x2");
            assert_eq!(branching(&shape), (answers - 1).max(1) + extra, "{name}");
        }
        assert_eq!(branching(&"moo:10x10".parse().unwrap()), 9);
    }

    #[test]
    fn level_filling_is_the_searchs_bound() {
        use crate::search::bound::{Bounds, Cost};
        for b in [1u64, 2, 3, 9, 13] {
            let bounds = Bounds::new(Cost::Total, b as usize, 300);
            for m in 1..=300u64 {
                assert_eq!(
                    level_fill(m, b),
                    bounds.lower(m as usize, usize::MAX),
                    "m {m} b {b}"
                );
                assert!(level_fill(m, b) >= 2 * m - 1);
            }
        }
        assert_eq!(level_fill(0, 5), 0);
        assert_eq!(level_fill(1, 5), 1);
        // 1 + 2·9 + 3·81 + 4·9 = 298 for 100 secrets and 9 answers.
        assert_eq!(level_fill(100, 9), 1 + 18 + 243 + 36);
    }

    #[test]
    fn patterns_cover_every_code() {
        for name in [
            "mm:4x6", "mm:3x2", "mm:5x3", "moo:4x10", "mm:8x8", "mm:2x16",
        ] {
            let shape: Shape = name.parse().unwrap();
            let p = patterns(&shape);
            let total: u64 = p.iter().map(|x| x.1).sum();
            assert_eq!(total as u128, shape.code_count(), "{name}");
        }
        let shape: Shape = "mm:4x6".parse().unwrap();
        let p: Vec<(String, u64)> = patterns(&shape)
            .iter()
            .map(|&(c, n)| (shape.format(c), n))
            .collect();
        assert_eq!(
            p,
            [
                ("0000".to_string(), 6),
                ("0001".to_string(), 120),
                ("0011".to_string(), 90),
                ("0012".to_string(), 720),
                ("0123".to_string(), 360)
            ]
        );
    }

    /// A play-out is the walk's figure over every class.
    #[test]
    fn play_outs_are_the_walks() {
        let mut rng = SplitMix64::new(3);
        for name in ["moo:4x6", "mm:3x5", "moo:5x7"] {
            let shape: Shape = name.parse().unwrap();
            let chooser = Chooser::new(shape, Phased::default()).unwrap();
            let all = shape.all_codes();
            for _ in 0..4 {
                let secret = all[rng.below(all.len())];
                let g0 = all[rng.below(all.len())];
                let set = shape.candidates(&[(g0, shape.feedback(secret, g0))]);
                let g = all[rng.below(all.len())];
                let mut copy = set.clone();
                let got = play_out(&chooser, &mut copy, g, &Scoped(2), None).unwrap();
                let mut want = set.len() as u64;
                let mut copy = set.clone();
                let win = chooser.win();
                let bounds = shape.partition(g, &mut copy, None);
                let mut rest = &mut copy[..];
                for (f, len) in bounds {
                    let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
                    rest = tail;
                    if f != win {
                        let mut marks = vec![true; class.len()];
                        let stats = walk_from(&chooser, class, &mut marks, 0, &Sequential, &Silent)
                            .unwrap();
                        want += stats.total;
                    }
                }
                assert_eq!(got, want, "{name}");
            }
        }
    }

    /// On small games, every row's lower bound is at most the exact total
    /// of its guess (the model's rank, every orbit searched), and its upper
    /// bound at least that.
    #[test]
    fn bounds_hold_against_the_exact_values() {
        for (name, history) in [
            ("moo:3x6", vec![("012", "1A0B")]),
            ("mm:3x4", vec![("012", "1A0B")]),
            ("moo:3x5", vec![("012", "0A2B"), ("134", "1A0B")]),
            ("mm:3x3", vec![]),
        ] {
            let rules: Rules = name.parse().unwrap();
            let game = Game::new(rules);
            let shape = Shape::from_rules(rules).unwrap();
            let moves: Vec<(Code, Feedback)> = history
                .iter()
                .map(|&(g, f)| {
                    let (a, b) = crate::model::feedback::parse_pair(f).unwrap();
                    (game.parse_code(g).unwrap(), Feedback::new(a, b, 3))
                })
                .collect();
            let advisor = Advisor {
                game: &game,
                optimal_tree: None,
                exact_paths: None,
                root_lower: None,
                cap: None,
                use_table: false,
            };
            let exact = advisor
                .rank(
                    &moves,
                    SmallRequest {
                        top: 0,
                        deadline: None,
                    },
                )
                .unwrap();
            let position = Position::new(&game, &moves, None).unwrap();
            let chooser = Chooser::new(shape, Phased::default()).unwrap();
            let packed: Vec<(Packed, Feedback)> = moves
                .iter()
                .map(|&(g, f)| (shape.unrank(g.index() as u64), f))
                .collect();
            let mut set = shape.candidates(&packed);
            let sorted = set.clone();
            let ranking = rank(
                &chooser,
                &mut set,
                Request {
                    top: 0,
                    deadline: None,
                },
                &Scoped(2),
            );
            assert!(ranking.complete());
            assert_eq!(set, sorted, "sorted again");
            let best = exact.rows.iter().filter_map(|r| r.total).min().unwrap();
            for row in &ranking.rows {
                let code = Code(shape.rank(row.guess) as u16);
                let orbit = position.orbit_of(code);
                let want = exact
                    .rows
                    .iter()
                    .find(|r| r.guess == orbit)
                    .and_then(|r| r.total)
                    .unwrap();
                assert!(row.lower <= want, "{name}: {}", shape.format(row.guess));
                let upper = row.upper.unwrap();
                assert!(upper >= want, "{name}: {}", shape.format(row.guess));
                assert!(upper >= best);
                if row.exact() {
                    assert_eq!(row.lower, want);
                }
            }
            assert!(ranking.rows.windows(2).all(|w| w[0].upper <= w[1].upper));
            assert!(ranking.rows.iter().any(|r| r.guess == ranking.strategy));
        }
    }

    /// A spent budget leaves lower bounds only, in order; the top rows are
    /// asked for.
    #[test]
    fn without_budget_lower_bounds_only() {
        let shape: Shape = "moo:5x8".parse().unwrap();
        let chooser = Chooser::new(shape, Phased::default()).unwrap();
        let g = shape.parse("01234").unwrap();
        let mut set = shape.candidates(&[(g, Feedback::new(1, 2, 5))]);
        let ranking = rank(
            &chooser,
            &mut set,
            Request {
                top: 5,
                deadline: Some(Instant::now()),
            },
            &Scoped(2),
        );
        assert_eq!(ranking.rows.len(), 5);
        assert!(ranking.rows.iter().all(|r| r.upper.is_none()));
        assert!(ranking.rows.windows(2).all(|w| w[0].lower <= w[1].lower));
        assert!(ranking.rows.iter().any(|r| r.guess == ranking.strategy));
        assert_eq!(ranking.left, set.len() as u64);
    }
}
