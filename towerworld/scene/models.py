"""The old home of the piece models, kept as a name only: everything here lives in `towerworld.scene.components`
(the registry, `build`, the shapes). Branches written before the move still import from here; new code imports from
the components package, and this module goes once nothing imports it.
"""
from towerworld.scene.components import BUILDERS, build, clear_cache, describe, missing_models, model
from towerworld.scene.components.shapes import (IVORY, PLAYER_COLOURS, WOOD, box, cylinder, disc, facets, player_colour,
                                                polygon, shade, sphere, text)

__all__ = ["BUILDERS", "build", "clear_cache", "describe", "missing_models", "model", "IVORY", "PLAYER_COLOURS", "WOOD",
           "box", "cylinder", "disc", "facets", "player_colour", "polygon", "shade", "sphere", "text"]
