"""Plain models for catalog kinds the scene cannot draw yet (the Carcassonne pieces are being modelled by others):
registered only where no component family has a builder, so the real models win as soon as they land."""
from __future__ import annotations

import math

from panda3d.core import NodePath

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene import components
from towerworld.scene.components import shapes as models

COLOURS = {"red": (0.82, 0.12, 0.1, 1), "yellow": (0.95, 0.78, 0.1, 1), "green": (0.15, 0.6, 0.2, 1),
           "blue": (0.12, 0.3, 0.8, 1), "black": (0.1, 0.1, 0.12, 1), "grey": (0.6, 0.6, 0.62, 1),
           "white": (0.92, 0.92, 0.9, 1)}


def _pyramid(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    colour = COLOURS.get(pose.get("colour", "red"), COLOURS["red"])
    body = models.cylinder(s.w / 2 * math.sqrt(2), s.h, colour, segments=4, r_top=0.0)
    body.setH(45)
    body.reparentTo(root)
    return root


def _ccs_tile(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    models.box(s.w, s.d, s.h, (0.45, 0.62, 0.3, 1)).reparentTo(root)
    if pose.get("road"):
        models.box(s.w, 6.0, 0.2, (0.88, 0.84, 0.74, 1), z0=s.h).reparentTo(root)
    if pose.get("city"):
        city = models.box(s.w, s.d / 3, 0.3, (0.72, 0.52, 0.3, 1), z0=s.h)
        city.setY(s.d / 3)
        city.reparentTo(root)
    return root


def _tower_piece(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    colour = COLOURS.get(pose.get("colour", "grey"), COLOURS["grey"])
    if pose.get("colour") == "normal":
        colour = COLOURS["grey"]
    models.box(s.w, s.d, s.h - 1.0, colour, bevel=0.6).reparentTo(root)
    for i in range(4):        # battlements
        merlon = models.box(3.0, 3.0, 1.0, colour, z0=s.h - 1.0)
        merlon.setPos((-1) ** i * (s.w / 2 - 2), (-1) ** (i // 2) * (s.d / 2 - 2), 0)
        merlon.reparentTo(root)
    return root


def _colour(pose: Pose, default: str):
    """A named colour, else the owning player's colour."""
    if pose.get("colour") in COLOURS:
        return COLOURS[pose.get("colour")]
    if pose.get("player") is not None:
        return models.player_colour(int(pose.get("player")) - 1)
    return COLOURS[default]


def _meeple(pose: Pose) -> NodePath:
    s = size(pose.kind)
    root = NodePath(pose.kind)
    colour = _colour(pose, "red")
    models.box(s.w, s.d, s.h * 0.6, colour, bevel=0.8).reparentTo(root)
    models.sphere(s.d / 2, colour, centre=(0, 0, s.h - s.d / 2)).reparentTo(root)
    return root


STAND_INS = {"pyramid_1": _pyramid, "pyramid_2": _pyramid, "pyramid_3": _pyramid, "ccs_tile": _ccs_tile,
             "tower_piece": _tower_piece, "meeple": _meeple}


def register() -> None:
    components.load_families()               # every real model first: a real model is never replaced
    for kind, builder in STAND_INS.items():
        components.BUILDERS.setdefault(kind, builder)
