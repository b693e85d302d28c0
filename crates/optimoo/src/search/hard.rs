//! Wordle's hard mode searched exactly ([`crate::model::GuessRule::Hard`]).
//!
//! The guesses a position allows depend on its history, not only on its
//! candidates ([`Hard`], the model's one definition), so a node's state is
//! (candidates, constraint, guesses left) and the memo's key is that whole
//! state: two positions with equal states have equal costs and equal
//! subtrees, whatever their histories. A plain branch and bound over that
//! state: every allowed guess (the candidates are always allowed, so the
//! search always finishes), in the order (lookahead bound, non-candidate,
//! code), the lookahead bound being `own + Σ lower(|C|, d − 1)` over the
//! non-winning classes (the level-filling bound of [`crate::search::bound`],
//! which holds for any set of guesses); classes smallest first, each under
//! the slack its siblings leave. No symmetry (Wordle's rule has none here).
//! Total objective, with an optional cap.
//!
//! Invariant: [`HardSearch::solve`] returns `Exact(cost)` when the cost is
//! below the cut-off, else `AtLeast(b)` with `cost >= b >= cutoff`; every
//! exact entry of the memo holds its optimal guess, the first in order
//! reaching the cost, from which [`HardSearch::build`] rebuilds the tree.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::hard::Hard;
use crate::model::partition;
use crate::search::bound::{Bounds, Cost, INF};
use crate::search::value::Outcome;
use crate::tree::Node;

/// A memo entry: the exact cost and its guess, or a lower bound.
#[derive(Debug, Clone, Copy)]
enum Known {
    Exact(u64, Code),
    AtLeast(u64),
}

/// A node's state: its candidates, its history's constraint, the guesses
/// left.
type State = (Vec<Code>, Hard, usize);

/// The hard-mode search of one game (single-threaded).
pub(crate) struct HardSearch<'a> {
    game: &'a Game,
    bounds: Bounds,
    memo: RefCell<HashMap<State, Known>>,
    nodes: Cell<u64>,
    lookups: Cell<u64>,
    hits: Cell<u64>,
}

impl<'a> HardSearch<'a> {
    /// A search of `game` (Wordle's rule, hard mode).
    pub(crate) fn new(game: &'a Game) -> HardSearch<'a> {
        let branching = game.possible_feedbacks().count() - 1;
        HardSearch {
            game,
            bounds: Bounds::new(Cost::Total, branching, game.secret_count()),
            memo: RefCell::new(HashMap::new()),
            nodes: Cell::new(0),
            lookups: Cell::new(0),
            hits: Cell::new(0),
        }
    }

    /// Nodes searched, memo entries, hits and lookups.
    pub(crate) fn counters(&self) -> (u64, usize, u64, u64) {
        (
            self.nodes.get(),
            self.memo.borrow().len(),
            self.hits.get(),
            self.lookups.get(),
        )
    }

    /// The exact cost of `set` under `hard` within `d` guesses if below
    /// `cutoff` (see the module doc).
    pub(crate) fn solve(&self, set: &[Code], hard: Hard, d: usize, cutoff: u64) -> Outcome {
        let n = set.len();
        let d = d.min(n + 1);
        let mut lower = self.bounds.lower(n, d);
        if lower >= INF {
            return Outcome::AtLeast(INF);
        }
        if n <= 1 {
            return Outcome::below(n as u64, cutoff);
        }
        if lower >= cutoff {
            return Outcome::AtLeast(lower);
        }
        let key = (set.to_vec(), hard, d);
        self.lookups.set(self.lookups.get() + 1);
        match self.memo.borrow().get(&key) {
            Some(&Known::Exact(c, _)) => {
                self.hits.set(self.hits.get() + 1);
                return Outcome::below(c, cutoff);
            }
            Some(&Known::AtLeast(b)) if b >= cutoff => {
                self.hits.set(self.hits.get() + 1);
                return Outcome::AtLeast(b);
            }
            Some(&Known::AtLeast(b)) => lower = lower.max(b),
            None => {}
        }
        self.nodes.set(self.nodes.get() + 1);
        let book = self.game.codes();
        let win = self.game.win();
        // Every allowed guess with its classes and lookahead bound.
        let mut guesses = Vec::new();
        for g in book.all() {
            if !self.game.is_guess(g) || !hard.allows(book.symbols(g)) {
                continue;
            }
            let mut classes = partition::split(self.game, g, set);
            let candidate = classes.iter().any(|(f, _)| *f == win);
            classes.retain(|(f, _)| *f != win);
            if !candidate && classes.len() == 1 {
                continue; // Learns nothing.
            }
            classes.sort_by_key(|(f, c)| (c.len(), *f));
            let bound = classes.iter().fold(n as u64, |t, (_, c)| {
                t.saturating_add(self.bounds.lower(c.len(), d - 1))
            });
            guesses.push((bound, !candidate, g, classes));
        }
        guesses.sort_by_key(|e| (e.0, e.1, e.2));
        let mut limit = cutoff;
        let mut best: Option<(u64, Code)> = None;
        let mut proven = INF;
        for (bound, _, g, classes) in &guesses {
            if *bound >= limit {
                proven = proven.min(*bound);
                break;
            }
            let symbols = book.symbols(*g);
            let mut total = *bound;
            let mut failed = false;
            for (f, c) in classes {
                let lb = self.bounds.lower(c.len(), d - 1);
                let slack = limit - (total - lb);
                let next = hard.after(symbols, *f);
                match self.solve(c, next, d - 1, slack) {
                    Outcome::Exact(cost) => total = total - lb + cost,
                    Outcome::AtLeast(b) => {
                        total = (total - lb).saturating_add(b.max(lb));
                        failed = true;
                    }
                }
                if failed || total >= limit {
                    failed = true;
                    break;
                }
            }
            if failed {
                proven = proven.min(total.max(limit));
            } else {
                best = Some((total, *g));
                limit = total;
            }
        }
        let known = match best {
            Some((cost, g)) => Known::Exact(cost, g),
            None => Known::AtLeast(proven.max(lower).max(cutoff)),
        };
        self.memo.borrow_mut().insert(key, known);
        match known {
            Known::Exact(c, _) => Outcome::below(c, cutoff),
            Known::AtLeast(b) => Outcome::AtLeast(b),
        }
    }

    /// The optimal subtree of `set` under `hard` within `d` guesses, once
    /// [`HardSearch::solve`] found its cost exactly.
    pub(crate) fn build(&self, set: &[Code], hard: Hard, d: usize) -> Node {
        let n = set.len();
        if n == 1 {
            return Node::leaf(set[0]);
        }
        let d = d.min(n + 1);
        let known = self.memo.borrow().get(&(set.to_vec(), hard, d)).copied();
        let Some(Known::Exact(_, g)) = known else {
            unreachable!("a set solved exactly has its guess in the memo");
        };
        let win = self.game.win();
        let symbols = self.game.codes().symbols(g);
        let children = partition::split(self.game, g, set)
            .into_iter()
            .filter(|(f, _)| *f != win)
            .map(|(f, c)| (f, self.build(&c, hard.after(symbols, f), d - 1)))
            .collect();
        Node { guess: g, children }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::secrets::{GuessMode, SecretSet};
    use crate::model::{AnswerRule, GuessRule, Rules};
    use crate::search::{solve, Config};
    use crate::tree::check::check;

    /// Least total within `d` guesses in hard mode: every code the history
    /// allows tried at every node, nothing pruned, the history's constraint
    /// carried along.
    fn brute(game: &Game, set: &[Code], hard: Hard, d: usize) -> u64 {
        if set.is_empty() {
            return 0;
        }
        if d == 0 {
            return INF;
        }
        let book = game.codes();
        let mut best = INF;
        for g in book.all() {
            if !hard.allows(book.symbols(g)) {
                continue;
            }
            let classes = partition::split(game, g, set);
            if classes.len() == 1 && classes[0].0 != game.win() {
                continue;
            }
            let mut total = set.len() as u64;
            for (f, c) in &classes {
                if *f != game.win() {
                    let next = hard.after(book.symbols(g), *f);
                    total = total.saturating_add(brute(game, c, next, d - 1));
                }
            }
            best = best.min(total);
        }
        best
    }

    /// The normal and the hard game of `name` under Wordle's rule: every
    /// code, a random list (seed, size), or with a size of 0 the words
    /// `x45` for every first letter `x` (the "_atch" words of Wordle, where
    /// hard mode must try the first letters one by one).
    fn hard_game(name: &str, list: Option<(u64, usize)>) -> (Game, Game) {
        let rules: Rules = name.parse().unwrap();
        let normal = rules.with_answer(AnswerRule::Wordle).unwrap();
        let hard = normal.with_guesses(GuessRule::Hard).unwrap();
        match list {
            None => (Game::new(normal), Game::new(hard)),
            Some((seed, size)) => {
                let mut rng = crate::rng::SplitMix64::new(seed);
                let n = normal.code_count();
                let book = crate::model::code::Codebook::new(normal);
                let codes: Vec<Code> = if size == 0 {
                    (0..rules.symbols())
                        .filter_map(|x| book.parse(&format!("{x}45")).ok())
                        .collect()
                } else {
                    (0..size).map(|_| Code(rng.below(n) as u16)).collect()
                };
                let set = SecretSet::new(codes, GuessMode::All, None, "list".into()).unwrap();
                (
                    Game::with_secrets(normal, set.clone()),
                    Game::with_secrets(hard, set),
                )
            }
        }
    }

    /// The optimum in hard mode, with and without a cap, equals brute
    /// force on small Wordle games and word lists; its tree passes the
    /// checker, which follows the history's constraint; hard mode never
    /// beats normal mode.
    #[test]
    fn hard_mode_equals_brute_force() {
        for (name, list) in [
            ("mm:3x3", None),
            ("mm:2x4", None),
            ("mm:4x3", Some((1, 9))),
            ("mm:5x3", Some((2, 8))),
            ("mm:4x4", Some((3, 9))),
            ("mm:4x4", Some((4, 10))),
            ("mm:3x5", Some((5, 10))),
            ("mm:3x5", Some((6, 11))),
        ] {
            let (normal, game) = hard_game(name, list);
            let all = game.secrets();
            let sol = solve(&game, Config::default()).unwrap();
            let want = brute(&game, &all, Hard::new(), all.len());
            assert_eq!(sol.cost, want, "{}", game.name());
            let stats = check(&game, sol.tree.as_ref().unwrap(), None).unwrap();
            assert_eq!(stats.total, want);
            let free = solve(&normal, Config::default()).unwrap().cost;
            assert!(want >= free, "{}", game.name());
            let cap = stats.max_depth - 1;
            let config = Config {
                cap: Some(cap),
                ..Config::default()
            };
            let capped = solve(&game, config).unwrap().cost;
            assert_eq!(
                capped,
                brute(&game, &all, Hard::new(), cap),
                "{} cap {cap}",
                game.name()
            );
        }
    }

    /// Whether `node` (reached under `hard` by `set`) guesses only what
    /// hard mode allows, by the model's rule walked along the tree.
    fn keeps_hard(game: &Game, node: &Node, set: &[Code], hard: Hard) -> bool {
        let symbols = game.codes().symbols(node.guess);
        hard.allows(symbols)
            && node.children.iter().all(|(f, child)| {
                let class: Vec<Code> = set
                    .iter()
                    .copied()
                    .filter(|&s| game.feedback(s, node.guess) == *f)
                    .collect();
                keeps_hard(game, child, &class, hard.after(symbols, *f))
            })
    }

    /// The checker refuses a tree that breaks hard mode and accepts it
    /// under normal mode: on the list 011 012 022 of mm:3x3, 000 shows the
    /// 0 green in front, and 111 then drops it; the search's hard trees of
    /// small lists keep the rule (walked with the model's rule here).
    #[test]
    fn checker_refuses_a_tree_that_breaks_hard_mode() {
        let (normal, game) = hard_game("mm:3x3", None);
        let book = game.codes();
        let code = |t: &str| book.parse(t).unwrap();
        let list = vec![code("011"), code("012"), code("022")];
        let set = SecretSet::new(list.clone(), GuessMode::All, None, "l".into()).unwrap();
        let (normal, game) = (
            Game::with_secrets(normal.rules(), set.clone()),
            Game::with_secrets(game.rules(), set),
        );
        let second = code("111");
        let leaves = partition::split(&game, second, &list)
            .into_iter()
            .map(|(f, c)| (f, Node::leaf(c[0])))
            .collect();
        let first = code("000");
        let classes = partition::split(&game, first, &list);
        assert_eq!(classes.len(), 1, "000 answers the three alike");
        let mut tree = crate::tree::Tree {
            rules: normal.rules(),
            root: Node {
                guess: first,
                children: vec![(
                    classes[0].0,
                    Node {
                        guess: second,
                        children: leaves,
                    },
                )],
            },
        };
        assert!(check(&normal, &tree, None).is_ok());
        tree.rules = game.rules();
        let err = check(&game, &tree, None).unwrap_err();
        assert!(
            matches!(err, crate::tree::TreeError::NotHard { .. }),
            "{err}"
        );
        assert!(!keeps_hard(&game, &tree.root, &list, Hard::new()));
        for seed in 1..6 {
            let (_, game) = hard_game("mm:4x4", Some((seed, 12)));
            let hard = solve(&game, Config::default()).unwrap().tree.unwrap();
            assert!(keeps_hard(&game, &hard.root, &game.secrets(), Hard::new()));
        }
    }
}
