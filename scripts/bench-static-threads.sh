#!/usr/bin/env bash
# The static search on several threads, two builds side by side: how well
# each keeps its threads busy (docs/benchmarks.md, "Session 49").
#
# Runs `optimoo static --game GAME --greedy-only --threads THREADS --json`
# with binary A, then B, ROUNDS times in turn, and prints each run's wall
# and CPU seconds (GNU time) and the medians; the sets and sizes the two
# print must be the same (the set does not depend on the threads or on
# how the tasks are handed out), else the script exits 1.
#
# Usage: scripts/bench-static-threads.sh A B
#   A, B        two `optimoo` binaries (paths)
# Environment:
#   GAME=moo:4x7   the game (its proof: size 5 refuted, a set of 6 found)
#   THREADS=2      threads of each run
#   ROUNDS=3       runs of each binary
set -euo pipefail
if [[ $# -ne 2 ]]; then
    sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
for bin in "$1" "$2"; do
    if [[ ! -x "$bin" ]]; then
        echo "not an executable: $bin" >&2
        exit 2
    fi
done
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed" >&2
    exit 2
fi
game=${GAME:-moo:4x7}
threads=${THREADS:-2}
rounds=${ROUNDS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "| run | binary | wall s | CPU s | size | set |"
echo "|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
    for side in A B; do
        if [[ $side == A ]]; then bin=$1; else bin=$2; fi
        /usr/bin/time -f "%e %U" -o "$scratch/time" "$bin" static --game "$game" \
            --greedy-only --threads "$threads" --json > "$scratch/out.json"
        read -r wall cpu < "$scratch/time"
        read -r size set < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["size"], "_".join(r["guesses"]))' "$scratch/out.json")
        echo "| $round | $side | $wall | $cpu | $size | ${set//_/ } |"
        echo "$side $wall $cpu $size $set" >> "$scratch/rows"
    done
done
python3 - "$scratch/rows" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print()
for side in "AB":
    mine = [r for r in rows if r[0] == side]
    wall = statistics.median(float(r[1]) for r in mine)
    cpu = statistics.median(float(r[2]) for r in mine)
    print(f"{side}: median wall {wall:.2f} s, median CPU {cpu:.2f} s")
wa = statistics.median(float(r[1]) for r in rows if r[0] == "A")
wb = statistics.median(float(r[1]) for r in rows if r[0] == "B")
print(f"B's wall time over A's: {wb / wa:.3f}")
if len({(r[3], r[4]) for r in rows}) != 1:
    print("the runs disagree on the size or the set", file=sys.stderr)
    sys.exit(1)
EOF
