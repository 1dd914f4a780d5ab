"""Selection marks: a glowing band around what may be picked, so that the piece keeps its own colour.

A tint over the whole piece turns a red piece olive under green; a band beside it leaves the piece as it is. Where the
band goes follows from the piece's true size (the catalog), never from which game it belongs to: a standing piece
gets a ring on the ground around its foot, a flat one (a tile, a card) a frame just inside the edges of the face that
shows, and a place on the table (a cell) a frame around its square.
"""
from __future__ import annotations

import math

from panda3d.core import BitMask32, Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat, GeomVertexWriter
from panda3d.core import NodePath

from towerworld.engine.pieces import size
from towerworld.scene.setup import SHADOW_MASK

FLAT = 0.5             # lower than this fraction of its narrower side: a flat piece, framed on its face
MARK_ALPHA = 0.95      # the band is drawn nearly opaque: it is thin, and must read against any colour beneath
RING_GAP = 1.0         # mm between a standing piece's foot and its ring
RING_WIDTH = 3.0       # mm
FRAME_SHARE = 0.09     # a flat piece's or a cell's frame is this share of its narrower side wide
LIFT = 0.35            # mm above the face it lies on (with a depth offset, it never flickers into that face)


def _band(outer: list[tuple[float, float]], inner: list[tuple[float, float]], z: float) -> NodePath:
    """A flat closed band between two loops of points (same count, same order), facing up, drawn from both sides."""
    vdata = GeomVertexData("mark", GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    v, n = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "normal")
    c, t = GeomVertexWriter(vdata, "color"), GeomVertexWriter(vdata, "texcoord")
    for x, y in outer + inner:
        v.addData3(x, y, z)
        n.addData3(0, 0, 1)
        c.addData4(1, 1, 1, 1)
        t.addData2(0.5, 0.5)
    tris = GeomTriangles(Geom.UHStatic)
    k = len(outer)
    for i in range(k):
        j = (i + 1) % k
        tris.addVertices(i, j, k + j)
        tris.addVertices(i, k + j, k + i)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode("mark")
    node.addGeom(geom)
    return NodePath(node)


def _circle(r: float, segments: int = 40) -> list[tuple[float, float]]:
    return [(r * math.cos(2 * math.pi * i / segments), r * math.sin(2 * math.pi * i / segments))
            for i in range(segments)]


def _rect(w: float, d: float) -> list[tuple[float, float]]:
    return [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]


def is_flat(kind: str) -> bool:
    s = size(kind)
    return s.h < FLAT * min(s.w, s.d)


def ring(kind: str) -> NodePath:
    """A standing piece's ring on the ground around its foot, in the piece holder's frame."""
    s = size(kind)
    r = math.hypot(s.w, s.d) / 2 if abs(s.w - s.d) > 0.25 * max(s.w, s.d) else max(s.w, s.d) / 2
    return _finish(_band(_circle(r + RING_GAP + RING_WIDTH), _circle(r + RING_GAP), LIFT))


def frame(w: float, d: float, z: float) -> NodePath:
    """A frame just inside a w x d rectangle at height z."""
    band = FRAME_SHARE * min(w, d)
    return _finish(_band(_rect(w, d), _rect(w - 2 * band, d - 2 * band), z))


def face_frame(kind: str, face_up: bool) -> NodePath:
    """A flat piece's frame on the face that shows, in the frame of its model (which a face-down piece turns over)."""
    s = size(kind)
    inset = min(1.0, 0.04 * min(s.w, s.d))
    return frame(s.w - 2 * inset, s.d - 2 * inset, s.h + LIFT if face_up else -LIFT)


_MADE: dict[tuple, NodePath] = {}     # one band per shape, copied for every mark (a refresh marks many pieces)


def mark_for(kind: str, face_up: bool) -> tuple[NodePath, bool]:
    """The mark for a piece of `kind`, and whether it belongs under the model (True: it turns with a flat piece)
    or under the holder (False: a ring on the ground)."""
    flat = is_flat(kind)
    key = (kind, face_up and flat)
    if key not in _MADE:
        _MADE[key] = face_frame(kind, face_up) if flat else ring(kind)
    return _copy(_MADE[key]), flat


def cell_frame(w: float, d: float) -> NodePath:
    """The frame of a w x d cell, lying at its origin."""
    key = ("cell", round(w, 2), round(d, 2))
    if key not in _MADE:
        _MADE[key] = frame(w, d, 0.0)
    return _copy(_MADE[key])


def _copy(proto: NodePath) -> NodePath:
    return proto.copyTo(NodePath("mark-holder"))


def colour(mark: NodePath, rgba: tuple) -> None:
    r, g, b, _a = rgba
    mark.setColorScale(r, g, b, MARK_ALPHA)


def _finish(mark: NodePath) -> NodePath:
    mark.setTwoSided(True)
    mark.setShaderInput("unlit", 1.0)
    mark.setTransparency(True)
    mark.setDepthOffset(2)
    mark.setDepthWrite(False)
    mark.setCollideMask(BitMask32.allOff())     # clicks go to the piece or the cell, never to its mark
    mark.hide(SHADOW_MASK)
    mark.setName("mark")
    return mark


# ---- the last move: what it changed, and the places its pieces left --------------------------------------------------
# Violet, unlike the green, gold, red and pale blue of targets and picks; drawn just outside where a target's band
# goes (a ring beyond the target's ring, a frame around a tile's edge rather than inside it), so both may show at once.
LAST_MOVE = (0.62, 0.3, 1.0, 1.0)
LEFT_ALPHA = 0.55           # the place a piece left: the same band, fainter
LAST_GAP = RING_GAP + RING_WIDTH + 1.0     # mm beyond the piece's foot where the last move's ring starts
LAST_WIDTH = 2.5            # mm
TRAIL_DOT = 1.6             # mm: the radius of the dots from the place left to the place reached
TRAIL_STEP = 7.0            # mm between them


def last_mark(kind: str) -> NodePath:
    """The last move's mark on a piece of `kind`, in the frame of the piece's holder (its foot, turned with it): a
    standing piece's ring on the ground beyond a target's ring, or a flat piece's frame around the edges of its top."""
    key = ("last", kind)
    if key not in _MADE:
        s = size(kind)
        if is_flat(kind):
            grow = LAST_WIDTH + 0.5
            band = _band(_rect(s.w + 2 * grow, s.d + 2 * grow), _rect(s.w + 1.0, s.d + 1.0), s.h + LIFT)
        else:
            r = math.hypot(s.w, s.d) / 2 if abs(s.w - s.d) > 0.25 * max(s.w, s.d) else max(s.w, s.d) / 2
            band = _band(_circle(r + LAST_GAP + LAST_WIDTH), _circle(r + LAST_GAP), LIFT)
        _MADE[key] = _finish(band)
    return _named(_copy(_MADE[key]))


def last_cell_mark(w: float, d: float) -> NodePath:
    """The last move's frame around a place on the table (a tower's square), just outside a target's frame."""
    key = ("last-cell", round(w, 2), round(d, 2))
    if key not in _MADE:
        grow = LAST_WIDTH + 1.0
        _MADE[key] = _finish(_band(_rect(w + 2 * grow, d + 2 * grow), _rect(w + 2.0, d + 2.0), LIFT))
    return _named(_copy(_MADE[key]))


def trail(a: tuple[float, float, float], b: tuple[float, float, float]) -> NodePath | None:
    """Dots from the place a piece left to the place it reached, on the straight line between their feet; None when
    the two are too close for a dot between them."""
    dx, dy, dz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    count = int(length // TRAIL_STEP)
    if count < 2:
        return None
    holder = NodePath("last-trail")
    dot = _band(_circle(TRAIL_DOT, 12), [(0.0, 0.0)] * 12, 0.0)
    for i in range(1, count):
        t = i / count
        copy = dot.copyTo(holder)
        copy.setPos(a[0] + dx * t, a[1] + dy * t, a[2] + dz * t + 2 * LIFT)
    holder.flattenStrong()
    return _named(_finish(holder))


def _named(mark: NodePath) -> NodePath:
    mark.setName("last-move")
    colour(mark, LAST_MOVE)
    return mark
