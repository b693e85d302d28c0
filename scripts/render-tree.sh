#!/usr/bin/env bash
# Draws the first levels of a tree file as SVG with Graphviz (`dot`, from
# Debian's graphviz package; not needed by the build or CI).
#
# Usage: scripts/render-tree.sh [FILE] [OUT.svg] [LEVELS]
#   defaults: data/moo-4x10-cap7.tree docs/moo-tree.svg 2
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-data/moo-4x10-cap7.tree}
out=${2:-docs/moo-tree.svg}
levels=${3:-2}
command -v dot >/dev/null || { echo "dot not found: apt-get install graphviz" >&2; exit 2; }
cargo build --release --locked --quiet --bin optimoo
target/release/optimoo export "$file" --format dot --depth "$levels" | dot -Tsvg -o "$out"
echo "wrote $out"
