//! The player behind the `moo` binary: the best next guess from a decision
//! tree, and whole games against a secret (the conversation with a person
//! is [`crate::play::codebreaker`]).
//!
//! Invariants:
//! - A lookup pays only for the game model and the tree: the answers so far
//!   filter the secrets with [`Game::feedback`] (no feedback table, no thread
//!   pool), and the tree is walked along the history.
//! - The player never makes a guess that contradicts what it knows: when the
//!   answers leave no secret it says so ([`PlayError::Contradiction`])
//!   instead of guessing; when one secret is left it guesses that secret.
//! - Off the tree (the history holds a guess the tree would not have made)
//!   the guess comes from the remaining candidates, and [`Advice::source`]
//!   says how it was chosen.

use crate::heuristic::{self, Heuristic, StrategyConfig};
use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::moves::MoveError;
use crate::model::secrets::SecretSet;
use crate::model::signature::Oracle;
use crate::search;
use crate::tree::format::{FormatError, Header, TreeFile};
use crate::tree::Tree;

/// How a guess was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// The tree's move for this history.
    Tree,
    /// One secret is left: guess it.
    LastCandidate,
    /// Off the tree: an exact search over the remaining candidates.
    Exact,
    /// Off the tree: a heuristic (named) over the remaining candidates.
    Heuristic(&'static str),
}

impl Source {
    /// A few words for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Tree => "from the tree",
            Source::LastCandidate => "the only secret left",
            Source::Exact => "off the tree: exact search (fewest guesses on average)",
            Source::Heuristic("entropy") => "off the tree: the entropy heuristic",
            Source::Heuristic("kooi") => "off the tree: the kooi heuristic",
            Source::Heuristic(_) => "off the tree: a heuristic",
        }
    }

    /// How the guess was chosen, without "off the tree" (for a player
    /// with no tree at all).
    fn method(self) -> &'static str {
        let text = self.describe();
        text.strip_prefix("off the tree: ").unwrap_or(text)
    }
}

/// The player's answer to "what next?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice {
    /// The guess to make.
    pub guess: Code,
    /// How it was chosen.
    pub source: Source,
    /// The secrets still consistent with every answer, smallest first.
    pub candidates: Vec<Code>,
}

/// Why the player cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// No secret gives all the answers.
    #[error("no secret gives all these answers: {guess}:{feedback} (answer {answer}) contradicts the answers before it")]
    Contradiction {
        /// 1-based number of the first answer that leaves no secret
        answer: usize,
        /// its guess
        guess: String,
        /// its feedback
        feedback: String,
    },
    /// A move after the winning answer.
    #[error("move {answer} comes after the winning answer: the game was over")]
    AfterWin {
        /// 1-based number of the move after the win
        answer: usize,
    },
    /// The history already ends the game: won.
    #[error("the game is won: the secret is {0}")]
    Solved(String),
    /// The tree plays another game.
    #[error("the tree plays {tree}, not {game}")]
    WrongGame {
        /// the tree's game
        tree: crate::model::Rules,
        /// the game asked for
        game: crate::model::Rules,
    },
    /// A move that cannot be read.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A codebreaker that follows a tree, or (for a game no tree is at hand
/// for) plays every move as off the tree: the exact search for small sets,
/// the heuristic beyond.
#[derive(Debug)]
pub struct Player<'a> {
    game: &'a Game,
    tree: Option<&'a Tree>,
    oracle: Oracle<'a>,
    /// The cap the tree was solved under; off the tree, the exact search
    /// tries to keep within it.
    cap: Option<usize>,
}

impl<'a> Player<'a> {
    /// A player of `tree`, which must play `game`.
    pub fn new(game: &'a Game, tree: &'a Tree) -> Result<Player<'a>, PlayError> {
        if tree.rules != game.rules() {
            return Err(PlayError::WrongGame {
                tree: tree.rules,
                game: game.rules(),
            });
        }
        Ok(Player {
            game,
            tree: Some(tree),
            oracle: Oracle::new(game),
            cap: None,
        })
    }

    /// A player of `game` with no tree: every move is chosen as off the
    /// tree (the exact search for at most [`EXACT_MAX`] secrets, the
    /// heuristic beyond; the first guess is the heuristic's, the smallest
    /// code).
    pub fn without_tree(game: &'a Game) -> Player<'a> {
        Player {
            game,
            tree: None,
            oracle: Oracle::new(game),
            cap: None,
        }
    }

    /// Whether the player follows a tree.
    pub fn has_tree(&self) -> bool {
        self.tree.is_some()
    }

    /// How `source` chose a guess, in a few words: as
    /// [`Source::describe`], and for a player with no tree "no tree for
    /// GAME: ..." where it says "off the tree".
    pub fn describe_source(&self, source: Source) -> String {
        match (self.tree, source) {
            (None, Source::Exact | Source::Heuristic(_)) => {
                format!("no tree for {}: {}", self.game.rules(), source.method())
            }
            _ => source.describe().to_string(),
        }
    }

    /// The same player, told the cap its tree was solved under (off the
    /// tree the exact search then keeps within it when it can).
    pub fn with_cap(self, cap: Option<usize>) -> Player<'a> {
        Player { cap, ..self }
    }

    /// The game.
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The best next guess after `history`.
    pub fn advise(&self, history: &[(Code, Feedback)]) -> Result<Advice, PlayError> {
        let game = self.game;
        let oracle = &self.oracle;
        let mut candidates: Vec<Code> = game.secrets();
        for (i, &(g, f)) in history.iter().enumerate() {
            // A move after the win: refused as `rank` and `analyze` do.
            if i > 0 && history[i - 1].1 == game.win() {
                return Err(PlayError::AfterWin { answer: i + 1 });
            }
            candidates.retain(|&s| oracle.feedback(s, g) == f);
            if candidates.is_empty() {
                return Err(PlayError::Contradiction {
                    answer: i + 1,
                    guess: game.format_code(g),
                    feedback: game.format_feedback(f),
                });
            }
        }
        if let Some(&(g, _)) = history.iter().find(|&&(_, f)| f == game.win()) {
            return Err(PlayError::Solved(game.format_code(g)));
        }
        let (guess, source) = match self.tree.and_then(|t| t.root.after(history)) {
            Some(n) => (n.guess, Source::Tree),
            None if candidates.len() == 1 => (candidates[0], Source::LastCandidate),
            None => off_tree(game, history, &candidates, self.cap),
        };
        Ok(Advice {
            guess,
            source,
            candidates,
        })
    }

    /// The game the tree plays against `secret`: each guess with its answer,
    /// the winning guess last.
    pub fn play(&self, secret: Code) -> Vec<(Code, Feedback)> {
        let mut history = Vec::new();
        // `advise` follows the tree, and leaves it only if the tree were
        // incomplete: every step removes the guess from the candidates or
        // splits them, so this ends.
        while let Ok(advice) = self.advise(&history) {
            let f = self.game.feedback(secret, advice.guess);
            history.push((advice.guess, f));
        }
        history
    }
}

/// Decodes a tree file for playing: reads the header, builds the game
/// (cheap: no feedback table), decodes the tree.
pub fn load(bytes: &[u8]) -> Result<(Game, TreeFile), FormatError> {
    load_with(bytes, None)
}

/// [`load`], with the secret list the user gave (`moo --secrets`): the
/// file must record that list. Without one, the file's own list is used.
pub fn load_with(bytes: &[u8], list: Option<SecretSet>) -> Result<(Game, TreeFile), FormatError> {
    let header = Header::peek(bytes)?;
    let game = match list {
        Some(set) if header.universe.is_some() => header.game().with_secret_set(set),
        Some(set) => Game::with_secrets(header.rules, set),
        None => header.game(),
    };
    let file = TreeFile::from_bytes_in(&game, bytes)?;
    Ok((game, file))
}

/// One line for `moo next`: the guess first, then how it was chosen and
/// how many secrets are left.
pub fn describe_advice(player: &Player<'_>, advice: &Advice) -> String {
    let n = advice.candidates.len();
    format!(
        "{} ({}; {n} secret{} possible)",
        player.game().format_code(advice.guess),
        player.describe_source(advice.source),
        if n == 1 { "" } else { "s" }
    )
}

/// Candidate sets up to this size are answered by the exact search when
/// the history leaves the tree: on moo:4x10 sets of 24 took 12 ms and sets of
/// 36 took 0.3 s (docs/player.md); the search builds only the feedback
/// rows of the secrets left (`search::Searcher::for_set`).
pub const EXACT_MAX: usize = 30;

/// The move for a set of candidates the tree does not cover: the exact
/// search for small sets (within what is left of the cap when it can), else
/// the best heuristic for the game's kind (entropy without repeats, 26424 on
/// moo:4x10; kooi with repeats, 5668 on mm:4x6: docs/heuristics.md; on a
/// game without symmetry its own first guess too: TRACE for Wordle).
fn off_tree(
    game: &Game,
    history: &[(Code, Feedback)],
    candidates: &[Code],
    cap: Option<usize>,
) -> (Code, Source) {
    if candidates.len() <= EXACT_MAX {
        let left = cap
            .map(|c| c.saturating_sub(history.len()))
            .filter(|&l| l > 0);
        // The history's own symmetry prunes the search (search::solve_after).
        let mut found = search::solve_after(game, history, left);
        if left.is_some() && matches!(found, Ok(None)) {
            found = search::solve_after(game, history, None);
        }
        if let Ok(Some((_, node))) = found {
            return (node.guess, Source::Exact);
        }
    }
    let heuristic = if game.rules().repeats() {
        Heuristic::Kooi
    } else {
        Heuristic::Entropy
    };
    let config = StrategyConfig::new(heuristic);
    // Without symmetry (Wordle's rule, a code list) the first guess
    // matters: the heuristic's own, not the smallest code.
    let chosen = if history.is_empty() && !game.rules().has_symmetry() {
        heuristic::root_guess(game, &config)
    } else {
        heuristic::best_guess(game, candidates, history, &config)
    };
    match chosen {
        Ok(guess) => (guess, Source::Heuristic(heuristic.name())),
        // Unreachable with a checked history and candidates; stay safe.
        Err(_) => (candidates[0], Source::LastCandidate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::moves;
    use crate::model::partition;
    use crate::model::rules::Rules;
    use crate::tree::Node;

    fn first_tree(game: &Game) -> Tree {
        fn node(game: &Game, set: &[Code]) -> Node {
            let children = partition::split(game, set[0], set)
                .into_iter()
                .filter(|(f, _)| *f != game.win())
                .map(|(f, c)| (f, node(game, &c)))
                .collect();
            Node {
                guess: set[0],
                children,
            }
        }
        Tree {
            rules: game.rules(),
            root: node(game, &game.all_codes()),
        }
    }

    #[test]
    fn plays_every_secret_to_a_win() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let tree = first_tree(&game);
        let player = Player::new(&game, &tree).unwrap();
        for secret in game.codes().all() {
            let moves = player.play(secret);
            assert_eq!(moves.last().unwrap(), &(secret, game.win()));
            assert_eq!(moves, tree.play(&game, secret).unwrap());
        }
    }

    #[test]
    fn off_tree_and_contradictions() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let tree = first_tree(&game);
        let player = Player::new(&game, &tree).unwrap();
        let m = |t: &str| moves::parse_move(&game, t).unwrap();
        // The tree opens with 012; 456 is off the tree. Small sets get the
        // exact search, large ones the heuristic.
        let game7 = Game::new(Rules::moo(3, 7).unwrap());
        let tree7 = first_tree(&game7);
        let player7 = Player::new(&game7, &tree7).unwrap();
        let mut seen = Vec::new();
        for f in ["0A0B", "0A1B", "0A2B", "1A0B", "1A1B", "0A3B", "2A0B"] {
            let (g, f) = moves::parse_move(&game7, &format!("456:{f}")).unwrap();
            let a = player7.advise(&[(g, f)]).unwrap();
            assert!(a.candidates.iter().all(|&s| game7.feedback(s, g) == f));
            let want = match a.candidates.len() {
                1 => Source::LastCandidate,
                n if n <= EXACT_MAX => Source::Exact,
                _ => Source::Heuristic("entropy"),
            };
            assert_eq!(a.source, want);
            seen.push(want);
        }
        assert!(seen.contains(&Source::Exact));
        assert!(seen.contains(&Source::Heuristic("entropy")));
        let err = player.advise(&[m("012:1A0B"), m("012:2A0B")]).unwrap_err();
        assert!(matches!(err, PlayError::Contradiction { answer: 2, .. }));
        // moo:3x5 has only 5 symbols: 012 always shares one with the secret.
        assert!(moves::parse_move(&game, "012:0A0B").is_err());
        assert!(matches!(
            player.advise(&[m("012:3A0B")]),
            Err(PlayError::Solved(_))
        ));
        assert!(moves::parse_move(&game, "012-1A0B").is_err());
    }

    /// With no tree every move is chosen as off the tree, and said so;
    /// every secret is still won.
    #[test]
    fn a_player_without_a_tree() {
        let game = Game::new(Rules::moo(3, 5).unwrap());
        let player = Player::without_tree(&game);
        assert!(!player.has_tree());
        let first = player.advise(&[]).unwrap();
        assert_eq!(first.guess, Code(0));
        assert_eq!(first.candidates.len(), 60);
        assert_eq!(
            describe_advice(&player, &first),
            "012 (no tree for moo:3x5: the entropy heuristic; 60 secrets possible)"
        );
        for secret in game.codes().all() {
            let moves = player.play(secret);
            assert_eq!(moves.last().unwrap(), &(secret, game.win()));
            assert!(moves.len() <= 6, "{moves:?}");
        }
        let m = moves::parse_move(&game, "012:0A1B").unwrap();
        let a = player.advise(&[m]).unwrap();
        assert_eq!(a.source, Source::Exact);
        assert!(describe_advice(&player, &a).contains("no tree for moo:3x5: exact search"));
        let tree = first_tree(&game);
        let with = Player::new(&game, &tree).unwrap();
        assert!(with.has_tree());
        assert_eq!(
            with.describe_source(Source::Exact),
            Source::Exact.describe()
        );
    }
}
