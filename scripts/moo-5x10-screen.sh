#!/usr/bin/env bash
# Screens the third guesses of one class of moo:5x10's open unit for a
# cheaper subtree than data/moo-5x10-grafted.tree's (the upper bound's side
# of docs/results.md, "Session 57"). The class is the secrets that answer
# 0A2B to 01234 and ANSWER to 12567, the tree's second guess there; its
# subtree in the tree is the best third guess of the screens of sessions
# 30 and 31, and three optimal third guesses found since ranked 4th to
# 88th by expected class size and down to 1,303rd by the one-step bound
# (docs/results.md), so the guesses are tried in order of expected size.
#
# Each guess G is decided by `optimoo solve --secrets CLASS --first G
# --below C`, C the tree's value for the class: a proven lower bound at
# least C (the guess cannot improve the tree), or the exact total after G
# when it is below C, a better subtree: `solve --first G -o FILE` then
# writes it, and scripts/moo-5x10-subtrees.sh grafts it (its `classes`).
# The guesses go 25 to a solve (their memo shared), and each answer is
# appended to data/runs/moo-5x10-screen/ANSWER.jsonl as `solve --json`
# prints it, so a stopped screen goes on where it was: guesses already in
# the file are skipped. The lower bounds stay true whatever C is later.
#
# Usage: scripts/moo-5x10-screen.sh ANSWER [COUNT]   # COUNT: first guesses by rank (100)
#        BELOW=7600 scripts/moo-5x10-screen.sh 0A2B 400
#        scripts/moo-5x10-screen.sh 0A2B 400 & scripts/moo-5x10-screen.sh 0A3B 400  # one core each
#        OPTIMOO=path/to/optimoo MOO=path/to/moo scripts/moo-5x10-screen.sh 0A3B
#
# Time: about 6 to 8 s a guess on a quiet core of the 2-core Xeon (1,776
# and 1,660 secrets), 10 to 15 s beside other work; memory about 1 GiB (the
# 872 MiB answer table).
set -euo pipefail
optimoo=${OPTIMOO:+$(realpath "$OPTIMOO")}
moo=${MOO:+$(realpath "$MOO")}
cd "$(dirname "$0")/.."
if [[ -z ${1:-} ]]; then
    echo "usage: $0 ANSWER [COUNT]   (ANSWER: 12567's answer after 01234:0A2B, e.g. 0A2B)" >&2
    exit 2
fi
answer=$1
count=${2:-100}
if [[ ! $count =~ ^[0-9]+$ ]]; then
    echo "COUNT must be a whole number of guesses, not '$count'" >&2
    exit 2
fi
if [[ -z $optimoo || -z $moo ]]; then
    cargo build --release --locked --bin optimoo --bin moo
    optimoo=${optimoo:-target/release/optimoo}
    moo=${moo:-target/release/moo}
fi
tree=data/moo-5x10-grafted.tree
out=data/runs/moo-5x10-screen
work=${WORK:-target/moo-5x10-screen}
mkdir -p "$out" "$work"
results=$out/$answer.jsonl
touch "$results"

list=$work/$answer.txt
"$optimoo" partition --game moo:5x10 --guess 12567 01234:0A2B "12567:$answer" \
    --list "$list" >/dev/null
# Every third guess up to symmetry, with the tree's own marked `tree`.
"$moo" rank --tree "$tree" --top 0 --json --budget 0 01234:0A2B "12567:$answer" \
    >"$work/$answer.rank.jsonl"
line=$(python3 - "$work/$answer.rank.jsonl" "$results" "$count" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
done = {json.loads(l)["first"] for l in open(sys.argv[2]) if l.strip()}
tree = [r for r in rows if r["source"] == "tree"]
if len(tree) != 1 or not tree[0]["exact"]:
    sys.exit("the tree's own third guess is not ranked exact")
rows.sort(key=lambda r: (r["expected_size"], r["guess"]))
todo = [r["guess"] for r in rows[: int(sys.argv[3])] if r["source"] != "tree"]
print(tree[0]["total"], ",".join(g for g in todo if g not in done) or "-")
PY
)
read -r below order <<<"$line"
below=${BELOW:-$below}
echo "class 01234:0A2B 12567:$answer: $(wc -l <"$list") secrets, $(grep -c . "$results" || true) guesses screened so far, cut-off $below"
[[ $order == - ]] && { echo "nothing left among the first $count"; exit 0; }
IFS=, read -r -a guesses <<<"$order"
for ((i = 0; i < ${#guesses[@]}; i += 25)); do
    batch=$(IFS=,; echo "${guesses[*]:i:25}")
    # Exit 1 when no guess is below the cut-off (the usual case); any
    # other failure stops the screen.
    code=0
    "$optimoo" solve --game moo:5x10 --secrets "$list" --first "$batch" --below "$below" \
        --threads "${THREADS:-1}" --memo-mib 1024 --json 2>"$work/$answer.batch.err" >"$work/$answer.batch.jsonl" ||
        code=$?
    if ((code > 1)); then
        cat "$work/$answer.batch.err" >&2
        exit "$code"
    fi
    cat "$work/$answer.batch.jsonl" >>"$results"
    python3 - "$work/$answer.batch.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["exact"]:
        print(f"BETTER: {r['first']} costs {r['total']} (below {r['below']})")
PY
    n=$((i + 25 < ${#guesses[@]} ? i + 25 : ${#guesses[@]}))
    echo "$n of ${#guesses[@]} screened ($(date -u +%T))"
done
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
better = sorted((r["total"], r["first"]) for r in rows if r["exact"])
print(f"{len(rows)} guesses screened; below the cut-off: {better[:5] or 'none'}")
PY
