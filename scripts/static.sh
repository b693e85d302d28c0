#!/usr/bin/env bash
# The static game's table of docs/results.md ("The static game"): runs
# `optimoo static --json` on each game, appends the JSON lines to
# docs/static.jsonl, and prints the table's rows (markdown) on stdout.
#
# Usage: scripts/static.sh [GAME...]   (default: the games of the table)
# Environment:
#   BUDGET=600    seconds per game (--time-budget): a run it stops is
#                 recorded with its proven bounds (exact false)
#   THREADS=N     worker threads (--threads; default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${BUDGET:-600}
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
    games=()
    for n in 2 3 4 5 6 7 8 9 10; do games+=("mm:2x$n"); done
    for n in 3 4 5 6 7 8 9 10; do games+=("moo:2x$n"); done
    for n in 2 3 4 5 6 7 8; do games+=("mm:3x$n"); done
    for n in 3 4 5 6 7 8 9 10; do games+=("moo:3x$n"); done
    games+=(mm:4x2 mm:4x3 mm:4x4 mm:4x5 mm:4x6 moo:4x4 moo:4x5 moo:4x6 moo:4x7 moo:4x8 moo:4x10)
fi
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/optimoo
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
for g in "${games[@]}"; do
    line=$("$bin" static --game "$g" --json --time-budget "$budget" "${threads[@]}")
    echo "$line" >> docs/static.jsonl
    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
size = str(d["size"]) if d["exact"] else f"{d['\''lower'\'']}..{d['\''upper'\'']}"
wf = str(d["with_final"]) if d["exact"] else f"{d['\''with_final_lower'\'']}..{d['\''with_final'\'']}"
status = "exact" if d["exact"] else "stopped: bounds proven"
print(f"| {d['\''game'\'']} | {d['\''secrets'\'']} | {size} | {wf} | {d['\''nodes'\'']} | {d['\''seconds'\'']:.2f} | {status} | {'\'' '\''.join(d['\''guesses'\''])} |")
' "$line"
done
