#!/usr/bin/env bash
# The static search with and without one of its cuts, side by side on the
# same binary: for each game, `optimoo static --json` once as it is and
# once with FLAG (default `--no-least-pair`, the least-pair cut of
# docs/static.md, "Symmetry"; `--no-hardest-pair` for the branching of
# "The hardest pair"), and a markdown row per size searched (sets tried
# and seconds, each way, and the ratios; "cut" is the default search,
# "plain" the one with FLAG). Both must find the same sizes; the script
# fails otherwise. The two runs of a game run one after the other.
#
# Usage: scripts/bench-static.sh [GAME...]   (default: moo:4x7 mm:4x6)
# Environment:
#   FLAG=--no-least-pair   the option that turns the cut off
#   ARGS="..."    more options for both runs, e.g. "--from-size 6
#                 --max-size 6 --local-iterations 0" (moo:4x8's size 6
#                 alone, the refutation the hardest pair is measured on)
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
# shellcheck disable=SC2206 # ARGS is split into words on purpose.
[ -n "${ARGS:-}" ] && extra+=(${ARGS})
flag=${FLAG:---no-least-pair}
echo "| game | size | found | sets, cut | sets, plain | ratio | s, cut | s, plain | ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for g in "${games[@]}"; do
    cut=$("$BIN" static --game "$g" --json "${extra[@]}")
    plain=$("$BIN" static --game "$g" --json "$flag" "${extra[@]}")
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
