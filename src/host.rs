//! The codemaker side (`moo host`): a person guesses, the computer answers.
//!
//! Two codemakers:
//! - [`Codemaker::Random`]: a secret drawn at the start (from a seed) and
//!   kept; answers are its feedback.
//! - [`Codemaker::Adversarial`]: never commits. It keeps the set of secrets
//!   consistent with every answer so far, and answers each guess with the
//!   feedback of its *largest* class, so that the most secrets stay possible
//!   (the worst-case branch of seed 000's "fair rules" loophole). It never
//!   gives the winning answer while another answer is possible; ties between
//!   equally large classes are broken by the seeded generator.
//!
//! Invariants: every answer is the true feedback of the guess against at
//! least one secret consistent with all answers (for the random codemaker,
//! against the secret), so the game always ends when the person guesses the
//! last possible secret; input is never trusted (bad guesses are refused
//! with a message and not counted).

use std::io::{BufRead, Write};

use crate::code::Code;
use crate::feedback::Feedback;
use crate::game::Game;
use crate::signature::Oracle;

/// A small deterministic generator (SplitMix64), enough for drawing secrets
/// and breaking ties; not for cryptography.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`), by rejection (no modulo bias).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

/// How the computer keeps (or does not keep) its secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codemaker {
    /// A random secret, drawn once.
    Random,
    /// No secret: always the answer that keeps the most secrets possible.
    Adversarial,
}

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
            Codemaker::Random => Some(Code(rng.below(game.len()) as u16)),
            Codemaker::Adversarial => None,
        };
        Host {
            game,
            oracle: Oracle::new(game),
            kind,
            rng,
            secret,
            candidates: game.all_codes(),
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
            None => self.largest_class(guess),
        };
        let oracle = &self.oracle;
        self.candidates.retain(|&s| oracle.feedback(s, guess) == f);
        f
    }

    /// The answer whose class of candidates is largest; never the win while
    /// another answer is possible; ties broken at random.
    fn largest_class(&mut self, guess: Code) -> Feedback {
        let win = self.game.win();
        let mut counts = vec![0usize; self.game.rules().feedback_slots()];
        for &s in &self.candidates {
            counts[self.oracle.feedback(s, guess).index()] += 1;
        }
        let only_win = counts
            .iter()
            .enumerate()
            .all(|(f, &c)| c == 0 || f == win.index());
        let best = counts
            .iter()
            .enumerate()
            .filter(|&(f, _)| only_win || f != win.index())
            .map(|(_, &c)| c)
            .max()
            .unwrap_or(0);
        let ties: Vec<usize> = counts
            .iter()
            .enumerate()
            .filter(|&(f, &c)| c == best && c > 0 && (only_win || f != win.index()))
            .map(|(f, _)| f)
            .collect();
        Feedback(ties[self.rng.below(ties.len())] as u8)
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

const HELP: &str =
    "Type a guess; 'left' shows how many secrets are still possible, 'quit' gives up";

/// Plays one game as the codemaker: reads guesses, prints each answer alone
/// on a line of `answers` (or, when `decorated`, with its guess, for a
/// person at a terminal), prompts and messages on `talk`.
pub fn interact(
    host: &mut Host<'_>,
    input: &mut dyn BufRead,
    answers: &mut dyn Write,
    talk: &mut dyn Write,
    decorated: bool,
) -> std::io::Result<HostOutcome> {
    let game = host.game;
    let how = match host.kind {
        Codemaker::Random => "I have chosen it at random",
        Codemaker::Adversarial => {
            "I have not chosen it: each answer keeps as many secrets possible as it can"
        }
    };
    writeln!(
        talk,
        "Guess my secret of {} ({} possible codes). {how}. {HELP}.",
        game.rules(),
        game.len()
    )?;
    loop {
        if decorated {
            write!(talk, "guess {}> ", host.guesses() + 1)?;
            talk.flush()?;
        }
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(talk)?;
            writeln!(talk, "Input ended before the secret was found.")?;
            return Ok(HostOutcome::Unfinished);
        }
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => {
                match host.secret() {
                    Some(s) => writeln!(talk, "The secret was {}.", game.format_code(s))?,
                    None => {
                        let left = host.candidates();
                        writeln!(
                            talk,
                            "{} secrets were still possible, e.g. {}.",
                            left.len(),
                            game.format_code(left[0])
                        )?;
                    }
                }
                return Ok(HostOutcome::Quit);
            }
            "left" | "l" => {
                let n = host.candidates().len();
                writeln!(
                    talk,
                    "{n} secret{} still possible after {} guess{}.",
                    if n == 1 { "" } else { "s" },
                    host.guesses(),
                    if host.guesses() == 1 { "" } else { "es" }
                )?;
                continue;
            }
            "help" | "h" | "?" => {
                writeln!(talk, "{HELP}.")?;
                continue;
            }
            _ => {}
        }
        let guess = match game.parse_code(word) {
            Ok(g) => g,
            Err(err) => {
                writeln!(talk, "{err}")?;
                continue;
            }
        };
        let f = host.answer(guess);
        let text = game.format_feedback(f);
        if decorated {
            writeln!(answers, "{} {text}", game.format_code(guess))?;
        } else {
            writeln!(answers, "{text}")?;
        }
        answers.flush()?;
        if f == game.win() {
            let n = host.guesses();
            writeln!(
                talk,
                "You found {} in {n} guess{}.",
                game.format_code(guess),
                if n == 1 { "" } else { "es" }
            )?;
            return Ok(HostOutcome::Found(n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

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

    /// Brute force: the adversary's answer keeps a largest class.
    #[test]
    fn the_adversary_keeps_the_most_secrets() {
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
                assert_eq!(host.candidates().len(), largest);
                assert!(host.candidates().iter().all(|&s| game.feedback(s, g) == f));
                if f == game.win() {
                    assert_eq!(before, [g]);
                    break;
                }
                assert!(guesses < 200);
            }
        }
    }
}
