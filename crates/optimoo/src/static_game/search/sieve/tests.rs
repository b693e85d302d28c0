//! Tests of the sieve, the killers and the stash against plain
//! recomputations on sweeps of games.

use super::super::alive::Alive;
use super::super::classes::Partition;
use super::super::{Classes, Shared, StaticConfig, Task};
use super::Weigh;
use crate::model::game::Game;
use crate::rng::SplitMix64;
use std::sync::atomic::AtomicUsize;

/// A search state of `game` on one thread, without the local search.
fn quiet(game: &Game, least_pair: bool) -> Shared<'_> {
    let config = StaticConfig {
        least_pair,
        local_iterations: 0,
        ..StaticConfig::default()
    };
    Shared::quiet(game, config)
}

/// A node of one or two guesses drawn in code order (from the first
/// half of the guesses the cut admits), the task's killers forgotten: its
/// classes, and the index after its last guess.
fn random_node(task: &mut Task<'_, '_>, rng: &mut SplitMix64) -> (Classes, usize) {
    let guesses = 1 + rng.below(2);
    node_of(task, rng, guesses)
}

/// [`random_node`] of `guesses` guesses (fewer when the cut leaves too
/// few to draw from).
fn node_of(task: &mut Task<'_, '_>, rng: &mut SplitMix64, guesses: usize) -> (Classes, usize) {
    let m = task.ctx.m;
    task.chosen.clear();
    task.sieve.forget_killers();
    let mut classes = task.ctx.root_classes();
    let mut from = 0;
    for _ in 0..guesses {
        let choices: Vec<usize> = (from..m).filter(|&g| task.admits(g)).collect();
        if choices.len() < 4 {
            break;
        }
        let g = choices[rng.below(choices.len() / 2)];
        classes = task.refine(&classes, g, u64::MAX).unwrap();
        task.push(g);
        from = g + 1;
    }
    (classes, from)
}

/// At nodes with two guesses left (random chosen guesses in code
/// order, with and without the least-pair cut, on games with few and
/// many symbols and positions, sifting through the cache of
/// intersections and without it), the sieve then the full test gives,
/// for every next-to-last guess, the same last guess as the full test
/// alone; and when the sieve's weighing says no completion exists,
/// the full test finds none for any next-to-last guess.
#[test]
fn the_sieve_keeps_what_the_full_test_finds() {
    let mut rng = SplitMix64::new(11);
    let mut compared = 0;
    let mut found = 0;
    let mut dead = 0;
    let mut carried = 0;
    for rules in [
        "mm:3x4", "moo:3x6", "mm:2x9", "moo:4x6", "mm:5x3", "moo:2x8",
    ] {
        let game = Game::new(rules.parse().unwrap());
        // Both ways of sifting: through the cache, and word by word.
        for (least_pair, words) in [
            (true, 0),
            (false, 0),
            (true, usize::MAX),
            (false, usize::MAX),
        ] {
            let mut ctx = quiet(&game, least_pair);
            ctx.sieve_words = words;
            let found_by = AtomicUsize::new(usize::MAX);
            // One task for every node, as in a search: nothing a node
            // leaves in the sieve (its killers) may reach the next.
            let mut task = ctx.task(0, &found_by);
            for _ in 0..40 {
                task.chosen.clear();
                let mut classes = ctx.root_classes();
                let chosen = rng.below(3);
                let mut from = 0;
                let mut ok = true;
                for _ in 0..chosen {
                    let choices: Vec<usize> = (from..ctx.m).filter(|&g| task.admits(g)).collect();
                    if choices.len() < 3 {
                        ok = false;
                        break;
                    }
                    let g = choices[rng.below(choices.len() / 2)];
                    classes = task.refine(&classes, g, u64::MAX).unwrap();
                    task.push(g);
                    from = g + 1;
                }
                if !ok {
                    continue;
                }
                // Siblings: nodes that differ in their last guess
                // only, so that killers met at one are still pairs of
                // one class at the next (kept), while the draws
                // above change the whole prefix (killers dropped).
                let choices: Vec<usize> = (from..ctx.m).filter(|&g| task.admits(g)).collect();
                for _ in 0..3.min(choices.len() / 2) {
                    let g = choices[rng.below(choices.len() / 2)];
                    let sibling = task.refine(&classes, g, u64::MAX).unwrap();
                    task.push(g);
                    if !sibling.is_empty() {
                        let pool = task.pool_from(g + 1);
                        let least = task.weigh(&mut &sibling, &pool, Weigh::Branching);
                        carried += task.sieve.killers.len();
                        for x in g + 1..ctx.m {
                            if !task.admits(x) {
                                continue;
                            }
                            let plain = task.last_after(&sibling, x);
                            if least == 0 {
                                assert_eq!(plain, None, "{rules}: weighed dead");
                                dead += 1;
                                continue;
                            }
                            let sifted = task.last_sifted(&mut &sibling, x, &pool, x + 1);
                            assert_eq!(sifted, plain, "{rules}: next to last {x}");
                            compared += 1;
                            found += usize::from(plain.is_some());
                        }
                    }
                    task.chosen.pop();
                }
            }
        }
    }
    assert!(compared > 10000, "only {compared} compared");
    // Nodes with completions: a killer wrongly kept would lose some.
    assert!(found > 1000, "only {found} completions compared");
    assert!(dead > 0, "no node weighed dead");
    // Killers kept from a sibling were tried (a wrong one is caught
    // by the comparisons above).
    assert!(
        carried > 100,
        "only {carried} killers kept from a node to the next"
    );
}

/// The branch sifted at once (`Sieve::sift_branch`, the trie of the
/// masks) against each of its guesses sifted alone (`Sieve::sift`, with
/// the cache of intersections and without it), as the search tries
/// them (each guess of the branch up to it out of the pool): the same
/// candidates for every guess. At random nodes of seven games (few and
/// many symbols and positions, pools of one word to fourteen), with and
/// without the least-pair cut, branching on a pair of the node's
/// classes and on a stashed one (a child of a node weighed with every
/// pair).
#[test]
fn the_branch_sifted_at_once_is_each_guess_sifted() {
    // The guesses compared, those with candidates, and whether the
    // branch's pair is a stashed one, at one node weighed to branch on.
    fn compare(
        task: &mut Task<'_, '_>,
        node: &Classes,
        mut pool: Vec<u64>,
        rules: &str,
    ) -> (usize, usize, usize) {
        let (ctx, m) = (task.ctx, task.ctx.m);
        let mut tally = (0, 0, 0);
        if task.weigh(&mut &*node, &pool, Weigh::Branching) == 0 {
            return tally;
        }
        tally.2 = usize::from(task.sieve.stash_pairs.contains(&task.sieve.pairs[0]));
        let branch = task.sieve.hardest();
        task.sieve.sift_branch(&branch);
        let (mut each, mut once) = (Alive::new(m), Alive::new(m));
        for (j, &x) in branch.iter().enumerate() {
            pool[x / 64] &= !(1 << (x % 64));
            let answer = |s: u16| ctx.by_secret[s as usize * m + x];
            let a = task.sieve.sift(x, answer, &pool, 0, &mut each);
            let b = task.sieve.start_sifted(j, &pool, &mut once);
            assert_eq!(a, b, "{rules}: guess {x}");
            if a {
                assert_eq!(each.candidates(), once.candidates(), "{rules}: {x}");
                tally.1 += 1;
            }
            tally.0 += 1;
        }
        tally
    }
    let mut rng = SplitMix64::new(17);
    let (mut compared, mut alive, mut stashed) = (0, 0, 0);
    for rules in [
        "mm:3x4", "moo:3x6", "mm:2x9", "moo:4x6", "mm:5x3", "moo:2x8", "moo:4x7",
    ] {
        let game = Game::new(rules.parse().unwrap());
        for (least_pair, words) in [(true, 0), (false, usize::MAX)] {
            let mut ctx = quiet(&game, least_pair);
            ctx.sieve_words = words;
            let found_by = AtomicUsize::new(usize::MAX);
            let mut task = ctx.task(0, &found_by);
            for _ in 0..15 {
                let (classes, from) = random_node(&mut task, &mut rng);
                if classes.is_empty() {
                    continue;
                }
                let pool = task.pool_from(from);
                // The node itself, then a child of it as the search
                // makes one (its branch may be a stashed pair).
                let mut tally = compare(&mut task, &classes, pool.clone(), rules);
                if task.weigh(&mut &classes, &pool, Weigh::EveryPair) != 0 {
                    let branch = task.sieve.hardest();
                    let x = branch[rng.below(branch.len())];
                    let child = task.refine(&classes, x, u64::MAX).unwrap();
                    let mut rest = pool.clone();
                    for &y in branch.iter().filter(|&&y| y <= x) {
                        rest[y / 64] &= !(1 << (y % 64));
                    }
                    task.push(x);
                    let child_pool = task.narrowed(&rest);
                    if !child.is_empty() {
                        let more = compare(&mut task, &child, child_pool, rules);
                        tally = (tally.0 + more.0, tally.1 + more.1, tally.2 + more.2);
                    }
                }
                compared += tally.0;
                alive += tally.1;
                stashed += tally.2;
            }
        }
    }
    assert!(compared > 5000, "only {compared} compared");
    assert!(alive > 500, "only {alive} guesses with candidates");
    assert!(stashed > 10, "only {stashed} stashed pairs branched on");
}

/// At children of a node weighed with every pair (random chosen
/// guesses, with and without the least-pair cut, on games of few and
/// many symbols and positions), as the search makes them (the pool
/// less the guesses branched on before, narrowed by the cut), which
/// weigh the stashed pairs their guess leaves together from the stash:
/// every pair kept is a pair of one of the child's classes, its bit set
/// is exactly the pool's guesses that separate it (read from the answer
/// rows), the guesses branched on are the first pair's and their number
/// is the weighing's answer, and no stashed pair the child leaves
/// together is harder; and the weighing calls a child dead only when a
/// pair of one of its classes has no separating guess in its pool.
#[test]
fn a_child_weighs_the_stashed_pairs_it_leaves_together() {
    let mut rng = SplitMix64::new(17);
    let mut children = 0;
    let mut stashed = 0;
    let mut dead = 0;
    for rules in [
        "moo:4x7", "mm:3x8", "moo:3x10", "moo:4x6", "mm:5x3", "mm:2x9", "moo:2x8",
    ] {
        let game = Game::new(rules.parse().unwrap());
        for least_pair in [true, false] {
            let ctx = quiet(&game, least_pair);
            let (m, n) = (ctx.m, ctx.n);
            let found_by = AtomicUsize::new(usize::MAX);
            let mut task = ctx.task(0, &found_by);
            let row = |s: u16| &ctx.by_secret[s as usize * m..(s as usize + 1) * m];
            for _ in 0..12 {
                let (classes, from) = random_node(&mut task, &mut rng);
                if classes.is_empty() {
                    continue;
                }
                let mut pool = task.pool_from(from);
                if task.weigh(&mut &classes, &pool, Weigh::EveryPair) == 0 {
                    continue;
                }
                for x in task.sieve.hardest().into_iter().take(8) {
                    pool[x / 64] &= !(1 << (x % 64));
                    let child = task.refine(&classes, x, u64::MAX).unwrap();
                    if child.is_empty() {
                        continue;
                    }
                    task.push(x);
                    let child_pool = task.narrowed(&pool);
                    let least = task.weigh(&mut &child, &child_pool, Weigh::Branching);
                    let separating = |a: u16, b: u16| -> Vec<usize> {
                        (0..m)
                            .filter(|&g| child_pool[g / 64] >> (g % 64) & 1 != 0)
                            .filter(|&g| row(a)[g] != row(b)[g])
                            .collect()
                    };
                    let mut class_of = vec![usize::MAX; n];
                    for i in 0..child.spans.len() {
                        for &s in child.class(i) {
                            class_of[s as usize] = i;
                        }
                    }
                    if least == 0 {
                        let some_pair_unseparated = (0..child.spans.len()).any(|i| {
                            let class = child.class(i);
                            class.iter().enumerate().any(|(j, &a)| {
                                class[j + 1..].iter().any(|&b| separating(a, b).is_empty())
                            })
                        });
                        assert!(some_pair_unseparated, "{rules}: a live child called dead");
                        dead += 1;
                    }
                    if least != 0 {
                        let words = task.sieve.words;
                        let bits = |set: &[usize]| {
                            let mut out = vec![0u64; words];
                            for &g in set {
                                out[g / 64] |= 1 << (g % 64);
                            }
                            out
                        };
                        for (k, &(a, b)) in task.sieve.pairs.iter().enumerate() {
                            assert_ne!(class_of[a as usize], usize::MAX, "{rules}");
                            assert_eq!(class_of[a as usize], class_of[b as usize], "{rules}");
                            let set = &task.sieve.by_pair[k * words..(k + 1) * words];
                            assert_eq!(set, &bits(&separating(a, b))[..], "{rules}: ({a}, {b})");
                            assert!(separating(a, b).len() as u32 >= least, "{rules}");
                        }
                        let (a, b) = task.sieve.pairs[0];
                        assert_eq!(task.sieve.hardest(), separating(a, b), "{rules}");
                        assert_eq!(separating(a, b).len() as u32, least, "{rules}");
                        for &(c, d) in &task.sieve.stash_pairs {
                            if class_of[c as usize] != usize::MAX
                                && class_of[c as usize] == class_of[d as usize]
                            {
                                assert!(separating(c, d).len() as u32 >= least, "{rules}");
                            }
                        }
                        stashed += usize::from(task.sieve.stash_pairs.contains(&(a, b)));
                    }
                    children += 1;
                    task.chosen.pop();
                }
            }
        }
    }
    assert!(children > 300, "only {children} children");
    assert!(
        stashed > 100,
        "only {stashed} children branched on a stashed pair"
    );
    assert!(dead > 0, "no child weighed dead");
}

/// The weighing keeps each set of separating guesses once: with
/// every pair weighed, the stash holds the hardest sets there are,
/// each the set of its own pair (the brute force over the pool), and
/// no two alike; the sieve's pairs at a node weighed in part are
/// distinct sets too, each its pair's.
#[test]
fn the_weighing_keeps_each_set_once_and_the_hardest() {
    let mut rng = SplitMix64::new(43);
    let (mut nodes, mut copies) = (0, 0);
    for rules in [
        "moo:4x7", "mm:3x8", "moo:3x10", "mm:4x4", "mm:5x3", "moo:2x8",
    ] {
        let game = Game::new(rules.parse().unwrap());
        let ctx = quiet(&game, true);
        let m = ctx.m;
        let found_by = AtomicUsize::new(usize::MAX);
        let mut task = ctx.task(0, &found_by);
        let row = |s: u16| &ctx.by_secret[s as usize * m..(s as usize + 1) * m];
        for _ in 0..10 {
            let (classes, from) = random_node(&mut task, &mut rng);
            if classes.is_empty() {
                continue;
            }
            let pool = task.pool_from(from);
            let words = pool.len();
            let set_of = |a: u16, b: u16| -> Vec<u64> {
                let mut set = vec![0u64; words];
                for g in (0..m).filter(|&g| pool[g / 64] >> (g % 64) & 1 != 0) {
                    if row(a)[g] != row(b)[g] {
                        set[g / 64] |= 1 << (g % 64);
                    }
                }
                set
            };
            let count = |set: &[u64]| set.iter().map(|w| w.count_ones()).sum::<u32>();
            let mut all: Vec<Vec<u64>> = Vec::new();
            let mut pairs = 0;
            for i in 0..classes.spans.len() {
                let class = classes.class(i);
                for (j, &a) in class.iter().enumerate() {
                    for &b in &class[j + 1..] {
                        all.push(set_of(a, b));
                        pairs += 1;
                    }
                }
            }
            let weighed = task.weigh(&mut &classes, &pool, Weigh::EveryPair);
            all.sort();
            all.dedup();
            copies += pairs - all.len();
            let mut counts: Vec<u32> = all.iter().map(|s| count(s)).collect();
            counts.sort();
            if counts[0] == 0 {
                assert_eq!(weighed, 0, "{rules}");
                continue;
            }
            assert_eq!(weighed, counts[0], "{rules}");
            let sieve = &task.sieve;
            let stash: Vec<&[u64]> = sieve.stash_sep.chunks(words).collect();
            assert_eq!(stash.len(), counts.len().min(super::STASHED), "{rules}");
            for (k, &(a, b)) in sieve.stash_pairs.iter().enumerate() {
                assert_eq!(stash[k], &set_of(a, b)[..], "{rules}: pair {k}");
                assert_eq!(count(stash[k]), counts[k], "{rules}: pair {k}");
            }
            let mut distinct = stash.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), stash.len(), "{rules}: a set stashed twice");
            // A child, weighed in part (its first pairs only).
            let x = sieve.hardest()[0];
            let child = task.refine(&classes, x, u64::MAX).unwrap();
            if child.is_empty() {
                continue;
            }
            task.push(x);
            let child_pool = task.narrowed(&pool);
            if task.weigh(&mut &child, &child_pool, Weigh::Branching) != 0 {
                let sieve = &task.sieve;
                let n = sieve.pairs.len();
                let sets: Vec<Vec<u64>> = (0..n)
                    .map(|k| (0..words).map(|w| sieve.sep[w * n + k]).collect())
                    .collect();
                for (k, &(a, b)) in sieve.pairs.iter().enumerate() {
                    let want: Vec<u64> = (0..words)
                        .map(|w| {
                            let mut set = 0;
                            for g in w * 64..(w * 64 + 64).min(m) {
                                let bit = 1u64 << (g % 64);
                                if child_pool[w] & bit != 0 && row(a)[g] != row(b)[g] {
                                    set |= bit;
                                }
                            }
                            set
                        })
                        .collect();
                    assert_eq!(sets[k], want, "{rules}: sieve pair {k}");
                }
                let mut distinct = sets.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), n, "{rules}: a set kept twice");
            }
            task.chosen.pop();
            nodes += 1;
        }
    }
    assert!(nodes > 30, "only {nodes} nodes");
    assert!(copies > 1000, "only {copies} pairs shared a set");
}

/// A subtree branched on pairs (`Task::branch`, three and more
/// guesses left) finds the same set with the same nodes in a fresh
/// task and in one that has just searched its siblings (whose killers
/// would still be pairs of one class there, and would change the
/// pairs branched on).
#[test]
fn a_subtree_branched_on_pairs_does_not_depend_on_the_one_before() {
    let mut compared = 0;
    for (rules, t) in [
        ("moo:4x7", 5),
        ("mm:3x8", 5),
        ("moo:3x10", 5),
        ("moo:4x6", 5),
    ] {
        let game = Game::new(rules.parse().unwrap());
        let ctx = quiet(&game, true);
        let found_by = AtomicUsize::new(usize::MAX);
        let root = ctx.root_classes();
        let mut dirty = ctx.task(0, &found_by);
        dirty.push(0);
        let first = dirty.refine(&root, 0, u64::MAX).unwrap();
        let mut nodes = Vec::new();
        for g in 1..ctx.m.min(40) {
            if !dirty.admits(g) {
                continue;
            }
            let Some(classes) = dirty.refine(&first, g, ctx.pow[t - 2]) else {
                continue;
            };
            let mut fresh = ctx.task(0, &found_by);
            fresh.push(0);
            fresh.push(g);
            let pool = fresh.pool_from(g + 1);
            let alone = fresh.branch(&classes, pool, t);
            dirty.push(g);
            let before = dirty.total;
            let pool = dirty.pool_from(g + 1);
            let after = dirty.branch(&classes, pool, t);
            dirty.chosen.pop();
            assert_eq!(after, alone, "{rules} size {t}, second guess {g}");
            assert_eq!(
                dirty.total - before,
                fresh.total,
                "{rules} size {t}, second guess {g}"
            );
            nodes.push(fresh.total);
            compared += 1;
        }
        assert!(nodes.iter().sum::<u64>() > 10_000, "{rules}: {nodes:?}");
    }
    assert!(compared > 10, "only {compared} subtrees compared");
}

/// `Task::refine` (a counting sort) against a plain grouping: each
/// class split by its answers to the guess, in the order of each
/// answer's first secret, classes of one dropped, largest first (ties
/// by place), and `None` exactly when a class passes the limit; at
/// random nodes of games of few and many answers, every guess. The same
/// for `Task::refine_lazily`, its classes read from a random one on.
#[test]
fn refine_makes_the_classes_of_a_plain_grouping() {
    let mut rng = SplitMix64::new(5);
    let mut checked = 0;
    for rules in [
        "mm:3x4", "moo:4x6", "mm:5x3", "moo:2x8", "mm:2x9", "moo:3x9",
    ] {
        let game = Game::new(rules.parse().unwrap());
        let ctx = quiet(&game, true);
        let found_by = AtomicUsize::new(usize::MAX);
        let mut task = ctx.task(0, &found_by);
        for _ in 0..20 {
            let mut classes = ctx.root_classes();
            for _ in 0..rng.below(3) {
                let g = rng.below(ctx.m);
                classes = task.refine(&classes, g, u64::MAX).unwrap();
            }
            for g in 0..ctx.m {
                let row = &ctx.by_guess[g * ctx.n..(g + 1) * ctx.n];
                let mut plain: Vec<Vec<u16>> = Vec::new();
                for i in 0..classes.spans.len() {
                    let mut groups: Vec<(u8, Vec<u16>)> = Vec::new();
                    for &s in classes.class(i) {
                        let f = row[s as usize];
                        match groups.iter_mut().find(|(a, _)| *a == f) {
                            Some((_, group)) => group.push(s),
                            None => groups.push((f, vec![s])),
                        }
                    }
                    plain.extend(groups.into_iter().map(|(_, g)| g).filter(|g| g.len() > 1));
                }
                // Largest first; equal sizes keep their order.
                plain.sort_by_key(|g| std::cmp::Reverse(g.len()));
                let largest = plain.first().map_or(0, Vec::len) as u64;
                for limit in [largest, largest.saturating_sub(1), u64::MAX] {
                    let refined = task.refine(&classes, g, limit);
                    if largest > limit {
                        assert!(refined.is_none(), "{rules} guess {g} limit {limit}");
                        assert!(task.refine_lazily(&classes, g, limit).is_none());
                        continue;
                    }
                    let refined = refined.unwrap();
                    let got: Vec<&[u16]> =
                        (0..refined.spans.len()).map(|i| refined.class(i)).collect();
                    assert_eq!(got, plain, "{rules} guess {g} limit {limit}");
                    checked += 1;
                    // Made as read: the same classes wherever the reading
                    // starts, and none past the last.
                    let mut lazy = task.refine_lazily(&classes, g, limit).unwrap();
                    let at = rng.below(plain.len() + 1);
                    assert_eq!(lazy.get(at), plain.get(at).map(Vec::as_slice));
                    for (i, class) in plain.iter().enumerate() {
                        assert_eq!(lazy.get(i), Some(&class[..]), "{rules} guess {g} class {i}");
                    }
                    assert_eq!(lazy.get(plain.len()), None);
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} checked");
}

/// The full test (`Task::last_after`: a class left with more secrets
/// together than a guess has answers ends it as its turn comes, the
/// others' pairs narrow the candidates) against a plain scan: the first
/// guess after `x` that the least-pair cut allows and that, with `x`,
/// gives every secret of each class its own pair of answers. At nodes of
/// no guess to two (so classes of every size, the whole game among
/// them), on games with few answers (a class of eight already too large
/// for one guess) and many, with and without the cut.
#[test]
fn the_full_test_finds_the_first_separating_last_guess() {
    let mut rng = SplitMix64::new(43);
    let (mut compared, mut found) = (0, 0);
    for rules in ["mm:2x3", "mm:2x5", "moo:2x6", "mm:3x3", "moo:3x6", "mm:3x5"] {
        let game = Game::new(rules.parse().unwrap());
        for least_pair in [false, true] {
            let ctx = quiet(&game, least_pair);
            let found_by = AtomicUsize::new(usize::MAX);
            let mut task = ctx.task(0, &found_by);
            for draw in 0..6 {
                let (classes, from) = node_of(&mut task, &mut rng, draw % 3);
                let allowed =
                    super::super::pairs::allowed_at(&task.allowed, task.chosen.len(), ctx.m)
                        .to_vec();
                let answer = |g: usize, s: u16| ctx.by_guess[g * ctx.n + s as usize];
                for x in from..ctx.m {
                    let plain = (x + 1..ctx.m).find(|&y| {
                        allowed[y] != 0
                            && (0..classes.spans.len()).all(|i| {
                                let class = classes.class(i);
                                let mut seen: Vec<(u8, u8)> = class
                                    .iter()
                                    .map(|&s| (answer(x, s), answer(y, s)))
                                    .collect();
                                seen.sort_unstable();
                                seen.windows(2).all(|w| w[0] != w[1])
                            })
                    });
                    assert_eq!(
                        task.last_after(&classes, x),
                        plain,
                        "{rules}: chosen {:?}, next to last {x}",
                        task.chosen
                    );
                    compared += 1;
                    found += usize::from(plain.is_some());
                }
            }
        }
    }
    assert!(compared > 1000, "only {compared} compared");
    assert!(found > 100, "only {found} completions");
}

/// The radix sort of the branch's masks against the comparison sort of
/// their high `SORTED_BITS` bits (a stable sort, so ties keep the order
/// they were pushed in), on keys pushed as `sift_branch` pushes them
/// (increasing low bits): few and many keys, every byte of the masks used
/// or one only, many ties.
#[test]
fn the_radix_sort_sorts_as_the_comparison_sort() {
    let mut rng = SplitMix64::new(45);
    let mut scratch = Vec::new();
    for len in [0usize, 1, 2, 7, 100, 1000] {
        for bits in [1u32, 3, 8, 20, 32] {
            for shift in [0u32, 8, 24] {
                let mut keys: Vec<u64> = (0..len)
                    .map(|j| {
                        let mask = (rng.next_u64() as u32 & ((1u64 << bits) - 1) as u32)
                            .checked_shl(shift)
                            .unwrap_or(0);
                        (u64::from(mask) << 32) | j as u64
                    })
                    .collect();
                let mut want = keys.clone();
                want.sort_by_key(|&k| k >> (64 - super::SORTED_BITS));
                super::radix_sort_high(&mut keys, &mut scratch);
                assert_eq!(keys, want, "{len} keys of {bits} bits << {shift}");
            }
        }
    }
}
