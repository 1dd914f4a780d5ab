"""Scene components by family: every catalog kind has a model of its true size, Decktet cards and Looney pyramids
read in an offscreen picture, shapes are built once (few geoms), and no scene file names a game."""
from __future__ import annotations

import importlib.util
import math
import os
import re

import numpy as np
import pytest

from towerworld.engine.layout import Layout, Pose, look
from towerworld.engine.pieces import PIECES, PYRAMID_NEST_LIFT, size

pytest.importorskip("panda3d")

from panda3d.core import Filename, NodePath, PNMImage, Texture  # noqa: E402

from towerworld.scene import components  # noqa: E402
from towerworld.scene.camera import Orbit  # noqa: E402
from towerworld.scene.stage import Stage  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# kinds drawn by a family module that another branch adds
LATER_FAMILIES = {"carcassonne": {"ccs_tile", "meeple", "tower_piece"}}
SAMPLE_LOOKS = {
    "pp_tile": look(suit="suns", rank=3), "pp_coin": look(rank=2), "pp_die": look(face=4), "pp_pawn": look(colour=1),
    "domino": look(a=3, b=6), "card": look(name="Mountain", rank="4", suits="moons,suns"),
    "pyramid_1": look(colour="red"), "pyramid_2": look(colour="blue"), "pyramid_3": look(colour="black"),
    "terrain": look(layer=2), "elev_piece": look(piece="dragon", side=1),
}


def _expected_kinds() -> set[str]:
    kinds = set(PIECES)
    for module, family in LATER_FAMILIES.items():
        if importlib.util.find_spec(f"towerworld.scene.components.{module}") is None:
            kinds -= family
    return kinds


def _geoms(node: NodePath) -> int:
    return sum(path.node().getNumGeoms() for path in node.findAllMatches("**/+GeomNode"))


def test_every_catalog_kind_has_a_builder():
    components.load_families()
    assert _expected_kinds() - set(components.BUILDERS) == set()


@pytest.mark.parametrize("kind", sorted(_expected_kinds()))
def test_every_kind_builds_at_its_true_footprint(kind):
    model = components.build(Pose(kind, 0, 0, 0, look=SAMPLE_LOOKS.get(kind, ())))
    low, high = model.getTightBounds()
    s = size(kind)
    if kind in ("track", "level_stair", "elev_box", "elev_piece"):   # sized by their look, or wider than the catalog
        assert high.z > low.z
        return
    assert high.x - low.x == pytest.approx(s.w, abs=0.6)
    assert high.y - low.y == pytest.approx(s.d, abs=0.6)
    assert high.z - low.z == pytest.approx(s.h, abs=0.8)   # printed faces and inlaid backs stand a little proud


def test_shapes_are_built_once_and_flattened():
    pose = Pose("card", 0, 0, 0, look=SAMPLE_LOOKS["card"])
    first, second = components.build(pose), components.build(pose)
    assert first is not second and first.node() is not second.node()
    assert _geoms(first) == 2                     # the face; the back with the edges
    assert _geoms(components.build(Pose("card", 0, 0, 0, look=look(back="decktet")))) == 1
    assert _geoms(components.build(Pose("pyramid_2", 0, 0, 0, look=look(colour="green")))) == 1


def test_cards_of_many_faces_flattened_together_draw_one_geom_a_page():
    """A hand or a pile of different faces: their faces share a page of faces (one texture), so flattened together
    they draw one geom for the faces of each page and one for the backs, not a geom per card."""
    from towerworld.scene.components.decktet import PAGE_COLS, PAGE_ROWS, face_pages
    names = [f"Face {i}" for i in range(PAGE_COLS * PAGE_ROWS + 2)]   # enough for a page and a part of the next
    pile = NodePath("pile")
    for i, name in enumerate(names):
        card = components.build(Pose("card", 0, 0, 0, look=look(name=name, rank="A", suits="moons")))
        card.copyTo(pile).setZ(i * 0.3)
    pile.flattenStrong()
    pages = {face_pages().face(name, "A", ("moons",))[0] for name in names}
    assert len(pages) >= 2                         # the faces filled a page and went on to the next
    assert _geoms(pile) == len(pages) + 1


def test_a_page_of_faces_keeps_every_mipmap_level_true_to_its_faces():
    """A far card is drawn from the page's smaller levels, which the page keeps itself (a face at a time): after a
    face is painted each level is the level above it averaged 2 x 2, all the way down, and the new face shows in
    them (not the blank paper the page started as)."""
    from towerworld.scene.components.decktet import face_pages
    tex, _uv = face_pages().face("Mipmap Check", "9", ("wyrms", "knots"))
    assert tex.getNumRamMipmapImages() == tex.getExpectedNumMipmapLevels()

    def level(n):
        w, h = max(1, tex.getXSize() >> n), max(1, tex.getYSize() >> n)
        image = tex.getRamImage() if n == 0 else tex.getRamMipmapImage(n)
        return np.frombuffer(bytes(image), np.uint8).reshape(h, w, 3).astype(int)

    above = level(0)
    for n in range(1, tex.getExpectedNumMipmapLevels()):
        here = level(n)
        h, w = here.shape[:2]
        a = np.repeat(above, 2, axis=0) if above.shape[0] == 1 else above
        a = np.repeat(a, 2, axis=1) if a.shape[1] == 1 else a
        a = a[:2 * h, :2 * w]
        expected = (a[0::2, 0::2] + a[1::2, 0::2] + a[0::2, 1::2] + a[1::2, 1::2] + 2) // 4
        assert np.abs(here - expected).max() <= 1, f"mipmap level {n}"
        above = here
    assert level(3).std() > 5          # the faces' ink shows in a far level


def test_a_nested_tower_of_three_sizes_flattens_into_one_geom():
    """The sizes share one render state (a smaller pyramid's faces stand proud in the geometry, not by a depth
    offset), so a tower of a large, a medium and a small pyramid, combined, is one draw call, not three."""
    tower = NodePath("tower")
    lift = 0.0
    for kind, colour in (("pyramid_3", "red"), ("pyramid_2", "blue"), ("pyramid_1", "yellow")):
        components.build(Pose(kind, 0, 0, 0, look=look(colour=colour))).copyTo(tower).setZ(lift)
        lift += PYRAMID_NEST_LIFT.get(int(kind[-1]), 0.0)
    tower.flattenStrong()
    assert _geoms(tower) == 1


def test_no_scene_file_names_a_game():
    pattern = re.compile(r"kdak|k'dak|ziggurat|elevation|carcassonne|throwdown", re.IGNORECASE)
    offenders = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "towerworld", "scene")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    offenders += [f"{os.path.relpath(path, ROOT)}:{i}" for i, line in enumerate(f, 1)
                                  if pattern.search(line)]
    assert offenders == []


def test_memory_aid_captions_come_from_the_families():
    assert components.describe(Pose("pp_tile", 0, 0, 0, look=look(suit="suns", rank="ace"))) == "A \u2600"
    assert components.describe(Pose("card", 0, 0, 0, look=look(name="Sea", rank="Crown", suits="waves"))) == "Sea"
    assert components.describe(Pose("pyramid_3", 0, 0, 0, look=look(colour="blue"))) == "blue 3"


def test_the_stage_memory_aid_labels_known_faces_only():
    stage = Stage(NodePath("table"))
    layout = Layout()
    layout.place("seen", Pose("pp_tile", 0, 0, 0, face_up=False, look=look(suit="moons", rank=4)))
    layout.place("hidden", Pose("card", 80, 0, 0, face_up=False, look=look(back="decktet")))
    stage.show(layout)
    stage.set_memory_aid(True)
    assert not stage.nodes["seen"].find("memory").isEmpty()
    assert stage.nodes["hidden"].find("memory").isEmpty()
    stage.set_memory_aid(False)
    assert stage.nodes["seen"].find("memory").isEmpty()


def test_a_pyramid_tilted_over_lies_on_a_face():
    """Rulings: a Looney pyramid is a square pyramid; tilt=90 (the scrapyard) lays it on its side."""
    stage = Stage(NodePath("table"))
    layout = Layout()
    layout.place("p", Pose("pyramid_3", 0, 0, 0, tilt=90, look=look(colour="red")))
    stage.show(layout)
    low, high = stage.nodes["p"].getTightBounds(stage.root)
    s = size("pyramid_3")
    face_angle = math.atan2(s.h, s.w / 2)
    assert low.z == pytest.approx(0, abs=0.05)                          # resting on the table, not in it
    assert high.z == pytest.approx(s.w * math.sin(face_angle), abs=0.1)  # a face flat: the far base edge is highest
    assert high.y - low.y > s.h * 0.9                                    # and its length along the table


# ---- pictures ---------------------------------------------------------------------------------------------------------
def _picture(showbase, tmp_path, layout: Layout, name: str, orbit=None, size_px=(640, 480)) -> np.ndarray:
    from towerworld.scene.offscreen import render_layout
    out = render_layout(layout, str(tmp_path / f"{name}.png"), *size_px, orbit=orbit)
    image = PNMImage(Filename.fromOsSpecific(out))
    texture = Texture()
    texture.load(image)
    pixels = np.frombuffer(bytes(texture.getRamImageAs("RGB")), np.uint8)
    rgb = pixels.reshape(image.getYSize(), image.getXSize(), 3)[::-1]
    return rgb.astype(np.float32) / 255            # rows from the top, channels 0..1


def _red(rgb):
    return (rgb[..., 0] > 0.45) & (rgb[..., 1] < 0.25) & (rgb[..., 2] < 0.25)


def _paper(rgb):
    return (rgb.min(axis=-1) > 0.55) & (rgb[..., 0] - rgb[..., 2] < 0.25) & (rgb[..., 0] >= rgb[..., 2])


TOP_DOWN = Orbit(0, 0, 0, heading=0, pitch=89.5, distance=190)


def test_card_face_shows_its_suit_colour_where_its_symbol_is(showbase, tmp_path):
    """Decktet: the Ace of Wyrms carries one suit; its symbol is drawn in the wyrms' red, large, in the middle of
    the upper half of the card (and turned round in the lower half)."""
    layout = Layout()
    layout.place("card", Pose("card", 0, 0, 0, look=look(name="Ace of Wyrms", rank="A", suits="wyrms")))
    rgb = _picture(showbase, tmp_path, layout, "ace", TOP_DOWN)
    rows, cols = np.nonzero(_paper(rgb) | _red(rgb))
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    assert (bottom - top) / (right - left) == pytest.approx(88.9 / 63.5, rel=0.06)   # the card, upright in the picture
    from towerworld.scene.components.decktet import FACE_PX, INDEX_TOP, NAME_BAND
    half = (FACE_PX[1] - NAME_BAND) // 2
    centre_row = top + (INDEX_TOP + (half - INDEX_TOP) / 2) / FACE_PX[1] * (bottom - top)
    centre_col = (left + right) / 2
    window = _red(rgb[int(centre_row) - 12:int(centre_row) + 12, int(centre_col) - 12:int(centre_col) + 12])
    assert window.mean() > 0.2
    assert _red(rgb).sum() > 400


def test_card_back_shows_nothing_of_the_card(showbase, tmp_path):
    pictures = []
    for name, suits in (("Ace of Wyrms", "wyrms"), ("Sea", "waves")):
        layout = Layout()
        layout.place("card", Pose("card", 0, 0, 0, face_up=False, look=look(name=name, rank="A", suits=suits)))
        pictures.append(_picture(showbase, tmp_path, layout, f"back-{suits}", TOP_DOWN, (320, 240)))
    layout = Layout()
    layout.place("card", Pose("card", 0, 0, 0, look=look(back="decktet")))
    pictures.append(_picture(showbase, tmp_path, layout, "back-look", TOP_DOWN, (320, 240)))
    assert np.abs(pictures[0] - pictures[1]).max() < 2 / 255
    assert np.abs(pictures[0] - pictures[2]).max() < 2 / 255
    assert _red(pictures[0]).sum() == 0                 # no wyrms red: the face does not show through
    dark_ink = (pictures[0].max(axis=-1) < 0.2).sum()
    assert dark_ink < 50                                # no black rank or name either


def test_a_nested_tower_shows_three_colours(showbase, tmp_path):
    """Rulings: stacked upright they nest; a medium's base sits ~9.7 above a large's, a small's ~19.5."""
    layout = Layout()
    lift_medium = PYRAMID_NEST_LIFT[3]
    layout.place("large", Pose("pyramid_3", 0, 0, 0, look=look(colour="red")))
    layout.place("medium", Pose("pyramid_2", 0, 0, lift_medium, look=look(colour="blue")))
    layout.place("small", Pose("pyramid_1", 0, 0, lift_medium + PYRAMID_NEST_LIFT[2], look=look(colour="yellow")))
    rgb = _picture(showbase, tmp_path, layout, "tower")
    red = _red(rgb)
    blue = (rgb[..., 2] > 0.45) & (rgb[..., 0] < 0.25) & (rgb[..., 1] < 0.4)
    yellow = (rgb[..., 0] > 0.5) & (rgb[..., 1] > 0.4) & (rgb[..., 2] < 0.2)
    for colour, mask in (("red", red), ("blue", blue), ("yellow", yellow)):
        assert mask.sum() > 300, f"{colour} pyramid hardly visible"
    # stacked in order: the small one's pixels above the medium's, above the large's
    assert np.nonzero(yellow)[0].mean() < np.nonzero(blue)[0].mean() < np.nonzero(red)[0].mean()


def test_text_takes_its_own_colour(showbase, tmp_path):
    """Piecepack: the ace of suns prints its rank in the suns' red (text is not drawn black by the shader)."""
    layout = Layout()
    layout.place("tile", Pose("pp_tile", 0, 0, 0, look=look(suit="suns", rank="ace")))
    rgb = _picture(showbase, tmp_path, layout, "tile", Orbit(0, 0, 0, heading=0, pitch=89.5, distance=150), (320, 240))
    centre = rgb[120 - 25:120 + 5, 160 - 20:160 + 20]     # the rank stands a little above the middle of the tile
    assert _red(centre).mean() > 0.1
    assert (centre.max(axis=-1) < 0.2).mean() < 0.02     # and nothing of it is black


def test_a_label_of_any_ink_is_one_geom_its_ink_drawn_over_a_pale_halo_round_it():
    """A label facing the viewer is one geom: its letters in their ink, drawn last, over copies of them in the pale
    halo colour that stand out HALO_WIDTH beyond them on every side; labels of every ink share one glyph page (a
    font for each ink rasterised the same glyphs again, on pages of its own)."""
    from panda3d.core import GeomVertexReader, TextureAttrib

    from towerworld.scene.components.shapes import HALO, HALO_WIDTH, INK, PLAYER_COLOURS, text
    pages = []
    for ink in (INK, PLAYER_COLOURS[0], PLAYER_COLOURS[3]):
        label = text("K4", 5.0, ink, facing="viewer")
        nodes = label.findAllMatches("**/+GeomNode")
        assert sum(n.node().getNumGeoms() for n in nodes) == 1, ink
        node = nodes[0].node()
        pages.append(node.getGeomState(0).getAttrib(TextureAttrib).getTexture())
        geom = node.getGeom(0)
        vertex, colour = (GeomVertexReader(geom.getVertexData(), c) for c in ("vertex", "color"))
        rows = [(tuple(vertex.getData3()), tuple(colour.getData4())) for _ in range(geom.getVertexData().getNumRows())]

        def like(a, b):
            return all(abs(u - v) < 1.5 / 255 for u, v in zip(a, b))
        inked = {i for i, (_, c) in enumerate(rows) if like(c, ink)}
        haloed = {i for i, (_, c) in enumerate(rows) if like(c, HALO)}
        assert inked and haloed and len(inked) + len(haloed) == len(rows), ink
        order = [geom.getPrimitive(0).getVertex(i) for i in range(geom.getPrimitive(0).getNumVertices())]
        assert max(order.index(i) for i in order if i in haloed) < min(order.index(i) for i in order if i in inked)
        for axis in (0, 2):         # across and up the label (its letters stand in x and z)
            ink_lo, ink_hi = min(rows[i][0][axis] for i in inked), max(rows[i][0][axis] for i in inked)
            halo_lo, halo_hi = min(rows[i][0][axis] for i in haloed), max(rows[i][0][axis] for i in haloed)
            assert halo_lo == pytest.approx(ink_lo - HALO_WIDTH / 10, abs=0.01)
            assert halo_hi == pytest.approx(ink_hi + HALO_WIDTH / 10, abs=0.01)
    assert pages[0] == pages[1] == pages[2]


def test_the_catalog_names_the_family_that_draws_each_kind():
    """The catalog's `family` lets a table import only its own families: every kind is drawn by the module named."""
    components.load_families()
    for kind in _expected_kinds():
        assert components.BUILDERS[kind].__module__ == f"towerworld.scene.components.{PIECES[kind].family}", kind


def test_a_solid_is_made_once_and_each_caller_gets_a_copy_of_its_own():
    """Seven coins of one size and wood: their cylinder is written once and copied (the geometry shared until
    something changes it); a copy flattened with a transform leaves the others as they were."""
    from panda3d.core import GeomVertexReader

    from towerworld.scene.components.shapes import cylinder
    a, b = cylinder(9.5, 3.0, (0.8, 0.7, 0.45, 1)), cylinder(9.5, 3.0, (0.8, 0.7, 0.45, 1))
    assert a.node() is not b.node()
    assert a.node().getGeom(0) == b.node().getGeom(0)
    holder = NodePath("holder")
    a.reparentTo(holder)
    a.setPos(5, 6, 7)
    holder.flattenStrong()
    first = GeomVertexReader(b.node().getGeom(0).getVertexData(), "vertex").getData3()
    assert tuple(first) == pytest.approx((9.5, 0, 0))
    again = cylinder(9.5, 3.0, (0.8, 0.7, 0.45, 1))
    assert tuple(GeomVertexReader(again.node().getGeom(0).getVertexData(), "vertex").getData3()) == \
        pytest.approx((9.5, 0, 0))
    assert cylinder(9.5, 3.0, [0.8, 0.7, 0.45, 1]).node().getNumGeoms() == 1     # a list colour: made afresh


def test_a_table_imports_only_the_families_it_draws():
    """A piecepack table does not load the landscape tiles' painter (and numpy with it)."""
    import subprocess
    import sys
    code = ("import sys\nfrom towerworld.engine.layout import Layout, Pose\nfrom towerworld.scene import components\n"
            "layout = Layout()\nlayout.place('t', Pose('pp_tile', 0, 0, 0))\ncomponents.build(layout.pieces['t'])\n"
            "assert components.missing_models(layout) == set()\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('towerworld.scene.components.')),"
            " 'numpy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.split() == ["['piecepack',", "'shapes']", "False"], done.stderr
