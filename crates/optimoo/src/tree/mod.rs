//! Decision trees: the one output type of every strategy and of the search.
//!
//! Invariants of a *valid* tree for a game (checked by [`Tree::replay`]):
//! - every internal node holds a legal guess (with a secret list and
//!   `--guesses secrets`, a listed code) and one child per non-winning
//!   feedback that some secret still possible at that node gives, and no
//!   other child; children are sorted by feedback;
//! - the winning answer has no child: a secret equal to the guess ends there;
//! - replaying any secret (every code, or the game's list) from the root
//!   ends in a win; the guess that wins
//!   counts, so the root solves its own guess in 1.
//!
//! - a tree is at most [`MAX_DEPTH`] guesses deep (which also bounds every
//!   recursion over it).
//!
//! Statistics (total guesses, average, max depth, histogram) are computed by
//! replaying every secret, never trusted from elsewhere. [`Tree::replay`] is
//! the one structural check: the tree-file writer relies on it too. The
//! independent re-check of `optimoo verify` is [`check`], which shares no
//! code with it. Lookups along a played game ([`Node::after`],
//! [`Node::total_over`]) are in `lookup`. The static game's sets (no
//! tree: every guess asked at once) have their file and checker in
//! `static_game`, beside their search.

pub mod check;
pub mod dot;
pub mod format;
pub mod html;
mod json;
mod lookup;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;
use crate::model::rules::Rules;

/// Most guesses a tree may need: deeper trees are refused by the replay,
/// the checker, and the tree file (writer and reader).
pub const MAX_DEPTH: usize = 255;

/// A node: a guess and what to do after each non-winning answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    /// The guess made at this node.
    pub guess: Code,
    /// One child per non-winning answer some remaining secret gives, sorted
    /// by feedback.
    pub children: Vec<(Feedback, Node)>,
}

impl Node {
    /// A node that guesses `guess` and has no children (yet).
    pub fn leaf(guess: Code) -> Node {
        Node {
            guess,
            children: Vec::new(),
        }
    }

    /// The child after answer `f`, if any.
    pub fn child(&self, f: Feedback) -> Option<&Node> {
        self.children
            .binary_search_by_key(&f, |(g, _)| *g)
            .ok()
            .map(|i| &self.children[i].1)
    }

    /// Number of nodes in this subtree.
    pub fn node_count(&self) -> usize {
        1 + self
            .children
            .iter()
            .map(|(_, c)| c.node_count())
            .sum::<usize>()
    }
}

/// A decision tree for one game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tree {
    /// The game the tree plays.
    pub rules: Rules,
    /// The first guess and all that follows.
    pub root: Node,
}

/// Statistics of a tree over every secret of its game.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct Stats {
    /// Number of secrets replayed.
    pub secrets: u64,
    /// Total number of guesses over all secrets, winning guesses included.
    pub total: u64,
    /// Most guesses any secret needs.
    pub max_depth: usize,
    /// `histogram[d - 1]`: secrets solved in exactly `d` guesses.
    pub histogram: Vec<u64>,
}

impl Stats {
    /// Average number of guesses per secret.
    pub fn average(&self) -> f64 {
        if self.secrets == 0 {
            0.0
        } else {
            self.total as f64 / self.secrets as f64
        }
    }

    /// Counts one secret solved in `depth` guesses.
    pub fn add(&mut self, depth: usize, secrets: u64) {
        if self.histogram.len() < depth {
            self.histogram.resize(depth, 0);
        }
        self.histogram[depth - 1] += secrets;
        self.secrets += secrets;
        self.total += depth as u64 * secrets;
        self.max_depth = self.max_depth.max(depth);
    }

    /// The histogram written as space-separated counts.
    pub fn histogram_text(&self) -> String {
        self.histogram
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Why a tree does not play its game correctly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    /// The tree is for another game.
    #[error("the tree plays {tree}, not {game}")]
    WrongGame {
        /// the tree's game
        tree: Rules,
        /// the game asked for
        game: Rules,
    },
    /// A guess index outside the game.
    #[error("after [{path}] the tree guesses code #{index}, which {rules} does not have")]
    IllegalGuess {
        /// the answers leading there
        path: String,
        /// the bad index
        index: usize,
        /// the game
        rules: Rules,
    },
    /// A guess outside the secret list when only listed codes may be
    /// guessed.
    #[error("after [{path}] the tree guesses {guess}, which is not in the secret list (guesses: secrets)")]
    NotAGuess {
        /// the answers leading there
        path: String,
        /// the guess, written
        guess: String,
    },
    /// A guess hard mode does not allow after the answers above it.
    #[error("after [{path}] the tree guesses {guess}, which hard mode does not allow (a green letter moved or a revealed letter left out)")]
    NotHard {
        /// the answers leading there
        path: String,
        /// the guess, written
        guess: String,
    },
    /// A guess no remaining secret is, in a game of consistent guesses.
    #[error("after [{path}] the tree guesses {guess}, which is not a remaining candidate (guesses: consistent)")]
    Inconsistent {
        /// the answers leading there
        path: String,
        /// the guess, written
        guess: String,
    },
    /// A secret gives an answer that has no child.
    #[error("after [{path}] secret {secret} answers {feedback}, and the tree has no move for it")]
    MissingBranch {
        /// the answers leading there
        path: String,
        /// a secret in the missing class
        secret: String,
        /// its answer
        feedback: String,
    },
    /// A child no secret can reach.
    #[error(
        "after [{path}] the tree has a move for {feedback}, which no remaining secret answers"
    )]
    UnreachableBranch {
        /// the answers leading there
        path: String,
        /// the answer of the unreachable child
        feedback: String,
    },
    /// A secret needs more guesses than allowed.
    #[error("secret {secret} needs {guesses} guesses, more than the cap of {cap}")]
    OverCap {
        /// the secret
        secret: String,
        /// guesses it needs
        guesses: usize,
        /// the cap
        cap: usize,
    },
    /// Children out of feedback order, or two for one answer.
    #[error(
        "after [{path}] the tree's moves are not in answer order or repeat the answer {feedback}"
    )]
    Unordered {
        /// the answers leading there
        path: String,
        /// the answer out of place
        feedback: String,
    },
    /// A path longer than [`MAX_DEPTH`] guesses.
    #[error("after [{path}] the tree goes deeper than {MAX_DEPTH} guesses")]
    TooDeep {
        /// the answers leading there (the first ones)
        path: String,
    },
}

impl Tree {
    /// Replays every secret of `game`; returns the statistics or the first
    /// fault found. With `cap`, a secret needing more guesses is a fault.
    pub fn replay(&self, game: &Game, cap: Option<usize>) -> Result<Stats, TreeError> {
        if self.rules != game.rules() {
            return Err(TreeError::WrongGame {
                tree: self.rules,
                game: game.rules(),
            });
        }
        let mut stats = Stats::default();
        let mut path = Vec::new();
        replay_node(
            game,
            &self.root,
            &game.secrets(),
            1,
            cap,
            &mut path,
            &mut stats,
        )?;
        Ok(stats)
    }

    /// The guesses and answers the tree plays against `secret`, ending with
    /// the winning guess. Fails if the tree has no move for an answer.
    pub fn play(&self, game: &Game, secret: Code) -> Result<Vec<(Code, Feedback)>, TreeError> {
        let mut node = &self.root;
        let mut moves = Vec::new();
        loop {
            if !game.is_guess(node.guess) {
                return Err(illegal(game, &moves, node.guess));
            }
            let f = game.feedback(secret, node.guess);
            moves.push((node.guess, f));
            if f == game.win() {
                return Ok(moves);
            }
            node = node.child(f).ok_or_else(|| TreeError::MissingBranch {
                path: path_text(game, &moves[..moves.len() - 1]),
                secret: game.format_code(secret),
                feedback: game.format_feedback(f),
            })?;
        }
    }
}

fn path_text(game: &Game, moves: &[(Code, Feedback)]) -> String {
    moves
        .iter()
        .map(|&(g, f)| format!("{}:{}", game.format_code(g), game.format_feedback(f)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn illegal(game: &Game, path: &[(Code, Feedback)], guess: Code) -> TreeError {
    if guess.index() < game.len() {
        return TreeError::NotAGuess {
            path: path_text(game, path),
            guess: game.format_code(guess),
        };
    }
    TreeError::IllegalGuess {
        path: path_text(game, path),
        index: guess.index(),
        rules: game.rules(),
    }
}

fn replay_node(
    game: &Game,
    node: &Node,
    secrets: &[Code],
    depth: usize,
    cap: Option<usize>,
    path: &mut Vec<(Code, Feedback)>,
    stats: &mut Stats,
) -> Result<(), TreeError> {
    if depth > MAX_DEPTH {
        return Err(TreeError::TooDeep {
            path: path_text(game, &path[..path.len().min(8)]),
        });
    }
    if !game.is_guess(node.guess) {
        return Err(illegal(game, path, node.guess));
    }
    if let Some(w) = node.children.windows(2).find(|w| w[0].0 >= w[1].0) {
        return Err(TreeError::Unordered {
            path: path_text(game, path),
            feedback: game.format_feedback(w[1].0),
        });
    }
    let classes = partition::split(game, node.guess, secrets);
    // Every child must be reached by some secret.
    for (f, _) in &node.children {
        if !classes.iter().any(|(g, _)| g == f) || *f == game.win() {
            return Err(TreeError::UnreachableBranch {
                path: path_text(game, path),
                feedback: game.format_feedback(*f),
            });
        }
    }
    for (f, class) in classes {
        if f == game.win() {
            if let Some(cap) = cap.filter(|&cap| depth > cap) {
                return Err(TreeError::OverCap {
                    secret: game.format_code(class[0]),
                    guesses: depth,
                    cap,
                });
            }
            stats.add(depth, class.len() as u64);
            continue;
        }
        let child = node.child(f).ok_or_else(|| TreeError::MissingBranch {
            path: path_text(game, path),
            secret: game.format_code(class[0]),
            feedback: game.format_feedback(f),
        })?;
        path.push((node.guess, f));
        replay_node(game, child, &class, depth + 1, cap, path, stats)?;
        path.pop();
    }
    Ok(())
}

/// A hand-made tree for mm:1x3 (codes 0, 1, 2): guess 0, then 1, then 2;
/// a fixture shared by the tests of several modules.
#[cfg(test)]
pub(crate) fn chain() -> (Game, Tree) {
    let game = Game::new(Rules::mm(1, 3).expect("a small game"));
    let miss = Feedback::new(0, 0, 1);
    let tree = Tree {
        rules: game.rules(),
        root: Node {
            guess: Code(0),
            children: vec![(
                miss,
                Node {
                    guess: Code(1),
                    children: vec![(miss, Node::leaf(Code(2)))],
                },
            )],
        },
    };
    (game, tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_counts_every_secret() {
        let (game, tree) = chain();
        let stats = tree.replay(&game, None).unwrap();
        assert_eq!(stats.secrets, 3);
        assert_eq!(stats.total, 6);
        assert_eq!(stats.histogram, vec![1, 1, 1]);
        assert_eq!(stats.max_depth, 3);
        assert!(matches!(
            tree.replay(&game, Some(2)),
            Err(TreeError::OverCap { guesses: 3, .. })
        ));
        assert_eq!(tree.play(&game, Code(2)).unwrap().len(), 3);
    }

    #[test]
    fn replay_finds_faults() {
        let (game, mut tree) = chain();
        tree.root.children[0].1.children.clear();
        assert!(matches!(
            tree.replay(&game, None),
            Err(TreeError::MissingBranch { .. })
        ));
        let (game, mut tree) = chain();
        tree.root.children[0].1.children[0].1.guess = Code(9);
        assert!(matches!(
            tree.replay(&game, None),
            Err(TreeError::IllegalGuess { .. })
        ));
        let (game, mut tree) = chain();
        tree.root.children[0]
            .1
            .children
            .push((Feedback::new(1, 0, 1), Node::leaf(Code(2))));
        assert!(tree.replay(&game, None).is_err());
    }
}
