//! The opening table: exact totals of moo:4x10's second guesses within 7
//! guesses, computed offline (scripts/opening-table.sh) and shipped in
//! crates/optimoo/data/moo-4x10-cap7-second.txt (inside the crate, so that
//! it builds from its own folder), so that `moo rank` answers the opening at
//! once (a second move's exact search takes seconds to minutes).
//!
//! Format (docs/player.md): `#` comment lines, then the header line
//! `moo:4x10 cap 7 after 0123`, then one line per entry `ANSWER GUESS TOTAL`:
//! after the first guess 0123 answered ANSWER, the second guess GUESS (any
//! code of its orbit) has the exact total TOTAL (guesses still needed summed
//! over the secrets left, within the 6 guesses left; see
//! [`crate::play::rank`]), or `-` when the 6 guesses left cannot solve every
//! secret after it (proved).
//!
//! Invariants: the table is checked when first used (header, every line
//! well formed, a possible non-winning answer, a legal guess, a total at
//! least the secrets left and no entry twice); a table that fails is not
//! used at all (the search answers instead), and a test checks the shipped
//! one passes, and its values against the search. Any first guess is an
//! image of 0123 under a relabelling of the symbols, which keeps every
//! answer: a history of one move is mapped to 0123's frame, and the table's
//! guesses mapped back.

use std::sync::OnceLock;

use crate::model::code::Code;
use crate::model::feedback::Feedback;
use crate::model::game::Game;
use crate::model::partition;

/// The header line of the table.
pub const HEADER: &str = "moo:4x10 cap 7 after 0123";

/// The shipped table's text.
pub const TEXT: &str = include_str!("../../data/moo-4x10-cap7-second.txt");

/// One entry: after 0123 answered `answer`, `guess` has exact total `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The answer to 0123.
    pub answer: Feedback,
    /// The second guess (in 0123's frame).
    pub guess: Code,
    /// Its exact total (`None`: the cap cannot be met).
    pub total: Option<u64>,
}

/// Reads and checks a table (see the module doc) for `game` (moo:4x10).
pub fn parse(game: &Game, text: &str) -> Result<Vec<Entry>, String> {
    if game.rules() != crate::model::Rules::standard() {
        return Err(format!(
            "the opening table is for moo:4x10, not {}",
            game.rules()
        ));
    }
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    match lines.next() {
        Some((_, l)) if l.trim() == HEADER => {}
        _ => return Err(format!("the first line is not '{HEADER}'")),
    }
    let first = Code(0);
    let all = game.all_codes();
    let classes = partition::split(game, first, &all);
    let mut out: Vec<Entry> = Vec::new();
    for (i, line) in lines {
        let bad = |why: &str| format!("line {}: {why}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let [a, g, t] = words[..] else {
            return Err(bad("write ANSWER GUESS TOTAL"));
        };
        let answer = game.parse_feedback(a).map_err(|e| bad(&e.to_string()))?;
        let guess = game.parse_code(g).map_err(|e| bad(&e.to_string()))?;
        let total: Option<u64> = match t {
            "-" => None,
            t => Some(
                t.parse()
                    .map_err(|_| bad("the total is not a number or -"))?,
            ),
        };
        let Some((_, class)) = classes.iter().find(|(f, _)| *f == answer) else {
            return Err(bad("no secret gives this answer to 0123"));
        };
        let n = class.len() as u64;
        if answer == game.win() || total.is_some_and(|t| t < n || t > 8 * n) {
            return Err(bad("not a possible total"));
        }
        if out.iter().any(|e| e.answer == answer && e.guess == guess) {
            return Err(bad("entry given twice"));
        }
        out.push(Entry {
            answer,
            guess,
            total,
        });
    }
    Ok(out)
}

/// The shipped table, checked once (empty if it fails its checks).
fn table(game: &Game) -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| parse(game, TEXT).unwrap_or_default())
}

/// The table's exact totals for the position after `history` (moo:4x10
/// within 7 guesses, one move made): (guess in the history's frame, total).
pub fn lookup(game: &Game, history: &[(Code, Feedback)]) -> Vec<(Code, Option<u64>)> {
    let [(g0, f)] = history[..] else {
        return Vec::new();
    };
    if game.rules() != crate::model::Rules::standard() || game.secret_set().is_some() {
        return Vec::new();
    }
    let book = game.codes();
    // back[i] is the symbol that plays symbol i of 0123's frame: g0's
    // symbols first, then the others in order.
    let mut back: Vec<u8> = book.symbols(g0).to_vec();
    back.extend((0..10u8).filter(|s| !book.symbols(g0).contains(s)));
    table(game)
        .iter()
        .filter(|e| e.answer == f)
        .filter_map(|e| {
            let mapped: Vec<u8> = book
                .symbols(e.guess)
                .iter()
                .map(|&s| back[s as usize])
                .collect();
            Some((book.find(&mapped)?, e.total))
        })
        .collect()
}
