"""Nothing the HUD draws lies over anything else it draws: the players' panels, the instruction line, the status, the
message line, the action buttons, the help hint and the replay's timeline and buttons, each a screen rectangle from
its aspect2d bounds, overlap none of the others at 1280x800, at 900x600 and at 1920x1080 (what full screen gives), in
every game (the issue: "a button covers Player 2's score in replay"); nor does any lie over a table label."""
import math
import random

import pytest

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.pieces import size
from towerworld.engine.registry import get_game

try:
    from tabletools import overlap, projected_box, settle
except ImportError:  # tests run as a package
    from tests.tabletools import overlap, projected_box, settle

SIZES = [(1280, 800), (900, 600), (1920, 1080)]


def box(table, node):
    """The screen rectangle (x0, y0, x1, y1; -1..1 across the window) that a HUD item draws in, or None if empty."""
    if node.isHidden():
        return None
    bounds = node.getTightBounds(table.base.render2d)
    if bounds is None:
        return None
    lo, hi = bounds
    return (lo.x, lo.z, hi.x, hi.z)


def overlaps(items: dict) -> list:
    names = [k for k, v in items.items() if v is not None]
    bad = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p, q = items[a], items[b]
            if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]:
                bad.append((a, b))
    return bad


def test_the_overlap_check_sees_an_overlap():
    assert overlaps({"a": (0, 0, 1, 1), "b": (0.5, 0.5, 2, 2), "c": (3, 3, 4, 4)}) == [("a", "b")]


def label_boxes(table) -> dict:
    """Each table label's card on the screen (the score plaques, tower letters, files and rows), from its glyphs."""
    from panda3d.core import Point2, Point3
    boxes = {}
    for i, label in enumerate(table.stage.labels_root.getChildren()):
        if label.isHidden() or not label.getNumChildren():
            continue
        bounds = label.getChild(0).getTightBounds(label)
        if bounds is None:
            continue
        lo, hi = bounds
        anchor = table.base.cam.getRelativePoint(label, Point3(0, 0, 0))
        corners = []
        for dx in (lo.x, hi.x):
            for dz in (lo.z, hi.z):
                film = Point2()
                if table.base.camLens.project(Point3(anchor.x + dx, anchor.y, anchor.z + dz), film):
                    corners.append(film)
        if corners:
            boxes[f"label {i}"] = (min(c.x for c in corners), min(c.y for c in corners),
                                                     max(c.x for c in corners), max(c.y for c in corners))
    return boxes


def under_hud(hud: dict, labels: dict) -> list:
    """(label, HUD item) pairs where a HUD item is drawn over a table label."""
    return [(a, b) for a, p in labels.items() for b, q in hud.items()
            if q is not None and p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]]


def _resize(table, w, h):
    table.base.win.setSize(w, h)
    table.base.adjustWindowAspectRatio(table.base.getAspectRatio())
    table.refit(table.stage.layout)


def _hud_items(table) -> dict:
    hud = table.hud
    items = {"status": box(table, hud.status), "message": box(table, hud.message), "hint": box(table, hud.hint),
             "instruction": box(table, hud.instruction)}
    items.update({f"button {i}": box(table, b) for i, b in enumerate(hud.buttons)})
    # a panel and the gold edge round the panel of the player to move are one thing on the screen
    items.update({f"panel {i}": p for i, p in enumerate(hud.panel_boxes())})
    if hud.closeup is not None and hud.closeup.active:     # the piece to decide about, enlarged (the tile to place)
        items["close-up"] = hud.closeup.box()
    return items


def _players(name):
    """The most players the game seats (the widest row of panels), a person first."""
    n = get_game(name).max_players
    return [PlayerSpec("Ann")] + [PlayerSpec(f"Bot {i}", "ai", "random") for i in range(1, n)]


def _table_in_play(tmp_path, name, plies=12):
    """A table after some random moves (scores, holdings and the last move in words), a person to move."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.game import CHANCE
    game = get_game(name)
    match = Match(game, players=_players(name), seed=3, autosave=str(tmp_path / "o.tower.json"))
    rng = random.Random(3)
    for _ in range(plies):
        cp = game.current_player(match.state)
        if match.over or cp == 0:
            break
        match.apply(game.sample_chance(match.state, rng) if cp == CHANCE else rng.choice(game.legal_moves(match.state)),
                    save=False)
    return PlayTable(match)


@pytest.mark.parametrize("name", ["kdak", "carcassonne", "elevation", "throwdown", "ziggurat"])
def test_the_play_hud_draws_nothing_over_anything_else(showbase, tmp_path, name):
    t = _table_in_play(tmp_path, name)
    size = (t.base.win.getXSize(), t.base.win.getYSize())
    try:
        settle(t)
        if t.handoff is not None:
            t.confirm_handoff()
        t.hud.say("Nothing there to pick: click a highlighted piece or square, or press H for the keys.")
        t.hud.set_buttons([("pass", lambda: None), ("spend a talisman", lambda: None)])
        for w, h in SIZES:
            _resize(t, w, h)
            items = _hud_items(t)
            assert items["instruction"] is not None, "one line says what to do now"
            assert sum(k.startswith("panel ") for k in items) == len(t.match.players), "a panel per player"
            assert all(-1 <= v[0] and v[2] <= 1 and -1 <= v[1] and v[3] <= 1 for v in items.values() if v), \
                f"{name} at {w}x{h}: a HUD item runs off the window"
            assert not overlaps(items), f"{name} at {w}x{h}: {overlaps(items)}"
            labels = label_boxes(t)
            assert labels, "the table labels its places"
            assert not under_hud(items, labels), f"{name} at {w}x{h}: {under_hud(items, labels)}"
    finally:
        t.base.win.setSize(*size)
        t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
        t.close()


def test_a_broken_panel_row_is_caught(showbase, tmp_path, monkeypatch):
    """The check is shown to fail on a broken layout: panels as wide as the whole row, drawn over each other and
    run off the window's edge."""
    from towerworld.scene import hud
    monkeypatch.setattr(hud, "PANEL_GAP", -0.5)
    t = _table_in_play(tmp_path, "carcassonne")
    try:
        settle(t)
        t.hud.arrange()
        assert any(a.startswith("panel") and b.startswith("panel") for a, b in overlaps(_hud_items(t)))
    finally:
        t.close()


def piece_box(table, pose):
    """The screen rectangle (-1..1 across the window) of a piece's box (its catalog size, turned by its heading, from
    its foot to its top) as the table's camera shows it; None where all of it lies behind the camera."""
    from panda3d.core import Point2, Point3
    s = size(pose.kind)
    h = math.radians(pose.heading)
    c, sn = math.cos(h), math.sin(h)
    top = pose.z + max(s.h, abs(math.sin(math.radians(pose.tilt))) * max(s.w, s.d))
    corners = []
    for u in (-s.w / 2, s.w / 2):
        for v in (-s.d / 2, s.d / 2):
            for z in (pose.z, top):
                at = table.base.cam.getRelativePoint(table.base.render,
                                                     Point3(pose.x + u * c - v * sn, pose.y + u * sn + v * c, z))
                film = Point2()
                if at.y > table.base.camLens.getNear():
                    table.base.camLens.project(at, film)
                    corners.append(film)
    if not corners:
        return None
    return (min(p.x for p in corners), min(p.y for p in corners), max(p.x for p in corners),
            max(p.y for p in corners))


def pieces_under_hud(table, prefixes: tuple[str, ...]) -> list:
    """(piece, HUD item) pairs where a HUD item (a panel, the instruction, status or message line, a button, the help
    hint) is drawn over a piece whose id starts with one of `prefixes`, through the table's camera as it is."""
    items = _hud_items(table)
    bad = []
    for pid, pose in table.stage.layout.pieces.items():
        if pid.startswith(prefixes):
            p = piece_box(table, pose)
            bad += [(pid, k) for k, q in items.items()
                    if p and q and p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]]
    return bad


def _table_at(tmp_path, name, players, plies, seed, phase=None):
    """A table after `plies` random moves or more, until the person (seat 0) is to move (in `phase`, where given)."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.game import CHANCE
    game = get_game(name)
    specs = [PlayerSpec("Ann")] + [PlayerSpec(f"Bot {i}", "ai", "random") for i in range(1, players)]
    match = Match(game, players=specs, seed=seed, autosave=str(tmp_path / f"{name}-{players}-{plies}.tower.json"))
    rng = random.Random(seed)
    done = 0
    while not match.over and (done < plies or game.current_player(match.state) != 0
                              or (phase is not None and match.state.phase != phase)):
        cp = game.current_player(match.state)
        match.apply(game.sample_chance(match.state, rng) if cp == CHANCE else rng.choice(game.legal_moves(match.state)),
                    save=False)
        done += 1
    return PlayTable(match)


LONG = "Nothing there to pick: click a highlighted piece or square, or press H for the keys."
TWO_LINES = ("AI 2, search (normal) remodels, discarding the Penitent (6), the Mill (8), the Calamity (Crown), and "
             "swaps the black 1-pip pyramid on tower d for the green 1-pip pyramid.")    # two lines on the message line


def _pieces_clear_of_the_hud(tmp_path, name, prefixes, cases, message=LONG) -> list:
    """Every (players, plies, seed, phase) case at 1280x800, 900x600 and 1920x1080, `message` said: the pieces the HUD
    draws over, with where."""
    found = []
    for players, plies, seed, phase in cases:
        t = _table_at(tmp_path, name, players, plies, seed, phase)
        size_was = (t.base.win.getXSize(), t.base.win.getYSize())
        try:
            settle(t)
            if t.handoff is not None:
                t.confirm_handoff()
            assert any(i.startswith(prefixes) for i in t.stage.layout.pieces), (name, players, plies)
            t.hud.say(message)
            for w, h in SIZES:
                _resize(t, w, h)
                found += [(players, plies, f"{w}x{h}", pid, item) for pid, item in pieces_under_hud(t, prefixes)]
        finally:
            t.base.win.setSize(*size_was)
            t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
            t.close()
    return found


def test_no_hud_line_covers_the_hand_of_cards(showbase, tmp_path):
    """Throwdown: the message line at the bottom (and every other HUD item) leaves the person's own hand of cards in
    sight, whatever the window's size (the issue: "nothing drawn over anything else at 1280x800, at 900x600 and
    fullscreen")."""
    cases = [(players, plies, 2, None) for players in (2, 3, 4) for plies in (0, 8)]
    assert not _pieces_clear_of_the_hud(tmp_path, "throwdown", ("card:hand:0:",), cases)
    assert not _pieces_clear_of_the_hud(tmp_path, "throwdown", ("card:hand:0:",), cases[:2], TWO_LINES)


def test_no_hud_item_covers_the_bag(showbase, tmp_path):
    """Carcassonne: the face-down piles stay clear of the players' panels, the instruction, status and message lines
    and the buttons at every window size, with two to six players, early and late, while a tile waits to be placed
    (the whole table in view) and while the person picks its follower place (the view close round the tile just
    laid) (the issue: "the supplies and bag at the edge")."""
    from towerworld.games.carcassonne.board import ACTION, PLACE
    cases = [(2, 60, 3, ACTION), (3, 30, 3, ACTION), (4, 150, 3, ACTION), (5, 20, 4, ACTION), (6, 5, 3, ACTION),
             (6, 100, 3, ACTION), (2, 0, 3, PLACE), (6, 140, 3, PLACE)]
    assert not _pieces_clear_of_the_hud(tmp_path, "carcassonne", ("bag:",), cases)


def test_the_check_sees_a_card_under_the_message_line(showbase, tmp_path, monkeypatch):
    """The check is shown to fail where the default view lets the pieces reach the window's bottom edge, under the
    message line (the camera told of no band kept clear there)."""
    from towerworld.scene import camera
    monkeypatch.setattr(camera, "bottom_band", lambda keep_clear: -1.0)
    found = _pieces_clear_of_the_hud(tmp_path, "throwdown", ("card:hand:0:",), [(2, 0, 2, None)])
    assert found and all(item == "message" for *_rest, item in found), found


def test_the_panels_are_drawn_where_their_boxes_say_in_two_geoms(showbase, tmp_path):
    """The panels' boxes (what the checks above read) are where the panels are drawn: the hull of the drawn panels is
    the hull of the boxes, the gold rim round the panel of the player to move aside; and however many players, the
    row of panels is two geoms (the cards, the words): two draw calls a frame."""
    t = _table_in_play(tmp_path, "throwdown")
    try:
        settle(t)
        boxes = t.hud.panel_boxes()
        assert len(boxes) == len(t.match.players) == 5
        lo, hi = t.hud.panel_root.getTightBounds(t.base.render2d)
        rim = 0.013 / t.base.getAspectRatio(), 0.013
        assert min(b[0] for b in boxes) - rim[0] <= lo.x <= min(b[0] for b in boxes) + 1e-6
        assert max(b[2] for b in boxes) - 1e-6 <= hi.x <= max(b[2] for b in boxes) + rim[0]
        assert min(b[1] for b in boxes) - rim[1] <= lo.z <= min(b[1] for b in boxes) + 1e-6
        assert max(b[3] for b in boxes) - 1e-6 <= hi.z <= max(b[3] for b in boxes) + rim[1]
        geoms = sum(n.node().getNumGeoms() for n in t.hud.panel_root.findAllMatches("**/+GeomNode"))
        assert geoms == 2
    finally:
        t.close()


def test_the_replay_hud_draws_nothing_over_anything_else(showbase):
    from towerworld.app.replay import ReplayTable
    game = get_game("carcassonne")
    match = Match(game, seed=4)
    play_match(match, {i: make_agent("random", game, seed=i) for i in range(len(match.players))},
               random.Random(4), max_plies=30)
    t = ReplayTable(match)
    size = (t.base.win.getXSize(), t.base.win.getYSize())
    try:
        for _ in range(3):
            t.base.taskMgr.step()
        t.step(1)
        t.base.taskMgr.step()
        for w, h in SIZES:
            _resize(t, w, h)
            items = _hud_items(t)
            items.update({f"replay button {i}": box(t, b) for i, b in enumerate(t.buttons)})
            items["timeline"] = box(t, t.slider)
            items["speed"] = box(t, t.speed_label)
            assert sum(k.startswith("panel ") for k in items) == len(match.players)
            assert not overlaps(items), f"replay at {w}x{h}: {overlaps(items)}"
            labels = label_boxes(t)
            assert len(labels) >= 2, "the players' score plaques are on the table"
            assert not under_hud(items, labels), f"replay at {w}x{h}: a HUD item over a label: {under_hud(items, labels)}"
    finally:
        t.base.win.setSize(*size)
        t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
        t.close()


def test_the_table_labels_name_the_players(showbase, tmp_path):
    """The score plaques on the table say who is who as the HUD does ("Ann: 0"), not the game's "Player 1"."""
    from towerworld.app.play import PlayTable
    from towerworld.scene.components import shapes
    shapes._TEXTS.clear()                     # the words of every label drawn from here on
    t = PlayTable(Match(get_game("carcassonne"), players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=3,
                        autosave=str(tmp_path / "n.tower.json")))
    try:
        settle(t)
        laid_out = [spec[3] for spec, _node in t.stage.label_nodes.values()]
        assert any(w.startswith("Player 1") for w in laid_out), "the game's layout names seats by number"
        drawn = [key[0] for key in shapes._TEXTS]
        assert any(w.startswith("Ann") for w in drawn) and any(w.startswith("Bob") for w in drawn), drawn
        assert not any(w.startswith("Player ") for w in drawn), drawn
    finally:
        t.close()


def _under_the_close_up(t) -> list[str]:
    """The pieces (the bag's piles aside) and pickable places of `t`'s table that its close-up picture covers."""
    box = t.hud.closeup.box() if t.hud.closeup is not None else None
    if box is None:
        return []
    found = []
    for pid, pose in t.stage.layout.pieces.items():
        p = piece_box(t, pose)
        if p and not pid.startswith("bag:") and overlap(p, box):
            found.append(pid)
    for cid, c in t.stage.layout.cells.items():
        p = projected_box(t.base, [(c.x + u, c.y + v, c.z) for u in (-c.w / 2, c.w / 2) for v in (-c.d / 2, c.d / 2)])
        if p and overlap(p, box):
            found.append(cid)
    return found


def test_the_close_up_covers_no_piece_and_no_place_of_the_table(showbase, tmp_path):
    """Carcassonne's tile to place, enlarged at the window's right edge under the panels, stands where the default
    view shows nothing: no tile of the landscape, no open place, no follower or tower piece, with two to six players,
    early and late, at every window size. (The check does see a picture put over the landscape.)"""
    from towerworld.games.carcassonne.board import PLACE
    found = []
    for players, plies, seed in [(2, 0, 3), (2, 200, 5), (4, 150, 3), (6, 140, 3)]:
        t = _table_at(tmp_path, "carcassonne", players, plies, seed, PLACE)
        size_was = (t.base.win.getXSize(), t.base.win.getYSize())
        try:
            settle(t)
            assert t.hud.closeup is not None and t.hud.closeup.active
            for w, h in SIZES:
                _resize(t, w, h)
                found += [(players, plies, f"{w}x{h}", what) for what in _under_the_close_up(t)]
            t.hud.closeup.region.setDimensions(0.4, 0.6, 0.35, 0.65)      # the picture in the window's middle
            assert _under_the_close_up(t), "the check sees nothing under a picture over the landscape"
        finally:
            t.base.win.setSize(*size_was)
            t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
            t.close()
    assert not found, found
