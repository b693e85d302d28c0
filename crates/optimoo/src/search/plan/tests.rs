//! The plan against `solve`: every unit run, the tree assembled, the same
//! tree and cost.

use super::*;
use crate::search::bound::Cost;
use crate::tree::Tree;

/// Plan (depth 1 and 2), every unit, decide, assemble: the tree and
/// cost of `solve`, and each subtree's cost recomputed from the tree.
#[test]
fn assembled_trees_are_solves() {
    for (name, cap, cost, depth) in [
        ("moo:3x5", None, Cost::Total, 1),
        ("mm:3x3", Some(3), Cost::Total, 1),
        ("mm:3x3", Some(4), Cost::Crush, 1),
        ("moo:4x5", Some(4), Cost::Total, 1),
        ("mm:4x4", None, Cost::Total, 2),
        ("moo:4x6", Some(5), Cost::Crush, 2),
    ] {
        let game = Game::new(name.parse().unwrap());
        let config = Config {
            cap,
            objective: cost,
            ..Config::default()
        };
        let want = crate::search::solve(&game, config.clone()).unwrap();
        // An upper bound above the optimum, as loose as a heuristic's (the
        // command line takes the best heuristic tree's cost), so that
        // several first guesses are planned.
        let limit = want.cost + want.cost / 10;
        let p = plan(&game, config.clone(), Driver::sequential(), limit, depth).unwrap();
        if depth == 2 {
            assert!(p.units.iter().any(|u| u.second.is_some()), "{name}");
        }
        let bounds = bounds(&game, cost);
        let mut known = Vec::new();
        let mut results = Vec::new();
        for i in 0..p.units.len() {
            let cutoff = p.cutoff(i, limit);
            let (r, _) =
                solve_unit(&game, config.clone(), Driver::sequential(), &p, i, cutoff).unwrap();
            if let (Outcome::Exact(c), Some(node)) = (r.outcome(), r.subtree()) {
                let set = unit_set(&game, &p, i);
                let d = p.depth - 1;
                assert_eq!(subtree_cost(&game, &bounds, &set, d, node), Ok(c));
                let mut codes = Vec::new();
                encode_subtree(&game, &set, node, &mut codes);
                assert_eq!(decode_subtree(&game, &set, d, &codes).as_ref(), Ok(node));
            }
            known.push(Some(r.outcome()));
            results.push(r);
        }
        match decide(&p, &known) {
            Decision::Optimal(g, c) => {
                assert_eq!(c, want.cost, "{name}");
                let tree = Tree {
                    rules: game.rules(),
                    root: assemble(&p, g, &known, &results).unwrap(),
                };
                assert_eq!(Some(tree), want.tree, "{name}");
                assert_eq!(p.anytime(&known, limit), (c, c));
            }
            Decision::Infeasible => assert_eq!(want.cost, INF, "{name}"),
            Decision::Undecided(u) => panic!("{name}: undecided, units {u:?}"),
        }
    }
}

/// Decoding refuses what no optimal subtree holds, before it can recurse
/// without end: a guess that splits nothing, more guesses than secrets, a
/// path deeper than the bound.
#[test]
fn decoding_refuses_useless_guesses_and_deep_paths() {
    // mm:1x36: each guess wins or leaves the others in one class, so
    // guessing 0, 1, ..., 34 is a path of 36 levels that splits each time.
    let game = Game::new("mm:1x36".parse().unwrap());
    let all = game.all_codes();
    let chain: Vec<u16> = (0..35).collect();
    let node = subtree::decode_within(&game, &all, 40, 36, &chain).unwrap();
    assert_eq!(node.guess, Code(0));
    let err = subtree::decode_within(&game, &all, 40, 10, &chain).unwrap_err();
    assert!(err.contains("deeper than 10 guesses"), "{err}");
    let err = subtree::decode_within(&game, &all, 30, 255, &chain).unwrap_err();
    assert!(err.contains("cap"), "{err}");
    // A guess outside a set that all its secrets answer alike.
    let game = Game::new("mm:2x3".parse().unwrap());
    let all = game.all_codes();
    let classes = partition::split(&game, Code(0), &all);
    let (_, set) = classes
        .iter()
        .find(|(_, c)| !c.contains(&Code(0)) && c.len() > 2)
        .unwrap();
    let useless = (0..game.len() as u16)
        .find(|&g| {
            let parts = partition::split(&game, Code(g), set);
            parts.len() == 1 && !set.contains(&Code(g))
        })
        .unwrap();
    let mut codes = vec![useless];
    let mut rest = Vec::new();
    first_secret(&game, set, &mut rest);
    codes.extend(&rest);
    assert!(codes.len() < set.len(), "{codes:?}");
    let err = decode_subtree(&game, set, 10, &codes).unwrap_err();
    assert!(err.contains("does not split"), "{err}");
    assert!(decode_subtree(&game, set, 10, &rest).is_ok());
    // More guesses than secrets.
    let err = decode_subtree(&game, set, 10, &vec![useless; set.len()]).unwrap_err();
    assert!(err.contains("guesses for"), "{err}");
}

/// Encodes the subtree that guesses the first secret of each set.
fn first_secret(game: &Game, set: &[Code], out: &mut Vec<u16>) {
    if set.len() == 1 {
        return;
    }
    out.push(set[0].0);
    for (f, c) in partition::split(game, set[0], set) {
        if f != game.win() {
            first_secret(game, &c, out);
        }
    }
}

/// The two-level bounds of a plan are lower bounds: each class's bound is
/// at most the class's exact cost, each first guess's bound at most its
/// exact cost, and the plan's lower bound at most the optimum; each class
/// bound is at least the class's one-step lookahead bound, and above it
/// for many classes of these games. Depths 1 and 2 bound alike before any
/// unit is done.
#[test]
fn two_level_bounds_never_exceed_exact_costs() {
    let mut above = 0;
    for (name, cap, cost) in [
        ("moo:4x6", None, Cost::Total),
        ("mm:4x4", None, Cost::Total),
        ("mm:3x5", Some(4), Cost::Total),
        ("moo:3x8", None, Cost::Total),
        ("mm:2x9", None, Cost::Total),
        ("moo:4x5", Some(4), Cost::Crush),
        ("mm:5x2", None, Cost::Total),
    ] {
        let game = Game::new(name.parse().unwrap());
        let config = Config {
            cap,
            objective: cost,
            ..Config::default()
        };
        let want = crate::search::solve(&game, config.clone()).unwrap();
        let searcher = Searcher::new(&game, config.clone()).unwrap();
        // One-step bounds from a searcher that solves nothing (a memo that
        // knows exact costs would give them instead).
        let bounder = Searcher::new(&game, config.clone()).unwrap();
        for limit in [INF, want.cost + want.cost / 10] {
            let one = plan(&game, config.clone(), Driver::sequential(), limit, 1).unwrap();
            let two = plan(&game, config.clone(), Driver::sequential(), limit, 2).unwrap();
            assert_eq!(one.guesses, two.guesses, "{name}");
            let (lower, _) = two.anytime(&vec![None; two.units.len()], INF);
            let (lower_one, _) = one.anytime(&vec![None; one.units.len()], INF);
            assert_eq!(lower, lower_one, "{name}");
            assert!(lower <= want.cost, "{name}: {lower} > {}", want.cost);
            let d = two.depth - 1;
            for (g, a) in two.guesses.iter().enumerate() {
                let stab = root_stabilizer(&game).fix(game.codes().symbols(a.guess));
                let mut exact = searcher.cx().own_of(&game.all_codes(), two.depth);
                for r in two
                    .classes()
                    .into_iter()
                    .filter(|r| two.units[r.start].guess == g)
                {
                    let u = &two.units[r.start];
                    let set = unit_set(&game, &two, r.start);
                    let c = match searcher.solve(&set, d, &stab, INF, usize::MAX) {
                        Outcome::Exact(c) => c,
                        Outcome::AtLeast(_) => INF,
                    };
                    assert!(
                        u.lower <= c,
                        "{name} {:?} {:?}: {} > {c}",
                        a.guess,
                        u.answer,
                        u.lower
                    );
                    let one_step = bounder
                        .cx()
                        .class_bound(bounder.memo(), &set, d, &stab, INF)
                        .max(bounder.cx().bounds.lower(set.len(), d));
                    assert!(u.lower >= one_step, "{name} {:?} {:?}", a.guess, u.answer);
                    above += usize::from(u.lower > one_step);
                    exact = exact.saturating_add(c).min(INF);
                }
                assert!(
                    a.bound <= exact,
                    "{name} {:?}: {} > {exact}",
                    a.guess,
                    a.bound
                );
            }
        }
    }
    assert!(
        above >= 10,
        "the two-level bound is above the one-step one for {above} classes"
    );
}

/// Unit `i` by [`bound_unit`] on one thread.
fn run_unit(
    game: &Game,
    config: &Config,
    p: &Plan,
    i: usize,
    cutoff: u64,
    effort: Effort<'_>,
) -> UnitResult {
    let driver = Driver::sequential();
    bound_unit(game, config.clone(), driver, p, i, cutoff, effort)
        .unwrap()
        .0
}

/// The best-first unit solver: with time enough, the result of
/// `solve_unit` (the same exact cost and subtree, or a bound at least the
/// cut-off); with a deadline already passed or close, a bound between the
/// plan's own bound for the class and its exact cost.
#[test]
fn bound_unit_is_solve_unit_or_a_lower_bound() {
    use std::time::{Duration, Instant};
    for name in [
        "moo:4x6", "mm:4x4", "moo:3x8", "mm:2x9", "mm:3x5", "moo:5x5",
    ] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let want = crate::search::solve(&game, config.clone()).unwrap();
        for limit in [INF, want.cost + want.cost / 20] {
            let p = plan(&game, config.clone(), Driver::sequential(), limit, 1).unwrap();
            for i in 0..p.units.len() {
                let cutoff = p.cutoff(i, limit);
                let (plain, _) =
                    solve_unit(&game, config.clone(), Driver::sequential(), &p, i, cutoff).unwrap();
                // The unit by the best-first solver, with that deadline and
                // chase step.
                let chase_from = |deadline: Instant, step: u64, estimate_min: usize| {
                    let effort = Effort {
                        chase_step: step,
                        estimate_min,
                        ..Effort::until(deadline, Depth::Exact)
                    };
                    run_unit(&game, &config, &p, i, cutoff, effort)
                };
                let chase = |deadline: Instant, step: u64| chase_from(deadline, step, 1);
                let later = Instant::now() + Duration::from_secs(3600);
                // Any chase step: the whole class at once (1), the default,
                // and none beyond the next least guess (u64::MAX); the
                // open classes chosen by their estimated room (every
                // choice: these games' classes are far below
                // ESTIMATE_MIN) or always the smallest first.
                for (step, estimate_min) in [
                    (1, 1),
                    (CHASE_STEP, 1),
                    (u64::MAX, 1),
                    (CHASE_STEP, usize::MAX),
                    (u64::MAX, usize::MAX),
                ] {
                    let ours = chase_from(later, step, estimate_min);
                    match plain.outcome() {
                        Outcome::Exact(_) => {
                            assert_eq!(ours, plain, "{name} unit {i}, step {step}, {estimate_min}")
                        }
                        Outcome::AtLeast(_) => match ours.outcome() {
                            Outcome::AtLeast(b) => assert!(b >= cutoff, "{name} unit {i}"),
                            Outcome::Exact(c) => {
                                panic!("{name} unit {i}: exact {c} above the cut-off")
                            }
                        },
                    }
                }
                let exact =
                    match solve_unit(&game, config.clone(), Driver::sequential(), &p, i, INF)
                        .unwrap()
                        .0
                        .outcome()
                    {
                        Outcome::Exact(c) => c,
                        Outcome::AtLeast(_) => INF,
                    };
                for (wait, step) in [(0, CHASE_STEP), (1, 1), (3, CHASE_STEP), (3, u64::MAX)] {
                    let r = chase(Instant::now() + Duration::from_millis(wait), step);
                    match r.outcome() {
                        Outcome::Exact(c) => assert_eq!(c, exact, "{name} unit {i}"),
                        Outcome::AtLeast(b) => {
                            assert!(b >= p.units[i].lower, "{name} unit {i}");
                            assert!(b <= exact, "{name} unit {i}: {b} > {exact}");
                        }
                    }
                }
            }
        }
    }
}

/// The plain two-level bound of `set`: every guess of the search's order,
/// each class raised by its full one-step lookahead (no limits, no early
/// stop). The reference for [`two_level`]'s cut-offs.
fn two_level_plain(searcher: &Searcher<'_>, set: &[Code], d: usize, stab: &Stabilizer) -> u64 {
    down_plain(searcher, set, d, stab, 2)
}

/// The plain bound of `set` `levels` guesses down: every guess of the
/// search's order, each class raised by its full one-step lookahead and,
/// for classes of 3 secrets or more with 2 guesses left, by its own plain
/// bound `levels − 1` down (no limits, no early stop). The reference for
/// [`levels_down`].
fn down_plain(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    levels: usize,
) -> u64 {
    plain(searcher, set, d, stab, levels, false)
}

/// The plain bound of a unit's set `levels` guesses down, as
/// [`bound_unit`] builds it: [`down_plain`] with each class's bound
/// counted from the set's own lower bound (`lower_of`) rather than the
/// level bound of its size.
fn unit_levels_plain(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    levels: usize,
) -> u64 {
    plain(searcher, set, d, stab, levels, true)
}

/// [`down_plain`] (`unit` false) and [`unit_levels_plain`] (true).
fn plain(
    searcher: &Searcher<'_>,
    set: &[Code],
    d: usize,
    stab: &Stabilizer,
    levels: usize,
    unit: bool,
) -> u64 {
    let game = searcher.cx().game;
    let mut best = INF;
    for h in seconds_of(searcher, set, d, stab, INF) {
        let child = stab.fix(game.codes().symbols(h.guess));
        let mut b = h.bound;
        for (_, sub) in searcher.classes(set, h.guess) {
            let lower = if unit {
                searcher.cx().lower_of(&sub, d - 1)
            } else {
                searcher.cx().bounds.lower(sub.len(), d - 1)
            };
            let mut r = searcher
                .cx()
                .class_bound(searcher.memo(), &sub, d - 1, &child, INF)
                .max(lower);
            let ds = searcher.cx().clamp(sub.len(), d - 1);
            if levels > 2 && sub.len() >= 3 && ds >= 2 {
                r = r.max(plain(searcher, &sub, ds, &child, levels - 1, false));
            }
            b = b.saturating_add(r - lower).min(INF);
        }
        best = best.min(b);
    }
    best
}

/// The best-first bound three guesses down ([`Depth::Levels(3)`]) is
/// the plain recursion's value (or at least the cut-off when that is
/// not below it), at most the unit's exact cost and at least the plan's
/// two-level bound; and the plan's two-level bounds are the plain ones.
/// A sweep with the extremes: many symbols (mm:2x16, moo:2x16), few
/// (mm:5x2), one position (mm:1x36).
#[test]
fn three_level_bounds_are_the_plain_recursion() {
    use std::time::{Duration, Instant};
    let mut above = 0;
    let mut told_some = false;
    for name in [
        "moo:4x6", "mm:4x4", "moo:3x8", "mm:2x9", "mm:3x5", "moo:5x5", "mm:2x16", "moo:2x16",
        "mm:5x2", "mm:1x36",
    ] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let want = crate::search::solve(&game, config.clone()).unwrap();
        for limit in [INF, want.cost + want.cost / 20] {
            let p = plan(&game, config.clone(), Driver::sequential(), limit, 1).unwrap();
            let d = p.depth - 1;
            for i in 0..p.units.len() {
                let u = &p.units[i];
                let stab =
                    root_stabilizer(&game).fix(game.codes().symbols(p.guesses[u.guess].guess));
                let set = unit_set(&game, &p, i);
                let dc = Searcher::new(&game, config.clone())
                    .unwrap()
                    .cx()
                    .clamp(set.len(), d);
                let cutoff = p.cutoff(i, limit);
                let later = Instant::now() + Duration::from_secs(3600);
                let told = std::sync::Mutex::new(Vec::new());
                let tell = |b: u64, nodes: u64| told.lock().unwrap().push((b, nodes));
                let (r, all_nodes) = bound_unit(
                    &game,
                    config.clone(),
                    Driver::sequential(),
                    &p,
                    i,
                    cutoff,
                    Effort {
                        on_bound: Some(&tell),
                        ..Effort::until(later, Depth::Levels(3))
                    },
                )
                .unwrap();
                // Each bound told is proven, higher than the last, below
                // the cut-off and at most the result; the nodes told with
                // it never fall and are at most the run's.
                let (told, nodes): (Vec<u64>, Vec<u64>) =
                    told.into_inner().unwrap().into_iter().unzip();
                assert!(
                    nodes.windows(2).all(|w| w[0] <= w[1]) && nodes.iter().all(|&n| n <= all_nodes),
                    "{name} unit {i}: nodes told {nodes:?}, of {all_nodes}"
                );
                assert!(
                    told.windows(2).all(|w| w[0] < w[1]),
                    "{name} unit {i}: {told:?}"
                );
                assert!(
                    told.iter()
                        .all(|&t| t > u.lower && t < cutoff && t <= r.outcome().value()),
                    "{name} unit {i}: {told:?}, {}",
                    r.outcome()
                );
                told_some |= !told.is_empty();
                let exact =
                    match solve_unit(&game, config.clone(), Driver::sequential(), &p, i, INF)
                        .unwrap()
                        .0
                        .outcome()
                    {
                        Outcome::Exact(c) => c,
                        Outcome::AtLeast(_) => INF,
                    };
                let b = match r.outcome() {
                    // Units too small to be bounded are solved.
                    Outcome::Exact(c) => {
                        assert_eq!(c, exact, "{name} unit {i}");
                        continue;
                    }
                    Outcome::AtLeast(b) => b,
                };
                assert!(b <= exact, "{name} unit {i}: {b} > {exact}");
                assert!(b >= u.lower, "{name} unit {i}: {b} < {}", u.lower);
                if limit >= INF && set.len() >= SPLIT_MIN && dc >= 2 {
                    // The plan's cut-offs in `two_level` change nothing.
                    let fresh = Searcher::new(&game, config.clone()).unwrap();
                    let one = fresh
                        .cx()
                        .class_bound(fresh.memo(), &set, d, &stab, INF)
                        .max(fresh.cx().bounds.lower(set.len(), d));
                    let two = two_level_plain(&fresh, &set, dc, &stab);
                    assert_eq!(u.lower, two.max(one), "{name} unit {i}");
                }
                let fresh = Searcher::new(&game, config.clone()).unwrap();
                let plain = unit_levels_plain(&fresh, &set, dc, &stab, 3).max(u.lower);
                if plain < cutoff {
                    assert_eq!(b, plain, "{name} unit {i}");
                } else {
                    assert!(b >= cutoff, "{name} unit {i}: {b} < cut-off {cutoff}");
                }
                above += usize::from(b > u.lower);
            }
        }
    }
    assert!(above >= 20, "{above} units raised above the plan's bound");
    assert!(told_some, "no bound was told while a unit ran");
}

/// A run resumed from any point of another ([`UnitProgress`], handed out at
/// every step) ends where a fresh run does: the same three-level bound,
/// the same exact cost and subtree; also when the earlier run had a lower
/// cut-off (its classes raised two levels are raised again) or a higher
/// one, and after a run of [`Depth::Levels(3)`] resumed to the exact
/// cost. The extremes: many symbols (mm:2x16), few (mm:5x2).
#[test]
fn resumed_runs_end_where_fresh_ones_do() {
    use std::time::{Duration, Instant};
    let mut resumed = 0;
    for name in ["moo:4x6", "mm:4x4", "moo:5x5", "mm:2x16", "mm:5x2"] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let want = crate::search::solve(&game, config.clone()).unwrap();
        let p = plan(&game, config.clone(), Driver::sequential(), INF, 1).unwrap();
        let later = Instant::now() + Duration::from_secs(3600);
        let run = |i: usize, cutoff: u64, depth: Depth, from: Option<&UnitProgress>| {
            let kept = std::sync::Mutex::new(Vec::new());
            let keep = |p: &UnitProgress| kept.lock().unwrap().push(p.clone());
            let effort = Effort {
                resume: from,
                keep: Some(Keep {
                    every: Duration::ZERO,
                    progress: &keep,
                }),
                ..Effort::until(later, depth)
            };
            let r = run_unit(&game, &config, &p, i, cutoff, effort);
            (r, kept.into_inner().unwrap())
        };
        for i in 0..p.units.len() {
            // The plan's cut-off above the optimum, and one halfway from
            // the plan's bound to the three-level bound (the unit refuted,
            // classes raised two levels only up to what refutes their
            // guess).
            let (free, _) = run(i, INF, Depth::Levels(3), None);
            let mid = (p.units[i].lower + free.outcome().value()).div_ceil(2);
            let tight = p.cutoff(i, want.cost + want.cost / 50);
            for (cutoff, other) in [(INF, tight), (tight, INF), (INF, mid), (mid, INF)] {
                let (three, steps) = run(i, cutoff, Depth::Levels(3), None);
                let (exact, _) = run(i, cutoff, Depth::Exact, None);
                let (_, elsewhere) = run(i, other, Depth::Levels(3), None);
                // Every kept progress claims only true bounds.
                for s in steps.iter().chain(&elsewhere) {
                    for h in &s.seconds {
                        assert!(h.classes.iter().all(|c| c.lower < INF), "{name} unit {i}");
                    }
                }
                let n = steps.len();
                let picks = [0, n / 3, n / 2, n.saturating_sub(1)];
                let others = [elsewhere.len() / 2, elsewhere.len().saturating_sub(1)];
                let froms = picks
                    .iter()
                    .filter_map(|&j| steps.get(j))
                    .chain(others.iter().filter_map(|&j| elsewhere.get(j)));
                // A unit refuted: any bound at least the cut-off (which
                // one depends on the order the bounds rose in).
                let same = |r: &UnitResult, want: &UnitResult| {
                    let (a, b) = (r.outcome(), want.outcome());
                    a == b
                        || matches!((a, b), (Outcome::AtLeast(x), Outcome::AtLeast(y))
                            if x >= cutoff && y >= cutoff)
                };
                for from in froms {
                    let (r, _) = run(i, cutoff, Depth::Levels(3), Some(from));
                    assert!(
                        same(&r, &three),
                        "{name} unit {i} cut-off {cutoff}: {} not {}",
                        r.outcome(),
                        three.outcome()
                    );
                    let (r, _) = run(i, cutoff, Depth::Exact, Some(from));
                    assert!(same(&r, &exact), "{name} unit {i} cut-off {cutoff}");
                    assert_eq!(r.subtree(), exact.subtree(), "{name} unit {i}");
                    resumed += 1;
                }
            }
        }
    }
    assert!(resumed >= 100, "only {resumed} runs resumed");
}

/// Four guesses down ([`Depth::Levels`]`(4)`): the plain recursion's
/// value (or at least the cut-off when that is not below it), at least
/// the three-level bound and at most the exact cost, on every unit of a
/// sweep with the extremes (mm:2x16, moo:2x16, mm:5x2, mm:1x36); and above
/// the three-level bound on some.
#[test]
fn four_level_bounds_are_the_plain_recursion() {
    use std::time::{Duration, Instant};
    let mut above = 0;
    for name in [
        "moo:3x6", "mm:3x4", "moo:5x5", "mm:3x5", "moo:3x8", "mm:2x16", "moo:2x16", "mm:5x2",
        "mm:1x36",
    ] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let want = crate::search::solve(&game, config.clone()).unwrap();
        let limit = want.cost + want.cost / 20;
        let p = plan(&game, config.clone(), Driver::sequential(), limit, 1).unwrap();
        let later = Instant::now() + Duration::from_secs(3600);
        for i in 0..p.units.len() {
            let cutoff = p.cutoff(i, limit);
            let at = |k: u8| {
                run_unit(
                    &game,
                    &config,
                    &p,
                    i,
                    cutoff,
                    Effort::until(later, Depth::Levels(k)),
                )
                .outcome()
            };
            let (three, four) = (at(3), at(4));
            let exact = solve_unit(&game, config.clone(), Driver::sequential(), &p, i, INF)
                .unwrap()
                .0
                .outcome()
                .value();
            let b = match four {
                Outcome::Exact(c) => {
                    assert_eq!(c, exact, "{name} unit {i}");
                    continue;
                }
                Outcome::AtLeast(b) => b,
            };
            assert!(b <= exact, "{name} unit {i}: {b} > {exact}");
            assert!(
                b >= three.value().min(cutoff),
                "{name} unit {i}: {b} < {three}"
            );
            let u = &p.units[i];
            let stab = root_stabilizer(&game).fix(game.codes().symbols(p.guesses[u.guess].guess));
            let set = unit_set(&game, &p, i);
            let fresh = Searcher::new(&game, config.clone()).unwrap();
            let dc = fresh.cx().clamp(set.len(), p.depth - 1);
            let plain = unit_levels_plain(&fresh, &set, dc, &stab, 4).max(u.lower);
            if plain < cutoff {
                assert_eq!(b, plain, "{name} unit {i}");
            } else {
                assert!(b >= cutoff, "{name} unit {i}: {b} < cut-off {cutoff}");
            }
            above += usize::from(b > three.value());
        }
    }
    assert!(above >= 5, "{above} units raised above three levels");
}

/// The trace of a best-first run (`work --trace`): every step is told,
/// each with the unit's proven bound after it, which never falls, stays
/// at least the plan's bound and at most the result; each class's bound
/// never falls in a step, a searched class rises to at least its cut-off
/// unless it is solved, and the last bound told is at most the run's
/// result when it is exact. Hearing the steps changes nothing: the same result as a
/// run told nothing.
#[test]
fn the_trace_tells_every_step() {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    for name in ["moo:4x6", "mm:3x5", "moo:5x5"] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let p = plan(&game, config.clone(), Driver::sequential(), INF, 1).unwrap();
        let mut searched = 0;
        for i in 0..p.units.len() {
            let cutoff = p.cutoff(i, INF);
            let later = Instant::now() + Duration::from_secs(3600);
            let steps: Mutex<Vec<Step>> = Mutex::new(Vec::new());
            let tell = |s: &Step| steps.lock().unwrap().push(s.clone());
            let heard = run_unit(
                &game,
                &config,
                &p,
                i,
                cutoff,
                Effort {
                    on_step: Some(&tell),
                    ..Effort::until(later, Depth::Exact)
                },
            );
            let plain = run_unit(
                &game,
                &config,
                &p,
                i,
                cutoff,
                Effort::until(later, Depth::Exact),
            );
            assert_eq!(heard, plain, "{name} unit {i}");
            let steps = steps.into_inner().unwrap();
            let mut last = p.units[i].lower;
            for (j, s) in steps.iter().enumerate() {
                assert!(s.proven >= last, "{name} unit {i}: {s:?}");
                assert!(s.after >= s.before, "{name} unit {i}: {s:?}");
                if s.kind == StepKind::Search {
                    searched += 1;
                    assert!(s.exact || s.after >= s.cutoff, "{name} unit {i}: {s:?}");
                    // Told as it began: the same guess, class and cut-off.
                    let begun = &steps[j - 1];
                    assert_eq!(begun.kind, StepKind::Begin, "{name} unit {i}: {s:?}");
                    let what = |s: &Step| (s.guess, s.secrets, s.before, s.cutoff);
                    assert_eq!(what(begun), what(s), "{name} unit {i}");
                }
                if s.kind == StepKind::Begin {
                    assert_eq!(steps.get(j + 1).map(|s| s.kind), Some(StepKind::Search));
                }
                last = s.proven;
            }
            if let Outcome::Exact(c) = heard.outcome() {
                assert!(last <= c, "{name} unit {i}");
            }
        }
        assert!(searched > 0, "{name}: no class searched");
    }
}

/// The interrupt of [`Effort`]: a flag set before the run stops it where a
/// deadline already passed does (the same result); one set after `k` steps
/// (from the trace) leaves a bound between the plan's and the exact cost;
/// one never set changes nothing.
#[test]
fn an_interrupt_is_a_deadline_that_comes_now() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};
    for name in ["moo:4x6", "mm:4x4", "moo:3x8", "mm:2x9", "moo:5x5"] {
        let game = Game::new(name.parse().unwrap());
        let config = Config::default();
        let p = plan(&game, config.clone(), Driver::sequential(), INF, 1).unwrap();
        for i in 0..p.units.len() {
            let later = Instant::now() + Duration::from_secs(3600);
            let exact = solve_unit(&game, config.clone(), Driver::sequential(), &p, i, INF)
                .unwrap()
                .0;
            let never = AtomicBool::new(false);
            let unset = Effort {
                interrupt: Some(&never),
                ..Effort::until(later, Depth::Exact)
            };
            assert_eq!(
                run_unit(&game, &config, &p, i, INF, unset),
                exact,
                "{name} {i}"
            );
            let set = AtomicBool::new(true);
            let at_once = Effort {
                interrupt: Some(&set),
                ..Effort::until(later, Depth::Exact)
            };
            let passed = Effort::until(Instant::now(), Depth::Exact);
            assert_eq!(
                run_unit(&game, &config, &p, i, INF, at_once),
                run_unit(&game, &config, &p, i, INF, passed),
                "{name} unit {i}"
            );
            let Outcome::Exact(cost) = exact.outcome() else {
                panic!("{name} unit {i}: no exact cost without a cut-off");
            };
            for k in [1, 2, 5] {
                let flag = AtomicBool::new(false);
                let steps = AtomicUsize::new(0);
                let count = |_: &Step| {
                    if steps.fetch_add(1, Ordering::Relaxed) + 1 >= k {
                        flag.store(true, Ordering::Relaxed);
                    }
                };
                let effort = Effort {
                    interrupt: Some(&flag),
                    on_step: Some(&count),
                    ..Effort::until(later, Depth::Exact)
                };
                let r = run_unit(&game, &config, &p, i, INF, effort);
                match r.outcome() {
                    Outcome::Exact(c) => assert_eq!(c, cost, "{name} unit {i}, {k} steps"),
                    Outcome::AtLeast(b) => {
                        assert!(b >= p.units[i].lower, "{name} unit {i}, {k} steps");
                        assert!(b <= cost, "{name} unit {i}, {k} steps: {b} > {cost}");
                    }
                }
            }
        }
    }
}
