#!/usr/bin/env bash
# moo:4x10 cap 7 cut into units: `optimoo plan`, the units run by
# `xargs -P 2` (one `optimoo work DIR --unit I` process each), `optimoo
# merge`; then `optimoo solve` on the same game. Prints the total (26274
# both ways), wall and CPU (user + system) seconds of each path, and checks
# that the two tree files are byte for byte the same.
#
# Usage: scripts/bench-distributed.sh             # moo:4x10 cap 7, 2 processes
#        JOBS=4 scripts/bench-distributed.sh      # more processes at once
#        GAME=mm:4x7 CAP= scripts/bench-distributed.sh
# Run it on an idle machine; the figures go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin optimoo
optimoo=$PWD/target/release/optimoo
game=${GAME:-moo:4x10}
cap=${CAP-7}
jobs=${JOBS:-2}
capargs=()
[[ -n $cap ]] && capargs=(--cap "$cap")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), game $game cap ${cap:-none}, $jobs processes"

t0=$(date +%s.%N)
/usr/bin/env time -f "%U %S" -o "$work/plan.time" "$optimoo" plan --game "$game" "${capargs[@]}" -o "$work/run" >/dev/null
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["units"]))' "$work/run/plan.json")
seq 0 $((n - 1)) | xargs -P "$jobs" -I{} /usr/bin/env time -f "%U %S" -a -o "$work/work.time" \
    "$optimoo" work "$work/run" --unit {} --threads 1 >/dev/null
/usr/bin/env time -f "%U %S" -o "$work/merge.time" "$optimoo" merge "$work/run" -o "$work/merged.tree" --json >"$work/merged.json"
t1=$(date +%s.%N)
/usr/bin/env time -f "%U %S" -o "$work/solve.time" "$optimoo" solve --game "$game" "${capargs[@]}" -o "$work/solved.tree" --json >"$work/solved.json"
t2=$(date +%s.%N)

python3 - "$work" "$t0" "$t1" "$t2" "$n" <<'PY'
import json, sys
work, t0, t1, t2, n = sys.argv[1], *map(float, sys.argv[2:5]), int(sys.argv[5])
def cpu(name):
    total = 0.0
    for line in open(f"{work}/{name}.time"):
        parts = line.split()
        if len(parts) == 2:
            total += float(parts[0]) + float(parts[1])
    return total
merged = json.load(open(f"{work}/merged.json"))
solved = json.load(open(f"{work}/solved.json"))
dist_cpu = cpu("plan") + cpu("work") + cpu("merge")
print(f"plan+work+merge  total {merged['total']}  units {n}  wall {t1 - t0:7.2f} s  cpu {dist_cpu:7.2f} s "
      f"(plan {cpu('plan'):.2f}, work {cpu('work'):.2f}, merge {cpu('merge'):.2f})")
print(f"solve            total {solved['total']}  wall {t2 - t1:7.2f} s  cpu {cpu('solve'):7.2f} s")
PY
if cmp -s "$work/merged.tree" "$work/solved.tree"; then
    echo "trees: byte for byte the same"
else
    echo "trees differ!" >&2
    exit 1
fi
