"""Ziggurat (Tom Gale, rules v2 2007): the pure rules core shared by the game, the solver and the player.

Geometry. The foundation map is a 6x6 grid of one-inch cells, named like a chess board: columns a-f (x), rows 1-6 (y),
cell index c = row * 6 + col. Three centred square tiers: tier 0 covers a1-f6 (18 dominoes), tier 1 covers b2-e5 (8),
tier 2 covers c3-d4 (2). A "slot" is one (tier, cell): slot = tier * 36 + cell; `vals[slot]` is the pip value of the
domino half lying there (-1 = empty) and `owner[slot]` the domino index (-1 = empty).

Dominoes: index i over the 28 pairs (lo, hi), lo <= hi, in the order 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6.

Moves (tuples of ints, mutually comparable):
  (PLACE, tier, c1, c2, v1, v2)  put the domino {v1, v2} with v1 on cell c1 and v2 on c2 (c1 < c2), on `tier`
  (CHEAT, d)                     pick up placed domino d and everything resting on it, back to the hand
  (DRAW, d)                      chance: the next domino from the pile is d (shuffled pile)
  (DEAL, n)                      chance: numbered deal n is the pile order (records of earlier versions only: the
                                 variant "numbered" now pins its deal down by the draws themselves)
  (GIVE_UP,)                     give up (only when no domino in the hand fits anywhere)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

PLACE, CHEAT, DRAW, DEAL, GIVE_UP = 0, 1, 2, 3, 4
N = 6
NCELLS = 36
NSLOTS = 108
TIER_SIZES = (18, 8, 2)
TIER_LO = (0, 1, 2)        # first column/row index inside each tier
TIER_HI = (5, 4, 3)        # last column/row index inside each tier
TIER_SQUARES = ("a1-f6", "b2-e5", "c3-d4")
NUMBERED_DEALS = 1000      # variant "numbered": the pile is one of deals 1..NUMBERED_DEALS, as the draws tell

DOMINOES: tuple[tuple[int, int], ...] = tuple((lo, hi) for lo in range(7) for hi in range(lo, 7))
DINDEX: dict[tuple[int, int], int] = {}
for _i, (_lo, _hi) in enumerate(DOMINOES):
    DINDEX[(_lo, _hi)] = _i
    DINDEX[(_hi, _lo)] = _i
ALL_MASK = (1 << 28) - 1


def dname(d: int) -> str:
    lo, hi = DOMINOES[d]
    return f"{lo}-{hi}"


TIER_WORDS = ("bottom", "middle", "top")     # how a player names the tiers


def cname(c: int) -> str:
    return "abcdef"[c % 6] + str(c // 6 + 1)


def cell_index(text: str) -> int:
    return (int(text[1]) - 1) * 6 + "abcdef".index(text[0])


def in_tier(t: int, c: int) -> bool:
    col, row = c % 6, c // 6
    return TIER_LO[t] <= col <= TIER_HI[t] and TIER_LO[t] <= row <= TIER_HI[t]


IN_TIER = tuple(tuple(in_tier(t, c) for c in range(NCELLS)) for t in range(3))
NB: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * 6 + k for r, k in ((c // 6 - 1, c % 6), (c // 6 + 1, c % 6), (c // 6, c % 6 - 1), (c // 6, c % 6 + 1))
          if 0 <= r < 6 and 0 <= k < 6)
    for c in range(NCELLS))
# plan-adjacent cell pairs (c1 < c2) on the foundation; a pair's tier is decided by how high the stacks there are
PAIRS: tuple[tuple[int, int], ...] = tuple(sorted((c, n) for c in range(NCELLS) for n in NB[c] if n > c))
TIER_PAIRS = tuple(tuple(p for p in PAIRS if IN_TIER[t][p[0]] and IN_TIER[t][p[1]]) for t in range(3))
# how many tiers lie above a cell of tier t (the half there must leave room for that many greater values)
ABOVE = tuple(tuple(sum(1 for u in range(t + 1, 3) if IN_TIER[u][c]) for c in range(NCELLS)) for t in range(3))
TOTAL_SLOTS = sum(TIER_SIZES) * 2  # 56


@dataclass(frozen=True, slots=True)
class ZState:
    vals: tuple[int, ...]      # 108 slots: pip value of the half lying there, -1 = empty
    owner: tuple[int, ...]     # 108 slots: domino index lying there, -1 = empty
    hand: tuple[int, ...]      # sorted domino indices, face up
    unseen: int                # bitmask of dominoes still face down in the pile
    pile: tuple[int, ...]      # the pile order when the deal is fixed (hidden); () when every draw is a chance move
    cheats: int
    limit: int                 # the game ends, given up, once cheats reach this
    deal: int                  # 0 shuffled, n > 0 numbered deal n, -1 a numbered deal the draws have not yet pinned down
    gave_up: bool = False
    # deal -1: the numbered deals the draws so far still allow (() before any draw: all); left out of repr, which
    # stays what it was for every other deal (recorded search traces hash it)
    deals: tuple[int, ...] = field(default=(), repr=False)


EMPTY = (-1,) * NSLOTS


@lru_cache(maxsize=4096)     # the numbered deals 1-1000 and a few fixed ones, each computed once
def deal_order(n: int) -> tuple[int, ...]:
    """The pile order (top first) of numbered deal n: a Fisher-Yates shuffle driven by splitmix64, stable forever."""
    x = (n * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF

    def nxt():
        nonlocal x
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    order = list(range(28))
    for i in range(27, 0, -1):
        j = nxt() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def heights(vals) -> list[int]:
    """How many tiers stand on each cell (tiers always fill bottom up: no gaps)."""
    return [(vals[c] >= 0) + (vals[36 + c] >= 0) + (vals[72 + c] >= 0) for c in range(NCELLS)]


def adjacent_values(vals) -> list[int]:
    """Per cell: bitmask of the values lying (on any tier) on its plan-orthogonal neighbours."""
    vm = [0] * NCELLS
    for s in range(NSLOTS):
        v = vals[s]
        if v >= 0:
            vm[s % 36] |= 1 << v
    return [_or(vm, NB[c]) for c in range(NCELLS)]


def _or(vm, cells):
    m = 0
    for n in cells:
        m |= vm[n]
    return m


def open_spots(vals, h, adj):
    """Every cell pair a domino could cover now, with what lies beneath each cell (-1 on the map) and the values
    placed next to each: (tier, c1, c2, below1, below2, beside1, beside2)."""
    spots = []
    for c1, c2 in PAIRS:
        t = h[c1]
        if t != h[c2] or t > 2:
            continue
        it = IN_TIER[t]
        if not (it[c1] and it[c2]):
            continue
        if t:
            b1 = vals[(t - 1) * 36 + c1]
            b2 = vals[(t - 1) * 36 + c2]
        else:
            b1 = b2 = -1
        spots.append((t, c1, c2, b1, b2, adj[c1], adj[c2]))
    return spots


# Bitboards: one bit per cell of the 6x6 map (bit c = cell c). See board_masks.
FULL_MAP = (1 << NCELLS) - 1
NOT_COL_F = sum(1 << c for c in range(NCELLS) if c % 6 != 5)       # cells with a right-hand neighbour
NEIGHBOUR_MASK = tuple(sum(1 << n for n in NB[c]) for c in range(NCELLS))
TIER_MASK = tuple(sum(1 << c for c in range(NCELLS) if IN_TIER[t][c]) for t in range(3))
WAYS_ROUND = tuple(((lo, hi), (hi, lo)) if lo != hi else ((lo, hi),) for lo, hi in DOMINOES)


def board_masks(vals) -> tuple[list[int], list[list[int]], list[int]]:
    """(open, allow, hot) bitboards of the ziggurat `vals`:
      open[t]      cells whose next free place is on tier t (inside tier t's square);
      allow[t][v]  cells where a half of value v may lie on tier t (what lies beneath is smaller; every cell on t0);
      hot[v]       cells orthogonally beside a half of value v, on any tier (the equal-value rule).
    Lists, so that a playout may update them in place."""
    open_ = [0, 0, 0]
    hot = [0] * 7
    under = ([0] * 7, [0] * 7)          # under[t - 1][v]: open cells of tier t resting on a v
    in_middle, in_top = IN_TIER[1], IN_TIER[2]
    for c in range(NCELLS):
        bit = 1 << c
        v = vals[c]
        if v < 0:
            open_[0] |= bit
            continue
        hot[v] |= NEIGHBOUR_MASK[c]
        w = vals[36 + c]
        if w < 0:
            if in_middle[c]:
                open_[1] |= bit
                under[0][v] |= bit
            continue
        hot[w] |= NEIGHBOUR_MASK[c]
        u = vals[72 + c]
        if u < 0:
            if in_top[c]:
                open_[2] |= bit
                under[1][w] |= bit
            continue
        hot[u] |= NEIGHBOUR_MASK[c]
    allow = [[FULL_MAP] * 7]
    for below in under:
        row, acc = [], 0
        for v in range(7):
            row.append(acc)             # a half of value v may rest on anything smaller than v
            acc |= below[v]
        allow.append(row)
    return open_, allow, hot


# The three tiers side by side in one 108-bit board (bit 36 * t + c: cell c of tier t), so that where a domino fits is
# found for every tier at once.
THREE_TIERS = 1 | 1 << NCELLS | 1 << 2 * NCELLS      # times a 36-bit map: the same cells on every tier
ACROSS_3 = NOT_COL_F * THREE_TIERS                   # cells with a right-hand neighbour, every tier
BEHIND_3 = (FULL_MAP >> 6) * THREE_TIERS             # cells with a neighbour behind (not the back row), every tier
SHIFTS = (0, NCELLS, 2 * NCELLS)                     # where each tier's cells start on the board


def board_bits(vals) -> tuple[int, list[int], list[int], bool]:
    """(free, allowed, beside, empty): board_masks on the three-tier board. `free` the cells whose next free place is
    on their tier, `allowed[v]` where a half of value v may lie, `beside[v]` the cells beside a half of value v (on
    every tier), `empty` whether nothing is placed yet. A playout keeps them up to date as it places (`mark_placed`)."""
    open_, allow, hot = board_masks(vals)
    free = open_[0] | open_[1] << NCELLS | open_[2] << 2 * NCELLS
    allowed = [allow[0][v] | allow[1][v] << NCELLS | allow[2][v] << 2 * NCELLS for v in range(7)]
    beside = [h * THREE_TIERS for h in hot]
    return free, allowed, beside, all(v < 0 for v in vals[:36])


def fits_of(free: int, allowed: list[int], beside: list[int], empty: bool, dominoes) -> tuple[list[tuple], int]:
    """The placement generator: where each of `dominoes` fits, every tier at once, as (across, behind, x, y, d) for
    each way round that fits somewhere (in the order of `dominoes`, then WAYS_ROUND), and the number of placements.
    Bit 36 * t + c of `across` means d may lie on tier t with its x half on cell c and its y half on the right-hand
    neighbour; of `behind`, its y half on the cell behind. A half rests on smaller values only (every cell of the
    bottom tier is free ground), and once the first domino lies, each new one touches an equal value beside it.
    legal_moves, the agents' `placements` and the search playout all read it."""
    fits = []
    total = 0
    for d in dominoes:
        for x, y in WAYS_ROUND[d]:
            first = free & allowed[x]
            if not first:
                continue
            second = free & allowed[y]
            if not second:
                continue
            across = first & (second >> 1) & ACROSS_3
            behind = first & (second >> 6) & BEHIND_3
            if not empty:
                near, far = beside[x], beside[y]
                across &= near | (far >> 1)
                behind &= near | (far >> 6)
            if across or behind:
                fits.append((across, behind, x, y, d))
                total += across.bit_count() + behind.bit_count()
    return fits, total


def nth_placement(fits: list[tuple], pick: int) -> tuple:
    """The placement number `pick` (0 <= pick < the count fits_of gave) in the placements' order: by tier, then as in
    `fits` (domino, way round), across before behind, cells ascending."""
    for t in (0, 1, 2):
        shift = SHIFTS[t]
        for across, behind, x, y, _d in fits:
            for cells, step in ((across >> shift & FULL_MAP, 1), (behind >> shift & FULL_MAP, 6)):
                if cells:
                    k = cells.bit_count()
                    if pick < k:
                        for _ in range(pick):
                            cells &= cells - 1
                        c = (cells & -cells).bit_length() - 1
                        return (PLACE, t, c, c + step, x, y)
                    pick -= k
    raise ValueError("no placement of that number")


def mark_placed(free: int, allowed: list[int], beside: list[int], move: tuple) -> int:
    """The bits of `board_bits` after the placement `move` (allowed and beside changed in place; the new free cells
    returned): its cells are taken, the tier above opens over both, where a half may rest on them, and their values
    have neighbours."""
    _, t, c1, c2, x, y = move
    both = (1 << c1) | (1 << c2)
    free &= ~(both << SHIFTS[t])
    if t < 2:
        up = SHIFTS[t + 1]
        free |= (both & TIER_MASK[t + 1]) << up
        for c, v in ((c1, x), (c2, y)):
            bit = 1 << (c + up)
            for w in range(v + 1, 7):
                allowed[w] |= bit
    beside[x] |= NEIGHBOUR_MASK[c1] * THREE_TIERS
    beside[y] |= NEIGHBOUR_MASK[c2] * THREE_TIERS
    return free


def placements(vals, dominoes, empty: bool | None = None) -> list[tuple]:
    """Every legal PLACE move for the given domino indices on the ziggurat `vals`, in the placements' order (tier,
    domino, way round, across before behind, cells ascending)."""
    free, allowed, beside, is_empty = board_bits(vals)
    fits, _ = fits_of(free, allowed, beside, is_empty if empty is None else empty, dominoes)
    by_tier: tuple[list, list, list] = ([], [], [])
    for across, behind, x, y, _d in fits:
        value = 7 * x + y
        while across:
            low = across & -across
            bit = low.bit_length() - 1
            by_tier[bit // NCELLS].append(PLACE_BY_KEY[bit * 98 + value])
            across ^= low
        value += 49
        while behind:
            low = behind & -behind
            bit = low.bit_length() - 1
            by_tier[bit // NCELLS].append(PLACE_BY_KEY[bit * 98 + value])
            behind ^= low
    return by_tier[0] + by_tier[1] + by_tier[2]


# every PLACE move, by a number that sorts as the moves do (tier, first cell, second cell, values): 98 * (36 * tier +
# first cell) + 49 when the second cell is behind + 7 * first value + second value
PLACE_BY_KEY = tuple((PLACE, t, c, c + (6 if behind else 1), x, y) for t in range(3) for c in range(NCELLS)
                     for behind in (0, 1) for x in range(7) for y in range(7))


def sorted_placements(vals, dominoes) -> list[tuple]:
    """sorted(placements(vals, dominoes)), faster: the moves sorted as numbers and handed out from PLACE_BY_KEY
    (`legal_moves` wants them sorted)."""
    fits, _ = fits_of(*board_bits(vals), dominoes)
    keys: list[int] = []
    for across, behind, x, y, _d in fits:
        value = 7 * x + y
        while across:
            low = across & -across
            keys.append((low.bit_length() - 1) * 98 + value)
            across ^= low
        value += 49
        while behind:
            low = behind & -behind
            keys.append((low.bit_length() - 1) * 98 + value)
            behind ^= low
    keys.sort()
    return [PLACE_BY_KEY[k] for k in keys]


def has_placement(vals, d: int, h=None, adj=None, empty=False) -> bool:
    """Whether domino d fits anywhere on `vals` (used by the agents)."""
    lo, hi = DOMINOES[d]
    for _t, _c1, _c2, b1, b2, a1, a2 in open_spots(vals, heights(vals) if h is None else h,
                                                    adjacent_values(vals) if adj is None else adj):
        if lo > b1 and hi > b2 and (empty or (a1 >> lo) & 1 or (a2 >> hi) & 1):
            return True
        if hi > b1 and lo > b2 and (empty or (a1 >> hi) & 1 or (a2 >> lo) & 1):
            return True
    return False


def put(vals: list, owner: list, hand: list, move: tuple) -> int:
    """The PLACE `move` laid: its halves on their slots of `vals` and `owner`, the domino out of `hand` (lists, changed
    in place); the domino returned. The rules' step and the search playout lay dominoes here."""
    _, t, c1, c2, v1, v2 = move
    d = DINDEX[(v1, v2)]
    s1 = t * 36 + c1
    s2 = t * 36 + c2
    vals[s1] = v1
    vals[s2] = v2
    owner[s1] = owner[s2] = d
    hand.remove(d)
    return d


def slots_of(owner, d: int) -> list[int]:
    return [s for s in range(NSLOTS) if owner[s] == d]


def lifted_with(owner, d: int) -> list[int]:
    """Domino d and everything resting on it (directly or through others), d first, then in lifting order."""
    order = [d]
    seen = {d}
    i = 0
    while i < len(order):
        for s in slots_of(owner, order[i]):
            if s < 72:
                up = owner[s + 36]
                if up >= 0 and up not in seen:
                    seen.add(up)
                    order.append(up)
        i += 1
    return order


def lift(vals, owner, d: int):
    """(vals, owner, lifted dominoes) after picking up d with everything resting on it."""
    lifted = lifted_with(owner, d)
    gone = set(lifted)
    nv = list(vals)
    no = list(owner)
    for s in range(NSLOTS):
        if no[s] in gone:
            nv[s] = -1
            no[s] = -1
    return tuple(nv), tuple(no), lifted


def position_of(vals, owner, d: int):
    """(tier, c1, c2, v1, v2) of a placed domino, c1 < c2, or None."""
    ss = slots_of(owner, d)
    if len(ss) != 2:
        return None
    s1, s2 = ss
    return (s1 // 36, s1 % 36, s2 % 36, vals[s1], vals[s2])


def title(cheats: int) -> str:
    return ("Legendary Architect of the Divine", "Master Architect", "Reputable Architect", "Modest Architect",
            "Feeble Architect")[cheats] if cheats < 5 else "Disgraceful Blundering Saboteur"


def tier_counts(owner) -> tuple[int, int, int]:
    bottom, middle, top = (len({owner[s] for s in range(t * 36, t * 36 + 36) if owner[s] >= 0}) for t in range(3))
    return bottom, middle, top
