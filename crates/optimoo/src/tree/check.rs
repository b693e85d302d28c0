//! The independent checker behind `optimoo verify`.
//!
//! Invariant: it shares no code with the rule the solver uses
//! (`model::feedback`, `model::partition`, `model::signature`) nor with the
//! search or [`Tree::replay`]. It works on the *written* codes
//! ([`Game::format_code`]) and answers ([`Game::format_feedback`]): every
//! answer is recomputed here on two strings, by the game's answer rule
//! (only the rule's name is taken from the model: `model::answer` computes
//! nothing here): [`answer`], a dozen lines that count bulls and cows;
//! the bulls alone for black pegs; [`wordle`] for Wordle's colours. So a
//! bug in the fast rule cannot hide a bad tree. A secret is won when the
//! guess is the secret (the same written code).
//! Like varisat's proof checker, it re-derives every step on its own: each
//! secret is replayed through the tree, each node's children must be exactly
//! the answers its remaining secrets give, every secret must be won within
//! the cap, and the statistics are counted here from scratch.
//!
//! [`Tree::replay`]: crate::tree::Tree::replay

use std::collections::BTreeMap;

use crate::model::answer::AnswerRule;
use crate::model::game::Game;
use crate::model::hard::Hard;
use crate::model::rules::GuessRule;
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

/// Wordle's colours of `guess` against `secret`, both written codes, as
/// `GYB…` (green, yellow, grey): a letter at its place is green; then, left
/// to right, another letter is yellow if the secret has a copy of it not
/// green and not taken by an earlier yellow (which this one takes), else
/// grey.
pub fn wordle(secret: &str, guess: &str) -> String {
    let s: Vec<char> = secret.chars().collect();
    let g: Vec<char> = guess.chars().collect();
    let mut free: Vec<Option<char>> = s
        .iter()
        .zip(&g)
        .map(|(&a, &b)| (a != b).then_some(a))
        .collect();
    let mut out = String::with_capacity(g.len());
    for (i, &c) in g.iter().enumerate() {
        if s.get(i) == Some(&c) {
            out.push('G');
        } else if let Some(j) = free.iter().position(|&f| f == Some(c)) {
            free[j] = None;
            out.push('Y');
        } else {
            out.push('B');
        }
    }
    out
}

/// The answer to `guess` against `secret` (written codes) under `rule`,
/// written as the game writes answers (`1A2B`, `1A`, `GYB…`).
fn written_answer(rule: AnswerRule, secret: &str, guess: &str) -> String {
    match rule {
        AnswerRule::BullsCows => {
            let (bulls, cows) = answer(secret, guess);
            format!("{bulls}A{cows}B")
        }
        AnswerRule::BlackPeg => format!("{}A", answer(secret, guess).0),
        AnswerRule::Wordle => wordle(secret, guess),
    }
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
    checker.node(&tree.root, &secrets, 1, Hard::new(), &mut Vec::new())?;
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
        hard: Hard,
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
        // Consistent guesses: the guess is one of the secrets left here.
        let candidate = secrets.iter().any(|&s| self.codes[s] == guess);
        if !self.game.rules().guesses().allows(candidate) {
            return Err(TreeError::Inconsistent {
                path: path.join(" "),
                guess,
            });
        }
        let symbols = self.game.codes().symbols(node.guess);
        let hard_mode = self.game.rules().guesses() == GuessRule::Hard;
        if hard_mode && !hard.allows(symbols) {
            return Err(TreeError::NotHard {
                path: path.join(" "),
                guess,
            });
        }
        let rule = self.game.rules().answer();
        let positions = self.game.rules().positions();
        let mut classes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for &s in secrets {
            // The answer, or `None` for the win (the guess is the secret).
            let text = if rule.is_bulls_cows() {
                let (bulls, cows) = answer(&self.codes[s], &guess);
                (bulls < positions).then(|| format!("{bulls}A{cows}B"))
            } else {
                (self.codes[s] != guess).then(|| written_answer(rule, &self.codes[s], &guess))
            };
            if let Some(text) = text {
                classes.entry(text).or_default().push(s);
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
            // The colours as written (G, Y, B) give the next constraint.
            let next = if hard_mode {
                let colours: Vec<u8> = text
                    .bytes()
                    .map(|c| match c {
                        b'G' => 2,
                        b'Y' => 1,
                        _ => 0,
                    })
                    .collect();
                hard.after_colours(symbols, &colours)
            } else {
                hard
            };
            path.push(format!("{guess}:{text}"));
            self.node(child, &class, depth + 1, next, path)?;
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
    fn wordle_colours_on_strings() {
        assert_eq!(wordle("abide", "speed"), "BBYBY");
        assert_eq!(wordle("beret", "crepe"), "BYYBY");
        assert_eq!(wordle("hello", "lllll"), "BBGGB");
        assert_eq!(wordle("eerie", "fever"), "BGBYY");
        assert_eq!(wordle("salet", "salet"), "GGGGG");
        assert_eq!(written_answer(AnswerRule::BlackPeg, "0123", "0132"), "2A");
    }

    /// The checker's rules agree with the model's on every pair of small
    /// games, and it passes heuristic trees of black-peg and Wordle games,
    /// and catches a tree whose answers are relabelled.
    #[test]
    fn other_rules_check_against_the_model() {
        use crate::heuristic::{build_tree, Heuristic, StrategyConfig};
        use crate::model::rules::Rules;
        for (name, rule) in [
            ("mm:3x3", AnswerRule::BlackPeg),
            ("moo:3x5", AnswerRule::BlackPeg),
            ("mm:3x3", AnswerRule::Wordle),
            ("mm:4x3", AnswerRule::Wordle),
            ("moo:3x5", AnswerRule::Wordle),
        ] {
            let rules = name.parse::<Rules>().unwrap().with_answer(rule).unwrap();
            let game = Game::new(rules);
            for g in game.codes().all() {
                for s in game.codes().all() {
                    let (gs, ss) = (game.format_code(g), game.format_code(s));
                    assert_eq!(
                        written_answer(rule, &ss, &gs),
                        game.format_feedback(game.feedback(s, g)),
                        "{rules}: {gs} against {ss}"
                    );
                }
            }
            let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Minimax)).unwrap();
            assert_eq!(
                check(&game, &tree, None),
                tree.replay(&game, None),
                "{rules}"
            );
            // Swap the answers of two children of the root: caught.
            let mut bad = tree.clone();
            if bad.root.children.len() >= 2 {
                let (a, b) = (bad.root.children[0].0, bad.root.children[1].0);
                bad.root.children[0].0 = b;
                bad.root.children[1].0 = a;
                assert!(check(&game, &bad, None).is_err(), "{rules}");
            }
            // The same tree under bulls and cows is another game.
            let plain = Game::new(name.parse::<Rules>().unwrap());
            assert!(matches!(
                check(&plain, &tree, None),
                Err(TreeError::WrongGame { .. })
            ));
        }
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
