"""Elevation (seed 004): dig, climb and capture on a 6x6 box of stacked terrain tiles."""
from towerworld.games.elevation.game import Elevation

GAME = Elevation()

__all__ = ["Elevation", "GAME"]
