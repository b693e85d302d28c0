//! Helpers shared by the integration tests of the workspace (the top
//! tests/ of the `optimoo` command, crates/optimoo/tests/ of the library,
//! crates/moo/tests/ of the player): trees made for the tests and a way to
//! run a binary ([`trees`]), tree files no reader may read in full
//! ([`bad_files`]), the README's examples with their figures
//! ([`readme_examples`]), and the binaries' `-h` and `--help` read back,
//! their examples run ([`help`]).
//!
//! Invariants: test code only, a dev-dependency of those three crates and
//! of nothing else (it is never linked into `optimoo` or `moo`); it depends
//! on the `optimoo` library alone; it holds no `#[test]` (the tests are in
//! the crates that use it, each of which uses part of it). Unlike the
//! library it may panic (a failed step fails the test), start threads and
//! child processes.

pub mod bad_files;
pub mod help;
pub mod readme_examples;
pub mod trees;
