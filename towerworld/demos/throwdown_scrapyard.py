"""Ziggurat Demolition Throwdown: the game's opening layout (each player's towers of nested pyramids, the green trios
in the scrapyard between them); one tower is knocked down from the top, its pyramids tumbling into the scrapyard."""
from __future__ import annotations

import random
from dataclasses import dataclass

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Layout
from towerworld.engine.registry import get_game
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

TARGET = "blue"                     # the first player's blue tower is attacked
SCRAPYARD_FREE = (95.0, -15.0)      # mm: free table in the scrapyard, beside the green trios lying there
FLIGHT = 0.36                       # seconds in the air: a flick, not a lob

def throwdown_layout() -> Layout:
    game = get_game("throwdown")
    lay = game.layout(game.new_state(), OMNISCIENT)
    lay.labels.clear()
    lay.cells.clear()
    return lay

def knock(pips: int):
    """Throw the attacked tower's pyramid of `pips` into the scrapyard, tumbling."""
    def act(world: World, rng: random.Random) -> None:
        sx, sy = SCRAPYARD_FREE
        target = (sx + rng.uniform(-20, 20), sy + rng.uniform(-30, 30), 0.0)
        pid = f"pyr:{TARGET}:{pips}:0"
        world.wake([pid])
        world.launch_toward(pid, target, flight=FLIGHT,
                            spin=(rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(-4, 4)))
    return act

@dataclass
class ThrowdownScrapyard(Demo):
    name: str = "throwdown-scrapyard"
    summary: str = "a Throwdown pyramid tower knocked down, its pyramids tumbling into the scrapyard"
    seconds: float = 5.0
    heading: float = -15.0
    pitch: float = 38.0
    zoom: float = 1.1
    focus: tuple = (20.0, -75.0, 0.0)

    def build(self) -> Layout:
        return throwdown_layout()

    def script(self, rng):
        # top down, as damage is dealt: the small, the medium, then the large
        return [(0.6, knock(1)), (1.3, knock(2)), (2.0, knock(3))]

DEMO = ThrowdownScrapyard()
