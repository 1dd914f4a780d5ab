"""The fast search paths play exactly as the plain ones did: the same random numbers drawn in the same order, the same
choices, the same ends. Ladders of the plain code fill the README, so a faster playout may change speed only.

Two yardsticks: the plain playout kept in the code (K'Dak's `_playout` with `strategy.policy_move`, Ziggurat's
`placing_playout` traced through `Game.apply`), compared on many positions of every rule set; and choices recorded
from the plain implementation (tests/data/search_reference.json, written at commit 9cd4f6c before any fast path), which
a seeded `mcts:300it` must repeat move for move."""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from towerworld.ai.agents import make_agent
from towerworld.engine.agent import ask
from towerworld.engine.measure import search_states
from towerworld.engine.registry import all_games
from towerworld.games.kdak import GAME as KDAK
from towerworld.games.kdak.playout import policy_playout
from towerworld.games.kdak.strategy import policy_move

RECORDED = json.loads((Path(__file__).parent / "data" / "search_reference.json").read_text(encoding="utf-8"))
CASES = [k for k in RECORDED if not k.startswith("_")]

KDAK_RULE_SETS = [({}, None), ({}, "solitaire"), ({"talisman": True}, None), ({"up_needs_two": False}, None),
                  ({"crumble_from_start": True}, None), ({"level5_talisman": True, "pooled": True}, None),
                  ({"move_cap": 60}, None),
                  ({"talisman": True, "up_needs_two": False, "crumble_from_start": True}, None)]


def _kdak_positions(options: dict, players: int, seed: int) -> list:
    """Decisions along seeded random games, and the chance states (reveals, rolls) one move after some of them."""
    states = search_states(KDAK, games=3, every=3, options=options, players=players, seed=seed)
    after = [KDAK.apply_unchecked(st, m)[0] for st in states[::3] for m in KDAK.legal_moves(st)[:2]]
    return states + after


@pytest.mark.parametrize("n", range(len(KDAK_RULE_SETS)))
def test_kdak_fast_playout_is_the_plain_playout(n):
    """policy_playout ends where `_playout` with policy_move ends, from the same seed, having drawn as many random
    numbers; to the end of the game and cut short at a ply limit."""
    options, players = KDAK.resolve_options(*KDAK_RULE_SETS[n])
    for i, state in enumerate(_kdak_positions(options, players, seed=40 + n)):
        for limit in (20_000, 7, 33):
            plain, fast = random.Random(limit * 1000 + i), random.Random(limit * 1000 + i)
            assert policy_playout(state, fast, limit) == KDAK._playout(state, plain, limit, policy_move), (n, i, limit)
            assert fast.random() == plain.random()


@pytest.mark.parametrize("case", CASES)
def test_seeded_search_repeats_the_recorded_choices(case):
    """mcts:300it chooses what the plain implementation chose, and a rollout ends where it ended."""
    name, variant = case.split("/")
    game = all_games()[name]
    options, players = game.resolve_options(None, None if variant == "default" else variant)
    states = search_states(game, games=4, every=7, options=options, players=players, seed=21)
    for i, row in enumerate(RECORDED[case]):
        state = states[i]
        rng = random.Random(200 + i)
        end = game.rollout(state, rng)
        assert hashlib.sha256(repr(end).encode()).hexdigest()[:16] == row["rollout_end"], (case, i)
        assert list(game.returns(end)) == row["returns"]
        assert rng.random() == row["rng_after"]
        agent = make_agent("mcts", game, seed=100 + i, level="300it")
        assert game.format_move(state, ask(agent, game, state)) == row["move"], (case, i)
