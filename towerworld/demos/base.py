"""What every physics demo is: a start layout from a game, a script of pushes and pulls, and a runner that steps
Bullet deterministically (the same seed gives the same poses to the last bit on one machine)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from towerworld.engine.layout import Layout
from towerworld.scene.physics import SUBSTEPS, World, overlapping, steps_for

Action = Callable[[World, random.Random], None]


@dataclass
class Demo:
    """One demo. Subclasses give the layout (`build`), timed actions (`script`) and continuous motion (`control`,
    called every SUBSTEPS steps, for a box being tipped or shaken)."""
    name: str = ""
    summary: str = ""
    seconds: float = 8.0          # how long it runs (and how long a video of it lasts)
    heading: float = -25.0        # the default camera
    pitch: float = 30.0
    zoom: float = 1.0             # < 1 frames closer than the whole layout
    focus: tuple[float, float, float] | None = None   # look here (mm) instead of at the layout's middle

    def build(self) -> Layout:
        raise NotImplementedError

    def script(self, rng: random.Random) -> list[tuple[float, Action]]:
        return []

    def prepare(self, world: World) -> None:
        """Set up bodies before the first step (make a box kinematic)."""

    def control(self, world: World, t: float) -> None:
        """Move kinematic bodies for the time `t` (seconds)."""


@dataclass
class DemoRun:
    """A demo under way: its world, its clock and the actions still to come."""
    demo: Demo
    seed: int = 1
    layout: Layout = field(init=False)
    world: World = field(init=False)
    pending: list = field(init=False)

    def __post_init__(self):
        self.restart()

    def restart(self) -> None:
        self.layout = self.demo.build()
        self.world = World(self.layout, skip=overlapping(self.layout))
        self.rng = random.Random(self.seed)
        self.pending = sorted(self.demo.script(self.rng), key=lambda a: a[0])
        self.demo.prepare(self.world)

    @property
    def time(self) -> float:
        return self.world.time

    @property
    def done(self) -> bool:
        return self.world.time >= self.demo.seconds - 1e-9

    def advance_to(self, seconds: float) -> None:
        """Step up to `seconds`: actions and kinematic control run at every SUBSTEPS-step boundary, so the steps taken
        do not depend on how the caller slices time (frame rate, slow motion)."""
        target = steps_for(min(seconds, self.demo.seconds))
        w = self.world
        while w.steps < target:
            if w.steps % SUBSTEPS == 0:
                t = w.time
                while self.pending and self.pending[0][0] <= t + 1e-9:
                    _, action = self.pending.pop(0)
                    action(w, self.rng)
                self.demo.control(w, t)
            w.step(min(SUBSTEPS - w.steps % SUBSTEPS, target - w.steps))

    def run(self) -> None:
        self.advance_to(self.demo.seconds)
