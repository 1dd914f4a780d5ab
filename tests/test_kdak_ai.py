"""K'Dak's searching agents: they climb in the end (the seed sets no limit, and two searchers would wait for ever)."""
from __future__ import annotations

import math
import random

import pytest

from towerworld.ai import make_agent
from towerworld.ai.mcts import search
from towerworld.engine.driver import play_match
from towerworld.engine.game import CHANCE
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.measure import search_states
from towerworld.games.kdak import GAME as G
from towerworld.games.kdak.playout import _aimed_removal
from towerworld.games.kdak.rules import END_CAP, REVEAL, ROLL, unseen_identities
from towerworld.games.kdak.strategy import CLIMB_PATIENCE, patient_moves

try:
    from test_kdak_rules import escaping, face_up, known, pawns_at, slot, start
except ImportError:  # tests run as a package
    from tests.test_kdak_rules import escaping, face_up, known, pawns_at, slot, start


def formatted(s, moves):
    return sorted(G.format_move(s, m) for m in moves)


def test_a_search_weighs_every_move_until_the_climb_has_lasted_long():
    # a1 above, a0 around: player 1 on b1 with a1 and b1 face up may go up (b2), across (a1) or down (b0)
    s = pawns_at(start(), p0="b1", p1="c0")
    s = known(face_up(s, "a0", "b0", "a1", "b1"), a0="suns:1", b0="suns:2", a1="suns:3", b1="suns:4")
    legal = G.legal_moves(s)
    assert {"b2", "a1", "b0"} <= set(formatted(s, legal))
    early = s._replace(plies=CLIMB_PATIENCE - 1)
    assert G.search_moves(early, legal) == legal
    late = s._replace(plies=CLIMB_PATIENCE)
    assert formatted(late, G.search_moves(late, G.legal_moves(late))) == ["b2"]


def test_after_a_long_climb_a_search_never_goes_down():
    # only b1 face up on level 1: up is not legal yet, so across (to turn a second tile up) but not down
    s = pawns_at(start(), p0="b1", p1="c0")
    s = known(face_up(s, "a0", "b0", "b1"), a0="suns:1", b0="suns:2", b1="suns:4")
    s = s._replace(plies=CLIMB_PATIENCE + 5)
    legal = G.legal_moves(s)
    assert "b0" in formatted(s, legal) and "b2" not in formatted(s, legal)
    weighed = formatted(s, patient_moves(s, legal))
    assert "b0" not in weighed and weighed and all(m[-1] == "1" for m in weighed)


def test_two_default_opponents_finish_a_game():
    # Two searchers used to pace the lower levels for ever, each waiting for the other to climb first (the cap here
    # only stops a broken search: the game must end by the rules, at the switch and after the escape).
    match = Match(G, options={"move_cap": 400}, players=[PlayerSpec("one", "ai", "mcts"), PlayerSpec("two", "ai", "mcts")],
                  seed=3)
    agents = {seat: make_agent("mcts", G, seed=seat, level="400it") for seat in (0, 1)}
    done = play_match(match, agents, chance=random.Random(3))
    assert done.state.door and done.state.end != END_CAP, G.result(done.state)


# ---- merged chance outcomes (the strong level's tree) ------------------------------------------------------------------
def _reveals(options: dict, seed: int) -> list:
    """Reveal states of seeded random games: a tile being turned up or discarded, its identity still to be drawn."""
    opts, n = G.resolve_options(options, None)
    states = search_states(G, games=3, every=2, options=opts, players=n, seed=seed)
    after = [G.apply_unchecked(s, m)[0] for s in states for m in G.legal_moves(s)]
    return [s for s in after if s.stage == REVEAL]


def _by_rank(state):
    """The state with each identity written as its rank: all the rules read of a tile."""
    return state._replace(ident=tuple(v % 6 if v >= 0 else -1 for v in state.ident))


@pytest.mark.parametrize("options", [{}, {"talisman": True}])
def test_a_merged_reveal_is_one_outcome_per_rank_and_its_identities_play_alike(options):
    """Each rank still unseen is one outcome with the chance of all its identities, and turning up any identity of
    that rank gives one game once suits are forgotten (moves, scores, talismans and the ranks still unseen alike)."""
    states = _reveals(options, seed=9)
    assert len(states) > 20
    for s in states:
        full = G.chance_outcomes(s)
        merged = G.search_chance_outcomes(s)
        assert sorted(m[1] % 6 for m, _ in merged) == sorted({m[1] % 6 for m, _ in full})
        assert math.isclose(sum(p for _, p in merged), 1.0)
        for move, p in merged:
            alike = [m for m, _ in full if m[1] % 6 == move[1] % 6]
            assert move in alike and math.isclose(p, len(alike) / len(full))
            after = [G.apply_unchecked(s, m)[0] for m in alike]
            assert len({_by_rank(a) for a in after}) == 1
            assert len({tuple(sorted(v % 6 for v in unseen_identities(a.ident))) for a in after}) == 1
            assert len({tuple(G.legal_moves(a)) for a in after}) == 1


def test_merged_rolls_are_the_levels_a_roll_can_name():
    """A roll at or above the tower's height removes from its top level: those faces are one outcome."""
    s = escaping(stage=ROLL)
    assert G.search_chance_outcomes(s) == G.chance_outcomes(s)
    low = s._replace(cols=tuple(col[:3] for col in s.cols))
    merged = G.search_chance_outcomes(low)
    assert [m for m, _ in merged] == [("roll", 0), ("roll", 1), ("roll", 2)]
    assert [round(p * 6) for _, p in merged] == [1, 1, 4]
    assert {G.apply_unchecked(low, ("roll", r))[0].level for r in range(2, 6)} == {2}


def _chance_widths(node, out):
    if node is None or node.children is None:
        return out
    if node.player == CHANCE:
        out.append(len(node.children))
    for child in node.children:
        _chance_widths(child, out)
    return out


def test_a_search_with_merged_chance_branches_on_ranks_and_reaches_deeper():
    """With `abstract`, a reveal in the tree has at most six children (the ranks) where the plain tree has one per
    unseen identity, so the same simulations reach further down."""
    s = pawns_at(escaping(), p0="b2", p1="d3")
    plain = search(G, s, random.Random(4), math.inf, 3000, 2.0)
    merged = search(G, s, random.Random(4), math.inf, 3000, 2.0, abstract=True)
    assert max(_chance_widths(plain, [])) > 6 and max(_chance_widths(merged, [])) <= 6

    def depth(node):
        kids = [c for c in node.children or () if c is not None and c.visits > 1]
        return 1 + max(map(depth, kids), default=0)

    assert depth(merged) > depth(plain)


# ---- the aimed removal (the strong level's playouts) -------------------------------------------------------------------
def _removal(s, level: int, p: int = 0) -> str:
    cols = [list(col) for col in s.cols]
    cands = [c for c in range(4) if len(cols[c]) > level]
    return "abcd"[_aimed_removal(cols, cands, level, s.up, list(s.ident), list(s.pawns), p)]


def test_the_aimed_removal_throws_the_other_player_out_and_never_itself():
    # player 1 (p0) rolls the null level: the other pawn stands on c0, its own on a0
    s = pawns_at(escaping(), p0="a0", p1="c0")
    assert _removal(s, 0) == "c"
    assert _removal(s, 0, p=1) == "a"


def test_the_aimed_removal_takes_the_best_tile_beside_the_other_player_and_spares_its_own():
    # p1 on c3 has b3 (a known 5) and d3 (a known ace) beside it; p0 on a2 has a3 (a known 4) above it
    s = pawns_at(escaping(), p0="a2", p1="c3")
    s = known(s, b3="moons:5", d3="suns:1", a3="arms:4")
    assert _removal(s, 3) == "b"
    s = known(s, b3="moons:ace", d3="suns:4")
    assert _removal(s, 3) == "d", "the higher tile beside the other pawn"
    s = face_up(known(s, b3="moons:5", d3="suns:5"), "b3", "d3")
    assert _removal(s, 3) == "c", "face-up tiles are worth nothing: the unseen one under the other pawn goes"


def test_the_strong_level_merges_chance_and_plays_out_with_the_aimed_removal_while_normal_stays_plain():
    from towerworld.engine.agent import ask
    from towerworld.games.kdak import strategy
    strong, normal = make_agent("mcts", G, seed=1, level="strong"), make_agent("mcts", G, seed=1)
    assert strong.abstract_chance and strong.playout is strategy.aimed_playout and strong.max_simulations == 10_000
    assert not normal.abstract_chance and normal.playout is None and normal.max_simulations == 2_500
    calls = []

    def spy(state, rng, max_plies=None):
        calls.append(state)
        return strategy.aimed_playout(state, rng, max_plies)

    agent = make_agent("mcts", G, seed=1, level="strong")
    agent.playout, agent.max_simulations = spy, 200
    s = pawns_at(escaping(), p0="b2", p1="d3")
    assert ask(agent, G, s) in G.legal_moves(s)
    assert 100 < len(calls) <= 200


def test_the_aimed_playout_differs_from_the_plain_one_only_in_the_escape():
    """Before the door opens nothing is removed, so the aimed playout plays the plain one's game; after, it does not."""
    from towerworld.games.kdak.playout import policy_playout
    climbing = [s for s in search_states(G, games=2, every=5, seed=3) if not s.door]
    shut = 0
    for i, s in enumerate(climbing):
        plain = policy_playout(s, random.Random(i), 8)
        if not plain.door:          # eight plies that never opened the door
            shut += 1
            assert policy_playout(s, random.Random(i), 8, aim=True) == plain
    assert shut >= 5
    s = pawns_at(escaping(), p0="a0", p1="c0")
    ends = [(policy_playout(s, random.Random(i), 20_000, aim=True), policy_playout(s, random.Random(i), 20_000))
            for i in range(20)]
    assert any(a != b for a, b in ends)
