"""Elevation's box, three tiles deep everywhere with the pieces on their home rows, tipped up by one side until the
terrain stacks slide down against the far wall and spill over it."""
from __future__ import annotations

from dataclasses import dataclass

from panda3d.core import Point3, Quat

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Layout
from towerworld.engine.pieces import size
from towerworld.engine.registry import get_game
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

BOX = size("elev_box")
WALL_T, WALL_H = 8.0, 14.0          # the box's walls as its model draws them (the catalog has only the floor)
PIVOT = (BOX.w / 2 + WALL_T, 0.0, 0.0)   # the box turns about its bottom edge on +x
TIP_START, TIP_END, TIP_MAX = 1.0, 5.0, 30.0   # seconds, seconds, degrees


def _walls() -> list[tuple[str, float, float, float, tuple[float, float, float]]]:
    """(name, w, d, h, centre) of the four walls around the floor."""
    w, d = BOX.w, BOX.d
    z = WALL_H / 2
    return [("wall:front", w + 2 * WALL_T, WALL_T, WALL_H, (0.0, -(d + WALL_T) / 2, z)),
            ("wall:back", w + 2 * WALL_T, WALL_T, WALL_H, (0.0, (d + WALL_T) / 2, z)),
            ("wall:left", WALL_T, d, WALL_H, (-(w + WALL_T) / 2, 0.0, z)),
            ("wall:right", WALL_T, d, WALL_H, ((w + WALL_T) / 2, 0.0, z))]


def tip_angle(t: float) -> float:
    """Degrees the box is tipped at time t: still, then lifted smoothly, then held."""
    if t <= TIP_START:
        return 0.0
    f = min(1.0, (t - TIP_START) / (TIP_END - TIP_START))
    return TIP_MAX * f * f * (3 - 2 * f)


@dataclass
class ElevationTip(Demo):
    name: str = "elevation-tip"
    summary: str = "Elevation's box tipped up by one side until the terrain stacks slide and spill"
    seconds: float = 8.0
    heading: float = -20.0
    pitch: float = 28.0
    zoom: float = 1.7
    focus: tuple = (130.0, -10.0, 20.0)

    def build(self) -> Layout:
        game = get_game("elevation")
        lay = game.layout(game.new_state(), OMNISCIENT)
        lay.labels.clear()
        return lay

    def prepare(self, world: World) -> None:
        world.set_kinematic("elev_box")
        self.rests = {"elev_box": (0.0, 0.0, BOX.h / 2)}
        for name, w, d, h, centre in _walls():
            world.add_box(name, w, d, h, centre)
            world.set_kinematic(name)
            self.rests[name] = centre
        world.wake()

    def control(self, world: World, t: float) -> None:
        angle = tip_angle(t)
        q = Quat()
        q.setHpr((0, 0, angle))
        pivot = Point3(*PIVOT)
        for name, rest in self.rests.items():
            p = pivot + q.xform(Point3(*rest) - pivot)
            world.move_kinematic(name, (p.x, p.y, p.z), (0, 0, angle))


DEMO = ElevationTip()
