//! Tree files no reader may read in full (crates/optimoo/tests/bad_files.rs:
//! a link to /dev/zero, huge sparse files, endless FIFOs), given to every
//! `optimoo` command that reads a tree file: each refuses them with exit
//! code 2 and the reason. Their time and memory limits: tests/limits.rs;
//! `moo --tree`: crates/moo/tests/format.rs; the library's reader:
//! crates/optimoo/tests/format.rs.

use crate::bad_files::{self, BadFile};
use crate::OPTIMOO;

/// `optimoo verify FILE` and `optimoo export FILE` refuse `file`.
fn refused_everywhere(files: Vec<(BadFile, &str)>) {
    for (file, words) in files {
        let path = file.path_str();
        for args in [["verify", path], ["export", path]] {
            bad_files::refused(OPTIMOO, &args, &file, words);
        }
    }
}

/// Measured bug: `optimoo verify` on a link to /dev/zero read the whole
/// "file" and grew to 9.9 GB. Now the fixed header is read first.
#[cfg(target_os = "linux")]
#[test]
fn a_link_to_dev_zero_is_refused_at_once() {
    refused_everywhere(bad_files::dev_zero("format"));
}

/// A good header followed by a huge sparse tail: read up to the declared
/// length and one byte more. A length field above any file of the game:
/// refused before reading on.
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
