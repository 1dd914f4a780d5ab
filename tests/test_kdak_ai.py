"""K'Dak's searching agents: they climb in the end (the seed sets no limit, and two searchers would wait for ever)."""
from __future__ import annotations

import random

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.match import Match, PlayerSpec
from towerworld.games.kdak import GAME as G
from towerworld.games.kdak.board import END_CAP
from towerworld.games.kdak.strategy import CLIMB_PATIENCE, patient_moves

try:
    from test_kdak_rules import face_up, known, pawns_at, start
except ImportError:  # tests run as a package
    from tests.test_kdak_rules import face_up, known, pawns_at, start


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
