#!/usr/bin/env bash
# Times the tiny player: process start + tree load + one answer, on a release
# build. Runs `moo next G1:F1 G2:F2` RUNS times (default 200), where the two
# moves are the tree's own first two against SECRET (default 5293), so the
# answer is a tree lookup; it
# prints the mean wall time per run, next to `moo --version` (start only) and
# /bin/true (the cost of starting any process from this shell loop), then the
# player's own in-process timings (--timings). Uses hyperfine when installed,
# a plain loop otherwise.
#
# Usage: scripts/bench-player.sh [RUNS]
#        TREE=data/mm-4x6.tree SECRET=5243 scripts/bench-player.sh
#        MOVES="0123:0A1B 1456:1A1B" scripts/bench-player.sh   # any history
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-200}
cargo build --release --locked --bin moo >&2
moo=$PWD/target/release/moo
tree_args=()
if [[ -n ${TREE:-} ]]; then tree_args=(--tree "$TREE"); fi
if [[ -z ${MOVES:-} ]]; then
    MOVES=$("$moo" "${tree_args[@]}" solve "${SECRET:-5293}" | head -2 | tr ' ' ':' | paste -sd' ')
fi
read -r -a moves <<<"$MOVES"
cmd=("$moo" "${tree_args[@]}" next "${moves[@]}")

echo "command: ${cmd[*]#"$PWD/"}"
echo "answer:  $("${cmd[@]}")"

# Mean wall time of RUNS runs of a command, in milliseconds.
mean_ms() {
    local start end
    start=$(date +%s%N)
    for ((i = 0; i < runs; i++)); do "$@" >/dev/null; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) -v n="$runs" 'BEGIN { printf "%.3f", ns / n / 1e6 }'
}

"${cmd[@]}" >/dev/null # warm the page cache
echo "mean wall time per run over $runs runs (plain loop):"
echo "  moo next ...     $(mean_ms "${cmd[@]}") ms"
echo "  moo --version    $(mean_ms "$moo" --version) ms"
echo "  /bin/true        $(mean_ms /bin/true) ms"
echo "in process, best of 20: $(for _ in $(seq 20); do "${cmd[@]}" --timings 2>&1 >/dev/null; done | sort -n | head -1)"

if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs "$runs" "${cmd[*]}" "$moo --version"
fi
