"""The match driver: the only loop that asks seats for moves, and it pulls.

`Driver.pending()` says what is next: a chance outcome to draw, an agent's turn, a person's turn, a seat whose agent
failed, or the end. `Driver.answer(seat, move)` takes the reply for that seat (`CHANCE` for a chance outcome). Nothing
blocks: a window, a server or a script asks `pending()`, arranges the answer (a person clicks, a runner searches, the
chance source draws) and calls `answer`. `Driver.run()` is the synchronous loop for scripts, `simulate`, the ladder,
the bench and tests: it answers chance and agents until a person must decide or the game ends.

Agents are answered by a runner: `InlineRunner` asks the agent in this process (blocking, for scripts),
`ThreadRunner` in an executor's threads (a server), and the app's worker processes
(`towerworld.app.thinker.WorkerRunner`) implement the same calls (`start`, `poll`, `cancel`, `close`).
`Driver.advance()` is the window's step: it answers chance, or starts the runner on an agent's turn and takes its
answer once it comes, and never waits. An agent is handed its seat's View, never the true state. Chance comes from a
live random source that is never written anywhere; a seeded source only for simulate, tests and benchmarks.

The driver's own state (failed seats, the search under way) is written only here: a table that takes moves back or
loads another match says so with `taken_back()` or `load(match)`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from towerworld.engine.agent import seat_view
from towerworld.engine.game import CHANCE, TERMINAL, Event, IllegalMove, Move
from towerworld.engine.match import Match

# What `pending()` can say is next.
CHANCE_DRAW = "chance"      # a chance outcome: `answer(CHANCE, driver.draw())`
AGENT = "agent"             # an agent's turn: hand it to the seat's runner
PERSON = "person"           # a person's turn: wait for their move
FAILED = "failed"           # the seat to move had an agent that failed; nothing more is asked of it
END = "end"                 # the game is over


def live_chance() -> random.Random:
    """Chance for live play: OS entropy, never stored, so no file can predict the next roll or draw."""
    return random.SystemRandom()


class AgentFailed(Exception):
    """An agent raised or answered an illegal move; the seat is stopped and the failure reported once."""

    def __init__(self, seat: int, reason: str):
        super().__init__(f"Player {seat + 1}'s AI failed: {reason}")
        self.seat = seat


@dataclass(frozen=True)
class Pending:
    """What the driver waits for: `kind` is one of CHANCE_DRAW, AGENT, PERSON, FAILED, END; `seat` the seat asked
    (CHANCE for chance, TERMINAL at the end); `ply` the number of plies played so far (a runner's answer for an older
    ply is stale)."""
    kind: str
    seat: int
    ply: int


class Runner(Protocol):
    """Answers an agent's turn without the driver waiting: `start` begins a search at the driver's current state,
    `poll` returns None while it thinks, then ("move", Move) or ("error", sentence) once; `cancel` forgets the search
    under way (its position is gone), so that no answer of it is ever handed over; `close` lets go of everything the
    runner holds (worker processes, replicas of the match); a later `start` begins afresh."""

    def start(self, driver: "Driver", seat: int) -> None: ...

    def poll(self) -> tuple[str, object] | None: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class InlineRunner:
    """Runs agents in this process: `start` asks the agent at once (blocking) and `poll` hands the answer over."""

    def __init__(self, agents: dict):
        self.agents = dict(agents)
        self._answer: tuple[str, object] | None = None

    def start(self, driver: "Driver", seat: int) -> None:
        agent = self.agents[seat]
        try:
            self._answer = ("move", agent.choose(seat_view(agent, driver.match.game, driver.match.state)))
        except Exception as e:   # an agent bug must not take the table down: stop that seat, say it once
            self._answer = ("error", str(e) or type(e).__name__)

    def poll(self) -> tuple[str, object] | None:
        answer, self._answer = self._answer, None
        return answer

    def cancel(self) -> None:
        self._answer = None

    def close(self) -> None:
        self._answer = None


class ThreadRunner:
    """Runs agents in threads of `executor` (a server's event loop keeps serving while a search runs): `start` hands
    the agent its seat's View in a thread, `poll` gives the answer once it is ready. `future` is the search under way,
    for a caller that would rather wait for it than poll (asyncio.wrap_future)."""

    def __init__(self, agents: dict, executor):
        self.agents = dict(agents)
        self.executor = executor
        self.future = None

    def start(self, driver: "Driver", seat: int) -> None:
        agent = self.agents[seat]
        self.future = self.executor.submit(agent.choose, seat_view(agent, driver.match.game, driver.match.state))

    def poll(self) -> tuple[str, object] | None:
        future = self.future
        if future is None or not future.done():
            return None
        self.future = None
        try:
            return ("move", future.result())
        except Exception as e:   # an agent bug must not take the server down: stop that seat, say it once
            return ("error", str(e) or type(e).__name__)

    def cancel(self) -> None:
        """Forget the search under way (one already running ends in its thread; its answer is dropped)."""
        if self.future is not None:
            self.future.cancel()
        self.future = None

    def close(self) -> None:
        self.cancel()


@dataclass
class Driver:
    """Drives `match`. `ai_seats` are the seats answered by a runner; every other seat is a person. `chance` draws
    chance outcomes (live by default). `runner` answers agents when `run()` drives the match; a window passes its
    own runner (worker processes) and polls it from a task."""
    match: Match
    ai_seats: frozenset = frozenset()
    chance: random.Random = field(default_factory=live_chance)
    runner: Runner | None = None
    failed: dict = field(default_factory=dict)     # seat -> the failure sentence (reported once, never retried)
    _asked: tuple | None = field(default=None, repr=False)   # (match, seat, plies, last ply) the runner searches

    @classmethod
    def with_agents(cls, match: Match, agents: dict, chance: random.Random | None = None) -> "Driver":
        """A driver whose `agents` (seat -> agent) are answered in this process."""
        return cls(match, frozenset(agents), chance if chance is not None else live_chance(), InlineRunner(agents))

    # ---- what is next ----------------------------------------------------------------------------------------------
    def pending(self) -> Pending:
        m = self.match
        cp = m.current_player
        ply = len(m.plies)
        if cp == TERMINAL:
            return Pending(END, TERMINAL, ply)
        if cp == CHANCE:
            return Pending(CHANCE_DRAW, CHANCE, ply)
        if cp in self.failed:
            return Pending(FAILED, cp, ply)
        if cp in self.ai_seats:
            return Pending(AGENT, cp, ply)
        return Pending(PERSON, cp, ply)

    def waiting_for_person(self) -> bool:
        return self.pending().kind == PERSON

    @property
    def thinking(self) -> int | None:
        """The agent seat whose runner is searching now (None when no search is under way)."""
        return self._asked[1] if self._asked is not None and self._still_asked() else None

    def _decision(self) -> tuple:
        """Which decision this is: the match, the seat to move, the number of plies and the last ply played (the
        match makes a new Ply each time a move is played, so a position reached again after an undo is another
        decision)."""
        m = self.match
        return (m, m.current_player, len(m.plies), m.plies[-1] if m.plies else None)

    def _still_asked(self) -> bool:
        """Whether the search under way is for the decision at hand (compared by identity: no Ply is compared by
        value on every frame)."""
        if self._asked is None:
            return False
        match, seat, plies, last = self._asked
        now = self._decision()
        return match is now[0] and seat == now[1] and plies == now[2] and last is now[3]

    def draw(self) -> Move:
        """The chance outcome to answer now: one already revealed at this decision (the match keeps them) or a fresh
        draw from the live source."""
        return self.match.next_chance(self.chance)

    # ---- answers ---------------------------------------------------------------------------------------------------
    def answer(self, seat: int, move: Move, *, save: bool = True) -> list[Event]:
        """Apply `move` as the answer of `seat` (CHANCE for a chance outcome). IllegalMove with a sentence when it is
        not that seat's turn or the move breaks a rule; an agent seat's illegal answer stops that seat (AgentFailed)."""
        p = self.pending()
        if p.kind == END:
            raise IllegalMove("The game is over.")
        if seat != p.seat:
            who = "chance" if p.seat == CHANCE else f"Player {p.seat + 1}"
            raise IllegalMove(f"It is not that seat's turn: {who} is to move.")
        if p.kind == FAILED:
            raise IllegalMove(f"Player {seat + 1}'s AI has stopped.")
        if p.kind == AGENT:
            try:
                return self.match.apply(move, save=save)
            except IllegalMove as e:
                self.fail(seat, f"it chose an illegal move ({e})")
        keep = p.kind == CHANCE_DRAW
        return self.match.apply(move, save=save, keep_redo=keep)

    def fail(self, seat: int, reason: str) -> None:
        """Stop `seat`'s agent for good with `reason` (raised once as AgentFailed)."""
        self.failed[seat] = reason
        raise AgentFailed(seat, reason)

    def take_runner_answer(self, seat: int, answer: tuple[str, object], *, save: bool = True) -> list[Event]:
        """Apply a runner's reply for `seat`: ("move", Move) or ("error", sentence) -> AgentFailed."""
        kind, value = answer
        if kind != "move":
            self.fail(seat, str(value))
        return self.answer(seat, value, save=save)

    # ---- the step that never waits (a window's task, a server's room) ----------------------------------------------
    def advance(self, *, save: bool = False) -> list[Event] | None:
        """One step without waiting: draw and answer a chance outcome; on an agent's turn start its runner (once per
        decision) and apply its answer when it has one. The events of the ply played, or None when nothing was played
        (a person is to move, the runner still thinks, the game is over, the seat has stopped). AgentFailed when the
        runner's answer stops the seat."""
        p = self.pending()
        if self._asked is not None and not self._still_asked():
            self._forget()                   # the position searched is gone (a move taken back, another match)
        if p.kind == CHANCE_DRAW:
            return self.answer(CHANCE, self.draw(), save=save)
        if p.kind != AGENT or self.runner is None:
            return None
        if self._asked is None:
            self._asked = self._decision()
            self.runner.start(self, p.seat)
        reply = self.runner.poll()
        if reply is None:
            return None
        self._asked = None
        return self.take_runner_answer(p.seat, reply, save=save)

    def _forget(self) -> None:
        if self._asked is not None and self.runner is not None:
            self.runner.cancel()
        self._asked = None

    def taken_back(self) -> None:
        """Moves were taken back or replayed on the match: a search under way is for a position that is gone, and a
        stopped seat gets another try."""
        self._forget()
        self.failed.clear()

    def load(self, match: Match) -> None:
        """Drive `match` from now on (a game loaded at the table): nothing of the old one carries over, not even the
        runner's workers (they hold replicas of the old match)."""
        self.close()
        self.failed.clear()
        self.match = match

    def close(self) -> None:
        """Stop the search under way and let go of the runner's workers (a runner that has any)."""
        self._forget()
        if self.runner is not None:
            self.runner.close()

    # ---- the synchronous loop (scripts, simulate, ladder, bench, tests) --------------------------------------------
    def run(self, limit: int | None = None, *, save: bool = False) -> list[Event]:
        """Answer chance and agents until a person must decide, an agent fails or the game ends (at most `limit`
        plies). Agents are asked through `runner`, which must answer at once (InlineRunner)."""
        events: list[Event] = []
        plies = 0
        while limit is None or plies < limit:
            kind = self.pending().kind
            if kind != CHANCE_DRAW and (kind != AGENT or self.runner is None):
                break
            played = self.advance()
            if played is None:
                self._forget()
                raise RuntimeError("Driver.run needs a runner that answers at once")
            events += played
            plies += 1
        if save and events:
            self.match.autosave()
        return events


def answer_chance(match: Match, chance: random.Random | None = None, *, save: bool = False) -> list[Event]:
    """Answer chance at `match` until a seat must decide or the game ends; outcomes from `chance`, else the match's
    own source (seeded for simulate and tests, live otherwise). Returns the events."""
    return Driver(match, chance=chance if chance is not None else match.rng).run(save=save)


def play_match(match: Match, agents: dict, chance: random.Random | None = None,
               max_plies: int | None = None) -> Match:
    """Play `match` to the end (or `max_plies`) with an agent at every seat; chance from `chance` (seeded for
    reproducible simulations, live otherwise). Returns the match."""
    missing = [i for i in range(len(match.players)) if i not in agents]
    if missing:
        raise ValueError(f"play_match needs an agent at every seat; seats {missing} have none")
    Driver.with_agents(match, agents, chance).run(max_plies)
    return match
