# The runs of docs/results.md, sourced by scripts/results.sh and
# scripts/recheck.sh: `variants` holds "GAME" or "GAME --cap C" (capped
# variants run the average objective only: worst and crush find their cap
# themselves).
# shellcheck shell=bash
variants=()
for n in 3 4 5 6 7 8 9 10; do variants+=("moo:2x$n"); done
for n in 4 5 6 7 8 9 10; do variants+=("moo:3x$n"); done
for n in 5 6 7 8 9 10; do variants+=("moo:4x$n"); done
for n in 2 3 4 5 6 7 8; do variants+=("mm:2x$n"); done
for n in 2 3 4 5 6 7; do variants+=("mm:3x$n"); done
for n in 4 5 6 7 8; do variants+=("mm:4x$n"); done
variants+=("mm:5x4" "mm:5x5" "mm:4x6 --cap 5" "moo:4x10 --cap 7")
