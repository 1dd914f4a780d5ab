"""K'Dak's Tower of Confusion (and Camel Wash), by Jim Adams and Amy Enge: the rules (move generation, the one step
function, refusals) over the vocabulary of board.py.

A turn: move the pawn (maybe revealing and scoring a tile); once the tower crumbles, roll the die (chance) and remove a
tile of the rolled level (the roller's decision); then, holding talismans, spend one for an extra turn or pass.
"""
from __future__ import annotations

import random
from typing import Any

from towerworld.engine.game import Event, EventKind, IllegalMove
from towerworld.engine.words import counted
from towerworld.games.kdak.board import (DISCARD, END_CAP, END_LOST, END_NORMAL, FLIP, LEVELS, MOVE, NOT_IN, ORTH, OUT,
                                         OVER, RANKS, REMOVE, REVEAL, ROLL, RUNNING, SPEND, SUITS, TILES, KState,
                                         face_up_on_level, locate, pawn_place, place_words, tile_id)

# every ("go", column, level) move, built once: move generation hands out these tuples instead of building new ones
GO = tuple(tuple(("go", c, lv) for lv in range(LEVELS)) for c in range(4))
ENTER = tuple(GO[c][0] for c in range(4))
REMOVES = tuple(("remove", c) for c in range(4))
OUT_MOVE, STAY, SPEND_MOVES = ("out",), ("stay",), [("pass",), ("spend",)]
ROLLS = tuple(("roll", r) for r in range(6))
REVEALS = tuple(("reveal", v) for v in range(TILES))


# ---- move generation -------------------------------------------------------------------------------------------------
def _pawn_move_list(c: int, lv: int, reach1: bool, reach2: bool, climb: bool, out: bool, stay: bool) -> list:
    """The sorted moves of a pawn on column c, level lv: `reach1`, `reach2` whether the two neighbouring columns reach
    the level, `climb` whether going up is allowed, `out` whether stepping out is (the null level, the door open),
    `stay` whether the pawn fell onto a face-down tile and has not moved since. Sorted order is by column, then
    level; staying is last. Built once for every case into PAWN_MOVES."""
    n1, n2 = ORTH[c]             # the two neighbouring columns, n1 < n2
    moves: list[tuple] = []
    if reach1 and n1 < c:
        moves.append(GO[n1][lv])
    if reach2 and n2 < c:
        moves.append(GO[n2][lv])
    if lv:
        moves.append(GO[c][lv - 1])
    if climb and lv + 1 < LEVELS:     # (no case asks to climb from the top)
        moves.append(GO[c][lv + 1])
    if reach1 and n1 > c:
        moves.append(GO[n1][lv])
    if reach2 and n2 > c:
        moves.append(GO[n2][lv])
    if out:
        moves.append(OUT_MOVE)
    if not moves or stay:        # a pawn that cannot move stays
        moves.append(STAY)
    return moves


# PAWN_MOVES[(6 * c + lv) << 5 | reach1 << 4 | reach2 << 3 | climb << 2 | out << 1 | stay]: every case's sorted move
# list, built once (lists shared by every caller: not to be changed)
PAWN_MOVES = tuple(_pawn_move_list((key >> 5) // LEVELS, (key >> 5) % LEVELS,
                                   bool(key & 16), bool(key & 8), bool(key & 4), bool(key & 2), bool(key & 1))
                   for key in range(4 * LEVELS << 5))
# the entering moves for each set of columns that still stand (bit c: column c)
_ENTERS = tuple([ENTER[c] for c in range(4) if mask >> c & 1] for mask in range(16))
_NO_MOVES: list = []


def moves_from(cols, heights, slot: int, up: int, fell: int, door: bool, up2: bool) -> list:
    """The moves of a pawn on tile `slot` (or NOT_IN, OUT), sorted: `cols` the columns, `heights` their lengths, `up`
    the face-up tiles, `fell` whether the pawn fell onto its tile and has not moved since, `door` whether the door is
    open, `up2` whether going up needs two face-up tiles on the level. The one pawn move generator: legal moves and
    playouts both ask here (a list shared by every caller: not to be changed)."""
    if slot < 0:
        if slot == NOT_IN:
            return _ENTERS[(heights[0] > 0) | (heights[1] > 0) << 1 | (heights[2] > 0) << 2 | (heights[3] > 0) << 3]
        return _NO_MOVES
    c = slot & 3                 # tiles only ever fall straight down: a tile stays in its starting column
    lv = cols[c].index(slot)
    n1, n2 = ORTH[c]
    reach1, reach2 = heights[n1] > lv, heights[n2] > lv      # the neighbouring columns reach the level
    key = (6 * c + lv) << 5 | reach1 << 4 | reach2 << 3
    if heights[c] > lv + 1 and (not up2 or up and (                  # going up needs two face-up tiles on the level
            (up >> slot & 1) + (reach1 and up >> cols[n1][lv] & 1) + (reach2 and up >> cols[n2][lv] & 1)
            + (heights[c ^ 2] > lv and up >> cols[c ^ 2][lv] & 1)) >= 2):      # (c ^ 2 is the diagonal column)
        key |= 4
    if lv == 0 and door:
        key |= 2
    if fell and not up >> slot & 1:
        key |= 1
    return PAWN_MOVES[key]


def pawn_moves(state: KState, p: int) -> list:
    """The moves of player p's pawn, sorted (a list shared by every caller: not to be changed)."""
    return moves_from(state.cols, list(map(len, state.cols)), state.pawns[p], state.up, state.fell >> p & 1,
                      state.door, state.opts.up2)


# REMOVALS_OF[mask]: the removals from the columns in `mask` (bit c: column c), sorted, built once (lists shared by
# every caller: not to be changed)
REMOVALS_OF = tuple([REMOVES[c] for c in range(4) if mask >> c & 1] for mask in range(16))


def removals(heights, level: int) -> list:
    """The removals the die asks for: a tile of `level` in any column that still reaches it (`heights` the columns'
    lengths), sorted (a list shared by every caller: not to be changed)."""
    return REMOVALS_OF[(heights[0] > level) | (heights[1] > level) << 1 | (heights[2] > level) << 2
                       | (heights[3] > level) << 3]


# _AFTER[n][p]: the seats after seat p of n players (one or two), in turn order, p itself last
_AFTER = tuple(tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in range(3))


# ---- the one step function -------------------------------------------------------------------------------------------
def advance(state: KState, move: tuple | None, ev: list | None, rand=None, policy=None, limit: int = 1) -> KState:
    """The rules in play: `move` (a decision or a chance outcome, trusted to be legal) played on `state`, and what
    follows it (the flip, the switch, the end of the game, the roll or the end of the turn), the ply counted; events
    appended to `ev` (None: none). With `rand` (a random() function) play goes on to the end of the game or `limit`
    plies, chance included: rolls and reveals uniformly at random, decisions by `policy(stage, slot, cols, heights,
    door, up, ident, moves, rand)` over the rules' own move generation (uniformly at random when None), from `move` or, when it
    is None, from the first choice.

    `apply_unchecked` (one move, with events), the checked `apply` and every search playout (no events) run through
    this one function, on the state held in local variables: the columns, their heights and the pawns in lists, the
    standing tiles and the pawns out counted; the identities, the scores and the discards kept as the state's tuples
    until a ply changes them, then as lists; a column and the talismans rebuilt as tuples where they change, which is
    seldom. Each ply goes by the stage to the one kind of move it can be."""
    o = state.opts
    n, talisman, crumble, l5t, up2, cap, pooled = o.n, o.talisman, o.crumble, o.l5t, o.up2, o.move_cap, o.pooled
    (_, cols_t, up, ident_t, pawns_t, scores_t, tal, door, turn, stage, pending, roll, level, fell, free, discards_t,
     plies, tower_tal, end) = state
    cols = list(cols_t)
    heights = list(map(len, cols_t))
    standing = sum(heights)           # the tiles standing in the tower
    pawns = list(pawns_t)
    outs = pawns.count(OUT)           # the pawns out of the tower for good
    ident: Any = ident_t              # the state's tuple; a list once a reveal changes it
    scores: Any = scores_t            # the state's tuple; a list once a tile scores
    discards: Any = discards_t        # the state's tuple; a list once a tile is removed
    left: list | None = None          # the identities not seen yet, ascending, once a random reveal asks
    steps = 0
    while steps < limit and stage != OVER:
        steps += 1
        p = turn
        move_on = False          # the pawn's move is done: the switch, the end check, then the roll or the end of turn
        removed = -1             # the slot of a tile to remove now (its identity known)
        flip = -1                # the slot of a tile to turn face up now (its identity known)
        next_turn = False
        # ---- the move (given, a chance outcome or the policy's decision), by the stage --------------------------------
        if stage == MOVE:
            if move is None:
                moves = moves_from(cols, heights, pawns[p], up, fell >> p & 1, door, up2)
                if policy is None:
                    move = moves[int(rand() * len(moves))]
                else:
                    move = policy(MOVE, pawns[p], cols, heights, door, up, ident, moves, rand)
            kind = move[0]
            if kind == "go":
                c, lv = move[1], move[2]
                slot = cols[c][lv]
                if ev is not None:
                    entering = pawns[p] == NOT_IN
                    ev.append(Event(EventKind.ENTER if entering else EventKind.MOVE, (f"pawn:{p}", tile_id(slot)),
                                    f"Player {p + 1} {'enters the tower at' if entering else 'moves to'} "
                                    f"{place_words(c, lv)}."))
                pawns[p] = slot
                fell &= ~(1 << p)
                if up >> slot & 1:
                    move_on = True
                elif ident[slot] < 0:
                    stage = REVEAL
                    pending = (FLIP, slot)
                else:
                    flip = slot
            elif kind == "stay":
                slot = pawns[p]
                was = fell >> p & 1
                fell &= ~(1 << p)
                if ev is not None:
                    ev.append(Event(EventKind.STAY, (f"pawn:{p}",), f"Player {p + 1} stays."))
                if was and slot >= 0 and not up >> slot & 1:     # staying on a face-down tile it fell onto turns it up
                    if ident[slot] < 0:
                        stage = REVEAL
                        pending = (FLIP, slot)
                    else:
                        flip = slot
                else:
                    move_on = True
            elif kind == "out":
                pawns[p] = OUT
                outs += 1
                fell &= ~(1 << p)
                if ev is not None:
                    ev.append(Event(EventKind.LEAVE, (f"pawn:{p}",), f"Player {p + 1} leaves the tower for good."))
                move_on = True
            else:
                raise IllegalMove(_not_now(move, stage))
        elif stage == ROLL:
            if move is None:
                r = int(rand() * 6)
            elif move[0] == "roll":
                r = move[1]
            else:
                raise IllegalMove(_not_now(move, stage))
            roll = r
            h = max(heights)
            level = r if r < h else h - 1
            stage = REMOVE
            if ev is not None:
                extra = "" if r < h else f"; no tile is left there, so level {level}"
                ev.append(Event(EventKind.ROLL, ("die",), f"The die shows {RANKS[r]}: level {r}{extra} loses a tile."))
            move = None
            plies += 1               # nothing follows a roll but the ply count (and the move cap, below)
            if cap and plies >= cap:
                end, stage = END_CAP, OVER
                if ev is not None:
                    ev.append(_capped(cap))
            continue
        elif stage == REVEAL:
            what, slot = pending
            if move is None:
                if left is None:
                    left = unseen_identities(ident)
                v = left.pop(int(rand() * len(left)))
            elif move[0] == "reveal":
                v = move[1]
                if left is not None:
                    left.remove(v)
            else:
                raise IllegalMove(_not_now(move, stage))
            pending = ()
            if ident is ident_t:
                ident = list(ident_t)
            ident[slot] = v
            if ev is not None:
                c = slot & 3
                ev.append(Event(EventKind.REVEAL, (tile_id(slot),), f"The tile at "
                                f"{place_words(c, cols[c].index(slot))} is the {RANKS[v % 6]} of {SUITS[v // 6]}.",
                                reveals=True))
            if what == FLIP:
                stage = MOVE
                flip = slot
            else:
                stage = REMOVE
                removed = slot
        elif stage == REMOVE:
            if move is None:
                moves = removals(heights, level)
                if policy is None:
                    move = moves[int(rand() * len(moves))]
                else:
                    move = policy(REMOVE, pawns[p], cols, heights, door, up, ident, moves, rand)
            elif move[0] != "remove":
                raise IllegalMove(_not_now(move, stage))
            slot = cols[move[1]][level]
            if ident[slot] < 0:
                stage = REVEAL
                pending = (DISCARD, slot)
            else:
                removed = slot
        else:                    # SPEND
            if move is None:
                if policy is None:
                    move = SPEND_MOVES[int(rand() * 2)]
                else:
                    move = policy(SPEND, pawns[p], cols, heights, door, up, ident, SPEND_MOVES, rand)
            kind = move[0]
            if kind == "spend":
                tal = tal[:p] + (tal[p] - 1,) + tal[p + 1:]
                free = l5t
                stage = MOVE
                if ev is not None:
                    ev.append(Event(EventKind.SPEND, ("talisman:tower" if tower_tal == p else
                                                      f"talisman:{p}:{tal[p]}",),
                                    f"Player {p + 1} spends a talisman for an extra turn"
                                    f"{' without a removal' if free else ''}."))
            elif kind == "pass":
                next_turn = True
            else:
                raise IllegalMove(_not_now(move, stage))
        move = None

        # ---- what follows ------------------------------------------------------------------------------------------
        if flip >= 0:            # the tile turns face up: scored in the escape phase, a talisman for a null
            up |= 1 << flip
            v = ident[flip]
            rank = v % 6
            if door and rank:
                if scores is scores_t:
                    scores = list(scores_t)
                scores[p] += rank
            if rank == 0 and talisman:
                tal = tal[:p] + (tal[p] + 1,) + tal[p + 1:]
            if ev is not None:
                # the tile's face told just now ("The tile at ... is the 5 of arms.") is not told again; the points
                # are the score event's
                told = bool(ev) and ev[-1].kind == EventKind.REVEAL and ev[-1].pieces == (tile_id(flip),)
                text = f"Player {p + 1} turns it up" if told else \
                    f"Player {p + 1} turns up the {RANKS[rank]} of {SUITS[v // 6]}"
                if rank == 0 and talisman:
                    text += " and takes a talisman"
                ev.append(Event(EventKind.FLIP, (tile_id(flip),), text + "."))
                if door and rank:
                    ev.append(Event(EventKind.SCORE, (f"score:{0 if pooled else p}",),
                                    f"Player {p + 1} scores {rank}."))
            move_on = True
        if removed >= 0:         # the tile disintegrates; the tiles above settle; a pawn on it falls
            c = removed & 3
            col = cols[c]
            lv = col.index(removed)
            cols[c] = col = col[:lv] + col[lv + 1:]
            heights[c] -= 1
            standing -= 1
            up &= ~(1 << removed)
            if discards is discards_t:
                discards = list(discards_t)
            discards.append(removed)
            if ev is not None:
                v = ident[removed]
                ev.append(Event(EventKind.REMOVE, (tile_id(removed),), f"The tile at {place_words(c, lv)} "
                                f"({RANKS[v % 6]} of {SUITS[v // 6]}) disintegrates."))
            if removed in pawns:
                for q in range(n):
                    if pawns[q] == removed:
                        if lv:
                            pawns[q] = col[lv - 1]
                            fell |= 1 << q
                            if ev is not None:
                                ev.append(Event(EventKind.FALL, (f"pawn:{q}",),
                                                f"Player {q + 1}'s pawn falls to {place_words(c, lv - 1)}."))
                        else:
                            pawns[q] = OUT
                            outs += 1
                            fell &= ~(1 << q)
                            if ev is not None:
                                ev.append(Event(EventKind.FALL, (f"pawn:{q}",),
                                                f"Player {q + 1}'s pawn falls out of the tower."))
            if ev is not None and lv < len(col):
                ev.append(Event(EventKind.SETTLE, tuple(tile_id(s) for s in col[lv:]),
                                "The tiles above settle one level."))
        elif move_on and not door:   # the first pawn on level 5 hits the switch: every face-up tile turns face down
            slot = pawns[p]
            if slot >= 0 and heights[slot & 3] == LEVELS and cols[slot & 3][LEVELS - 1] == slot:
                door = True
                if tower_tal == -1:
                    tower_tal = p
                    tal = tal[:p] + (tal[p] + 1,) + tal[p + 1:]
                    if ev is not None:
                        ev.append(Event(EventKind.TALISMAN, ("talisman:tower",),
                                        f"Player {p + 1} takes the talisman of level 5."))
                if ev is not None:
                    ids = tuple(tile_id(s) for s in range(TILES) if up >> s & 1)
                    ev.append(Event(EventKind.SWITCH, ids, f"Player {p + 1} hits the switch: the door opens and "
                                    "every face-up tile turns face down. The tower starts to crumble!"))
                up = 0
        if move_on or removed >= 0:
            # the end: every pawn out; under the solitaire rules, level 5 gone before its talisman was taken; else,
            # once the door is open, every standing tile face up
            ended = RUNNING
            if outs == n:
                ended = END_NORMAL
            elif l5t:
                if tower_tal == -1 and LEVELS not in heights:
                    ended = END_LOST
            elif door and up.bit_count() == standing:
                ended = END_NORMAL
            if ended:
                end, stage = ended, OVER
                if ev is not None:
                    ev.append(Event(EventKind.END, (), "Level 5 has crumbled before the talisman was taken."
                                    if ended == END_LOST else "The game is over."))
            elif move_on and (door or crumble) and not free:
                stage = ROLL
            elif tal[p] > 0 and pawns[p] >= 0:      # the end of the turn: a talisman buys an extra turn
                stage = SPEND
            else:
                next_turn = True
        if next_turn:
            for q in _AFTER[n][p]:
                if pawns[q] != OUT:
                    turn, stage, free = q, MOVE, False
                    break
            else:
                end, stage = END_NORMAL, OVER
        # one more ply; at the move cap (an option, off by default) the game ends where it stands
        plies += 1
        if cap and plies >= cap and stage != OVER:
            end, stage = END_CAP, OVER
            if ev is not None:
                ev.append(_capped(cap))
    return KState(o, tuple(cols), up, ident if ident is ident_t else tuple(ident), tuple(pawns),
                  scores if scores is scores_t else tuple(scores), tal, door, turn, stage, pending, roll, level, fell,
                  free, discards if discards is discards_t else tuple(discards), plies, tower_tal, end)


def _capped(cap: int) -> Event:
    """The end at the move cap."""
    return Event(EventKind.END, (), f"The move limit of {counted(cap, 'move')} is reached: the game ends here.")


def _not_now(move, stage: int) -> str:
    """Why `move` cannot be played at `stage`, in one sentence."""
    if not isinstance(move, tuple) or not move or move[0] not in KINDS:
        return f"{move!r} is not a K'Dak move."
    return f"{move!r} cannot be played now: the turn asks to {STAGE_ASKS[stage]}."


# what each kind of move is, and what each stage asks for
KINDS = ("go", "stay", "out", "roll", "reveal", "remove", "spend", "pass")
STAGE_ASKS = {MOVE: "move a pawn", ROLL: "roll the die", REVEAL: "reveal a tile", REMOVE: "remove a tile",
              SPEND: "spend a talisman or pass"}


def playout(state: KState, rng: random.Random, limit: int, policy=None) -> KState:
    """Play to the end (at most `limit` plies, chance included) without events: `advance` from the first choice."""
    return advance(state, None, None, rng.random, policy, limit)


_ALL_IDENTITIES = frozenset(range(TILES))


def unseen_identities(ident) -> list:
    """The identities no tile has shown yet, ascending: what a tile turned up for the first time may be."""
    return sorted(_ALL_IDENTITIES.difference(ident))


def decision_moves(state: KState) -> list:
    """The legal decision moves, sorted; [] at chance or the end."""
    st = state.stage
    if st == MOVE:
        return list(pawn_moves(state, state.turn))
    if st == REMOVE:
        return list(removals(list(map(len, state.cols)), state.level))
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
