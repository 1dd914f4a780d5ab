"""Carcassonne speed goals: rows for scripts/bench.py (nothing here asserts).

Goal (issue 5): a whole random 2-player game with The Tower and the Black Tower in under 10 ms median.
"""
from __future__ import annotations

import random
import statistics
import time

from towerworld.engine.measure import checked_plies_per_second


def random_games(options: dict | None = None, players: int = 2, seconds: float = 1.0) -> tuple[float, float, float]:
    """(games per second, median ms per game, mean plies per game) of uniformly random play from the start."""
    from towerworld.games.carcassonne import GAME
    start_state = GAME.new_state(options, players)
    rng = random.Random(17)
    times, plies = [], 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds or len(times) < 5:
        t = time.perf_counter()
        end = GAME.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
        plies += len(end.tiles)
    return len(times) / sum(times), statistics.median(times) * 1000, plies / len(times)


def bench_rows(seconds: float = 1.0) -> list[tuple[str, str, str]]:
    rows = []
    gps, ms, _ = random_games(None, 2, seconds)
    rows.append(("random Carcassonne games per second (2p, Tower + Black Tower)", f"{gps:.0f}", ">= 100"))
    rows.append(("Carcassonne median ms per whole random game (2p, Tower + Black Tower)", f"{ms:.2f}", "< 10 ms"))
    gps, ms, _ = random_games({"tower": False, "black_tower": False}, 2, seconds / 2)
    rows.append(("Carcassonne base game only: median ms per random 2p game", f"{ms:.2f}",
                 "< 19 ms (fastest public Python engine)"))
    from towerworld.games.carcassonne import GAME
    rows.append(("Carcassonne checked plies per second (apply with events)",
                 f"{checked_plies_per_second(GAME, seconds / 2):.0f}", ">= 20000"))
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(row))
