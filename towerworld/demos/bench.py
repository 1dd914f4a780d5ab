"""Bench rows for the physics demos: how many times faster than real time each demo simulates headless (no
rendering). For scripts/bench.py: `rows()` -> [(name, value, goal, unit)].

Measured in this process's CPU time: Bullet runs on one thread, and on a shared machine (CI, two cores and several
jobs) wall time would report the neighbours' load rather than the simulation's speed."""
from __future__ import annotations

import time

from towerworld.demos import get_demo, names
from towerworld.demos.base import DemoRun

GOAL = 10.0         # every demo at least 10x real time (simulated seconds per CPU second)


def realtime_ratio(name: str, seed: int = 1) -> float:
    demo = get_demo(name)
    run = DemoRun(demo, seed)
    t0 = time.process_time()
    run.run()
    return demo.seconds / max(1e-9, time.process_time() - t0)


def rows() -> list[tuple[str, float, float | None, str]]:
    return [(f"physics_realtime_ratio_{name.replace('-', '_')}", round(realtime_ratio(name), 1), GOAL,
             "x real time") for name in names()]


if __name__ == "__main__":
    for row in rows():
        print(*row)
