//! Wordle's hard mode searched exactly ([`crate::model::GuessRule::Hard`]).
//!
//! The guesses a position allows depend on its history, not only on its
//! candidates ([`Hard`], the model's one definition), so a node's state is
//! (candidates, constraint, guesses left) and the memo's key is that whole
//! state: two positions with equal states have equal costs and equal
//! subtrees, whatever their histories. A branch and bound over that state,
//! total objective, with an optional cap; no symmetry (Wordle's rule has
//! none here). docs/search.md ("Wordle's hard mode") proves each shortcut:
//! - the guesses' answers are read from a table of this search's own,
//!   row by guess over the game's secrets (`table[g · m + s]`), filled
//!   for a call's set and the guesses its constraint allows, the secrets
//!   numbered as the calls first name them ([`table`]); a node's classes
//!   are counted in a reused histogram;
//! - a node's allowed guesses are its parent's filtered by the answer's
//!   own constraint (hard mode only shrinks the list), and only when the
//!   node is searched ([`needs`]);
//! - guesses left are clamped to the set's size (no tree needs more);
//!   1 secret costs 1, 2 cost 3; a candidate splitting the set into
//!   singletons costs `2n − 1`, the least any set of `n` costs; without
//!   one, a candidate leaving one pair (with 3 guesses left) or a
//!   non-candidate splitting into singletons costs `2n`, optimal; a guess
//!   whose classes all hold at most 2 secrets costs its lookahead bound
//!   exactly, so if its bound is the least it is optimal; with 2
//!   guesses left only a split into singletons counts, and each guess's
//!   scan stops at its first collision; if the `d − 1` guesses taking
//!   most secrets out of their largest class cannot take out `n − 1`,
//!   the cap cannot be met;
//! - every allowed guess that learns something is tried, in the order
//!   (lookahead bound, Σ class size², code), the lookahead bound being
//!   `own + Σ lower(|C|, d − 1)` over the non-winning classes (the
//!   level-filling bound of [`crate::search::bound`], which holds for any
//!   set of guesses); the scan stops at the first bound at or above the
//!   cut-off; a guess's classes are first bounded cheaply (the memo, the
//!   shortcuts above), then searched smallest first, each under the slack
//!   its siblings leave.
//!
//! Invariants: a set handed to the search is the candidates its history
//! leaves (so every candidate is allowed: [`Hard`]'s invariant);
//! [`HardSearch::solve`] returns `Exact(cost)` when the cost is below the
//! cut-off, else `AtLeast(b)` with `cost >= b >= cutoff`; every exact entry
//! of the memo holds an optimal guess, which [`HardSearch::build`] follows
//! (with the shortcuts, recomputed: they are functions of the set) to
//! rebuild the tree; costs and trees depend only on the game and each
//! call's arguments, never on the calls before it (the numbering of the
//! secrets changes no choice: candidates are tried and guesses ordered
//! by code).
//! [`HardSearch::solve_first`] and [`HardSearch::build_first`] do the
//! same with a fixed first guess.

mod build;
mod needs;
mod shortcuts;
mod table;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use rustc_hash::FxHashMap;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::hard::Hard;
use crate::search::bound::{Bounds, Cost, INF};
use crate::search::value::Outcome;
use crate::tree::Node;
use needs::{Needs, Packed};

/// A memo entry: the exact cost and an optimal guess, or a lower bound.
#[derive(Debug, Clone, Copy)]
enum Known {
    Exact(u64, Code),
    AtLeast(u64),
}

/// A node's state: its candidates (the search's numbers of the secrets,
/// increasing), its history's constraint, the guesses left (clamped to the
/// set's size).
type State = (Box<[u16]>, Hard, u32);

/// How a node's allowed guesses follow from the list it is handed.
#[derive(Debug, Clone, Copy)]
enum Restrict {
    /// The list as it is (the constraint did not change).
    Same,
    /// The codes of the list this constraint allows (a search's root).
    Hard(Hard),
    /// The parent's list after this guess got this answer: the codes the
    /// answer's own constraint allows.
    Answer(Code, Feedback),
}

/// What a node's cheap look (memo, shortcuts) tells.
#[derive(Debug, Clone, Copy)]
enum Peek {
    Exact(u64),
    AtLeast(u64),
}

/// The hard-mode search of one game (single-threaded).
pub(crate) struct HardSearch<'a> {
    game: &'a Game,
    bounds: Bounds,
    /// The game's secrets, by the search's number: numbered as the calls
    /// first name them, so that a call's set (a class of a first guess)
    /// has its columns of the table side by side.
    secrets: RefCell<Vec<Code>>,
    /// The search's number of each code that is a numbered secret, else
    /// `u16::MAX`.
    number: RefCell<Vec<u16>>,
    /// Secrets.
    m: usize,
    /// `table[g · m + s]`: the answer to guess `g` when secret number `s`
    /// is the secret, filled column by column as the calls need
    /// ([`HardSearch::fill`]).
    table: RefCell<Vec<u8>>,
    /// For each secret, whether its column is filled: for the guesses
    /// this constraint allows (`Hard::new()`: every guess).
    filled: RefCell<Vec<Option<Hard>>>,
    /// Every code the game lets guess.
    guesses: Vec<Code>,
    packed: Packed,
    win: u8,
    memo: RefCell<FxHashMap<State, Known>>,
    nodes: Cell<u64>,
    lookups: Cell<u64>,
    hits: Cell<u64>,
}

impl<'a> HardSearch<'a> {
    /// A search of `game` (Wordle's rule, hard mode), its table of answers
    /// (guesses × secrets bytes) to be filled as the calls need it.
    pub(crate) fn new(game: &'a Game) -> HardSearch<'a> {
        let m = game.secret_count();
        let guesses: Vec<Code> = game.codes().all().filter(|&g| game.is_guess(g)).collect();
        // Any answer is below the rule's slots: a bound on the branching.
        let branching = game.rules().feedback_slots() - 1;
        HardSearch {
            game,
            bounds: Bounds::new(Cost::Total, branching, m),
            secrets: RefCell::new(Vec::with_capacity(m)),
            number: RefCell::new(vec![u16::MAX; game.len()]),
            m,
            table: RefCell::new(vec![0u8; game.len() * m]),
            filled: RefCell::new(vec![None; m]),
            guesses,
            packed: Packed::new(game.codes()),
            win: game.win().0,
            memo: RefCell::new(FxHashMap::default()),
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

    /// The exact cost of `set` (secrets of the game, the candidates of a
    /// history whose constraint is `hard`) within `d` guesses if below
    /// `cutoff` (see the module doc).
    pub(crate) fn solve(&self, set: &[Code], hard: Hard, d: usize, cutoff: u64) -> Outcome {
        let set = self.numbers(set);
        if set.is_empty() {
            return Outcome::below(0, cutoff);
        }
        self.fill(&set, hard);
        self.node(
            &set,
            hard,
            &self.guesses,
            Restrict::Hard(hard),
            d,
            cutoff,
            None,
        )
    }

    /// The optimal subtree of `set` under `hard` within `d` guesses, once
    /// [`HardSearch::solve`] found its cost exactly.
    pub(crate) fn build(&self, set: &[Code], hard: Hard, d: usize) -> Node {
        let set = self.numbers(set);
        self.fill(&set, hard);
        self.build_numbers(&set, hard, d)
    }

    /// The exact cost of `set` (as for [`HardSearch::solve`]) within `d`
    /// guesses when the first is `first`, if below `cutoff`: a fixed first
    /// guess (`--first`), its classes searched as any node's (cheap bounds
    /// first, then smallest first under the slack). A code the game does
    /// not let guess, or that `hard` does not allow, costs [`INF`].
    /// (For `searcher::run_hard`'s `--first`; the tests use it now.)
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn solve_first(
        &self,
        set: &[Code],
        hard: Hard,
        first: Code,
        d: usize,
        cutoff: u64,
    ) -> Outcome {
        if set.is_empty() {
            return Outcome::below(0, cutoff);
        }
        let legal = self.game.is_guess(first) && hard.allows(self.game.codes().symbols(first));
        if !legal || d == 0 {
            return Outcome::AtLeast(INF);
        }
        let mut order = set.to_vec();
        order.sort_by_key(|&s| self.game.feedback(s, first));
        let set = self.numbers(&order);
        self.fill_first(&set, hard, first);
        let win = usize::from(self.win);
        let mut counts = [0u32; 256];
        let row = self.row(first);
        for &s in &set {
            counts[usize::from(row[usize::from(s)])] += 1;
        }
        drop(row);
        let bound = counts
            .iter()
            .enumerate()
            .filter(|&(f, &c)| f != win && c > 0)
            .fold(set.len() as u64, |t, (_, &c)| {
                t.saturating_add(self.bounds.lower(c as usize, d - 1))
            });
        if bound >= INF {
            return Outcome::AtLeast(INF);
        }
        if bound >= cutoff {
            return Outcome::AtLeast(bound);
        }
        let allowed = Needs::of(&hard).filter(&self.packed, &self.guesses);
        let mut members = vec![0u16; set.len()];
        match self.try_guess(&set, hard, &allowed, first, bound, d, cutoff, &mut members) {
            Ok(total) => Outcome::Exact(total),
            Err(b) => Outcome::AtLeast(b.max(cutoff)),
        }
    }

    /// The optimal tree of `set` under `hard` within `d` guesses whose
    /// first guess is `first`, once [`HardSearch::solve_first`] found its
    /// cost exactly.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn build_first(&self, set: &[Code], hard: Hard, first: Code, d: usize) -> Node {
        let set = self.numbers(set);
        self.fill_first(&set, hard, first);
        self.build_guess(&set, hard, first, d)
    }

    fn lookup(&self, key: &State) -> Option<Known> {
        self.lookups.set(self.lookups.get() + 1);
        self.memo.borrow().get(key).copied()
    }

    fn store(&self, key: State, known: Known) {
        self.memo.borrow_mut().insert(key, known);
    }

    /// The search of one node: `set` under `hard` with `d` guesses left,
    /// its allowed guesses `parent` restricted by `restrict`; `peeked`, the
    /// bound [`HardSearch::peek`] found if the caller looked already.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &self,
        set: &[u16],
        hard: Hard,
        parent: &[Code],
        restrict: Restrict,
        d: usize,
        cutoff: u64,
        peeked: Option<u64>,
    ) -> Outcome {
        let n = set.len();
        let d = d.min(n);
        let mut lower = self.bounds.lower(n, d);
        if lower >= INF {
            return Outcome::AtLeast(INF);
        }
        if n <= 2 {
            return Outcome::below(lower, cutoff);
        }
        if lower >= cutoff {
            return Outcome::AtLeast(lower);
        }
        let key: State = (set.into(), hard, d as u32);
        match peeked {
            Some(b) => lower = lower.max(b),
            None => match self.peek(&key, d) {
                Peek::Exact(c) => return Outcome::below(c, cutoff),
                Peek::AtLeast(b) => lower = lower.max(b),
            },
        }
        if lower >= cutoff {
            return Outcome::AtLeast(lower);
        }
        self.nodes.set(self.nodes.get() + 1);
        let allowed: Cow<[Code]> = match restrict {
            Restrict::Same => Cow::Borrowed(parent),
            Restrict::Hard(h) => {
                let needs = Needs::of(&h);
                if needs.is_empty() {
                    Cow::Borrowed(parent)
                } else {
                    Cow::Owned(needs.filter(&self.packed, parent))
                }
            }
            Restrict::Answer(g, f) => {
                let own = Hard::new().after(self.game.codes().symbols(g), f);
                Cow::Owned(Needs::of(&own).filter(&self.packed, parent))
            }
        };
        let (scored, least, dropped) = match self.scan(set, &allowed, d, cutoff) {
            Ok((cost, g)) => {
                self.store(key, Known::Exact(cost, g));
                return Outcome::below(cost, cutoff);
            }
            Err(found) => found,
        };
        lower = lower.max(least);
        if lower >= cutoff {
            self.store(key, Known::AtLeast(lower));
            return Outcome::AtLeast(lower);
        }
        let mut limit = cutoff;
        let mut best: Option<(u64, Code)> = None;
        let mut proven = dropped;
        let mut members = vec![0u16; n];
        for &k in &scored {
            let (bound, g) = ((k >> 64) as u64, Code(k as u16));
            if bound >= limit {
                proven = proven.min(bound);
                break;
            }
            match self.try_guess(set, hard, &allowed, g, bound, d, limit, &mut members) {
                Ok(total) => {
                    best = Some((total, g));
                    limit = total;
                }
                Err(b) => proven = proven.min(b),
            }
        }
        let known = match best {
            Some((cost, g)) => Known::Exact(cost, g),
            None => Known::AtLeast(proven.max(lower).max(cutoff)),
        };
        self.store(key, known);
        match known {
            Known::Exact(c, _) => Outcome::below(c, cutoff),
            Known::AtLeast(b) => Outcome::AtLeast(b),
        }
    }

    /// Every guess of `allowed` that learns something and whose lookahead
    /// bound is below `cutoff`, in the search's order, packed as
    /// `bound · 2⁶⁴ + Σ class size² · 2¹⁶ + code`, with the least bound of
    /// all and the least bound of those left out (or [`INF`]); or, found on
    /// the way, an optimal guess with its cost (a non-candidate splitting
    /// into singletons, `quick` having found no better; a guess of least
    /// bound whose classes hold at most 2).
    #[allow(clippy::type_complexity)]
    fn scan(
        &self,
        set: &[u16],
        allowed: &[Code],
        d: usize,
        cutoff: u64,
    ) -> Result<(u64, Code), (Vec<u128>, u64, u64)> {
        let n = set.len();
        if d == 2 {
            return self
                .split_in_one(set, allowed)
                .ok_or((Vec::new(), INF, INF));
        }
        let win = usize::from(self.win);
        let lows: Vec<u64> = (0..=n).map(|c| self.bounds.lower(c, d - 1)).collect();
        let mut counts = [0u16; 256];
        let mut touched = [0u8; 256];
        let mut scored = Vec::new();
        let mut exact: Option<(u64, Code)> = None;
        let (mut least, mut dropped) = (INF, INF);
        // With fewer guesses after this one than secrets less one, the
        // counting bound of `can_isolate` may show the cap unreachable.
        let counting = d - 1 < n - 1;
        let mut leaves: Vec<usize> = Vec::new();
        for &g in allowed {
            let row = self.row(g);
            let mut t = 0;
            for &s in set {
                let f = row[usize::from(s)];
                let c = &mut counts[usize::from(f)];
                touched[t] = f;
                t += usize::from(*c == 0);
                *c += 1;
            }
            let candidate = counts[win] > 0;
            let mut bound = n as u64;
            let mut squares = 0u64;
            let mut most = 0;
            for &f in &touched[..t] {
                let c = std::mem::take(&mut counts[usize::from(f)]);
                if usize::from(f) != win {
                    bound = bound.saturating_add(lows[usize::from(c)]);
                    squares += u64::from(c) * u64::from(c);
                    most = most.max(c);
                }
            }
            let classes = t - usize::from(candidate);
            if !candidate && classes <= 1 {
                continue; // Learns nothing.
            }
            if !candidate && most == 1 {
                return Ok((bound, g)); // 2n: optimal, quick found no 2n − 1.
            }
            if counting {
                // The secrets outside the guess's largest class.
                leaves.push(n - usize::from(most.max(1)));
            }
            least = least.min(bound);
            if most <= 2 && exact.is_none_or(|(b, e)| (bound, g) < (b, e)) {
                exact = Some((bound, g));
            }
            if bound < cutoff {
                scored.push(u128::from(bound) << 64 | u128::from(squares) << 16 | u128::from(g.0));
            } else {
                dropped = dropped.min(bound);
            }
        }
        match exact {
            Some((b, g)) if b == least && b < INF => Ok((b, g)),
            _ if counting && !Self::can_isolate(&mut leaves, d - 1, n) => {
                Err((Vec::new(), INF, INF))
            }
            _ => {
                scored.sort_unstable();
                Err((scored, least, dropped))
            }
        }
    }

    /// Whether `r` guesses, each taking out of the path of its largest
    /// class at most its entry of `leaves`, can leave at most one of `n`
    /// secrets on that path: the sum of the `r` largest entries is at least
    /// `n − 1`. If not, the secrets that follow the largest class of every
    /// guess made (at least 2) cannot all be found within `r + 1` guesses.
    fn can_isolate(leaves: &mut [usize], r: usize, n: usize) -> bool {
        if r >= leaves.len() {
            return leaves.iter().sum::<usize>() + 1 >= n;
        }
        leaves.select_nth_unstable_by(r, |a, b| b.cmp(a));
        leaves[..r].iter().sum::<usize>() + 1 >= n
    }

    /// The cost of guessing `g` (lookahead bound `bound`) at a node if
    /// below `limit`, else a bound at least `limit`.
    #[allow(clippy::too_many_arguments)]
    fn try_guess(
        &self,
        set: &[u16],
        hard: Hard,
        allowed: &[Code],
        g: Code,
        bound: u64,
        d: usize,
        limit: u64,
        members: &mut [u16],
    ) -> Result<u64, u64> {
        let row = self.row(g);
        // The classes, as (size, answer, start) in `members`, smallest
        // first.
        let mut counts = [0u32; 256];
        for &s in set {
            counts[usize::from(row[usize::from(s)])] += 1;
        }
        let mut classes: Vec<(u32, u8, u32)> = Vec::new();
        let mut start = [0u32; 256];
        let mut at = 0;
        for (f, &c) in counts.iter().enumerate() {
            if c > 0 {
                start[f] = at;
                if f != usize::from(self.win) {
                    classes.push((c, f as u8, at));
                }
                at += c;
            }
        }
        for &s in set {
            let f = usize::from(row[usize::from(s)]);
            members[start[f] as usize] = s;
            start[f] += 1;
        }
        classes.sort_unstable();
        let symbols = self.game.codes().symbols(g);
        let mut total = bound;
        // First every class's cheap bound, then the searches.
        let mut open: Vec<(usize, Hard, u64)> = Vec::new();
        for (i, &(c, f, at)) in classes.iter().enumerate() {
            if c <= 2 {
                continue; // Exact in the bound.
            }
            let class = &members[at as usize..(at + c) as usize];
            let lb = self.bounds.lower(c as usize, d - 1);
            let next = hard.after(symbols, Feedback(f));
            let dc = (d - 1).min(c as usize);
            let key: State = (class.into(), next, dc as u32);
            match self.peek(&key, dc) {
                Peek::Exact(v) => total = total - lb + v,
                Peek::AtLeast(b) => {
                    let b = b.max(lb);
                    total = (total - lb).saturating_add(b);
                    open.push((i, next, b));
                }
            }
            if total >= limit {
                return Err(total);
            }
        }
        for (i, next, lb) in open {
            let (c, f, at) = classes[i];
            let class = &members[at as usize..(at + c) as usize];
            let slack = limit - (total - lb);
            let restrict = if next == hard {
                Restrict::Same
            } else {
                Restrict::Answer(g, Feedback(f))
            };
            match self.node(class, next, allowed, restrict, d - 1, slack, Some(lb)) {
                Outcome::Exact(cost) => total = total - lb + cost,
                Outcome::AtLeast(b) => return Err((total - lb).saturating_add(b.max(lb))),
            }
            if total >= limit {
                return Err(total);
            }
        }
        Ok(total)
    }
}
