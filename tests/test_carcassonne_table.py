"""Carcassonne at the table: tile faces from the catalog, where pieces stand and lie, the models, a picture, clicks."""
from __future__ import annotations

import math
import os
import random

import numpy as np
import pytest

try:
    from tabletools import convex_apart, settle
except ImportError:  # tests run as a package
    from tests.tabletools import convex_apart, settle

from towerworld.engine.driver import answer_chance
from towerworld.engine.game import OMNISCIENT, SPECTATOR, TERMINAL
from towerworld.engine.pieces import size
from towerworld.games.carcassonne import GAME
from towerworld.games.carcassonne import board as B
from towerworld.games.carcassonne import tiles as TL
from towerworld.games.carcassonne.layout import ART, STOREY, TILE_H, TILE_MM, feature_spot
from towerworld.games.carcassonne.positions import build
from towerworld.games.carcassonne.rules import _finish

play = GAME.apply_texts


def finished_game(seed: int = 5, players: int = 2):
    return GAME.random_playout(GAME.new_state(None, players), random.Random(seed))


# ---- tile faces come from the tile catalog ---------------------------------------------------------------------------
def _two_people(tmp_path, seed: int = 3):
    """A two-person game (Ann and Bob at one screen), autosaved under `tmp_path`."""
    from towerworld.engine.match import Match, PlayerSpec
    return Match(GAME, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=seed,
                 autosave=str(tmp_path / "auto.tower.json"))


def test_tile_art_lists_cities_with_pennants_roads_cloisters_and_foundations():
    art = dict(zip(TL.CODES, ART))
    assert art["D"] == ("r:WE", "c:N:0")                    # the start tile: a road across, a city on the north edge
    assert art["C"] == ("c:NWSE:1",)                        # the all-city tile with its pennant
    assert art["A"] == ("r:S", "k")                         # cloister with a road that ends at it
    assert art["TC"] == ("k", "t")                          # a cloister beside a tower foundation
    assert art["TQ"] == ("c:NWE:1", "c:S:0", "t")
    for t, words in enumerate(ART):
        cities = sum(1 for w in words if w.startswith("c:"))
        assert cities == sum(1 for k in TL.ROTS[t][0].kinds if k == TL.CITY)
        assert ("t" in words) == TL.IS_TOWER_TILE[t]


def _square(cx: float, cy: float, w: float, d: float) -> tuple[float, float, float, float]:
    return (cx - w / 2, cy - d / 2, cx + w / 2, cy + d / 2)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_follower_targets_on_every_tile_and_turn_are_clear_of_each_other_and_of_the_tower():
    """Every follower place of a tile, and its tower where it is a foundation, can be clicked on its own: no two of
    their target squares overlap, and each lies on the tile."""
    from towerworld.games.carcassonne.layout import TARGET_MM, TOWER_MM
    for t in range(len(TL.TILES)):
        for r in range(4):
            rot = TL.ROTS[t][r]
            squares = [_square(x * TILE_MM, y * TILE_MM, TARGET_MM, TARGET_MM)
                       for x, y in (feature_spot(t, r, j) for j in range(len(rot.kinds)))]
            assert all(max(abs(q[0]), abs(q[2]), abs(q[1]), abs(q[3])) <= 0.55 * TILE_MM for q in squares)
            if rot.tower:
                squares.append(_square(0.0, 0.0, *TOWER_MM))
            for i, a in enumerate(squares):
                for b in squares[i + 1:]:
                    assert not _overlap(a, b), (TL.CODES[t], r, rot.names)


def test_follower_targets_stand_on_what_they_name():
    """A follower place lies in its feature as the tile face paints it: a knight in the city, a thief on (or right
    beside) the road, a farmer in the field, a monk on the cloister."""
    pytest.importorskip("panda3d")
    from towerworld.scene.components import carcassonne as face
    for t in range(len(TL.TILES)):
        rot = TL.ROTS[t][0]
        art = ART[t]
        cities = [w.split(":")[1] for w in art if w.startswith("c:")]
        roads = [w.split(":")[1] for w in art if w.startswith("r:")]
        city = np.zeros_like(face.X, dtype=bool)
        for edges in cities:
            city |= face.city_region(edges)
        road = np.zeros_like(city)
        for edges in roads:
            road |= face.road_region(edges, 0.08)
        for j, kind in enumerate(rot.kinds):
            x, y = feature_spot(t, 0, j)
            col = min(face.CELL - 1, int((x + 0.5) * face.CELL))
            row = min(face.CELL - 1, int((0.5 - y) * face.CELL))
            here = (city[row, col], road[row, col])
            name = (TL.CODES[t], rot.names[j], (x, y))
            if kind == TL.CITY:
                assert here[0], name
            elif kind == TL.ROAD:
                assert here[1] and not here[0], name
            elif kind == TL.FIELD and rot.locs[j] != (-1,):
                assert not here[0] and not any(face.road_region(e, 0.045)[row, col] for e in roads), name
            else:
                assert not here[1], name


def _decisions(seed: int, players: int):
    """Every position of a random whole game (uniform moves, chance drawn from the same stream) where a seat decides."""
    rng = random.Random(seed)
    s = GAME.new_state(None, players=players)
    while GAME.current_player(s) != TERMINAL:
        if GAME.current_player(s) < 0:
            s = GAME.apply(s, GAME.sample_chance(s, rng))[0]
            continue
        yield s
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))[0]


def test_every_follower_target_is_24_px_across_at_the_default_camera_and_none_overlap():
    """While a player chooses where a follower goes, the default view comes close to the tile just laid: at 1280 x 800
    each place on it is at least 24 px across on the screen, and no two places' squares overlap there."""
    from towerworld.scene.camera import framing, screen_point
    width, height = 1280, 800
    seen = 0
    for seed in (1, 2):
        for s in _decisions(seed, 2):
            lay = GAME.layout(s, GAME.current_player(s))
            targets = [c for k, c in lay.cells.items() if k.startswith("feature:")]
            if targets:
                orbit = framing(lay, aspect=width / height)
                quads = []
                for c in targets:
                    pts = [screen_point(orbit, 40.0, width / height, (c.x + u, c.y + v, c.z))
                           for u, v in ((-c.w / 2, -c.d / 2), (c.w / 2, -c.d / 2), (c.w / 2, c.d / 2),
                                        (-c.w / 2, c.d / 2))]
                    quad = [((p[0] + 1) / 2 * width, (p[1] + 1) / 2 * height) for p in pts]
                    quads.append(quad)
                    # across: the shorter of the square's two middle lines as the screen shows them
                    mids = [((quad[i][0] + quad[(i + 1) % 4][0]) / 2, (quad[i][1] + quad[(i + 1) % 4][1]) / 2)
                            for i in range(4)]
                    across = min(math.dist(mids[0], mids[2]), math.dist(mids[1], mids[3]))
                    assert across >= 24, (seed, len(s.tiles), across)
                    assert all(0 <= x <= width and 0 <= y <= height for x, y in quad)
                for i, a in enumerate(quads):
                    for b in quads[i + 1:]:
                        assert convex_apart(a, b), (seed, len(s.tiles))
                seen += 1
    assert seen > 60


# ---- where pieces are -----------------------------------------------------------------------------------------------
def test_farmers_lie_knights_stand_and_a_tower_top_follower_stands_on_the_roof():
    s = build(tiles=[("TB", 0, -1, 0), ("TC", 1, -1, 0)], towers=[(0, -1, [(1, "normal"), (0, "black")])],
              tops=[(1, 0, -1)], followers=[(0, 0, 0, "field ER SL SR WL"), (0, 0, 0, "city N")])
    lay = GAME.layout(s, OMNISCIENT)
    farmer, knight = lay.pieces["meeple:p1:1"], lay.pieces["meeple:p1:2"]
    assert farmer.tilt == 90 and farmer.z == TILE_H
    assert knight.tilt == 0 and knight.z == TILE_H and knight.y > 0          # on the city, north of the centre
    storeys = sorted((p for pid, p in lay.pieces.items() if p.kind == "tower_piece" and abs(p.y + TILE_MM) < 1),
                     key=lambda p: p.z)
    assert [p.z for p in storeys] == [TILE_H, TILE_H + STOREY]
    assert [p.get("colour") for p in storeys] == ["normal", "black"]           # the uppermost sets the type
    assert [p.get("top") for p in storeys] == [False, True]                   # battlements only on the top storey
    top = lay.pieces["meeple:p2:1"]
    assert (top.x, top.y, top.z) == (0.0, -TILE_MM, TILE_H + 2 * STOREY)


def test_prisoners_stand_beside_their_captor():
    s = build(3, prisoners=[(1, 2)])
    lay = GAME.layout(s, OMNISCIENT)
    prisoner = lay.pieces["meeple:p2:1"]
    captor_row = lay.pieces["meeple:p3:1"].y
    assert prisoner.y == captor_row and prisoner.x > lay.pieces["meeple:p3:7"].x


def test_the_drawn_tile_waits_beside_the_board_then_flies_to_its_place():
    s = play(GAME.new_state(), "draw V")
    waiting = GAME.layout(s, OMNISCIENT).pieces["tile:V:0"]
    assert waiting.y > 2 * TILE_MM                       # behind the landscape, past the open place north of it
    s2, events = GAME.apply(s, GAME.parse_move(s, "V 0,-1 r270"))
    placed = GAME.layout(s2, OMNISCIENT).pieces["tile:V:0"]
    assert (placed.x, placed.y, placed.heading) == (0.0, -TILE_MM, -270.0)
    assert events[0].pieces == ("tile:V:0",)


def test_a_finished_games_view_frames_what_was_built_not_where_a_tile_would_wait():
    """Where the drawn tile waits stays in the view between turns (the landscape keeps its place); once the game is
    over no tile is drawn, and the view of the landscape comes closer without that place behind it."""
    from dataclasses import replace

    from towerworld.engine.layout import Cell
    from towerworld.games.carcassonne.layout import Frame
    from towerworld.scene.camera import framing
    done = finished_game()
    lay = GAME.layout(done, OMNISCIENT)
    assert "drawn" not in lay.cells and "drawn" in GAME.layout(play(GAME.new_state(), "draw V"), OMNISCIENT).cells
    dx, dy = Frame(done).drawn()
    waiting = replace(lay, cells={**lay.cells, "drawn": Cell(dx, dy, 0.0, TILE_MM, TILE_MM)})
    assert framing(lay).distance < 0.95 * framing(waiting).distance


def test_every_viewer_sees_the_same_table():
    s = play(GAME.new_state(), "draw V")
    assert GAME.layout(s, SPECTATOR) == GAME.layout(s, 0) == GAME.layout(s, OMNISCIENT)


def test_scores_show_on_the_table():
    lay = GAME.layout(build(scores=(12, 7)), OMNISCIENT)
    assert [text for lid, (_x, _y, _z, text) in lay.labels.items() if lid.startswith("score:")] == \
        ["Player 1: 12 (to play)", "Player 2: 7"]


def test_the_bag_tells_its_count_and_the_drawn_tile_is_named_while_it_waits():
    s = play(GAME.new_state(), "draw V")
    lay = GAME.layout(s, SPECTATOR)
    assert lay.labels["bag"][3] == f"bag: {s.bagn} tiles"
    # over the piles, which stand nearer the camera than the landscape
    assert lay.labels["bag"][2] > max(p.z for pid, p in lay.pieces.items() if pid.startswith("bag:"))
    assert lay.labels["drawn"][3] == "tile to place"
    assert abs(lay.labels["drawn"][0] - lay.pieces["tile:V:0"].x) < 1.0
    placed = play(s, "V 0,-1 r270")
    assert "drawn" not in GAME.layout(placed, SPECTATOR).labels


# ---- models ---------------------------------------------------------------------------------------------------------
def test_every_piece_has_a_model_and_tiles_share_one_texture(showbase):
    from towerworld.scene import components as models
    from towerworld.scene.components.carcassonne import atlas
    lay = GAME.layout(finished_game(), OMNISCIENT)
    assert models.missing_models(lay) == set()
    tiles = [p for p in lay.pieces.values() if p.kind == "ccs_tile"][:5]
    textures = {models.build(p).findTexture("*") for p in tiles}
    assert textures == {atlas().texture}
    tile = models.build(tiles[0])
    lo, hi = tile.getTightBounds()
    s = size("ccs_tile")
    assert (hi.x - lo.x, hi.y - lo.y, hi.z - lo.z) == pytest.approx((s.w, s.d, s.h), abs=0.01)
    assert tile.findAllMatches("**/+GeomNode").getNumPaths() == 1      # one Geom: face, back and sides


def test_atlas_paints_each_face_once():
    pytest.importorskip("panda3d")
    from towerworld.scene.components.carcassonne import atlas
    atl = atlas()
    first = atl.cell(ART[0])
    assert atl.cell(ART[0]) == first and atl.cell(ART[1]) != first
    u0, v0, u1, v1 = atl.uv(first)
    assert 0 < u0 < u1 < 1 and 0 < v0 < v1 < 1


def test_a_finished_game_picture(showbase, tmp_path):
    from towerworld.scene.offscreen import render_layout
    out = render_layout(GAME.layout(finished_game(), OMNISCIENT), str(tmp_path / "end.png"), 640, 400)
    assert os.path.getsize(out) > 20_000


def test_the_click_instruction_shows_only_while_a_person_places(showbase, tmp_path):
    """An AI against AI window said "click a glowing place; R turns it" while an AI placed its tile: the instruction
    is shown while a person is to place, and not while an AI places or in a replay."""
    from towerworld.app.play import PlayTable, Table
    from towerworld.engine.match import PlayerSpec
    match = _two_people(tmp_path)
    table = PlayTable(match)
    try:
        settle(table)
        s = match.state
        assert s.phase == B.PLACE and GAME.current_player(s) == 0
        click = "Click a glowing place; the R key turns the tile."
        assert click in table.status_lines(s)
        assert any(line.startswith("Tile to place: ") for line in table.status_lines(s))
        match.players[0] = PlayerSpec("Ann", "ai", "random")
        assert click not in table.status_lines(s)
        match.players[0] = PlayerSpec("Ann")
        assert not Table._person_to_move(table, s)          # what a replay's table answers
    finally:
        table.close()


# ---- a turn by clicks -----------------------------------------------------------------------------------------------
def test_a_turn_by_clicks(showbase, tmp_path):
    from towerworld.app.play import PlayTable
    match = _two_people(tmp_path)
    table = PlayTable(match)

    try:
        settle(table)
        s = match.state
        assert s.phase == B.PLACE
        places = {GAME.picks(s, m)[0] for m in GAME.legal_moves(s) if m >> B.SHIFT == B.K_PLACE}
        lit = {cid for cid, node in table.stage.cells.items() if node.getColorScale()[3] > 0}
        assert lit == places                                        # the legal places glow
        table.choose("at:9,9")
        assert "touches none" in table.hud.message.getText()       # a refused click says which rule
        move = next(m for m in GAME.legal_moves(s) if m >> B.SHIFT == B.K_PLACE)
        for pick in GAME.picks(s, move):
            table.choose(pick)
        settle(table)
        assert match.state.phase == B.ACTION
        table.choose("pass")
        assert match.state.phase in (B.DRAW, B.RANSOM) or GAME.current_player(match.state) == TERMINAL
    finally:
        table.close()


def test_the_next_choices_light_up_however_close_to_its_end_a_frame_catches_an_animation(showbase, tmp_path):
    """A frame that lands within half a millisecond of an animation's end runs its last step while Panda3D still
    counts the interval as playing; the person to move must still be offered the next picks (a window game stalled
    with nothing lit and no button, about once a game)."""
    from panda3d.core import ClockObject
    from towerworld.app.play import PlayTable
    match = _two_people(tmp_path)
    table = PlayTable(match)
    clock = ClockObject.getGlobalClock()
    mode = clock.getMode()
    try:
        settle(table)
        s = match.state
        move = next(m for m in GAME.legal_moves(s) if m >> B.SHIFT == B.K_PLACE)
        clock.setMode(ClockObject.MSlave)
        start = clock.getFrameTime()
        for pick in GAME.picks(s, move):
            table.choose(pick)
        assert table.animating
        end = start + table.anim.getDuration()
        for at in (end - 0.0003, end + 0.5, end + 1.0):
            clock.setFrameTime(at)
            table.base.taskMgr.step()
        assert match.state.phase == B.ACTION and table._human_turn()
        lit = {cid for cid, node in table.stage.cells.items() if node.getColorScale()[3] > 0}
        assert lit and lit == {p for m in GAME.legal_moves(match.state) for p in GAME.picks(match.state, m)[:1]
                               if p in table.stage.cells}
        assert [b["text"] for b in table.hud.buttons] == ["No follower or tower"]
    finally:
        clock.setMode(mode)
        table.close()


def test_a_game_ends_at_the_table_with_the_result_said_once_and_the_totals_on_one_line(showbase, tmp_path):
    """The status names the winner once, in the players' names; the message line keeps the final totals (each
    feature's points float up from it on the table as it lights up), one line that covers no score label."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.game import CHANCE
    match = _two_people(tmp_path, seed=4)
    rng = random.Random(4)
    while True:                                     # random play up to the move that ends the game
        if match.current_player == CHANCE:
            match.apply(match.next_chance(rng), save=False)
            continue
        moves = GAME.legal_moves(match.state)
        last = [m for m in moves if match.state.bagn == 0 and GAME.is_terminal(GAME.apply(match.state, m)[0])]
        if last:
            break
        match.apply(rng.choice(moves), save=False)
    table = PlayTable(match)
    try:
        settle(table)
        for pick in GAME.picks(match.state, last[0]):
            table.choose(pick)
        settle(table)
        assert match.over
        status = table.hud.status.getText()
        result = GAME.result(match.state).replace("Player 1", "Ann").replace("Player 2", "Bob")
        assert status.count(result) == 1 and "Player " not in status
        message = table.hud.message.getText()
        assert "Final scoring: Ann +" in message
        assert not any(word in message for word in ("Road:", "City:", "Cloister:", "Field:"))
        assert table.hud.message.textNode.getNumRows() == 1
    finally:
        table.close()


# ---- scoring you can see ----------------------------------------------------------------------------------------------
def test_a_completed_feature_sends_its_followers_home_in_the_score_event():
    s = build(followers=[(0, 0, 0, "city N")])
    s = play(s, "draw E")
    s, events = GAME.apply(s, GAME.parse_move(s, "E 0,1 r180"))
    s, events = GAME.apply(s, GAME.parse_move(s, "pass"))
    score = [e for e in events if e.kind == "score"]
    assert len(score) == 1 and score[0].pieces == ("meeple:p1:1",) and "+4" in score[0].text
    from towerworld.scene.stage import plan
    # the stage moves the scoring follower first, in its own phase, back to its owner's row
    phases = plan(GAME.layout(build(followers=[(0, 0, 0, "city N")]), OMNISCIENT), GAME.layout(s, OMNISCIENT),
                  events)
    assert [c.piece for c in phases[0]] == ["meeple:p1:1"]


def test_the_final_scoring_walks_roads_cities_cloisters_then_fields():
    s = build(tiles=[("A", 0, -1, 0), ("E", 0, 1, 180)],
              followers=[(0, 0, 0, "road E W"), (1, 0, 0, "city N"), (0, 0, -1, "cloister"), (1, 0, 0, "field EL WR")])
    s = s.copy()
    s.bag, s.bagn = tuple(0 for _ in s.bag), 0          # every tile is out: the game ends now
    events = []
    _finish(s, events)
    walk = [GAME._event(s, s, e).text for e in events]
    assert walk[0] == "Final scoring: Player 1 +3, Player 2 +7."                   # the sum first, then feature by feature
    assert [text.split(":")[0] for text in walk[1:]] == ["Road", "City", "Cloister", "Field"], walk


def test_a_full_board_draws_combined_and_still_picks_by_piece(showbase):
    from towerworld.scene.picking import Picker
    from towerworld.scene.stage import Stage
    lay = GAME.layout(finished_game(), OMNISCIENT)
    stage = Stage(showbase.render)
    picker = Picker(showbase, stage)
    try:
        stage.show(lay)
        assert stage.combined is not None
        drawn = sum(np.node().getNumGeoms() for np in stage.root.findAllMatches("**/+GeomNode") if not np.isHidden())
        assert drawn <= 60                                   # the full board in at most 60 draw calls
        tile_id, tile = next((pid, p) for pid, p in lay.pieces.items() if pid.startswith("tile:")
                             and not any(q.kind != "ccs_tile" and abs(q.x - p.x) < 23 and abs(q.y - p.y) < 23
                                         for q in lay.pieces.values()))
        showbase.camera.setPos(tile.x + 3, tile.y + 3, 400)
        showbase.camera.lookAt(tile.x + 3, tile.y + 3, 0)
        assert picker.pick_all((0.0, 0.0))[:1] == [tile_id]  # the ray finds the piece, not the combined copy
        stage.highlight({tile_id: (1, 1, 0, 0.5)})
        assert not stage.models[tile_id].isHidden()           # a highlighted piece draws itself
    finally:
        picker.ray_np.removeNode()
        stage.root.removeNode()


def test_the_view_and_the_table_grow_with_the_landscape(showbase, tmp_path):
    from towerworld.app.play import PlayTable
    match = _two_people(tmp_path)
    table = PlayTable(match)
    try:
        view = table.camera
        start_home = view.home
        grown = GAME.layout(finished_game(), OMNISCIENT)
        table.refit(grown)
        assert view.home.distance > start_home.distance and view.orbit == view.home     # untouched camera follows
        assert table.table_bounds == grown.bounds()
        view.zoom(0.8)                                               # a player who moved the camera keeps it
        moved = view.orbit
        table.refit(GAME.layout(finished_game(seed=6), OMNISCIENT))
        assert view.orbit == moved
    finally:
        table.close()


def test_a_ghost_of_the_drawn_tile_follows_the_pointer_and_turns_through_legal_rotations(showbase, tmp_path):
    from towerworld.app.play import PlayTable
    match = _two_people(tmp_path)
    table = PlayTable(match)
    try:
        for _ in range(200):
            if table.anim is not None:
                table.anim.finish()
            table.base.taskMgr.step()
            if table._human_turn():
                break
        s = match.state
        by_place: dict = {}
        for m in GAME.legal_moves(s):
            if m >> B.SHIFT == B.K_PLACE:
                at, rot = GAME.picks(s, m)
                by_place.setdefault(at, []).append(rot)
        cell, rotations = max(by_place.items(), key=lambda kv: len(kv[1]))
        table.preview_at(cell)
        (ghost,) = table.stage.ghost_poses.values()
        cx, cy = (int(v) * TILE_MM for v in cell[3:].split(","))
        assert (ghost.x, ghost.y) == (cx, cy)
        assert table.hover_options == sorted(rotations)               # only the legal rotations are offered
        headings = []
        picture = table.hud.closeup
        for _ in rotations:
            headings.append(next(iter(table.stage.ghost_poses.values())).heading)
            # the enlarged tile at the window's edge lies as its ghost does
            assert abs((picture.model.getH() - headings[-1]) % 360) < 1e-6
            table._turn_preview(1, lambda: None)
        assert sorted(headings) == sorted(-int(r[4:]) for r in rotations)
        assert len(set(h % 360 for h in headings)) >= 2
        table.preview_at(None)
        assert picture.model.getH() == 0                              # no ghost: the tile as it was drawn
        table.preview_at(cell)
        for _ in rotations:
            table._turn_preview(1, lambda: None)
        table._turn_preview(1, lambda: None)                          # the second rotation offered
        table.choose_previewed()
        assert GAME.format_move(s, match.plies[-1].move).endswith(" r" + sorted(rotations)[1][4:])
        table.preview_at(None)
        assert table.stage.ghost_poses == {}
    finally:
        table.close()


def test_a_click_anywhere_on_a_glowing_place_finds_it(showbase, tmp_path):
    """Every point of a glowing open place, and of a glowing feature of the tile just placed, is found under the
    pointer. (Cells are one flat unit box scaled to each place; Panda3D's own ray test against such a scaled box
    missed about a quarter of its points, and a click on a glowing place said "Nothing there to pick".)"""
    from panda3d.core import Point2, Point3
    from towerworld.app.play import PlayTable
    match = _two_people(tmp_path)
    table = PlayTable(match)

    def film(point):
        out = Point2()
        assert showbase.camLens.project(showbase.cam.getRelativePoint(showbase.render, point), out)
        return (out.x, out.y)

    try:
        for phase in (B.PLACE, B.ACTION):
            settle(table)
            s = match.state
            assert s.phase == phase
            lit = [cid for cid, node in table.stage.cells.items() if node.getColorScale()[3] > 0]
            assert len(lit) >= 2
            missed = []
            for cid in lit:
                low, high = table.stage.cells[cid].getTightBounds(showbase.render)
                grid = [0.1 + 0.8 * i / 6 for i in range(7)]     # points all over its face, clear of its edges
                for u in grid:
                    for v in grid:
                        point = Point3(low.x + u * (high.x - low.x), low.y + v * (high.y - low.y), high.z)
                        if cid not in table.picker.pick_all(film(point)):
                            missed.append((cid, u, v))
            assert missed == []
            move = next(m for m in GAME.legal_moves(s) if m >> B.SHIFT in (B.K_PLACE, B.K_PASS))
            for pick in GAME.picks(s, move):
                table.choose(pick)
    finally:
        table.close()


def test_refused_clicks_name_the_rule():
    s = play(GAME.new_state(), "draw V")
    assert "must touch a placed tile" in GAME.explain(s, ["tile:D:0"])
    s = play(s, "V 0,-1 r0")
    assert "road, city, field or cloister" in GAME.explain(s, ["tile:D:0"])
    assert "click the glowing road" in GAME.explain(s, ["meeple:p1:1"])
    assert "glowing roof" in GAME.explain(s, ["tower:p1:normal:1"])


def test_the_points_float_up_from_the_scoring_follower(showbase):
    from towerworld.scene.stage import Stage
    before = build(followers=[(0, 0, 0, "city N")])
    s = play(before, "draw E", "E 0,1 r180")
    s, events = GAME.apply(s, GAME.parse_move(s, "pass"))
    stage = Stage(showbase.render)
    try:
        stage.show(GAME.layout(before, OMNISCIENT))
        ival = stage.transition(GAME.layout(before, OMNISCIENT), GAME.layout(s, OMNISCIENT), events)
        ival.start()
        ival.setT(0.3)
        floats = stage.root.findAllMatches("float")
        assert floats.getNumPaths() == 1 and not floats[0].isHidden()
        assert floats[0].getZ() > TILE_H + 20                       # rising over the city
        ival.finish()
        assert stage.root.findAllMatches("float").getNumPaths() == 0
    finally:
        stage.root.removeNode()


def test_a_move_combines_only_what_changed_and_a_whole_game_stays_within_the_draw_calls(showbase):
    from towerworld.engine.match import Match
    from towerworld.scene.stage import Stage
    match = Match(GAME, seed=4)
    rng = random.Random(4)
    stage = Stage(showbase.render)
    try:
        stage.show(GAME.layout(match.state, OMNISCIENT))
        old, untouched_moves = stage.layout, 0
        while not match.over:
            if match.current_player < 0:
                events = answer_chance(match)
            else:
                moves = GAME.legal_moves(match.state)
                events = match.apply(moves[rng.randrange(len(moves))], save=False)
            before = {id(chunk) for chunk in stage.chunks}
            new = GAME.layout(match.state, OMNISCIENT)
            moved = {pid for pid, pose in new.pieces.items() if old.pieces.get(pid) != pose} | \
                (set(old.pieces) - set(new.pieces))
            stage.transition(old, new, events).finish()
            after = {id(chunk): chunk for chunk in stage.chunks}
            # a chunk that holds a piece that moved is gone; one that holds none stays, not flattened again
            assert not any(moved & set(chunk.members) for chunk in stage.chunks if id(chunk) in before)
            untouched_moves += set(after) <= before
            old = new
        drawn = sum(np.node().getNumGeoms() for np in stage.root.findAllMatches("**/+GeomNode") if not np.isHidden())
        assert drawn <= 60                      # at most 60 after a whole game of moves, not only a fresh table
        assert untouched_moves > 0.8 * len(match.plies)    # most moves flatten nothing new (about 9 in 10)
    finally:
        stage.root.removeNode()


def _camera(showbase, scene, orbit, width=320, height=200):
    """An offscreen camera over `scene`: returns (take a picture as an RGB array with row 0 on top, project a table
    point (x, y, z) to its pixel (column, row))."""
    import numpy
    from panda3d.core import (FrameBufferProperties, GraphicsOutput, GraphicsPipe, Point2, Point3, Texture,
                              WindowProperties)
    fb = FrameBufferProperties()
    fb.setRgbColor(True)
    fb.setRgbaBits(8, 8, 8, 8)
    fb.setDepthBits(24)
    buf = showbase.graphicsEngine.makeOutput(showbase.pipe, "glow-test", -1, fb, WindowProperties.size(width, height),
                                             GraphicsPipe.BFRefuseWindow, showbase.win.getGsg(), showbase.win)
    tex = Texture()
    buf.addRenderTexture(tex, GraphicsOutput.RTMCopyRam)
    cam = showbase.makeCamera(buf, scene=showbase.render)
    cam.reparentTo(showbase.render)
    lens = cam.node().getLens()
    lens.setFov(40)
    lens.setAspectRatio(width / height)
    lens.setNearFar(5, 5000)
    cam.node().setScene(scene)
    orbit.apply(cam)

    def shoot():
        showbase.graphicsEngine.renderFrame()
        showbase.graphicsEngine.renderFrame()
        rgb = numpy.frombuffer(bytes(tex.getRamImageAs("RGB")), numpy.uint8).reshape(height, width, 3)
        return rgb[::-1].astype(int)

    def pixel(point):
        screen = Point2()
        assert lens.project(cam.getRelativePoint(showbase.render, Point3(*point)), screen)
        return ((screen.x + 1) / 2 * width, (1 - screen.y) / 2 * height)
    return shoot, pixel, lambda: (showbase.graphicsEngine.removeWindow(buf), cam.removeNode())


def test_a_completed_feature_lights_up_over_its_tiles_while_it_scores_then_goes_dark(showbase):
    """Scoring you can see: a completed feature lights up, its meeples lift off home, and the points
    float up."""
    from towerworld.scene.camera import Orbit
    from towerworld.scene.setup import dress
    from towerworld.scene.stage import Stage
    before = play(build(followers=[(0, 0, 0, "city N"), (1, 0, 0, "road E W")]), "draw E", "E 0,1 r180")
    after, events = GAME.apply(before, GAME.parse_move(before, "pass"))
    (score,) = [e for e in events if e.kind == "score"]
    assert sorted(score.areas) == [("tile:D:0", "c:N"), ("tile:E:0", "c:N")]    # E lies turned: its N faces south
    scene = showbase.render.attachNewNode("glow-scene")
    dress(scene, GAME.layout(after, OMNISCIENT))
    stage = Stage(scene)
    shoot, pixel, close = _camera(showbase, scene, Orbit(tx=0, ty=12, tz=0, heading=0, pitch=89, distance=240))
    try:
        stage.show(GAME.layout(before, OMNISCIENT))
        ival = stage.transition(GAME.layout(before, OMNISCIENT), GAME.layout(after, OMNISCIENT), events)
        ival.start()
        ival.setT(0.3)                                  # the follower is on its way home
        lit = shoot()
        stage.root.find("**/lit-areas").hide()
        glow = abs(lit - shoot()).sum(axis=-1) > 40       # what the glow adds to the picture
        # the two halves of the city: north of D's centre (the road stays dark) up to south of E's centre
        left, top = pixel((-TILE_MM / 2, TILE_MM * 0.85, TILE_H))
        right, bottom = pixel((TILE_MM / 2, TILE_MM * 0.15, TILE_H))
        rows, cols = glow.nonzero()
        assert glow.sum() > 0.2 * (right - left) * (bottom - top)
        assert left - 1 <= cols.min() and cols.max() <= right + 1 and top - 1 <= rows.min() and rows.max() <= bottom + 1
        ival.finish()
        assert stage.root.find("**/lit-areas").isEmpty()         # after the scoring it is gone
    finally:
        close()
        scene.removeNode()


def test_the_final_scoring_walk_lights_up_each_feature_scored():
    s = build(tiles=[("A", 0, -1, 0), ("E", 0, 1, 180)],
              followers=[(0, 0, 0, "road E W"), (0, 0, -1, "cloister"), (1, 0, 0, "field EL WR")])
    s = s.copy()
    s.bag, s.bagn = tuple(0 for _ in s.bag), 0
    events: list = []
    _finish(s, events)
    walk = [GAME._event(s, s, e) for e in events]
    assert walk[0].text == "Final scoring: Player 1 +3, Player 2 +3." and walk[0].areas == ()   # the sum lights nothing
    assert [e.text for e in walk[1:]] == ["Road: Player 1 +1", "Cloister: Player 1 +2", "Field: Player 2 +3"]
    road, cloister, field = (dict(e.areas) for e in walk[1:])
    assert road == {"tile:D:0": "r:WE"}
    assert cloister == {"tile:A:0": "all", "tile:D:0": "all"}          # the cloister and the one tile beside it
    assert field == {"tile:D:0": "f:EL,WR"}                             # E turns its city, not a field, to D


def test_the_default_view_frames_the_landscape_in_the_middle_with_the_piles_and_rows_at_its_edges():
    """Through whole games, the landscape's middle stays in the middle of the default view (within a quarter of the
    way to either side, and within half way up or down), and the players' rows and the face-down piles show below it,
    at the table's near edge, clear of every tile."""
    from towerworld.scene.camera import framing, screen_point
    aspect = 1.6
    for seed in (4, 5):
        for s in _decisions(seed, 3):
            lay = GAME.layout(s, SPECTATOR)
            orbit = framing(lay, aspect=aspect)
            placed = {f"tile:{TL.CODES[t]}:{k}" for t, _r, _p, _b, k in s.tiles}

            def box(ids):
                pts = [screen_point(orbit, 40.0, aspect, (p.x, p.y, p.z)) for i, p in lay.pieces.items() if i in ids]
                return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
                        max(p[1] for p in pts)) if pts else None
            land = box(placed)
            middle = ((land[0] + land[2]) / 2, (land[1] + land[3]) / 2)
            assert abs(middle[0]) <= 0.25 and abs(middle[1]) <= 0.5, (seed, len(s.tiles), middle)
            piles = box({i for i in lay.pieces if i.startswith("bag:")})
            if piles:
                assert piles[3] < land[1], (seed, len(s.tiles))
            rows = box({i for i in lay.pieces if i.startswith(("meeple", "tower:")) and lay.pieces[i].z == 0.0})
            if rows:
                assert rows[3] < land[1], (seed, len(s.tiles))


def test_the_floating_points_name_the_player_as_the_table_does(showbase, monkeypatch):
    """The words rising from a score said "Player 1 scores 4" where every other word on the table named the player:
    they take the table's names, and grow with the labels when the view is far."""
    from towerworld.scene import stage as stage_module
    from towerworld.scene.stage import Stage
    said = []
    real = stage_module.shared_text

    def recording(words, *args, **kwargs):
        said.append(words)
        return real(words, *args, **kwargs)
    monkeypatch.setattr(stage_module, "shared_text", recording)
    before = build(followers=[(0, 0, 0, "city N")])
    s = play(before, "draw E", "E 0,1 r180")
    s, events = GAME.apply(s, GAME.parse_move(s, "pass"))
    scored = [e.text for e in events if e.kind == "score" and "Player 1" in e.text]
    assert scored
    stage = Stage(showbase.render)
    try:
        stage.label_words = lambda words: words.replace("Player 1", "Ann")
        stage.show(GAME.layout(before, OMNISCIENT))
        stage.set_label_scales({"bag": 1.8})
        said.clear()
        ival = stage.transition(GAME.layout(before, OMNISCIENT), GAME.layout(s, OMNISCIENT), events)
        ival.start()
        ival.setT(0.3)
        assert scored[0].replace("Player 1", "Ann") in said and not any("Player 1" in w for w in said)
        assert stage.root.find("float").getScale()[0] == pytest.approx(1.8)
        ival.finish()
    finally:
        stage.root.removeNode()


def test_the_tile_to_place_is_shown_enlarged_beside_the_panels_and_goes_with_the_table(showbase, tmp_path):
    """The tile to place waits behind the landscape, far from the camera (about 65 px wide at 1280x800): the table
    also shows it enlarged at the window's right edge, clear of the HUD, until it is laid (it leaves the picture as
    it flies to its place); closing the table takes the picture's display region away."""
    from panda3d.core import PNMImage, Point2, Point3

    from towerworld.app.play import PlayTable
    regions = showbase.win.getNumDisplayRegions()
    table = PlayTable(_two_people(tmp_path))
    try:
        settle(table)
        s = table.match.state
        assert s.phase == B.PLACE
        pid, caption = table.stage.layout.closeup
        pose = table.stage.layout.pieces[pid]
        assert pose.get("tile") == TL.CODES[s.drawn] and caption == "Tile to place"
        picture = table.hud.closeup
        assert picture.active and picture.model is not None
        box = picture.box()
        assert -1 <= box[0] < box[2] <= 1 and -1 <= box[1] < box[3] <= 1
        for other in table.hud.panel_boxes() + table.hud.top_boxes():
            assert not (box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]), \
                f"the picture {box} covers the HUD's {other}"
        # the tile in the picture against the tile on the table, in pixels across
        w, h = showbase.win.getXSize(), showbase.win.getYSize()
        left, right, bottom, top = picture.region.getDimensions()
        half = TILE_MM / 2
        corners = [(x, y, 0.0) for x in (-half, half) for y in (-half, half)]

        def across(camera, lens, render_from, width_px, at):
            xs = []
            for x, y, z in corners:
                seen = camera.getRelativePoint(render_from, Point3(at[0] + x, at[1] + y, z))
                film = Point2()
                lens.project(seen, film)
                xs.append(film.x)
            return (max(xs) - min(xs)) / 2 * width_px
        big = across(picture.camera, picture.lens, picture.model, (right - left) * w, (0, 0))
        small = across(showbase.cam, showbase.camLens, showbase.render, w, (pose.x, pose.y))
        assert big >= 0.2 * h and big >= 2 * small, f"the picture's tile is {big:.0f} px across, the table's {small:.0f}"
        image = PNMImage()
        showbase.graphicsEngine.renderFrame()
        assert showbase.win.getScreenshot(image)
        middle = image.getXel(int((left + right) / 2 * w), int((1 - (bottom + top) / 2) * h))
        assert max(abs(a - b) for a, b in zip(middle, (0.1, 0.12, 0.18))) > 0.15, "the picture's middle is empty"
        move = next(m for m in GAME.legal_moves(s) if m >> B.SHIFT == B.K_PLACE)
        for pick in GAME.picks(s, move):
            table.choose(pick)
        assert table.animating and not picture.active, "the tile laid stays in the picture while it flies"
        settle(table)
        assert table.match.state.phase == B.ACTION
        assert not picture.active and not picture.region.isActive()
    finally:
        table.close()
    assert showbase.win.getNumDisplayRegions() == regions
