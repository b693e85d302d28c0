//! Partitions: how a guess splits a set of candidate secrets by feedback.
//!
//! Invariants:
//! - Candidate sets are slices of [`Code`] sorted ascending without
//!   duplicates; every class produced here is again such a set.
//! - The classes of a guess are disjoint and their sizes add up to the size
//!   of the set; the winning class (`kA0B`) holds the guess itself when it is
//!   a candidate and is empty otherwise.

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;

/// Counts the candidates by their feedback to `guess` into `counts`
/// (indexed by [`Feedback::index`], `rules.feedback_slots()` long; it is
/// cleared first).
pub fn count(game: &Game, guess: Code, candidates: &[Code], counts: &mut [u32]) {
    counts.iter_mut().for_each(|c| *c = 0);
    match game.table() {
        Some(table) => {
            let row = table.row(guess);
            for &s in candidates {
                counts[row[s.index()].index()] += 1;
            }
        }
        None => {
            for &s in candidates {
                counts[game.feedback(s, guess).index()] += 1;
            }
        }
    }
}

/// Splits the candidates by their feedback to `guess`: the non-empty
/// classes in feedback order (the winning class, if any, last).
pub fn split(game: &Game, guess: Code, candidates: &[Code]) -> Vec<(Feedback, Vec<Code>)> {
    let mut classes: Vec<Vec<Code>> = vec![Vec::new(); game.rules().feedback_slots()];
    for &s in candidates {
        classes[game.feedback(s, guess).index()].push(s);
    }
    classes
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(f, c)| (Feedback(f as u8), c))
        .collect()
}

/// The candidates still consistent with every (guess, answer) of `history`.
pub fn consistent(game: &Game, history: &[(Code, Feedback)]) -> Vec<Code> {
    game.codes()
        .all()
        .filter(|&s| history.iter().all(|&(g, f)| game.feedback(s, g) == f))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    #[test]
    fn partition_of_0123_matches_seed_004() {
        let game = Game::new(Rules::standard());
        let all = game.all_codes();
        let guess = game.parse_code("0123").unwrap();
        let classes = split(&game, guess, &all);
        let written: Vec<String> = classes
            .iter()
            .map(|(f, c)| format!("{} {}", game.format_feedback(*f), c.len()))
            .collect();
        assert_eq!(
            written.join(", "),
            "0A0B 360, 0A1B 1440, 0A2B 1260, 0A3B 264, 0A4B 9, 1A0B 480, 1A1B 720, \
             1A2B 216, 1A3B 8, 2A0B 180, 2A1B 72, 2A2B 6, 3A0B 24, 4A0B 1"
        );
        let mut counts = vec![0; game.rules().feedback_slots()];
        count(&game, guess, &all, &mut counts);
        for (f, c) in &classes {
            assert_eq!(counts[f.index()] as usize, c.len());
        }
        assert_eq!(counts.iter().sum::<u32>(), 5040);
    }

    #[test]
    fn seed_004_example_is_separated_by_0397() {
        let game = Game::new(Rules::standard());
        let history: Vec<(Code, Feedback)> = [
            ("0123", "0A1B"),
            ("1456", "1A1B"),
            ("2406", "1A1B"),
            ("3478", "0A2B"),
        ]
        .iter()
        .map(|(g, f)| (game.parse_code(g).unwrap(), game.parse_feedback(f).unwrap()))
        .collect();
        let left = consistent(&game, &history);
        let written: Vec<String> = left.iter().map(|&c| game.format_code(c)).collect();
        assert_eq!(written, ["2754", "2854", "4396", "4936", "9346"]);
        let g = game.parse_code("0397").unwrap();
        assert!(!left.contains(&g));
        let classes = split(&game, g, &left);
        assert_eq!(classes.len(), 5);
        assert!(classes.iter().all(|(_, c)| c.len() == 1));
    }
}
