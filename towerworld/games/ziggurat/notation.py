"""Ziggurat move notation (docs/rules/ziggurat.md): `3-2 @c3-d3 t1`, `cheat 3-2 @c3-d3 t1`, `draw 5-1`, `deal 417`,
`give up`. Cells are named like a chess board (columns a-f, rows 1-6); a cheat names the domino, its cells and tier."""
from __future__ import annotations

import re

from towerworld.engine.game import BadNotation
from towerworld.games.ziggurat.board import (CHEAT, DEAL, DINDEX, DRAW, GIVE_UP, NB, PLACE, cell_index, cname, dname,
                                             heights, position_of)

_PLACE_RE = re.compile(r"^(\d)\s*-\s*(\d)\s*@\s*([a-f][1-6])\s*-\s*([a-f][1-6])(?:\s+t\s*(\d))?$")
_CHEAT_RE = re.compile(r"^cheat\s+(?:(\d)\s*-\s*(\d))?\s*(?:@?\s*([a-f][1-6])(?:\s*-\s*([a-f][1-6]))?)?"
                       r"(?:\s+t\s*(\d))?$")
_DRAW_RE = re.compile(r"^draw\s+(\d)\s*-\s*(\d)$")
_DEAL_RE = re.compile(r"^deal\s+(\d+)$")


def format_move(state, move) -> str:
    kind = move[0]
    if kind == PLACE:
        _, t, c1, c2, v1, v2 = move
        return f"{v1}-{v2} @{cname(c1)}-{cname(c2)} t{t}"
    if kind == CHEAT:
        pos = position_of(state.vals, state.owner, move[1])
        if pos is None:
            return f"cheat {dname(move[1])}"
        t, c1, c2, v1, v2 = pos
        return f"cheat {v1}-{v2} @{cname(c1)}-{cname(c2)} t{t}"
    if kind == DRAW:
        return f"draw {dname(move[1])}"
    if kind == DEAL:
        return f"deal {move[1]}"
    if kind == GIVE_UP:
        return "give up"
    raise BadNotation(f"{move!r} is not a Ziggurat move.")

def parse_move(state, text: str):
    raw = text
    text = " ".join(text.strip().lower().split())
    m = _PLACE_RE.match(text)
    if m:
        v1, v2 = int(m[1]), int(m[2])
        if v1 > 6 or v2 > 6:
            raise BadNotation(f"'{raw}': domino halves run from 0 to 6.")
        c1, c2 = cell_index(m[3]), cell_index(m[4])
        if c2 not in NB[c1]:
            raise BadNotation(f"'{raw}': {m[3]} and {m[4]} are not side by side, so no domino covers both.")
        if c1 > c2:
            c1, c2, v1, v2 = c2, c1, v2, v1
        if m[5] is not None:
            t = int(m[5])
            if t > 2:
                raise BadNotation(f"'{raw}': the tiers are t0 (bottom), t1 and t2 (top).")
        else:
            h = heights(state.vals)
            t = min(max(h[c1], h[c2]), 2)
        return (PLACE, t, c1, c2, v1, v2)
    m = _CHEAT_RE.match(text)
    if m and (m[1] or m[3]):
        if m[1]:
            v1, v2 = int(m[1]), int(m[2])
            if v1 > 6 or v2 > 6:
                raise BadNotation(f"'{raw}': domino halves run from 0 to 6.")
            return (CHEAT, DINDEX[(v1, v2)])
        c = cell_index(m[3])
        if m[5] is not None:
            t = int(m[5])
            if t > 2:
                raise BadNotation(f"'{raw}': the tiers are t0 (bottom), t1 and t2 (top).")
        else:
            t = heights(state.vals)[c] - 1
            if t < 0:
                raise BadNotation(f"'{raw}': nothing stands on {m[3]}.")
        d = state.owner[t * 36 + c]
        if d < 0:
            raise BadNotation(f"'{raw}': nothing lies on {m[3]} on tier {t}.")
        return (CHEAT, d)
    m = _DRAW_RE.match(text)
    if m:
        v1, v2 = int(m[1]), int(m[2])
        if v1 > 6 or v2 > 6:
            raise BadNotation(f"'{raw}': domino halves run from 0 to 6.")
        return (DRAW, DINDEX[(v1, v2)])
    if text in ("give up", "giveup", "resign"):
        return (GIVE_UP,)
    m = _DEAL_RE.match(text)
    if m:
        return (DEAL, int(m[1]))
    raise BadNotation(f"'{raw}' is not Ziggurat notation (try '3-2 @c3-d3 t1', 'cheat 3-2' or 'draw 5-1').")

