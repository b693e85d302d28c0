//! The hard-mode search's trees, rebuilt from the memo and the shortcuts.
//!
//! Invariant: called on a state the search solved exactly, it follows the
//! guess the search found (the shortcuts recomputed, being functions of
//! the set; else the memo's exact entry), so the tree costs the optimum.

use super::{HardSearch, Known, State};
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::hard::Hard;
use crate::tree::Node;

impl HardSearch<'_> {
    /// [`HardSearch::build`] on the search's numbers.
    pub(super) fn build_numbers(&self, set: &[u16], hard: Hard, d: usize) -> Node {
        let n = set.len();
        if n == 1 {
            return Node::leaf(self.secret(set[0]));
        }
        let d = d.min(n);
        let g = if n == 2 {
            self.secret(set[0]).min(self.secret(set[1]))
        } else {
            match self.quick(set, d) {
                Ok((_, g)) => g,
                Err(_) => {
                    let key: State = (set.into(), hard, d as u32);
                    let Some(Known::Exact(_, g)) = self.memo.borrow().get(&key).copied() else {
                        unreachable!("a set solved exactly has its guess in the memo");
                    };
                    g
                }
            }
        };
        self.build_guess(set, hard, g, d)
    }

    /// The subtree of `set` under `hard` that guesses `g`, its classes
    /// solved exactly within `d − 1` guesses.
    pub(super) fn build_guess(&self, set: &[u16], hard: Hard, g: Code, d: usize) -> Node {
        let row = self.row(g);
        let mut classes: Vec<(u8, Vec<u16>)> = Vec::new();
        for &s in set {
            let f = row[usize::from(s)];
            if f == self.win {
                continue;
            }
            match classes.iter_mut().find(|(a, _)| *a == f) {
                Some((_, c)) => c.push(s),
                None => classes.push((f, vec![s])),
            }
        }
        classes.sort_unstable_by_key(|&(f, _)| f);
        let symbols = self.game.codes().symbols(g);
        let children = classes
            .into_iter()
            .map(|(f, c)| {
                let f = Feedback(f);
                (f, self.build_numbers(&c, hard.after(symbols, f), d - 1))
            })
            .collect();
        Node { guess: g, children }
    }
}
