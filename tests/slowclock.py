"""Searching agents on a machine too slow for any clock: their levels must still be simulation budgets."""
from __future__ import annotations


def first_real_choice(game, seed: int):
    """A state reached by random play where the player to move has at least two moves (not chance)."""
    import random
    rng = random.Random(seed)
    state = game.new_state()
    while game.current_player(state) < 0 or len(game.legal_moves(state)) < 2:
        moves = game.legal_moves(state) or [m for m, _ in game.chance_outcomes(state)]
        state = game.apply(state, rng.choice(moves))[0]
    return state


def crawl_clock(monkeypatch, module) -> None:
    """Every look at `module.time.perf_counter` finds another minute gone: a machine too slow for any clock."""
    clock = [0.0]

    def crawling():
        clock[0] += 60.0
        return clock[0]

    monkeypatch.setattr(module.time, "perf_counter", crawling)
