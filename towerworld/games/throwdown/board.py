"""Ziggurat Demolition Throwdown: the vocabulary (seats' towers, the stages, the state type).

Cards are ids into cards.CARDS, hands and the pile are bitmasks of ids; a pyramid is a code (one physical
pyramid per code), a tower a tuple of pyramids bottom first, the scrapyard a bitmask of pyramids. Every player brings a
Rainbow Stash (pyramid = stash * 15 + colour * 3 + pips - 1).
"""
from __future__ import annotations

from typing import NamedTuple

from towerworld.games.throwdown.cards import colour_of, pips_of

HAND = 5
TOWERS = 4
SLOTS = "abcd"
START_COLOURS = (0, 3, 1, 4)        # red, blue, yellow, black towers in slots a, b, c, d

# stages
START, DEAL, TURN, DEFEND, CHANGE, ATTRITION, DRAW, OVER = range(8)
# what follows a "make change" decision
THEN_ATTACK, THEN_END_TURN, THEN_ATTRITION = range(3)


class TState(NamedTuple):
    n: int
    extended: bool
    hands: tuple          # per seat: bitmask of card ids
    pile: int             # bitmask of the cards nobody has seen (the draw pile, unordered)
    discards: tuple       # card ids, bottom first (face up)
    towers: tuple         # per seat: four towers, each a tuple of pyramid codes bottom first
    scrap: int            # bitmask of pyramid codes lying in the scrapyard
    points: tuple         # per seat: points for towers of others destroyed
    losses: tuple         # per seat: towers lost so far
    turn: int             # whose turn it is (-1 before the start player is drawn)
    stage: int
    attack: tuple         # () or (attacker, card, excuse 0/1, target seat, target tower, attacker's green stand-in or -1)
    change: tuple         # () or (chooser, seat, tower, pips, then): a pyramid of `pips` is to be put on that tower
    queue: tuple          # seats still to take attrition, the next first
    receiver: int         # who gets the next dealt or drawn card
    to_deal: int          # cards still to deal at setup


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def top_colour(tower: tuple) -> int:
    return colour_of(tower[-1]) if tower else -1


def tower_pips(tower: tuple) -> int:
    return sum(pips_of(p) for p in tower)
