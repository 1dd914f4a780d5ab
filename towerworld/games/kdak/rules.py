"""K'Dak's Tower of Confusion (and Camel Wash), by Jim Adams and Amy Enge: the rules engine.

The tower is four columns (the four places of a 2x2 square, named a b c d clockwise from the back left) of up to six
tiles; a tile's level is its index from the bottom of its column (rulings.md). Every physical tile has a stable slot
number from its starting place (slot = 4 * level + column); the tile's identity (suit and rank) is decided lazily, by a
chance move among the identities nobody has seen yet, at the moment it is first turned face up or discarded. The state
therefore holds only public knowledge: identities of tiles somebody has seen (the memory game) and -1 for the rest.

A turn: move the pawn (maybe revealing and scoring a tile); once the tower crumbles, roll the die (chance) and remove a
tile of the rolled level (the roller's decision); then, holding talismans, spend one for an extra turn or pass.
"""
from __future__ import annotations

import random
from typing import NamedTuple

from towerworld.engine.game import CHANCE, TERMINAL, BadOption, Event, EventKind, Game, IllegalMove, Option, Variant

SUITS = ("suns", "moons", "crowns", "arms")
RANKS = ("null", "ace", "2", "3", "4", "5")
COLUMNS = "abcd"
ORTH = ((1, 3), (0, 2), (1, 3), (0, 2))     # a-b, b-c, c-d, d-a are orthogonal neighbours; a-c and b-d diagonal
LEVELS = 6
TILES = 24

NOT_IN = -1      # pawn beside the tower, not entered yet
OUT = -2         # pawn out of the tower for good

# stages
MOVE, ROLL, REMOVE, REVEAL, SPEND, OVER = range(6)
# how the game ended
RUNNING, END_NORMAL, END_CAP, END_LOST = range(4)
# what a pending reveal continues with
FLIP, DISCARD = 0, 1

TITLES = ((53, "supreme camel boy"), (48, "lead camel boy"), (42, "big camel boy"), (37, "camel boy"))


class Opts(NamedTuple):
    talisman: bool       # null tiles hold talismans (talisman variant)
    crumble: bool        # the tower crumbles from the first turn (solitaire / cooperative)
    l5t: bool            # a talisman lies by level 5 and must be fetched before leaving (solitaire / cooperative)
    up2: bool            # going up needs two face-up tiles on the current level
    pooled: bool         # one pooled score (cooperative)
    move_cap: int        # plies after which the game ends where it stands (0: no cap, the seed sets none)
    n: int               # players


class KState(NamedTuple):
    opts: Opts
    cols: tuple          # four tuples of tile slots, bottom first
    up: int              # bitmask of face-up slots standing in the tower
    ident: tuple         # per slot: suit * 6 + rank once seen, else -1
    pawns: tuple         # per player: slot of the tile the pawn stands on, NOT_IN or OUT
    scores: tuple
    tal: tuple           # talismans held per player
    door: bool           # the switch on level 5 was hit: door open, escape phase
    turn: int            # whose turn it is
    stage: int
    pending: tuple       # (FLIP | DISCARD, slot) while a reveal is due, else ()
    roll: int            # last roll, -1 before the first
    level: int           # level a tile must be removed from (stage REMOVE)
    fell: int            # bitmask of players whose pawn fell onto its tile and has not moved since
    free: bool           # this turn ends without a removal (spent solitaire talisman)
    discards: tuple      # removed slots, in order
    plies: int           # plies played, chance included (for the move cap)
    tower_tal: int       # -2 no level-5 talisman; -1 still by level 5; else the player who took it
    end: int             # RUNNING or how it ended


def place(c: int, level: int) -> str:
    return f"{COLUMNS[c]}{level}"


def ident_text(v: int) -> str:
    return f"{SUITS[v // 6]}:{RANKS[v % 6]}"


def tile_id(slot: int) -> str:
    return f"tile:{slot:02d}"


def locate(cols, slot):
    """(column, level) of a tile slot standing in the tower, or None. Tiles only ever fall straight down, so a tile's
    column is the one it started in (slot & 3)."""
    col = cols[slot & 3]
    if slot in col:
        return slot & 3, col.index(slot)
    return None


def pawn_place(state: KState, p: int):
    slot = state.pawns[p]
    return locate(state.cols, slot) if slot >= 0 else None


def crumbling(state: KState) -> bool:
    return state.door or state.opts.crumble


def face_up_on_level(cols, up: int, level: int) -> int:
    count = 0
    for col in cols:
        if len(col) > level and up >> col[level] & 1:
            count += 1
    return count


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
        ev.append(Event(EventKind.REMOVE, (tile_id(slot),), f"The tile at {place(c, lv)} ({RANKS[v % 6]} of "
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
                        ev.append(Event(EventKind.FALL, (f"pawn:{q}",), f"Player {q + 1}'s pawn falls to {place(c, lv - 1)}."))
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
            ev.append(Event(EventKind.END, (), f"The move cap of {cap} plies is reached: the game ends here."))


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
                            f"Player {p + 1} {'enters the tower at' if entering else 'moves to'} {place(c, lv)}."))
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
            ev.append(Event(EventKind.REVEAL, (tile_id(slot),), f"The tile at {place(*where)} is the {RANKS[move[1] % 6]} of "
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


class KDakGame(Game):
    name = "kdak"
    title = "K'Dak's Tower of Confusion"
    min_players = 2
    max_players = 2
    options = (
        Option("talisman", False, "talisman variant: every null tile turned face up gives a talisman (an extra turn)"),
        Option("crumble_from_start", False, "the tower crumbles from the first turn (solitaire / cooperative)"),
        Option("level5_talisman", False, "a talisman lies by level 5: fetch it to open the door; titles at the end "
                                         "(solitaire / cooperative)"),
        Option("up_needs_two", True, "going up needs at least two face-up tiles on your level"),
        Option("pooled", False, "the players pool their points (cooperative)"),
        Option("move_cap", 0, "0: no cap (the seed sets none); n: the game ends after n plies, chance moves "
                              "included, scored as it stands (solitaire / cooperative: lost, nobody escaped)", low=0,
               high=100_000),
    )
    _SOLO = {"crumble_from_start": True, "level5_talisman": True, "up_needs_two": False}
    variants = (
        Variant("standard", "two players climb, then escape the crumbling tower", {}, players=(2, 2)),
        Variant("talisman", "null tiles hold talismans that give extra turns", {"talisman": True}, players=(2, 2)),
        Variant("solitaire", "Kaka alone: the tower crumbles at once; fetch the talisman on level 5 and escape",
                dict(_SOLO), players=(1, 1)),
        Variant("cooperative", "the solitaire rules for two pawns with a pooled score",
                {**_SOLO, "pooled": True}, players=(2, 2)),
    )
    # No rule bounds the climb (the seed sets no limit; the move_cap option may). This is a practical bound for
    # playouts and OpenSpiel's GameInfo: uniformly random two-player games take about 150 plies, rarely 300.
    max_plies = 20_000
    max_moves = 24
    perfect_information = True   # identities are decided by chance when revealed; the state holds only public facts
    min_utility = -1.0
    max_utility = 1.0

    # ---- setup -------------------------------------------------------------------------------------------------------
    def resolve_options(self, options=None, variant=None, players=None):
        """Options and player count. Without a count, the options decide: one player for the solitaire rules (the
        level-5 talisman without a pooled score), two otherwise; combinations that make no game are refused."""
        merged, _ = super().resolve_options(options, variant, None)
        n = players
        if n is None:
            n = 1 if merged["level5_talisman"] and not merged["pooled"] else 2
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 2:
            raise BadOption(f"{self.title} is for one or two players, not {n!r}.")
        v = next((x for x in self.variants if x.name == variant), None)
        if v is not None and v.players and not v.players[0] <= n <= v.players[1]:
            raise BadOption(f"{self.title} ({variant}) is for {v.players[0]} player{'s' if v.players[0] > 1 else ''}, "
                            f"not {n}.")
        _check_combo(merged, n)
        return merged, n

    def new_state(self, options=None, players=None) -> KState:
        merged, n = self.resolve_options(options, None, players)
        o = Opts(merged["talisman"], merged["crumble_from_start"], merged["level5_talisman"],
                 merged["up_needs_two"], merged["pooled"], merged["move_cap"], n)
        cols = tuple(tuple(4 * lv + c for lv in range(LEVELS)) for c in range(4))
        return KState(o, cols, 0, (-1,) * TILES, (NOT_IN,) * n, (0,) * n, (0,) * n, False, 0, MOVE, (), -1, 0, 0,
                      False, (), 0, -1 if o.l5t else -2, RUNNING)

    def num_players(self, state):
        return state.opts.n

    # ---- rules -------------------------------------------------------------------------------------------------------
    def current_player(self, state):
        st = state.stage
        if st == OVER:
            return TERMINAL
        if st == ROLL or st == REVEAL:
            return CHANCE
        return state.turn

    def legal_moves(self, state):
        return decision_moves(state)

    def chance_outcomes(self, state):
        if state.stage == ROLL:
            return [(("roll", r), 1 / 6) for r in range(6)]
        if state.stage == REVEAL:
            left = unseen_identities(state.ident)
            p = 1 / len(left)
            return [(("reveal", v), p) for v in left]
        return []

    def apply_unchecked(self, state, move):
        w = _W(state)
        ev: list = []
        _step(w, move, ev)
        _count_ply(w, ev)
        return w.freeze(), ev

    def random_playout(self, state, rng: random.Random, max_plies=None):
        """Fast random play: the same rule steps without events."""
        return self._playout(state, rng, max_plies, None)

    def rollout(self, state, rng: random.Random, max_plies=None):
        """Leaf playouts for search: a cheap climbing policy (climb straight up, spare level 5 and your own column,
        then hunt face-down tiles), 15% uniform. Uniform play climbs by a random walk: under the solitaire rules it
        almost never reaches level 5, and in the two-player game it spends half its plies wandering, which tells a
        search little and costs twice the time. playout.py plays this policy (strategy.policy_move) in one loop, about
        twice as fast as `_playout` with the policy, from the same random numbers to the same end."""
        from towerworld.games.kdak.playout import policy_playout
        return policy_playout(state, rng, max_plies or self.max_plies)

    def search_moves(self, state, moves):
        """After a long climb, a search goes up and never down (strategy.patient_moves): two searching players would
        otherwise wait below for each other for ever."""
        from towerworld.games.kdak.strategy import patient_moves
        return patient_moves(state, moves)

    def _playout(self, state, rng: random.Random, max_plies, policy):
        """Play to the end without events: rolls and reveals at random, decisions by `policy(state, moves, rand)`, or
        uniformly at random when it is None."""
        limit = max_plies or self.max_plies
        rand = rng.random
        plies = 0
        w = _W(state)            # one working copy for the whole playout: the rule steps mutate it in place
        while w.stage != OVER and plies < limit:
            st = w.stage
            if st == ROLL:
                move = ("roll", int(rand() * 6))
            elif st == REVEAL:
                left = unseen_identities(w.ident)
                move = ("reveal", left[int(rand() * len(left))])
            else:
                moves = decision_moves(w)
                move = moves[int(rand() * len(moves))] if policy is None else policy(w, moves, rand)
            _step(w, move, None)
            _count_ply(w, None)
            plies += 1
        return w.freeze()

    # ---- outcome -----------------------------------------------------------------------------------------------------
    def scores(self, state):
        if state.opts.pooled:
            total = sum(state.scores)
            return [total] * state.opts.n
        return list(state.scores)

    def lost(self, state) -> bool:
        """Solitaire / cooperative: the game is lost (level 5 gone, or out of the tower, before the talisman)."""
        return state.opts.l5t and state.stage == OVER and state.tower_tal < 0

    def returns(self, state):
        n = state.opts.n
        if state.stage != OVER:
            return [0.0] * n
        if state.opts.l5t:
            if state.tower_tal < 0 or state.end == END_CAP:
                return [-1.0] * n
            return [min(1.0, sum(state.scores) / 53)] * n
        s = state.scores
        if n == 1:
            return [0.0]
        if s[0] == s[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if s[0] > s[1] else [-1.0, 1.0]

    def result(self, state):
        if state.stage != OVER:
            return "in progress"
        o = state.opts
        who = "Kaka" if o.n == 1 else "Kaka and Baba"
        capped = f"The move cap of {o.move_cap} plies was reached"
        if o.l5t:
            if state.end == END_CAP:
                return f"{capped} before {who} escaped: lost."
            if state.end == END_LOST:
                return (f"Level 5 crumbled before {who} reached the talisman: lost (and a pounding headache from the "
                        "Phuzzy Pharaohs).")
            if state.tower_tal < 0:
                return f"{who} left the tower without the talisman: lost."
            total = sum(state.scores)
            title = next((t for pts, t in TITLES if total >= pts), None)
            if title:
                return f"{who} escaped with {total} points: {title}!"
            return f"{who} escaped with {total} points, short of the 37 a camel boy needs."
        s = state.scores
        w = 0 if s[0] > s[1] else 1
        told = f"Draw, {s[0]} to {s[1]}." if s[0] == s[1] else f"Player {w + 1} wins, {s[w]} to {s[1 - w]}."
        return f"{capped}: {told[0].lower()}{told[1:]}" if state.end == END_CAP else told

    def solitaire_won(self, state) -> bool:
        """Solitaire statistics count a win only with a title: out with the talisman and 37 points or more."""
        return (state.opts.l5t and state.stage == OVER and state.end != END_CAP and state.tower_tal >= 0
                and sum(state.scores) >= TITLES[-1][0])

    def title_for(self, points: int) -> str | None:
        return next((t for pts, t in TITLES if points >= pts), None)

    # ---- explanations ------------------------------------------------------------------------------------------------
    def why_impossible(self, state, outcome) -> str:
        return self.why_illegal(state, outcome)     # the refusal reasons speak of dice and draws too

    def why_illegal(self, state, move) -> str:
        return why_illegal(state, move)

    def explain(self, state, picks) -> str:
        from towerworld.games.kdak.notation import move_from_picks
        move = move_from_picks(state, picks)
        if move is None:
            return "That is not a legal move here."
        if move in self.legal_moves(state):
            return "That move is legal."
        return why_illegal(state, move)

    # ---- notation, picks, layout, hud (in their own modules) ---------------------------------------------------------
    def format_move(self, state, move):
        from towerworld.games.kdak.notation import format_move
        return format_move(state, move)

    def parse_move(self, state, text):
        from towerworld.games.kdak.notation import parse_move
        return parse_move(state, text)

    def picks(self, state, move):
        from towerworld.games.kdak.notation import picks
        return picks(state, move)

    def layout(self, state, viewer):
        from towerworld.games.kdak.layout import build_layout
        return build_layout(state)

    def hud(self, state, viewer):
        from towerworld.games.kdak.layout import hud
        return hud(self, state)

    def observation(self, state, viewer):
        """Everything in the state is public: identities of never-seen tiles are not in it (decided when revealed)."""
        return state

    def heuristic(self, state, player):
        from towerworld.games.kdak.strategy import heuristic
        return heuristic(self, state, player)

    def agents(self):
        from towerworld.games.kdak.strategy import AGENTS
        return dict(AGENTS)


def _check_combo(o: dict, n: int) -> None:
    if o["pooled"] and not o["level5_talisman"]:
        raise BadOption("A pooled score belongs to the cooperative rules: turn on 'level5_talisman' too.")
    if o["pooled"] and n != 2:
        raise BadOption("A pooled score needs two players.")
    if n == 1 and not o["level5_talisman"]:
        raise BadOption("One player plays the solitaire rules: choose the 'solitaire' variant.")
    if n == 2 and o["level5_talisman"] and not o["pooled"]:
        raise BadOption("With the level-5 talisman two players play cooperatively: turn on 'pooled' too.")
    if o["talisman"] and o["level5_talisman"]:
        raise BadOption("The talisman variant's null-tile talismans do not mix with the solitaire level-5 talisman.")


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
        return f"There is no tile at {place(c, lv) if 0 <= c < 4 and 0 <= lv < LEVELS else 'that place'}."
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
    at = f"at {place(*there)}" if there else "among the discards"
    return (f"The tile {'at ' + place(*where) if where else 'being revealed'} cannot be the {RANKS[value % 6]} of "
            f"{SUITS[value // 6]}: that tile was seen already ({at}).")

