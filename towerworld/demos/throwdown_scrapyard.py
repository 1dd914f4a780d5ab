"""Ziggurat Demolition Throwdown: a row of nested pyramid towers; one is knocked down and its pyramids tumble into
the scrapyard beside the green trios already there.

The Throwdown game is being written in parallel; until its layout lands, the towers are laid out here by hand from
the catalog (pyramid_1/2/3 nested at PYRAMID_NEST_LIFT heights), as the game would show one player's towers.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from towerworld.engine.layout import Layout, Pose, look
from towerworld.engine.pieces import PYRAMID_NEST_LIFT
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

TOWERS = (("red", "red", "red"), ("blue", "yellow", "black"), ("yellow", "red", "blue"), ("black", "black", "yellow"))
SPACING = 45.0
SCRAPYARD = (190.0, 10.0)         # mm: the middle of the scrapyard, right of the towers
TARGET = 1                         # the tower that is attacked


def nest(lay: Layout, name: str, x: float, y: float, colours: tuple[str, str, str]) -> None:
    """A large, a medium and a small pyramid nested upright at (x, y)."""
    z = 0.0
    for pips, colour in zip((3, 2, 1), colours):
        lay.place(f"pyramid:{name}:{pips}", Pose(f"pyramid_{pips}", x, y, z, look=look(colour=colour, pips=pips)))
        z += PYRAMID_NEST_LIFT[pips] if pips > 1 else 0.0


def throwdown_layout() -> Layout:
    lay = Layout()
    for i, colours in enumerate(TOWERS):
        nest(lay, f"tower{i}", -1.5 * SPACING + i * SPACING, 0.0, colours)
    sx, sy = SCRAPYARD
    for i in range(2):                 # the scrapyard starts with the players' green trios, lying apart
        for j, pips in enumerate((3, 2, 1)):
            lay.place(f"pyramid:scrap{i}:{pips}", Pose(f"pyramid_{pips}", sx - 20 + 40 * i, sy - 35 + 32 * j, 0.0,
                                                      heading=20.0 * j, look=look(colour="green", pips=pips)))
    return lay


def knock(pips: int, speed: float):
    """Throw the attacked tower's pyramid of `pips` toward a spot in the scrapyard, tumbling."""
    def act(world: World, rng: random.Random) -> None:
        sx, sy = SCRAPYARD
        target = (sx + rng.uniform(-25, 25), sy + rng.uniform(-30, 30), 0.0)
        world.wake()
        world.launch_toward(f"pyramid:tower{TARGET}:{pips}", target, flight=speed,
                            spin=(rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(-4, 4)))
    return act


@dataclass
class ThrowdownScrapyard(Demo):
    name: str = "throwdown-scrapyard"
    summary: str = "a Throwdown pyramid tower knocked down, its pyramids tumbling into the scrapyard"
    seconds: float = 5.0
    heading: float = -10.0
    pitch: float = 30.0
    zoom: float = 0.9

    def build(self) -> Layout:
        return throwdown_layout()

    def script(self, rng):
        # top down, as damage is dealt: the small, the medium, then the large
        return [(0.6, knock(1, 0.32)), (1.3, knock(2, 0.34)), (2.0, knock(3, 0.36))]


DEMO = ThrowdownScrapyard()
