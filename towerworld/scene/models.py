"""Piece models, built from code at their true size (1 unit = 1 mm).

A builder takes a Pose and returns a NodePath whose origin is the centre of the piece's bottom, width along x, depth
along y, and whose top face shows the face (value, suit, pips) and bottom face the back; the stage turns it over for
face-down pieces. Builders register with `@model("kind")`; games add theirs in `towerworld/scene/models_<game>.py`,
which are imported here automatically. Built models are cached per (kind, look, face) and copied.
"""
from __future__ import annotations

import importlib
import math
import pkgutil
from typing import Callable

from panda3d.core import (FontPool, Filename, Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat,
                          GeomVertexWriter, NodePath, TextNode, TransparencyAttrib, Vec3)

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.paths import model_file

Builder = Callable[[Pose], NodePath]
BUILDERS: dict[str, Builder] = {}
_CACHE: dict[tuple, NodePath] = {}
_FONT = None

# Colours: one table. Player colours are in seat order.
PLAYER_COLOURS = [(0.85, 0.15, 0.12, 1), (0.15, 0.35, 0.85, 1), (0.15, 0.62, 0.2, 1), (0.95, 0.78, 0.1, 1),
                  (0.55, 0.25, 0.7, 1), (0.12, 0.12, 0.12, 1)]
SUIT_COLOURS = {"suns": (0.82, 0.1, 0.08, 1), "moons": (0.08, 0.08, 0.1, 1), "crowns": (0.1, 0.5, 0.15, 1),
                "arms": (0.1, 0.25, 0.75, 1)}
SUIT_SYMBOLS = {"suns": "\u2600", "moons": "\u263e", "crowns": "\u2654", "arms": "\u2694"}
IVORY = (0.93, 0.9, 0.82, 1)
WOOD = (0.72, 0.55, 0.36, 1)
TILE_BACK = (0.3, 0.22, 0.16, 1)


def model(kind: str):
    def register(fn: Builder) -> Builder:
        BUILDERS[kind] = fn
        return fn
    return register


def player_colour(index) -> tuple:
    return PLAYER_COLOURS[int(index) % len(PLAYER_COLOURS)]


def build(pose: Pose) -> NodePath:
    """A fresh copy of the model for `pose` (face/back drawn per the look; orientation is the stage's job)."""
    _load_game_builders()
    key = (pose.kind, pose.look)
    proto = _CACHE.get(key)
    if proto is None:
        builder = BUILDERS.get(pose.kind, _fallback)
        proto = builder(pose)
        proto.flattenStrong()   # one geom per render state: a tile is its body and its text
        _CACHE[key] = proto
    return proto.copyTo(NodePath("piece"))


_LOADED = False


def missing_models(layout) -> set[str]:
    """The piece kinds of `layout` that no builder draws (they would show as grey boxes)."""
    _load_game_builders()
    return {p.kind for p in layout.pieces.values()} - set(BUILDERS)


def _load_game_builders() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import towerworld.scene as pkg
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("models_"):
            importlib.import_module(f"towerworld.scene.{info.name}")
    import towerworld.scene.components as family
    for info in pkgutil.iter_modules(family.__path__):
        importlib.import_module(f"towerworld.scene.components.{info.name}")


# ---- primitives --------------------------------------------------------------------------------------------------------
def _writer(name: str):
    vdata = GeomVertexData(name, GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    return (vdata, GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "normal"),
            GeomVertexWriter(vdata, "color"), GeomVertexWriter(vdata, "texcoord"))


def _node(name: str, vdata, tris) -> NodePath:
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode(name)
    node.addGeom(geom)
    return NodePath(node)


def box(w: float, d: float, h: float, color=(1, 1, 1, 1), z0: float = 0.0, bevel: float = 0.0) -> NodePath:
    """An axis-aligned box centred on x/y, from z0 to z0 + h, flat-shaded. `bevel` chamfers the top and bottom edges."""
    vdata, v, n, c, t = _writer("box")
    tris = GeomTriangles(Geom.UHStatic)
    x, y = w / 2, d / 2
    b = min(bevel, w / 4, d / 4, h / 3)
    faces = []
    if b <= 0:
        faces += [((0, 0, 1), [(-x, -y, h), (x, -y, h), (x, y, h), (-x, y, h)]),
                  ((0, 0, -1), [(-x, y, 0), (x, y, 0), (x, -y, 0), (-x, -y, 0)]),
                  ((0, -1, 0), [(-x, -y, 0), (x, -y, 0), (x, -y, h), (-x, -y, h)]),
                  ((0, 1, 0), [(x, y, 0), (-x, y, 0), (-x, y, h), (x, y, h)]),
                  ((1, 0, 0), [(x, -y, 0), (x, y, 0), (x, y, h), (x, -y, h)]),
                  ((-1, 0, 0), [(-x, y, 0), (-x, -y, 0), (-x, -y, h), (-x, y, h)])]
    else:
        xi, yi = x - b, y - b
        faces += [((0, 0, 1), [(-xi, -yi, h), (xi, -yi, h), (xi, yi, h), (-xi, yi, h)]),
                  ((0, 0, -1), [(-xi, yi, 0), (xi, yi, 0), (xi, -yi, 0), (-xi, -yi, 0)]),
                  ((0, -1, 0), [(-x, -y, b), (x, -y, b), (x, -y, h - b), (-x, -y, h - b)]),
                  ((0, 1, 0), [(x, y, b), (-x, y, b), (-x, y, h - b), (x, y, h - b)]),
                  ((1, 0, 0), [(x, -y, b), (x, y, b), (x, y, h - b), (x, -y, h - b)]),
                  ((-1, 0, 0), [(-x, y, b), (-x, -y, b), (-x, -y, h - b), (-x, y, h - b)])]
        s = 0.7071
        for zs, zb, zt in ((1, h - b, h), (-1, b, 0)):
            ring_o = [(-x, -y), (x, -y), (x, y), (-x, y)]
            ring_i = [(-xi, -yi), (xi, -yi), (xi, yi), (-xi, yi)]
            normals = [(0, -s, zs * s), (s, 0, zs * s), (0, s, zs * s), (-s, 0, zs * s)]
            for i in range(4):
                j = (i + 1) % 4
                o0, o1, i0, i1 = ring_o[i], ring_o[j], ring_i[i], ring_i[j]
                quad = [(o0[0], o0[1], zb), (o1[0], o1[1], zb), (i1[0], i1[1], zt), (i0[0], i0[1], zt)]
                if zs < 0:
                    quad = quad[::-1]
                faces.append((normals[i], quad))
    for normal, quad in faces:
        base = v.getWriteRow()
        for i, (px, py, pz) in enumerate(quad):
            v.addData3(px, py, pz + z0)
            n.addData3(*normal)
            c.addData4(*color)
            t.addData2(*((0, 0), (1, 0), (1, 1), (0, 1))[i])
        tris.addVertices(base, base + 1, base + 2)
        tris.addVertices(base, base + 2, base + 3)
    return _node("box", vdata, tris)


def cylinder(r: float, h: float, color=(1, 1, 1, 1), z0: float = 0.0, segments: int = 28, r_top: float | None = None,
             caps: bool = True) -> NodePath:
    """A cylinder or truncated cone (r_top) standing on z0."""
    rt = r if r_top is None else r_top
    vdata, v, n, c, t = _writer("cyl")
    tris = GeomTriangles(Geom.UHStatic)
    slope = (r - rt) / h if h else 0
    for i in range(segments + 1):
        a = 2 * math.pi * i / segments
        ca, sa = math.cos(a), math.sin(a)
        nrm = Vec3(ca, sa, slope)
        nrm.normalize()
        for rad, zz in ((r, 0), (rt, h)):
            v.addData3(rad * ca, rad * sa, z0 + zz)
            n.addData3(nrm)
            c.addData4(*color)
            t.addData2(i / segments, zz / h if h else 0)
    for i in range(segments):
        a0, a1 = 2 * i, 2 * i + 2
        tris.addVertices(a0, a1, a1 + 1)
        tris.addVertices(a0, a1 + 1, a0 + 1)
    if caps:
        for rad, zz, up in ((rt, h, 1), (r, 0, -1)):
            if rad <= 0:
                continue
            centre = v.getWriteRow()
            v.addData3(0, 0, z0 + zz); n.addData3(0, 0, up); c.addData4(*color); t.addData2(0.5, 0.5)
            for i in range(segments + 1):
                a = 2 * math.pi * i / segments
                v.addData3(rad * math.cos(a), rad * math.sin(a), z0 + zz)
                n.addData3(0, 0, up); c.addData4(*color); t.addData2(0.5, 0.5)
            for i in range(segments):
                if up > 0:
                    tris.addVertices(centre, centre + 1 + i, centre + 2 + i)
                else:
                    tris.addVertices(centre, centre + 2 + i, centre + 1 + i)
    return _node("cyl", vdata, tris)


def sphere(r: float, color=(1, 1, 1, 1), centre=(0, 0, 0), rings: int = 10, segments: int = 18) -> NodePath:
    vdata, v, n, c, t = _writer("sphere")
    tris = GeomTriangles(Geom.UHStatic)
    for i in range(rings + 1):
        phi = math.pi * i / rings
        for j in range(segments + 1):
            th = 2 * math.pi * j / segments
            x, y, z = math.sin(phi) * math.cos(th), math.sin(phi) * math.sin(th), math.cos(phi)
            v.addData3(centre[0] + r * x, centre[1] + r * y, centre[2] + r * z)
            n.addData3(x, y, z); c.addData4(*color); t.addData2(j / segments, i / rings)
    for i in range(rings):
        for j in range(segments):
            a = i * (segments + 1) + j
            b = a + segments + 1
            tris.addVertices(a, b, a + 1)
            tris.addVertices(a + 1, b, b + 1)
    return _node("sphere", vdata, tris)


def polygon(points: list[tuple[float, float]], color=(1, 1, 1, 1), z: float = 0.0, up: bool = True) -> NodePath:
    """A flat convex polygon (fan) at height z, facing up (or down)."""
    vdata, v, n, c, t = _writer("poly")
    tris = GeomTriangles(Geom.UHStatic)
    for px, py in points:
        v.addData3(px, py, z); n.addData3(0, 0, 1 if up else -1); c.addData4(*color); t.addData2(0.5, 0.5)
    for i in range(1, len(points) - 1):
        if up:
            tris.addVertices(0, i, i + 1)
        else:
            tris.addVertices(0, i + 1, i)
    return _node("poly", vdata, tris)


def disc(r: float, color, z: float, centre=(0.0, 0.0), segments: int = 20, up: bool = True) -> NodePath:
    pts = [(centre[0] + r * math.cos(2 * math.pi * i / segments), centre[1] + r * math.sin(2 * math.pi * i / segments))
           for i in range(segments)]
    return polygon(pts, color, z, up)


def font():
    global _FONT
    if _FONT is None:
        _FONT = FontPool.loadFont(Filename.fromOsSpecific(model_file("DejaVuSans-Bold.ttf")).getFullpath())
        if _FONT is not None:
            _FONT.setPixelsPerUnit(64)
    return _FONT


def _text_node(s: str, color, name: str) -> TextNode:
    """Centred text in the shipped bold font."""
    tn = TextNode(name)
    f = font()
    if f is not None:
        tn.setFont(f)
    tn.setText(s)
    tn.setAlign(TextNode.ACenter)
    tn.setTextColor(*color)
    return tn


def text(s: str, height: float, color, z: float, x: float = 0.0, y: float = 0.0, heading: float = 0.0,
         up: bool = True) -> NodePath:
    """Text lying flat on a face at height z (readable from above; `up=False` for a bottom face), turned `heading`
    degrees about the vertical."""
    tn = _text_node(s, color, "text")
    np = NodePath(tn.generate())
    np.setScale(height)
    # centre vertically on the glyph box
    b = tn.getCardActual()
    np.setPos(x, y - (b[2] + b[3]) / 2 * height * (1 if up else -1), z)
    np.setP(-90 if up else 90)
    np.setTransparency(TransparencyAttrib.MAlpha)
    np.setShaderInput("unlit", 1.0)
    np.setDepthOffset(2)
    holder = NodePath("label")
    np.reparentTo(holder)
    if heading:
        holder.setH(heading)
    return holder


def text_upright(s: str, height: float, color, pos=(0, 0, 0)) -> NodePath:
    """Text standing up (billboarded towards the camera), for labels beside pieces."""
    tn = _text_node(s, color, "label")
    tn.setCardColor(1, 1, 1, 0.75)
    tn.setCardAsMargin(0.15, 0.15, 0.05, 0.05)
    np = NodePath(tn.generate())
    np.setScale(height)
    np.setPos(*pos)
    np.setBillboardPointEye()
    np.setTransparency(TransparencyAttrib.MAlpha)
    np.setShaderInput("unlit", 1.0)
    # labels are read, not occluded: drawn last, over everything, card first and then its text
    np.setDepthTest(False)
    np.setDepthWrite(False)
    np.setBin("fixed", 40)
    from towerworld.scene.setup import SHADOW_MASK
    np.hide(SHADOW_MASK)
    children = np.getChildren()
    for i in range(children.getNumPaths()):
        children[i].setBin("fixed", 40 + i)
    return np


def _fallback(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    box(s.w, s.d, s.h, (0.6, 0.6, 0.6, 1)).reparentTo(root)
    return root


# ---- piecepack -----------------------------------------------------------------------------------------------------------
RANK_GLYPHS = {"null": "0", "ace": "A", 0: "0", 1: "A"}


def rank_glyph(rank) -> str:
    """Piecepack ranks as printed: null shows 0 (it scores nothing), ace shows A."""
    return RANK_GLYPHS.get(rank, str(rank))


def _face_symbol(suit: str | None, rank, w: float, z: float, up: bool = True) -> NodePath:
    root = NodePath("face")
    colour = SUIT_COLOURS.get(suit, (0.2, 0.2, 0.2, 1))
    if rank is not None:
        text(rank_glyph(rank), w * 0.46, colour, z, y=w * 0.1 * (1 if up else -1), up=up).reparentTo(root)
    if suit:
        text(SUIT_SYMBOLS.get(suit, "?"), w * 0.3, colour, z, y=-w * 0.27 * (1 if up else -1), up=up).reparentTo(root)
    return root


@model("pp_tile")
def build_pp_tile(pose: Pose) -> NodePath:
    s = size("pp_tile")
    root = NodePath("pp_tile")
    box(s.w, s.d, s.h, IVORY, bevel=0.8).reparentTo(root)
    suit, rank = pose.get("suit"), pose.get("rank")
    if suit is not None:
        # a thin suit-coloured border reads the suit from far away
        frame = box(s.w - 3, s.d - 3, 0.2, SUIT_COLOURS.get(suit, (0.5, 0.5, 0.5, 1)), z0=s.h)
        frame.reparentTo(root)
        box(s.w - 7, s.d - 7, 0.25, IVORY, z0=s.h).reparentTo(root)
        _face_symbol(suit, rank, s.w, s.h + 0.3).reparentTo(root)
    # the back: dark with a 2x2 grid
    box(s.w - 2, s.d - 2, 0.2, TILE_BACK, z0=-0.2).reparentTo(root)
    box(s.w - 4, 1.4, 0.25, IVORY, z0=-0.45).reparentTo(root)
    box(1.4, s.d - 4, 0.25, IVORY, z0=-0.45).reparentTo(root)
    return root


@model("pp_coin")
def build_pp_coin(pose: Pose) -> NodePath:
    s = size("pp_coin")
    root = NodePath("pp_coin")
    colour = pose.get("colour")
    body = player_colour(colour) if colour is not None else (0.8, 0.7, 0.45, 1)
    cylinder(s.w / 2, s.h, body).reparentTo(root)
    value = pose.get("value", pose.get("rank"))
    ink = (0.1, 0.08, 0.05, 1)
    if value is not None:
        text(rank_glyph(value), s.w * 0.6, ink, s.h + 0.05).reparentTo(root)
    # the back: a suit, else what the coin stands for (a score marker's points, a talisman)
    suit = pose.get("suit")
    if suit:
        text(SUIT_SYMBOLS.get(suit, "?"), s.w * 0.55, SUIT_COLOURS.get(suit, (0, 0, 0, 1)), -0.05, up=False).reparentTo(root)
    elif pose.get("score") is not None:
        text(str(pose.get("score")), s.w * 0.5, ink, -0.05, up=False).reparentTo(root)
    elif pose.get("talisman"):
        text("\u2625", s.w * 0.6, (0.55, 0.1, 0.45, 1), -0.05, up=False).reparentTo(root)
    return root


@model("pp_die")
def build_pp_die(pose: Pose) -> NodePath:
    """The die shows its rolled face on top; the other five faces are drawn around it."""
    s = size("pp_die")
    root = NodePath("pp_die")
    box(s.w, s.d, s.h, IVORY, bevel=1.2).reparentTo(root)
    faces = ["null", "ace", "2", "3", "4", "5"]
    face = pose.get("face")
    face = faces[face] if isinstance(face, int) else face
    others = [f for f in faces if f != face]
    ink = (0.1, 0.1, 0.1, 1)
    if face is not None:
        text(rank_glyph(face), s.w * 0.7, (0.75, 0.05, 0.05, 1), s.h + 0.05).reparentTo(root)
    text(rank_glyph(others[-1]), s.w * 0.7, ink, -0.05, up=False).reparentTo(root)
    for heading, f in zip((0, 90, 180, 270), others[:4]):
        side = text(rank_glyph(f), s.w * 0.6, ink, 0)
        side.setH(heading)
        inner = side.getChild(0)
        inner.setP(0)
        inner.setPos(0, -s.d / 2 - 0.05, s.h / 2 - s.w * 0.6 * 0.35)
        side.reparentTo(root)
    return root


@model("pp_pawn")
def build_pp_pawn(pose: Pose) -> NodePath:
    s = size("pp_pawn")
    root = NodePath("pp_pawn")
    suit = pose.get("suit")
    colour = SUIT_COLOURS[suit] if suit in SUIT_COLOURS else player_colour(pose.get("colour", pose.get("player", 0)))
    cylinder(s.w / 2, 4, colour).reparentTo(root)
    cylinder(s.w / 2 * 0.72, s.h - 10, colour, z0=4, r_top=s.w / 2 * 0.35).reparentTo(root)
    sphere(s.w * 0.3, colour, (0, 0, s.h - s.w * 0.3)).reparentTo(root)
    return root


@model("track")
def build_track(pose: Pose) -> NodePath:
    """A score track: `cells` squares in a row (w along x); square i is labelled (first + i) * per."""
    s = size("track")
    cells = int(pose.get("cells", 10))
    step = float(pose.get("step", s.w / cells))
    root = NodePath("track")
    box(step * cells + 4, s.d, s.h, (0.86, 0.8, 0.66, 1)).reparentTo(root)
    first = int(pose.get("first", 0))
    for i in range(cells):
        cx = (i - (cells - 1) / 2) * step
        shade = (0.8, 0.72, 0.55, 1) if i % 2 else (0.9, 0.85, 0.7, 1)
        box(step - 1, s.d - 10, 0.2, shade, z0=s.h).reparentTo(root)
        root.getChildren()[-1].setX(cx)
        if (first + i) % int(pose.get("label_every", 5)) == 0:
            text(str((first + i) * int(pose.get("per", 1))), min(step * 0.7, 8), (0.25, 0.18, 0.1, 1), s.h + 0.3, x=cx, y=-s.d * 0.3).reparentTo(root)
    return root


@model("marker")
def build_marker(pose: Pose) -> NodePath:
    s = size("marker")
    return cylinder(s.w / 2, s.h, player_colour(pose.get("colour", 0)))


@model("label")
def build_label(pose: Pose) -> NodePath:
    return text_upright(str(pose.get("text", "")), float(pose.get("height", 8)), (0.1, 0.1, 0.1, 1))


@model("level_stair")
def build_level_stair(pose: Pose) -> NodePath:
    """Steps rising along +y, each `rise` higher than the last: things set on step i stand at height i * rise."""
    s = size("level_stair")
    steps, rise, run = int(pose.get("steps", 6)), float(pose.get("rise", 6.35)), float(pose.get("run", 17))
    root = NodePath("level_stair")
    for i in range(1, steps):
        step = box(s.w, run, i * rise, WOOD)
        step.setY((i - (steps - 1) / 2) * run)
        step.reparentTo(root)
    return root
