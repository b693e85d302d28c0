//! A better tree from a verified one and a plan's exact units (`merge
//! --fill-from TREE`): each class of the tree's first guess whose exact
//! unit costs less than the tree's subtree there takes the unit's subtree.
//!
//! Invariants: the result is a real strategy, not a claim of optimality:
//! the tree read is replayed over every secret first, each unit subtree
//! grafted was decoded and its cost recomputed when its file was read, and
//! the grafted tree is replayed over every secret again, within the plan's
//! cap, and its total must be the tree's total less the savings counted
//! class by class (else nothing is written). A unit is grafted only where
//! the tree's first guess is the unit's, and only when it is strictly
//! cheaper (ties keep the tree's subtree), so the total never rises.
//!
//! Subtrees of deeper classes (`--graft FILE`, a tree `solve --secrets
//! LIST` made for the secrets the tree leaves at one of its nodes) go in
//! the same way: the node is found from the list alone (every listed
//! secret must give one answer to each guess on the way down, and the
//! node reached must leave exactly the listed secrets), the file's tree is
//! replayed over its list, and it replaces the node's subtree only when
//! strictly cheaper there, so it too lowers the total by what it saves and
//! the whole tree is replayed again. A file that would lower a class the
//! plan proves exact is refused: one of the two is wrong.
//!
//! What is proved is recorded, no more: a class is exact in the result
//! when the plan decides it (`Plan::class_known`: its exact unit, or the
//! least of its second guesses with every other one bounded above) and the
//! result's subtree there costs that optimum; a subtree of `--graft` that
//! went in is exact where its file says it is optimal (written by `solve
//! --secrets`, average objective, under the cap the node leaves; or the
//! subtrees its file's own bound names exact), and an exact path inside a
//! node it replaced is dropped; the exact paths the tree read records (an
//! upper-bound file of the plan's objective and cap) stay where its
//! subtree stays; a `--graft` node no file proves is exact
//! when a unit's kept memo holds its set exact at the node's cost (a fact
//! the search proved, keyed by the set itself); the lower bound is the
//! plan's anytime lower bound (`optimoo status`'s). The file is written as
//! an upper bound with these ([`optimoo::tree::format::Bound`]), or as the
//! optimum when the lower bound reaches the total.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use optimoo::model::{Code, Feedback, Game, Objective};
use optimoo::search::plan::{Known, Learned};
use optimoo::search::Outcome;
use optimoo::tree::format::{Bound, TreeFile};
use optimoo::tree::{Node, Tree};

use super::upper::{class_costs, read_checked};
use super::Folder;

/// One class whose subtree was replaced.
pub struct Graft {
    /// The unit whose subtree went in.
    pub unit: usize,
    /// The class's answer to the first guess, as the game prints it.
    pub answer: String,
    /// The tree's cost on the class before (guesses after the first).
    pub before: u64,
    /// The unit's exact cost, the class's cost now.
    pub after: u64,
}

/// A subtree file of `--graft`, and where it went.
pub struct SubGraft {
    /// The file read.
    pub file: PathBuf,
    /// From the root to the node of the file's secrets: each guess and its
    /// answer.
    pub path: Vec<(Code, Feedback)>,
    /// The tree's cost on those secrets before (guesses from that node on,
    /// its own included).
    pub before: u64,
    /// The file's cost on them.
    pub after: u64,
    /// Whether it replaced the node's subtree (strictly cheaper).
    pub taken: bool,
    /// The subtrees of the file proved optimal for their sets, by their
    /// answers from its root (one empty path: the whole file's tree).
    pub proved: Vec<Vec<Feedback>>,
    /// The unit whose kept memo (`work --keep-memo`) holds the node's set
    /// exact at the node's cost now, when the file does not prove it: the
    /// node is then recorded exact on the memo's word.
    pub memo: Option<usize>,
}

/// The tree `merge --fill-from` made.
pub struct Grafted {
    /// The tree read's total over every secret.
    pub from: u64,
    /// The grafted tree, replayed.
    pub tree: Tree,
    /// Its total over every secret.
    pub total: u64,
    /// The classes replaced, by answer.
    pub grafts: Vec<Graft>,
    /// The subtree files of `--graft`, in the order given.
    pub subtrees: Vec<SubGraft>,
    /// What is proved: the classes whose subtree is exact (their answer
    /// paths), and the plan's lower bound of the optimum.
    pub bound: Bound,
}

/// Reads the tree in `path`, replaces each class where an exact unit of
/// the plan beats it, then each node where a subtree file of `subtrees`
/// beats it, and replays the result (average objective only).
pub fn graft(folder: &Folder, path: &Path, subtrees: &[PathBuf]) -> anyhow::Result<Grafted> {
    if folder.objective != Objective::Average {
        bail!(
            "--fill-from grafts trees of the average objective only, not {}",
            folder.objective
        );
    }
    let (TreeFile { tree, header }, from) = read_checked(folder, path)?;
    // What the file read records as proved (an upper-bound file of the
    // same objective and cap: `merge` wrote it) goes on where its subtree
    // stays; a replaced subtree takes its proofs with it.
    let mut carried: Vec<Vec<Feedback>> = match header.bound {
        Some(b) if header.objective == folder.objective && header.cap == folder.file.cap => b.exact,
        _ => Vec::new(),
    };
    let before = class_costs(folder, &tree)
        .with_context(|| format!("{} does not play every secret", path.display()))?;
    let game = &folder.game;
    // Per answer, the cheapest exact unit whose first guess is the tree's
    // (a unit of one second guess holds a whole subtree for the class too).
    let mut best: Vec<Option<(u64, usize, optimoo::tree::Node)>> = vec![None; 256];
    let mut known: Vec<Known> = vec![None; folder.plan.units.len()];
    for (i, u) in folder.plan.units.iter().enumerate() {
        let Some((_, r)) = folder.read_unit(i)? else {
            continue;
        };
        known[i] = Some(r.outcome());
        if folder.plan.guesses[u.guess].guess != tree.root.guess {
            continue;
        }
        let (Outcome::Exact(cost), Some(sub)) = (r.outcome(), r.subtree()) else {
            continue;
        };
        let slot = &mut best[usize::from(u.answer.0)];
        if slot.as_ref().is_none_or(|(c, _, _)| cost < *c) {
            *slot = Some((cost, i, sub.clone()));
        }
    }
    // The classes of the tree's first guess the plan decides: their optimum.
    let mut decided: Vec<Option<u64>> = vec![None; 256];
    for r in folder.plan.classes() {
        let u = &folder.plan.units[r.start];
        if folder.plan.guesses[u.guess].guess != tree.root.guess {
            continue;
        }
        if let (Some(Outcome::Exact(c)), Some(_)) = folder.plan.class_known(r, &known) {
            decided[usize::from(u.answer.0)] = Some(c);
        }
    }
    let mut tree = tree;
    let mut grafts = Vec::new();
    let mut exact = Vec::new();
    for (f, child) in tree.root.children.iter_mut() {
        let a = usize::from(f.0);
        let mut now = before[a];
        if let Some((cost, unit, sub)) = best[a].take() {
            if cost < before[a] {
                *child = sub;
                now = cost;
                carried.retain(|p| p.first() != Some(f));
                grafts.push(Graft {
                    unit,
                    answer: game.format_feedback(*f),
                    before: before[a],
                    after: cost,
                });
            }
        }
        match decided[a] {
            Some(c) if c == now => exact.push(vec![*f]),
            Some(c) if c > now => bail!(
                "the plan proves class {} costs {c}, but the tree's subtree there costs {now}: \
                 a unit file or the tree is wrong",
                game.format_feedback(*f)
            ),
            _ => {}
        }
    }
    exact.extend(carried);
    let mut subs = Vec::new();
    let mut memos: HashMap<usize, Option<Vec<Learned>>> = HashMap::new();
    for file in subtrees {
        let mut sub = graft_subtree(game, &mut tree, file, folder.file.cap)?;
        if sub.taken {
            let at: Vec<Feedback> = sub.path.iter().map(|&(_, f)| f).collect();
            if let Some(p) = exact.iter().find(|p| at.starts_with(p)) {
                bail!(
                    "{} costs {} where the tree costs {}, inside the subtree at {} proved exact \
                     (by the plan, the tree read or an earlier --graft file): one of the files is wrong",
                    file.display(),
                    sub.after,
                    sub.before,
                    p.iter()
                        .map(|&f| game.format_feedback(f))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
            exact.retain(|p| !p.starts_with(&at));
            for rel in &sub.proved {
                exact.push([&at[..], rel].concat());
            }
        }
        // A node the files leave unproved may be proved by the search
        // itself: a unit's kept memo holding its set exact at what the
        // node costs now (the set keyed as the search keys it, so a fact
        // found is about this set; none found proves nothing).
        // Each unit's memo is read once for all the files (a memo of
        // millions of facts takes a second to read); one that is corrupt
        // or foreign is refused by name, as `work` and `status` do.
        let at: Vec<Feedback> = sub.path.iter().map(|&(_, f)| f).collect();
        let unit = folder.unit_of(&sub.path);
        if let Some(unit) = unit.filter(|_| !exact.iter().any(|p| at.starts_with(p))) {
            let facts = match memos.entry(unit) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => e.insert(folder.read_memo(unit).with_context(|| {
                    format!(
                        "cannot check {} against unit {unit}'s kept memo",
                        file.display()
                    )
                })?),
            };
            if let Some(facts) = facts {
                let now = sub.after.min(sub.before);
                if folder.kept_in(unit, facts, &sub.path).exact == Some(now) {
                    exact.retain(|p| !p.starts_with(&at));
                    exact.push(at);
                    sub.memo = Some(unit);
                }
            }
        }
        subs.push(sub);
    }
    // One path a proved subtree: none inside another.
    exact.sort();
    exact.dedup();
    let outer = exact.clone();
    exact.retain(|p| !outer.iter().any(|q| q.len() < p.len() && p.starts_with(q)));
    let stats = optimoo::tree::check::check(game, &tree, folder.file.cap)
        .context("the grafted tree does not play every secret: a unit file is wrong")?;
    let saved: u64 = grafts.iter().map(|g| g.before - g.after).sum::<u64>()
        + subs
            .iter()
            .filter(|s| s.taken)
            .map(|s| s.before - s.after)
            .sum::<u64>();
    if stats.total != from - saved {
        bail!(
            "the grafted tree costs {}, not {} less {saved}: a unit file is wrong",
            stats.total,
            from
        );
    }
    let (lower, _) = folder
        .plan
        .anytime(&known, folder.proven().min(stats.total));
    let bound = Bound {
        lower: (lower > 0 && lower < optimoo::search::INF).then_some(lower),
        exact,
    };
    Ok(Grafted {
        from,
        tree,
        total: stats.total,
        grafts,
        subtrees: subs,
        bound,
    })
}

/// Puts the tree of the file `path` (made for a secret list) where `tree`
/// leaves exactly that list, if it is cheaper there.
fn graft_subtree(
    game: &Game,
    tree: &mut Tree,
    path: &Path,
    cap: Option<usize>,
) -> anyhow::Result<SubGraft> {
    let file = TreeFile::read(path, Some(game.rules()))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let Some(list) = file.header.secrets.as_ref() else {
        bail!(
            "{}: --graft takes the tree of a secret list (solve --secrets LIST -o FILE), \
             not of a whole game",
            path.display()
        );
    };
    let want = list.codes();
    let after = file.tree.root.total_over(game, want).with_context(|| {
        format!(
            "{}: its tree does not solve every secret of its list",
            path.display()
        )
    })?;
    // Down the tree: every listed secret gives the node's guess one answer,
    // so the list stays within the secrets the node leaves, until the two
    // are the same size (then the same set).
    let mut reach = game.secrets();
    if want.iter().any(|c| reach.binary_search(c).is_err()) {
        bail!(
            "{}: its list names codes that are not secrets of the game",
            path.display()
        );
    }
    let mut node: &mut Node = &mut tree.root;
    let mut walk = Vec::new();
    while reach.len() > want.len() {
        let f = game.feedback(want[0], node.guess);
        if f == game.win() || want.iter().any(|&c| game.feedback(c, node.guess) != f) {
            bail!(
                "{}: its secrets are not a class of the tree: after {} the guess {} splits them",
                path.display(),
                show_path(game, &walk),
                game.format_code(node.guess)
            );
        }
        reach.retain(|&c| game.feedback(c, node.guess) == f);
        walk.push((node.guess, f));
        let Ok(i) = node.children.binary_search_by_key(&f, |(g, _)| *g) else {
            bail!("the tree has no move after {}", show_path(game, &walk));
        };
        node = &mut node.children[i].1;
    }
    if walk.is_empty() {
        bail!(
            "{}: its list is every secret of the game: a whole tree, not a subtree",
            path.display()
        );
    }
    let before = node.total_over(game, &reach).with_context(|| {
        format!(
            "the tree does not solve every secret after {}",
            show_path(game, &walk)
        )
    })?;
    let taken = after < before;
    // What the file proves of its tree: optimal for its list (no bound,
    // the average objective) under the guesses the node leaves, or the
    // subtrees its bound names.
    let h = &file.header;
    let left = cap.map(|c| c.saturating_sub(walk.len()));
    let proved = match &h.bound {
        _ if h.objective != Objective::Average || h.cap != left => Vec::new(),
        None => vec![Vec::new()],
        Some(b) => b.exact.clone(),
    };
    if taken {
        *node = file.tree.root;
    }
    Ok(SubGraft {
        file: path.to_path_buf(),
        path: walk,
        before,
        after,
        taken,
        proved,
        memo: None,
    })
}

/// A path down the tree as `partition` takes a history: `GUESS:ANSWER ...`.
pub fn show_path(game: &Game, path: &[(Code, Feedback)]) -> String {
    path.iter()
        .map(|&(g, f)| format!("{}:{}", game.format_code(g), game.format_feedback(f)))
        .collect::<Vec<_>>()
        .join(" ")
}
