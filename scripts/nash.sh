#!/usr/bin/env bash
# The codemaker's game of docs/results.md: `optimoo nash` on each game,
# one JSON line each (with the wall time), the equilibrium written to
# OUT/GAME and checked again by `nash --check`.
# Usage: scripts/nash.sh OUT [GAME ...]   (default: the games of docs/results.md)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/nash.sh OUT [GAME ...]}
shift
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(mm:2x2 mm:2x3 mm:3x2 mm:2x4 mm:3x3 mm:2x5 mm:3x4 mm:4x3 mm:3x5 mm:4x4 mm:3x6 mm:4x5 mm:4x6 moo:3x10 mm:4x7 mm:5x5 moo:4x10 mm:4x8)
bin=${OPTIMOO:-target/release/optimoo}
[ -x "$bin" ] || cargo build --release --locked --bin optimoo >&2
mkdir -p "$out"
for g in "${games[@]}"; do
    dir="$out/${g/:/-}"
    rm -rf "$dir"
    start=$(date +%s.%N)
    line=$("$bin" nash --game "$g" -o "$dir" --json)
    seconds=$(printf "%.3f" "$(echo "$(date +%s.%N) - $start" | bc)")
    check=$("$bin" nash --check "$dir" | sed 's/"/\\"/g')
    echo "${line%\}},\"seconds\":$seconds,\"check\":\"$check\"}"
done
