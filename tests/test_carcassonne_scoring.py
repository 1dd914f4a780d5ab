"""Carcassonne base game: placement, followers and scoring, from hand-placed positions played on with real moves."""
from __future__ import annotations

import pytest

from towerworld.engine.game import CHANCE, TERMINAL, IllegalMove
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne import board as B
from towerworld.games.carcassonne import rules as E
from towerworld.games.carcassonne.positions import build


play = GAME.apply_texts


def names(s):
    return sorted(GAME.format_move(s, m) for m in GAME.legal_moves(s))


def supply(s, p):
    return sum(1 for loc in s.fl[p * B.FOLLOWERS:(p + 1) * B.FOLLOWERS] if loc == B.SUPPLY)


def test_start_position():
    """Rulings: the start tile face up; 7 followers each; the bag holds the other 71 base and 18 Tower tiles."""
    s = GAME.new_state(None, 3)
    assert GAME.current_player(s) == CHANCE
    assert len(s.tiles) == 1 and s.tiles[0][:3] == (E.INDEX["D"], 0, B.pos_of(0, 0))
    assert s.bagn == 71 + 18
    assert all(supply(s, p) == 7 for p in range(3))
    assert sum(p for _m, p in GAME.chance_outcomes(s)) == pytest.approx(1.0)
    base = GAME.new_state({"tower": False, "black_tower": False}, 2)
    assert base.bagn == 71 and not base.cfg.tower


def test_placement_needs_every_touching_edge_to_match():
    s = play(GAME.new_state(), "draw E")
    moves = names(s)
    # E (city N) may close the start tile's city from above only with its city facing down
    assert "E 0,1 r180" in moves and "E 0,1 r0" not in moves
    # east of the start tile the road must continue: E has no road, so it never fits there
    assert not any(m.startswith("E 1,0 ") for m in moves)
    with pytest.raises(IllegalMove, match="does not match"):
        play(s, "E 0,1 r0")
    with pytest.raises(IllegalMove, match="touches none"):
        play(s, "E 5,5 r0")
    # all four rotations are offered where they fit: a field tile below the field side of the start tile
    s2 = play(GAME.new_state(), "draw B")
    assert [m for m in names(s2) if m.startswith("B 0,-1")] == ["B 0,-1 r0", "B 0,-1 r180", "B 0,-1 r270",
                                                                 "B 0,-1 r90"]


def test_unplaceable_tile_is_discarded_and_redrawn():
    """A drawn tile that fits nowhere is discarded and the same player draws again."""
    s = build(tiles=[("C", 0, 0, 0)], start=False)          # a lone all-city tile: every neighbour needs a city edge
    before = s.bagn
    s2 = play(s, "draw B")                                   # a cloister in a field fits nowhere
    assert GAME.current_player(s2) == CHANCE and s2.player == 0
    assert [t for t, _k in s2.discarded] == [E.INDEX["B"]] and s2.bagn == before - 1
    s3 = play(s2, "draw E")
    assert GAME.current_player(s3) == 0


def test_follower_only_on_an_unoccupied_feature_of_the_new_tile():
    s = build(followers=[(0, 0, 0, "road E W")], player=1)
    s = play(s, "draw U", "U 1,0 r0")
    moves = names(s)
    assert "follower road E W" not in moves                  # the road joins P1's road
    assert "follower field NL NR EL WR" in moves and "follower field ER SL SR WL" in moves
    with pytest.raises(IllegalMove, match="occupied"):
        play(s, "follower road E W")


def test_completed_road_scores_and_returns_the_follower():
    """A road closed at both ends scores 1 per tile; the follower goes back to its owner."""
    s = build(tiles=[("A", 1, 0, 90)], followers=[(0, 0, 0, "road E W")], player=1)
    assert supply(s, 0) == 6
    s = play(s, "draw L", "L -1,0 r0", "pass")
    assert s.scores == (3, 0)
    assert supply(s, 0) == 7


def test_completed_city_with_pennant_scores_two_per_tile_and_pennant():
    s = build(tiles=[("U", 1, 0, 0), ("E", 1, 1, 270)], followers=[(0, 0, 0, "city N")], player=1)
    s = play(s, "draw M", "M 0,1 r180", "pass")
    assert s.scores == (8, 0)                                # 3 tiles + 1 pennant, x2
    # a two-tile city without pennant: 4
    s = build(followers=[(1, 0, 0, "city N")])
    s = play(s, "draw E", "E 0,1 r180", "pass")
    assert s.scores == (0, 4)


@pytest.mark.parametrize("extra, expected", [(False, (8, 8)), (True, (10, 0))])
def test_city_majority_and_ties(extra, expected):
    """Most followers on a completed feature score it all; equal most all score in full."""
    followers = [(0, 0, 0, "city N"), (1, 1, 1, "city W")]
    tiles = [("U", 1, 0, 0), ("E", 1, 1, 270)]
    if extra:
        tiles += [("U", -1, 0, 0), ("E", -1, 1, 90)]         # a third city part, held by P1 too
        followers.append((0, -1, 1, "city E"))
    s = build(tiles=tiles, followers=followers, player=1)
    draw = "draw Q" if extra else "draw M"
    place = "Q 0,1 r180" if extra else "M 0,1 r180"
    s = play(s, draw, place, "pass")
    assert s.scores == expected                              # 4 tiles + Q's pennant = 10; or 3 tiles + M's = 8
    assert supply(s, 0) == 7 and supply(s, 1) == 7


def test_road_tie():
    s = build(tiles=[("A", 1, 0, 90), ("U", -1, 0, 0)], followers=[(0, 0, 0, "road E W"), (1, -1, 0, "road E W")],
              player=0)
    s = play(s, "draw L", "L -2,0 r0", "pass")
    assert s.scores == (4, 4)


def test_completed_cloister_scores_nine():
    tiles = [("B", 0, -1, 0), ("U", -1, 0, 0), ("U", 1, 0, 0), ("B", -1, -1, 0), ("B", 1, -1, 0),
             ("B", -1, -2, 0), ("A", 0, -2, 0)]
    s = build(tiles=tiles, followers=[(0, 0, -1, "cloister")], player=1)
    s = play(s, "draw E", "E 1,-2 r180", "pass")
    assert s.scores == (9, 0) and supply(s, 0) == 7


def test_follower_placed_on_the_completing_tile_scores_at_once():
    s = build(tiles=[("A", 1, 0, 90)])
    s = play(s, "draw L", "L -1,0 r0", "follower road E")
    assert s.scores == (3, 0) and supply(s, 0) == 7


def test_end_game_unfinished_features_and_farms():
    """Final scoring: unfinished roads 1 per tile, cities 1 per tile and pennant, cloisters 1 + neighbours, and
    farms 3 per completed city touching the field (rulings: current farm rule)."""
    tiles = [("E", 0, 1, 180),                 # closes the start tile's city: completed city 1
             ("U", 1, 0, 0),                   # road continues east; its upper field joins the start tile's upper field
             ("E", 1, 1, 0), ("E", 1, 2, 180),  # completed city 2, touched by the same field
             ("M", -1, 1, 270),                # an unfinished one-tile city with a pennant, open south and west
             ("B", 0, -1, 0)]                  # a cloister with 2 neighbours: (0,0) and (1,0)
    followers = [(0, 0, 0, "field EL WR"), (1, 0, 0, "road E W"), (1, -1, 1, "city S W"), (0, 0, -1, "cloister")]
    s = build(tiles=tiles, followers=followers)
    add, details = E.final_scores(s)
    kinds = {d[0]: d[:3] for d in details}             # (kind, winners, points); a node of the feature last
    assert kinds["field"] == ("field", [0], 6)       # two completed cities touch P1's field
    assert kinds["road"] == ("road", [1], 2)         # start tile + U, open at both ends
    assert kinds["city"] == ("city", [1], 2)         # one tile and its pennant, 1 point each
    assert kinds["cloister"] == ("cloister", [0], 1 + 2)
    assert add == [6 + 3, 2 + 2]


def test_game_end_adds_final_scores():
    """After the last tile is placed the game ends with the final scoring."""
    s = build(followers=[(0, 0, 0, "road E W")], player=1)
    s = s.copy()
    s.bag = tuple(0 for _ in s.bag)
    bag = list(s.bag)
    bag[E.INDEX["U"]] = 1
    s.bag, s.bagn = tuple(bag), 1
    s = play(s, "draw U", "U 1,0 r0", "pass")
    assert GAME.current_player(s) == TERMINAL
    assert s.scores == (2, 0)
    assert GAME.returns(s) == [1.0, -1.0]
    assert "Player 1 wins" in GAME.result(s)


def walked_field_cities(s):
    """For every field node, the completed cities its field touches, found from the tiles on the board alone (no
    union-find of the state's): features joined across every matching edge, a city complete when each of its edges
    meets a tile, a field touching the cities its tiles draw it beside. Each city is named by its nodes."""
    parent = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for _t, _r, pos, base, _k in s.tiles:
        rot = E.ROTS[_t][_r]
        for d in range(4):
            ni = s.board.get(pos + B.DPOS[d])
            if ni is None:
                continue
            nt, nr, _np, nbase, _nk = s.tiles[ni]
            for j, sl, _edge in rot.joins[d]:
                a, b = root(base + j), root(nbase + E.ROTS[nt][nr].slot[sl])
                if a != b:
                    parent[b] = a
    members = {}
    for _t, _r, _pos, base, _k in s.tiles:
        for j in range(len(E.ROTS[_t][_r].kinds)):
            members.setdefault(root(base + j), set()).add(base + j)
    open_city = set()
    for t, r, pos, base, _k in s.tiles:
        rot = E.ROTS[t][r]
        for j, kind in enumerate(rot.kinds):
            if kind == E.CITY and any(pos + B.DPOS[d] not in s.board for d in rot.locs[j]):
                open_city.add(root(base + j))
    touched = {}
    for t, r, _pos, base, _k in s.tiles:
        for j, cities in enumerate(E.ROTS[t][r].fcities):
            for cj in cities:
                if root(base + cj) not in open_city:
                    touched.setdefault(root(base + j), set()).add(frozenset(members[root(base + cj)]))
    return {node: touched.get(root(node), set()) for a, nodes in members.items() for node in nodes
            if s.nkind[node] == E.FIELD}


def check_field_cities(s):
    """The completed cities the state keeps per field (what the final scoring and the search's projection read) are
    the ones walked from the board."""
    walked = walked_field_cities(s)
    for node, cities in walked.items():
        bits = s.fcity[B.find(s.parent, node)]
        kept = {frozenset(n for n in range(len(s.parent)) if B.find(s.parent, n) == c)
                for c in range(bits.bit_length()) if bits >> c & 1}
        assert kept == cities, (f"field node {node}: kept {sorted(map(sorted, kept))}, "
                                f"walked {sorted(map(sorted, cities))}")


@pytest.mark.parametrize("options", [None, {"tower": False, "black_tower": False}])
def test_the_cities_each_field_touches_are_kept_as_the_board_grows(options):
    """Final scoring, farms: "3 points per completed city touching the field" (rulings: current farm rule); the
    completed cities kept per field as tiles are placed match the ones walked from the whole board, at every tile of
    random games."""
    import random
    rng = random.Random(5 if options is None else 6)
    s = GAME.new_state(options, 2)
    seen = 0
    while GAME.current_player(s) != TERMINAL:
        if GAME.current_player(s) == CHANCE:
            s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
            check_field_cities(s)
            seen += any(walked_field_cities(s).values())
            continue
        moves = GAME.legal_moves(s)
        s, _ = GAME.apply_unchecked(s, moves[rng.randrange(len(moves))])
    check_field_cities(s)
    assert seen > 20            # most of the game has fields beside completed cities


def test_a_field_that_forgot_a_completed_city_is_caught():
    """The check above fails on a state whose field lost a completed city it touches."""
    s = build(tiles=[("E", 0, 1, 180)])        # closes the start tile's city, beside the field north of its road
    check_field_cities(s)
    broken = s.copy()
    broken.fcity = [0] * len(s.fcity)
    with pytest.raises(AssertionError, match="kept"):
        check_field_cities(broken)
    assert E.final_scores(build(tiles=[("E", 0, 1, 180)], followers=[(0, 0, 0, "field EL WR")]))[0] == [3, 0]


@pytest.mark.parametrize("players, options", [(2, None), (4, None), (2, {"tower": False, "black_tower": False}),
                                              (3, {"black_tower": False})])
def test_the_projection_kept_move_by_move_is_the_final_scoring_of_what_stands(players, options):
    """What each player's followers would bring at the final scoring (unfinished roads and cities, cloisters, farms)
    is kept by every move, for the search's leaves: at every decision of random games it is what the final scoring
    walked over the board gives, captures, ransoms and completed features included; so are the followers kept as
    standing on cloisters."""
    import random
    rng = random.Random(players * 13 + len(options or {}))
    for _game in range(2):
        s = GAME.new_state(options, players)
        while GAME.current_player(s) != TERMINAL:
            assert list(s.proj) == E.final_scores(s)[0], s
            assert s.monks == tuple(f for f, loc in enumerate(s.fl) if loc >= 0 and s.nkind[loc] == E.CLOISTER)
            if GAME.current_player(s) == CHANCE:
                s, _ = GAME.apply_unchecked(s, GAME.sample_chance(s, rng))
                continue
            moves = GAME.legal_moves(s)
            s, _ = GAME.apply_unchecked(s, moves[rng.randrange(len(moves))])


def test_a_projection_off_by_a_point_is_caught():
    """The check above fails on a state whose kept projection lost the point of a cloister's new neighbour."""
    s = build(tiles=[("B", 0, -1, 0)], followers=[(0, 0, -1, "cloister")])
    assert list(s.proj) == E.final_scores(s)[0] == [2, 0]           # 1 + the start tile
    s = play(s, "draw U", "U 1,0 r0")                               # a second neighbour, diagonally
    assert list(s.proj) == E.final_scores(s)[0] == [3, 0]
    broken = s.copy()
    broken.proj = (2, 0)
    assert list(broken.proj) != E.final_scores(broken)[0]
