"""Terrain: earthy terrain tiles, the box with its ocean floor, and fish / dragon / samurai pieces.

terrain: a 40 x 40 x 8 bevelled tile; its colour follows its layer (look `layer`: the bottom layer is dark rock, then
brown earth, ochre, olive, grass, pale grass, snow) with a slight per-tile tone (look `tone`), so a stack's height reads
from its top colour at a glance. elev_box: the box interior is the 6x6 board: a sea-blue floor (the "ocean") with
wooden walls around it and a faint grid. elev_piece (look piece, side): a base disc in the side's colour under a body
with a silhouette of its own, facing +y (the stage turns player 2's pieces round):
  fish    a low flat body with a forked tail fin and a dorsal fin (about 14 mm tall);
  dragon  an upright body and neck, two swept wings spread wide, a head with two horns (the tallest, about 30 mm);
  samurai a robed figure with a round head, a wide helmet brim and a tall golden V crest (about 30 mm).
"""
from __future__ import annotations

from panda3d.core import NodePath

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import model
from towerworld.scene.components.shapes import INK, box, cylinder, disc, player_colour, polygon, shade, sphere

LAYER_COLOURS = [
    (0.33, 0.29, 0.27, 1),    # 0 rock
    (0.47, 0.34, 0.22, 1),    # 1 earth
    (0.63, 0.49, 0.28, 1),    # 2 ochre
    (0.55, 0.57, 0.27, 1),    # 3 olive
    (0.38, 0.58, 0.27, 1),    # 4 grass
    (0.56, 0.71, 0.40, 1),    # 5 pale grass
    (0.78, 0.80, 0.74, 1),    # 6 scree
    (0.93, 0.94, 0.96, 1),    # 7+ snow
]
SEA = (0.16, 0.36, 0.55, 1)
SEA_LINE = (0.24, 0.46, 0.66, 1)
WALL = (0.40, 0.27, 0.17, 1)
GOLD = (0.86, 0.70, 0.22, 1)
WHITE = (0.95, 0.95, 0.92, 1)


def layer_colour(layer: int, tone: int = 0) -> tuple:
    base = LAYER_COLOURS[min(int(layer), len(LAYER_COLOURS) - 1)]
    return shade(base, (0.96, 1.0, 1.04)[int(tone) % 3])


@model("terrain")
def build_terrain(pose: Pose) -> NodePath:
    s = size("terrain")
    root = NodePath("terrain")
    colour = layer_colour(pose.get("layer", 0), pose.get("tone", 0))
    box(s.w - 0.6, s.d - 0.6, s.h, shade(colour, 0.82), bevel=1.2).reparentTo(root)
    # a lighter top panel so the surface of every stack reads clearly against the sides below
    box(s.w - 5.0, s.d - 5.0, 0.3, shade(colour, 1.12), z0=s.h - 0.12).reparentTo(root)
    return root


@model("elev_box")
def build_elev_box(pose: Pose) -> NodePath:
    s = size("elev_box")
    root = NodePath("elev_box")
    wall_t, wall_h = 8.0, 14.0
    box(s.w + 2 * wall_t, s.d + 2 * wall_t, s.h, SEA).reparentTo(root)
    for i in range(1, 6):
        off = -s.w / 2 + i * s.w / 6
        box(0.8, s.d, 0.1, SEA_LINE, z0=s.h).reparentTo(root)
        root.getChildren()[-1].setX(off)
        box(s.w, 0.8, 0.1, SEA_LINE, z0=s.h).reparentTo(root)
        root.getChildren()[-1].setY(off)
    for x, y, w, d in ((0, -(s.d + wall_t) / 2, s.w + 2 * wall_t, wall_t),
                       (0, (s.d + wall_t) / 2, s.w + 2 * wall_t, wall_t),
                       (-(s.w + wall_t) / 2, 0, wall_t, s.d),
                       ((s.w + wall_t) / 2, 0, wall_t, s.d)):
        wall = box(w, d, wall_h, WALL, bevel=1.0)
        wall.setPos(x, y, 0)
        wall.reparentTo(root)
    return root


def _base(root: NodePath, colour) -> None:
    cylinder(11.5, 3.0, shade(colour, 0.75), segments=24).reparentTo(root)
    disc(9.0, colour, 3.02, segments=24).reparentTo(root)


def _fish(root: NodePath, colour) -> None:
    body = sphere(1.0, shade(colour, 1.15), rings=8, segments=16)
    body.setScale(6.5, 10.5, 5.0)
    body.setPos(0, 1.0, 8.0)
    body.reparentTo(root)
    # forked tail fin at the back (-y), upright
    for side in (-1, 1):
        fin = box(1.4, 9.0, 7.0, shade(colour, 0.8))
        fin.setPos(0, -13.0, 8.0)
        fin.setHpr(0, side * 35, 0)
        fin.reparentTo(root)
    dorsal = box(1.0, 7.0, 4.0, shade(colour, 0.9))
    dorsal.setPos(0, 0.0, 11.5)
    dorsal.setHpr(0, -15, 0)
    dorsal.reparentTo(root)
    for side in (-1, 1):
        eye = sphere(1.3, WHITE, rings=5, segments=8)
        eye.setPos(side * 4.6, 7.5, 9.3)
        eye.reparentTo(root)
        pupil = sphere(0.7, INK, rings=4, segments=6)
        pupil.setPos(side * 5.4, 8.0, 9.4)
        pupil.reparentTo(root)


def _dragon(root: NodePath, colour) -> None:
    body_c = shade(colour, 1.0)
    cylinder(6.5, 12.0, body_c, z0=3.0, r_top=4.5, segments=16).reparentTo(root)
    neck = cylinder(3.2, 10.0, body_c, segments=12, r_top=2.6)
    neck.setPos(0, 1.5, 13.5)
    neck.setHpr(0, -20, 0)
    neck.reparentTo(root)
    head = sphere(1.0, shade(colour, 1.2), rings=6, segments=12)
    head.setScale(3.6, 5.0, 3.4)
    head.setPos(0, 6.0, 24.5)
    head.reparentTo(root)
    for side in (-1, 1):
        horn = cylinder(1.1, 5.5, GOLD, segments=8, r_top=0.1)
        horn.setPos(side * 2.2, 4.0, 26.5)
        horn.setHpr(0, -25, side * 20)
        horn.reparentTo(root)
        pts = [(side * x, y) for x, y in ((0, 0), (15.0, 7.0), (18.0, -4.0), (10.0, -8.0))]
        holder = NodePath("wing")
        for up in (True, False):
            polygon(pts if side > 0 else pts[::-1], shade(colour, 0.8), z=0, up=up).reparentTo(holder)
        holder.setHpr(0, 0, -side * 35)       # raised, swept up from the back of the body
        holder.setPos(side * 4.0, -1.5, 15.0)
        holder.reparentTo(root)
    tail = cylinder(2.0, 9.0, body_c, segments=8, r_top=0.3)
    tail.setPos(0, -5.0, 5.0)
    tail.setHpr(0, 70, 0)
    tail.reparentTo(root)


def _samurai(root: NodePath, colour) -> None:
    robe = shade(colour, 0.95)
    cylinder(7.0, 13.0, robe, z0=3.0, r_top=4.5, segments=16).reparentTo(root)     # robe
    box(13.0, 5.0, 4.0, shade(colour, 0.7), z0=12.5).reparentTo(root)             # shoulder armour
    sphere(4.0, (0.93, 0.80, 0.66, 1), centre=(0, 0, 20.5), rings=6, segments=12).reparentTo(root)  # face
    cylinder(4.6, 3.2, INK, z0=21.5, r_top=3.2, segments=14).reparentTo(root)       # helmet bowl
    cylinder(7.5, 0.8, INK, z0=21.0, segments=16).reparentTo(root)                  # wide brim
    for side in (-1, 1):                                                             # the V crest
        blade = box(1.2, 1.0, 9.0, GOLD)
        blade.setPos(side * 1.6, 2.5, 24.0)
        blade.setHpr(0, 0, side * 28)
        blade.reparentTo(root)
    sword = box(0.9, 0.9, 16.0, (0.8, 0.8, 0.84, 1), z0=0)
    sword.setPos(5.5, -4.0, 8.0)
    sword.setHpr(0, 0, -15)
    sword.reparentTo(root)


@model("elev_piece")
def build_elev_piece(pose: Pose) -> NodePath:
    kind = pose.get("piece", "samurai")
    colour = player_colour(pose.get("side", 0))
    root = NodePath(f"elev_{kind}")
    _base(root, colour)
    {"fish": _fish, "dragon": _dragon, "samurai": _samurai}.get(kind, _samurai)(root, colour)
    return root
