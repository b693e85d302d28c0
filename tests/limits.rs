//! Time and memory limits of the `optimoo` command, measured: ignored by
//! default (they depend on the machine and its load), run by
//! scripts/memory-check.sh, or by hand:
//! `cargo test --release -p optimoo-cli --test tests limits:: -- --ignored --test-threads 1`.
//! What these runs must do (refuse, state the estimate) is checked in the
//! default run: tests/format.rs, tests/big.rs. Peaks are measured by GNU
//! time (/usr/bin/time, Debian package `time`): without it these tests
//! fail.

use optimoo::model::{Game, Rules};
use optimoo::search::{memory_estimate, Config};

use crate::bad_files::{self, peak_kb};
use crate::OPTIMOO;

/// The run whose stated estimate is checked against its peak: mm:4x6
/// within 5 guesses, a 1 MiB memo (it fills), 2 threads.
pub const ESTIMATED: [&str; 9] = [
    "solve",
    "--game",
    "mm:4x6",
    "--cap",
    "5",
    "--memo-mib",
    "1",
    "--threads",
    "2",
];

/// `search::memory_estimate` of [`ESTIMATED`], in bytes.
pub fn estimated_bytes() -> u64 {
    let game = Game::new("mm:4x6".parse::<Rules>().unwrap());
    let config = Config {
        tuning: optimoo::search::Tuning {
            memo_codes: (1 << 20) / 2,
            ..optimoo::search::Tuning::default()
        },
        ..Config::default()
    };
    memory_estimate(&game, &config, 2).unwrap().total()
}

/// Every bad tree file is refused by `optimoo verify` and `optimoo export`
/// within a second and 50 MB (sampled while it runs, then exactly by GNU
/// time).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "time and memory limits (1 s, 50 MB): scripts/memory-check.sh"]
fn refused_files_take_under_1_s_and_50_mb() {
    bad_files::refused_within_limits(OPTIMOO, &[&["verify", "FILE"], &["export", "FILE"]]);
}

/// `--max-memory 1M` refuses moo:4x10 before the 24 MiB table is built:
/// its peak stays under 20 MB.
#[test]
#[ignore = "a memory limit (20 MB): scripts/memory-check.sh"]
fn too_little_memory_is_refused_before_allocating() {
    let args = ["solve", "--game", "moo:4x10", "--max-memory", "1M"];
    let kb = peak_kb(OPTIMOO, &args, None);
    assert!(kb < 20 * 1024, "refused after {kb} kB");
}

/// The estimate is an upper bound within a small factor (4) of the
/// measured peak once the memo fills.
#[test]
#[ignore = "the estimate against a measured peak: scripts/memory-check.sh"]
fn the_estimate_is_near_the_measured_peak() {
    let estimate = estimated_bytes();
    let peak = peak_kb(OPTIMOO, &ESTIMATED, None) * 1024;
    eprintln!("mm:4x6 cap 5: estimate {estimate} bytes, peak {peak} bytes");
    assert!(
        peak <= estimate && estimate <= 4 * peak,
        "{estimate} vs {peak}"
    );
}
