"""Carcassonne move notation (docs/rules/carcassonne.md): short text for every move, and back.

  draw V             a chance move: the tile drawn from the bag
  V 0,-1 r90         place the drawn tile V at x=0, y=-1 (north is +y), turned 90 degrees clockwise
  follower city N W  deploy a follower on a feature of the tile just placed (the names list its edges/half-edges)
  black tower 2,1    put a tower piece (normal, black, white) on the foundation or open tower at 2,1
  follower on tower 2,1   close the tower at 2,1 with a follower on top
  pass, capture P2.3, no capture, ransom from P2, no ransom
"""
from __future__ import annotations

import re
from functools import lru_cache

from towerworld.engine.game import BadNotation

from . import board as E
from .board import (ACTION, FOLLOWERS, LOW, PLACE, SHIFT, K_CAPTURE, K_DRAW, K_FOLLOW, K_NOCAPTURE, K_NORANSOM,
                     K_PASS, K_PLACE, K_RANSOM, K_TOP, K_TOWER, M_DRAW, M_FOLLOW, M_NOCAPTURE, M_NORANSOM, M_PASS,
                     M_PLACE, M_RANSOM, M_TOP, M_TOWER, M_CAPTURE, CState, pos_of, xy)
from .tiles import CODES, INDEX, ROTS, feature_words, tile_words


def format_move(s: CState, move: int) -> str:
    k, v = move >> SHIFT, move & LOW
    if k == K_DRAW:
        return f"draw {CODES[v]}"
    if k == K_PLACE:
        x, y = xy(v >> 2)
        return f"{CODES[s.drawn]} {x},{y} r{90 * (v & 3)}"
    if k == K_FOLLOW:
        t, r = s.tiles[-1][0], s.tiles[-1][1]
        return f"follower {ROTS[t][r].names[v]}"
    if k == K_TOWER:
        x, y = xy(v >> 2)
        return f"{E.PIECE_NAMES[v & 3]} tower {x},{y}"
    if k == K_TOP:
        x, y = xy(v)
        return f"follower on tower {x},{y}"
    if k == K_PASS:
        return "pass"
    if k == K_CAPTURE:
        return f"capture P{v // FOLLOWERS + 1}.{v % FOLLOWERS + 1}"
    if k == K_NOCAPTURE:
        return "no capture"
    if k == K_RANSOM:
        return f"ransom from P{v + 1}"
    if k == K_NORANSOM:
        return "no ransom"
    raise BadNotation(f"{move!r} is not a Carcassonne move.")


_RE_PLACE = re.compile(r"^([A-Z]{1,2})\s+(-?\d+)\s*,\s*(-?\d+)\s+r(0|90|180|270)$")
_RE_TOWER = re.compile(r"^(normal|black|white)\s+tower\s+(-?\d+)\s*,\s*(-?\d+)$")
_RE_TOP = re.compile(r"^follower on tower\s+(-?\d+)\s*,\s*(-?\d+)$")
_RE_CAPTURE = re.compile(r"^capture P(\d)\.(\d)$")
_RE_RANSOM = re.compile(r"^ransom from P(\d)$")


def parse_move(s: CState, text: str) -> int:
    t = " ".join(text.strip().split())
    if t.startswith("draw "):
        code = t[5:].strip()
        if code not in INDEX:
            raise BadNotation(f"'{code}' is not a tile code (codes: {', '.join(CODES)}).")
        return M_DRAW | INDEX[code]
    m = _RE_PLACE.match(t)
    if m:
        code, x, y, rot = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if s.phase == PLACE and code != CODES[s.drawn]:
            raise BadNotation(f"The tile to place is {CODES[s.drawn]}, not {code}.")
        if not (-100 < x < 100 and -100 < y < 100):
            raise BadNotation(f"{x},{y} is far outside the table.")
        return M_PLACE | pos_of(x, y) << 2 | rot // 90
    if t.startswith("follower on tower"):
        m = _RE_TOP.match(t)
        if not m:
            raise BadNotation("Write a follower on a tower as 'follower on tower X,Y'.")
        x, y = int(m.group(1)), int(m.group(2))
        if not (-100 < x < 100 and -100 < y < 100):
            raise BadNotation(f"{x},{y} is far outside the table.")
        return M_TOP | pos_of(x, y)
    if t.startswith("follower "):
        name = t[9:]
        if s.phase != ACTION:
            raise BadNotation("A follower goes on the tile just placed, and no tile was just placed.")
        tt, r = s.tiles[-1][0], s.tiles[-1][1]
        names = ROTS[tt][r].names
        canon = _canon_feature(name)
        for j, nm in enumerate(names):
            if _canon_feature(nm) == canon:
                return M_FOLLOW | j
        raise BadNotation(f"The tile just placed has no feature '{name}' (it has: {', '.join(names)}).")
    m = _RE_TOWER.match(t)
    if m:
        x, y = int(m.group(2)), int(m.group(3))
        if not (-100 < x < 100 and -100 < y < 100):
            raise BadNotation(f"{x},{y} is far outside the table.")
        return M_TOWER | pos_of(x, y) << 2 | E.PIECE_NAMES.index(m.group(1))
    if t == "pass":
        return M_PASS
    if t == "no capture":
        return M_NOCAPTURE
    if t == "no ransom":
        return M_NORANSOM
    m = _RE_CAPTURE.match(t)
    if m:
        p, k = int(m.group(1)), int(m.group(2))
        if not (1 <= p <= s.cfg.players and 1 <= k <= FOLLOWERS):
            raise BadNotation(f"There is no follower P{p}.{k}.")
        return M_CAPTURE | (p - 1) * FOLLOWERS + k - 1
    m = _RE_RANSOM.match(t)
    if m:
        q = int(m.group(1))
        if not 1 <= q <= s.cfg.players:
            raise BadNotation(f"There is no player P{q}.")
        return M_RANSOM | q - 1
    raise BadNotation(f"'{text.strip()}' is not Carcassonne notation (see docs/rules/carcassonne.md).")


def _canon_feature(name: str) -> tuple:
    words = name.split()
    return (words[0],) + tuple(sorted(words[1:])) if words else ()


# ---- a player's words --------------------------------------------------------------------------------------------------
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _tiles(n: int) -> str:
    count = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
    return f"{count} tile{'s' if n > 1 else ''}"


@lru_cache(maxsize=4096)
def place_words(x: int, y: int) -> str:
    """A place of the landscape as a player finds it, from the start tile (north is away from the player):
    "north of the start tile", "two tiles east and one tile south of the start tile"."""
    if (x, y) == (0, 0):
        return "on the start tile"
    parts = []
    if y:
        parts.append(("north", abs(y)) if y > 0 else ("south", abs(y)))
    if x:
        parts.append(("east", abs(x)) if x > 0 else ("west", abs(x)))
    if len(parts) == 1 and parts[0][1] == 1:
        return f"{parts[0][0]} of the start tile"
    return " and ".join(f"{_tiles(n)} {side}" for side, n in parts) + " of the start tile"


def describe_move(s: CState, move: int) -> str:
    """The move in a player's words, for hints and the log: tiles by what they show, places from the start tile."""
    k, v = move >> SHIFT, move & LOW
    if k == K_DRAW:
        return f"draw {tile_words(v)}"
    if k == K_PLACE:
        x, y = xy(v >> 2)
        turn = 90 * (v & 3)
        return (f"lay {tile_words(s.drawn)} {place_words(x, y)}"
                + (f", turned {turn}\u00b0" if turn else ", as drawn"))
    if k == K_FOLLOW:
        t, r = s.tiles[-1][0], s.tiles[-1][1]
        return f"put a follower on {feature_words(ROTS[t][r].names[v])}"
    if k == K_TOWER:
        x, y = xy(v >> 2)
        return f"build a {E.PIECE_NAMES[v & 3]} tower storey on the tower {place_words(x, y)}"
    if k == K_TOP:
        x, y = xy(v)
        return f"close the tower {place_words(x, y)} with a follower on top"
    if k == K_PASS:
        return "place no follower and no tower piece"
    if k == K_CAPTURE:
        return f"capture a follower of Player {v // FOLLOWERS + 1}"
    if k == K_NOCAPTURE:
        return "capture nothing"
    if k == K_RANSOM:
        return f"pay Player {v + 1} 3 points of ransom to free a follower"
    if k == K_NORANSOM:
        return "pay no ransom"
    return "a move"
