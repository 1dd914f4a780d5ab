"""The Tower and the Black Tower (seed 003, Black Tower v1.2): each rule sentence checked by a test that quotes it."""
from __future__ import annotations

import pytest

from towerworld.engine.game import CHANCE, IllegalMove
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne import board as B
from towerworld.games.carcassonne import rules as E
from towerworld.games.carcassonne.positions import build


play = GAME.apply_texts


def names(s):
    return sorted(GAME.format_move(s, m) for m in GAME.legal_moves(s))


def tower_type(s, x, y):
    stack = s.towers[B.pos_of(x, y)]
    return B.PIECE_NAMES[stack[-1] & 3] if stack else "foundation"


# ---- the range board of the seed's examples --------------------------------------------------------------------------
# P1 green farmer on (1,0) (orthogonal, 1 away), P2 blue knight on (1,1) (diagonal, 1 away), P3 yellow monk on (0,-2)
# (orthogonal, 2 away, over the hole at (0,-1)), P4 red knight on (2,-2) (diagonal, 2 away, over the hole at (1,-1)).
GREEN, BLUE, YELLOW, RED = "capture P1.1", "capture P2.1", "capture P3.1", "capture P4.1"


def range_board(stack=(), player=0, **kw):
    tiles = [("TB", 0, 0, 0), ("B", 1, 0, 0), ("E", 1, 1, 0), ("B", -1, 0, 0), ("B", -1, -1, 0), ("B", -1, -2, 0),
             ("A", 0, -2, 0), ("E", 2, 0, 90), ("E", 2, -1, 180), ("M", 2, -2, 0)]
    followers = [(0, 1, 0, "field NL NR EL ER SL SR WL WR"), (1, 1, 1, "city N"), (2, 0, -2, "cloister"),
                 (3, 2, -2, "city N W")]
    towers = [(0, 0, list(stack))] if stack else []
    return build(4, tiles=tiles, followers=followers, towers=towers, start=False, player=player, **kw)


def build_on_range_board(piece, stack=()):
    s = range_board(stack)
    assert B.pos_of(0, -1) not in s.board and B.pos_of(1, -1) not in s.board     # the holes
    return play(s, "draw U", "U -2,0 r90", f"{piece} tower 0,0")


def captures(s):
    return sorted(m for m in names(s) if m.startswith("capture"))


def test_normal_tower_one_storey_range():
    """Seed: "A player might choose to play a normal Tower piece to the existing foundation: ... The Green Farmer is at
    risk of capture from this Tower placement"."""
    s = build_on_range_board("normal")
    assert captures(s) == [GREEN]
    assert "no capture" in names(s)


def test_black_tower_one_storey_range():
    """Seed: "Now, the Blue Knight is at risk of capture from the Black tower but the Green farmer is now safe from
    capture as Black Towers cannot capture horizontally or vertically." """
    s = build_on_range_board("black")
    assert captures(s) == [BLUE]
    assert tower_type(s, 0, 0) == "black"


def test_normal_tower_two_storeys_range_reaches_over_a_hole():
    """Seed: "If a normal Tower is built 2 storeys high, then its range would be: ... The Green Farmer and the Yellow
    Monk is at risk of capture from the Tower." (the monk sits two tiles away, across an empty place)"""
    s = build_on_range_board("normal", [(1, "normal")])
    assert captures(s) == [GREEN, YELLOW]


def test_black_tower_two_storeys_range_over_holes():
    """Seed: "If a Black Tower is built 2 storeys high, or if a normal Tower (1 storey high) is capped with a Black
    Tower piece (making it a Black Tower, 2 storeys high), then its range would be: ... The Blue Knight and the Red
    Knight are at risk of capture from the Black Tower." and "Notice that the Red Knight can be captured, because it is
    possible for a Black Tower to capture over 'holes'." """
    for below in ("normal", "black"):
        s = build_on_range_board("black", [(1, below)])
        assert captures(s) == [BLUE, RED], below


def test_range_counts_every_storey():
    """Seed: "A Black Tower's range is the amount of storeys that makes it up, regardless of how many normal and Black
    Tower pieces it consists of." and "A normal Tower's range is the amount of storeys that makes it up, regardless of
    how many Black and normal Tower pieces it consists of." """
    s = build_on_range_board("normal", [(1, "black")])            # 2 storeys, normal on top: orthogonal range 2
    assert captures(s) == [GREEN, YELLOW]
    s = build_on_range_board("black", [(1, "normal"), (2, "normal")])   # 3 storeys, black
    assert captures(s) == [BLUE, RED]
    assert E.in_range(B.pos_of(0, 0), 3, True, B.pos_of(-3, 3))
    assert not E.in_range(B.pos_of(0, 0), 3, True, B.pos_of(-4, 4))
    assert not E.in_range(B.pos_of(0, 0), 3, True, B.pos_of(1, 2))


def test_white_tower_has_no_control_of_the_area():
    """Seed: "Should a normal or Black tower become a White Tower then it would not have any control of the area: All
    pieces in the White Tower's vicinity are safe from capture." """
    s = build_on_range_board("white", [(1, "black")])
    assert GAME.current_player(s) == CHANCE                        # no capture step: the turn is over
    assert s.player == 1 and all(loc >= 0 for loc in s.fl[0:1] + s.fl[7:8] + s.fl[14:15] + s.fl[21:22])


def test_uppermost_piece_decides_and_type_changes_back_and_forth():
    """Seed: "It is the uppermost Tower piece that designates the type of Tower in play." and "Adding a normal Tower
    piece to the top of a Black Tower restores it back to a normal Tower with normal Tower properties (i.e. it captures
    horizontally or vertically, not diagonally)." and "A Tower can be changed back and forth as many times as a player
    likes, as long as he has the required Tower pieces in their supply, until a White Tower piece caps the Tower." """
    s = range_board()
    s = play(s, "draw U", "U -2,0 r90", "black tower 0,0", "no capture")
    assert tower_type(s, 0, 0) == "black"
    s = play(s, "draw U", "U -3,0 r90", "normal tower 0,0")
    assert tower_type(s, 0, 0) == "normal" and captures(s) == [GREEN, YELLOW]
    s = play(s, "no capture", "draw U", "U -4,0 r90", "black tower 0,0")
    assert tower_type(s, 0, 0) == "black" and captures(s) == [BLUE, RED]
    s = play(s, "no capture", "draw U", "U -5,0 r90", "white tower 0,0")
    assert tower_type(s, 0, 0) == "white"
    s = play(s, "draw U", "U -6,0 r90")
    assert not any(m.endswith("tower 0,0") for m in names(s))


def test_black_piece_on_foundation_or_tower_under_construction():
    """Seed: "After placing a tile, a player may now place a Black Tower piece to any tile with a tower foundation or
    on a tower which is already under construction, unless a follower guards the top. The Tower already under
    construction can be either a normal or a Black Tower, but not a White Tower." """
    tiles = [("TB", 0, -1, 0), ("TC", 1, -1, 0), ("TD", -1, -1, 0), ("TE", 2, -1, 90)]
    s = build(tiles=tiles, towers=[(1, -1, [(1, "normal")]), (-1, -1, [(1, "black")]), (2, -1, [(1, "white")])])
    s = play(s, "draw U", "U 1,0 r0")
    m = names(s)
    for x, y in ((0, -1), (1, -1), (-1, -1)):
        assert f"black tower {x},{y}" in m and f"normal tower {x},{y}" in m
    assert "black tower 2,-1" not in m and "normal tower 2,-1" not in m
    with pytest.raises(IllegalMove, match="capped"):
        play(s, "black tower 2,-1")
    guarded = build(tiles=tiles[:2], towers=[(1, -1, [(1, "normal")])], tops=[(1, 1, -1)])
    guarded = play(guarded, "draw U", "U 1,0 r0")
    assert not any(x.endswith("tower 1,-1") for x in names(guarded))
    with pytest.raises(IllegalMove, match="guards the top"):
        play(guarded, "black tower 1,-1")


def test_tower_pieces_go_to_any_foundation_anywhere():
    """Rulings: "put a tower piece on any foundation anywhere on the board or on any open tower"."""
    s = build(tiles=[("TB", 0, -1, 0), ("U", -1, 0, 0), ("U", -2, 0, 0)])
    s = play(s, "draw U", "U -3,0 r0")
    assert "normal tower 0,-1" in names(s) and "black tower 0,-1" in names(s)


def test_no_limit_to_the_height():
    """Seed: "There is no limit to the height of a Black Tower." and "There is no limit to the height of a normal
    Tower." (only the supply limits it)"""
    stack = [(0, "normal")] * 8 + [(0, "black")] * 3 + [(1, "normal")] * 8
    s = build(tiles=[("TB", 0, -1, 0)], towers=[(0, -1, stack)])
    s = play(s, "draw U", "U 1,0 r0")
    assert "black tower 0,-1" in names(s) and "normal tower 0,-1" not in names(s)    # P1 has only 1 black left
    s = play(s, "black tower 0,-1")
    assert len(s.towers[B.pos_of(0, -1)]) == 20
    assert s.tsup[0:3] == (0, 0, 2)


def test_follower_finishes_a_black_tower():
    """Seed: "To finish the construction of a Black Tower, a follower can be deployed to the top of it in the usual
    way." """
    s = build(tiles=[("TB", 0, -1, 0)], towers=[(0, -1, [(1, "black")])])
    s = play(s, "draw U", "U 1,0 r0", "follower on tower 0,-1")
    assert B.TOP0 - B.pos_of(0, -1) in s.fl
    s = play(s, "draw U", "U 2,0 r0")
    assert not any(m.endswith("0,-1") for m in names(s))


def test_white_piece_caps_for_good():
    """Seed: "After placing a tile, a player may now place a White Tower piece to any tower which is already under
    construction, unless a follower guards the top. When a White Tower piece is placed the tower is 'capped'. A tower
    that has been capped becomes a White Tower and cannot be built any higher and has no power to capture followers. A
    follower cannot be deployed to the top of a White Tower." """
    s = build(tiles=[("TB", 0, -1, 0)], towers=[(0, -1, [(1, "normal")])], followers=[(1, 0, 0, "road E W")])
    s = play(s, "draw U", "U 1,0 r0", "white tower 0,-1")
    assert GAME.current_player(s) == CHANCE                        # no capture offered, P2's follower in range stays
    assert s.fl[7] >= 0
    s = play(s, "draw U", "U 2,0 r0")
    m = names(s)
    assert not any(x.endswith("tower 0,-1") for x in m)
    with pytest.raises(IllegalMove, match="capped"):
        play(s, "follower on tower 0,-1")
    with pytest.raises(IllegalMove, match="capped"):
        play(s, "normal tower 0,-1")


def test_white_never_on_a_bare_foundation():
    """Seed: "(you cannot play a White Tower piece directly to a tower foundation)" """
    s = build(tiles=[("TB", 0, -1, 0)])
    s = play(s, "draw U", "U 1,0 r0")
    assert "white tower 0,-1" not in names(s)
    with pytest.raises(IllegalMove, match="directly to a tower foundation"):
        play(s, "white tower 0,-1")


def test_white_tower_cannot_change_back():
    """Seed: "A White Tower has no capturing properties at all. It cannot be changed back to a normal Tower or a Black
    Tower under any circumstances." """
    s = build(tiles=[("TB", 0, -1, 0)], towers=[(0, -1, [(1, "normal"), (1, "white")])])
    s = play(s, "draw U", "U 1,0 r0")
    for piece in ("normal", "black", "white"):
        with pytest.raises(IllegalMove, match="capped"):
            play(s, f"{piece} tower 0,-1")


@pytest.mark.parametrize("players, expected", [(2, (8, 4, 2)), (3, (7, 3, 2)), (4, (6, 3, 1)), (5, (5, 2, 1)),
                                               (6, (4, 2, 1))])
def test_tower_pieces_per_player(players, expected):
    """Seed: "two players: 4 Black Tower pieces, 2 White Tower pieces, 8 normal Tower pieces" ... "six players: 2 Black
    Tower pieces, 1 White Tower piece, 4 normal Tower pieces" (this list replaces The Tower's)."""
    assert B.tower_pieces(players) == expected
    s = GAME.new_state(None, players)
    assert s.tsup == expected * players


def test_extra_foundation_tiles_rule():
    """Seed: "For every 4 extra tower foundation tiles each player receives: 1 Black Tower piece and 2 normal Tower
    pieces. If 8 or more extra tower foundation tiles are being used, each player in a 4, 5 or 6 player game receives:
    1 White Tower piece. The quantity of White Tower pieces per player in any game must not exceed 2 pieces each." """
    assert B.tower_pieces(2, extra_foundations=4) == (10, 5, 2)
    assert B.tower_pieces(2, extra_foundations=8) == (12, 6, 2)        # white stays at 2
    assert B.tower_pieces(4, extra_foundations=7) == (8, 4, 1)
    assert B.tower_pieces(4, extra_foundations=8) == (10, 5, 2)
    assert B.tower_pieces(6, extra_foundations=12) == (10, 5, 2)
    assert B.tower_pieces(3, black_tower=False) == (9, 0, 0)            # The Tower alone: its own table


def test_without_black_tower_only_normal_pieces():
    s = GAME.new_state({"black_tower": False}, 2)
    assert s.tsup == (10, 0, 0) * 2
    s = build(tiles=[("TB", 0, -1, 0)], towers=[(0, -1, [(1, "normal")])], black=False)
    s = play(s, "draw U", "U 1,0 r0")
    m = names(s)
    assert "normal tower 0,-1" in m and "black tower 0,-1" not in m and "white tower 0,-1" not in m


# ---- capturing, prisoners, ransom (The Tower, rulings) -----------------------------------------------------------
def capture_board(**kw):
    return build(tiles=[("TB", 0, -1, 0), ("TC", 1, -1, 0)], **kw)


def test_capture_makes_a_prisoner():
    s = capture_board(followers=[(1, 0, -1, "field NL NR EL ER SL SR WL WR")])
    s = play(s, "draw U", "U -1,0 r0", "normal tower 1,-1")
    assert captures(s) == ["capture P2.1"]
    s = play(s, "capture P2.1")
    assert s.fl[7] == -2 - 0                                        # P2's follower is P1's prisoner
    _t, _r, _p, base, _k = s.tiles[s.board[B.pos_of(0, -1)]]
    assert s.occ[B.find(s.parent, base)] == 0                       # the field is free again


def test_capture_your_own_follower_returns_it():
    """Rulings: "capture at most one follower (any player's, your own returns to supply)"."""
    s = capture_board(followers=[(0, 0, -1, "field NL NR EL ER SL SR WL WR")])
    s = play(s, "draw U", "U -1,0 r0", "normal tower 1,-1")
    assert captures(s) == ["capture P1.1"]
    s = play(s, "capture P1.1")
    assert s.fl[0] == B.SUPPLY


def test_capturing_the_top_follower_reopens_the_tower():
    """Rulings: "Capturing the follower on top of a tower re-opens it." """
    s = capture_board(towers=[(0, -1, [(1, "normal")])], tops=[(1, 0, -1)])
    s = play(s, "draw U", "U -1,0 r0")
    assert not any(m.endswith("tower 0,-1") for m in names(s))
    s = play(s, "normal tower 1,-1", "capture P2.1")
    s = play(s, "draw U", "U -2,0 r0")
    assert "normal tower 0,-1" in names(s) and "follower on tower 0,-1" in names(s)


def test_capture_over_other_towers():
    """Rulings: range reaches "over holes and other towers": a tower between does not shield a follower."""
    tiles = [("TB", 0, -1, 0), ("TC", 1, -1, 0), ("TD", 2, -1, 180)]
    s = build(tiles=tiles, towers=[(0, -1, [(1, "normal")]), (1, -1, [(1, "normal"), (1, "normal")])],
              followers=[(1, 2, -1, "road N")])
    s = play(s, "draw U", "U -1,0 r0", "normal tower 0,-1")
    assert captures(s) == ["capture P2.1"]


def test_prisoners_are_exchanged_at_once():
    """Rulings: "Prisoners are exchanged one for one at once"."""
    s = capture_board(followers=[(1, 0, -1, "field NL NR EL ER SL SR WL WR")], prisoners=[(0, 1)])
    s = play(s, "draw U", "U -1,0 r0", "normal tower 1,-1", "capture P2.1")
    assert all(loc == B.SUPPLY for loc in s.fl)                  # both followers back with their owners


def test_ransom_once_per_turn_for_three_points():
    """Rulings: "on your turn you may ransom one of your followers for 3 points paid to the captor (once per turn, only
    with >= 3 points)"."""
    s = capture_board(prisoners=[(0, 1), (0, 1)], scores=(7, 0))
    s = play(s, "draw U", "U -1,0 r0", "pass")
    assert names(s) == ["no ransom", "ransom from P2"]
    s = play(s, "ransom from P2")
    assert s.scores == (4, 3) and s.fl[:2].count(B.SUPPLY) == 1
    assert GAME.current_player(s) == CHANCE and s.player == 1    # once per turn: the turn is over
    poor = capture_board(prisoners=[(0, 1)], scores=(2, 0))
    poor = play(poor, "draw U", "U -1,0 r0", "pass")
    assert GAME.current_player(poor) == CHANCE                   # fewer than 3 points: no ransom offered


def test_ransom_at_any_point_of_your_turn_and_the_freed_follower_may_deploy():
    """The ruling: "the ransom may be paid at any point of your own turn, once a turn; a follower freed before you
    deploy may be deployed that turn."."""
    # every one of P1's followers is a prisoner of P2: without a ransom there is nobody to deploy
    s = capture_board(prisoners=[(0, 1)] * B.FOLLOWERS, scores=(5, 0))
    s = play(s, "draw U")
    assert "ransom from P2" in names(s)                          # before placing the tile
    placed = play(s, "U -1,0 r0")
    assert "ransom from P2" in names(placed)                     # after placing, before deploying
    assert not any(n.startswith("follower ") for n in names(placed))
    s = play(placed, "ransom from P2")
    assert s.scores == (2, 3) and GAME.current_player(s) == 0    # the turn goes on
    assert "ransom from P2" not in names(s)                      # once a turn
    assert "follower road E W" in names(s)                       # the freed follower may be deployed that turn
    s = play(s, "follower road E W")
    assert GAME.current_player(s) == CHANCE and s.player == 1    # no second ransom offered at the end
    # paying before placing works the same way, and the refusal of a second one names the rule
    early = play(play(capture_board(prisoners=[(0, 1)] * 2, scores=(6, 0)), "draw U"), "ransom from P2")
    assert early.scores == (3, 3) and "U -1,0 r0" in names(early)
    with pytest.raises(IllegalMove, match="once a turn"):
        GAME.apply(early, GAME.parse_move(early, "ransom from P2"))
