"""Ziggurat deal analyser (omniscient: knows the whole pile order) and the searches the agents in strategy.py share.

Analyser. `analyse` (in strategy.py, with the fair player as a second opinion) searches, depth first with memo and
pruning, for a zero-cheat ziggurat given the pile order (top first). Pruning uses necessary conditions only, so "impossible" is a proof:
  * value room: a half on tier t at a cell with k tiers still to come above it must be at most 6 - k;
  * Hall's condition on intervals: every empty slot needs a value in [lo, hi] (lo from what lies below, hi from the
    tiers still to come above); the remaining halves must be able to fill them;
  * tiling parity: every connected region of empty cells of a tier must hold as many dark as light cells of the
    checkerboard (a domino always covers one of each).
When no zero-cheat line exists (or none was found in time) it looks for lines with 1, 2, ... cheats (cheats tried
where no placement survives the pruning), and finally completes greedily, so it always reports the fewest cheats it
found; `status` says whether zero cheats was found, proven impossible, or left undecided.

Player. Sees the hand, the ziggurat and which dominoes are unseen (never the pile order). It samples pile orders of
the unseen dominoes (determinization), runs a short zero-cheat search on each, and plays the first move that succeeds
most often; with no success it plays the placement that leaves most of the remaining dominoes placeable. When nothing
fits it cheats, lifting the cheapest domino that lets the most hand dominoes fit again.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from towerworld.games.ziggurat.board import (
    ABOVE, CHEAT, DINDEX, DOMINOES, GIVE_UP, IN_TIER, NB, NCELLS, PLACE, heights, lift, placements,
)

# ---- bit tricks for tiling parity ------------------------------------------------------------------------------------
_NOT_COL0 = sum(1 << c for c in range(36) if c % 6 != 0)
_NOT_COL5 = sum(1 << c for c in range(36) if c % 6 != 5)
_FULL = (1 << 36) - 1
_DARK = sum(1 << c for c in range(36) if (c % 6 + c // 6) % 2 == 0)
_TIER_MASK = tuple(sum(1 << c for c in range(36) if IN_TIER[t][c]) for t in range(3))


def _spread(m: int) -> int:
    return (m | ((m << 1) & _NOT_COL0) | ((m >> 1) & _NOT_COL5) | (m << 6) | (m >> 6)) & _FULL


def _balanced(empty: int) -> bool:
    """Every 4-connected region of the cell mask `empty` has as many dark as light cells."""
    while empty:
        region = empty & -empty
        while True:
            grown = _spread(region) & empty
            if grown == region:
                break
            region = grown
        dark = bin(region & _DARK).count("1")
        if 2 * dark != bin(region).count("1"):
            return False
        empty &= ~region
    return True


def feasible(vals, counts) -> bool:
    """Necessary conditions for completing the ziggurat with the remaining halves `counts[v]` (no cheats)."""
    # slot intervals
    need = [[0] * 7 for _ in range(7)]  # need[lo][hi]
    for t in range(3):
        base = t * 36
        empty = 0
        for c in range(NCELLS):
            if not IN_TIER[t][c] or vals[base + c] >= 0:
                continue
            empty |= 1 << c
            if t == 0:
                lo = 0
            elif t == 1:
                b = vals[c]
                lo = b + 1 if b >= 0 else 1
            else:
                b = vals[36 + c]
                if b >= 0:
                    lo = b + 1
                else:
                    b = vals[c]
                    lo = b + 2 if b >= 0 else 2
            hi = 6 - ABOVE[t][c]
            if lo > hi:
                return False
            need[lo][hi] += 1
        if empty and not _balanced(empty):
            return False
    # Hall's condition for intervals: slots whose interval lies inside [a, b] need that many halves in [a, b]
    for a in range(7):
        have = 0
        want = 0
        for b in range(a, 7):
            have += counts[b]
            for lo in range(a, b + 1):
                want += need[lo][b]
            if want > have:
                return False
    return True


def _counts_of(dominoes) -> list[int]:
    counts = [0] * 7
    for d in dominoes:
        lo, hi = DOMINOES[d]
        counts[lo] += 1
        counts[hi] += 1
    return counts


def _room_ok(move) -> bool:
    _, t, c1, c2, v1, v2 = move
    return v1 + ABOVE[t][c1] <= 6 and v2 + ABOVE[t][c2] <= 6


# symmetries of the 6x6 map (for the very first domino)
def _sym(c: int, k: int) -> int:
    x, y = c % 6, c // 6
    for _ in range(k % 4):
        x, y = 5 - y, x
    if k >= 4:
        x = 5 - x
    return y * 6 + x


def _canonical_first(move) -> tuple:
    _, t, c1, c2, v1, v2 = move

    def image(k: int) -> tuple:
        a, b = _sym(c1, k), _sym(c2, k)
        return (PLACE, t, a, b, v1, v2) if a < b else (PLACE, t, b, a, v2, v1)

    return min(image(k) for k in range(8))


def _order_key(vals, move):
    """Cheap move ordering: upper tiers first (they use the big values while room lasts), then towards the edge for
    big values and the centre for small ones, then the number of equal neighbours the domino creates."""
    _, t, c1, c2, v1, v2 = move
    score = t * 10.0
    for c, v in ((c1, v1), (c2, v2)):
        room = 6 - ABOVE[t][c]
        score -= (room - v) * 0.8          # waste of room beneath future tiers
    return -score


def largest_group(dominoes) -> int:
    """The most dominoes of `dominoes` joined by shared values (a domino a-b joins values a and b).

    Every domino placed since the ziggurat was last empty shares a value with one placed before it, so the ziggurat
    always holds dominoes of one such group."""
    parent = list(range(7))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for d in dominoes:
        lo, hi = DOMINOES[d]
        parent[find(lo)] = find(hi)
    count: dict = {}
    for d in dominoes:
        r = find(DOMINOES[d][0])
        count[r] = count.get(r, 0) + 1
    return max(count.values(), default=0)


def blocked(drawn, pile_left: int) -> bool:
    """No number of cheats can ever finish: to draw again, all but two of the drawn dominoes must stand at once (all of
    them when the pile is empty), but they split into value groups too small (see largest_group)."""
    need = len(drawn) - 2 if pile_left else len(drawn)
    return largest_group(drawn) < need


def blocked_at(order):
    """The number of draws after which deal `order` is blocked for good (see blocked), or None."""
    for k in range(3, 29):
        if blocked(order[:k], 28 - k):
            return k
    return None


class _Timeout(Exception):
    pass


@dataclass
class Analysis:
    status: str                    # "zero" (a zero-cheat ziggurat exists), "impossible" (proven none), "undecided",
    #                                "blocked" (proven: no number of cheats finishes, see blocked_at)
    cheats: int | None             # fewest cheats found (0 when status is zero); None if nothing was completed
    line: list = field(default_factory=list)   # decision moves of the best line found (placements and cheats)
    nodes: int = 0
    seconds: float = 0.0


class _ZeroSearch:
    """Depth-first search for a zero-cheat completion from (vals, hand, future pile) with memo and pruning."""

    def __init__(self, deadline: float, node_limit: int | None = None, avoid=()):
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.failed: set = set(avoid)  # positions (see key()) never to enter: known dead ends or already visited
        self.deepest = 0                # placements on the best line seen (by dominoes drawn, then placements)
        self.deepest_drawn = 0          # dominoes drawn from the pile along that line
        self.best = (-1, -1)
        self.deepest_line: list = []

    def run(self, vals, hand, pile, line=None):
        """Moves completing the ziggurat, or None (exhausted). Raises _Timeout past the deadline or node limit."""
        self.line = list(line or [])
        self.vals = list(vals)
        self.pile0 = len(pile)
        return self._dfs(tuple(sorted(hand)), tuple(pile))

    def _dfs(self, hand, pile):
        if not hand:
            return list(self.line)
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Timeout
        vals = self.vals
        key = position_key(vals, hand)
        if self.line and key in self.failed:
            return None
        here = (self.pile0 - len(pile), len(self.line))
        if here > self.best:
            self.best = here
            self.deepest_drawn, self.deepest = here
            self.deepest_line = list(self.line)
        empty = all(v < 0 for v in vals[:36])
        moves = [m for m in placements(vals, hand, empty) if _room_ok(m)]
        if empty:
            moves = sorted(set(_canonical_first(m) for m in moves))
        remaining = hand + pile
        moves.sort(key=lambda m: _order_key(vals, m))
        for m in moves:
            _, t, c1, c2, v1, v2 = m
            d = DINDEX[(v1, v2)]
            s1, s2 = t * 36 + c1, t * 36 + c2
            vals[s1] = v1
            vals[s2] = v2
            rest = tuple(x for x in remaining if x != d)
            if feasible(vals, _counts_of(rest)):
                nh = tuple(x for x in hand if x != d)
                np_ = pile
                if pile and len(nh) < 3:
                    nh = tuple(sorted(nh + (pile[0],)))
                    np_ = pile[1:]
                self.line.append(m)
                got = self._dfs(nh, np_)
                if got is not None:
                    vals[s1] = vals[s2] = -1
                    return got
                self.line.pop()
            vals[s1] = vals[s2] = -1
        self.failed.add(key)
        return None


def position_key(vals, hand):
    return (bytes(v + 1 for v in vals), tuple(sorted(hand)))


def _state_after(vals, owner, move):
    _, t, c1, c2, v1, v2 = move
    d = DINDEX[(v1, v2)]
    nv, no = list(vals), list(owner)
    nv[t * 36 + c1], nv[t * 36 + c2] = v1, v2
    no[t * 36 + c1] = no[t * 36 + c2] = d
    return tuple(nv), tuple(no)


def _mobility(vals, dominoes) -> int:
    """How many of `dominoes` fit somewhere on `vals` (rules.has_placement, batched)."""
    if not dominoes:
        return 0
    fits = {DINDEX[(m[4], m[5])] for m in placements(vals, dominoes)}
    return len(fits)


def _progress(vals, hand, pile, node_limit: int, deadline: float, avoid=()) -> tuple[float, int]:
    """(progress, placements) of a short exact search from here: progress counts the dominoes it gets to draw from
    the pile (the only real progress: re-placing lifted dominoes draws nothing), 100 more when it finishes."""
    s = _ZeroSearch(deadline, node_limit=node_limit, avoid=avoid)
    try:
        line = s.run(vals, hand, pile)
        if line is not None:
            return 100.0 + len(pile), len(line)
    except _Timeout:
        pass
    return float(s.deepest_drawn), s.deepest


def _near_spots(vals) -> set:
    """Plan cells where a domino half could go now (the next tier up is inside its square), and their neighbours."""
    h = heights(vals)
    spots = {c for c in range(NCELLS) if h[c] <= 2 and IN_TIER[h[c]][c]}
    near = set(spots)
    for c in spots:
        near.update(NB[c])
    return near


def _cells_of(owner, d) -> set:
    return {s % 36 for s in range(108) if owner[s] == d}


def cheat_options(vals, owner, pairs: bool, max_pairs: int = 80):
    """Ways to cheat: (cheat moves, dominoes lifted, vals after, owner after): every single lift, and pairs of lifts
    (a stuck position often needs two dominoes out of the way): all pairs when `pairs`, else pairs of dominoes next
    to where something could be placed."""
    out = []
    placed = sorted({x for x in owner if x >= 0})
    near = _near_spots(vals)
    n_pairs = 0
    for d in placed:
        nv, no, lifted = lift(vals, owner, d)
        out.append(([(CHEAT, d)], lifted, nv, no))
        if not pairs and not (_cells_of(owner, d) & near):
            continue
        near2 = near if not pairs else None
        if near2 is not None:
            near2 = _near_spots(nv)
        for e in sorted({x for x in no if x > d}):
            if n_pairs >= max_pairs:
                break
            if near2 is not None and not (_cells_of(no, e) & near2):
                continue
            nv2, no2, lifted2 = lift(nv, no, e)
            if len(lifted) + len(lifted2) > 3:
                continue
            out.append(([(CHEAT, d), (CHEAT, e)], lifted + lifted2, nv2, no2))
            n_pairs += 1
    out.sort(key=lambda o: (len(o[1]), o[0]))
    return out


def choose_cheat(vals, owner, hand, piles, deadline: float, node_limit: int = 200, avoid=()):
    """The cheat(s) when nothing fits: for every way to cheat, how many dominoes a short search then adds to the
    ziggurat (net of those lifted, averaged over the candidate pile orders `piles`), less 2 per domino lifted.
    Returns the list of cheat moves of the best option."""
    best = None
    placed = len({x for x in owner if x >= 0})
    for moves, lifted, nv, no in cheat_options(vals, owner, placed <= 6):
        if best is not None and time.perf_counter() > deadline:
            break
        nh = tuple(hand) + tuple(lifted)
        cost = len(lifted)
        total = 0.0
        for pile in piles:
            if position_key(nv, nh) in avoid or not feasible(nv, _counts_of(nh + tuple(pile))):
                total -= 5
                continue
            drawn, placed_after = _progress(nv, nh, pile, node_limit, deadline + 0.05, avoid)
            total += drawn + 0.1 * (placed_after - cost)
        score = total / max(len(piles), 1) - 2.0 * cost
        if best is None or score > best[0]:
            best = (score, moves)
    if best is None:
        # cheat_options is empty only when nothing is placed, and then the first domino always fits
        raise ValueError("choose_cheat was asked for a cheat on a ziggurat with nothing to lift.")
    return best[1]


def greedy_move(vals, owner, hand, unseen, rng: random.Random | None = None):
    """One-ply greedy: the feasible placement leaving the most of the remaining dominoes placeable (None if no
    placement exists)."""
    moves = [m for m in placements(vals, hand) if _room_ok(m)] or placements(vals, hand)
    if not moves:
        return None
    best, best_key = None, None
    for m in moves:
        d = DINDEX[(m[4], m[5])]
        nv, _ = _state_after(vals, owner, m)
        rest = tuple(x for x in hand if x != d)
        ok = feasible(nv, _counts_of(rest + tuple(unseen)))
        mob_h = _mobility(nv, rest)
        mob_u = _mobility(nv, tuple(unseen)) if unseen else 0
        key = (ok, mob_h * 2 + mob_u, -_order_key(vals, m), rng.random() if rng else 0)
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best


def clairvoyant_move(vals, owner, hand, pile, budget: float, avoid=()):
    """(moves, zero_line) for the analyser who knows the pile: a zero-further-cheat line when found (zero_line), else
    the first move of the deepest line found, else the best cheat(s). `avoid`: positions already visited."""
    start = time.perf_counter()
    s = _ZeroSearch(start + budget * 0.6, avoid=avoid)
    try:
        line = s.run(vals, hand, pile)
        if line is not None:
            return line[:1], line
    except _Timeout:
        pass
    if s.deepest_line:
        return [s.deepest_line[0]], None
    if not placements(vals, hand) and blocked(list(hand) + [x for x in set(owner) if x >= 0], len(pile)):
        return [(GIVE_UP,)], None
    # cheats decide the score: they get more time than a placement
    return choose_cheat(vals, owner, hand, [tuple(pile)], start + max(budget * 4, 0.4), avoid=avoid), None


def play_clairvoyant(order, move_budget: float = 0.05, limit: int = 30):
    """(cheats, line) of the clairvoyant policy on deal `order`; cheats None if it gave up at `limit`."""
    vals, owner = (-1,) * 108, (-1,) * 108
    hand, pile, cheats = list(order[:3]), list(order[3:]), 0
    line: list = []
    seen: set = set()
    while hand and cheats < limit:
        seen.add(position_key(vals, hand))
        if blocked(list(hand) + [x for x in set(owner) if x >= 0], len(pile)):
            return None, line + [(GIVE_UP,)]
        ms, zero = clairvoyant_move(vals, owner, tuple(hand), tuple(pile), move_budget, seen)
        if zero is not None:
            return cheats, line + zero
        for m in ms:
            line.append(m)
            if m[0] == PLACE:
                vals, owner = _state_after(vals, owner, m)
                hand.remove(DINDEX[(m[4], m[5])])
                while len(hand) < 3 and pile:
                    hand.append(pile.pop(0))
            else:
                vals, owner, lifted = lift(vals, owner, m[1])
                hand += lifted
                cheats += len(lifted)
    return (None if hand else cheats), line
