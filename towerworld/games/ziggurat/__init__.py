"""Ziggurat (Tom Gale, 2007): domino solitaire building a three-tier ziggurat with the fewest cheats.

`GAME` is the registered game; `hint(state)` the move the player agent rates best from what a person can know.
"""
from towerworld.games.ziggurat.game import Ziggurat
from towerworld.engine.agent import ask

GAME = Ziggurat()


def hint(state, budget: float = 0.5):
    """The move the player agent rates best, from the hand, the ziggurat and which dominoes are unseen (never the pile
    order). None when no decision is due."""
    from towerworld.games.ziggurat.solver import Player
    if GAME.current_player(state) != 0:
        return None
    return ask(Player(seed=0, budget=budget), GAME, state)


__all__ = ["GAME", "Ziggurat", "hint"]
