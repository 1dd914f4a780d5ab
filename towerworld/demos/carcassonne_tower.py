"""Carcassonne with The Tower: a tall tower of stacked tower pieces on a foundation tile topples onto the landscape
around it, scattering the followers standing there.

The Carcassonne table (its layout) is still to come; the landscape here is laid out by hand from the catalog
(ccs_tile, tower_piece, meeple at true sizes), the way the game stacks tower storeys on a foundation.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from towerworld.engine.layout import Layout, Pose, look
from towerworld.engine.pieces import size
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

TILE = size("ccs_tile")
PIECE = size("tower_piece")
STOREYS = 9
GRID = 3                            # rows of landscape; five tiles to a row, the foundation second from the left
FOLLOWERS = (("red", 1, 0), ("blue", 2, 1), ("yellow", 1, 2), ("green", 0, 1), ("black", 2, 2))


def tower_layout() -> Layout:
    lay = Layout()
    for i in range(GRID + 2):
        for j in range(GRID):
            x, y = (i - (GRID + 1) / 2) * TILE.w, (j - (GRID - 1) / 2) * TILE.d
            road = j == 1
            lay.place(f"tile:{i}:{j}", Pose("ccs_tile", x, y, 0.0, look=look(road=road, city=(i + j) % 3 == 0)))
    for s in range(STOREYS):
        # a hand never stacks perfectly: each storey sits a little off the one below
        jitter = ((s * 7) % 3 - 1) * 0.3
        lay.place(f"tower:{s}", Pose("tower_piece", -TILE.w + jitter, 0.0, TILE.h + s * PIECE.h,
                                     heading=(s % 2) * 90.0, look=look(colour="white" if s == STOREYS - 1 else "grey")))
    for colour, i, j in FOLLOWERS:
        x, y = (i - 1) * TILE.w + 6, (j - 1) * TILE.d - 8
        lay.place(f"meeple:{colour}", Pose("meeple", x + TILE.w, y, TILE.h, heading=15.0, look=look(colour=colour)))
    return lay


TIP_SPIN = 2.2                      # rad/s: the whole tower starts turning over its foot, toward the followers


def shove(world: World, rng: random.Random) -> None:
    """A sleeve catches the tower: every storey starts moving as if the tower were one body turning about the
    bottom edge of its foot (speed growing with height), so it topples as a column and then breaks up."""
    world.wake()
    for s in range(STOREYS):
        p = world.pose(f"tower:{s}")
        height = p.z + PIECE.h / 2 - TILE.h
        world.push(f"tower:{s}", (TIP_SPIN * height, rng.uniform(-15, 15), 0.0), (0.0, TIP_SPIN, 0.0))


@dataclass
class CarcassonneTower(Demo):
    name: str = "carcassonne-tower"
    summary: str = "a Carcassonne tower of stacked tower pieces toppling onto the landscape"
    seconds: float = 5.0
    heading: float = -30.0
    pitch: float = 26.0
    zoom: float = 0.85

    def build(self) -> Layout:
        return tower_layout()

    def script(self, rng):
        return [(0.7, shove)]


DEMO = CarcassonneTower()
