"""Elevation rules core: board geometry, the state, complete-turn generation and application.

Squares are 0..35, square = row * 6 + col, a1 = 0 (col a..f, row 1..6). Player 0's home row is row 1.
A whole turn is one move, a tuple of ints:

    (s, DM, f, t, m)          basic: dig f>t, then move to m
    (s, MD, m, f, t)          basic: move to m, then dig f>t (adjacent to m)
    (s, FDM, f, t, e)         fish: dig f>t, then two squares diagonally to e
    (s, FMD, e, f, t)         fish: two squares diagonally to e, then dig f>t
    (s, DD, f1, t1, f2, t2)   dragon: dig twice
    (s, MM, m1, m2)           dragon: move twice
    (s, CLIMB, m)             dragon: one step climbing exactly two, no dig
    (s, UNDERMINE, f, t)      variant: dig f>t from beneath an enemy, no move
    (-1, OFFER) (-1, ACCEPT) (-1, DECLINE)   draw agreement

`s` is the acting piece's square. Tuples compare element-wise, so moves sort by piece square, then kind.
"""
from __future__ import annotations

from dataclasses import dataclass

N = 6
SQUARES = 36
FILES = "abcdef"

SAMURAI, DRAGON, FISH = 0, 1, 2
TYPE_NAMES = ("samurai", "dragon", "fish")
TYPE_LETTERS = ("S", "D", "F")
HOME_TYPES = (SAMURAI, DRAGON, FISH, FISH, DRAGON, SAMURAI)     # a..f on the home row
PIECES = 12                                                     # index i: side i // 6, file i % 6
PTYPE = tuple(HOME_TYPES[i % 6] for i in range(PIECES))
PSIDE = tuple(i // 6 for i in range(PIECES))
# code of what stands on a square, for position keys: 0 empty, 1 + side * 3 + type
PCODE = tuple(1 + PSIDE[i] * 3 + PTYPE[i] for i in range(PIECES))

DM, MD, FDM, FMD, DD, MM, CLIMB, UNDERMINE = range(8)
OFFER, ACCEPT, DECLINE = 0, 1, 2
DRAW = -1

ONGOING, WIN0, WIN1, DRAWN = -1, 0, 1, 2


def sq_name(s: int) -> str:
    return f"{FILES[s % N]}{s // N + 1}"


def sq_of(name: str) -> int | None:
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456":
        return None
    return (int(name[1]) - 1) * N + FILES.index(name[0])


def _neigh(s: int) -> tuple[int, ...]:
    r, c = divmod(s, N)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < N and 0 <= c + dc < N:
                out.append((r + dr) * N + c + dc)
    return tuple(sorted(out))


def _diag2(s: int) -> tuple[tuple[int, int], ...]:
    r, c = divmod(s, N)
    out = []
    for dr in (-1, 1):
        for dc in (-1, 1):
            if 0 <= r + 2 * dr < N and 0 <= c + 2 * dc < N:
                out.append(((r + 2 * dr) * N + c + 2 * dc, (r + dr) * N + c + dc))
    return tuple(sorted(out))


NEIGH = tuple(_neigh(s) for s in range(SQUARES))
DIAG2 = tuple(_diag2(s) for s in range(SQUARES))         # (end, middle), sorted by end
ADJ = tuple(frozenset(n) for n in NEIGH)

TERRAIN_PRESETS = {
    # every preset holds 108 tiles: the real game's tile count
    "flat": tuple(3 for _ in range(SQUARES)),
    "hills": tuple((2, 3, 4, 4, 3, 2)[s // N] for s in range(SQUARES)),
    "valley": tuple((4, 3, 2, 2, 3, 4)[s // N] for s in range(SQUARES)),
    "checker": tuple(2 if (s // N + s % N) % 2 == 0 else 4 for s in range(SQUARES)),
}
SETUPS = {
    "standard": HOME_TYPES,
}


@dataclass(frozen=True, slots=True)
class Rules:
    terrain: str = "flat"
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
    board: tuple           # 36 ints: piece index standing on the square, or -1
    pos: tuple             # 12 ints: square of each piece, or -1 once captured
    mover: int             # whose turn it is (0 / 1)
    phase: int             # 0: playing; 1: the mover offered a draw and the other player answers
    offered: bool          # the mover already offered a draw this turn (and it was declined)
    used: int              # two-pieces variant: the piece that already acted this turn, or -1
    turns: int             # completed turns (for the move cap)
    history: tuple         # position keys since the last capture, the current one last
    outcome: int           # ONGOING, WIN0, WIN1, DRAWN
    reason: str            # why the game ended
    rules: Rules


def position_key(heights: tuple, board: tuple, mover: int, used: int) -> int:
    """Identity of a position for repetition: heights, what stands where, who moves (tile identity is irrelevant).

    Stored as Python's deterministic hash of a tuple of ints (the same in every process)."""
    return hash((heights, tuple(map(_PCODE_EXT.__getitem__, board)), mover, used))


_PCODE_EXT = PCODE + (0,)        # index -1 (an empty square) reads the trailing 0


def owners(board) -> list:
    return [PSIDE[b] if b >= 0 else -1 for b in board]


# ---- turn generation ------------------------------------------------------------------------------------------------

def piece_turns(H, O, s: int, me: int, ptype: int, rules: Rules, out: list) -> None:
    """Append every complete legal turn of the piece on square `s`, in sorted order."""
    enemy = 1 - me
    nb = NEIGH[s]
    hs = H[s]
    ocean = rules.ocean
    can_und = rules.samurai_undermining and ptype == SAMURAI
    srcs = [f for f in nb if H[f] > 0 and (O[f] != enemy or can_und)]
    tgts = [t for t in nb if O[t] < 0]
    climb_any = ocean and hs == 0
    append = out.append

    # single steps from s with the current heights
    steps = []
    for m in nb:
        om = O[m]
        if om < 0:
            if H[m] - hs <= 1 or climb_any:
                steps.append(m)
        elif om == enemy and hs - H[m] >= 2:
            steps.append(m)

    # DM: dig, then move
    if srcs and tgts:
        for f in srcs:
            for t in tgts:
                if t == f:
                    continue
                for m in nb:
                    om = O[m]
                    if om == me:
                        continue
                    hm = H[m]
                    if m == f:
                        hm -= 1
                    elif m == t:
                        hm += 1
                    if om < 0:
                        if hm - hs <= 1 or climb_any:
                            append((s, DM, f, t, m))
                    elif hs - hm >= 2:
                        append((s, DM, f, t, m))

    # MD: move, then dig (from the new square; the square left behind is now empty)
    for m in steps:
        pairs = _digs_from(H, O, m, s, enemy, can_und)
        for f, t in pairs:
            append((s, MD, m, f, t))

    if ptype == FISH:
        diag = DIAG2[s]
        if srcs and tgts:
            for f in srcs:
                for t in tgts:
                    if t == f:
                        continue
                    for e, mid in diag:
                        if O[mid] >= 0:
                            continue
                        hmid = H[mid] - (mid == f) + (mid == t)
                        if hmid - hs > 1 and not climb_any:
                            continue
                        oe = O[e]
                        if oe < 0:
                            if H[e] - hmid <= 1 or (ocean and hmid == 0):
                                append((s, FDM, f, t, e))
                        elif oe == enemy and hmid - H[e] >= 2:
                            append((s, FDM, f, t, e))
        for e in _diag_moves(H, O, s, enemy, ocean):
            for f, t in _digs_from(H, O, e, s, enemy, False):
                append((s, FMD, e, f, t))

    elif ptype == DRAGON:
        # DD: dig twice (the second dig may not simply put the first tile back)
        if srcs and tgts:
            for f1 in srcs:
                for t1 in tgts:
                    if t1 == f1:
                        continue
                    for f2 in nb:
                        h2 = H[f2] - (f2 == f1) + (f2 == t1)
                        if h2 <= 0 or O[f2] == enemy:
                            continue
                        for t2 in tgts:
                            if t2 == f2 or (f2 == t1 and t2 == f1):
                                continue
                            append((s, DD, f1, t1, f2, t2))
        # MM: move twice, each a basic step; not back to the start unless the first step captured
        for m1 in steps:
            captured = O[m1] == enemy
            h1 = H[m1]
            climb1 = ocean and h1 == 0
            for m2 in NEIGH[m1]:
                if m2 == s:
                    if not captured:
                        continue
                    o2 = -1
                else:
                    o2 = O[m2]
                if o2 < 0:
                    if H[m2] - h1 <= 1 or climb1:
                        append((s, MM, m1, m2))
                elif o2 == enemy and h1 - H[m2] >= 2:
                    append((s, MM, m1, m2))
        # CLIMB: one step up exactly two, no dig
        for m in nb:
            if O[m] < 0 and H[m] - hs == 2:
                append((s, CLIMB, m))

    if rules.undermining:
        for f in nb:
            if O[f] == enemy and H[f] > 0:
                for t in tgts:
                    append((s, UNDERMINE, f, t))


def _digs_from(H, O, p: int, vacated: int, enemy: int, can_und: bool) -> list:
    """Dig pairs for a piece now standing on p (having left `vacated`), heights unchanged."""
    nb = NEIGH[p]
    srcs = [f for f in nb if H[f] > 0 and (f == vacated or O[f] != enemy or can_und)]
    if not srcs:
        return []
    tgts = [t for t in nb if O[t] < 0 or t == vacated]
    return [(f, t) for f in srcs for t in tgts if f != t]


def _diag_moves(H, O, s: int, enemy: int, ocean: bool) -> list:
    hs = H[s]
    out = []
    for e, mid in DIAG2[s]:
        if O[mid] >= 0:
            continue
        hmid = H[mid]
        if hmid - hs > 1 and not (ocean and hs == 0):
            continue
        oe = O[e]
        if oe < 0:
            if H[e] - hmid <= 1 or (ocean and hmid == 0):
                out.append(e)
        elif oe == enemy and hmid - H[e] >= 2:
            out.append(e)
    return out


def all_turns(st: State) -> list:
    """Every complete legal turn of the player to move (decision moves only), sorted."""
    if st.outcome != ONGOING:
        return []
    if st.phase == 1:
        return [(DRAW, ACCEPT), (DRAW, DECLINE)]
    rules = st.rules
    H = st.heights
    B = st.board
    O = [PSIDE[b] if b >= 0 else -1 for b in B]
    me = st.mover
    out = []
    if rules.draw_offers and not st.offered and st.used < 0:
        out.append((DRAW, OFFER))
    used = st.used
    for s in range(SQUARES):
        b = B[s]
        if b >= 0 and b // 6 == me and b != used:
            piece_turns(H, O, s, me, PTYPE[b], rules, out)
    return out


def has_turn(H, B, me: int, rules: Rules, used: int = -1) -> bool:
    """Whether `me` has any complete legal turn (draw offers do not count)."""
    O = [PSIDE[b] if b >= 0 else -1 for b in B]
    enemy = 1 - me
    later = []
    for s in range(SQUARES):
        b = B[s]
        if b < 0 or b // 6 != me or b == used:
            continue
        ptype = PTYPE[b]
        can_und = rules.samurai_undermining and ptype == SAMURAI
        hs = H[s]
        climb_any = rules.ocean and hs == 0
        for m in NEIGH[s]:
            om = O[m]
            if (om < 0 and (H[m] - hs <= 1 or climb_any)) or (om == enemy and hs - H[m] >= 2):
                if _digs_from(H, O, m, s, enemy, can_und):
                    return True
        later.append((s, ptype))
    for s, ptype in later:
        out: list = []
        piece_turns(H, O, s, me, ptype, rules, out)
        if out:
            return True
    return False


# ---- applying a turn -------------------------------------------------------------------------------------------------

def turn_actions(move) -> list:
    """The move as a list of actions: ("dig", f, t), ("move", to), ("undermine", f, t), ("climb", to)."""
    kind = move[1]
    a = move[2:]
    if kind == DM or kind == FDM:
        return [("dig", a[0], a[1]), ("move", a[2])]
    if kind == MD or kind == FMD:
        return [("move", a[0]), ("dig", a[1], a[2])]
    if kind == DD:
        return [("dig", a[0], a[1]), ("dig", a[2], a[3])]
    if kind == MM:
        return [("move", a[0]), ("move", a[1])]
    if kind == CLIMB:
        return [("climb", a[0])]
    if kind == UNDERMINE:
        return [("undermine", a[0], a[1])]
    raise ValueError(kind)
