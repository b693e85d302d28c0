#!/usr/bin/env bash
# Times the exact search on a release build: wall and CPU seconds and peak
# memory (GNU time, Debian package `time`) for each run, one line per run.
#
# Usage: scripts/bench-search.sh            # the quick set (well under a minute)
#        FULL=1 scripts/bench-search.sh     # also mm:4x7, mm:4x8 and moo:4x10
#                                           # cap 7 (about 4 minutes)
#        THREADS=1 scripts/bench-search.sh  # one worker thread
# Figures are written down in docs/benchmarks.md; results do not depend on
# the thread count, only times do.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet --bin optimoo
optimoo=target/release/optimoo
threads=${THREADS:-0}
timer=()
if [[ -x /usr/bin/time ]]; then
    timer=(/usr/bin/time -f "%e %U %M")
fi

run() {
    local label=$1
    shift
    local out err
    err=$(mktemp)
    out=$("${timer[@]}" "$optimoo" solve --threads "$threads" "$@" --json 2>"$err") || true
    local t
    t=$(tail -n 1 "$err")
    rm -f "$err"
    python3 - "$label" "$out" "$t" <<'PY'
import json, sys
label, out, t = sys.argv[1], sys.argv[2], sys.argv[3].split()
v = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
wall, cpu, kib = (t + ["?", "?", "?"])[:3] if len(t) == 3 else ("?", "?", "?")
what = v.get("total", v.get("min_cap", "?"))
mem = f"{int(kib) / 1024:.0f} MiB" if kib.isdigit() else "?"
print(f"{label:<34} result {what!s:<8} wall {wall:>8} s  cpu {cpu:>8} s  peak {mem:>8}  nodes {v.get('nodes', '?')}")
PY
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), threads: ${threads/#0/all}"
run "mm:4x6 (no cap)" --game mm:4x6
run "mm:4x6 cap 5" --game mm:4x6 --cap 5
run "mm:4x6 worst (min cap)" --game mm:4x6 --objective worst --cap-only
run "moo:3x10 (no cap)" --game moo:3x10
run "moo:4x10 worst (refute 5 and 6)" --game moo:4x10 --objective worst --cap-only
run "moo:4x8 (no cap)" --game moo:4x8
run "moo:4x9 (no cap)" --game moo:4x9
run "mm:5x4 (no cap)" --game mm:5x4
if [[ -n ${FULL:-} ]]; then
    run "mm:4x7 (no cap)" --game mm:4x7
    run "mm:4x8 (no cap)" --game mm:4x8
    run "moo:4x10 cap 7" --game moo:4x10 --cap 7
fi
