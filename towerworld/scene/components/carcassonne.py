"""Land tiles, meeples and tower storeys: the landscape-tile family (45 mm square tiles whose faces show fields, roads,
walled cities, cloisters and tower foundations; wooden followers; stacked tower pieces).

Tile faces are painted with numpy into ONE texture atlas (8 x 8 cells of 128 px): cell 0 is plain white (the tile's
sides take their colour from the vertices), cell 1 the back, and every distinct face gets the next free cell the first
time it is drawn. Faces are described by the layout, not looked up here, in the look `art`: a tuple of words at
rotation 0 (the pose's heading turns the tile):
  "c:NW:1"   a city over edges N and W with 1 pennant        "r:ES"  a road through E and S ("r:S": it ends inside)
  "k"        a cloister                                       "t"     a tower foundation
Every tile is one Geom (faces, back and sides sample the same atlas), so tiles differ only in their texture
coordinates and a board of them combines into a few draw calls.
meeple (look player, 1-based): a classic meeple silhouette in the player's colour; the layout lays farmers down.
tower_piece (look colour normal|black|white, top): a stone storey; the top storey of a tower shows battlements.
A tile's area (an event's `areas`, words such as "c:NW", "r:ES", "f:NL,NR", "all"): a gold sheet over that part of
its face, lighting up a scored feature.
"""
from __future__ import annotations

import math

import numpy as np
from panda3d.core import (Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat, GeomVertexWriter, NodePath,
                          SamplerState, Texture, TransparencyAttrib)

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import area, model
from towerworld.scene.components.shapes import box, player_colour

CELL = 128
GRID = 8
MARGIN = 3 / (CELL * GRID)          # texture coordinates stay this far inside a cell: no bleeding between faces

FIELD = np.array((0.42, 0.62, 0.25))
FIELD_DARK = np.array((0.34, 0.53, 0.2))
CITY = np.array((0.86, 0.73, 0.52))
PAVING = np.array((0.8, 0.74, 0.64))
ROOF = np.array((0.72, 0.36, 0.24))
WALL = np.array((0.47, 0.44, 0.42))
ROAD = np.array((0.95, 0.92, 0.82))
ROAD_EDGE = np.array((0.45, 0.4, 0.32))
PENNANT = np.array((0.14, 0.3, 0.72))
SNOW = np.array((0.97, 0.97, 0.95))
CLOISTER = np.array((0.78, 0.24, 0.16))
CLOISTER_WALL = np.array((0.93, 0.88, 0.8))
STONE = np.array((0.62, 0.6, 0.58))
STONE_DARK = np.array((0.3, 0.29, 0.28))
BACK = np.array((0.36, 0.28, 0.18))
BACK_LIGHT = np.array((0.5, 0.4, 0.26))
SIDE = (0.86, 0.8, 0.66, 1)
PIECE_COLOURS = {"normal": (0.8, 0.72, 0.56, 1), "black": (0.14, 0.14, 0.15, 1), "white": (0.95, 0.95, 0.91, 1)}

DIRS = "NESW"


# ---- painting faces --------------------------------------------------------------------------------------------------
def _grid() -> tuple[np.ndarray, np.ndarray]:
    """Tile coordinates of every pixel centre: x east, y north, both in [-0.5, 0.5]; row 0 is the north edge."""
    c = (np.arange(CELL) + 0.5) / CELL - 0.5
    return np.meshgrid(c, -c)


X, Y = _grid()


def _turned(x, y, quarters: int):
    """Coordinates as seen after undoing `quarters` clockwise quarter turns (to test a rotated canonical shape)."""
    for _ in range(quarters % 4):
        x, y = -y, x
    return x, y


def city_region(edges: str) -> np.ndarray:
    """The city over `edges` (a set of N E S W): caps, corners, bands and three-sided cities with curved walls."""
    idx = sorted(DIRS.index(e) for e in edges)
    n = len(idx)
    if n == 4:
        return np.ones_like(X, dtype=bool)
    if n == 1:
        x, y = _turned(X, Y, idx[0])
        return y > 0.5 - (0.27 - 0.5 * x * x)
    if n == 2 and (idx[1] - idx[0]) % 2 == 0:       # opposite edges: a band pinched in the middle
        x, y = _turned(X, Y, idx[0] + 1)            # canonical W-E band
        return np.abs(y) < 0.17 + 0.7 * x * x
    if n == 2:
        # adjacent edges: canonical N + W, the corner between them; find the quarter turn that maps it there
        for q in range(4):
            if sorted(((DIRS.index(d) + q) % 4) for d in "NW") == idx:
                x, y = _turned(X, Y, q)
                return np.hypot(x - 0.5, y + 0.5) > 0.86
    missing = ({0, 1, 2, 3} - set(idx)).pop()       # three edges: canonical N, E, W with the open side S
    x, y = _turned(X, Y, missing - 2)
    return np.hypot(x, y + 0.9) > 0.64


def road_region(edges: str, width: float = 0.045) -> np.ndarray:
    """A road through one edge to the centre, straight across, or curving round the corner between two edges."""
    idx = [DIRS.index(e) for e in edges]
    mids = [(0.0, 0.5), (0.5, 0.0), (0.0, -0.5), (-0.5, 0.0)]
    if len(idx) == 1:
        dx, dy = mids[idx[0]][0] * 2, mids[idx[0]][1] * 2       # unit vector from the centre to the edge
        along = np.clip(X * dx + Y * dy, 0.1, 0.5)               # from near the centre out to the edge
        return np.hypot(X - dx * along, Y - dy * along) < width
    a, b = idx[:2]
    if (a - b) % 2 == 0:
        mx, my = mids[a]
        return np.abs(X * my - Y * mx) * 2 < width * 2
    cx = mids[a][0] + mids[b][0]
    cy = mids[a][1] + mids[b][1]
    return np.abs(np.hypot(X - cx, Y - cy) - 0.5) < width


def _erode(mask: np.ndarray, px: int) -> np.ndarray:
    """Shrink a region by `px` pixels; beyond the tile's border counts as inside (a city runs on across an edge)."""
    out = mask.copy()
    padded = np.pad(mask, px, constant_values=True)
    for dy in range(-px, px + 1):
        for dx in range(-px, px + 1):
            if dx * dx + dy * dy <= px * px:
                out &= padded[px + dy:px + dy + CELL, px + dx:px + dx + CELL]
    return out


def _paint(img: np.ndarray, mask: np.ndarray, colour) -> None:
    img[mask] = colour


def _shield(img: np.ndarray, cx: float, cy: float) -> None:
    """A pennant: a blue shield with a white rim and a white chevron, large enough to read at the table."""
    dx, dy = X - cx, Y - cy
    outer = (np.abs(dx) < 0.1) & (dy < 0.09) & (dy > -0.07 - (0.1 - np.abs(dx)) * 0.9)
    body = (np.abs(dx) < 0.08) & (dy < 0.07) & (dy > -0.05 - (0.08 - np.abs(dx)) * 0.9)
    _paint(img, outer, SNOW)
    _paint(img, body, PENNANT)
    _paint(img, body & (np.abs(dy + np.abs(dx) * 0.9 - 0.0) < 0.02), SNOW)


def _town(img: np.ndarray, region: np.ndarray, rng: np.random.Generator) -> None:
    """A walled town seen from above: paved streets, rows of houses with two-sloped roofs and their ridges, a stone
    wall with battlements where the town meets the fields (the wall runs only along the town's inner edge: beyond the
    tile's border the town goes on)."""
    _paint(img, region, PAVING)
    inner = _erode(region, 8)
    step = 15
    for gy in range(3, CELL, step):
        for gx in range(3 + (gy // step % 2) * 7, CELL, step):
            cy, cx = gy + int(rng.integers(0, 3)), gx + int(rng.integers(0, 3))
            wide = rng.random() < 0.6
            hw, hh = (6, 4) if wide else (4, 6)
            y0, y1, x0, x1 = cy - hh, cy + hh, cx - hw, cx + hw
            if y0 < 0 or x0 < 0 or y1 > CELL or x1 > CELL or not inner[y0:y1, x0:x1].all():
                continue
            roof = np.clip(ROOF * (0.85 + 0.3 * rng.random()), 0, 1)
            if wide:                                  # the ridge runs east-west: the north slope lit
                img[y0:cy, x0:x1] = roof
                img[cy:y1, x0:x1] = roof * 0.7
                img[cy, x0:x1] = roof * 0.5
            else:                                     # north-south: the west slope lit
                img[y0:y1, x0:cx] = roof
                img[y0:y1, cx:x1] = roof * 0.7
                img[y0:y1, cx] = roof * 0.5
            img[min(y1, CELL - 1), x0:x1] = PAVING * 0.7          # the house's shadow on the street
    wall = region & ~_erode(region, 7)
    _paint(img, wall, WALL)
    outer = region & ~_erode(region, 3)
    merlon = ((np.arange(CELL)[:, None] // 3 + np.arange(CELL)[None, :] // 3) % 2 == 0)
    _paint(img, outer & merlon, np.clip(WALL * 1.45, 0, 1))
    _paint(img, outer & ~merlon, WALL * 0.6)
    _paint(img, wall & ~_erode(region, 6) & _erode(region, 5), WALL * 0.55)       # the wall's inner shadow


def _cloister(img: np.ndarray, cx: float, cy: float, k: float = 1.0) -> None:
    """A cloister seen from above: its walled garth, the church along the north side with a gabled roof (one slope in
    the light, one in shade), the bell tower's pyramid roof at its west end, and the cloister walk round the garth."""
    dx, dy = (X - cx) / k, (Y - cy) / k
    garth = (np.abs(dx) < 0.24) & (np.abs(dy) < 0.24)
    _paint(img, garth, CLOISTER_WALL)
    _paint(img, garth & ~((np.abs(dx) < 0.2) & (np.abs(dy) < 0.2)), CLOISTER_WALL * 0.8)
    _paint(img, (np.abs(dx) < 0.13) & (dy < 0.02) & (dy > -0.2), FIELD * 1.1)            # the green garth
    _paint(img, (np.abs(dx) < 0.015) & (dy < 0.0) & (dy > -0.18), ROAD)                   # its cross paths
    _paint(img, (np.abs(dy + 0.09) < 0.015) & (np.abs(dx) < 0.11), ROAD)
    nave = (np.abs(dx - 0.03) < 0.19) & (dy > 0.04) & (dy < 0.22)
    _paint(img, nave & (dy >= 0.13), CLOISTER)                                            # the lit slope
    _paint(img, nave & (dy < 0.13), CLOISTER * 0.68)                                       # the shaded slope
    _paint(img, nave & (np.abs(dy - 0.13) < 0.008), CLOISTER * 0.45)                      # the ridge
    tower = (np.abs(dx + 0.17) < 0.065) & (np.abs(dy - 0.13) < 0.065)
    _paint(img, tower, CLOISTER * 0.55)
    _paint(img, tower & (dx + 0.17 > np.abs(dy - 0.13)), CLOISTER * 0.8)                  # its pyramid roof
    _paint(img, tower & (dy - 0.13 > np.abs(dx + 0.17)), CLOISTER * 0.95)
    _paint(img, (np.abs(dx + 0.17) < 0.012) & (np.abs(dy - 0.13) < 0.012), SNOW)


def _foundation(img: np.ndarray) -> None:
    """A tower foundation: a grey stone square with its courses drawn in."""
    square = (np.abs(X) < 0.2) & (np.abs(Y) < 0.19)
    _paint(img, square, STONE)
    _paint(img, square & ~_erode(square, 3), STONE_DARK)
    _paint(img, square & (np.abs(((Y + 0.19) / 0.095) % 1 - 0.5) > 0.44), STONE_DARK)
    row = np.floor((Y + 0.19) / 0.095)
    _paint(img, square & (np.abs((((X + 0.2) / 0.1 + row * 0.5) % 1) - 0.5) > 0.45), STONE_DARK)


def _house(img: np.ndarray) -> None:
    """Houses where roads meet."""
    body = (np.abs(X) < 0.08) & (np.abs(Y) < 0.08)
    _paint(img, body, ROOF)
    _paint(img, body & ~_erode(body, 2), ROAD_EDGE)
    _paint(img, body & (np.abs(Y) < 0.012), ROOF * 0.7)


def paint_face(art: tuple[str, ...], seed: int = 0) -> np.ndarray:
    """A tile face (CELL x CELL x 3 floats in 0..1, row 0 north) from its `art` words at rotation 0."""
    rng = np.random.default_rng(seed)
    img = np.empty((CELL, CELL, 3))
    img[:] = FIELD
    img[rng.random((CELL, CELL)) < 0.12] = FIELD_DARK           # grass
    words = [w.split(":") for w in art]
    roads = [w[1] for w in words if w[0] == "r"]
    cloister = any(w[0] == "k" for w in words)
    tower = any(w[0] == "t" for w in words)
    for edges in roads:
        region = road_region(edges)
        _paint(img, region & ~road_region(edges, 0.03), ROAD_EDGE)
        _paint(img, road_region(edges, 0.03), ROAD)
    for w in words:
        if w[0] != "c":
            continue
        region = city_region(w[1])
        _town(img, region, rng)
        if int(w[2] if len(w) > 2 else 0):
            ys, xs = np.nonzero(_erode(region, 14))
            if len(xs):
                i = np.argmin((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2)
                _shield(img, X[ys[i], xs[i]], Y[ys[i], xs[i]])
    if cloister:
        if tower:
            _cloister(img, -0.25, 0.25, 0.6)
        else:
            _cloister(img, 0.0, 0.0)
    if tower:
        _foundation(img)
    elif sum(1 for e in roads if len(e) == 1) >= 3:
        _house(img)
    return img


def paint_back() -> np.ndarray:
    img = np.empty((CELL, CELL, 3))
    img[:] = BACK
    ring = (np.abs(X) < 0.36) & (np.abs(Y) < 0.36) & ~((np.abs(X) < 0.32) & (np.abs(Y) < 0.32))
    img[ring] = BACK_LIGHT
    img[np.hypot(X, Y) < 0.12] = BACK_LIGHT
    return img


class Atlas:
    """One texture for every tile face, painted once per face and kept for the whole process."""

    def __init__(self):
        self.texture = Texture("tile-atlas")
        self.texture.setup2dTexture(CELL * GRID, CELL * GRID, Texture.T_unsigned_byte, Texture.F_rgb)
        self.texture.makeRamImage()
        self.texture.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        self.texture.setMagfilter(SamplerState.FT_linear)
        self.texture.setAnisotropicDegree(4)
        self.texture.setWrapU(SamplerState.WM_clamp)
        self.texture.setWrapV(SamplerState.WM_clamp)
        self.cells: dict[tuple, int] = {}
        self._put(0, np.ones((CELL, CELL, 3)))
        self._put(1, paint_back())
        self.cells[("white",)] = 0
        self.cells[("back",)] = 1

    def pixels(self) -> np.ndarray:
        """The atlas as an image: rows from the top, red first (a view of the texture's memory)."""
        ram = np.asarray(memoryview(self.texture.modifyRamImage())).reshape(CELL * GRID, CELL * GRID, 3)
        return ram[::-1, :, ::-1]

    def _put(self, index: int, img: np.ndarray) -> None:
        # only this cell's pixels are written, in place (re-sending the whole image cost 20-50 ms a new face)
        r, c = divmod(index, GRID)
        self.pixels()[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL] = np.clip(img * 255 + 0.5, 0, 255)

    def cell(self, art: tuple) -> int:
        """The atlas cell of a face, painting it on first use."""
        index = self.cells.get(art)
        if index is None:
            index = len(self.cells)
            if index >= GRID * GRID:
                raise RuntimeError("the tile atlas is full")
            self._put(index, paint_face(art, seed=index))
            self.cells[art] = index
        return index

    def uv(self, index: int) -> tuple[float, float, float, float]:
        """(u0, v0, u1, v1) of a cell, inset by the margin; v0 is the south edge of the face."""
        r, c = divmod(index, GRID)
        u0, u1 = c / GRID, (c + 1) / GRID
        v1, v0 = 1 - r / GRID, 1 - (r + 1) / GRID
        return u0 + MARGIN, v0 + MARGIN, u1 - MARGIN, v1 - MARGIN


_ATLAS: Atlas | None = None


def atlas() -> Atlas:
    global _ATLAS
    if _ATLAS is None:
        _ATLAS = Atlas()
    return _ATLAS


# ---- geometry ----------------------------------------------------------------------------------------------------------
def _tile_geom(face_uv, back_uv, white_uv) -> NodePath:
    """A flat box whose top shows `face_uv`, bottom `back_uv`, sides a plain colour: one Geom."""
    s = size("ccs_tile")
    vdata = GeomVertexData("tile", GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    v, n = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "normal")
    c, t = GeomVertexWriter(vdata, "color"), GeomVertexWriter(vdata, "texcoord")
    tris = GeomTriangles(Geom.UHStatic)
    x, y, h = s.w / 2, s.d / 2, s.h
    wu = ((white_uv[0] + white_uv[2]) / 2, (white_uv[1] + white_uv[3]) / 2)
    u0, v0, u1, v1 = face_uv
    b0, c0, b1, c1 = back_uv
    faces = [((0, 0, 1), [(-x, -y, h), (x, -y, h), (x, y, h), (-x, y, h)], [(u0, v0), (u1, v0), (u1, v1), (u0, v1)],
              (1, 1, 1, 1)),
             # the back seen from below, turned about y as the stage turns a face-down tile
             ((0, 0, -1), [(-x, y, 0), (x, y, 0), (x, -y, 0), (-x, -y, 0)], [(b1, c1), (b0, c1), (b0, c0), (b1, c0)],
              (1, 1, 1, 1))]
    for normal, quad in [((0, -1, 0), [(-x, -y, 0), (x, -y, 0), (x, -y, h), (-x, -y, h)]),
                         ((0, 1, 0), [(x, y, 0), (-x, y, 0), (-x, y, h), (x, y, h)]),
                         ((1, 0, 0), [(x, -y, 0), (x, y, 0), (x, y, h), (x, -y, h)]),
                         ((-1, 0, 0), [(-x, y, 0), (-x, -y, 0), (-x, -y, h), (-x, y, h)])]:
        faces.append((normal, quad, [wu] * 4, SIDE))
    for normal, quad, uvs, colour in faces:
        base = v.getWriteRow()
        for (px, py, pz), (tu, tv) in zip(quad, uvs):
            v.addData3(px, py, pz)
            n.addData3(*normal)
            c.addData4(*colour)
            t.addData2(tu, tv)
        tris.addVertices(base, base + 1, base + 2)
        tris.addVertices(base, base + 2, base + 3)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode("tile")
    node.addGeom(geom)
    return NodePath(node)


def _prism(outline: list[tuple[float, float]], depth: float, colour) -> NodePath:
    """A convex outline in the x-z plane (counter-clockwise seen from -y), extruded `depth` along y, centred on y=0."""
    vdata = GeomVertexData("prism", GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    v, n = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "normal")
    c, t = GeomVertexWriter(vdata, "color"), GeomVertexWriter(vdata, "texcoord")
    tris = GeomTriangles(Geom.UHStatic)
    d = depth / 2

    def vert(px, py, pz, normal):
        v.addData3(px, py, pz)
        n.addData3(*normal)
        c.addData4(*colour)
        t.addData2(0.5 / GRID, 1 - 0.5 / GRID)      # the atlas's white cell: the vertex colour shows
    k = len(outline)
    for side, sy in ((-1, -d), (1, d)):
        base = v.getWriteRow()
        for px, pz in outline:
            vert(px, sy, pz, (0, side, 0))
        for i in range(1, k - 1):
            if side < 0:
                tris.addVertices(base, base + i, base + i + 1)
            else:
                tris.addVertices(base, base + i + 1, base + i)
    for i in range(k):
        (ax, az), (bx, bz) = outline[i], outline[(i + 1) % k]
        nx, nz = bz - az, -(bx - ax)
        ln = math.hypot(nx, nz) or 1.0
        normal = (nx / ln, 0, nz / ln)
        base = v.getWriteRow()
        for px, py, pz in ((ax, d, az), (bx, d, bz), (bx, -d, bz), (ax, -d, az)):
            vert(px, py, pz, normal)
        tris.addVertices(base, base + 1, base + 2)
        tris.addVertices(base, base + 2, base + 3)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode("prism")
    node.addGeom(geom)
    return NodePath(node)


def meeple_outline() -> list[list[tuple[float, float]]]:
    """The meeple as convex parts in the x-z plane (mm): head, shoulders and arms, hips, two legs."""
    head = [(3.3 * math.cos(a), 12.6 + 3.3 * math.sin(a)) for a in (2 * math.pi * i / 16 for i in range(16))]
    arms = [(-3.6, 6.6), (3.6, 6.6), (8.0, 8.4), (7.4, 10.1), (2.6, 10.8), (-2.6, 10.8), (-7.4, 10.1), (-8.0, 8.4)]
    hips = [(-4.4, 4.2), (4.4, 4.2), (3.6, 6.8), (-3.6, 6.8)]
    left = [(-7.8, 0.0), (-1.4, 0.0), (-0.3, 4.4), (-4.4, 4.4)]
    right = [(1.4, 0.0), (7.8, 0.0), (4.4, 4.4), (0.3, 4.4)]
    return [head, arms, hips, left, right]


def _block(w: float, d: float, h: float, z0: float, colour) -> NodePath:
    return _prism([(-w / 2, z0), (w / 2, z0), (w / 2, z0 + h), (-w / 2, z0 + h)], d, colour)


def chapel(z0: float) -> NodePath:
    """A cloister's church standing on the tile's north half (mm, the tile's centre at the origin): a whitewashed
    nave under a red gabled roof and a bell tower with its spire; the monk's place in front of it stays clear."""
    wall = (*CLOISTER_WALL, 1.0)
    roof = (*CLOISTER, 1.0)
    root = NodePath("chapel")
    nave = _block(8.0, 16.0, 5.0, z0, wall)            # 8 mm deep (north-south), 16 mm long (east-west)
    nave.setH(90)
    nave.setPos(1.5, 10.0, 0)
    nave.reparentTo(root)
    gable = _prism([(-4.6, z0 + 5.0), (4.6, z0 + 5.0), (0.0, z0 + 8.5)], 17.0, roof)
    gable.setH(90)
    gable.setPos(1.5, 10.0, 0)
    gable.reparentTo(root)
    tower = _block(5.5, 5.5, 9.0, z0, wall)
    tower.setPos(-8.5, 10.0, 0)
    tower.reparentTo(root)
    spire = _prism([(-3.0, z0 + 9.0), (3.0, z0 + 9.0), (0.0, z0 + 13.0)], 5.8, roof)
    spire.setPos(-8.5, 10.0, 0)
    spire.reparentTo(root)
    return root


@model("ccs_tile")
def build_tile(pose: Pose) -> NodePath:
    atl = atlas()
    art = pose.get("art")
    face = atl.cell(tuple(art)) if art is not None else 1
    root = NodePath("ccs_tile")
    _tile_geom(atl.uv(face), atl.uv(1), atl.uv(0)).reparentTo(root)
    if art is not None and "k" in art and "t" not in art:
        chapel(size("ccs_tile").h).reparentTo(root)
    root.setTexture(atl.texture)
    return root


@model("meeple")
def build_meeple(pose: Pose) -> NodePath:
    s = size("meeple")
    colour = player_colour(int(pose.get("player", 1)) - 1)
    root = NodePath("meeple")
    for part in meeple_outline():
        _prism(part, s.d, colour).reparentTo(root)
    root.setTexture(atlas().texture)      # the same texture as the tiles: one render state, fewer batches
    return root


@model("tower_piece")
def build_tower_piece(pose: Pose) -> NodePath:
    """One storey; the top one carries four corner battlements within the storey's height."""
    s = size("tower_piece")
    colour = PIECE_COLOURS.get(pose.get("colour", "normal"), PIECE_COLOURS["normal"])
    dark = (colour[0] * 0.7, colour[1] * 0.7, colour[2] * 0.7, 1)
    root = NodePath("tower_piece")
    top = bool(pose.get("top", False))
    body_h = s.h - 3.0 if top else s.h
    box(s.w, s.d, body_h - 0.8, colour, bevel=0.6).reparentTo(root)
    box(s.w + 0.4, s.d + 0.4, 0.8, dark, z0=body_h - 0.8).reparentTo(root)    # a course line between storeys
    if top:
        for mx in (-1, 1):
            for my in (-1, 1):
                merlon = box(5.0, 5.0, 3.0, colour, z0=body_h)
                merlon.setPos(mx * (s.w / 2 - 2.5), my * (s.d / 2 - 2.5), 0)
                merlon.reparentTo(root)
    return root


# ---- lit areas: a scored feature's part of a tile ------------------------------------------------------------------
GLOW = np.array((1.0, 0.9, 0.32))
_HALF_POINTS = {"NL": (-0.25, 0.46), "NR": (0.25, 0.46), "EL": (0.46, 0.25), "ER": (0.46, -0.25),
                "SL": (0.25, -0.46), "SR": (-0.25, -0.46), "WL": (-0.46, -0.25), "WR": (-0.46, 0.25), "I": (0.0, -0.12)}
_AREA_TEXTURES: dict[tuple, Texture] = {}


def area_mask(art: tuple[str, ...], words: str) -> np.ndarray:
    """The pixels of a tile face (art at rotation 0) that `words` name: "c:NW" a city's part, "r:ES" a road's,
    "f:NL,NR" the field reaching those half-edges (bounded by the face's cities and roads), "all" the whole face."""
    kind, _, rest = words.partition(":")
    if kind == "c":
        return city_region(rest)
    if kind == "r":
        return road_region(rest, 0.08)
    if kind == "f":
        blocked = np.zeros_like(X, dtype=bool)
        for word in art:
            part = word.split(":")
            if part[0] == "c":
                blocked |= city_region(part[1])
            elif part[0] == "r":
                blocked |= road_region(part[1], 0.03)
        seeds = np.zeros_like(blocked)
        for half in rest.split(","):
            px, py = _HALF_POINTS[half]
            seeds |= np.hypot(X - px, Y - py) < 0.06
        return _flood(~blocked, seeds)
    return np.ones_like(X, dtype=bool)


def _flood(allowed: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """The allowed pixels connected to the seeds (four-neighbour steps)."""
    filled = seeds & allowed
    while True:
        grown = filled.copy()
        grown[1:] |= filled[:-1]
        grown[:-1] |= filled[1:]
        grown[:, 1:] |= filled[:, :-1]
        grown[:, :-1] |= filled[:, 1:]
        grown &= allowed
        if np.array_equal(grown, filled):
            return filled
        filled = grown


def _area_texture(art: tuple[str, ...], words: str) -> Texture:
    key = (art, words)
    tex = _AREA_TEXTURES.get(key)
    if tex is None:
        mask = area_mask(art, words)
        rim = mask & ~_erode(mask, 4)
        img = np.zeros((CELL, CELL, 4))
        img[..., :3] = GLOW
        img[..., 3] = np.where(rim, 1.0, np.where(mask, 0.72, 0.0))
        tex = Texture("lit-area")
        tex.setup2dTexture(CELL, CELL, Texture.T_unsigned_byte, Texture.F_rgba)
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        tex.setRamImageAs(np.ascontiguousarray((img[::-1] * 255 + 0.5).astype(np.uint8)).tobytes(), "RGBA")
        _AREA_TEXTURES[key] = tex
    return tex


@area("ccs_tile")
def build_area(pose: Pose, words: str) -> NodePath | None:
    """A glowing sheet just over the part of a face-up tile that `words` name (see `area_mask`)."""
    art = pose.get("art")
    if art is None or not pose.face_up:
        return None
    s = size("ccs_tile")
    vdata = GeomVertexData("area", GeomVertexFormat.getV3n3c4t2(), Geom.UHStatic)
    v, n = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "normal")
    c, t = GeomVertexWriter(vdata, "color"), GeomVertexWriter(vdata, "texcoord")
    x, y, h = s.w / 2, s.d / 2, s.h + 0.3
    for px, py, tu, tv in ((-x, -y, 0, 0), (x, -y, 1, 0), (x, y, 1, 1), (-x, y, 0, 1)):
        v.addData3(px, py, h)
        n.addData3(0, 0, 1)
        c.addData4(1, 1, 1, 1)
        t.addData2(tu, tv)
    tris = GeomTriangles(Geom.UHStatic)
    tris.addVertices(0, 1, 2)
    tris.addVertices(0, 2, 3)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode("lit-area")
    node.addGeom(geom)
    sheet = NodePath(node)
    sheet.setTexture(_area_texture(tuple(art), words))
    sheet.setTransparency(TransparencyAttrib.MAlpha)
    sheet.setDepthWrite(False)
    sheet.setBin("transparent", 10)
    sheet.setShaderInput("unlit", 1.0)         # the glow is a light of its own, not shaded by the sun
    return sheet
