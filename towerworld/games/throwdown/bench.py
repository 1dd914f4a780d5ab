"""Throwdown speed goals: rows for scripts/bench.py (nothing here asserts)."""
from __future__ import annotations

import random
import statistics
import time

from towerworld.engine.measure import checked_plies_per_second


def _games_per_second(game, players: int, variant: str | None, seconds: float) -> tuple[float, float]:
    options, n = game.resolve_options(None, variant, players)
    start_state = game.new_state(options, n)
    rng = random.Random(11)
    times: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        t = time.perf_counter()
        game.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), statistics.median(times) * 1000


def bench_rows(seconds: float = 1.0) -> list[tuple[str, str, str]]:
    from towerworld.games.throwdown import GAME
    rows = []
    for players, variant in ((2, None), (5, "extended")):
        gps, ms = _games_per_second(GAME, players, variant, seconds / 2)
        label = f"random Throwdown games per second ({players} players{', ' + variant if variant else ''})"
        rows.append((label, f"{gps:.0f} ({ms:.2f} ms median)", ">= 50 (a game under 20 ms)"))
    rows.append(("Throwdown checked plies per second (apply with events)",
                 f"{checked_plies_per_second(GAME, seconds / 2):.0f}", ">= 5000"))
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(row))
