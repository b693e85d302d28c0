#!/usr/bin/env bash
# The runner that hands tasks to threads, two builds side by side: how well
# each keeps its threads busy (docs/benchmarks.md, sessions 49 and 50).
#
# Runs `optimoo static --game GAME --greedy-only --threads THREADS --json`
# and, for each game of SOLVE, `optimoo solve --game G --threads THREADS
# --json`, with binary A, then B, ROUNDS times in turn, and prints each
# run's wall and CPU seconds (GNU time) and the medians per game; the
# answers the two print (the static set and size, the solved total and
# histogram) must be the same, else the script exits 1: the answer does
# not depend on the threads or on how the tasks are handed out.
#
# Usage: scripts/bench-static-threads.sh A B
#   A, B        two `optimoo` binaries (paths)
# Environment:
#   GAME=moo:4x7   the static game (its proof: size 5 refuted, a set of 6
#                  found); GAME= (empty) leaves the static search out
#   SOLVE=         games for the exact search, e.g. "mm:5x5 moo:4x10"
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
game=${GAME-moo:4x7}
solve=${SOLVE:-}
threads=${THREADS:-2}
rounds=${ROUNDS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# one SIDE BIN KIND GAME: one timed run, a row of the table and of the file.
one() {
    local side=$1 bin=$2 kind=$3 g=$4 wall cpu answer
    if [[ $kind == static ]]; then
        /usr/bin/time -f "%e %U" -o "$scratch/time" "$bin" static --game "$g" \
            --greedy-only --threads "$threads" --json > "$scratch/out.json"
    else
        /usr/bin/time -f "%e %U" -o "$scratch/time" "$bin" solve --game "$g" \
            --threads "$threads" --json > "$scratch/out.json" 2> /dev/null
    fi
    read -r wall cpu < "$scratch/time"
    answer=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
if "guesses" in r:
    print("size", r["size"], " ".join(r["guesses"]))
else:
    print("total", r["total"], "histogram", r["histogram"])' "$scratch/out.json")
    echo "| $kind $g | $round | $side | $wall | $cpu | $answer |"
    echo "$kind $g|$side|$wall|$cpu|$answer" >> "$scratch/rows"
}

echo "| job | run | binary | wall s | CPU s | answer |"
echo "|---|---|---|---|---|---|"
for round in $(seq "$rounds"); do
    jobs=()
    if [[ -n $game ]]; then
        jobs+=("static $game")
    fi
    for g in $solve; do
        jobs+=("solve $g")
    done
    for job in "${jobs[@]}"; do
        read -r kind g <<< "$job"
        one A "$1" "$kind" "$g"
        one B "$2" "$kind" "$g"
    done
done
python3 - "$scratch/rows" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
bad = False
print()
print("| job | A median wall s | B median wall s | B / A | A median CPU s | B median CPU s |")
print("|---|---|---|---|---|---|")
for job in dict.fromkeys(r[0] for r in rows):
    mine = [r for r in rows if r[0] == job]
    med = {s: (statistics.median(float(r[2]) for r in mine if r[1] == s),
               statistics.median(float(r[3]) for r in mine if r[1] == s)) for s in "AB"}
    ratio = med["B"][0] / med["A"][0] if med["A"][0] > 0 else float("nan")
    print(f"| {job} | {med['A'][0]:.2f} | {med['B'][0]:.2f} | {ratio:.3f} "
          f"| {med['A'][1]:.2f} | {med['B'][1]:.2f} |")
    if len({r[4] for r in mine}) != 1:
        print(f"{job}: the runs disagree on the answer", file=sys.stderr)
        bad = True
sys.exit(1 if bad else 0)
PY
