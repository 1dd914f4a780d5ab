"""The search paths play exactly as the plain ones did: the same random numbers drawn in the same order, the same
choices, the same ends. Ladders of the plain code fill the README, so a faster playout may change speed only.

Two yardsticks: playouts traced move by move through the contract (K'Dak's rollout against `Game.apply_unchecked` with
`strategy.policy_move` on the states it returns; Ziggurat's `placing_playout` against the tier-by-tier playout kept
here), compared on many positions of every rule set; and choices recorded from the plain implementation
(tests/data/search_reference.json, written at commit 9cd4f6c before any fast path), which a seeded `mcts:300it` must
repeat move for move."""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from towerworld.ai.agents import make_agent
from towerworld.engine.agent import ask
from towerworld.engine.game import TERMINAL, Game
from towerworld.engine.measure import search_states
from towerworld.engine.registry import all_games
from towerworld.games.kdak import GAME as KDAK
from towerworld.games.kdak.board import REVEAL, ROLL
from towerworld.games.kdak.rules import unseen_identities
from towerworld.games.kdak.strategy import policy_move
from towerworld.games.ziggurat import GAME as ZIGGURAT
from towerworld.games.ziggurat.board import (CHEAT, DRAW, GIVE_UP, NEIGHBOUR_MASK, NOT_COL_F, PLACE, TIER_MASK,
                                             WAYS_ROUND, ZState, board_masks, placements)
from towerworld.games.ziggurat.rules import placing_playout

try:
    from yardsticks.kdak_policy_playout import policy_playout as kdak_old_playout
except ImportError:  # tests run as a package
    from tests.yardsticks.kdak_policy_playout import policy_playout as kdak_old_playout

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


def _kdak_traced_rollout(state, rng: random.Random, limit: int):
    """K'Dak's search rollout written on the contract: each ply a state of the game, its legal moves or the unseen
    identities, the policy's choice and `Game.apply_unchecked`; rolls and reveals drawn as the rollout draws them."""
    rand = rng.random
    plies = 0
    while KDAK.current_player(state) != TERMINAL and plies < limit:
        if state.stage == ROLL:
            move = ("roll", int(rand() * 6))
        elif state.stage == REVEAL:
            left = unseen_identities(state.ident)
            move = ("reveal", left[int(rand() * len(left))])
        else:
            moves = KDAK.legal_moves(state)
            move = policy_move(state, moves, rand)
            assert move in moves
        state, _ = KDAK.apply_unchecked(state, move)
        plies += 1
    return state


@pytest.mark.parametrize("n", range(len(KDAK_RULE_SETS)))
def test_kdak_rollout_is_the_game_played_move_by_move(n):
    """The rollout (one working copy through the rules' step function) ends where the same policy played through
    `apply_unchecked` ends, from the same seed, having drawn as many random numbers; to the end of the game and cut
    short at a ply limit."""
    options, players = KDAK.resolve_options(*KDAK_RULE_SETS[n])
    for i, state in enumerate(_kdak_positions(options, players, seed=40 + n)):
        for limit in (20_000, 7, 33):
            traced, fast = random.Random(limit * 1000 + i), random.Random(limit * 1000 + i)
            assert KDAK.rollout(state, fast, limit) == _kdak_traced_rollout(state, traced, limit), (n, i, limit)
            assert fast.random() == traced.random()


@pytest.mark.parametrize("n", range(len(KDAK_RULE_SETS)))
def test_kdak_speed_yardstick_plays_the_rollouts_games(n):
    """The old second copy of the rules kept as scripts/bench.py's speed yardstick (tests/yardsticks) plays the
    rollout's games: from the same seed the same end and as many random numbers drawn, so the bench's
    `kdak_playout_speed_vs_old_copy` rows time the same work on both sides."""
    options, players = KDAK.resolve_options(*KDAK_RULE_SETS[n])
    for i, state in enumerate(_kdak_positions(options, players, seed=60 + n)):
        for limit in (20_000, 9):
            ours, old = random.Random(limit * 1000 + i), random.Random(limit * 1000 + i)
            assert KDAK.rollout(state, ours, limit) == kdak_old_playout(state, old, limit), (n, i, limit)
            assert ours.random() == old.random()


@pytest.mark.parametrize("options", [{}, {"deal": 7}, {"cheat_limit": 3}])
def test_ziggurat_fast_playout_is_the_plain_playout(options):
    """placing_playout (three tiers in one board) places what the tier-by-tier playout placed, in the same order,
    from the same seed, and ends in the same state having drawn as many random numbers."""
    for i, state in enumerate(search_states(ZIGGURAT, games=4, every=2, options=options, seed=9)):
        for limit in (50_000, 5):
            plain, fast = random.Random(i * 7 + limit), random.Random(i * 7 + limit)
            plain_trace: list = []
            fast_trace: list = []
            assert placing_playout(state, fast, limit, fast_trace) == _plain_placing_playout(state, plain, limit,
                                                                                             plain_trace)
            assert fast_trace == plain_trace, (options, i, limit)
            assert fast.random() == plain.random()


def test_ziggurat_legal_moves_are_the_plain_sorted_list():
    """legal_moves (every tier at once, sorted as numbers) gives the list the plain definition gives: every placement
    (the tier-by-tier yardstick), giving up when none fits, a cheat per placed domino, sorted; and the agents'
    `placements` lists the yardstick's placements in its order; on random and building games."""
    def plain(state):
        moves = _plain_placings(state)
        if not moves:
            moves.append((GIVE_UP,))
        moves += [(CHEAT, d) for d in sorted(set(state.owner)) if d >= 0]
        return sorted(moves)

    def builder(state, moves, rng):
        return rng.choice([m for m in moves if m[0] == PLACE] or moves)

    states = (search_states(ZIGGURAT, games=4, every=1, seed=3)
              + search_states(ZIGGURAT, games=4, every=1, seed=4, policy=builder))
    assert any(ZIGGURAT.legal_moves(s)[-1] == (GIVE_UP,) for s in states)
    for state in states:
        assert ZIGGURAT.legal_moves(state) == plain(state)
        assert placements(state.vals, state.hand) == _plain_placings(state)


def _fitting(open_, allow, hot, dominoes, empty: bool):
    """The tier-by-tier placement generator as it was at commit 9cd4f6c, kept as the yardstick. Where the `dominoes` fit: a list of (cells, tier, step, x, y, d), one per tier, way round and direction that
    fits somewhere, where bit c of `cells` means domino d may lie with its x half on cell c and its y half on c + step
    (step 1: the right-hand neighbour, 6: the one behind), both on tier `tier`."""
    fits = []
    for t in (0, 1, 2):
        free = open_[t]
        if not free:
            continue
        allowed = allow[t]
        room = [free & allowed[v] for v in range(7)]       # open cells of tier t where a v may lie
        for d in dominoes:
            for x, y in WAYS_ROUND[d]:
                first, second = room[x], room[y]
                if not (first and second):
                    continue
                across = first & (second >> 1) & NOT_COL_F
                behind = first & (second >> 6)
                if not empty:
                    near = hot[x]
                    across &= near | (hot[y] >> 1)
                    behind &= near | (hot[y] >> 6)
                if across:
                    fits.append((across, t, 1, x, y, d))
                if behind:
                    fits.append((behind, t, 6, x, y, d))
    return fits


def _plain_placings(state) -> list:
    """Every placement of the hand by the tier-by-tier yardstick, in its order."""
    out = []
    for cells, t, step, x, y, _d in _fitting(*board_masks(state.vals), state.hand,
                                             all(v < 0 for v in state.vals[:36])):
        while cells:
            low = cells & -cells
            c = low.bit_length() - 1
            out.append((PLACE, t, c, c + step, x, y))
            cells ^= low
    return out


def _plain_placing_playout(state: ZState, rng: random.Random, max_plies: int, trace: list) -> ZState:
    """Ziggurat's placing playout as it was at commit 9cd4f6c (board.fitting tier by tier), kept as the yardstick."""
    vals, owner = list(state.vals), list(state.owner)
    open_, allow, hot = board_masks(vals)
    hand = list(state.hand)
    unseen = state.unseen
    if state.pile:
        pile = list(reversed(state.pile))     # draws pop from the end
    else:
        pile = [d for d in range(28) if unseen >> d & 1]
        rng.shuffle(pile)                     # drawing one unseen domino at a time, uniformly, is a shuffle
    empty = all(v < 0 for v in vals[:36])
    gave_up = False
    plies = 0
    while plies < max_plies:
        if len(hand) < 3 and pile:
            d = pile.pop()
            hand.append(d)
            unseen &= ~(1 << d)
            plies += 1
            trace.append((DRAW, d))
            continue
        if not hand:
            break
        fits = _fitting(open_, allow, hot, hand, empty)
        total = 0
        for fit in fits:
            total += fit[0].bit_count()
        if not total:
            gave_up = True
            plies += 1
            trace.append((GIVE_UP,))
            break
        pick = int(rng.random() * total)
        for cells, t, step, x, y, d in fits:
            k = cells.bit_count()
            if pick < k:
                break
            pick -= k
        for _ in range(pick):
            cells &= cells - 1
        c1 = (cells & -cells).bit_length() - 1
        c2 = c1 + step
        vals[t * 36 + c1], vals[t * 36 + c2] = x, y
        owner[t * 36 + c1] = owner[t * 36 + c2] = d
        hand.remove(d)
        empty = False
        both = (1 << c1) | (1 << c2)
        open_[t] &= ~both
        if t < 2:
            open_[t + 1] |= both & TIER_MASK[t + 1]
            above = allow[t + 1]
            for c, v in ((c1, x), (c2, y)):
                for w in range(v + 1, 7):
                    above[w] |= 1 << c
        hot[x] |= NEIGHBOUR_MASK[c1]
        hot[y] |= NEIGHBOUR_MASK[c2]
        plies += 1
        trace.append((PLACE, t, c1, c2, x, y))
    rest = tuple(reversed(pile)) if state.pile else ()
    return ZState(tuple(vals), tuple(owner), tuple(sorted(hand)), unseen, rest, state.cheats, state.limit, state.deal,
                  gave_up)


@pytest.mark.parametrize("case", CASES)
def test_seeded_search_repeats_the_recorded_choices(case, monkeypatch):
    """mcts:300it chooses what the plain implementation chose, and a rollout ends where it ended. The record is older
    than K'Dak's patience (a search that climbs after a long climb, tests/test_kdak_ai.py), a choice of play rather
    than a fast path, so here every search weighs every move, as then."""
    name, variant = case.split("/")
    game = all_games()[name]
    monkeypatch.setattr(type(game), "search_moves", Game.search_moves)
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
