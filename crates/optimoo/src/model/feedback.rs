//! Feedback: the answer `xAyB` to a guess, computed, and a table of all
//! answers (the answer value [`Feedback`] and how it is written and read
//! are [`crate::model::answer`]'s).
//!
//! The default rule (Mastermind's, which is the plain Bulls and Cows rule
//! for codes without repeats): bulls = positions where secret and guess
//! agree; cows = Σ over symbols of min(count in secret, count in guess) −
//! bulls. The other answer rules (black pegs, Wordle) are defined in
//! [`crate::model::answer`]; [`compute`] follows the game's rule.
//!
//! Invariants:
//! - Under bulls and cows a [`Feedback`] packs `bulls * (k + 1) + cows` in a
//!   byte, where `k` is the number of positions; so `index() < (k + 1)²`
//!   and the winning answer `kA0B` is the largest index, `k * (k + 1)`.
//!   Feedback order is therefore (bulls, cows) order. Under every rule
//!   `index() < Rules::feedback_slots` and the win is the largest answer
//!   (`Rules::win`).
//! - Under bulls-cows and black-peg the feedback of a pair does not depend
//!   on which code is the secret; under Wordle it does, and
//!   [`FeedbackTable::for_rows`] (which relies on the symmetry) refuses it
//!   ([`FeedbackTable::by_secret`] does not).
//! - A [`FeedbackTable`] row `g` holds the feedback of guess `g` against every
//!   secret, in code order: `row(g)[s] == feedback(s, g)`; a table holds
//!   every row, or the rows of the codes it was built for (and asking for
//!   another row panics: never a wrong answer). A table built by secret
//!   ([`FeedbackTable::by_secret`], the exact search's under Wordle's rule)
//!   is the transpose: `row(s)[g] == feedback(s, g)`; under a symmetric rule
//!   the two are the same table.

use std::sync::Mutex;
use std::time::Instant;

use crate::exec::{Parallel, Sequential};
use crate::model::answer::{wordle_row, AnswerRule};
// The answer value and its errors are the answer rule's (answer.rs); they
// are named here too, where most of the crate looks for them.
pub use crate::model::answer::{parse_pair, Feedback, FeedbackError};
use crate::model::code::{Code, Codebook};

/// Feedback of `guess` against `secret` under the game's answer rule
/// (symmetric in its arguments under bulls-cows and black-peg).
#[inline]
pub fn compute(book: &Codebook, secret: Code, guess: Code) -> Feedback {
    let rules = book.rules();
    if !rules.answer().is_bulls_cows() {
        return rules
            .answer()
            .answer(book.symbols(secret), book.symbols(guess));
    }
    let k = rules.positions();
    let bulls = book
        .symbols(secret)
        .iter()
        .zip(book.symbols(guess))
        .filter(|(a, b)| a == b)
        .count();
    let common = if rules.repeats() {
        book.counts(secret)
            .iter()
            .zip(book.counts(guess))
            .map(|(&a, &b)| a.min(b) as usize)
            .sum()
    } else {
        (book.mask(secret) & book.mask(guess)).count_ones() as usize
    };
    Feedback::new(bulls, common - bulls, k)
}

/// The answers to `secret` of every code as a guess, in code order, into
/// `out` (`book.len()` cells): [`compute`] of each, Wordle's a row at a
/// time ([`wordle_row`]).
pub(crate) fn secret_row(book: &Codebook, secret: Code, out: &mut [Feedback]) {
    if book.rules().answer() == AnswerRule::Wordle {
        wordle_row(book.symbols(secret), book.all_symbols(), out);
    } else {
        for (g, cell) in out.iter_mut().enumerate() {
            *cell = compute(book, secret, Code(g as u16));
        }
    }
}

/// The row of each code in a table of the rows of `codes` (sorted,
/// distinct): `u32::MAX` for the codes without one.
fn slots(book: &Codebook, codes: &[Code]) -> Vec<u32> {
    let mut slot = vec![u32::MAX; book.len()];
    for (i, c) in codes.iter().enumerate() {
        slot[c.index()] = i as u32;
    }
    slot
}

/// Largest game whose table [`crate::model::game::Game::table`] builds on
/// its own, for the heuristics (`N²` bytes: 16384² = 256 MiB); above it
/// they compute the rule. The exact search builds the table of any game
/// ([`crate::model::game::Game::table_with`]), after the command line has
/// checked that it fits in memory ([`FeedbackTable::bytes`]).
pub const TABLE_MAX_CODES: usize = 16_384;

/// The feedback of guesses against every secret, row by guess: every row
/// (the full table), or the rows of chosen codes only.
#[derive(Debug, Clone)]
pub struct FeedbackTable {
    len: usize,
    cells: Vec<Feedback>,
    /// Empty for the full table; else the row number of each code, and
    /// `u32::MAX` for the codes without a row.
    slot: Vec<u32>,
}

impl FeedbackTable {
    /// Builds the full table on this thread.
    pub fn new(book: &Codebook) -> FeedbackTable {
        FeedbackTable::new_with(book, &Sequential)
    }

    /// Builds the full table (`N²` bytes, whatever `N`), its rows computed
    /// side by side by `par`.
    pub fn new_with(book: &Codebook, par: &dyn Parallel) -> FeedbackTable {
        let all: Vec<Code> = book.all().collect();
        FeedbackTable::build(book, &all, Vec::new(), false, par)
    }

    /// The table by secret: `row(s)[g] == feedback(s, g)`, each secret's
    /// answers to every guess (the transpose of [`FeedbackTable::new_with`];
    /// the same table under a symmetric rule), for every code or, with
    /// `codes` (sorted, distinct), for those secrets only (`|codes| · N`
    /// bytes). What the exact search reads under an asymmetric rule.
    pub fn by_secret(book: &Codebook, codes: Option<&[Code]>, par: &dyn Parallel) -> FeedbackTable {
        match codes {
            None => {
                let all: Vec<Code> = book.all().collect();
                FeedbackTable::build(book, &all, Vec::new(), true, par)
            }
            Some(codes) => FeedbackTable::build(book, codes, slots(book, codes), true, par),
        }
    }

    /// [`FeedbackTable::by_secret`] of `codes` (sorted, distinct), built on
    /// this thread, or `None` once `deadline` has passed (the clock is read
    /// every 64 rows): what a player with a time budget asks, where a large
    /// set's rows alone can take longer than the budget (the 30,240 rows of
    /// moo:5x10, about 10 s).
    pub fn by_secret_until(
        book: &Codebook,
        codes: &[Code],
        deadline: Option<Instant>,
    ) -> Option<FeedbackTable> {
        let len = book.len();
        // Grown row by row, so that a table given up early has touched
        // only the rows it computed (`vec![Feedback(0); ..]` writes every
        // cell: 914 MB at moo:5x10's root before the first row).
        let mut cells = Vec::with_capacity(codes.len() * len);
        for (i, &code) in codes.iter().enumerate() {
            if i % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            cells.resize(cells.len() + len, Feedback(0));
            let at = cells.len() - len;
            secret_row(book, code, &mut cells[at..]);
        }
        let slot = slots(book, codes);
        Some(FeedbackTable { len, cells, slot })
    }

    /// The rows of `codes` only (sorted, distinct): `|codes| · N` bytes,
    /// enough for a search of a set of secrets and its subsets (it reads
    /// the rows of secrets only, the table being symmetric).
    /// Only for symmetric rules, where it is [`FeedbackTable::by_secret`]'s
    /// table: the exact search, its one user, asks that one under Wordle's
    /// (a panic here is a bug, never bad input).
    pub fn for_rows(book: &Codebook, codes: &[Code], par: &dyn Parallel) -> FeedbackTable {
        assert!(
            book.rules().answer().is_symmetric(),
            "rows of secrets stand for rows of guesses only under a symmetric rule"
        );
        FeedbackTable::by_secret(book, Some(codes), par)
    }

    /// Bytes the cells of `rows` rows of a game of `len` codes take.
    pub fn bytes(rows: usize, len: usize) -> u64 {
        rows as u64 * len as u64
    }

    /// The rows of `codes`: by guess (`row(g)[s] = feedback(s, g)`), or
    /// with `by_secret` by secret (`row(s)[g] = feedback(s, g)`).
    fn build(
        book: &Codebook,
        codes: &[Code],
        slot: Vec<u32>,
        by_secret: bool,
        par: &dyn Parallel,
    ) -> FeedbackTable {
        let len = book.len();
        let size = codes
            .len()
            .checked_mul(len)
            .expect("the table fits the address space (65,535² bytes: 64-bit targets)");
        let mut cells = vec![Feedback(0); size];
        // Blocks of rows, one task each: few, large tasks; each task locks
        // only its own block, once.
        let rows = codes.len().div_ceil(64).max(1);
        let blocks: Vec<Mutex<&mut [Feedback]>> = cells
            .chunks_mut(rows * len.max(1))
            .map(Mutex::new)
            .collect();
        par.for_each(blocks.len(), &|b| {
            let mut block = blocks[b].lock().expect("a block is locked once");
            for (i, row) in block.chunks_mut(len).enumerate() {
                let code = codes[b * rows + i];
                if by_secret {
                    secret_row(book, code, row);
                } else {
                    for (s, cell) in row.iter_mut().enumerate() {
                        *cell = compute(book, Code(s as u16), code);
                    }
                }
            }
        });
        drop(blocks);
        FeedbackTable { len, cells, slot }
    }

    /// Feedback of `guess` against every secret, in code order. Panics for
    /// a code left out of a table built by [`FeedbackTable::for_rows`].
    #[inline]
    pub fn row(&self, guess: Code) -> &[Feedback] {
        let r = if self.slot.is_empty() {
            guess.index()
        } else {
            self.slot[guess.index()] as usize
        };
        &self.cells[r * self.len..(r + 1) * self.len]
    }

    /// Whether every code has its row.
    pub fn is_full(&self) -> bool {
        self.slot.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;

    fn fb(book: &Codebook, secret: &str, guess: &str) -> String {
        let k = book.rules().positions();
        compute(
            book,
            book.parse(secret).unwrap(),
            book.parse(guess).unwrap(),
        )
        .format(k)
    }

    #[test]
    fn reference_examples() {
        let moo = Codebook::new(Rules::standard());
        assert_eq!(fb(&moo, "5234", "5346"), "1A2B");
        let mm = Codebook::new(Rules::mm(4, 6).unwrap());
        assert_eq!(fb(&mm, "5543", "5255"), "1A1B");
        // 6 and 7 are not colours of mm:4x6; the seed's example needs 8.
        let mm8 = Codebook::new(Rules::mm(4, 8).unwrap());
        assert_eq!(fb(&mm8, "5543", "5267"), "1A0B");
    }

    #[test]
    fn parse_forms() {
        for t in ["1A2B", "1a2b", "1 2", "1,2", " 1A 2B ", "1, 2"] {
            assert_eq!(parse_pair(t).unwrap(), (1, 2), "{t}");
        }
        for t in ["", "1", "A2B", "1A2", "1 2 3", "xAyB"] {
            assert!(parse_pair(t).is_err(), "{t}");
        }
    }

    #[test]
    fn table_matches_compute_and_is_symmetric() {
        let book = Codebook::new(Rules::mm(3, 4).unwrap());
        let table = FeedbackTable::new(&book);
        assert!(table.is_full());
        for g in book.all() {
            for s in book.all() {
                assert_eq!(table.row(g)[s.index()], compute(&book, s, g));
                assert_eq!(compute(&book, s, g), compute(&book, g, s));
            }
        }
        // Some rows only: the same rows.
        let some: Vec<Code> = book.all().filter(|c| c.index() % 7 == 3).collect();
        let part = FeedbackTable::for_rows(&book, &some, &Sequential);
        assert!(!part.is_full());
        for &g in &some {
            assert_eq!(part.row(g), table.row(g));
        }
        // By secret: the same table under a symmetric rule.
        let by = FeedbackTable::by_secret(&book, None, &Sequential);
        assert_eq!(by.cells, table.cells);
    }

    /// Under Wordle's rule (asymmetric) the table by secret is the
    /// transpose of the table by guess, whole or for some secrets.
    #[test]
    fn table_by_secret_is_the_transpose() {
        let rules = Rules::mm(3, 4)
            .unwrap()
            .with_answer(crate::model::AnswerRule::Wordle)
            .unwrap();
        let book = Codebook::new(rules);
        let table = FeedbackTable::new(&book);
        let by = FeedbackTable::by_secret(&book, None, &Sequential);
        let some: Vec<Code> = book.all().filter(|c| c.index() % 5 == 1).collect();
        let part = FeedbackTable::by_secret(&book, Some(&some), &Sequential);
        let mut asymmetric = false;
        for s in book.all() {
            for g in book.all() {
                assert_eq!(by.row(s)[g.index()], compute(&book, s, g));
                assert_eq!(by.row(s)[g.index()], table.row(g)[s.index()]);
                asymmetric |= compute(&book, s, g) != compute(&book, g, s);
            }
        }
        assert!(asymmetric, "the test needs an asymmetric rule");
        for &s in &some {
            assert_eq!(part.row(s), by.row(s));
        }
        // With a deadline to come, the same rows; with one passed, none.
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        for deadline in [None, Some(later)] {
            let until = FeedbackTable::by_secret_until(&book, &some, deadline).unwrap();
            assert_eq!(
                (until.cells, until.slot),
                (part.cells.clone(), part.slot.clone())
            );
        }
        assert!(FeedbackTable::by_secret_until(&book, &some, Some(Instant::now())).is_none());
    }
}
