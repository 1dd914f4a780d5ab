"""The Decktet and the Rainbow Stash as Ziggurat Demolition Throwdown uses them: one data table of cards, one of suits.

Rulings (shared/rulings.md): the seed's suit table is garbled; a suit's target colour is read as Moons black, Suns red,
Waves blue, Leaves red, Wyrms green, Knots yellow ("Suns and leaves can both be used to attack red towers").
Card ids are positions in CARDS: the 36 cards of the basic deck first, then the nine of the extended deck.
"""
from __future__ import annotations

from typing import NamedTuple

# Rainbow Stash colours. Every player brings a stash; a pyramid is stash * 15 + colour * 3 + (pips - 1), one physical
# pyramid per code.
COLOURS = ("red", "yellow", "green", "blue", "black")
RED, YELLOW, GREEN, BLUE, BLACK = range(5)
SIZES = (1, 2, 3)

# Suit order of the rulings, each with the tower colour it may attack.
SUITS = (("moons", BLACK), ("suns", RED), ("waves", BLUE), ("leaves", RED), ("wyrms", GREEN), ("knots", YELLOW))
SUIT_NAMES = tuple(name for name, _ in SUITS)
SUIT_COLOUR = tuple(colour for _, colour in SUITS)

# The tower colour an attack of 1, 2 or 3 pips needs (Ace-5 and Pawn red, 6-9 and Court blue, Crown yellow).
NEEDS = {1: RED, 2: BLUE, 3: YELLOW}


class Card(NamedTuple):
    name: str
    rank: str          # as printed: "A", "2".."9", "Crown", "Pawn", "Court", "Excuse"
    value: int         # for defence sums and the rank an attack is answered with: Ace 1 .. Crown 10; 0 otherwise
    pips: int          # attack strength: 1, 2 or 3; 0 for the Excuse, which never attacks alone
    suits: tuple       # suit indices, in suit order
    extended: bool     # part of the extended deck

    @property
    def kind(self) -> str:
        return {"A": "ace", "Crown": "crown", "Pawn": "pawn", "Court": "court", "Excuse": "excuse"}.get(self.rank,
                                                                                                          "number")

    @property
    def colours(self) -> frozenset:
        """The tower colours this card may attack."""
        return frozenset(SUIT_COLOUR[s] for s in self.suits)


def _pips(rank_value: int) -> int:
    return 1 if rank_value <= 5 else 2 if rank_value <= 9 else 3


_MO, _SU, _WA, _LE, _WY, _KN = range(6)
_NUMBERED = {   # rank: ((name, suits), ...) from the rulings' Decktet table
    2: (("Author", (_MO, _KN)), ("Desert", (_SU, _WY)), ("Origin", (_WA, _LE))),
    3: (("Journey", (_MO, _WA)), ("Painter", (_SU, _KN)), ("Savage", (_LE, _WY))),
    4: (("Mountain", (_MO, _SU)), ("Sailor", (_WA, _LE)), ("Battle", (_WY, _KN))),
    5: (("Forest", (_MO, _LE)), ("Discovery", (_SU, _WA)), ("Soldier", (_WY, _KN))),
    6: (("Lunatic", (_MO, _WA)), ("Penitent", (_SU, _WY)), ("Market", (_LE, _KN))),
    7: (("Chance Meeting", (_MO, _LE)), ("Castle", (_SU, _KN)), ("Cave", (_WA, _WY))),
    8: (("Diplomat", (_MO, _SU)), ("Mill", (_WA, _LE)), ("Betrayal", (_WY, _KN))),
    9: (("Pact", (_MO, _SU)), ("Darkness", (_WA, _WY)), ("Merchant", (_LE, _KN))),
}
_CROWNS = (("Huntress", _MO), ("Bard", _SU), ("Sea", _WA), ("End", _LE), ("Calamity", _WY), ("Windfall", _KN))
_PAWNS = (("Watchman", (_MO, _WY, _KN)), ("Light Keeper", (_SU, _WA, _KN)), ("Harvest", (_MO, _SU, _LE)),
          ("Borderland", (_WA, _LE, _WY)))
_COURTS = (("Consul", (_MO, _WA, _KN)), ("Rite", (_MO, _LE, _WY)), ("Island", (_SU, _WA, _WY)),
           ("Window", (_SU, _LE, _KN)))


def _build() -> tuple[Card, ...]:
    cards = [Card(f"Ace of {SUIT_NAMES[s].capitalize()}", "A", 1, 1, (s,), False) for s in range(6)]
    for rank, named in _NUMBERED.items():
        cards += [Card(name, str(rank), rank, _pips(rank), suits, False) for name, suits in named]
    cards += [Card(name, "Crown", 10, 3, (suit,), False) for name, suit in _CROWNS]
    cards += [Card(name, "Pawn", 0, 1, suits, True) for name, suits in _PAWNS]
    cards += [Card(name, "Court", 0, 2, suits, True) for name, suits in _COURTS]
    cards.append(Card("Excuse", "Excuse", 0, 0, (), True))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
BASIC = sum(1 for c in CARDS if not c.extended)          # 36
EXCUSE = len(CARDS) - 1
BASIC_DECK = (1 << BASIC) - 1
FULL_DECK = (1 << len(CARDS)) - 1

# Short names for the notation: lower case, words joined by '-' ("ace-moons", "chance-meeting", "excuse").
SHORT = tuple(("ace-" + SUIT_NAMES[c.suits[0]]) if c.rank == "A" else c.name.lower().replace(" ", "-") for c in CARDS)
BY_SHORT = {s: i for i, s in enumerate(SHORT)}


def card_words(card: int) -> str:
    """How a player names a card: 'the Mountain (4)', 'the Ace of Moons', 'the Excuse'."""
    c = CARDS[card]
    if c.rank == "A" or c.rank == "Excuse":
        return f"the {c.name}"
    return f"the {c.name} ({c.rank})"


def pyramid(colour: int, pips: int, stash: int = 0) -> int:
    """The pyramid of `colour` and `pips` from player `stash`'s Rainbow Stash (one stash per player)."""
    return stash * 15 + colour * 3 + pips - 1


def colour_of(code: int) -> int:
    return code // 3 % 5


def pips_of(code: int) -> int:
    return code % 3 + 1


def stash_of(code: int) -> int:
    return code // 15


def pyramid_id(code: int) -> str:
    """The id of one physical pyramid: colour, size and whose stash it came from, e.g. 'pyr:blue:3:0'."""
    return f"pyr:{COLOURS[colour_of(code)]}:{pips_of(code)}:{stash_of(code)}"


def pyramid_words(code: int) -> str:
    return f"{COLOURS[colour_of(code)]} {pips_of(code)}-pip pyramid"
