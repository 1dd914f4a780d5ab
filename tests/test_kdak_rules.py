"""K'Dak's Tower of Confusion: every rule of the seed (000) and of rulings.md, each test quoting the sentence it checks.

Places: column a b c d (clockwise from the back left; a-c and b-d are diagonal) and level 0-5, e.g. "b3".
Tile slots: slot = 4 * starting level + column (a=0, b=1, c=2, d=3); "tile:07" is the tile that started at d1.
"""
from __future__ import annotations

import random

import pytest

from towerworld.ai.agents import make_agent
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE, TERMINAL, BadNotation, BadOption, IllegalMove, OMNISCIENT
from towerworld.engine.agent import View
from towerworld.engine.layout import piece_box
from towerworld.engine.match import Match
from towerworld.games.kdak import GAME as G
from towerworld.games.kdak.board import (END_CAP, END_LOST, MOVE, NOT_IN, OUT, OVER, REMOVE, REVEAL, ROLL, SPEND,
                                         SUITS, RANKS)


# ---- helpers ---------------------------------------------------------------------------------------------------------
def start(variant="standard", options=None, **changes):
    opts, n = G.resolve_options(options, variant)
    s = G.new_state(opts, n)
    return s._replace(**changes) if changes else s


def ident(text):
    suit, rank = text.split(":")
    return SUITS.index(suit) * 6 + (int(rank) if rank.isdigit() else RANKS.index(rank))


def slot(where):
    return 4 * int(where[1]) + "abcd".index(where[0])


def known(s, **tiles):
    """Give tiles (by starting place) known identities: known(s, b3="moons:5")."""
    ids = list(s.ident)
    for where, what in tiles.items():
        ids[slot(where)] = ident(what)
    return s._replace(ident=tuple(ids))


def face_up(s, *places):
    up = s.up
    for where in places:
        up |= 1 << slot(where)
    return s._replace(up=up)


do = G.apply_texts


def moves(s):
    return sorted(G.format_move(s, m) for m in G.legal_moves(s))


def pawns_at(s, **where):
    pawns = list(s.pawns)
    for key, place in where.items():
        p = int(key[1:])
        pawns[p] = slot(place) if isinstance(place, str) else place
    return s._replace(pawns=tuple(pawns))


def escaping(variant="standard", **changes):
    """Both pawns in, the door open (after the switch), every tile face down, player 1 to move."""
    return start(variant, door=True, **changes)


# ---- setup -------------------------------------------------------------------------------------------------------------
def test_setup_six_levels_of_face_down_tiles():
    """Seed: "Shuffle the tiles face-down and lay them out as a line of six 2x2 squares." and "Each 2x2 square is a
    level within the tower." (rulings: the levels are storeys of one tower, four columns of six)."""
    s = start()
    assert [len(c) for c in s.cols] == [6, 6, 6, 6]
    assert s.up == 0 and all(v == -1 for v in s.ident), "every tile face down and unknown"
    assert s.pawns == (NOT_IN, NOT_IN) and not s.door and G.current_player(s) == 0
    assert G.scores(s) == [0, 0]


def test_first_move_enters_any_null_level_tile():
    """Seed: "On your first move you may enter any tile on the null level." """
    s = start()
    assert moves(s) == ["enter a0", "enter b0", "enter c0", "enter d0"]
    with pytest.raises(IllegalMove, match="null level"):
        G.apply(s, ("go", 0, 1))


def test_entering_a_face_down_tile_turns_it_up_without_score():
    """Seed: "If the tile is face-down, turn it face-up." and "You don't score any points (collect any gold) on the way
    up the tower." """
    s = do(start(), "enter b0")
    assert G.current_player(s) == CHANCE and s.stage == REVEAL
    outcomes = G.chance_outcomes(s)
    assert len(outcomes) == 24 and all(abs(p - 1 / 24) < 1e-12 for _, p in outcomes)
    s = do(s, "reveal b0=moons:5")
    assert s.up >> slot("b0") & 1 and s.ident[slot("b0")] == ident("moons:5")
    assert G.scores(s) == [0, 0]
    assert G.current_player(s) == 1 and s.stage == MOVE, "no roll while climbing; the next player moves"


def test_reveals_draw_only_from_unseen_identities():
    """The memory game: a tile's identity is decided when first revealed, among the identities not seen yet."""
    s = do(start(), "enter a0", "reveal a0=arms:3", "enter b0")
    outs = [m for m, _ in G.chance_outcomes(s)]
    assert len(outs) == 23 and ("reveal", ident("arms:3")) not in outs


def test_orthogonal_steps_not_diagonal():
    """Seed: "you may move one space horizontally, vertically, or directly down one level." and "You may not move
    diagonally." """
    s = pawns_at(start(turn=0), p0="a2", p1="a0")
    assert moves(s) == ["a1", "b2", "d2"], "b and d are a's neighbours, c is diagonal; down to a1"
    with pytest.raises(IllegalMove, match="diagonally"):
        G.apply(s, ("go", 2, 2))
    with pytest.raises(IllegalMove):
        G.apply(s, ("go", 1, 1))


def test_up_needs_two_face_up_tiles_on_the_level():
    """Seed: "You may also move directly up one level if at least two tiles at your current level are face-up." """
    s = pawns_at(start(), p0="a0", p1="c0")
    s = known(face_up(s, "a0"), a0="suns:1")
    assert "a1" not in moves(s)
    with pytest.raises(IllegalMove, match="two tiles"):
        G.apply(s, ("go", 0, 1))
    s = known(face_up(s, "c0"), c0="suns:2")
    assert "a1" in moves(s)


def test_face_up_tile_entered_without_flip_and_shared():
    """Seed: "You can always move into a tile that is face-up." and "Both pawns may be on the same tile." """
    s = known(face_up(start(), "a0", "b0"), a0="suns:1", b0="suns:2")
    s = pawns_at(s, p0="a0", p1="b0")
    s2 = do(s, "b0")
    assert s2.pawns[0] == s2.pawns[1] == slot("b0")
    assert s2.stage == MOVE and G.current_player(s2) == 1, "no reveal: the tile was face up"


def test_door_shut_while_climbing():
    """Seed: "Once both players have entered the tower, the door slams shut and can only be opened again by flipping a
    switch on level 5." """
    s = pawns_at(start(), p0="a0", p1="b0")
    assert "out" not in moves(s)
    with pytest.raises(IllegalMove, match="door"):
        G.apply(s, ("out",))


def _near_the_top():
    s = pawns_at(start(), p0="c4", p1="a0")
    s = known(face_up(s, "c4", "d4", "a0", "b2"), c4="suns:1", d4="suns:2", a0="moons:3", b2="arms:4")
    return s


def test_switch_on_level_five():
    """Seed: "Once the first player enters level 5 ... First, turn the tile face-up." "it is assumed that the player
    hits the switch to open the door on the null level." "Turn all face-up tiles face-down, even if there is a pawn on
    it." "Then, roll the die to indicate the level of the tower that loses a tile." """
    s = do(_near_the_top(), "c5")
    assert s.stage == REVEAL, "the level-5 tile is turned face up (revealed) first"
    s, events = G.apply(s, G.parse_move(s, "reveal c5=crowns:5"))
    assert s.door and s.up == 0, "door open, every face-up tile (pawned ones too) face down"
    assert s.ident[slot("c5")] == ident("crowns:5") and s.ident[slot("a0")] == ident("moons:3"), "seen stays known"
    assert G.scores(s) == [0, 0], "the switch tile is not scored"
    assert s.stage == ROLL and G.current_player(s) == CHANCE
    assert [e.kind for e in events][-1] == "switch"
    s = do(s, "roll 2")
    assert s.stage == REMOVE and G.current_player(s) == 0, "the player who hit the switch removes"


def test_roll_names_the_level_and_the_roller_chooses_the_tile():
    """Seed: "You may pick which tile on that level disintegrates, but one tile on that level must disappear." and
    "There may be a pawn on that tile, including your own, and the tile may be either face-up or face-down." """
    s = pawns_at(escaping(stage=ROLL), p0="b3", p1="c0")
    s = do(s, "roll 3")
    assert s.level == 3 and moves(s) == ["remove a3", "remove b3", "remove c3", "remove d3"]
    with pytest.raises(IllegalMove, match="level 3"):
        G.apply(s, G.parse_move(s, "remove a2"))


def test_no_tile_on_rolled_level_means_highest_remaining_level():
    """Seed: "If there are no tiles left on the level rolled, then eliminate a tile on the highest remaining level." """
    cols = ((0, 4, 8), (1, 5), (2,), (3, 7, 11))
    s = pawns_at(escaping(stage=ROLL, cols=cols), p0="a0", p1="b0")
    s = do(s, "roll 5")
    assert s.roll == 5 and s.level == 2 and moves(s) == ["remove a2", "remove d2"]


def test_discard_face_up_reveals_the_tile():
    """Seed: "Discard the tile face-up so that both players can see its value." """
    s = pawns_at(escaping(stage=ROLL), p0="a0", p1="a0")
    s = do(s, "roll 4", "remove b4")
    assert s.stage == REVEAL, "an unseen tile's identity is decided as it is discarded"
    s = do(s, "reveal b4=suns:5")
    assert s.discards == (slot("b4"),) and s.ident[slot("b4")] == ident("suns:5")
    lay = G.layout(s, OMNISCIENT)
    pose = lay.pieces["tile:17"]
    assert pose.face_up and pose.z == 0.0 and pose.get("rank") == "5"


def test_pawn_falls_without_flipping_and_tiles_above_settle():
    """Seed: "If there is now a pawn hanging in mid air, it falls down to the tile immediately underneath" and "When a
    pawn falls into a face-down tile, do not turn it face-up." and "all tiles above the disintegrating tile fall down
    one level, carrying any occupying pawns with them." """
    s = known(escaping(stage=ROLL), b2="moons:4")
    s = pawns_at(s, p0="b2", p1="b4")
    s = do(s, "roll 2", "remove b2")
    assert s.cols[1] == (1, 5, 13, 17, 21)
    assert s.pawns[0] == slot("b1"), "player 1 fell to the tile below"
    assert not s.up >> slot("b1") & 1, "and did not turn it face up"
    assert s.pawns[1] == slot("b4"), "player 2 rode its tile down"
    assert G.format_move(s, ("go", 1, 3)) == "b3" and s.cols[1][3] == slot("b4"), "the b4 tile now stands at b3"
    assert s.fell == 0b01


def test_pawn_on_null_level_falls_out():
    """Seed: "or out of the tower completely if it was on the null level." """
    s = known(pawns_at(escaping(stage=ROLL), p0="d0", p1="a1"), d0="arms:1")
    s = do(s, "roll 0", "remove d0")
    assert s.pawns[0] == OUT and s.cols[3] == (7, 11, 15, 19, 23)
    assert G.current_player(s) == 1


def test_escape_scoring_on_face_down_tiles_only():
    """Seed: "If you move onto a face-down tile, turn it face-up and score that many points." and "If you enter a tile
    that is already face-up, you do not score any points." """
    s = pawns_at(escaping(), p0="a0", p1="c5")
    s = do(s, "b0", "reveal b0=moons:4")
    assert G.scores(s) == [4, 0] and s.stage == ROLL
    s = do(s, "roll 5", "remove a5", "reveal a5=arms:1")
    assert G.current_player(s) == 1
    s = do(s, "c4", "reveal c4=suns:3")
    assert G.scores(s) == [4, 3]
    s = do(s, "roll 5", "remove d5", "reveal d5=arms:5")
    s = do(s, "a0", "reveal a0=crowns:2")
    assert G.scores(s) == [6, 3]
    s = do(s, "roll 0", "remove d0", "reveal d0=crowns:3", "c3", "reveal c3=crowns:4")
    assert G.scores(s) == [6, 7]
    s = do(s, "roll 1", "remove a1", "reveal a1=crowns:5")
    s = do(s, "b0")
    assert G.scores(s) == [6, 7], "b0 was face up already: no points"


def test_stay_on_the_face_down_tile_you_fell_onto():
    """Seed: "If you are on a face-down tile as the result of falling, you may choose to stay in the same tile and turn
    it face-up and score it." """
    s = known(pawns_at(escaping(stage=ROLL, turn=1), p0="b2", p1="c0"), b2="moons:1")
    s = do(s, "roll 2", "remove b2")
    assert G.current_player(s) == 0 and "stay" in moves(s)
    s = do(s, "stay", "reveal b1=suns:4")
    assert G.scores(s) == [4, 0] and s.up >> slot("b1") & 1
    # an ordinary pawn on a face-down tile (no fall) may not stay
    s2 = pawns_at(escaping(), p0="a3", p1="c0")
    assert "stay" not in moves(s2)
    with pytest.raises(IllegalMove, match="fell"):
        G.apply(s2, ("stay",))


def test_leaving_is_for_good_and_turns_are_skipped():
    """Seed: "Note that once you leave the tower, you cannot reenter!" (rulings: their turns are skipped)"""
    s = pawns_at(escaping(), p0="a0", p1="c3")
    assert "out" in moves(s), "down from the null level once the door is open"
    s = do(s, "out")
    assert s.pawns[0] == OUT and s.stage == ROLL, "the leaver still finishes the turn with a removal"
    s = do(s, "roll 5", "remove a5", "reveal a5=suns:1")
    assert G.current_player(s) == 1
    s = do(s, "c2", "reveal c2=moons:2", "roll 5", "remove b5", "reveal b5=moons:3")
    assert G.current_player(s) == 1 and s.pawns[0] == OUT, "player 1 is out for good: player 2 moves again"


def test_game_ends_when_all_remaining_tiles_are_face_up():
    """Seed: "When either all of the remaining tiles have been turned face-up and scored or both players are forced
    out of the tower, the game is over." """
    cols = ((0, 4), (1,), (), ())
    s = known(escaping(cols=cols), a0="suns:1", a1="suns:2", b0="suns:3")
    s = pawns_at(face_up(s, "a0", "a1"), p0="a0", p1="a1")
    s = do(s, "b0")
    assert G.current_player(s) == TERMINAL and G.scores(s) == [3, 0]
    assert G.returns(s) == [1.0, -1.0] and G.result(s) == "Player 1 wins, 3 to 0."


def test_game_ends_when_both_players_are_out_draw_on_equal_scores():
    """Seed: "or both players are forced out of the tower, the game is over." and "The player with the highest score at
    the end of the game wins." (rulings: equal scores draw)"""
    s = pawns_at(escaping(scores=(5, 5)), p0="a0", p1=OUT)
    s = do(s, "out")
    assert G.current_player(s) == TERMINAL
    assert G.returns(s) == [0.0, 0.0] and G.result(s).startswith("Draw")


def test_every_turn_of_the_escape_ends_with_a_removal():
    """Seed: "From this point forward, each player moves just as before, possibly scores points, and then finishes their
    turn by rolling the die and eliminating one tile." """
    s = known(face_up(pawns_at(escaping(), p0="a0", p1="b0"), "b0"), b0="suns:2")
    s = do(s, "b0")
    assert s.stage == ROLL
    s = do(s, "roll 0")
    assert s.stage == REMOVE and G.current_player(s) == 0


def test_no_climb_limit_and_an_optional_move_cap():
    """rulings.md: "No turn or climb limit: the seed sets none. A move cap may exist as an option, off by default
    (0 = off), counting plies." """
    assert G.new_state().opts.move_cap == 0
    s = known(face_up(pawns_at(start(), p0="a0", p1="b0"), "a0", "b0"), a0="suns:1", b0="suns:2")
    for _ in range(1000):                   # pacing two tiles for ever: the climb never ends by itself
        s = do(s, "b0" if s.pawns[s.turn] == slot("a0") else "a0")
    assert G.current_player(s) in (0, 1) and s.plies == 1000
    # with the option, every ply counts (chance moves too) and the game ends where it stands
    s = known(face_up(pawns_at(start(options={"move_cap": 10}), p0="a0", p1="b0"), "a0", "b0"),
              a0="suns:1", b0="suns:2")
    for k in range(10):
        assert G.current_player(s) != TERMINAL, f"ended after {k} plies"
        s = do(s, "b0" if s.pawns[s.turn] == slot("a0") else "a0")
    assert G.current_player(s) == TERMINAL and s.end == END_CAP and s.plies == 10
    assert G.returns(s) == [0.0, 0.0] and G.result(s) == "The move limit of 10 moves (die rolls included) was reached: draw, 0 to 0."
    solo = do(start("solitaire", options={"move_cap": 2}), "enter a0", "reveal a0=suns:2")
    assert G.current_player(solo) == TERMINAL and G.returns(solo) == [-1.0] and "lost" in G.result(solo)


def test_chance_refusals_speak_of_the_die_and_the_tiles():
    """Every refusal and every illegal chance outcome reads as a sentence about the game."""
    s = do(start("solitaire"), "enter a0", "reveal a0=suns:2")
    assert s.stage == ROLL
    with pytest.raises(IllegalMove, match="There is no 13 on a die"):
        G.apply(s, ("roll", 13))
    with pytest.raises(IllegalMove, match="The die must be rolled now"):
        G.apply(s, ("reveal", 3))
    s = do(start(), "enter a0", "reveal a0=suns:2", "enter b0")
    assert s.stage == REVEAL
    with pytest.raises(IllegalMove, match=r"The tile at column b, level 0 cannot be the 2 of suns: that tile was seen already \(at column a, level 0\)"):
        G.apply(s, ("reveal", ident("suns:2")))
    with pytest.raises(IllegalMove, match="one of four suits"):
        G.apply(s, ("reveal", 99))


# ---- talisman variant ------------------------------------------------------------------------------------------------
def test_talisman_from_null_tiles_and_extra_turns():
    """Seed (Talisman Variant): "When you turn a null tile face-up place a coin in front of you." and "You may use this
    coin at any time (including immediately) to take an additional turn." and "After the additional turn discard the
    coin." """
    s = do(start("talisman"), "enter a0", "reveal a0=moons:null")
    assert s.tal == (1, 0) and s.stage == SPEND and moves(s) == ["pass", "spend"]
    s2 = do(s, "spend")
    assert G.current_player(s2) == 0 and s2.tal == (0, 0) and s2.stage == MOVE
    s2 = do(s2, "b0", "reveal b0=suns:2")
    assert G.current_player(s2) == 1, "the coin was discarded: no more extra turns"
    s3 = do(s, "pass")
    assert G.current_player(s3) == 1 and s3.tal == (1, 0), "an unused talisman is kept"


def test_talismans_in_both_phases_and_several_extra_turns():
    """Seed: "You may collect talismans both when initially climbing the tower and while the tower is shaking apart."
    "The null tiles reload with talismans when the switch is hit on the top level." "If you have more than one unused
    coin, you may take multiple additional turns in a row." """
    s = known(face_up(start("talisman", door=True, tal=(1, 0)), "b0"), a0="arms:null", b0="moons:4")
    s = pawns_at(s, p0="b0", p1="c2")
    s = do(s, "a0")                         # a0 was seen face up while climbing (null) and flipped down at the switch
    assert s.tal == (2, 0), "the reloaded null gives a talisman again"
    s = do(s, "roll 3", "remove c3", "reveal c3=suns:1", "spend")
    assert G.current_player(s) == 0 and s.stage == MOVE
    s = do(s, "b0", "roll 3", "remove c3", "reveal c3=suns:2", "spend")
    assert G.current_player(s) == 0 and s.tal == (0, 0)
    s = do(s, "a0", "roll 3", "remove c3", "reveal c3=suns:3")
    assert G.current_player(s) == 1


# ---- solitaire and cooperative -----------------------------------------------------------------------------------------
def test_solitaire_crumbles_from_the_first_turn():
    """Seed (Solitaire): "When Kaka enters the tower, the door slams shut and the tower starts to crumble right away."
    and "Roll the dice and remove a tile for every turn of the game." """
    s = start("solitaire")
    assert G.num_players(s) == 1 and s.tower_tal == -1
    s = do(s, "enter a0", "reveal a0=moons:5")
    assert s.stage == ROLL and G.scores(s) == [0], "Kaka only scores points on the way down"
    s = do(s, "roll 1", "remove c1", "reveal c1=suns:1")
    assert G.current_player(s) == 0 and s.stage == MOVE


def test_solitaire_needs_no_face_up_tiles_to_go_up():
    """Seed: "There is no requirement to have a minimum of two face-up tiles before going up a level." """
    s = pawns_at(start("solitaire"), p0="a0")
    assert "a1" in moves(s)


def test_solitaire_level_five_talisman_opens_the_door_and_scores_start():
    """Seed: "Reaching any level 5 tile will retrieve the talisman and open the door on the null level." (rulings: and,
    as in the main game, every face-up tile turns face down; scoring only after that)."""
    s = known(face_up(pawns_at(start("solitaire"), p0="b4"), "b4", "a0"), b4="suns:1", a0="suns:2")
    s = do(s, "b5", "reveal b5=arms:5")
    assert s.door and s.tower_tal == 0 and s.tal == (1,) and s.up == 0 and G.scores(s) == [0]
    s = do(s, "roll 0", "remove c0", "reveal c0=arms:4", "pass", "b4")
    assert G.scores(s) == [1], "on the way down Kaka scores"


def test_solitaire_loses_when_level_five_is_destroyed_first():
    """Seed: "If level 5 is destroyed before Kaka can get the talisman, he loses." """
    cols = ((0, 4, 8, 12, 16, 20), (1,), (2,), (3,))
    s = known(pawns_at(start("solitaire", cols=cols, stage=ROLL), p0="b0"), a5="moons:2")
    s = do(s, "roll 5", "remove a5")
    assert G.current_player(s) == TERMINAL and s.end == END_LOST
    assert G.returns(s) == [-1.0] and "lost" in G.result(s)


def test_solitaire_out_without_the_talisman_loses():
    """Seed: "Kaka needs to retrieve the talisman before he can leave." (rulings: out of the tower without it: lost)"""
    s = known(pawns_at(start("solitaire", stage=ROLL), p0="a0"), a0="moons:2")
    assert "out" not in moves(s._replace(stage=MOVE)), "the door is shut until the talisman is taken"
    s = do(s, "roll 0", "remove a0")
    assert s.pawns == (OUT,) and G.current_player(s) == TERMINAL
    assert G.returns(s) == [-1.0] and "without the talisman" in G.result(s)


def test_solitaire_talisman_gives_a_turn_without_removal():
    """Seed: "When activated Kaka may immediately take one turn without having to remove a tile afterwards." and "The
    coin is then discarded and the tower resumes to crumble as before." """
    s = pawns_at(start("solitaire", door=True, tower_tal=0, tal=(1,), stage=SPEND), p0="a2")
    assert moves(s) == ["pass", "spend"]
    s = do(s, "spend")
    assert s.free and s.tal == (0,)
    s = do(s, "b2", "reveal b2=suns:4")
    assert G.scores(s) == [4] and s.stage == MOVE and G.current_player(s) == 0, "no roll after the talisman turn"
    s = do(s, "b1", "reveal b1=suns:3")
    assert s.stage == ROLL, "the tower resumes crumbling"


@pytest.mark.parametrize("points,title", [(36, None), (37, "camel boy"), (42, "big camel boy"), (48, "lead camel boy"),
                                          (53, "supreme camel boy"), (58, "supreme camel boy")])
def test_solitaire_titles(points, title):
    """Seed: "If Kaka can escape with the following points, he achieves the associate degree of victory: 37 camel boy,
    42 big camel boy, 48 lead camel boy, 53 supreme camel boy" """
    s = pawns_at(start("solitaire", door=True, tower_tal=0, scores=(points,)), p0="a0")
    s = do(s, "out")
    assert G.current_player(s) == TERMINAL
    text = G.result(s)
    assert f"escaped with {points} points" in text
    if title:
        assert text.endswith(f"{title}!") and G.returns(s)[0] > 0.69
    else:
        assert "short of the 37" in text
    # solitaire statistics count a K'Dak win only with a title (37 or more points)
    assert G.solitaire_won(s) == (title is not None)


def test_cooperative_two_pawns_pooled_score():
    """Seed: "You and Kaka may also play this variant cooperatively by pooling your points." """
    s = start("cooperative")
    assert G.num_players(s) == 2 and s.tower_tal == -1
    s = pawns_at(s._replace(door=True, tower_tal=1), p0="a0", p1="b3")
    s = do(s, "b0", "reveal b0=moons:5")
    assert G.scores(s) == [5, 5]
    s = do(s, "roll 0", "remove d0", "reveal d0=suns:1", "c3", "reveal c3=arms:3")
    assert G.scores(s) == [8, 8]
    assert G.hud(s, OMNISCIENT)["scores"] == "pooled: 8"
    s = do(s, "roll 4", "remove a4", "reveal a4=arms:1", "out")
    s = do(s, "roll 1", "remove a1", "reveal a1=arms:2", "c2", "reveal c2=arms:4")
    assert G.scores(s) == [12, 12]


def test_variant_options_and_bad_options():
    assert G.resolve_options(None, "talisman")[0]["talisman"] is True
    solo, n = G.resolve_options(None, "solitaire")
    assert n == 1 and solo["crumble_from_start"] and solo["level5_talisman"] and not solo["up_needs_two"]
    coop, n = G.resolve_options(None, "cooperative")
    assert n == 2 and coop["pooled"]
    with pytest.raises(BadOption):
        G.resolve_options({"pooled": True})
    with pytest.raises(BadOption):
        G.resolve_options(None, "solitaire", 2)
    with pytest.raises(BadOption):
        G.resolve_options({"talisman": True}, "solitaire")
    with pytest.raises(BadOption):
        G.resolve_options({"move_cap": -3})


# ---- hidden information, notation, layout ------------------------------------------------------------------------------
def test_observation_holds_no_unseen_identity():
    """The memory game: never-revealed tiles have no identity anywhere in the state or an observation."""
    s = do(start(), "enter a0", "reveal a0=suns:5", "enter b0", "reveal b0=arms:null")
    obs = G.observation(s, 1)
    assert sum(1 for v in obs.ident if v >= 0) == 2
    lay = G.layout(s, OMNISCIENT)
    assert lay.pieces["tile:02"].look == () and lay.pieces["tile:00"].get("suit") == "suns"


def test_notation_round_trip_and_aliases():
    s = pawns_at(start(), p0="a1", p1="b0")
    s = known(face_up(s, "a1", "b1"), a1="suns:1", b1="suns:2")
    assert G.parse_move(s, "up") == ("go", 0, 2) and G.parse_move(s, "down") == ("go", 0, 0)
    assert G.parse_move(s, " B1 ") == ("go", 1, 1)
    for text in ("x9", "jump", "roll 7", "reveal a0=stars:2", ""):
        with pytest.raises(BadNotation):
            G.parse_move(s, text)
    s = do(s._replace(stage=ROLL, door=True), "roll null")
    assert s.roll == 0 and G.format_move(s, ("remove", 2)) == "remove c0"


def test_layout_is_a_true_tower():
    """Rulings: "the six 2x2 levels stand on top of each other as storeys of one tower"; tile z = level * 6.35."""
    s = pawns_at(start(), p0="c3", p1="c3")
    lay = G.layout(s, OMNISCIENT)
    t = lay.pieces["tile:14"]              # c3
    assert t.kind == "pp_tile" and abs(t.z - 3 * 6.35) < 1e-9 and not t.face_up
    p0, p1 = lay.pieces["pawn:0"], lay.pieces["pawn:1"]
    assert abs(p0.z - 4 * 6.35) < 1e-9 and p0.x != p1.x, "pawns stand on the tile top, side by side"
    assert {f"coin:level:{i}" for i in range(6)} <= set(lay.pieces)
    assert "die" in lay.pieces and "track" in lay.pieces and "score:0" in lay.pieces
    # after a removal the tile above keeps its id and comes down one storey
    s = known(s._replace(door=True, stage=ROLL), c1="suns:1")
    s = do(s, "roll 1", "remove c1")
    lay = G.layout(s, OMNISCIENT)
    assert abs(lay.pieces["tile:14"].z - 2 * 6.35) < 1e-9 and abs(lay.pieces["pawn:0"].z - 3 * 6.35) < 1e-9
    assert lay.pieces["die"].get("face") == "ace"
    assert G.picks(s, G.legal_moves(s)[0])[0] in lay.pieces


def test_hud_lines():
    s = start("talisman")
    h = G.hud(s, OMNISCIENT)
    assert h["phase"] == "climbing the tower" and h["door"] == "door shut" and "talismans" in h
    assert G.hud(s._replace(door=True), OMNISCIENT)["phase"].startswith("escaping")


def test_explain_names_the_rule():
    s = pawns_at(start(), p0="a2", p1="a0")
    assert "diagonally" in G.explain(s, ["tile:10"])        # c2
    assert "null level" in G.explain(s, ["out"])
    assert "door" in G.explain(pawns_at(s, p0="a0"), ["out"])


@pytest.mark.parametrize("variant", ["standard", "talisman", "solitaire", "cooperative"])
def test_random_games_terminate(variant):
    n = G.resolve_options(None, variant)[1]
    for seed in range(40):
        m = Match(G, variant=variant, seed=seed)
        rng = random.Random(seed)
        plies = 0
        while not m.over:
            if m.current_player == CHANCE:
                answer_chance(m)
            else:
                ms = G.legal_moves(m.state)
                m.apply(ms[rng.randrange(len(ms))], save=False)
            plies += 1
            assert plies <= G.max_plies
        assert G.result(m.state) and len(G.returns(m.state)) == n
        assert m.state.stage == OVER


# ---- agents ----------------------------------------------------------------------------------------------------------
def test_memory_agent_forgets_and_plays_legal_moves():
    """Rulings: "AIs may have perfect or limited memory (a difficulty knob)." """
    agent = make_agent("memory", G, 3, "0")
    s = known(face_up(pawns_at(escaping(), p0="a0", p1="c0"), "a0"), a0="suns:1", b0="moons:5", d0="arms:2")
    seen = agent.remembered(s)
    assert seen.ident[slot("b0")] == -1 and seen.ident[slot("a0")] == ident("suns:1"), "face-up tiles are seen"
    assert make_agent("memory", G, 3, "hard").remembered(s) == s
    with pytest.raises(BadOption):
        make_agent("memory", G, 3, "2.5")
    for level in ("easy", "hard"):
        m = Match(G, variant="standard", seed=4)
        agent = make_agent("memory", G, 4, level)
        while not m.over:
            if m.current_player == CHANCE:
                answer_chance(m)
            else:
                move = agent.choose(View.of(G, m.state, m.current_player))
                assert move in G.legal_moves(m.state)
                m.apply(move, save=False)
        assert G.result(m.state)


def test_memory_agent_forgets_once_per_tile_and_sighting():
    """The memory opponent forgets as described: each face-down tile it has seen is kept with probability
    `keep`, decided once (asking again never changes its mind), and a tile seen again with a new face is new."""
    agent = make_agent("memory", G, 5, "0.5")
    tiles = {w: f"{suit}:{rank}" for w, suit, rank in zip(("a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1", "a2", "b2",
                                                           "c2", "d2"), SUITS * 3, ("1", "2", "3") * 4)}
    s = known(pawns_at(escaping(), p0="a3", p1="c3"), **tiles)
    first = agent.remembered(s)
    assert all(agent.remembered(s) == first for _ in range(5))
    kept = sum(first.ident[slot(w)] >= 0 for w in tiles)
    assert 0 < kept < len(tiles), "keep 0.5 over twelve tiles remembers some and forgets some"
    assert make_agent("memory", G, 5, "easy").keep == 0.35 and make_agent("memory", G, 5, "medium").keep == 0.7


def test_perfect_memory_greedy_prefers_the_remembered_five():
    """The memory game pays: with b0 remembered as a 5 and d0 as an ace, greedy play steps onto b0."""
    s = known(pawns_at(escaping(), p0="a0", p1="c3"), b0="moons:5", d0="arms:1")
    assert make_agent("memory", G, 1, "hard").choose(View.of(G, s, 0)) == ("go", 1, 0)


def test_table_click_areas_pawns_and_labels():
    """The "down" target is a real click area, the null level is entered by areas beside the tower, two
    pawns on one tile stand side by side, level labels clear their coins, and the discard rows lie clear of the
    track, the talismans and the die."""
    s = start()
    lay = G.layout(s, OMNISCIENT)
    assert sorted(G.picks(s, m) for m in G.legal_moves(s)) == [("enter:a",), ("enter:b",), ("enter:c",), ("enter:d",)]
    assert all(f"enter:{c}" in lay.cells for c in "abcd")
    s = known(face_up(pawns_at(escaping(), p0="b2", p1="b2"), "b1"), b1="suns:2")
    lay = G.layout(s, OMNISCIENT)
    down = ("go", 1, 1)
    assert down in G.legal_moves(s) and G.picks(s, down) == ("down",) and "down" in lay.cells
    assert lay.cells["down"].z == 2 * 6.35
    assert G.explain(s, ["down"]) == "That move is legal."
    a, b = lay.pieces["pawn:0"], lay.pieces["pawn:1"]
    assert abs(a.x - b.x) >= 15.9 and a.z == b.z == 3 * 6.35, "side by side on the tile's top, not sunk or merged"
    for lv in range(6):
        coin = lay.pieces[f"coin:level:{lv}"]
        assert lay.labels[f"level:{lv}"][0] - coin.x >= 19.05 / 2 + 20   # half a label (about 40 mm) clear
    full = G.layout(start(discards=tuple(range(24)), cols=((), (), (), ())), OMNISCIENT)
    others = [piece_box(p) for pid, p in full.pieces.items()
              if pid in ("track", "die") or pid.startswith(("talisman:", "score:"))]
    for slot in range(24):      # every tile discarded: the rows lie clear of everything else in front of the tower
        tile = piece_box(full.pieces[f"tile:{slot:02d}"])
        assert not any(tile[0] < o[3] and o[0] < tile[3] and tile[1] < o[4] and o[1] < tile[4] for o in others)


def test_storeys_above_each_pawn_are_lifted_and_nothing_is_ghosted():
    """View, not a rule: the storeys above every pawn in the tower stand lifted (whoever is to move), the storeys
    below rest on each other at their true thickness, and no storey is ghosted (no cutaway)."""
    import random
    from towerworld.engine.game import CHANCE, TERMINAL
    from towerworld.games.kdak.board import pawn_place
    from towerworld.games.kdak.layout import OPENING
    rng = random.Random(11)
    state = G.new_state()
    lifted = 0
    for _ in range(200):
        cp = G.current_player(state)
        if cp == TERMINAL:
            break
        assert G.cutaway(state, OMNISCIENT) is None
        lay = G.layout(state, OMNISCIENT)
        levels = {pawn_place(state, p)[1] for p in range(2) if state.pawns[p] >= 0}
        for c, col in enumerate(state.cols):
            for lv, slot in enumerate(col):
                below = sum(1 for pl in levels if pl < lv)
                assert abs(lay.pieces[f"tile:{slot:02d}"].z - (lv * 6.35 + below * OPENING)) < 1e-9
                lifted += below
        move = G.sample_chance(state, rng) if cp == CHANCE else rng.choice(G.legal_moves(state))
        state, _ = G.apply_unchecked(state, move)
    assert lifted


def test_greedy_solitaire_takes_the_talisman_and_spares_its_column():
    """Seed (Solitaire): "Reaching any level 5 tile will retrieve the talisman" -- the heuristic must want it, and the
    roller should not knock down the column it is climbing."""
    s = pawns_at(start("solitaire"), p0="a4")
    assert make_agent("memory", G, 1, "hard").choose(View.of(G, s, 0)) == ("go", 0, 5)
    s = pawns_at(start("solitaire", stage=REMOVE, level=2), p0="a3")
    assert make_agent("memory", G, 1, "hard").choose(View.of(G, s, 0)) != ("remove", 0)


def test_solitaire_rollout_policy_reaches_the_talisman_often():
    """Search playouts under the solitaire rules use a climbing policy (uniform play almost never reaches level 5)."""
    rng = random.Random(1)
    s0 = start("solitaire")
    ends = [G.rollout(s0, rng) for _ in range(200)]
    assert all(e.stage == OVER for e in ends)
    assert sum(e.tower_tal >= 0 for e in ends) > 100
    uniform = [G.random_playout(s0, rng) for _ in range(200)]
    assert sum(e.tower_tal >= 0 for e in uniform) < sum(e.tower_tal >= 0 for e in ends)


def test_a_step_names_a_tile_and_its_points_once():
    """What a step says reads once: "The tile at column c, level 4 is the 5 of arms. Ann turns it up. Ann scores
    5." (the face and the points each stood twice: "... turns up the 5 of arms and scores 5. Ann scores 5.")."""
    import random
    import re
    from towerworld.engine.game import CHANCE, TERMINAL
    s = G.new_state()
    rng = random.Random(4)
    faces = scores = 0
    for _ in range(2000):
        cp = G.current_player(s)
        if cp == TERMINAL:
            break
        s, events = G.apply(s, G.sample_chance(s, rng) if cp == CHANCE else rng.choice(G.legal_moves(s)))
        said = " ".join(e.text for e in events)
        for face in set(re.findall(r"the (?:null|ace|\d) of \w+", said)):
            assert said.count(face) == 1, said
            faces += 1
        for points in set(re.findall(r"scores \d", said)):
            assert said.count(points) == 1, said
            scores += 1
    assert faces and scores
