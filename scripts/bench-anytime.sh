#!/usr/bin/env bash
# How fast a stopped unit's proven bound rises: `optimoo work DIR --unit U
# --threads 1 --time-limit T` on a copy of a committed run folder (by
# default data/runs/moo-5x10), resumed from the unit's committed progress,
# for this checkout's release build and, side by side, an older optimoo
# binary (one on each core, from the same progress, at the same time).
#
# Usage: scripts/bench-anytime.sh                 # this build only
#        scripts/bench-anytime.sh BASE            # BASE: an older binary
#        scripts/bench-anytime.sh BASE NEW        # two engines, this build neither
#        UNIT="3 2" SECONDS_LIMIT=300 MEMO_MIB=2048 scripts/bench-anytime.sh main
#        RUN=data/runs/moo-5x8 UNIT=3 scripts/bench-anytime.sh BASE
#        UNIT=2 ARGS="--upper-tree data/moo-5x10-grafted.tree" \
#          BASE_ARGS="--chase-step 128" NEW_ARGS="--chase-step 32" \
#          KEEP=/tmp/legs scripts/bench-anytime.sh target/release/optimoo target/release/optimoo
#        FROM=6f28dd0 UNIT="3 2" SECONDS_LIMIT=1200 MEMO_MIB=2048 \
#          ARGS="--upper-tree data/moo-5x10-grafted.tree" scripts/bench-anytime.sh 6f28dd0
#
# BASE and NEW are binaries or git revisions of this repository (a
# revision is built once with `cargo build --release` in its own worktree
# and target dir under BUILDS, default /tmp/bench-anytime-builds).
# UNIT defaults to 7 (moo:5x10's 1A1B, 3,600 secrets), and may list
# several units, run one after the other; SECONDS_LIMIT defaults to 600;
# MEMO_MIB, if set, is each run's --memo-mib (the real runs use 2048).
# ARGS are more arguments of `work` for both runs (e.g. the real runs'
# --upper-tree, whose cut-off the committed progress was proven under),
# BASE_ARGS and NEW_ARGS for one of them (two settings of one binary).
# KEEP, if set, is a folder where each run's copy of the run folder is
# kept (KEEP/base, KEEP/new, with its trace in KEEP/TAG.err): a run's
# progress is as sound as the committed one's, and may be taken up.
# FROM, if set, is a git revision: the run folder (RUN) and each word of
# ARGS that names a path under data/ are taken as committed at FROM (git
# archive), so both engines start from that revision's progress, e.g. the
# progress of the day an engine was written (session 59 ran from 6f28dd0,
# where issue 43 was filed).
# The committed folder is never written: each binary works on its own copy.
# Prints, per unit and binary, the unit's bound before and after, the
# rise, user seconds (GNU time, Debian package `time`), wall seconds, peak
# memory, the rise per core-hour (user seconds) and the lift: how much
# the proven bounds of every second guess's classes rose in all (from the
# progress files; the unit's bound is the least second guess's, and rises
# only once every guess near the least is lifted, so a short run may lift
# much and move the bound little). Only the figures of one run side by
# side compare: both binaries then see the same machine. Expect
# SECONDS_LIMIT plus the time to load moo:5x10's 872 MiB answer table
# (about 2 GiB of memory per binary, more with a larger memo). Figures in
# docs/benchmarks.md ("Session 20", "Session 25", "Session 59").
set -euo pipefail
cd "$(dirname "$0")/.."
builds=${BUILDS:-/tmp/bench-anytime-builds}

# shellcheck source=scripts/engine.sh
. scripts/engine.sh

base=${1:-}
if [[ -n ${2:-} ]]; then
    new=$(engine "$2") || exit 2
else
    cargo build --release --locked --quiet --bin optimoo
    new=$PWD/target/release/optimoo
fi
if [[ -n $base ]]; then
    base=$(engine "$base") || exit 2
fi
run=${RUN:-data/runs/moo-5x10}
units=${UNIT:-7}
limit=${SECONDS_LIMIT:-600}
memo=()
if [[ -n ${MEMO_MIB:-} ]]; then
    memo=(--memo-mib "$MEMO_MIB")
fi
read -r -a extra <<< "${ARGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${FROM:-} ]]; then
    if ! git rev-parse --verify --quiet "$FROM^{commit}" >/dev/null; then
        echo "FROM must be a git revision of this repository, not '$FROM'" >&2
        exit 2
    fi
    # The committed paths at FROM: the run folder and ARGS' data/ files.
    paths=("$run")
    for i in "${!extra[@]}"; do
        if [[ ${extra[$i]} == data/* ]]; then
            paths+=("${extra[$i]}")
            extra[i]=$work/from/${extra[$i]}
        fi
    done
    mkdir -p "$work/from"
    git archive "$FROM" -- "${paths[@]}" | tar -x -C "$work/from" || {
        echo "cannot take ${paths[*]} from $FROM (git archive)" >&2
        exit 2
    }
    run=$work/from/$run
fi
read -r -a base_args <<< "${BASE_ARGS:-}"
read -r -a new_args <<< "${NEW_ARGS:-}"
if [[ -n ${KEEP:-} ]]; then
    mkdir -p "$KEEP"
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the user seconds are its" >&2
    exit 2
fi
for unit in $units; do
    if [[ ! $unit =~ ^[0-9]+$ ]]; then
        echo "UNIT must list units' numbers (0-based), not '$unit'" >&2
        exit 2
    fi
done
if [[ ! -f $run/plan.json ]]; then
    echo "no run folder at '$run' (no plan.json)" >&2
    exit 2
fi

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

# How much the class bounds of the second guesses rose from progress
# file $1 to $2 (0 when either is missing: a unit that finished).
lift() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys
if not all(os.path.exists(p) for p in sys.argv[1:3]):
    print(0)
    sys.exit()
a, b = (json.load(open(p)) for p in sys.argv[1:3])
before = {g["guess"]: g["lower"] for g in a["guesses"]}
print(sum(sum(g["lower"]) - sum(before[g["guess"]]) for g in b["guesses"]
          if len(before.get(g["guess"], [])) == len(g["lower"])))
PY
}

# work on a copy of the folder with binary $1, tagged $2, more arguments after
one() {
    local bin=$1 tag=$2
    shift 2
    rm -rf "${work:?}/$tag"
    cp -r "$run" "$work/$tag"
    /usr/bin/time -f "%U %e %M" -o "$work/$tag.time" \
        "$bin" work "$work/$tag" --unit "$unit" --threads 1 --time-limit "$limit" \
        "${memo[@]}" "${extra[@]}" "$@" >"$work/$tag.out" 2>"$work/$tag.err"
    if [[ -n ${KEEP:-} ]]; then
        rm -rf "${KEEP:?}/$tag"
        cp -r "$work/$tag" "$KEEP/$tag"
        cp "$work/$tag.err" "$KEEP/$tag.err"
    fi
}

failed() {
    echo "$1 failed:" >&2
    cat "$work"/*.err >&2 2>/dev/null || true
    exit 1
}

for unit in $units; do
before=$(value "$run") || exit 2
echo "unit $unit of $run: $before at the start; $limit s each, one thread"
tags=(new)
if [[ -n $base ]]; then
    tags=(base new)
    one "$base" base "${base_args[@]}" &
    pid=$!
    one "$new" new "${new_args[@]}" || failed "the new engine"
    wait "$pid" || failed "base"
else
    one "$new" new "${new_args[@]}" || failed "the new engine"
fi
for tag in "${tags[@]}"; do
    read -r user wall kib < <(tail -n 1 "$work/$tag.time")
    after=$(value "$work/$tag")
    rise=$((${after% *} - ${before% *}))
    lifted=$(lift "$run/progress/$unit.json" "$work/$tag/progress/$unit.json")
    nodes=$(sed -n 's/.* \([0-9]*\) nodes.*/\1/p' "$work/$tag.out" | tail -n 1)
    printf '%-4s  %s -> %s  rise %d  user %.1f s  wall %.1f s  peak %.2f GiB  %s nodes  %.1f a core-hour  lift %d (%.2f a core-second)\n' \
        "$tag" "${before% *}" "$after" "$rise" "$user" "$wall" \
        "$(python3 -c "print($kib / 1048576)")" "${nodes:-?}" \
        "$(python3 -c "print($rise * 3600 / max($user, 0.01))")" "$lifted" \
        "$(python3 -c "print($lifted / max($user, 0.01))")"
done
done
