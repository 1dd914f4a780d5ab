"""Words shared by every sentence a person reads: a count with its noun in the right number."""
from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """'1 player', '3 players', '0 cheats'; `plural` where adding an s is wrong ('1 domino', '2 dominoes')."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
