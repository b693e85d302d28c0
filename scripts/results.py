#!/usr/bin/env python3
"""Helper of scripts/results.sh: the run records and docs/results.md.

  results.py record RECORDS --variant V --objective O --status S [...]
      replace the line of (V, O) in RECORDS (JSON lines) by this run
  results.py status RECORDS VARIANT OBJECTIVE
      print the recorded status of a run (or "missing")
  results.py render RECORDS OUT.md VARIANT...
      write the table, one row per variant, in the order given

Numbers in the table come only from the records, which hold the JSON that
`optimoo solve --json` printed; nothing is computed or typed in here.
"""

import argparse
import json
import math
import os
import sys


def load(path):
    runs = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    runs.append(json.loads(line))
    return runs


def record(argv):
    ap = argparse.ArgumentParser(prog="results.py record")
    ap.add_argument("records")
    for opt in ("variant", "objective", "status", "limit", "date", "load",
                "machine", "commit", "why", "wall", "peak-kib", "verified",
                "json-file", "err-file"):
        ap.add_argument("--" + opt, default="")
    a = ap.parse_args(argv)
    run = {
        "variant": a.variant,
        "objective": a.objective,
        "status": a.status,
        "limit": int(a.limit) if a.limit else None,
        "date": a.date,
        "load": a.load,
        "machine": a.machine,
        "commit": a.commit,
    }
    if a.why:
        run["why"] = a.why
    if a.wall:
        run["wall"] = float(a.wall)
    if a.peak_kib:
        run["peak_kib"] = int(a.peak_kib)
    if a.verified:
        run["verified"] = a.verified
    if a.json_file and os.path.exists(a.json_file):
        text = open(a.json_file).read().strip()
        if text:
            try:
                run["result"] = json.loads(text.splitlines()[-1])
            except json.JSONDecodeError:
                run["output"] = text[:500]
    if a.err_file and a.status == "error" and os.path.exists(a.err_file):
        run["error"] = open(a.err_file).read().strip()[:500]
    runs = [r for r in load(a.records)
            if (r["variant"], r["objective"]) != (a.variant, a.objective)]
    runs.append(run)
    tmp = a.records + ".tmp"
    with open(tmp, "w") as f:
        for r in runs:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    os.replace(tmp, a.records)


def status(argv):
    records, variant, objective = argv
    for r in load(records):
        if (r["variant"], r["objective"]) == (variant, objective):
            print(r["status"])
            return
    print("missing")


def secrets(game):
    kind, kn = game.split(":")
    k, n = (int(x) for x in kn.split("x"))
    return math.perm(n, k) if kind == "moo" else n ** k


def mib(run):
    kib = run.get("peak_kib")
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def secs(x):
    if x < 0.001:
        return "<0.001"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def not_done(run):
    """The cell text of a run that gave no result, or None."""
    if run is None:
        return "—"
    s = run["status"]
    if s == "ok":
        return None
    if s == "timeout":
        return f"timeout after {run['limit']} s"
    if s == "skipped":
        return f"not run ({run.get('why', 'skipped')})"
    if s == "infeasible":
        return "infeasible"
    return "error: " + run.get("error", "?").splitlines()[-1][:80] if run.get("error") else "error"


def verified(*runs):
    """ok when every finished run's tree file verified."""
    done = [r for r in runs if r and r["status"] == "ok"]
    bad = [r["objective"] for r in done if r.get("verified") != "ok"]
    return "FAILED: " + ", ".join(bad) if bad else "ok"


def render(argv):
    records, out, variants = argv[0], argv[1], argv[2:]
    runs = {(r["variant"], r["objective"]): r for r in load(records)}
    sessions = []  # (date day, machine, commit, limit) in order of first use

    def session(run):
        if run is None or run["status"] == "skipped":
            return None
        key = (run["date"][:10], run["machine"], run["commit"], run["limit"])
        if key not in sessions:
            sessions.append(key)
        return sessions.index(key) + 1

    head = ["game", "secrets", "cap", "optimal total", "average", "max depth",
            "histogram", "seconds", "peak memory", "verified", "min cap",
            "refuted caps (s)", "worst s", "crush at min cap", "crush total",
            "crush s", "run"]
    rows = []
    loads = {}
    for v in variants:
        game = v.split()[0]
        cap = v.split()[-1] if "--cap" in v else "none"
        avg = runs.get((v, "average"))
        worst = runs.get((v, "worst"))
        crush = runs.get((v, "crush"))
        row = [f"`{game}`", str(secrets(game)), cap]
        miss = not_done(avg)
        if miss is None:
            r = avg["result"]
            row += [str(r["total"]), f"{r['average']:.4f}", str(r["max_depth"]),
                    " ".join(str(h) for h in r["histogram"]), secs(r["seconds"]),
                    mib(avg), verified(avg, worst, crush)]
        else:
            killed = avg and avg["status"] == "timeout" and avg.get("peak_kib") is not None
            row += [miss, "", "", "", "", f"{mib(avg)} when stopped" if killed else "", ""]
        if "--cap" in v:
            row += ["as above", "", "", "as above", "", ""]
        else:
            miss = not_done(worst)
            if miss is None:
                r = worst["result"]
                refuted = ", ".join(f"{x['cap']} ({secs(x['seconds'])})" for x in r["refuted"])
                row += [str(r["min_cap"]), refuted or "by counting", secs(worst["wall"])]
            else:
                row += [miss, "", ""]
            miss = not_done(crush)
            if miss is None:
                r = crush["result"]
                row += [f"{r['at_cap']} at {r['cap']}", str(r["total"]), secs(crush["wall"])]
            else:
                row += [miss, "", ""]
        ids = sorted({s for s in (session(avg), session(worst), session(crush)) if s})
        row.append(",".join(str(i) for i in ids))
        rows.append(row)
        for run in (avg, worst, crush):
            if run and run["status"] != "skipped":
                loads.setdefault(session(run), []).append(float(run["load"] or 0))

    lines = [
        "# Results: exact optima by `optimoo solve`",
        "",
        "Generated by `scripts/results.sh` from `docs/results.jsonl` (one record per",
        "run: the JSON `optimoo solve --json` printed, its peak memory and its status).",
        "Rerun it to refresh; see the script's header for options (time limit, one",
        "game at a time, only the runs still missing).",
        "",
        "**Re-checked after the kernel fix of issue 16 (2026-11-24): no result here",
        "changed.** The AVX2 kernel summed part of its bound in saturating bytes,",
        "which gave wrong optima on games with few answers and many symbols",
        "(mm:2x16 printed 2174, the optimum is 1862; none of those games is in this",
        "table). Every run of this table, and the new optima below, was solved again",
        "with the fixed code on each kernel path of the machine (`OPTIMOO_KERNEL=scalar`",
        "and `avx2`; the machine has no AVX-512) by `scripts/recheck.sh`: both paths",
        "give the same total, histogram, first guess and minimal cap as this table,",
        "and byte for byte the same tree file, which is the committed one where data/",
        "holds it; `optimoo verify` accepts every tree. The records, with the commit",
        "and each path's seconds, are in docs/recheck.jsonl; how each new optimum was",
        "re-checked is in its section below.",
        "",
        "- **optimal total**: the minimal total number of guesses over all secrets",
        "  (winning guesses included) within the cap; **average** = total / secrets;",
        "  **histogram**: secrets solved in 1, 2, … guesses; **seconds**: the search's",
        "  own time (`seconds` of the JSON); **peak memory**: maximum resident set of",
        "  the process (GNU time `%M`); **verified**: the saved tree file replayed over",
        "  every secret by `optimoo verify`.",
        "- **min cap**: `--objective worst`, the fewest guesses that always suffice;",
        "  **refuted caps**: caps below it refuted by exhaustive search, with the",
        "  search time (smaller caps are refuted by counting); **worst s**: wall time",
        "  of the whole run.",
        "- **crush at min cap**: `--objective crush`, the fewest secrets that need",
        "  all min-cap guesses; **crush total**: the minimal total among those trees.",
        "- A run that did not finish within its limit says so (\"timeout after N s\");",
        "  \"not run\" means a smaller game of the same family timed out first.",
        "- Times depend on the load: a load average above the core count (below)",
        "  means other jobs shared the machine and the times are inflated.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += [
        "",
        "## Independent evidence",
        "",
        "Published values that rows of this table reproduce (computed by the search,",
        "never read from a table; the ignored tests in tests/exhaustive.rs assert",
        "the first two games):",
        "",
        "- `mm:4x6`: 5625 (Koyama & Lai 1993), 5626 within 5 guesses; 5 guesses",
        "  always suffice and 4 do not (Knuth 1976); 539 secrets at the 5th guess",
        "  at best (A. Slovesnov).",
        "- `moo:4x10`: 26274 within 7 guesses (Tanaka 1996); 7 guesses always",
        "  suffice and 6 do not; 50 secrets at the 7th guess at best (A. Slovesnov).",
        "- `mm:4x7`: average 4.676 (G. Ville 2013, \"An optimal Mastermind (4,7)",
        "  strategy and more results in the expected case\"): 11228 / 2401 = 4.6764.",
        "- Every game up to moo:3x5 and mm:3x3: equal to an independent brute force",
        "  (`cargo test`, search::tests).",
    ]
    lines += ["", "## Runs", ""]
    for i, (day, machine, commit, limit) in enumerate(sessions, 1):
        ls = loads.get(i, [])
        busy = f", load average {min(ls):.1f}–{max(ls):.1f} at the starts" if ls else ""
        lines.append(f"{i}. {day}, solver as of commit `{commit}`, {machine}, limit {limit} s per run{busy}.")
    # The "New results" section is written by hand (with the runs behind it
    # in data/runs/); it is kept as it is, at the end.
    kept = ""
    try:
        existing = open(out).read()
        at = existing.find("\n## New results")
        if at >= 0:
            kept = existing[at:]
    except FileNotFoundError:
        pass
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n" + kept)


def main():
    cmd, argv = sys.argv[1], sys.argv[2:]
    {"record": record, "status": status, "render": render}[cmd](argv)


if __name__ == "__main__":
    main()
