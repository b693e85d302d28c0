//! Feedback by bit signatures: two AND-and-popcounts per pair, no table.
//!
//! For a game of `k` positions and `n` symbols with `k * n <= 64`, each code
//! gets two 64-bit signatures:
//! - `place`: bit `i * n + s` set when position `i` holds symbol `s`, so
//!   `popcount(place(a) & place(b))` is the number of bulls;
//! - `count`: bit `s * k + j` set when symbol `s` occurs more than `j` times
//!   (a unary count per symbol), so `popcount(count(a) & count(b))` is
//!   `Σ_s min(count_a(s), count_b(s))`, bulls plus cows.
//!
//! Bulls and cows only: for another answer rule there are no signatures
//! and the [`Oracle`] asks the game.
//!
//! Invariant: [`Signatures::feedback`] equals [`Game::feedback`] for every
//! pair (tested exhaustively on small games). The tree reader and the player
//! use it to replay thousands of secrets without building the `N²` table;
//! building the signatures costs one pass over the codes.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;

/// The two signatures of every code of one game.
#[derive(Debug, Clone)]
pub struct Signatures {
    positions: usize,
    /// `(place, count)` per code.
    codes: Vec<(u64, u64)>,
}

impl Signatures {
    /// The signatures of `game`'s codes, or `None` when `k * n > 64` or
    /// the game's answer rule is not bulls and cows.
    pub fn new(game: &Game) -> Option<Signatures> {
        let rules = game.rules();
        let (k, n) = (rules.positions(), rules.symbols());
        if !rules.answer().is_bulls_cows() {
            return None;
        }
        if k * n > 64 {
            return None;
        }
        let book = game.codes();
        let codes = book
            .all()
            .map(|c| {
                let symbols = book.symbols(c);
                let mut place = 0u64;
                let mut count = 0u64;
                for (i, &s) in symbols.iter().enumerate() {
                    // Occurrences of `s` before position `i`.
                    let j = symbols[..i].iter().filter(|&&t| t == s).count();
                    place |= 1 << (i * n + s as usize);
                    count |= 1 << (s as usize * k + j);
                }
                (place, count)
            })
            .collect();
        Some(Signatures {
            positions: k,
            codes,
        })
    }

    /// Feedback of `guess` against `secret`.
    #[inline]
    pub fn feedback(&self, secret: Code, guess: Code) -> Feedback {
        let (ps, cs) = self.codes[secret.index()];
        let (pg, cg) = self.codes[guess.index()];
        let bulls = (ps & pg).count_ones() as usize;
        let common = (cs & cg).count_ones() as usize;
        Feedback::new(bulls, common - bulls, self.positions)
    }
}

/// Feedback through signatures when the game has them, else the game's rule.
#[derive(Debug)]
pub struct Oracle<'a> {
    game: &'a Game,
    signatures: Option<Signatures>,
}

impl<'a> Oracle<'a> {
    /// Builds the signatures of `game` if they fit.
    pub fn new(game: &'a Game) -> Oracle<'a> {
        Oracle {
            game,
            signatures: Signatures::new(game),
        }
    }

    /// Feedback of `guess` against `secret`.
    #[inline]
    pub fn feedback(&self, secret: Code, guess: Code) -> Feedback {
        match &self.signatures {
            Some(s) => s.feedback(secret, guess),
            None => self.game.feedback(secret, guess),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    #[test]
    fn signatures_agree_with_the_rule() {
        for rules in [
            "moo:4x10", "mm:4x6", "mm:3x5", "moo:3x7", "mm:1x1", "mm:2x16", "moo:4x16",
        ] {
            let rules: Rules = rules.parse().unwrap();
            let game = Game::new(rules);
            let sig = Signatures::new(&game).unwrap();
            let all = game.all_codes();
            let step = (all.len() / 400).max(1);
            for &g in all.iter().step_by(step) {
                for &s in &all {
                    assert_eq!(sig.feedback(s, g), game.feedback(s, g), "{rules}");
                }
            }
        }
        assert!(Signatures::new(&Game::new("mm:2x36".parse().unwrap())).is_none());
    }
}
