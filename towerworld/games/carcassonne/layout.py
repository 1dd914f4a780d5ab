"""Carcassonne on the table: where every tile, follower and tower piece lies (mm), the pickable places, and the HUD.

The landscape grows from the start tile at the origin, one 45 mm tile per grid step. In front of it (south, nearest
the default camera) each player has a row: followers in supply, prisoners they hold beside them, their tower pieces in
little stacks of two behind; a label at the row's start shows the score. Left of the landscape the face-down draw piles (stacks of twelve), the drawn tile beside
them (it flies onto the board when placed) and the discarded tiles. Towers stand storey by storey on their foundation
tiles; a follower on top of a closed tower stands on its roof; farmers lie on their fields.

A tile's face is described to the stage by its look `art` (see towerworld/scene/components' tile family): words at
rotation 0 such as "c:NW:1" (a city over N and W, one pennant), "r:ES" (a road), "k" (cloister), "t" (foundation).
All viewers see the same layout: everything on a Carcassonne table is public (the bag is face down for everybody).
"""
from __future__ import annotations

import math

from towerworld.engine.layout import Layout, Pose, look, shared_cell, shared_pose
from towerworld.engine.pieces import size
from towerworld.engine.words import counted

from . import board as E
from . import tiles as TL
from .board import ACTION, DRAW, FOLLOWERS, OVER, PLACE, SUPPLY, TOP0, CState, xy
from .tiles import CODES, COUNT, ROTS, tile_words

TILE_MM = size("ccs_tile").w
TILE_H = size("ccs_tile").h
STOREY = size("tower_piece").h
PILE = 12                  # tiles per face-down draw pile
SLOT = 20.0                # mm between pieces in a supply row
ROW = 62.0                 # mm between two players' supply rows
MAKE_ROOM = 2              # tiles: the piles and the players' rows keep their places until the landscape grows this far


def tile_art(t: int) -> tuple[str, ...]:
    """The words that draw tile type t's face at rotation 0 (cities with their pennants, roads, cloister, foundation)."""
    feats, cloister, tower = TL.parse_features(TL.TILES[t][4])
    words = []
    for kind, locs, pennants, _touch in feats:
        if kind == TL.CITY:
            words.append(f"c:{''.join(TL.DIRS[d] for d in locs)}:{pennants}")
        elif kind == TL.ROAD:
            words.append(f"r:{''.join(TL.DIRS[d] for d in locs)}")
    if cloister:
        words.append("k")
    if tower:
        words.append("t")
    return tuple(words)


ART = tuple(tile_art(t) for t in range(len(TL.TILES)))

# feature spots on a tile, in tile units from its centre, at the tile's rotation: where a follower stands and where
# its feature is clicked
_EDGE_SPOT = ((0.0, 0.33), (0.33, 0.0), (0.0, -0.33), (-0.33, 0.0))
_HALF_SPOT = ((-0.24, 0.38), (0.24, 0.38), (0.38, 0.24), (0.38, -0.24), (0.24, -0.38), (-0.24, -0.38),
              (-0.38, -0.24), (-0.38, 0.24))


def feature_spot(t: int, r: int, j: int) -> tuple[float, float]:
    """Where on tile t (rotation r) a follower on feature j stands, in tile units from the centre."""
    R = ROTS[t][r]
    kind, locs = R.kinds[j], R.locs[j]
    if kind == TL.CLOISTER:
        # a cloister beside a tower foundation is drawn in the north-west corner (turned with the tile)
        return _turn((-0.25, 0.25), r) if R.tower else (0.0, 0.0)
    if kind == TL.FIELD:
        halves = [h for h in locs if h >= 0]
        if not halves:                      # an inner field (no edge): between the cities it touches
            return _turn((0.0, -0.12), r)
        return _HALF_SPOT[halves[0]]
    if len(locs) == 1:
        return _EDGE_SPOT[locs[0]]
    xs = sum(_EDGE_SPOT[d][0] for d in locs) / len(locs)
    ys = sum(_EDGE_SPOT[d][1] for d in locs) / len(locs)
    if abs(xs) < 0.05 and abs(ys) < 0.05:
        # a straight road or a band of city through the centre: stand on it, off the centre (a tower may stand there)
        d = locs[0]
        return (_EDGE_SPOT[d][0] * 0.8, _EDGE_SPOT[d][1] * 0.8)
    return (xs, ys)


def _turn(point: tuple[float, float], r: int) -> tuple[float, float]:
    x, y = point
    for _ in range(r):
        x, y = y, -x
    return (x, y)


class Frame:
    """The landscape's extent in grid steps and the places around it, in mm."""

    def __init__(self, s: CState):
        xs = [xy(p)[0] for _t, _r, p, _b, _k in s.tiles] or [0]
        ys = [xy(p)[1] for _t, _r, p, _b, _k in s.tiles] or [0]
        self.minx, self.maxx, self.miny, self.maxy = min(xs), max(xs), min(ys), max(ys)
        # the piles and rows move away in steps of a few tiles as the landscape grows, not with every tile (each
        # shift sends the whole pile and every row travelling, and the stage must combine them all again)
        minx = MAKE_ROOM * math.floor(self.minx / MAKE_ROOM)
        miny = MAKE_ROOM * math.floor(self.miny / MAKE_ROOM)
        maxy = MAKE_ROOM * math.ceil(self.maxy / MAKE_ROOM)
        # the players' rows lie in front of the landscape (south, nearest the default camera), clear of open places
        self.supply_x = (minx - 0.5) * TILE_MM + 90.0
        self.supply_y = (miny - 2.2) * TILE_MM
        self.top_y = (maxy + 0.4) * TILE_MM
        self.drawn_x = (minx - 2.4) * TILE_MM       # clear of the open places left of the landscape
        self.pile_x = (minx - 3.7) * TILE_MM

    def supply(self, player: int, slot: float, row: int) -> tuple[float, float]:
        # row 0 the followers, in front; row 1 the tower pieces just behind them, so the stacks hide no follower
        return (self.supply_x + slot * SLOT, self.supply_y - player * ROW + row * 22.0)

    def pile(self, i: int) -> tuple[float, float, float]:
        stack, level = divmod(i, PILE)
        return (self.pile_x - (stack % 2) * 50.0, self.top_y - (stack // 2) * 50.0, level * TILE_H)

    def drawn(self) -> tuple[float, float]:
        return (self.drawn_x, self.top_y)


def make_layout(s: CState) -> Layout:
    lay = Layout()
    frame = Frame(s)
    tops = _towers(lay, s)
    _tiles(lay, s, frame)
    _followers(lay, s, frame, tops)
    _supply_pieces(lay, s, frame)
    _labels(lay, s, frame)
    _cells(lay, s, tops)
    return lay


def tile_pose(t: int, r: int, x: float, y: float, z: float = 0.0) -> Pose:
    return shared_pose("ccs_tile", x, y, z, heading=-90.0 * r, look=look(tile=CODES[t], art=ART[t]))


def _tiles(lay: Layout, s: CState, frame: Frame) -> None:
    for t, r, pos, _base, k in s.tiles:
        x, y = xy(pos)
        lay.place(f"tile:{CODES[t]}:{k}", tile_pose(t, r, x * TILE_MM, y * TILE_MM))
    for i in range(s.bagn):
        px, py, pz = frame.pile(i)
        lay.place(f"bag:{i}", shared_pose("ccs_tile", px, py, pz, face_up=False, look=look(tile="back")))
    if s.phase == PLACE:
        k = COUNT[s.drawn] - s.bag[s.drawn] - 1
        dx, dy = frame.drawn()
        lay.place(f"tile:{CODES[s.drawn]}:{k}", tile_pose(s.drawn, 0, dx, dy))
    for i, (t, k) in enumerate(s.discarded):
        dx, dy = frame.drawn()
        lay.place(f"tile:{CODES[t]}:{k}", tile_pose(t, 0, dx, dy - 55.0 - i * 48.0))


def _towers(lay: Layout, s: CState) -> dict[int, float]:
    """Tower storeys on their foundations; returns the roof height of every tower by position."""
    tops = {}
    for pos, stack in s.towers.items():
        x, y = xy(pos)
        for level, code in enumerate(stack):
            owner, ptype, _k = E.piece_parts(code)
            lay.place(tower_id(code), shared_pose("tower_piece", x * TILE_MM, y * TILE_MM, TILE_H + level * STOREY,
                                           look=look(colour=E.PIECE_NAMES[ptype], top=level == len(stack) - 1)))
        tops[pos] = TILE_H + len(stack) * STOREY
    return tops


def _followers(lay: Layout, s: CState, frame: Frame, tops: dict[int, float]) -> None:
    held = [0] * s.cfg.players
    for fid, loc in enumerate(s.fl):
        p = fid // FOLLOWERS
        lk = look(player=p + 1)
        if loc == SUPPLY:
            x, y = frame.supply(p, fid % FOLLOWERS, 0)
            lay.place(meeple_id(fid), shared_pose("meeple", x, y, 0.0, look=lk))
        elif loc <= TOP0:
            pos = TOP0 - loc
            x, y = xy(pos)
            lay.place(meeple_id(fid), shared_pose("meeple", x * TILE_MM, y * TILE_MM, tops[pos], look=lk))
        elif loc <= -2:                               # a prisoner stands beside its captor's followers
            captor = -2 - loc
            x, y = frame.supply(captor, FOLLOWERS + 0.5 + held[captor], 0)
            held[captor] += 1
            lay.place(meeple_id(fid), shared_pose("meeple", x, y, 0.0, heading=90.0, look=lk))
        else:
            t, r, pos, base = s.tiles[s.ntile[loc]][:4]
            fx, fy = feature_spot(t, r, loc - base)
            x, y = xy(pos)
            if s.nkind[loc] == TL.FIELD:              # farmers lie down on their field (the stage rests them on it)
                lay.place(meeple_id(fid), shared_pose("meeple", (x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H,
                                               look=lk, tilt=90.0))
            else:
                lay.place(meeple_id(fid), shared_pose("meeple", (x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H, look=lk))


def _supply_pieces(lay: Layout, s: CState, frame: Frame) -> None:
    """Each player's unplayed tower pieces, in stacks of two after their followers and prisoners."""
    if not s.cfg.tower:
        return
    for p in range(s.cfg.players):
        stack = 0
        for ptype in range(3):
            total = s.cfg.pieces[ptype]
            left = s.tsup[3 * p + ptype]
            for n, k in enumerate(range(total - left, total)):
                x, y = frame.supply(p, stack + n // 2, 1)
                lay.place(tower_id(E.piece_code(p, ptype, k)),
                          shared_pose("tower_piece", x, y, (n % 2) * STOREY,
                               look=look(colour=E.PIECE_NAMES[ptype], top=n % 2 == 1 or n == left - 1)))
            stack += (left + 1) // 2


def _labels(lay: Layout, s: CState, frame: Frame) -> None:
    for p in range(s.cfg.players):
        x, y = frame.supply(p, -3.5, 0)
        mark = " (to play)" if s.player == p and s.phase != OVER else ""
        lay.labels[f"score:{p + 1}"] = (x, y + 18.0, 10.0, f"Player {p + 1}: {s.scores[p]}{mark}")


SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def feature_words(name: str) -> str:
    """A tile feature as a player says it: "city N S" -> "the city (north, south)", "field EL ER" -> "the field
    (east)", "cloister" -> "the cloister"."""
    kind, *parts = name.split()
    sides = []
    for part in parts:
        side = SIDE_WORDS.get(part[:1])
        if side and side not in sides:
            sides.append(side)
    return f"the {kind}" + (f" ({', '.join(sides)})" if sides else "")


def _cells(lay: Layout, s: CState, tops: dict[int, float]) -> None:
    """The places a click may pick: open places for the drawn tile, the features of the tile just placed, towers."""
    if s.phase == PLACE:
        for pos in s.frontier:
            x, y = xy(pos)
            lay.cells[f"at:{x},{y}"] = shared_cell(x * TILE_MM, y * TILE_MM, 0.0, TILE_MM - 2, TILE_MM - 2, f"{x},{y}")
    if s.phase == ACTION:
        t, r, pos, _base = s.tiles[-1][:4]
        x, y = xy(pos)
        for j, name in enumerate(ROTS[t][r].names):
            fx, fy = feature_spot(t, r, j)
            lay.cells[f"feature:{j}"] = shared_cell((x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H, 11.0, 11.0, name)
        for tpos, top in tops.items():
            x, y = xy(tpos)
            lay.cells[f"tower:{x},{y}"] = shared_cell(x * TILE_MM, y * TILE_MM, top, 20.0, 19.0, f"tower {x},{y}")


def preview(s: CState, picks) -> dict[str, Pose]:
    """The drawn tile as it would lie at the open place picked (`at:X,Y`), turned as the rotation pick says."""
    if s.phase != PLACE or not picks or not picks[0].startswith("at:"):
        return {}
    x, y = (int(v) for v in picks[0][3:].split(","))
    turn = int(picks[1][4:]) // 90 if len(picks) > 1 and picks[1].startswith("rot:") else 0
    k = COUNT[s.drawn] - s.bag[s.drawn] - 1
    return {f"tile:{CODES[s.drawn]}:{k}": tile_pose(s.drawn, turn, x * TILE_MM, y * TILE_MM, 0.6)}


def feature_areas(s: CState, node: int) -> tuple[tuple[str, str], ...]:
    """Where feature `node` lies on the table, for the stage to light up: (tile id, area words at rotation 0) per
    tile. Words as the tile family reads them: "c:NW" a city's part over edges N and W, "r:ES" a road's, "f:NL,NR"
    a field's over those half-edges ("I" an inner field), "all" a whole face (a cloister's square of nine tiles)."""
    kind = s.nkind[node]
    if kind == TL.CLOISTER:
        pos = s.tiles[s.ntile[node]][2]
        around = [pos + d for d in (-257, -256, -255, -1, 0, 1, 255, 256, 257)]
        return tuple((_tile_id(s, s.board[p]), "all") for p in around if p in s.board)
    root = E.find(s.parent, node)
    areas = []
    for n in range(len(s.parent)):
        if s.nkind[n] != kind or E.find(s.parent, n) != root:
            continue
        i = s.ntile[n]
        t, base = s.tiles[i][0], s.tiles[i][3]
        locs = ROTS[t][0].locs[n - base]
        if kind == TL.FIELD:
            words = "f:" + ",".join("I" if h < 0 else TL.HALVES[h] for h in locs)
        else:
            words = ("c:" if kind == TL.CITY else "r:") + "".join(TL.DIRS[d] for d in locs)
        areas.append((_tile_id(s, i), words))
    return tuple(areas)


def _tile_id(s: CState, i: int) -> str:
    t, _r, _pos, _base, k = s.tiles[i]
    return f"tile:{CODES[t]}:{k}"


def meeple_id(fid: int) -> str:
    return f"meeple:p{fid // FOLLOWERS + 1}:{fid % FOLLOWERS + 1}"


def tower_id(code: int) -> str:
    p, t, k = E.piece_parts(code)
    return f"tower:p{p + 1}:{E.PIECE_NAMES[t]}:{k + 1}"


# ---- HUD ---------------------------------------------------------------------------------------------------------------
def hud(s: CState, result: str) -> dict[str, str]:
    n = s.cfg.players
    if s.phase == OVER:
        turn = "Game over: " + result
    elif s.phase == DRAW:
        turn = f"Player {s.player + 1} draws a tile"
    else:
        turn = f"Player {s.player + 1}: {E.PHASE_NAMES[s.phase]}"
    out = {"turn": turn, "scores": "  ".join(f"P{i + 1}: {v}" for i, v in enumerate(s.scores)),
           "bag": f"{counted(s.bagn, 'tile')} in the bag, {len(s.discarded)} discarded"}
    if s.phase == PLACE:
        out["tile"] = f"Tile to place: {CODES[s.drawn]}, {tile_words(s.drawn)}"
        out["next"] = "Click a glowing place; R turns the tile."      # the table shows it to a person only
    supply = []
    for p in range(n):
        free = sum(1 for loc in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS] if loc == SUPPLY)
        prisoners = sum(1 for loc in s.fl if loc == -2 - p)
        text = f"P{p + 1}: {counted(free, 'follower')}"
        if s.cfg.tower:
            a, b, c = s.tsup[3 * p:3 * p + 3]
            text += f", {counted(a + b + c, 'tower piece')}" + (f" ({b} black, {c} white)" if s.cfg.black else "")
            if prisoners:
                text += f", {prisoners} prisoner{'s' if prisoners > 1 else ''}"
        supply.append(text)
    # two players a line: six players' supplies on one line ran off the window
    per = 2
    for first in range(0, n, per):
        last = min(n, first + per)
        key = "supply" if n <= per else f"supply P{first + 1}-P{last}" if last > first + 1 else f"supply P{last}"
        out[key] = "; ".join(supply[first:last])
    return out
