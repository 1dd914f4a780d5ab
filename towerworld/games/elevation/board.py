"""Elevation's vocabulary, shared by every module of the package: squares and their neighbours, the pieces, the shape
of a move, the terrain presets, the setups, and the state (the variant's rules, the position, the outcome).

Squares are 0..35, square = row * 6 + file, a1 = 0 (files a..f, rows 1..6). Player 1 (red) starts on row 1.
A whole turn is one move, a tuple of ints whose first item is the acting piece's square:

    (s, DIG_MOVE, f, t, m)        basic: dig f>t, then step to m
    (s, MOVE_DIG, m, f, t)        basic: step to m, then dig f>t (next to m)
    (s, FISH_DIG_LEAP, f, t, e)   fish: dig f>t, then two squares diagonally to e
    (s, FISH_LEAP_DIG, e, f, t)   fish: two squares diagonally to e, then dig f>t
    (s, DIG_DIG, f1, t1, f2, t2)  dragon: dig twice
    (s, MOVE_MOVE, m1, m2)        dragon: step twice
    (s, LONE_STEP, m)             dragon: one step that may climb up to two, no dig
    (s, UNDERMINE, f, t)          variant: dig f>t from beneath an enemy, no move
    (DRAW, OFFER) (DRAW, ACCEPT) (DRAW, DECLINE)   draw agreement

Tuples compare item by item, so moves sort by the piece's square, then by kind.
"""
from __future__ import annotations

from dataclasses import dataclass

SIZE = 6
SQUARES = 36
FILES = "abcdef"

SAMURAI, DRAGON, FISH = 0, 1, 2
KIND_NAMES = ("samurai", "dragon", "fish")
KIND_LETTERS = ("S", "D", "F")
SIDE_NAMES = ("Red", "Blue")
PIECES = 12                       # piece i: side i // 6, starting file i % 6

DIG_MOVE, MOVE_DIG, FISH_DIG_LEAP, FISH_LEAP_DIG, DIG_DIG, MOVE_MOVE, LONE_STEP, UNDERMINE = range(8)
DRAW = -1
OFFER, ACCEPT, DECLINE = 0, 1, 2

SETUPS = {
    # the home row from file a to file f; player 2 mirrors player 1 across the board
    "standard": (SAMURAI, DRAGON, FISH, FISH, DRAGON, SAMURAI),
    "fish-wings": (FISH, DRAGON, SAMURAI, SAMURAI, DRAGON, FISH),
    "dragons-centre": (SAMURAI, FISH, DRAGON, DRAGON, FISH, SAMURAI),
    "dragons-wings": (DRAGON, SAMURAI, FISH, FISH, SAMURAI, DRAGON),
}

TERRAIN_PRESETS = {
    # every preset holds 108 tiles: the real game's tile count
    "flat": tuple(3 for _ in range(SQUARES)),
    "hills": tuple((2, 3, 4, 4, 3, 2)[s // SIZE] for s in range(SQUARES)),
    "valley": tuple((4, 3, 2, 2, 3, 4)[s // SIZE] for s in range(SQUARES)),
    "checker": tuple(2 if (s // SIZE + s % SIZE) % 2 == 0 else 4 for s in range(SQUARES)),
}


def square_name(s: int) -> str:
    return f"{FILES[s % SIZE]}{s // SIZE + 1}"


def square_of(name: str) -> int | None:
    """The square called `name` ("c4"), or None when it is no square of the board."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456":
        return None
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def distance(a: int, b: int) -> int:
    """King-move distance between two squares."""
    return max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE))


def _neighbours(s: int) -> tuple[int, ...]:
    return tuple(q for q in range(SQUARES) if distance(s, q) == 1)


def _leaps(s: int) -> tuple[tuple[int, int], ...]:
    """The fish's two-square diagonal leaps from `s`: (end, middle), sorted by end."""
    r, c = divmod(s, SIZE)
    out = []
    for dr in (-1, 1):
        for dc in (-1, 1):
            if 0 <= r + 2 * dr < SIZE and 0 <= c + 2 * dc < SIZE:
                out.append(((r + 2 * dr) * SIZE + c + 2 * dc, (r + dr) * SIZE + c + dc))
    return tuple(sorted(out))


NEIGHBOURS = tuple(_neighbours(s) for s in range(SQUARES))
LEAPS = tuple(_leaps(s) for s in range(SQUARES))
BIT = tuple(1 << s for s in range(SQUARES))
NEIGHBOUR_MASK = tuple(sum(BIT[q] for q in NEIGHBOURS[s]) for s in range(SQUARES))
ADJACENT = tuple(frozenset(n) for n in NEIGHBOURS)


_SQUARES_OF: dict = {}


def squares_of(mask: int) -> tuple[int, ...]:
    """The squares whose bits are set in `mask`, ascending (remembered: the same masks recur all the time)."""
    found = _SQUARES_OF.get(mask)
    if found is None:
        if len(_SQUARES_OF) > 100_000:
            _SQUARES_OF.clear()
        found = _SQUARES_OF[mask] = tuple(q for q in range(SQUARES) if mask >> q & 1)
    return found


def home_square(side: int, file: int) -> int:
    return file if side == 0 else (SIZE - 1) * SIZE + file


def turn_actions(move) -> list:
    """The turn as a list of actions in order: ("dig", f, t), ("move", to), ("step", to) (the dragon's lone step),
    ("undermine", f, t)."""
    kind, a = move[1], move[2:]
    if kind in (DIG_MOVE, FISH_DIG_LEAP):
        return [("dig", a[0], a[1]), ("move", a[2])]
    if kind in (MOVE_DIG, FISH_LEAP_DIG):
        return [("move", a[0]), ("dig", a[1], a[2])]
    if kind == DIG_DIG:
        return [("dig", a[0], a[1]), ("dig", a[2], a[3])]
    if kind == MOVE_MOVE:
        return [("move", a[0]), ("move", a[1])]
    if kind == LONE_STEP:
        return [("step", a[0])]
    if kind == UNDERMINE:
        return [("undermine", a[0], a[1])]
    raise ValueError(kind)


# ---- the state ------------------------------------------------------------------------------------------------------
ONGOING, WIN0, WIN1, DRAWN = -1, 0, 1, 2
ALL_SQUARES = (1 << SQUARES) - 1

REASONS = {
    "captured": "captured every enemy piece",
    "stuck": "left the opponent without a legal turn",
    "repetition": "the same position arose for the third time",
    "agreement": "the players agreed to a draw",
    "cap": "the move cap was reached",
}


@dataclass(frozen=True, slots=True)
class Rules:
    terrain: str = "flat"
    setup: str = "standard"
    two_pieces: bool = False
    undermining: bool = False
    samurai_undermining: bool = False
    ocean: bool = False
    move_cap: int = 200
    draw_offers: bool = True


@dataclass(frozen=True, slots=True)
class State:
    stacks: tuple          # 36 tuples of tile numbers, bottom to top
    heights: tuple         # 36 ints: len(stacks[s])
    board: tuple           # 36 ints: the piece standing on the square, or -1
    pos: tuple             # 12 ints: the square of each piece, or -1 once captured
    kinds: tuple           # 12 ints: SAMURAI, DRAGON or FISH (from the setup)
    mover: int             # whose turn it is (0 / 1)
    phase: int             # 0: playing; 1: the mover offered a draw and the other player answers
    offered: bool          # the mover already offered a draw this turn (and it was declined)
    used: int              # two-pieces variant: the piece that already acted this turn, or -1
    turns: int             # completed turns (for the move cap)
    history: tuple         # position keys since the last capture, the current one last
    outcome: int           # ONGOING, WIN0, WIN1, DRAWN
    reason: str            # why the game ended (a key of REASONS)
    rules: Rules
    # the same position as bit masks (bit s: square s), kept up to date by each turn so that turn generation needs
    # no pass over the board: each side's squares, and the squares of each height (levels[h]: h high, up to the top)
    occupied: tuple
    levels: tuple
