//! The independent checker behind `optimoo verify`.
//!
//! Invariant: it shares no code with the rule the solver uses
//! (`model::feedback`, `model::partition`, `model::signature`) nor with the
//! search or [`Tree::replay`]. It works on the *written* codes
//! ([`Game::format_code`]) and answers ([`Game::format_feedback`]): every
//! answer is recomputed by [`answer`], a dozen lines that count bulls and
//! cows on two strings, so a bug in the fast rule cannot hide a bad tree.
//! Like varisat's proof checker, it re-derives every step on its own: each
//! secret is replayed through the tree, each node's children must be exactly
//! the answers its remaining secrets give, every secret must be won within
//! the cap, and the statistics are counted here from scratch.
//!
//! [`Tree::replay`]: crate::tree::Tree::replay

use std::collections::BTreeMap;

use crate::model::game::Game;
use crate::tree::{Node, Stats, Tree, TreeError, MAX_DEPTH};

/// Bulls and cows of `guess` against `secret`, both written codes: bulls
/// are equal characters at equal places; cows are the characters the two
/// have in common (each character of the secret matched at most once),
/// less the bulls. The same rule for games with and without repeats.
pub fn answer(secret: &str, guess: &str) -> (usize, usize) {
    let bulls = secret
        .chars()
        .zip(guess.chars())
        .filter(|(s, g)| s == g)
        .count();
    let mut unmatched: Vec<char> = secret.chars().collect();
    let mut common = 0;
    for g in guess.chars() {
        if let Some(i) = unmatched.iter().position(|&s| s == g) {
            unmatched.swap_remove(i);
            common += 1;
        }
    }
    (bulls, common - bulls)
}

/// Replays every secret of `game` (its list, if it has one) through `tree` with [`answer`]; returns
/// the statistics counted on the way, or the first fault: an illegal guess,
/// a secret whose answer has no child, a child no secret reaches, a secret
/// not won within `cap`, a path deeper than [`MAX_DEPTH`].
pub fn check(game: &Game, tree: &Tree, cap: Option<usize>) -> Result<Stats, TreeError> {
    if tree.rules != game.rules() {
        return Err(TreeError::WrongGame {
            tree: tree.rules,
            game: game.rules(),
        });
    }
    let codes: Vec<String> = game
        .all_codes()
        .into_iter()
        .map(|c| game.format_code(c))
        .collect();
    let mut checker = Checker {
        game,
        codes,
        cap,
        histogram: Vec::new(),
    };
    // The secrets: the game's list, or every code.
    let secrets: Vec<usize> = game.secrets().iter().map(|c| c.index()).collect();
    checker.node(&tree.root, &secrets, 1, &mut Vec::new())?;
    let histogram = checker.histogram;
    Ok(Stats {
        secrets: histogram.iter().sum(),
        total: (1..).zip(&histogram).map(|(d, h)| d * h).sum(),
        max_depth: histogram.len(),
        histogram,
    })
}

struct Checker<'a> {
    game: &'a Game,
    /// Every code as written, by index.
    codes: Vec<String>,
    cap: Option<usize>,
    /// Secrets won in 1, 2, … guesses (no trailing zero).
    histogram: Vec<u64>,
}

impl Checker<'_> {
    /// Checks `node`, reached by `secrets` (indices into `codes`) after
    /// `depth - 1` guesses along `path`.
    fn node(
        &mut self,
        node: &Node,
        secrets: &[usize],
        depth: usize,
        path: &mut Vec<String>,
    ) -> Result<(), TreeError> {
        if depth > MAX_DEPTH {
            return Err(TreeError::TooDeep {
                path: path[..path.len().min(8)].join(" "),
            });
        }
        let guess = self
            .codes
            .get(node.guess.index())
            .ok_or_else(|| TreeError::IllegalGuess {
                path: path.join(" "),
                index: node.guess.index(),
                rules: self.game.rules(),
            })?
            .clone();
        if !self.game.is_guess(node.guess) {
            return Err(TreeError::NotAGuess {
                path: path.join(" "),
                guess,
            });
        }
        let positions = self.game.rules().positions();
        let mut classes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for &s in secrets {
            let (bulls, cows) = answer(&self.codes[s], &guess);
            if bulls < positions {
                classes
                    .entry(format!("{bulls}A{cows}B"))
                    .or_default()
                    .push(s);
                continue;
            }
            if let Some(cap) = self.cap.filter(|&cap| depth > cap) {
                return Err(TreeError::OverCap {
                    secret: guess,
                    guesses: depth,
                    cap,
                });
            }
            if self.histogram.len() < depth {
                self.histogram.resize(depth, 0);
            }
            self.histogram[depth - 1] += 1;
        }
        let mut children = BTreeMap::new();
        for (f, child) in &node.children {
            let text = self.game.format_feedback(*f);
            if !classes.contains_key(&text) || children.insert(text.clone(), child).is_some() {
                return Err(TreeError::UnreachableBranch {
                    path: path.join(" "),
                    feedback: text,
                });
            }
        }
        for (text, class) in classes {
            let child = children
                .get(&text)
                .ok_or_else(|| TreeError::MissingBranch {
                    path: path.join(" "),
                    secret: self.codes[class[0]].clone(),
                    feedback: text.clone(),
                })?;
            path.push(format!("{guess}:{text}"));
            self.node(child, &class, depth + 1, path)?;
            path.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_count_bulls_and_cows_on_strings() {
        assert_eq!(answer("0123", "0123"), (4, 0));
        assert_eq!(answer("0123", "3210"), (0, 4));
        assert_eq!(answer("0123", "0415"), (1, 1));
        assert_eq!(answer("1122", "1212"), (2, 2));
        assert_eq!(answer("1122", "2221"), (1, 2));
        assert_eq!(answer("0000", "0111"), (1, 0));
    }

    #[test]
    fn the_chain_checks_like_the_replay() {
        let (game, tree) = crate::tree::chain();
        assert_eq!(check(&game, &tree, None), tree.replay(&game, None));
        assert!(matches!(
            check(&game, &tree, Some(2)),
            Err(TreeError::OverCap { guesses: 3, .. })
        ));
        let mut missing = tree.clone();
        missing.root.children.clear();
        assert!(matches!(
            check(&game, &missing, None),
            Err(TreeError::MissingBranch { .. })
        ));
        let mut doubled = tree;
        let twin = doubled.root.children[0].clone();
        doubled.root.children.push(twin);
        assert!(matches!(
            check(&game, &doubled, None),
            Err(TreeError::UnreachableBranch { .. })
        ));
    }
}
