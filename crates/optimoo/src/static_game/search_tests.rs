//! The static search against brute force: on tiny games every subset of
//! guesses is tried, smallest first, and the smallest separating size must
//! be the search's; the worst case with a final guess is checked against
//! its definition the same way.

use crate::exec::{Scoped, Sequential};
use crate::model::code::{Code, Codebook};
use crate::model::game::Game;
use crate::model::secrets::{GuessMode, SecretSet};
use crate::static_game::search::{
    solve_static, solve_static_resumed, with_final, Resume, StaticConfig, StaticJournal,
    StaticSolution, TaskList,
};

fn game(rules: &str) -> Game {
    Game::new(rules.parse().unwrap())
}

/// The game of `rules` restricted to the secrets `pick` lists.
fn list_game(rules: &str, mode: GuessMode, pick: impl Fn(&Codebook) -> Vec<Code>) -> Game {
    let rules = rules.parse().unwrap();
    let codes = pick(&Codebook::new(rules));
    let set = SecretSet::new(codes, mode, None, "list".into()).unwrap();
    Game::with_secrets(rules, set)
}

fn solve(game: &Game) -> StaticSolution {
    solve_static(game, StaticConfig::default(), &Sequential, &|_| {}).unwrap()
}

/// The smallest separating size of `game`, from [`solve`] (which must
/// prove it), solved once for all the tests that sweep the same games
/// (keyed by the game's name and its secrets).
fn minimum(game: &Game) -> usize {
    type Minima = std::collections::HashMap<(String, Vec<Code>), usize>;
    static MINIMA: std::sync::LazyLock<std::sync::Mutex<Minima>> =
        std::sync::LazyLock::new(Default::default);
    let key = (game.name(), game.secrets());
    if let Some(&m) = MINIMA.lock().unwrap().get(&key) {
        return m;
    }
    let found = solve(game);
    assert!(found.exact, "{}", game.name());
    MINIMA.lock().unwrap().insert(key, found.upper);
    found.upper
}

/// Whether the answers to `set` tell apart every secret of `game` not in
/// `named` (those are won by the set itself).
fn tells_apart(game: &Game, set: &[Code], named: bool) -> bool {
    let mut seen = std::collections::HashSet::new();
    game.secrets()
        .into_iter()
        .filter(|s| !(named && set.contains(s)))
        .all(|s| seen.insert(set.iter().map(|&g| game.feedback(s, g)).collect::<Vec<_>>()))
}

/// Every `size`-subset of `codes`, in lexicographic order of positions.
fn subsets(codes: &[Code], size: usize, f: &mut dyn FnMut(&[Code]) -> bool) -> bool {
    fn go(
        codes: &[Code],
        from: usize,
        size: usize,
        set: &mut Vec<Code>,
        f: &mut dyn FnMut(&[Code]) -> bool,
    ) -> bool {
        if set.len() == size {
            return f(set);
        }
        for i in from..codes.len() {
            set.push(codes[i]);
            if go(codes, i + 1, size, set, f) {
                return true;
            }
            set.pop();
        }
        false
    }
    go(codes, 0, size, &mut Vec::new(), f)
}

/// The smallest separating size, by trying every subset.
fn brute_size(game: &Game) -> usize {
    let codes = game.all_codes();
    (0..=codes.len())
        .find(|&t| subsets(&codes, t, &mut |set| tells_apart(game, set, false)))
        .unwrap()
}

/// The fewest guesses that win every secret when a set is asked and then
/// one final guess is made (unless the secret was in the set), by
/// definition: over every set after which the secrets outside it are told
/// apart, its size plus one if some secret is outside it.
fn brute_with_final(game: &Game) -> usize {
    let codes = game.all_codes();
    let secrets = game.secrets();
    let mut best = usize::MAX;
    for t in 0..=codes.len() {
        subsets(&codes, t, &mut |set| {
            if tells_apart(game, set, true) {
                let outside = secrets.iter().any(|s| !set.contains(s));
                best = best.min(t + usize::from(outside));
            }
            false
        });
        if best <= t {
            break;
        }
    }
    best
}

#[test]
fn smallest_sizes_match_brute_force() {
    for rules in [
        "mm:1x2", "mm:1x3", "mm:2x2", "mm:2x3", "mm:3x2", "moo:2x3", "moo:2x4", "moo:3x4",
        "mm:2x4", "moo:1x4", "moo:3x3",
    ] {
        let g = game(rules);
        let found = solve(&g);
        assert!(found.exact, "{rules}");
        assert_eq!(found.upper, brute_size(&g), "{rules}");
        assert_eq!(found.lower, found.upper, "{rules}");
        assert_eq!(found.guesses.len(), found.upper, "{rules}");
        assert!(tells_apart(&g, &found.guesses, false), "{rules}");
        assert_eq!(found.with_final(), brute_with_final(&g), "{rules}");
        assert_eq!(
            with_final(found.upper, g.secret_count()),
            found.with_final()
        );
    }
}

/// The two-peg table of the static-code-set page (February 2002, after
/// Cut The Knot's applet): 2 2 3 4 4 5 questions for 2 to 7 colours.
#[test]
fn two_pegs_match_the_published_table() {
    for (colours, size) in [(2, 2), (3, 2), (4, 3), (5, 4), (6, 4), (7, 5)] {
        let g = game(&format!("mm:2x{colours}"));
        let found = solve(&g);
        assert!(found.exact);
        assert_eq!(found.upper, size, "mm:2x{colours}");
    }
}

#[test]
fn threads_do_not_change_the_set() {
    for rules in ["mm:3x3", "moo:3x5", "mm:2x6"] {
        let g = game(rules);
        let one = solve(&g);
        let three = solve_static(&g, StaticConfig::default(), &Scoped(3), &|_| {}).unwrap();
        assert_eq!(one.guesses, three.guesses, "{rules}");
        assert_eq!(one.upper, three.upper);
    }
}

#[test]
fn a_spent_budget_gives_proven_bounds() {
    let g = game("mm:3x4");
    let config = StaticConfig {
        max_size: None,
        time_budget: Some(std::time::Duration::ZERO),
        ..StaticConfig::default()
    };
    let found = solve_static(&g, config, &Sequential, &|_| {}).unwrap();
    assert!(found.lower <= found.upper);
    assert!(tells_apart(&g, &found.guesses, false));
    let exact = solve(&g);
    assert!(found.lower <= exact.upper && exact.upper <= found.upper);
    let capped = solve_static(
        &g,
        StaticConfig {
            max_size: Some(exact.upper - 1),
            time_budget: None,
            ..StaticConfig::default()
        },
        &Sequential,
        &|_| {},
    )
    .unwrap();
    assert!(capped.lower <= exact.upper && exact.upper <= capped.upper);
    if capped.upper > exact.upper {
        assert!(!capped.exact);
        assert_eq!(capped.lower, exact.upper);
    }
}

#[test]
fn a_secret_list_is_separated_among_its_own() {
    let g = list_game("moo:3x5", GuessMode::Secrets, |book| {
        ["012", "013", "024", "134", "210"]
            .iter()
            .map(|t| book.parse(t).unwrap())
            .collect()
    });
    let found = solve(&g);
    assert!(found.exact);
    assert!(found.guesses.iter().all(|&c| g.is_guess(c)));
    assert!(tells_apart(&g, &found.guesses, false));
    assert_eq!(found.secrets, 5);
}

/// The games of `names`, and a secret list that only some symmetries keep
/// (mm:3x4's codes without symbol 3): the sweeps of the tests below.
fn sweep(names: &[&str]) -> Vec<Game> {
    let mut games: Vec<Game> = names.iter().map(|r| game(r)).collect();
    games.push(list_game("mm:3x4", GuessMode::All, |book| {
        book.all()
            .filter(|&c| !book.symbols(c).contains(&3))
            .collect()
    }));
    games
}

/// The least-pair cut against the plain search, size by size, from the
/// counting bound to one above the minimum, on a sweep of games with few
/// and many symbols and positions (above six positions the group has no
/// position permutations), with and without repeats, and a secret list:
/// every size separates with the cut exactly when it does without (and
/// with the tasks in reverse order, `far_first`), and a refuted size never
/// visits more nodes with it. Both search in code order (the branching on
/// pairs is tested against it below).
#[test]
fn the_least_pair_cut_finds_what_the_plain_search_finds() {
    let plain = StaticConfig {
        least_pair: false,
        hardest_pair: false,
        local_iterations: 0,
        ..StaticConfig::default()
    };
    let cut = StaticConfig {
        least_pair: true,
        ..plain
    };
    let far = StaticConfig {
        far_first: true,
        ..cut
    };
    let games = sweep(&[
        "mm:1x5", "mm:2x2", "mm:2x5", "mm:2x8", "mm:3x2", "mm:3x3", "mm:3x4", "mm:4x3", "mm:5x2",
        "mm:6x2", "mm:7x2", "mm:4x4", "moo:1x6", "moo:2x4", "moo:2x9", "moo:3x4", "moo:3x7",
        "moo:4x6", "moo:5x5",
    ]);
    for g in &games {
        let minimum = minimum(g);
        let sizes = 0..=minimum + 1;
        let with = crate::static_game::search::levels_for_test(g, cut, sizes.clone());
        let without = crate::static_game::search::levels_for_test(g, plain, sizes.clone());
        let reversed = crate::static_game::search::levels_for_test(g, far, sizes);
        let name = g.name();
        for ((&(t, found, nodes), &(_, found_plain, nodes_plain)), &(_, found_far, _)) in
            with.iter().zip(&without).zip(&reversed)
        {
            assert_eq!(found, found_plain, "{name}: size {t}");
            assert_eq!(found, found_far, "{name}: size {t}, far first");
            assert_eq!(found, t >= minimum, "{name}: size {t}");
            if !found {
                assert!(
                    nodes <= nodes_plain,
                    "{name}: size {t}: {nodes} > {nodes_plain}"
                );
            }
        }
    }
}

/// The branching on the hardest pair (module `hit`) against the search in
/// code order, size by size from the counting bound to one above the
/// minimum, branching after 2, 3 and 4 guesses in code order, with and
/// without the least-pair cut, on a sweep of games (one to seven
/// positions, two to nine symbols, with and without repeats, a secret
/// list): every size separates with it exactly when it does without, and
/// every set it finds separates (checked on its own answers) and has the
/// size asked, distinct guesses.
#[test]
fn the_hardest_pair_branching_finds_what_the_code_order_finds() {
    let games = sweep(&[
        "mm:1x5", "mm:2x5", "mm:2x8", "mm:3x3", "mm:3x4", "mm:4x3", "mm:4x4", "mm:5x2", "mm:7x2",
        "moo:1x6", "moo:2x6", "moo:2x9", "moo:3x5", "moo:3x7", "moo:4x6", "moo:5x5",
    ]);
    let mut branched = 0;
    for g in &games {
        let minimum = minimum(g);
        let sizes = 0..=minimum + 1;
        let name = g.name();
        for least_pair in [true, false] {
            let order = StaticConfig {
                least_pair,
                hardest_pair: false,
                local_iterations: 0,
                ..StaticConfig::default()
            };
            let pairs = StaticConfig {
                hardest_pair: true,
                ..order
            };
            let plain =
                crate::static_game::search::sets_for_test(g, order, None, None, sizes.clone());
            // The sieve's cache of intersections on (0 words) and off:
            // the same sets and nodes either way.
            let sets = |lex, words| {
                crate::static_game::search::sets_for_test(
                    g,
                    pairs,
                    Some(lex),
                    Some(words),
                    sizes.clone(),
                )
            };
            let first = sets(2, 0);
            assert_eq!(first, sets(2, usize::MAX), "{name}: the sieve's cache");
            let mut first = Some(first);
            for (lex, words) in [(2, 0), (3, usize::MAX), (4, 0)] {
                let hit = first.take().unwrap_or_else(|| sets(lex, words));
                for ((t, set, _), (_, set_plain, _)) in hit.iter().zip(&plain) {
                    let label = format!("{name}, size {t}, least pair {least_pair}, lex {lex}");
                    assert_eq!(set.is_some(), set_plain.is_some(), "{label}");
                    assert_eq!(set.is_some(), *t >= minimum, "{label}");
                    if let Some(set) = set {
                        let mut distinct = set.clone();
                        distinct.sort_unstable();
                        distinct.dedup();
                        assert_eq!(distinct.len(), *t, "{label}: {set:?}");
                        assert!(tells_apart(g, set, false), "{label}: {set:?}");
                    }
                    branched += usize::from(*t >= lex + 2);
                }
            }
        }
    }
    assert!(branched > 100, "only {branched} sizes branched on pairs");
}

/// With the branching on pairs (after four guesses in code order, the
/// default), the set found does not depend on how a size is cut into
/// tasks: one task, a few, or as many as three first guesses give.
#[test]
fn the_set_found_does_not_depend_on_the_cut() {
    for rules in ["moo:4x6", "mm:4x4", "moo:3x7", "mm:2x8"] {
        let g = game(rules);
        let minimum = minimum(&g);
        let sizes = minimum..=minimum + 2;
        let cut = |tasks| StaticConfig {
            tasks,
            local_iterations: 0,
            ..StaticConfig::default()
        };
        let one = crate::static_game::search::sets_for_test(&g, cut(1), None, None, sizes.clone());
        for tasks in [7, 256, 1_000_000] {
            let other = crate::static_game::search::sets_for_test(
                &g,
                cut(tasks),
                None,
                None,
                sizes.clone(),
            );
            let sets = |v: &[(usize, Option<Vec<Code>>, u64)]| -> Vec<Option<Vec<Code>>> {
                v.iter().map(|(_, s, _)| s.clone()).collect()
            };
            assert_eq!(sets(&one), sets(&other), "{rules}, {tasks} tasks");
        }
    }
}

/// `from_size` skips the sizes below it: a size refuted still proves the
/// lower bound (every smaller size is refuted with it), and a set found
/// is exact only when every size below it is refuted.
#[test]
fn sizes_skipped_prove_nothing_and_a_refuted_size_proves_the_ones_below() {
    // Its cheap heuristic stops one above the minimum.
    let g = game("moo:4x6");
    let exact = solve(&g);
    assert!(exact.exact);
    let min = exact.upper;
    let from = |t: usize| StaticConfig {
        from_size: Some(t),
        local_iterations: 0,
        ..StaticConfig::default()
    };
    // From the minimum: the set is found, nothing below it is proven.
    let at_min = solve_static(&g, from(min), &Sequential, &|_| {}).unwrap();
    assert_eq!(at_min.upper, min);
    assert!(!at_min.exact);
    assert!(at_min.lower < min);
    assert_eq!(at_min.levels.len(), 1);
    assert!(tells_apart(&g, &at_min.guesses, false));
    // From one below: that size refuted, the minimum proven.
    let below = solve_static(&g, from(min - 1), &Sequential, &|_| {}).unwrap();
    assert!(below.exact);
    assert_eq!((below.lower, below.upper), (min, min));
    assert_eq!(below.levels.len(), 2);
}

/// A journal in memory: what it hands back (tasks refuted, and tasks
/// begun), and what it is told.
#[derive(Default)]
struct Memory {
    given: Vec<(usize, Vec<usize>)>,
    given_begun: Vec<(usize, Vec<(usize, usize)>)>,
    told: std::sync::Mutex<Vec<(usize, usize)>>,
    advanced: std::sync::Mutex<Vec<(usize, usize, usize)>>,
    lists: std::sync::Mutex<Vec<(usize, Vec<Vec<Code>>)>>,
}

impl StaticJournal for Memory {
    fn resume(&self, list: &TaskList<'_>) -> Result<Resume, String> {
        self.lists
            .lock()
            .unwrap()
            .push((list.size, list.prefixes.to_vec()));
        let find = |size| {
            self.given
                .iter()
                .find(|(s, _)| *s == size)
                .map(|(_, tasks)| tasks.clone())
                .unwrap_or_default()
        };
        let begun = self
            .given_begun
            .iter()
            .find(|(s, _)| *s == list.size)
            .map(|(_, b)| b.clone())
            .unwrap_or_default();
        Ok(Resume {
            refuted: find(list.size),
            begun,
        })
    }

    fn refute(&self, size: usize, task: usize, _: u64, _: f64) -> Result<(), String> {
        self.told.lock().unwrap().push((size, task));
        Ok(())
    }

    fn advance(&self, size: usize, task: usize, next: usize, _: u64, _: f64) -> Result<(), String> {
        self.advanced.lock().unwrap().push((size, task, next));
        Ok(())
    }
}

/// A whole run of `g` without the local search, its configuration and
/// what its journal was told.
fn whole_run(g: &Game) -> (StaticConfig, StaticSolution, Memory) {
    let config = StaticConfig {
        local_iterations: 0,
        ..StaticConfig::default()
    };
    let journal = Memory::default();
    let whole = solve_static_resumed(g, config, &Sequential, &|_| {}, &journal).unwrap();
    (config, whole, journal)
}

/// A run resumed from the tasks an earlier run refuted proves the same
/// sizes and finds the same set, in either order of the tasks, with the
/// refuted tasks skipped (fewer nodes); so does one resumed from any part
/// of them. Every task a run reports refuted holds no set: searched
/// alone, from its prefix (the journal's task list), it finds none.
#[test]
fn a_run_resumed_from_refuted_tasks_proves_what_a_whole_run_proves() {
    let mut brute = 0;
    let mut frontiers = 0;
    for rules in [
        "moo:4x6", "mm:4x4", "moo:3x6", "moo:3x7", "mm:3x5", "moo:4x5",
    ] {
        let g = game(rules);
        let (config, whole, first) = whole_run(&g);
        let told = first.told.into_inner().unwrap();
        let advanced = first.advanced.into_inner().unwrap();
        let lists = first.lists.into_inner().unwrap();
        assert!(!told.is_empty(), "{rules}: no task refuted");
        // Each refuted task, alone: no separating set begins with its
        // prefix (brute force over the completions, where they are few).
        let guesses: Vec<Code> = g.codes().all().filter(|&c| g.is_guess(c)).collect();
        for &(size, task) in &told {
            let (_, prefixes) = lists.iter().find(|(s, _)| *s == size).unwrap();
            let prefix = &prefixes[task];
            let last = *prefix.last().unwrap_or(&Code(0));
            let rest: Vec<Code> = guesses
                .iter()
                .copied()
                .filter(|&c| prefix.is_empty() || c > last)
                .collect();
            let left = size - prefix.len();
            if left > 2 || (left == 2 && rest.len() > 100) {
                continue;
            }
            brute += 1;
            let found = subsets(&rest, size - prefix.len(), &mut |more| {
                let set: Vec<Code> = prefix.iter().chain(more).copied().collect();
                tells_apart(&g, &set, false)
            });
            assert!(!found, "{rules}: task {task} of size {size} holds a set");
        }
        let by_size = |keep: &dyn Fn(usize) -> bool| -> Vec<(usize, Vec<usize>)> {
            let mut sizes: Vec<usize> = told.iter().map(|&(s, _)| s).collect();
            sizes.dedup();
            sizes
                .into_iter()
                .map(|s| {
                    let tasks = told
                        .iter()
                        .filter(|&&(z, t)| z == s && keep(t))
                        .map(|&(_, t)| t)
                        .collect();
                    (s, tasks)
                })
                .collect()
        };
        // A run stopped in the middle of every task: each task advanced
        // hands back one of its frontiers, none refuted.
        let mut begun: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for &(size, task, next) in &advanced {
            if !begun.iter().any(|(s, _)| *s == size) {
                begun.push((size, Vec::new()));
            }
            let list = &mut begun.iter_mut().find(|(s, _)| *s == size).unwrap().1;
            match list.iter_mut().find(|(t, _)| *t == task) {
                // Keep every second frontier: the middle of the task.
                Some(entry) if next % 2 == 0 => entry.1 = next,
                Some(_) => {}
                None => list.push((task, next)),
            }
        }
        frontiers += begun.iter().map(|(_, b)| b.len()).sum::<usize>();
        for (what, given, given_begun) in [
            ("all", by_size(&|_| true), Vec::new()),
            ("every other", by_size(&|t| t % 2 == 0), Vec::new()),
            ("begun", Vec::new(), begun.clone()),
        ] {
            for far_first in [false, true] {
                let journal = Memory {
                    given: given.clone(),
                    given_begun: given_begun.clone(),
                    ..Memory::default()
                };
                let config = StaticConfig {
                    far_first,
                    ..config
                };
                let again =
                    solve_static_resumed(&g, config, &Sequential, &|_| {}, &journal).unwrap();
                let label = format!("{rules}, {what}, far_first {far_first}");
                assert_eq!(
                    (again.lower, again.upper),
                    (whole.lower, whole.upper),
                    "{label}"
                );
                assert!(again.exact == whole.exact, "{label}");
                if !far_first {
                    assert_eq!(again.guesses, whole.guesses, "{label}");
                }
                for level in &again.levels {
                    let given = given
                        .iter()
                        .find(|(s, _)| *s == level.size)
                        .map_or(0, |(_, t)| t.len());
                    assert_eq!(level.resumed, given, "{label}, size {}", level.size);
                    assert!(level.complete, "{label}");
                }
                // No task handed back is searched or reported again.
                let retold = journal.told.into_inner().unwrap();
                assert!(
                    retold
                        .iter()
                        .all(|(s, t)| !given.iter().any(|(z, tasks)| z == s && tasks.contains(t))),
                    "{label}"
                );
                if what == "all" {
                    assert!(again.nodes < whole.nodes, "{label}");
                }
            }
        }
    }
    assert!(brute > 1000, "only {brute} tasks checked by brute force");
    assert!(frontiers > 100, "only {frontiers} tasks begun");
}

/// Shards run one after another, each told what the ones before refuted
/// (as merged checkpoints would tell it), prove what a whole run proves:
/// no shard's run claims a size refuted while another shard's tasks of it
/// are open, every set a shard finds separates, and within a few rounds of
/// shards one run reaches the whole run's bounds, with the same tasks
/// refuted below the minimum. A shard that does not exist is refused.
#[test]
fn shards_prove_together_what_a_whole_run_proves() {
    let mut checked = 0;
    for rules in ["moo:4x6", "mm:4x4", "moo:3x7", "mm:3x5"] {
        let g = game(rules);
        let (config, whole, first) = whole_run(&g);
        let mut whole_told = first.told.into_inner().unwrap();
        whole_told.retain(|&(size, _)| size < whole.upper);
        whole_told.sort_unstable();
        for count in [2, 3] {
            let label = |i| format!("{rules}, shard {i} of {count}");
            let mut refuted: Vec<(usize, usize)> = Vec::new();
            let mut rounds = 0;
            let last = loop {
                rounds += 1;
                assert!(rounds <= 10, "{rules}: no proof after 10 rounds");
                let mut last = None;
                for i in 0..count {
                    let mut sizes: Vec<usize> = refuted.iter().map(|&(s, _)| s).collect();
                    sizes.dedup();
                    let given = sizes
                        .iter()
                        .map(|&s| {
                            (
                                s,
                                refuted.iter().filter(|r| r.0 == s).map(|r| r.1).collect(),
                            )
                        })
                        .collect();
                    let journal = Memory {
                        given,
                        ..Memory::default()
                    };
                    let shard = StaticConfig {
                        shard: Some((i, count)),
                        ..config
                    };
                    let run =
                        solve_static_resumed(&g, shard, &Sequential, &|_| {}, &journal).unwrap();
                    assert!(run.lower <= whole.lower, "{}", label(i));
                    assert!(run.upper >= whole.upper, "{}", label(i));
                    assert!(tells_apart(&g, &run.guesses, false), "{}", label(i));
                    if rounds == 1 && i == 0 {
                        // Told nothing, the first shard cannot refute a
                        // size that has tasks of other shards.
                        for l in run.levels.iter().filter(|l| l.tasks > 1 && !l.found) {
                            assert!(!l.complete, "{}: size {}", label(i), l.size);
                            checked += 1;
                        }
                    }
                    for (size, task) in journal.told.into_inner().unwrap() {
                        assert_eq!(task % count, i, "{}: task {task} is not its own", label(i));
                        refuted.push((size, task));
                    }
                    refuted.sort_unstable();
                    // The shard whose task holds the first set of the
                    // minimum proves it; the others cannot.
                    if (run.lower, run.upper) == (whole.lower, whole.upper) {
                        last = Some(run);
                    }
                }
                if let Some(run) = last {
                    break run;
                }
            };
            assert_eq!(last.exact, whole.exact, "{rules}, {count} shards");
            refuted.retain(|&(size, _)| size < whole.upper);
            assert_eq!(
                refuted, whole_told,
                "{rules}, {count} shards: the tasks refuted"
            );
        }
    }
    assert!(
        checked >= 8,
        "only {checked} sizes left open by a first shard"
    );
    let g = game("mm:3x3");
    for shard in [(0, 0), (2, 2), (5, 3)] {
        let config = StaticConfig {
            shard: Some(shard),
            local_iterations: 0,
            ..StaticConfig::default()
        };
        let refused = solve_static(&g, config, &Sequential, &|_| {});
        assert!(
            matches!(
                refused,
                Err(crate::static_game::search::StaticError::Shard { .. })
            ),
            "{shard:?}"
        );
    }
}
