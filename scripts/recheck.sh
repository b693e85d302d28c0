#!/usr/bin/env bash
# Re-checks published results on every kernel path this CPU has (issue 16).
#
# For each run (a game, a cap or an objective) it solves once per kernel
# path (OPTIMOO_KERNEL=scalar, avx2, avx512: those the CPU has), release
# build, and checks that every path gives the same report (total, histogram,
# depth, first guess, min cap) and byte for byte the same tree file; where
# data/ holds the tree of that run, that the new tree equals it byte for
# byte; and that `optimoo verify` accepts it. One line per run and path goes
# to docs/recheck.jsonl (replacing the lines of an earlier run of the same
# game, objective and cap): the report, seconds, the path, the commit.
#
# Usage: scripts/recheck.sh [RUN...]
#   RUN: "GAME", "GAME --cap C", "GAME --objective worst|crush" (quoted);
#   default: every run of docs/results.md and the new optima (moo:5x6,
#   moo:5x7, moo:5x8; mm:5x6 is re-checked through its checkpoint folder,
#   see docs/results.md), and Wordle from SALET (data/wordle*-salet.tree).
# Environment: THREADS=N (--threads, default all cores), PATHS="scalar avx2"
# (default: every path the CPU has).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin optimoo
bin=target/release/optimoo
scratch=target/recheck
records=docs/recheck.jsonl
mkdir -p "$scratch"
touch "$records"

if (($# == 0)); then
    # The variants of docs/results.md (scripts/variants.sh); the uncapped
    # ones also with the worst and crush objectives.
    source scripts/variants.sh
    runs=("${variants[@]}")
    for g in "${variants[@]}"; do
        [[ $g == *--cap* ]] || runs+=("$g --objective worst" "$g --objective crush")
    done
    runs+=("moo:5x6" "moo:5x7" "moo:5x8" "wordle --first salet" "wordle-nyt --first salet")
else
    runs=("$@")
fi

# The tree file in data/ that a run wrote, if any.
data_tree() {
    case "$1" in
        "mm:4x6") echo data/mm-4x6.tree ;;
        "mm:4x6 --cap 5") echo data/mm-4x6-cap5.tree ;;
        "mm:4x6 --objective crush") echo data/mm-4x6-crush.tree ;;
        "moo:3x10") echo data/moo-3x10.tree ;;
        "moo:4x10 --cap 7") echo data/moo-4x10-cap7.tree ;;
        "moo:4x10 --objective crush") echo data/moo-4x10-crush.tree ;;
        "moo:5x6") echo data/moo-5x6.tree ;;
        "moo:5x7") echo data/moo-5x7.tree ;;
        "moo:5x8") echo data/moo-5x8.tree ;;
        "wordle --first salet") echo data/wordle-salet.tree ;;
        "wordle-nyt --first salet") echo data/wordle-nyt-salet.tree ;;
        *) echo "" ;;
    esac
}

paths=${PATHS:-$(for p in scalar avx2 avx512; do
    if OPTIMOO_KERNEL=$p "$bin" solve --game mm:2x2 >/dev/null 2>&1; then echo "$p"; fi
done)}
commit=$(git rev-parse --short HEAD)
threads=(${THREADS:+--threads "$THREADS"})
failed=0
for run in "${runs[@]}"; do
    read -r -a args <<<"$run"
    key=$(echo "$run" | tr ' :' '__')
    first=""
    for p in $paths; do
        tree="$scratch/$key.$p.tree"
        json=$(OPTIMOO_KERNEL=$p "$bin" solve --game "${args[@]}" "${threads[@]}" \
            --json -o "$tree" 2>/dev/null) || true
        [ -n "$json" ] || { echo "$run [$p]: solve failed"; failed=1; continue; }
        report=$(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
keep = ("total", "histogram", "max_depth", "first_guess", "min_cap", "at_cap", "feasible")
print(json.dumps({k: r[k] for k in keep if k in r}, sort_keys=True))' "$json")
        seconds=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["seconds"])' "$json")
        verdict=ok
        "$bin" verify "$tree" >/dev/null 2>&1 || verdict="verify failed"
        if [ -z "$first" ]; then
            first="$p"
            first_report=$report
        elif [ "$report" != "$first_report" ] || ! cmp -s "$tree" "$scratch/$key.$first.tree"; then
            verdict="differs from $first"
        fi
        stored=$(data_tree "$run")
        if [ -n "$stored" ] && ! cmp -s "$tree" "$stored"; then
            verdict="differs from $stored"
        fi
        [ "$verdict" = ok ] || failed=1
        printf '%-28s %-7s %s %8.2f s  %s\n' "$run" "$p" "$verdict" "$seconds" "$report"
        python3 - "$records" "$run" "$p" "$verdict" "$seconds" "$report" "$commit" "${stored:-}" <<'EOF'
import json, sys
path, run, kernel, verdict, seconds, report, commit, stored = sys.argv[1:]
lines = [l for l in open(path) if l.strip()]
keep = [l for l in lines if (json.loads(l)["run"], json.loads(l)["kernel"]) != (run, kernel)]
rec = {"run": run, "kernel": kernel, "verdict": verdict, "seconds": float(seconds),
       "report": json.loads(report), "commit": commit, "data_tree": stored or None}
keep.append(json.dumps(rec) + "\n")
open(path, "w").writelines(keep)
EOF
    done
done
exit $failed
