"""Shapes every component family builds from, at true size (1 unit = 1 mm): boxes, cylinders, spheres, flat
polygons and discs, text in the bundled bold font, and the shared colours (player colours in seat order).

All geometry carries normals, vertex colours and texture coordinates in one vertex format, so a family may texture a
face and `flattenStrong` can merge everything of one render state into one geom.
"""
from __future__ import annotations

import functools
import math
from typing import Callable, TypeVar, cast

from panda3d.core import (BitMask32, ColorAttrib, FontPool, Filename, Geom, GeomNode, GeomTriangles, GeomVertexData,
                          GeomVertexFormat, GeomVertexWriter, Mat4, NodePath, SceneGraphReducer,
                          TextNode, TransparencyAttrib, Vec3)

from towerworld.paths import model_file

SHADOW_MASK = BitMask32.bit(3)   # the key light's shadow camera; labels hide from it so they cast no shadow
# A font's glyphs in not-quite-white make luminance+alpha pages, which our GLSL shader samples in the text's colour
# (pure white makes alpha-only pages, sampled as black)
FONT_FG = (0.995, 0.995, 0.995, 1)

_FONT = None
_TEXTS: dict[tuple, NodePath] = {}     # shared_text's glyphs, by words and look
TEXTS_KEPT = 512
_SOLIDS: dict[tuple, GeomNode] = {}    # box, cylinder and sphere, by their arguments (see _kept)
SOLIDS_KEPT = 512

# Player colours in seat order.
PLAYER_COLOURS = [(0.85, 0.15, 0.12, 1), (0.15, 0.35, 0.85, 1), (0.15, 0.62, 0.2, 1), (0.95, 0.78, 0.1, 1),
                  (0.55, 0.25, 0.7, 1), (0.12, 0.12, 0.12, 1)]
IVORY = (0.93, 0.9, 0.82, 1)
WOOD = (0.72, 0.55, 0.36, 1)
INK = (0.05, 0.05, 0.06, 1)


def player_colour(index) -> tuple:
    return PLAYER_COLOURS[int(index) % len(PLAYER_COLOURS)]


def shade(colour, k: float) -> tuple:
    """`colour` darkened (k < 1) or lightened (k > 1), alpha kept."""
    return (min(1.0, colour[0] * k), min(1.0, colour[1] * k), min(1.0, colour[2] * k), colour[3])


# ---- primitives --------------------------------------------------------------------------------------------------------
Solid = TypeVar("Solid", bound=Callable[..., NodePath])


def _kept(build: Solid) -> Solid:
    """A solid is made once for its arguments and copied after: a node of its own for each caller, sharing the
    geometry, which Panda3D copies before anything changes it (a flatten applies a transform to a copy). Seven coins
    of one size and wood differ only in their glyphs; each cylinder written vertex by vertex took about 0.3 ms."""
    @functools.wraps(build)
    def made(*args, **kwargs) -> NodePath:
        try:
            key = (build.__name__, args, tuple(sorted(kwargs.items())))
            proto = _SOLIDS.get(key)
        except TypeError:           # an argument that cannot be a key (a list of colours): made afresh
            return build(*args, **kwargs)
        if proto is None:
            if len(_SOLIDS) >= SOLIDS_KEPT:
                _SOLIDS.clear()
            proto = _SOLIDS[key] = build(*args, **kwargs).node()
        return NodePath(proto.makeCopy())
    return cast(Solid, made)


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


@_kept
def box(w: float, d: float, h: float, color=(1, 1, 1, 1), z0: float = 0.0, bevel: float = 0.0) -> NodePath:
    """An axis-aligned box centred on x/y, from z0 to z0 + h, flat-shaded. `bevel` chamfers the top and bottom edges."""
    vdata, v, n, c, t = _writer("box")
    tris = GeomTriangles(Geom.UHStatic)
    x, y = w / 2, d / 2
    b = min(bevel, w / 4, d / 4, h / 3)
    faces: list[tuple[tuple, list]] = []
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


@_kept
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


@_kept
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


def facets(faces, name: str = "facets") -> NodePath:
    """Flat convex facets in any orientation: `faces` is a list of (normal, points, colours[, uvs]), points (x, y, z)
    counter-clockwise seen from the side the normal points to, colours one rgba per point (a gradient) or one for all,
    uvs the texture coordinates of the points (a textured face)."""
    vdata, v, n, c, t = _writer(name)
    tris = GeomTriangles(Geom.UHStatic)
    for normal, points, colours, *uvs in faces:
        base = v.getWriteRow()
        per_point = len(colours) == len(points) and isinstance(colours[0], (tuple, list))
        for i, point in enumerate(points):
            v.addData3(*point)
            n.addData3(*normal)
            c.addData4(*(colours[i] if per_point else colours))
            t.addData2(*(uvs[0][i] if uvs else (0.5, 0.5)))
        for i in range(1, len(points) - 1):
            tris.addVertices(base, base + i, base + i + 1)
    return _node(name, vdata, tris)


def disc_on(centre, u, v, r: float, colour, segments: int = 12) -> NodePath:
    """A flat disc of radius r centred at `centre`, in the plane spanned by the unit vectors u and v (facing u x v)."""
    u, v = Vec3(*u), Vec3(*v)
    normal = u.cross(v)
    normal.normalize()
    points = [tuple(Vec3(*centre) + u * (r * math.cos(2 * math.pi * i / segments))
                    + v * (r * math.sin(2 * math.pi * i / segments))) for i in range(segments)]
    return facets([(tuple(normal), points, colour)], "disc")


def font():
    global _FONT
    if _FONT is None:
        _FONT = FontPool.loadFont(Filename.fromOsSpecific(model_file("DejaVuSans-Bold.ttf")).getFullpath())
        if _FONT is not None:
            _FONT.setPixelsPerUnit(64)
            # The default white-on-clear font renders alpha-only glyph pages, which our GLSL shader samples as black
            # (rgb 0): a not-quite-white foreground makes luminance+alpha pages, so text takes its own colour.
            _FONT.setFg(FONT_FG)
    return _FONT


# A label facing the viewer is one geom: its letters in their ink over copies of themselves in a pale halo colour,
# shifted a little every way round, all in one vertex buffer on one glyph page (a card behind the words would be a
# second geom, a draw call more a label every frame). One plain font serves every ink (the colours are the vertices'):
# a font outline painted into the glyphs took a font, and its glyph pages, for each ink, and rasterising the outline
# cost four times a plain glyph.
HALO = (1.0, 1.0, 0.98, 0.92)
HALO_WIDTH = 1.6        # points beyond each letter (the font's em is about 10 points)
HALO_STEPS = 8          # copies round the letters (every 45 degrees: at a label's size on screen, no notch shows)
LABEL_PAGE = 512        # px: the label font's glyph page (every glyph the table's labels use, for one geom a label)
_LABEL_FONT: list = []
_REDUCER = SceneGraphReducer()
_RING = [(HALO_WIDTH / 10 * math.cos(2 * math.pi * i / HALO_STEPS),
          HALO_WIDTH / 10 * math.sin(2 * math.pi * i / HALO_STEPS)) for i in range(HALO_STEPS)]


def label_font():
    """The bold font for labels facing the viewer, on glyph pages of their own (LABEL_PAGE square)."""
    if not _LABEL_FONT:
        base = font()
        if base is None:
            return None
        f = base.makeCopy()
        f.clear()
        f.setPageSize(LABEL_PAGE, LABEL_PAGE)
        _LABEL_FONT.append(f)
    return _LABEL_FONT[0]


def _with_vertices(geom: Geom, vdata) -> Geom:
    made = geom.makeCopy()
    made.setVertexData(vdata)
    return made


def _haloed(letters: GeomNode, ink) -> GeomNode:
    """`letters` (a TextNode's glyphs) as one geom a glyph page: HALO_STEPS copies in HALO shifted round a circle
    HALO_WIDTH wide, then the letters in `ink` over them (drawn in that order, depth testing off)."""
    out = GeomNode("label")
    for i in range(letters.getNumGeoms()):
        geom, state = letters.getGeom(i), letters.getGeomState(i).setAttrib(ColorAttrib.makeVertex())
        plain = geom.getVertexData().convertTo(GeomVertexFormat.getV3c4t2())
        halo = plain.setColor(HALO)
        for dx, dz in _RING:
            shifted = GeomVertexData(halo)
            shifted.transformVertices(Mat4.translateMat(dx, 0, dz))
            out.addGeom(_with_vertices(geom, shifted), state)
        out.addGeom(_with_vertices(geom, plain.setColor(tuple(ink))), state)
    # into one geom a page, in the order added (the ink last, over its halo): their rows into one vertex buffer first
    _REDUCER.collectVertexData(out)
    _REDUCER.unify(out, True)
    return out


FACINGS = ("up", "down", "front", "viewer")


def text(s: str, height: float, colour, pos=(0.0, 0.0, 0.0), heading: float = 0.0, facing: str = "up",
         standing: bool = False, drop: float = 0.0) -> NodePath:
    """Centred text `height` mm tall (one em) at `pos`, turned `heading` degrees about the vertical.

    facing "up": lying on a top face, read from above; "down": on a bottom face, read once the piece is turned over;
    "front": standing, read from -y (a side face); "viewer": a label edged in a pale halo that always faces the camera
    and is drawn over everything (read, never occluded; it casts no shadow), one geom. A viewer label hangs from its
    first line's baseline at `pos`, or, `standing`, rests its halo's bottom edge there (lines above a stack, growing
    upwards); `drop` lines lower on the screen than that (negative: higher), to clear another label.
    """
    if facing not in FACINGS:
        raise ValueError(f"text facing must be one of {', '.join(FACINGS)}, not '{facing}'")
    tn = TextNode("text")
    f = label_font() if facing == "viewer" else font()
    if f is not None:
        tn.setFont(f)
    tn.setText(s)
    tn.setAlign(TextNode.ACenter)
    # a label's colours are its vertices' (its ink, and the pale halo round it, which a text colour would tint)
    tn.setTextColor(*((1, 1, 1, 1) if facing == "viewer" else colour))
    if facing == "viewer" and (standing or drop):
        tn.setTransform(Mat4.translateMat(0, 0, -(tn.getBottom() - HALO_WIDTH / 10 if standing else 0.0) - drop))
    made = tn.generate()
    if facing == "viewer":
        letters = made if isinstance(made, GeomNode) else NodePath(made).find("**/+GeomNode").node()
        made = _haloed(letters, colour)
    glyphs = NodePath(made)
    glyphs.setScale(height)
    glyphs.setTransparency(TransparencyAttrib.MAlpha)
    glyphs.setShaderInput("unlit", 1.0)
    holder = NodePath("label")
    glyphs.reparentTo(holder)
    holder.setPos(*pos)
    holder.setH(heading)
    if facing == "viewer":
        glyphs.setBillboardPointEye()
        glyphs.setDepthTest(False)
        glyphs.setDepthWrite(False)
        holder.hide(SHADOW_MASK)
        glyphs.setBin("fixed", 40)
        return holder
    # centre vertically on the glyph box
    card = tn.getCardActual()
    middle = (card[2] + card[3]) / 2 * height
    if facing == "front":
        glyphs.setPos(0, 0, -middle)
    else:
        glyphs.setPos(0, -middle if facing == "up" else middle, 0)
        glyphs.setP(-90 if facing == "up" else 90)
    glyphs.setDepthOffset(2)
    return holder


def shared_text(s: str, height: float, colour, pos=(0.0, 0.0, 0.0), heading: float = 0.0, facing: str = "up",
                standing: bool = False, into: NodePath | None = None, drop: float = 0.0) -> NodePath:
    """`text`, its glyphs generated once for these words and look and shared by every copy after: generating them
    costs tens of microseconds, and a table's labels come back (a pile's count, a score, after an undo or a seek).
    The copies share one node, so this is for labels, never for a model that will be flattened. `into`: a holder
    this made before, given these words in place of its own (a label that changes keeps its node: one freed and
    one made cost more than the words); with `pos` None it stays where it stands, turned as it is (a count that
    changes where it is shown)."""
    key = (s, height, tuple(colour), facing, standing, drop)
    proto = _TEXTS.get(key)
    if proto is None:
        if len(_TEXTS) >= TEXTS_KEPT:
            _TEXTS.clear()          # the copies on the table keep their glyphs; only the sharing is forgotten
        proto = _TEXTS[key] = text(s, height, colour, facing=facing, standing=standing, drop=drop)
    if into is None:
        holder = NodePath("label")
    else:
        holder = into
        holder.node().removeAllChildren()
    proto.instanceTo(holder)
    if pos is not None:
        holder.setPosHpr(pos[0], pos[1], pos[2], heading, 0, 0)
    return holder
