"""A finished Ziggurat (28 dominoes on three tiers, from a record the solver won) on its map, shaken harder and
harder until dominoes slide off the tiers."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Layout
from towerworld.engine.record import load_match
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

RECORD = os.path.join(os.path.dirname(__file__), "ziggurat-finished.tower.json")
SHAKE_HZ = 3.5
SHAKE_START, SHAKE_MAX_AT, SHAKE_MAX = 0.8, 7.0, 7.0     # seconds, seconds, mm of sway


def shake_offset(t: float) -> tuple[float, float]:
    """The map's sideways sway (mm) at time t: growing, mostly along x with a little y."""
    if t <= SHAKE_START:
        return 0.0, 0.0
    amp = SHAKE_MAX * min(1.0, (t - SHAKE_START) / (SHAKE_MAX_AT - SHAKE_START))
    phase = 2 * math.pi * SHAKE_HZ * (t - SHAKE_START)
    return amp * math.sin(phase), 0.35 * amp * math.sin(1.3 * phase)


@dataclass
class ZigguratShake(Demo):
    name: str = "ziggurat-shake"
    summary: str = "a finished Ziggurat shaken until dominoes slide off its tiers"
    seconds: float = 9.0
    pitch: float = 30.0
    zoom: float = 1.1
    focus: tuple = (0.0, 0.0, 10.0)

    def build(self) -> Layout:
        match = load_match(RECORD)
        lay = match.game.layout(match.state, OMNISCIENT)
        lay.labels.clear()
        lay.cells.clear()
        return lay

    def prepare(self, world: World) -> None:
        world.set_kinematic("map")
        self.rest = world.centre("map")
        world.wake()

    def control(self, world: World, t: float) -> None:
        dx, dy = shake_offset(t)
        x, y, z = self.rest
        world.move_kinematic("map", (x + dx, y + dy, z), (0, 0, 0))


DEMO = ZigguratShake()
