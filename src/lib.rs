//! The `optimoo` command line over the library crate `optimoo`: [`driver`]
//! runs the search and the heuristics on a thread pool with progress on the
//! terminal, [`cli`] holds the argument types and one module per subcommand;
//! [`exit`] (exit codes, error lines) comes from `cli-common`, shared with
//! the `moo` player.

pub mod cli;
pub mod driver;
pub use cli_common::exit;
