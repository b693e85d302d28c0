#!/usr/bin/env bash
# Two builds of the static search side by side on one task of moo:4x10's
# size 7 (docs/benchmarks.md, session 45): each round starts A and B
# together, one thread each, on its own scratch checkpoint (a copy of the
# committed one, data/runs/moo-4x10-static/checkpoint.json, with every
# other task marked refuted, so only TASK is searched; `none` marks every
# task refuted, which times the start-up alone), and prints their user
# seconds (GNU time) and their ratio. Both see the same moment of the
# machine, so the ratio holds where single runs spread over ±10 % from
# one minute to the next. Both must meet the same sets; the script fails
# otherwise. Pause any other long run first: the two take both cores of a
# two-core machine.
#
# Usage: scripts/static-ab.sh A B [TASK...]   (default task: 1208)
#   A, B: optimoo binaries (e.g. two checkouts' release builds).
# Environment:
#   ROUNDS=4   rounds per task
#   OTHER_SETS=1   let A and B meet different sets (a change of the
#                  search's order): the sets column then shows both
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: scripts/static-ab.sh A B [TASK...]" >&2
    exit 2
fi
a=$1
b=$2
shift 2
tasks=("$@")
[ ${#tasks[@]} -eq 0 ] && tasks=(1208)
for bin in "$a" "$b"; do
    if [ ! -x "$bin" ]; then
        echo "not an executable: $bin" >&2
        exit 2
    fi
done
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the CPU seconds are its" >&2
    exit 2
fi
committed=data/runs/moo-4x10-static/checkpoint.json
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "| task | round | sets | user s, A | user s, B | A/B |"
echo "|---|---|---|---|---|---|"
for task in "${tasks[@]}"; do
    scripts/static-scratch.py "$committed" "$task" > "$scratch/cp.json"
    for round in $(seq "${ROUNDS:-4}"); do
        for side in a b; do
            cp "$scratch/cp.json" "$scratch/$side.json"
        done
        run() {
            /usr/bin/time -f "%U" -o "$scratch/$2.time" "$1" static --game moo:4x10 \
                --from-size 7 --max-size 7 --greedy-only --threads 1 \
                --checkpoint "$scratch/$2.json" --json > "$scratch/$2.out"
        }
        run "$a" a &
        pa=$!
        run "$b" b &
        pb=$!
        wait "$pa"
        wait "$pb"
        python3 - "$scratch" "$task" "$round" "${OTHER_SETS:-0}" <<'EOF'
import json, sys
d, task, rnd, other = sys.argv[1:]
sets = [json.load(open(f"{d}/{s}.out"))["nodes"] for s in "ab"]
if sets[0] != sets[1] and other != "1":
    sys.exit(f"task {task}: A met {sets[0]} sets, B {sets[1]} (OTHER_SETS=1 allows it)")
shown = f"{sets[0]:,}" if sets[0] == sets[1] else f"{sets[0]:,} / {sets[1]:,}"
ta, tb = (float(open(f"{d}/{s}.time").read().split()[-1]) for s in "ab")
print(f"| {task} | {rnd} | {shown} | {ta:.2f} | {tb:.2f} | {ta / tb:.3f} |")
EOF
    done
done
