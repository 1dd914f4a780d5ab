"""Elevation's evaluation terms for converting a lead, each on a constructed position."""
from __future__ import annotations

import math
import random
from collections import Counter

from towerworld.ai.agents import make_agent
from towerworld.engine.agent import seat_view
from towerworld.games.elevation import GAME as G
from towerworld.games.elevation import strategy
from towerworld.games.elevation.board import DRAGON, DRAW, SAMURAI, SQUARES, square_of as sq
from towerworld.games.elevation.strategy import (PLAN_REPLIES, VALUE, WIN, ElevationMCTS, _best_take, _footing, _lead,
                                                 _nearest_reach, _siege, _taken_value, _threat_value, evaluate,
                                                 forced_gain, forcing_turn, likely_replies, plan_gain, squash,
                                                 static_eval, threats)


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
    assert len({_nearest_reach(st.heights, attackers, target) for st in states}) == 1
    # (c1 at 3 is no square for the fish to flee to, under the dragon two above it; at 4 and 5 it is)
    values = [static_eval(st.heights, st.board, st.kinds, 0, 1, st.rules, hunting=True) for st in states[1:]]
    assert values[0] < values[1]


def test_standing_two_above_beside_the_enemy_is_the_end_of_the_siege():
    """Two Red pieces two above the Blue fish, next to it: nothing left to build, the siege costs nothing."""
    st = G.position({"b1": "fish:1:c", "c2": "dragon:0:b", "a2": "samurai:0:a"}, heights={"b1": 2, "c2": 4, "a2": 4})
    assert sq("b1") in threats(st.heights, st.board, st.kinds, 0, st.rules)
    assert _siege(st.heights, st.board, [sq("c2"), sq("a2")], [sq("b1")]) == 0.0
    assert _siege(st.heights, st.board, [sq("c2")], [sq("b1")]) > 0.0      # no second attacker


def test_a_second_attacker_close_by_counts():
    """One attacker is stepped away from; a trap needs a second piece near, so the search's distance through the
    terrain counts the second nearest attacker too (at half weight)."""
    pieces = {"b1": "fish:1:c", "d2": "dragon:0:b"}
    near = G.position({**pieces, "d1": "samurai:0:a"}, heights={"d1": 3})
    far = G.position({**pieces, "f6": "samurai:0:a"}, heights={"f6": 3})
    attackers = lambda st: [q for q in range(36) if st.board[q] >= 0 and st.board[q] // 6 == 0]  # noqa: E731
    assert (_siege(near.heights, near.board, attackers(near), [sq("b1")])
            < _siege(far.heights, far.board, attackers(far), [sq("b1")]))


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


# a game of the search (Red) against greedy, seed 22, up to the ply where greedy's dragon and the search's dig back and
# forth beside each other on e2 and f2: Red is 620 to 320 ahead and two positions have occurred twice
_SHUFFLE = [
    "Fd1 -b3 b4>c3", "Db6 -c5 -c4", "Db1 -b2 -c3", "De6 -e5 -e4", "Dc3 b2>d4 b2>d4", "Dc4 -d4", "Dc3 c2>d3 d2>d3",
    "Dd4 -d3 c2>d4", "Dc3 d4>b4 -d4", "De4 e5>f3 -f3", "Dd4 e3>d5 e3>d5", "Fd6 d5>e6 -b4", "Dd4 c3>c5 c3>c5",
    "Fc6 -d5 c5>c4", "Dd4 c4>c5 c4>c5", "Df3 e3>f2 f4>f2", "De1 -f2", "Fb4 c5>a3 -a3", "Dd4 e4>c5 -c5",
    "Fd5 d4>e5 -e5", "Dc5 -d5 c5>e6", "Fe5 e4>e6 -d4", "Dd5 e6>c5 -e6", "Sf6 f5>e5 -e5", "De6 d6>d5 f6>d5",
    "Fd4 c5>d5 -c5", "De6 -d5", "Fc5 d6>b4 -b4", "Dd5 c6>c5 d6>e6", "Dd3 c4>e2 c2>e2", "Df2 -e2 d1>f2", "Df3 -f2",
    "Sf1 -e1 d2>d1", "Sa6 -b5 c5>a5", "Se1 d2>d1 -d1", "Se5 d4>f4 -f4", "De2 e1>f3 -f3", "Dd3 c3>e2 c3>e2",
    "Df3 -e2", "Dd3 -d4 -e5", "Dd5 e6>c5 xe5", "Df2 f3>e3 f3>e3", "De2 d1>f3 e3>f3", "Df2 f3>e3 f3>e3",
    "De2 f3>e3 f3>e3", "Df2 f3>e3 -e3", "De5 -e6 d5>e5", "Sf4 e5>f5 -e5", "De6 -d5 -c5", "Fb4 -a5 b4>a6",
    "Fb3 a2>a4 -a4", "Sb5 b4>c4 -a6", "Dc5 -d5 xe5", "Sa6 -b5 b6>b4", "De5 d5>d6 -d5", "Sb5 b6>c5 -a6", "Dd5 -c5",
    "Fa3 b2>b3 -b3", "Dc5 b4>b5 c4>b5", "De3 f4>d3 e4>d4", "Dc5 b4>c4 b4>b5", "Sa6 b5>b6 -b5", "Dc5 xb5 c5>a6",
    "Fa5 -a6 a5>b6", "Db5 a5>b6 -c5", "Fa6 b6>b5 -b5", "Fa4 -a3 a2>a4", "Fb3 -a4 b3>a5", "De2 d3>f2 d3>f2",
    "De3 -f2", "Fa3 a2>b3 -b3", "Df2 e3>e1 e3>f1", "De2 d1>e3 e1>e3", "Df2 e3>e1 e3>e1", "De2 e1>e3 d3>e3",
    "Df2 e3>e1 e3>f3", "De2 e1>e3 e1>e3", "Df2 e3>e1 e3>e1", "De2 e1>e3 d3>e3", "Df2 e3>e1 e3>f3", "De2 e1>e3 e1>e3",
    "Df2 e3>e1 e3>e1",
]


def test_ahead_the_search_gives_the_other_side_no_third_repetition():
    """'Each undo the other player's move three times in a row' is a draw. Far ahead, the turns the search liked
    best all let greedy's dragon dig back into a position seen twice; it plays another turn instead."""
    st = G.apply_texts(G.new_state({"move_cap": 200}), *_SHUFFLE)
    twice = {k for k, n in Counter(st.history).items() if n >= 2}
    assert st.mover == 0 and len(twice) == 2 and _lead(st.board, st.kinds, 0) == 300
    agent = ElevationMCTS(seed=0, level="300it")
    agent.kinds, agent.rules = st.kinds, st.rules
    ordered = [m for m, _ in agent._root_order(st, [m for m in G.legal_moves(st) if m[0] >= 0])]
    liked = [G.parse_move(st, t) for t in ("De2 e1>e3 f1>e3", "De2 e1>d3 f1>e3", "De2 e1>f1 e1>e3")]
    assert all(agent._allows_repetition(st, m, twice) for m in liked)
    agent._work = [agent.check_work]
    move = agent._pick(st, liked, ordered)
    assert not agent._allows_repetition(st, move, twice), G.format_move(st, move)


def _dragon_guards_fish():
    """From a game against greedy (ply 160): Blue, ahead four pieces to two, to move. Red's fish on b2 stands at 1 next
    to Red's dragon on b3 at 8; Blue's dragon on d3 at 13 can take the fish over c2 (3), and Red's dragon takes it
    back. Red's dragon alone on its pillar, among squares dug low, is far harder to reach than the fish."""
    rows = ["7 0 5 3 2 3", "4 0 0 1 4 2", "2 1 3 4 1 5", "2 8 0 13 0 2", "1 1 3 8 4 2", "1 0 1 11 1 3"]
    heights = {"abcdef"[f] + str(6 - r): int(h) for r, row in enumerate(rows) for f, h in enumerate(row.split())}
    return G.position({"c6": "samurai:1:a", "f4": "samurai:1:f", "d4": "fish:1:c", "d3": "dragon:1:b",
                       "b3": "dragon:0:b", "b2": "fish:0:c"}, heights=heights, mover=1)


def test_ahead_in_pieces_the_search_trades_down():
    """'To win, you must capture all of your opponents pieces': four pieces against two, a dragon for a fish leaves
    three against one, a step nearer the end, though the dragon is worth more. Both the position after the trade
    (Red's dragon taken back onto b2) and the capture itself are worth more to the search than the position now."""
    st = _dragon_guards_fish()
    hunt = lambda s: static_eval(s.heights, s.board, s.kinds, 1, s.mover, s.rules, hunting=True)  # noqa: E731
    traded = G.apply_texts(st, "Dd3 -c2 xb2", "Db3 a2>c2 xb2")
    assert hunt(traded) > hunt(st)
    for seed in range(2):
        move = ElevationMCTS(seed=seed, level="300it").choose_state(st)
        assert G.format_move(st, move) == "Dd3 -c2 xb2"


def test_taking_the_nearest_enemy_piece_never_makes_the_rest_look_farther():
    """The distance terms add up over the enemy pieces: were they averaged, the fish beside Red's dragon gone, only
    the far dragon would be left in the average, and taking the fish would look like a step away from the goal."""
    st = _dragon_guards_fish()
    blue = [q for q in range(36) if st.board[q] >= 0 and st.board[q] // 6 == 1]
    fish, dragon = sq("b2"), sq("b3")
    alone = _siege(st.heights, st.board, blue, [dragon])
    assert _siege(st.heights, st.board, blue, [fish]) < alone       # the fish is the nearer target
    assert _siege(st.heights, st.board, blue, [fish, dragon]) > alone
    assert _nearest_reach(st.heights, blue, [fish, dragon]) > _nearest_reach(st.heights, blue, [dragon])


def test_a_threatened_piece_with_no_way_out_counts_for_the_attacker_even_when_the_other_side_moves():
    """'If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it': Red's dragon on c3 at 4 stands two above the Blue fish on b2 at 2, and Blue is to move. With a1 at
    3 the fish can still step there; with a1 at 5 every square around it is too high or under a Red piece two above
    it, so it is lost whatever Blue does (a one-ply defender only sees that once it is too late). The search counts
    that at 0.7 of the fish (70 points more), the plain heuristic hardly tells the two apart."""
    heights = {"a1": 3, "a2": 3, "a3": 5, "b1": 5, "b3": 5, "c1": 5, "c2": 5, "b2": 2, "c3": 4}
    pieces = {"b2": "fish:1:c", "c3": "dragon:0:b", "f6": "samurai:1:a", "a3": "samurai:0:a"}
    one_way = G.position(pieces, heights=heights, mover=1)
    no_way = G.position(pieces, heights={**heights, "a1": 5}, mover=1)
    hunt = lambda s: static_eval(s.heights, s.board, s.kinds, 0, 1, s.rules, hunting=True)  # noqa: E731
    assert hunt(no_way) - hunt(one_way) > 50
    assert abs(evaluate(no_way, 0) - evaluate(one_way, 0)) < 20


def test_the_checks_look_at_no_more_replies_than_their_budget():
    """The forcing and safety checks share a count of replies per move (a seeded game must repeat whatever the load,
    so it is counted, not timed). The trapped fish of test_elevation_game's _trap: with the count to spare, the scan
    finds that every Blue reply loses the fish; with a count of 5 it stops at once, and its result is not trusted."""
    st = G.apply_texts(G.position({"c3": "samurai:0:a", "a1": "fish:1:c", "f6": "samurai:1:a"},
                                  heights={"a1": 1, "a2": 4, "b1": 4, "b2": 3, "c3": 3}), "Sc3 d4>d3 -b2")
    plenty = [10**6]
    assert forced_gain(st.heights, st.board, st.kinds, 0, st.rules, -1e9, plenty) >= 100
    replies = len(G.legal_moves(st)) - 1           # less the draw offer
    assert 10**6 - plenty[0] >= replies
    short = [5]
    forced_gain(st.heights, st.board, st.kinds, 0, st.rules, -1e9, short)
    assert short[0] <= 0
    # a whole move with a small count: spent, and overrun by no more than one scan's setup
    agent = ElevationMCTS(seed=0, level="300it")
    agent.check_work = 300
    agent.choose_state(G.apply_texts(_dragon_guards_fish(), "Fd4 -e5 d4>e4"))
    assert -replies < agent._work[0] <= 0


def test_a_capture_a_dragon_takes_back_over_two_steps_is_worth_less():
    """'Move twice - but not dig', each step a basic step, so each may capture: Red's samurai on b3 at 4 can take the
    Blue fish on c3 at 2, but Blue's dragon on e3 can step to d3 (5) and from there take the samurai on c3 (two
    above) unless the dragon stands too low to climb onto d3. What the forcing check counts as won there is the fish
    less a samurai's worth only when the dragon can."""
    def position(dragon_height: int, d3: int = 5):
        return G.position({"b3": "samurai:0:a", "c3": "fish:1:c", "e3": "dragon:1:b", "a6": "samurai:1:f"},
                          heights={"b3": 4, "c3": 2, "d3": d3, "e3": dragon_height, "a1": 1,
                                   "b1": 11 - d3 - dragon_height})
    for dragon_height, won in ((5, 100 - 90), (3, 100)):
        st = position(dragon_height)
        assert _best_take(st.heights, st.board, st.kinds, 0, st.rules) == won
    # "a basic move is dig-then-move or move-then-dig": the samurai takes on c3 and digs d3 beside it, one lower (to
    # 3, one above the samurai) or one higher (to 6, two above the dragon on 4), and the way back is gone
    st = position(4, d3=4)
    assert _best_take(st.heights, st.board, st.kinds, 0, st.rules) == 100


def test_a_dragon_that_takes_steps_on_so_no_retake_is_counted_against_it():
    """A dragon may "move twice (each step a basic step, captures allowed)": having taken, it steps on, so a Blue
    samurai two above the taken square does not make the capture worth less, as it does when a samurai takes."""
    def position(taker: str):
        return G.position({"b3": f"{taker}:0:a", "c3": "fish:1:c", "d3": "samurai:1:f", "a6": "samurai:1:e"},
                          heights={"b3": 4, "c3": 2, "d3": 4, "a1": 2, "b1": 2})
    assert _best_take(*_light(position("samurai"))) == 100 - 90
    assert _best_take(*_light(position("dragon"))) == 100


def _light(st):
    return st.heights, st.board, st.kinds, 0, st.rules


def test_the_side_ahead_takes_away_the_footing_of_the_last_enemy_piece(monkeypatch):
    """A samurai 'can only perform a basic move' (a dig and a step every turn), so Blue's last samurai, on a stack of
    6, stays that high only while a free square as high (or one higher) is next to it; it climbs out of reach by
    stepping to and fro between two such stacks, piling tiles on each in turn. Red, far ahead, counts that square dug
    down (d4 from 6 to 5: the samurai would have to step down) as a gain against what the siege loses (the same
    square is the step Red would build on)."""
    def position(d4: int):
        heights = {"c4": 6, "d4": d4, "e4": 6 - d4 + 3, "b5": 4, "f1": 3}
        return G.position({"c4": "samurai:1:a", "b5": "dragon:0:b", "f1": "samurai:0:a", "a1": "fish:0:c"},
                          heights=heights, mover=1)
    high, low = position(6), position(5)
    assert _footing(high.heights, high.board, [sq("c4")]) == 1
    assert _footing(low.heights, low.board, [sq("c4")]) == 0
    hunt = lambda s: static_eval(s.heights, s.board, s.kinds, 0, 1, s.rules, hunting=True)  # noqa: E731
    with_footing = hunt(low) - hunt(high)
    monkeypatch.setattr(strategy, "FOOTING", 0.0)
    assert with_footing > hunt(low) - hunt(high) + 3


# seed 31 of the ladder's schedule (mcts against greedy), game 1, Blue (the search) to move at ply 18: Blue's fish on
# e2 at 5 stands two above Red's samurai on f1 at 3
_UNRANKED_CAPTURE = (
    {"a1": "samurai:0:a", "b1": "dragon:0:b", "f1": "samurai:0:f", "d2": "fish:0:c", "e2": "fish:1:c",
     "b3": "fish:0:d", "b5": "fish:1:d", "c5": "dragon:0:e", "d5": "dragon:1:e", "a6": "samurai:1:a",
     "b6": "dragon:1:b", "f6": "samurai:1:f"},
    {"e1": 2, "b2": 2, "d2": 4, "e2": 5, "f2": 4, "c3": 2, "d3": 2, "f3": 4, "b4": 0, "d4": 1, "e4": 1, "b5": 5,
     "c5": 5, "d5": 5, "e5": 2, "b6": 5, "c6": 4, "d6": 1})


def test_every_turn_is_scanned_for_one_that_wins_material_whatever_the_reply():
    """'If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it': the fish on e2 can take the samurai on f1 and keep it whatever Red replies, but the evaluation does
    not rank that capture first (it ranked it in the bottom half of 1,712 positions before the siege's weights were
    mended). The scan of every turn (captures first) finds it even when the forcing check tries fewer turns than
    the capture's rank (here none: of the turns ranked above it, the dragon's double dig on c4 threatens enough to
    count as forcing since a retake must survive the captor's dig), and the search plays it."""
    pieces, heights = _UNRANKED_CAPTURE
    st = G.position(pieces, heights=heights, mover=1)
    agent = ElevationMCTS(seed=0, level="normal")
    agent.kinds, agent.rules = st.kinds, st.rules
    ranked = [m for m, _ in agent._root_order(st, [m for m in G.legal_moves(st) if m[0] >= 0])]
    takes = [i for i, m in enumerate(ranked) if _taken_value(st.board, st.kinds, m, 1) > 0]
    assert takes and min(takes) > 0
    turn, gain = forcing_turn(st.heights, st.board, st.kinds, 1, st.rules, 80.0, [10 ** 6])
    assert turn is not None and gain >= 90
    for seed in range(2):
        agent = ElevationMCTS(seed=seed, level="normal")
        agent.forcing_width = 0         # the forcing check stops short of the capture: the scan finds it
        agent.seconds = None
        move = agent.choose_state(st)
        after, _ = G.apply(st, move)
        assert after.board[sq("f1")] == st.board[sq("e2")], G.format_move(st, move)


# the same game at ply 40, Blue (the search) to move: no turn wins material at once whatever the reply
_PLAN = (
    {"a1": "samurai:0:a", "c2": "dragon:0:b", "d2": "fish:1:c", "e2": "fish:0:c", "a3": "samurai:1:a",
     "a4": "fish:0:d", "c4": "dragon:0:e", "c5": "fish:1:d", "d5": "dragon:1:e", "b6": "dragon:1:b",
     "f6": "samurai:1:f"},
    (3, 1, 1, 4, 4, 3, 4, 0, 4, 5, 5, 4, 5, 4, 3, 4, 2, 4, 4, 0, 5, 0, 0, 4, 1, 4, 5, 5, 1, 2, 2, 5, 3, 1, 3, 3))


def test_the_search_plays_the_first_turn_of_a_plan_that_the_likely_replies_do_not_stop():
    """A capture needs two steps up ('at least TWO steps higher than an adjacent enemy piece'), so a fork is often a
    turn away. Here no turn wins material whatever the reply; the search plays a quiet turn after which, against each
    of Red's three likely replies (the plain evaluation's best: what greedy picks among), it has one that does. Greedy's
    own reply ranks among them, and after it the forcing turn is there."""
    pieces, heights = _PLAN
    st = G.position(pieces, heights=heights, mover=1)
    assert forcing_turn(st.heights, st.board, st.kinds, 1, st.rules, 80.0, [10 ** 6])[0] is None
    for seed in range(2):
        agent = ElevationMCTS(seed=seed, level="normal")
        agent.seconds = None
        move = agent.choose_state(st)
        assert agent.last_plan == move, G.format_move(st, move)
        assert plan_gain(st.heights, st.board, st.kinds, 1, st.rules, move, 80.0, [10 ** 6]) > 80.0
    after, _ = G.apply(st, move)
    likely = likely_replies(after.heights, after.board, after.kinds, 0, after.rules, PLAN_REPLIES, [10 ** 6])
    greedy = make_agent("greedy", G, seed=1)
    reply = greedy.choose(seat_view(greedy, G, after))

    def plain(m) -> float:
        h, b, _ = strategy.successor(after.heights, after.board, m)
        return static_eval(h, b, after.kinds, 0, 1, after.rules)
    assert plain(reply) >= min(plain(m) for m in likely)        # greedy picks among them (or one as good)
    answered, _ = G.apply(after, reply)
    assert forcing_turn(answered.heights, answered.board, answered.kinds, 1, answered.rules, 80.0, [10 ** 6])[0]


# a ladder game (seed 1, greedy against mcts, game 10) at ply 43, Red (greedy) to move: Red's fish on d4 at 7 takes
# Blue's samurai on e4 at 5; Blue's other pieces huddle in the corner, where no free square touches most of them
_CAPTURE_IN_THE_CORNER = (
    {"a2": "samurai:0:a", "c2": "fish:0:c", "d2": "dragon:0:e", "e2": "samurai:0:f", "d4": "fish:0:d",
     "e4": "samurai:1:a", "f4": "dragon:0:b", "e5": "fish:1:c", "f5": "dragon:1:e", "a6": "dragon:1:b",
     "e6": "fish:1:d", "f6": "samurai:1:f"},
    (3, 3, 3, 3, 3, 2, 4, 1, 3, 4, 4, 2, 1, 3, 7, 2, 1, 3, 4, 6, 0, 7, 5, 4, 0, 2, 6, 0, 0, 4, 4, 4, 2, 1, 4, 3))


def test_a_piece_taken_is_a_loss_for_the_side_that_loses_it():
    """'To win, you must capture all of your opponents pieces': a piece taken is a step toward losing. The search's
    evaluation once weighed the distance to every enemy piece more the further ahead a side was; behind by the
    samurai here, Blue's huddled pieces then looked so far from Red that Blue valued the loss at +506, and greedy took
    four of the search's pieces in that game."""
    pieces, heights = _CAPTURE_IN_THE_CORNER
    st = G.position(pieces, heights=heights, mover=0)
    take = next(m for m in G.legal_moves(st) if G.format_move(st, m) == "Fd4 xe4 d4>f3")
    after, _ = G.apply(st, take)
    assert sum(1 for b in after.board if b >= 0 and b // 6 == 1) == 5
    for player, sign in ((1, -1), (0, 1)):          # Blue loses, Red gains
        before_value = static_eval(st.heights, st.board, st.kinds, player, 1, st.rules, hunting=True)
        after_value = static_eval(after.heights, after.board, after.kinds, player, 1, after.rules, hunting=True)
        assert sign * (after_value - before_value) > 0, (player, before_value, after_value)


def _perch(tile_beside: bool):
    """A ladder game's end (seed 1, mcts against greedy, game 3, ply 200), Red to move, six pieces against Blue's lone
    dragon on f5 at 7. Every square beside the dragon is empty; one tile is left there (on e6) or has been dug away
    beyond its reach (to c5)."""
    pieces = {"d6": "samurai:0:a", "f3": "samurai:0:f", "c2": "dragon:0:b", "e2": "dragon:0:e", "c1": "fish:0:c",
              "d2": "fish:0:d", "f5": "dragon:1:e"}
    heights = {"a1": 3, "b1": 1, "c1": 4, "d1": 0, "e1": 1, "f1": 1, "a2": 3, "b2": 0, "c2": 5, "d2": 4, "e2": 2,
               "f2": 15, "a3": 4, "b3": 2, "c3": 1, "d3": 0, "e3": 0, "f3": 3, "a4": 3, "b4": 6, "c4": 9, "d4": 10,
               "e4": 0, "f4": 0, "a5": 2, "b5": 7, "c5": 0 if tile_beside else 1, "d5": 4, "e5": 0, "f5": 7,
               "a6": 0, "b6": 4, "c6": 1, "d6": 5, "e6": 1 if tile_beside else 0, "f6": 0}
    return G.position(pieces, heights=heights, mover=0)


def test_a_last_piece_is_hunted_by_emptying_the_squares_beside_it():
    """'You may not remove terrain from squares that contain an enemy piece' and the dragon may 'Dig twice - but not
    move': a last dragon on a tower keeps its height for ever by digging the tiles beside it from square to square, and
    knocks down faster than one attacker can build any step raised beside it. The tiles are its only footing: once
    none is left beside it, it cannot dig, and must step down ('You win if the other player has no pieces left or is
    unable to make a move'). So the side ahead counts each tile dug away from beside a last piece as progress. The
    plain siege, which builds a step beside the target, counted the tile on e6 as a step begun and preferred it
    there."""
    kept, dug = _perch(True), _perch(False)
    assert sum(kept.heights) == sum(dug.heights)
    red = [s for s in range(36) if kept.board[s] >= 0 and kept.board[s] // 6 == 0]
    blue = [sq("f5")]
    assert _siege(dug.heights, dug.board, red, blue) < _siege(kept.heights, kept.board, red, blue)
    for player, sign in ((0, 1), (1, -1)):
        values = [static_eval(st.heights, st.board, st.kinds, player, 1, st.rules, hunting=True) for st in (kept, dug)]
        assert sign * (values[1] - values[0]) > 0, (player, values)
    # with nothing beside it, the dragon's only turns are steps down off its tower
    blue_to_move = G.apply(dug, next(m for m in G.legal_moves(dug) if G.format_move(dug, m) == "Sd6 -d5 c5>c6"))[0]
    turns = [m for m in G.legal_moves(blue_to_move) if m[0] != DRAW]
    assert turns and all(G.apply(blue_to_move, m)[0].board[sq("f5")] < 0 for m in turns)


def _middle_games(count: int, seed: int) -> list:
    """Positions from random play, ten to forty turns in (pieces close, heights uneven)."""
    rng = random.Random(seed)
    positions: list = []
    while len(positions) < count:
        st = G.new_state()
        for turn in range(40):
            if G.current_player(st) < 0:
                break
            if turn >= 10 and turn % 3 == 0:
                positions.append(st)
            turns = [m for m in G.legal_moves(st) if m[0] != DRAW]
            st = G.apply(st, turns[rng.randrange(len(turns))])[0]
    return positions[:count]


def test_the_easy_level_is_a_beginner_who_overlooks_the_other_sides_captures(monkeypatch):
    """The easy level must be 'beatable by a beginner (it plays plausible, not random, moves)': it plays one ply on
    the plain evaluation, but on most turns overlooks what the other side can then take. Over the same positions, a
    beginner that always overlooks leaves something to be taken after far more of its turns than one that never
    does."""
    agent = make_agent("mcts:easy", G, seed=0)
    assert isinstance(agent, strategy.Beginner)
    positions = _middle_games(48, 5)
    exposed = {}
    for oversight in (0.0, 1.0):
        monkeypatch.setattr(strategy.Beginner, "OVERSIGHT", oversight)
        exposed[oversight] = 0
        for i, st in enumerate(positions):
            me = st.mover
            m = strategy.Beginner(i).choose_state(st)
            assert m in G.legal_moves(st)
            h, b, _ = strategy.successor(st.heights, st.board, m)
            if _best_take(h, b, st.kinds, 1 - me, st.rules) > _taken_value(st.board, st.kinds, m, me):
                exposed[oversight] += 1
    assert exposed[1.0] >= 2 * exposed[0.0] + 2, exposed


def test_the_capturing_turns_remembered_per_group_are_those_that_land_on_an_enemy():
    """The checks and the search's candidates take a piece's capturing turns from a table kept per turn group and the
    enemies near the piece (`_capturing_turns`); on positions of random play they are exactly the turns that step
    onto an enemy piece, in order ("If you are at least TWO steps higher than an adjacent enemy piece then you can
    move onto that square and capture it"), however often a group met other enemies before."""
    from towerworld.games.elevation.rules import ONGOING, _Masks, advance, all_turns, piece_turn_groups
    from towerworld.games.elevation.strategy import _captures, _capturing_turns
    rng = random.Random(4)
    checked = captures = 0
    for _ in range(12):
        st = G.new_state()
        for _ in range(40):
            for side in (0, 1):
                masks = _Masks(st.heights, st.board, side)
                for s in range(36):
                    b = st.board[s]
                    if b < 0 or b // 6 != side:
                        continue
                    groups = piece_turn_groups(st.heights, masks, s, st.kinds[b], st.rules)
                    plain = [m for group in groups for m in group if _captures(st.board, m, side)]
                    assert _capturing_turns(groups, s, masks.enemy) == plain
                    checked += 1
                    captures += len(plain)
            turns = [m for m in all_turns(st) if m[0] >= 0]
            if not turns:
                break
            st = advance(st, turns[rng.randrange(len(turns))])
            if st.outcome != ONGOING:
                break
    assert checked > 1000 and captures > 50


def test_the_search_sees_a_fish_leap_over_a_middle_square_it_lowers_first():
    """"Dig, then move TWO squares - but only diagonally" and the ruling "each step obeys the climb rule": a Red fish
    on c3 at 5 cannot climb onto d2 at 7, but it can first dig d2 down to 6 and then leap over it onto Blue's dragon
    on e1 at 2 (four below d2). The search's threats see that; the plain heuristic (greedy's) keeps its old
    approximation, which only raises the middle square."""
    st = G.position({"c3": "fish:0:c", "e1": "dragon:1:b", "a6": "samurai:1:a"},
                    heights={"c3": 5, "d2": 7, "e1": 2}, mover=0)
    capture = [m for m in G.legal_moves(st) if m[0] >= 0 and _taken_value(st.board, st.kinds, m, 0)]
    assert capture, "the rules allow the leap"
    assert sq("e1") in threats(st.heights, st.board, st.kinds, 0, st.rules)
    assert sq("e1") not in threats(st.heights, st.board, st.kinds, 0, st.rules, lowered=False)


def _perched_dragon(extra: dict | None = None, mover: int = 0):
    """Blue's last piece, a dragon on d4 at 8, every square beside it at 2 (16 tiles); Red's dragon on b3 at 3, two
    squares away (out of a single step's reach, and the dragon's two steps land too low to take it), and two Red
    samurai far off."""
    ring = {name: 2 for name in ("c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5")}
    pieces = {"d4": "dragon:1:b", "b3": "dragon:0:b", "a6": "samurai:0:a", "f1": "samurai:0:f", **(extra or {})}
    return G.position(pieces, heights={"d4": 8, "b3": 3, **ring}, mover=mover)


def _beside(st, name: str) -> int:
    """The tiles on the free squares beside the piece on `name`."""
    from towerworld.games.elevation.board import NEIGHBOURS
    return sum(st.heights[q] for q in NEIGHBOURS[sq(name)] if st.board[q] < 0)


def test_against_a_last_perched_piece_the_hunt_takes_tiles_away_from_beside_it():
    """"Digging means picking up a terrain tile from any square that is adjacent to the piece you are playing ... and
    placing it back onto any unoccupied adjacent square": the perched dragon's own digs only move the tiles beside it
    around, so every tile Red digs off those squares and puts beyond them is gone for good, and "To win, you must
    capture all of your opponents pieces" once it has to come down. Red's dragon digs twice, both tiles off the ring
    (16 -> 14); the search alone (the hunt switched off) with a root of only 14 turns takes one
    and stepped (with its root of 30 it finds the double dig too)."""
    from towerworld.games.elevation.rules import advance
    st = _perched_dragon()
    assert ElevationMCTS(seed=1)._hunting(st)
    for seed in (1, 2):
        assert _beside(advance(st, ElevationMCTS(seed=seed).choose_state(st)), "d4") == 14

    class NoHunt(ElevationMCTS):
        def _hunting(self, state):
            return False
    assert _beside(advance(st, NoHunt(seed=1, root_width=14).choose_state(st)), "d4") == 15


def test_the_hunt_starts_when_the_other_side_has_two_pieces_or_fewer_and_this_side_two_more():
    """The hunt plays only far ahead in pieces: three against one or four against two, not two against one, nor
    three against two, nor when the other side still has three."""
    agent = ElevationMCTS(seed=1)
    assert agent._hunting(_perched_dragon())                                                    # 3 against 1
    assert not agent._hunting(_perched_dragon({"a6": "fish:1:c"}))                              # 2 against 2
    assert agent._hunting(_perched_dragon({"c1": "fish:0:c", "a1": "samurai:1:a"}))             # 4 against 2
    assert not agent._hunting(_perched_dragon({"a1": "samurai:1:a"}))                           # 3 against 2
    assert not agent._hunting(_perched_dragon({"c1": "fish:0:c", "a1": "samurai:1:a", "f6": "fish:1:d"}))


def test_against_three_or_four_pieces_the_hunt_starts_once_nothing_has_been_taken_for_thirty_plies():
    """"To win, you must capture all of your opponents pieces": five against three, or six against four, with nothing
    taken for thirty plies is a standoff the search mostly keeps to the move cap, so the hunt plays it; not before the
    thirtieth ply, and never only one piece ahead."""
    from dataclasses import replace
    agent = ElevationMCTS(seed=1)
    blue = {"a1": "samurai:1:a", "f6": "fish:1:d"}                          # with the dragon on d4: three
    five_three = _perched_dragon({"c1": "fish:0:c", "c6": "dragon:0:e", **blue})
    six_four = _perched_dragon({"c1": "fish:0:c", "c6": "dragon:0:e", "e1": "fish:0:d", "b6": "fish:1:c", **blue})

    def quiet(st, plies):
        return replace(st, history=tuple(range(plies - 1)) + st.history)
    assert agent._hunting(quiet(five_three, 30)) and agent._hunting(quiet(six_four, 30))
    assert not agent._hunting(quiet(five_three, 29)) and not agent._hunting(quiet(six_four, 29))
    assert not agent._hunting(quiet(_perched_dragon({"c1": "fish:0:c", **blue}), 30))                  # 4 against 3
    assert not agent._hunting(quiet(_perched_dragon({"c1": "fish:0:c", "c6": "dragon:0:e", "b6": "fish:1:c",
                                                     **blue}), 300))                                  # 5 against 4


def _twin_tower(supply: str):
    """Blue's last samurai on d4 at 10 beside e4 at 10, the twin it steps to; three tiles on `supply` (c4 is beside
    d4 alone, f4 beside e4 alone, a3 beside neither), every other square dug to nothing; Red's pieces far off."""
    heights = {f"{c}{r}": 0 for c in "abcdef" for r in range(1, 7)}
    heights.update({"d4": 10, "e4": 10, supply: 3})
    pieces = {"d4": "samurai:1:a", "a1": "dragon:0:b", "a6": "samurai:0:a", "f1": "fish:0:c"}
    return G.position(pieces, heights=heights, mover=1)


def test_the_hunt_values_a_turn_where_the_hunted_piece_stands_after_its_reply():
    """"Digging means picking up a terrain tile from any square that is adjacent to the piece you are playing ... and
    placing it back onto any unoccupied adjacent square", and a samurai must move every turn: on a double tower it
    steps to the twin square, and the tiles beside the twin are as good to it as those beside its own. Tiles moved from
    beside d4 to beside e4 alone are no progress, though one ply, counting the tiles beside d4, rates that the same as
    tiles taken beyond both; after every reply (`_hunt_reply`) they rate worse than those beyond, and worse than the
    tiles left where they were."""
    from towerworld.games.elevation.strategy import _hunt_cost, _hunt_reply
    cost, after = {}, {}
    for supply in ("c4", "f4", "a3"):
        st = _twin_tower(supply)
        mine = [q for q in range(36) if st.board[q] >= 0 and st.board[q] // 6 == 0]
        cost[supply] = _hunt_cost(st.heights, st.board, mine, [sq("d4")])
        after[supply] = _hunt_reply(st.heights, st.board, st.kinds, 0, st.rules)
    assert cost["f4"] == cost["a3"] < cost["c4"]
    assert after["f4"] < after["c4"] < after["a3"]


def _block(retaker: bool):
    """Red's dragon on c4 at 3, two below Blue's last samurai on d4 at 5, which may take it; Red's samurai on b4 at 5
    (`retaker`) would then stand two above it, or on b1, out of reach."""
    pieces = {"d4": "samurai:1:a", "c4": "dragon:0:b", "f1": "fish:0:c",
              ("b4" if retaker else "b1"): "samurai:0:a"}
    return G.position(pieces, heights={"d4": 5, "c4": 3, "b4": 5, "b1": 5}, mover=1)


def test_a_piece_whose_capture_costs_the_last_piece_is_no_loss_to_the_hunt():
    """"If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it" and "To win, you must capture all of your opponents pieces": Blue's last samurai may take Red's dragon
    on c4, and Red's samurai on b4 then takes it, which is the game. One ply counts the dragon as lost (less a
    samurai's worth for the retake); after every reply the hunt sees the capture lose, so a piece set there blocks a
    square the samurai cannot dig or put a tile on. Without the retaker the capture is a loss after the reply too."""
    from towerworld.games.elevation.strategy import _hunt_reply
    block, bare = _block(True), _block(False)
    assert _best_take(block.heights, block.board, block.kinds, 1, block.rules) > 0
    assert _hunt_reply(block.heights, block.board, block.kinds, 0, block.rules) > -VALUE[SAMURAI] / 2
    assert _hunt_reply(bare.heights, bare.board, bare.kinds, 0, bare.rules) < -VALUE[DRAGON]


def test_while_hunting_a_capture_taken_back_at_once_is_no_loss():
    """Red's dragon on c4 at 3 stands two below Blue's samurai on d4 and fish on c5 (both at 5); Red's samurai on b4 at
    5 takes back on c4, and the other Blue piece takes again. Whatever Red's far fish does, the safety check counts
    the dragon as lost (a dragon for a samurai or fish, then the samurai); while hunting, a capture whose captor is
    taken back at once is no loss (far ahead, each trade brings the end nearer). Without the retaker it is a loss
    either way."""
    for retaker in (True, False):
        pieces = {"d4": "samurai:1:a", "c5": "fish:1:c", "c4": "dragon:0:b", "f1": "fish:0:c",
                  ("b4" if retaker else "a1"): "samurai:0:a"}
        st = G.position(pieces, heights={"d4": 5, "c5": 5, "c4": 3, "b4": 5, "a1": 3}, mover=0)
        agent = ElevationMCTS(seed=0)
        agent.kinds, agent.rules = st.kinds, st.rules
        fish = next(m for m in G.legal_moves(st) if m[0] == sq("f1") and _stays_far(st, m))
        agent._work = [math.inf]
        assert agent._forced_loss(st, fish)[0] >= VALUE[SAMURAI] - 10.0
        agent._work = [math.inf]
        assert (agent._forced_loss(st, fish, trades=True)[0] < VALUE[SAMURAI] - 10.0) == retaker


def _stays_far(st, move) -> bool:
    """Whether `move` leaves every square of files a to d as it was."""
    h, b, _ = strategy.successor(st.heights, st.board, move)
    return all(h[q] == st.heights[q] and b[q] == st.board[q] for q in range(SQUARES) if q % 6 < 4)


# the search's game 22 of a ladder against greedy, up to the ply where its dragon
# on d2 and greedy's on e2 dig back and forth beside each other: the search (Blue) leads six pieces to two, and the
# position it is to move in has occurred before
_STANDOFF = [
    "De1 -d2 -d3", "Db6 b5>c5 -c5", "Dd3 e4>c4 -c4", "Fd6 d5>e5 -e5", "Fc1 -e3 e4>f3", "Dc5 b5>d4 b6>d4",
    "Dc4 b5>d5 -d4", "Dc5 d5>c4 -c4", "Dd4 d5>c5 d3>d5", "Dc4 d5>c5 -c5", "Sa1 a2>b2 -b2", "Dc5 b4>c4 d5>c4",
    "Sb2 -b3 a4>c4", "Dc5 -c4", "Dd4 -c5 b4>d4", "Dc4 xc5 c4>d4", "Fe3 f3>d2 -d2", "Dc5 -c4 xb3", "Db1 -b2 c3>a2",
    "Db3 c3>c2 -c2", "Fd1 -e2 f2>d3", "Dc2 c1>d3 b3>d3", "Fd2 d3>c1 -e3", "Dc2 d3>d2 -d2", "Fe2 -f3 f2>e2",
    "Dd2 xe3 f4>e2", "Ff3 e2>f2 -e2", "De3 -d2", "Fe2 e1>e3 -f3", "Dd2 e3>e2 -e2", "Ff3 f4>e3 -e3", "De2 f2>d2 xf1",
    "Fe3 d2>f3 -d2", "Df1 -e2", "Fd2 c1>c2 -c2", "De2 -d2 c1>e1", "Fc2 c3>b3 -a4", "Dd2 c1>c2 -c2", "Db2 b1>a2 -a2",
    "Dc2 b2>b3 -b3", "Fa4 -a5 b4>a4", "Db3 b2>a4 a3>a4", "Fa5 a4>b6 -a4", "Db3 a3>c3 a3>c4", "Da2 -b1 a2>b2",
    "Db3 b2>a2 b2>c4", "Db1 a1>b2 a2>b2", "Db3 b2>a2 c2>c3", "Db1 c2>b2 -b2", "Db3 c2>a2 c2>c4", "Db2 a1>c2 a2>c3",
    "Db3 c2>a2 c3>c4", "Db2 a2>c2 a2>c3", "Db3 a2>c2 c3>c2", "Db2 -c2", "Sa6 -a5 a6>b6", "Dc2 -d2 -e2",
    "Db3 -c2 -d2", "Fa4 -b3 b2>a4", "Sa5 a4>a6 -a4", "Fb3 -c2 c3>d3", "Sa4 -b3 b2>b4", "De2 f2>e1 f3>d1",
    "Dd2 d1>c1 d3>e1", "De2 f1>d3 f3>d1", "Dd2 d1>e1 d3>e1", "De2 e1>d3 f3>d1", "Dd2 d1>e1 d3>e1",
    "De2 e1>d1 e1>d3"]


def test_the_hunt_gives_the_other_side_no_third_repetition():
    """'Each undo the other player's move three times in a row' is a draw. Six pieces against two, the hunt used to
    refuse only its own returns to an earlier position; greedy's dragon digging back beside it recreated the position
    the hunter was to move in, and the game was drawn at ply 77. No seed's hunt now plays a turn after which greedy can
    make a third repetition (seeds 1, 4 and 5 did)."""
    st = G.apply_texts(G.new_state(), *_STANDOFF)
    twice = {k for k, n in Counter(st.history).items() if n >= 2}
    agent = ElevationMCTS(seed=0)
    assert twice and agent._hunting(st)
    turns = [m for m in G.legal_moves(st) if m[0] >= 0]
    agent.kinds, agent.rules = st.kinds, st.rules
    assert any(agent._allows_repetition(st, m, twice) for m in turns)
    for seed in range(6):
        agent = ElevationMCTS(seed=seed, level="300it")
        agent.kinds, agent.rules = st.kinds, st.rules
        agent._work = [agent.check_work]
        move = agent._hunt(st, turns)
        assert not agent._allows_repetition(st, move, twice), (seed, G.format_move(st, move))


def test_the_search_samples_a_nodes_turns_as_random_sample_does():
    """strategy._sample inlines random.sample's loop for a node's ~2,000 turns (a seeded game must repeat whatever
    does the drawing): over many seeds and the sizes the search draws (24, 96, 48), it makes the very list
    random.sample makes, and leaves the generator in the same state."""
    from towerworld.games.elevation.strategy import _sample
    population = list(range(2_000))
    for seed in range(60):
        for k in (24, 96, 48):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert _sample(ours, population, k) == theirs.sample(population, k), (seed, k)
            assert ours.random() == theirs.random()
    small = list(range(30))                    # below the set's table size: random.sample itself
    assert _sample(random.Random(1), small, 24) == random.Random(1).sample(small, 24)


def test_the_evaluations_remembered_siege_is_the_siege_computed_afresh():
    """The search's evaluation reads each target's siege part from a table keyed by codes of the board and the
    heights around it (_siege_sum); over positions of random play, for both sides and asked twice (the second time
    from the table), it is exactly _siege_parts computed afresh."""
    from towerworld.games.elevation.strategy import _board_sides, _siege_sum
    checked = 0
    for st in _middle_games(40, seed=11) + _middle_games(20, seed=12):
        sides = _board_sides(st.board)
        ext = st.heights + sides[7]
        for side in (0, 1):
            mine, theirs = sides[side], sides[1 - side]
            if not mine or not theirs:
                continue
            fresh = strategy._siege_parts(st.heights, st.board, mine, theirs)
            for _ in range(2):
                assert _siege_sum(ext, st.heights, st.board, sides[4], mine, theirs, sides[8][side]) == fresh
            checked += 1
    assert checked >= 100


def _perch_position(enemy_height: int, perch_height: int):
    """Red's samurai on c3 at 3; Blue's dragon two squares off on e3, d3 between them empty, and Blue's fish on d2
    beside all three, as high as the dragon."""
    return G.position({"c3": "samurai:0:a", "e3": "dragon:1:b", "a6": "fish:0:c", "d2": "fish:1:c"},
                      heights={"c3": 3, "e3": enemy_height, "d3": perch_height, "d2": enemy_height})


def test_the_search_sees_a_piece_two_turns_before_it_can_be_taken():
    """'If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it' and 'You may not climb up more than one vertical step as you move': Blue's dragon at 4, two squares
    from Red's samurai at 3, digs a tile onto d3 (4, then 5) and climbs onto it, two above the samurai, a turn before
    it can take it. No capture is possible yet, so the threats cannot see it; the search's evaluation counts the
    enemy standing above within two squares, and the empty square above the samurai that the enemy can reach."""
    danger = _perch_position(enemy_height=4, perch_height=4)
    safe = _perch_position(enemy_height=3, perch_height=3)
    for st in (danger, safe):
        assert not threats(st.heights, st.board, st.kinds, 1, st.rules)
    red, blue = [sq("c3"), sq("a6")], [sq("e3"), sq("d2")]
    assert strategy._danger(danger.heights, danger.board, red, blue) == (1, 1)
    assert strategy._danger(safe.heights, safe.board, red, blue) == (0, 0)
    # (d2, as high as d3, is no perch: a piece stands on it)
    # the empty square above the samurai is no perch while no enemy can step onto it
    far = _perch_position(enemy_height=2, perch_height=4)
    assert strategy._danger(far.heights, far.board, red, blue) == (0, 0)
    # nor while the enemy as high as it stands two squares from it
    off = G.position({"c3": "samurai:0:a", "f3": "dragon:1:b", "a6": "fish:0:c", "f1": "fish:1:c"},
                     heights={"c3": 3, "d3": 4, "f3": 4})
    assert strategy._danger(off.heights, off.board, red, [sq("f3"), sq("f1")]) == (0, 0)
    # a perch counts for the side it threatens, not for the side standing above
    assert strategy._danger(danger.heights, danger.board, blue, red) == (0, 0)


def test_danger_weighs_in_the_searchs_evaluation_only(monkeypatch):
    """The plain evaluation, greedy's, is the opponent the ladders measure against: the danger terms leave it alone."""
    st = _perch_position(enemy_height=4, perch_height=4)
    red, blue = (st.heights, st.board, st.kinds, 0, 0, st.rules), (st.heights, st.board, st.kinds, 1, 0, st.rules)
    plain = [static_eval(*red), static_eval(*blue)]
    search = [static_eval(*red, hunting=True), static_eval(*blue, hunting=True)]
    cost = strategy.DANGER_NEAR + strategy.DANGER_PERCH       # Red's one piece in danger, one perch; Blue's none
    monkeypatch.setattr(strategy, "DANGER_NEAR", 0.0)
    monkeypatch.setattr(strategy, "DANGER_PERCH", 0.0)
    assert [static_eval(*red), static_eval(*blue)] == plain
    assert math.isclose(static_eval(*red, hunting=True) - search[0], cost)           # it cost Red
    assert math.isclose(static_eval(*blue, hunting=True) - search[1], -cost)         # and was worth as much to Blue
