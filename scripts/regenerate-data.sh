#!/usr/bin/env bash
# Regenerates the optimal decision trees in data/ with `optimoo solve` and
# verifies them. A long run (moo:4x10 is the slow one; see docs/results.md for
# the solve times). The files are committed; CI only verifies them.
#
# Usage: scripts/regenerate-data.sh            # all of them
#        scripts/regenerate-data.sh mm:4x6     # only the files of one game
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --bin optimoo
optimoo=target/release/optimoo
only=${1:-}

# game, cap ("" for none): data/<game>[-cap<N>].tree
solve() {
    local game=$1 cap=$2
    [[ -n $only && $only != "$game" ]] && return 0
    local out="data/${game/:/-}${cap:+-cap$cap}.tree"
    echo "== $game ${cap:+cap $cap} -> $out"
    if [[ -n $cap ]]; then
        "$optimoo" solve --game "$game" --cap "$cap" -o "$out"
    else
        "$optimoo" solve --game "$game" -o "$out"
    fi
    "$optimoo" verify "$out"
}

# game, objective: data/<game>-<objective>.tree (the objective finds its cap)
solve_objective() {
    local game=$1 objective=$2
    [[ -n $only && $only != "$game" ]] && return 0
    local out="data/${game/:/-}-$objective.tree"
    echo "== $game --objective $objective -> $out"
    "$optimoo" solve --game "$game" --objective "$objective" -o "$out"
    "$optimoo" verify "$out"
}

solve moo:4x10 7
solve moo:3x10 ""
solve mm:4x6 ""
solve mm:4x6 5
solve_objective mm:4x6 crush
solve_objective moo:4x10 crush
solve moo:5x6 ""
solve moo:5x7 ""
solve moo:5x8 ""      # about 5 minutes of one core

# The word list's tree (data/words4.txt, written for the project).
if [[ -z $only || $only == words4 ]]; then
    echo "== data/words4.txt -> data/words4.tree"
    "$optimoo" solve --game moo:4x10 --secrets data/words4.txt --alphabet aeilnoprst \
        -o data/words4.tree
    "$optimoo" verify data/words4.tree
fi

# Wordle from SALET (--first: optimal after it, an upper bound of the
# game's optimum whose every subtree after SALET is proved exact; about
# half a second each): data/wordle-salet.tree 7920, data/wordle-nyt-salet.tree 7897.
for preset in wordle wordle-nyt; do
    [[ -n $only && $only != "$preset" ]] && continue
    echo "== --game $preset --first salet -> data/$preset-salet.tree"
    "$optimoo" solve --game "$preset" --first salet -o "data/$preset-salet.tree"
    "$optimoo" verify "data/$preset-salet.tree"
done

ls -l data/*.tree
