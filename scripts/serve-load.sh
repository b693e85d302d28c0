#!/usr/bin/env bash
# Load test of `optimoo serve` on loopback: N clients (curl in a loop) for
# S seconds, each asking /api/rank or /api/analyze on random histories of
# moo:4x10 and mm:4x6 (games the shipped trees play against random
# secrets, cut at a random move, half of them opened off the tree), then
# the errors, the latency (p50, p99, max) and the server's memory (RSS at
# start, after the load, and its peak).
#
# Usage: scripts/serve-load.sh [CLIENTS [SECONDS]]    (default 20 clients, 20 s)
#        OPTIMOO=target/release/optimoo MOO=target/release/moo BUDGET=2 \
#        MAX_SEARCHES=2 scripts/serve-load.sh 200 60
# Needs curl; run from the workspace's folder after `cargo build --release`.
# A 503 (busy: every search slot taken) is counted apart from errors: it is
# the bound working, the client asked too much at once.
set -euo pipefail
clients=${1:-20}
seconds=${2:-20}
optimoo=${OPTIMOO:-target/release/optimoo}
moo=${MOO:-target/release/moo}
budget=${BUDGET:-2}
max_searches=${MAX_SEARCHES:-$(nproc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/serve-load.XXXXXX")
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

# The feedback of GUESS against SECRET (moo and mm alike: B is the common
# symbols, each counted as often as in both, minus A).
feedback() {
    local g=$1 s=$2 a=0 common=0 i c gc sc
    for ((i = 0; i < ${#g}; i++)); do
        [[ ${g:i:1} == "${s:i:1}" ]] && a=$((a + 1))
    done
    for c in 0 1 2 3 4 5 6 7 8 9; do
        gc=${g//[^$c]/}
        sc=${s//[^$c]/}
        common=$((common + (${#gc} < ${#sc} ? ${#gc} : ${#sc})))
    done
    echo "${a}A$((common - a))B"
}

# A random code of GAME.
code() {
    local game=$1 out="" c
    while ((${#out} < 4)); do
        if [[ $game == mm:4x6 ]]; then
            out+=$((RANDOM % 6))
        else
            c=$((RANDOM % 10))
            [[ $out == *$c* ]] || out+=$c
        fi
    done
    echo "$out"
}

# 100 histories a game: the tree's game against a random secret, cut at a
# random move; every other one opened by a random guess (off the tree).
for game in moo:4x10 mm:4x6; do
    for ((n = 0; n < 100; n++)); do
        secret=$(code "$game")
        moves=()
        if ((n % 2)); then
            first=$(code "$game")
            moves+=("$first:$(feedback "$first" "$secret")")
        fi
        while read -r g f; do moves+=("$g:$f"); done < <("$moo" --game "$game" solve "$secret")
        cut=$((1 + RANDOM % ${#moves[@]}))
        echo "$game ${moves[*]:0:cut}" | tr ' ' ',' | sed 's/,/ /' >> "$work/histories"
    done
done

"$optimoo" serve --bind 127.0.0.1:0 --budget "$budget" --max-searches "$max_searches" \
    --connections $((clients + 8)) 2> "$work/serve.log" &
pid=$!
for _ in $(seq 50); do grep -q http:// "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
addr=$(grep -o 'http://[^/]*' "$work/serve.log")
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
rss_start=$(rss)
echo "server $addr (pid $pid), $clients clients for $seconds s, budget $budget s, $max_searches searches at once"

mapfile -t histories < "$work/histories"
end=$((SECONDS + seconds))
client() {
    local out=$work/client-$1 h game history endpoint
    while ((SECONDS < end)); do
        h=${histories[RANDOM % ${#histories[@]}]}
        game=${h%% *}
        history=${h#* }
        if ((RANDOM % 2)); then endpoint=rank; else endpoint=analyze; fi
        curl -s -o /dev/null -w "%{http_code} %{time_total} $endpoint $game $history\n" --max-time 60 \
            "$addr/api/$endpoint?game=$game&history=$history" >> "$out" || echo "curl-exit-$? 0 $endpoint $game $history" >> "$out"
    done
}
for ((c = 0; c < clients; c++)); do client "$c" & done
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
rss_end=$(rss)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
cat "$work"/client-* > "$work/all"
total=$(wc -l < "$work/all")
ok=$(awk '$1 == 200' "$work/all" | wc -l)
busy=$(awk '$1 == 503' "$work/all" | wc -l)
errors=$((total - ok - busy))
echo "requests $total: $ok answered, $busy busy (503), $errors errors"
awk '$1 != 200 && $1 != 503 {print "  status " $1 " (" $3 ")"}' "$work/all" | sort | uniq -c
awk '$1 != 200 && $1 != 503' "$work/all" | head -3
awk '$1 == 200 {print $2}' "$work/all" | sort -n > "$work/lat"
if [[ -s $work/lat ]]; then
    n=$(wc -l < "$work/lat")
    p50=$(sed -n "$(((n + 1) / 2))p" "$work/lat")
    p99=$(sed -n "$(((n * 99 + 99) / 100))p" "$work/lat")
    max=$(tail -1 "$work/lat")
    echo "latency of answered requests: p50 ${p50} s, p99 ${p99} s, max ${max} s"
fi
echo "server memory: RSS ${rss_start} kB at start, ${rss_end} kB after, peak ${peak} kB"
# Anything the server said besides its first line (a panic would be here).
tail -n +2 "$work/serve.log"
[[ $errors -eq 0 ]]
