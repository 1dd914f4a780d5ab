"""Throwdown's heuristic and its own agent: they play from a seat's View and beat random play."""
from __future__ import annotations

import random

from towerworld.engine.agent import View
from towerworld.engine.game import CHANCE, TERMINAL
from towerworld.games.throwdown import GAME
from towerworld.games.throwdown.strategy import greedy_agent, heuristic

try:
    from test_throwdown_rules import position, play
except ImportError:  # tests run as a package
    from tests.test_throwdown_rules import position, play


def _play(agent, seed: int) -> list[float]:
    """The agent in seat 0 against uniform random play in seat 1."""
    rng = random.Random(seed)
    state = GAME.new_state(None, 2)
    while (cp := GAME.current_player(state)) != TERMINAL:
        if cp == CHANCE:
            move = GAME.sample_chance(state, rng)
        elif cp == 0:
            view = View.of(GAME, state, 0)
            move = agent.choose(view)
            assert move in view.legal_moves
        else:
            moves = GAME.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        state, _ = GAME.apply(state, move)
    return GAME.returns(state)


def test_greedy_agent_beats_random():
    agent = greedy_agent(GAME, 1, "fast")
    wins = sum(_play(agent, seed)[0] > 0 for seed in range(4))
    assert wins >= 3


def test_heuristic_counts_pips_points_and_threats():
    s = position({0: ["mountain"], 1: ["author"]})
    even = heuristic(GAME, s, 0)
    hit = play(position({0: ["mountain"], 1: []}), "attack mountain 2d")        # a pip off player 2's black tower
    assert heuristic(GAME, hit, 0) > even
    pending = play(s, "attack mountain 2d")                                      # player 2 may still defend
    assert heuristic(GAME, hit, 0) > heuristic(GAME, pending, 0)


def test_hint_is_a_legal_move_for_the_viewer_only():
    s = play(position({0: ["castle"], 1: ["journey", "sailor"]}), "attack castle 2a")
    assert GAME.hint(s, 0) is None
    assert GAME.hint(s, 1) in GAME.legal_moves(s)
