#!/usr/bin/env bash
# The phased strategy and the first candidate over every secret of the
# games of docs/huge.md (a sample where the whole game is out of reach),
# with wall time and peak memory; then the player's time per answer on
# moo:10x10 (scripts/bench-player-huge.sh); then the phased strategy with
# rollouts (--rollout 8 --rollout-above 300) on the games where it is
# measured against the published figures. Needs GNU time (/usr/bin/time).
# Figures: docs/benchmarks.md.
#
#   scripts/bench-huge.sh            # every game (about 15 minutes on 2 cores)
#   scripts/bench-huge.sh moo:7x10   # one game (no player, no rollouts)
#   ROLLOUT_ONLY=1 scripts/bench-huge.sh   # the rollouts alone
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/optimoo
games=("$@")
if [ ${#games[@]} -eq 0 ] && [ -z "${ROLLOUT_ONLY:-}" ]; then
  games=(moo:4x10 moo:5x10 mm:6x6 moo:6x10 moo:7x10 mm:7x7 moo:8x10 moo:10x10 mm:7x8)
fi
for g in "${games[@]+"${games[@]}"}"; do
  for s in first phased; do
    /usr/bin/time -f "$g $s: %e s wall, %M KB peak" "$bin" eval --game "$g" --strategy "$s" --json 2>&1 |
      grep -v '^memory:'
  done
done
if [ $# -eq 0 ] && [ -z "${ROLLOUT_ONLY:-}" ]; then
  /usr/bin/time -f "mm:8x8 sample: %e s wall, %M KB peak" "$bin" eval --game mm:8x8 --strategy phased \
    --sample 20000 --seed 1 --json 2>&1 | grep -v '^memory:'
  # The player: every move of 10 games, and the largest sets.
  scripts/bench-player-huge.sh
fi
if [ $# -eq 0 ]; then
  # Rollouts: the 8 best guesses of every set of 300 or more candidates
  # (and the 8 best first guesses) played out.
  for g in moo:4x10 moo:5x10 mm:6x6 moo:6x10 mm:7x7; do
    /usr/bin/time -f "$g phased --rollout 8 --rollout-above 300: %e s wall, %M KB peak" "$bin" eval \
      --game "$g" --strategy phased --rollout 8 --rollout-above 300 --json 2>&1 | grep -v '^memory:'
  done
fi
