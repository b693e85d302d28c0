//! The `optimoo` command line over the library crate `optimoo`: [`driver`]
//! runs the search and the heuristics on a thread pool with progress on the
//! terminal, [`cli`] holds the argument types and one module per subcommand.

pub mod cli;
pub mod driver;
pub mod exit;
