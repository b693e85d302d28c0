#!/usr/bin/env bash
# What a newcomer waits for: the README's two commands in a fresh clone,
# build included, timed by GNU time (Debian package `time`).
#
# Usage: scripts/bench-build.sh            # clones this checkout's HEAD
#        scripts/bench-build.sh REV        # or any commit (before/after)
#        TEST_ONLY=1 scripts/bench-build.sh  # only step 2, from an empty target/
#        KEEP=1 scripts/bench-build.sh     # keep the clone (its path is printed)
#        TIMINGS=1 scripts/bench-build.sh  # also `cargo build --timings` reports
#
# Clones HEAD into a temporary folder with an empty target/ (the cargo
# registry's downloaded sources are reused: the figures are compile and
# run, not download), then runs, in order:
#   1. cargo run --release -- solve    (the main job, its build included)
#   2. cargo test --release            (the tests, reusing step 1's build)
# and prints, for each, wall seconds, CPU seconds (user + sys) and the exit
# status. Only a machine with nothing else running gives figures worth
# comparing (docs/benchmarks.md, "Build time"); the test step includes the
# browser test's prerequisites only if they are installed, as the README's
# command does.
set -euo pipefail
if [[ ! -x /usr/bin/time ]]; then
    echo "needs GNU time at /usr/bin/time (Debian: apt-get install -y time)" >&2
    exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/optimoo-build.XXXXXX")
if [[ -z ${KEEP:-} ]]; then
    trap 'rm -rf "$dir"' EXIT
fi
git clone --quiet "$src" "$dir/optimoo"
cd "$dir/optimoo"
if [[ -n ${1:-} ]]; then
    git checkout --quiet "$1"
fi
unset CARGO_TARGET_DIR
echo "fresh clone of $(git rev-parse --short HEAD) in $dir/optimoo; $(nproc) cores"

step() {
    local name=$1
    shift
    local log=$dir/$name.log
    local status=0
    /usr/bin/time -f "%e %U %S" -o "$dir/$name.time" "$@" >"$log" 2>&1 || status=$?
    read -r wall user sys <"$dir/$name.time" || true
    printf '%-28s wall %7.1f s  cpu %7.1f s  exit %d\n' "$name" "$wall" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$status"
    if ((status != 0)); then
        tail -20 "$log" >&2
    fi
}

if [[ -z ${TEST_ONLY:-} ]]; then
    step "cargo run --release -- solve" cargo run --release --locked -- solve
fi
step "cargo test --release" cargo test --release --locked
if [[ -n ${TIMINGS:-} ]]; then
    rm -rf target
    cargo build --release --locked --timings --quiet
    cp target/cargo-timings/cargo-timing.html "$dir/timings-build.html"
    cargo test --release --locked --no-run --timings --quiet
    cp target/cargo-timings/cargo-timing.html "$dir/timings-test.html"
    echo "timings: $dir/timings-build.html, $dir/timings-test.html"
fi
if [[ -n ${KEEP:-} ]]; then
    echo "kept: $dir"
fi
