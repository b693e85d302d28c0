#!/usr/bin/env python3
"""Are two large classes of a stopped unit the same set up to symmetry?

  isomorphic-classes.py PROGRESS --history 01234:0A2B [--symbols 10] [--min 700]

PROGRESS is a unit's progress file (DIR/progress/I.json of `optimoo work
--time-limit`); its second guesses are read from it, HISTORY is the unit's
class (the first guess and its answer). For a moo game (distinct symbols),
every class of at least MIN secrets of every second guess is compared with
every other of the same size: equal as sets, or equal after some position
permutation and symbol relabelling (the game's whole symmetry group, not
only the history's stabilizer). The search keys its memo on the raw set
(docs/search.md, "Symmetry": canonical keys are off), so two isomorphic
classes would be searched twice; this says whether any are.

The feedback is computed here from the rules (bulls and cows), not read
from optimoo: the check is independent of the engine.
"""

import argparse
import collections
import itertools
import json
import sys


def feedback(g, s):
    bulls = sum(1 for a, b in zip(g, s) if a == b)
    return bulls, len(set(g) & set(s)) - bulls


def parse(word, k):
    if len(word) != k or not word.isdigit():
        sys.exit(f"bad code {word!r}: {k} digits expected")
    return tuple(int(c) for c in word)


def signature(codes, k):
    """Per symbol, how often it stands at each position."""
    sig = collections.defaultdict(lambda: [0] * k)
    for c in codes:
        for i, d in enumerate(c):
            sig[d][i] += 1
    return sig


def isomorphism(a, b, k, n):
    """A (position permutation, symbol map) taking set a onto set b, or None."""
    sig_b = signature(b, k)
    by_sig = collections.defaultdict(list)
    for d in range(n):
        by_sig[tuple(sig_b[d])].append(d)
    for pi in itertools.permutations(range(k)):
        moved = [tuple(c[pi[i]] for i in range(k)) for c in a]
        sig_a = signature(moved, k)
        options = [by_sig.get(tuple(sig_a[d]), []) for d in range(n)]
        if any(not o for o in options):
            continue
        found = extend(0, {}, set(), options, moved, b, n)
        if found is not None:
            return pi, found
    return None


def extend(d, mapping, used, options, moved, b, n):
    if d == n:
        ok = all(tuple(mapping[x] for x in c) in b for c in moved)
        return dict(mapping) if ok else None
    for e in options[d]:
        if e in used:
            continue
        mapping[d] = e
        used.add(e)
        found = extend(d + 1, mapping, used, options, moved, b, n)
        if found is not None:
            return found
        used.discard(e)
        del mapping[d]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("progress")
    ap.add_argument("--history", required=True, help="GUESS:xAyB, the unit's class")
    ap.add_argument("--symbols", type=int, default=10)
    ap.add_argument("--min", type=int, default=700, dest="min_size")
    args = ap.parse_args()

    try:
        with open(args.progress) as f:
            progress = json.load(f)
        progress["guesses"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"{args.progress}: not a unit's progress file ({e})")
    first, _, answer = args.history.partition(":")
    k = len(first)
    root = parse(first, k)
    if len(answer) != 4 or not (answer[0] + answer[2]).isdigit() or answer[1::2] != "AB":
        sys.exit(f"bad history {args.history!r}: GUESS:xAyB expected, e.g. 01234:0A2B")
    want = (int(answer[0]), int(answer[2]))
    codes = itertools.permutations(range(args.symbols), k)
    unit = [s for s in codes if feedback(root, s) == want]

    classes = {}
    for entry in progress["guesses"]:
        guess = parse(entry["guess"], k)
        parts = collections.defaultdict(list)
        for s in unit:
            parts[feedback(guess, s)].append(s)
        for (bulls, cows), secrets in parts.items():
            if len(secrets) >= args.min_size:
                classes[(entry["guess"], f"{bulls}A{cows}B")] = frozenset(secrets)

    by_size = collections.defaultdict(list)
    for key, secrets in sorted(classes.items()):
        by_size[len(secrets)].append(key)
    pairs = found = 0
    for size, keys in sorted(by_size.items()):
        for i, x in enumerate(keys):
            for y in keys[i + 1:]:
                pairs += 1
                if classes[x] == classes[y]:
                    print(f"identical: {size} secrets, {x} and {y}")
                    found += 1
                    continue
                iso = isomorphism(classes[x], classes[y], k, args.symbols)
                if iso is not None:
                    print(f"isomorphic: {size} secrets, {x} and {y}, {iso}")
                    found += 1
    print(
        f"{len(unit)} secrets in the unit, {len(progress['guesses'])} second guesses, "
        f"{len(classes)} classes of at least {args.min_size} secrets, "
        f"{pairs} pairs of equal size compared, {found} isomorphic"
    )


if __name__ == "__main__":
    main()
