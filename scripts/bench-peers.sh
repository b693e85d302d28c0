#!/usr/bin/env bash
# Times `optimoo solve` against the 2012 exact solver of fancidev/mastermind
# (commit 2b52289), built by its build.sh, on the same machine, game by game.
#
# Usage: scripts/bench-peers.sh PEER        # PEER: path of the peer's binary
#        FULL=1 scripts/bench-peers.sh PEER # also mm:4x8 (minutes)
#        THREADS=1 scripts/bench-peers.sh PEER  # optimoo's worker threads (default 2)
#
# The peer runs single threaded. Runs alternate peer / optimoo; a program
# whose first run takes under 10 s is run 3 times and its best wall time
# kept, otherwise once. Both optimal totals must agree (the peer's from the
# summary line of -S). Wall and CPU times from GNU time (Debian package
# `time`). moo:4x10 is solved by optimoo within cap 7 (its default), by the
# peer uncapped (its optimal strategy ignores caps; the optimum needs 7
# guesses either way). Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."

peer=${1:-}
if [[ -z $peer || ! -x $peer ]]; then
    {
        echo "usage: $0 PEER   (PEER: the peer solver's binary)"
        if [[ -n $peer ]]; then
            echo "no executable at '$peer'"
        fi
        echo "The peer is the 2012 solver of fancidev/mastermind (commit 2b52289),"
        echo "built by its build.sh; with PEER_SRC set to its source directory:"
        echo "    \"\$PEER_SRC/build.sh\" /tmp/mmstrat && $0 /tmp/mmstrat"
        if [[ -n ${PEER_SRC:-} ]]; then
            echo "(here: \"$PEER_SRC/build.sh\" /tmp/mmstrat)"
        fi
    } >&2
    exit 2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "needs GNU time at /usr/bin/time (Debian: apt-get install -y time)" >&2
    exit 2
fi

threads=${THREADS:-2}
cargo build --release --locked --quiet --bin optimoo
optimoo=target/release/optimoo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: runs once; sets wall, cpu (user + sys), out (stdout).
run() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || {
        echo "failed: $*" >&2
        cat "$tmp/$name.err" >&2
        exit 1
    }
    read -r wall user sys <"$tmp/$name.time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    out=$(cat "$tmp/$name.out")
}

# less A B: the smaller number.
less() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? a : b }'; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), optimoo threads: $threads, $(nproc) cores"
echo
echo "| game | optimal total | peer wall s | optimoo wall s | peer / optimoo | optimoo cores used |"
echo "|---|---|---|---|---|---|"

row() {
    local game=$1 rule=$2
    shift 2
    local peer_best="" opt_best="" opt_use="" peer_total="" opt_total="" i
    for i in 1 2 3; do
        if [[ $i == 1 || $(less "$peer_best" 10) != 10 ]]; then
            run peer "$peer" -r "$rule" -s optimal -S
            peer_total=$(awk '$1 == "optimal" { print $2 }' <<<"$out")
            if [[ -z $peer_best || $(less "$wall" "$peer_best") == "$wall" ]]; then
                peer_best=$wall
            fi
        fi
        if [[ $i == 1 || $(less "$opt_best" 10) != 10 ]]; then
            run optimoo "$optimoo" solve --threads "$threads" --json "$@"
            opt_total=$(sed -n 's/.*"total":\([0-9]*\).*/\1/p' <<<"$out" | tail -n 1)
            if [[ -z $opt_best || $(less "$wall" "$opt_best") == "$wall" ]]; then
                opt_best=$wall
                opt_use=$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", (w > 0) ? c / w : 0 }')
            fi
        fi
    done
    if [[ -z $peer_total || $peer_total != "$opt_total" ]]; then
        echo "$game: the totals differ (peer '$peer_total', optimoo '$opt_total')" >&2
        exit 1
    fi
    local ratio
    ratio=$(awk -v p="$peer_best" -v o="$opt_best" 'BEGIN { printf "%.1f", (o > 0) ? p / o : 0 }')
    echo "| $game | $opt_total | $peer_best | $opt_best | $ratio | $opt_use |"
}

row mm:4x6 mm --game mm:4x6
row moo:4x8 p4c8n --game moo:4x8
row mm:5x5 p5c5r --game mm:5x5
row mm:4x7 p4c7r --game mm:4x7
row "moo:4x10 cap 7" bc
if [[ -n ${FULL:-} ]]; then
    row mm:4x8 p4c8r --game mm:4x8
fi
