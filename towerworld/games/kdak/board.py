"""K'Dak's Tower of Confusion: the vocabulary (the tower's places, the stages, the state type).

The tower is four columns (the four places of a 2x2 square, named a b c d clockwise from the back left) of up to six
tiles; a tile's level is its index from the bottom of its column (rulings.md). Every physical tile has a stable slot
number from its starting place (slot = 4 * level + column); the tile's identity (suit and rank) is decided lazily, by a
chance move among the identities nobody has seen yet, at the moment it is first turned face up or discarded. The state
therefore holds only public knowledge: identities of tiles somebody has seen (the memory game) and -1 for the rest.
"""
from __future__ import annotations

from typing import NamedTuple

SUITS = ("suns", "moons", "crowns", "arms")
RANKS = ("null", "ace", "2", "3", "4", "5")
COLUMNS = "abcd"
ORTH = ((1, 3), (0, 2), (1, 3), (0, 2))     # a-b, b-c, c-d, d-a are orthogonal neighbours; a-c and b-d diagonal
LEVELS = 6
TILES = 24

NOT_IN = -1      # pawn beside the tower, not entered yet
OUT = -2         # pawn out of the tower for good

# stages
MOVE, ROLL, REMOVE, REVEAL, SPEND, OVER = range(6)
# how the game ended
RUNNING, END_NORMAL, END_CAP, END_LOST = range(4)
# what a pending reveal continues with
FLIP, DISCARD = 0, 1

TITLES = ((53, "supreme camel boy"), (48, "lead camel boy"), (42, "big camel boy"), (37, "camel boy"))


class Opts(NamedTuple):
    talisman: bool       # null tiles hold talismans (talisman variant)
    crumble: bool        # the tower crumbles from the first turn (solitaire / cooperative)
    l5t: bool            # a talisman lies by level 5 and must be fetched before leaving (solitaire / cooperative)
    up2: bool            # going up needs two face-up tiles on the current level
    pooled: bool         # one pooled score (cooperative)
    move_cap: int        # plies after which the game ends where it stands (0: no cap, the seed sets none)
    n: int               # players


class KState(NamedTuple):
    opts: Opts
    cols: tuple          # four tuples of tile slots, bottom first
    up: int              # bitmask of face-up slots standing in the tower
    ident: tuple         # per slot: suit * 6 + rank once seen, else -1
    pawns: tuple         # per player: slot of the tile the pawn stands on, NOT_IN or OUT
    scores: tuple
    tal: tuple           # talismans held per player
    door: bool           # the switch on level 5 was hit: door open, escape phase
    turn: int            # whose turn it is
    stage: int
    pending: tuple       # (FLIP | DISCARD, slot) while a reveal is due, else ()
    roll: int            # last roll, -1 before the first
    level: int           # level a tile must be removed from (stage REMOVE)
    fell: int            # bitmask of players whose pawn fell onto its tile and has not moved since
    free: bool           # this turn ends without a removal (spent solitaire talisman)
    discards: tuple      # removed slots, in order
    plies: int           # plies played, chance included (for the move cap)
    tower_tal: int       # -2 no level-5 talisman; -1 still by level 5; else the player who took it
    end: int             # RUNNING or how it ended


def place(c: int, level: int) -> str:
    """The place in the notation ("b3")."""
    return f"{COLUMNS[c]}{level}"


def place_words(c: int, level: int) -> str:
    """The place as the table labels it: "column b, level 3" (the column letters stand at the tower's foot, the
    level numbers on the stair)."""
    return f"column {COLUMNS[c]}, level {level}"


def ident_text(v: int) -> str:
    return f"{SUITS[v // 6]}:{RANKS[v % 6]}"


def tile_id(slot: int) -> str:
    return f"tile:{slot:02d}"


def locate(cols, slot):
    """(column, level) of a tile slot standing in the tower, or None. Tiles only ever fall straight down, so a tile's
    column is the one it started in (slot & 3)."""
    col = cols[slot & 3]
    if slot in col:
        return slot & 3, col.index(slot)
    return None


def pawn_place(state: KState, p: int):
    slot = state.pawns[p]
    return locate(state.cols, slot) if slot >= 0 else None


def crumbling(state: KState) -> bool:
    return state.door or state.opts.crumble


def face_up_on_level(cols, up: int, level: int) -> int:
    count = 0
    for col in cols:
        if len(col) > level and up >> col[level] & 1:
            count += 1
    return count
