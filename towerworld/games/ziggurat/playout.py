"""Search playouts for Ziggurat, fast: place a random fitting domino while one fits, give up when none does.

Uniform play cheats as often as it builds and never finishes a deal, so its value tells a search nothing; this policy
builds. It keeps the bitboards of board.board_masks (open cells per tier, allowed values, cells beside each value)
and updates them as it places, instead of rebuilding them from the 108 slots at every step as `legal_moves` does;
board.fitting counts every fitting placement and one is drawn uniformly (as from `legal_moves`). The rules are not
written twice: a test replays traced playouts through `Game.apply`.
"""
from __future__ import annotations

import random

from towerworld.games.ziggurat.board import (DRAW, GIVE_UP, NEIGHBOUR_MASK, PLACE, TIER_MASK, ZState, board_masks,
                                             fitting)


def placing_playout(state: ZState, rng: random.Random, max_plies: int, trace: list | None = None) -> ZState:
    """Play `state` (a decision or a draw of a fixed or shuffled pile) to its end with the placing policy, at most
    `max_plies` plies (draws included). `trace`, when given, receives every move in order."""
    vals, owner = list(state.vals), list(state.owner)
    open_, allow, hot = board_masks(vals)
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
        fits = fitting(open_, allow, hot, hand, empty)
        total = 0
        for fit in fits:
            total += fit[0].bit_count()
        if not total:
            gave_up = True
            plies += 1
            if trace is not None:
                trace.append((GIVE_UP,))
            break
        pick = int(rng.random() * total)
        for cells, t, step, x, y, d in fits:
            k = cells.bit_count()
            if pick < k:
                break
            pick -= k
        for _ in range(pick):
            cells &= cells - 1
        c1 = (cells & -cells).bit_length() - 1
        c2 = c1 + step
        vals[t * 36 + c1], vals[t * 36 + c2] = x, y
        owner[t * 36 + c1] = owner[t * 36 + c2] = d
        hand.remove(d)
        empty = False
        both = (1 << c1) | (1 << c2)
        open_[t] &= ~both
        if t < 2:
            open_[t + 1] |= both & TIER_MASK[t + 1]
            above = allow[t + 1]
            for c, v in ((c1, x), (c2, y)):
                for w in range(v + 1, 7):
                    above[w] |= 1 << c
        hot[x] |= NEIGHBOUR_MASK[c1]
        hot[y] |= NEIGHBOUR_MASK[c2]
        plies += 1
        if trace is not None:
            trace.append((PLACE, t, c1, c2, x, y))
    rest = tuple(reversed(pile)) if state.pile else ()
    return ZState(tuple(vals), tuple(owner), tuple(sorted(hand)), unseen, rest, state.cheats, state.limit, state.deal,
                  gave_up)
