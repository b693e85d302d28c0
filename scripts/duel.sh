#!/usr/bin/env bash
# The best responses and equilibria of docs/duel.md: every rule and seat against the
# average-optimal trees of moo:4x10 and mm:4x6, one JSON line each.
# Usage: scripts/duel.sh [OPTIMOO] > duel.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/optimoo}
[ -x "$bin" ] || cargo build --release --locked --bin optimoo >&2
for tree in data/moo-4x10-cap7.tree data/mm-4x6.tree; do
    for rule in first-wins equal-turns; do
        for seat in first second; do
            "$bin" duel --rule "$rule" --seat "$seat" --against "$tree" --json
        done
    done
done
# The equilibria (docs/duel.md, "Equilibria"): each written to a fresh
# folder under ${DUEL_OUT:-target/duel} and proven again by --check.
out=${DUEL_OUT:-target/duel}
for game in mm:4x6 moo:4x10; do
    for rule in first-wins equal-turns; do
        dir="$out/${game/:/-}-$rule"
        rm -rf "$dir"
        "$bin" duel --game "$game" --rule "$rule" -o "$dir" --json
        "$bin" duel --check "$dir" >&2
    done
done
