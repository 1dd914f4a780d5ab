"""K'Dak's Tower of Confusion (and Camel Wash), by Jim Adams and Amy Enge: the rules (move generation, the one step
function, refusals) over the vocabulary of board.py.

A turn: move the pawn (maybe revealing and scoring a tile); once the tower crumbles, roll the die (chance) and remove a
tile of the rolled level (the roller's decision); then, holding talismans, spend one for an extra turn or pass.
"""
from __future__ import annotations

from towerworld.engine.game import Event, EventKind, IllegalMove
from towerworld.engine.words import counted
from towerworld.games.kdak.board import (DISCARD, END_CAP, END_LOST, END_NORMAL, FLIP, LEVELS, MOVE, NOT_IN, ORTH, OUT,
                                         OVER, RANKS, REMOVE, REVEAL, ROLL, RUNNING, SPEND, SUITS, TILES, KState,
                                         face_up_on_level, locate, pawn_place, place_words, tile_id)

class _W:
    """A mutable working copy of a state inside one `apply`."""
    __slots__ = KState._fields

    def __init__(self, s: KState):
        (self.opts, self.cols, self.up, self.ident, self.pawns, self.scores, self.tal, self.door, self.turn,
         self.stage, self.pending, self.roll, self.level, self.fell, self.free, self.discards, self.plies,
         self.tower_tal, self.end) = s

    def freeze(self) -> KState:
        return KState(self.opts, self.cols, self.up, self.ident, self.pawns, self.scores, self.tal, self.door,
                      self.turn, self.stage, self.pending, self.roll, self.level, self.fell, self.free, self.discards,
                      self.plies, self.tower_tal, self.end)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


# ---- the rule steps (mutate a _W; ev is a list of Events or None in fast random play) --------------------------------
def _flip(w: _W, slot: int, ev) -> None:
    """Turn a tile face up (its identity is known by now): score it in the escape phase, talisman for a null."""
    p = w.turn
    w.up |= 1 << slot
    v = w.ident[slot]
    rank = v % 6
    gained = 0
    if w.door and rank:
        gained = rank
        w.scores = _set(w.scores, p, w.scores[p] + rank)
    if rank == 0 and w.opts.talisman:
        w.tal = _set(w.tal, p, w.tal[p] + 1)
    if ev is not None:
        text = f"Player {p + 1} turns up the {RANKS[rank]} of {SUITS[v // 6]}"
        if gained:
            text += f" and scores {gained}"
        if rank == 0 and w.opts.talisman:
            text += " and takes a talisman"
        ev.append(Event(EventKind.FLIP, (tile_id(slot),), text + "."))
        if gained:
            ev.append(Event(EventKind.SCORE, (f"score:{0 if w.opts.pooled else p}",), f"Player {p + 1} scores {gained}."))


def _flip_or_reveal(w: _W, slot: int, ev) -> None:
    if w.ident[slot] < 0:
        w.stage = REVEAL
        w.pending = (FLIP, slot)
        return
    _flip(w, slot, ev)
    _after_move(w, ev)


def _after_move(w: _W, ev) -> None:
    """After the pawn's move (and any flip): the switch, the end check, then the roll or the end of the turn."""
    if not w.door:
        slot = w.pawns[w.turn]
        if slot >= 0:
            col = w.cols[slot & 3]
            if len(col) == LEVELS and col[5] == slot:
                _switch(w, ev)
    if _check_end(w, ev):
        return
    if (w.door or w.opts.crumble) and not w.free:
        w.stage = ROLL
        return
    _end_turn(w, ev)


def _switch(w: _W, ev) -> None:
    """The first pawn on level 5: the switch opens the door and every face-up tile turns face down."""
    p = w.turn
    w.door = True
    if w.tower_tal == -1:
        w.tower_tal = p
        w.tal = _set(w.tal, p, w.tal[p] + 1)
        if ev is not None:
            ev.append(Event(EventKind.TALISMAN, ("talisman:tower",), f"Player {p + 1} takes the talisman of level 5."))
    flipped = w.up
    w.up = 0
    if ev is not None:
        ids = tuple(tile_id(s) for s in range(TILES) if flipped >> s & 1)
        ev.append(Event(EventKind.SWITCH, ids, f"Player {p + 1} hits the switch: the door opens and every face-up tile "
                                       "turns face down. The tower starts to crumble!"))


def _check_end(w: _W, ev) -> bool:
    """End the game if it is over now; True if it ended."""
    o = w.opts
    end = RUNNING
    if w.pawns.count(OUT) == len(w.pawns):
        end = END_NORMAL
    elif o.l5t:
        if w.tower_tal == -1 and not any(len(col) == LEVELS for col in w.cols):
            end = END_LOST
    elif w.door and w.up.bit_count() == sum(map(len, w.cols)):
        end = END_NORMAL
    if end:
        w.end = end
        w.stage = OVER
        if ev is not None:
            ev.append(Event(EventKind.END, (), "Level 5 has crumbled before the talisman was taken." if end == END_LOST
                            else "The game is over."))
        return True
    return False


def _end_turn(w: _W, ev) -> None:
    p = w.turn
    if w.tal[p] > 0 and w.pawns[p] >= 0:
        w.stage = SPEND
        return
    _next_turn(w, ev)


def _next_turn(w: _W, ev) -> None:
    n = w.opts.n
    p = w.turn
    pawns = w.pawns
    for i in range(1, n + 1):
        q = (p + i) % n
        if pawns[q] != OUT:
            break
    else:
        w.end = END_NORMAL
        w.stage = OVER
        return
    w.turn = q
    w.stage = MOVE
    w.free = False


def _do_remove(w: _W, slot: int, ev) -> None:
    c, lv = locate(w.cols, slot)
    col = w.cols[c]
    w.cols = _set(w.cols, c, col[:lv] + col[lv + 1:])
    w.up &= ~(1 << slot)
    w.discards = w.discards + (slot,)
    if ev is not None:
        v = w.ident[slot]
        ev.append(Event(EventKind.REMOVE, (tile_id(slot),), f"The tile at {place_words(c, lv)} ({RANKS[v % 6]} of "
                                                    f"{SUITS[v // 6]}) disintegrates."))
    pawns = w.pawns
    if slot in pawns:
        new = list(pawns)
        for q, s in enumerate(pawns):
            if s == slot:
                if lv:
                    new[q] = col[lv - 1]
                    w.fell |= 1 << q
                    if ev is not None:
                        ev.append(Event(EventKind.FALL, (f"pawn:{q}",), f"Player {q + 1}'s pawn falls to {place_words(c, lv - 1)}."))
                else:
                    new[q] = OUT
                    w.fell &= ~(1 << q)
                    if ev is not None:
                        ev.append(Event(EventKind.FALL, (f"pawn:{q}",), f"Player {q + 1}'s pawn falls out of the tower."))
        w.pawns = tuple(new)
    if ev is not None and lv + 1 < len(col):
        ev.append(Event(EventKind.SETTLE, tuple(tile_id(s) for s in col[lv + 1:]),
                        "The tiles above settle one level."))
    if _check_end(w, ev):
        return
    _end_turn(w, ev)


def _count_ply(w: _W, ev) -> None:
    """One more ply played; at the move cap (an option, off by default) the game ends where it stands."""
    w.plies += 1
    cap = w.opts.move_cap
    if cap and w.plies >= cap and w.stage != OVER:
        w.end = END_CAP
        w.stage = OVER
        if ev is not None:
            ev.append(Event(EventKind.END, (), f"The move cap of {counted(cap, 'ply', 'plies')} is reached: the game ends here."))


def _step(w: _W, move: tuple, ev) -> None:
    kind = move[0]
    p = w.turn
    if kind == "go":
        c, lv = move[1], move[2]
        slot = w.cols[c][lv]
        entering = w.pawns[p] == NOT_IN
        w.pawns = _set(w.pawns, p, slot)
        w.fell &= ~(1 << p)
        if ev is not None:
            ev.append(Event(EventKind.ENTER if entering else EventKind.MOVE, (f"pawn:{p}", tile_id(slot)),
                            f"Player {p + 1} {'enters the tower at' if entering else 'moves to'} {place_words(c, lv)}."))
        if w.up >> slot & 1:
            _after_move(w, ev)
        else:
            _flip_or_reveal(w, slot, ev)
    elif kind == "roll":
        r = move[1]
        w.roll = r
        h = max(map(len, w.cols))
        w.level = r if r < h else h - 1
        w.stage = REMOVE
        if ev is not None:
            extra = "" if r < h else f"; no tile is left there, so level {w.level}"
            ev.append(Event(EventKind.ROLL, ("die",), f"The die shows {RANKS[r]}: level {r}{extra} loses a tile."))
    elif kind == "remove":
        slot = w.cols[move[1]][w.level]
        if w.ident[slot] < 0:
            w.stage = REVEAL
            w.pending = (DISCARD, slot)
        else:
            _do_remove(w, slot, ev)
    elif kind == "reveal":
        what, slot = w.pending
        w.pending = ()
        w.ident = _set(w.ident, slot, move[1])
        if ev is not None:
            where = locate(w.cols, slot)
            ev.append(Event(EventKind.REVEAL, (tile_id(slot),), f"The tile at {place_words(*where)} is the {RANKS[move[1] % 6]} of "
                                                        f"{SUITS[move[1] // 6]}.", reveals=True))
        if what == FLIP:
            w.stage = MOVE
            _flip(w, slot, ev)
            _after_move(w, ev)
        else:
            w.stage = REMOVE
            _do_remove(w, slot, ev)
    elif kind == "out":
        w.pawns = _set(w.pawns, p, OUT)
        w.fell &= ~(1 << p)
        if ev is not None:
            ev.append(Event(EventKind.LEAVE, (f"pawn:{p}",), f"Player {p + 1} leaves the tower for good."))
        _after_move(w, ev)
    elif kind == "stay":
        slot = w.pawns[p]
        fell = w.fell >> p & 1
        w.fell &= ~(1 << p)
        if ev is not None:
            ev.append(Event(EventKind.STAY, (f"pawn:{p}",), f"Player {p + 1} stays."))
        if fell and slot >= 0 and not w.up >> slot & 1:
            _flip_or_reveal(w, slot, ev)
        else:
            _after_move(w, ev)
    elif kind == "spend":
        w.tal = _set(w.tal, p, w.tal[p] - 1)
        w.free = w.opts.l5t
        w.stage = MOVE
        if ev is not None:
            ev.append(Event(EventKind.SPEND, ("talisman:tower" if w.tower_tal == p else f"talisman:{p}:{w.tal[p]}",),
                            f"Player {p + 1} spends a talisman for an extra turn"
                            f"{' without a removal' if w.free else ''}."))
    elif kind == "pass":
        _next_turn(w, ev)
    else:
        raise IllegalMove(f"{move!r} is not a K'Dak move.")


# every ("go", column, level) move, built once: move generation hands out these tuples instead of building new ones
GO = tuple(tuple(("go", c, lv) for lv in range(LEVELS)) for c in range(4))
ENTER = tuple(GO[c][0] for c in range(4))
REMOVES = tuple(("remove", c) for c in range(4))
OUT_MOVE, STAY, SPEND_MOVES = ("out",), ("stay",), [("pass",), ("spend",)]


def pawn_moves(state: KState, p: int) -> list:
    """The moves of player p's pawn, sorted (a KState or a _W: only attributes both have are read)."""
    cols = state.cols
    slot = state.pawns[p]
    if slot == NOT_IN:
        return [ENTER[c] for c in range(4) if cols[c]]
    if slot == OUT:
        return []
    c = slot & 3                 # tiles only ever fall straight down: a tile stays in its starting column
    col = cols[c]
    lv = col.index(slot)
    n1, n2 = ORTH[c]             # the two neighbouring columns, n1 < n2; sorted order is by column, then level
    reach1, reach2 = len(cols[n1]) > lv, len(cols[n2]) > lv
    moves = []
    if reach1 and n1 < c:
        moves.append(GO[n1][lv])
    if reach2 and n2 < c:
        moves.append(GO[n2][lv])
    if lv:
        moves.append(GO[c][lv - 1])
    if len(col) > lv + 1 and (not state.opts.up2 or face_up_on_level(cols, state.up, lv) >= 2):
        moves.append(GO[c][lv + 1])
    if reach1 and n1 > c:
        moves.append(GO[n1][lv])
    if reach2 and n2 > c:
        moves.append(GO[n2][lv])
    if lv == 0 and state.door:
        moves.append(OUT_MOVE)
    if not moves or (state.fell >> p & 1 and not state.up >> slot & 1):
        moves.append(STAY)
    return moves


_ALL_IDENTITIES = frozenset(range(TILES))


def unseen_identities(ident) -> list:
    """The identities no tile has shown yet, ascending: what a tile turned up for the first time may be."""
    return sorted(_ALL_IDENTITIES.difference(ident))


def decision_moves(state) -> list:
    """The legal decision moves of a KState or a _W (the playout's working copy), sorted; [] at chance or the end."""
    st = state.stage
    if st == MOVE:
        return pawn_moves(state, state.turn)
    if st == REMOVE:
        lv = state.level
        cols = state.cols
        return [REMOVES[c] for c in range(4) if len(cols[c]) > lv]
    if st == SPEND:
        return list(SPEND_MOVES)
    return []


def why_illegal(state: KState, move) -> str:
    """One sentence naming the rule a refused move breaks."""
    st = state.stage
    if st == OVER:
        return "The game is over."
    if st in (ROLL, REVEAL):
        return why_impossible(state, move)
    if not isinstance(move, tuple) or not move or not isinstance(move[0], str):
        return "That is not a K'Dak move."
    kind = move[0]
    p = state.turn
    if st == SPEND:
        return "Your turn is over: spend a talisman for an extra turn, or pass."
    if st == REMOVE:
        if kind not in ("remove", "remove-at"):
            return f"Finish your turn first: remove a tile of level {state.level}."
        return (f"The die chose level {state.level}: remove a tile of that level "
                f"({'the rolled level is gone, so the highest remaining level' if state.level != state.roll else 'any one, pawn or not'}).")
    # MOVE
    if kind in ("remove", "spend", "pass"):
        return "First move your pawn." if kind == "remove" or state.tal[p] else "You have no talisman to spend."
    here = pawn_place(state, p)
    if kind == "out":
        if here is None:
            return "Your pawn is not in the tower."
        if here[1] != 0:
            return "You can leave the tower only by stepping down from the null level."
        if not state.door:
            return "The door is shut until someone hits the switch on level 5."
        return "You cannot leave now."
    if kind == "stay":
        return "You may stay put only on a face-down tile you fell onto (or when you cannot move at all)."
    if kind != "go" or len(move) != 3:
        return "That is not a K'Dak move."
    c, lv = move[1], move[2]
    if not (0 <= c < 4 and 0 <= lv < LEVELS) or len(state.cols[c]) <= lv:
        return f"There is no tile at {place_words(c, lv) if 0 <= c < 4 and 0 <= lv < LEVELS else 'that place'}."
    if state.pawns[p] == NOT_IN:
        return "On your first move you may enter any tile on the null level (level 0)."
    if here is None:
        return "Your pawn has left the tower and cannot reenter."
    hc, hl = here
    if (hc, hl) == (c, lv):
        return "You are already there; you may stay only on a face-down tile you fell onto."
    if c == hc and lv == hl + 1:
        if state.opts.up2 and face_up_on_level(state.cols, state.up, hl) < 2:
            return "You may move directly up one level only if at least two tiles on your level are face up."
        return "You cannot go up here."
    if lv == hl and c in ORTH[hc]:
        return "You cannot step there."
    if lv == hl:
        return "You may not move diagonally."
    return "Move one space horizontally or vertically on your level, or directly up or down one level."


def why_impossible(state: KState, outcome) -> str:
    """Why `outcome` is not what chance can do now, as a sentence about the die or the tiles."""
    kind = outcome[0] if isinstance(outcome, tuple) and outcome else None
    value = outcome[1] if kind is not None and len(outcome) == 2 else None
    if state.stage == ROLL:
        if kind != "roll":
            return "The die must be rolled now (for example 'roll 4')."
        if not isinstance(value, int) or isinstance(value, bool):
            return "A die roll is a number: null 0, ace 1, then 2 to 5."
        return f"There is no {value} on a die: its faces are null, ace, 2, 3, 4 and 5 (0 to 5)."
    if kind != "reveal":
        return "A tile is being turned up now: its suit and rank are revealed first."
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < TILES:
        return "A piecepack tile is one of four suits (suns, moons, crowns, arms) and a rank from null to 5."
    where = locate(state.cols, state.pending[1]) if state.pending else None
    seen_at = state.ident.index(value)
    there = locate(state.cols, seen_at)
    at = f"at {place_words(*there)}" if there else "among the discards"
    return (f"The tile {'at ' + place_words(*where) if where else 'being revealed'} cannot be the {RANKS[value % 6]} of "
            f"{SUITS[value // 6]}: that tile was seen already ({at}).")
