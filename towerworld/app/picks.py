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


def next_picks(progresses: Iterable[Progress]) -> list[str]:
    """Every pick that carries some path on, once each, in a stable order."""
    seen: dict[str, None] = {}
    for progress in progresses:
        for pick in progress.next():
            seen.setdefault(pick, None)
    return list(seen)
