"""Ziggurat (Tom Gale, 2007): domino solitaire building a three-tier ziggurat with the fewest cheats.

`GAME` is the registered game; its `hint(state, viewer)` is the move the fair player rates best from what the viewer
may know.
"""
from towerworld.games.ziggurat.game import Ziggurat

GAME = Ziggurat()

__all__ = ["GAME", "Ziggurat"]
