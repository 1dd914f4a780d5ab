#!/usr/bin/env python3
"""This tree's bench figures beside another commit's, measured in the same minutes, section by section in turn.

    python scripts/bench_against.py REV [--rounds N] [--only WORDS] [--json FILE]

Each section of `scripts/bench.py` runs in this tree and in a checkout of REV (a git worktree made for the run and
removed after it), one after the other, in a fresh process each, for `--rounds` rounds; the order of the two sides
turns every round (before, now; now, before; ...), so a load that comes and goes falls on both. A row is read from
each run by its name; rows only one side has are listed apart.

The table gives, for every row both sides have, the median of each side's rounds with their range, now over
before, and a verdict: "better" or "worse" where every round of one side is on the better side of every round of
the other (the ranges do not meet), else "within noise" (the ranges meet: the difference is no bigger than what the
same tree gives from round to round). Which way is better comes from the row's goal (">= 20": higher) or, for a row
without one, from its unit (ms, us, s, kB, MB, geoms: lower; /s: higher); a row of neither is compared, not judged.

Not a test: nothing here asserts. A section runs for its figures alone, so its process's start is no part of them.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

LOWER_BETTER = {"ms", "us", "s", "kB", "MB", "geoms", "calls"}
HIGHER_BETTER = {"/s"}


def better_when(row: dict) -> str | None:
    """'higher', 'lower' or None (not judged), from a row's goal, else its unit."""
    goal = (row.get("goal") or "").strip()
    if goal.startswith(">"):
        return "higher"
    if goal.startswith("<"):
        return "lower"
    unit = row.get("unit") or ""
    if unit in LOWER_BETTER:
        return "lower"
    if unit in HIGHER_BETTER or unit.endswith("/s"):
        return "higher"
    return None


def verdict(before: list[float], now: list[float], direction: str | None) -> str:
    """'better', 'worse' or 'within noise' (see the module's words); '' where the row is not judged."""
    if direction is None or not before or not now:
        return ""
    if direction == "higher":
        if min(now) > max(before):
            return "better"
        if max(now) < min(before):
            return "worse"
    else:
        if max(now) < min(before):
            return "better"
        if min(now) > max(before):
            return "worse"
    return "within noise"


def run_section(tree: str, title: str) -> dict:
    """One section of `tree`'s bench, in a process of its own: {row name: row}; {} where it failed or has none."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        env = dict(os.environ, PYTHONPATH=tree)
        done = subprocess.run([sys.executable, os.path.join(tree, "scripts", "bench.py"), "--only", title,
                               "--json", out], cwd=tree, env=env, capture_output=True, text=True)
        if not os.path.exists(out):
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"  {title} in {tree}: no figures ({last})", file=sys.stderr)
            return {}
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def checkout(rev: str, where: str) -> None:
    subprocess.run(["git", "-C", HERE, "worktree", "add", "--detach", "--force", where, rev], check=True,
                   capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rev", help="the commit to measure beside this tree (anything git rev-parse takes)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each section on each side (default 2)")
    parser.add_argument("--only", metavar="WORDS", help="comma-separated words: the sections naming one")
    parser.add_argument("--json", metavar="FILE", help="also write {row: {before, now, verdict, ...}} as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1.")
    found = subprocess.run(["git", "-C", HERE, "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        parser.error(f"{args.rev} names no commit of this repository.")
    commit = found.stdout.strip()

    sys.path.insert(0, os.path.join(HERE, "scripts"))
    import bench      # this tree's sections
    only = {w.strip() for w in args.only.split(",")} if args.only else None
    titles = [title for title, _ in bench.sections() if not only or any(word in title for word in only)]
    if not titles:
        parser.error(f"no section names any of: {args.only}.")

    where = tempfile.mkdtemp(prefix="towerworld-before-")
    os.rmdir(where)
    checkout(commit, where)
    before: dict[str, list[float]] = {}
    now: dict[str, list[float]] = {}
    rows: dict[str, dict] = {}          # a row's goal and unit, as this tree states them (else as REV's)
    try:
        for title in titles:
            print(f"{title}", file=sys.stderr)
            for r in range(args.rounds):
                sides = [(where, before), (HERE, now)]
                for tree, values in (sides if r % 2 == 0 else sides[::-1]):
                    for name, row in run_section(tree, title).items():
                        if row.get("value") is None:
                            continue
                        values.setdefault(name, []).append(float(row["value"]))
                        if tree == HERE or name not in rows:
                            rows[name] = row
    finally:
        subprocess.run(["git", "-C", HERE, "worktree", "remove", "--force", where], capture_output=True)
        shutil.rmtree(where, ignore_errors=True)

    both = [name for name in rows if name in before and name in now]
    result = {}
    for name in both:
        b, n = before[name], now[name]
        mb, mn = statistics.median(b), statistics.median(n)
        result[name] = {"before": mb, "now": mn, "before_range": [min(b), max(b)], "now_range": [min(n), max(n)],
                        "now_over_before": round(mn / mb, 3) if mb else None, "unit": rows[name].get("unit", ""),
                        "goal": rows[name].get("goal", ""),
                        "verdict": verdict(b, n, better_when(rows[name]))}
    width = max((len(name) for name in both), default=6)
    print(f"this tree against {args.rev} ({commit[:7]}), {args.rounds} round(s) a side, sections in turn")
    print(f"{'figure':{width}s}  {'before':>22s}  {'now':>22s}  {'now/before':>10s}  verdict")
    print("-" * (width + 74))

    def shown(median: float, spread: list[float]) -> str:
        return f"{bench._shown(median)} ({bench._shown(spread[0])}-{bench._shown(spread[1])})"
    for name in both:
        r = result[name]
        ratio = "" if r["now_over_before"] is None else f"{r['now_over_before']:.2f}"
        print(f"{name:{width}s}  {shown(r['before'], r['before_range']):>22s}  {shown(r['now'], r['now_range']):>22s}"
              f"  {ratio:>10s}  {r['verdict']}")
    only_now = sorted(name for name in now if name not in before)
    only_before = sorted(name for name in before if name not in now)
    if only_now:
        print(f"only in this tree: {', '.join(only_now)}")
    if only_before:
        print(f"only in {args.rev}: {', '.join(only_before)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"against": commit, "rounds": args.rounds, "rows": result, "only_now": only_now,
                       "only_before": only_before}, f, indent=1, sort_keys=True)
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
