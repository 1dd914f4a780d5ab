"""Ziggurat (Tom Gale, rules v2 2007): the rules (who moves, move generation, the one step function, the outcome and
the refusals) over the vocabulary of board.py."""
from __future__ import annotations

import random

from towerworld.engine.game import CHANCE, TERMINAL, Event, EventKind, IllegalMove
from towerworld.games.ziggurat.board import (CHEAT, DEAL, DINDEX, DRAW, GIVE_UP, IN_TIER, NB, NCELLS, NUMBERED_DEALS,
                                             PLACE, TIER_SQUARES, TIER_WORDS, ZState, board_bits, cname, deal_order,
                                             dname, fits_of, heights, lift, mark_placed, nth_placement, put,
                                             sorted_placements)

CHEAT_SCALE = 28     # without a cheat limit, a ziggurat finished with this many cheats or more is worth 0


def current_player(state):
    if state.gave_up or (state.limit and state.cheats >= state.limit):
        return TERMINAL
    if len(state.hand) < 3 and state.unseen:
        return CHANCE
    if not state.hand:
        return TERMINAL
    return 0


def legal_moves(state):
    if current_player(state) != 0:
        return []
    # placements first, then cheats by domino, then giving up: PLACE < CHEAT < GIVE_UP, so this is sorted
    moves = sorted_placements(state.vals, state.hand)
    moves += [(CHEAT, d) for d in sorted(set(state.owner)) if d >= 0]
    if len(moves) == 0 or moves[0][0] != PLACE:
        moves.append((GIVE_UP,))
    return moves


def chance_outcomes(state):
    if current_player(state) != CHANCE:
        return []
    if state.deal < 0:
        # a numbered deal, decided by nothing but what is drawn: the next domino of each deal the draws so far allow
        left = deals_left(state)
        k = 28 - state.unseen.bit_count()
        counts: dict[int, int] = {}
        for n in left:
            d = deal_order(n)[k]
            counts[d] = counts.get(d, 0) + 1
        return [((DRAW, d), c / len(left)) for d, c in sorted(counts.items())]
    if state.pile:
        return [((DRAW, state.pile[0]), 1.0)]
    ds = [d for d in range(28) if state.unseen >> d & 1]
    p = 1.0 / len(ds)
    return [((DRAW, d), p) for d in ds]


def step(state, move):
    kind = move[0]
    if kind == PLACE:
        _, t, c1, c2, v1, v2 = move
        nv, no, left = list(state.vals), list(state.owner), list(state.hand)
        d = put(nv, no, left, move)
        new = ZState(tuple(nv), tuple(no), tuple(left), state.unseen, state.pile, state.cheats, state.limit,
                     state.deal, False, state.deals)
        return new, [Event(EventKind.PLACE, (f"domino:{dname(d)}",),
                           f"The {v1}-{v2} is placed on {cname(c1)}-{cname(c2)} of the {TIER_WORDS[t]} tier.")]
    if kind == DRAW:
        d = move[1]
        hand = tuple(sorted(state.hand + (d,)))
        pile = state.pile[1:] if state.pile else ()
        deal, deals = state.deal, state.deals
        if deal < 0:
            deal, pile, deals = _pin(state, d)
        new = ZState(state.vals, state.owner, hand, state.unseen & ~(1 << d), pile, state.cheats, state.limit,
                     deal, False, deals)
        return new, [Event(EventKind.DRAW, (f"domino:{dname(d)}",), f"Player 1 draws the {dname(d)}.", reveals=True)]
    if kind == CHEAT:
        d = move[1]
        nv, no, lifted = lift(state.vals, state.owner, d)
        hand = tuple(sorted(state.hand + tuple(lifted)))
        cheats = state.cheats + len(lifted)
        new = ZState(nv, no, hand, state.unseen, state.pile, cheats, state.limit, state.deal, False, state.deals)
        names = ", ".join(dname(x) for x in lifted)
        text = (f"Cheat: the {dname(d)} is picked up" + (f" with what rested on it ({names})" if len(lifted) > 1
                                                          else "") + f"; {len(lifted)} cheat"
                + ("s" if len(lifted) > 1 else "") + f", {cheats} in all.")
        return new, [Event(EventKind.LIFT, tuple(f"domino:{dname(x)}" for x in lifted), text)]
    if kind == GIVE_UP:
        new = ZState(state.vals, state.owner, state.hand, state.unseen, state.pile, state.cheats, state.limit,
                     state.deal, True, state.deals)
        return new, [Event(EventKind.GIVE_UP, (), "Player 1 gives up: the gods are not pleased.")]
    if kind == DEAL:
        n = move[1]
        new = ZState(state.vals, state.owner, state.hand, state.unseen, deal_order(n), state.cheats,
                     state.limit, n)
        return new, [Event(EventKind.SHUFFLE, (), "The dominoes are mixed face down.")]
    raise IllegalMove("That is not a Ziggurat move.")


def deals_left(state) -> tuple[int, ...] | range:
    """The numbered deals a game of deal -1 may still be: those whose first draws are the draws so far."""
    return state.deals or range(1, NUMBERED_DEALS + 1)


def _pin(state, d: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """(deal, pile, deals) after drawing `d` in a numbered deal not yet pinned down: the deals that drew it; once one
    is left (or nothing is left to draw) it is the deal, and its pile order the rest. A draw no numbered deal makes
    (an unchecked playout) leaves a shuffled pile."""
    k = 28 - state.unseen.bit_count()
    left = tuple(n for n in deals_left(state) if deal_order(n)[k] == d)
    if not left:
        return 0, (), ()
    if len(left) == 1 or state.unseen & ~(1 << d) == 0:
        return left[0], deal_order(left[0])[k + 1:], ()
    return -1, (), left


def placing_playout(state: ZState, rng: random.Random, max_plies: int, trace: list | None = None) -> ZState:
    """The search playout: from `state` (a decision or a draw of a fixed or shuffled pile), draw while the hand holds
    fewer than three and the pile has dominoes, place a fitting domino drawn uniformly among every placement of the
    hand (uniform play cheats as often as it builds, so its value says nothing), give up when none fits; at most
    `max_plies` plies, draws included. Placements come from the rules' generator (board.fits_of, in the placements'
    order) on bitboards kept up to date as dominoes are laid (board.mark_placed) and are laid by board.put, as the
    rules' step lays them. `trace`, when given, receives every move in order."""
    vals, owner, hand = list(state.vals), list(state.owner), list(state.hand)
    free, allowed, beside, empty = board_bits(vals)
    unseen = state.unseen
    if state.pile:
        pile = list(reversed(state.pile))     # draws pop from the end
    else:
        pile = [d for d in range(28) if unseen >> d & 1]
        rng.shuffle(pile)                     # drawing one unseen domino at a time, uniformly, is a shuffle
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
        fits, total = fits_of(free, allowed, beside, empty, hand)
        plies += 1
        if not total:
            gave_up = True
            if trace is not None:
                trace.append((GIVE_UP,))
            break
        move = nth_placement(fits, int(rng.random() * total))
        put(vals, owner, hand, move)
        free = mark_placed(free, allowed, beside, move)
        empty = False
        if trace is not None:
            trace.append(move)
    rest = tuple(reversed(pile)) if state.pile else ()
    return ZState(tuple(vals), tuple(owner), tuple(sorted(hand)), unseen, rest, state.cheats, state.limit, state.deal,
                  gave_up, state.deals)


def complete(state) -> bool:
    return not state.hand and not state.unseen


def returns(state):
    """A standing ziggurat is worth 1 less a share per cheat (0 cheats: 1; the cheat limit, or CHEAT_SCALE cheats
    without one: 0); an unfinished one
    is worth -1 plus a share per domino standing less one per cheat, so every finished ziggurat beats every
    unfinished one and a search can tell a near miss from a collapse without learning that cheating pays."""
    if complete(state):
        scale = state.limit or CHEAT_SCALE
        return [1.0 - min(state.cheats, scale) / scale]
    if current_player(state) == TERMINAL:
        placed = sum(1 for v in state.vals if v >= 0) // 2
        return [-1.0 + max(0, placed - state.cheats) / 28.0]
    return [0.0]


def why_impossible(state, outcome) -> str:
    """Why `outcome` cannot be what chance does now, as a sentence about the dominoes and the pile."""
    kind = outcome[0] if isinstance(outcome, tuple) and outcome else None
    if kind == DEAL:
        return ("A numbered deal is never picked by a move: the draws themselves tell which deal it is."
                if state.deal < 0 else "The deal is already fixed: now the next domino is drawn from the pile.")
    if kind != DRAW or len(outcome) != 2 or not isinstance(outcome[1], int) or not 0 <= outcome[1] < 28:
        return "Now the next domino is drawn from the pile (for example 'draw 5-1')."
    d = outcome[1]
    if d in state.hand:
        return f"The {dname(d)} is already in your hand, not in the pile."
    if d in state.owner:
        return f"The {dname(d)} already stands in the ziggurat, not in the pile."
    if state.deal < 0:
        return f"No numbered deal left by the draws so far has the {dname(d)} next."
    return f"The pile order of this deal is fixed, and the {dname(d)} is not the next domino."

def why_illegal(state, move):
    cp = current_player(state)
    if cp == TERMINAL:
        return "The game is over."
    if cp == CHANCE:
        return why_impossible(state, move)
    if not isinstance(move, tuple) or not move:
        return "That is not a Ziggurat move."
    if move[0] == CHEAT:
        d = move[1] if len(move) == 2 and isinstance(move[1], int) and 0 <= move[1] < 28 else None
        if d is None:
            return "That is not a domino."
        if d in state.hand:
            return f"The {dname(d)} is in your hand: only a domino standing in the ziggurat can be picked up."
        return f"The {dname(d)} is still face down in the pile: only a placed domino can be picked up."
    if move[0] == GIVE_UP:
        return "You may only give up when no domino in your hand fits anywhere."
    if move[0] in (DRAW, DEAL):
        return "Drawing from the pile happens by itself after each placement."
    if move[0] != PLACE or len(move) != 6:
        return "That is not a Ziggurat move."
    reason = placement_problem(state, *move[1:])
    return reason or "That is not a legal move here."

def placement_problem(state, t, c1, c2, v1, v2) -> str | None:
    """The first rule a placement breaks, as a sentence; None when it is legal."""
    if not (0 <= v1 <= 6 and 0 <= v2 <= 6):
        return "Domino halves run from 0 to 6."
    d = DINDEX[(v1, v2)]
    if d not in state.hand:
        if d in {x for x in state.owner if x >= 0}:
            return f"The {dname(d)} already stands in the ziggurat (picking it up is a cheat)."
        return f"The {dname(d)} is not in your hand: it is still face down in the pile."
    if c2 not in NB[c1]:
        return f"{cname(c1)} and {cname(c2)} are not side by side."
    if not 0 <= t <= 2:
        return "The tiers are t0 (bottom), t1 and t2 (top)."
    for c in (c1, c2):
        if not IN_TIER[t][c]:
            return (f"No overhang: tier {t} is the centred square {TIER_SQUARES[t]}, and {cname(c)} lies "
                    f"outside it.")
    h = heights(state.vals)
    for c in (c1, c2):
        if h[c] > t:
            return f"{cname(c)} is already covered on tier {t}."
    for c in (c1, c2):
        if h[c] < t:
            return (f"No balancing: on tier {t} each half must rest on a domino half directly below, and "
                    f"{cname(c)} has nothing on tier {t - 1}.")
    if t:
        for c, v in ((c1, v1), (c2, v2)):
            b = state.vals[(t - 1) * 36 + c]
            if v <= b:
                word = "an equal" if v == b else "a greater"
                return (f"The {v} half would rest on a {b} ({word} value): each half must be greater than what "
                        f"lies beneath.")
    if any(x >= 0 for x in state.vals[:NCELLS]):
        ok = False
        for c, v in ((c1, v1), (c2, v2)):
            for n in NB[c]:
                if any(state.vals[u * 36 + n] == v for u in range(3)):
                    ok = True
        if not ok:
            return (f"Neither half is beside a half of equal value (a {v1} next to {cname(c1)} or a {v2} next "
                    f"to {cname(c2)}, on any tier; diagonals do not count).")
    return None


def pair_problem(state, t, c1, c2, v1, v2):
    if c1 > c2:
        c1, c2, v1, v2 = c2, c1, v2, v1
    return placement_problem(state, t, c1, c2, v1, v2)
