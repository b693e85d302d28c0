//! `optimoo improve` (settings [`Improve`]): upper bounds for games the
//! exact search cannot finish: a strategy that
//! is exact on every set of at most `exact_below` secrets and, on larger
//! sets, tries only the `width` most promising guesses (one per orbit under
//! the position's symmetry, ranked by the partition they make), each
//! followed by the same strategy on every class.
//!
//! Invariants (tested against the exact search and against itself):
//! - the cost returned is the total of the tree returned, which plays every
//!   secret (no cap: the total objective);
//! - with every guess tried (`width = usize::MAX`) it is the exact optimum
//!   whatever `exact_below` (each level is then a full minimum over exact
//!   children);
//! - a wider search is never worse: the guesses tried at a node are a
//!   prefix of one fixed order, so more of them can only lower the minimum,
//!   and by induction every child too;
//! - deterministic: the order breaks ties by code, and the exact parts are
//!   the search's (the same tree whatever the threads: large sets solve
//!   their classes in parallel and take the results in order);
//! - under a cut-off (branch and bound: a guess dropped once its solved
//!   classes and its others' lower bounds reach the best total) the same
//!   tree when its total is below the cut-off, and nothing otherwise;
//! - improving an incumbent class by class keeps its first guess and gives,
//!   on each class, the better of its subtree and the restricted one.
//!
//! The ranking: the sum of `s · log₂ s` over the class sizes `s` (the
//! entropy heuristic's, Neuwirth 1982: lower spreads the secrets more),
//! then a guess that may win, then the smaller code.

use crate::exec;
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::partition;
use crate::model::symmetry::Stabilizer;
use crate::search::searcher::Searcher;
use crate::search::value::Outcome;
use crate::search::INF;
use crate::tree::Node;

/// Sets larger than this many times the exact threshold spread their
/// classes over the threads.
const PARALLEL_FACTOR: usize = 4;

/// How far the improve strategy looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Improve {
    /// Sets of at most this many secrets are solved exactly.
    pub exact_below: usize,
    /// Guesses tried on a larger set (at least 1).
    pub width: usize,
}

/// What the improve strategy found on a set under a cut-off.
enum Step {
    /// Its total (below the cut-off) and tree.
    Found(u64, Node),
    /// Its total is at least the cut-off.
    NotBelow,
    /// The deadline passed first.
    Aborted,
}

impl Searcher<'_> {
    /// The improve strategy's tree for `game`'s secrets and its total,
    /// or `None` when the searcher's deadline passed first.
    #[cfg(test)]
    pub fn improve_tree(&self, r: Improve) -> Option<(u64, Node)> {
        self.improve_below(r, INF).flatten()
    }

    /// The improve strategy's total and tree if its total is below
    /// `cutoff` (`Some(None)`: it is not), or `None` when the searcher's
    /// deadline passed first. The tree is the one [`Searcher::improve_tree`]
    /// gives: a cut-off only skips work whose result would be discarded.
    pub fn improve_below(&self, r: Improve, cutoff: u64) -> Option<Option<(u64, Node)>> {
        let set = self.cx().game.secrets();
        let out = self.improve_set(&set, &self.cx().root.clone(), r, cutoff);
        if self.aborted() {
            return None;
        }
        match out {
            Step::Found(c, node) => Some(Some((c, node))),
            Step::NotBelow => Some(None),
            Step::Aborted => None,
        }
    }

    /// The improve strategy's total on `set` (sorted, not empty) under the
    /// symmetry `stab` of the position: the total of a tree that plays
    /// every secret of `set`, so at least its optimum (no cap). `None`
    /// when the deadline passed first.
    pub(super) fn improve_total(&self, set: &[Code], stab: &Stabilizer, r: Improve) -> Option<u64> {
        match self.improve_set(set, stab, r, INF) {
            Step::Found(c, _) if !self.aborted() => Some(c),
            _ => None,
        }
    }

    /// Improves the classes of `root`'s guess (a tree of the whole game
    /// whose total is `total`) one by one, smallest first: the restricted
    /// strategy on each under the cut-off of `root`'s subtree there,
    /// spliced in when below it, `total` lowered and `better` told at once.
    /// Returns false when the deadline passed first (the tree and total
    /// then hold the classes improved so far).
    pub(super) fn improve_classes(
        &self,
        r: Improve,
        root: &mut Node,
        total: &mut u64,
        better: &mut dyn FnMut(u64, &Node),
    ) -> bool {
        let game = self.cx().game;
        let stab = self.cx().root.fix(game.codes().symbols(root.guess));
        let mut classes: Vec<(Feedback, Vec<Code>)> =
            partition::split(game, root.guess, &game.secrets())
                .into_iter()
                .filter(|(f, _)| *f != self.cx().win)
                .collect();
        classes.sort_by_key(|(f, c)| (c.len(), *f));
        for (f, class) in classes {
            let Some(i) = root.children.iter().position(|(g, _)| *g == f) else {
                continue; // Not a tree of this game: its replay failed first.
            };
            let now = subtree_total(game, &root.children[i].1, &class);
            if now >= INF {
                continue; // Likewise.
            }
            match self.improve_set(&class, &stab, r, now) {
                Step::Aborted => return false,
                Step::NotBelow => {}
                Step::Found(c, node) => {
                    root.children[i].1 = node;
                    *total -= now - c;
                    better(*total, root);
                }
            }
        }
        !self.aborted()
    }

    /// The improve strategy on `set` (sorted, not empty) under the
    /// symmetry `stab` of the position, if its total is below `cutoff`.
    ///
    /// Branch and bound: a guess is dropped as soon as its classes' known
    /// totals plus lower bounds on the others reach the best total so far
    /// (or `cutoff`), each class solved under the slack its siblings leave.
    /// The restricted total of a set is at least its optimum, so any lower
    /// bound of the exact search bounds it too; a guess is kept exactly
    /// when its total is below every earlier one's, as without cut-offs,
    /// so the tree is the same.
    fn improve_set(&self, set: &[Code], stab: &Stabilizer, r: Improve, cutoff: u64) -> Step {
        if self.deadline_passed() {
            return Step::Aborted;
        }
        let n = set.len();
        if n <= r.exact_below.max(1) {
            return match self.solve(set, usize::MAX, stab, cutoff, usize::MAX) {
                _ if self.aborted() => Step::Aborted,
                Outcome::Exact(c) => Step::Found(c, self.build(set, usize::MAX, stab, c)),
                Outcome::AtLeast(_) => Step::NotBelow,
            };
        }
        let mut best: Option<(u64, Node)> = None;
        for guess in self.ranked(set, stab).into_iter().take(r.width.max(1)) {
            // The total to beat: the best so far, or the cut-off.
            let bound = best.as_ref().map_or(cutoff, |b| b.0);
            let symbols = self.cx().game.codes().symbols(guess);
            let child_stab = stab.fix(symbols);
            let mut classes: Vec<(Feedback, Vec<Code>)> =
                partition::split(self.cx().game, guess, set)
                    .into_iter()
                    .filter(|(f, _)| *f != self.cx().win)
                    .collect();
            // Smallest first (ties by answer), as the exact search: the
            // cheap classes tighten the slack of the large ones.
            classes.sort_by_key(|(f, c)| (c.len(), *f));
            // Lower bounds: the level bound on the exact classes (solved
            // under their slack anyway), the lookahead over every guess on
            // the restricted ones (one pass, small beside their search) when
            // there is a total to beat: with none, nothing can be cut.
            let lbs: Vec<u64> = classes
                .iter()
                .map(|(_, c)| {
                    let floor = self.cx().lower_of(c, usize::MAX);
                    if bound < INF && c.len() > r.exact_below.max(1) && floor < bound {
                        self.cx()
                            .class_bound(self.memo(), c, usize::MAX, &child_stab, INF)
                            .max(floor)
                    } else {
                        floor
                    }
                })
                .collect();
            let mut total = lbs.iter().fold(n as u64, |t, &lb| t.saturating_add(lb));
            if total >= bound {
                continue;
            }
            let mut children: Vec<(Feedback, Node)> = Vec::with_capacity(classes.len());
            if self.par().width() > 1 && n > PARALLEL_FACTOR * r.exact_below.max(1) {
                // Large sets: the classes on every thread, each under the
                // slack left if the others meet their bounds (whether a
                // class is below its slack does not depend on timing).
                let slack = bound - total;
                let solved = exec::map(self.par(), classes.len(), |i| {
                    self.improve_set(&classes[i].1, &child_stab, r, lbs[i] + slack)
                });
                let mut refuted = false;
                for (((f, _), &lb), child) in classes.iter().zip(&lbs).zip(solved) {
                    match child {
                        Step::Aborted => return Step::Aborted,
                        Step::NotBelow => refuted = true,
                        Step::Found(c, node) => {
                            total = total - lb + c;
                            children.push((*f, node));
                        }
                    }
                }
                if refuted || total >= bound {
                    continue;
                }
            } else {
                let mut refuted = false;
                for ((f, class), &lb) in classes.iter().zip(&lbs) {
                    match self.improve_set(class, &child_stab, r, bound - (total - lb)) {
                        Step::Aborted => return Step::Aborted,
                        Step::NotBelow => {
                            refuted = true;
                            break;
                        }
                        Step::Found(c, node) => {
                            total = total - lb + c;
                            children.push((*f, node));
                        }
                    }
                    if total >= bound {
                        refuted = true;
                        break;
                    }
                }
                if refuted {
                    continue;
                }
            }
            children.sort_by_key(|(f, _)| *f);
            best = Some((total, Node { guess, children }));
        }
        match best {
            Some((c, node)) => Step::Found(c, node),
            None => Step::NotBelow,
        }
    }

    /// The guesses worth trying on `set`, best first: one per orbit under
    /// `stab` and the permutations of the symbols no secret of `set` holds,
    /// each splitting the set, by the ranking of the module doc.
    fn ranked(&self, set: &[Code], stab: &Stabilizer) -> Vec<Code> {
        let game = self.cx().game;
        let book = game.codes();
        let absent = self.cx().all_symbols & !book.symbols_of(set);
        let roots = stab.orbits(book, absent);
        let mut counts = vec![0u32; self.cx().slots.max(game.win().index() + 1)];
        let mut scored: Vec<(f64, bool, Code)> = Vec::new();
        for guess in book.all() {
            if roots[guess.index()] != guess || !game.is_guess(guess) {
                continue;
            }
            counts.iter_mut().for_each(|c| *c = 0);
            // The table is by secret (the guess's row under a symmetric
            // rule, read in order).
            if game.rules().answer().is_symmetric() {
                let row = self.cx().table.row(guess);
                for s in set {
                    counts[row[s.index()].index()] += 1;
                }
            } else {
                for &s in set {
                    counts[self.cx().table.row(s)[guess.index()].index()] += 1;
                }
            }
            let useless = counts.iter().any(|&c| c as usize == set.len())
                && counts[self.cx().win.index()] == 0;
            if useless {
                continue;
            }
            let spread: f64 = counts
                .iter()
                .filter(|&&c| c > 1)
                .map(|&c| f64::from(c) * f64::from(c).log2())
                .sum();
            let may_win = set.binary_search(&guess).is_ok();
            scored.push((spread, !may_win, guess));
        }
        scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        scored.into_iter().map(|s| s.2).collect()
    }
}

/// The guesses `node` takes in all to find each secret of `set` (the
/// secrets its subtree is reached by, each found below it; the win counts).
fn subtree_total(game: &crate::model::game::Game, node: &Node, set: &[Code]) -> u64 {
    let mut total = 0;
    for &s in set {
        let mut at = node;
        let mut d = 1;
        while at.guess != s {
            match at.child(game.feedback(s, at.guess)) {
                Some(next) => at = next,
                None => return INF,
            }
            d += 1;
        }
        total += d;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::search::{self, Config, Driver, Improve};

    fn run(game: &Game, exact_below: usize, width: usize) -> u64 {
        let r = Improve { exact_below, width };
        let (cost, tree) =
            search::improve_width(game, Config::default(), r, None, Driver::sequential())
                .unwrap()
                .unwrap();
        let stats = crate::tree::check::check(game, &tree, None).unwrap();
        assert_eq!(stats.total, cost, "{} {r:?}", game.name());
        cost
    }

    /// Every guess tried: the exact optimum (no cap), whatever the exact
    /// threshold; fewer guesses: never better than the optimum, never worse
    /// with more of them.
    #[test]
    fn full_width_is_exact_and_wider_is_never_worse() {
        for name in [
            "mm:2x4", "moo:3x4", "mm:3x3", "moo:3x5", "mm:2x6", "moo:2x8",
        ] {
            let game = Game::new(name.parse().unwrap());
            let optimum = search::solve(
                &game,
                Config {
                    cap: None,
                    ..Config::default()
                },
            )
            .unwrap()
            .cost;
            for exact_below in [1, 3, 8] {
                assert_eq!(run(&game, exact_below, usize::MAX), optimum, "{name}");
                let mut last = u64::MAX;
                for width in 1..=4 {
                    let c = run(&game, exact_below, width);
                    assert!(c >= optimum && c <= last, "{name} {exact_below} {width}");
                    last = c;
                }
            }
        }
    }

    /// The improve strategy as first written, with no cut-off: every
    /// guess tried in full, the first strictly better kept.
    fn plain(s: &Searcher<'_>, set: &[Code], stab: &Stabilizer, r: Improve) -> (u64, Node) {
        if set.len() <= r.exact_below.max(1) {
            let Outcome::Exact(c) = s.solve(set, usize::MAX, stab, INF, usize::MAX) else {
                unreachable!("no cap: every set is solvable");
            };
            return (c, s.build(set, usize::MAX, stab, c));
        }
        let mut best: Option<(u64, Node)> = None;
        for guess in s.ranked(set, stab).into_iter().take(r.width.max(1)) {
            let child = stab.fix(s.cx().game.codes().symbols(guess));
            let mut total = set.len() as u64;
            let mut children = Vec::new();
            for (f, class) in partition::split(s.cx().game, guess, set) {
                if f != s.cx().win {
                    let (c, node) = plain(s, &class, &child, r);
                    total += c;
                    children.push((f, node));
                }
            }
            if best.as_ref().is_none_or(|b| total < b.0) {
                best = Some((total, Node { guess, children }));
            }
        }
        best.expect("at least one guess splits a set of two or more")
    }

    /// The cut-offs are a fast path: on a sweep of games (few and many
    /// symbols, one to four positions), thresholds and widths, on one and
    /// several threads, the same total and tree as the plain strategy;
    /// under a cut-off at the total nothing is found, one above it the
    /// same tree.
    #[test]
    fn cut_offs_give_the_plain_tree() {
        let par = crate::exec::Scoped(3);
        // (game, exact thresholds, widths): the plain strategy has no memo
        // above the threshold, so the widest passes only on small games.
        let sweep: [(&str, &[usize], &[usize]); 8] = [
            ("mm:2x4", &[1, 3], &[1, 2, usize::MAX]),
            ("moo:3x4", &[1, 3], &[1, 2, usize::MAX]),
            ("mm:3x3", &[1, 3, 8], &[1, 2, 3]),
            ("moo:3x5", &[3, 8], &[1, 2, 3]),
            ("mm:1x36", &[1, 4], &[1, 2, 3]),
            ("moo:2x16", &[8, 40], &[1, 2]),
            ("mm:2x16", &[8, 40], &[1, 2]),
            ("moo:4x6", &[20], &[1, 2]),
        ];
        for (name, thresholds, widths) in sweep {
            let game = Game::new(name.parse().unwrap());
            for &exact_below in thresholds {
                for &width in widths {
                    let r = Improve { exact_below, width };
                    let config = Config {
                        cap: None,
                        ..Config::default()
                    };
                    let fresh = || Searcher::new(&game, config.clone()).unwrap();
                    let s = fresh();
                    let want = plain(&s, &game.secrets(), &s.cx().root.clone(), r);
                    let got = fresh().improve_tree(r).unwrap();
                    assert_eq!(got, want, "{name} {r:?}");
                    let driver = Driver {
                        par: &par,
                        ..Driver::sequential()
                    };
                    let many = Searcher::with_driver(&game, config.clone(), driver)
                        .unwrap()
                        .improve_tree(r)
                        .unwrap();
                    assert_eq!(many, want, "{name} {r:?} threads");
                    let at = fresh().improve_below(r, want.0).unwrap();
                    assert!(at.is_none(), "{name} {r:?}: found at its own total");
                    let above = fresh().improve_below(r, want.0 + 1).unwrap();
                    assert_eq!(above, Some(want), "{name} {r:?} above");
                }
            }
        }
    }

    /// Improving an incumbent class by class: every tree heard replays to
    /// the total heard, the totals fall, and the last is the incumbent's
    /// first guess with, on each class, the better of the incumbent's
    /// subtree and the plain improve strategy's.
    #[test]
    fn classes_improve_on_their_own() {
        let mut improved = 0;
        for name in [
            "moo:4x6", "mm:3x5", "moo:2x16", "mm:1x36", "moo:4x7", "mm:3x6",
        ] {
            let game = Game::new(name.parse().unwrap());
            let config = Config {
                cap: None,
                ..Config::default()
            };
            let poor = Improve {
                exact_below: 1,
                width: 1,
            };
            let (_, root) = Searcher::new(&game, config.clone())
                .unwrap()
                .improve_tree(poor)
                .unwrap();
            let incumbent = crate::tree::Tree {
                rules: game.rules(),
                root,
            };
            let r = Improve {
                exact_below: 12,
                width: 2,
            };
            let s = Searcher::new(&game, config.clone()).unwrap();
            let stab = s.cx().root.fix(game.codes().symbols(incumbent.root.guess));
            let mut want = game.len() as u64;
            for (f, class) in partition::split(&game, incumbent.root.guess, &game.secrets()) {
                if f != s.cx().win {
                    let old = subtree_total(&game, incumbent.root.child(f).unwrap(), &class);
                    want += old.min(plain(&s, &class, &stab, r).0);
                }
            }
            let mut heard: Vec<u64> = Vec::new();
            let passes = search::improve(
                &game,
                config,
                r.exact_below,
                &[r.width],
                Some(&incumbent),
                None,
                Driver::sequential(),
                &mut |c, t, _| {
                    let stats = crate::tree::check::check(&game, t, None).unwrap();
                    assert_eq!(stats.total, c, "{name}");
                    assert_eq!(t.root.guess, incumbent.root.guess, "{name}");
                    heard.push(c);
                },
            )
            .unwrap();
            assert_eq!(passes, 1);
            improved += usize::from(!heard.is_empty());
            let first = incumbent.replay(&game, None).unwrap().total;
            assert!(heard.windows(2).all(|w| w[1] < w[0]), "{name} {heard:?}");
            assert!(heard.first().is_none_or(|&c| c < first), "{name}");
            assert_eq!(*heard.last().unwrap_or(&first), want, "{name}");
        }
        assert!(improved >= 3, "only {improved} poor trees improved");
    }

    /// Large sets solve their classes on several threads: the same tree.
    #[test]
    fn threads_give_the_same_tree() {
        let par = crate::exec::Scoped(3);
        for name in ["moo:4x7", "mm:3x5"] {
            let game = Game::new(name.parse().unwrap());
            for width in [1, 2] {
                let r = Improve {
                    exact_below: 4,
                    width,
                };
                let one =
                    search::improve_width(&game, Config::default(), r, None, Driver::sequential())
                        .unwrap()
                        .unwrap();
                let driver = Driver {
                    par: &par,
                    ..Driver::sequential()
                };
                let many = search::improve_width(&game, Config::default(), r, None, driver)
                    .unwrap()
                    .unwrap();
                assert_eq!(one.0, many.0, "{name} {width}");
                assert_eq!(one.1, many.1, "{name} {width}");
            }
        }
    }
}
