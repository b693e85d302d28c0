#!/usr/bin/env bash
# Whether the player keeps its time budget where the position is large:
# `moo rank` and `moo analyze` with --budget 0.2 at the root of moo:5x10
# (30,240 secrets) and mm:5x8 (32,768), where the rows of the secrets
# left alone took about 10 s and a gigabyte before session 38
# (docs/player.md, docs/benchmarks.md). Prints each command's wall
# seconds and peak memory (GNU time), RUNS times (default 3).
#
# Usage: scripts/bench-budget.sh [RUNS]
#        MOO=path/to/an/older/moo scripts/bench-budget.sh   # another build
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
if [[ -z ${MOO:-} ]]; then
    cargo build --release --locked --quiet --bin moo
    MOO=$PWD/target/release/moo
fi
[[ -x /usr/bin/time ]] || { echo "needs GNU time (/usr/bin/time)"; exit 2; }
for args in \
    "rank --top 3 --budget 0.2 --json --game moo:5x10" \
    "analyze --game moo:5x10 01234:0A2B --budget 0.2" \
    "rank --game mm:5x8 --budget 0.2"; do
    read -r -a a <<<"$args"
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e s wall, %M KiB peak: moo $args" "$MOO" "${a[@]}" >/dev/null
    done
done
