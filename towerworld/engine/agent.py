"""What an agent is handed: its seat's view of a match, never the true state.

`View` carries the seat, its observation, its legal moves (when it is to move) and a way to draw states that the seat
cannot tell from the true one (`resample`). For perfect-information games a resample is the state itself, so search
there loses nothing; for secret hands it is the only door to a full state an agent gets.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Hashable, Protocol

from towerworld.engine.game import OMNISCIENT, SEES_ALL, SEES_SEAT, BadOption, Game, Move, State


@dataclass(frozen=True)
class View:
    game: Game
    seat: int
    observation: Hashable
    legal_moves: tuple
    _draw: Callable[[random.Random], State] = field(repr=False, compare=False)

    viewer: int = -4       # who is looking: the seat itself, or OMNISCIENT for an oracle (measurement only)

    @classmethod
    def of(cls, game: Game, state: State, seat: int, viewer: int | None = None) -> "View":
        """The view of `seat` at `state` as `viewer` (default: the seat itself) sees it (the driver builds these)."""
        who = seat if viewer is None else viewer
        moves = tuple(game.legal_moves(state)) if game.current_player(state) == seat else ()
        return cls(game, seat, game.observation(state, who), moves,
                   lambda rng: game.resample(state, who, rng), who)

    def resample(self, rng: random.Random) -> State:
        """A full state consistent with everything this seat knows, hidden parts drawn from `rng`."""
        return self._draw(rng)


# the generic agents of the `ai` package, by the names records and the command line use (each game adds its own,
# `Game.agents()`): a record's seats are checked against these without importing `ai`
GENERIC_AGENTS = ("random", "greedy", "mcts", "ismcts")


class Agent(Protocol):
    """The one agent contract: chooses a move for its seat from the seat's View (never the true state). `choose` is
    called only when the view's seat is to move. `sees` says what the driver hands it: SEES_SEAT (its seat's view;
    every agent a person meets) or SEES_ALL (an oracle for measurement, such as a solver that reads the pile: the
    driver shows it everything, and the table never offers it). Agents subclass this class for its defaults."""
    name: str = "agent"
    sees: str = SEES_SEAT

    def choose(self, view: View) -> Move: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class BudgetedAgent(Agent, Protocol):
    """An agent whose level is a budget (AgentSpec.budgeted): `budgeted` is true when the level it was made with is a
    count of simulations or iterations, its clock (`seconds`, None for none) then only guarding a slow machine; a level
    in seconds leaves `budgeted` false (only the clock ends a search)."""
    budgeted: bool
    seconds: float | None


AgentFactory = Callable[[Game, "int | None", "str | None"], Agent]


def decision_moves(view: View) -> tuple[int, list[Move]]:
    """The seat to move and its legal moves; ValueError when the view is not a decision (a caller's bug)."""
    if not view.legal_moves:
        raise ValueError("An agent was asked to move where its seat has no decision.")
    return view.seat, list(view.legal_moves)


def seat_view(agent: Agent, game: Game, state: State) -> View:
    """The view the driver hands `agent` at a decision of the player to move: that seat's, or everything for an
    oracle (`agent.sees == SEES_ALL`)."""
    seat = game.current_player(state)
    return View.of(game, state, seat, OMNISCIENT if agent.sees == SEES_ALL else None)


def ask(agent: Agent, game: Game, state: State) -> Move:
    """The agent's move for the player to move at `state`, chosen from that seat's view."""
    return agent.choose(seat_view(agent, game, state))


def parse_budget(level, levels: dict, default: str, what: str,
                 unit: str) -> tuple[float | None, int | None]:
    """(seconds or None for no clock, a count of simulations or iterations or None for no cap) for a level: a name
    in `levels` (mapping to that pair), a count such as "500it" (no clock: the choice follows from the seed), or a
    number of seconds; BadOption naming the choices otherwise. Every searching agent reads its level here."""
    if level is None:
        return levels[default]
    if isinstance(level, str) and level in levels:
        return levels[level]
    text = str(level).strip().lower()
    if text.endswith("it") and text[:-2].isdigit() and 0 < int(text[:-2]) <= 10_000_000:
        return None, int(text[:-2])
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 600:
        raise BadOption(f"The {what} level must be one of {', '.join(levels)}, a number of seconds, or a number of "
                        f"{unit} such as 500it, not {str(level)[:40]!r}.")
    return seconds, None
