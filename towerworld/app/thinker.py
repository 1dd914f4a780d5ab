"""AI seats think in a worker process, so the table keeps drawing while a search runs (no shared GIL).

`WorkerRunner` is the driver's runner at the table (`start`, `poll`, `cancel`, `close`): one worker process per AI
seat. The worker keeps its own replica of the match, built from the same game, options and players and kept in step
by the moves in notation (plain JSON over a pipe: no pickled states). Asked for a move, it asks its agent through the
driver's own in-process runner (the seat's View, exactly as the driver hands it) and answers the move in notation.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from towerworld.ai import make_agent
from towerworld.engine.driver import Driver, InlineRunner
from towerworld.engine.game import TowerworldError
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game


@dataclass(frozen=True)
class SeatSpec:
    """What the worker needs to rebuild the match and the agent: all plain data."""
    game: str
    options: dict
    variant: str | None
    players: list
    seat: int
    agent: str
    seed: int | None
    level: str | None


def _replica(spec: SeatSpec) -> Match:
    players = [PlayerSpec(p["name"], p["kind"], p.get("agent")) for p in spec.players]
    return Match(get_game(spec.game), options=spec.options, players=players, variant=spec.variant, seed=0)


def _sync(match: Match, moves: list[str]) -> None:
    """Bring the replica to exactly `moves`: keep the common prefix, take back the rest, apply the new ones."""
    common = 0
    while common < min(len(moves), len(match.plies)) and match.plies[common].text == moves[common]:
        common += 1
    if common < len(match.plies):
        match.truncate(common)
    for text in moves[common:]:
        match.apply_text(text, save=False)


def serve(conn, spec: SeatSpec) -> None:
    """The worker's loop: {"moves": [...]} -> {"move": text} or {"error": sentence}; {"stop": true} ends it.
    When the table goes away (closed, killed, Ctrl-C) the worker ends quietly: no traceback on the terminal."""
    try:
        os.nice(19)         # the table's frames come first: a search gives way to drawing on a busy machine
    except (AttributeError, OSError):
        pass
    try:
        _serve(conn, spec)
    except (BrokenPipeError, EOFError, OSError, KeyboardInterrupt):
        pass


def _serve(conn, spec: SeatSpec) -> None:
    try:
        match = _replica(spec)
        runner = InlineRunner({spec.seat: make_agent(spec.agent, match.game, seed=spec.seed, level=spec.level)})
        replica = Driver(match, frozenset({spec.seat}), runner=runner)
    except Exception as e:   # reported to the table once, as one sentence
        conn.send_bytes(json.dumps({"error": str(e) or type(e).__name__}).encode())
        return
    while True:
        try:
            msg = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        if msg.get("stop"):
            return
        try:
            _sync(match, msg["moves"])
            runner.start(replica, spec.seat)
            kind, value = runner.poll() or ("error", "the AI gave no answer")
            reply = ({"move": match.game.format_move(match.state, value), "ply": len(match.plies)} if kind == "move"
                     else {"error": str(value)})
        except Exception as e:
            reply = {"error": str(e) or type(e).__name__}
        conn.send_bytes(json.dumps(reply).encode())


class Thinker:
    """One AI seat's worker process. `ask(moves)` starts a search; `poll()` returns None while it thinks, then
    ("move", text) or ("error", sentence)."""

    def __init__(self, spec: SeatSpec):
        import multiprocessing     # 10 ms: loaded on an AI seat's first turn, not on the way to the table's first frame
        ctx = multiprocessing.get_context("spawn")     # a fresh interpreter: no Panda3D state copied into the worker
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=serve, args=(child, spec), daemon=True, name=f"towerworld-ai-{spec.seat}")
        self.process.start()
        child.close()
        self.busy = False

    def ask(self, moves: list[str]) -> None:
        self.conn.send_bytes(json.dumps({"moves": moves}).encode())
        self.busy = True

    def poll(self) -> tuple[str, str] | None:
        if not self.busy:
            return None
        try:
            if not self.conn.poll():
                if not self.process.is_alive():
                    self.busy = False
                    return ("error", "the AI's process stopped")
                return None
            reply = json.loads(self.conn.recv_bytes())
        except (EOFError, OSError):
            self.busy = False
            return ("error", "the AI's process stopped")
        self.busy = False
        return ("move", reply["move"]) if "move" in reply else ("error", reply["error"])

    def close(self) -> None:
        try:
            self.conn.send_bytes(json.dumps({"stop": True}).encode())
        except (OSError, ValueError):
            pass
        self.process.join(timeout=1.0)
        if self.process.is_alive():
            self.process.terminate()
        self.conn.close()


class WorkerRunner:
    """The driver's runner at the table: each AI seat thinks in its own worker process (started on its first turn),
    so the window never waits. `level` is the strength the table was opened with (None: each agent's default)."""

    def __init__(self, level: str | None = None):
        self.level = level
        self.thinkers: dict[int, Thinker] = {}
        self._asked: tuple | None = None          # (driver, seat) of the search under way

    def _thinker(self, match: Match, seat: int) -> Thinker:
        if seat not in self.thinkers:
            players = [{"name": p.name, "kind": p.kind, "agent": p.agent} for p in match.players]
            self.thinkers[seat] = Thinker(SeatSpec(match.game.name, match.options, match.variant, players, seat,
                                                   match.players[seat].agent or "greedy", None, self.level))
        return self.thinkers[seat]

    def start(self, driver: Driver, seat: int) -> None:
        self._thinker(driver.match, seat).ask([p.text for p in driver.match.plies])
        self._asked = (driver, seat)

    def poll(self) -> tuple[str, object] | None:
        if self._asked is None:
            return None
        driver, seat = self._asked
        answer = self.thinkers[seat].poll()
        if answer is None:
            return None
        self._asked = None
        kind, text = answer
        if kind != "move":
            return answer
        try:
            return ("move", driver.match.game.parse_move(driver.match.state, text))
        except TowerworldError as e:     # a worker out of step with the table: the seat stops with the reason
            return ("error", str(e))

    def cancel(self) -> None:
        """The position searched is gone: the searching seat's worker stops, so its answer never arrives (a fresh
        one starts on the seat's next turn); the other seats' workers wait on."""
        if self._asked is not None:
            self.thinkers.pop(self._asked[1]).close()
        self._asked = None

    def close(self) -> None:
        for thinker in self.thinkers.values():
            thinker.close()
        self.thinkers.clear()
        self._asked = None
