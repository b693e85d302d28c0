//! The codebreaker's side of a conversation with a person (`moo`, `moo
//! play`): the computer guesses from a [`Player`], the person answers each
//! guess; the codemaker's side is [`crate::play::host`].
//!
//! Invariants: each guess is written alone on a line of the `guesses`
//! stream and everything else on the `talk` stream, so a script can read
//! stdout for guesses while a person reads stderr (or both on a terminal);
//! input is read with a length cap (`crate::play::input`); the player
//! never guesses after answers that contradict each other: an answer that
//! leaves no secret (or claims a win on a guess that cannot be the secret)
//! is refused at once, with `undo` offered, as `moo duel` refuses it
//! (`crate::play::duel`).

use std::io::{BufRead, Write};

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::play::explain;
use crate::play::input::{self, Line};
use crate::play::player::{Advice, Player, Source};

/// How an interactive game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerOutcome {
    /// The secret was found in this many guesses.
    Won(usize),
    /// The person typed `quit`.
    Quit,
    /// The input ended before the secret was found.
    Unfinished,
}

/// What to do after an answer refused as impossible (the words `moo duel`
/// says too).
pub const AGAIN: &str = "answer again, or type 'undo' to take your last answer back";

/// The help line after the rule's way to answer ([`explain::how_to_answer`]).
const HELP: &str =
    "'undo' takes the last answer back, 'left' shows the secrets still possible, 'quit' stops";

/// Plays one game as the codebreaker: prints a guess, reads the answer, and
/// so on until the win. `guesses` gets each guess alone on a line (or, when
/// `decorated`, with its number, for a person at a terminal); `talk` gets
/// prompts and messages.
pub fn interact(
    player: &Player<'_>,
    input: &mut dyn BufRead,
    guesses: &mut dyn Write,
    talk: &mut dyn Write,
    decorated: bool,
) -> std::io::Result<BreakerOutcome> {
    let game = player.game();
    let mut history: Vec<(Code, Feedback)> = Vec::new();
    // The advice for the current position; None after a contradiction.
    let mut current: Option<Advice> = None;
    let mut show = true;
    writeln!(
        talk,
        "Think of a secret of {}. I guess, you answer.\n{}.\n{}; {HELP}.",
        explain::game(game),
        explain::answers(game),
        explain::how_to_answer(game)
    )?;
    loop {
        if show {
            show = false;
            match player.advise(&history) {
                Ok(advice) => {
                    let code = game.format_code(advice.guess);
                    if decorated {
                        writeln!(guesses, "guess {}: {code}", history.len() + 1)?;
                    } else {
                        writeln!(guesses, "{code}")?;
                    }
                    guesses.flush()?;
                    let n = advice.candidates.len();
                    let plural = if n == 1 { "" } else { "s" };
                    if advice.source == Source::Tree {
                        writeln!(talk, "({n} secret{plural} possible)")?;
                    } else {
                        writeln!(
                            talk,
                            "({n} secret{plural} possible; {})",
                            player.describe_source(advice.source)
                        )?;
                    }
                    current = Some(advice);
                }
                Err(err) => {
                    writeln!(
                        talk,
                        "{err}.\nType 'undo' to take the last answer back, or 'quit'."
                    )?;
                    current = None;
                }
            }
        }
        if decorated {
            write!(talk, "your answer> ")?;
            talk.flush()?;
        }
        let line = match input::read_line(input)? {
            Line::Text(line) => line,
            Line::Unreadable(why) => {
                writeln!(
                    talk,
                    "Unreadable answer ({why}). {}; {HELP}.",
                    explain::how_to_answer(game)
                )?;
                continue;
            }
            Line::End => {
                writeln!(talk)?;
                writeln!(talk, "Input ended before the secret was found.")?;
                return Ok(BreakerOutcome::Unfinished);
            }
        };
        let word = line.trim().to_ascii_lowercase();
        match word.as_str() {
            "" => continue,
            "quit" | "q" | "exit" => {
                writeln!(talk, "Bye.")?;
                return Ok(BreakerOutcome::Quit);
            }
            "help" | "?" | "h" => {
                writeln!(talk, "{}; {HELP}.", explain::how_to_answer(game))?;
                continue;
            }
            "undo" | "u" => {
                match history.pop() {
                    Some((g, f)) => {
                        writeln!(
                            talk,
                            "Took back {}:{}.",
                            game.format_code(g),
                            game.format_feedback(f)
                        )?;
                        show = true;
                    }
                    None => writeln!(talk, "Nothing to undo.")?,
                }
                continue;
            }
            "left" | "l" => {
                match &current {
                    Some(a) => writeln!(
                        talk,
                        "{}",
                        explain::left(game, &a.candidates, history.len())
                    )?,
                    None => writeln!(talk, "No secret is possible: type 'undo'.")?,
                }
                continue;
            }
            _ => {}
        }
        let Some(advice) = &current else {
            writeln!(
                talk,
                "The answers so far contradict each other: type 'undo' to take the last one back, or 'quit'."
            )?;
            continue;
        };
        let f = match game.parse_feedback(line.trim()) {
            Ok(f) => f,
            Err(err) => {
                writeln!(talk, "{err}")?;
                continue;
            }
        };
        let guess = advice.guess;
        if f == game.win() {
            if advice.candidates.binary_search(&guess).is_ok() {
                history.push((guess, f));
                let n = history.len();
                writeln!(
                    talk,
                    "Solved in {n} guess{}: {}.",
                    if n == 1 { "" } else { "es" },
                    game.format_code(guess)
                )?;
                return Ok(BreakerOutcome::Won(n));
            }
            // A guess that no remaining secret equals cannot win: refused
            // at once, as `moo duel` refuses it.
            writeln!(
                talk,
                "{} cannot be your secret given your answers before: {AGAIN}.",
                game.format_code(guess)
            )?;
            continue;
        }
        // An answer no secret gives with the others: refused at once.
        if !advice
            .candidates
            .iter()
            .any(|&s| game.feedback(s, guess) == f)
        {
            writeln!(
                talk,
                "No secret gives {} to {} and your answers before: {AGAIN}.",
                game.format_feedback(f),
                game.format_code(guess)
            )?;
            continue;
        }
        history.push((guess, f));
        show = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::tree::{Node, Tree};

    /// The tree that always guesses the first secret left.
    fn first_tree(game: &Game, set: &[Code]) -> Node {
        let children = crate::model::partition::split(game, set[0], set)
            .into_iter()
            .filter(|(f, _)| *f != game.win())
            .map(|(f, c)| (f, first_tree(game, &c)))
            .collect();
        Node {
            guess: set[0],
            children,
        }
    }

    /// A whole game against secret 201 of moo:3x5: the rules are said
    /// before the first guess, `left` counts and lists, the win ends it.
    #[test]
    fn a_game_with_a_person() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let tree = Tree {
            rules: game.rules(),
            root: first_tree(&game, &game.all_codes()),
        };
        let player = Player::new(&game, &tree).unwrap();
        let secret = game.parse_code("201").unwrap();
        let moves = player.play(secret);
        let mut input = format!("left\n{}\nleft\n", game.format_feedback(moves[0].1));
        for &(_, f) in &moves[1..] {
            input += &format!("{}\n", game.format_feedback(f));
        }
        let (mut guesses, mut talk) = (Vec::new(), Vec::new());
        let outcome = interact(
            &player,
            &mut input.as_bytes(),
            &mut guesses,
            &mut talk,
            false,
        )
        .unwrap();
        assert_eq!(outcome, BreakerOutcome::Won(moves.len()));
        let talk = String::from_utf8(talk).unwrap();
        let first = talk.lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(
            first.starts_with(
                "Think of a secret of moo:3x5 (3 different symbols from 0-4; 60 possible)"
            ),
            "{first}"
        );
        let a = first.find("A counts the symbols that are right and in the right place");
        let b = first.find("B the symbols that are right but in the wrong place");
        let used = first.find("1A2B, 1a2b");
        assert!(
            a.is_some() && b.is_some() && a < used && b < used,
            "{first}"
        );
        assert!(
            talk.contains("60 secrets still possible after 0 guesses: 012 013 014"),
            "{talk}"
        );
        let after = player.advise(&moves[..1]).unwrap().candidates;
        assert!(talk.contains(&explain::left(&game, &after, 1)), "{talk}");
        let guesses = String::from_utf8(guesses).unwrap();
        assert_eq!(guesses.lines().count(), moves.len());
    }
}
