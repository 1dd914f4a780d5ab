"""K'Dak speed goals: rows for scripts/bench.py (nothing here asserts)."""
from __future__ import annotations

import random
import statistics
import time


def _games_per_second(game, variant: str | None, seconds: float) -> tuple[float, float]:
    options, n = game.resolve_options(None, variant)
    start_state = game.new_state(options, n)
    rng = random.Random(11)
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        t = time.perf_counter()
        game.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), statistics.median(times) * 1000


def _apply_rate(game, seconds: float) -> float:
    """Checked plies per second through apply (legal_moves + apply with events), random play."""
    from towerworld.engine.game import CHANCE, TERMINAL
    rng = random.Random(5)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state()
        while (cp := game.current_player(state)) != TERMINAL:
            if cp == CHANCE:
                move = game.sample_chance(state, rng)
            else:
                moves = game.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state, _ = game.apply(state, move)
            plies += 1
    return plies / (time.perf_counter() - start)


def bench_rows(seconds: float = 1.0) -> list[tuple[str, str, str]]:
    from towerworld.games.kdak import GAME
    rows = []
    gps, ms = _games_per_second(GAME, None, seconds)
    rows.append(("random K'Dak games per second", f"{gps:.0f} ({ms:.2f} ms median)", ">= 500 (a game under 2 ms)"))
    gps, ms = _games_per_second(GAME, "solitaire", seconds / 2)
    rows.append(("random K'Dak solitaire games per second", f"{gps:.0f} ({ms:.2f} ms median)", ">= 500"))
    rows.append(("K'Dak checked plies per second (apply with events)", f"{_apply_rate(GAME, seconds / 2):.0f}",
                 ">= 20000"))
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(row))
