//! Memory before a search: the memory this machine has available, and the check that refuses a search that
//! would not fit (exit code 2) instead of letting the kernel kill it
//! halfway.
//!
//! Invariants: the check happens before anything large is allocated (the
//! library's [`optimoo::search::memory_estimate`] allocates nothing); the
//! estimate is always stated on stderr; a default memo too large for the
//! limit is shrunk (and said so), a `--memo-mib` given on the command line
//! never is; when the available memory cannot be read the search runs
//! unchecked, and says so.
//!
//! The memory available (/proc/meminfo, the cgroup, the address space
//! limit) is read by `cli_common::memory`, which `moo` shares.

use anyhow::bail;

use optimoo::model::Game;
use optimoo::search::{memo_codes_within, MemoryEstimate};
use optimoo::search::{memory_estimate, Config};

use crate::exit::say;

/// The smallest memo a search is shrunk to (MiB of codes per generation)
/// before it is refused instead.
const MEMO_MIB_MIN: u64 = 4;

/// The memo's codes per generation for `--memo-mib N` (each code counted as
/// 2 bytes, so N MiB hold N · 2¹⁹ codes), or an error when N MiB do not fit
/// 64 bits.
pub fn memo_codes(memo_mib: usize) -> anyhow::Result<usize> {
    memo_mib
        .max(1)
        .checked_mul(1 << 20)
        .map(|bytes| bytes / 2)
        .ok_or_else(|| too_large(memo_mib))
}

/// The error for a `--memo-mib` whose figures overflow.
fn too_large(memo_mib: usize) -> anyhow::Error {
    anyhow::anyhow!(
        "the memo (--memo-mib, {memo_mib} MiB in all) is too large: its memory does not even \
         fit in 64 bits; give a memo of at most the memory this machine has (e.g. --memo-mib \
         1024)"
    )
}

pub use cli_common::memory::{available, show};

/// States the memory the search of `game` will need, and checks it
/// against `max_memory` (default: the memory available). A default memo
/// (`memo_given` false) too large for the limit is shrunk to fit; returns
/// the configuration to search with, or an error (exit code 2) saying what
/// is needed, what is allowed and what to change.
pub fn fit(
    game: &Game,
    config: Config,
    threads: usize,
    max_memory: Option<u64>,
    memo_given: bool,
) -> anyhow::Result<Config> {
    let limit = match max_memory {
        Some(bytes) => Ok((bytes, format!("--max-memory allows {}", show(bytes)))),
        None => available()
            .map(|(bytes, source)| (bytes, format!("{} available ({source})", show(bytes)))),
    };
    fit_within(game, config, threads, limit, memo_given)
}

/// [`fit`] against a limit and the words that say where it comes from, or
/// the reason it is unknown (the search then runs unchecked).
fn fit_within(
    game: &Game,
    mut config: Config,
    threads: usize,
    limit: Result<(u64, String), String>,
    memo_given: bool,
) -> anyhow::Result<Config> {
    let mib = |c: &Config| c.tuning.memo_codes.saturating_mul(2) >> 20;
    let estimate =
        memory_estimate(game, &config, threads).ok_or_else(|| too_large(mib(&config)))?;
    let (limit, source) = match limit {
        Ok(found) => found,
        Err(why) => {
            say(&format!("{}; {why}: not checked", statement(&estimate)));
            return Ok(config);
        }
    };
    if estimate.total() > limit && !memo_given {
        let room = limit.saturating_sub(estimate.fixed());
        let codes = memo_codes_within(room);
        if (codes as u64) >= (MEMO_MIB_MIN << 20) / 2 {
            config.tuning.memo_codes = codes;
            let shrunk =
                memory_estimate(game, &config, threads).ok_or_else(|| too_large(mib(&config)))?;
            say(&format!(
                "memory: the memo is shrunk to {} MiB (--memo-mib) to fit: {source}",
                (codes * 2) >> 20
            ));
            say(&format!("{}; {source}", statement(&shrunk)));
            return Ok(config);
        }
    }
    if estimate.total() > limit {
        bail!(
            "the search of {} needs about {} of memory ({}), and its memo may grow to {}: \
             {} in all, but {source}: give a smaller --memo-mib (the feedback table alone \
             needs {}) or a larger --max-memory, or solve a smaller game",
            game.rules(),
            show(estimate.fixed()),
            parts(&estimate),
            show(estimate.memo),
            show(estimate.total()),
            show(estimate.table)
        );
    }
    say(&format!("{}; {source}", statement(&estimate)));
    Ok(config)
}

/// The line stated before a search: what this game needs whatever the
/// memo (the feedback table, the bound tables, the codes, the threads, the
/// process), then the memo's ceiling as a ceiling: it fills only on long
/// searches (`memory: about 11.7 MiB needed (feedback table 1.6 MiB, other
/// 10.1 MiB), the memo may grow to 1.0 GiB`).
pub fn statement(e: &MemoryEstimate) -> String {
    format!(
        "memory: about {} needed ({}), the memo may grow to {}",
        show(e.fixed()),
        parts(e),
        show(e.memo)
    )
}

/// The parts of an estimate without the memo, in words.
fn parts(e: &MemoryEstimate) -> String {
    format!(
        "feedback table {}, other {}",
        show(e.table),
        show(e.bounds + e.other)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use optimoo::search::Tuning;

    #[test]
    fn the_limit_refuses_shrinks_or_lets_through() {
        let game = Game::new("moo:4x10".parse().unwrap());
        let config = Config::default();
        let need = memory_estimate(&game, &config, 2).unwrap();
        let limit = |bytes: u64| Ok((bytes, "a test limit".to_string()));
        // Enough: unchanged.
        let ok = fit_within(&game, config.clone(), 2, limit(need.total()), false).unwrap();
        assert_eq!(ok.tuning.memo_codes, config.tuning.memo_codes);
        // The default memo shrinks to fit, an explicit one is refused.
        let tight = need.fixed() + (64 << 20);
        let shrunk = fit_within(&game, config.clone(), 2, limit(tight), false).unwrap();
        assert!(shrunk.tuning.memo_codes < config.tuning.memo_codes);
        assert!(memory_estimate(&game, &shrunk, 2).unwrap().total() <= tight);
        let err = fit_within(&game, config.clone(), 2, limit(tight), true).unwrap_err();
        assert!(err.to_string().contains("a test limit"), "{err}");
        // Below the table: refused whatever the memo.
        assert!(fit_within(&game, config.clone(), 2, limit(need.table), false).is_err());
        // Figures that overflow: refused, whatever the limit.
        let huge = Config {
            tuning: Tuning {
                memo_codes: 1 << 62,
                ..Tuning::default()
            },
            ..Config::default()
        };
        for limit in [limit(1 << 30), Err("no /proc".into())] {
            let err = fit_within(&game, huge.clone(), 2, limit, true).unwrap_err();
            assert!(err.to_string().contains("too large"), "{err}");
        }
        assert!(memo_codes(8_796_093_022_208 * 2048).is_err());
        assert_eq!(memo_codes(256).unwrap(), 128 << 20);
        assert_eq!(memo_codes(0).unwrap(), 1 << 19);
        // An unknown limit: not checked, not refused.
        let unknown = fit_within(&game, config.clone(), 2, Err("no /proc".into()), true).unwrap();
        assert_eq!(unknown.tuning.memo_codes, config.tuning.memo_codes);
    }

    /// What a game needs is stated sized to the game, the memo's ceiling
    /// apart: mm:4x6 needs megabytes, not the 1 GiB of the default memo.
    #[test]
    fn the_statement_is_sized_to_the_game() {
        let game = Game::new("mm:4x6".parse().unwrap());
        let config = Config {
            tuning: Tuning {
                memo_codes: memo_codes(crate::cli::args::MEMO_MIB).unwrap(),
                ..Tuning::default()
            },
            ..Config::default()
        };
        let e = memory_estimate(&game, &config, 2).unwrap();
        let line = statement(&e);
        assert!(line.starts_with("memory: about "), "{line}");
        assert!(
            line.contains(" MiB needed (feedback table 1.6 MiB, other "),
            "{line}"
        );
        assert!(line.ends_with("), the memo may grow to 1.0 GiB"), "{line}");
        // Tens of MiB: 16 MiB for the process and each of the 2 threads.
        assert!(e.fixed() < 64 << 20, "{line}");
        let (needed, unit) = {
            let words: Vec<&str> = line.split_whitespace().collect();
            (words[2].parse::<f64>().unwrap(), words[3])
        };
        assert_eq!(unit, "MiB", "{line}");
        assert!(
            (needed - e.fixed() as f64 / (1 << 20) as f64).abs() < 0.1,
            "{line}"
        );
    }
}
