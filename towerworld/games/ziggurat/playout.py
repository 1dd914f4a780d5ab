"""Search playouts for Ziggurat, fast: place a random fitting domino while one fits, give up when none does.

Uniform play cheats as often as it builds and never finishes a deal, so its value tells a search nothing; this policy
builds. It keeps the bitboards of board.board_masks (open cells per tier, allowed values, cells beside each value)
and updates them as it places, instead of rebuilding them from the 108 slots at every step as `legal_moves` does;
one placement is drawn uniformly among all that fit (as from `legal_moves`). The rules are not written twice: a test
replays traced playouts through `Game.apply`.

The three tiers lie side by side in one 108-bit board (bit 36 * t + c: cell c of tier t), so that where a domino
fits is found for all tiers at once (board.fitting asks tier by tier), and the count of placements is a few bit
counts. The draw then walks the fits in board.fitting's order (tier, domino, way round, direction; cells ascending),
so the same random number picks the same placement as before.
"""
from __future__ import annotations

import random

from towerworld.games.ziggurat.board import (ACROSS_3 as _ACROSS, BEHIND_3 as _BEHIND, DRAW, FULL_MAP, GIVE_UP,
                                             NCELLS, NEIGHBOUR_MASK, PLACE, THREE_TIERS as _THREE, TIER_MASK,
                                             WAYS_ROUND, ZState, board_masks)

_SHIFTS = (0, NCELLS, 2 * NCELLS)


def placing_playout(state: ZState, rng: random.Random, max_plies: int, trace: list | None = None) -> ZState:
    """Play `state` (a decision or a draw of a fixed or shuffled pile) to its end with the placing policy, at most
    `max_plies` plies (draws included). `trace`, when given, receives every move in order."""
    vals, owner = list(state.vals), list(state.owner)
    open_, allow, hot = board_masks(vals)
    free = open_[0] | open_[1] << NCELLS | open_[2] << 2 * NCELLS
    allowed = [allow[0][v] | allow[1][v] << NCELLS | allow[2][v] << 2 * NCELLS for v in range(7)]
    beside = [h * _THREE for h in hot]
    hand = list(state.hand)
    unseen = state.unseen
    if state.pile:
        pile = list(reversed(state.pile))     # draws pop from the end
    else:
        pile = [d for d in range(28) if unseen >> d & 1]
        rng.shuffle(pile)                     # drawing one unseen domino at a time, uniformly, is a shuffle
    empty = all(v < 0 for v in vals[:36])
    gave_up = False
    plies = 0
    while plies < max_plies:
        if len(hand) < 3 and pile:
            d = pile.pop()
            hand.append(d)
            unseen &= ~(1 << d)
            plies += 1
            if trace is not None:
                trace.append((DRAW, d))
            continue
        if not hand:
            break
        # where each domino of the hand fits, every tier at once: x on a cell of `across`, y on its right-hand
        # neighbour; x on a cell of `behind`, y on the cell behind it
        fits = []
        total = 0
        for d in hand:
            for x, y in WAYS_ROUND[d]:
                first = free & allowed[x]
                if not first:
                    continue
                second = free & allowed[y]
                if not second:
                    continue
                across = first & (second >> 1) & _ACROSS
                behind = first & (second >> 6) & _BEHIND
                if not empty:
                    near, far = beside[x], beside[y]
                    across &= near | (far >> 1)
                    behind &= near | (far >> 6)
                if across or behind:
                    fits.append((across, behind, x, y, d))
                    total += across.bit_count() + behind.bit_count()
        if not total:
            gave_up = True
            plies += 1
            if trace is not None:
                trace.append((GIVE_UP,))
            break
        pick = int(rng.random() * total)
        found = False
        for t in (0, 1, 2):
            shift = _SHIFTS[t]
            for across, behind, x, y, d in fits:
                cells = across >> shift & FULL_MAP
                if cells:
                    k = cells.bit_count()
                    if pick < k:
                        step = 1
                        found = True
                        break
                    pick -= k
                cells = behind >> shift & FULL_MAP
                if cells:
                    k = cells.bit_count()
                    if pick < k:
                        step = 6
                        found = True
                        break
                    pick -= k
            if found:
                break
        for _ in range(pick):
            cells &= cells - 1
        c1 = (cells & -cells).bit_length() - 1
        c2 = c1 + step
        vals[t * 36 + c1], vals[t * 36 + c2] = x, y
        owner[t * 36 + c1] = owner[t * 36 + c2] = d
        hand.remove(d)
        empty = False
        both = (1 << c1) | (1 << c2)
        free &= ~(both << _SHIFTS[t])
        if t < 2:
            up = _SHIFTS[t + 1]
            free |= (both & TIER_MASK[t + 1]) << up
            for c, v in ((c1, x), (c2, y)):
                bit = 1 << (c + up)
                for w in range(v + 1, 7):
                    allowed[w] |= bit
        beside[x] |= NEIGHBOUR_MASK[c1] * _THREE
        beside[y] |= NEIGHBOUR_MASK[c2] * _THREE
        plies += 1
        if trace is not None:
            trace.append((PLACE, t, c1, c2, x, y))
    rest = tuple(reversed(pile)) if state.pile else ()
    return ZState(tuple(vals), tuple(owner), tuple(sorted(hand)), unseen, rest, state.cheats, state.limit, state.deal,
                  gave_up, state.deals)
