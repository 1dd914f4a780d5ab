"""Words shared by every sentence a person reads: a count with its noun in the right number, players by name, a
status line's parts."""
from __future__ import annotations

import re


def counted(n: int, word: str, plural: str | None = None) -> str:
    """'1 player', '3 players', '0 cheats'; `plural` where adding an s is wrong ('1 domino', '2 dominoes')."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


AI_NAME = re.compile(r"(AI \d+), ")      # how the app names an AI's seat: "AI 2, greedy"


def names_an_ai(name: str) -> bool:
    """Whether a player's name already says the seat is an AI's ("AI 2, random"): no " (AI)" goes after it."""
    return "AI" in name.replace(",", " ").split()


def with_names(text: str, names: list[str]) -> str:
    """Games speak of "Player 2": `text` with each seat's name (`names`, seat by seat) in its place, where the seat
    has a name of its own (the highest seat first, so that "Player 1" never eats the start of "Player 12"). Before
    "'s" an AI's name goes without what kind of AI it is: "AI 2's yellow tower c", not "AI 2, greedy's"."""
    for i in range(len(names) - 1, -1, -1):
        seat, name = f"Player {i + 1}", names[i]
        if name != seat:
            ai = AI_NAME.match(name)
            if ai is not None:
                text = text.replace(f"{seat}'s", f"{ai.group(1)}'s")
            text = text.replace(seat, name)
    return text


def status_part(key: str, value) -> str:
    """One of a game's lines about the table, as the status line shows it: the value alone where it already names
    what it is ("23 tiles stand" for "tiles", "last roll: 2" for "roll"), else "key: value" ("phase: climbing the
    tower")."""
    text = str(value)
    words = set(re.findall(r"[a-z']+", text.lower()))
    return text if all(word in words for word in key.lower().split()) else f"{key}: {text}"


def table_parts(hud: dict, covered: tuple[str, ...]) -> list[str]:
    """A game's HUD lines about the whole table as the status line shows them (status_part), leaving out what is
    shown elsewhere (`covered`: the keys the players' panels show, the turn the instruction says); a key is covered
    by itself or by its first word ("hand" covers "hand 2")."""
    return [status_part(k, v) for k, v in hud.items() if k not in covered and k.split(" ")[0] not in covered]


def taken_back(movers: list[int], names: list[str], who: str | None = None) -> str:
    """What an undo took back (`movers`: the seats of the plies it took, Match.undo_takes), in the players' names:
    to the person who asked, "Taken back: your move and the reply of AI 2, greedy."; with `who`, for everyone
    else, "Ann took back their last move and the replies of Bo and Cy.".
    """
    own, replies = _own_and_replies(movers, names)
    if who is not None:
        return f"{who} took back their last move{replies}."
    return f"Taken back: your move{replies}." if own is not None else "Move taken back."


def played_again(movers: list[int], names: list[str]) -> str:
    """What a redo played again (`movers`: the seats of its plies, Match.redo), to the person who asked: "Played
    again: your move and the reply of AI 2, greedy."."""
    own, replies = _own_and_replies(movers, names)
    return f"Played again: your move{replies}." if own is not None else "Move played again."


def _own_and_replies(movers: list[int], names: list[str]) -> tuple[int | None, str]:
    """The seat of the first ply (None for chance) and " and the reply of ..." naming every other seat after it."""
    own = movers[0] if movers and 0 <= movers[0] < len(names) else None
    others: list[str] = []
    for seat in movers[1:]:
        if 0 <= seat < len(names) and seat != own and names[seat] not in others:
            others.append(names[seat])
    replies = (f" and the {'replies' if len(others) > 1 else 'reply'} of " + " and ".join(others)) if others else ""
    return own, replies
