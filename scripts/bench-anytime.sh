#!/usr/bin/env bash
# How fast a stopped unit's proven bound rises: `optimoo work DIR --unit U
# --threads 1 --time-limit T` on a copy of a committed run folder (by
# default data/runs/moo-5x10), resumed from the unit's committed progress,
# for this checkout's release build and, side by side, an older optimoo
# binary (one on each core, from the same progress, at the same time).
#
# Usage: scripts/bench-anytime.sh                 # this build only
#        scripts/bench-anytime.sh BASE            # BASE: an older binary
#        UNIT=8 SECONDS_LIMIT=900 scripts/bench-anytime.sh BASE
#        RUN=data/runs/moo-5x8 UNIT=3 scripts/bench-anytime.sh
#
# UNIT defaults to 7 (moo:5x10's 1A1B, 3,600 secrets), SECONDS_LIMIT to 600.
# The committed folder is never written: each binary works on its own copy.
# Prints, per binary, the unit's bound before and after, the rise, user
# seconds (GNU time, Debian package `time`), wall seconds and peak memory.
# Only the figures of one run side by side compare: both binaries then see
# the same machine. Expect SECONDS_LIMIT plus the time to load moo:5x10's
# 872 MiB answer table (about 2 GiB of memory per binary). Figures in
# docs/benchmarks.md ("Session 20").
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin optimoo
new=$PWD/target/release/optimoo
base=${1:-}
run=${RUN:-data/runs/moo-5x10}
unit=${UNIT:-7}
limit=${SECONDS_LIMIT:-600}
if [[ -n $base && ! -x $base ]]; then
    echo "no executable at '$base'" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the user seconds are its" >&2
    exit 2
fi
if [[ ! $unit =~ ^[0-9]+$ ]]; then
    echo "UNIT must be a unit's number (0-based), not '$unit'" >&2
    exit 2
fi
if [[ ! -f $run/plan.json ]]; then
    echo "no run folder at '$run' (no plan.json)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The unit's proven value in folder $1 (its unit file; none: the plan's).
value() {
    python3 - "$1" "$unit" <<'PY'
import json, os, sys
units = json.load(open(os.path.join(sys.argv[1], "plan.json")))["units"]
i = int(sys.argv[2])
if i >= len(units):
    sys.exit(f"no unit {i}: the plan has {len(units)} (0 to {len(units) - 1})")
path = os.path.join(sys.argv[1], "units", f"{i}.json")
if os.path.exists(path):
    v = json.load(open(path))
    print(v["value"], "exact" if v["exact"] else "bound")
else:
    print(units[i]["lower"], "bound")
PY
}

# work on a copy of the folder with binary $1, tagged $2
one() {
    local bin=$1 tag=$2
    cp -r "$run" "$work/$tag"
    /usr/bin/time -f "%U %e %M" -o "$work/$tag.time" \
        "$bin" work "$work/$tag" --unit "$unit" --threads 1 --time-limit "$limit" \
        >"$work/$tag.out" 2>"$work/$tag.err"
}

failed() {
    echo "$1 failed:" >&2
    cat "$work"/*.err >&2 2>/dev/null || true
    exit 1
}

before=$(value "$run") || exit 2
echo "unit $unit of $run: $before at the start; $limit s each, one thread"
tags=(new)
if [[ -n $base ]]; then
    tags=(base new)
    one "$base" base &
    pid=$!
    one "$new" new || failed "this build"
    wait "$pid" || failed "base"
else
    one "$new" new || failed "this build"
fi
for tag in "${tags[@]}"; do
    read -r user wall kib < <(tail -n 1 "$work/$tag.time")
    after=$(value "$work/$tag")
    printf '%-4s  %s -> %s  rise %d  user %.1f s  wall %.1f s  peak %.2f GiB\n' \
        "$tag" "${before% *}" "$after" "$((${after% *} - ${before% *}))" \
        "$user" "$wall" "$(python3 -c "print($kib / 1048576)")"
done
