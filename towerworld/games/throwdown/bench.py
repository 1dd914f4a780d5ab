"""Throwdown speed goals: rows for scripts/bench.py (nothing here asserts)."""
from __future__ import annotations

from towerworld.engine.measure import checked_plies_per_second, random_games_per_second
from towerworld.games.throwdown import GAME


# where a random game's time goes, from a profile of 60 five-player games with the extended deck (cProfile): spread
# over listing the moves (attack targets, remodels, the hand's cards as bits) and freezing the state after each step,
# no one function above a tenth of it
WHY_SLOW = ("the time is spread over listing attacks and remodels, reading hands as bits and freezing the state "
            "after each step, no one function above a tenth of it (cProfile)")


def bench_rows(seconds: float = 1.0) -> list[tuple]:
    rows: list[tuple] = []
    for players, variant in ((2, None), (5, "extended")):
        random_games_per_second(GAME, seconds, variant, players)      # warm: the first games fill the move caches
        gps, ms = random_games_per_second(GAME, 2 * seconds, variant, players)
        name = f"throwdown_random_throwdown_games_per_second_{players}_players" + (f"_{variant}" if variant else "")
        note = "" if gps >= 50 else (f"{50 / gps:.2f}x short of >=50: a random game of {players} players"
                                     f"{' with the ' + variant + ' deck' if variant else ''} takes {ms:.1f} ms "
                                     f"(median); {WHY_SLOW}")
        rows.append((name, round(gps), ">= 50", f"games/s ({ms:.2f} ms median a game)", note))
    rows.append(("Throwdown checked plies per second (apply with events)",
                 f"{checked_plies_per_second(GAME, seconds / 2):.0f}", ">= 5000"))
    return rows


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(str(part) for part in row))
