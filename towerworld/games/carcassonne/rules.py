"""Carcassonne with The Tower and the Black Tower: the rules (move generation, the one step function,
refusals).

Turn: a chance move draws a tile (one that fits nowhere is discarded and another drawn); the player places it, then
does one thing (a follower on the tile, a tower piece, a follower on top of a tower, or nothing); a tower piece may
capture; completed features score. Ransom (rulings): at any point of your own turn, once a turn, with at least 3
points; a follower freed before you deploy may be deployed that turn.

Speed notes (apply_unchecked is the hot loop of random play and MCTS):
- positions are ints, pos = (x + 128) << 8 | (y + 128); neighbours are pos +- 1 (north/south) and +- 256 (east/west);
- every tile type is precomputed in its four rotations (tiles.ROTS) with int edges and the joins to each neighbour;
- the frontier (empty places next to tiles) maps pos -> an 8-bit key of required edges, and tiles.FITS[t][key] lists
  the rotations that fit, so the placements of a drawn tile are one dict scan;
- roads, cities and fields are an incremental union-find over feature nodes kept in flat lists (parent, open edges,
  tile bitmask, pennants, follower counts packed 4 bits per player, and per field the completed cities it touches as
  a bitmask of their nodes), copied (C speed) only by moves that change them; so the final scoring (and the search's
  projected score at every leaf) reads each follower's feature instead of walking the board;
- a state shares every container it does not change with its parent; containers are never mutated once a state is
  built, except path halving in the union-find, which never changes any answer.
"""
from __future__ import annotations

from typing import Sequence

from towerworld.engine.game import IllegalMove

from . import tiles as TL
from .board import (ACTION, BLACK, CAPTURE, DPOS, DRAW, FOLLOWERS, K_CAPTURE, K_DRAW, K_FOLLOW, K_NOCAPTURE,
                    K_NORANSOM, K_PASS, K_PLACE, K_RANSOM, K_TOP, K_TOWER, LOW, M_CAPTURE, M_FOLLOW, M_NOCAPTURE, M_NORANSOM, M_PASS, M_PLACE,
                    M_RANSOM, M_TOP, M_TOWER, NODES, OVER, PLACE, RANSOM, SHIFT, SUPPLY, TOP0, WHITE, CState, Config,
                    find, piece_code, pos_of)
from .tiles import CITY, CLOISTER, COUNT, FIELD, FITS, INDEX, IS_TOWER_TILE, NFITS, ROAD, ROTS


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
    s.parent, s.mask, s.fcity = [], [], []
    s.opn, s.pen, s.occ, s.nkind, s.ntile = NODES(), NODES(), NODES(), NODES(), NODES()
    s.discarded = ()
    s.fl = (SUPPLY,) * (FOLLOWERS * cfg.players)
    s.towers = {}
    s.tsup = cfg.pieces * cfg.players
    s.scores = (0,) * cfg.players
    s.proj = (0,) * cfg.players
    s.monks = ()
    s.cands = ()
    s.ransomed = False
    s._hash = None
    put_tile(s, start, 0, pos_of(0, 0))
    return s


def put_tile(ns: CState, t: int, r: int, pos: int, kk: int = 0) -> None:
    """Place tile type t in rotation r at pos on a state being built (ns owns nothing yet: containers are copied).

    The projection (ns.proj) follows: an occupied feature the tile joins stops counting as it was, the feature it
    joins into counts as it is now, an occupied field beside a city the tile completes counts 3 more, an occupied
    cloister beside the tile 1 more. Every feature the tile joins is rooted at one of the tile's own nodes (>= base);
    a root below base is an old feature no join of this tile has touched yet."""
    R = ROTS[t][r]
    i = len(ns.tiles)
    base = len(ns.parent)
    k = len(R.kinds)
    nopen, pennants, kinds, zeros, zlist = _NEW_NODES[t][r]
    parent = ns.parent[:]
    parent.extend(range(base, base + k))
    opn = ns.opn + nopen
    mask = ns.mask + [1 << i] * k
    pen = ns.pen + pennants
    occ = ns.occ + zeros
    fcity = ns.fcity + zlist
    ns.nkind = ns.nkind + kinds
    ns.ntile = ns.ntile + NODES((i,)) * k
    board = ns.board.copy()
    board[pos] = i
    tiles = ns.tiles + ((t, r, pos, base, kk),)
    frontier = ns.frontier.copy()
    frontier.pop(pos, None)
    needs, joins = _SIDES[t][r]
    pj = None
    for d in (0, 1, 2, 3):
        npos = pos + DPOS[d]
        ni = board.get(npos)
        if ni is None:
            frontier[npos] = frontier.get(npos, 0) | needs[d]
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
                if b < base and occ[b]:
                    if pj is None:
                        pj = list(ns.proj)
                    pts = _points(b, ns.nkind, mask, opn, pen, fcity)
                    for w in _winners(occ[b]):
                        pj[w] -= pts
                parent[b] = a
                opn[a] += opn[b]
                mask[a] |= mask[b]
                pen[a] += pen[b]
                occ[a] += occ[b]
                fcity[a] |= fcity[b]
            if isedge:
                opn[a] -= 2
    closed = None
    for j in _CITIES[t][r]:
        a = find(parent, base + j)
        if opn[a] == 0 and (closed is None or a not in closed):
            # a city completed by this tile: it never grows again, so its node names it for good; every field
            # beside it (on its own tiles, all placed now) records it
            closed = [a] if closed is None else closed + [a]
            for f in _close_city(a, parent, mask[a], fcity, tiles):
                if f < base and occ[f]:
                    if pj is None:
                        pj = list(ns.proj)
                    for w in _winners(occ[f]):
                        pj[w] += 3
    if pj is not None:
        # what the tile's features count now (an occupied one holds an old occupied feature it joined)
        seen = []
        for j in range(k):
            a = find(parent, base + j)
            if occ[a] and a not in seen:
                seen.append(a)
                pts = _points(a, ns.nkind, mask, opn, pen, fcity)
                for w in _winners(occ[a]):
                    pj[w] += pts
    if ns.monks:
        fl, ntile = ns.fl, ns.ntile
        for fid in ns.monks:
            if tiles[ntile[fl[fid]]][2] - pos in _AROUND:
                if pj is None:
                    pj = list(ns.proj)
                pj[fid // FOLLOWERS] += 1
    if pj is not None:
        ns.proj = tuple(pj)
    ns.parent = parent; ns.opn = opn; ns.mask = mask; ns.pen = pen; ns.occ = occ; ns.fcity = fcity
    ns.board = board; ns.tiles = tiles; ns.frontier = frontier
    if R.tower:
        towers = ns.towers.copy()
        towers[pos] = ()
        ns.towers = towers


# each tile turned each way: its local cities; and (local field, the local cities it touches) for the fields that
# touch a city
_CITIES = tuple(tuple(tuple(j for j, kind in enumerate(rot.kinds) if kind == CITY) for rot in rots) for rots in ROTS)
_FIELD_CITIES = tuple(tuple(tuple((j, cities) for j, cities in enumerate(rot.fcities) if cities) for rot in rots)
                      for rots in ROTS)


# what a tile adds to the node arrays: open edges, pennants, kinds, zeros (follower counts), and zeros as a list
# (field cities: bitmasks over nodes, too wide for an array)
_NEW_NODES = tuple(tuple((NODES(rot.nopen), NODES(rot.pennants), NODES(rot.kinds), NODES((0,)) * len(rot.kinds),
                          [0] * len(rot.kinds)) for rot in rots) for rots in ROTS)


def _sides(rot) -> tuple:
    """(what each side asks of the empty place beyond it, as a frontier key part; the joins across each side). A field
    side's two half-edges belong to one field on either tile (the tiles say so: checked here), so its second join
    is left out; it would join the same two fields again."""
    needs = tuple(rot.edges[d] << (((d + 2) & 3) << 1) for d in range(4))
    joins = []
    for d in range(4):
        js = rot.joins[d]
        if rot.edges[d] == TL.EDGE_CODE["F"]:
            assert len(js) == 2 and js[0][0] == js[1][0], (TL.CODES[rot.t], rot.r, d)
            js = js[:1]
        joins.append(js)
    return needs, tuple(joins)


_SIDES = tuple(tuple(_sides(rot) for rot in rots) for rots in ROTS)

# the eight places around a place
_AROUND = frozenset((-257, -256, -255, -1, 1, 255, 256, 257))


def _close_city(c: int, parent: list, m: int, fcity: list, tiles: tuple) -> list:
    """Record the completed city c (root node, tiles bitmask m) in the fields that touch it on its tiles; returns
    the roots of the fields that had not recorded it yet."""
    bit = 1 << c
    got = []
    while m:
        low = m & -m
        m ^= low
        t, r, _pos, b, _k = tiles[low.bit_length() - 1]
        for j, cities in _FIELD_CITIES[t][r]:
            for cj in cities:
                if find(parent, b + cj) == c:
                    f = find(parent, b + j)
                    if not fcity[f] & bit:
                        fcity[f] |= bit
                        got.append(f)
                    break
    return got


# FIT_MOVES[t][key]: the placement moves of tile t at position 0 in each rotation that fits the frontier key
FIT_MOVES = tuple(tuple(tuple(M_PLACE | r for r in rs) for rs in row) for row in FITS)


def placements(frontier: dict, t: int) -> list:
    """Every placement move of tile type t, sorted."""
    fits = FIT_MOVES[t]
    out = [m | pos << 2 for pos, key in frontier.items() for m in fits[key]]
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
    if not s.cfg.tower or s.ransomed or s.scores[p] < 3:          # prisoners are taken by towers only
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


_WINNERS: dict[int, tuple] = {0: ()}


def _winners(occ: int) -> tuple:
    """The players with the most followers in the packed counts occ (majority, remembered per value)."""
    w = _WINNERS.get(occ)
    if w is None:
        w = _WINNERS[occ] = tuple(majority(occ, (occ.bit_length() + 3) >> 2))
    return w


def _points(a: int, nkind: Sequence[int], mask: list, opn: Sequence[int], pen: Sequence[int], fcity: list) -> int:
    """What the road, city or field rooted at a is worth to its majority now (feature_points; a field 3 a completed
    city it touches)."""
    kind = nkind[a]
    if kind == ROAD:
        return mask[a].bit_count()
    if kind == CITY:
        return (1 if opn[a] else 2) * (mask[a].bit_count() + pen[a])
    return 3 * fcity[a].bit_count()


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
    for fid in ns.monks:
        cpos = ns.tiles[ns.ntile[fl[fid]]][2]
        if (cpos == pos or cpos - pos in _AROUND) and cloister_neighbours(ns.board, cpos) == 8:
            if monks is None:
                monks = []
            monks.append(fid)
    if done is None and monks is None:
        return
    scores = list(ns.scores)
    proj = list(ns.proj)
    followers = list(fl)
    occ = occ[:]
    n = ns.cfg.players
    if done:
        for a in done:
            pts = feature_points(ns, a, True)
            win = majority(occ[a], n)
            for w in win:
                scores[w] += pts
                proj[w] -= pts
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
            proj[owner] -= 9
            occ[followers[fid]] = 0
            followers[fid] = SUPPLY
            if events is not None:
                events.append(("score", [owner], 9, "cloister", [fid], fl[fid]))
        ns.monks = tuple(fid for fid in ns.monks if fid not in monks)
    ns.scores = tuple(scores)
    ns.proj = tuple(proj)
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
    fcity = s.fcity
    for a, o in sorted(roots.items()):
        kind = nkind[a]
        if kind == FIELD:
            # 3 points a completed city the field touches, kept by put_tile as the board grows
            pts = 3 * fcity[a].bit_count()
        else:
            pts = feature_points(s, a, opn[a] == 0)
        win = majority(o, n)
        for w in win:
            add[w] += pts
        details.append((TL.KIND_NAMES[kind], win, pts, a))
    return add, details


def legal_moves(s: CState) -> list:
    """The decision moves at `s`, sorted; [] at a draw or the end."""
    ph = s.phase
    if ph == PLACE:
        return placements(s.frontier, s.drawn) + ransom_offers(s)
    if ph == ACTION:
        return action_moves(s) + ransom_offers(s)
    if ph == CAPTURE:
        return [M_CAPTURE | f for f in s.cands] + [M_NOCAPTURE]
    if ph == RANSOM:
        return ransom_moves(s)
    return []


# ---- the turn machine -----------------------------------------------------------------------------------------------
def step(s: CState, move: int, ev) -> CState:
    """Apply a legal move. ev is a list collecting event tuples, or None on the fast path."""
    k = move >> SHIFT
    ns = s.copy()
    if k == K_PLACE:
        v = move & LOW
        t = s.drawn
        put_tile(ns, t, v & 3, v >> 2, COUNT[t] - s.bag[t] - 1)
        ns.phase = ACTION
        ns.drawn = -1
        if ev is not None:
            ev.append(("place", ns.tiles[-1]))
        return ns
    if k == K_DRAW:
        t = move & LOW
        bag = list(s.bag)
        bag[t] -= 1
        ns.bag = tuple(bag)
        ns.bagn = s.bagn - 1
        kk = COUNT[t] - bag[t] - 1
        if placeable(s.frontier, t):
            ns.drawn = t
            ns.phase = PLACE
            if ev is not None:
                ev.append(("draw", t, kk))
        else:
            ns.discarded = s.discarded + ((t, kk),)
            if ev is not None:
                ev.append(("discard", t, kk))
            if ns.bagn == 0:
                _finish(ns, ev)
        return ns
    p = s.player
    if k == K_PASS:
        return _end_action(ns, ev)
    if k == K_FOLLOW:
        j = move & LOW
        base = s.tiles[-1][3]
        f0 = p * FOLLOWERS
        fid = s.fl.index(SUPPLY, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = base + j
        ns.fl = tuple(fl)
        occ = s.occ[:]
        a = find(ns.parent, base + j)
        was = occ[a]
        occ[a] = was + (1 << (4 * p))
        ns.occ = occ
        _reproject(ns, a, was)
        if ns.nkind[a] == CLOISTER:
            ns.monks = tuple(sorted(s.monks + (fid,)))
        if ev is not None:
            ev.append(("follower", fid))
        return _end_action(ns, ev)
    if k == K_TOWER:
        v = move & LOW
        pos, ptype = v >> 2, v & 3
        sup = list(s.tsup)
        i = 3 * p + ptype
        sup[i] -= 1
        ns.tsup = tuple(sup)
        code = piece_code(p, ptype, s.cfg.pieces[ptype] - sup[i] - 1)
        towers = s.towers.copy()
        towers[pos] = towers[pos] + (code,)
        ns.towers = towers
        if ev is not None:
            ev.append(("tower", code, pos))
        if ptype != WHITE:
            cands = capture_candidates(ns, pos)
            if cands:
                ns.phase = CAPTURE
                ns.cands = cands
                return ns
        return _end_action(ns, ev)
    if k == K_TOP:
        pos = move & LOW
        f0 = p * FOLLOWERS
        fid = s.fl.index(SUPPLY, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = TOP0 - pos
        ns.fl = tuple(fl)
        if ev is not None:
            ev.append(("follower", fid))
        return _end_action(ns, ev)
    if k == K_CAPTURE:
        _capture(ns, p, move & LOW, ev)
        ns.cands = ()
        return _end_action(ns, ev)
    if k == K_NOCAPTURE:
        ns.cands = ()
        return _end_action(ns, ev)
    if k == K_RANSOM:
        q = move & LOW
        f0 = p * FOLLOWERS
        fid = s.fl.index(-2 - q, f0, f0 + FOLLOWERS)
        fl = list(s.fl)
        fl[fid] = SUPPLY
        ns.fl = tuple(fl)
        sc = list(s.scores)
        sc[p] -= 3
        sc[q] += 3
        ns.scores = tuple(sc)
        ns.ransomed = True
        if ev is not None:
            ev.append(("ransom", fid, q))
        # paid before placing or before the follower-or-tower choice: the turn goes on where it was
        return ns if s.phase in (PLACE, ACTION) else _next_turn(ns, ev)
    if k == K_NORANSOM:
        return _next_turn(ns, ev)
    raise IllegalMove(f"{move!r} is not a Carcassonne move.")


def _reproject(ns: CState, a: int, was: int) -> None:
    """Update the projection for a follower put on or taken off the feature rooted at a (its counts were `was`)."""
    proj = list(ns.proj)
    now = ns.occ[a]
    if ns.nkind[a] == CLOISTER:
        pts = 1 + cloister_neighbours(ns.board, ns.tiles[ns.ntile[a]][2])
        if now:
            proj[(now.bit_length() - 1) >> 2] += pts
        else:
            proj[(was.bit_length() - 1) >> 2] -= pts
    else:
        pts = _points(a, ns.nkind, ns.mask, ns.opn, ns.pen, ns.fcity)
        for w in _winners(was):
            proj[w] -= pts
        for w in _winners(now):
            proj[w] += pts
    ns.proj = tuple(proj)


def _capture(ns: CState, p: int, fid: int, ev) -> None:
    fl = list(ns.fl)
    loc = fl[fid]
    q = fid // FOLLOWERS
    if loc >= 0:
        occ = ns.occ[:]
        a = find(ns.parent, loc)
        was = occ[a]
        occ[a] = was - (1 << (4 * q))
        ns.occ = occ
        _reproject(ns, a, was)
        if ns.nkind[a] == CLOISTER:
            ns.monks = tuple(f for f in ns.monks if f != fid)
    if q == p:
        fl[fid] = SUPPLY
        how = "own"
    else:
        f0 = p * FOLLOWERS
        mine = [i for i in range(f0, f0 + FOLLOWERS) if fl[i] == -2 - q]
        if mine:
            fl[fid] = SUPPLY
            fl[mine[0]] = SUPPLY
            how = "exchange"
        else:
            fl[fid] = -2 - p
            how = "prisoner"
    ns.fl = tuple(fl)
    if ev is not None:
        ev.append(("capture", fid, how))
        if how == "exchange":
            ev.append(("exchange", mine[0]))


def _end_action(ns: CState, ev) -> CState:
    score_completed(ns, ev)
    if ransom_moves(ns):
        ns.phase = RANSOM
        return ns
    return _next_turn(ns, ev)


def _next_turn(ns: CState, ev) -> CState:
    ns.player = (ns.player + 1) % ns.cfg.players
    ns.ransomed = False
    if ns.bagn == 0:
        _finish(ns, ev)
    else:
        ns.phase = DRAW
    return ns


def _finish(ns: CState, ev) -> None:
    add, details = final_scores(ns)
    ns.scores = tuple(a + b for a, b in zip(ns.scores, add))
    ns.phase = OVER
    if ev is not None:
        # the sum (first: the HUD shows the start of a long message), then the walk through the final scoring, one
        # feature at a time, each lighting up on the table
        ev.append(("final", add, details))
        ev.extend(("final_feature", d) for d in _final_order(details) if d[2])


def _final_order(details: list) -> list:
    """The final scoring walked through as the rules list it: roads, cities, cloisters, then fields."""
    order = {"road": 0, "city": 1, "cloister": 2, "field": 3}
    return sorted(details, key=lambda d: order.get(d[0], 4))
