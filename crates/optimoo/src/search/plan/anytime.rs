//! A unit's cost by best-first proof over its second guesses, with a
//! deadline: the exact cost when it finishes, else a proven lower bound
//! that rises as it works (`optimoo work --time-limit`). An interrupt flag
//! ([`Effort::interrupt`], Ctrl-C in `work`) is a deadline that comes now:
//! whatever holds at the deadline holds then.
//!
//! The class `C` of a unit costs `min_h cost(h)` over its second guesses
//! `h`, and `cost(h) = own + Σ_D cost(D)` over `h`'s classes `D`. Each `h`
//! keeps a lower bound `own + Σ_D b(D)`, where `b(D)` rises by stages:
//! `D`'s level bound; its one-step lookahead bound (every class of `h` at
//! once, when `h` is first picked); its bound `t` levels down (a class at
//! a time, largest first: the least over `D`'s own guesses of their bound
//! with each of their classes raised `t − 1` levels, so `h`'s bound
//! becomes a bound `t + 1` guesses down; `t` is 2 on the way to the exact
//! cost, `k − 1` for [`Depth::Levels`]`(k)`); and last its exact cost.
//! The loop takes the guess of least bound (the first in the search's
//! order among equals) and raises its next class by one stage: first every
//! class `t` levels, then one open class (the smallest, or once all are
//! large the one with the most estimated room: [`choose_class`])
//! searched under a cut-off that lifts the guess just past the next least
//! guess (a step of
//! [`CHASE_STEP`] more, and never above what lifts it to the unit's own
//! cut-off, nor to the least cost of a guess whose classes are all exact:
//! the unit costs at most that, so no guess needs proving more): the
//! class's exact cost when it is below, else a bound at least that
//! cut-off, and the loop goes on with the guess now least. Among guesses
//! of equal bound one whose classes are all exact comes first.
//!
//! Invariants:
//! - Every `b(D)` is a lower bound of `cost(D)` (exact costs and bounds
//!   kept only from searches that returned before the deadline), so every
//!   guess's bound is a lower bound of its cost; the guesses left out of
//!   the scan cost at least the unit's cut-off. Hence at any moment the
//!   class costs at least `min(least guess bound, cut-off)`, and at least
//!   the plan's own bound for it: the bound reported when time runs out.
//! - When the guess of least bound has every class raised `t` levels (or
//!   solved), no guess's bound `t + 1` levels down is below its bound:
//!   with [`Depth::Levels`] that is the result, the same value whatever
//!   the deadline left (if met) and the thread count.
//! - When the guess of least bound has every class solved, its bound is
//!   its cost and no guess costs less: the class's exact cost, and its
//!   subtree is the searcher's own `build` (byte for byte what
//!   [`super::solve_unit`] writes). When that least bound reaches the
//!   cut-off, the unit is refuted as [`super::solve_unit`] refutes it.
//! - Average objective only (a sum over the classes).
//! - Resuming. A run can hand out where it stands ([`UnitProgress`]: each
//!   second guess's class bounds and how far each was raised) and a later
//!   run can start from it. Each saved bound is a lower bound of its
//!   class's cost, so the resumed run proves only true bounds; a class
//!   raised under a higher cut-off (its value may stop at what lifts its
//!   guess to that cut-off) counts as raised only when the resumed
//!   cut-off is no higher, else it is raised again. The result of
//!   [`Depth::Levels`] is the least bound that many levels down over the
//!   second guesses, whatever the order the bounds were raised in: a
//!   resumed run returns what a fresh one does (higher, never lower, after
//!   a run that went deeper or solved classes, whose bounds it keeps).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::exec;
use crate::model::code::Code;
use crate::model::symmetry::Stabilizer;
use crate::search::bound::Cost;
use crate::search::config::{Config, Driver, SearchError};
use crate::search::searcher::Searcher;

use super::learned::{Learned, MemoKeep};
use crate::search::value::{Outcome, Scored};
use crate::tree::Node;

use super::{levels_down, root_stabilizer, seconds_of, unit_set, Plan, UnitResult};

/// An exact class solve of the best-first loop is asked for its cost only
/// up to its bound plus the distance to the next least guess, plus this
/// fraction of its bound (1/128): small enough that a stopped run has
/// proven its bounds rather than spent its time in one class (moo:5x10's
/// 1A1B unit: 16401 -> 16485 in 962 s, where solving its largest open
/// class outright returned nothing in that time), large enough that a class is
/// not searched again for every point it rises (1/1024: 16463 in the same
/// time). Measured in docs/benchmarks.md, session 19. The default of
/// [`Effort::chase_step`] (`optimoo work --chase-step`).
pub const CHASE_STEP: u64 = 128;

/// Open classes of at least this many secrets are chosen by their
/// estimated room over their bounds (`choose_class`); while a smaller one
/// is open, the smallest is searched first: a class's search time grows
/// much faster than its size (about `s^3.4`) and, where every class is
/// still far from its cost, the distance from its bound to its cost only
/// about in proportion, so the small and middling classes lift a guess for
/// far less work than its largest (docs/benchmarks.md, session 22); tiny
/// ones cost next to nothing.
pub const ESTIMATE_MIN: usize = 512;

/// The improve strategy that estimates a large open class's cost from
/// above ([`Searcher::improve_total`]): the best guess by the entropy
/// ranking on sets of more than 32 secrets, the exact search below.
/// About a second on a class of 1,800 secrets of moo:5x10.
const ESTIMATE: crate::search::Improve = crate::search::Improve {
    exact_below: 32,
    width: 1,
};

/// How a class's search time grows with its size `s` (about `s^3.4`:
/// docs/results.md, session 22).
const SEARCH_GROWTH: f64 = 3.4;

/// An open class as [`choose_class`] weighs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClassRoom {
    secrets: usize,
    /// Its proven bound.
    lower: u64,
    /// The total of a tree of it: an estimate from above.
    upper: u64,
}

/// Which of `rows` (open classes of one second guess, each at least
/// [`ESTIMATE_MIN`] secrets) to search next: the least `s^3.4 / (upper −
/// lower + 1)`, ties to the earlier row. A search under a cut-off costs
/// more the nearer the cut-off is to the class's cost: on moo:5x10's unit
/// 2 (docs/benchmarks.md, session 53) 12567's class 0A3B (1,660 secrets,
/// bound 6945, a tree of 7019) rose 7 points for 5,176 CPU-s, while its
/// larger class 0A2B (1,776 secrets, bound 7268, a tree of 7606) rose 32
/// for 663 from scratch. The room `upper − lower` stands for that
/// distance, `s^3.4` for the size's share of the cost. Any choice proves
/// only true bounds: it decides the speed, never a value.
fn choose_class(rows: &[ClassRoom]) -> usize {
    let weight = |r: &ClassRoom| {
        let room = r.upper.saturating_sub(r.lower).saturating_add(1) as f64;
        (r.secrets as f64).powf(SEARCH_GROWTH) / room
    };
    let mut best = 0;
    for (i, r) in rows.iter().enumerate().skip(1) {
        if weight(r) < weight(&rows[best]) {
            best = i;
        }
    }
    best
}

/// One second guess of the class: its classes, their bounds and which are
/// exact.
struct Second {
    guess: Code,
    classes: Vec<Vec<Code>>,
    lower: Vec<u64>,
    solved: Vec<bool>,
    /// How many levels down each class is raised (0: its level bound or
    /// one-step lookahead; 2 and more: that many levels down).
    down: Vec<u8>,
    /// The improve strategy's total of each class, once asked
    /// ([`choose_class`]): a tree's total without a cap, at least the
    /// class's cost where the game has none, and an estimate only (it
    /// orders the work, it bounds nothing); not kept between runs.
    upper: Vec<Option<u64>>,
    raised: bool,
    own: u64,
}

impl Second {
    /// `h` with its classes bounded at their level bound, raised from
    /// `saved` when it holds `h` (the same classes).
    fn new(searcher: &Searcher<'_>, set: &[Code], dc: usize, h: Code, own: u64) -> Second {
        let classes: Vec<Vec<Code>> = searcher
            .classes(set, h)
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        let lower = classes
            .iter()
            .map(|c| searcher.cx().lower_of(c, dc - 1))
            .collect();
        Second {
            guess: h,
            solved: vec![false; classes.len()],
            down: vec![0; classes.len()],
            upper: vec![None; classes.len()],
            classes,
            lower,
            raised: false,
            own,
        }
    }

    /// Takes up what `saved` (the same guess, proven under `saved_cutoff`)
    /// proved of the classes; ignored when its classes do not match.
    fn resume(&mut self, saved: &SecondProgress, saved_cutoff: u64, cutoff: u64) {
        if saved.guess != self.guess || saved.classes.len() != self.classes.len() {
            return;
        }
        self.raised |= saved.raised;
        for (k, c) in saved.classes.iter().enumerate() {
            self.lower[k] = self.lower[k].max(c.lower);
            match c.stage {
                Stage::Exact => self.solved[k] = true,
                Stage::Down(levels) if cutoff <= saved_cutoff => self.down[k] = levels,
                Stage::Down(_) | Stage::Bound => {}
            }
        }
    }

    fn progress(&self) -> SecondProgress {
        SecondProgress {
            guess: self.guess,
            raised: self.raised,
            classes: (0..self.classes.len())
                .map(|k| ClassProgress {
                    lower: self.lower[k],
                    stage: if self.solved[k] {
                        Stage::Exact
                    } else if self.down[k] >= 2 {
                        Stage::Down(self.down[k])
                    } else {
                        Stage::Bound
                    },
                })
                .collect(),
        }
    }

    /// Whether every class is exact: the bound is then the guess's cost.
    fn exact(&self) -> bool {
        self.solved.iter().all(|&s| s)
    }

    fn bound(&self) -> u64 {
        self.lower
            .iter()
            .fold(self.own, |t, &b| t.saturating_add(b))
            .min(crate::search::bound::INF)
    }
}

/// The unit's optimal subtree of cost `cost`: the tree of
/// [`Searcher::build`] (the first guess in the search's order whose cost is
/// `cost`), built from what the chase proved. `seconds` is every guess that
/// may cost `cost`, in the search's order: one the chase bounded above
/// `cost` costs more and is passed without a search, and one whose classes
/// are all exact is built from their costs. Without this, the build
/// refuted each earlier guess and solved the chosen one's classes again
/// from scratch: on moo:5x10's unit 3, hours of work the chase had done.
fn build_unit(
    searcher: &Searcher<'_>,
    set: &[Code],
    dc: usize,
    stab: &Stabilizer,
    seconds: &[Second],
    cost: u64,
) -> Node {
    for h in seconds {
        if h.bound() > cost {
            continue;
        }
        if h.exact() {
            return searcher.build_known(set, dc, stab, h.guess, Some(&h.lower));
        }
        // A tie the chase left open: settled by a search, as `build` would.
        let scored = Scored {
            bound: h
                .classes
                .iter()
                .fold(h.own, |t, c| {
                    t.saturating_add(searcher.cx().lower_of(c, dc - 1))
                })
                .min(crate::search::bound::INF),
            guess: h.guess,
        };
        if searcher.evaluate(set, dc, stab, &scored, cost + 1, usize::MAX, None) == Ok(cost) {
            return searcher.build_with(set, dc, stab, h.guess);
        }
    }
    // Not reached: the chase ends on a guess whose classes are all exact.
    searcher.build(set, dc, stab, cost)
}

/// Where a run of [`bound_unit`] stands: what it proved of each second
/// guess's classes, enough for a later run to go on from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitProgress {
    /// The cut-off the bounds were proven under.
    pub cutoff: u64,
    /// The second guesses of the class still in the race, in the
    /// search's order.
    pub seconds: Vec<SecondProgress>,
}

/// What a run proved of one second guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecondProgress {
    /// The second guess.
    pub guess: Code,
    /// Whether every class was raised by its one-step lookahead.
    pub raised: bool,
    /// Its classes, in the order of their answers.
    pub classes: Vec<ClassProgress>,
}

/// A class of a second guess: a lower bound of its cost and how it was
/// proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassProgress {
    /// A lower bound of the class's cost (its cost when exact).
    pub lower: u64,
    /// How far it was raised.
    pub stage: Stage,
}

/// How far a class's bound was raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Its level bound, or its one-step lookahead.
    Bound,
    /// That many levels down (2 and more).
    Down(u8),
    /// Solved: `lower` is its cost.
    Exact,
}

/// Whom [`bound_unit`] hands its [`UnitProgress`], and how often.
#[derive(Clone, Copy)]
pub struct Keep<'a> {
    /// At most this often while it runs (and once more when it stops
    /// short of the exact cost).
    pub every: Duration,
    /// Told where the run stands.
    pub progress: &'a (dyn Fn(&UnitProgress) + Sync),
}

/// How far [`bound_unit`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// To the exact cost (or the deadline).
    Exact,
    /// To the unit's bound `k` guesses down (or the deadline): the least
    /// over its second guesses of their bound with every class raised
    /// `k − 1` levels; no class is solved. `k` below 3 is taken as 3.
    Levels(u8),
}

/// When [`bound_unit`] stops, and whom it tells of its progress.
#[derive(Clone, Copy)]
pub struct Effort<'a> {
    /// Give up then, with the best bound proven.
    pub deadline: Instant,
    /// Give up as soon as this flag is set, as at the deadline (a stop
    /// asked from outside: `work` sets it on Ctrl-C).
    pub interrupt: Option<&'a AtomicBool>,
    /// How far to go.
    pub depth: Depth,
    /// Told each higher bound proven (below the cut-off), as it is
    /// proven, with the search nodes this run has visited so far: a
    /// caller can keep it before the run ends.
    pub on_bound: Option<&'a (dyn Fn(u64, u64) + Sync)>,
    /// What earlier runs of the unit learned ([`Learned`]: the facts a
    /// [`MemoKeep`] was handed), taken up before the run starts.
    pub learned: Option<&'a [Learned]>,
    /// Whom what this run learns is handed, and how often.
    pub memo_keep: Option<MemoKeep<'a>>,
    /// Where an earlier run of the unit stood (under any cut-off): go on
    /// from there.
    pub resume: Option<&'a UnitProgress>,
    /// Hand out where this run stands, to resume it later.
    pub keep: Option<Keep<'a>>,
    /// Told each step of the loop as it ends (`work --trace`: where the
    /// time goes); hearing changes nothing.
    pub on_step: Option<&'a (dyn Fn(&Step) + Sync)>,
    /// The chase's step: a class is searched under a cut-off `1/chase_step`
    /// of its bound above what lifts its guess past the next least
    /// ([`CHASE_STEP`] by default; at least 1). Any step proves only true
    /// bounds (each search's result is a bound of its class whatever its
    /// cut-off); it decides how much a step tries to prove, hence the
    /// speed and which bounds a stopped run holds.
    pub chase_step: u64,
    /// Open classes of at least this many secrets are chosen by their
    /// estimated room ([`ESTIMATE_MIN`] by default; `usize::MAX`: always
    /// the smallest open class first). Any choice proves only true bounds.
    pub estimate_min: usize,
}

/// One step of [`bound_unit`]'s loop, for a trace: which second guess,
/// what was done to which class, what it proved and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The second guess raised (the least at the time).
    pub guess: Code,
    /// What was done.
    pub kind: StepKind,
    /// The class's secrets (for a one-step raise, the largest class's).
    pub secrets: usize,
    /// The class's bound before and after (for a one-step raise, the
    /// guess's bound).
    pub before: u64,
    /// See `before`.
    pub after: u64,
    /// The cut-off the class was searched under (0 for the raises).
    pub cutoff: u64,
    /// Whether the class is exact now.
    pub exact: bool,
    /// The unit's proven bound after the step.
    pub proven: u64,
    /// Search nodes, memo lookups and memo hits of this step.
    pub nodes: u64,
    /// See `nodes`.
    pub lookups: u64,
    /// See `nodes`.
    pub hits: u64,
    /// Guesses of this step answered by the bounds kept for them
    /// (`Memo::refuted`).
    pub kept: u64,
    /// Seconds the step took.
    pub seconds: f64,
}

/// What a [`Step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// Every class of the guess raised to its one-step lookahead.
    OneStep,
    /// A class raised that many levels down.
    Down(u8),
    /// A class searched under a cut-off.
    Search,
    /// A class about to be searched under a cut-off (told before the
    /// search, which may outlast the run; `after` is `before`).
    Begin,
}

impl Effort<'_> {
    /// Until `deadline`, to `depth`, telling no one.
    pub fn until(deadline: Instant, depth: Depth) -> Effort<'static> {
        Effort {
            deadline,
            depth,
            interrupt: None,
            on_bound: None,
            learned: None,
            memo_keep: None,
            resume: None,
            keep: None,
            on_step: None,
            chase_step: CHASE_STEP,
            estimate_min: ESTIMATE_MIN,
        }
    }
}

/// Unit `i` (a whole class: a unit of a second guess is solved by
/// [`super::solve_unit`]) under `cutoff`, until the deadline or the depth
/// of `effort`: the exact cost and subtree, a bound at least the cut-off
/// (refuted), or the best bound proven by then (below the cut-off: the
/// unit must run again to finish). Also returns the search nodes visited.
pub fn bound_unit(
    game: &crate::model::game::Game,
    config: Config,
    driver: Driver<'_>,
    plan: &Plan,
    i: usize,
    cutoff: u64,
    effort: Effort<'_>,
) -> Result<(UnitResult, u64), SearchError> {
    let Effort {
        deadline,
        depth,
        interrupt,
        on_bound,
        learned,
        memo_keep,
        resume,
        keep,
        on_step,
        chase_step,
        estimate_min,
    } = effort;
    let chase_step = chase_step.max(1);
    let u = &plan.units[i];
    if u.second.is_some() || config.objective != Cost::Total {
        return super::solve_unit(game, config, driver, plan, i, cutoff);
    }
    let show = |memo: &crate::search::memo::Memo| {
        if let Some(k) = memo_keep {
            (k.save)(super::learned::keep(
                memo,
                learned,
                k.min_secrets,
                k.max_codes,
            ));
        }
    };
    let mut searcher = Searcher::with_driver(game, config.clone(), driver)?
        .with_deadline(Some(deadline))
        .with_interrupt(interrupt);
    if let Some(k) = memo_keep {
        searcher = searcher.with_keeper(k.every, &show);
    }
    if let Some(l) = learned {
        super::learned::import(searcher.memo(), l);
    }
    let g = plan.guesses[u.guess].guess;
    let stab = root_stabilizer(game).fix(game.codes().symbols(g));
    let set = unit_set(game, plan, i);
    let d = plan.depth - 1;
    let dc = searcher.cx().clamp(set.len(), d);
    if dc < 2 || set.len() < 2 {
        return super::solve_unit(game, config, driver, plan, i, cutoff);
    }
    let own = searcher.cx().own_of(&set, dc);
    // How many levels down each class of a second guess is raised before
    // any is solved.
    let target: u8 = match depth {
        Depth::Exact => 2,
        Depth::Levels(k) => k.max(3) - 1,
    };
    let mut seconds: Vec<Second> = seconds_of(&searcher, &set, dc, &stab, cutoff)
        .into_iter()
        .map(|h| Second::new(&searcher, &set, dc, h.guess, own))
        .collect();
    if let Some(saved) = resume {
        // Both lists are in the search's order: match them by guess.
        let by_guess: rustc_hash::FxHashMap<Code, &SecondProgress> =
            saved.seconds.iter().map(|h| (h.guess, h)).collect();
        for h in &mut seconds {
            if let Some(p) = by_guess.get(&h.guess) {
                h.resume(p, saved.cutoff, cutoff);
            }
        }
    }
    let snapshot = |seconds: &[Second]| UnitProgress {
        cutoff,
        seconds: seconds.iter().map(Second::progress).collect(),
    };
    let mut kept_at = Instant::now();
    // Hands out the progress of a run that stops short of the exact cost.
    let stop = |seconds: &[Second], r: UnitResult, nodes: u64| {
        if let Some(k) = keep {
            (k.progress)(&snapshot(seconds));
        }
        show(searcher.memo());
        Ok((r, nodes))
    };
    let proven = |seconds: &[Second]| -> u64 {
        seconds
            .iter()
            .map(Second::bound)
            .min()
            .unwrap_or(cutoff)
            .min(cutoff)
            .max(u.lower)
    };
    let mut told = u.lower;
    loop {
        if let Some(k) = keep {
            if kept_at.elapsed() >= k.every {
                (k.progress)(&snapshot(&seconds));
                kept_at = Instant::now();
            }
        }
        if let Some(tell) = on_bound {
            let now = proven(&seconds);
            if now > told && now < cutoff {
                told = now;
                tell(now, searcher.nodes());
            }
        }
        // Among equal bounds a guess whose classes are all exact first:
        // its bound is its cost, and no other guess costs less.
        let Some(best) =
            (0..seconds.len()).min_by_key(|&j| (seconds[j].bound(), !seconds[j].exact(), j))
        else {
            return Ok((UnitResult::at_least(cutoff.max(u.lower)), searcher.nodes()));
        };
        let b = seconds[best].bound();
        let next = (0..seconds.len())
            .filter(|&j| j != best)
            .map(|j| seconds[j].bound())
            .min()
            .unwrap_or(cutoff)
            .min(cutoff);
        if b >= cutoff {
            return Ok((UnitResult::at_least(b), searcher.nodes()));
        }
        if searcher.past_deadline() || searcher.aborted() {
            return stop(
                &seconds,
                UnitResult::at_least(proven(&seconds)),
                searcher.nodes(),
            );
        }
        // What the step costs, for the trace.
        let (step_start, nodes0) = (Instant::now(), searcher.nodes());
        let (lookups0, hits0) = (searcher.memo().lookups(), searcher.memo().hits());
        let kept0 = searcher.memo().guess_hits();
        let tell_step = |seconds: &[Second], step: Step| {
            if let Some(tell) = on_step {
                tell(&Step {
                    proven: proven(seconds),
                    nodes: searcher.nodes() - nodes0,
                    lookups: searcher.memo().lookups() - lookups0,
                    hits: searcher.memo().hits() - hits0,
                    kept: searcher.memo().guess_hits() - kept0,
                    seconds: step_start.elapsed().as_secs_f64(),
                    ..step
                });
            }
        };
        let blank = |guess: Code, kind: StepKind| Step {
            guess,
            kind,
            secrets: 0,
            before: 0,
            after: 0,
            cutoff: 0,
            exact: false,
            proven: 0,
            nodes: 0,
            lookups: 0,
            hits: 0,
            kept: 0,
            seconds: 0.0,
        };
        let h = &mut seconds[best];
        let child = stab.fix(game.codes().symbols(h.guess));
        if !h.raised {
            // The one-step lookahead of each class (memo-backed, cheap
            // next to solving it).
            for (c, lower) in h.classes.iter().zip(h.lower.iter_mut()) {
                let r = searcher.cx().class_bound(
                    searcher.memo(),
                    c,
                    dc - 1,
                    &child,
                    crate::search::bound::INF,
                );
                *lower = (*lower).max(r);
            }
            h.raised = true;
            let step = Step {
                secrets: h.classes.iter().map(Vec::len).max().unwrap_or(0),
                before: b,
                after: h.bound(),
                ..blank(h.guess, StepKind::OneStep)
            };
            tell_step(&seconds, step);
            continue;
        }
        // The largest classes not yet raised `target` levels down, as many
        // as run side by side (each value is the class's own, whatever ran
        // beside it: the same bounds on any number of threads).
        let mut open: Vec<usize> = (0..h.classes.len())
            .filter(|&k| !h.solved[k] && h.down[k] < target)
            .collect();
        if !open.is_empty() {
            open.sort_by_key(|&k| (std::cmp::Reverse(h.classes[k].len()), k));
            open.truncate(searcher.par().width().max(1));
            let h = &seconds[best];
            let raised = exec::map(searcher.par(), open.len(), |j| {
                let k = open[j];
                let c = &h.classes[k];
                let dk = searcher.cx().clamp(c.len(), dc - 1);
                if c.len() < 3 || dk < 2 {
                    return Some(h.lower[k]);
                }
                // What lifts the guess to the cut-off: no need to know more.
                let ceiling = cutoff - (b - h.lower[k]);
                let deep = seconds_of(&searcher, c, dk, &child, ceiling);
                let stop = || searcher.past_deadline();
                let levels = usize::from(target);
                levels_down(&searcher, c, dk, &child, &deep, levels, ceiling, &stop)
            });
            let h = &mut seconds[best];
            let mut steps = Vec::new();
            for (k, r) in open.into_iter().zip(raised) {
                let Some(r) = r else {
                    return stop(
                        &seconds,
                        UnitResult::at_least(proven(&seconds)),
                        searcher.nodes(),
                    );
                };
                steps.push(Step {
                    secrets: h.classes[k].len(),
                    before: h.lower[k],
                    after: h.lower[k].max(r),
                    ..blank(h.guess, StepKind::Down(target))
                });
                h.lower[k] = h.lower[k].max(r);
                h.down[k] = target;
            }
            for step in steps {
                tell_step(&seconds, step);
            }
            continue;
        }
        if let Depth::Levels(_) = depth {
            // The least guess is raised `target + 1` levels down and every
            // other is at least as high.
            return stop(
                &seconds,
                UnitResult::at_least(b.max(u.lower)),
                searcher.nodes(),
            );
        }
        // Which open class to search: the smallest while one is below
        // `estimate_min` secrets, else the one whose estimated room over
        // its bound is largest for its search's cost ([`choose_class`]).
        let open: Vec<usize> = (0..h.classes.len()).filter(|&k| !h.solved[k]).collect();
        let smallest = open
            .iter()
            .copied()
            .min_by_key(|&k| (h.classes[k].len(), k));
        let chosen = match smallest {
            Some(k) if h.classes[k].len() >= estimate_min => {
                let h = &mut seconds[best];
                for &k in &open {
                    if h.upper[k].is_none() {
                        h.upper[k] = searcher.improve_total(&h.classes[k], &child, ESTIMATE);
                    }
                }
                if searcher.aborted() || open.iter().any(|&k| h.upper[k].is_none()) {
                    return stop(
                        &seconds,
                        UnitResult::at_least(proven(&seconds)),
                        searcher.nodes(),
                    );
                }
                let h = &seconds[best];
                let rows: Vec<ClassRoom> = open
                    .iter()
                    .map(|&k| ClassRoom {
                        secrets: h.classes[k].len(),
                        lower: h.lower[k],
                        upper: h.upper[k].unwrap_or(crate::search::bound::INF),
                    })
                    .collect();
                Some(open[choose_class(&rows)])
            }
            k => k,
        };
        let Some(k) = chosen else {
            // Every class exact and no guess below: the class's cost. The
            // subtree is rebuilt without the deadline (a build cut short
            // would find no guess). Where the run stands is kept first:
            // on a large unit the build solves the guess's classes again
            // (moo:5x10's unit 3: classes of a thousand secrets and more),
            // and a run ended during it goes on from the proven cost.
            let cost = b;
            if let Some(k) = keep {
                (k.progress)(&snapshot(&seconds));
            }
            searcher.set_deadline(None);
            let node = build_unit(&searcher, &set, dc, &stab, &seconds, cost);
            return Ok((UnitResult::exact(cost, node), searcher.nodes()));
        };
        // Solved under the cut-off that lifts the guess just past the next
        // least one (and a step more), never above the one at which this
        // class alone lifts the guess to the unit's cut-off: refuted, the
        // class keeps the bound it proved and the loop goes on with the
        // guess now least; solved below it, the class is exact.
        // A guess whose classes are all exact costs its bound, so the
        // unit costs at most the least such bound (`known`): no guess needs
        // lifting past it. `b < known` here (the least guess, not exact,
        // comes before an exact one of equal bound), so the cut-off stays
        // above the class's bound.
        let known = seconds
            .iter()
            .filter(|g| g.exact())
            .map(Second::bound)
            .min()
            .unwrap_or(cutoff)
            .min(cutoff);
        let h = &seconds[best];
        debug_assert!(b < known, "least bound {b}, an exact guess at {known}");
        let full = known - (b - h.lower[k]);
        let class_cutoff = full.min(h.lower[k] + (next - b) + 1 + h.lower[k] / chase_step);
        // Which class, under which cut-off: a search may run for hours.
        let begin = Step {
            secrets: h.classes[k].len(),
            before: h.lower[k],
            after: h.lower[k],
            cutoff: class_cutoff,
            ..blank(h.guess, StepKind::Begin)
        };
        tell_step(&seconds, begin);
        let h = &mut seconds[best];
        let r = searcher.solve_from(&h.classes[k], dc - 1, &child, class_cutoff, 1, h.lower[k]);
        if searcher.aborted() {
            return stop(
                &seconds,
                UnitResult::at_least(proven(&seconds)),
                searcher.nodes(),
            );
        }
        let step = Step {
            secrets: h.classes[k].len(),
            before: h.lower[k],
            cutoff: class_cutoff,
            ..blank(h.guess, StepKind::Search)
        };
        match r {
            Outcome::Exact(c) => {
                h.lower[k] = c;
                h.solved[k] = true;
            }
            Outcome::AtLeast(x) => h.lower[k] = h.lower[k].max(x),
        }
        let step = Step {
            after: h.lower[k],
            exact: h.solved[k],
            ..step
        };
        tell_step(&seconds, step);
    }
}

#[cfg(test)]
mod choice_tests {
    use super::*;

    fn row(secrets: usize, lower: u64, upper: u64) -> ClassRoom {
        ClassRoom {
            secrets,
            lower,
            upper,
        }
    }

    /// The weighing of [`choose_class`]: more room first at one size, the
    /// smaller class at equal room, the earlier row at equal weight, and
    /// moo:5x10's case that made it (12567's two open classes in unit 2,
    /// with the trees of data/moo-5x10-grafted.tree as their upper values:
    /// the larger class, far below its tree, before the one near it).
    #[test]
    fn the_most_room_for_the_size_first() {
        assert_eq!(
            choose_class(&[row(600, 2000, 2010), row(600, 2000, 2100)]),
            1
        );
        assert_eq!(
            choose_class(&[row(900, 3000, 3100), row(600, 2000, 2100)]),
            1
        );
        assert_eq!(
            choose_class(&[row(600, 2000, 2100), row(600, 2000, 2100)]),
            0
        );
        // Room 0 (the bound is the tree's value) comes last, but is not
        // out of reach: the bound may be the class's cost.
        assert_eq!(
            choose_class(&[row(600, 2100, 2100), row(2000, 7000, 7001)]),
            0
        );
        assert_eq!(
            choose_class(&[row(1660, 6945, 7019), row(1776, 7268, 7606)]),
            1
        );
        // Twice the size weighs 2^3.4 (about 10.6) times the room.
        assert_eq!(
            choose_class(&[row(600, 2000, 2010), row(1200, 4000, 4100)]),
            0
        );
        assert_eq!(
            choose_class(&[row(600, 2000, 2010), row(1200, 4000, 4200)]),
            1
        );
        // One row: itself; an upper value below the bound counts as no room.
        assert_eq!(choose_class(&[row(700, 10, 5)]), 0);
    }

    /// What one estimate costs on a class the chase weighs: moo:5x10,
    /// 01234 answered 0A2B, then 12567 answered 0A2B (1,776 secrets).
    /// Prints the estimate and its seconds; the estimate is a tree's total,
    /// so at least the class's two-level bound the run proved (7268).
    /// `cargo test --release -p optimoo -- --ignored --nocapture
    /// estimate_of_a_large_class`.
    #[test]
    #[ignore = "builds moo:5x10's table (about 1 GiB, seconds)"]
    fn estimate_of_a_large_class() {
        use crate::model::game::Game;
        let game = Game::new("moo:5x10".parse().unwrap());
        let searcher = Searcher::new(&game, crate::search::config::Config::default()).unwrap();
        let book = game.codes();
        let code = |s: &str| game.parse_code(s).unwrap();
        let (a, b) = (code("01234"), code("12567"));
        let (fa, fb) = (
            game.parse_feedback("0A2B").unwrap(),
            game.parse_feedback("0A2B").unwrap(),
        );
        let set: Vec<Code> = book
            .all()
            .filter(|&s| game.feedback(a, s) == fa && game.feedback(b, s) == fb)
            .collect();
        assert_eq!(set.len(), 1776);
        let stab = root_stabilizer(&game)
            .fix(book.symbols(a))
            .fix(book.symbols(b));
        let start = Instant::now();
        let total = searcher.improve_total(&set, &stab, ESTIMATE).unwrap();
        eprintln!("estimate {total} in {:.2} s", start.elapsed().as_secs_f64());
        assert!(total >= 7268, "{total}");
    }
}

#[cfg(test)]
mod build_tests {
    use super::*;
    use crate::model::game::Game;
    use crate::search::bound::INF;

    /// [`build_unit`] gives [`Searcher::build`]'s tree whatever the chase
    /// left: no class solved (every guess a tie settled by a search), every
    /// class solved (guesses passed or built from their costs), or every
    /// other guess solved.
    #[test]
    fn build_unit_is_build() {
        let mut ties = 0;
        for name in ["moo:4x6", "mm:4x4", "moo:3x8", "mm:3x5", "mm:2x9"] {
            let game = Game::new(name.parse().unwrap());
            let config = Config::default();
            let p =
                super::super::plan(&game, config.clone(), Driver::sequential(), INF, 1).unwrap();
            for i in 0..p.units.len() {
                let searcher = Searcher::new(&game, config.clone()).unwrap();
                let g = p.guesses[p.units[i].guess].guess;
                let stab = root_stabilizer(&game).fix(game.codes().symbols(g));
                let set = unit_set(&game, &p, i);
                let dc = searcher.cx().clamp(set.len(), p.depth - 1);
                if dc < 2 || set.len() < 2 {
                    continue;
                }
                let Outcome::Exact(cost) = searcher.solve(&set, dc, &stab, INF, usize::MAX) else {
                    continue;
                };
                let want = searcher.build(&set, dc, &stab, cost);
                let own = searcher.cx().own_of(&set, dc);
                for solved in [|_: usize| false, |_: usize| true, |j: usize| j % 2 == 1] {
                    let seconds: Vec<Second> = seconds_of(&searcher, &set, dc, &stab, INF)
                        .into_iter()
                        .enumerate()
                        .map(|(j, h)| {
                            let mut s = Second::new(&searcher, &set, dc, h.guess, own);
                            if solved(j) {
                                for (k, c) in s.classes.iter().enumerate() {
                                    let Outcome::Exact(v) = searcher.solve(
                                        c,
                                        dc - 1,
                                        &child_of(&game, &stab, h.guess),
                                        INF,
                                        usize::MAX,
                                    ) else {
                                        panic!("{name} unit {i}: a class with no tree");
                                    };
                                    s.lower[k] = v;
                                    s.solved[k] = true;
                                }
                            }
                            s
                        })
                        .collect();
                    ties += seconds
                        .iter()
                        .take_while(|h| !(h.exact() && h.bound() == cost))
                        .filter(|h| !h.exact() && h.bound() <= cost)
                        .count();
                    let fresh = Searcher::new(&game, config.clone()).unwrap();
                    let got = build_unit(&fresh, &set, dc, &stab, &seconds, cost);
                    assert_eq!(got, want, "{name} unit {i}");
                }
            }
        }
        assert!(ties > 20, "only {ties} ties settled by a search");
    }

    /// The stabilizer below guess `g`.
    fn child_of(game: &Game, stab: &Stabilizer, g: Code) -> Stabilizer {
        stab.fix(game.codes().symbols(g))
    }
}
