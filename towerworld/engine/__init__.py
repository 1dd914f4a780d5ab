"""Pure-Python core: the game contract, matches, records, the piece catalog and layouts. Never imports panda3d."""
from towerworld.engine.game import (CHANCE, TERMINAL, BadNotation, BadOption, Event, Game, IllegalMove, Option,
                                    TowerworldError, Variant)
from towerworld.engine.layout import Cell, Layout, Pose, look

__all__ = ["CHANCE", "TERMINAL", "BadNotation", "BadOption", "Event", "Game", "IllegalMove", "Option",
           "TowerworldError", "Variant", "Cell", "Layout", "Pose", "look"]
