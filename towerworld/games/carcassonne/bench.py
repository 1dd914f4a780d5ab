"""Carcassonne speed goals: rows for scripts/bench.py (nothing here asserts).

Goals: a whole random 2-player game with The Tower and the Black Tower in under 10 ms median; at least 2,000 search
simulations a second with the Tower on (mcts_sims_per_s_carcassonne_tower, beside the base game); the full board of
about 90 tiles and all pieces in at most 60 draw calls (carcassonne_draw_calls_full_board, measured by
scripts/bench.py for every game, with the same board while a move animates and the cost of combining from the scene's
bench, towerworld/scene/bench.py: a game's rows never import the scene).
"""
from __future__ import annotations

import random
import statistics
import time

from towerworld.engine.game import CHANCE
from towerworld.engine.measure import checked_plies_per_second
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne.strategy import SearchAgent


def random_games(options: dict | None = None, players: int = 2, seconds: float = 1.0) -> tuple[float, float, float]:
    """(games per second, median ms per game, mean plies per game) of uniformly random play from the start."""
    start_state = GAME.new_state(options, players)
    rng = random.Random(17)
    times: list[float] = []
    plies = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds or len(times) < 5:
        t = time.perf_counter()
        end = GAME.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
        plies += len(end.tiles)
    return len(times) / sum(times), statistics.median(times) * 1000, plies / len(times)


def bench_rows(seconds: float = 1.0) -> list[tuple[str, float, str, str]]:
    """(name, value, goal, unit) rows; scripts/bench.py adds the generic ones (random games, the generic search
    figures, stage and carcassonne_draw_calls_full_board) and the stage's combining figures (towerworld/scene/bench.py:
    the board while a move animates, the cost of combining)."""
    rows = []
    gps, ms, _ = random_games(None, 2, seconds)
    rows.append(("carcassonne_tower_random_game_ms", round(ms, 3), "< 10", "ms"))
    gps, ms, _ = random_games({"tower": False, "black_tower": False}, 2, seconds / 2)
    rows.append(("carcassonne_base_random_game_ms", round(ms, 3), "< 19", "ms"))
    rows.append(("carcassonne_checked_plies_per_s", round(checked_plies_per_second(GAME, seconds / 2)), ">= 20000",
                 "/s"))
    for name, options in (("mcts_sims_per_s_carcassonne_tower", None),
                          ("mcts_sims_per_s_carcassonne_base", {"tower": False, "black_tower": False})):
        rows.append((name, round(search_rate(options, seconds)), ">= 2000", "/s"))
    return rows


def mid_game(options: dict | None, plies: int = 30, seed: int = 1):
    """A 2-player state `plies` random plies in, at a decision."""
    rng = random.Random(seed)
    s = GAME.new_state(options, 2)
    for _ in range(plies):
        if GAME.current_player(s) == CHANCE:
            s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
        else:
            moves = GAME.legal_moves(s)
            s, _ = GAME.apply_unchecked(s, moves[rng.randrange(len(moves))])
    while GAME.current_player(s) == CHANCE:
        s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
    return s


def search_rate(options: dict | None, seconds: float) -> float:
    """Simulations a second of Carcassonne's own search (the default 'mcts' opponent) from a mid-game state."""
    agent = SearchAgent(seed=3, seconds=seconds)
    agent.search(mid_game(options))
    return agent.last_simulations / agent.last_seconds


if __name__ == "__main__":
    for row in bench_rows():
        print(" | ".join(str(v) for v in row))
