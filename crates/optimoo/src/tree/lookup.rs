//! Looking things up in a tree along a played game: the node a history
//! leads to ([`Node::after`]) and the exact total of a subtree over the
//! secrets left there ([`Node::total_over`]). The player, `moo rank` and
//! `moo analyze` read the tree through these.
//!
//! Invariant: nothing here trusts the tree: a history that leaves it, or a
//! subtree that does not solve every secret of the set, gives `None`.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;
use crate::tree::Node;

impl Node {
    /// The node after `history`, if every move of it is this subtree's
    /// guess and its answer has a child.
    pub fn after(&self, history: &[(Code, Feedback)]) -> Option<&Node> {
        let mut node = self;
        for &(g, f) in history {
            if node.guess != g {
                return None;
            }
            node = node.child(f)?;
        }
        Some(node)
    }

    /// The exact total of this subtree over the secrets of `set`: each
    /// secret pays one guess per node on its path, the winning one
    /// included; `None` when the subtree does not solve every secret of
    /// `set`.
    pub fn total_over(&self, game: &Game, set: &[Code]) -> Option<u64> {
        let mut total = set.len() as u64;
        for (f, class) in partition::split(game, self.guess, set) {
            if f != game.win() {
                total += self.child(f)?.total_over(game, &class)?;
            }
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::code::Code;
    use crate::model::feedback::Feedback;

    #[test]
    fn a_history_leads_down_the_tree_or_off_it() {
        let (game, tree) = crate::tree::chain();
        let miss = Feedback::new(0, 0, 1);
        let root = &tree.root;
        assert_eq!(root.after(&[]), Some(root));
        let second = root.after(&[(Code(0), miss)]).unwrap();
        assert_eq!(second.guess, Code(1));
        assert_eq!(
            root.after(&[(Code(0), miss), (Code(1), miss)])
                .unwrap()
                .guess,
            Code(2)
        );
        // Another guess than the tree's, or an answer with no child: off.
        assert_eq!(root.after(&[(Code(1), miss)]), None);
        assert_eq!(root.after(&[(Code(0), game.win())]), None);
        // Totals: 1 + 2 + 3 over every secret; 1 + 2 below the root.
        assert_eq!(root.total_over(&game, &game.all_codes()), Some(6));
        assert_eq!(second.total_over(&game, &[Code(1), Code(2)]), Some(3));
        // A subtree that cannot solve a secret: no total.
        let leaf = root.after(&[(Code(0), miss), (Code(1), miss)]).unwrap();
        assert_eq!(leaf.total_over(&game, &[Code(1), Code(2)]), None);
    }
}
