//! What an exact search of a whole game will hold in memory, stated before
//! it starts (the command line compares it with `--max-memory` and refuses
//! a search that would not fit, rather than being killed halfway).
//!
//! The formula (docs/search.md checks it against measured peaks):
//!
//! - the feedback table: `N²` bytes (914 MB for moo:5x10's 30,240 codes);
//! - the memo: at most two generations of `memo_codes` codes each
//!   ([`crate::search::memo`]), each code counted as 2 bytes; the hash
//!   tables' spare capacity (up to twice the entries), the allocator's
//!   rounding and a table's growth (old and new slots side by side) can
//!   double that, so [`MEMO_BYTES_PER_CODE`] = 8 bytes per code of
//!   `memo_codes` (measured: 5 to 7.5 once the memo is full); the
//!   refuted guesses of large sets it keeps beside (two generations of a
//!   sixteenth as many codes: at most half a byte per code) fit in that
//!   slack;
//! - the bound tables: four tables of `(N + 1)` `u64` per depth;
//! - the rest: [`PER_CODE_BYTES`] per code (the codebook, the tree and
//!   its replay, the candidate lists), the kernel's buffer per thread
//!   (`2 N` bytes) with [`PER_THREAD_BYTES`] of stack and buffers, and
//!   under the total objective each thread's recent class bounds
//!   ([`crate::search::recent`]: [`RECENT_BYTES_PER_ENTRY`] for each of
//!   its `recent_bounds` entries),
//!   [`BASE_BYTES`] for the process itself, and `N²` more bytes when the
//!   kernel may copy the table into its dense codes
//!   ([`crate::search::kernel::DenseTable`]: the total objective, at most
//!   16 non-winning answers and 12,000 codes: moo:5x8, moo:4x10, mm:4x6).
//!
//! Invariants: the estimate depends only on the game, the configuration
//! and the thread count (nothing is allocated to compute it); it is an
//! upper bound in practice: a memo fills only on long searches, so short
//! ones use much less. Every figure is computed with checked arithmetic:
//! a configuration whose figures do not fit 64 bits (a `memo_codes` of
//! 2⁶² codes is 2⁶⁵ bytes) has no estimate (`None`), never a wrapped one.

use crate::model::feedback::FeedbackTable;
use crate::model::game::Game;
use crate::search::bound::Cost;
use crate::search::config::Config;
use crate::search::kernel::Kernel;

/// Bytes a code of the memo's `memo_codes` may take, both generations and
/// the hash tables' spare room counted (see the module doc).
pub const MEMO_BYTES_PER_CODE: u64 = 8;
/// Bytes per code of the game outside the table, the memo and the bounds.
pub const PER_CODE_BYTES: u64 = 256;
/// Bytes per worker thread beyond the kernel's buffer and the recent
/// class bounds: stack, scratch, and what the allocator keeps for the
/// thread. The command line's allocator (mimalloc) keeps the pages a
/// thread freed in that thread's heap, a dropped memo generation among
/// them: measured 8 MB a thread on mm:4x6 cap 5 with a 1 MiB memo, for 1
/// to 8 threads (docs/search.md, "Memory"; 1 MiB before mimalloc).
pub const PER_THREAD_BYTES: u64 = 16 << 20;
/// Bytes an entry of a thread's recent class bounds may take: its key
/// (a set of fewer than 33 codes and the depth, at most 66 bytes, 80 as
/// the allocator rounds it), the boxed slice and the interval (32), and
/// the hash table's slots at their sparsest (half full: 33 a slot).
pub const RECENT_BYTES_PER_ENTRY: u64 = 180;
/// The process before any search (binary, libraries, thread pool, the
/// allocator's first segments): `optimoo --version` peaks at 10.6 MB, a
/// search of mm:3x3 at 14 MB.
pub const BASE_BYTES: u64 = 16 << 20;

/// The memory a search will need, by part (bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// The feedback table, `N²`.
    pub table: u64,
    /// The memo at its fullest.
    pub memo: u64,
    /// The lower-bound tables.
    pub bounds: u64,
    /// Everything else: codes, tree, threads, the process, the kernel's
    /// dense table.
    pub other: u64,
}

impl MemoryEstimate {
    /// The sum of the parts (saturating: [`memory_estimate`] only makes
    /// estimates whose sum fits).
    pub fn total(&self) -> u64 {
        self.table
            .saturating_add(self.memo)
            .saturating_add(self.bounds)
            .saturating_add(self.other)
    }

    /// The total without the memo: what no memo size can shrink.
    pub fn fixed(&self) -> u64 {
        self.total().saturating_sub(self.memo)
    }
}

/// The memory a search of the whole of `game` under `config` will need on
/// `threads` workers (see the module doc for the formula); `None` when a
/// figure or their sum does not fit 64 bits (a memo far beyond any
/// machine).
pub fn memory_estimate(game: &Game, config: &Config, threads: usize) -> Option<MemoryEstimate> {
    let n = game.len() as u64;
    let branching = (game.possible_feedbacks().count() - 1).max(1) as u64;
    let bounds = 4u64
        .checked_mul(depths(n, branching))?
        .checked_mul(n + 1)?
        .checked_mul(8)?;
    let recent = match config.objective {
        Cost::Total => RECENT_BYTES_PER_ENTRY.checked_mul(config.tuning.recent_bounds as u64)?,
        _ => 0,
    };
    let per_thread = PER_THREAD_BYTES
        .checked_add(n.checked_mul(2)?)?
        .checked_add(recent)?;
    let other = (threads.max(1) as u64)
        .checked_mul(per_thread)?
        .checked_add(PER_CODE_BYTES.checked_mul(n)?)?
        .checked_add(BASE_BYTES)?;
    // Under an asymmetric rule the search holds the secrets' rows only
    // (`Game::secret_rows_with`).
    let rows = if game.rules().answer().is_symmetric() {
        game.len()
    } else {
        game.secret_count()
    };
    let table = FeedbackTable::bytes(rows, game.len());
    // The kernel's dense copy, where it may apply (whatever the path).
    let (fit, answers) = Kernel::masks_fit_of(game.possible_feedbacks(), game.win());
    let dense = config.objective == Cost::Total && Kernel::dense_fits(fit, answers, game.len());
    let other = if dense {
        other.checked_add(table)?
    } else {
        other
    };
    let e = MemoryEstimate {
        table,
        memo: memo_bytes(config.tuning.memo_codes)?,
        bounds,
        other,
    };
    e.table
        .checked_add(e.memo)?
        .checked_add(e.bounds)?
        .checked_add(e.other)?;
    Some(e)
}

/// The memo's share of the estimate for `memo_codes` codes per generation
/// (`None`: more than 64 bits).
pub fn memo_bytes(memo_codes: usize) -> Option<u64> {
    MEMO_BYTES_PER_CODE.checked_mul(u64::try_from(memo_codes).ok()?)
}

/// The largest `memo_codes` whose share of the estimate fits in `bytes`.
pub fn memo_codes_within(bytes: u64) -> usize {
    usize::try_from(bytes / MEMO_BYTES_PER_CODE).unwrap_or(usize::MAX)
}

/// Depths the bound tables hold: as [`crate::search::bound::Bounds::new`]
/// counts them, until the capacity covers `n` secrets, and one more.
fn depths(n: u64, branching: u64) -> u64 {
    let (mut capacity, mut level, mut depths) = (0u64, 1u64, 1u64);
    while capacity < n {
        capacity = capacity.saturating_add(level);
        level = level.saturating_mul(branching);
        depths += 1;
    }
    depths + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::Rules;
    use crate::search::bound::{Bounds, Cost};
    use crate::search::config::Tuning;

    #[test]
    fn the_table_is_n_squared_and_the_parts_add_up() {
        let game = Game::new("moo:5x10".parse::<Rules>().unwrap());
        let config = Config::default();
        let e = memory_estimate(&game, &config, 2).unwrap();
        assert_eq!(e.table, 30_240 * 30_240);
        assert_eq!(e.memo, 8 << 26);
        assert_eq!(e.total(), e.table + e.memo + e.bounds + e.other);
        assert_eq!(e.fixed() + e.memo, e.total());
        // More threads, more memory; a smaller memo, less.
        assert!(memory_estimate(&game, &config, 8).unwrap().total() > e.total());
        let small = Config {
            tuning: Tuning {
                memo_codes: 1 << 10,
                ..Tuning::default()
            },
            ..Config::default()
        };
        assert!(memory_estimate(&game, &small, 2).unwrap().total() < e.total());
        assert!(memo_bytes(memo_codes_within(1 << 30)).unwrap() <= 1 << 30);
        // Each thread's recent class bounds are counted (total objective).
        let no_recent = Config {
            tuning: Tuning {
                recent_bounds: 0,
                ..Tuning::default()
            },
            ..Config::default()
        };
        let recent = RECENT_BYTES_PER_ENTRY * Tuning::default().recent_bounds as u64;
        assert_eq!(
            memory_estimate(&game, &no_recent, 2).unwrap().other + 2 * recent,
            e.other
        );
        // A memo whose bytes do not fit 64 bits has no estimate.
        let huge = Config {
            tuning: Tuning {
                memo_codes: 1 << 62,
                ..Tuning::default()
            },
            ..Config::default()
        };
        assert_eq!(memory_estimate(&game, &huge, 2), None);
        let near = Config {
            tuning: Tuning {
                memo_codes: (u64::MAX / MEMO_BYTES_PER_CODE) as usize,
                ..Tuning::default()
            },
            ..Config::default()
        };
        assert_eq!(memory_estimate(&game, &near, 2), None);
    }

    #[test]
    fn depths_are_those_of_the_bound_tables() {
        for rules in ["moo:4x10", "mm:4x6", "mm:1x5", "mm:3x2", "moo:2x3"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let b = game.possible_feedbacks().count() - 1;
            let bounds = Bounds::new(Cost::Total, b, game.len());
            let d = depths(game.len() as u64, b.max(1) as u64) as usize;
            // The tables hold `d` depths: the capacity saturates there.
            assert_eq!(
                bounds.capacity(d - 1),
                bounds.capacity(usize::MAX),
                "{rules}"
            );
            assert!(bounds.capacity(d - 2) < bounds.capacity(d - 1), "{rules}");
        }
    }
}
