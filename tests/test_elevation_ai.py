"""Elevation's evaluation terms for converting a lead, each on a constructed position."""
from __future__ import annotations

import math

from towerworld.games.elevation import GAME as G
from towerworld.games.elevation.board import square_of as sq
from towerworld.games.elevation.strategy import (WIN, ElevationMCTS, _reach, _siege, _threat_value, evaluate,
                                                 squash, threats)


def _step_position(c1: int):
    """Red (a dragon on d2 at 5 and a samurai far off) against a lone Blue fish on b1 at 4, Blue to move. The square
    c1 beside the fish stands at `c1`; the tiles it gains come from a6, far from everyone."""
    heights = {"a1": 3, "a2": 3, "b1": 4, "b2": 3, "c1": c1, "c2": 3, "d2": 5, "a6": 6 - (c1 - 3)}
    return G.position({"b1": "fish:1:c", "d2": "dragon:0:b", "e5": "samurai:0:a"}, heights=heights, mover=1)


def test_the_side_ahead_counts_the_step_it_builds_beside_the_enemy():
    """'If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it' and 'You may not climb up more than one vertical step as you move': the dragon at 5 can reach the fish
    at 4 only over a square beside it raised to 6, so every tile piled on c1 (3, then 4, then 5) brings the capture
    closer, and the side ahead sees that as progress, though no piece of it moved."""
    states = [_step_position(c1) for c1 in (3, 4, 5)]
    attackers, target = [sq("d2"), sq("e5")], [sq("b1")]
    sieges = [_siege(st.heights, st.board, attackers, target) for st in states]
    assert sieges[0] > sieges[1] > sieges[2]
    # the plain distance only knows the pieces' own heights: it cannot tell these positions apart
    assert len({_reach(st.heights, attackers, target) for st in states}) == 1
    values = [evaluate(st, 0) for st in states]
    assert values[0] < values[1] < values[2]


def test_standing_two_above_beside_the_enemy_is_the_end_of_the_siege():
    """Two Red pieces two above the Blue fish, next to it: nothing left to build, the siege costs nothing."""
    st = G.position({"b1": "fish:1:c", "c2": "dragon:0:b", "a2": "samurai:0:a"}, heights={"b1": 2, "c2": 4, "a2": 4})
    assert sq("b1") in threats(st.heights, st.board, st.kinds, 0, st.rules)
    assert _siege(st.heights, st.board, [sq("c2"), sq("a2")], [sq("b1")]) == 0.0
    assert _siege(st.heights, st.board, [sq("c2")], [sq("b1")]) > 0.0      # no second attacker


def test_a_second_attacker_close_by_counts():
    """One attacker is stepped away from; a trap needs a second piece near, so the distance term counts the second
    nearest attacker too (at half weight)."""
    pieces = {"b1": "fish:1:c", "d2": "dragon:0:b"}
    near = G.position({**pieces, "d1": "samurai:0:a"}, heights={"d1": 3})
    far = G.position({**pieces, "f6": "samurai:0:a"}, heights={"f6": 3})
    attackers = lambda st: [q for q in range(36) if st.board[q] >= 0 and st.board[q] // 6 == 0]  # noqa: E731
    assert _reach(near.heights, attackers(near), [sq("b1")]) < _reach(far.heights, attackers(far), [sq("b1")])


def test_a_threatened_piece_with_one_way_out_is_worth_more_to_the_attacker_than_one_with_two():
    """A threatened piece steps to a safe square if it has one; closing the last way out is what traps it, so each
    escape square fewer counts. Red's dragon on c3 at 4 stands two above the Blue fish on b2 at 2; the fish's
    neighbours are out of reach (5) except a1 and a2, and a2 is safe only while no Red piece stands two above it."""
    base = {"a1": 3, "a2": 3, "a3": 5, "b1": 5, "b3": 5, "c1": 5, "c2": 5, "b2": 2, "c3": 4}
    pieces = {"b2": "fish:1:c", "c3": "dragon:0:b", "f6": "samurai:1:a"}
    two_ways = G.position(pieces, heights=base)
    one_way = G.position({**pieces, "a3": "samurai:0:a"}, heights=base)          # two above a2
    no_way = G.position({**pieces, "a3": "samurai:0:a"}, heights={**base, "a1": 5})
    values = []
    for st in (two_ways, one_way, no_way):
        assert sq("b2") in threats(st.heights, st.board, st.kinds, 0, st.rules)
        hunters = [q for q in range(36) if st.board[q] >= 0 and st.board[q] // 6 == 0]
        values.append(_threat_value(st.heights, st.board, st.kinds, sq("b2"), hunters))
    assert values[0] < values[1] < values[2] == 100.0


def test_a_turn_that_loses_material_names_the_hunted_piece_and_the_search_steps_it_out():
    """The trap of test_elevation_game's _trap() from Red's side: Blue's samurai on c3 can step to b2, two above Red's
    fish on a1, hemmed in by squares at 4. A samurai turn elsewhere loses the fish, and the check says which piece is
    hunted; the search plays a turn that keeps its material even when that turn ranks low at first sight."""
    st = G.position({"a1": "fish:0:c", "f1": "samurai:0:a", "c3": "samurai:1:a"},
                    heights={"a1": 1, "a2": 4, "b1": 4, "b2": 3, "c3": 3})
    agent = ElevationMCTS(seed=3, level="300it")
    agent.kinds, agent.rules = st.kinds, st.rules
    assert agent._loses_material(st, G.parse_move(st, "Sf1 e1>e2 -f2")) == {sq("a1")}
    assert agent._loses_material(st, G.parse_move(st, "Fa1 b2>a2 -b2")) == set()
    for seed in range(2):
        agent = ElevationMCTS(seed=seed, level="300it")
        move = agent.choose_state(st)
        assert move[0] == sq("a1") and not agent._loses_material(st, move), G.format_move(st, move)


def test_far_ahead_the_search_still_tells_a_better_turn_from_a_worse_one():
    """Leaves are measured from the root's own evaluation: 400 points ahead, a turn worth 30 points more must still
    stand out from the exploration noise, as it does in an even position (plain tanh would squeeze it to nothing)."""
    for anchor in (0.0, 400.0):
        assert squash(anchor + 60, anchor) - squash(anchor + 30, anchor) > 0.15
    assert math.tanh(460 / 150) - math.tanh(430 / 150) < 0.01
    assert squash(WIN, 400.0) == 1.0 and squash(-WIN, -400.0) == -1.0
    assert squash(500.0, 400.0) > 0 > squash(300.0, 400.0)
