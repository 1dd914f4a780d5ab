"""Elevation rules (seed 004): complete-turn generation, applying a turn (the one step function), refusals.

Turn generation is the hot path of search. A piece's turns depend only on a few facts about the squares around it
(which neighbours can give a tile, which can take one, which can be stepped onto at each height change a dig can
make), so each piece's turns are looked up in a table keyed by those facts as bit masks over the 36 squares, and
generated only the first time a key is met: one group per shape (a dig then a step; a step then a dig; the fish's
leaps; the dragon's two digs; its steps), about 18 lookups a position. The state carries the masks (each side's
squares, the squares of each height), which each turn updates, so a position is never read square by square. A new
group takes its moves from the square's own tuples of every turn of that shape (built once a square, see
`_turns_of`), picked a row at a time by itemgetters: nothing is made per move, and the garbage collector has nothing
new to visit; a step then a dig is assembled from rows (the digs after one step), which depend on fewer squares than
the group. In front of the groups, the piece tables remember each piece's groups by the exact heights and pieces
around it (`_PIECE_LOOKUP`): one lookup a piece for a position seen before, and for the pieces a turn did not come
near. Every table is emptied when it grows large. `reference.py` is the plain generator this one is tested and timed
against.

This is the one generator and the one step: `_gather` lists turns for `all_turns` (the game's legal moves, and so the
checked apply), `piece_turns` (`is_legal`), `has_turn` (whether a side is stuck) and `turns_on` (the search's states:
heights and board alone); the search reads single pieces through `known_piece_groups`, the same tables. `successor`
applies a turn to heights and board (the search's step) and `advance` brings the tiles, the pieces' squares and the
masks along. The refusals word the same rules one check at a time, and are tested to accept exactly the generated
turns.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from operator import itemgetter

from towerworld.games.elevation.board import (
    ACCEPT, ADJACENT, ALL_SQUARES, BIT, DECLINE, DIG_DIG, DIG_MOVE, DRAGON, DRAW, DRAWN, FISH, FISH_DIG_LEAP,
    FISH_LEAP_DIG, LEAPS, LONE_STEP, MOVE_DIG, MOVE_MOVE, NEIGHBOUR_MASK, NEIGHBOURS, OFFER, ONGOING, PIECES, REASONS,
    SAMURAI, SIDE_NAMES, SQUARES, UNDERMINE, WIN0, Rules, State, distance, square_name, turn_actions)

def side_of(piece: int) -> int:
    return piece // 6


def position_key(heights: tuple, board: tuple, kinds: tuple, mover: int, used: int) -> int:
    """Identity of a position for repetition: heights, which kind of piece of which side stands where, who moves.

    Tile identity does not count. Python's hash of a tuple of ints is the same in every process."""
    code_of = _CODES.get(kinds)
    if code_of is None:
        # piece -> 1 + side * 3 + kind; the last entry, 0, is what an empty square's -1 reads
        code_of = _CODES[kinds] = tuple(1 + (b // 6) * 3 + kinds[b] for b in range(PIECES)) + (0,)
    return hash((heights, tuple(map(code_of.__getitem__, board)), mover, used))


_CODES: dict = {}       # a game's kinds -> each piece's code in position keys


def build_state(rules: Rules, heights, placement: dict, kinds: tuple, mover: int = 0) -> State:
    """The one way to make a state: `heights` per square (tiles numbered bottom to top from a1), `placement` maps
    piece index -> square."""
    stacks, n = [], 0
    for h in heights:
        stacks.append(tuple(range(n, n + h)))
        n += h
    board = [-1] * SQUARES
    pos = [-1] * PIECES
    for piece, s in placement.items():
        board[s] = piece
        pos[piece] = s
    height_row, board_row = tuple(heights), tuple(board)
    key = position_key(height_row, board_row, kinds, mover, -1)
    occupied = tuple(sum(BIT[s] for s in pos[side * 6:side * 6 + 6] if s >= 0) for side in (0, 1))
    levels = tuple(sum(BIT[s] for s in range(SQUARES) if height_row[s] == h) for h in range(max(height_row) + 1))
    return State(tuple(stacks), height_row, board_row, tuple(pos), kinds, mover, 0, False, -1, 0, (key,), ONGOING, "",
                 rules, occupied, levels)


# ---- turn generation ------------------------------------------------------------------------------------------------

class _Masks:
    """Bit masks of one position as seen by the side to move: empty squares, enemy squares, squares with terrain and
    with one tile, and by height: `le[h + 3]` holds the squares at most h high (from h = -3, none, to past the top,
    all)."""
    __slots__ = ("empty", "enemy", "terrain", "ones", "le")

    def __init__(self, heights, board, me: int):
        levels = [0] * (max(heights) + 1)
        empty = enemy = 0
        for bit, h, b in zip(BIT, heights, board):
            levels[h] |= bit
            if b < 0:
                empty |= bit
            elif b // 6 != me:
                enemy |= bit
        self.empty = empty
        self.enemy = enemy
        self._by_height(levels)

    def _by_height(self, levels) -> None:
        """The height masks from `levels` (the squares of each height): the squares with terrain, those one high, and
        `le[h + 3]`, the squares at most h high."""
        self.terrain = ALL_SQUARES & ~levels[0]
        self.ones = levels[1] if len(levels) > 1 else 0
        le = [0, 0, 0]
        acc = 0
        for level in levels:
            acc |= level
            le.append(acc)
        le += (ALL_SQUARES, ALL_SQUARES, ALL_SQUARES)
        self.le = le

    @classmethod
    def light(cls, heights, own: int, enemy: int) -> _Masks:
        """The masks of a light state (heights and board) for the side whose squares are `own`, the other side's
        `enemy` (bit masks): the same as `_Masks(heights, board, me)`, without reading the board."""
        masks = cls.__new__(cls)
        levels = [0] * (max(heights) + 1)
        for bit, h in zip(BIT, heights):
            levels[h] |= bit
        masks.empty = ALL_SQUARES & ~(own | enemy)
        masks.enemy = enemy
        masks._by_height(levels)
        return masks

    @classmethod
    def of(cls, st: State) -> _Masks:
        """The masks of a state for its mover, from the state's own masks (the same as `_Masks(heights, board, me)`)."""
        masks = cls.__new__(cls)
        levels = st.levels
        red, blue = st.occupied
        masks.empty = ALL_SQUARES & ~(red | blue)
        masks.enemy = blue if st.mover == 0 else red
        masks._by_height(levels)
        return masks


_TABLE: dict = {}
_TABLE_LIMIT = 80_000          # keys; all tables are dropped past this (3,000 random positions: 22,000 keys, 38 MB)
_MOVE_DIG_ROWS: tuple[dict, ...] = tuple({} for _ in range(SQUARES))   # per square: rows of digs after a step
_ROWS_LIMIT = _TABLE_LIMIT // 16    # rows a square; its rows of that shape are dropped past this


def _subsets_of_neighbours() -> dict:
    """Every set of squares next to one square (a mask) -> its squares, ascending. Every mask the groups and rows are
    made from lies around one square, so this plain dict answers them all (a subscript, not a call of `squares_of`)."""
    found: dict = {}
    for near in NEIGHBOURS:
        subsets: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        for q in near:                  # ascending, so each tuple stays sorted
            subsets += [(mask | BIT[q], squares + (q,)) for mask, squares in subsets]
        found.update(subsets)
    return found


_SQ = _subsets_of_neighbours()


def _getter(squares: tuple):
    """A function that picks the items at `squares` out of a list indexed by square, as a tuple, in C where it can."""
    if len(squares) > 1:
        return itemgetter(*squares)
    if squares:
        q = squares[0]
        return lambda row: (row[q],)
    return lambda row: ()


# mask of squares around one square -> a getter of those squares: a group gathers the square's own move tuples with
# one call per row instead of one bytecode loop per move
_GET = {mask: _getter(squares) for mask, squares in _SQ.items()}

# The same in a square's own numbering of its neighbours (0..7, ascending like the squares, so the order of moves is
# kept): the dig-first groups work on masks of at most 8 bits, small ints that Python neither allocates nor frees,
# and look their getters up by index. _LOCAL[s]: a mask of squares around s -> the same squares as local bits.
_LOCAL = tuple({sum(BIT[NEIGHBOURS[s][i]] for i in range(len(NEIGHBOURS[s])) if local >> i & 1): local
                for local in range(1 << len(NEIGHBOURS[s]))} for s in range(SQUARES))
_LSQ = tuple(tuple(i for i in range(8) if local >> i & 1) for local in range(256))     # local mask -> its indices
_LGET = tuple(_getter(squares) for squares in _LSQ)
_LBIT = tuple(1 << i for i in range(8))
_LNOT = tuple(255 ^ (1 << i) for i in range(8))       # every local bit but one, without a negative int
NEAR2_MASK = tuple(sum(BIT[q] for q in range(SQUARES) if distance(s, q) <= 2) for s in range(SQUARES))


def clear_tables() -> None:
    """Forget every remembered group and row (measurements from a cold start). Each square's move tuples (`_TURNS`)
    and the fish's leap codes stay: they are fixed facts of the board, like the neighbour tables."""
    _TABLE.clear()
    for rows in _MOVE_DIG_ROWS:
        rows.clear()
    _clear_piece_tables()


def _store(key, moves) -> tuple:
    if len(_TABLE) >= _TABLE_LIMIT:
        clear_tables()
    group = _TABLE[key] = tuple(moves)
    return group


def _dig_pairs(sources: int, targets: int):
    """Every dig from a source square onto a different target square, in order."""
    tgts = _SQ[targets]
    return [(f, t) for f in _SQ[sources] for t in tgts if t != f]


def piece_turn_groups(heights, masks: _Masks, s: int, kind: int, rules: Rules, first: bool = False) -> list:
    """Every complete legal turn of the piece on square `s`, as sorted groups of moves (tuples) in sorted order (with
    `first`, only up to the first group that is not empty: enough to tell whether the piece can act).

    A group's key is a shape tag, the square, then the masks (and leap codes) that the shape depends on, nothing else,
    so that positions which differ elsewhere share the group."""
    table = _TABLE
    groups = []
    hs = heights[s]
    i = hs + 3
    near = NEIGHBOUR_MASK[s]
    empty, enemy, terrain, le = masks.empty, masks.enemy, masks.terrain, masks.le
    anywhere = rules.ocean and hs == 0
    forbidden = 0 if kind == SAMURAI and rules.samurai_undermining else enemy
    diggable = terrain & ~forbidden
    sources = near & diggable
    targets = near & empty
    # neighbours the piece may step onto, now and once a dig lowered or raised them by one
    if anywhere:
        steps = near & (empty | (enemy & le[i - 2]))
    else:
        steps = near & ((empty & le[i + 1]) | (enemy & le[i - 2]))
    if sources and targets:
        if anywhere:
            lowered = near & (empty | (enemy & le[i - 1]))
            raised = near & (empty | (enemy & le[i - 3]))
        else:
            lowered = near & ((empty & le[i + 2]) | (enemy & le[i - 1]))
            raised = near & ((empty & le[i]) | (enemy & le[i - 3]))
        key: tuple = (DIG_MOVE, s, sources, targets, lowered & sources, steps, raised & targets)
        group = table.get(key)
        if group is None:
            group = _store(key, _dig_move(key))
        groups.append(group)
        if first and group:
            return groups
    if steps:
        region = NEAR2_MASK[s]
        vacated = (empty | BIT[s]) & region
        dig_from = diggable & region
        key = (MOVE_DIG, s, steps, dig_from, vacated)
        group = table.get(key)
        if group is None:
            group = _store(key, _move_dig(s, steps, dig_from, vacated))
        groups.append(group)
        if first and group:
            return groups
    if kind == FISH:
        leap_codes = []
        for end, mid in LEAPS[s]:
            if empty & BIT[mid]:
                at_end = 0 if empty & BIT[end] else 1 if enemy & BIT[end] else 2
                leap = (hs, heights[mid], heights[end], at_end, rules.ocean)
                known = _LEAP_CODES.get(leap)
                leap_codes.append(known if known is not None else _LEAP_CODES.setdefault(leap, _leap_code(*leap)))
            else:
                leap_codes.append(0)
        codes = tuple(leap_codes)
        if sources and targets and any(codes):
            key = (FISH_DIG_LEAP, s, sources, targets, codes)
            group = table.get(key)
            if group is None:
                group = _store(key, _dig_leap(key))
            groups.append(group)
        for (end, _), code in zip(LEAPS[s], codes):
            if code & 2:
                after = NEIGHBOUR_MASK[end]
                key = (FISH_LEAP_DIG, s, end, after & terrain & ~enemy, after & empty)
                group = table.get(key)
                if group is None:
                    group = _store(key, _then_dig(key))
                groups.append(group)
    elif kind == DRAGON:
        if sources and targets:
            key = (DIG_DIG, s, sources, sources & masks.ones, targets)
            group = table.get(key)
            if group is None:
                group = _store(key, _dig_dig(key))
            groups.append(group)
        # both steps (the second from where the first led) and the lone step: one group, keyed by every mask
        reach = near & ((empty if anywhere else empty & le[i + 2]) | (enemy & le[i - 2]))
        parts = [MOVE_MOVE, s, reach, steps]
        for m in _SQ[steps]:
            hm = heights[m]
            j = hm + 3
            ocean_floor = rules.ocean and hm == 0
            second = NEIGHBOUR_MASK[m] & ((empty if ocean_floor else empty & le[j + 1]) | (enemy & le[j - 2]))
            # back to the square just left only after a capture: otherwise the turn changed nothing
            if enemy & BIT[m] and (hs <= hm + 1 or ocean_floor):
                second |= BIT[s]
            parts.append(second)
        key = tuple(parts)
        group = table.get(key)
        if group is None:
            by_first, lone = _turns_of(MOVE_MOVE, s)
            moves: list = []
            for m, second in zip(_SQ[steps], parts[4:]):
                moves += _GET[second](by_first[m])
            group = _store(key, moves + list(_GET[reach](lone)))
        groups.append(group)
    if rules.undermining:
        key = (UNDERMINE, s, near & enemy & terrain, targets)
        group = table.get(key)
        if group is None:
            group = _store(key, [(s, UNDERMINE, f, t) for f, t in _dig_pairs(key[2], key[3])])
        groups.append(group)
    return groups


def _dig_move(key):
    """Dig then step: each dig, then every step the dig leaves open, taken from the square's own move tuples."""
    _, s, sources, targets, lowered, level, raised = key
    local = _LOCAL[s]
    sources, targets, lowered, level, raised = (local[sources], local[targets], local[lowered], local[level],
                                                local[raised])
    by_source = _local_turns(DIG_MOVE, s)
    LSQ, LGET, LBIT, LNOT = _LSQ, _LGET, _LBIT, _LNOT
    # the targets where a tile more changes whether the piece can step there: onto any other target the steps after
    # the dig are the same, so one getter serves them all
    changed = targets & (level ^ raised)
    out: list = []
    for f in LSQ[sources]:
        # the dig lowers f and raises t; every other neighbour keeps its height
        after_f = (level & LNOT[f]) | (lowered & LBIT[f])
        steps = LGET[after_f]
        by_target = by_source[f]
        onto = targets & LNOT[f]
        if changed & onto:
            for t in LSQ[onto]:
                out += (LGET[(after_f & LNOT[t]) | (raised & LBIT[t])] if changed & LBIT[t] else steps)(by_target[t])
        else:
            for t in LSQ[onto]:
                out += steps(by_target[t])           # the steps, picked in C
    return out


def _move_dig(s: int, steps: int, dig_from: int, vacated: int) -> list:
    """Step, then dig: one row per square stepped onto, shared by every group whose masks agree around that square."""
    rows = _MOVE_DIG_ROWS[s]
    SQ = _SQ
    out: list = []
    for m in SQ[steps]:
        after = NEIGHBOUR_MASK[m]
        row_key = (m, after & dig_from, after & vacated)
        row = rows.get(row_key)
        if row is None:
            if len(rows) >= _ROWS_LIMIT:
                rows.clear()
            by_source = _turns_of(MOVE_DIG, s)[m]
            tgts = SQ[row_key[2]]
            row = rows[row_key] = tuple([by_target[t] for f in SQ[row_key[1]] for by_target in (by_source[f],)
                                         for t in tgts if t != f])
        out += row
    return out


def _then_dig(key):
    kind, s, m, sources, targets = key
    tgts = _SQ[targets]
    return [(s, kind, m, f, t) for f in _SQ[sources] for t in tgts if t != f]


_LEAP_CODES: dict = {}      # (heights of the start, middle and end, who is at the end, ocean) -> leap code


def _leap_code(hs: int, hmid: int, hend: int, at_end: int, ocean: bool) -> int:
    """Whether the fish may leap from a square `hs` high over an empty middle square `hmid` high to an end square
    `hend` high (at_end: 0 empty, 1 an enemy, 2 its own side) once a dig changed the middle square's height by -1, 0
    or +1: bits 1, 2 and 4. Each step obeys the climb rule (from the floor of the box under the ocean rule, any
    climb), a capture only at the end."""
    code = 0
    for bit, change in ((1, -1), (2, 0), (4, 1)):
        h = hmid + change
        if h < 0 or (h - hs > 1 and not (ocean and hs == 0)):
            continue
        if at_end == 0:
            if hend - h <= 1 or (ocean and h == 0):
                code |= bit
        elif at_end == 1 and h - hend >= 2:
            code |= bit
    return code


def _dig_leap(key):
    _, s, sources, targets, codes = key
    out = []
    for f, t in _dig_pairs(sources, targets):
        for (end, mid), code in zip(LEAPS[s], codes):
            bit = 1 if mid == f else 4 if mid == t else 2
            if code & bit:
                out.append((s, FISH_DIG_LEAP, f, t, end))
    return out


def _dig_dig(key):
    """The dragon's two digs, from the square's own move tuples: a square that held one tile has none left for the
    second dig; the first dig's target has one now; the second may not put the first tile straight back."""
    _, s, sources, single, targets = key
    local = _LOCAL[s]
    sources, single, targets = local[sources], local[single], local[targets]
    by_first = _local_turns(DIG_DIG, s)
    LSQ, LGET, LBIT, LNOT = _LSQ, _LGET, _LBIT, _LNOT
    tgts = LSQ[targets]
    onto = [LGET[targets & LNOT[f2]] for f2 in range(8)]      # the second dig's targets, by its source
    out: list = []
    for f1 in LSQ[sources]:
        left = sources & LNOT[f1] if single & LBIT[f1] else sources
        by_target = by_first[f1]
        for t1 in tgts:
            if t1 != f1:
                by_source = by_target[t1]
                if targets & LBIT[f1]:
                    # from the first dig's target the tile may not go straight back to f1
                    back = LGET[targets & LNOT[f1] & LNOT[t1]]
                    for f2 in LSQ[left | LBIT[t1]]:
                        out += (back if f2 == t1 else onto[f2])(by_source[f2])
                else:
                    for f2 in LSQ[left | LBIT[t1]]:
                        out += onto[f2](by_source[f2])      # picked in C
    return out


_LOCAL_TURNS: dict = {}     # (shape, square) -> the square's move tuples of a dig-first shape, by local indices (kept)


def _local_turns(shape: int, s: int) -> tuple:
    """`_turns_of(shape, s)` indexed by the square's local neighbour numbers (the same tuples): the last level a
    tuple of 8, for the getters of `_LGET`."""
    found = _LOCAL_TURNS.get((shape, s))
    if found is None:
        near, by_square = NEIGHBOURS[s], _turns_of(shape, s)

        def last(row) -> tuple:
            return tuple(row[q] if row is not None else None for q in near) + (None,) * (8 - len(near))

        if shape == DIG_MOVE:
            found = tuple([tuple([last(by_square[f][t]) for t in near]) for f in near])
        else:
            found = tuple([tuple([tuple([last(by_square[f1][t1][f2]) if by_square[f1][t1] is not None else None
                                         for f2 in near]) for t1 in near]) for f1 in near])
        _LOCAL_TURNS[(shape, s)] = found
    return found


_TURNS: dict = {}      # (shape, square) -> every turn of that shape on the square, by square of each action (kept)


def _turns_of(shape: int, s: int) -> Any:
    """The square's turns of a shape as nested tuples indexed by squares, in the order of the move's items: rows share
    these tuples instead of making their own (fewer objects for the garbage collector to visit, less memory). For
    MOVE_MOVE a pair: the two steps by first and second square, and the lone steps by square. (Tuples, not lists:
    kept for good, and a tuple that holds only ints, None and such tuples is soon left alone by the garbage collector,
    which visits every list reference by reference on each full collection: as lists these tables were most of a
    collection's work once the bench's moves had met a few dozen squares.)"""
    found = _TURNS.get((shape, s))
    if found is None:
        near = NEIGHBOURS[s]
        table: list = [None] * SQUARES
        if shape == DIG_MOVE:
            for f in near:
                table[f] = tuple([None if t == f or t not in near else
                                  tuple([(s, DIG_MOVE, f, t, m) if m in near else None for m in range(SQUARES)])
                                  for t in range(SQUARES)])
        elif shape == MOVE_MOVE:
            # the two steps, by first and second square; and the lone step, by square
            found = (tuple([None if m not in near else
                            tuple([(s, MOVE_MOVE, m, m2) if m2 in ADJACENT[m] else None for m2 in range(SQUARES)])
                            for m in range(SQUARES)]),
                     tuple([(s, LONE_STEP, m) if m in near else None for m in range(SQUARES)]))
        elif shape == MOVE_DIG:
            for m in near:
                after = NEIGHBOURS[m]
                table[m] = tuple([None if f not in after else
                                  tuple([(s, MOVE_DIG, m, f, t) if t in after and t != f else None
                                         for t in range(SQUARES)]) for f in range(SQUARES)])
        else:
            for f1 in near:
                table[f1] = tuple([None if t1 == f1 or t1 not in near else
                                   tuple([None if f2 not in near else
                                          tuple([(s, DIG_DIG, f1, t1, f2, t2) if t2 in near and t2 != f2 else None
                                                 for t2 in range(SQUARES)])
                                          for f2 in range(SQUARES)]) for t1 in range(SQUARES)])
        if shape != MOVE_MOVE:
            found = tuple(table)
        _TURNS[(shape, s)] = found
    return found


def _region(s: int, kind: int) -> tuple[int, ...]:
    """The squares whose pieces, and whether they have terrain, a piece's turns can depend on: within two squares (a
    step, then a dig or a second step from there), and for a fish the squares around the ends of its leaps too (a
    leap, then a dig)."""
    squares = {q for q in range(SQUARES) if distance(s, q) <= 2}
    if kind == FISH:
        for end, _ in LEAPS[s]:
            squares |= set(NEIGHBOURS[end])
    return tuple(sorted(squares))


def _height_region(s: int, kind: int) -> tuple[int, ...]:
    """The squares whose exact heights a piece's turns can depend on: its own and its neighbours' (digs, steps);
    for a dragon also those two squares away (its second step climbs from the first), for a fish the ends of its
    leaps. Further out only whether a square has terrain matters (a dig after a step or a leap), and so a dig two
    squares away that leaves terrain on both squares does not change the key of a samurai or a fish."""
    if kind == DRAGON:
        return tuple(q for q in range(SQUARES) if distance(s, q) <= 2)
    squares = {q for q in range(SQUARES) if distance(s, q) <= 1}
    if kind == FISH:
        squares |= {end for end, _ in LEAPS[s]}
    return tuple(sorted(squares))


# The piece tables: a piece's groups (the tuples `piece_turn_groups` gives, shared with the group table), keyed by the
# exact heights of the squares they depend on (read by an itemgetter, in C: far cheaper than the groups' masks), and
# the pieces and the bare squares of its region; looked up before the groups. A position seen before costs one lookup a piece; a fresh child hits for about half its pieces
# (those its parent's turn did not come near). The value holds the groups, not one tuple of their moves: a new tuple
# of hundreds of moves is work for the garbage collector, and memory. One dict per square, kind and rule flags
# (ocean, samurai undermining, undermining), so the key need not say them.
_REGION_HEIGHTS = tuple(tuple(itemgetter(*_height_region(s, kind)) for kind in range(3)) for s in range(SQUARES))
_REGION_MASK = tuple(tuple(sum(BIT[q] for q in _region(s, kind)) for kind in range(3)) for s in range(SQUARES))
_PIECE_TABLES: tuple[dict, ...] = tuple({} for _ in range(SQUARES * 3 * 8))
# by (square * 3 + kind) * 8 + rule flags: what a lookup needs, in one subscript
_PIECE_LOOKUP = tuple((_REGION_HEIGHTS[n // 24][n // 8 % 3], _REGION_MASK[n // 24][n // 8 % 3], _PIECE_TABLES[n])
                      for n in range(SQUARES * 3 * 8))
# keys; all are dropped past this, and with the groups (clear_tables), whose tuples they hold: about 450 bytes a key
_PIECE_KEYS_LIMIT = 50_000
_piece_keys = 0


def _clear_piece_tables() -> None:
    global _piece_keys
    for table in _PIECE_TABLES:
        table.clear()
    _piece_keys = 0


def all_turns(st: State) -> list:
    """Every complete legal turn of the player to move (decision moves only), sorted."""
    if st.outcome != ONGOING:
        return []
    if st.phase == 1:
        return [(DRAW, ACCEPT), (DRAW, DECLINE)]
    rules = st.rules
    out = []
    used = st.used
    if rules.draw_offers and not st.offered and used < 0:
        out.append((DRAW, OFFER))
    me = st.mover
    red, blue = st.occupied
    own, enemy = (red, blue) if me == 0 else (blue, red)
    # by square: the moves come out sorted
    squares = sorted([s for s in st.pos[me * 6:me * 6 + 6] if s >= 0])
    return _gather(out, st.heights, st.board, st.kinds, rules, squares, own, enemy, st.levels[0], used)


def turns_on(heights, board, kinds, me: int, rules: Rules, sides: tuple | None = None) -> list:
    """Every complete turn of `me` on heights and board alone (no draw offers; the two-pieces game is searched as
    one piece a turn): the search's states. `sides`, when the caller has them: (red's squares, blue's squares,
    ascending, red's mask, blue's mask, ...)."""
    if sides is None:
        sides = board_sides(board)
    own, enemy = sides[2 + me], sides[3 - me]
    masks = _Masks.light(heights, own, enemy)
    return _gather([], heights, board, kinds, rules, sides[me], own, enemy, ALL_SQUARES & ~masks.terrain, -1, masks)


def board_sides(board) -> tuple:
    """(red's squares, blue's squares, ascending, red's mask, blue's mask), read off the board."""
    red = tuple(s for s in range(SQUARES) if 0 <= board[s] < 6)
    blue = tuple(s for s in range(SQUARES) if board[s] >= 6)
    return red, blue, sum(BIT[s] for s in red), sum(BIT[s] for s in blue)


def _gather(out: list, heights, board, kinds, rules: Rules, squares, own: int, enemy: int, bare: int, used: int,
            masks: _Masks | None = None) -> list:
    """The one generator: `out` extended by the turns of the pieces on `squares` (but `used`), in that order, each
    piece's groups looked up in the piece tables (`own`, `enemy`: each side's squares as masks, `bare`: the squares
    without terrain) and generated by `piece_turn_groups` the first time a key is met."""
    flags = rules.ocean + 2 * rules.samurai_undermining + 4 * rules.undermining
    for s in squares:
        b = board[s]
        if b == used:
            continue
        kind = kinds[b]
        read, region, table = _PIECE_LOOKUP[(s * 3 + kind) * 8 + flags]
        key = (read(heights), own & region, enemy & region, bare & region)
        groups = table.get(key)
        if groups is None:
            if masks is None:
                masks = _Masks.light(heights, own, enemy)
            groups = _remember(table, key, heights, masks, s, kind, rules)
        for group in groups:
            out += group
    return out


def _remember(table: dict, key, heights, masks: _Masks, s: int, kind: int, rules: Rules) -> tuple:
    """The piece's groups, generated and kept in its piece table under `key`."""
    global _piece_keys
    groups = tuple(piece_turn_groups(heights, masks, s, kind, rules))
    if _piece_keys >= _PIECE_KEYS_LIMIT:
        _clear_piece_tables()
    _piece_keys += 1
    table[key] = groups
    return groups


def known_piece_groups(heights, masks: _Masks, own: int, s: int, kind: int, rules: Rules) -> tuple:
    """`piece_turn_groups(heights, masks, s, kind, rules)` (the same groups, as a tuple) through the piece tables, as
    `_gather` looks them up: one piece's turns for the search, which looks at some pieces alone. `own`: the squares
    of the side to move."""
    read, region, table = _PIECE_LOOKUP[(s * 3 + kind) * 8 + rules.ocean + 2 * rules.samurai_undermining
                                        + 4 * rules.undermining]
    key = (read(heights), own & region, masks.enemy & region, ~masks.terrain & region)
    groups = table.get(key)
    if groups is None:
        groups = _remember(table, key, heights, masks, s, kind, rules)
    return groups


def piece_turns(st: State, s: int) -> list:
    """The complete legal turns of the piece on `s` (empty when it may not act now)."""
    b = st.board[s] if 0 <= s < SQUARES else -1
    if st.outcome != ONGOING or st.phase != 0 or b < 0 or b // 6 != st.mover or b == st.used:
        return []
    red, blue = st.occupied
    own, enemy = (red, blue) if st.mover == 0 else (blue, red)
    return _gather([], st.heights, st.board, st.kinds, st.rules, (s,), own, enemy, st.levels[0], -1)


def has_turn(heights, board, kinds, me: int, rules: Rules, used: int = -1, sides: tuple | None = None,
             bare: int | None = None) -> bool:
    """Whether `me` has any complete legal turn (draw offers do not count): a piece with a group of turns that is
    not empty, through the same tables as every other list of turns (the position's next list of turns then finds
    them there). `sides` and `bare` as `turns_on` and `_gather` take them, when the caller has them."""
    if sides is None:
        sides = board_sides(board)
    own, enemy = sides[2 + me], sides[3 - me]
    masks = None
    if bare is None:
        masks = _Masks.light(heights, own, enemy)
        bare = ALL_SQUARES & ~masks.terrain
    flags = rules.ocean + 2 * rules.samurai_undermining + 4 * rules.undermining
    for s in sides[me]:
        b = board[s]
        if b == used:
            continue
        kind = kinds[b]
        read, region, table = _PIECE_LOOKUP[(s * 3 + kind) * 8 + flags]
        key = (read(heights), own & region, enemy & region, bare & region)
        groups = table.get(key)
        if groups is None:
            if masks is None:
                masks = _Masks.light(heights, own, enemy)
            groups = _remember(table, key, heights, masks, s, kind, rules)
        if any(groups):
            return True
    return False


# ---- applying a turn -------------------------------------------------------------------------------------------------

def successor(heights, board, move):
    """Heights and board after a piece's turn, and the value it captured; nothing else is kept. (What a turn leaves
    as it was is handed back as it was: a turn that only digs keeps the board, one that only steps the heights.)"""
    s, kind = move[0], move[1]
    if kind == DIG_MOVE or kind == FISH_DIG_LEAP:
        h = list(heights)
        h[move[2]] -= 1
        h[move[3]] += 1
        heights = tuple(h)
        to = move[4]
    elif kind == MOVE_DIG or kind == FISH_LEAP_DIG:
        h = list(heights)
        h[move[3]] -= 1
        h[move[4]] += 1
        heights = tuple(h)
        to = move[2]
    elif kind == LONE_STEP:
        to = move[2]
    elif kind == MOVE_MOVE:
        b = list(board)
        piece = b[s]
        gain = 0.0
        here = s
        for to in (move[2], move[3]):
            if b[to] >= 0 and to != s:
                gain += 1.0
            b[here] = -1
            b[to] = piece
            here = to
        return heights, tuple(b), gain
    else:                                    # DIG_DIG, UNDERMINE: digs alone
        h = list(heights)
        h[move[2]] -= 1
        h[move[3]] += 1
        if kind == DIG_DIG:
            h[move[4]] -= 1
            h[move[5]] += 1
        return tuple(h), board, 0.0
    # one step, onto `to`
    b = list(board)
    gain = 1.0 if b[to] >= 0 else 0.0
    b[to] = b[s]
    b[s] = -1
    return heights, tuple(b), gain


def advance(st: State, move) -> State:
    """The state after a legal turn (or draw move), without events: the step of `successor` (the search's, on heights
    and board), with the tiles, the pieces' squares and the masks brought along."""
    if move[0] == DRAW:
        return _answer_draw(st, move[1])
    heights, board, _ = successor(st.heights, st.board, move)
    s, shape = move[0], move[1]
    piece = st.board[s]
    side = piece // 6
    stacks, levels = st.stacks, st.levels
    if heights is not st.heights:
        tiles, grown = list(stacks), list(levels)
        for f, t in _DIGS_AT[shape]:
            src = tiles[move[f]]
            tiles[move[f]] = src[:-1]
            tiles[move[t]] += src[-1:]
        old = st.heights
        for q in {move[i] for pair in _DIGS_AT[shape] for i in pair}:
            grown[old[q]] &= ~BIT[q]
            while heights[q] >= len(grown):
                grown.append(0)
            grown[heights[q]] |= BIT[q]
        while not grown[-1]:            # the top level emptied: the levels end at the new top
            grown.pop()
        stacks, levels = tuple(tiles), tuple(grown)
    pos, occupied, captured = st.pos, st.occupied, False
    if board is not st.board:
        where, mine, theirs = list(pos), occupied[side], occupied[1 - side]
        for i in _STEPS_AT[shape]:
            victim = st.board[move[i]]
            if victim >= 0 and victim // 6 != side:
                where[victim] = -1
                theirs &= ~BIT[move[i]]
                captured = True
        landing = move[_STEPS_AT[shape][-1]]
        where[piece] = landing
        mine = mine & ~BIT[s] | BIT[landing]
        pos, occupied = tuple(where), ((mine, theirs) if side == 0 else (theirs, mine))
    return _after_turn(st, stacks, heights, board, pos, piece, captured, occupied, levels)


# by the shape of a turn: where in its tuple its digs (from, onto) are, and the squares it steps onto (where it may
# capture; the last is where the piece ends)
_DIGS_AT = {DIG_MOVE: ((2, 3),), FISH_DIG_LEAP: ((2, 3),), MOVE_DIG: ((3, 4),), FISH_LEAP_DIG: ((3, 4),),
            LONE_STEP: (), MOVE_MOVE: (), DIG_DIG: ((2, 3), (4, 5)), UNDERMINE: ((2, 3),)}
_STEPS_AT = {DIG_MOVE: (4,), FISH_DIG_LEAP: (4,), MOVE_DIG: (2,), FISH_LEAP_DIG: (2,), LONE_STEP: (2,),
             MOVE_MOVE: (2, 3), DIG_DIG: (), UNDERMINE: ()}


def _after_turn(st: State, stacks, heights, board, pos, piece: int, captured: bool, occupied: tuple,
                levels: tuple) -> State:
    """Who moves next and whether the game ended: the opponent has no piece, or no complete turn (a win); the third
    repetition or the move cap (a draw); in that order."""
    rules, me = st.rules, st.mover
    mover, used, turns = me, -1, st.turns
    enemy_left = any(p >= 0 for p in pos[(1 - me) * 6:(1 - me) * 6 + 6])
    sides = (sorted([q for q in pos[:6] if q >= 0]), sorted([q for q in pos[6:] if q >= 0])) + occupied
    if (rules.two_pieces and st.used < 0 and enemy_left
            and has_turn(heights, board, st.kinds, me, rules, piece, sides, levels[0])):
        used = piece                       # the same player acts again with another piece
    else:
        mover = 1 - me
        turns += 1
    key = position_key(heights, board, st.kinds, mover, used)
    history = (key,) if captured else st.history + (key,)
    outcome, reason = ONGOING, ""
    if not enemy_left:
        outcome, reason = WIN0 + me, "captured"
    elif used < 0 and not has_turn(heights, board, st.kinds, mover, rules, -1, sides, levels[0]):
        outcome, reason = WIN0 + me, "stuck"
    elif history.count(key) >= 3:
        outcome, reason = DRAWN, "repetition"
    elif turns >= rules.move_cap:
        outcome, reason = DRAWN, "cap"
    return State(stacks, heights, board, pos, st.kinds, mover, 0, st.offered if mover == me else False, used, turns,
                 history, outcome, reason, rules, occupied, levels)


def _answer_draw(st: State, what: int) -> State:
    if what == OFFER:
        return replace(st, phase=1, offered=True)
    if what == ACCEPT:
        return replace(st, phase=0, outcome=DRAWN, reason="agreement")
    return replace(st, phase=0)


def result_text(outcome: int, reason: str) -> str:
    if outcome == DRAWN:
        return f"Draw: {REASONS.get(reason, reason)}."
    return f"{SIDE_NAMES[outcome]} wins: {REASONS.get(reason, reason)}."


# ---- refusals: one named check per rule ------------------------------------------------------------------------------

class _Trial:
    """A turn being checked action by action: heights and board as they stand after the actions so far."""

    def __init__(self, st: State, s: int):
        self.st = st
        self.start = s
        self.here = s
        self.piece = st.board[s]
        self.kind = st.kinds[self.piece]
        self.heights = list(st.heights)
        self.board = list(st.board)
        self.captured = False

    def owner(self, q: int) -> int:
        b = self.board[q]
        return -1 if b < 0 else b // 6


def _shape_refusal(kind: int, pattern: tuple, rules: Rules) -> str | None:
    """Seed: the samurai only makes a basic move; the fish's and dragon's alternatives; the undermining variant."""
    allowed: set[tuple[str, ...]] = {("dig", "move"), ("move", "dig")}
    if kind == DRAGON:
        allowed |= {("dig", "dig"), ("move", "move"), ("move",)}
    if rules.undermining:
        allowed.add(("dig",))
    if len(pattern) > 2:
        return "A turn has at most two parts."
    if any(shape[:len(pattern)] == pattern for shape in allowed):
        return None
    if kind == SAMURAI:
        return "A samurai can only make a basic move: dig then move, or move then dig."
    if kind == FISH:
        return "A fish makes a basic move, or digs and moves two squares diagonally (in either order)."
    return "A dragon digs and moves, digs twice, moves twice, or takes one step without digging."


def _dig_refusal(trial: _Trial, f: int, t: int | None, undermining: bool, lone: bool) -> str | None:
    """Seed: "Digging means picking up a terrain tile from any square that is adjacent to the piece you are playing
    ... and placing it back onto any unoccupied adjacent square." Not from under an enemy (unless undermining)."""
    rules = trial.st.rules
    here = trial.here
    if f == here:
        return "You may not dig from under the piece you are playing."
    if f not in ADJACENT[here]:
        return "You may only dig from a square next to your piece."
    if trial.heights[f] <= 0:
        return f"There is no terrain left to dig on {square_name(f)}."
    under_enemy = trial.owner(f) == 1 - trial.st.mover
    may_undermine = (rules.undermining and lone) or (rules.samurai_undermining and trial.kind == SAMURAI)
    if under_enemy and not may_undermine:
        return "You may not remove terrain from a square that holds an enemy piece."
    if undermining and not under_enemy:
        return "Undermining digs from beneath an enemy piece; otherwise a turn needs a move too."
    if t is None:
        return None
    if t == f:
        return "The dug tile must go to a different square."
    if t not in ADJACENT[here]:
        return "You may only place terrain on a square next to your piece."
    if trial.board[t] >= 0:
        return "You may not place terrain onto a square occupied by a piece."
    return None


def _step_refusal(trial: _Trial, to: int, climb: int, last: bool) -> str | None:
    """Seed: "You may not climb up more than one vertical step", "You can drop down as many vertical steps as
    needed", "If you are at least TWO steps higher than an adjacent enemy piece then you can move onto that square and
    capture it. Otherwise, you can only move into vacant squares"."""
    here = trial.here
    owner = trial.owner(to)
    rise = trial.heights[to] - trial.heights[here]
    if owner == trial.st.mover:
        return "You may not move onto your own piece."
    if owner >= 0:
        if not last:
            return "A fish may capture only on the last square of its diagonal move."
        if rise > -2:
            return "You may capture only from at least two steps above the enemy piece."
    elif rise > climb and not (trial.st.rules.ocean and trial.heights[here] == 0):
        if trial.kind == DRAGON and rise == 2:
            return "A dragon may climb two steps only in a lone step, without digging."
        return f"You may not climb more than {'one step' if climb == 1 else 'two steps'}."
    return None


def refusal(st: State, s: int, acts: list, complete: bool) -> str | None:
    """The first rule that the actions break, or None. `complete`: the actions claim to be a whole turn."""
    b = st.board[s]
    if b < 0:
        return f"There is no piece on {square_name(s)}."
    if b // 6 != st.mover:
        return "That is not your piece."
    if b == st.used:
        return "That piece has already acted this turn; pick another."
    trial = _Trial(st, s)
    pattern = tuple("dig" if a[0] == "undermine" else "move" if a[0] == "step" else a[0] for a in acts)
    why = _shape_refusal(trial.kind, pattern, st.rules)
    if why:
        return why
    for n, act in enumerate(acts):
        if act[0] in ("dig", "undermine"):
            why = _dig_refusal(trial, act[1], act[2], act[0] == "undermine", pattern == ("dig",))
            if why or act[2] is None:
                return why
            if n == 1 and pattern == ("dig", "dig") and acts[0][1] == act[2] and acts[0][2] == act[1]:
                return "That puts the first tile straight back: a turn must change the position."
            trial.heights[act[1]] -= 1
            trial.heights[act[2]] += 1
        else:
            why = _move_refusal(trial, act[1], pattern, n)
            if why:
                return why
    if complete:
        return _completion_refusal(trial, pattern, acts)
    return None


def _move_refusal(trial: _Trial, to: int, pattern: tuple, n: int) -> str | None:
    here = trial.here
    leap = (trial.kind == FISH and n == pattern.index("move") and pattern != ("move", "move")
            and any(end == to for end, _ in LEAPS[here]))
    if to not in ADJACENT[here] and not leap:
        if trial.kind == FISH:
            return "A fish moves one square, or exactly two squares in a straight diagonal line."
        return "A piece moves one square, orthogonally or diagonally."
    path = [to]
    if leap:
        mid = dict(LEAPS[here])[to]
        if trial.board[mid] >= 0:
            return "The fish's diagonal move must pass over an empty square."
        path = [mid, to]
    climb = 2 if trial.kind == DRAGON and pattern == ("move",) else 1     # the dragon's lone step
    for q in path:
        why = _step_refusal(trial, q, climb, q == to)
        if why:
            return why
        if trial.board[q] >= 0:
            trial.captured = True
        trial.board[trial.here] = -1
        trial.board[q] = trial.piece
        trial.here = q
    if pattern == ("move", "move") and n == 1 and trial.here == trial.start and not trial.captured:
        return "The dragon's two steps would return it to where it started: a turn must change the position."
    return None


def _completion_refusal(trial: _Trial, pattern: tuple, acts: list) -> str | None:
    """Seed: "A "Basic Move" is to either dig, then move...or...move, then dig": both parts are required, unless an
    alternative of the fish or the dragon (or undermining) makes up the whole turn."""
    if not pattern:
        return "A turn needs a dig and a move."
    if pattern == ("move",) and trial.kind != DRAGON:
        return "A basic move needs a dig as well as a move."
    if pattern == ("dig",) and not trial.st.rules.undermining:
        return "A basic move needs a move as well as a dig."
    return None


def draw_refusal(state: State, what: int) -> str:
    if state.phase == 1:
        return "Answer the draw offer: accept or decline."
    if what not in (OFFER, ACCEPT, DECLINE):
        return "That is not a move of Elevation."
    if what != OFFER:
        return "There is no draw offer to answer."
    if not state.rules.draw_offers:
        return "Draw offers are switched off in this game."
    return "You may offer a draw only once a turn, before moving."


def is_legal(state: State, move) -> bool:
    """Whether `move` is a legal move now, without generating every turn of the position."""
    if not isinstance(move, tuple) or not move or not isinstance(move[0], int):
        return False
    if move[0] == DRAW:
        return move in all_turns(state)
    return move in piece_turns(state, move[0])


def why_illegal(state: State, move) -> str:
    """Why `move` is not a legal move now, as one sentence."""
    if state.outcome != ONGOING:
        return "The game is over."
    try:
        if move[0] == DRAW:
            return draw_refusal(state, move[1])
        if not 0 <= move[0] < SQUARES:
            return "That is not a move of Elevation."
        acts = turn_actions(move)
        return refusal(state, move[0], acts, complete=True) or "That is not a legal move here."
    except (IndexError, TypeError, KeyError, ValueError):
        return "That is not a move of Elevation."


__all__ = ["Rules", "State", "all_turns", "advance", "build_state", "has_turn", "is_legal", "piece_turns", "refusal",
           "turns_on", "why_illegal"]
