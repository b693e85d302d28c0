#!/usr/bin/env bash
# The engine on five positions (issue 20's figure): core-seconds of
# `optimoo solve --game moo:5x8 --threads 1` and of the mm:5x6 plan
# (`plan --upper 37087`, `work --all --threads 1`, `merge`), for this
# checkout's release build and, side by side, an older optimoo binary.
#
# Usage: scripts/bench-five.sh              # this build only
#        scripts/bench-five.sh BASE         # BASE: an older binary, run at
#                                           # the same time as this build's,
#                                           # one on each core
#        JOBS=moo:5x8 scripts/bench-five.sh BASE   # some jobs only (moo:5x8,
#                                           # mm:5x6, moo:5x10-class); default
#                                           # all three
#
# moo:5x10-class is one class of the kind the moo:5x10 run solves exactly:
# the 438 secrets answering 0A3B to 01234 and then 0A1B to 12356, solved
# from scratch (`solve --game moo:5x10 --secrets FILE --threads 1`; the
# file is made here). It reads the 872 MiB answer table of moo:5x10, whose
# rows are far apart: memory, not counting, bounds it.
#
# The base binary to compare with is the code as issue 16's kernel fix left
# it (commit 6f748e4): `git worktree add /tmp/base 6f748e4 && (cd /tmp/base
# && CARGO_TARGET_DIR=/tmp/base-target cargo build --release)`, then
# `scripts/bench-five.sh /tmp/base-target/release/optimoo`.
#
# Prints one line per binary and job: user seconds (GNU time, Debian package
# `time`; the work of every thread and process), wall seconds, the optimal
# total, search nodes (moo:5x8; the units' sum for mm:5x6), and whether
# the trees of the two binaries are the same byte for byte. Expect about
# 1 minute of CPU for moo:5x8 with this build, 2 for mm:5x6 and 2 for the
# moo:5x10 class (with 1 GiB of memory; each job's base beside it as much
# again); the base of 6f748e4 takes 5 to 10 times as long on the first
# two. Figures in docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin optimoo
new=$PWD/target/release/optimoo
base=${1:-}
if [[ -n $base && ! -x $base ]]; then
    echo "no executable at '$base'" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time (/usr/bin/time) is needed: the user seconds are its" >&2
    exit 2
fi
jobs=${JOBS:-"moo:5x8 mm:5x6 moo:5x10-class"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# solve moo:5x8 with binary $1 into $work/$2.*
moo58() {
    local bin=$1 tag=$2
    /usr/bin/time -f "%U %e" -o "$work/$tag.time" \
        "$bin" solve --game moo:5x8 --threads 1 --json -o "$work/$tag.tree" \
        >"$work/$tag.json" 2>"$work/$tag.err"
    python3 - "$work/$tag.json" "$work/$tag.time" >"$work/$tag.line" <<'PY'
import json, sys
v = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
user, wall = open(sys.argv[2]).read().split()[-2:]
print(f"user {float(user):9.1f} s  wall {float(wall):8.1f} s  total {v['total']}  nodes {v['nodes']}")
PY
}

# the class of moo:5x10 above with binary $1 into $work/$2.*
# (its secrets are listed once, before the two binaries start)
moo510class() {
    local bin=$1 tag=$2
    /usr/bin/time -f "%U %e" -o "$work/$tag.time" \
        "$bin" solve --game moo:5x10 --secrets "$work/class.txt" --threads 1 --json \
        -o "$work/$tag.tree" >"$work/$tag.json" 2>"$work/$tag.err"
    python3 - "$work/$tag.json" "$work/$tag.time" >"$work/$tag.line" <<'PY'
import json, sys
v = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
user, wall = open(sys.argv[2]).read().split()[-2:]
print(f"user {float(user):9.1f} s  wall {float(wall):8.1f} s  total {v['total']}  nodes {v['nodes']}")
PY
}

# the mm:5x6 plan with binary $1 into $work/$2/
mm56() {
    local bin=$1 tag=$2 dir=$work/$2
    local user=0 wall=0 t
    for step in plan work merge; do
        case $step in
            plan) args=(plan --game mm:5x6 --upper 37087 -o "$dir") ;;
            work) args=(work "$dir" --all --threads 1) ;;
            merge) args=(merge "$dir" -o "$work/$tag.tree") ;;
        esac
        /usr/bin/time -f "%U %e" -o "$work/$tag.$step.time" "$bin" "${args[@]}" \
            >"$work/$tag.$step.out" 2>"$work/$tag.$step.err"
        t=$(tail -n 1 "$work/$tag.$step.time")
        user=$(python3 -c "print($user + ${t% *})")
        wall=$(python3 -c "print($wall + ${t#* })")
    done
    local total nodes
    total=$(grep -E '^total' "$work/$tag.merge.out" | awk '{print $2}')
    nodes=$(cat "$dir"/units/*.json | python3 -c '
import json, sys
text = sys.stdin.read()
dec, i, n = json.JSONDecoder(), 0, 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    v, i = dec.raw_decode(text, i)
    n += v.get("nodes", 0)
print(n)')
    printf 'user %9.1f s  wall %8.1f s  total %s  nodes %s\n' "$user" "$wall" "$total" "$nodes" \
        >"$work/$tag.line"
}

# A run that fails shows its errors (the folder goes when the script ends).
failed() {
    echo "$1 failed:" >&2
    cat "$work"/*.err >&2 2>/dev/null || true
    exit 1
}

for job in $jobs; do
    if [[ $job == moo:5x10-class ]]; then
        python3 - >"$work/class.txt" <<'PY'
from itertools import permutations
def answer(g, s):
    a = sum(x == y for x, y in zip(g, s))
    return a, len(set(g) & set(s)) - a
for s in permutations(range(10), 5):
    if answer((0, 1, 2, 3, 4), s) == (0, 3) and answer((1, 2, 3, 5, 6), s) == (0, 1):
        print("".join(map(str, s)))
PY
    fi
    case $job in
        moo:5x8) run=moo58 ;;
        mm:5x6) run=mm56 ;;
        moo:5x10-class) run=moo510class ;;
        *)
            echo "unknown job '$job' (moo:5x8, mm:5x6 or moo:5x10-class)" >&2
            exit 2
            ;;
    esac
    if [[ -n $base ]]; then
        "$run" "$base" base &
        pid=$!
        "$run" "$new" new || failed "$job (this build)"
        wait "$pid" || failed "$job (base)"
        echo "$job  base  $(cat "$work/base.line")"
        echo "$job  new   $(cat "$work/new.line")"
        if cmp -s "$work/base.tree" "$work/new.tree"; then
            echo "$job  trees: the same, byte for byte"
        else
            echo "$job  trees: DIFFERENT"
        fi
    else
        "$run" "$new" new || failed "$job"
        echo "$job  new   $(cat "$work/new.line")"
    fi
    rm -rf "$work"/base* "$work"/new*
done
