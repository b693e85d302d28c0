#!/bin/sh
# Makes crates/optimoo/data/moo-4x10-cap7-second.txt: the exact total of every second guess
# of moo:4x10 within 7 guesses (one line per orbit of guesses after 0123 and
# each answer), by `moo rank --top 0 --budget inf` (single-threaded exact
# search, ignoring the table it remakes). Format: docs/player.md. Long: run it
# on a quiet machine. Usage: scripts/opening-table.sh [OUT] (default: the
# data file). Needs python3 to read the JSON lines.
set -eu
cd "$(dirname "$0")/.."
out=${1:-crates/optimoo/data/moo-4x10-cap7-second.txt}
cargo build --release -p moo
moo=target/release/moo
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cat > "$tmp" <<'HEAD'
# Exact totals of moo:4x10's second guesses within 7 guesses: after 0123
# answered ANSWER, the second guess GUESS (standing for its orbit) needs
# TOTAL guesses in all over the secrets left. Made by
# scripts/opening-table.sh; format and checks: docs/player.md.
moo:4x10 cap 7 after 0123
HEAD
for answer in 0A0B 0A1B 0A2B 0A3B 0A4B 1A0B 1A1B 1A2B 1A3B 2A0B 2A1B 2A2B 3A0B; do
    start=$(date +%s)
    "$moo" rank --top 0 --budget inf --no-table --json "0123:$answer" |
        python3 -c '
import json, sys
answer = sys.argv[1]
for line in sys.stdin:
    row = json.loads(line)
    if row["exact"]:
        print(answer, row["guess"], "-" if row["total"] is None else row["total"])
' "$answer" >> "$tmp"
    echo "0123:$answer done in $(( $(date +%s) - start )) s" >&2
done
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out" >&2
