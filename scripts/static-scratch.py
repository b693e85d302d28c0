#!/usr/bin/env python3
"""A scratch checkpoint for one task of moo:4x10's static search.

Prints a copy of CHECKPOINT (a file of `optimoo static --checkpoint`) with
every task of every size marked refuted but TASK, nothing begun and no
counts, so that a run resumed from it searches TASK alone; with `none`,
every task refuted (the run then only builds its tables: its start-up).
Used by scripts/static-sample.sh and scripts/static-ab.sh.

Usage: scripts/static-scratch.py CHECKPOINT TASK|none > SCRATCH.json
"""
import json
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__.strip().splitlines()[-1])
cp = json.load(open(sys.argv[1]))
arg = sys.argv[2]
for level in cp["levels"]:
    n = level["tasks"]
    if arg == "none":
        parts = [f"0-{n - 1}"]
    else:
        task = int(arg)
        if not 0 <= task < n:
            sys.exit(f"task {task} is not one of the {n} tasks")
        parts = [f"0-{task - 1}" if task > 1 else "0"] if task > 0 else []
        if task + 1 < n:
            parts.append(f"{task + 1}-{n - 1}" if task + 1 < n - 1 else f"{task + 1}")
    level.update(refuted=",".join(parts), begun="", nodes=0, task_seconds=0.0)
json.dump(cp, sys.stdout)
