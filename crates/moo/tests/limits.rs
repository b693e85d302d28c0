//! Time and memory limits of `moo`, measured: ignored by default (they
//! depend on the machine and its load), run by scripts/memory-check.sh, or
//! by hand: `cargo test --release -p moo --test tests limits:: -- --ignored
//! --test-threads 1`. What these runs must do is checked in the default
//! run: crates/moo/tests/format.rs, crates/moo/tests/big.rs. Peaks are
//! measured by GNU time (/usr/bin/time, Debian package `time`): without it
//! these tests fail.

use optimoo::heuristic::Heuristic;

use crate::bad_files::{self, peak_kb};
use crate::big::{tree_file, OFF_TREE};
use crate::MOO;

/// Every bad tree file is refused by `moo --tree FILE next` and `host`
/// within a second and 50 MB (sampled while it runs, then exactly by GNU
/// time).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "time and memory limits (1 s, 50 MB): scripts/memory-check.sh"]
fn refused_files_take_under_1_s_and_50_mb() {
    bad_files::refused_within_limits(
        MOO,
        &[&["--tree", "FILE", "next"], &["--tree", "FILE", "host"]],
    );
}

/// Off a moo:5x10 tree with ten candidates left, `moo next` builds their
/// rows, not the 872 MiB table: under 100 MB.
#[test]
#[ignore = "a memory limit (100 MB): scripts/memory-check.sh"]
fn moo_next_off_a_moo_5x10_tree_stays_small() {
    let file = tree_file(Heuristic::First);
    let kb = peak_kb(MOO, &["--tree", &file, "next", OFF_TREE], None);
    assert!(kb < 100 * 1024, "moo next used {kb} kB");
}
