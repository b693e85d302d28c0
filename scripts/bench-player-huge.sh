#!/usr/bin/env bash
# The player on moo:10x10: `moo --game moo:10x10 next HISTORY` as a fresh
# process for every move of whole games (the strategy's own moves against
# SECRETS seeded secrets, default 10), then for a few fixed histories (the
# largest sets: after one answer, from the opening book; after three, the
# largest set the player computes on its own path; then histories off
# its path, whose guesses the player did not make, the last one a guess
# repeated, which leaves 1,334,961 codes), and OFFPATH random histories
# off the path. Prints the median and the largest wall time of a move and
# the largest peak memory. Needs GNU time
# (/usr/bin/time). Figures: docs/benchmarks.md.
#
#   scripts/bench-player-huge.sh          # 10 games
#   SECRETS=30 scripts/bench-player-huge.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin moo
moo=target/release/moo
times=$(mktemp)
trap 'rm -f "$times"' EXIT

# Bulls and cows of guess $1 against secret $2 (ten distinct digits).
answer() {
  local g=$1 s=$2 bulls=0 i
  for ((i = 0; i < 10; i++)); do
    [[ ${g:i:1} == "${s:i:1}" ]] && bulls=$((bulls + 1))
  done
  echo "${bulls}A$((10 - bulls))B"
}

# One move: the wall time and peak memory appended to $times; the guess
# printed.
move() {
  local out
  out=$( { /usr/bin/time -f "%e %M" "$moo" --game moo:10x10 next "$@" 2>>"$times"; } )
  echo "${out%% *}"
}

# A secret from seed $1: the digits 0-9 shuffled by a small LCG.
secret() {
  local x=$1 digits=(0 1 2 3 4 5 6 7 8 9) i j t out=""
  for ((i = 9; i > 0; i--)); do
    x=$(((x * 1103515245 + 12345) % 2147483648))
    j=$((x % (i + 1)))
    t=${digits[i]}; digits[i]=${digits[j]}; digits[j]=$t
  done
  for i in "${digits[@]}"; do out+=$i; done
  echo "$out"
}

"$moo" --game moo:10x10 next >/dev/null # warm the page cache
moves=0
for ((n = 1; n <= ${SECRETS:-10}; n++)); do
  s=$(secret "$n")
  history=()
  while :; do
    g=$(move "${history[@]+"${history[@]}"}")
    a=$(answer "$g" "$s")
    history+=("$g:$a")
    moves=$((moves + 1))
    [[ $a == 10A0B ]] && break
  done
  echo "secret $s: ${#history[@]} guesses"
done
sort -n "$times" | awk -v m="$moves" '
  { t[NR] = $1; if ($2 > mem) mem = $2 }
  END { printf "%d moves of %d games: median %.3f s, largest %.3f s, peak memory %d KB\n",
        NR, ENVIRON["SECRETS"] ? ENVIRON["SECRETS"] : 10, t[int((NR + 1) / 2)], t[NR], mem }'

# Histories off the strategy's path: OFFPATH (default 30) histories of 1
# to 3 random guesses answered by a random secret, all seeded.
: >"$times"
for ((n = 1; n <= ${OFFPATH:-30}; n++)); do
  s=$(secret $((1000 + n)))
  history=()
  for ((j = 0; j <= n % 3; j++)); do
    g=$(secret $((5000 + 7 * n + j)))
    history+=("$g:$(answer "$g" "$s")")
  done
  move "${history[@]}" >/dev/null
done
sort -n "$times" | awk '
  { t[NR] = $1; if ($2 > mem) mem = $2 }
  END { printf "%d histories off the path: median %.3f s, largest %.3f s, peak memory %d KB\n",
        NR, t[int((NR + 1) / 2)], t[NR], mem }'

# Fixed histories: the median of 7 fresh processes each.
for h in "0123456789:0A10B" "0123456789:1A9B" "9876543210:1A9B" \
  "0123456789:1A9B 7498351062:1A9B" \
  "0123456789:1A9B 7498351062:1A9B 5693418270:0A10B" \
  "0123456789:1A9B 7498351062:2A8B" "0123456789:1A9B 1023456789:1A9B" \
  "0123456789:0A10B 0123456789:0A10B"; do
  : >"$times"
  # shellcheck disable=SC2086
  for _ in 1 2 3 4 5 6 7; do move $h >/dev/null; done
  sort -n "$times" | awk -v h="$h" 'NR == 4 { printf "after [%s]: median %s s, %s KB\n", h, $1, $2 }'
done
