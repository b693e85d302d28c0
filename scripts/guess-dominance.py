#!/usr/bin/env python3
"""How many of a node's best guesses another guess makes needless?

  guess-dominance.py LIST --history 01234,12567,60475 [--symbols 10] [--top 2000]

LIST is the set of secrets at a node, one code a line (`optimoo partition
HISTORY --list LIST`); --history gives the guesses played to reach it
(their answers do not matter here: the symmetry the search uses is the
stabilizer of the guesses). For a moo game (distinct symbols):

1. The guesses the search would try: one of each orbit of the history's
   stabilizer, with the symbols no secret holds taken as interchangeable
   (docs/search.md, "Symmetry").
2. Of those, the TOP that split the set into the most classes (a
   candidate counted one more), in that order: a proxy for the guesses a
   node evaluates first, those the one-step bound ranks best.
3. Among them, each guess that an earlier one makes needless: the later
   is no candidate or the earlier is one too, and
   - *same partition*: the two split the set into the same classes (their
     answers named differently); the search evaluates both (Ville 2013's
     guess equivalence, not in the engine);
   - *strictly refined*: the earlier guess's classes are each inside one
     of the later's.
   Either way cost(earlier) <= cost(later): a subset costs no more than
   its set, so a split costs no more than the class it splits; with both
   candidates, the later's winning secret is a class of one of the
   earlier's, paid for by the earlier's own win inside one of the later's
   classes.

The feedback is computed here from the rules (bulls and cows), not read
from optimoo: the count is independent of the engine.
"""

import argparse
import itertools
import operator
import sys
import time


def feedback(g, gmask, s, smask):
    bulls = sum(1 for a, b in zip(g, s) if a == b)
    return bulls * 8 + bin(gmask & smask).count("1") - bulls


def stabilizer(history, k, symbols):
    """The (position map, symbol map) pairs that fix every guess of the
    history: an image c' of c has c'[P[i]] = q[c[i]]."""
    out = []
    for perm in itertools.permutations(range(k)):
        q = {}
        fits = True
        for g in history:
            for i in range(k):
                a, b = g[i], g[perm[i]]
                if q.get(a, b) != b:
                    fits = False
                q[a] = b
        if not fits or len(set(q.values())) != len(q):
            continue
        free = [d for d in range(symbols) if d not in q]
        for rest in itertools.permutations(free):
            m = dict(q)
            m.update(zip(free, rest))
            out.append((perm, m))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("list")
    ap.add_argument("--history", required=True, help="the guesses, comma-separated")
    ap.add_argument("--symbols", type=int, default=10)
    ap.add_argument("--top", type=int, default=2000)
    a = ap.parse_args()
    started = time.time()
    def codes(words, where):
        """Codes of distinct digits below --symbols, all of one length."""
        out = [tuple(int(c) for c in w) for w in words if w.isdigit()]
        bad = [w for w in words if not w.isdigit()]
        if bad or not out:
            sys.exit(f"{where}: not codes of digits ({bad[:3] or 'none given'})")
        for c in out:
            if len(c) != len(out[0]) or len(set(c)) != len(c) or max(c) >= a.symbols:
                sys.exit(
                    f"{where}: {''.join(map(str, c))} is not a moo code of {len(out[0])} "
                    f"distinct symbols below {a.symbols}"
                )
        return out

    try:
        with open(a.list) as f:
            words = [l.strip() for l in f if l.strip()]
    except OSError as e:
        sys.exit(f"{a.list}: cannot read ({e.strerror})")
    secrets = codes(words, a.list)
    k = len(secrets[0])
    history = codes(a.history.split(","), "--history")
    if len(history[0]) != k:
        sys.exit(f"--history: guesses of {len(history[0])} symbols, the secrets have {k}")
    masks = [sum(1 << d for d in s) for s in secrets]
    absent = sorted(set(range(a.symbols)) - {d for s in secrets for d in s})
    group = stabilizer(history, k, a.symbols)

    def least_image(c):
        best = None
        for perm, q in group:
            img = [0] * k
            for i in range(k):
                img[perm[i]] = q[c[i]]
            names = iter(absent)
            seen = {}
            img = tuple(seen.setdefault(x, next(names)) if x in absent else x for x in img)
            best = img if best is None or img < best else best
        return best

    tried = sorted({least_image(c) for c in itertools.permutations(range(a.symbols), k)})
    held = set(secrets)
    rows = []
    for g in tried:
        gmask = sum(1 << d for d in g)
        v = tuple(feedback(g, gmask, s, m) for s, m in zip(secrets, masks))
        w = g in held
        rows.append((-(len(set(v)) + w), g, v, w))
    rows.sort()
    top = rows[: a.top]

    def partition(v):
        names = {}
        return tuple(names.setdefault(x, len(names)) for x in v)

    parts = [partition(v) for _, _, v, _ in top]
    # A guess's classes as a map: each secret to the first of its class.
    firsts = []
    for _, _, v, _ in top:
        first = {}
        firsts.append(operator.itemgetter(*[first.setdefault(x, i) for i, x in enumerate(v)]))
    same = strict = 0
    for j, (_, _, v, w) in enumerate(top):
        for i in range(j):
            if w and not top[i][3]:
                continue
            # The earlier guess refines this one: this one's answer is the
            # same for every secret of each of the earlier's classes.
            if firsts[i](v) == v:
                if parts[i] == parts[j]:
                    same += 1
                else:
                    strict += 1
                break
    print(
        f"{len(secrets)} secrets; stabilizer {len(group)}, absent symbols {absent}; "
        f"{len(tried)} guesses tried; the top {len(top)}: {len(set(parts))} partitions, "
        f"{same} the same as an earlier one's, {strict} strictly refined by one "
        f"({time.time() - started:.1f} s)"
    )


if __name__ == "__main__":
    main()
