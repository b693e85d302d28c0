#!/usr/bin/env bash
# Regenerates docs/index.html: one offline page of the shipped optimal trees
# (Bulls and Cows moo:4x10, Mastermind mm:4x6, Hit and Blow moo:3x10) with a
# picker between them, ready for any static host (mode 0644: world-readable).
# tests/export_file.rs regenerates it the same way and compares.
#
# Usage: scripts/make-index.sh [OUT.html]   (default docs/index.html)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/index.html}
cargo build --release --locked --quiet --bin optimoo
target/release/optimoo export data/moo-4x10-cap7.tree data/mm-4x6.tree data/moo-3x10.tree \
    --format html -o "$out"
chmod 644 "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
