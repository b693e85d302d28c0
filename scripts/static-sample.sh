#!/usr/bin/env bash
# How long moo:4x10's size 7 would take to refute (docs/results.md, "The
# static game"): a stratified random sample of its 2,681 tasks, each
# searched to its end on its own, and the estimate of the whole.
#
# The tasks not yet refuted by the committed checkpoint
# (data/runs/moo-4x10-static/checkpoint.json, never written here) are cut
# into STRATA runs of consecutive tasks, and one task is drawn from each
# (SEED). Each drawn task runs as its own process, one thread: `optimoo
# static --from-size 7 --max-size 7 --greedy-only --threads 1
# --checkpoint SCRATCH`, where SCRATCH is a copy of the committed
# checkpoint with every other task marked refuted, so only that task is
# searched. Prints a markdown row per task (its sets, CPU seconds from
# GNU time less those of a run with no task left, wall seconds) and the
# estimate of the CPU the tasks left
# would take: the sum over the strata of the stratum's size times its
# task's CPU seconds, with the standard error of that sum (the strata's
# spread), so the estimate is as good as the sample's spread says.
#
# Usage: scripts/static-sample.sh
# Environment:
#   STRATA=12   tasks drawn (one per stratum)
#   SEED=35     the draw (the same seed, the same tasks)
#   BIN=PATH    the binary (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --bin optimoo
    BIN=${CARGO_TARGET_DIR:-target}/release/optimoo
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the CPU seconds are its" >&2
    exit 2
fi
committed=data/runs/moo-4x10-static/checkpoint.json
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The drawn tasks and each stratum's size, from the committed checkpoint.
python3 - "$committed" "${STRATA:-12}" "${SEED:-35}" > "$scratch/plan" <<'EOF'
import json, random, sys
cp = json.load(open(sys.argv[1]))
level = next(l for l in cp["levels"] if l["size"] == 7)
n = level["tasks"]
done = set()
for part in filter(None, level["refuted"].split(",")):
    a, _, b = part.partition("-")
    done.update(range(int(a), int(b or a) + 1))
# Tasks begun are left out too: part of them is done.
for part in filter(None, level["begun"].split(",")):
    done.add(int(part.split(":")[0]))
left = [t for t in range(n) if t not in done]
strata = int(sys.argv[2])
rng = random.Random(int(sys.argv[3]))
for i in range(strata):
    group = left[i * len(left) // strata:(i + 1) * len(left) // strata]
    print(rng.choice(group), len(group))
EOF
# The same run with every task refuted: what each run spends before its
# task (the tables and the greedy set), taken off each task's time.
scripts/static-scratch.py "$committed" none > "$scratch/none.json"
/usr/bin/time -f "%U" -o "$scratch/base" "$BIN" static --game moo:4x10 --from-size 7 \
    --max-size 7 --greedy-only --threads 1 --checkpoint "$scratch/none.json" --json > /dev/null
base=$(cat "$scratch/base")
echo "Each run's start (tables, greedy set; taken off below): $base CPU s"
echo
echo "| task | stratum | sets | CPU s | wall s |"
echo "|---|---|---|---|---|"
while read -r task size; do
    scripts/static-scratch.py "$committed" "$task" > "$scratch/cp.json"
    /usr/bin/time -f "%U %e" -o "$scratch/time" "$BIN" static --game moo:4x10 \
        --from-size 7 --max-size 7 --greedy-only --threads 1 \
        --checkpoint "$scratch/cp.json" --json > "$scratch/out.json"
    read -r cpu wall < "$scratch/time"
    cpu=$(python3 -c 'import sys; print(f"{max(0.0, float(sys.argv[1]) - float(sys.argv[2])):.2f}")' "$cpu" "$base")
    sets=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"])' "$scratch/out.json")
    echo "| $task | $size | $sets | $cpu | $wall |"
    echo "$size $cpu" >> "$scratch/rows"
done < "$scratch/plan"
python3 - "$scratch/rows" <<'EOF'
import math, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
total = sum(n * t for n, t in rows)
mean = sum(t for _, t in rows) / len(rows)
var = sum((t - mean) ** 2 for _, t in rows) / max(1, len(rows) - 1)
tasks = sum(n for n, _ in rows)
# One task a stratum: the strata's spread stands for each one's.
se = math.sqrt(sum(n * n * var for n, _ in rows))
print()
print(f"estimate: {tasks:.0f} tasks left, {total:,.0f} CPU s "
      f"({total / 3600:,.1f} CPU-hours), standard error {se / 3600:,.1f} CPU-hours")
EOF
