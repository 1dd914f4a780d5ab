"""K'Dak speed goals: rows for scripts/bench.py (nothing here asserts)."""
from __future__ import annotations

import random
import time

from towerworld.engine.measure import (checked_plies_per_second, random_games_per_second, search_sims_per_second,
                                       search_states, with_goal_text)
from towerworld.games.kdak import GAME


def rows(seconds: float = 1.0) -> list[tuple[str, float, float | None, str]]:
    """(name, value, goal, unit) rows. The search rows are the engine's share of an MCTS simulation (three plies of
    tree walk, then the game's rollout), CPU time, at decision states met in seeded random games."""
    out: list[tuple[str, float, float | None, str]] = []
    gps, ms = random_games_per_second(GAME, seconds)
    out.append(("kdak_random_games_per_s", round(gps), 500, "games/s"))
    out.append(("kdak_random_game_median_ms", round(ms, 2), 2.0, "ms (at most)"))
    gps, _ = random_games_per_second(GAME, seconds / 2, "solitaire")
    out.append(("kdak_solitaire_random_games_per_s", round(gps), 500, "games/s"))
    out.append(("kdak_checked_plies_per_s", round(checked_plies_per_second(GAME, seconds / 2)), 20000,
                "plies/s (apply with events)"))
    rng = random.Random(4)
    start = GAME.new_state()
    begin, n = time.process_time(), 0
    while time.process_time() - begin < seconds / 2:
        GAME.rollout(start, rng)
        n += 1
    out.append(("kdak_rollouts_per_s_from_start", round(n / (time.process_time() - begin)), None, "rollouts/s"))
    states = search_states(GAME)
    out.append(("engine_sims_per_s_kdak", round(search_sims_per_second(GAME, states, seconds)), 5000,
                "sims/s (engine share)"))
    options, players = GAME.resolve_options(None, "solitaire")
    solo = search_states(GAME, options=options, players=players)
    out.append(("engine_sims_per_s_kdak_solitaire", round(search_sims_per_second(GAME, solo, seconds)), 5000,
                "sims/s (engine share)"))
    return out


def bench_rows(seconds: float = 1.0) -> list[tuple]:
    """The rows as scripts/bench.py reads them: (name, value, goal as text such as ">= 5000", unit), and a note where
    the engine's share of a simulation misses its goal."""
    out: list[tuple] = []
    for name, value, goal, unit in with_goal_text(rows(seconds)):
        if name.startswith("engine_sims_per_s_kdak") and value < 5000:
            out.append((name, value, goal, unit, f"{5000 / value:.2f}x short of >=5000: the climbing rollout "
                        "(rules.playout) is most of it"))
        else:
            out.append((name, value, goal, unit))
    return out




if __name__ == "__main__":
    for row in rows():
        print(" | ".join(str(x) for x in row))
