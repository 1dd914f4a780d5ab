"""A match: one game being played, its history, undo/redo, seeking, and autosave.

Live chance is drawn from OS entropy and never stored (`seed` None); a seed exists only for simulate, tests and
benchmarks, and their records say so. Replaying a record never draws: chance outcomes are moves in the record.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from towerworld.engine.game import CHANCE, TERMINAL, Event, Game, Move, State


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    kind: str = "human"        # "human" or "ai"
    agent: str | None = None   # agent name for ai players ("random", "greedy", "mcts", ...)

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"


@dataclass(frozen=True)
class Ply:
    move: Move
    text: str
    mover: int                 # player index, or CHANCE
    events: tuple[Event, ...]

    @property
    def reveals(self) -> bool:
        return self.mover == CHANCE or any(e.reveals for e in self.events)


class Match:
    SNAPSHOT_EVERY = 32

    def __init__(self, game: Game, options: dict | None = None, players: list[PlayerSpec] | None = None,
                 seed: int | None = None, variant: str | None = None, autosave: str | None = None):
        count = len(players) if players else None
        self.game = game
        self.options, n = game.resolve_options(options, variant, count)
        self.variant = variant
        self.players = list(players) if players else [PlayerSpec(f"Player {i + 1}") for i in range(n)]
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.initial: State = game.new_state(self.options, n)
        self.state: State = self.initial
        self.plies: list[Ply] = []
        self._snapshots: dict[int, State] = {0: self.initial}
        self._redo: list[list[Move]] = []
        self._revealed: dict[int, Move] = {}   # ply -> a chance outcome already seen there, kept across undo
        self.autosave_path = autosave
        self.save_error: str | None = None     # the latest failed save, as a sentence (play goes on unsaved)
        self.created: str | None = None

    # ---- playing ------------------------------------------------------------------------------------------------------
    @property
    def vs_ai(self) -> bool:
        return any(p.is_ai for p in self.players)

    @property
    def current_player(self) -> int:
        return self.game.current_player(self.state)

    @property
    def over(self) -> bool:
        return self.current_player == TERMINAL

    def apply(self, move: Move, *, save: bool = True, keep_redo: bool = False) -> list[Event]:
        """Apply a legal move (decision or chance outcome); IllegalMove otherwise. Clears redo unless told not to."""
        mover = self.game.current_player(self.state)
        new_state, events = self.game.apply(self.state, move)     # first: a malformed move is refused, not formatted
        text = self.game.format_move(self.state, move)
        self._push(Ply(move, text, mover, tuple(events)), new_state)
        if not keep_redo:
            self._redo.clear()
        if save:
            self.autosave()
        return events

    def apply_text(self, text: str, *, save: bool = True) -> list[Event]:
        return self.apply(self.game.parse_move(self.state, text), save=save)

    def next_chance(self, rng: random.Random) -> Move:
        """The chance outcome at this ply: one already revealed here before an undo if it is still possible (undo
        never re-rolls a die), else a fresh draw from `rng`."""
        kept = self._revealed.get(len(self.plies))
        if kept is not None and kept in {m for m, _ in self.game.chance_outcomes(self.state)}:
            return kept
        return self.game.sample_chance(self.state, rng)

    def _push(self, ply: Ply, new_state: State) -> None:
        self.plies.append(ply)
        self.state = new_state
        if len(self.plies) % self.SNAPSHOT_EVERY == 0:
            self._snapshots[len(self.plies)] = new_state

    # ---- undo / redo --------------------------------------------------------------------------------------------------
    def _undo_target(self) -> int | None:
        """The ply count undo returns to, or None when undo is not allowed now.

        Against an AI: back to the last decision a person made (chance outcomes revealed since are kept for when play
        comes back to them). Between people: the player to move may take back their own latest move while nobody else
        has acted since and it revealed nothing (no chance outcome, no face-down piece turned up); never another's.
        """
        if not self.plies:
            return None
        if self.vs_ai:
            for i in range(len(self.plies) - 1, -1, -1):
                mover = self.plies[i].mover
                if mover >= 0 and not self.players[mover].is_ai:
                    return i
            return None
        last = self.plies[-1]
        alone = len(self.players) == 1       # a solitaire: the one person may take back any move that hid nothing
        if last.reveals or last.mover < 0 or not (alone or last.mover == self.current_player):
            return None
        return len(self.plies) - 1

    def can_undo(self) -> bool:
        return self._undo_target() is not None

    def why_no_undo(self) -> str:
        if not self.plies:
            return "Nothing to undo yet."
        if self.vs_ai:
            return "There is no move of yours to take back."
        if self.plies[-1].reveals:
            return "That move revealed hidden information, so it cannot be taken back."
        return "Only your own last move can be taken back, and only before anyone else has acted."

    def undo(self) -> bool:
        target = self._undo_target()
        if target is None:
            return False
        undone = [p.move for p in self.plies[target:]]
        for i in range(target, len(self.plies)):
            if self.plies[i].mover == CHANCE:
                self._revealed[i] = self.plies[i].move
        self.truncate(target)
        self._redo.append(undone)
        self.autosave()
        return True

    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> bool:
        if not self._redo:
            return False
        chunk = self._redo.pop()
        for move in chunk:
            self.apply(move, save=False, keep_redo=True)
        self.autosave()
        return True

    def truncate(self, ply: int) -> None:
        """Forget every ply after `ply` (undo, and workers following a table that took moves back)."""
        self.state = self.state_at(ply)
        del self.plies[ply:]
        for k in [k for k in self._snapshots if k > ply]:
            del self._snapshots[k]

    # ---- seeking (replay) --------------------------------------------------------------------------------------------
    def state_at(self, ply: int) -> State:
        """The state after `ply` plies, rebuilt from the nearest snapshot."""
        if not 0 <= ply <= len(self.plies):
            raise IndexError(f"ply {ply} is outside 0..{len(self.plies)}")
        if ply == len(self.plies):
            return self.state
        base = max(k for k in self._snapshots if k <= ply)
        state = self._snapshots[base]
        for p in self.plies[base:ply]:
            state, _ = self.game.apply_unchecked(state, p.move)
        return state

    # ---- saving ----------------------------------------------------------------------------------------------------------
    def autosave(self) -> bool:
        """Save to the autosave path, if any. A failure (disk full, read-only folder) never stops play: it is kept
        as a sentence in `save_error` for the table to show, and the next move tries again."""
        if not self.autosave_path:
            return True
        from towerworld.engine.record import save_match
        try:
            save_match(self, self.autosave_path)
        except OSError as e:
            self.save_error = f"Could not save to {self.autosave_path}: {e.strerror or e}."
            return False
        self.save_error = None
        return True

    def result_text(self) -> str:
        return self.game.result(self.state) if self.over else "in progress"
