"""Carcassonne with The Tower: the landscape of a seeded game, its tallest tower built up from the supply to nine
storeys, topples onto the tiles and followers around it.

The landscape, the followers and the towers come from the game's own layout after a seeded random playout; only the
extra storeys are stacked here (a real tower this tall needs a long game), from tower pieces in the players' supplies.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from functools import lru_cache

from towerworld.ai.simple import RandomAgent
from towerworld.engine.driver import Driver
from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Layout
from towerworld.engine.match import Match
from towerworld.engine.pieces import size
from towerworld.engine.registry import get_game
from towerworld.scene.physics import World
from towerworld.demos.base import Demo

TILE = size("ccs_tile")
PIECE = size("tower_piece")
STOREYS = 9
PLAYOUT_PLIES, PLAYOUT_SEED = 60, 5
TIP_SPIN = 2.2                      # rad/s: the whole tower starts turning over its foot


@lru_cache(maxsize=1)
def _playout_layout() -> Layout:
    game = get_game("carcassonne")
    match = Match(game, seed=PLAYOUT_SEED)
    player = RandomAgent(PLAYOUT_SEED)        # one random player for every seat, chance from the match's seed
    Driver.with_agents(match, dict.fromkeys(range(len(match.players)), player), match.rng).run(PLAYOUT_PLIES)
    return game.layout(match.state, OMNISCIENT)


def tallest_tower(layout: Layout) -> tuple[tuple[float, float], list[str]]:
    """The (x, y) of the tallest tower on the board and its storeys, bottom first."""
    towers: dict[tuple[float, float], list[tuple[float, str]]] = {}
    for pid, pose in layout.pieces.items():
        if pose.kind == "tower_piece" and pose.z >= TILE.h - 0.01:
            towers.setdefault((pose.x, pose.y), []).append((pose.z, pid))
    if not towers:
        return (0.0, 0.0), []
    spot = max(sorted(towers), key=lambda xy: len(towers[xy]))
    return spot, [pid for _z, pid in sorted(towers[spot])]


def tower_layout() -> Layout:
    source = _playout_layout()
    lay = Layout(dict(source.pieces), {}, {})
    (x, y), storeys = tallest_tower(lay)
    supply = sorted(pid for pid, pose in lay.pieces.items() if pose.kind == "tower_piece" and pose.z < TILE.h - 0.01)
    top = TILE.h + PIECE.h * len(storeys)
    for i, pid in enumerate(supply[:max(0, STOREYS - len(storeys))]):
        lay.pieces[pid] = replace(lay.pieces[pid], x=x, y=y, z=top, heading=90.0 * (i % 2))
        top += PIECE.h
    return lay


def tower_storeys(world: World) -> list[str]:
    return [pid for pid, kind in sorted(world.kinds.items()) if kind == "tower_piece"
            and world.pose(pid).z >= TILE.h + PIECE.h - 0.5]


def landscape_centre(layout: Layout) -> tuple[float, float]:
    tiles = [pose for pose in layout.pieces.values() if pose.kind == "ccs_tile"]
    return (sum(t.x for t in tiles) / len(tiles), sum(t.y for t in tiles) / len(tiles)) if tiles else (0.0, 0.0)


def shove(world: World, rng: random.Random) -> None:
    """A sleeve catches the tower: each storey starts moving as if the tower were one body turning about its foot
    toward the middle of the landscape (speed growing with height), so it topples as a column, then breaks up."""
    start = _start_layout()
    (x, y), storeys = tallest_tower(start)
    cx, cy = landscape_centre(start)
    length = math.hypot(cx - x, cy - y) or 1.0
    ux, uy = (cx - x) / length, (cy - y) / length
    world.wake(storeys)     # only the tower: the tall pile of tiles to draw sleeps until something hits it
    for pid in storeys:
        p = world.pose(pid)
        height = p.z + PIECE.h / 2 - TILE.h
        speed = TIP_SPIN * height + rng.uniform(-5, 5)
        # turning toward (ux, uy) about the horizontal axis at right angles to it
        world.push(pid, (speed * ux, speed * uy, 0.0), (-uy * TIP_SPIN, ux * TIP_SPIN, 0.0))


@lru_cache(maxsize=1)
def _start_layout() -> Layout:
    return tower_layout()


@dataclass
class CarcassonneTower(Demo):
    name: str = "carcassonne-tower"
    summary: str = "a Carcassonne tower of stacked tower pieces toppling onto the landscape"
    seconds: float = 5.0
    heading: float = 25.0          # from the front right: the pile of tiles to draw stands out of the way
    pitch: float = 30.0
    zoom: float = 0.55             # the landscape and the tower fill the picture; the supplies and the bag lie outside

    def build(self) -> Layout:
        lay = _start_layout()
        (x, y), _ = tallest_tower(lay)
        cx, cy = landscape_centre(lay)
        # between the tower and the landscape's middle, a tower's height up: the standing tower whole in the picture
        self.focus = ((x + cx) / 2, (y + cy) / 2 + 40.0, 60.0)
        return Layout(dict(lay.pieces), dict(lay.cells), dict(lay.labels))

    def script(self, rng):
        return [(0.7, shove)]


DEMO = CarcassonneTower()
