//! Tree files no reader may read in full (test_support::bad_files:
//! a link to /dev/zero, huge sparse files, endless FIFOs), given to `moo
//! --tree`: refused with exit code 2 and the reason, by the player and the
//! host. Their time and memory limits: crates/moo/tests/limits.rs.

use crate::bad_files;
use crate::MOO;

/// `moo --tree FILE next` and `moo --tree FILE host` refuse every bad file: a link to /dev/zero (measured bug: `optimoo
/// verify` read the whole "file" and grew to 9.9 GB; the fixed header is
/// read first now), a good header followed by a huge sparse tail (read up
/// to the declared length and one byte more) or declaring a length above
/// any file of the game (refused before reading on), and a named pipe fed
/// without end (a good file and then garbage, or zeros).
#[cfg(target_os = "linux")]
#[test]
fn every_bad_file_is_refused() {
    bad_files::refused_by(
        MOO,
        &[&["--tree", "FILE", "next"], &["--tree", "FILE", "host"]],
        "format",
        |_, _, _| {},
    );
}
