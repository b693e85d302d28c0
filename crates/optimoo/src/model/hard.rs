//! Wordle's hard mode: which guesses a history allows. The one place that
//! says it; the search and the independent checker both ask [`Hard`].
//!
//! Rule: every later guess keeps each green letter in its place and uses
//! each letter at least as often as one answer showed it green or yellow
//! (a guess answered `GYB..` for `a a b` shows two `a`s; the counts of one
//! answer are kept, the largest over the history).
//!
//! Invariants:
//! - [`Hard::allows`] depends only on the history (through [`Hard::after`]),
//!   never on the candidates; the empty history allows every code.
//! - Every candidate a history leaves (a code every answer allows as the
//!   secret) is allowed: its letters are green where the answers showed
//!   green, and it holds each letter at least as often as any answer showed
//!   it green or yellow (Wordle marks `min(copies in the guess, copies in
//!   the secret)` of each letter). So guessing the candidates one by one
//!   always finishes (tested).
//! - Two histories with equal [`Hard`] values allow the same guesses after
//!   any further guesses and answers, so the value is a sound memo key.

use crate::model::feedback::Feedback;

/// A letter not fixed at a position.
const FREE: u8 = u8::MAX;

/// What a history of Wordle answers forces on the next guess (see the
/// module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hard {
    /// The letter fixed at each position, or `FREE`.
    green: [u8; 5],
    /// The least number of copies of each letter.
    min: [u8; 36],
}

impl Default for Hard {
    fn default() -> Hard {
        Hard::new()
    }
}

impl Hard {
    /// The empty history: any code.
    pub fn new() -> Hard {
        Hard {
            green: [FREE; 5],
            min: [0; 36],
        }
    }

    /// Whether `guess` (its symbols, at most 5) keeps every green letter in
    /// place and uses every revealed letter often enough.
    pub fn allows(&self, guess: &[u8]) -> bool {
        let mut counts = [0u8; 36];
        for (i, &s) in guess.iter().enumerate() {
            if self.green[i] != FREE && self.green[i] != s {
                return false;
            }
            counts[usize::from(s)] += 1;
        }
        counts.iter().zip(&self.min).all(|(c, m)| c >= m)
    }

    /// The green letters: each fixed position with its symbol.
    pub fn greens(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.green
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s != FREE)
            .map(|(i, &s)| (i, s))
    }

    /// The revealed symbols: each with the least number of copies a guess
    /// must hold (at least 1).
    pub fn least_counts(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.min
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m > 0)
            .map(|(s, &m)| (s as u8, m))
    }

    /// The constraint after `guess` got the colours `colours` (a digit a
    /// position: 0 grey, 1 yellow, 2 green).
    pub fn after_colours(&self, guess: &[u8], colours: &[u8]) -> Hard {
        let mut next = *self;
        let mut shown = [0u8; 36];
        for (i, (&s, &c)) in guess.iter().zip(colours).enumerate() {
            if c == 2 {
                next.green[i] = s;
            }
            if c > 0 {
                shown[usize::from(s)] += 1;
            }
        }
        for (m, s) in next.min.iter_mut().zip(shown) {
            *m = (*m).max(s);
        }
        next
    }

    /// The constraint after `guess` got the Wordle answer `answer`
    /// (packed as [`crate::model::AnswerRule::Wordle`] packs it).
    pub fn after(&self, guess: &[u8], answer: Feedback) -> Hard {
        let k = guess.len();
        let mut colours = [0u8; 5];
        let mut v = answer.index();
        for c in colours[..k].iter_mut().rev() {
            *c = (v % 3) as u8;
            v /= 3;
        }
        self.after_colours(guess, &colours[..k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::answer::AnswerRule;

    fn word(w: &str) -> Vec<u8> {
        w.bytes().map(|b| b - b'a').collect()
    }

    #[test]
    fn greens_stay_and_yellows_are_used() {
        let rule = AnswerRule::Wordle;
        let (secret, guess) = (word("abide"), word("speed"));
        let h = Hard::new().after(&guess, rule.answer(&secret, &guess));
        // speed against abide: BBYBY, an e and the d revealed.
        assert!(h.allows(&word("ideal")));
        assert!(!h.allows(&word("crane")), "no d");
        let (secret, guess) = (word("hello"), word("lllll"));
        let h = Hard::new().after(&guess, rule.answer(&secret, &guess));
        // BBGGB: l fixed at positions 2 and 3, two l's.
        assert!(h.allows(&word("xxllx")));
        assert!(!h.allows(&word("lxlxx")));
    }

    /// Every candidate a random history of mm:4x4 leaves is allowed.
    #[test]
    fn candidates_are_always_allowed() {
        let rule = AnswerRule::Wordle;
        let codes: Vec<Vec<u8>> = (0..256u32)
            .map(|v| (0..4).map(|i| ((v >> (2 * i)) & 3) as u8).collect())
            .collect();
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..300 {
            let secret = &codes[rng.below(256)];
            let mut h = Hard::new();
            let mut history = Vec::new();
            for _ in 0..3 {
                let g = &codes[rng.below(256)];
                let a = rule.answer(secret, g);
                h = h.after(g, a);
                history.push((g.clone(), a));
            }
            for c in &codes {
                if history.iter().all(|(g, a)| rule.answer(c, g) == *a) {
                    assert!(h.allows(c), "{c:?} {history:?}");
                }
            }
        }
    }
}
