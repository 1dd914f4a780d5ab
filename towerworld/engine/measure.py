"""Shared speed measures for the games' bench rows (scripts/bench.py prints them; no test times anything)."""
from __future__ import annotations

import random
import time

from towerworld.engine.game import CHANCE, TERMINAL, Game


def checked_plies_per_second(game: Game, seconds: float, options: dict | None = None, seed: int = 5) -> float:
    """Random play through the checked contract (legal_moves or sampled chance, then apply with its events)."""
    rng = random.Random(seed)
    plies = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        state = game.new_state(options)
        while (cp := game.current_player(state)) != TERMINAL:
            if cp == CHANCE:
                move = game.sample_chance(state, rng)
            else:
                moves = game.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state, _ = game.apply(state, move)
            plies += 1
    return plies / (time.perf_counter() - begin)
