//! The guess pool of a position under pool `all`: one guess per orbit of
//! the symbols no earlier guess used (their smallest member), or seed 000's
//! own "essentially different" enumeration under `--ties seed000`.
//!
//! Invariant: a permutation of the unused symbols fixes every earlier guess
//! and so the candidates, and maps a guess to one with the same class sizes,
//! score and candidacy; the winner under (score, not candidate, code) or
//! (score, code) is the smallest of its orbit, so scanning only the
//! representatives never changes the choice (see [`crate::heuristic`]).
//! With a secret list, the permuted symbols are also outside the list (so
//! the permutation keeps the list), and only allowed guesses are pooled.

use std::sync::Arc;

use crate::model::code::Code;

use super::build::{BuildContext, Position};
use super::Ties;

impl BuildContext<'_> {
    /// The guess pool of a position under pool `all` (shared, cached).
    pub(super) fn pool(&self, pos: Position) -> Arc<[Code]> {
        let rules = self.game.rules();
        let n = rules.symbols();
        let k = rules.positions();
        // With a secret list only the symbols it never uses (and no guess
        // used) are interchangeable: they are added to the mask, and seed
        // 000's enumeration (made for the whole game) is not used.
        let listed = self
            .game
            .secret_set()
            .map(|set| self.game.codes().symbols_of(set.codes()));
        let key = if let Some(listed) = listed {
            pos.used | listed
        } else if self.cfg.ties == Ties::Seed000 {
            // The largest symbol used so far, at least k - 1.
            let p = if pos.used == 0 {
                k - 1
            } else {
                (63 - pos.used.leading_zeros() as usize).max(k - 1)
            };
            1 << 63 | p as u64
        } else {
            pos.used
        };
        if let Some(p) = self
            .pools
            .lock()
            .expect("no panics hold the lock")
            .get(&key)
        {
            return p.clone();
        }
        let book = self.game.codes();
        let pool: Arc<[Code]> = if key >> 63 == 1 {
            let p = (key & 0xff) as usize;
            book.all()
                .filter(|&g| p + 2 >= n || seed000_enumerates(book.symbols(g), p))
                .collect()
        } else {
            let unused: Vec<u8> = (0..n as u8).filter(|&s| key & 1 << s == 0).collect();
            book.all()
                .filter(|&g| self.game.is_guess(g))
                .filter(|&g| orbit_representative(book.symbols(g), key, &unused))
                .collect()
        };
        self.pools
            .lock()
            .expect("no panics hold the lock")
            .entry(key)
            .or_insert(pool)
            .clone()
    }
}

/// Seed 000's `dfs2`: symbol `j` may appear if `j <= p + 1` or `j - 1`
/// appears earlier in the same guess.
fn seed000_enumerates(symbols: &[u8], p: usize) -> bool {
    symbols
        .iter()
        .enumerate()
        .all(|(i, &j)| j as usize <= p + 1 || symbols[..i].contains(&(j - 1)))
}

/// Whether a code is the smallest of its orbit under permutations of the
/// symbols outside `used`: its unused symbols appear, in order of first
/// occurrence, as the smallest unused symbols in increasing order.
fn orbit_representative(symbols: &[u8], used: u64, unused: &[u8]) -> bool {
    let mut next = 0;
    let mut seen = used;
    for &s in symbols {
        if seen & 1 << s != 0 {
            continue;
        }
        if unused.get(next) != Some(&s) {
            return false;
        }
        next += 1;
        seen |= 1 << s;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;

    #[test]
    fn orbit_representatives_after_0123() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let used = book.mask(game.parse_code("0123").unwrap());
        let unused: Vec<u8> = (4..10).collect();
        let reps: Vec<Code> = book
            .all()
            .filter(|&g| orbit_representative(book.symbols(g), used, &unused))
            .collect();
        // 24 + 4·3·2·4 + 4·3·6 + 4·4 + 1 = 24 + 96 + 72 + 16 + 1.
        assert_eq!(reps.len(), 209);
        let text = |g: &str| game.parse_code(g).unwrap();
        assert!(reps.contains(&text("0145")));
        assert!(!reps.contains(&text("0154")));
        assert!(reps.contains(&text("4567")));
        // Seed 000's enumeration with p = 3 is the same set.
        let seed: Vec<Code> = book
            .all()
            .filter(|&g| seed000_enumerates(book.symbols(g), 3))
            .collect();
        assert_eq!(seed, reps);
    }
}
