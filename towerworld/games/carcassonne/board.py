"""Carcassonne with The Tower and the Black Tower: the vocabulary (phases, move codes, places, pieces, the state type).

Positions are ints, pos = (x + 128) << 8 | (y + 128); neighbours are pos +- 1 (north/south) and +- 256 (east/west).
Moves are ints: kind << 20 | payload (see the M_* constants). Roads, cities and fields are an incremental union-find
over feature nodes kept flat (parent, open edges, tile bitmask, pennants, follower counts packed 4 bits per player,
and for a field the completed cities it touches as a bitmask of their nodes; the small ints in arrays). `proj` is
what each player's followers would bring at a final scoring now, kept up to date by every move that changes it, and
`monks` the followers standing on cloisters (their ids, in order). A state shares every container it does not change
with its parent (rules.py builds states).
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import partial

from . import tiles as TL

# ---- phases, move kinds ------------------------------------------------------------------------------------------
DRAW, PLACE, ACTION, CAPTURE, RANSOM, OVER = range(6)
PHASE_NAMES = ("draw", "place tile", "follower or tower", "capture", "ransom", "game over")

K_DRAW, K_PLACE, K_FOLLOW, K_TOWER, K_TOP, K_PASS, K_CAPTURE, K_NOCAPTURE, K_RANSOM, K_NORANSOM = range(10)
SHIFT = 20
LOW = (1 << SHIFT) - 1
M_DRAW = K_DRAW << SHIFT
M_PLACE = K_PLACE << SHIFT
M_FOLLOW = K_FOLLOW << SHIFT
M_TOWER = K_TOWER << SHIFT
M_TOP = K_TOP << SHIFT
M_PASS = K_PASS << SHIFT
M_CAPTURE = K_CAPTURE << SHIFT
M_NOCAPTURE = K_NOCAPTURE << SHIFT
M_RANSOM = K_RANSOM << SHIFT
M_NORANSOM = K_NORANSOM << SHIFT

NORMAL, BLACK, WHITE = 0, 1, 2
PIECE_NAMES = ("normal", "black", "white")
FOLLOWERS = 7                   # followers per player
SUPPLY = -1                     # follower location: in its owner's supply
# follower location >= 0: on the board, on that feature node; -2 - q: prisoner of player q; -100 - pos: on top of a
# tower at pos.
TOP0 = -100

DPOS = (1, 256, -1, -256)       # N E S W
ORIGIN = 128


def pos_of(x: int, y: int) -> int:
    return (x + ORIGIN) << 8 | (y + ORIGIN)


def xy(pos: int) -> tuple[int, int]:
    return (pos >> 8) - ORIGIN, (pos & 255) - ORIGIN


# ---- tower pieces per player ----------------------------------------------------------------------------------------
TOWER_ONLY = {2: 10, 3: 9, 4: 7, 5: 6, 6: 5}            # The Tower's own distribution (normal pieces)
BLACK_TABLE = {2: (4, 2, 8), 3: (3, 2, 7), 4: (3, 1, 6), 5: (2, 1, 5), 6: (2, 1, 4)}   # seed: black, white, normal


def tower_pieces(players: int, black_tower: bool = True, extra_foundations: int = 0) -> tuple[int, int, int]:
    """(normal, black, white) tower pieces each player receives.

    Seed footnote 3: for every 4 extra tower foundation tiles each player receives 1 Black and 2 normal pieces; with 8
    or more extra tiles each player of a 4, 5 or 6 player game receives 1 White piece; never more than 2 White each.
    (Without the Black Tower, The Tower's own table is used; extra foundations do not change it here.)"""
    if not black_tower:
        return (TOWER_ONLY[players], 0, 0)
    b, w, n = BLACK_TABLE[players]
    sets = extra_foundations // 4
    b += sets
    n += 2 * sets
    if extra_foundations >= 8 and players >= 4:
        w += 1
    return (n, b, min(w, 2))


@dataclass(frozen=True, slots=True)
class Config:
    players: int
    tower: bool
    black: bool
    pieces: tuple            # (normal, black, white) per player at the start


# the node arrays of small ints (open edges, pennants, follower counts, kinds, tiles): copied without touching
# each element, as a list copy would
NODES = partial(array, "q")


# ---- union-find ------------------------------------------------------------------------------------------------------
def find(p: list, x: int) -> int:
    """The root of node x. Read-only: lists may be shared by several states (put_tile compresses its own copy)."""
    while p[x] != x:
        x = p[x]
    return x


class CState:
    """A Carcassonne state. Immutable by convention: apply builds a new one that shares unchanged containers."""
    __slots__ = ("cfg", "phase", "player", "bag", "bagn", "drawn", "tiles", "board", "frontier", "parent", "opn",
                 "mask", "pen", "occ", "fcity", "nkind", "ntile", "discarded", "fl", "towers", "tsup", "scores",
                 "proj", "monks", "cands", "ransomed", "_hash")
    # the slots' types (annotations only: no class attributes, so the slots stay as they are)
    cfg: Config
    phase: int
    player: int
    bag: tuple
    bagn: int
    drawn: int
    tiles: tuple
    board: dict
    frontier: dict
    parent: list
    opn: array
    mask: list
    pen: array
    occ: array
    fcity: list
    nkind: array
    ntile: array
    discarded: tuple
    fl: tuple
    towers: dict
    tsup: tuple
    scores: tuple
    proj: tuple
    monks: tuple
    cands: tuple
    ransomed: bool
    _hash: int | None

    def copy(self) -> "CState":
        n = CState.__new__(CState)
        n.cfg = self.cfg; n.phase = self.phase; n.player = self.player; n.bag = self.bag; n.bagn = self.bagn
        n.drawn = self.drawn; n.tiles = self.tiles; n.board = self.board; n.frontier = self.frontier
        n.parent = self.parent; n.opn = self.opn; n.mask = self.mask; n.pen = self.pen; n.occ = self.occ
        n.fcity = self.fcity; n.nkind = self.nkind; n.ntile = self.ntile; n.discarded = self.discarded; n.fl = self.fl
        n.towers = self.towers; n.tsup = self.tsup; n.scores = self.scores; n.proj = self.proj
        n.monks = self.monks
        n.cands = self.cands; n.ransomed = self.ransomed; n._hash = None
        return n

    def key(self) -> tuple:
        return (self.cfg, self.phase, self.player, self.bag, self.drawn, self.tiles, self.discarded, self.fl,
                tuple(sorted(self.towers.items())), self.tsup, self.scores, self.cands, self.ransomed)

    def __eq__(self, other) -> bool:
        return isinstance(other, CState) and (self is other or self.key() == other.key())

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.key())
        return self._hash

    def __getstate__(self):
        return {k: getattr(self, k) for k in CState.__slots__ if k != "_hash"}

    def __setstate__(self, d):
        for k in CState.__slots__:
            setattr(self, k, d.get(k))
        self.ransomed = bool(self.ransomed)
        self._hash = None

    def __repr__(self) -> str:
        tiles = " ".join(f"{TL.CODES[t]}{xy(p)}r{r}" for t, r, p, _b, _k in self.tiles)
        return (f"CState(phase={PHASE_NAMES[self.phase]}, player={self.player}, drawn={self.drawn}, "
                f"bag={self.bag}, tiles=[{tiles}], discarded={self.discarded}, followers={self.fl}, "
                f"towers={sorted(self.towers.items())}, pieces={self.tsup}, scores={self.scores}, "
                f"cands={self.cands})")


def piece_code(player: int, ptype: int, k: int) -> int:
    return player << 8 | ptype | k << 2


def piece_parts(code: int) -> tuple[int, int, int]:
    return code >> 8, code & 3, (code >> 2) & 63
