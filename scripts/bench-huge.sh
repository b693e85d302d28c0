#!/usr/bin/env bash
# The phased strategy and the first candidate over every secret of the
# games of docs/huge.md (a sample where the whole game is out of reach),
# with wall time and peak memory; then the player's time per answer on
# moo:10x10. Needs GNU time (/usr/bin/time). Figures: docs/benchmarks.md.
#
#   scripts/bench-huge.sh            # every game (about 10 minutes on 2 cores)
#   scripts/bench-huge.sh moo:7x10   # one game
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/optimoo
games=("$@")
if [ ${#games[@]} -eq 0 ]; then
  games=(moo:4x10 moo:5x10 mm:6x6 moo:6x10 moo:7x10 mm:7x7 moo:8x10 moo:10x10 mm:7x8)
fi
for g in "${games[@]}"; do
  for s in first phased; do
    /usr/bin/time -f "$g $s: %e s wall, %M KB peak" "$bin" eval --game "$g" --strategy "$s" --json 2>&1 |
      grep -v '^memory:'
  done
done
if [ $# -eq 0 ]; then
  /usr/bin/time -f "mm:8x8 sample: %e s wall, %M KB peak" "$bin" eval --game mm:8x8 --strategy phased \
    --sample 20000 --seed 1 --json 2>&1 | grep -v '^memory:'
  for h in "" "0123456789:2A8B" "0123456789:2A8B 1032547698:0A10B"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "moo next on moo:10x10 after [$h]: %e s, %M KB" target/release/moo --game moo:10x10 next $h
  done
fi
