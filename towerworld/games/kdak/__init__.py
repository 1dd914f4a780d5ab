"""K'Dak's Tower of Confusion (and Camel Wash), by Jim Adams and Amy Enge (piecepack, 2004)."""
from towerworld.games.kdak.game import KDakGame

GAME = KDakGame()

__all__ = ["GAME", "KDakGame"]
