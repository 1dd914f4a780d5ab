"""What an agent is handed: its seat's view of a match, never the true state.

`View` carries the seat, its observation, its legal moves (when it is to move) and a way to draw states that the seat
cannot tell from the true one (`resample`). For perfect-information games a resample is the state itself, so search
there loses nothing; for secret hands it is the only door to a full state an agent gets.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Protocol

from towerworld.engine.game import Game, Move, State


@dataclass(frozen=True)
class View:
    game: Game
    seat: int
    observation: Hashable
    legal_moves: tuple
    _draw: Callable[[random.Random], State] = field(repr=False, compare=False)

    @classmethod
    def of(cls, game: Game, state: State, seat: int) -> "View":
        """The view of `seat` at `state` (the driver builds these; tests too)."""
        moves = tuple(game.legal_moves(state)) if game.current_player(state) == seat else ()
        return cls(game, seat, game.observation(state, seat), moves,
                   lambda rng: game.resample(state, seat, rng))

    def resample(self, rng: random.Random) -> State:
        """A full state consistent with everything this seat knows, hidden parts drawn from `rng`."""
        return self._draw(rng)


class Agent(Protocol):
    """Chooses a move for its seat. `choose` is called only when the view's seat is to move."""
    name: str

    def choose(self, view: View) -> Move: ...


AgentFactory = Callable[[Game, "int | None", "str | None"], Any]
