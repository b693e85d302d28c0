//! Tree files no reader may read in full (test_support::bad_files:
//! a link to /dev/zero, huge sparse files, endless FIFOs), given to every
//! `optimoo` command that reads a tree file: each refuses them with exit
//! code 2 and the reason. Their time and memory limits: tests/limits.rs;
//! `moo --tree`: crates/moo/tests/format.rs; the library's reader:
//! crates/optimoo/tests/format.rs.

use crate::bad_files;
use crate::OPTIMOO;

/// `optimoo verify FILE` and `optimoo export FILE` refuse every bad file: a link to /dev/zero (measured bug: `optimoo
/// verify` read the whole "file" and grew to 9.9 GB; the fixed header is
/// read first now), a good header followed by a huge sparse tail (read up
/// to the declared length and one byte more) or declaring a length above
/// any file of the game (refused before reading on), and a named pipe fed
/// without end (a good file and then garbage, or zeros).
#[cfg(target_os = "linux")]
#[test]
fn every_bad_file_is_refused() {
    bad_files::refused_by(
        OPTIMOO,
        &[&["verify", "FILE"], &["export", "FILE"]],
        "format",
        |_, _, _| {},
    );
}
