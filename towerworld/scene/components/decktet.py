"""Decktet cards: each face painted once into a texture (numpy and the bundled font), the backs sharing one.

card (63.5 x 88.9 x 0.3), look: name ("Mountain"), rank ("A", "2".."9", "Crown", "Pawn", "Court", "Excuse") and suits
("moons,suns", of moons, suns, waves, leaves, wyrms, knots). The upper half of a face shows the index in its left
corner (the rank large, a chess crown, pawn or king for the Crown, Pawn and Court, and the suit symbols under it) and
the suit symbols large in the middle; the lower half repeats it turned round, so the card reads from either end; the
name runs across the middle (with the rank's word for the Crown, Pawn and Court). A card with look back (or no name)
is drawn face down all over: a patterned back that names nothing. Every suit has one colour and one symbol drawn in
code: a crescent, a rayed sun, three waves, a leaf, a serpent and a knot. Unknown suit names are left out.

A card is two geoms: its face, and its back with its edges (one texture). Each face is painted once, the first
time it is drawn, into the next free slot of a page of PAGE_COLS x PAGE_ROWS faces (one texture), so the cards whose
faces share a page share their texture too and a hand or a pile flattened together draws a geom per page, not one
per card; the back is painted once.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from panda3d.core import Filename, LColor, NodePath, PNMImage, PNMTextMaker, SamplerState, Texture

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.paths import model_file
from towerworld.scene.components import caption, model
from towerworld.scene.components.shapes import facets

SUITS = ("moons", "suns", "waves", "leaves", "wyrms", "knots")
SUIT_COLOURS = {
    "moons": (0.16, 0.18, 0.38),
    "suns": (0.93, 0.52, 0.03),
    "waves": (0.05, 0.42, 0.78),
    "leaves": (0.16, 0.56, 0.14),
    "wyrms": (0.78, 0.1, 0.1),
    "knots": (0.52, 0.2, 0.6),
}
ORNAMENT = "\u2736"
RANK_INDEX = {"Crown": "\u265b", "Pawn": "\u265f", "Court": "\u265a", "Excuse": ""}
PAPER = (0.93, 0.9, 0.82)
INK = (0.12, 0.1, 0.09)
EDGE = (0.9, 0.88, 0.82, 1)
BACK_FIELD = (0.13, 0.2, 0.42)
BACK_LINE = (0.78, 0.64, 0.3)

FACE_PX = (360, 504)       # texture size, the card's proportions
SUPERSAMPLE = 3            # samples per pixel along each axis for the drawn symbols
EDGE_STRIP = 32            # px of edge colour under the back's picture (enough to survive mipmapping)
BACK_V0 = EDGE_STRIP / (FACE_PX[1] + EDGE_STRIP)   # where the back's picture starts in its texture
NAME_BAND = 64             # px: the band across the middle that carries the name
INDEX_LEFT, INDEX_TOP, INDEX_WIDTH, INDEX_SYMBOL = 16, 18, 76, 38

def suits_of(pose: Pose) -> list[str]:
    return [s for s in str(pose.get("suits", "")).split(",") if s]


def is_back(pose: Pose) -> bool:
    return pose.get("back") is not None or pose.get("name") is None


@caption("card")
def card_caption(pose: Pose) -> str:
    return "" if is_back(pose) else str(pose.get("name"))


# ---- painting -------------------------------------------------------------------------------------------------------
class Canvas:
    """An RGB picture in floats, row 0 at the top; paint() lays colour through a coverage mask (0..1)."""

    def __init__(self, width: int, height: int, colour):
        self.rgb = np.empty((height, width, 3), np.float32)
        self.rgb[:] = colour

    def paint(self, mask: np.ndarray, colour, left: int, top: int) -> None:
        h, w = mask.shape
        x0, y0 = max(left, 0), max(top, 0)
        x1, y1 = min(left + w, self.rgb.shape[1]), min(top + h, self.rgb.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        cover = mask[y0 - top:y1 - top, x0 - left:x1 - left, None]
        region = self.rgb[y0:y1, x0:x1]
        region[:] = region * (1 - cover) + np.asarray(colour[:3], np.float32) * cover

    def rect(self, left: int, top: int, width: int, height: int, colour) -> None:
        self.paint(np.ones((height, width), np.float32), colour, left, top)

    def frame(self, inset: int, thickness: int, colour) -> None:
        h, w = self.rgb.shape[:2]
        self.rect(inset, inset, w - 2 * inset, thickness, colour)
        self.rect(inset, h - inset - thickness, w - 2 * inset, thickness, colour)
        self.rect(inset, inset, thickness, h - 2 * inset, colour)
        self.rect(w - inset - thickness, inset, thickness, h - 2 * inset, colour)

    def texture(self, name: str) -> Texture:
        h, w = self.rgb.shape[:2]
        pixels = (np.clip(self.rgb[::-1], 0, 1) * 255 + 0.5).astype(np.uint8)   # textures store the bottom row first
        tex = Texture(name)
        tex.setup2dTexture(w, h, Texture.T_unsigned_byte, Texture.F_rgb8)
        tex.setRamImageAs(pixels.tobytes(), "RGB")
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        tex.setMagfilter(SamplerState.FT_linear)
        tex.setAnisotropicDegree(8)
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        return tex


def _grid(px: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample points of a px x px square as (u, v) in [-1, 1], v up, SUPERSAMPLE^2 per pixel."""
    n = px * SUPERSAMPLE
    axis = (np.arange(n, dtype=np.float32) + 0.5) / n * 2 - 1
    u, v = np.meshgrid(axis, -axis)
    return u, v


def _coverage(inside: np.ndarray, px: int) -> np.ndarray:
    return inside.reshape(px, SUPERSAMPLE, px, SUPERSAMPLE).mean(axis=(1, 3)).astype(np.float32)


def _near_curve(u, v, xs, ys, radius) -> np.ndarray:
    """Samples of the square grid (u, v) from _grid within `radius` of a curve given as dense points (xs, ys); the
    radius may vary along the curve. Each point only looks at the samples around it."""
    n = u.shape[0]
    inside = np.zeros(u.shape, bool)
    reach = np.broadcast_to(np.asarray(radius, np.float32), np.shape(xs))
    for x, y, r in zip(xs, ys, reach):
        c0, c1 = max(int((x - r + 1) * n / 2) - 1, 0), min(int((x + r + 1) * n / 2) + 2, n)
        r0, r1 = max(int((1 - y - r) * n / 2) - 1, 0), min(int((1 - y + r) * n / 2) + 2, n)
        window = (slice(r0, r1), slice(c0, c1))
        inside[window] |= np.hypot(u[window] - x, v[window] - y) < r
    return inside


def _moon(u, v):
    return (u * u + v * v < 0.88 ** 2) & ((u - 0.42) ** 2 + (v - 0.2) ** 2 > 0.72 ** 2)


def _sun(u, v):
    r = np.hypot(u, v)
    angle = np.mod(np.arctan2(v, u), math.pi / 4) - math.pi / 8
    ray = (r < 0.97) & (np.abs(angle) < 0.3 * (0.97 - r) / 0.5)
    return (r < 0.5) | ray


def _waves(u, v):
    inside = np.zeros(u.shape, bool)
    for row in (-0.55, 0.0, 0.55):
        inside |= (np.abs(v - row - 0.16 * np.sin(u * math.pi * 1.6)) < 0.12) & (np.abs(u) < 0.88)
    return inside


def _leaf(u, v):
    a, b = (u + v) / math.sqrt(2), (v - u) / math.sqrt(2)      # along and across the leaf
    c, r = 0.58, 1.03
    blade = ((b - c) ** 2 + a * a < r * r) & ((b + c) ** 2 + a * a < r * r) & (a > -0.82)
    rib = (np.abs(b) < 0.045) & (a > -0.55) & (a < 0.6)
    stem = (np.abs(b) < 0.07) & (a > -1.08) & (a <= -0.7)
    return (blade & ~rib) | stem


def _serpent_path():
    t = np.linspace(-0.88, 0.5, 70)
    return t, 0.5 * np.sin(t * math.pi * 1.15)


def _wyrm(u, v):
    xs, ys = _serpent_path()
    body = _near_curve(u, v, xs, ys, 0.07 + 0.11 * (xs - xs[0]) / (xs[-1] - xs[0]))
    hx, hy = xs[-1] + 0.18, ys[-1] + 0.06
    head = ((u - hx) / 0.32) ** 2 + ((v - hy) / 0.23) ** 2 < 1
    eye = (u - hx - 0.09) ** 2 + (v - hy - 0.07) ** 2 < 0.065 ** 2
    return (body | head) & ~eye


def _knot(u, v):
    t = np.linspace(0, 2 * math.pi, 240)
    xs = (np.sin(t) + 2 * np.sin(2 * t)) / 3.2
    ys = (np.cos(t) - 2 * np.cos(2 * t)) / 3.2
    ribbon = _near_curve(u, v, xs, ys, 0.13)
    seam = _near_curve(u, v, xs, ys, 0.035)
    return ribbon & ~seam


SYMBOL_SHAPES = {"moons": _moon, "suns": _sun, "waves": _waves, "leaves": _leaf, "wyrms": _wyrm, "knots": _knot}


@lru_cache(maxsize=None)
def symbol(suit: str, px: int) -> np.ndarray:
    """The coverage mask (px x px) of a suit's symbol."""
    u, v = _grid(px)
    return _coverage(SYMBOL_SHAPES[suit](u, v), px)


@lru_cache(maxsize=None)
def _text_maker(px: int) -> PNMTextMaker:
    maker = PNMTextMaker(Filename.fromOsSpecific(model_file("DejaVuSans-Bold.ttf")), 0)
    maker.setPixelSize(px)
    maker.setFg(LColor(1, 1, 1, 1))
    return maker


def text_mask(words: str, px: int, max_width: int | None = None) -> np.ndarray:
    """The coverage mask of `words` in the bundled bold font, `px` tall (one em), shrunk to fit `max_width`."""
    maker = _text_maker(px)
    width = maker.calcWidth(words)
    if max_width is not None and width > max_width:
        return text_mask(words, int(px * max_width / width), None)
    image = PNMImage(width + 4, int(px * 1.3), 1)
    image.fill(0)
    maker.generateInto(words, image, 2, int(px * 0.98))
    tex = Texture()
    tex.load(image)
    grey = np.frombuffer(bytes(tex.getRamImage()), np.uint8).reshape(tex.getYSize(), tex.getXSize())
    return grey[::-1].astype(np.float32) / 255.0


# ---- faces ----------------------------------------------------------------------------------------------------------
def _index(canvas: Canvas, rank: str, suits: list[str]) -> None:
    """The corner index: the rank large and under it the suit symbols, in a column at the left of the half card."""
    index = RANK_INDEX.get(rank, rank)
    y = INDEX_TOP
    if index:
        mask = text_mask(index, 82 if len(index) == 1 else 64)
        canvas.paint(mask, INK, INDEX_LEFT + (INDEX_WIDTH - mask.shape[1]) // 2, y - 8)
        y += 80
    for suit in suits:   # three fit above the name band
        canvas.paint(symbol(suit, INDEX_SYMBOL), SUIT_COLOURS[suit], INDEX_LEFT + (INDEX_WIDTH - INDEX_SYMBOL) // 2, y)
        y += INDEX_SYMBOL + 2


def _centre_symbols(canvas: Canvas, suits: list[str]) -> None:
    """The suits large in the middle column: one big, two on a diagonal, three in a triangle."""
    w, h = canvas.rgb.shape[1], canvas.rgb.shape[0]
    cx, cy = w // 2, INDEX_TOP + (h - INDEX_TOP) // 2
    spots = {1: [((0, 0), 150)], 2: [((-38, -40), 94), ((38, 40), 94)],
             3: [((0, -50), 84), ((-44, 40), 84), ((44, 40), 84)]}.get(len(suits), [])
    for suit, ((dx, dy), px) in zip(suits, spots):
        canvas.paint(symbol(suit, px), SUIT_COLOURS[suit], cx + dx - px // 2, cy + dy - px // 2)
    if not suits:   # the Excuse: an ornament in ink, no suit
        star = text_mask(ORNAMENT, 130)
        canvas.paint(star, INK, cx - star.shape[1] // 2, cy - int(0.62 * 130))


def paint_face(name: str, rank: str, suits: list[str]) -> Canvas:
    """The upper half (index and symbols) is painted once and repeated turned round as the lower half, so the card
    reads from either end; the name runs across the middle."""
    w, h = FACE_PX
    half_h = (h - NAME_BAND) // 2
    half = Canvas(w, half_h, PAPER)
    _index(half, rank, suits)
    _centre_symbols(half, suits)
    canvas = Canvas(w, h, PAPER)
    canvas.rgb[:half_h] = half.rgb
    canvas.rgb[h - half_h:] = half.rgb[::-1, ::-1]
    tint = SUIT_COLOURS[suits[0]] if suits else INK
    band_top = half_h
    canvas.rect(14, band_top + 4, w - 28, NAME_BAND - 8, tuple(0.8 + 0.2 * c for c in tint))
    words = f"{name} \u00b7 {rank}" if rank in ("Crown", "Pawn", "Court") else name
    title = text_mask(words, 46, w - 48)
    em = title.shape[0] / 1.3
    canvas.paint(title, INK, (w - title.shape[1]) // 2, int(band_top + NAME_BAND / 2 - 0.62 * em))  # capitals centred
    canvas.frame(10, 3, INK)
    return canvas


def paint_back() -> Canvas:
    """Every back alike: a gold lattice on deep blue inside a double frame, the six symbols in a ring."""
    w, h = FACE_PX
    canvas = Canvas(w, h, BACK_FIELD)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    lattice = np.abs(np.mod(xs + ys, 36) - 18) < 1.2
    lattice |= np.abs(np.mod(xs - ys, 36) - 18) < 1.2
    canvas.paint(lattice.astype(np.float32) * 0.55, BACK_LINE, 0, 0)
    canvas.frame(8, 6, PAPER)
    canvas.frame(20, 2, BACK_LINE)
    cx, cy = w // 2, h // 2
    disc = ((xs - cx) ** 2 + (ys - cy) ** 2 < 118 ** 2).astype(np.float32)
    canvas.paint(disc, BACK_FIELD, 0, 0)
    ring = (np.abs(np.hypot(xs - cx, ys - cy) - 118) < 3).astype(np.float32)
    canvas.paint(ring, BACK_LINE, 0, 0)
    for i, suit in enumerate(SUITS):
        angle = math.pi / 2 + i * math.pi / 3
        x, y = cx + 76 * math.cos(angle), cy - 76 * math.sin(angle)
        canvas.paint(symbol(suit, 56), BACK_LINE, int(x) - 28, int(y) - 28)
    # below the picture a strip of the edge colour, so that the sides share the back's texture and its geom
    sheet = Canvas(w, h + EDGE_STRIP, EDGE[:3])
    sheet.rgb[:h] = canvas.rgb
    return sheet


PAGE_COLS, PAGE_ROWS = 4, 4      # faces a page holds across and down (4 x 4 faces: 1440 x 2016 px)
SLOT_INSET = 0.5                 # texels: a face's texture coordinates stay this far inside its slot (no bleeding)


class FacePages:
    """The faces painted so far, in pages: one texture for every PAGE_COLS x PAGE_ROWS faces, each face in the next
    free slot of the last page, painted on its first use and kept for the whole process. Every face's border is the
    same paper, so what a far (mipmapped) view blends across a slot's edge is paper into paper."""

    def __init__(self):
        self.pages: list[Texture] = []
        self.mipmaps: list[list[np.ndarray]] = []     # each page's smaller levels, 1 and on (see _shrink)
        self.slots: dict[tuple, tuple[Texture, tuple[float, float, float, float]]] = {}

    def _page(self) -> Texture:
        w, h = FACE_PX
        tex = Texture(f"card-faces:{len(self.pages)}")
        tex.setup2dTexture(w * PAGE_COLS, h * PAGE_ROWS, Texture.T_unsigned_byte, Texture.F_rgb8)
        tex.makeRamImage()
        _pixels(tex)[:] = np.array([int(c * 255 + 0.5) for c in PAPER], np.uint8)
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        tex.setMagfilter(SamplerState.FT_linear)
        tex.setAnisotropicDegree(8)
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        self.pages.append(tex)
        paper = _level(tex, 0, False)
        self.mipmaps.append([np.empty((max(1, paper.shape[0] >> n), max(1, paper.shape[1] >> n), 3), np.uint8)
                             for n in range(1, tex.getExpectedNumMipmapLevels())])
        for mip in self.mipmaps[-1]:
            mip[:] = paper[0, 0]
        return tex

    def face(self, name: str, rank: str, suits: tuple[str, ...]) -> tuple[Texture, tuple[float, float, float, float]]:
        """The page holding this face and the face's (u0, v0, u1, v1) on it, painting it on first use."""
        key = (name, rank, suits)
        found = self.slots.get(key)
        if found is not None:
            return found
        index = len(self.slots) % (PAGE_COLS * PAGE_ROWS)
        page = self._page() if index == 0 else self.pages[-1]
        row, col = divmod(index, PAGE_COLS)
        w, h = FACE_PX
        rgb = np.clip(paint_face(name, rank, list(suits)).rgb, 0, 1) * 255 + 0.5
        # only this slot's pixels are written, in place (the page is sent to the card again as a whole)
        _pixels(page)[row * h:(row + 1) * h, col * w:(col + 1) * w] = rgb.astype(np.uint8)
        _shrink(page, self.mipmaps[self.pages.index(page)], row, col)
        width, height = w * PAGE_COLS, h * PAGE_ROWS
        u0, u1 = (col * w + SLOT_INSET) / width, ((col + 1) * w - SLOT_INSET) / width
        v1, v0 = 1 - (row * h + SLOT_INSET) / height, 1 - ((row + 1) * h - SLOT_INSET) / height
        found = self.slots[key] = (page, (u0, v0, u1, v1))
        return found


def _pixels(tex: Texture) -> np.ndarray:
    """A page as an image, rows from the top, red first: a view of the texture's own memory (stored bottom row first,
    blue first)."""
    return _level(tex, 0, True)[::-1, :, ::-1]


def _level(tex: Texture, n: int, writing: bool) -> np.ndarray:
    """Mipmap level n of a page as stored (bottom row first, blue first), a view of the texture's memory. (Writing
    level 0 drops the smaller levels: they are written after it.)"""
    w, h = max(1, tex.getXSize() >> n), max(1, tex.getYSize() >> n)
    if writing:
        ram = tex.modifyRamImage() if n == 0 else tex.modifyRamMipmapImage(n)
    else:
        ram = tex.getRamImage() if n == 0 else tex.getRamMipmapImage(n)
    return np.asarray(memoryview(ram)).reshape(h, w, 3)


def _halved(image: np.ndarray, h: int, w: int) -> np.ndarray:
    """`image` averaged down to h x w, 2 x 2 texels each (a side one texel long counts twice)."""
    if image.shape[0] == 1:
        image = np.repeat(image, 2, axis=0)
    if image.shape[1] == 1:
        image = np.repeat(image, 2, axis=1)
    a = image[:2 * h, :2 * w].astype(np.uint16)
    return ((a[0::2, 0::2] + a[1::2, 0::2] + a[0::2, 1::2] + a[1::2, 1::2] + 2) // 4).astype(np.uint8)


def _shrink(tex: Texture, mipmaps: list[np.ndarray], row: int, col: int) -> None:
    """The page's smaller levels (`mipmaps`, kept beside it) made again after slot (row, col) was painted, and given
    to the page: the slot's own texels, level by level, while a slot is a whole number of texels (its corner too),
    then the small levels whole. Panda3D sends the levels with the image; without them the driver would make them
    from the whole page, about 25 ms more of Mesa's software renderer a new face."""
    w, h = FACE_PX
    page_h = tex.getYSize()
    levels = [_level(tex, 0, False)] + mipmaps
    n = 1
    while n < len(levels) and (w >> n) << n == w and (h >> n) << n == h:
        sw, sh = w >> n, h >> n
        top = (page_h >> n) - (row + 1) * sh      # stored bottom row first: the slot's first stored row
        above = levels[n - 1][2 * top:2 * (top + sh), 2 * col * sw:2 * (col + 1) * sw]
        levels[n][top:top + sh, col * sw:(col + 1) * sw] = _halved(above, sh, sw)
        n += 1
    for n in range(n, len(levels)):
        levels[n][:] = _halved(levels[n - 1], *levels[n].shape[:2])
    for n, mip in enumerate(mipmaps, 1):
        _level(tex, n, True)[:] = mip


_PAGES: FacePages | None = None


def face_pages() -> FacePages:
    global _PAGES
    if _PAGES is None:
        _PAGES = FacePages()
    return _PAGES


@lru_cache(maxsize=None)
def back_texture() -> Texture:
    return paint_back().texture("card-back")


# ---- the card -------------------------------------------------------------------------------------------------------
def _sheet(w: float, d: float, z: float, up: bool, texture: Texture,
           uv: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> NodePath:
    """A textured rectangle at height z facing up (the face) or down (the back, read once turned over), showing the
    picture at `uv` (u0, v0, u1, v1: its bottom left and top right on the texture)."""
    x, y = w / 2, d / 2
    u0, v0, u1, v1 = uv
    if up:
        points, uvs = [(-x, -y, z), (x, -y, z), (x, y, z), (-x, y, z)], [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
    else:   # turned over about the y axis, the picture must still read the right way round
        points, uvs = [(-x, y, z), (x, y, z), (x, -y, z), (-x, -y, z)], [(u1, v1), (u0, v1), (u0, v0), (u1, v0)]
    sheet = facets([((0.0, 0.0, 1.0 if up else -1.0), points, (1, 1, 1, 1), uvs)], "card-sheet")
    sheet.setTexture(texture)
    return sheet


def _edges(w: float, d: float, h: float) -> NodePath:
    """The four thin sides, coloured from the back texture's edge strip. (No top or bottom of a box: a surface
    0.01 mm under the face would shadow it.)"""
    x, y = w / 2, d / 2
    corners = [(-x, -y), (x, -y), (x, y), (-x, y)]
    faces = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        normal = ((y1 - y0) / (d if y1 != y0 else 1), -(x1 - x0) / (w if x1 != x0 else 1), 0.0)
        faces.append((normal, [(x0, y0, 0.0), (x1, y1, 0.0), (x1, y1, h), (x0, y0, h)], (1, 1, 1, 1),
                      [(0.5, BACK_V0 / 2)] * 4))
    edges = facets(faces, "card-edges")
    edges.setTexture(back_texture())
    return edges


@model("card")
def build_card(pose: Pose) -> NodePath:
    s = size("card")
    root = NodePath("card")
    _edges(s.w, s.d, s.h).reparentTo(root)
    back = (0.0, BACK_V0, 1.0, 1.0)
    if is_back(pose):
        _sheet(s.w, s.d, s.h, True, back_texture(), back).reparentTo(root)
    else:
        suits = tuple(x for x in suits_of(pose) if x in SUIT_COLOURS)
        page, uv = face_pages().face(str(pose.get("name")), str(pose.get("rank", "")), suits)
        _sheet(s.w, s.d, s.h, True, page, uv).reparentTo(root)
    _sheet(s.w, s.d, 0.0, False, back_texture(), back).reparentTo(root)
    return root
