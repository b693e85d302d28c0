//! The rules in plain words, for the start of a game with a person (`moo`,
//! `moo host`), and the one `left` line both conversations print.
//!
//! Invariant: the answer letters are explained before any answer is asked
//! for or given: [`ANSWERS`] says what A and B count, [`game`] what the
//! secret is (how many symbols, which, repeats or not, a list; a word of a
//! code list); under another answer rule [`answers`] and [`how_to_answer`]
//! say its answers instead; [`shape`]
//! says it of a game of any size in the same words, so a game both can
//! describe gets the same line from both.

use crate::model::answer::AnswerRule;
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::shape::Shape;

/// What an answer says, in words.
pub const ANSWERS: &str = "Each guess is answered xAyB: A counts the symbols that are right \
                           and in the right place, B the symbols that are right but in the \
                           wrong place (1A2B: one in place, two elsewhere)";

/// What an answer says under the game's rule: [`ANSWERS`] for bulls and
/// cows, the bulls alone for black pegs, the colours for Wordle.
pub fn answers(game: &Game) -> &'static str {
    match game.rules().answer() {
        AnswerRule::BullsCows => ANSWERS,
        AnswerRule::BlackPeg => {
            "Each guess is answered xA: A counts the symbols that are right and in the \
             right place (2A: two in place)"
        }
        AnswerRule::Wordle => {
            "Each guess is answered with a colour per letter, as Wordle does: G (green) the \
             right letter in the right place, Y (yellow) a letter of the secret elsewhere \
             (each copy in the secret counted once, greens first, then left to right), B \
             (grey) no more of it"
        }
    }
}

/// How a person types an answer under the game's rule (the codebreaker's
/// help line starts with it).
pub fn how_to_answer(game: &Game) -> &'static str {
    match game.rules().answer() {
        AnswerRule::BullsCows => "Answer with bulls (A) and cows (B): 1A2B, 1a2b, '1 2' or 1,2",
        AnswerRule::BlackPeg => "Answer with the bulls (A): 2A or 2",
        AnswerRule::Wordle => {
            "Answer with a colour per letter: GYBBY, gy--- (-, . or B for grey) or the \
             squares 🟩🟨⬛"
        }
    }
}

/// Symbols as the standard games write them: `0-9`, then `a-z`.
const DIGITS: &str = "0123456789abcdefghijklmnopqrstuvwxyz";

/// The secret of `game` in words: `4 different symbols from 0-9, no
/// repeats (5040 possible)`, with a list `one of the 189 words of
/// data/words4.txt ...`. Begins with the game's name: `moo:4x10: ...`.
pub fn game(game: &Game) -> String {
    let rules = game.rules();
    if game.code_list().is_some() {
        let k = rules.positions();
        return format!(
            "{} (a word of {k} letters from {}; {} possible)",
            game.name(),
            symbols(game),
            game.secret_count()
        );
    }
    let list = game
        .secret_set()
        .map_or(String::new(), |set| format!("; one of {}", set.describe()));
    let what = what(rules.positions(), &symbols(game), rules.repeats());
    format!("{rules} ({what}{list}; {} possible)", game.secret_count())
}

/// The secret of a game of any size in words, as [`game`] says it of a
/// game of every code: `moo:10x10 (10 different symbols from 0-9; 3628800
/// possible)`.
pub fn shape(shape: &Shape) -> String {
    let what = what(shape.positions(), &range(shape.symbols()), shape.repeats());
    format!("{shape} ({what}; {} possible)", shape.code_count())
}

/// `k symbols from S, a symbol may repeat` or `k different symbols from S`.
fn what(k: usize, symbols: &str, repeats: bool) -> String {
    if repeats {
        format!("{k} symbols from {symbols}, a symbol may repeat")
    } else {
        format!("{k} different symbols from {symbols}")
    }
}

/// The first `n` standard symbols (`1 ≤ n ≤ 36`): `0-5`, `0-9 and a-f`.
fn range(n: usize) -> String {
    let last = |i: usize| DIGITS.as_bytes()[i - 1] as char;
    match n {
        0..=10 => format!("0-{}", last(n.max(1))),
        _ => format!("0-9 and a-{}", last(n.min(DIGITS.len()))),
    }
}

/// The symbols of `game` as its codes write them: a range of the standard
/// ones (`0-9`, `0-5`, `0-9 and a-f`), or the letters of an alphabet.
fn symbols(game: &Game) -> String {
    let mut seen: Vec<char> = Vec::new();
    for code in game.codes().all() {
        for c in game.format_code(code).chars() {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        if seen.len() == game.rules().symbols() {
            break;
        }
    }
    seen.sort_unstable();
    let n = seen.len();
    if n > 0 && DIGITS.starts_with(&seen.iter().collect::<String>()) {
        return range(n);
    }
    let letters: Vec<String> = seen.iter().map(|c| c.to_string()).collect();
    letters.join(" ")
}

/// The `left` line: how many secrets are still possible after `guesses`
/// guesses, and the first 20 of them (`moo` and `moo host` alike).
pub fn left(game: &Game, candidates: &[Code], guesses: usize) -> String {
    let shown: Vec<String> = candidates
        .iter()
        .take(LEFT_SHOWN)
        .map(|&c| game.format_code(c))
        .collect();
    left_line(candidates.len() as u64, &shown, guesses)
}

/// Codes the `left` line shows.
pub const LEFT_SHOWN: usize = 20;

/// The `left` line of [`left`] from the count `n` and the first codes
/// (at most [`LEFT_SHOWN`], written), for a game of any size.
pub fn left_line(n: u64, shown: &[String], guesses: usize) -> String {
    let more = if n > shown.len() as u64 { " …" } else { "" };
    format!(
        "{n} secret{} still possible after {guesses} guess{}: {}{more}",
        if n == 1 { "" } else { "s" },
        if guesses == 1 { "" } else { "es" },
        shown.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    #[test]
    fn games_are_said_in_words() {
        let moo = Game::new(Rules::standard());
        assert_eq!(
            game(&moo),
            "moo:4x10 (4 different symbols from 0-9; 5040 possible)"
        );
        let mm = Game::new(Rules::mm(4, 6).unwrap());
        assert_eq!(
            game(&mm),
            "mm:4x6 (4 symbols from 0-5, a symbol may repeat; 1296 possible)"
        );
        let big = Game::new(Rules::moo(2, 16).unwrap());
        assert!(game(&big).contains("from 0-9 and a-f"), "{}", game(&big));
        assert!(ANSWERS.find('A') < ANSWERS.find("right place"));
    }

    #[test]
    fn the_left_line_counts_and_lists() {
        let g = Game::new(Rules::moo(3, 5).unwrap());
        let all = g.secrets();
        let line = left(&g, &all, 0);
        assert!(line.starts_with("60 secrets still possible after 0 guesses: 012 013"));
        assert!(line.ends_with(" …"), "{line}");
        assert_eq!(
            left(&g, &all[..1], 1),
            "1 secret still possible after 1 guess: 012"
        );
    }
}
