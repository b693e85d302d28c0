//! The hard-mode search's table of answers: `table[g · m + s]`, the
//! answer to guess `g` when secret number `s` is the secret, filled column
//! by column as the calls need it.
//!
//! Invariant: a secret's column marked filled for a constraint `h` holds
//! the answer of every guess `h` allows (`Hard::new()`: every guess); a
//! search of a set under `h` reads no other cell (its nodes hold subsets of
//! the set and guess what `h` allows: hard mode only shrinks the allowed
//! guesses), so [`HardSearch::fill`] before it is enough.

use std::cell::Ref;

use super::needs::Needs;
use super::HardSearch;
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::hard::Hard;

impl HardSearch<'_> {
    /// The search's numbers of `set` (secrets of the game), increasing;
    /// those not numbered yet get the next numbers, in the order of `set`.
    pub(super) fn numbers(&self, set: &[Code]) -> Vec<u16> {
        let mut number = self.number.borrow_mut();
        let mut secrets = self.secrets.borrow_mut();
        let mut out: Vec<u16> = set
            .iter()
            .map(|c| {
                if number[c.index()] == u16::MAX {
                    debug_assert!(self.game.is_secret(*c), "a secret of the game");
                    number[c.index()] = secrets.len() as u16;
                    secrets.push(*c);
                }
                number[c.index()]
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The secret numbered `s`.
    #[inline]
    pub(super) fn secret(&self, s: u16) -> Code {
        self.secrets.borrow()[usize::from(s)]
    }

    /// The answers to `g` by secret number.
    #[inline]
    pub(super) fn row(&self, g: Code) -> Ref<'_, [u8]> {
        Ref::map(self.table.borrow(), |t| {
            &t[g.index() * self.m..(g.index() + 1) * self.m]
        })
    }

    /// Fills the columns of `set` for every guess `hard` allows, the
    /// only ones a search of `set` under `hard` reads: its nodes hold
    /// subsets of `set` and guess what `hard` allows (hard mode only
    /// shrinks the allowed guesses). A column filled for another
    /// constraint is filled for every guess.
    pub(super) fn fill(&self, set: &[u16], hard: Hard) {
        let mut filled = self.filled.borrow_mut();
        let (mut some, mut all) = (Vec::new(), Vec::new());
        for &s in set {
            match filled[usize::from(s)] {
                Some(h) if h == hard || h == Hard::new() => {}
                Some(_) => {
                    all.push((s, self.secret(s)));
                    filled[usize::from(s)] = Some(Hard::new());
                }
                None => {
                    some.push((s, self.secret(s)));
                    filled[usize::from(s)] = Some(hard);
                }
            }
        }
        let needs = Needs::of(&hard);
        let allowed = needs.filter(&self.packed, &self.guesses);
        let mut table = self.table.borrow_mut();
        for (list, todo) in [(&allowed, some), (&self.guesses, all)] {
            if todo.is_empty() {
                continue;
            }
            for &g in list {
                let row = &mut table[g.index() * self.m..(g.index() + 1) * self.m];
                let full = self.game.built_table().map(|t| t.row(g));
                for &(s, secret) in &todo {
                    row[usize::from(s)] = match full {
                        Some(full) => full[secret.index()].0,
                        None => self.game.feedback(secret, g).0,
                    };
                }
            }
        }
    }

    /// Fills `first`'s row over `set`, then each class's columns for the
    /// guesses its constraint allows: all a search after `first` reads.
    pub(super) fn fill_first(&self, set: &[u16], hard: Hard, first: Code) {
        let mut classes: Vec<(u8, Vec<u16>)> = Vec::new();
        {
            let mut table = self.table.borrow_mut();
            let row = &mut table[first.index() * self.m..(first.index() + 1) * self.m];
            for &s in set {
                let f = self.game.feedback(self.secret(s), first).0;
                row[usize::from(s)] = f;
                match classes.iter_mut().find(|(a, _)| *a == f) {
                    Some((_, c)) => c.push(s),
                    None => classes.push((f, vec![s])),
                }
            }
        }
        let symbols = self.game.codes().symbols(first);
        for (f, class) in classes {
            self.fill(&class, hard.after(symbols, Feedback(f)));
        }
    }
}
