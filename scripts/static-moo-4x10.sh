#!/usr/bin/env bash
# Goes on with the static search of moo:4x10's size 7 (docs/results.md,
# "The static game"), from the committed checkpoint
# data/runs/moo-4x10-static/checkpoint.json (docs/static.md, "Resuming"):
# the tasks it holds as refuted are skipped, the tasks begun start where
# they were, and what this run refutes is added to the file (at most 30
# seconds lost if it is killed). Size 6 is refuted (session 32), so the
# run starts at 7: a set of 7 found is then the minimum; size 7 refuted
# makes 8 the minimum (the set of 8 is known). Prints the summary, with
# the checkpoint's totals over all runs; commit the file afterwards.
# Since session 50 the committed checkpoint holds every task refuted: the
# run then says at once that size 7 is refuted (its upper bound the
# greedy set's 9); `optimoo static --game moo:4x10 --from-size 7
# --checkpoint data/runs/moo-4x10-static/checkpoint.json` (with the local
# search, about 5 minutes) finds the set of 8 and says `exact`.
#
# Usage: scripts/static-moo-4x10.sh
# Environment:
#   BUDGET=3600   seconds of this run (--time-budget). The run starts
#                 from the greedy set (--greedy-only: a second, where its
#                 improvement took about 3 minutes) and searches size 7
#                 only (--max-size 7): its summary's upper bound is the
#                 greedy set's 9; the set of 8 is docs/results.md's
#   THREADS=N     worker threads (--threads; default: all cores)
#   NATIVE=1      build for this processor (RUSTFLAGS="-C target-cpu=native",
#                 in target/native so the default build is kept): the
#                 same sets, in about 0.87x the time on an AMD EPYC with
#                 AVX2 (POPCNT and AVX2 compares; docs/benchmarks.md,
#                 session 41). The binary runs only on processors like
#                 this one.
#   CHECKPOINT=F  the checkpoint to go on from (default: the committed one)
#   SHARD=I/N     search only shard I of N (--shard; docs/static.md,
#                 "Shards"): run each shard from its own copy of the
#                 checkpoint, e.g. on N machines
#                   cp data/runs/moo-4x10-static/checkpoint.json shard-I.json
#                   CHECKPOINT=shard-I.json SHARD=I/N scripts/static-moo-4x10.sh
#                 then merge them all at once into the committed file:
#                   optimoo static --game moo:4x10 \
#                     --checkpoint data/runs/moo-4x10-static/checkpoint.json \
#                     --merge-checkpoints shard-*.json
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir=${CARGO_TARGET_DIR:-target}
if [ -n "${NATIVE:-}" ]; then
    target_dir=$target_dir/native
    RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native" CARGO_TARGET_DIR=$target_dir \
        cargo build --release --quiet --bin optimoo
else
    cargo build --release --quiet --bin optimoo
fi
bin=$target_dir/release/optimoo
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
shard=()
[ -n "${SHARD:-}" ] && shard=(--shard "$SHARD")
exec "$bin" static --game moo:4x10 --from-size 7 --max-size 7 --greedy-only \
    --checkpoint "${CHECKPOINT:-data/runs/moo-4x10-static/checkpoint.json}" \
    --time-budget "${BUDGET:-3600}" "${threads[@]}" "${shard[@]}"
