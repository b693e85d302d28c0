#!/usr/bin/env bash
# The static search with and without the least-pair cut (docs/static.md,
# "Symmetry"), side by side on the same binary: for each game, `optimoo
# static --json` once with the cut and once with `--no-least-pair`, and a
# markdown row per size searched (sets tried and seconds, each way, and
# the ratios). Both must find the same sizes; the script fails otherwise.
#
# Usage: scripts/bench-static.sh [GAME...]   (default: moo:4x7 mm:4x6)
# Environment:
#   THREADS=1     worker threads of each run (--threads)
#   BUDGET=S      --time-budget of each run (default: none)
#   BIN=PATH      the binary (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
games=("$@")
[ ${#games[@]} -eq 0 ] && games=(moo:4x7 mm:4x6)
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --bin optimoo
    BIN=${CARGO_TARGET_DIR:-target}/release/optimoo
fi
extra=(--threads "${THREADS:-1}")
[ -n "${BUDGET:-}" ] && extra+=(--time-budget "$BUDGET")
echo "| game | size | found | sets, cut | sets, plain | ratio | s, cut | s, plain | ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for g in "${games[@]}"; do
    cut=$("$BIN" static --game "$g" --json "${extra[@]}")
    plain=$("$BIN" static --game "$g" --json --no-least-pair "${extra[@]}")
    python3 -c '
import json, sys
cut, plain = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if (cut["lower"], cut["upper"]) != (plain["lower"], plain["upper"]):
    sys.exit(f"{cut['\''game'\'']}: the cut proves {cut['\''lower'\'']}..{cut['\''upper'\'']}, the plain search {plain['\''lower'\'']}..{plain['\''upper'\'']}")
for a, b in zip(cut["levels"], plain["levels"]):
    if a["found"] != b["found"] and a["complete"] and b["complete"]:
        sys.exit(f"{cut['\''game'\'']}: size {a['\''size'\'']} found {a['\''found'\'']} with the cut, {b['\''found'\'']} without")
    def ratio(x, y):
        return f"{y / x:.2f}x" if x > 0 else "-"
    print(f"| {cut['\''game'\'']} | {a['\''size'\'']} | {a['\''found'\'']} | {a['\''nodes'\'']} | {b['\''nodes'\'']} | {ratio(a['\''nodes'\''], b['\''nodes'\''])} | {a['\''seconds'\'']:.2f} | {b['\''seconds'\'']:.2f} | {ratio(a['\''seconds'\''], b['\''seconds'\''])} |")
' "$cut" "$plain"
done
