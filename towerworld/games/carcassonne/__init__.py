"""Carcassonne with The Tower and the Black Tower (seed 003). See docs/rules/carcassonne.md."""
from .game import Carcassonne

GAME = Carcassonne()

__all__ = ["GAME", "Carcassonne"]
