#!/usr/bin/env bash
# Regenerates docs/moo.html, the standard game's page (play, let the tree
# guess, browse the tree; one offline file), from the optimal tree.
#
# Usage: scripts/page.sh [FILE] [OUT.html]
#   defaults: data/moo-4x10-cap7.tree docs/moo.html
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-data/moo-4x10-cap7.tree}
out=${2:-docs/moo.html}
cargo build --release --locked --quiet --bin optimoo
target/release/optimoo export "$file" --format html -o "$out"
chmod 644 "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
