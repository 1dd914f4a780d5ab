"""Searching sampled futures (towerworld/ai/futures.py): each future fixes every chance event by its own number, in the
tree and in the playouts alike, and a level that searches futures draws them from its own generator only."""
from __future__ import annotations

import random

from towerworld.ai import futures
from towerworld.ai.futures import FutureGame, _Future
from towerworld.ai.mcts import MCTSAgent
from towerworld.engine.agent import View
from towerworld.engine.game import CHANCE, TERMINAL
from towerworld.games.kdak import GAME as G
from towerworld.games.kdak.rules import ROLL


def _positions(count: int, chance_only: bool = False, seed: int = 4) -> list:
    """States met in random K'Dak games: chance events with `chance_only`, else decisions."""
    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        s = G.new_state(*G.resolve_options(None, "standard"))
        while G.current_player(s) != TERMINAL and len(found) < count:
            cp = G.current_player(s)
            if (cp == CHANCE) == chance_only and rng.random() < 0.1:
                found.append(s)
            move = G.sample_chance(s, rng) if cp == CHANCE else rng.choice(G.legal_moves(s))
            s = G.apply_unchecked(s, move)[0]
    return found


def test_a_future_picks_each_chance_event_by_its_own_number():
    future = _Future(11)
    game = FutureGame(G, future)
    for s in _positions(20, chance_only=True):
        for i in (0, 5):
            (outcome, p), = game.chance_outcomes((s, i))
            assert p == 1.0 and outcome == G.chance_outcome(s, future[i])
            after, i2 = game.apply_unchecked((s, i), outcome)[0]
            assert after == G.apply_unchecked(s, outcome)[0] and i2 == i + 1
    # a decision takes no number
    s = _positions(1)[0]
    assert G.current_player(s) >= 0
    assert game.apply_unchecked((s, 3), G.legal_moves(s)[0])[0][1] == 3
    # and the numbers decide: other futures roll otherwise
    roll = next(p for p in _positions(40, chance_only=True, seed=2) if p.stage == ROLL)
    assert len({G.chance_outcome(roll, _Future(seed)[0]) for seed in range(40)}) > 1


def test_a_kdak_playout_in_a_future_rolls_and_reveals_by_its_numbers():
    # one ply of the playout from a chance event is that event, picked by the number as the tree picks it
    for s in _positions(30, chance_only=True, seed=6):
        for r in (0.03, 0.41, 0.97):
            played = G.rollout_with_chance(s, random.Random(1), lambda r=r: r, max_plies=1)
            assert played == G.apply_unchecked(s, G.chance_outcome(s, r))[0]
    # the same numbers and the same decisions end the same; other numbers end otherwise
    s = _positions(1, seed=8)[0]
    ends = set()
    for seed in range(6):
        numbers = random.Random(seed)
        one = G.rollout_with_chance(s, random.Random(5), random.Random(seed).random)
        assert one == G.rollout_with_chance(s, random.Random(5), numbers.random)
        ends.add(one)
    assert len(ends) > 1


def test_strong_kdak_searches_futures_from_its_own_draws():
    assert G.search_futures.get("strong", 0) > 1 and "normal" not in G.search_futures
    s = next(p for p in _positions(40, seed=9) if len(G.search_moves(p, G.legal_moves(p))) > 1)
    view = View.of(G, s, G.current_player(s))
    calls = []
    real = futures.search_futures

    def spy(*args, **kwargs):
        calls.append(args[3])
        return real(*args, **kwargs)

    futures.search_futures = spy
    try:
        chosen = []
        for global_seed in (1, 2):
            random.seed(global_seed)            # nothing outside the agent's own generator decides
            agent = MCTSAgent(seed=7, level="strong", max_simulations=400)
            chosen.append(agent.choose(view))
            assert agent.last_simulations <= 400
        MCTSAgent(seed=7, level="normal", max_simulations=400).choose(view)
    finally:
        futures.search_futures = real
    assert chosen[0] == chosen[1] and chosen[0] in G.legal_moves(s)
    assert calls == [G.search_futures["strong"]] * 2          # strong searched futures twice; normal none
