#!/usr/bin/env bash
# Times `optimoo solve --game wordle` against Alex Selby's exact Wordle
# solver (github alex1770/wordle, commit 8fd3f1b, MIT: the program that
# proved SALET optimal, 7920), on the same machine, one thread each.
#
# Usage: scripts/bench-wordle.sh PEER LISTS        # PEER: its binary; LISTS:
#            the folder of its word lists (wordlist_orig_all, _hidden)
#        RUNS=5 scripts/bench-wordle.sh PEER LISTS  # runs per case (default 3;
#            the sample of exact values runs SAMPLE_RUNS times, default 1:
#            a poor first word takes either program a minute or more)
#        SKIP_HARD=1 ...                            # without hard mode
#        CASES="salet cutoff" ...                   # only these cases
#
# Cases (both programs under the same cap of 6 guesses, Selby's default):
#   salet     SALET's exact value, normal mode   (peer: -w salet)
#   hard      SALET's exact value, hard mode     (peer: -H -w salet)
#   sample    20 first words (every 648th line of wordlist_orig_all), each
#             exactly, one process a word        (peer: -w WORD)
#   cutoff    the same 20 first words cut off at 7921, one process for all
#             (optimoo: solve --first W1,...,W20 --below 7921;
#              peer: -s -b 7921 -t FILE)
# Runs alternate peer / optimoo; the median CPU time (user + sys, GNU time)
# of each is printed with the ratio, as a markdown table. The values must
# agree: exact values equal, and under the cut-off the same words below it
# with equal values (bounds at or above it may differ: both are proofs).
set -euo pipefail
cd "$(dirname "$0")/.."

peer=${1:-}
lists=${2:-}
if [[ -z $peer || ! -x $peer || -z $lists || ! -f $lists/wordlist_orig_all ]]; then
    {
        echo "usage: $0 PEER LISTS"
        echo "  PEER: Selby's solver (alex1770/wordle, wordle.cpp built with -O3)"
        echo "  LISTS: the folder holding wordlist_orig_all and wordlist_orig_hidden"
        [[ -n $peer && ! -x $peer ]] && echo "no executable at '$peer'"
        [[ -n $lists && ! -f $lists/wordlist_orig_all ]] && echo "no $lists/wordlist_orig_all"
    } >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "needs GNU time at /usr/bin/time (Debian: apt-get install -y time)" >&2
    exit 2
fi
peer=$(realpath "$peer")
lists=$(realpath "$lists")
runs=${RUNS:-3}
cargo build --release --locked --quiet --bin optimoo
optimoo=$(realpath target/release/optimoo)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'NR % 648 == 1' "$lists/wordlist_orig_all" | head -20 >"$tmp/sample"
sample=$(paste -sd, "$tmp/sample")
L=(-a "$lists/wordlist_orig_all" -h "$lists/wordlist_orig_hidden")
O=(solve --game wordle --cap 6 --threads 1)

# timed NAME CMD...: runs once in $lists (the peer reads its lists from
# there); appends the CPU seconds to $tmp/NAME.cpu, keeps stdout in
# $tmp/NAME.out. A nonzero exit is allowed (optimoo's --below exits 1 when
# a word is not below the cut-off); a crash or a missing result is caught
# by the value checks.
timed() {
    local name=$1
    shift
    (cd "$lists" && /usr/bin/time -f "%U %S" -o "$tmp/$name.time" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err") || true
    awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/$name.time" >>"$tmp/$name.cpu"
}

# median NAME: the median of NAME's CPU seconds.
median() {
    sort -g "$tmp/$1.cpu" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# json FIELD FILE: the FIELD of each JSON line of FILE.
json() {
    python3 -c 'import json,sys
for line in open(sys.argv[2]):
    line = line.strip()
    if line.startswith("{"):
        print(json.loads(line)[sys.argv[1]])' "$1" "$2"
}

fail() {
    echo "values differ: $*" >&2
    exit 1
}

cases=(salet sample cutoff)
[[ -z ${SKIP_HARD:-} ]] && cases=(salet hard sample cutoff)
[[ -n ${CASES:-} ]] && read -r -a cases <<<"$CASES"
for case in "${cases[@]}"; do
    n=$runs
    [[ $case == sample ]] && n=${SAMPLE_RUNS:-1}
    for ((r = 0; r < n; r++)); do
        case $case in
        salet)
            timed peer-salet "$peer" "${L[@]}" -w salet
            timed ours-salet "$optimoo" "${O[@]}" --first salet --json
            ;;
        hard)
            timed peer-hard "$peer" "${L[@]}" -H -w salet
            timed ours-hard "$optimoo" "${O[@]}" --hard --first salet --json
            ;;
        sample)
            # One process a word: the CPU of all 20 summed per run.
            : >"$tmp/peer-sample.run" && : >"$tmp/ours-sample.run"
            while read -r w; do
                timed peer-w "$peer" "${L[@]}" -w "$w"
                { grep -o 'Best first guess score = [0-9]*' "$tmp/peer-w.out" || echo "- missing"; } |
                    awk -v w="$w" '{ print w, $NF }' >>"$tmp/peer-sample.run"
                timed ours-w "$optimoo" "${O[@]}" --first "$w" --json
                echo "$w $(json total "$tmp/ours-w.out")" >>"$tmp/ours-sample.run"
            done <"$tmp/sample"
            awk '{ s += $1 } END { printf "%.3f\n", s }' "$tmp/peer-w.cpu" >>"$tmp/peer-sample.cpu"
            awk '{ s += $1 } END { printf "%.3f\n", s }' "$tmp/ours-w.cpu" >>"$tmp/ours-sample.cpu"
            rm -f "$tmp/peer-w.cpu" "$tmp/ours-w.cpu"
            cmp -s "$tmp/peer-sample.run" "$tmp/ours-sample.run" ||
                fail "sample: $(diff "$tmp/peer-sample.run" "$tmp/ours-sample.run" | head -5)"
            ;;
        cutoff)
            timed peer-cutoff "$peer" "${L[@]}" -s -b 7921 -t "$tmp/sample"
            timed ours-cutoff "$optimoo" "${O[@]}" --first "$sample" --below 7921 --json
            # Words below the cut-off, with their values: the same.
            { grep -o 'First guess [a-z]* = *[0-9]*' "$tmp/peer-cutoff.out" || true; } |
                awk '{ print $3, $NF }' >"$tmp/peer-below"
            paste -d' ' <(json first "$tmp/ours-cutoff.out") <(json exact "$tmp/ours-cutoff.out") \
                <(json total "$tmp/ours-cutoff.out") | awk '$2 == "True" { print $1, $3 }' >"$tmp/ours-below"
            [[ $(json first "$tmp/ours-cutoff.out" | wc -l) == 20 ]] || fail "cutoff: optimoo decided fewer than 20 words"
            [[ $(grep -c 'First guess' "$tmp/peer-cutoff.out") == 20 ]] || fail "cutoff: the peer decided fewer than 20 words"
            cmp -s "$tmp/peer-below" "$tmp/ours-below" || fail "cutoff: $(diff "$tmp/peer-below" "$tmp/ours-below")"
            ;;
        esac
    done
    case $case in
    salet | hard)
        peer_v=$(grep -o 'Best first guess score = [0-9]*' "$tmp/peer-$case.out" | awk '{ print $NF }')
        ours_v=$(json total "$tmp/ours-$case.out")
        [[ -n $peer_v && $peer_v == "$ours_v" ]] || fail "$case: peer '$peer_v', optimoo '$ours_v'"
        ;;
    esac
done

echo "CPU seconds, median of $runs runs (the sample: ${SAMPLE_RUNS:-1}), one thread each ($(date -u +%Y-%m-%d), $(nproc) cores):"
echo
echo "| case | Selby | optimoo | ratio |"
echo "|---|---|---|---|"
for case in "${cases[@]}"; do
    p=$(median "peer-$case")
    o=$(median "ours-$case")
    awk -v c="$case" -v p="$p" -v o="$o" 'BEGIN { printf "| %s | %.2f | %.2f | %.1fx |\n", c, p, o, p / o }'
done
