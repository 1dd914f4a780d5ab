"""Where every Throwdown piece lies, in millimetres, as one viewer sees it, and the HUD lines.

Seats sit around the table (player 1 in front, at -y; the others counter-clockwise). In front of each seat, from the
centre outwards: the card in play (while an attack waits), the four towers (slots a-d from the owner's left), the
hand fanned towards its owner (face up only for its owner), and a plaque with the score. In the middle: the draw pile
(a few backs, its height growing with the count), the discards face up (side by side up to three players, one behind
the other from four on), each named with its count, and the scrapyard with its pyramids lying flat (one column per
colour, one row per size), named too.
"""
from __future__ import annotations

import math
from functools import lru_cache

from towerworld.engine.game import OMNISCIENT, Panel
from towerworld.engine.layout import Layout, Pose, look, shared_cell, shared_pose
from towerworld.engine.pieces import PYRAMID_NEST_LIFT, size
from towerworld.engine.words import counted
from towerworld.games.throwdown.cards import (CARDS, COLOURS, EXCUSE, SUIT_NAMES, colour_of, pips_of, pyramid_id,
                                              stash_of)
from towerworld.games.throwdown.board import (ATTRITION, CHANGE, DEAL, DEFEND, DRAW, OVER, SLOTS, START, TURN, bits,
                                              top_colour, tower_pips)
from towerworld.games.throwdown.rules import standing_pips

CARD = size("card")
TOWER_SPACING = 58.0
TOWER_LABEL_OUT = 28.0         # a tower's letter this far from its middle (a large pyramid is 25.4 wide)
OWN_FAN_RADIUS = 300.0         # the viewer's own hand: an arc about a point behind it, the cards leaning towards them
OWN_FAN_TURN = 12.0
OWN_TILT = 40.0
OWN_HAND_OUT = 35.0            # the viewer's own hand lies this much further out than a hand lying flat: its cards'
#                                raised tops stand clear of the tower labels before it, whose halos hid their ranks
FAN_STEP = 30.0                # the others' hands: backs lying flat in a shallow fan
FAN_TURN = 4.0
PLAY_LIFT = 40.0               # a waiting attack card hovers over the target tower (the tallest tower is ~45 mm)
PLAY_BEHIND = 40.0
PLAY_TILT = 55.0
PILE_AT = (-230.0, -40.0)      # the draw pile and the discards side by side, up to three players (in front of the
DISCARD_AT = (-150.0, -40.0)   # third seat's row, which reaches (-277, 60))
CROWDED_PILE_AT = (-170.0, -45.0)    # from four players on (a seat's row of towers stands at x -270 or near it), one
CROWDED_DISCARD_AT = (-170.0, 55.0)  # behind the other, further in
SCRAP_AT = (-85.0, -55.0)      # the scrapyard's first spot; pyramids lie in rows by size, large ones nearest player 1
SCRAP_STEP = 28.0
SCRAP_ROW = 10
SCRAP_DEPTH = {1: 28.0, 2: 36.0, 3: 46.0}   # a row's depth: the length of a pyramid of that size lying flat
SCRAP_MIDDLE_X = SCRAP_AT[0] + (SCRAP_ROW - 1) * SCRAP_STEP / 2     # across the scrapyard's middle
BACK = look(back="decktet")
HEAP_LABEL_OUT = CARD.d / 2 + 8.0         # the draw pile's and the discards' labels, this far in front or behind


def radii(n: int) -> tuple[float, float]:
    """(towers, hand) distances from the centre: two players face each other across the middle; from three on, the
    seats at the sides need room beside the piles and the scrapyard."""
    tower = 165.0 if n == 2 else 270.0
    return tower, tower + 125.0


def hand_radius(n: int, own: bool) -> float:
    """How far from the centre a hand lies: the viewer's own, fanned and leaning towards them, OWN_HAND_OUT further
    out than a hand lying flat."""
    return radii(n)[1] + (OWN_HAND_OUT if own else 0.0)


def front_seat(viewer: int, n: int) -> int:
    """The seat drawn nearest the camera: the viewer's own (so their hand is the large one in front), else player 1."""
    return viewer if 0 <= viewer < n else 0


def seat_frame(seat: int, n: int, front: int = 0) -> tuple[float, float, float]:
    """(outward x, outward y, heading) of a seat: `front` at the front (-y), the others counter-clockwise in turn
    order; the heading turns a card so that it reads upright for that seat."""
    theta = -90.0 + 360.0 * ((seat - front) % n) / n
    rad = math.radians(theta)
    return math.cos(rad), math.sin(rad), theta + 90.0


def _at(seat: int, n: int, radius: float, across: float, front: int = 0) -> tuple[float, float]:
    ox, oy, _ = seat_frame(seat, n, front)
    rx, ry = -oy, ox            # the seat's right hand, seen from its chair
    return ox * radius + rx * across, oy * radius + ry * across


def tower_spot(seat: int, n: int, tower: int, front: int = 0) -> tuple[float, float]:
    return _at(seat, n, radii(n)[0], (tower - 1.5) * TOWER_SPACING, front)


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


def scrap_rows(n: int) -> int:
    """Rows per pyramid size in the scrapyard at `n` players: every stash's pyramids of that size, SCRAP_ROW a row."""
    return -(-n * len(COLOURS) // SCRAP_ROW)


def scrap_spots(scrap: int, n: int) -> list[tuple[int, tuple[float, float]]]:
    """Where each scrapyard pyramid lies: every pyramid has its own spot (a row per size, large ones nearest the
    front; along a row the colours in stash order, ten to a row), so one that arrives or leaves never shifts the
    others."""
    spots = []
    rows = scrap_rows(n)
    for code in bits(scrap):
        pips = pips_of(code)
        place = stash_of(code) * len(COLOURS) + colour_of(code)
        across, down = place % SCRAP_ROW, place // SCRAP_ROW
        # rows from the front: large (3 pips), medium, small; a size's extra rows (five stashes) follow its first
        y = SCRAP_AT[1] + sum(SCRAP_DEPTH[p] * rows for p in (3, 2, 1) if p > pips) + down * SCRAP_DEPTH[pips]
        spots.append((code, (SCRAP_AT[0] + across * SCRAP_STEP, y)))
    return spots


@lru_cache(maxsize=None)
def card_look(card: int) -> tuple:
    c = CARDS[card]
    return look(name=c.name, rank=c.rank, suits=",".join(SUIT_NAMES[s] for s in c.suits))


def _sees_hand(viewer: int, seat: int) -> bool:
    return viewer == OMNISCIENT or viewer == seat


def hand_poses(seat: int, n: int, cards: list, shown: bool, own: bool, front: int) -> list[Pose]:
    """A hand fanned in front of its owner. The viewer's own hand is an arc of cards leaning towards them, spread so
    that every rank, suit and name reads; the others lie flat, close together."""
    ox, oy, heading = seat_frame(seat, n, front)
    rx, ry = -oy, ox
    hand_r = hand_radius(n, own)
    poses = []
    for j, card in enumerate(cards):
        off = j - (len(cards) - 1) / 2
        face = card_look(card) if shown else BACK
        if own:
            turn = -off * OWN_FAN_TURN
            rad = math.radians(turn)
            # the arc's centre lies OWN_FAN_RADIUS outside the hand; each later card lies a little nearer the owner
            # and higher, so the fan overlaps like one held in the hand, never through itself
            across = -math.sin(rad) * OWN_FAN_RADIUS
            inward = math.cos(rad) * OWN_FAN_RADIUS - OWN_FAN_RADIUS - j * 1.2 * math.sin(math.radians(OWN_TILT))
            x = ox * (hand_r - inward) + rx * across
            y = oy * (hand_r - inward) + ry * across
            poses.append(shared_pose("card", x, y, j * 1.2 * math.cos(math.radians(OWN_TILT)), heading + turn, shown,
                                     face, tilt=OWN_TILT))
        else:
            x, y = _at(seat, n, hand_r, off * FAN_STEP, front)
            poses.append(shared_pose("card", x, y, j * CARD.h, heading - off * FAN_TURN, shown, face))
    return poses


@lru_cache(maxsize=None)
def heaps(n: int) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]:
    """Where the draw pile and the discards lie at `n` players, and where their labels stand: up to three players
    side by side, each named in front of it; from four on, clear of the row of towers that then stands beside them,
    the pile in front of the discards, the pile named in front and the discards behind."""
    if n <= 3:
        return (PILE_AT, DISCARD_AT, (PILE_AT[0], PILE_AT[1] - HEAP_LABEL_OUT),
                (DISCARD_AT[0], DISCARD_AT[1] - HEAP_LABEL_OUT))
    return (CROWDED_PILE_AT, CROWDED_DISCARD_AT, (CROWDED_PILE_AT[0], CROWDED_PILE_AT[1] - HEAP_LABEL_OUT),
            (CROWDED_DISCARD_AT[0], CROWDED_DISCARD_AT[1] + HEAP_LABEL_OUT))


@lru_cache(maxsize=None)
def scrapyard_label(n: int) -> tuple:
    """The scrapyard's name in front of its first row; at two players, past its last row instead (the front seat's
    towers stand close, and an attack on them hovers over the near side, its card raised towards the camera; from
    three players on, the far side is where the seats across crowd in)."""
    if n > 2:
        return (SCRAP_MIDDLE_X, SCRAP_AT[1] - 30.0, 0.0, "scrapyard")
    return (SCRAP_MIDDLE_X, SCRAP_AT[1] + scrap_rows(n) * sum(SCRAP_DEPTH.values()) + 12.0, 0.0, "scrapyard")


def build_layout(state, viewer: int) -> Layout:
    lay = Layout()
    n = state.n
    front = front_seat(viewer, n)
    _, _, reading = seat_frame(front, n, front)         # public cards read upright for the seat in front
    tower_r, _ = radii(n)
    for seat in range(n):
        _, _, heading = seat_frame(seat, n, front)
        for t, tower in enumerate(state.towers[seat]):
            x, y = tower_spot(seat, n, t, front)
            top = 0.0
            for code, z in zip(tower, nest_heights(tower)):
                lay.place(pyramid_id(code), shared_pose(f"pyramid_{pips_of(code)}", x, y, z, heading,
                                                        look=look(colour=COLOURS[colour_of(code)])))
                top = max(top, z + size(f"pyramid_{pips_of(code)}").h)
            # the tower's letter on the table beside it, where the sentences' "tower b" is read: on the side nearer
            # the camera (towards the seat in front and the seats beside, towards the middle for the seats across)
            out = TOWER_LABEL_OUT if seat_frame(seat, n, front)[1] <= 0.3 else -TOWER_LABEL_OUT
            lx, ly = _at(seat, n, radii(n)[0] + out, (t - 1.5) * TOWER_SPACING, front)
            # its letter, with what it is worth (the pips on its faces show only close up)
            worth = counted(tower_pips(tower), "pip") if tower else "gone"
            lay.labels[f"tower:{seat}:{t}"] = (lx, ly, 0.0, f"{SLOTS[t]}: {worth}")
            # a click anywhere on the tower's pyramids picks the tower (where the tower is a target)
            lay.cells[f"tower:{seat}:{t}"] = shared_cell(x, y, 0.0, 40.0, 40.0,
                                                         f"Player {seat + 1}'s tower {SLOTS[t]}", reach=top)
        shown = _sees_hand(viewer, seat)
        own = shown and seat == front           # the viewer's own hand: fanned towards them, further out
        for j, pose in enumerate(hand_poses(seat, n, bits(state.hands[seat]), shown, own, front)):
            lay.place(f"card:hand:{seat}:{j}", pose)
        # where the hand lies, even while it is empty (the camera frames the table with it from the first deal)
        wide = 2 * OWN_FAN_RADIUS * math.sin(math.radians(2 * OWN_FAN_TURN)) + CARD.w
        ox, oy, _ = seat_frame(seat, n, front)
        hx, hy = _at(seat, n, hand_radius(n, own), 0.0, front)
        rx, ry = -oy, ox
        lay.cells[f"hand:{seat}"] = shared_cell(hx, hy, 0.0, abs(rx) * wide + abs(ox) * CARD.d,
                                                abs(ry) * wide + abs(oy) * CARD.d, f"Player {seat + 1}'s hand")
        # the score plaque, at the right end of the seat's row of towers
        x, y = _at(seat, n, tower_r, 2.5 * TOWER_SPACING + 35.0, front)
        gone = "" if any(state.towers[seat]) else " (out)"
        lay.labels[f"score:{seat}"] = (x, y, 0.0, f"Player {seat + 1}{gone}\n{score_words(state, seat, why=False)}")
    if state.attack:
        # the attack waits above the target tower, where the defender looks
        _, card, excuse, target, tower, _ = state.attack
        played = [card] + ([EXCUSE] if excuse else [])
        tx, ty = tower_spot(target, n, tower, front)
        for k, c in enumerate(played):
            # raised over the tower's far side (away from the camera) and leaning towards the camera, so that the
            # card reads and the tower under attack stays in sight
            lay.place(f"card:play:{k}", shared_pose("card", tx + k * 30.0, ty + PLAY_BEHIND + k * 4.0,
                                                    PLAY_LIFT + k * 2.0, reading, True, card_look(c), tilt=PLAY_TILT))
    # the draw pile: one back for every five cards, so its height follows the count
    pile_at, discard_at, pile_label, discard_label = heaps(n)
    count = bin(state.pile).count("1")
    for k in range((count + 4) // 5):
        lay.place(f"card:pile:{k}", shared_pose("card", *pile_at, k * 5 * CARD.h, reading, False, BACK))
    lay.cells["pile"] = shared_cell(*pile_at, 0.0, CARD.w, CARD.d, "draw pile")
    # the middle's heaps named on the table (their counts change only as cards are drawn or spent)
    lay.labels["pile"] = (*pile_label, 0.0, f"pile: {count}")
    if state.discards:
        lay.labels["discards"] = (*discard_label, 0.0, f"discards: {len(state.discards)}")
    for k, card in enumerate(state.discards):
        turn = ((k * 37) % 13) - 6.0           # a loose heap, the top card readable
        lay.place(f"card:discard:{k}", shared_pose("card", *discard_at, k * CARD.h, reading + turn, True,
                                                   card_look(card)))
    for code, (x, y) in scrap_spots(state.scrap, n):
        pips = pips_of(code)
        # tilted pieces rest their lowest point at pose.z: a pyramid lying on a face rests on the table
        lay.place(pyramid_id(code), shared_pose(f"pyramid_{pips}", x, y, 0.0, reading, True,
                                                look(colour=COLOURS[colour_of(code)]), tilt=90.0))
    lay.labels["scrapyard"] = scrapyard_label(n)
    lay.cells["scrapyard"] = shared_cell(SCRAP_MIDDLE_X, SCRAP_AT[1] + 50.0, 0.0,
                                         SCRAP_ROW * SCRAP_STEP, 120.0, "scrapyard")
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
    lines["scores"] = "  ".join(f"Player {s + 1}: {state.points[s]} pts + {counted(standing_pips(state, s), 'pip')}"
                                + ("" if any(state.towers[s]) else " (out)") for s in range(n))
    lines["hands"] = "  ".join(f"Player {s + 1}: {counted(bin(state.hands[s]).count('1'), 'card')}" for s in range(n))
    lines["pile"] = (f"{counted(bin(state.pile).count('1'), 'card')} in the draw pile, {len(state.discards)} discarded")
    if 0 <= viewer < n:
        mine = bits(state.hands[viewer])
        lines["your hand"] = ", ".join(f"{CARDS[c].name} ({CARDS[c].rank})" for c in mine) or "no cards"
    return lines


def panels(game, state, viewer: int) -> list:
    """Each seat's panel: the points won from towers destroyed, the cards in hand (a count only: nobody's hand is
    named on another's panel), the towers and pips left (a point a pip when the battle ends)."""
    cp = game.current_player(state)
    if cp < 0 and state.stage == DRAW:       # the cards drawn are chance's moves, the turn is the drawer's
        cp = state.receiver
    out = []
    for s in range(state.n):
        standing = sum(1 for t in state.towers[s] if t)
        pips = standing_pips(state, s)
        held = (f"{counted(bin(state.hands[s]).count('1'), 'card')} in hand",
                f"{counted(standing, 'tower')}, {counted(pips, 'pip')} standing"
                if standing else "out of the battle")
        out.append(Panel(s, f"Player {s + 1}", score_words(state, s), held, cp == s))
    return out


def score_words(state, seat: int, why: bool = True) -> str:
    """A seat's points: those won from towers destroyed while the battle goes on; once it is over, the final count,
    its pips still standing added ("A player with pyramids remaining scores 1 point for each pip of pyramid they have
    left"), as the result says it: "11 points (9 won, 2 pips standing)" (`why` false: "11 points")."""
    won = state.points[seat]
    pips = standing_pips(state, seat) if state.stage == OVER else 0
    if not pips:
        return counted(won, "point")
    return counted(won + pips, "point") + (f" ({won} won, {counted(pips, 'pip')} standing)" if why else "")


def prompt_for(game, state, viewer: int) -> str:
    """What the seat to move is asked now, after "Your turn: "."""
    if state.stage == TURN:
        return "attack with a card (click it, then a tower), draw up to five, or remodel"
    text = prompt(game, state, viewer)
    return text[:1].lower() + text[1:]
