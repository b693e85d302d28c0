//! The answer rule: what the codemaker answers to a guess. The one place
//! that defines each rule (its feedback, its number of answer slots, its
//! winning answer, how an answer is written and read), and the answer
//! itself: [`Feedback`], one byte, and [`FeedbackError`], why a written
//! answer is refused. Nothing here depends on the rest of the model, which
//! builds on it (rules, codes, the feedback tables).
//!
//! Rules:
//! - [`AnswerRule::BullsCows`] (the default, Mastermind's count rule):
//!   bulls and cows, packed `bulls * (k + 1) + cows`; `(k + 1)²` slots; the
//!   win `kA0B` is `k * (k + 1)`, the largest answer a pair gives.
//! - [`AnswerRule::BlackPeg`]: bulls only (black-peg Mastermind, the AB
//!   game); packed as the number of bulls, `k + 1` slots, the win is `k`,
//!   the largest slot. Written `2A`, read as `2A`, `2a` or `2`.
//! - [`AnswerRule::Wordle`]: a colour per position. Greens first (equal
//!   symbols at equal places); then each other position of the guess, from
//!   left to right, is yellow while the secret still has an unmatched copy
//!   of its symbol (an unmatched copy is one not green and not already used
//!   by an earlier yellow), else grey. Packed in base 3, the first position
//!   the most significant digit, grey 0, yellow 1, green 2: `3^k` slots
//!   (243 for 5 letters), the win (all green) is `3^k − 1`, the largest
//!   slot. At most [`WORDLE_MAX_POSITIONS`] positions, so an answer fits a
//!   byte. Written `GYBBY` (B: grey); read as `GYBBY`, `gy---` (`-`, `.`,
//!   `B` or `b` for grey) or the squares 🟩🟨⬛⬜, spaces ignored.
//!
//! Invariants:
//! - For every rule an answer's index is below [`AnswerRule::slots`] and
//!   the winning answer is the largest index a pair gives (the last slot
//!   under black pegs and Wordle; `k(k + 1)` under bulls and cows, whose
//!   slots above it are never given).
//! - Bulls-cows and black-peg answers do not depend on which code is the
//!   secret; Wordle's do ([`AnswerRule::is_symmetric`]).
//! - Relabelling the symbols of both codes keeps every rule's answer;
//!   permuting the positions of both keeps bulls-cows and black-peg answers
//!   only ([`AnswerRule::keeps_position_permutations`]).

use std::fmt;
use std::str::FromStr;

use crate::model::echo::Echo;

/// Most positions of a Wordle game: `3^5 = 243` answers fit a byte.
pub const WORDLE_MAX_POSITIONS: usize = 5;

/// An answer `xAyB`, packed as `bulls * (k + 1) + cows` (see module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Feedback(pub u8);

impl Feedback {
    /// Packs bulls and cows for a game of `positions` positions.
    #[inline]
    pub fn new(bulls: usize, cows: usize, positions: usize) -> Feedback {
        debug_assert!(bulls + cows <= positions);
        Feedback((bulls * (positions + 1) + cows) as u8)
    }

    /// The winning answer `kA0B`.
    #[inline]
    pub fn win(positions: usize) -> Feedback {
        Feedback::new(positions, 0, positions)
    }

    /// The packed value, to index arrays of `Rules::feedback_slots()` entries.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Bulls (A).
    pub fn bulls(self, positions: usize) -> usize {
        self.index() / (positions + 1)
    }

    /// Cows (B).
    pub fn cows(self, positions: usize) -> usize {
        self.index() % (positions + 1)
    }

    /// Writes `xAyB`.
    pub fn format(self, positions: usize) -> String {
        format!("{}A{}B", self.bulls(positions), self.cows(positions))
    }
}

/// Errors reading feedback.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FeedbackError {
    /// Not of a form we read.
    #[error("cannot read feedback {0}: write bulls and cows as 1A2B, 1a2b, '1 2' or 1,2")]
    Syntax(Echo),
    /// An answer of another rule than bulls and cows that is not read
    /// (the message says why: `AnswerRule::parse`).
    #[error("{0}")]
    Rule(String),
    /// Well formed, but no pair of codes of this game gives it.
    #[error("{text} is impossible in {rules}: the possible answers are {allowed}")]
    Impossible {
        /// the answer, written in the canonical form
        text: String,
        /// the game, written as its preset or rules
        rules: String,
        /// every possible answer, written out
        allowed: String,
    },
}

/// Reads `1A2B`, `1a2b`, `1 2` or `1,2` into (bulls, cows), unchecked.
pub fn parse_pair(text: &str) -> Result<(usize, usize), FeedbackError> {
    let syntax = || FeedbackError::Syntax(Echo::new(text));
    let t = text.trim().to_ascii_uppercase();
    let (a, b) = if let Some(rest) = t.strip_suffix('B') {
        let (a, b) = rest.split_once('A').ok_or_else(syntax)?;
        (a.trim().to_string(), b.trim().to_string())
    } else {
        let mut parts = t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty());
        let a = parts.next().ok_or_else(syntax)?.to_string();
        let b = parts.next().ok_or_else(syntax)?.to_string();
        if parts.next().is_some() {
            return Err(syntax());
        }
        (a, b)
    };
    let a: usize = a.parse().map_err(|_| syntax())?;
    let b: usize = b.parse().map_err(|_| syntax())?;
    Ok((a, b))
}

/// What the codemaker answers to a guess (see the module doc).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerRule {
    /// Bulls and cows (Mastermind's black and white pegs).
    #[default]
    BullsCows,
    /// Bulls only (black pegs).
    BlackPeg,
    /// Wordle's colour per position.
    Wordle,
}

/// An unknown rule name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown answer rule {0}: write bulls-cows, black-peg or wordle")]
pub struct AnswerRuleError(pub Echo);

impl AnswerRule {
    /// The names `--rules` takes.
    pub const NAMES: &'static [(&'static str, AnswerRule)] = &[
        ("bulls-cows", AnswerRule::BullsCows),
        ("black-peg", AnswerRule::BlackPeg),
        ("wordle", AnswerRule::Wordle),
    ];

    /// The rule's name.
    pub fn name(self) -> &'static str {
        match self {
            AnswerRule::BullsCows => "bulls-cows",
            AnswerRule::BlackPeg => "black-peg",
            AnswerRule::Wordle => "wordle",
        }
    }

    /// Whether this is the default rule, bulls and cows.
    pub fn is_bulls_cows(&self) -> bool {
        *self == AnswerRule::BullsCows
    }

    /// Whether the answer of a pair does not depend on which is the secret.
    pub fn is_symmetric(self) -> bool {
        self != AnswerRule::Wordle
    }

    /// Whether permuting the positions of both codes keeps the answer.
    pub fn keeps_position_permutations(self) -> bool {
        self != AnswerRule::Wordle
    }

    /// Number of answer slots for `k` positions: every answer's index is
    /// below it.
    pub fn slots(self, k: usize) -> usize {
        match self {
            AnswerRule::BullsCows => (k + 1) * (k + 1),
            AnswerRule::BlackPeg => k + 1,
            AnswerRule::Wordle => 3usize.pow(k as u32),
        }
    }

    /// The winning answer for `k` positions: the largest answer any pair
    /// gives (`kA0B`; the last slot under black pegs and Wordle).
    pub fn win(self, k: usize) -> Feedback {
        match self {
            AnswerRule::BullsCows => Feedback::win(k),
            _ => Feedback((self.slots(k) - 1) as u8),
        }
    }

    /// The answer to `guess` when the secret is `secret` (symbols of two
    /// codes of `k` positions, each below 36).
    pub fn answer(self, secret: &[u8], guess: &[u8]) -> Feedback {
        let k = secret.len();
        match self {
            AnswerRule::BullsCows | AnswerRule::BlackPeg => {
                let bulls = secret.iter().zip(guess).filter(|(a, b)| a == b).count();
                if self == AnswerRule::BlackPeg {
                    return Feedback(bulls as u8);
                }
                let mut counts = [0u8; 64];
                for &s in secret {
                    counts[s as usize] += 1;
                }
                let mut common = 0;
                for &g in guess {
                    if counts[g as usize] > 0 {
                        counts[g as usize] -= 1;
                        common += 1;
                    }
                }
                Feedback::new(bulls, common - bulls, k)
            }
            AnswerRule::Wordle => Feedback(wordle(secret, guess) as u8),
        }
    }

    /// Writes an answer: `1A2B`, `2A`, or `GYBBY`.
    pub fn format(self, f: Feedback, k: usize) -> String {
        match self {
            AnswerRule::BullsCows => f.format(k),
            AnswerRule::BlackPeg => format!("{}A", f.index()),
            AnswerRule::Wordle => {
                let mut digits = vec![b'B'; k];
                let mut v = f.index();
                for d in digits.iter_mut().rev() {
                    *d = [b'B', b'Y', b'G'][v % 3];
                    v /= 3;
                }
                String::from_utf8(digits).expect("ASCII")
            }
        }
    }

    /// Reads an answer of a game of `k` positions; checks its form and its
    /// range, not whether some pair of codes gives it
    /// ([`crate::model::Game::parse_feedback`] does).
    pub fn parse(self, text: &str, k: usize) -> Result<Feedback, FeedbackError> {
        match self {
            AnswerRule::BullsCows => {
                let (bulls, cows) = parse_pair(text)?;
                match bulls.checked_add(cows) {
                    Some(sum) if sum <= k => Ok(Feedback::new(bulls, cows, k)),
                    _ => Err(FeedbackError::Rule(format!(
                        "{bulls}A{cows}B is impossible: a code has {k} positions"
                    ))),
                }
            }
            AnswerRule::BlackPeg => {
                let t = text.trim().to_ascii_uppercase();
                let digits = t.strip_suffix('A').unwrap_or(&t).trim();
                let bulls: usize = digits.parse().map_err(|_| {
                    FeedbackError::Rule(format!(
                        "cannot read black-peg answer {}: write the number of bulls as 2A or 2",
                        Echo::new(text)
                    ))
                })?;
                if bulls > k {
                    return Err(FeedbackError::Rule(format!(
                        "{bulls}A is impossible: a code has {k} positions"
                    )));
                }
                Ok(Feedback(bulls as u8))
            }
            AnswerRule::Wordle => {
                let syntax = || {
                    FeedbackError::Rule(format!(
                        "cannot read Wordle answer {}: write a colour per letter as GYBBY, \
                         gy--- (-, . or B for grey) or the squares 🟩🟨⬛⬜",
                        Echo::new(text)
                    ))
                };
                let mut value = 0usize;
                let mut len = 0usize;
                for c in text.chars() {
                    let digit = match c {
                        'G' | 'g' | '\u{1F7E9}' => 2,
                        'Y' | 'y' | '\u{1F7E8}' => 1,
                        'B' | 'b' | '-' | '.' | '\u{2B1B}' | '\u{2B1C}' => 0,
                        // Emoji variation selector, as some keyboards add.
                        '\u{FE0F}' => continue,
                        c if c.is_whitespace() => continue,
                        _ => return Err(syntax()),
                    };
                    len += 1;
                    if len > k {
                        break;
                    }
                    value = value * 3 + digit;
                }
                if len != k {
                    return Err(FeedbackError::Rule(format!(
                        "Wordle answer {} needs one colour per letter: {k} of them",
                        Echo::new(text)
                    )));
                }
                Ok(Feedback(value as u8))
            }
        }
    }
}

/// Wordle's answers to `secret` of every guess of `guesses` (the symbols
/// of codes of `k = secret.len()` positions, one after another), packed as
/// [`AnswerRule::answer`] packs them, into `out` (one per guess): the same
/// answers, a table row at a time (tested against it).
///
/// Branch-free, so that the compiler runs it on many guesses at once: a
/// letter of the guess at position `i` that is not green is yellow exactly
/// when the copies of it at earlier non-green positions of the guess are
/// fewer than its copies at non-green positions of the secret (the copies
/// are taken left to right, one unmatched copy of the secret each). Where
/// a Wordle table is built (2315 rows of 12972 for the game, 30 M answers)
/// the answer of each pair alone took most of a search from a fixed first
/// guess.
pub(crate) fn wordle_row(secret: &[u8], guesses: &[u8], out: &mut [Feedback]) {
    let k = secret.len();
    debug_assert!((1..=5).contains(&k) && guesses.len() == out.len() * k);
    // The guesses a position at a time (a column each), in blocks that
    // stay in the cache.
    let mut cols = [[0u8; ROW_BLOCK]; 5];
    for (block, out) in guesses.chunks(ROW_BLOCK * k).zip(out.chunks_mut(ROW_BLOCK)) {
        for (g, code) in block.chunks_exact(k).enumerate() {
            for (i, &c) in code.iter().enumerate() {
                cols[i][g] = c;
            }
        }
        match k {
            1 => wordle_block::<1>(secret, &cols, out),
            2 => wordle_block::<2>(secret, &cols, out),
            3 => wordle_block::<3>(secret, &cols, out),
            4 => wordle_block::<4>(secret, &cols, out),
            _ => wordle_block::<5>(secret, &cols, out),
        }
    }
}

/// Guesses per block of [`wordle_row`].
const ROW_BLOCK: usize = 512;

/// [`wordle_row`] for `out.len()` guesses of `K` positions, `cols[i][g]`
/// the letter of guess `g` at position `i`.
fn wordle_block<const K: usize>(secret: &[u8], cols: &[[u8; ROW_BLOCK]; 5], out: &mut [Feedback]) {
    let mut s = [0u8; K];
    s.copy_from_slice(&secret[..K]);
    let mut weight = [0u8; K];
    for (i, w) in weight.iter_mut().enumerate() {
        *w = 3u8.pow((K - 1 - i) as u32);
    }
    for (g, cell) in out.iter_mut().enumerate() {
        let mut l = [0u8; K];
        for i in 0..K {
            l[i] = cols[i][g];
        }
        // 1 where not green.
        let mut open = [0u8; K];
        let mut v = 0u8;
        for i in 0..K {
            let green = u8::from(l[i] == s[i]);
            open[i] = 1 - green;
            v += green * 2 * weight[i];
        }
        for i in 0..K {
            let mut spare = 0u8;
            for j in 0..K {
                spare += u8::from(l[i] == s[j]) & open[j];
            }
            let mut rank = 0u8;
            for j in 0..i {
                rank += u8::from(l[j] == l[i]) & open[j];
            }
            v += (open[i] & u8::from(rank < spare)) * weight[i];
        }
        *cell = Feedback(v);
    }
}

/// Wordle's answer packed in base 3 (see the module doc).
fn wordle(secret: &[u8], guess: &[u8]) -> usize {
    let k = secret.len();
    let mut colour = [0u8; 16];
    let mut spare = [0u8; 64];
    for i in 0..k {
        if secret[i] == guess[i] {
            colour[i] = 2;
        } else {
            spare[secret[i] as usize] += 1;
        }
    }
    for i in 0..k {
        let g = guess[i] as usize;
        if colour[i] != 2 && spare[g] > 0 {
            spare[g] -= 1;
            colour[i] = 1;
        }
    }
    colour[..k].iter().fold(0, |v, &d| v * 3 + d as usize)
}

impl fmt::Display for AnswerRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AnswerRule {
    type Err = AnswerRuleError;

    fn from_str(text: &str) -> Result<AnswerRule, AnswerRuleError> {
        let t = text.trim().to_ascii_lowercase();
        AnswerRule::NAMES
            .iter()
            .find(|(name, _)| *name == t)
            .map(|&(_, rule)| rule)
            .ok_or_else(|| AnswerRuleError(Echo::new(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent, slow Wordle rule on strings: greens, then for each
    /// other letter count the answer's copies not green and the guess's
    /// copies of it already yellow to its left.
    fn slow_wordle(answer: &str, guess: &str) -> String {
        let a: Vec<char> = answer.chars().collect();
        let g: Vec<char> = guess.chars().collect();
        let mut out = String::new();
        for i in 0..g.len() {
            if a[i] == g[i] {
                out.push('G');
                continue;
            }
            let free = (0..a.len())
                .filter(|&j| a[j] == g[i] && g[j] != a[j])
                .count();
            let used = (0..i).filter(|&j| g[j] == g[i] && a[j] != g[j]).count();
            out.push(if used < free { 'Y' } else { 'B' });
        }
        out
    }

    fn symbols(word: &str) -> Vec<u8> {
        word.bytes().map(|b| b - b'a').collect()
    }

    fn fast(answer: &str, guess: &str) -> String {
        let rule = AnswerRule::Wordle;
        rule.format(rule.answer(&symbols(answer), &symbols(guess)), answer.len())
    }

    #[test]
    fn wordle_known_examples() {
        // Double letters in the guess, one copy in the answer.
        assert_eq!(fast("abide", "speed"), "BBYBY");
        assert_eq!(fast("beret", "crepe"), "BYYBY");
        assert_eq!(fast("hello", "lllll"), "BBGGB");
        assert_eq!(fast("world", "hello"), "BBBGY");
        assert_eq!(fast("eerie", "fever"), "BGBYY");
        assert_eq!(fast("salet", "salet"), "GGGGG");
        assert_eq!(fast("abcde", "fghij"), "BBBBB");
    }

    /// The row at a time gives each pair's answer: every pair of the
    /// 4-letter words over 3 letters, and random 5-letter words.
    #[test]
    fn wordle_rows_equal_the_answer_of_each_pair() {
        for k in 1..=5usize {
            let words: Vec<Vec<u8>> = (0..3usize.pow(k as u32))
                .map(|mut v| {
                    (0..k)
                        .map(|_| {
                            let s = (v % 3) as u8;
                            v /= 3;
                            s
                        })
                        .collect()
                })
                .collect();
            let flat: Vec<u8> = words.concat();
            let mut out = vec![Feedback(0); words.len()];
            for s in &words {
                wordle_row(s, &flat, &mut out);
                for (g, f) in words.iter().zip(&out) {
                    assert_eq!(*f, AnswerRule::Wordle.answer(s, g), "{s:?} {g:?}");
                }
            }
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut word = || {
            (0..5)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 7) as u8
                })
                .collect::<Vec<u8>>()
        };
        let guesses: Vec<Vec<u8>> = (0..500).map(|_| word()).collect();
        let flat = guesses.concat();
        let mut out = vec![Feedback(0); guesses.len()];
        for _ in 0..100 {
            let s = word();
            wordle_row(&s, &flat, &mut out);
            for (g, f) in guesses.iter().zip(&out) {
                assert_eq!(*f, AnswerRule::Wordle.answer(&s, g), "{s:?} {g:?}");
            }
        }
    }

    #[test]
    fn wordle_matches_slow_rule_exhaustively_and_at_random() {
        // Every pair of 4-letter words over 3 letters (81² pairs), the
        // tricky repeats included.
        let words: Vec<String> = (0..81)
            .map(|mut v| {
                let mut w = String::new();
                for _ in 0..4 {
                    w.push((b'a' + (v % 3) as u8) as char);
                    v /= 3;
                }
                w
            })
            .collect();
        for a in &words {
            for g in &words {
                assert_eq!(fast(a, g), slow_wordle(a, g), "{a} {g}");
            }
        }
        // Random 5-letter words over 6 letters (many repeats).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let mut word = || {
                (0..5)
                    .map(|_| (b'a' + (next() % 6) as u8) as char)
                    .collect::<String>()
            };
            let (a, g) = (word(), word());
            assert_eq!(fast(&a, &g), slow_wordle(&a, &g), "{a} {g}");
        }
    }

    #[test]
    fn slots_and_wins_are_the_largest_answer() {
        for k in 1..=5 {
            for rule in [
                AnswerRule::BullsCows,
                AnswerRule::BlackPeg,
                AnswerRule::Wordle,
            ] {
                let s: Vec<u8> = (0..k as u8).collect();
                assert_eq!(rule.answer(&s, &s), rule.win(k), "{rule} {k}");
                assert!(rule.win(k).index() < rule.slots(k));
                if !rule.is_bulls_cows() {
                    assert_eq!(rule.win(k).index(), rule.slots(k) - 1);
                }
            }
        }
        assert_eq!(AnswerRule::Wordle.slots(5), 243);
        assert_eq!(
            AnswerRule::BlackPeg.answer(&[0, 1, 2], &[0, 2, 1]),
            Feedback(1)
        );
    }

    #[test]
    fn answers_are_read_in_every_form_and_written_back() {
        let w = AnswerRule::Wordle;
        let gybby = w.parse("GYBBY", 5).unwrap();
        for t in [
            "gybby",
            "gy--y",
            "gy..y",
            "G Y B B Y",
            "\u{1F7E9}\u{1F7E8}\u{2B1B}\u{2B1C}\u{1F7E8}",
            "\u{1F7E9}\u{1F7E8}\u{2B1B}\u{FE0F}\u{2B1C}\u{FE0F}\u{1F7E8}",
        ] {
            assert_eq!(w.parse(t, 5).unwrap(), gybby, "{t}");
        }
        assert_eq!(w.format(gybby, 5), "GYBBY");
        for bad in ["GYBB", "GYBBYG", "GYXBY", "", "1A2B"] {
            assert!(w.parse(bad, 5).is_err(), "{bad}");
        }
        let b = AnswerRule::BlackPeg;
        assert_eq!(b.parse("2A", 4).unwrap(), Feedback(2));
        assert_eq!(b.parse(" 2 ", 4).unwrap(), Feedback(2));
        assert_eq!(b.format(Feedback(2), 4), "2A");
        assert!(b.parse("5A", 4).is_err());
        assert!(b.parse("1A2B", 4).is_err());
        let c = AnswerRule::BullsCows;
        assert_eq!(c.format(c.parse("1 2", 4).unwrap(), 4), "1A2B");
        assert!(c.parse("3A2B", 4).is_err());
        for (name, rule) in AnswerRule::NAMES {
            assert_eq!(name.parse::<AnswerRule>().unwrap(), *rule);
            assert_eq!(rule.to_string(), *name);
        }
        assert!("bulls".parse::<AnswerRule>().is_err());
    }
}
