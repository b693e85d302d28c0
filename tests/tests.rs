//! Integration tests: one binary, one module per area.

mod eval_cli;
mod exhaustive;
mod export_file;
mod format;
mod heuristics;
mod host;
mod player;
mod trees;
mod verify;
