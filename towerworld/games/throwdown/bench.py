"""Throwdown speed goals: rows for scripts/bench.py (nothing here asserts)."""
from __future__ import annotations

from towerworld.engine.measure import checked_plies_per_second, random_games_per_second
from towerworld.games.throwdown import GAME


def bench_rows(seconds: float = 1.0) -> list[tuple[str, str, str]]:
    rows = []
    for players, variant in ((2, None), (5, "extended")):
        gps, ms = random_games_per_second(GAME, seconds / 2, variant, players)
        label = f"random Throwdown games per second ({players} players{', ' + variant if variant else ''})"
        rows.append((label, f"{gps:.0f} ({ms:.2f} ms median)", ">= 50 (a game under 20 ms)"))
    rows.append(("Throwdown checked plies per second (apply with events)",
                 f"{checked_plies_per_second(GAME, seconds / 2):.0f}", ">= 5000"))
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(row))
