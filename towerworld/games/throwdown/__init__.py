"""Ziggurat Demolition Throwdown, by P.D. Magnus (Looney pyramids and the Decktet, 2 to 5 players)."""
from towerworld.games.throwdown.game import ThrowdownGame

GAME = ThrowdownGame()

__all__ = ["GAME", "ThrowdownGame"]
