"""Where every Ziggurat piece lies, in millimetres, and the HUD lines, as a viewer may see them.

The map lies centred on the origin; tier t lies at z = map + t * domino thickness. The hand lies face up right of the
map, the pile face down left of it, as anonymous pieces `pile:0`... that never name a domino (the pile order of a
numbered deal is a secret even from the player).
"""
from __future__ import annotations

import weakref
from itertools import islice

from towerworld.engine.game import CHANCE, TERMINAL, Panel
from towerworld.engine.layout import Layout, LayoutChange, Pose, look, shared_cell, shared_pose
from towerworld.engine.pieces import size
from towerworld.engine.words import counted
from towerworld.games.ziggurat.board import (CHEAT, DEAL, DINDEX, DOMINOES, DRAW, GIVE_UP, IN_TIER, NCELLS, PLACE,
                                             TIER_WORDS, cname, dname, heights, lifted_with, placements, position_of,
                                             tier_counts, title)

CELL_MM = 25.4
MAP_H = size("domino_map").h
DOM_H = size("domino").h
HAND_X = 3 * CELL_MM + 45.0
PILE_X = -(3 * CELL_MM + 64.0)      # clear of the row labels beside the map


def cell_xy(c: int) -> tuple[float, float]:
    return ((c % 6 - 2.5) * CELL_MM, (c // 6 - 2.5) * CELL_MM)


CELL_XY = tuple(cell_xy(c) for c in range(NCELLS))


# every id a layout gives, made once: each layout then holds the very same strings, which the stage's dicts find by
# identity, their hashes known (a string made afresh for every layout is hashed, and compared with the stage's own
# copy character by character, once per piece and cell of every move)
DOMINO_IDS = tuple(f"domino:{dname(d)}" for d in range(len(DOMINOES)))
PILE_IDS = tuple(f"pile:{i}" for i in range(len(DOMINOES)))
CELL_IDS = tuple(tuple(f"cell:t{t}:{cname(c)}" for c in range(NCELLS)) for t in range(3))
CELL_LABELS = tuple(tuple(f"{cname(c)} on the {TIER_WORDS[t]} tier" for c in range(NCELLS)) for t in range(3))
# the map prints each cell's name in its corner (a1 ... f6), where the hints' "c1-c2" is read, too small to read from
# the default view: its files (a-f) are printed large along its front edge too, and its rows (1-6) along its left
# edge, on the table in line with their cells (the pile stands further left, at PILE_X)
MAP_LABELS = {f"file:{'abcdef'[k]}": ((k - 2.5) * CELL_MM, -3 * CELL_MM - 9.0, 0.0, "abcdef"[k]) for k in range(6)}
MAP_LABELS.update({f"rank:{k + 1}": (-3 * CELL_MM - 9.0, (k - 2.5) * CELL_MM, 0.0, str(k + 1)) for k in range(6)})
# the pile's count stands just in front of its front stack, and moves back with it as the stacks go (four stacks of up
# to seven, front to back: pile piece i lies in stack i // 7 at y = 45 - 30 * stack)
PILE_LABELS = tuple((PILE_X, 45.0 - 30.0 * ((max(n, 1) - 1) // 7) - 30.0, 0.0, f"pile: {n}")
                    for n in range(len(DOMINOES) + 1))
HAND_LABEL = (HAND_X, 2.5 * CELL_MM + 24.0, 0.0, "hand")




def hud(game, state, viewer) -> dict[str, str]:
    cp = game.current_player(state)
    t0, t1, t2 = tier_counts(state.owner)
    lines = {
        "turn": ("Game over. " + game.result(state)) if cp == TERMINAL else
                "Drawing from the pile" if cp == CHANCE else
                "Place a domino from your hand, or cheat" if viewer == 0 else "Player 1 to place a domino or cheat",
        "cheats": f"Cheats: {state.cheats} ({title(state.cheats)} so far)",
        "tiers": f"Tiers: bottom {t0}/18, middle {t1}/8, top {t2}/2",
        "hand": "Hand: " + (" ".join(f"[{dname(d)}]" for d in state.hand) or "empty"),
        "pile": f"Pile: {bin(state.unseen).count('1')} face down",
    }
    if cp == 0:
        moves = placements(state.vals, state.hand)
        if not moves:
            lines["turn"] = ("No domino in your hand fits anywhere: cheat (pick up a placed domino) or give up."
                             if viewer == 0 else "No domino in Player 1's hand fits anywhere: Player 1 cheats or "
                             "gives up.")
            lines["next"] = "Click a placed domino to pick it up (a cheat), with whatever rests on it."
        else:
            fits = sorted({DINDEX[(m[4], m[5])] for m in moves})
            stuck = [d for d in state.hand if d not in fits]
            names = " or ".join(dname(d) for d in fits)
            lines["next"] = (f"Click the {names} in your hand, then the cell for its low half, then the cell for its "
                             f"high half" + (f" (the {' and '.join(dname(d) for d in stuck)} fit nowhere now)."
                                             if stuck else "."))
    return lines


def describe_move(state, move) -> str:
    """The move in a player's words: "play the 6-4 on c1-c2 of the bottom tier" (the 6 on c1, the 4 on c2; the map's
    files and rows are printed beside it)."""
    kind = move[0]
    if kind == PLACE:
        _, t, c1, c2, v1, v2 = move
        return f"play the {v1}-{v2} on {cname(c1)}-{cname(c2)} of the {TIER_WORDS[t]} tier"
    if kind == CHEAT:
        pos = position_of(state.vals, state.owner, move[1])
        if pos is None:
            return f"pick up the {dname(move[1])} (a cheat)"
        t, c1, c2, v1, v2 = pos
        resting = len(lifted_with(state.owner, move[1])) - 1
        extra = f" and the {resting} resting on it" if resting > 1 else " and the one resting on it" if resting else ""
        return (f"cheat: pick up the {v1}-{v2} from {cname(c1)}-{cname(c2)} of the {TIER_WORDS[t]} tier{extra}")
    if kind == GIVE_UP:
        return "give up (nothing in the hand fits and no cheat can save this deal)"
    if kind == DRAW:
        return f"draw the {dname(move[1])} from the pile"
    if kind == DEAL:
        return f"deal number {move[1]}"
    return str(move)


def describe_pick(state, picks, pick: str) -> str:
    """A button's words for a pick: "the 3-4" in the hand, "c3 on the bottom tier" on the map."""
    if pick.startswith("domino:"):
        return f"the {pick[7:]}"
    if pick.startswith("cell:t") and pick.count(":") == 2:
        _, tier, cell = pick.split(":")
        if tier[1:].isdigit() and int(tier[1:]) < len(TIER_WORDS):
            return f"{cell} on the {TIER_WORDS[int(tier[1:])]} tier"
    return pick.replace(":", " ")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def confirm_text(state, move) -> str | None:
    """A cheat costs a point for every domino it picks up: the table asks first, saying which cheats these are."""
    if move[0] != CHEAT:
        return None
    count = len(lifted_with(state.owner, move[1]))
    first = state.cheats + 1
    last = ordinal(state.cheats + count)
    which = (f"This is your {ordinal(first)} cheat" if count == 1 else
             f"It picks up {count} dominoes: your {ordinal(first)} {'and' if count == 2 else 'to'} {last} cheats")
    words = describe_move(state, move)
    return f"{words[:1].upper()}{words[1:]}? {which}."


MAP_POSE = shared_pose("domino_map", 0.0, 0.0, 0.0)
# the last layout made, with the heights of its cells, how many dominoes it shows and how many pile pieces: the next
# is told against it (engine.layout.LayoutChange)
_last: list[tuple[Layout, list[int], int, int]] = []
_NONE: dict[str, Pose] = {}


def build_layout(state, viewer) -> Layout:
    """The layout of `state` (every viewer sees the same: the pile is anonymous), told against the layout made
    before it: a domino is told when its pose is not the very one that layout holds (one pass over this layout's
    dominoes, looked up by id, not a comparison of the two layouts), a pile piece when the pile grew or shrank past it (its place is its
    number's), a cell when the height of its place changed."""
    lay = Layout()
    pieces = lay.pieces
    before = _last[0] if _last else None
    was = (before[0].pieces if before is not None else _NONE).get
    told: list[str] = []            # dominoes placed with another pose than before, or newly
    kept = 0                        # dominoes placed that the layout before showed too
    pieces["map"] = MAP_POSE
    owner, vals = state.owner, state.vals
    # each placed domino once, in the order of its first slot; its two slots found by index (no walk per domino)
    for d in dict.fromkeys(owner):
        if d < 0:
            continue
        s1 = owner.index(d)
        s2 = owner.index(d, s1 + 1)
        t, c1, c2 = s1 // 36, s1 % 36, s2 % 36
        (x1, y1), (x2, y2) = CELL_XY[c1], CELL_XY[c2]
        # c1 < c2: c2 is to the right (+x, heading 0) or above (+y, heading 90); look a is the half at local -x
        heading = 0.0 if c2 == c1 + 1 else 90.0
        # `tier` lets the model tell the tiers apart (a domino on a domino of the same colour reads as one block)
        pieces[DOMINO_IDS[d]] = shared_pose("domino", (x1 + x2) / 2, (y1 + y2) / 2, MAP_H + t * DOM_H, heading, True,
                                            look(a=vals[s1], b=vals[s2], tier=t))
    for i, d in enumerate(state.hand):
        lo, hi = DOMINOES[d]
        col, row = divmod(i, 6)
        pieces[DOMINO_IDS[d]] = shared_pose("domino", HAND_X + col * 58.0, 2.5 * CELL_MM - row * 30.0, 0.0, 0.0,
                                            True, look(a=lo, b=hi))
    dominoes = len(pieces) - 1
    for pid, pose in islice(pieces.items(), 1, None):      # the dominoes (the map is the same pose in every layout)
        old = was(pid)
        if old is not pose:
            told.append(pid)
        if old is not None:
            kept += 1
    n = bin(state.unseen).count("1")
    for i in range(n):
        # four short stacks of up to seven, front to back; pile:0 is the bottom of the first stack
        stack, level = divmod(i, 7)
        pieces[PILE_IDS[i]] = shared_pose("domino", PILE_X, 45.0 - stack * 30.0, level * DOM_H,
                                          0.0 if level % 2 == 0 else 2.0, False)
    lay.labels.update(MAP_LABELS)
    if n:
        lay.labels["pile"] = PILE_LABELS[n]
    if state.hand:
        lay.labels["hand"] = HAND_LABEL
    h = heights(vals)
    before_h = before[1] if before is not None else None
    told_cells: list[str] = []      # the cells of places whose height changed: the id before and the id now
    for c in range(NCELLS):
        t = h[c]
        if t <= 2 and IN_TIER[t][c]:
            x, y = CELL_XY[c]
            lay.cells[CELL_IDS[t][c]] = shared_cell(x, y, MAP_H + t * DOM_H, CELL_MM, CELL_MM, CELL_LABELS[t][c])
        if before_h is not None and before_h[c] != t:
            if before_h[c] <= 2:
                told_cells.append(CELL_IDS[before_h[c]][c])
            if t <= 2:
                told_cells.append(CELL_IDS[t][c])
    # a domino that went (the layout before was another game's) leaves the change untold: the stage compares all
    if before is not None and kept == before[2]:
        before_n = before[3]
        told += PILE_IDS[min(n, before_n):max(n, before_n)]     # the pile pieces drawn, or put back
        lay.changes = LayoutChange(weakref.ref(before[0]), tuple(told), tuple(told_cells))
    _last[:] = [(lay, h, dominoes, n)]
    return lay


def panels(game, state, viewer) -> list:
    """The one player's panel: the cheats so far (the score, and the title they earn), the dominoes in hand, those
    still face down in the pile, and how many the ziggurat still needs. A ziggurat given up unfinished earns the
    lowest title, whatever the cheats, as the result says."""
    placed = sum(tier_counts(state.owner))
    hand = ", ".join(dname(d) for d in state.hand) or "empty"
    held = (f"hand: {hand}", f"{bin(state.unseen).count('1')} face down in the pile",
            f"{28 - placed} of 28 still to place")
    unfinished = game.current_player(state) == TERMINAL and not game.complete(state)
    earned = title(5) if unfinished else title(state.cheats)
    return [Panel(0, "Player 1", f"{counted(state.cheats, 'cheat')} ({earned})", held,
                  game.current_player(state) == 0)]


def prompt(game, state, viewer) -> str:
    line = hud(game, state, viewer).get("next", "")
    return (line[:1].lower() + line[1:]) if line else "place a domino from your hand, or cheat"
