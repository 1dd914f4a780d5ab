"""Matching clicks against a move's pick path. A step of a path is one pick (a piece, a cell or a button word) or a
frozenset of picks made in any order (cards played together)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence


@dataclass(frozen=True)
class Progress:
    path: tuple
    step: int                 # the index of the step to make next (len(path) when every step is made)
    taken: frozenset          # picks already made inside a set step that is not complete

    @property
    def done(self) -> bool:
        return self.step == len(self.path) and not self.taken

    def next(self) -> list[str]:
        """The picks that carry this path on."""
        if self.step == len(self.path):
            return []
        step = self.path[self.step]
        if isinstance(step, frozenset):
            return sorted(step - self.taken)
        return [step]


def path_progress(path: Sequence, picks: Sequence[str]) -> Progress | None:
    """How far `picks` go along `path`, or None when they leave it."""
    i = 0
    for k, step in enumerate(path):
        if i == len(picks):
            return Progress(tuple(path), k, frozenset())
        if isinstance(step, frozenset):
            taken: set = set()
            while i < len(picks) and picks[i] in step and picks[i] not in taken:
                taken.add(picks[i])
                i += 1
            if len(taken) < len(step):
                return Progress(tuple(path), k, frozenset(taken)) if i == len(picks) else None
        else:
            if picks[i] != step:
                return None
            i += 1
    return Progress(tuple(path), len(path), frozenset()) if i == len(picks) else None


def each_pick(path: Sequence) -> list[str]:
    """Every pick of a path, in an order a person may make them (a set step's picks sorted)."""
    return [pick for step in path for pick in (sorted(step) if isinstance(step, frozenset) else (step,))]


def next_picks(progresses: Iterable[Progress]) -> list[str]:
    """Every pick that carries some path on, once each, in a stable order."""
    seen: dict[str, None] = {}
    for progress in progresses:
        for pick in progress.next():
            seen.setdefault(pick, None)
    return list(seen)


@dataclass(frozen=True)
class Taken:
    """What one more pick makes of the picks so far (take_pick)."""
    picks: list[str]          # the picks after it (unchanged when it is refused)
    refused: bool = False     # no legal move follows these picks: the pick is not taken
    move: object = None       # the one move the picks now make, to send
    exact: object = None      # a move the picks make while they also begin others (Enter confirms it)


def take_pick(picks: Sequence[str], pick: str, candidates) -> Taken:
    """`pick` after `picks`, given `candidates(picks)` -> [(move, Progress)] of the legal moves those picks follow: a
    pick already made inside a set is taken back out; a pick that no legal move follows is refused; a pick that makes
    exactly one move is that move; otherwise the picks grow (with the complete move among several, if any)."""
    if pick in picks:
        return Taken([p for p in picks if p != pick])
    trial = list(picks) + [pick]
    cands = candidates(trial)
    if not cands:
        return Taken(list(picks), refused=True)
    exact = [move for move, progress in cands if progress.done]
    if exact and len(cands) == 1:
        return Taken(trial, move=exact[0])
    return Taken(trial, exact=exact[0] if exact else None)
