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

/// Counts the candidates by their feedback to `guess` into
/// `counts[..slots]` (indexed by [`Feedback::index`], `slots` being
/// `rules.feedback_slots()`; those entries are overwritten, the rest of
/// `counts` is left alone).
///
/// With the feedback table built, the guess's row is read at the
/// candidates' (increasing) indices; from 64 candidates on, when the answers
/// fit in 64 slots, into four interleaved counters, which breaks the
/// store-to-load chain of consecutive secrets with the same answer.
#[inline]
pub fn count(game: &Game, guess: Code, candidates: &[Code], counts: &mut [u32]) {
    let slots = game.rules().feedback_slots();
    counts[..slots].fill(0);
    match game.built_table() {
        Some(t) if candidates.len() >= 64 && slots <= 64 => {
            let row = t.row(guess);
            let mut c = [[0u32; 64]; 4];
            let mut quads = candidates.chunks_exact(4);
            for q in &mut quads {
                c[0][row[q[0].index()].index() & 63] += 1;
                c[1][row[q[1].index()].index() & 63] += 1;
                c[2][row[q[2].index()].index() & 63] += 1;
                c[3][row[q[3].index()].index() & 63] += 1;
            }
            for s in quads.remainder() {
                c[0][row[s.index()].index() & 63] += 1;
            }
            for (f, total) in counts[..slots].iter_mut().enumerate() {
                *total = c[0][f] + c[1][f] + c[2][f] + c[3][f];
            }
        }
        Some(t) => {
            let row = t.row(guess);
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
/// classes in feedback order (the winning class, if any, last), each in the
/// order of `candidates`.
///
/// With the feedback table built, the guess's row is read at the
/// candidates' indices: one row, read in increasing order, so the reads
/// stream through memory. (The transposed read, each secret's row at the
/// guess's column, pays off only when many guesses are scanned over one
/// set, as the search and the heuristics do.) The classes are counted
/// before they are filled, so each is allocated once at its size. Without
/// the table the rule is computed (once per candidate); it is never built
/// here.
pub fn split(game: &Game, guess: Code, candidates: &[Code]) -> Vec<(Feedback, Vec<Code>)> {
    let slots = game.rules().feedback_slots();
    match game.built_table() {
        Some(t) => {
            let row = t.row(guess);
            // Count first (a lookup each), so that each class is allocated
            // once at its size.
            let mut counts = [0u32; 256];
            for &s in candidates {
                counts[row[s.index()].index()] += 1;
            }
            let classes = counts[..slots]
                .iter()
                .map(|&c| Vec::with_capacity(c as usize))
                .collect();
            fill(classes, candidates, |s| row[s.index()])
        }
        None => split_by(slots, candidates, |s| game.feedback(s, guess)),
    }
}

/// [`split`] with the answer of each candidate given by `answer`.
#[inline]
fn split_by(
    slots: usize,
    candidates: &[Code],
    answer: impl Fn(Code) -> Feedback,
) -> Vec<(Feedback, Vec<Code>)> {
    fill(vec![Vec::new(); slots], candidates, answer)
}

/// The candidates pushed into `classes` (one per feedback slot) by their
/// answer; the non-empty classes in feedback order.
#[inline]
fn fill(
    mut classes: Vec<Vec<Code>>,
    candidates: &[Code],
    answer: impl Fn(Code) -> Feedback,
) -> Vec<(Feedback, Vec<Code>)> {
    for &s in candidates {
        classes[answer(s).index()].push(s);
    }
    classes
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(f, c)| (Feedback(f as u8), c))
        .collect()
}

/// The candidates still consistent with every (guess, answer) of `history`
/// (among the game's secrets: its list, if it has one).
pub fn consistent(game: &Game, history: &[(Code, Feedback)]) -> Vec<Code> {
    game.secrets()
        .into_iter()
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
    fn table_and_rule_split_alike() {
        for rules in ["moo:3x6", "mm:3x4"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let all = game.all_codes();
            let some: Vec<Code> = all.iter().copied().step_by(3).collect();
            let slots = game.rules().feedback_slots();
            let by_rule: Vec<_> = all.iter().map(|&g| split(&game, g, &some)).collect();
            assert!(game.table().is_some());
            for (&g, expected) in all.iter().zip(&by_rule) {
                assert_eq!(&split(&game, g, &some), expected, "{rules}");
                for set in [&some[..], &all[..], &some[..5]] {
                    let mut counts = vec![7; slots + 1];
                    count(&game, g, set, &mut counts);
                    assert_eq!(counts[slots], 7, "only the slots are written");
                    let sizes = split(&game, g, set);
                    assert_eq!(counts[..slots].iter().sum::<u32>() as usize, set.len());
                    for (f, c) in sizes {
                        assert_eq!(counts[f.index()] as usize, c.len(), "{rules}");
                    }
                }
            }
        }
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
