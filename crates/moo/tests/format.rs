//! Tree files no reader may read in full (crates/optimoo/tests/bad_files.rs:
//! a link to /dev/zero, huge sparse files, endless FIFOs), given to `moo
//! --tree`: refused with exit code 2 and the reason, by the player and the
//! host. Their time and memory limits: crates/moo/tests/limits.rs.

use crate::bad_files::{self, BadFile};
use crate::MOO;

/// `moo --tree FILE next` and `moo --tree FILE host` refuse `file`.
fn refused_everywhere(files: Vec<(BadFile, &str)>) {
    for (file, words) in files {
        let path = file.path_str();
        for args in [["--tree", path, "next"], ["--tree", path, "host"]] {
            bad_files::refused(MOO, &args, &file, words);
        }
    }
}

/// Measured bug: `optimoo verify` on a link to /dev/zero read the whole
/// "file" and grew to 9.9 GB; `moo` reads tree files the same bounded way.
#[cfg(target_os = "linux")]
#[test]
fn a_link_to_dev_zero_is_refused_at_once() {
    refused_everywhere(bad_files::dev_zero("format"));
}

/// A good header followed by a huge sparse tail, and a length field above
/// any file of the game.
#[cfg(target_os = "linux")]
#[test]
fn huge_sparse_files_are_refused_without_being_read() {
    refused_everywhere(bad_files::sparse("format"));
}

/// A named pipe fed without end: a good file and then garbage, or zeros.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_fifo_is_refused() {
    refused_everywhere(bad_files::fifos("format"));
}
