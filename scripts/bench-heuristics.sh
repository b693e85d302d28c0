#!/usr/bin/env bash
# Benchmark of the heuristic strategies (release build).
#
# For each game and heuristic, runs `optimoo eval --json` RUNS times (a fresh
# process each time) and prints the best and the median of the `seconds`
# field: the wall time to build the strategy's whole decision tree and replay
# every secret through it. The shared feedback table (built once per process,
# before any strategy runs) is timed apart, as `table_seconds`.
#
# Usage: scripts/bench-heuristics.sh [RUNS] [GAME...]
#   RUNS defaults to 7; GAMEs default to moo:4x10 mm:4x6.
#   RAYON_NUM_THREADS=1 scripts/bench-heuristics.sh   # one core
# Figures are noisy when other jobs share the machine: rerun on a quiet one.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(moo:4x10 mm:4x6)
cargo build --release --quiet
bin=target/release/optimoo
field() { sed -E "s/.*\"$1\":([0-9.eE+-]+).*/\1/"; }
stats() { # best and median of numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f\n", v[1], v[int((NR + 1) / 2)] }'
}
echo "machine: $(nproc) cores, ${RAYON_NUM_THREADS:-all} rayon threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-8s %8s %8s %8s\n' game strategy best median table
for game in "${games[@]}"; do
    for strategy in first random minimax irving entropy kooi; do
        secs=() tables=()
        for ((i = 0; i < runs; i++)); do
            line=$("$bin" eval --game "$game" --strategy "$strategy" --json)
            secs+=("$(field seconds <<<"$line")")
            tables+=("$(field table_seconds <<<"$line")")
        done
        read -r best median < <(printf '%s\n' "${secs[@]}" | stats)
        read -r _ table < <(printf '%s\n' "${tables[@]}" | stats)
        printf '%-9s %-8s %8s %8s %8s\n' "$game" "$strategy" "$best" "$median" "$table"
    done
done
