"""Table-top helpers any game may set beside its components: a score track, markers, a stair of levels, labels.

track (look cells, step, first, per, label_every): a strip of squares, square i labelled (first + i) * per.
marker (look colour): a small disc in a player's colour. level_stair (look steps, rise, run, heights): wooden steps
rising along +y, so whatever stands on step i stands at height heights[i] (i * rise where heights is not given). label (look text, height): words facing the viewer.
"""
from __future__ import annotations

from panda3d.core import NodePath

from towerworld.engine.layout import Pose
from towerworld.engine.pieces import size
from towerworld.scene.components import model
from towerworld.scene.components.shapes import WOOD, box, cylinder, player_colour, text

TRACK_PAPER = (0.86, 0.8, 0.66, 1)
TRACK_SQUARES = ((0.9, 0.85, 0.7, 1), (0.8, 0.72, 0.55, 1))
TRACK_INK = (0.25, 0.18, 0.1, 1)
LABEL_INK = (0.1, 0.1, 0.1, 1)


@model("track")
def build_track(pose: Pose) -> NodePath:
    s = size("track")
    cells = int(pose.get("cells", 10))
    step = float(pose.get("step", s.w / cells))
    first, per, every = int(pose.get("first", 0)), int(pose.get("per", 1)), int(pose.get("label_every", 5))
    root = NodePath("track")
    box(step * cells + 4, s.d, s.h, TRACK_PAPER).reparentTo(root)
    for i in range(cells):
        cx = (i - (cells - 1) / 2) * step
        square = box(step - 1, s.d - 10, 0.2, TRACK_SQUARES[i % 2], z0=s.h)
        square.setX(cx)
        square.reparentTo(root)
        if (first + i) % every == 0:
            text(str((first + i) * per), min(step * 0.7, 8), TRACK_INK, (cx, -s.d * 0.3, s.h + 0.3)).reparentTo(root)
    return root


@model("marker")
def build_marker(pose: Pose) -> NodePath:
    s = size("marker")
    return cylinder(s.w / 2, s.h, player_colour(pose.get("colour", 0)))


@model("label")
def build_label(pose: Pose) -> NodePath:
    return text(str(pose.get("text", "")), float(pose.get("height", 8)), LABEL_INK, facing="viewer")


@model("level_stair")
def build_level_stair(pose: Pose) -> NodePath:
    s = size("level_stair")
    steps, rise, run = int(pose.get("steps", 6)), float(pose.get("rise", 6.35)), float(pose.get("run", 17))
    heights = pose.get("heights") or tuple(i * rise for i in range(steps))
    root = NodePath("level_stair")
    for i in range(1, steps):
        step = box(s.w, run, heights[i], WOOD)
        step.setY((i - (steps - 1) / 2) * run)
        step.reparentTo(root)
    return root
