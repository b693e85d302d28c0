//! The codemaker of games of any size (`moo --game moo:10x10 host`): the
//! person guesses, the computer answers, through [`host::interact`], the
//! loop of the small games' [`host::Host`], so every line a script reads is
//! the same (the rules, the answers, `left`, `quit`, the refusals).
//!
//! Two codemakers, as for the small games:
//! - [`Codemaker::Random`]: a secret drawn once from the seed, as
//!   [`host::Host`] draws it (the code of rank `below(codes)`: on a game
//!   both play, the same secret from the same seed). It keeps no list: the
//!   `left` line counts the candidates of the moves without listing them
//!   ([`Counted`]; listed by [`Shape::candidates_with`], on the caller's
//!   threads, only when the history is too long to count and the list
//!   fits [`ADVERSARY_MAX_BYTES`]).
//! - [`Codemaker::Adversarial`]: never commits. It keeps the list of every
//!   code still possible (every code of the game before the first guess:
//!   [`adversary_bytes`], 24 bytes a code, refused above
//!   [`ADVERSARY_MAX_BYTES`]), and answers each guess with the class that
//!   keeps the most codes, never the win while another answer is possible,
//!   ties broken by the seeded generator. (The small games' adversary
//!   ranks classes of at most [`host::ADVERSARY_EXACT`] secrets by the
//!   guesses they need; this one by their size alone.)
//!
//! Invariants: every answer is the true feedback of the guess against the
//! secret (random) or against every code of the list kept (adversarial),
//! so the game ends when the person guesses the last possible secret; the
//! list is always sorted (code order) and never empty; input is never
//! trusted (a bad guess is refused with the reason and not counted).

use crate::exec::Parallel;
use crate::model::feedback::Feedback;
use crate::model::shape::counted::{self, Counted};
use crate::model::shape::{Packed, Shape};
use crate::play::explain;
use crate::play::host::{self, Answered, Codemaker, Codemaking};
use crate::play::shape_rank;
use crate::rng::SplitMix64;

/// The most memory the adversary's list may take, in bytes (moo:10x10's
/// 3,628,800 codes take 87 MB; mm:8x8's 16,777,216 would take 403 MB).
pub const ADVERSARY_MAX_BYTES: u64 = 200_000_000;

/// The memory the adversary's list takes at its largest: every code of the
/// game, 24 bytes each (the classes are counted, then the list filtered in
/// place: nothing else grows with the game).
pub fn adversary_bytes(shape: &Shape) -> u64 {
    (shape.code_count() as u64).saturating_mul(std::mem::size_of::<Packed>() as u64)
}

/// Why a codemaker cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeHostError {
    /// The adversary's list would not fit [`ADVERSARY_MAX_BYTES`].
    #[error(
        "--adversarial keeps a list of every code of {game} that is still possible: {codes} \
         codes at the start, about {mb} MB, more than the {max} MB allowed; play against a \
         random secret (without --adversarial), or a smaller game"
    )]
    TooLarge {
        /// The game.
        game: String,
        /// Its codes.
        codes: u64,
        /// The list's size in MB (10^6 bytes), rounded.
        mb: u64,
        /// The limit in MB.
        max: u64,
    },
}

/// A codemaker of a game of any size, with its game state.
pub struct ShapeHost<'a> {
    shape: Shape,
    kind: Codemaker,
    rng: SplitMix64,
    /// The random codemaker's secret.
    secret: Option<Packed>,
    /// The moves answered so far.
    moves: Vec<(Packed, Feedback)>,
    /// The adversary's codes still possible, sorted; `None` until the first
    /// guess (every code).
    list: Option<Vec<Packed>>,
    par: &'a dyn Parallel,
}

impl std::fmt::Debug for ShapeHost<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeHost")
            .field("shape", &self.shape)
            .field("kind", &self.kind)
            .field("moves", &self.moves.len())
            .finish_non_exhaustive()
    }
}

impl<'a> ShapeHost<'a> {
    /// A codemaker for `shape`, its randomness from `seed`, its work on
    /// `par`. The adversary is refused when its list would take more than
    /// [`ADVERSARY_MAX_BYTES`].
    pub fn new(
        shape: Shape,
        kind: Codemaker,
        seed: u64,
        par: &'a dyn Parallel,
    ) -> Result<ShapeHost<'a>, ShapeHostError> {
        let mut rng = SplitMix64::new(seed);
        let secret = match kind {
            Codemaker::Random => Some(shape.unrank(rng.below(shape.code_count() as usize) as u64)),
            Codemaker::Adversarial => {
                let bytes = adversary_bytes(&shape);
                if bytes > ADVERSARY_MAX_BYTES {
                    return Err(ShapeHostError::TooLarge {
                        game: shape.to_string(),
                        codes: shape.code_count() as u64,
                        mb: (bytes + 500_000) / 1_000_000,
                        max: ADVERSARY_MAX_BYTES / 1_000_000,
                    });
                }
                None
            }
        };
        Ok(ShapeHost {
            shape,
            kind,
            rng,
            secret,
            moves: Vec::new(),
            list: None,
            par,
        })
    }

    /// The random codemaker's secret (`None` for the adversary).
    pub fn secret(&self) -> Option<Packed> {
        self.secret
    }

    /// The moves answered so far.
    pub fn moves(&self) -> &[(Packed, Feedback)] {
        &self.moves
    }

    /// The codes still possible: the adversary's list, or the candidates
    /// rebuilt from the moves; every code before the first guess.
    pub fn candidates(&mut self) -> Vec<Packed> {
        match &self.list {
            Some(list) => list.clone(),
            None => self.shape.candidates_with(&self.moves, self.par),
        }
    }

    /// Answers `guess` (and counts it).
    pub fn answer(&mut self, guess: Packed) -> Feedback {
        let f = match self.secret {
            Some(secret) => self.shape.feedback(secret, guess),
            None => self.worst_branch(guess),
        };
        self.moves.push((guess, f));
        f
    }

    /// The adversary's answer: the largest class of its list, never the
    /// win while another class is open, ties at random; the list keeps
    /// that class.
    fn worst_branch(&mut self, guess: Packed) -> Feedback {
        let shape = self.shape;
        let list = self.list.get_or_insert_with(|| shape.all_codes());
        let counts = shape_rank::tally(&shape, guess, list);
        let win = Feedback::win(shape.positions()).index();
        let only_win = counts.iter().enumerate().all(|(f, &c)| c == 0 || f == win);
        let open = |f: usize| counts[f] > 0 && (only_win || f != win);
        let largest = (0..counts.len())
            .filter(|&f| open(f))
            .map(|f| counts[f])
            .max()
            .unwrap_or(0);
        let ties: Vec<usize> = (0..counts.len())
            .filter(|&f| open(f) && counts[f] == largest)
            .collect();
        let f = Feedback(ties[self.rng.below(ties.len())] as u8);
        list.retain(|&s| shape.feedback(s, guess) == f);
        list.shrink_to_fit();
        f
    }
}

impl Codemaking for ShapeHost<'_> {
    fn describe(&self) -> String {
        explain::shape(&self.shape)
    }

    fn kind(&self) -> Codemaker {
        self.kind
    }

    fn guesses(&self) -> usize {
        self.moves.len()
    }

    fn guess(&mut self, word: &str) -> Result<Answered, String> {
        let guess = self.shape.parse(word).map_err(|e| e.to_string())?;
        let f = self.answer(guess);
        let k = self.shape.positions();
        Ok(Answered {
            guess: self.shape.format(guess),
            answer: f.format(k),
            won: f == Feedback::win(k),
        })
    }

    fn left(&mut self) -> String {
        let (n, first) = match (&self.list, self.moves.is_empty()) {
            (None, true) => {
                let n = self.shape.code_count() as u64;
                let first: Vec<Packed> = (0..n.min(explain::LEFT_SHOWN as u64))
                    .map(|i| self.shape.unrank(i))
                    .collect();
                (n, first)
            }
            (Some(list), _) => {
                let first = list.iter().take(explain::LEFT_SHOWN).copied().collect();
                (list.len() as u64, first)
            }
            // Counted, not listed: after one guess of mm:8x16 billions of
            // codes may be left.
            (None, false) => match Counted::new(self.shape, &self.moves) {
                Some(counted) => {
                    let shown = counted.len().min(explain::LEFT_SHOWN as u64);
                    (
                        counted.len(),
                        counted.select(&(0..shown).collect::<Vec<_>>()),
                    )
                }
                None => {
                    let bound = counted::len_at_most(self.shape, &self.moves);
                    if self.shape.list_bytes(bound) > ADVERSARY_MAX_BYTES {
                        return format!(
                            "at most {bound} secrets still possible after {} guesses (too many \
                             to list after this many guesses)",
                            self.moves.len()
                        );
                    }
                    let set = self.candidates();
                    let first = set.iter().take(explain::LEFT_SHOWN).copied().collect();
                    (set.len() as u64, first)
                }
            },
        };
        let shown: Vec<String> = first.iter().map(|&c| self.shape.format(c)).collect();
        explain::left_line(n, &shown, self.moves.len())
    }

    fn reveal(&mut self) -> String {
        match (self.secret, &self.list) {
            (Some(s), _) => format!("The secret was {}.", self.shape.format(s)),
            (None, Some(list)) => host::reveal_left(list.len(), &self.shape.format(list[0])),
            (None, None) => host::reveal_left(
                self.shape.code_count() as usize,
                &self.shape.format(self.shape.unrank(0)),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Scoped, Sequential};
    use crate::model::{Game, Rules};
    use crate::play::host::{interact, Host, HostOutcome};

    /// On a game both play, the random codemaker draws the small host's
    /// secret from the same seed, and the two say the same lines.
    #[test]
    fn the_same_secret_and_lines_as_the_small_host() {
        for name in ["moo:3x5", "mm:3x4", "moo:4x10"] {
            let rules: Rules = name.parse().unwrap();
            let game = Game::new(rules);
            let shape = Shape::from_rules(rules).unwrap();
            for seed in 0..20 {
                let small = Host::new(&game, Codemaker::Random, seed).secret().unwrap();
                let huge = ShapeHost::new(shape, Codemaker::Random, seed, &Sequential)
                    .unwrap()
                    .secret()
                    .unwrap();
                assert_eq!(shape.rank(huge), small.index() as u64, "{name} {seed}");
            }
            let codes: Vec<String> = game
                .codes()
                .all()
                .step_by(3)
                .map(|c| game.format_code(c))
                .collect();
            let input = format!("left\nxyz\n{}\nleft\nquit\n", codes.join("\n"));
            let transcript = |host: &mut dyn Codemaking| {
                let (mut answers, mut talk) = (Vec::new(), Vec::new());
                let outcome =
                    interact(host, &mut input.as_bytes(), &mut answers, &mut talk, false).unwrap();
                (outcome, answers, talk)
            };
            let mut small = Host::new(&game, Codemaker::Random, 5);
            let mut huge = ShapeHost::new(shape, Codemaker::Random, 5, &Scoped(2)).unwrap();
            let (a, b) = (transcript(&mut small), transcript(&mut huge));
            assert_eq!(a.0, b.0, "{name}");
            assert_eq!(a.1, b.1, "{name}: the answers");
            // The talk differs only in the refusal of `xyz`.
            let talk = |t: &[u8]| -> Vec<String> {
                String::from_utf8(t.to_vec())
                    .unwrap()
                    .lines()
                    .filter(|l| !l.contains("xyz"))
                    .map(str::to_string)
                    .collect()
            };
            assert_eq!(talk(&a.2), talk(&b.2), "{name}");
        }
    }

    /// The adversary answers the largest open class and keeps it: checked
    /// against the classes counted here, and `left` and `quit` count it.
    #[test]
    fn the_adversary_keeps_the_largest_class() {
        for name in ["moo:4x6", "mm:3x5", "moo:2x3"] {
            let shape: Shape = name.parse().unwrap();
            let all = shape.all_codes();
            for seed in 0..4 {
                let mut host =
                    ShapeHost::new(shape, Codemaker::Adversarial, seed, &Scoped(2)).unwrap();
                let mut rng = SplitMix64::new(seed);
                let mut left = all.clone();
                for turn in 0.. {
                    assert!(turn < 100);
                    // Random codes, and now and then a code still possible.
                    let g = if turn % 2 == 1 {
                        left[rng.below(left.len())]
                    } else {
                        all[rng.below(all.len())]
                    };
                    let mut sizes = std::collections::BTreeMap::new();
                    for &s in &left {
                        *sizes.entry(shape.feedback(s, g)).or_insert(0) += 1;
                    }
                    let win = Feedback::win(shape.positions());
                    let largest = sizes
                        .iter()
                        .filter(|(&f, _)| f != win || sizes.len() == 1)
                        .map(|(_, &n)| n)
                        .max()
                        .unwrap();
                    let f = host.answer(g);
                    assert_eq!(sizes[&f], largest, "{name}");
                    left.retain(|&s| shape.feedback(s, g) == f);
                    assert_eq!(host.candidates(), left);
                    assert!(host.left().starts_with(&format!("{} secret", left.len())));
                    if f == win {
                        break;
                    }
                }
                assert_eq!(host.moves().len(), host.guesses());
            }
        }
        // Refused when the list would not fit, with the figures.
        let big: Shape = "mm:8x8".parse().unwrap();
        let err = ShapeHost::new(big, Codemaker::Adversarial, 1, &Sequential).unwrap_err();
        assert!(err.to_string().contains("about 403 MB"), "{err}");
        let fits: Shape = "moo:10x10".parse().unwrap();
        assert!(adversary_bytes(&fits) <= ADVERSARY_MAX_BYTES);
        assert!(ShapeHost::new(fits, Codemaker::Adversarial, 1, &Sequential).is_ok());
    }

    /// `quit` and `left` before any guess, without building the list.
    #[test]
    fn before_the_first_guess() {
        let shape: Shape = "moo:10x10".parse().unwrap();
        let mut host = ShapeHost::new(shape, Codemaker::Adversarial, 1, &Sequential).unwrap();
        let (mut answers, mut talk) = (Vec::new(), Vec::new());
        let outcome = interact(
            &mut host,
            &mut "left\n0123\nquit\n".as_bytes(),
            &mut answers,
            &mut talk,
            false,
        )
        .unwrap();
        assert_eq!(outcome, HostOutcome::Quit);
        assert!(answers.is_empty());
        let talk = String::from_utf8(talk).unwrap();
        assert!(
            talk.starts_with(
                "Guess my secret of moo:10x10 (10 different symbols from 0-9; 3628800 possible)"
            ),
            "{talk}"
        );
        assert!(
            talk.contains("3628800 secrets still possible after 0 guesses: 0123456789 0123456798"),
            "{talk}"
        );
        assert!(talk.contains("exactly 10"), "{talk}");
        assert!(
            talk.contains("3628800 secrets were still possible, e.g. 0123456789."),
            "{talk}"
        );
    }
}
