#!/usr/bin/env bash
# docs/results.md: the exact optimum of every variant, by `optimoo solve`.
#
# For each variant (smallest game first, so the cheap ones always complete)
# it runs, release build, each under a time limit:
#   optimoo solve --game G [--cap C] --json -o T.tree   (minimal average)
#   optimoo solve --game G --objective worst --json      (smallest cap, refutations)
#   optimoo solve --game G --objective crush --json      (fewest secrets at that cap)
# and, for each saved tree, `optimoo verify T.tree`: the tree file is read back
# and every secret replayed by the file module, independently of the search.
# Peak memory (max RSS) comes from GNU time (`/usr/bin/time -f %M`; Debian
# package `time`: apt-get install time); without it the column says "n/a".
#
# Every run is kept as one JSON line in docs/results.jsonl (variant,
# objective, status ok|timeout|error|skipped, limit, peak memory, the solve
# JSON, date, machine, load, the last commit that changed the solver's
# sources); docs/results.md is rendered from all of
# them. Rerunning a variant replaces its lines, so the long runs can be
# redone one at a time and the table keeps the rest.
#
# Usage: scripts/results.sh [VARIANT...]
#   VARIANTs are game names (moo:4x10, mm:4x6); default: all of them. A game
#   name runs every variant of that game (moo:4x10 also runs --cap 7).
# Environment:
#   TIMEOUT=600       seconds per run (solve process); "timeout after N s" in the table
#   OBJECTIVES="average worst crush"   which runs to do
#   ONLY_MISSING=1    skip runs already recorded as ok (rerun timeouts, errors, skips)
#   SKIP_LARGER=1     once a game times out for an objective, skip the larger
#                     games of its family (same kind and positions) for it; 0 runs all
#   THREADS=N         worker threads (--threads; default: all cores)
#   RENDER_ONLY=1     only rebuild docs/results.md from docs/results.jsonl
# Examples:
#   TIMEOUT=120 scripts/results.sh                       # what completes in 2 min each
#   TIMEOUT=3600 ONLY_MISSING=1 SKIP_LARGER=0 scripts/results.sh   # the long ones
#   TIMEOUT=3600 scripts/results.sh moo:4x10             # one game again
#
# Independent evidence for these numbers:
#   cargo test --release                # brute force = search on small games
#                                       # (search::tests: moo:2xN, moo:3x4/3x5,
#                                       # mm:2xN, mm:3x3, with and without caps;
#                                       # worst case and crush count too)
#   cargo test --release -- --ignored   # published optima: mm:4x6 5625, cap 5
#                                       # 5626, worst 5, crush 539; moo:4x10
#                                       # cap 7 26274, worst 7 (crates/optimoo/tests/exhaustive.rs)
# and the verify column here: each tree file replayed by `optimoo verify`.
# Timings are noisy when other jobs share the machine; the table notes the
# load average at the start of each run.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_s=${TIMEOUT:-600}
objectives=${OBJECTIVES:-average worst crush}
only_missing=${ONLY_MISSING:-0}
skip_larger=${SKIP_LARGER:-1}
records=docs/results.jsonl
out_md=docs/results.md
scratch=target/results
mkdir -p "$scratch" docs
touch "$records"

# Every variant (scripts/variants.sh).
source scripts/variants.sh

# Number of secrets of a game name: N!/(N-K)! without repeats, N^K with.
secrets() {
    local kind=${1%%:*} kn=${1#*:} k n s=1 i
    k=${kn%x*} n=${kn#*x}
    for ((i = 0; i < k; i++)); do
        if [ "$kind" = moo ]; then s=$((s * (n - i))); else s=$((s * n)); fi
    done
    echo "$s"
}

# Variants ordered by size (then capped after uncapped), as "size<TAB>variant".
ordered() {
    local v
    for v in "${variants[@]}"; do
        printf '%s\t%s\t%s\n' "$(secrets "${v%% *}")" "$([[ $v == *--cap* ]] && echo 1 || echo 0)" "$v"
    done | sort -t$'\t' -k1,1n -k2,2n -s | cut -f3
}

# Python helper: records (replace a run's line), queries and rendering.
py() { python3 scripts/results.py "$@"; }

render() {
    local ord
    mapfile -t ord < <(ordered)
    py render "$records" "$out_md" "${ord[@]}"
}

if [ "${RENDER_ONLY:-0}" = 1 ]; then
    render
    exit 0
fi

cargo build --release --quiet
bin=target/release/optimoo
have_time=0
[ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null && have_time=1
[ "$have_time" = 1 ] || echo "note: /usr/bin/time missing (apt-get install time): no peak memory" >&2
# The last commit that changed the solver (stable across unrelated commits).
solver_files=(crates/optimoo/src/search crates/optimoo/src/model crates/optimoo/src/exec.rs
    src/cli/solve.rs src/cli/commands/solve.rs src/driver)
commit=$(git log -1 --format=%h -- "${solver_files[@]}" 2>/dev/null || echo unknown)
git diff --quiet HEAD -- "${solver_files[@]}" 2>/dev/null || commit="$commit+changes"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
machine="$(nproc) cores${cpu:+, $cpu}${mem:+, $mem RAM}"

# Is a variant among the games given as arguments (all when none)?
selected() {
    local g
    [ ${#wanted[@]} -eq 0 ] && return 0
    for g in "${wanted[@]}"; do [ "${1%% *}" = "$g" ] && return 0; done
    return 1
}
wanted=("$@")
for g in "${wanted[@]}"; do
    found=0
    for v in "${variants[@]}"; do [ "${v%% *}" = "$g" ] && found=1; done
    [ "$found" = 1 ] || { echo "unknown variant $g (see the list in $0)" >&2; exit 2; }
done

declare -A timed_out # "family objective" -> game that timed out
trap 'echo "interrupted; rendering what is recorded" >&2; render; exit 130' INT TERM

while IFS= read -r variant; do
    selected "$variant" || continue
    game=${variant%% *}
    extra=()
    [[ $variant == *--cap* ]] && extra=(--cap "${variant##* }")
    family=${game%x*}
    stem=$(tr ':' '-' <<<"$variant" | tr -d ' ')
    for objective in $objectives; do
        if [[ $variant == *--cap* ]] && [ "$objective" != average ]; then continue; fi
        if [ "$only_missing" = 1 ] && py status "$records" "$variant" "$objective" | grep -qx ok; then
            continue
        fi
        date=$(date -u +%Y-%m-%dT%H:%MZ)
        load=$(cut -d' ' -f1 /proc/loadavg)
        meta=(--variant "$variant" --objective "$objective" --limit "$timeout_s"
            --date "$date" --load "$load" --machine "$machine" --commit "$commit")
        key="$family $objective"
        [[ $variant == *--cap* ]] && key="$variant $objective" # capped runs are never skipped
        if [ "$skip_larger" = 1 ] && [ -n "${timed_out[$key]:-}" ]; then
            echo "$variant $objective: skipped (${timed_out[$key]} timed out)" >&2
            py record "$records" "${meta[@]}" --status skipped --why "${timed_out[$key]} timed out"
            continue
        fi
        tree="$scratch/$stem-$objective.tree"
        rm -f "$tree" "$scratch/out.json" "$scratch/mem"
        args=(solve --game "$game" "${extra[@]}" --json -o "$tree")
        [ "$objective" = average ] || args+=(--objective "$objective")
        [ -z "${THREADS:-}" ] || args+=(--threads "$THREADS")
        echo "$variant $objective (limit $timeout_s s, load $load)..." >&2
        start=$(date +%s.%N)
        set +e
        if [ "$have_time" = 1 ]; then
            /usr/bin/time -f %M -o "$scratch/mem" \
                timeout "$timeout_s" "$bin" "${args[@]}" >"$scratch/out.json" 2>"$scratch/err"
        else
            timeout "$timeout_s" "$bin" "${args[@]}" >"$scratch/out.json" 2>"$scratch/err"
        fi
        rc=$?
        set -e
        wall=$(python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))' "$start" "$(date +%s.%N)")
        peak=$(grep -E '^[0-9]+$' "$scratch/mem" 2>/dev/null | tail -1 || true)
        case $rc in
        0) status=ok ;;
        1) status=infeasible ;;
        124 | 137) status=timeout ;;
        *) status=error ;;
        esac
        verified=""
        if [ "$status" = ok ]; then
            if "$bin" verify "$tree" >"$scratch/verify" 2>&1; then verified=ok; else verified=FAILED; fi
        fi
        if [ "$status" = timeout ] && [ "$skip_larger" = 1 ]; then timed_out[$key]=$game; fi
        py record "$records" "${meta[@]}" --status "$status" --wall "$wall" --peak-kib "${peak:-}" \
            --verified "$verified" --json-file "$scratch/out.json" --err-file "$scratch/err"
        echo "  $status $(head -c 300 "$scratch/out.json")" >&2
    done
    render
done < <(ordered)
render
echo "wrote $out_md" >&2
