"""Elevation at the table, judged by its pixels: a highlighted piece keeps its colour inside a ring, a square behind a
tall stack shows through it, the coordinate labels stay clear of the HUD, and the play screen draws every piece."""
from __future__ import annotations

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Pose, look
from towerworld.engine.pieces import size
from towerworld.games.elevation import GAME as G
from towerworld.games.elevation.board import square_of
from towerworld.games.elevation.layout import square_xy

W, H = 640, 400
GREEN = (0.2, 0.9, 0.35, 0.45)       # the stage's HIGHLIGHT_TARGET, spelled out so that the test reads alone


def start_layout():
    return G.layout(G.new_state({}), OMNISCIENT)


def render(layout, path, **kw):
    from panda3d.core import Filename, PNMImage

    from towerworld.scene.offscreen import render_layout
    render_layout(layout, str(path), W, H, **kw)
    img = PNMImage()
    assert img.read(Filename.fromOsSpecific(str(path)))
    return img


def to_screen(layout, points):
    """Pixel (column, row) of each point as render_layout's default camera sees it."""
    from panda3d.core import Camera, NodePath, PerspectiveLens, Point2, Point3

    from towerworld.scene.camera import framing
    lens = PerspectiveLens()
    lens.setFov(40)
    lens.setAspectRatio(W / H)
    lens.setNearFar(5, 20000)
    cam = NodePath(Camera("probe", lens))
    framing(layout, aspect=W / H).apply(cam)
    out = []
    for x, y, z in points:
        film = Point2()
        assert lens.project(cam.getRelativePoint(NodePath(), Point3(x, y, z)), film)
        out.append((int((film.x + 1) / 2 * W), int((1 - film.y) / 2 * H)))
    return out


def mean_rgb(img, pixels, spread=2):
    total, n = [0.0, 0.0, 0.0], 0
    for cx, cy in pixels:
        for x in range(cx - spread, cx + spread + 1):
            for y in range(cy - spread, cy + spread + 1):
                c = img.getXel(x, y)
                total = [total[0] + c[0], total[1] + c[1], total[2] + c[2]]
                n += 1
    return [t / n for t in total]


def greenish(img, pixels) -> int:
    """How many of the pixels are clearly green (the highlight's hue), not the board's olive or wood."""
    count = 0
    for x, y in pixels:
        r, g, b = img.getXel(x, y)
        count += g > r + 0.2 and g > b + 0.2
    return count


def test_a_highlighted_red_piece_stays_red_inside_a_green_ring(showbase, tmp_path):
    """Highlights keep the piece's colour readable (a ring, not a green tint that turns red olive)."""
    layout = start_layout()
    red = min((pid for pid, p in layout.pieces.items() if p.kind == "elev_piece" and p.get("side") == 0),
              key=lambda pid: layout.pieces[pid].y)          # the nearest red piece: nothing stands in front of it
    pose = layout.pieces[red]
    plain = render(layout, tmp_path / "plain.png")
    lit = render(layout, tmp_path / "lit.png", highlight={red: GREEN})
    h = size("elev_piece").h
    body = to_screen(layout, [(pose.x, pose.y - 6, pose.z + k * h / 10) for k in range(2, 6)])
    before, after = mean_rgb(plain, body), mean_rgb(lit, body)
    assert before[0] > 2 * before[1]                      # the probe lies on the red piece
    assert after[0] > 2 * after[1] and after[0] > 2 * after[2], f"the highlighted piece reads {after}, not red"
    assert after[1] / after[0] < before[1] / before[0] + 0.1
    import math
    r = size("elev_piece").w / 2 + 2.5                    # the middle of the ring's band
    ring = to_screen(layout, [(pose.x + r * math.cos(a / 24 * 2 * math.pi), pose.y + r * math.sin(a / 24 * 2 * math.pi),
                               pose.z + 0.35) for a in range(24)])
    assert greenish(plain, ring) <= 2
    assert greenish(lit, ring) >= 10, "the ring around the piece's foot does not show"


def tall_stacks_before(layout, fronts=("b3", "c3"), tiles: int = 12):
    """The layout with `tiles` more terrain tiles on each of the squares `fronts` (between the camera and c4)."""
    grown = type(layout)(dict(layout.pieces), dict(layout.cells), dict(layout.labels))
    for n, front in enumerate(fronts):
        x, y = square_xy(square_of(front))
        top = max(p.top for p in layout.pieces.values() if p.kind == "terrain" and (p.x, p.y) == (x, y))
        for k in range(tiles):
            grown.place(f"terr:{900 + 20 * n + k}", Pose("terrain", x, y, top + k * size("terrain").h,
                                                        look=look(layer=k, tone=1)))
    return grown


def test_a_square_behind_a_tall_stack_shows_through_it(showbase, tmp_path):
    """Tall stacks can be seen into (an x-ray of what hides the picked square)."""
    from towerworld.scene.marks import FRAME_SHARE
    layout = tall_stacks_before(start_layout())
    cell = layout.cells["sq:c4"]
    band = FRAME_SHARE * cell.w
    mid = cell.w / 2 - band / 2
    along = [k / 10 * mid for k in range(-6, 7, 3)]
    frame = to_screen(layout, [(cell.x + u * mid, cell.y + t, cell.z + 0.9) for u in (-1, 1) for t in along]
                      + [(cell.x + t, cell.y + u * mid, cell.z + 0.9) for u in (-1, 1) for t in along])
    hidden = render(layout, tmp_path / "hidden.png", highlight={"sq:c4": GREEN})
    seen = render(layout, tmp_path / "xray.png", highlight={"sq:c4": GREEN}, xray=True)
    assert greenish(hidden, frame) <= len(frame) // 4, "the stack was meant to hide the square"
    assert greenish(seen, frame) >= len(frame) // 2, "the square does not show through the stack"


def test_the_xray_fades_the_stack_in_the_way_and_nothing_beside_it():
    from towerworld.scene.camera import framing
    from towerworld.scene.xray import cell_spots, hiding
    layout = tall_stacks_before(start_layout())
    eye = framing(layout, aspect=W / H).eye()
    faded = hiding(layout.pieces, [cell_spots(layout.cells["sq:c4"])], eye)
    x, y = square_xy(square_of("c3"))
    stack = {pid for pid, p in layout.pieces.items() if (p.x, p.y) == (x, y) and p.z >= 40}
    assert {f"terr:{920 + k}" for k in range(6, 12)} <= faded       # the tiles that stand in the sight lines
    assert stack <= faded                                           # and, the stack fading whole, what stands on it
    sx, sy = square_xy(square_of("f6"))
    assert not any((p.x, p.y) == (sx, sy) for pid, p in layout.pieces.items() if pid in faded)
    start = start_layout()
    assert hiding(start.pieces, [cell_spots(start.cells["sq:c4"])], eye) == set()
    # the piece standing on a target square is what the player looks at there, not something in the way
    assert hiding(start.pieces, [cell_spots(start.cells["sq:b1"])], eye) == set()


def test_a_click_on_a_square_behind_a_faded_stack_reaches_the_square(showbase, tmp_path):
    """What the x-ray fades lets clicks through, as the lifted storeys of a cutaway do; the table's camera feeds it."""
    from panda3d.core import Point2, Point3

    from towerworld.app.play import PlayTable
    from towerworld.engine.match import Match, PlayerSpec
    from towerworld.scene.stage import HIGHLIGHT_TARGET
    t = PlayTable(Match(G, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=1,
                        autosave=str(tmp_path / "e.tower.json")))
    try:
        settle(t)
        layout = tall_stacks_before(G.layout(t.match.state, OMNISCIENT))
        t.stage.show(layout)
        t.stage.see_from(None)                 # as if the camera were not known yet: nothing faded
        t.stage.highlight({"sq:c4": HIGHLIGHT_TARGET})
        cell = layout.cells["sq:c4"]
        film = Point2()
        assert t.base.camLens.project(t.base.cam.getRelativePoint(t.base.render, Point3(cell.x, cell.y, cell.z)),
                                      film)
        assert t.picker.pick_all((film.x, film.y))[0] != "sq:c4"         # before the x-ray, the stack is hit
        t.base.taskMgr.step()
        assert t.stage.nodes["terr:926"].hasTag("xray")
        assert t.picker.pick_all((film.x, film.y))[0] == "sq:c4"
    finally:
        t.close()


def screen_boxes_of_labels(t):
    """Each coordinate label's card on the screen (-1..1 across the window), from its real glyphs."""
    from panda3d.core import Point2, Point3
    boxes = []
    for label in t.stage.labels_root.getChildren():
        lo, hi = label.getChild(0).getTightBounds(label)        # the card, in its own plane (it faces the camera)
        anchor = t.base.cam.getRelativePoint(label, Point3(0, 0, 0))
        corners = []
        for dx in (lo.x, hi.x):
            for dz in (lo.z, hi.z):
                film = Point2()
                assert t.base.camLens.project(Point3(anchor.x + dx, anchor.y, anchor.z + dz), film)
                corners.append(film)
        boxes.append((min(c.x for c in corners), min(c.y for c in corners),
                      max(c.x for c in corners), max(c.y for c in corners)))
    return boxes


def screen_boxes_of_hud_text(t):
    boxes = []
    for words in (t.hud.status, t.hud.message, t.hud.hint):
        lo, hi = words.getTightBounds(t.base.render2d)
        boxes.append((lo.x, lo.z, hi.x, hi.z))
    return boxes


def test_coordinate_labels_never_sit_under_the_hud_text(showbase, tmp_path):
    """Coordinate labels do not sit under the HUD, at the default camera and after the window is
    resized (the home view frames the new shape)."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.match import Match, PlayerSpec
    t = PlayTable(Match(G, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=1,
                        autosave=str(tmp_path / "e.tower.json")))
    size = (t.base.win.getXSize(), t.base.win.getYSize())
    try:
        settle(t)
        state = t.match.state
        t.choose(G.picks(state, G.legal_moves(state)[-1])[0])          # a pick adds a status line
        t.hud.say("Nothing there to pick: click a highlighted piece or square, or press H for the keys.")
        for w, h in [size, (400, 400), (640, 300), (300, 500), size]:
            if (w, h) != (t.base.win.getXSize(), t.base.win.getYSize()):
                t.base.win.setSize(w, h)
                t.base.adjustWindowAspectRatio(t.base.getAspectRatio())   # what ShowBase does on a window event
                t.refit(t.stage.layout)                                   # and then the table
            labels, hud = screen_boxes_of_labels(t), screen_boxes_of_hud_text(t)
            assert len(labels) == 12
            assert all(-1 < b[0] and b[2] < 1 and -1 < b[1] and b[3] < 1 for b in labels), f"a label is off a {w}x{h} screen"
            under = [(b, c) for b in labels for c in hud if b[0] < c[2] and c[0] < b[2] and b[1] < c[3] and c[1] < b[3]]
            assert not under, f"at {w}x{h} a label sits under the HUD: {under}"
    finally:
        t.base.win.setSize(*size)
        t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
        t.close()


def test_captured_pieces_stand_clear_of_the_file_labels():
    """The captives beside the board stand out of the coordinate labels' way at the default camera (a label drawn over
    a piece hides both)."""
    import random

    from towerworld.engine.game import TERMINAL
    from towerworld.scene.camera import framing, label_boxes, screen_point
    rng, state = random.Random(4), G.new_state({})
    while G.current_player(state) != TERMINAL and not all(any(p < 0 for p in state.pos[6 * s:6 * s + 6])
                                                          for s in (0, 1)):
        moves = G.legal_moves(state)
        state, _ = G.apply_unchecked(state, moves[rng.randrange(len(moves))])
    layout = G.layout(state, OMNISCIENT)
    captives = [p for p in layout.pieces.values() if p.kind == "elev_piece" and abs(p.y) > 3 * size("terrain").w]
    assert len(captives) >= 2
    view = framing(layout, aspect=1.6)
    labels = label_boxes(layout, view, 40, 1.6)
    half, h = size("elev_piece").w / 2, size("elev_piece").h
    for p in captives:
        corners = [screen_point(view, 40, 1.6, (p.x + u, p.y + v, p.z + z)) for u in (-half, half)
                   for v in (-half, half) for z in (0, h)]
        x0, x1 = min(c[0] for c in corners), max(c[0] for c in corners)
        y0, y1 = min(c[1] for c in corners), max(c[1] for c in corners)
        assert not [b for b in labels if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]]


def test_the_table_draws_every_piece_and_tile_when_play_begins(showbase, tmp_path):
    """The play screen opened with rows 1-3 bare and three Blue pieces missing: the highlight of Red's pieces dropped
    the first chunks, and their other pieces were chunked again from hidden models. At the first turn every piece of
    the layout is drawn, by its own model or by a chunk that holds nothing hidden."""
    from towerworld.app.play import PlayTable
    from towerworld.engine.match import Match, PlayerSpec
    t = PlayTable(Match(G, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=1,
                        autosave=str(tmp_path / "e.tower.json")))
    try:
        settle(t)
        stage = t.stage
        assert stage.targets and stage.chunks            # Red's pieces glow, and the board draws through chunks
        chunked = {}
        for chunk in stage.chunks:
            hidden = [np.getName() for np in chunk.node.find("drawn").findAllMatches("**") if np.isHidden()]
            for pid in chunk.members:
                chunked[pid] = hidden
        for pid in stage.layout.pieces:
            if stage.models[pid].isHidden():
                assert pid in chunked and not chunked[pid], (pid, chunked.get(pid))
    finally:
        t.close()
