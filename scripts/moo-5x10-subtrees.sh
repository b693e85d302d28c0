#!/usr/bin/env bash
# Lowers the upper bound of moo:5x10 inside its open unit (01234 answered
# 0A2B, 7,800 secrets; docs/results.md, "Session 30", "Session 31" and
# "Session 55"): the tree's second guess there, 12567, splits the unit into
# 18 classes, and this replaces the subtrees of five of them with better
# ones, each solved on its own:
#
# - a class whose optimum `optimoo work`'s chase has proved (its progress
#   file: data/runs/moo-5x10/progress/2.json, stage `e`) is solved again
#   with `solve --secrets LIST --below C`, C one above that optimum: the
#   search under that cut-off from the start, which proves the optimum
#   again and writes its tree;
# - a class too large for that gets the best third guess a screen found
#   (`solve --secrets LIST --first G1,G2,... --below C` over a few hundred
#   guesses ranked by their partitions: `moo rank --top 0 --json` gives
#   each guess's bound, entropy and expected size): `solve --first G`, the
#   optimal tree after it.
#
# Each class's list comes from `optimoo partition --list`. Then `optimoo
# merge --fill-from data/moo-5x10-improved.tree --graft ...` grafts the
# plan's exact units into the improved tree (as without --graft) and puts
# the class trees in where the tree leaves exactly those lists (only where
# cheaper), replays the whole tree and records the plan's lower bound and
# what each file proves; `optimoo verify` checks the result. Solves are
# deterministic, so the file written is the committed one byte for byte
# (while the plan's lower bound in its header has not moved).
#
# Usage: scripts/moo-5x10-subtrees.sh        # rewrites data/moo-5x10-grafted.tree
#        OUT=better.tree scripts/moo-5x10-subtrees.sh
#        THREADS=1 WORK=/tmp/subtrees scripts/moo-5x10-subtrees.sh
#        EXTRA="0A3B first G" OUT=better.tree scripts/moo-5x10-subtrees.sh
#        OPTIMOO=path/to/optimoo scripts/moo-5x10-subtrees.sh   # no build
#
# Memory: about 1 GiB per solve (moo:5x10's 872 MiB answer table). Time:
# see docs/results.md (the two `--below` classes are the long ones).
set -euo pipefail
# OPTIMOO is a path from the caller's folder: made absolute before the cd.
optimoo=${OPTIMOO:+$(realpath "$OPTIMOO")}
cd "$(dirname "$0")/.."
if [[ -z $optimoo ]]; then
    cargo build --release --locked --bin optimoo
    optimoo=target/release/optimoo
fi
work=${WORK:-target/moo-5x10-subtrees}
out=${OUT:-data/moo-5x10-grafted.tree}
threads=${THREADS:-2}
mkdir -p "$work"

# answer to 12567 (after 01234:0A2B), then how: `below C` or `first G`.
classes=(
    "1A1B below 3432" # proved 3431 by work's chase
    "0A3B first 56423" # 7011, the optimum work's chase proved (session 67); the guess found in session 68 (docs/results.md; the tree had 7028, then 7019 after 68452)
    "0A2B first 60475" # 7606: the best of 146 screened (the tree had 7612)
    "1A2B first 12058" # 4792, the optimum work's chase proved: found by the screen of session 31 (the tree had 4816)
    "0A1B below 2271" # proved 2270 by work's chase (the tree had 2271); third guess 85349, session 55
)
# EXTRA adds another class ("ANSWER below C" / "ANSWER first G"); the file
# then differs from the committed one.
if [[ -n ${EXTRA:-} ]]; then
    classes+=("$EXTRA")
fi
grafts=()
for c in "${classes[@]}"; do
    read -r answer how arg <<<"$c"
    list="$work/$answer.txt"
    tree="$work/$answer.tree"
    echo "== 01234:0A2B 12567:$answer ($how $arg) -> $tree"
    "$optimoo" partition --game moo:5x10 --guess 12567 01234:0A2B "12567:$answer" \
        --list "$list" >/dev/null
    start=$SECONDS
    "$optimoo" solve --game moo:5x10 --secrets "$list" --threads "$threads" \
        "--$how" "$arg" -o "$tree" | grep -E '^(total|first) '
    echo "   $((SECONDS - start)) s"
    grafts+=(--graft "$tree")
done
"$optimoo" merge data/runs/moo-5x10 --fill-from data/moo-5x10-improved.tree \
    "${grafts[@]}" -o "$out"
"$optimoo" verify "$out"
