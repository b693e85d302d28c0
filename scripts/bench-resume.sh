#!/usr/bin/env bash
# A unit solved in legs, as a long run is across sessions: `optimoo work
# DIR --unit U --threads 1 --time-limit LEG`, again and again, each leg
# going on from the progress the last one kept, until the unit is exact.
# Run with --keep-memo and --keep-guesses KEEP_GUESSES (each leg also
# takes up what the last one's memo learned, DIR/memo/U.bin, with the
# bounds of the guesses refuted at sets of at least KEEP_GUESSES secrets:
# a class search cut by the end of a leg does not refute them again), with
# --keep-memo and --keep-guesses 0 (the memo's facts about sets alone),
# with --keep-memo 0 (the progress alone: a class search cut by the end
# of a leg starts again), and once uninterrupted. Every run must end at
# the same exact cost and subtree. An engine older than --keep-guesses
# runs the last three.
#
# Usage: scripts/bench-resume.sh [ENGINE]   # a binary or a git revision
#                                            # (default: this build)
#        GAME=moo:5x8 UNIT=1 LEG=5 MAX_LEGS=40 KEEP_EVERY=2 KEEP_GUESSES=128 \
#          scripts/bench-resume.sh
#
# Prints, for each way, the legs it took (or "not done" after MAX_LEGS),
# the user CPU seconds of all legs (GNU time) and the unit's value. The
# default (moo:5x8's unit 1, 1,920 secrets, about 30 s uninterrupted)
# has class searches longer than a 5 s leg, of sets below `work`'s
# default --keep-guesses (1,024), hence KEEP_GUESSES 128. Figures in
# docs/benchmarks.md (sessions 28 and 58).
set -euo pipefail
cd "$(dirname "$0")/.."
builds=${BUILDS:-/tmp/bench-anytime-builds}
game=${GAME:-moo:5x8}
unit=${UNIT:-1}
leg=${LEG:-5}
max_legs=${MAX_LEGS:-40}
keep_every=${KEEP_EVERY:-2}
keep_guesses=${KEEP_GUESSES:-128}

# shellcheck source=scripts/engine.sh
. scripts/engine.sh

if [[ -n ${1:-} ]]; then
    bin=$(engine "$1")
else
    cargo build --release --quiet --bin optimoo
    bin=target/release/optimoo
fi
[[ -x /usr/bin/time ]] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# unit_json DIR: the unit's file without its timings.
unit_json() {
    python3 -c '
import json, sys
u = json.load(open(sys.argv[1]))
print(u["exact"], u["value"], json.dumps(u["subtree"]))' "$1/units/$unit.json"
}

# run NAME ARGS...: legs until exact; prints "legs user value".
run() {
    local name=$1
    shift
    local dir=$scratch/$name
    "$bin" plan --game "$game" -o "$dir" >/dev/null 2>&1
    local legs=0 user=0
    while ((legs < max_legs)); do
        legs=$((legs + 1))
        /usr/bin/time -f "%U" -o "$scratch/time" \
            "$bin" work "$dir" --unit "$unit" --threads 1 "$@" >/dev/null 2>"$scratch/err" ||
            { cat "$scratch/err" >&2; exit 1; }
        user=$(python3 -c "print(round($user + $(tail -1 "$scratch/time"), 2))")
        if [[ $(unit_json "$dir" | cut -d' ' -f1) == True ]]; then
            echo "$legs $user $(unit_json "$dir" | cut -d' ' -f2)"
            unit_json "$dir" >"$scratch/$name.unit"
            return
        fi
    done
    echo "not-done $user -"
}

echo "$game unit $unit, legs of $leg s (at most $max_legs), one thread, $bin"
whole=$(run whole --time-limit 36000)
rows=("uninterrupted:$whole")
names=()
if "$bin" work --help | grep -q -- --keep-guesses; then
    guesses=$(run guesses --time-limit "$leg" --keep-memo-every "$keep_every" \
        --keep-guesses "$keep_guesses")
    memo=$(run memo --time-limit "$leg" --keep-memo-every "$keep_every" --keep-guesses 0)
    plain=$(run plain --time-limit "$leg" --keep-memo 0 --keep-guesses 0)
    rows+=("legs, --keep-memo --keep-guesses $keep_guesses:$guesses")
    names+=(guesses)
else
    memo=$(run memo --time-limit "$leg" --keep-memo-every "$keep_every")
    plain=$(run plain --time-limit "$leg" --keep-memo 0)
fi
rows+=("legs, --keep-memo:$memo" "legs, --keep-memo 0:$plain")
names+=(memo plain)
echo
echo "| run | legs | user s | value |"
echo "|---|---|---|---|"
for r in "${rows[@]}"; do
    read -r legs user value <<<"${r#*:}"
    echo "| ${r%%:*} | $legs | $user | $value |"
done
for name in "${names[@]}"; do
    if [[ -f $scratch/$name.unit ]] && ! cmp -s "$scratch/whole.unit" "$scratch/$name.unit"; then
        echo "MISMATCH: the $name legs end at another value or subtree than the whole run" >&2
        exit 1
    fi
done
