"""Where every Throwdown piece lies, in millimetres, as one viewer sees it, and the HUD lines.

Seats sit around the table (player 1 in front, at -y; the others counter-clockwise). In front of each seat, from the
centre outwards: the card in play (while an attack waits), the four towers (slots a-d from the owner's left), the
hand fanned towards its owner (face up only for its owner), and a plaque with the score. In the middle: the draw pile
(a few backs, its height growing with the count), the discards face up, and the scrapyard with its pyramids lying flat
(one column per colour, one row per size).
"""
from __future__ import annotations

import math

from towerworld.engine.game import OMNISCIENT
from towerworld.engine.layout import Cell, Layout, Pose, look
from towerworld.engine.pieces import PYRAMID_NEST_LIFT, size
from towerworld.games.throwdown.cards import CARDS, COLOURS, EXCUSE, SUIT_NAMES, colour_of, pips_of, pyramid_id
from towerworld.games.throwdown.rules import (ATTRITION, CHANGE, DEAL, DEFEND, DRAW, OVER, SLOTS, START, TURN, bits,
                                              standing_pips, top_colour)

CARD = size("card")
TOWER_RADIUS = 270.0
HAND_RADIUS = 410.0
PLAY_RADIUS = 185.0
PLAQUE_RADIUS = 500.0
TOWER_SPACING = 58.0
FAN_STEP = 38.0
FAN_TURN = 4.0
PILE_AT = (-150.0, 0.0)
DISCARD_AT = (-70.0, 0.0)
SCRAP_AT = (10.0, -60.0)       # the scrapyard's first spot; pyramids lie in rows by size, large ones nearest player 1
SCRAP_STEP = 32.0
SCRAP_ROW = 6
BACK = look(back="decktet")


def seat_frame(seat: int, n: int) -> tuple[float, float, float]:
    """(outward x, outward y, heading) of a seat: player 1 at the front (-y), the others counter-clockwise; the
    heading turns a card so that it reads upright for that seat."""
    theta = -90.0 + 360.0 * seat / n
    rad = math.radians(theta)
    return math.cos(rad), math.sin(rad), theta + 90.0


def _at(seat: int, n: int, radius: float, across: float) -> tuple[float, float]:
    ox, oy, _ = seat_frame(seat, n)
    rx, ry = -oy, ox            # the seat's right hand, seen from its chair
    return ox * radius + rx * across, oy * radius + ry * across


def tower_spot(seat: int, n: int, tower: int) -> tuple[float, float]:
    return _at(seat, n, TOWER_RADIUS, (tower - 1.5) * TOWER_SPACING)


def nest_heights(tower: tuple) -> list[float]:
    """Base height of each pyramid of a tower: a pyramid rests inside the one below, lifted by the catalog's nest lift
    for every size between them (a small directly in a large sits where it would above a medium)."""
    heights = []
    for k, code in enumerate(tower):
        if k == 0:
            heights.append(0.0)
            continue
        below, here = pips_of(tower[k - 1]), pips_of(code)
        heights.append(heights[-1] + sum(PYRAMID_NEST_LIFT[s] for s in range(here + 1, below + 1)))
    return heights


def scrap_spots(scrap: int) -> list[tuple[int, tuple[float, float]]]:
    """Where each scrapyard pyramid lies: rows by size (large first), in colour order, SCRAP_ROW to a row."""
    spots = []
    y = SCRAP_AT[1]
    for pips in (3, 2, 1):
        row = sorted((code for code in bits(scrap) if pips_of(code) == pips), key=lambda c: (colour_of(c), c))
        for k, code in enumerate(row):
            if k and k % SCRAP_ROW == 0:
                y += 22.0
            spots.append((code, (SCRAP_AT[0] + (k % SCRAP_ROW) * SCRAP_STEP, y)))
        if row:
            y += size(f"pyramid_{pips}").h * 0.5 + 18.0
    return spots


def card_look(card: int) -> tuple:
    c = CARDS[card]
    return look(name=c.name, rank=c.rank, suits=",".join(SUIT_NAMES[s] for s in c.suits))


def _sees_hand(viewer: int, seat: int) -> bool:
    return viewer == OMNISCIENT or viewer == seat


def build_layout(state, viewer: int) -> Layout:
    lay = Layout()
    n = state.n
    for seat in range(n):
        _, _, heading = seat_frame(seat, n)
        for t, tower in enumerate(state.towers[seat]):
            x, y = tower_spot(seat, n, t)
            for code, z in zip(tower, nest_heights(tower)):
                lay.place(pyramid_id(code), Pose(f"pyramid_{pips_of(code)}", x, y, z, heading,
                                                 look=look(colour=COLOURS[colour_of(code)])))
            lay.cells[f"tower:{seat}:{t}"] = Cell(x, y, 0.0, 40.0, 40.0, f"Player {seat + 1}'s tower {SLOTS[t]}")
        hand = bits(state.hands[seat])
        for j, card in enumerate(hand):
            off = j - (len(hand) - 1) / 2
            x, y = _at(seat, n, HAND_RADIUS, off * FAN_STEP)
            shown = _sees_hand(viewer, seat)
            lay.place(f"card:hand:{seat}:{j}", Pose("card", x, y, j * CARD.h, heading - off * FAN_TURN, shown,
                                                    card_look(card) if shown else BACK))
        x, y = _at(seat, n, PLAQUE_RADIUS, 0.0)
        out = "" if any(state.towers[seat]) else " (out)"
        lay.labels[f"score:{seat}"] = (x, y, 0.0, f"Player {seat + 1}{out}: {state.points[seat]} points, "
                                                  f"{standing_pips(state, seat)} pips")
    if state.attack:
        attacker, card, excuse = state.attack[:3]
        _, _, heading = seat_frame(attacker, n)
        played = [card] + ([EXCUSE] if excuse else [])
        for k, c in enumerate(played):
            x, y = _at(attacker, n, PLAY_RADIUS, (k - (len(played) - 1) / 2) * 40.0)
            lay.place(f"card:play:{k}", Pose("card", x, y, k * CARD.h, heading, True, card_look(c)))
    # the draw pile: one back for every five cards, so its height follows the count
    count = bin(state.pile).count("1")
    for k in range((count + 4) // 5):
        lay.place(f"card:pile:{k}", Pose("card", *PILE_AT, k * 5 * CARD.h, 0.0, False, BACK))
    lay.cells["pile"] = Cell(*PILE_AT, 0.0, CARD.w, CARD.d, "draw pile")
    for k, card in enumerate(state.discards):
        turn = ((k * 37) % 13) - 6.0           # a loose heap, the top card readable
        lay.place(f"card:discard:{k}", Pose("card", *DISCARD_AT, k * CARD.h, turn, True, card_look(card)))
    for code, (x, y) in scrap_spots(state.scrap):
        pips = pips_of(code)
        base = size(f"pyramid_{pips}").w
        lay.place(pyramid_id(code), Pose(f"pyramid_{pips}", x, y, base / 2, 0.0, True,
                                         look(colour=COLOURS[colour_of(code)]), tilt=90.0))
    lay.cells["scrapyard"] = Cell(SCRAP_AT[0] + SCRAP_ROW * SCRAP_STEP / 2, SCRAP_AT[1] + 60.0, 0.0,
                                  SCRAP_ROW * SCRAP_STEP, 150.0, "scrapyard")
    return lay


# ---- HUD -----------------------------------------------------------------------------------------------------------------
def _who(seat: int, viewer: int) -> str:
    return "you" if seat == viewer else f"Player {seat + 1}"


def _possessive(seat: int, viewer: int) -> str:
    return "your" if seat == viewer else f"Player {seat + 1}'s"


def prompt(game, state, viewer: int) -> str:
    """The sentence that says what happens now, in words a player reads."""
    st = state.stage
    cp = game.current_player(state)
    if st == OVER:
        return "The battle is over: " + game.result(state)
    if st == START:
        return "Choosing the start player."
    if st == DEAL:
        return "Dealing five cards to each player."
    if st == DRAW:
        return f"{_who(state.receiver, viewer).capitalize()} draw{'' if state.receiver == viewer else 's'} up to five."
    if st == DEFEND:
        attacker, card, _, target, tower, _ = state.attack
        c = CARDS[card]
        colour = COLOURS[top_colour(state.towers[target][tower])]
        rank = "" if c.rank in ("A", "Excuse") else f" ({c.rank})"
        text = (f"{_who(attacker, viewer).capitalize()} attacks {_possessive(target, viewer)} {colour} tower "
                f"{SLOTS[tower]} with the {c.name}{rank}, {c.pips} pip{'s' if c.pips > 1 else ''}.")
        return text + (" Defend?" if target == viewer else f" Player {target + 1} decides whether to defend.")
    if st == CHANGE:
        chooser, seat, tower, pips, _ = state.change
        return (f"{_who(chooser, viewer).capitalize()} make{'' if chooser == viewer else 's'} change: a {pips}-pip "
                f"pyramid from the scrapyard goes on {_possessive(seat, viewer)} tower {SLOTS[tower]}.")
    if st == ATTRITION:
        seat = state.queue[0]
        return (f"The draw pile is exhausted: {_who(seat, viewer)} damage{'' if seat == viewer else 's'} one of "
                f"{'your' if seat == viewer else 'their'} own towers by 1 pip.")
    if st == TURN and cp == viewer:
        return "Your turn: attack with a card, draw up to five, or remodel."
    return f"Player {cp + 1}'s turn."


def hud(game, state, viewer: int) -> dict:
    n = state.n
    lines = {"turn": prompt(game, state, viewer)}
    lines["scores"] = "  ".join(f"P{s + 1}: {state.points[s]} pts + {standing_pips(state, s)} pips"
                                + ("" if any(state.towers[s]) else " (out)") for s in range(n))
    lines["hands"] = "  ".join(f"P{s + 1}: {bin(state.hands[s]).count('1')} cards" for s in range(n))
    lines["pile"] = (f"{bin(state.pile).count('1')} cards in the draw pile, {len(state.discards)} discarded")
    if 0 <= viewer < n:
        mine = bits(state.hands[viewer])
        lines["your hand"] = ", ".join(f"{CARDS[c].name} ({CARDS[c].rank})" for c in mine) or "no cards"
    return lines
