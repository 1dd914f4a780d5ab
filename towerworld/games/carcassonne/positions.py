"""Hand-built Carcassonne positions (for tests, docs and puzzles): tiles, followers and towers put straight onto a
board, bypassing the turn flow; the tiles used are taken out of the bag so every piece stays accounted for."""
from __future__ import annotations

from . import rules
from . import tiles as TL
from .board import (DRAW, FOLLOWERS, NODES, PIECE_NAMES, SUPPLY, TOP0, CState, Config, find, piece_code, pos_of,
                    tower_pieces)


def build(players: int = 2, *, tiles=(), followers=(), towers=(), tops=(), prisoners=(), scores=None,
          start: bool = True, player: int = 0, tower: bool = True, black: bool = True) -> CState:
    """A state in the draw phase with `player` to move.

    tiles: (code, x, y, rotation in degrees); followers: (player, x, y, feature name as in the notation, e.g.
    'city N' or 'field NL NR'); towers: (x, y, [(owner, 'normal'|'black'|'white'), ...]) on foundation tiles;
    tops: (player, x, y) followers on top of towers; prisoners: (player, captor)."""
    pieces = tower_pieces(players, black) if tower else (0, 0, 0)
    s = rules.initial_state(Config(players, tower, black, pieces))
    if not start:
        s = s.copy()
        bag = list(s.bag)
        bag[TL.INDEX[TL.START]] += 1
        s.bag, s.bagn = tuple(bag), s.bagn + 1
        s.tiles, s.board, s.frontier = (), {}, {}
        s.parent, s.mask, s.fcity = [], [], []
        s.opn, s.pen, s.occ, s.nkind, s.ntile = NODES(), NODES(), NODES(), NODES(), NODES()
    else:
        s = s.copy()
    for code, x, y, rot in tiles:
        t = TL.INDEX[code]
        pos = pos_of(x, y)
        if pos in s.board:
            raise ValueError(f"two tiles at {x},{y}")
        if s.board and pos not in s.frontier:
            raise ValueError(f"{code} at {x},{y} touches no tile")
        r = rot // 90
        key = s.frontier.get(pos, 0)
        if r not in TL.FITS[t][key]:
            raise ValueError(f"{code} r{rot} does not fit at {x},{y}")
        bag = list(s.bag)
        if bag[t] <= 0:
            raise ValueError(f"no {code} left in the bag")
        bag[t] -= 1
        s.bag, s.bagn = tuple(bag), s.bagn - 1
        rules.put_tile(s, t, r, pos, TL.COUNT[t] - bag[t] - 1)
    fl = list(s.fl)
    occ = s.occ[:]

    def free(p):
        for fid in range(p * FOLLOWERS, (p + 1) * FOLLOWERS):
            if fl[fid] == SUPPLY:
                return fid
        raise ValueError(f"player {p} has no follower left")

    for p, x, y, name in followers:
        i = s.board[pos_of(x, y)]
        t, r, _pos, base, _k = s.tiles[i]
        names = TL.ROTS[t][r].names
        if name not in names:
            raise ValueError(f"tile at {x},{y} has no '{name}' (it has {names})")
        node = base + names.index(name)
        fl[free(p)] = node
        occ[find(s.parent, node)] += 1 << (4 * p)
    towers_d = dict(s.towers)
    sup = list(s.tsup)
    for x, y, stack in towers:
        pos = pos_of(x, y)
        if pos not in towers_d:
            raise ValueError(f"no tower foundation at {x},{y}")
        st = list(towers_d[pos])
        for owner, kind in stack:
            ptype = PIECE_NAMES.index(kind)
            i = 3 * owner + ptype
            if sup[i] <= 0:
                raise ValueError(f"player {owner} has no {kind} piece left")
            sup[i] -= 1
            st.append(piece_code(owner, ptype, pieces[ptype] - sup[i] - 1))
        towers_d[pos] = tuple(st)
    for p, x, y in tops:
        fl[free(p)] = TOP0 - pos_of(x, y)
    for p, q in prisoners:
        fl[free(p)] = -2 - q
    s.fl, s.occ, s.towers, s.tsup = tuple(fl), occ, towers_d, tuple(sup)
    if scores is not None:
        s.scores = tuple(scores)
    s.proj = tuple(rules.final_scores(s)[0])      # the followers were put on directly: their projection walked once
    s.monks = tuple(fid for fid, loc in enumerate(s.fl) if loc >= 0 and s.nkind[loc] == TL.CLOISTER)
    s.player = player
    s.phase = DRAW
    s._hash = None
    return s


def follower_at(s: CState, x: int, y: int, name: str) -> int | None:
    """The follower id on the named feature of the tile at x,y, or None."""
    i = s.board[pos_of(x, y)]
    t, r, _pos, base, _k = s.tiles[i]
    node = base + TL.ROTS[t][r].names.index(name)
    for fid, loc in enumerate(s.fl):
        if loc == node:
            return fid
    return None
