//! A unit's subtree on its own: its cost recomputed from the tree alone
//! (to check a unit file without trusting the search), and its compact
//! encoding in unit files.
//!
//! Invariants: [`subtree_cost`] uses only the split of the game and the
//! objective's cost of a guess and a leaf, never the search;
//! `decode_subtree(encode_subtree(t)) == t` for every tree whose
//! single-secret sets guess their secret and whose guesses each split
//! their set (the search's optimal trees), and decoding never panics nor
//! recurses deeper than the depth it is given or [`MAX_SUBTREE_DEPTH`]
//! (so a forged file cannot overflow the stack, even on a worker thread).

use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::partition;
use crate::search::bound::{Bounds, Cost};
use crate::tree::{Node, MAX_DEPTH};

/// The deepest subtree below a unit's class: the assembled tree has one
/// guess above it (a unit of `--depth 2` holds the node of its second
/// guess, one level below the first too), and a tree is at most
/// [`MAX_DEPTH`] guesses deep (the tree file and [`crate::tree::Tree::replay`]
/// refuse deeper ones), so nothing deeper can ever be merged.
pub const MAX_SUBTREE_DEPTH: usize = MAX_DEPTH - 1;

/// Cost tables for checking a subtree's cost independently of the search.
pub fn bounds(game: &Game, objective: Cost) -> Bounds {
    let branching = game.possible_feedbacks().count() - 1;
    Bounds::new(objective, branching, game.len())
}

/// The cost of `node` solving `set` within `d` guesses, recomputed from
/// the tree alone (one guess per secret per node, plus the objective's
/// leaf cost), or why it does not solve the set.
pub fn subtree_cost(
    game: &Game,
    bounds: &Bounds,
    set: &[Code],
    d: usize,
    node: &Node,
) -> Result<u64, String> {
    if d == 0 {
        return Err("a secret needs more guesses than the cap allows".into());
    }
    if set.len() == 1 && node.guess == set[0] {
        if !node.children.is_empty() {
            return Err("a solved secret has children".into());
        }
        return Ok(bounds.leaf(d));
    }
    let mut classes = partition::split(game, node.guess, set);
    classes.retain(|(f, _)| *f != game.win());
    if classes.len() != node.children.len() {
        return Err(format!(
            "guess {} has {} children for {} answers",
            game.format_code(node.guess),
            node.children.len(),
            classes.len()
        ));
    }
    let mut total = bounds.own(set.len(), d);
    for ((f, c), (cf, child)) in classes.iter().zip(&node.children) {
        if f != cf {
            return Err(format!(
                "guess {}: a child for answer {} that no secret gives",
                game.format_code(node.guess),
                game.format_feedback(*cf)
            ));
        }
        total = total.saturating_add(subtree_cost(game, bounds, c, d - 1, child)?);
    }
    Ok(total)
}

/// The compact encoding of a subtree over `set`: the guesses in preorder as
/// code indices, children in answer order, leaving out the implied leaves:
/// a set of one secret always guesses it (the search's trees do), so its
/// node is not written, as in the tree file.
pub fn encode_subtree(game: &Game, set: &[Code], node: &Node, out: &mut Vec<u16>) {
    if set.len() == 1 {
        return;
    }
    out.push(node.guess.0);
    let mut classes = partition::split(game, node.guess, set);
    classes.retain(|(f, _)| *f != game.win());
    for ((_, c), (_, child)) in classes.iter().zip(&node.children) {
        encode_subtree(game, c, child, out);
    }
}

/// Decodes [`encode_subtree`]'s output over `set` within `d` guesses;
/// refuses illegal codes, too few or too many guesses, a guess that does
/// not split its set (all its secrets give one answer that is not a win:
/// no optimal tree makes one, since leaving it out saves a guess for each
/// of them), or a tree deeper than `d` or than `MAX_SUBTREE_DEPTH`.
/// So a subtree that decodes has fewer guesses than `set` has secrets.
pub fn decode_subtree(game: &Game, set: &[Code], d: usize, codes: &[u16]) -> Result<Node, String> {
    decode_within(game, set, d, MAX_SUBTREE_DEPTH, codes)
}

/// [`decode_subtree`] with another bound on the depth than
/// [`MAX_SUBTREE_DEPTH`] (for tests of that bound on small games).
pub(super) fn decode_within(
    game: &Game,
    set: &[Code],
    d: usize,
    max_depth: usize,
    codes: &[u16],
) -> Result<Node, String> {
    if codes.len() >= set.len().max(1) {
        return Err(format!(
            "{} guesses for {} secrets (a tree whose guesses split their sets has fewer)",
            codes.len(),
            set.len()
        ));
    }
    let mut pos = 0;
    let node = decode_node(game, set, (d, max_depth), 0, codes, &mut pos)?;
    if pos != codes.len() {
        return Err(format!("{} guesses left over", codes.len() - pos));
    }
    Ok(node)
}

/// One node at `level` (0: the subtree's root) with `d` guesses left,
/// at most `max_depth` levels in all (`limits`: `(d, max_depth)`).
fn decode_node(
    game: &Game,
    set: &[Code],
    limits: (usize, usize),
    level: usize,
    codes: &[u16],
    pos: &mut usize,
) -> Result<Node, String> {
    let (d, max_depth) = limits;
    if d == 0 {
        return Err("deeper than the cap allows".into());
    }
    if level >= max_depth {
        return Err(format!(
            "the subtree goes deeper than {max_depth} guesses (a whole tree holds at most \
             {MAX_DEPTH}, one above the subtree)"
        ));
    }
    if set.len() == 1 {
        return Ok(Node::leaf(set[0]));
    }
    let Some(&g) = codes.get(*pos) else {
        return Err("the subtree ends early".into());
    };
    *pos += 1;
    if usize::from(g) >= game.len() {
        return Err(format!("code index {g} is not a code of the game"));
    }
    let mut classes = partition::split(game, Code(g), set);
    classes.retain(|(f, _)| *f != game.win());
    if let [(f, c)] = classes.as_slice() {
        if c.len() == set.len() {
            return Err(format!(
                "guess {} does not split its {} secrets (they all answer {})",
                game.format_code(Code(g)),
                set.len(),
                game.format_feedback(*f)
            ));
        }
    }
    let mut children = Vec::with_capacity(classes.len());
    for (f, c) in &classes {
        let limits = (d - 1, max_depth);
        children.push((*f, decode_node(game, c, limits, level + 1, codes, pos)?));
    }
    Ok(Node {
        guess: Code(g),
        children,
    })
}
