"""K'Dak's tower crumbling: tiles are pulled out of its lower storeys, one after another, until it falls."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Layout
from towerworld.engine.pieces import size
from towerworld.engine.registry import get_game
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

TILE = size("pp_tile")
LEVELS = 6
PULL_SPEED = 2600.0         # mm/s: a flick; the storeys above press a slower tile back (friction ~5 g of braking)


def tower_layout() -> Layout:
    """The game's start layout with both pawns standing on the top storey (columns a and c), as if they had climbed."""
    game = get_game("kdak")
    lay = game.layout(game.new_state(), OMNISCIENT)
    top = LEVELS * TILE.h
    tops = [pose for pose in lay.pieces.values() if pose.kind == "pp_tile" and abs(pose.z - (LEVELS - 1) * TILE.h) < 0.1]
    columns = sorted(((t.x, t.y) for t in tops), key=lambda xy: (-xy[1], xy[0]))   # a (back left) first
    for p, (x, y) in zip((0, 1), (columns[0], columns[-1])):
        lay.pieces[f"pawn:{p}"] = replace(lay.pieces[f"pawn:{p}"], x=x, y=y, z=top)
    lay.labels.clear()          # the storey labels read well at the table, not in a collapse
    return lay


def tower_tiles(world: World, below: float) -> list[str]:
    """Tiles still in the tower (near its axis) whose bottom is under `below` mm, by id."""
    out = []
    for pid, kind in sorted(world.kinds.items()):
        if kind != "pp_tile":
            continue
        p = world.pose(pid)
        if abs(p.x) < TILE.w and abs(p.y) < TILE.w and p.z < below:
            out.append(pid)
    return out


def pull(world: World, rng: random.Random) -> None:
    """Flick one tile of the lowest three storeys straight out of the tower, away from its centre."""
    tiles = tower_tiles(world, 2.5 * TILE.h)
    if not tiles:
        return
    pid = tiles[rng.randrange(len(tiles))]
    p = world.pose(pid)
    d = math.hypot(p.x, p.y) or 1.0
    world.wake()
    world.push(pid, (PULL_SPEED * p.x / d, PULL_SPEED * p.y / d, 0.0), (0.0, 0.0, rng.uniform(-2, 2)))


def shove(world: World, rng: random.Random) -> None:
    """A hand brushes the top of what still stands."""
    world.wake()
    for pid in tower_tiles(world, 99 * TILE.h):
        p = world.pose(pid)
        if p.z > 1.5 * TILE.h:
            world.push(pid, (300.0 + 25.0 * p.z, 100.0, 0.0))     # faster higher up: the top goes first


@dataclass
class KDakCollapse(Demo):
    name: str = "kdak-collapse"
    summary: str = "K'Dak's tower, both pawns on top, crumbling as tiles are pulled from its lower storeys"
    seconds: float = 9.0
    pitch: float = 24.0
    zoom: float = 0.75
    focus: tuple = (0.0, -20.0, 15.0)

    def build(self) -> Layout:
        return tower_layout()

    def script(self, rng):
        return [(0.8 + 0.8 * i, pull) for i in range(7)] + [(6.6, shove)]


DEMO = KDakCollapse()
