"""Double-six dominoes with real pips, and the 6x6 foundation map they are built on.

domino: 50.8 x 25.4 x 8 ivory tile, a black centre line and black pips on both halves (look a = the half at local -x,
b = the half at +x); the back is plain with a brass spinner. Look `tier` (0, 1, 2: the level of a built structure the
domino stands on) tints the body ivory, warm sand or pale terracotta, so that a domino lying on another reads as a
layer of its own rather than one white block; the pips stay black on all three.

domino_map: a 152.4 mm square card with the 6x6 one-inch grid, the outlines of the middle (b2-e5) and top (c3-d4)
tiers, and the cell names in a corner of each cell.
"""
from __future__ import annotations

from panda3d.core import NodePath

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import model
from towerworld.scene.components.shapes import INK, IVORY, box, cylinder, disc, text

BRASS = (0.72, 0.58, 0.25, 1)
PAPER = (0.95, 0.92, 0.84, 1)
GRID = (0.35, 0.28, 0.2, 1)
CELL_NAME = (0.55, 0.47, 0.38, 1)
TIER_LINE = ((0.55, 0.2, 0.12, 1), (0.65, 0.15, 0.1, 1))
SAND = (0.9, 0.76, 0.52, 1)
TERRACOTTA = (0.88, 0.58, 0.44, 1)
TIER_BODY = (IVORY, SAND, TERRACOTTA)     # by look `tier`, bottom to top: each light enough for black pips

PIP_OFFSET = 6.6   # mm from a half's centre to its outer pips
PIP_R = 2.25

PIPS = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def pip_positions(value: int, cx: float) -> list[tuple[float, float]]:
    """Pip centres (x, y) of one half centred at (cx, 0)."""
    return [(cx + i * PIP_OFFSET, j * PIP_OFFSET) for i, j in PIPS.get(int(value), ())]


@model("domino")
def build_domino(pose: Pose) -> NodePath:
    s = size("domino")
    root = NodePath("domino")
    tier = pose.get("tier")
    body = TIER_BODY[int(tier)] if tier is not None and 0 <= int(tier) < len(TIER_BODY) else IVORY
    box(s.w, s.d, s.h, body, bevel=1.6).reparentTo(root)
    a, b = pose.get("a"), pose.get("b")
    top = s.h + 0.04
    if a is not None and b is not None:
        box(1.3, s.d - 5.0, 0.16, INK, z0=s.h - 0.06).reparentTo(root)     # the centre line
        for value, cx in ((a, -s.w / 4), (b, s.w / 4)):
            for x, y in pip_positions(value, cx):
                disc(PIP_R, INK, top, centre=(x, y), segments=16).reparentTo(root)
    # a brass spinner in the middle of the face (dominoes have one) and a plain back
    cylinder(1.1, 0.12, BRASS, z0=s.h - 0.02, segments=12).reparentTo(root)
    disc(s.d * 0.18, (0.86, 0.83, 0.75, 1), -0.04, segments=20, up=False).reparentTo(root)
    return root


@model("domino_map")
def build_domino_map(pose: Pose) -> NodePath:
    s = size("domino_map")
    root = NodePath("domino_map")
    box(s.w, s.d, s.h, PAPER).reparentTo(root)
    cell = s.w / 6
    z = s.h
    for i in range(7):
        width = 1.2 if i in (0, 6) else 0.6
        off = -s.w / 2 + i * cell + (width / 2 if i == 0 else -width / 2 if i == 6 else 0)   # borders stay on the card
        box(width, s.d, 0.06, GRID, z0=z).reparentTo(root)
        root.getChildren()[-1].setX(off)
        box(s.w, width, 0.06, GRID, z0=z).reparentTo(root)
        root.getChildren()[-1].setY(off)
    # outlines of the centred 4x4 and 2x2 squares: the upper tiers stand there
    for k, cells in enumerate((4, 2)):
        half = cells * cell / 2
        for sign in (-1, 1):
            box(1.0, 2 * half, 0.08, TIER_LINE[k], z0=z + 0.01).reparentTo(root)
            root.getChildren()[-1].setX(sign * half)
            box(2 * half, 1.0, 0.08, TIER_LINE[k], z0=z + 0.01).reparentTo(root)
            root.getChildren()[-1].setY(sign * half)
    for c in range(36):
        col, row = c % 6, c // 6
        x = -s.w / 2 + col * cell + 4.2
        y = -s.d / 2 + row * cell + 3.4
        text("abcdef"[col] + str(row + 1), 3.4, CELL_NAME, (x, y, z + 0.1)).reparentTo(root)
    return root
