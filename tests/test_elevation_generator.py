"""Elevation's fast turn generator (bit masks, shared groups and rows) against the plain reference generator
(`reference.py`: every part of a turn tried square by square), on many random positions of every variant."""
from __future__ import annotations

import random
from dataclasses import replace

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


@pytest.mark.parametrize("n", range(len(OPTION_SETS)))
def test_whether_a_side_can_move_agrees_with_the_reference_for_both_sides(n):
    """`has_turn` (what decides "left the opponent without a legal turn") asks the same generator as every list of
    turns; for both sides of crowded late positions where pieces are hemmed in, and for each piece that could be the
    one that already acted in the two-pieces game, it is exactly whether the reference finds a turn."""
    options = OPTION_SETS[n]
    checked = {True: 0, False: 0}
    for st in _positions(options, seed=200 + n, count=40):
        for side in (0, 1):
            view = replace(st, mover=side, used=-1, phase=0)
            for used in [-1] + [b for b in st.board if b >= 0 and b // 6 == side]:
                expected = any(m[0] != DRAW for m in reference_turns(replace(view, used=used)))
                assert has_turn(st.heights, st.board, st.kinds, side, st.rules, used) == expected, (options, used)
                checked[expected] += 1
    assert checked[True] > 100, checked


def test_has_turn_on_a_hemmed_in_side():
    """"You may not climb up more than one vertical step": a samurai in a pit with no empty square it can climb to has
    no turn at all, and another piece of its side that can step and dig gives the side a turn again."""
    heights = {"a1": 0, "b1": 5, "a2": 5, "b2": 5}
    st = G.position({"a1": "samurai:0:a", "f6": "samurai:1:f"}, heights=heights)
    assert reference_turns(st) == [(DRAW, 0)] and not has_turn(st.heights, st.board, st.kinds, 0, st.rules)
    st = G.position({"a1": "samurai:0:a", "d4": "fish:0:c", "f6": "samurai:1:f"}, heights=heights)
    assert has_turn(st.heights, st.board, st.kinds, 0, st.rules)


@pytest.mark.parametrize("n", range(len(OPTION_SETS)))
def test_a_state_keeps_its_masks_up_to_date(n):
    """Each turn updates the state's own masks (each side's squares, the squares of each height) instead of the
    generator reading the whole board again: along random games (digs down to the floor of the box, captures) they
    are exactly the masks read from the heights and the board."""
    from towerworld.games.elevation.board import BIT, SQUARES
    from towerworld.games.elevation.rules import _Masks
    for st in _positions(OPTION_SETS[n], seed=300 + n, count=40):
        sides = tuple(sum(BIT[s] for s in range(SQUARES) if st.board[s] >= 0 and st.board[s] // 6 == side)
                      for side in (0, 1))
        assert st.occupied == sides
        assert st.levels == tuple(sum(BIT[s] for s in range(SQUARES) if st.heights[s] == h)
                                  for h in range(max(st.heights) + 1))
        fast, read = _Masks.of(st), _Masks(st.heights, st.board, st.mover)
        assert [getattr(fast, a) for a in _Masks.__slots__] == [getattr(read, a) for a in _Masks.__slots__]


def test_the_piece_table_key_covers_every_square_a_turn_depends_on():
    """A piece's turns are remembered by the heights and pieces of its region; a fish's region reaches three squares
    out (seed: the fish may "dig then move two squares in a straight diagonal line, or that move then dig", and the dig
    after the leap is next to the square it lands on). Two positions that differ only on d4, three squares from the
    fish on a1, must not share an entry: after the leap to c3 a tile can be dug from d4 in one and not the other."""
    pieces = {"a1": "fish:0:c", "f6": "samurai:1:f"}
    with_tile = G.position(pieces)
    without = G.position(pieces, heights={"d4": 0})
    clear_tables()
    for st in (with_tile, without, with_tile):
        assert all_turns(st) == reference_turns(st)
    leap_dig_d4 = (0, 3, 14, 21, 20)          # Fa1 -c3 d4>c4
    assert leap_dig_d4 in all_turns(with_tile) and leap_dig_d4 not in all_turns(without)
    # exact heights two squares out: the end of a fish's leap ("each step obeys the climb rule"), and where a dragon's
    # second step goes (its "move twice": each step a basic step, climbing at most one)
    for pieces, far in (({"a1": "fish:0:c", "f6": "samurai:1:f"}, "c3"), ({"a1": "dragon:0:b", "f6": "samurai:1:f"}, "c1")):
        clear_tables()
        for h in (4, 5, 4, 5):
            st = G.position(pieces, heights={far: h})
            assert all_turns(st) == reference_turns(st), (pieces, far, h)


def test_the_piece_tables_stay_bounded(monkeypatch):
    """The piece tables are dropped when they reach their limit, so a long search cannot grow them without end; the
    turns stay right across the drop."""
    from towerworld.games.elevation import rules
    monkeypatch.setattr(rules, "_PIECE_KEYS_LIMIT", 40)
    clear_tables()
    for st in _positions({}, seed=7, count=30):
        assert all_turns(st) == reference_turns(st)
        assert sum(len(table) for table in rules._PIECE_TABLES) <= 40
    assert rules._piece_keys == sum(len(table) for table in rules._PIECE_TABLES)
    clear_tables()


@pytest.mark.parametrize("n", range(len(OPTION_SETS)))
def test_the_search_lists_the_same_turns_from_heights_and_board_alone(n):
    """The search's states hold heights and board only; `turns_on` lists their turns through the same generator as
    the game's legal moves: on random positions exactly the reference's complete turns (no draw offers), for both
    sides, with the tables cold and warm."""
    from towerworld.games.elevation.rules import turns_on
    positions = _positions(OPTION_SETS[n], seed=400 + n, count=20)
    clear_tables()
    for _ in range(2):
        for st in positions:
            for side in (0, 1):
                expected = [m for m in reference_turns(replace(st, mover=side, used=-1, phase=0)) if m[0] != DRAW]
                assert turns_on(st.heights, st.board, st.kinds, side, st.rules) == expected, (n, side)
