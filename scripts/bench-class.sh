#!/usr/bin/env bash
# The exact search on one class of moo:5x10 two guesses down, side by side:
# `optimoo solve --game moo:5x10 --secrets CLASS --threads 1` for two
# engines (binaries or git revisions of this repository), run after run,
# alternating. The class is the secrets that answer 0A3B to 01234 (unit 3
# of data/runs/moo-5x10) and ANSWER to SECOND; by default 0A1B to 12546,
# 426 secrets, about 40 s: the kind of search `work` spends its time in
# on units 2 and 3 (its nodes one and two guesses below the class are
# the units' nodes three and four guesses down).
#
# Usage: scripts/bench-class.sh BASE [NEW]     # NEW: this build by default
#        RUNS=5 SECOND=02567 ANSWER=0A1B scripts/bench-class.sh BASE NEW
#
# Prints each run's total (both engines must agree), search seconds (the
# `time` line), user seconds (GNU time) and nodes, then the medians and
# the ratio BASE / NEW of the median user seconds. The 872 MiB answer
# table is built by each run (about 3.5 s of user time, the same for
# both), included in the user seconds. Figures in docs/benchmarks.md
# (session 27).
set -euo pipefail
cd "$(dirname "$0")/.."
builds=${BUILDS:-/tmp/bench-anytime-builds}
runs=${RUNS:-3}
second=${SECOND:-12546}
answer=${ANSWER:-0A1B}

# shellcheck source=scripts/engine.sh
. scripts/engine.sh

if [[ -z ${1:-} ]]; then
    echo "usage: $0 BASE [NEW]   (binaries or git revisions)" >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "needs GNU time at /usr/bin/time (Debian: apt-get install -y time)" >&2
    exit 2
fi
base=$(engine "$1") || exit 2
if [[ -n ${2:-} ]]; then
    new=$(engine "$2") || exit 2
else
    cargo build --release --locked --quiet --bin optimoo
    new=target/release/optimoo
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The class: 5 distinct digits, 0A3B to 01234 and $answer to $second.
awk -v second="$second" -v answer="$answer" '
function fb(g, c,    i, a, b) {
    a = 0; b = 0
    for (i = 1; i <= 5; i++) {
        if (substr(g, i, 1) == substr(c, i, 1)) a++
        else if (index(c, substr(g, i, 1)) > 0) b++
    }
    return a "A" b "B"
}
function gen(prefix, used, depth,    d) {
    if (depth == 5) {
        if (fb("01234", prefix) == "0A3B" && fb(second, prefix) == answer) print prefix
        return
    }
    for (d = 0; d <= 9; d++)
        if (index(used, d) == 0) gen(prefix d, used d, depth + 1)
}
BEGIN { gen("", "", 0) }' > "$work/class.txt"
size=$(wc -l < "$work/class.txt")
if [[ $size -lt 2 ]]; then
    echo "the class $second $answer under 01234 0A3B has $size secrets: nothing to search" >&2
    exit 2
fi
echo "class: 01234 0A3B, $second $answer: $size secrets; $runs runs each, one thread"

one() {
    local bin=$1 out=$work/out
    /usr/bin/time -f "%U" -o "$work/time" "$bin" solve --game moo:5x10 \
        --secrets "$work/class.txt" --threads 1 > "$out" 2> /dev/null
    local total seconds nodes user
    total=$(awk '$1 == "total" {print $2}' "$out")
    seconds=$(awk '$1 == "time" {print $2}' "$out")
    nodes=$(awk '$1 == "nodes" {print $2}' "$out")
    user=$(tail -n 1 "$work/time")
    echo "$total $seconds $user $nodes"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

: > "$work/base"
: > "$work/new"
printf '| run | engine | total | search s | user s | nodes |\n|---|---|---|---|---|---|\n'
for r in $(seq 1 "$runs"); do
    for side in base new; do
        bin=$base
        [[ $side == new ]] && bin=$new
        read -r total seconds user nodes < <(one "$bin")
        echo "$total $seconds $user $nodes" >> "$work/$side"
        printf '| %s | %s | %s | %s | %s | %s |\n' "$r" "$side" "$total" "$seconds" "$user" "$nodes"
    done
done
if [[ $(cut -d' ' -f1 "$work/base" | sort -u) != $(cut -d' ' -f1 "$work/new" | sort -u) ]]; then
    echo "the totals differ: $(cut -d' ' -f1 "$work/base" | sort -u) against $(cut -d' ' -f1 "$work/new" | sort -u)" >&2
    exit 1
fi
mb=$(cut -d' ' -f3 "$work/base" | median)
mn=$(cut -d' ' -f3 "$work/new" | median)
sb=$(cut -d' ' -f2 "$work/base" | median)
sn=$(cut -d' ' -f2 "$work/new" | median)
echo
echo "median user s: base $mb, new $mn, ratio $(awk -v a="$mb" -v b="$mn" 'BEGIN {printf "%.2f", a / b}')x"
echo "median search s: base $sb, new $sn, ratio $(awk -v a="$sb" -v b="$sn" 'BEGIN {printf "%.2f", a / b}')x"
