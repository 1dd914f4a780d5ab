"""K'Dak move notation (see docs/rules/kdak.md).

Places are a column letter (a b c d, clockwise from the back left; a-c and b-d are diagonal) and a level digit 0-5:
"b3". Moves: "enter a0" (first move), "b3" (move to that tile), "out" (leave the tower), "stay", "roll 4",
"remove b4", "reveal b3=moons:5", "spend", "pass". Parsing also accepts "up", "down", "roll null"/"roll ace", the rank
digits 0/1 for null/ace, and "a0" for "enter a0".
"""
from __future__ import annotations

from towerworld.engine.game import BadNotation
from towerworld.games.kdak.board import (COLUMNS, LEVELS, MOVE, NOT_IN, OUT, RANKS, REMOVE, REVEAL, ROLL, SPEND, SUITS,
                                         ident_text, locate, pawn_place, place, place_words,
                                         tile_id)

_RANK_WORDS = {name: i for i, name in enumerate(RANKS)}
_RANK_WORDS.update({str(i): i for i in range(6)})
_RANK_WORDS.update({"a": 1, "n": 0})


def format_move(state, move) -> str:
    kind = move[0]
    if kind == "go":
        where = place(move[1], move[2])
        return f"enter {where}" if state.pawns[state.turn] == NOT_IN else where
    if kind == "roll":
        return f"roll {move[1]}"
    if kind == "remove":
        return f"remove {place(move[1], state.level)}"
    if kind == "reveal":
        slot = state.pending[1] if state.pending else -1
        spot = locate(state.cols, slot) if slot >= 0 else None
        return f"reveal {place(*spot) if spot else '?'}={ident_text(move[1])}"
    return kind


def describe_move(state, move) -> str:
    """The move in a player's words, naming places as the table labels them ("go to column b, level 3")."""
    kind = move[0]
    if kind == "go":
        where = place_words(move[1], move[2])
        return f"enter the tower at {where}" if state.pawns[state.turn] == NOT_IN else f"go to {where}"
    if kind == "remove":
        return f"remove the tile at {place_words(move[1], state.level)}"
    if kind == "remove-at":
        return f"remove the tile at {place_words(move[1], move[2])}"
    if kind == "roll":
        return f"roll {RANKS[move[1]]}"
    if kind == "reveal":
        v = move[1]
        return f"turn up the {RANKS[v % 6]} of {SUITS[v // 6]}"
    return {"out": "leave the tower", "stay": "stay put", "spend": "spend a talisman for an extra turn",
            "pass": "pass"}.get(kind, kind)


def describe_pick(state, chosen, pick) -> str:
    """A few words for a button offering `pick`."""
    move = move_from_picks(state, tuple(chosen) + (pick,))
    if move is not None:
        return describe_move(state, move)
    return str(pick).split(":")[0]


def _place(text: str):
    if len(text) == 2 and text[0] in COLUMNS and text[1].isdigit() and int(text[1]) < LEVELS:
        return COLUMNS.index(text[0]), int(text[1])
    raise BadNotation(f"'{text}' is not a place: use a column a-d and a level 0-5, like b3.")


def parse_move(state, text: str):
    raw = text
    t = " ".join(str(text).strip().lower().split())
    if not t:
        raise BadNotation("An empty text is not a move.")
    words = t.split(" ")
    head = words[0]
    if head in ("out", "stay", "spend", "pass") and len(words) == 1:
        return (head,)
    if head in ("up", "down") and len(words) == 1:
        here = pawn_place(state, state.turn) if state.stage == MOVE else None
        if here is None:
            raise BadNotation(f"'{head}' needs your pawn in the tower.")
        c, lv = here
        if head == "down" and lv == 0:
            return ("out",)
        return ("go", c, lv + (1 if head == "up" else -1))
    if head == "enter" and len(words) == 2:
        c, lv = _place(words[1])
        return ("go", c, lv)
    if head == "roll" and len(words) == 2:
        r = _RANK_WORDS.get(words[1])
        if r is None:
            raise BadNotation(f"'{words[1]}' is not a die face: use null, ace, 2, 3, 4 or 5 (or 0-5).")
        return ("roll", r)
    if head == "remove" and len(words) == 2:
        c, lv = _place(words[1])
        if state.stage == REMOVE and lv != state.level:
            return ("remove-at", c, lv)
        return ("remove", c)
    if head == "reveal" and len(words) == 2 and "=" in words[1]:
        where, what = words[1].split("=", 1)
        c, lv = _place(where)
        if ":" not in what:
            raise BadNotation(f"'{what}' is not a tile: write suit:rank, like moons:5.")
        suit, rank = what.split(":", 1)
        if suit not in SUITS or rank not in _RANK_WORDS:
            raise BadNotation(f"'{what}' is not a tile: suits are {', '.join(SUITS)}; ranks null, ace, 2-5.")
        if state.stage == REVEAL and locate(state.cols, state.pending[1]) != (c, lv):
            raise BadNotation(f"The tile being revealed is not at {where}.")
        return ("reveal", SUITS.index(suit) * 6 + _RANK_WORDS[rank])
    if len(words) == 1 and len(head) == 2:
        c, lv = _place(head)
        return ("go", c, lv)
    raise BadNotation(f"'{raw}' is not a K'Dak move (try a place like b3, 'enter a0', 'out', 'stay', 'remove c2', "
                      "'spend' or 'pass').")


# ---- picks ---------------------------------------------------------------------------------------------------------------
def picks(state, move) -> tuple:
    kind = move[0]
    if kind == "go":
        c, lv = move[1], move[2]
        if state.pawns[state.turn] == NOT_IN:
            return (f"enter:{COLUMNS[c]}",)
        here = pawn_place(state, state.turn)
        if here == (c, lv + 1):
            return ("down",)
        return (tile_id(state.cols[c][lv]),)
    if kind == "remove":
        return (tile_id(state.cols[move[1]][state.level]),)
    if kind == "stay":
        return (tile_id(state.pawns[state.turn]),) if state.pawns[state.turn] >= 0 else ("stay",)
    if kind == "out":
        return ("out",)
    if kind in ("spend", "pass"):
        return (kind,)
    if kind == "roll":
        return ("die",)
    if kind == "reveal":
        return (tile_id(state.pending[1]),)
    return (format_move(state, move),)


def move_from_picks(state, pick_seq):
    """The move the picks point at (legal or not), or None when they point at nothing movable."""
    if not pick_seq:
        return None
    pick = pick_seq[0]
    if pick in ("out", "spend", "pass", "stay"):
        return (pick,)
    if pick == "down":
        here = pawn_place(state, state.turn)
        return ("go", here[0], here[1] - 1) if here is not None and here[1] > 0 else None
    if isinstance(pick, str) and pick.startswith("enter:") and pick[6:] in ("a", "b", "c", "d"):
        return ("go", COLUMNS.index(pick[6:]), 0)
    if not isinstance(pick, str) or not pick.startswith("tile:"):
        return None
    try:
        slot = int(pick[5:])
    except ValueError:
        return None
    where = locate(state.cols, slot)
    if where is None:
        return None
    c, lv = where
    if state.stage == REMOVE:
        return ("remove", c) if lv == state.level else ("remove-at", c, lv)
    if state.stage == MOVE:
        if state.pawns[state.turn] == slot:
            return ("stay",)
        return ("go", c, lv)
    if state.stage == SPEND:
        return ("go", c, lv)
    return None


__all__ = ["format_move", "parse_move", "picks", "move_from_picks", "describe_move", "describe_pick", "ROLL", "OUT"]
