"""Elevation's fast turn generator (bit masks, shared groups and rows) against the plain reference generator
(`reference.py`: every part of a turn tried square by square), on many random positions of every variant."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import TERMINAL
from towerworld.games.elevation import GAME as G
from towerworld.games.elevation.board import DRAW
from towerworld.games.elevation.reference import reference_turns
from towerworld.games.elevation.rules import advance, all_turns, clear_tables, has_turn, piece_turns

OPTION_SETS = [{}, {"terrain": "checker"}, {"terrain": "valley", "setup": "dragons-centre"},
               {"terrain": "hills", "setup": "fish-wings", "ocean": True}, {"undermining": True},
               {"samurai_undermining": True, "setup": "dragons-wings"}, {"two_pieces": True, "ocean": True},
               {"undermining": True, "samurai_undermining": True, "terrain": "checker", "draw_offers": False}]


def _positions(options: dict, seed: int, count: int) -> list:
    """Positions along random games (the opening, the middle game, low ground dug down to the floor of the box)."""
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        st = G.new_state(options)
        for _ in range(rng.randrange(0, 90)):
            if G.current_player(st) == TERMINAL:
                break
            moves = [m for m in all_turns(st) if m[0] != DRAW]
            st = advance(st, moves[rng.randrange(len(moves))])
        if G.current_player(st) != TERMINAL:
            out.append(st)
    return out


@pytest.mark.parametrize("n", range(len(OPTION_SETS)))
def test_fast_generator_equals_the_reference_on_random_positions(n):
    """The same turns in the same (sorted) order, whether the tables are cold or already hold other positions' groups;
    a piece's own turns and whether a side can move agree too."""
    options = OPTION_SETS[n]
    positions = _positions(options, seed=100 + n, count=30)
    clear_tables()
    for cold in (True, False):
        for st in positions:
            expected = reference_turns(st)
            assert all_turns(st) == expected, (options, cold, G.format_move(st, expected[0]) if expected else None)
            for s in set(st.pos):
                if s >= 0:
                    assert piece_turns(st, s) == [m for m in expected if m[0] == s]
            stuck = not any(m[0] != DRAW for m in expected)
            assert has_turn(st.heights, st.board, st.kinds, st.mover, st.rules, st.used) == (not stuck)


def test_the_reference_knows_the_rules():
    """The yardstick itself, on the seed's sentences: "Digging means picking up a terrain tile from any square that is
    adjacent to the piece you are playing ... and placing it back onto any unoccupied adjacent square", "You may not
    climb up more than one vertical step"; at the start a samurai in the corner has exactly these basic moves."""
    st = G.new_state()
    a1 = 0
    turns = [m for m in reference_turns(st) if m[0] == a1]
    # neighbours of a1: b1 (own dragon), a2, b2 (empty); all three deep
    assert all(m[1] in (0, 1) for m in turns)                        # a samurai only makes basic moves
    assert (a1, 0, 6, 7, 7) in turns                                 # dig a2 onto b2, climb one onto b2
    assert (a1, 0, 6, 7, 6) in turns                                 # dig a2 onto b2, drop onto a2
    assert not any(m[1] == 0 and m[3] == 1 for m in turns)           # nothing onto the dragon's square
    st = G.position({"a1": "samurai:0:a", "f6": "samurai:1:f"}, heights={"a2": 4})
    turns = [m for m in reference_turns(st) if m[0] == a1]
    assert (a1, 0, 1, 7, 6) in turns                                 # onto a2, one step up
    assert (a1, 0, 1, 6, 6) not in turns and (a1, 0, 1, 6, 7) in turns  # a2 raised to 5: two steps up, refused
    assert not any(m[1] == 0 and m[2] == 35 for m in turns)          # no dig from a square not adjacent
