//! Code lists: games whose codes are a list of words (Wordle's 12,972
//! allowed guesses), not every code of their positions and symbols.
//!
//! A [`CodeList`] is the universe of such a game: its codes are the listed
//! words, numbered `0 .. len` in lexicographic order of their symbols
//! (`Code` indexes them, so at most [`MAX_CODES`]); the game of every code
//! of the same positions and symbols may be far larger (26^5 for Wordle).
//! Its rules are [`Rules::listed`] (the list's size and identity ride on
//! them, so two lists are two games) and its codebook
//! [`crate::model::Codebook::from_list`]; the secrets are a
//! [`crate::model::secrets::SecretSet`] of those codes, as for any game.
//!
//! Invariants of a [`CodeList`]:
//! - 1 to [`MAX_CODES`] codes, each of `positions` symbols below
//!   `symbols`, sorted lexicographically and distinct;
//! - an alphabet of exactly `symbols` letters writes them (symbol `i` is
//!   its `i`-th letter); a list read without one gets the letters its words
//!   use, sorted (lower case);
//! - `repeats` is true exactly when some code repeats a symbol;
//! - its identity ([`CodeList::id`]) is FNV-1a over the positions, the
//!   symbols and every code's symbols in order: a pure function of the
//!   codes, whatever the file, the order of its lines or the name.

use crate::model::alphabet::Alphabet;
use crate::model::answer::AnswerRule;
use crate::model::echo::Echo;
use crate::model::rules::{Rules, RulesError, MAX_CODES, MAX_SYMBOLS};
use crate::model::secrets::ListError;

/// The codes of a game that plays a list (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CodeList {
    positions: u8,
    symbols: u8,
    repeats: bool,
    /// `positions` symbols per code, code after code, sorted, distinct.
    codes: Vec<u8>,
    alphabet: Alphabet,
    name: String,
    id: u32,
}

impl CodeList {
    /// Reads a word list: one word a line (blank lines and `#` comments
    /// skipped), every word as long as the first, each letter one of
    /// `alphabet` (or, without one, the letters the words use, lower case,
    /// sorted), no word twice. A bad line is reported as `name:line`.
    pub fn parse(
        text: &str,
        alphabet: Option<&Alphabet>,
        name: &str,
    ) -> Result<CodeList, ListError> {
        let line_error = |line: usize, why: String| ListError::Line {
            name: name.to_string(),
            line,
            why,
        };
        let words: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let Some(&(_, first)) = words.first() else {
            return Err(ListError::Empty {
                name: name.to_string(),
            });
        };
        let k = first.chars().count();
        let alphabet = match alphabet {
            Some(a) => a.clone(),
            None => {
                let mut letters: Vec<char> = words
                    .iter()
                    .flat_map(|(_, w)| w.chars().flat_map(char::to_lowercase))
                    .collect();
                letters.sort_unstable();
                letters.dedup();
                if letters.len() > MAX_SYMBOLS as usize {
                    return Err(ListError::File {
                        name: name.to_string(),
                        why: format!(
                            "the words use {} different letters; a game has at most {MAX_SYMBOLS}",
                            letters.len()
                        ),
                    });
                }
                let text: String = letters.into_iter().collect();
                Alphabet::new(&text).map_err(|e| ListError::File {
                    name: name.to_string(),
                    why: format!("its letters cannot be an alphabet: {}", e.why),
                })?
            }
        };
        let mut codes = Vec::with_capacity(words.len() * k);
        for &(line, word) in &words {
            let got = word.chars().count();
            if got != k {
                return Err(line_error(
                    line,
                    format!(
                        "{} has {got} letters, but the list's words have {k} (as its first word, {})",
                        Echo::new(word),
                        Echo::new(first)
                    ),
                ));
            }
            for c in word.chars() {
                match alphabet.symbol(c) {
                    Some(s) => codes.push(s),
                    None => {
                        return Err(line_error(
                            line,
                            format!(
                                "{}: {} is not a letter of the alphabet {}",
                                Echo::new(word),
                                Echo::new(&c.to_string()),
                                Echo::new(&alphabet.text())
                            ),
                        ))
                    }
                }
            }
        }
        if words.len() > MAX_CODES {
            return Err(ListError::File {
                name: name.to_string(),
                why: format!("{} words; a list has at most {MAX_CODES}", words.len()),
            });
        }
        // Sort the codes, keeping each one's line to name a duplicate.
        let mut order: Vec<usize> = (0..words.len()).collect();
        order.sort_by(|&a, &b| {
            codes[a * k..a * k + k]
                .cmp(&codes[b * k..b * k + k])
                .then(a.cmp(&b))
        });
        for pair in order.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if codes[a * k..a * k + k] == codes[b * k..b * k + k] {
                return Err(line_error(
                    words[b].0,
                    format!(
                        "{} is listed twice (first on line {})",
                        Echo::new(words[b].1),
                        words[a].0
                    ),
                ));
            }
        }
        let sorted: Vec<u8> = order
            .iter()
            .flat_map(|&i| codes[i * k..i * k + k].iter().copied())
            .collect();
        CodeList::new(k, alphabet, sorted, name).map_err(|e| ListError::File {
            name: name.to_string(),
            why: e.to_string(),
        })
    }

    /// A list of the codes `codes` (`positions` symbols each, below the
    /// alphabet's length), which must be sorted and distinct.
    pub fn new(
        positions: usize,
        alphabet: Alphabet,
        codes: Vec<u8>,
        name: &str,
    ) -> Result<CodeList, RulesError> {
        let n = alphabet.len();
        let len = codes.len() / positions.max(1);
        let bad = |why: String| Err(RulesError::List(why));
        if positions == 0 || codes.len() != len * positions {
            return bad(format!("a list of codes of {positions} symbols"));
        }
        if codes.iter().any(|&s| s as usize >= n) {
            return bad(format!("a code with a symbol outside {n} letters"));
        }
        let chunks: Vec<&[u8]> = codes.chunks_exact(positions).collect();
        if chunks.windows(2).any(|w| w[0] >= w[1]) {
            return bad("a list not sorted, or with a code twice".into());
        }
        let repeats = chunks
            .iter()
            .any(|c| c.iter().enumerate().any(|(i, s)| c[..i].contains(s)));
        Rules::listed(positions, n, repeats, len, 0)?;
        let id = fnv1a([positions as u8, n as u8].iter().chain(&codes).copied());
        Ok(CodeList {
            positions: positions as u8,
            symbols: n as u8,
            repeats,
            codes,
            alphabet,
            name: name.to_string(),
            id,
        })
    }

    /// The rules of the game of this list under `answer`.
    pub fn rules(&self, answer: AnswerRule) -> Result<Rules, RulesError> {
        Rules::listed(
            self.positions as usize,
            self.symbols as usize,
            self.repeats,
            self.len(),
            self.id,
        )?
        .with_answer(answer)
    }

    /// Number of codes.
    pub fn len(&self) -> usize {
        self.codes.len() / self.positions as usize
    }

    /// Always false: a list has a code.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Positions of a code.
    pub fn positions(&self) -> usize {
        self.positions as usize
    }

    /// The codes' symbols, code after code, sorted.
    pub fn symbols(&self) -> &[u8] {
        &self.codes
    }

    /// The letters that write the symbols.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Where the list came from (its file name), for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The list's identity (see the module doc).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The number of code `i` among every code of the list's positions
    /// and symbols, in lexicographic order (its symbols read in base
    /// `symbols`, the first position the most significant).
    pub fn number(&self, i: usize) -> u64 {
        let k = self.positions as usize;
        self.codes[i * k..i * k + k]
            .iter()
            .fold(0u64, |v, &s| v * self.symbols as u64 + s as u64)
    }

    /// The list of the codes whose numbers ([`CodeList::number`]) are
    /// `numbers` (increasing), or why not.
    pub fn from_numbers(
        positions: usize,
        alphabet: Alphabet,
        numbers: &[u64],
        name: &str,
    ) -> Result<CodeList, RulesError> {
        let n = alphabet.len() as u64;
        let mut codes = vec![0u8; numbers.len() * positions];
        for (i, &v) in numbers.iter().enumerate() {
            let mut v = v;
            for s in codes[i * positions..(i + 1) * positions].iter_mut().rev() {
                *s = (v % n) as u8;
                v /= n;
            }
            if v != 0 {
                return Err(RulesError::List(format!(
                    "code number {} is beyond the codes of {positions} symbols out of {n}",
                    numbers[i]
                )));
            }
        }
        CodeList::new(positions, alphabet, codes, name)
    }
}

/// FNV-1a, 32 bits.
fn fnv1a(bytes: impl Iterator<Item = u8>) -> u32 {
    bytes.fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_read_sorted_and_checked() {
        let list = CodeList::parse("# w\nbca\nabc\n\ncab\n", None, "w.txt").unwrap();
        assert_eq!(list.len(), 3);
        assert_eq!(list.alphabet().text(), "abc");
        assert_eq!(list.symbols(), &[0, 1, 2, 1, 2, 0, 2, 0, 1]);
        let rules = list.rules(AnswerRule::Wordle).unwrap();
        assert_eq!(rules.code_count(), 3);
        assert!(rules.is_listed() && !rules.has_symmetry());
        // The same codes in another order: the same list.
        let again = CodeList::parse("cab\nbca\nabc\n", None, "other").unwrap();
        assert_eq!(again.id(), list.id());
        assert_eq!(again.rules(AnswerRule::Wordle), Ok(rules));
        let other = CodeList::parse("cab\nbca\nacb\n", None, "w").unwrap();
        assert_ne!(other.rules(AnswerRule::Wordle).unwrap(), rules);
        let err = |text: &str, a: Option<&str>| {
            let a = a.map(|a| Alphabet::new(a).unwrap());
            CodeList::parse(text, a.as_ref(), "w.txt")
                .unwrap_err()
                .to_string()
        };
        assert!(err("abc\nabcd\n", None).starts_with("w.txt:2: 'abcd' has 4 letters"));
        assert!(err("abc\nabz\n", Some("abc")).contains("w.txt:2: 'abz': 'z' is not a letter"));
        assert!(err("abc\nbca\nabc\n", None)
            .contains("w.txt:3: 'abc' is listed twice (first on line 1)"));
        assert!(err("#\n", None).contains("no code"));
        // Numbers round trip.
        let numbers: Vec<u64> = (0..list.len()).map(|i| list.number(i)).collect();
        assert_eq!(numbers, [5, 15, 19]);
        let back = CodeList::from_numbers(3, list.alphabet().clone(), &numbers, "w.txt").unwrap();
        assert_eq!(back, list);
        assert!(CodeList::from_numbers(3, list.alphabet().clone(), &[27], "w").is_err());
        assert!(CodeList::from_numbers(3, list.alphabet().clone(), &[5, 5], "w").is_err());
    }

    /// A slow Wordle scorer on strings, independent of the model's: for
    /// each letter of the guess not green, it is yellow when the secret
    /// has more copies of it outside the greens than the guess has yellow
    /// copies of it to its left.
    fn slow_wordle(secret: &str, guess: &str) -> String {
        let s: Vec<char> = secret.chars().collect();
        let g: Vec<char> = guess.chars().collect();
        let mut out = String::new();
        for i in 0..g.len() {
            if s[i] == g[i] {
                out.push('G');
                continue;
            }
            let free = (0..s.len())
                .filter(|&j| s[j] == g[i] && g[j] != s[j])
                .count();
            let used = (0..i).filter(|&j| g[j] == g[i] && s[j] != g[j]).count();
            out.push(if used < free { 'Y' } else { 'B' });
        }
        out
    }

    /// Bulls and cows on strings, by counting letters.
    fn slow_bulls_cows(secret: &str, guess: &str) -> (usize, usize) {
        let bulls = secret
            .chars()
            .zip(guess.chars())
            .filter(|(a, b)| a == b)
            .count();
        let common: usize = ('a'..='z')
            .map(|c| {
                let n = |w: &str| w.chars().filter(|&d| d == c).count();
                n(secret).min(n(guess))
            })
            .sum();
        (bulls, common - bulls)
    }

    /// Random words over `letters`, `k` long, `count` of them (fewer when
    /// a word repeats).
    fn words(seed: u64, k: usize, letters: &str, count: usize) -> Vec<String> {
        let letters: Vec<char> = letters.chars().collect();
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut out: Vec<String> = (0..count)
            .map(|_| (0..k).map(|_| letters[rng.below(letters.len())]).collect())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Games of small word lists under every rule: every answer, every
    /// possible answer, reading and writing words, against slow scorers.
    #[test]
    fn list_games_agree_with_brute_force() {
        use crate::model::game::Game;
        use crate::model::secrets::{GuessMode, SecretSet};
        for (seed, k, letters) in [(1, 5, "abcdefg"), (2, 4, "aeiourst"), (3, 3, "xyz")] {
            let all = words(seed, k, letters, 60);
            let list = CodeList::parse(&all.join("\n"), None, "words").unwrap();
            assert_eq!(list.len(), all.len());
            for rule in [
                AnswerRule::Wordle,
                AnswerRule::BullsCows,
                AnswerRule::BlackPeg,
            ] {
                let book_game = Game::of_list(list.clone(), rule, None).unwrap();
                // Secrets: every third word.
                let secrets: Vec<_> = book_game
                    .codes()
                    .all()
                    .filter(|c| c.index() % 3 == 0)
                    .collect();
                for mode in [GuessMode::All, GuessMode::Secrets] {
                    let set = SecretSet::new(secrets.clone(), mode, None, "s".into()).unwrap();
                    let game = book_game.with_secret_set(set);
                    assert_eq!(game.len(), all.len());
                    assert!(game.guesses_restricted());
                    let mut possible = std::collections::BTreeSet::new();
                    let mut given = std::collections::BTreeSet::new();
                    for g in game.codes().all() {
                        let gw = game.format_code(g);
                        assert_eq!(gw, all[g.index()]);
                        assert_eq!(game.parse_code(&gw.to_uppercase()), Ok(g));
                        assert_eq!(
                            game.is_guess(g),
                            mode == GuessMode::All || g.index() % 3 == 0
                        );
                        for &s in &game.secrets() {
                            let sw = game.format_code(s);
                            let want = match rule {
                                AnswerRule::Wordle => slow_wordle(&sw, &gw),
                                AnswerRule::BullsCows => {
                                    let (b, c) = slow_bulls_cows(&sw, &gw);
                                    format!("{b}A{c}B")
                                }
                                AnswerRule::BlackPeg => format!("{}A", slow_bulls_cows(&sw, &gw).0),
                            };
                            let f = game.feedback(s, g);
                            assert_eq!(game.format_feedback(f), want, "{rule} {sw} {gw}");
                            assert_eq!(f == game.win(), s == g);
                            if game.is_guess(g) {
                                possible.insert(want);
                                given.insert(f.index());
                            }
                        }
                    }
                    // Asked one by one before the whole list is computed.
                    for i in 0..game.rules().feedback_slots() + 1 {
                        let f = crate::model::Feedback(i as u8);
                        assert_eq!(game.is_possible(f), given.contains(&i), "{rule} {i}");
                    }
                    let listed: std::collections::BTreeSet<String> = game
                        .possible_feedbacks()
                        .map(|f| game.format_feedback(f))
                        .collect();
                    assert_eq!(listed, possible, "{rule} {mode:?}");
                    // A word outside the list is refused, not misread.
                    let outside = (0..)
                        .map(|i| words(100 + i, k, letters, 1).remove(0))
                        .find(|w| !all.contains(w))
                        .unwrap();
                    let err = game.parse_code(&outside).unwrap_err().to_string();
                    assert!(err.contains("is not in the list"), "{err}");
                }
            }
        }
    }
}
