"""Carcassonne with The Tower and the Black Tower: the rules engine.

Speed notes (apply_unchecked is the hot loop of random play and MCTS):
- positions are ints, pos = (x + 128) << 8 | (y + 128); neighbours are pos +- 1 (north/south) and +- 256 (east/west);
- every tile type is precomputed in its four rotations (tiles.ROTS) with int edges and the joins to each neighbour;
- the frontier (empty places next to tiles) maps pos -> an 8-bit key of required edges, and tiles.FITS[t][key] lists
  the rotations that fit, so the placements of a drawn tile are one dict scan;
- roads, cities and fields are an incremental union-find over feature nodes kept in flat lists (parent, open edges,
  tile bitmask, pennants, follower counts packed 4 bits per player), copied (C speed) only by moves that change them;
- a state shares every container it does not change with its parent; containers are never mutated once a state is
  built, except path halving in the union-find, which never changes any answer.
Moves are ints: kind << 20 | payload (see the M_* constants).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import tiles as TL
from .tiles import CITY, CLOISTER, FIELD, ROAD, ROTS, FITS, NFITS, COUNT, IS_TOWER_TILE, INDEX

# ---- phases, move kinds ------------------------------------------------------------------------------------------
DRAW, PLACE, ACTION, CAPTURE, RANSOM, OVER = range(6)
PHASE_NAMES = ("draw", "place tile", "follower or tower", "capture", "ransom", "game over")

K_DRAW, K_PLACE, K_FOLLOW, K_TOWER, K_TOP, K_PASS, K_CAPTURE, K_NOCAPTURE, K_RANSOM, K_NORANSOM = range(10)
SHIFT = 20
LOW = (1 << SHIFT) - 1
M_DRAW = K_DRAW << SHIFT
M_PLACE = K_PLACE << SHIFT
M_FOLLOW = K_FOLLOW << SHIFT
M_TOWER = K_TOWER << SHIFT
M_TOP = K_TOP << SHIFT
M_PASS = K_PASS << SHIFT
M_CAPTURE = K_CAPTURE << SHIFT
M_NOCAPTURE = K_NOCAPTURE << SHIFT
M_RANSOM = K_RANSOM << SHIFT
M_NORANSOM = K_NORANSOM << SHIFT

NORMAL, BLACK, WHITE = 0, 1, 2
PIECE_NAMES = ("normal", "black", "white")
FOLLOWERS = 7                   # followers per player
SUPPLY = -1                     # follower location: in its owner's supply
# follower location >= 0: on the board, on that feature node; -2 - q: prisoner of player q; -100 - pos: on top of a
# tower at pos.
TOP0 = -100

DPOS = (1, 256, -1, -256)       # N E S W
ORIGIN = 128


def pos_of(x: int, y: int) -> int:
    return (x + ORIGIN) << 8 | (y + ORIGIN)


def xy(pos: int) -> tuple[int, int]:
    return (pos >> 8) - ORIGIN, (pos & 255) - ORIGIN


# ---- tower pieces per player ----------------------------------------------------------------------------------------
TOWER_ONLY = {2: 10, 3: 9, 4: 7, 5: 6, 6: 5}            # The Tower's own distribution (normal pieces)
BLACK_TABLE = {2: (4, 2, 8), 3: (3, 2, 7), 4: (3, 1, 6), 5: (2, 1, 5), 6: (2, 1, 4)}   # seed: black, white, normal


def tower_pieces(players: int, black_tower: bool = True, extra_foundations: int = 0) -> tuple[int, int, int]:
    """(normal, black, white) tower pieces each player receives.

    Seed footnote 3: for every 4 extra tower foundation tiles each player receives 1 Black and 2 normal pieces; with 8
    or more extra tiles each player of a 4, 5 or 6 player game receives 1 White piece; never more than 2 White each.
    (Without the Black Tower, The Tower's own table is used; extra foundations do not change it here.)"""
    if not black_tower:
        return (TOWER_ONLY[players], 0, 0)
    b, w, n = BLACK_TABLE[players]
    sets = extra_foundations // 4
    b += sets
    n += 2 * sets
    if extra_foundations >= 8 and players >= 4:
        w += 1
    return (n, b, min(w, 2))


@dataclass(frozen=True, slots=True)
class Config:
    players: int
    tower: bool
    black: bool
    pieces: tuple            # (normal, black, white) per player at the start


# ---- union-find ------------------------------------------------------------------------------------------------------
def find(p: list, x: int) -> int:
    """The root of node x. Read-only: lists may be shared by several states (put_tile compresses its own copy)."""
    while p[x] != x:
        x = p[x]
    return x


class CState:
    """A Carcassonne state. Immutable by convention: apply builds a new one that shares unchanged containers."""
    __slots__ = ("cfg", "phase", "player", "bag", "bagn", "drawn", "tiles", "board", "frontier", "parent", "opn",
                 "mask", "pen", "occ", "nkind", "ntile", "discarded", "fl", "towers", "tsup", "scores",
                 "cands", "ransomed", "_hash")
    # the slots' types (annotations only: no class attributes, so the slots stay as they are)
    cfg: Config
    phase: int
    player: int
    bag: tuple
    bagn: int
    drawn: int
    tiles: tuple
    board: dict
    frontier: dict
    parent: list
    opn: list
    mask: list
    pen: list
    occ: list
    nkind: list
    ntile: list
    discarded: tuple
    fl: tuple
    towers: dict
    tsup: tuple
    scores: tuple
    cands: tuple
    ransomed: bool
    _hash: int | None

    def copy(self) -> "CState":
        n = CState.__new__(CState)
        n.cfg = self.cfg; n.phase = self.phase; n.player = self.player; n.bag = self.bag; n.bagn = self.bagn
        n.drawn = self.drawn; n.tiles = self.tiles; n.board = self.board; n.frontier = self.frontier
        n.parent = self.parent; n.opn = self.opn; n.mask = self.mask; n.pen = self.pen; n.occ = self.occ
        n.nkind = self.nkind; n.ntile = self.ntile; n.discarded = self.discarded; n.fl = self.fl
        n.towers = self.towers; n.tsup = self.tsup; n.scores = self.scores
        n.cands = self.cands; n.ransomed = self.ransomed; n._hash = None
        return n

    def key(self) -> tuple:
        return (self.cfg, self.phase, self.player, self.bag, self.drawn, self.tiles, self.discarded, self.fl,
                tuple(sorted(self.towers.items())), self.tsup, self.scores, self.cands, self.ransomed)

    def __eq__(self, other) -> bool:
        return isinstance(other, CState) and (self is other or self.key() == other.key())

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.key())
        return self._hash

    def __getstate__(self):
        return {k: getattr(self, k) for k in CState.__slots__ if k != "_hash"}

    def __setstate__(self, d):
        for k in CState.__slots__:
            setattr(self, k, d.get(k))
        self.ransomed = bool(self.ransomed)
        self._hash = None

    def __repr__(self) -> str:
        tiles = " ".join(f"{TL.CODES[t]}{xy(p)}r{r}" for t, r, p, _b, _k in self.tiles)
        return (f"CState(phase={PHASE_NAMES[self.phase]}, player={self.player}, drawn={self.drawn}, "
                f"bag={self.bag}, tiles=[{tiles}], discarded={self.discarded}, followers={self.fl}, "
                f"towers={sorted(self.towers.items())}, pieces={self.tsup}, scores={self.scores}, "
                f"cands={self.cands})")


# ---- building states ------------------------------------------------------------------------------------------------
def initial_state(cfg: Config) -> CState:
    s = CState.__new__(CState)
    s.cfg = cfg
    s.phase = DRAW
    s.player = 0
    bag = [c if (cfg.tower or not IS_TOWER_TILE[t]) else 0 for t, c in enumerate(COUNT)]
    start = INDEX[TL.START]
    bag[start] -= 1
    s.bag = tuple(bag)
    s.bagn = sum(bag)
    s.drawn = -1
    s.tiles = ()
    s.board = {}
    s.frontier = {}
    s.parent, s.opn, s.mask, s.pen, s.occ, s.nkind, s.ntile = [], [], [], [], [], [], []
    s.discarded = ()
    s.fl = (SUPPLY,) * (FOLLOWERS * cfg.players)
    s.towers = {}
    s.tsup = cfg.pieces * cfg.players
    s.scores = (0,) * cfg.players
    s.cands = ()
    s.ransomed = False
    s._hash = None
    put_tile(s, start, 0, pos_of(0, 0))
    return s


def put_tile(ns: CState, t: int, r: int, pos: int, kk: int = 0) -> None:
    """Place tile type t in rotation r at pos on a state being built (ns owns nothing yet: containers are copied)."""
    R = ROTS[t][r]
    i = len(ns.tiles)
    base = len(ns.parent)
    k = len(R.kinds)
    parent = ns.parent + list(range(base, base + k))
    opn = ns.opn + list(R.nopen)
    mask = ns.mask + [1 << i] * k
    pen = ns.pen + list(R.pennants)
    occ = ns.occ + [0] * k
    ns.nkind = ns.nkind + list(R.kinds)
    ns.ntile = ns.ntile + [i] * k
    board = ns.board.copy()
    board[pos] = i
    tiles = ns.tiles + ((t, r, pos, base, kk),)
    frontier = ns.frontier.copy()
    frontier.pop(pos, None)
    edges = R.edges
    joins = R.joins
    for d in (0, 1, 2, 3):
        npos = pos + DPOS[d]
        ni = board.get(npos)
        if ni is None:
            frontier[npos] = frontier.get(npos, 0) | (edges[d] << (((d + 2) & 3) << 1))
            continue
        nt, nr, _np, nbase, _k = tiles[ni]
        nslot = ROTS[nt][nr].slot
        for j, sl, isedge in joins[d]:
            a = base + j
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            b = nbase + nslot[sl]
            while parent[b] != b:
                parent[b] = parent[parent[b]]
                b = parent[b]
            if a != b:
                parent[b] = a
                opn[a] += opn[b]
                mask[a] |= mask[b]
                pen[a] += pen[b]
                occ[a] += occ[b]
            if isedge:
                opn[a] -= 2
    ns.parent = parent; ns.opn = opn; ns.mask = mask; ns.pen = pen; ns.occ = occ
    ns.board = board; ns.tiles = tiles; ns.frontier = frontier
    if R.tower:
        towers = ns.towers.copy()
        towers[pos] = ()
        ns.towers = towers


def placements(frontier: dict, t: int) -> list:
    """Every placement move of tile type t, sorted."""
    fits = FITS[t]
    out = [M_PLACE | pos << 2 | r for pos, key in frontier.items() for r in fits[key]]
    out.sort()
    return out


def placeable(frontier: dict, t: int) -> bool:
    return any(map(NFITS[t].__getitem__, frontier.values()))


def random_placement(frontier: dict, t: int, x: float) -> int:
    """A uniformly chosen placement of tile t (x uniform in [0, 1)), without building the list of all of them."""
    nf = NFITS[t]
    i = int(x * sum(map(nf.__getitem__, frontier.values())))
    for pos, key in frontier.items():
        c = nf[key]
        if i < c:
            return M_PLACE | pos << 2 | FITS[t][key][i]
        i -= c
    raise ValueError("no placement")


def follower_pos(s: CState, loc: int) -> int:
    """The board position of a follower at location loc (on a feature or on top of a tower)."""
    if loc >= 0:
        return s.tiles[s.ntile[loc]][2]
    return TOP0 - loc


def in_range(tpos: int, height: int, black: bool, pos: int) -> bool:
    dx = (pos >> 8) - (tpos >> 8)
    dy = (pos & 255) - (tpos & 255)
    if black:
        return dx == dy and -height <= dx <= height or dx == -dy and -height <= dx <= height
    return (dx == 0 and -height <= dy <= height) or (dy == 0 and -height <= dx <= height)


def capture_candidates(s: CState, tpos: int) -> tuple:
    stack = s.towers[tpos]
    top = stack[-1] & 3
    if top == WHITE:
        return ()
    h = len(stack)
    black = top == BLACK
    out = []
    for fid, loc in enumerate(s.fl):
        if loc >= 0 or loc <= TOP0:
            if in_range(tpos, h, black, follower_pos(s, loc)):
                out.append(fid)
    return tuple(out)


def piece_code(player: int, ptype: int, k: int) -> int:
    return player << 8 | ptype | k << 2


def piece_parts(code: int) -> tuple[int, int, int]:
    return code >> 8, code & 3, (code >> 2) & 63


def closed_towers(fl: tuple) -> set:
    return {TOP0 - loc for loc in fl if loc <= TOP0}


def action_moves(s: CState) -> list:
    p = s.player
    f0 = p * FOLLOWERS
    free = SUPPLY in s.fl[f0:f0 + FOLLOWERS]
    out = []
    t, r, pos, base, _k = s.tiles[-1]
    if free:
        parent, occ = s.parent, s.occ
        for j in range(len(ROTS[t][r].kinds)):
            a = base + j
            while parent[a] != a:
                a = parent[a]
            if not occ[a]:
                out.append(M_FOLLOW | j)
    towers = s.towers
    if towers:
        sup = s.tsup[3 * p:3 * p + 3]
        fl = s.fl
        closed = closed_towers(fl) if min(fl) <= TOP0 else ()
        for tpos, stack in towers.items():
            if tpos in closed:
                continue
            b = M_TOWER | tpos << 2
            if stack:
                if stack[-1] & 3 == WHITE:
                    continue
                if sup[0]:
                    out.append(b)
                if sup[1]:
                    out.append(b | 1)
                if sup[2]:
                    out.append(b | 2)
                if free:
                    out.append(M_TOP | tpos)
            else:
                if sup[0]:
                    out.append(b)
                if sup[1]:
                    out.append(b | 1)
    out.append(M_PASS)
    out.sort()
    return out


def ransom_offers(s: CState) -> list:
    """The ransoms the player to move may pay now (rulings: at any point of your own turn, once a turn, only with at
    least 3 points): one per captor holding one of their followers."""
    p = s.player
    if s.ransomed or s.scores[p] < 3:
        return []
    f0 = p * FOLLOWERS
    held = sorted({-2 - loc for loc in s.fl[f0:f0 + FOLLOWERS] if -2 >= loc > TOP0})
    return [M_RANSOM | q for q in held]


def ransom_moves(s: CState) -> list:
    """The decision at the end of a turn when a ransom is still possible: pay one, or not."""
    offers = ransom_offers(s)
    return offers + [M_NORANSOM] if offers else []


# ---- scoring ---------------------------------------------------------------------------------------------------------
def majority(occ: int, n: int) -> list:
    counts = [(occ >> (4 * i)) & 15 for i in range(n)]
    best = max(counts)
    return [i for i in range(n) if counts[i] == best] if best else []


def feature_points(s: CState, root: int, complete: bool) -> int:
    kind = s.nkind[root]
    tiles = s.mask[root].bit_count()
    if kind == ROAD:
        return tiles
    if kind == CITY:
        return (2 if complete else 1) * (tiles + s.pen[root])
    return 0


def cloister_neighbours(board: dict, pos: int) -> int:
    c = 0
    for d in (-257, -256, -255, -1, 1, 255, 256, 257):
        if pos + d in board:
            c += 1
    return c


def score_completed(ns: CState, events: list) -> None:
    """Score features completed by the last tile (after its follower or tower action), returning their followers."""
    t, r, pos, base, _k = ns.tiles[-1]
    R = ROTS[t][r]
    parent, opn, occ = ns.parent, ns.opn, ns.occ
    done = None
    for j in R.roadcity:
        a = find(parent, base + j)
        if opn[a] == 0 and occ[a]:
            if done is None:
                done = []
            if a not in done:
                done.append(a)
    fl = ns.fl
    monks = None
    for fid, loc in enumerate(fl):
        if loc >= 0 and ns.nkind[loc] == CLOISTER:
            cpos = ns.tiles[ns.ntile[loc]][2]
            d = cpos - pos
            if d in (0, -257, -256, -255, -1, 1, 255, 256, 257) and cloister_neighbours(ns.board, cpos) == 8:
                if monks is None:
                    monks = []
                monks.append(fid)
    if done is None and monks is None:
        return
    scores = list(ns.scores)
    followers = list(fl)
    occ = list(occ)
    n = ns.cfg.players
    if done:
        for a in done:
            pts = feature_points(ns, a, True)
            win = majority(occ[a], n)
            for w in win:
                scores[w] += pts
            occ[a] = 0
            home = []
            for fid, loc in enumerate(followers):
                if loc >= 0 and find(parent, loc) == a:
                    followers[fid] = SUPPLY
                    home.append(fid)
            if events is not None:
                events.append(("score", win, pts, TL.KIND_NAMES[ns.nkind[a]], home, a))
    if monks:
        for fid in monks:
            owner = fid // FOLLOWERS
            scores[owner] += 9
            occ[followers[fid]] = 0
            followers[fid] = SUPPLY
            if events is not None:
                events.append(("score", [owner], 9, "cloister", [fid], fl[fid]))
    ns.scores = tuple(scores)
    ns.fl = tuple(followers)
    ns.occ = occ


def final_scores(s: CState) -> tuple[list, list]:
    """Points each player gets at the end (unfinished roads, cities, cloisters, and farms), and the details: one
    (kind name, winners, points, a node of the feature) per feature scored."""
    n = s.cfg.players
    parent, opn, nkind = s.parent, s.opn, s.nkind
    add = [0] * n
    details = []
    roots: dict[int, int] = {}
    for fid, loc in enumerate(s.fl):
        if loc < 0:
            continue
        kind = nkind[loc]
        if kind == CLOISTER:
            pos = s.tiles[s.ntile[loc]][2]
            pts = 1 + cloister_neighbours(s.board, pos)
            add[fid // FOLLOWERS] += pts
            details.append(("cloister", [fid // FOLLOWERS], pts, loc))
        else:
            roots.setdefault(find(parent, loc), 0)
            roots[find(parent, loc)] += 1 << (4 * (fid // FOLLOWERS))
    fields: dict[int, set[int]] = {a: set() for a, _o in roots.items() if nkind[a] == FIELD}
    if fields:
        for node, kind in enumerate(nkind):
            if kind != FIELD:
                continue
            a = find(parent, node)
            if a not in fields:
                continue
            t, r, _pos, base, _k = s.tiles[s.ntile[node]]
            for cj in ROTS[t][r].fcities[node - base]:
                c = find(parent, base + cj)
                if opn[c] == 0:
                    fields[a].add(c)
    for a, o in sorted(roots.items()):
        kind = nkind[a]
        if kind == FIELD:
            pts = 3 * len(fields[a])
        else:
            pts = feature_points(s, a, opn[a] == 0)
        win = majority(o, n)
        for w in win:
            add[w] += pts
        details.append((TL.KIND_NAMES[kind], win, pts, a))
    return add, details
