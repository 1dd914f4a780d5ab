"""A match: one game being played, its history, undo/redo, seeking, and autosave (the record it writes).

Live chance is drawn from OS entropy and never stored (`seed` None); a seed exists only for simulate, tests and
benchmarks, and their records say so. Replaying a record never draws: chance outcomes are moves in the record.

What is revealed stays revealed: a chance outcome once shown is kept under what it revealed (`Game.reveal_key`: a
K'Dak tile, or else the decision itself) when its move is taken back, so the same decision shows it again, and a thing
that exists once (`Game.reveal_item`) is never drawn anywhere else. The lines taken back are written into the record
(`revealed`), so this holds across reload and resume. What nobody has seen stays undecided.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import random
import tempfile
from dataclasses import dataclass

from towerworld import __version__

from towerworld.engine.game import CHANCE, TERMINAL, Event, Game, Move, State, draw_outcome


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
        self._kept: dict = {}                  # reveal key -> (outcome, item): outcomes seen on lines taken back
        self.undone_lines: list[tuple[str, ...]] = []   # every line taken back, as move texts from the start
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

    def reveal_key(self, state: State | None = None):
        """The key a chance outcome at `state` (default: now) is kept under: what it reveals, or the decision."""
        state = self.state if state is None else state
        key = self.game.reveal_key(state)
        return ("decision", self.game.state_key(state)) if key is None else ("reveal", key)

    def kept_outcome(self) -> Move | None:
        """The outcome already revealed for the chance due now, on a line since taken back; None if there is none."""
        kept = self._kept.get(self.reveal_key())
        if kept is not None and kept[0] in {m for m, _ in self.game.chance_outcomes(self.state)}:
            return kept[0]
        return None

    def next_chance(self, rng: random.Random) -> Move:
        """The chance outcome due now: the one already revealed for this same thing or decision (undo never re-rolls
        a die), else a fresh draw from `rng` among the outcomes not kept elsewhere (a K'Dak identity seen on one tile
        is never turned up on another)."""
        kept = self.kept_outcome()
        if kept is not None:
            return kept
        key = self.reveal_key()
        elsewhere = {item for k, (_, item) in self._kept.items() if item is not None and k != key}
        if elsewhere:
            outcomes = self.game.chance_outcomes(self.state)
            free = [(m, p) for m, p in outcomes if self.game.reveal_item(self.state, m) not in elsewhere]
            if free and len(free) < len(outcomes):
                return draw_outcome(free, rng, sum(p for _, p in free))
        return self.game.sample_chance(self.state, rng)

    def keep_line(self, start: int, state: State, texts: list[str], moves: list[Move]) -> None:
        """Keep every chance outcome on a line of play taken back (from ply `start`, at `state`), by what it
        revealed. `moves` are known to be legal there (played, or replayed with checks from a record)."""
        for move in moves:
            if self.game.current_player(state) == CHANCE:
                self._kept[self.reveal_key(state)] = (move, self.game.reveal_item(state, move))
            state, _ = self.game.apply_unchecked(state, move)
        line = tuple(p.text for p in self.plies[:start]) + tuple(texts)
        if any(line == kept[:len(line)] for kept in self.undone_lines):
            return
        self.undone_lines = [kept for kept in self.undone_lines if kept != line[:len(kept)]] + [line]

    def _push(self, ply: Ply, new_state: State) -> None:
        self.plies.append(ply)
        self.state = new_state
        if len(self.plies) % self.SNAPSHOT_EVERY == 0:
            self._snapshots[len(self.plies)] = new_state

    # ---- undo / redo --------------------------------------------------------------------------------------------------
    @property
    def people(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.is_ai]

    def undoer(self) -> int | None:
        """The person undo acts for now: the person to move, or else the only person at the table; None when no
        person can be meant (an AI or chance to move at a table of several people)."""
        people = self.people
        cp = self.current_player
        if cp in people:
            return cp
        return people[0] if len(people) == 1 else None

    def _undo_target(self, seat: int | None = None) -> int | None:
        """The ply count undo returns to for the person `seat` (default: `undoer()`), or None when it may not.

        A person takes back only their own moves. With no other person at the table and at least one AI, back to
        their previous decision: the AIs' replies and the chance outcomes since go too, and every outcome revealed on
        the way is kept (the same decision reveals it again). Otherwise (people together, a mixed table, a
        solitaire) the stricter rule: only their own latest move, while nobody else has acted since and it revealed
        nothing (no chance outcome, no face-down piece turned up)."""
        seat = self.undoer() if seat is None else seat
        if not self.plies or seat not in self.people:
            return None
        if len(self.people) == 1 and len(self.players) > 1:
            for i in range(len(self.plies) - 1, -1, -1):
                if self.plies[i].mover == seat:
                    return i
            return None
        last = self.plies[-1]
        if last.reveals or last.mover != seat:
            return None
        return len(self.plies) - 1

    def can_undo(self, seat: int | None = None) -> bool:
        return self._undo_target(seat) is not None

    def undo_takes(self, seat: int | None = None) -> list[int]:
        """The seats whose moves undo would take back now, in order (CHANCE for an outcome): [] when it may not."""
        target = self._undo_target(seat)
        return [] if target is None else [p.mover for p in self.plies[target:]]

    def why_no_undo(self, seat: int | None = None) -> str:
        if not self.plies:
            return "Nothing to undo yet."
        seat = self.undoer() if seat is None else seat
        if seat not in self.people:
            return "Undo takes back a person's own moves, on their turn."
        if len(self.people) == 1 and len(self.players) > 1:
            return "There is no move of yours to take back."
        if self.plies[-1].reveals:
            return "That move revealed hidden information, so it cannot be taken back."
        return "Only your own last move can be taken back, and only before anyone else has acted."

    def undo(self, seat: int | None = None) -> list[int]:
        """Take back what `seat` (default: `undoer()`) may take back now; the seats whose plies went, in order (CHANCE
        for an outcome), as `undo_takes` says them: [] when it may not (nothing changes)."""
        target = self._undo_target(seat)
        if target is None:
            return []
        taken = self.plies[target:]
        undone = [p.move for p in taken]
        self.truncate(target)
        if any(p.mover == CHANCE for p in taken):
            self.keep_line(target, self.state, [p.text for p in taken], undone)
        self._redo.append(undone)
        self.autosave()
        return [p.mover for p in taken]

    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> list[int]:
        """Play again the plies the latest undo took back; the seats whose plies they are, in order (CHANCE for an
        outcome): [] when there is none to play again."""
        if not self._redo:
            return []
        chunk = self._redo.pop()
        for move in chunk:
            self.apply(move, save=False, keep_redo=True)
        self.autosave()
        return [p.mover for p in self.plies[len(self.plies) - len(chunk):]]

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
        as a sentence in `save_error` for the table to show, and the next move tries again. Until a seat has moved
        or a line was taken back there is nothing to resume (a deal, a first draw: a new game is the same), so no file
        is written for it: the list of unfinished games does not fill with games nobody played."""
        if not self.autosave_path:
            return True
        if not self.begun and not os.path.exists(self.autosave_path):
            return True
        try:
            save_match(self, self.autosave_path)
        except OSError as e:
            self.save_error = f"Could not save to {self.autosave_path}: {e.strerror or e}."
            return False
        self.save_error = None
        return True

    @property
    def begun(self) -> bool:
        """Whether a seat has made a move (or one was taken back): a game only chance has moved in is not begun."""
        return bool(self.undone_lines) or any(p.mover != CHANCE for p in self.plies)

    def result_text(self) -> str:
        return self.game.result(self.state) if self.over else "in progress"


# ---- the record a match writes (record.py reads, checks and replays it) ----------------------------------------------
FORMAT = "towerworld-record"
FORMAT_VERSION = 3
TEMP_PREFIX, TEMP_SUFFIX = ".tmp-", ".tower.part"   # a save being written; never a record, even if a save was killed


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def result_of(match: Match) -> dict:
    """The `result` field: the engine's sentence, the visible scores (titles are part of the sentence), whether the
    game is over, and how many moves the players have made (chance left out: what a list of saves says of it)."""
    game, state = match.game, match.state
    return {"text": match.result_text(), "scores": list(game.scores(state)),
            "finished": game.current_player(state) == TERMINAL,
            "played": sum(1 for p in match.plies if p.mover != CHANCE)}


def match_to_record(match: Match) -> dict:
    created = match.created or _now()
    record: dict = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "game": match.game.name,
        "options": match.game.non_default_options(match.options),
        "players": [{"name": p.name, "kind": p.kind, **({"agent": p.agent} if p.agent else {})}
                    for p in match.players],
        "moves": [p.text for p in match.plies],
        "result": result_of(match),
        "created": created,
        "updated": _now(),
    }
    if match.variant:
        record["variant"] = match.variant
    revealed = revealed_lines(match)
    if revealed:
        record["revealed"] = revealed
    if match.seed is not None:          # a seeded run (simulate, tests, bench); live games draw from OS entropy
        record["seeded"] = match.seed
    match.created = created
    return record


def revealed_lines(match: Match) -> list[dict]:
    """The `revealed` field: each line taken back as where it leaves the record's moves and what it played from
    there (lines that are part of the moves are left out)."""
    main = [p.text for p in match.plies]
    out = []
    for line in match.undone_lines:
        at = 0
        while at < min(len(line), len(main)) and line[at] == main[at]:
            at += 1
        if at < len(line):
            out.append({"at": at, "moves": list(line[at:])})
    return out


def write_atomic(path: str, text: str, sync: bool = True) -> None:
    """Write `text` to `path` atomically: a temp file in the same folder (never read as a record), fsync (unless
    `sync` is False: a killed process still leaves the old file or the new one whole, only a power cut may lose the
    latest), then os.replace."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_match(match: Match, path: str) -> None:
    """Write the record atomically: a temp file in the same folder, fsync, then os.replace."""
    write_atomic(path, json.dumps(match_to_record(match), indent=1, ensure_ascii=False))
