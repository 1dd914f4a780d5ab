"""Elevation rules, sentence by sentence (seed 004 and the shared rulings)."""
from __future__ import annotations

import random

import pytest

from towerworld.engine.game import BadNotation, BadOption, IllegalMove, TERMINAL, OMNISCIENT
from towerworld.games.elevation import GAME as G
from towerworld.games.elevation.layout import piece_id
from towerworld.games.elevation.board import (ACCEPT, DECLINE, DIG_DIG as DD, DIG_MOVE as DM, DRAW,
                                              FISH_DIG_LEAP as FDM, FISH_LEAP_DIG as FMD, LONE_STEP,
                                              MOVE_DIG as MD, MOVE_MOVE as MM, OFFER, TERRAIN_PRESETS, UNDERMINE,
                                              square_of as sq_of)
from towerworld.games.elevation.board import DRAWN


def sq(name):
    return sq_of(name)


def moves_of(state, square):
    return [m for m in G.legal_moves(state) if m[0] == sq(square)]


play = G.apply_texts


def refuse(state, text):
    """The reason a syntactically fine move is refused (parse_move names the rule)."""
    with pytest.raises(BadNotation) as e:
        G.parse_move(state, text)
    return str(e.value)


# ---- setup --------------------------------------------------------------------------------------------------------

def test_setup_six_by_six_three_deep_and_home_rows():
    """Seed: "The game is played on a 6x6 grid with 'terrain' tiles stacked on every square."
    Rulings: every square starts three tiles deep (108 tiles); samurai, dragon, fish, fish, dragon, samurai."""
    st = G.new_state()
    assert st.heights == (3,) * 36 and sum(st.heights) == 108
    assert sorted(n for stack in st.stacks for n in stack) == list(range(108))
    order = ["samurai", "dragon", "fish", "fish", "dragon", "samurai"]
    for side, row in ((0, 1), (1, 6)):
        for c, kind in zip("abcdef", order):
            b = st.board[sq(f"{c}{row}")]
            assert b >= 0 and b // 6 == side
            assert piece_id(b, st.kinds) == f"{kind}:{side}:{c}"
    assert sum(1 for b in st.board if b >= 0) == 12
    assert G.current_player(st) == 0


def test_terrain_presets_hold_108_tiles_and_bad_options_are_refused():
    """Rulings: "option: other terrain presets"."""
    for name in TERRAIN_PRESETS:
        st = G.new_state({"terrain": name})
        assert sum(st.heights) == 108
    assert G.new_state({"terrain": "hills"}).heights[sq("c3")] == 4
    with pytest.raises(BadOption):
        G.new_state({"terrain": "moon"})
    with pytest.raises(BadOption):
        G.new_state({"move_cap": 5})


# ---- dig ----------------------------------------------------------------------------------------------------------

def test_dig_from_adjacent_square_onto_unoccupied_adjacent_square():
    """Seed: "Digging means picking up a terrain tile from any square that is adjacent to the piece you are playing
    (orthogonally or diagonally) and placing it back onto any unoccupied adjacent square." """
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"})
    sources = {m[2] for m in moves_of(st, "c3") if m[1] == DM}
    targets = {m[3] for m in moves_of(st, "c3") if m[1] == DM}
    ring = {sq(n) for n in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")}
    assert sources == ring and targets == ring
    after = play(st, "Sc3 b2>d4 -c4")
    assert after.heights[sq("b2")] == 2 and after.heights[sq("d4")] == 4
    assert "next to your piece" in refuse(st, "Sc3 a1>d4 -c4")
    assert "under the piece you are playing" in refuse(st, "Sc3 c3>d4 -c4")


def test_the_dug_tile_keeps_its_identity():
    """Rulings: "lift one tile ... and put it on a different adjacent square": the top tile moves."""
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"})
    top = st.stacks[sq("b2")][-1]
    after = play(st, "Sc3 b2>d4 -c4")
    assert after.stacks[sq("d4")][-1] == top
    assert after.stacks[sq("b2")] == st.stacks[sq("b2")][:-1]


def test_no_placing_terrain_onto_an_occupied_square():
    """Seed: "You may not place terrain onto squares that are occupied by another pieces." """
    st = G.position({"c3": "samurai:0:a", "d4": "fish:0:c", "d2": "samurai:1:a"})
    assert not any(m[1] == DM and m[3] in (sq("d4"), sq("d2")) for m in moves_of(st, "c3"))
    assert "occupied" in refuse(st, "Sc3 b2>d4 -c4")
    assert "occupied" in refuse(st, "Sc3 b2>d2 -c4")


def test_no_removing_terrain_under_an_enemy():
    """Seed: "You may not remove terrain from squares that contain an enemy piece." """
    st = G.position({"c3": "samurai:0:a", "d4": "fish:1:c"})
    assert not any(m[1] == DM and m[2] == sq("d4") for m in moves_of(st, "c3"))
    assert not any(m[1] == MD and m[3] == sq("d4") for m in moves_of(st, "c3"))
    assert "enemy" in refuse(st, "Sc3 d4>b2 -c4")


def test_removing_terrain_under_a_friend_is_fine_and_the_friend_sinks():
    """Seed: "It's OK to remove terrain from beneath friendly pieces." """
    st = G.position({"c3": "samurai:0:a", "d4": "fish:0:c", "f6": "samurai:1:a"})
    after = play(st, "Sc3 d4>b2 -c4")
    assert after.heights[sq("d4")] == 2
    lay = G.layout(after, OMNISCIENT)
    assert lay.pieces["fish:0:c"].z == pytest.approx(4 + 2 * 8)


# ---- move ---------------------------------------------------------------------------------------------------------

def test_climb_at_most_one_step():
    """Seed: "You may not climb up more than one vertical step as you move." """
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"}, heights={"c4": 5, "d4": 4})
    targets = {m[4] for m in moves_of(st, "c3") if m[1] == DM and m[2] != sq("c4") and m[3] != sq("c4")}
    assert sq("d4") in targets and sq("c4") not in targets
    assert "climb more than one step" in refuse(st, "Sc3 b2>b3 -c4")
    # the dig may lower the square first: then the climb is legal
    assert G.parse_move(st, "Sc3 c4>b2 -c4")


def test_drop_any_number_of_steps():
    """Seed: "You can drop down as many vertical steps as needed." """
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"}, heights={"c3": 9, "c4": 0})
    after = play(st, "Sc3 b2>b3 -c4")
    assert after.pos[0] == sq("c4") and after.heights[sq("c4")] == 0


def test_capture_from_two_steps_above():
    """Seed: "If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square
    and capture it." """
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c", "f6": "samurai:1:a"}, heights={"c3": 5})
    after = play(st, "Sc3 b2>b3 xc4")
    assert after.board[sq("c4")] == 0 and after.pos[6 + 2] == -1
    assert G.scores(after)[0] == G.scores(st)[0] + 1 and G.scores(after)[1] == G.scores(st)[1]
    lay = G.layout(after, OMNISCIENT)
    assert abs(lay.pieces["fish:1:c"].y) > 120      # set beside the board


def test_otherwise_only_vacant_squares():
    """Seed: "Otherwise, you can only move into vacant squares" (one step above is not enough; no friends)."""
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c", "d4": "fish:0:c", "f6": "samurai:1:a"},
                    heights={"c3": 4})
    assert "two steps above" in refuse(st, "Sc3 b2>b3 xc4")
    assert "own piece" in refuse(st, "Sc3 b2>b3 -d4")
    assert not any(m[1] == DM and m[4] in (sq("c4"), sq("d4")) for m in moves_of(st, "c3"))


# ---- the basic move and each piece ---------------------------------------------------------------------------------

def test_basic_move_both_orders_and_both_parts_required():
    """Seed: "A "Basic Move" is to either dig, then move...or...move, then dig." """
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"})
    a = play(st, "Sc3 b2>b3 -c4")          # dig, then move: dig adjacent to c3
    assert a.pos[0] == sq("c4")
    b = play(st, "Sc3 -c4 c5>b5")          # move, then dig: dig adjacent to the new square c4
    assert b.pos[0] == sq("c4") and b.heights[sq("c5")] == 2
    assert "next to your piece" in refuse(st, "Sc3 -c4 a1>a2")
    with pytest.raises(BadNotation):
        G.parse_move(st, "Sc3 -c4")
    with pytest.raises(BadNotation):
        G.parse_move(st, "Sc3 b2>b3")
    # after moving, the square just left is empty and may receive or give terrain
    assert G.parse_move(st, "Sc3 -c4 c3>b5") and G.parse_move(st, "Sc3 -c4 b5>c3")


def test_samurai_only_basic_moves():
    """Seed: "The Samurai - Can only perform a basic move." """
    st = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"}, heights={"d4": 5})
    assert {m[1] for m in moves_of(st, "c3")} == {DM, MD}
    assert "samurai" in refuse(st, "Sc3 b2>b3 b3>a3")
    assert "samurai" in refuse(st, "Sc3 -c4 -c5")


def test_fish_dig_then_two_diagonal_squares_and_the_reverse():
    """Seed: "Dig, then move TWO squares - but only diagonally...or... Move TWO squares, diagonally - then dig." """
    st = G.position({"c3": "fish:0:c", "f6": "samurai:1:a"})
    a = play(st, "Fc3 b2>b3 -e5")
    assert a.pos[2] == sq("e5")
    b = play(st, "Fc3 -a1 a2>b1")
    assert b.pos[2] == sq("a1") and b.heights[sq("b1")] == 4
    kinds = {m[1] for m in moves_of(st, "c3")}
    assert kinds == {DM, MD, FDM, FMD}
    assert "diagonal" in refuse(st, "Fc3 b2>b3 -c5")      # two squares, but not diagonally


def test_fish_diagonal_middle_empty_climb_each_step_capture_last():
    """Rulings: "each step obeys the climb rule, the middle square must be empty, a capture only on the last
    square"."""
    st = G.position({"c3": "fish:0:c", "d4": "samurai:1:a", "b2": "samurai:0:a", "b4": "fish:1:c", "f6": "dragon:1:b"})
    assert "empty square" in refuse(st, "Fc3 c2>d3 -e5")             # over an enemy
    assert "empty square" in refuse(st, "Fc3 c2>d3 -a1")             # over a friend
    # climbing: the middle square d2 is 2 higher than c3 -> the first step is too steep
    st2 = G.position({"c3": "fish:0:c", "f6": "samurai:1:a"}, heights={"d2": 5})
    assert "climb" in refuse(st2, "Fc3 b2>b3 -e1")
    # a dig onto the middle square makes the first step one too steep as well
    st3 = G.position({"c3": "fish:0:c", "f6": "samurai:1:a"}, heights={"d2": 4})
    assert G.parse_move(st3, "Fc3 b2>b3 -e1")
    assert "climb" in refuse(st3, "Fc3 b2>d2 -e1")
    # capture on the last square from the middle square two above it
    st4 = G.position({"c3": "fish:0:c", "e5": "fish:1:c", "f1": "samurai:1:a"}, heights={"d4": 4, "e5": 2})
    after = play(st4, "Fc3 b2>b3 xe5")
    assert after.pos[8] == -1 and after.pos[2] == sq("e5")


def test_dragon_digs_twice_without_moving():
    """Seed: "Dig twice - but not move." """
    st = G.position({"c3": "dragon:0:b", "f6": "samurai:1:a"})
    after = play(st, "Dc3 b2>d4 b2>d4")
    assert after.pos[1] == sq("c3") and after.heights[sq("b2")] == 1 and after.heights[sq("d4")] == 5
    assert "puts the first tile straight back" in refuse(st, "Dc3 b2>d4 d4>b2")
    assert {m[1] for m in moves_of(st, "c3")} == {DM, MD, DD, MM, LONE_STEP}


def test_dragon_moves_twice_without_digging_and_may_capture():
    """Seed: "Move twice - but not dig." Rulings: "each step a basic step, captures allowed"."""
    st = G.position({"c3": "dragon:0:b", "e5": "fish:1:c", "f1": "samurai:1:a"},
                    heights={"d4": 5, "c3": 4, "e5": 3})
    after = play(st, "Dc3 -d4 xe5")
    assert after.pos[1] == sq("e5") and after.pos[8] == -1
    assert "return it to where it started" in refuse(st, "Dc3 -d4 -c3")


def test_dragon_lone_step_climbs_up_to_two_without_digging():
    """Seed: "Move one square but go upwards by two vertical steps instead of one - and not dig." Rulings: "one step
    without a dig that may climb up to two (so also one, or down)"."""
    st = G.position({"c3": "dragon:0:b", "f6": "samurai:1:a"}, heights={"c4": 5, "d4": 4, "b4": 6, "b2": 1})
    lone = {m[2] for m in moves_of(st, "c3") if m[1] == LONE_STEP}
    assert {sq("c4"), sq("d4"), sq("b2"), sq("c2")} <= lone          # up two, up one, down, level
    assert sq("b4") not in lone                                        # three up: too high
    assert play(st, "Dc3 -c4").pos[1] == sq("c4")
    assert play(st, "Dc3 -b2").pos[1] == sq("b2")
    assert play(st, "Dc3 ^d4").pos[1] == sq("d4")                      # '^' of older records reads the same
    assert "two steps" in refuse(st, "Dc3 -b4")
    assert "only in a lone step" in refuse(st, "Dc3 b2>b3 -c4")       # no dig with a two-step climb
    samurai = G.position({"c3": "samurai:0:a", "f6": "samurai:1:a"})
    assert "needs a dig" in refuse(samurai, "Sc3 -c4")                 # only the dragon steps alone


def test_dragon_lone_step_may_capture():
    """Rulings: a capture is a step onto an enemy from at least two steps above; the lone step is a step."""
    st = G.position({"c3": "dragon:0:b", "c4": "fish:1:c", "f6": "samurai:1:a"}, heights={"c3": 5})
    after = play(st, "Dc3 xc4")
    assert after.pos[1] == sq("c4") and after.pos[8] == -1


def test_a_turn_must_change_the_position():
    """Rulings: "A turn must change the position: a second dig that puts the first tile back, or two steps that
    return the dragon to its square, are refused as a pass"; the refusal says so."""
    st = G.position({"c3": "dragon:0:b", "f6": "samurai:1:a"})
    assert "must change the position" in refuse(st, "Dc3 b2>d4 d4>b2")
    assert "must change the position" in refuse(st, "Dc3 -d4 -c3")
    assert not any(m[1] == MM and m[3] == sq("c3") for m in moves_of(st, "c3"))
    assert not any(m[1] == DD and (m[2], m[3]) == (m[5], m[4]) for m in moves_of(st, "c3"))


# ---- game over and draws ------------------------------------------------------------------------------------------

def test_win_by_capturing_every_piece():
    """Seed: "To win, you must capture all of your opponents pieces." """
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c"}, heights={"c3": 5})
    after = play(st, "Sc3 b2>b3 xc4")
    assert G.current_player(after) == TERMINAL and G.returns(after) == [1.0, -1.0]
    assert "captured every enemy piece" in G.result(after)


def test_win_when_the_opponent_cannot_move():
    """Seed: "You win if the other player has no pieces left or is unable to make a move." """
    # player 1's only piece, a samurai in the a6 corner, stands at the bottom of the box: a5 and b6 hold enemies it
    # cannot capture from below and b5 is two steps up, so after any turn of player 0 it has no legal turn
    heights = {"a6": 0, "a5": 2, "b5": 2, "b6": 1}
    st = G.position({"a6": "samurai:1:a", "b6": "dragon:0:b", "a5": "fish:0:c", "e1": "samurai:0:f"},
                    heights=heights)
    after = play(st, "Se1 e2>f2 -e2")
    assert G.current_player(after) == TERMINAL
    assert "without a legal turn" in G.result(after) and G.returns(after) == [1.0, -1.0]


def test_threefold_repetition_is_a_draw():
    """Seed: "... or if you each undo the other player's move three times in a row." Rulings: "the same position
    with the same player to move for the third time"."""
    st = G.position({"c3": "dragon:0:b", "d6": "dragon:1:b"})
    cycle = ["Dc3 b2>d4 b2>d4", "Dd6 c5>e5 c5>e5", "Dc3 d4>b2 d4>b2", "Dd6 e5>c5 e5>c5"]
    for k in range(7):
        st = play(st, cycle[k % 4])
        assert G.current_player(st) != TERMINAL
    st = play(st, cycle[7 % 4])                 # the start position, player 0 to move, a third time
    assert G.current_player(st) == TERMINAL and st.outcome == DRAWN
    assert "third time" in G.result(st)


def test_capture_resets_repetition_history():
    """A position before a capture can never recur; the count starts afresh after one."""
    st = G.position({"c3": "samurai:0:a", "c4": "fish:1:c", "f6": "dragon:1:b"}, heights={"c3": 5})
    after = play(st, "Sc3 b2>b3 xc4")
    assert len(after.history) == 1


def test_draw_by_agreement():
    """Seed: "A stalemate (draw) happens when neither player wishes to move". Ruling: a draw offer is a move; the
    opponent accepts (draw) or declines (the offerer then plays a turn, with no second offer that turn)."""
    st = G.new_state()
    assert G.legal_moves(st)[0] == (DRAW, OFFER)
    offered = play(st, "offer draw")
    assert G.current_player(offered) == 1 and G.legal_moves(offered) == [(DRAW, ACCEPT), (DRAW, DECLINE)]
    done = play(offered, "accept draw")
    assert G.current_player(done) == TERMINAL and G.returns(done) == [0.0, 0.0] and "agreed" in G.result(done)
    back = play(offered, "decline draw")
    assert G.current_player(back) == 0 and (DRAW, OFFER) not in G.legal_moves(back)
    assert (DRAW, OFFER) not in G.legal_moves(G.new_state({"draw_offers": False}))


def test_move_cap_draw():
    """Rulings: "a move cap (option, default 200 plies)"."""
    st = G.position({"c3": "dragon:0:b", "d6": "dragon:1:b"}, options={"move_cap": 20})
    n = 0
    rng = random.Random(3)
    while G.current_player(st) != TERMINAL:
        moves = [m for m in G.legal_moves(st) if m[0] != DRAW]
        st = G.apply(st, moves[rng.randrange(len(moves))])[0]
        n += 1
    assert st.outcome == DRAWN and st.reason == "cap" and n == 20


# ---- variants -----------------------------------------------------------------------------------------------------

def test_two_pieces_a_turn():
    """Seed: "Each player gets to move TWO pieces on their turn." """
    st = G.position({"c3": "samurai:0:a", "e3": "fish:0:c", "d6": "dragon:1:b"}, options={"two_pieces": True})
    mid = play(st, "Sc3 b2>b3 -c4")
    assert G.current_player(mid) == 0 and mid.used == 0
    assert all(m[0] == sq("e3") for m in G.legal_moves(mid))
    end = play(mid, "Fe3 f3>f4 -e2")
    assert G.current_player(end) == 1 and end.turns == 1


def test_undermining_variant():
    """Seed: "Undermining is a third option where you may dig a tile from beneath an enemy piece and forgo your
    right to move on that turn"."""
    st = G.position({"c3": "samurai:0:a", "d4": "fish:1:c"}, options={"undermining": True})
    after = play(st, "Sc3 d4>b2")
    assert after.heights[sq("d4")] == 2 and after.pos[0] == sq("c3")
    assert (sq("c3"), UNDERMINE, sq("d4"), sq("b2")) in G.legal_moves(st)
    assert "enemy" in refuse(st, "Sc3 d4>b2 -c4")        # not followed by a move
    assert "Undermining" in refuse(st, "Sc3 c4>b2")        # a lone dig must be from beneath an enemy


def test_samurai_undermining_variant():
    """Seed: "Maybe make undermining and moving a special power of the samurai piece ... it only needs a 1 height
    step advantage to capture the enemy"."""
    st = G.position({"c3": "samurai:0:a", "d4": "fish:1:c", "f6": "dragon:1:b"}, heights={"c3": 4},
                    options={"samurai_undermining": True})
    after = play(st, "Sc3 d4>b2 xd4")
    assert after.pos[8] == -1 and after.pos[0] == sq("d4")
    st2 = G.position({"c3": "dragon:0:b", "d4": "fish:1:c", "f6": "dragon:1:b"}, heights={"c3": 4},
                     options={"samurai_undermining": True})
    assert "enemy" in refuse(st2, "Dc3 d4>b2 xd4")        # only samurai


def test_ocean_rule_variant():
    """Seed: "When your piece is on the ocean (at the bottom of the box), you can move to any adjacent square
    regardless of the height jump." """
    heights = {"c3": 0, "c4": 6}
    plain = G.position({"c3": "samurai:0:a", "f6": "dragon:1:b"}, heights=heights)
    ocean = G.position({"c3": "samurai:0:a", "f6": "dragon:1:b"}, heights=heights, options={"ocean": True})
    assert "climb" in refuse(plain, "Sc3 b2>b3 -c4")
    after = play(ocean, "Sc3 b2>b3 -c4")
    assert after.pos[0] == sq("c4")


# ---- notation, picks, explanations ---------------------------------------------------------------------------------

def test_notation_examples():
    st = G.position({"c3": "dragon:0:b", "e5": "fish:1:c", "f1": "samurai:1:a"},
                    heights={"d4": 5, "c3": 4, "e5": 3, "b4": 6})
    assert G.format_move(st, (sq("c3"), MM, sq("d4"), sq("e5"))) == "Dc3 -d4 xe5"
    assert G.format_move(st, (sq("c3"), DD, sq("b2"), sq("d2"), sq("b3"), sq("d2"))) == "Dc3 b2>d2 b3>d2"
    assert G.format_move(st, (sq("c3"), LONE_STEP, sq("d4"))) == "Dc3 -d4"
    assert G.parse_move(st, "dc3 -D4 XE5") == (sq("c3"), MM, sq("d4"), sq("e5"))
    for bad in ("", "Zc3 -d4", "Sc3 -d4 b2>b3", "Dc3 -d4 hello", "Dq9 -d4"):
        with pytest.raises(BadNotation):
            G.parse_move(st, bad)


def test_picks_piece_then_tile_then_squares():
    """The UI builds a turn from picks: the piece, the top tile to lift, the square it goes to, the square moved to
    (an enemy piece when capturing); the dragon's big step and undermining end by picking the piece again."""
    st = G.position({"c3": "dragon:0:b", "e5": "fish:1:c", "f1": "samurai:1:a"},
                    heights={"d4": 5, "c3": 4, "e5": 3, "b4": 6})
    top = st.stacks[sq("b2")][-1]
    assert G.picks(st, G.parse_move(st, "Dc3 b2>d2 -c4")) == ("dragon:0:b", f"terr:{top:03d}", "sq:d2", "sq:c4")
    assert G.picks(st, G.parse_move(st, "Dc3 -d4 xe5")) == ("dragon:0:b", "sq:d4", "fish:1:c")
    assert G.picks(st, G.parse_move(st, "Dc3 ^b4")) == ("dragon:0:b", "sq:b4", "dragon:0:b")
    assert "not your piece" in G.explain(st, ("fish:1:c",))
    assert "occupied" in G.explain(st, ("dragon:0:b", f"terr:{top:03d}", "fish:1:c"))
    assert "top tile" in G.explain(st, ("dragon:0:b", f"terr:{st.stacks[sq('b2')][0]:03d}"))


def test_illegal_moves_are_refused_with_a_sentence():
    st = G.position({"c3": "samurai:0:a", "d4": "fish:1:c"})
    with pytest.raises(IllegalMove) as e:
        G.apply(st, (sq("c3"), DM, sq("d4"), sq("b2"), sq("c4")))
    assert "enemy" in str(e.value)
    with pytest.raises(IllegalMove):
        G.apply(st, (sq("a1"), DM, 0, 1, 2))


# ---- one rule, one check: the generator and the refusals agree -------------------------------------------------------

def _candidate_turns(st, s):
    """Every turn shape the piece on `s` could be asked to make, legal or not (squares near it)."""
    from towerworld.games.elevation.board import LEAPS, NEIGHBOURS
    near = NEIGHBOURS[s]
    far = [e for e, _ in LEAPS[s]]
    for f in near:
        for t in near:
            for m in near + tuple(far):
                yield (s, FDM if m in far else DM, f, t, m)
            for f2 in near:
                for t2 in near:
                    yield (s, DD, f, t, f2, t2)
            yield (s, UNDERMINE, f, t)
        yield (s, LONE_STEP, f)
    for m in near + tuple(far):
        for f in NEIGHBOURS[m]:
            for t in NEIGHBOURS[m]:
                yield (s, FMD if m in far else MD, m, f, t)
        if m in near:
            for m2 in NEIGHBOURS[m]:
                yield (s, MM, m, m2)


@pytest.mark.parametrize("options,seed", [({}, 1), ({"terrain": "checker", "ocean": True}, 2),
                                          ({"undermining": True, "samurai_undermining": True}, 3),
                                          ({"setup": "dragons-centre", "terrain": "valley"}, 4)])
def test_generated_turns_are_exactly_those_the_refusals_accept(options, seed):
    """Every generated turn passes the rule checks that word the refusals, and every candidate turn the checks accept
    is generated (the generator's bit-mask tables and the refusal sentences cannot drift apart)."""
    from towerworld.games.elevation.rules import refusal
    from towerworld.games.elevation.board import turn_actions
    rng = random.Random(seed)
    st = G.new_state(options)
    for _ in range(rng.randrange(20, 40)):
        if G.current_player(st) == TERMINAL:
            break
        moves = [m for m in G.legal_moves(st) if m[0] != DRAW]
        st = G.apply(st, moves[rng.randrange(len(moves))])[0]
    if G.current_player(st) == TERMINAL:
        return
    legal = set(m for m in G.legal_moves(st) if m[0] != DRAW)
    for s in {m[0] for m in legal} | {p for p in st.pos[st.mover * 6:st.mover * 6 + 6] if p >= 0}:
        for move in set(_candidate_turns(st, s)):
            accepted = refusal(st, s, turn_actions(move), complete=True) is None
            assert accepted == (move in legal), (G.format_move(st, move), accepted)
