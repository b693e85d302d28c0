#!/usr/bin/env bash
# The memory `optimoo solve` states before a search against the peak it
# reaches (maximum resident set, GNU time: Debian package `time`), one line
# per run. The estimate is search::memory_estimate (docs/search.md, "Memory").
# Then the time and memory limits the default test run does not assert
# (they depend on the machine and its load): the ignored tests of the
# `limits` modules (tests/limits.rs, crates/moo/tests/limits.rs), one at a
# time: a bad tree file refused by optimoo verify/export and moo --tree
# within 1 s and 50 MB, `--max-memory 1M` refused under 20 MB, the estimate
# of mm:4x6 cap 5 an upper bound within 4 times the peak, `moo next` off a
# moo:5x10 tree under 100 MB. LIMITS=0 skips them; LIMITS=only runs only them.
#
# Usage: scripts/memory-check.sh          # small runs (about a minute)
#        FULL=1 scripts/memory-check.sh   # also moo:5x10 (a 872 MiB table;
#                                         # needs about 2 GiB free, minutes)
#        LIMITS=only scripts/memory-check.sh   # the limit tests alone
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x /usr/bin/time ]] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
limits() {
    echo "limits (ignored tests, one thread):"
    cargo test --release --locked --quiet -p optimoo-cli --test tests limits:: -- --ignored --test-threads 1
    cargo test --release --locked --quiet -p moo --test tests limits:: -- --ignored --test-threads 1
}
if [[ "${LIMITS:-}" == only ]]; then
    limits
    exit
fi

cargo build --release --locked --quiet --bin optimoo
optimoo=target/release/optimoo

printf '%-58s %12s %12s %7s\n' "run" "estimate" "peak" "ratio"
run() {
    local err
    err=$(mktemp)
    /usr/bin/time -f "peak %M" "$optimoo" solve "$@" >/dev/null 2>"$err" || true
    python3 - "$*" "$err" <<'PY'
import re, sys
label, path = sys.argv[1], sys.argv[2]
text = open(path).read()
# The need and the memo's ceiling: the estimate is their sum.
est = re.findall(r"memory: about ([0-9.]+) (KiB|MiB|GiB) needed .*the memo may grow to ([0-9.]+) (KiB|MiB|GiB)", text)
peak = re.findall(r"peak (\d+)", text)
if not est or not peak:
    print(f"{label:58} (no figures)\n{text}")
    sys.exit()
scale = {"KiB": 1 / 1024, "MiB": 1, "GiB": 1024}
need, unit, memo, memo_unit = est[-1]
e = float(need) * scale[unit] + float(memo) * scale[memo_unit]
p = int(peak[-1]) / 1024
print(f"{label:58} {e:8.1f} MiB {p:8.1f} MiB {e / p:6.2f}")
PY
    rm -f "$err"
}

run --game mm:4x6 --cap 5 --memo-mib 1 --threads 2
run --game mm:4x6 --threads 2
run --game moo:4x10 --objective worst --cap-only --memo-mib 4 --threads 2
run --game moo:4x10 --cap 7 --memo-mib 8 --threads 2
run --game moo:4x10 --cap 7 --memo-mib 32 --threads 2
run --game mm:5x7 --objective worst --cap-only --memo-mib 64 --threads 2
if [[ "${FULL:-}" == 1 ]]; then
    run --game moo:5x10 --cap 5 --threads 2
    run --game moo:5x10 --objective worst --cap-only --memo-mib 64 --threads 2
fi
if [[ "${LIMITS:-}" != 0 ]]; then
    echo
    limits
fi
