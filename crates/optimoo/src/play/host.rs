//! The codemaker side (`moo host`): a person guesses, the computer answers.
//!
//! Two codemakers:
//! - [`Codemaker::Random`]: a secret drawn at the start (from a seed) and
//!   kept; answers are its feedback.
//! - [`Codemaker::Adversarial`]: never commits. It keeps the set of secrets
//!   consistent with every answer so far, and answers each guess so as to
//!   leave the guesser the most work (the worst-case branch of seed 000's
//!   "fair rules" loophole): while some class of the guess holds more than
//!   [`ADVERSARY_EXACT`] secrets, the *largest* class; once all are that
//!   small, the class that needs the most guesses to finish whatever the
//!   guesser does (exact, by [`crate::search::min_guesses`]), the larger
//!   class among those. It never gives the winning answer while another
//!   answer is possible; remaining ties are broken by the seeded generator.
//!
//! Invariants: every answer is the true feedback of the guess against at
//! least one secret consistent with all answers (for the random codemaker,
//! against the secret), so the game always ends when the person guesses the
//! last possible secret; input is never trusted (bad guesses are refused
//! with a message and not counted).

use std::io::{BufRead, Write};

use crate::play::explain;
use crate::play::input::{self, Line};

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::signature::Oracle;
use crate::rng::SplitMix64;

/// How the computer keeps (or does not keep) its secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codemaker {
    /// A random secret, drawn once.
    Random,
    /// No secret: always the answer that leaves the most work.
    Adversarial,
}

/// Classes of at most this many secrets are ranked by the guesses they need
/// (an exhaustive search each, milliseconds), larger ones by their size.
pub const ADVERSARY_EXACT: usize = 48;

/// A codemaker with its game state.
#[derive(Debug)]
pub struct Host<'a> {
    game: &'a Game,
    oracle: Oracle<'a>,
    kind: Codemaker,
    rng: SplitMix64,
    /// The random codemaker's secret.
    secret: Option<Code>,
    /// Secrets consistent with every answer so far, sorted.
    candidates: Vec<Code>,
    /// Guesses answered so far.
    guesses: usize,
}

impl<'a> Host<'a> {
    /// A codemaker for `game`, its randomness from `seed`.
    pub fn new(game: &'a Game, kind: Codemaker, seed: u64) -> Host<'a> {
        let mut rng = SplitMix64::new(seed);
        let secret = match kind {
            Codemaker::Random => {
                let secrets = game.secrets();
                Some(secrets[rng.below(secrets.len())])
            }
            Codemaker::Adversarial => None,
        };
        Host {
            game,
            oracle: Oracle::new(game),
            kind,
            rng,
            secret,
            candidates: game.secrets(),
            guesses: 0,
        }
    }

    /// Which codemaker this is.
    pub fn kind(&self) -> Codemaker {
        self.kind
    }

    /// The secrets still consistent with every answer.
    pub fn candidates(&self) -> &[Code] {
        &self.candidates
    }

    /// Guesses answered so far.
    pub fn guesses(&self) -> usize {
        self.guesses
    }

    /// The random codemaker's secret (`None` for the adversary, which has
    /// none).
    pub fn secret(&self) -> Option<Code> {
        self.secret
    }

    /// Answers a guess (and counts it).
    pub fn answer(&mut self, guess: Code) -> Feedback {
        self.guesses += 1;
        let f = match self.secret {
            Some(secret) => self.oracle.feedback(secret, guess),
            None => self.worst_branch(guess),
        };
        let oracle = &self.oracle;
        self.candidates.retain(|&s| oracle.feedback(s, guess) == f);
        f
    }

    /// The adversary's answer (see the module doc): the class needing the
    /// most guesses once every class is small, else the largest; never the
    /// win while another answer is possible; ties broken at random.
    fn worst_branch(&mut self, guess: Code) -> Feedback {
        let win = self.game.win();
        let classes = crate::model::partition::split(self.game, guess, &self.candidates);
        let only_win = classes.iter().all(|(f, _)| *f == win);
        let open: Vec<&(Feedback, Vec<Code>)> = classes
            .iter()
            .filter(|(f, _)| only_win || *f != win)
            .collect();
        let largest = open.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
        // (guesses still needed, size): exact guesses only for small classes.
        let exact = largest <= ADVERSARY_EXACT;
        let work = |c: &[Code]| -> (usize, usize) {
            let needed = if exact {
                crate::search::min_guesses(self.game, c).unwrap_or(0)
            } else {
                0
            };
            (needed, c.len())
        };
        let scored: Vec<(Feedback, (usize, usize))> =
            open.iter().map(|(f, c)| (*f, work(c))).collect();
        let best = scored.iter().map(|&(_, w)| w).max().unwrap_or((0, 0));
        let ties: Vec<Feedback> = scored
            .iter()
            .filter(|&&(_, w)| w == best)
            .map(|&(f, _)| f)
            .collect();
        ties[self.rng.below(ties.len())]
    }
}

/// How a hosted game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostOutcome {
    /// The person found the secret in this many guesses.
    Found(usize),
    /// The person typed `quit`.
    Quit,
    /// The input ended first.
    Unfinished,
}

/// The line that says what may be typed.
pub const HELP: &str = "Type a guess; 'left' shows the secrets still possible, 'quit' gives up";

/// One guess answered by a [`Codemaking`] codemaker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// The guess, written as the game writes codes.
    pub guess: String,
    /// The answer, `xAyB`.
    pub answer: String,
    /// Whether the answer is the win.
    pub won: bool,
}

/// A codemaker as [`interact`] talks to it: [`Host`] for the games of the
/// model, or a codemaker of a game of any size (`moo --game moo:10x10
/// host`). Both speak through the same loop, so the lines a script reads
/// are the same for both.
pub trait Codemaking {
    /// The game in words, as [`explain::game`] writes it.
    fn describe(&self) -> String;
    /// What an answer says ([`explain::answers`]; bulls and cows unless
    /// the game's rule is another).
    fn answers(&self) -> &'static str {
        explain::ANSWERS
    }
    /// Which codemaker this is.
    fn kind(&self) -> Codemaker;
    /// Guesses answered so far.
    fn guesses(&self) -> usize;
    /// Reads and answers a guess (and counts it); `Err`: why the text is
    /// not a guess (not counted).
    fn guess(&mut self, word: &str) -> Result<Answered, String>;
    /// The `left` line ([`explain::left`]'s form).
    fn left(&mut self) -> String;
    /// What `quit` reveals: the secret, or how many were still possible.
    fn reveal(&mut self) -> String;
}

impl Codemaking for Host<'_> {
    fn describe(&self) -> String {
        explain::game(self.game)
    }

    fn answers(&self) -> &'static str {
        explain::answers(self.game)
    }

    fn kind(&self) -> Codemaker {
        self.kind
    }

    fn guesses(&self) -> usize {
        self.guesses
    }

    fn guess(&mut self, word: &str) -> Result<Answered, String> {
        let game = self.game;
        let guess = match game.parse_code(word) {
            Ok(g) if !game.is_guess(g) => {
                return Err(format!(
                    "{} is not in the secret list, and only listed codes may be guessed",
                    game.format_code(g)
                ))
            }
            Ok(g) => g,
            Err(err) => return Err(err.to_string()),
        };
        let f = self.answer(guess);
        Ok(Answered {
            guess: game.format_code(guess),
            answer: game.format_feedback(f),
            won: f == game.win(),
        })
    }

    fn left(&mut self) -> String {
        explain::left(self.game, self.candidates(), self.guesses())
    }

    fn reveal(&mut self) -> String {
        let game = self.game;
        match self.secret() {
            Some(s) => format!("The secret was {}.", game.format_code(s)),
            None => reveal_left(self.candidates.len(), &game.format_code(self.candidates[0])),
        }
    }
}

/// What `quit` says when no secret was chosen: `n` secrets were still
/// possible, `example` one of them.
pub fn reveal_left(n: usize, example: &str) -> String {
    format!(
        "{n} secret{} still possible, e.g. {example}.",
        if n == 1 { " was" } else { "s were" }
    )
}

/// Plays one game as the codemaker: reads guesses, prints each answer alone
/// on a line of `answers` (or, when `decorated`, with its guess, for a
/// person at a terminal), prompts and messages on `talk`.
pub fn interact(
    host: &mut dyn Codemaking,
    input: &mut dyn BufRead,
    answers: &mut dyn Write,
    talk: &mut dyn Write,
    decorated: bool,
) -> std::io::Result<HostOutcome> {
    let how = match host.kind() {
        Codemaker::Random => "I have chosen it at random",
        Codemaker::Adversarial => {
            "I have not chosen it: each answer leaves you as much work as it can"
        }
    };
    writeln!(
        talk,
        "Guess my secret of {}. {how}.\n{}.\n{HELP}.",
        host.describe(),
        host.answers()
    )?;
    loop {
        if decorated {
            write!(talk, "guess {}> ", host.guesses() + 1)?;
            talk.flush()?;
        }
        let line = match input::read_line(input)? {
            Line::Text(line) => line,
            Line::Unreadable(why) => {
                writeln!(talk, "Unreadable guess ({why}). {HELP}.")?;
                continue;
            }
            Line::End => {
                writeln!(talk)?;
                writeln!(talk, "Input ended before the secret was found.")?;
                return Ok(HostOutcome::Unfinished);
            }
        };
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => {
                writeln!(talk, "{}", host.reveal())?;
                return Ok(HostOutcome::Quit);
            }
            "left" | "l" => {
                writeln!(talk, "{}", host.left())?;
                continue;
            }
            "help" | "h" | "?" => {
                writeln!(talk, "{HELP}.")?;
                continue;
            }
            _ => {}
        }
        let answered = match host.guess(word) {
            Ok(a) => a,
            Err(why) => {
                writeln!(talk, "{why}")?;
                continue;
            }
        };
        if decorated {
            writeln!(answers, "{} {}", answered.guess, answered.answer)?;
        } else {
            writeln!(answers, "{}", answered.answer)?;
        }
        answers.flush()?;
        if answered.won {
            let n = host.guesses();
            writeln!(
                talk,
                "You found {} in {n} guess{}.",
                answered.guess,
                if n == 1 { "" } else { "es" }
            )?;
            return Ok(HostOutcome::Found(n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    #[test]
    fn random_secrets_are_uniform_enough_and_seeded() {
        let game = Game::new(Rules::moo(2, 3).unwrap());
        let mut seen = vec![0; game.len()];
        for seed in 0..600 {
            seen[Host::new(&game, Codemaker::Random, seed)
                .secret()
                .unwrap()
                .index()] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
        let a = Host::new(&game, Codemaker::Random, 42).secret();
        assert_eq!(a, Host::new(&game, Codemaker::Random, 42).secret());
    }

    /// Brute force: the adversary's answer keeps a largest class while the
    /// classes are large, and then a class needing the most guesses.
    #[test]
    fn the_adversary_keeps_the_most_work() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        for seed in 0..5 {
            let mut host = Host::new(&game, Codemaker::Adversarial, seed);
            let mut guesses = 0;
            for g in game.codes().all().cycle().step_by(7) {
                let before = host.candidates().to_vec();
                let f = host.answer(g);
                guesses += 1;
                let mut sizes = std::collections::BTreeMap::new();
                for &s in &before {
                    *sizes.entry(game.feedback(s, g)).or_insert(0) += 1;
                }
                let largest = sizes
                    .iter()
                    .filter(|(&f, _)| f != game.win() || sizes.len() == 1)
                    .map(|(_, &n)| n)
                    .max()
                    .unwrap();
                if largest > ADVERSARY_EXACT {
                    assert_eq!(host.candidates().len(), largest);
                } else {
                    // Independently: the guesses each class needs, by brute force.
                    let mut memo = std::collections::HashMap::new();
                    let mut needs =
                        |c: &[Code]| crate::search::tests::brute_worst(&game, c, &mut memo);
                    let classes = crate::model::partition::split(&game, g, &before);
                    let most = classes
                        .iter()
                        .filter(|(f, _)| *f != game.win() || classes.len() == 1)
                        .map(|(_, c)| (needs(c), c.len()))
                        .max()
                        .unwrap();
                    assert_eq!((needs(host.candidates()), host.candidates().len()), most);
                }
                assert!(host.candidates().iter().all(|&s| game.feedback(s, g) == f));
                if f == game.win() {
                    assert_eq!(before, [g]);
                    break;
                }
                assert!(guesses < 200);
            }
        }
    }

    /// The rules are said before the first guess; `left` counts and lists
    /// the secrets as `moo`'s does (one line for both, `explain::left`).
    #[test]
    fn the_rules_first_and_left_as_the_player_says_it() {
        let game = Game::new(Rules::moo(3, 4).unwrap());
        let mut host = Host::new(&game, Codemaker::Adversarial, 1);
        let (mut answers, mut talk) = (Vec::new(), Vec::new());
        let input = "left\n012\nleft\nquit\n";
        let outcome = interact(
            &mut host,
            &mut input.as_bytes(),
            &mut answers,
            &mut talk,
            false,
        )
        .unwrap();
        assert_eq!(outcome, HostOutcome::Quit);
        let talk = String::from_utf8(talk).unwrap();
        let first = talk.lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(
            first.starts_with(
                "Guess my secret of moo:3x4 (3 different symbols from 0-3; 24 possible)"
            ),
            "{first}"
        );
        assert!(first.contains(explain::ANSWERS), "{first}");
        assert!(
            talk.contains(&explain::left(&game, &game.secrets(), 0)),
            "{talk}"
        );
        assert!(
            talk.contains(&explain::left(&game, host.candidates(), 1)),
            "{talk}"
        );
        assert!(talk.contains("still possible after 1 guess: "), "{talk}");
    }
}
