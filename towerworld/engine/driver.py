"""The match driver: the only loop that asks seats for moves.

A seat is a human (the app answers through a callback or by calling `Driver.submit`), an agent (handed its seat's
View, never the true state) or chance (a live random source that is never written anywhere; a seeded source only for
simulate, tests and benchmarks). `Driver.advance` plays chance and agent moves until a human must decide or the game
ends; `play_match` runs a whole game between agents (simulate, ladder, bench, tests).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from towerworld.engine.agent import seat_view
from towerworld.engine.game import CHANCE, TERMINAL, Event, IllegalMove, Move
from towerworld.engine.match import Match


def live_chance() -> random.Random:
    """Chance for live play: OS entropy, never stored, so no file can predict the next roll or draw."""
    return random.SystemRandom()


class AgentFailed(Exception):
    """An agent raised or answered an illegal move; the seat is stopped and the failure reported once."""

    def __init__(self, seat: int, reason: str):
        super().__init__(f"Player {seat + 1}'s AI failed: {reason}")
        self.seat = seat


@dataclass
class Driver:
    """Drives `match`: `agents` maps seat -> agent; every other seat is human. `chance` draws chance outcomes.

    `on_human(seat)` is called (once per decision) when a human seat must decide; the app then calls `submit`.
    """
    match: Match
    agents: dict = field(default_factory=dict)
    chance: random.Random = field(default_factory=live_chance)
    on_human: Callable[[int], None] | None = None
    failed: dict = field(default_factory=dict)     # seat -> the failure sentence (reported once, never retried)

    def to_move(self) -> int:
        return self.match.current_player

    def waiting_for_human(self) -> bool:
        cp = self.to_move()
        return cp >= 0 and cp not in self.agents

    def step(self) -> list[Event] | None:
        """One ply of chance or of an agent; None when a human must decide, the game is over or an agent failed."""
        m = self.match
        cp = m.current_player
        if cp == TERMINAL or cp in self.failed:
            return None
        if cp == CHANCE:
            return m.apply(m.next_chance(self.chance), save=False, keep_redo=True)
        if cp not in self.agents:
            return None
        move = self.ask_agent(cp)
        return self.submit_agent(cp, move)

    def ask_agent(self, seat: int) -> Move:
        """The agent's move at its seat's view (blocking). AgentFailed when it raises."""
        agent = self.agents[seat]
        try:
            return agent.choose(seat_view(agent, self.match.game, self.match.state))
        except Exception as e:   # an agent bug must not take the table down: stop that seat, say it once
            reason = str(e) or type(e).__name__
            self.failed[seat] = reason
            raise AgentFailed(seat, reason) from None

    def submit_agent(self, seat: int, move: Move) -> list[Event]:
        """Apply an agent's answer (computed here or in a worker); AgentFailed for an illegal answer."""
        try:
            return self.match.apply(move, save=False)
        except IllegalMove as e:
            self.failed[seat] = f"it chose an illegal move ({e})"
            raise AgentFailed(seat, self.failed[seat]) from None

    def submit(self, move: Move) -> list[Event]:
        """A human's move (IllegalMove with the rule otherwise)."""
        if not self.waiting_for_human():
            raise IllegalMove("It is not a person's turn.")
        return self.match.apply(move, save=False)

    def advance(self, limit: int | None = None) -> list[Event]:
        """Play chance and agent plies until a human decides or the game ends (at most `limit` plies)."""
        events: list[Event] = []
        plies = 0
        while limit is None or plies < limit:
            step = self.step()
            if step is None:
                break
            events += step
            plies += 1
        if self.waiting_for_human() and self.on_human is not None:
            self.on_human(self.to_move())
        return events


def play_match(match: Match, agents: dict, chance: random.Random | None = None,
               max_plies: int | None = None) -> Match:
    """Play `match` to the end (or `max_plies`) with an agent at every seat; chance from `chance` (seeded for
    reproducible simulations, live otherwise). Returns the match."""
    missing = [i for i in range(len(match.players)) if i not in agents]
    if missing:
        raise ValueError(f"play_match needs an agent at every seat; seats {missing} have none")
    driver = Driver(match, agents, chance if chance is not None else live_chance())
    driver.advance(max_plies)
    return match
