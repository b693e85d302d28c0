#!/usr/bin/env bash
# Load test of `optimoo serve` on loopback: N clients (threads, polite) for
# S seconds, each asking /api/rank or /api/analyze on random histories of
# moo:4x10 and mm:4x6 (games the shipped trees play against random
# secrets, cut at a random move, half of them opened off the tree), then
# the errors, the latency (p50, p99, max), the answers whose search ran
# over --budget (the server's own Server-Timing header; a search stops at
# its budget and gives proven bounds, so none should, beyond a tolerance
# of TOLERANCE seconds, default 0.5, for the rows computed before the
# search and the scheduling of a loaded machine) and the server's memory,
# sampled every second (flat: the last third's peak against the first's).
# Meanwhile abusive clients, each refused without harm to the others: a
# slow client sending its request one byte a second, a 10,000-move
# history, an oversized body, a POST of malformed JSON.
#
# Usage: scripts/serve-load.sh [CLIENTS [SECONDS]]    (default 20 clients, 20 s)
#        OPTIMOO=target/release/optimoo MOO=target/release/moo BUDGET=2 \
#        MAX_SEARCHES=2 scripts/serve-load.sh 200 60
# Needs python3 (the clients: scripts/serve-clients.py, threads in one
# process) and curl (the abusive clients); run from the workspace's folder after `cargo build --release`.
# A 503 (busy: every search slot taken) is counted apart from errors: it is
# the bound working, the client asked too much at once; the client then
# waits the second the server's Retry-After asks.
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

end=$((SECONDS + seconds))
# The server's RSS every second, in kB.
(while ((SECONDS < end)); do rss >> "$work/rss" || true; sleep 1; done) &
# The abusive clients, each once a few seconds into the load; each writes
# "name expected-status got-status".
abuse() {
    sleep 3
    local long
    long=$(printf '0123:0A1B,%.0s' $(seq 10000))
    echo "10000-moves 4xx $(curl -s -o /dev/null -w '%{http_code}' --max-time 30 \
        "$addr/api/rank?history=${long%,}")" >> "$work/abuse"
    echo "oversized-body 4xx $(head -c 2000000 /dev/zero | tr '\0' x | curl -s -o /dev/null \
        -w '%{http_code}' --max-time 30 -X POST --data-binary @- "$addr/api/rank")" >> "$work/abuse"
    echo "malformed-json 4xx $(curl -s -o /dev/null -w '%{http_code}' --max-time 30 -X POST \
        -H 'Content-Type: application/json' --data '{"history": [0123:' "$addr/api/analyze")" >> "$work/abuse"
}
slow() {
    # One byte a second on a raw connection; the server closes it at its
    # head deadline (5 s) with a 408, or at once.
    sleep 2
    trap '' PIPE
    local host=${addr#http://} req="GET /api/rank?history=0123:0A1B HTTP/1.1"$'\r\n\r\n' got=closed
    exec 3<>"/dev/tcp/${host%:*}/${host#*:}" || { echo "slow-client 408 connect-failed" >> "$work/abuse"; return; }
    local i
    for ((i = 0; i < ${#req}; i++)); do
        printf '%s' "${req:i:1}" >&3 2>/dev/null || break
        sleep 1
    done
    got=$(timeout 5 head -c 12 <&3 2>/dev/null | awk '{print $2}')
    exec 3>&-
    echo "slow-client 408 ${got:-closed}" >> "$work/abuse"
}
abuse &
slow &
python3 "$(dirname "$0")/serve-clients.py" "$addr" "$work/histories" "$clients" "$seconds" \
    "${SEED:-1}" > "$work/all"
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null || true
rss_end=$(rss)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
total=$(wc -l < "$work/all")
ok=$(awk '$1 == 200' "$work/all" | wc -l)
busy=$(awk '$1 == 503' "$work/all" | wc -l)
errors=$((total - ok - busy))
echo "requests $total: $ok answered, $busy busy (503), $errors errors"
awk '$1 != 200 && $1 != 503 {print "  status " $1 " (" $4 ")"}' "$work/all" | sort | uniq -c
awk '$1 != 200 && $1 != 503' "$work/all" | head -3
awk '$1 == 200 {print $2}' "$work/all" | sort -n > "$work/lat"
if [[ -s $work/lat ]]; then
    n=$(wc -l < "$work/lat")
    p50=$(sed -n "$(((n + 1) / 2))p" "$work/lat")
    p99=$(sed -n "$(((n * 99 + 99) / 100))p" "$work/lat")
    max=$(tail -1 "$work/lat")
    echo "latency of answered requests: p50 ${p50} s, p99 ${p99} s, max ${max} s"
fi
tolerance=${TOLERANCE:-0.5}
over=$(awk -v b="$budget" -v t="$tolerance" '$1 == 200 {split($3, p, "dur="); if (p[2] / 1000 > b + t) n++} END {print n + 0}' "$work/all")
slowest=$(awk '$1 == 200 {split($3, p, "dur="); if (p[2] > m) m = p[2]} END {printf "%.2f", m / 1000}' "$work/all")
echo "searches over the budget ($budget s + $tolerance s): $over (slowest search $slowest s)"
awk '$1 == 200 {split($3, p, "dur="); print p[2] / 1000, $4, $5, $6, $7, $8, $9, $10}' "$work/all" |
    sort -rn | sed -n 1,3p | sed 's/^/  slowest: /'
echo "server memory: RSS ${rss_start} kB at start, ${rss_end} kB after, peak ${peak} kB"
if [[ -s $work/rss ]]; then
    n=$(wc -l < "$work/rss")
    third=$(((n + 2) / 3))
    first=$(head -n "$third" "$work/rss" | sort -n | tail -1)
    last=$(tail -n "$third" "$work/rss" | sort -n | tail -1)
    echo "RSS sampled $n times: peak of the first third ${first} kB, of the last third ${last} kB"
    echo "RSS over time (kB, every 5 s): $(awk 'NR % 5 == 1' "$work/rss" | tr '\n' ' ')"
fi
abused=0
while read -r name want got; do
    verdict=refused
    case $want in
        4xx) [[ $got == 4?? ]] || verdict=NOT-REFUSED ;;
        408) [[ $got == 408 || $got == closed || $got == 4?? ]] || verdict=NOT-REFUSED ;;
    esac
    [[ $verdict == refused ]] || abused=$((abused + 1))
    echo "abusive client $name: status $got, $verdict"
done < <(sort "$work/abuse" 2>/dev/null)
# Anything the server said besides its first line (a panic would be here).
tail -n +2 "$work/serve.log"
[[ $errors -eq 0 && $over -eq 0 && $abused -eq 0 ]]
