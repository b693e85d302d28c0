//! Integration tests: one binary, one module per area.

mod format;
mod host;
mod player;
mod trees;
mod verify;
