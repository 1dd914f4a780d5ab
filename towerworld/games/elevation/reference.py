"""A plain turn generator for Elevation: every part of a turn tried square by square on copied lists, no tables and no
bit masks. It is slow and simple on purpose: the yardstick that `rules.all_turns` (the search's fast generator) is
checked against on many positions (tests/test_elevation_generator.py) and timed against (bench.py).
"""
from __future__ import annotations

from towerworld.games.elevation.board import (
    ACCEPT, ADJACENT, DECLINE, DIG_DIG, DIG_MOVE, DRAGON, DRAW, FISH, FISH_DIG_LEAP, FISH_LEAP_DIG, LEAPS, LONE_STEP,
    MOVE_DIG, MOVE_MOVE, NEIGHBOURS, OFFER, SAMURAI, SQUARES, UNDERMINE)


def reference_turns(st) -> list:
    """Every complete legal turn of the player to move, sorted (the same list `rules.all_turns` gives)."""
    if st.outcome != -1:
        return []
    if st.phase == 1:
        return [(DRAW, ACCEPT), (DRAW, DECLINE)]
    out = []
    if st.rules.draw_offers and not st.offered and st.used < 0:
        out.append((DRAW, OFFER))
    for s in range(SQUARES):
        b = st.board[s]
        if b >= 0 and b // 6 == st.mover and b != st.used:
            out += _piece_turns(st, s, st.kinds[b])
    return sorted(set(out))


class _Board:
    """Heights and pieces as they stand part-way through a turn."""

    def __init__(self, st, me: int):
        self.heights = list(st.heights)
        self.board = list(st.board)
        self.me = me
        self.ocean = st.rules.ocean

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.heights, other.board = list(self.heights), list(self.board)
        other.me, other.ocean = self.me, self.ocean
        return other

    def enemy(self, q: int) -> bool:
        return self.board[q] >= 0 and self.board[q] // 6 != self.me

    def can_dig(self, here: int, f: int, t: int, under_enemy: bool) -> bool:
        """A tile from a neighbour with terrain (not from beneath an enemy unless allowed) onto another, empty,
        neighbour."""
        return (f in ADJACENT[here] and t in ADJACENT[here] and f != t and self.heights[f] > 0
                and (under_enemy or not self.enemy(f)) and self.board[t] < 0)

    def dig(self, f: int, t: int) -> _Board:
        after = self.copy()
        after.heights[f] -= 1
        after.heights[t] += 1
        return after

    def can_step(self, here: int, to: int, climb: int, capture: bool = True) -> bool:
        """Onto an empty square at most `climb` higher (any height from the floor of the box under the ocean rule),
        or onto an enemy at least two lower."""
        rise = self.heights[to] - self.heights[here]
        if self.board[to] < 0:
            return rise <= climb or (self.ocean and self.heights[here] == 0)
        return capture and self.enemy(to) and rise <= -2

    def step(self, here: int, to: int) -> _Board:
        after = self.copy()
        after.board[to] = after.board[here]
        after.board[here] = -1
        return after


def _piece_turns(st, s: int, kind: int) -> list:
    rules = st.rules
    start = _Board(st, st.mover)
    near = NEIGHBOURS[s]
    samurai_digs = kind == SAMURAI and rules.samurai_undermining
    out: list[tuple[int, ...]] = []
    digs = [(f, t) for f in near for t in near if start.can_dig(s, f, t, samurai_digs)]
    for f, t in digs:                                   # basic: dig, then move
        after = start.dig(f, t)
        out += [(s, DIG_MOVE, f, t, m) for m in near if after.can_step(s, m, 1)]
    for m in near:                                      # basic: move, then dig
        if start.can_step(s, m, 1):
            after = start.step(s, m)
            out += [(s, MOVE_DIG, m, f, t) for f in NEIGHBOURS[m] for t in NEIGHBOURS[m]
                    if after.can_dig(m, f, t, samurai_digs)]
    if kind == FISH:
        for f, t in digs:                               # dig, then two squares diagonally
            after = start.dig(f, t)
            out += [(s, FISH_DIG_LEAP, f, t, end) for end, mid in LEAPS[s] if _leaps(after, s, mid, end)]
        for end, mid in LEAPS[s]:                       # two squares diagonally, then dig
            if _leaps(start, s, mid, end):
                after = start.step(s, end)
                out += [(s, FISH_LEAP_DIG, end, f, t) for f in NEIGHBOURS[end] for t in NEIGHBOURS[end]
                        if after.can_dig(end, f, t, False)]
    if kind == DRAGON:
        for f1, t1 in digs:                             # dig twice, not putting the first tile straight back
            after = start.dig(f1, t1)
            out += [(s, DIG_DIG, f1, t1, f2, t2) for f2 in near for t2 in near
                    if after.can_dig(s, f2, t2, False) and (f2, t2) != (t1, f1)]
        for m1 in near:                                 # step twice, back where it started only after a capture
            if start.can_step(s, m1, 1):
                after = start.step(s, m1)
                out += [(s, MOVE_MOVE, m1, m2) for m2 in NEIGHBOURS[m1]
                        if after.can_step(m1, m2, 1) and (m2 != s or start.enemy(m1))]
        out += [(s, LONE_STEP, m) for m in near if start.can_step(s, m, 2)]     # one step climbing up to two
    if rules.undermining:                               # a dig from beneath an enemy instead of the turn
        out += [(s, UNDERMINE, f, t) for f in near for t in near if start.enemy(f) and start.can_dig(s, f, t, True)]
    return out


def _leaps(board: _Board, s: int, mid: int, end: int) -> bool:
    """The fish's diagonal move over an empty middle square, each step under the climb rule, a capture only at the
    end."""
    return board.board[mid] < 0 and board.can_step(s, mid, 1, capture=False) and board.can_step(mid, end, 1)
