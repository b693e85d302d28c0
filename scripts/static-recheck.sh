#!/usr/bin/env bash
# Re-check a static refutation task by task (docs/static.md, "Checking a
# refutation again"): draw refuted tasks from a checkpoint of `optimoo
# static --checkpoint` and search each again from scratch, on its own,
# with the build and flags given; every one must be refuted again.
#
# A checkpoint says which tasks of a size some run searched to their end
# without a separating set. This script does not trust it: each drawn
# task runs as its own process (`optimoo static --from-size SIZE
# --max-size SIZE --greedy-only --threads 1 --checkpoint SCRATCH --json`,
# SCRATCH a copy of the checkpoint with every *other* task marked
# refuted, made by scripts/static-scratch.py), so the run searches that
# task alone, from its first guess. A task that holds a separating set
# makes the run find it: the script prints the set and exits 1. With
# FLAGS="--no-hardest-pair" the tasks are searched by another branching
# (every guess in code order; docs/static.md, "The hardest pair"),
# slower, so a fault of the hardest-pair search or of its cuts would not
# hide the same set twice.
#
# Prints a markdown row per task (its sets, CPU seconds, the verdict) and
# the sum. The draw is seeded: the same SEED, the same tasks.
#
# Usage: scripts/static-recheck.sh
# Environment:
#   CHECKPOINT=data/runs/moo-4x10-static/checkpoint.json (never written)
#   GAME=moo:4x10   the checkpoint's game
#   SIZE=7          the size whose refuted tasks are drawn
#   SAMPLE=8        tasks drawn (all refuted tasks when larger)
#   SEED=49         the draw
#   TASKS="a b"     these tasks instead of a draw
#   FLAGS=""        more flags for each run, e.g. "--no-hardest-pair"
#   BIN=PATH        the binary (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
checkpoint=${CHECKPOINT:-data/runs/moo-4x10-static/checkpoint.json}
game=${GAME:-moo:4x10}
size=${SIZE:-7}
if [[ ! -f "$checkpoint" ]]; then
    echo "no checkpoint at $checkpoint" >&2
    exit 2
fi
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet --bin optimoo
    BIN=${CARGO_TARGET_DIR:-target}/release/optimoo
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the CPU seconds are its" >&2
    exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The tasks: those named, or a seeded draw among the refuted ones.
python3 - "$checkpoint" "$size" "${SAMPLE:-8}" "${SEED:-49}" "${TASKS:-}" > "$scratch/plan" <<'EOF'
import json, random, sys
cp = json.load(open(sys.argv[1]))
size = int(sys.argv[2])
level = next((l for l in cp["levels"] if l["size"] == size), None)
if level is None:
    sys.exit(f"the checkpoint holds no size {size}")
refuted = []
for part in filter(None, level["refuted"].split(",")):
    a, _, b = part.partition("-")
    refuted.extend(range(int(a), int(b or a) + 1))
named = [int(t) for t in sys.argv[5].split()]
for t in named:
    if t not in refuted:
        sys.exit(f"task {t} is not refuted in the checkpoint")
if named:
    tasks = named
else:
    rng = random.Random(int(sys.argv[4]))
    tasks = sorted(rng.sample(refuted, min(int(sys.argv[3]), len(refuted))))
print(f"{len(refuted)} of {level['tasks']} tasks of size {size} refuted in the checkpoint",
      file=sys.stderr)
for t in tasks:
    print(t)
EOF
echo "| task | sets | CPU s | verdict |"
echo "|---|---|---|---|"
failed=0
total_cpu=0
total_sets=0
while read -r task; do
    scripts/static-scratch.py "$checkpoint" "$task" > "$scratch/cp.json"
    # shellcheck disable=SC2086 # FLAGS is a list of flags
    /usr/bin/time -f "%U" -o "$scratch/time" "$BIN" static --game "$game" \
        --from-size "$size" --max-size "$size" --greedy-only --threads 1 \
        --checkpoint "$scratch/cp.json" --json ${FLAGS:-} > "$scratch/out.json"
    read -r verdict sets < <(python3 - "$scratch/out.json" "$size" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
size = int(sys.argv[2])
level = next((l for l in r["levels"] if l["size"] == size), None)
if level is None:
    print("not-searched", 0)
elif level["found"]:
    print("FOUND:" + "_".join(r["guesses"]), level["nodes"])
elif level["complete"] and level["tasks"] - level["resumed"] == 1:
    print("refuted", level["nodes"])
else:
    print("incomplete", level["nodes"])
EOF
    )
    cpu=$(cat "$scratch/time")
    echo "| $task | $sets | $cpu | ${verdict//_/ } |"
    total_cpu=$(python3 -c 'import sys; print(f"{float(sys.argv[1]) + float(sys.argv[2]):.2f}")' "$total_cpu" "$cpu")
    total_sets=$((total_sets + sets))
    [[ "$verdict" == refuted ]] || failed=1
done < "$scratch/plan"
echo
echo "sum: $total_sets sets, $total_cpu CPU s"
if [[ $failed -ne 0 ]]; then
    echo "some task was not refuted again (above)" >&2
    exit 1
fi
echo "every task drawn is refuted again"
