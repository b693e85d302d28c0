//! The two-player challenge against a person (`moo duel`): both hide a
//! secret and guess in turn; the computer guesses from a [`Player`] (a tree
//! drawn from the equilibrium, docs/duel.md) and answers the person's
//! guesses on its own secret, drawn at random.
//!
//! Turns: in each round the first seat guesses, then the second. Under
//! [`Rule::FirstWins`] whoever cracks the other's secret first wins at once;
//! under [`Rule::EqualTurns`] a first seat that cracks it in round `t`
//! still lets the second play its round `t`, and if the second cracks it
//! too the game is drawn.
//!
//! Invariants: the computer's guesses are written alone on a line of the
//! `out` stream, then its answers to the person's guesses alone on a line
//! (both in turn order); prompts and messages go to `talk`. An answer of
//! the person that leaves no secret possible (or claims a win on a guess
//! that cannot be the secret) is refused at once and asked again, with
//! `undo` offered (it takes the person's last answer back and asks that
//! guess again, in the same round), as `moo` does (`crate::play::codebreaker`), so the
//! computer never plays on contradictory answers; input is read with a
//! length cap and bad guesses are refused without costing a turn.

use std::io::{BufRead, Write};

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::play::best_response::{Rule, Seat};
use crate::play::codebreaker::AGAIN;
use crate::play::explain;
use crate::play::input::{self, Line};
use crate::play::player::Player;
use crate::rng::SplitMix64;

/// How a race ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelOutcome {
    /// The computer cracked the person's secret first, in this many rounds.
    ComputerWon(usize),
    /// The person cracked the computer's secret first.
    PersonWon(usize),
    /// Both in the same round (equal-turns only).
    Draw(usize),
    /// The person typed `quit`.
    Quit,
    /// The input ended first.
    Unfinished,
}

/// The index drawn from `weights` (nonnegative, not all 0) with
/// probability proportional to each, by `seed`.
pub fn draw(weights: &[f64], seed: u64) -> usize {
    let total: f64 = weights.iter().sum();
    let x = (SplitMix64::new(seed).next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut sum = 0.0;
    for (i, w) in weights.iter().enumerate() {
        sum += w;
        if x < sum {
            return i;
        }
    }
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// One race: the computer plays `player` in the seat that is not
/// `person`'s, under `rule`.
pub struct Duel<'a> {
    /// The computer's strategy.
    pub player: &'a Player<'a>,
    /// The rule.
    pub rule: Rule,
    /// The person's seat.
    pub person: Seat,
    /// The computer's secret.
    pub secret: Code,
}

const HELP: &str = "On your turn type a guess; on mine answer it with bulls (A) and cows (B): \
                    1A2B, 1a2b, '1 2' or 1,2; 'undo' takes your last answer back; 'quit' gives up";

/// What one line of the person brought.
enum Read {
    Text(String),
    Quit,
    End,
}

/// What one turn brought.
enum Step {
    /// Played: whether it cracked the secret.
    Played(bool),
    /// The person typed `quit` ([`DuelOutcome::Quit`]) or the input ended.
    Stopped(DuelOutcome),
}

impl Read {
    /// The turn's end when the person stopped.
    fn stop(self) -> Result<String, Step> {
        match self {
            Read::Text(t) => Ok(t),
            Read::Quit => Err(Step::Stopped(DuelOutcome::Quit)),
            Read::End => Err(Step::Stopped(DuelOutcome::Unfinished)),
        }
    }
}

impl Duel<'_> {
    /// The computer's secret drawn by `seed` among the game's secrets.
    pub fn secret_for(player: &Player<'_>, seed: u64) -> Code {
        let secrets = player.game().secrets();
        secrets[SplitMix64::new(seed).below(secrets.len())]
    }

    /// Plays the race (see the module doc).
    pub fn interact(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        talk: &mut dyn Write,
        decorated: bool,
    ) -> std::io::Result<DuelOutcome> {
        let game = self.player.game();
        let first = if self.person == Seat::First {
            "you guess first"
        } else {
            "I guess first"
        };
        writeln!(
            talk,
            "The race ({}): each of us hides a secret of {}; we guess in turn, {first}.\n{}.\n{HELP}.",
            self.rule,
            explain::game(game),
            explain::ANSWERS
        )?;
        let mut mine: Vec<(Code, Feedback)> = Vec::new();
        let mut cracked: [Option<usize>; 2] = [None, None];
        for round in 1.. {
            for seat in [Seat::First, Seat::Second] {
                // Under equal-turns the second seat plays the round in which
                // the first cracked; under first-wins the race is over.
                if cracked[0].is_some() && (self.rule == Rule::FirstWins || seat == Seat::First) {
                    break;
                }
                let step = if seat == self.person {
                    self.person_turn(round, input, out, talk, decorated)?
                } else {
                    self.computer_turn(round, &mut mine, input, out, talk, decorated)?
                };
                let done = match step {
                    Step::Played(done) => done,
                    Step::Stopped(outcome) => {
                        writeln!(
                            talk,
                            "Stopped. My secret was {}.",
                            game.format_code(self.secret)
                        )?;
                        return Ok(outcome);
                    }
                };
                if done {
                    cracked[seat as usize] = Some(round);
                    if seat == Seat::Second || self.rule == Rule::FirstWins {
                        break;
                    }
                }
            }
            if cracked.iter().any(Option::is_some) {
                return self.ended(round, cracked, talk);
            }
        }
        unreachable!("the rounds go on until a secret is cracked")
    }

    /// Who won, said and returned.
    fn ended(
        &self,
        round: usize,
        cracked: [Option<usize>; 2],
        talk: &mut dyn Write,
    ) -> std::io::Result<DuelOutcome> {
        let game = self.player.game();
        let person = self.person as usize;
        let outcome = match (cracked[person], cracked[1 - person]) {
            (Some(_), Some(_)) => DuelOutcome::Draw(round),
            (Some(_), None) => DuelOutcome::PersonWon(round),
            _ => DuelOutcome::ComputerWon(round),
        };
        let said = match outcome {
            DuelOutcome::Draw(_) => "A draw: we both cracked it in the same round",
            DuelOutcome::PersonWon(_) => "You win",
            _ => "I win",
        };
        writeln!(
            talk,
            "{said} (round {round}). My secret was {}.",
            game.format_code(self.secret)
        )?;
        Ok(outcome)
    }

    /// The person's guess of `round`.
    fn person_turn(
        &self,
        round: usize,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        talk: &mut dyn Write,
        decorated: bool,
    ) -> std::io::Result<Step> {
        let game = self.player.game();
        loop {
            let prompt = format!("round {round}, your guess> ");
            let text = match ask(input, talk, decorated.then_some(prompt.as_str()))? {
                Ok(t) => t,
                Err(step) => return Ok(step),
            };
            if is_undo(&text) {
                writeln!(
                    talk,
                    "undo takes back your last answer to my guess: type it when I ask for an answer"
                )?;
                continue;
            }
            let guess = match game.parse_code(&text) {
                Ok(g) if game.is_guess(g) => g,
                Ok(g) => {
                    writeln!(talk, "{} may not be guessed", game.format_code(g))?;
                    continue;
                }
                Err(err) => {
                    writeln!(talk, "{err}")?;
                    continue;
                }
            };
            let f = game.feedback(self.secret, guess);
            let answer = game.format_feedback(f);
            if decorated {
                writeln!(out, "my answer: {} {answer}", game.format_code(guess))?;
            } else {
                writeln!(out, "{answer}")?;
            }
            out.flush()?;
            return Ok(Step::Played(f == game.win()));
        }
    }

    /// The computer's guess of `round` and the person's answer.
    fn computer_turn(
        &self,
        round: usize,
        history: &mut Vec<(Code, Feedback)>,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        talk: &mut dyn Write,
        decorated: bool,
    ) -> std::io::Result<Step> {
        let game = self.player.game();
        let mut advice = self
            .player
            .advise(history)
            .expect("answers are checked before they are kept");
        let mut code = game.format_code(advice.guess);
        let say_guess = |out: &mut dyn Write, code: &str| -> std::io::Result<()> {
            if decorated {
                writeln!(out, "round {round}, my guess: {code}")?;
            } else {
                writeln!(out, "{code}")?;
            }
            out.flush()
        };
        say_guess(out, &code)?;
        loop {
            let prompt = format!("your answer to {code}> ");
            let text = match ask(input, talk, decorated.then_some(prompt.as_str()))? {
                Ok(t) => t,
                Err(step) => return Ok(step),
            };
            if is_undo(&text) {
                // Your last answer to me taken back: I ask that guess again,
                // in this round.
                match history.pop() {
                    Some((g, f)) => {
                        writeln!(
                            talk,
                            "Took back {}:{}.",
                            game.format_code(g),
                            game.format_feedback(f)
                        )?;
                        advice = self
                            .player
                            .advise(history)
                            .expect("answers are checked before they are kept");
                        code = game.format_code(advice.guess);
                        say_guess(out, &code)?;
                    }
                    None => writeln!(talk, "Nothing to undo.")?,
                }
                continue;
            }
            let f = match game.parse_feedback(&text) {
                Ok(f) => f,
                Err(err) => {
                    writeln!(talk, "{err}")?;
                    continue;
                }
            };
            if f == game.win() {
                if advice.candidates.binary_search(&advice.guess).is_ok() {
                    history.push((advice.guess, f));
                    return Ok(Step::Played(true));
                }
                writeln!(
                    talk,
                    "{code} cannot be your secret given your answers before: {AGAIN}."
                )?;
                continue;
            }
            history.push((advice.guess, f));
            if self.player.advise(history).is_ok() {
                return Ok(Step::Played(false));
            }
            history.pop();
            writeln!(
                talk,
                "No secret gives {} to {code} and your answers before: {AGAIN}.",
                game.format_feedback(f)
            )?;
        }
    }
}

/// Whether a line asks to take the last answer back.
fn is_undo(text: &str) -> bool {
    matches!(text.to_ascii_lowercase().as_str(), "undo" | "u")
}

/// The person's next line after `prompt` (at a terminal), or the turn's
/// end when the person stops.
fn ask(
    input: &mut dyn BufRead,
    talk: &mut dyn Write,
    prompt: Option<&str>,
) -> std::io::Result<Result<String, Step>> {
    if let Some(prompt) = prompt {
        write!(talk, "{prompt}")?;
        talk.flush()?;
    }
    Ok(read(input, talk)?.stop())
}

/// The next line that is not empty or a request for help.
fn read(input: &mut dyn BufRead, talk: &mut dyn Write) -> std::io::Result<Read> {
    loop {
        let line = match input::read_line(input)? {
            Line::Text(line) => line,
            Line::Unreadable(why) => {
                writeln!(talk, "Unreadable line ({why}). {HELP}.")?;
                continue;
            }
            Line::End => {
                writeln!(talk)?;
                return Ok(Read::End);
            }
        };
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Ok(Read::Quit),
            "help" | "h" | "?" => writeln!(talk, "{HELP}.")?,
            _ => return Ok(Read::Text(word.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;

    /// Plays a scripted race on moo:3x5: the person's secret is `theirs`,
    /// the person answers truthfully (after `lie`, refused, if given) and
    /// guesses `guesses` in turn; returns the outcome and the talk.
    fn race(
        rule: Rule,
        person: Seat,
        theirs: &str,
        guesses: &[&str],
        lie: Option<&str>,
    ) -> (DuelOutcome, String, Code) {
        // The lie comes before the second answer.
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let player = Player::without_tree(&game);
        let secret = Duel::secret_for(&player, 7);
        let moves = player.play(game.parse_code(theirs).unwrap());
        let mut lines: Vec<String> = Vec::new();
        let mut answers = moves.iter().map(|&(_, f)| game.format_feedback(f));
        let mut guesses = guesses.iter();
        let mut lie = lie;
        let mut answered = 0;
        for _ in 0..moves.len().max(guesses.len()) {
            for seat in [Seat::First, Seat::Second] {
                if seat == person {
                    if let Some(g) = guesses.next() {
                        lines.push(g.to_string());
                    }
                } else {
                    answered += 1;
                    if answered == 2 {
                        if let Some(l) = lie.take() {
                            lines.push(l.to_string());
                        }
                    }
                    if let Some(a) = answers.next() {
                        lines.push(a);
                    }
                }
            }
        }
        let race = Duel {
            player: &player,
            rule,
            person,
            secret,
        };
        let input = lines.join("\n") + "\n";
        let (mut out, mut talk) = (Vec::new(), Vec::new());
        let outcome = race
            .interact(&mut input.as_bytes(), &mut out, &mut talk, false)
            .unwrap();
        (outcome, String::from_utf8(talk).unwrap(), secret)
    }

    /// The person's secret in the scripted races.
    const THEIRS: &str = "243";

    /// The computer's secret (seed 7), the round `c` in which the computer
    /// cracks THEIRS, and a guess that is not its secret.
    fn fixture() -> (String, usize, &'static str) {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let player = Player::without_tree(&game);
        let secret = game.format_code(Duel::secret_for(&player, 7));
        let c = player.play(game.parse_code(THEIRS).unwrap()).len();
        assert!(c >= 2);
        let wrong = if secret == "012" { "013" } else { "012" };
        (secret, c, wrong)
    }

    #[test]
    fn races_end_by_the_rules() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let (secret, c, wrong) = fixture();
        let theirs = THEIRS;
        let mut late: Vec<&str> = vec![wrong; c - 1];
        late.push(&secret);
        let never: Vec<&str> = vec![wrong; c];
        use DuelOutcome::*;
        use Rule::*;
        use Seat::*;
        for (rule, person, guesses, expect) in [
            // Right at once: the person wins, first or second.
            (FirstWins, First, vec![secret.as_str()], PersonWon(1)),
            (EqualTurns, First, vec![secret.as_str()], PersonWon(1)),
            (FirstWins, Second, vec![secret.as_str()], PersonWon(1)),
            (EqualTurns, Second, vec![secret.as_str()], PersonWon(1)),
            // Right in round c, the computer's round too.
            (FirstWins, First, late.clone(), PersonWon(c)),
            (EqualTurns, First, late.clone(), Draw(c)),
            (FirstWins, Second, late.clone(), ComputerWon(c)),
            (EqualTurns, Second, late.clone(), Draw(c)),
            // Never right.
            (FirstWins, First, never.clone(), ComputerWon(c)),
            (EqualTurns, First, never.clone(), ComputerWon(c)),
            (EqualTurns, Second, never.clone(), ComputerWon(c)),
        ] {
            let (outcome, talk, s) = race(rule, person, theirs, &guesses, None);
            assert_eq!(outcome, expect, "{rule} {person}: {talk}");
            assert!(talk.contains(&format!("My secret was {}", game.format_code(s))));
        }
    }

    /// An answer that no secret gives with the answers before is refused at
    /// once and asked again: the race goes on as if it had not been typed.
    #[test]
    fn a_contradiction_is_refused_at_once() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let player = Player::without_tree(&game);
        let (_, c, wrong) = fixture();
        let theirs = THEIRS;
        let never: Vec<&str> = vec![wrong; c];
        let moves = player.play(game.parse_code(theirs).unwrap());
        let second = player.advise(&moves[..1]).unwrap();
        let lie = game
            .possible_feedbacks()
            .filter(|&f| f != game.win())
            .find(|&f| {
                second
                    .candidates
                    .iter()
                    .all(|&s| game.feedback(s, second.guess) != f)
            })
            .map(|f| game.format_feedback(f))
            .unwrap();
        let (outcome, talk, _) = race(Rule::FirstWins, Seat::Second, theirs, &never, Some(&lie));
        assert_eq!(outcome, DuelOutcome::ComputerWon(c), "{talk}");
        assert!(talk.contains(&format!("No secret gives {lie}")), "{talk}");
        // Input that ends: unfinished, the secret said.
        let (outcome, talk, _) = race(Rule::FirstWins, Seat::First, theirs, &[wrong], None);
        assert_eq!(outcome, DuelOutcome::Unfinished, "{talk}");
        assert!(talk.contains("Stopped. My secret was"), "{talk}");
    }
}
