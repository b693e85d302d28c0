//! Integration tests: one binary, one module per area.

mod format;
mod player;
mod trees;
mod verify;
