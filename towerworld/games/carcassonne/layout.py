"""Carcassonne on the table: where every tile, follower and tower piece lies (mm), the pickable places, and the HUD.

The landscape grows from the start tile at the origin, one 45 mm tile per grid step. In front of it (south, nearest
the default camera) each player has a row: followers in supply, prisoners they hold beside them, their tower pieces in
little stacks of two behind; a label at the row's start shows the score. The face-down draw piles stand at the right
end of the rows, at the table's near edge; behind the landscape the drawn tile waits (it flies onto the board when
placed), the discarded tiles beside it. Towers stand storey by storey on their foundation tiles; a follower on top of a
closed tower stands on its roof; farmers lie on their fields.

A tile's face is described to the stage by its look `art` (see towerworld/scene/components' tile family): words at
rotation 0 such as "c:NW:1" (a city over N and W, one pennant), "r:ES" (a road), "k" (cloister), "t" (foundation).
All viewers see the same layout: everything on a Carcassonne table is public (the bag is face down for everybody).
"""
from __future__ import annotations

import math

from towerworld.engine.game import Panel
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
PILE = 18                  # tiles per face-down draw pile
PILES = 5                  # piles side by side (enough for the base game and The Tower's tiles)
PILE_STEP = 50.0           # mm between two piles' middles
DRAWN_OUT = 2.8            # tiles: where the drawn tile waits, behind the landscape's last row
PILES_OUT = 240.0          # mm: the piles stand this much nearer the default view's camera than the landscape does
SLOT = 20.0                # mm between pieces in a supply row
ROW = 62.0                 # mm between two players' supply rows
VIEW_SKEW = math.tan(math.radians(25.0))   # the default view's heading (scene.camera.framing)
VIEW_SIN, VIEW_COS = math.sin(math.radians(25.0)), math.cos(math.radians(25.0))
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

# Where a follower stands on each feature of a tile, and where that feature is clicked: one spot per feature, in tile
# units from the tile's centre, chosen once per tile type at rotation 0 (then turned with the tile) so that every
# feature's click target (TARGET_MM square) is clear of every other one's and, on a tower foundation, of the tower's
# (TOWER_MM): a player can aim at each of them at the default camera. Each feature offers its places in the order a
# player expects it (a city's middle, a road's middle, a field's corner), and the first set that keeps them all apart
# wins.
TARGET_MM = 12.0
TOWER_MM = (20.0, 19.0)
_OUT = ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))            # from the centre toward edge N, E, S, W
_ALONG = ((1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0))          # along edge d, clockwise (its left half first)


def _edge_point(d: int, out: float, side: float = 0.0) -> tuple[float, float]:
    return (_OUT[d][0] * out + _ALONG[d][0] * side, _OUT[d][1] * out + _ALONG[d][1] * side)


def _candidates(kind: int, locs: tuple[int, ...], tower: bool) -> list[tuple[float, float]]:
    """The places a follower may stand on one feature at rotation 0, the most natural first."""
    out: list[tuple[float, float]] = []
    if kind == TL.CLOISTER:
        # beside a tower foundation the cloister is drawn in the north-west corner
        return [(-0.25, 0.25), (-0.3, 0.3), (-0.36, 0.36), (-0.4, 0.4)] if tower else [(0.0, 0.0)]
    if kind == TL.FIELD:
        halves = [h for h in locs if h >= 0]
        if not halves:                      # an inner field (no edge): between the cities it touches
            return [(0.0, -0.12), (0.3, -0.2), (-0.3, -0.2), (-0.37, -0.22), (0.37, -0.22), (-0.4, -0.3)]
        for h in halves:
            # a corner whose two halves this field holds (NR+EL, ER+SL, SR+WL, WR+NL): stand in that corner
            if h % 2 and (h + 1) % 8 in halves:
                d1, d2 = h // 2, (h + 1) % 8 // 2
                cx, cy = _OUT[d1][0] + _OUT[d2][0], _OUT[d1][1] + _OUT[d2][1]
                out += [(cx * k, cy * k) for k in (0.36, 0.4, 0.32)]
        for h in halves:
            d, right = divmod(h, 2)
            sign = 1.0 if right else -1.0
            out += [_edge_point(d, o, sign * a) for a in (0.24, 0.3, 0.36, 0.18) for o in (0.38, 0.42, 0.34)]
        return out
    if len(locs) == 1:
        d = locs[0]
        if kind == TL.CITY:
            return [_edge_point(d, o, a) for o in (0.33, 0.38, 0.42, 0.28) for a in (0.0, 0.1, -0.1)]
        return [_edge_point(d, o) for o in (0.33, 0.38, 0.42, 0.28)]
    if kind == TL.ROAD and (locs[0] - locs[1]) % 2 == 0:     # straight across: off the centre, a tower may stand there
        return [_edge_point(d, o) for o in (0.264, 0.33, 0.38, 0.42) for d in locs]
    if kind == TL.ROAD:                                      # a curve round the corner between its two edges
        a, b = locs
        cx, cy = _OUT[a][0] * 0.5 + _OUT[b][0] * 0.5, _OUT[a][1] * 0.5 + _OUT[b][1] * 0.5
        out = [(cx - cx * k, cy - cy * k) for k in (0.67, 0.55, 0.45, 0.75)]
        for d, e in ((a, b), (b, a)):                        # near either end of the arc, where it meets its edge
            for o in (0.36, 0.4):
                lat = 0.5 - math.sqrt(0.25 - (o - 0.5) ** 2)
                out.append((_OUT[d][0] * o + _OUT[e][0] * lat, _OUT[d][1] * o + _OUT[e][1] * lat))
        return out
    # a city over two or more edges: its middle, then toward each of its edges
    mx = sum(_OUT[d][0] for d in locs) / len(locs) * 0.33
    my = sum(_OUT[d][1] for d in locs) / len(locs) * 0.33
    out = [(mx, my)] if abs(mx) > 0.05 or abs(my) > 0.05 else []
    if len(locs) == 2 and not out:                           # a band through the centre
        out = [_edge_point(d, o) for o in (0.264, 0.33, 0.38) for d in locs]
    if len(locs) == 3:
        missing = ({0, 1, 2, 3} - set(locs)).pop()
        out += [_edge_point((missing + 2) % 4, o) for o in (0.2, 0.28, 0.36, 0.42)]
    out += [_edge_point(d, o) for d in locs for o in (0.33, 0.38)]
    return out or [(0.0, 0.0)]


def _apart(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) * TILE_MM >= TARGET_MM


def _clear_of_tower(a: tuple[float, float]) -> bool:
    return (abs(a[0]) * TILE_MM >= (TOWER_MM[0] + TARGET_MM) / 2
            or abs(a[1]) * TILE_MM >= (TOWER_MM[1] + TARGET_MM) / 2)


def _choose(t: int) -> tuple[tuple[float, float], ...]:
    """One spot per feature of tile type t at rotation 0, every target clear of the others (depth-first)."""
    R = ROTS[t][0]
    options = [[c for c in _candidates(k, locs, R.tower) if not R.tower or _clear_of_tower(c)]
               for k, locs in zip(R.kinds, R.locs)]
    chosen: list[tuple[float, float]] = []

    def place(i: int) -> bool:
        if i == len(options):
            return True
        for c in options[i]:
            if all(_apart(c, o) for o in chosen):
                chosen.append(c)
                if place(i + 1):
                    return True
                chosen.pop()
        return False
    if not place(0):
        raise ValueError(f"tile {CODES[t]}: no follower places clear of each other")
    return tuple(chosen)


SPOTS = tuple(_choose(t) for t in range(len(TL.TILES)))


def feature_spot(t: int, r: int, j: int) -> tuple[float, float]:
    """Where on tile t (rotation r) a follower on feature j stands, in tile units from the centre."""
    return _turn(SPOTS[t][j], r)


def _turn(point: tuple[float, float], r: int) -> tuple[float, float]:
    x, y = point
    for _ in range(r):
        x, y = y, -x
    return (x, y)


class Frame:
    """The landscape's extent in grid steps and the places around it, in mm: the landscape in the middle, the players'
    rows in front of it (nearest the default camera) with the face-down piles at their right end, the whole band
    centred under the landscape, and the drawn tile and the discards behind it, so the default view frames the
    landscape in the middle of the table.

    The piles stand at the table's near edge, not behind the landscape: when the view closes in on a tile just laid
    (its follower places) what lies behind that tile shows at the top of the window, under the players' panels, and
    tall piles there stood under the panels in most games; in front of the landscape, past the rows, they are out of
    that close view."""

    def __init__(self, s: CState):
        xs = [xy(p)[0] for _t, _r, p, _b, _k in s.tiles] or [0]
        ys = [xy(p)[1] for _t, _r, p, _b, _k in s.tiles] or [0]
        self.minx, self.maxx, self.miny, self.maxy = min(xs), max(xs), min(ys), max(ys)
        # the piles and rows move away in steps of a few tiles as the landscape grows, not with every tile (each
        # shift sends the whole pile and every row travelling, and the stage must combine them all again)
        minx = MAKE_ROOM * math.floor(self.minx / MAKE_ROOM)
        maxx = MAKE_ROOM * math.ceil(self.maxx / MAKE_ROOM)
        miny = MAKE_ROOM * math.floor(self.miny / MAKE_ROOM)
        maxy = MAKE_ROOM * math.ceil(self.maxy / MAKE_ROOM)
        self.middle_x = (minx + maxx) / 2 * TILE_MM
        self.middle_y = (miny + maxy) / 2 * TILE_MM
        # the players' rows lie in front of the landscape (south), clear of open places, centred under it
        # a row: its score label (about six slots wide, left of slot 0), the followers, and behind them the tower
        # pieces in stacks of two
        slots = max(FOLLOWERS + 1, (sum(s.cfg.pieces) + 1) // 2 if s.cfg.tower else 0)
        # the piles: one rank at the right end of the rows, past the followers, the tower stacks and room for three
        # prisoners (more move them further right)
        held = max((sum(1 for loc in s.fl if loc == -2 - p) for p in range(s.cfg.players)), default=0)
        pile_slot = max(slots, FOLLOWERS + 0.5 + max(3, held)) + 1.5
        # the band from the score label (about six slots left of slot 0) to the last pile, centred under the
        # landscape: moved along the default view's horizon (west and a little north), so it stands no nearer the
        # camera for the piles at its end
        shift = (pile_slot * SLOT + (PILES - 1) * PILE_STEP * VIEW_COS + TILE_MM / 2 - slots * SLOT) / 2
        # far enough in front that a stack of two tower pieces hides no part of an open place from the default view
        self.supply_y = (miny - 3.0) * TILE_MM + shift * VIEW_SKEW
        self.supply_x = self.middle_x - (slots - 6) * SLOT / 2 + self._skew((miny - 3.0) * TILE_MM - ROW / 2) - shift
        # level with the last row or further in front: at least PILES_OUT nearer the camera than the landscape's
        # nearest corner, out of the close view of a tile just laid
        self.pile_x = self.supply_x + pile_slot * SLOT
        nearest = _depth((minx - 0.5) * TILE_MM, (miny - 0.5) * TILE_MM) - PILES_OUT
        self.pile_y = min(self.supply_y - (s.cfg.players - 1) * ROW, (nearest - self.pile_x * VIEW_SIN) / VIEW_COS)
        # the drawn tile waits behind the landscape, clear of its open places, the discards beside it: the table's far
        # edge, as the piles and rows are its near one (the default view frames the landscape between them)
        self.drawn_y = (maxy + DRAWN_OUT) * TILE_MM
        self.drawn_x = self.middle_x + self._skew(self.drawn_y)

    def _skew(self, y: float) -> float:
        """How far east a thing `y` mm north of the table's origin goes to sit straight before or behind the
        landscape's middle as the default view sees it: that view looks north-north-east (heading -25 degrees)."""
        return (y - self.middle_y) * VIEW_SKEW

    def supply(self, player: int, slot: float, row: int) -> tuple[float, float]:
        # row 0 the followers, in front; row 1 the tower pieces just behind them, so the stacks hide no follower
        return (self.supply_x + slot * SLOT, self.supply_y - player * ROW + row * 22.0)

    def pile(self, i: int) -> tuple[float, float, float]:
        """Tile i of the bag: the piles side by side along the default view's horizon, the first one nearest the
        rows, so that each stands as far from the camera as the others."""
        stack, level = divmod(i, PILE)
        return (self.pile_x + stack * PILE_STEP * VIEW_COS, self.pile_y - stack * PILE_STEP * VIEW_SIN,
                level * TILE_H)

    def drawn(self) -> tuple[float, float]:
        return (self.drawn_x, self.drawn_y)


def _depth(x: float, y: float) -> float:
    """How far along the table a point lies from the default view's camera (mm, from the origin's): that view looks
    north-north-east, so a point further east is further away as well as one further north."""
    return x * VIEW_SIN + y * VIEW_COS


FOCUS_TILES = 2.0          # the default view closes in to this many tiles round a tile just laid, for its follower


def make_layout(s: CState, viewer: int | None = None) -> Layout:
    lay = Layout()
    frame = Frame(s)
    tops = _towers(lay, s)
    _tiles(lay, s, frame)
    _followers(lay, s, frame, tops)
    _supply_pieces(lay, s, frame)
    _labels(lay, s, frame)
    _cells(lay, s, frame, tops)
    if s.phase == ACTION and viewer == s.player:
        # the player who laid the tile picks a follower place on it: the view comes close enough to aim at each
        # (the towers further off, where a tower piece may go instead, are a turn of the wheel away)
        x, y = xy(s.tiles[-1][2])
        half = FOCUS_TILES * TILE_MM
        lay.focus = (x * TILE_MM - half, y * TILE_MM - half, 0.0, x * TILE_MM + half, y * TILE_MM + half,
                     tops.get(s.tiles[-1][2], TILE_H) + size("meeple").h)
    return lay


def tile_pose(t: int, r: int, x: float, y: float, z: float = 0.0) -> Pose:
    return shared_pose("ccs_tile", x, y, z, heading=-90.0 * r, look=look(tile=CODES[t], art=ART[t]))


def _tiles(lay: Layout, s: CState, frame: Frame) -> None:
    for t, r, pos, _base, k in s.tiles:
        x, y = xy(pos)
        lay.place(f"tile:{CODES[t]}:{k}", tile_pose(t, r, x * TILE_MM, y * TILE_MM))
    for i in range(s.bagn):
        px, py, pz = frame.pile(i)
        lay.place(f"bag:{i}", shared_pose("ccs_tile", px, py, pz, heading=-25.0, face_up=False,   # square to the view
                                          look=look(tile="back")))
    if s.phase == PLACE:
        k = COUNT[s.drawn] - s.bag[s.drawn] - 1
        dx, dy = frame.drawn()
        lay.place(f"tile:{CODES[s.drawn]}:{k}", tile_pose(s.drawn, 0, dx, dy))
        lay.closeup = (f"tile:{CODES[s.drawn]}:{k}", "Tile to place")
    for i, (t, k) in enumerate(s.discarded):
        dx, dy = frame.drawn()
        lay.place(f"tile:{CODES[t]}:{k}", tile_pose(t, 0, dx + 55.0 + i * 48.0, dy))


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
    if s.bagn:
        # the bag's count over its piles (the tallest stands first in line; the label moves as a pile empties)
        stacks = -(-s.bagn // PILE)
        x0, y0, _ = frame.pile(0)
        x1, y1, _ = frame.pile((stacks - 1) * PILE)
        lay.labels["bag"] = ((x0 + x1) / 2, (y0 + y1) / 2, min(s.bagn, PILE) * TILE_H + 24.0,
                             f"bag: {counted(s.bagn, 'tile')}")
    if s.phase == PLACE:
        dx, dy = frame.drawn()
        lay.labels["drawn"] = (dx, dy + TILE_MM / 2 + 12.0, 0.0, "tile to place")


def _cells(lay: Layout, s: CState, frame: Frame, tops: dict[int, float]) -> None:
    """The places a click may pick: open places for the drawn tile, the features of the tile just placed, towers; and
    where the drawn tile waits, even while none does, until the game is over (the default view frames the table with
    it, so the landscape keeps its place in the middle from one turn's phase to the next)."""
    dx, dy = frame.drawn()
    if s.phase != OVER:     # (a finished game draws no tile: the view frames what was built)
        lay.cells["drawn"] = shared_cell(dx, dy, 0.0, TILE_MM, TILE_MM, "the drawn tile")
    if s.phase == PLACE:
        for pos in s.frontier:
            x, y = xy(pos)
            lay.cells[f"at:{x},{y}"] = shared_cell(x * TILE_MM, y * TILE_MM, 0.0, TILE_MM - 2, TILE_MM - 2, "an open place")
    if s.phase == ACTION:
        t, r, pos, _base = s.tiles[-1][:4]
        x, y = xy(pos)
        for j, name in enumerate(ROTS[t][r].names):
            fx, fy = feature_spot(t, r, j)
            lay.cells[f"feature:{j}"] = shared_cell((x + fx) * TILE_MM, (y + fy) * TILE_MM, TILE_H, TARGET_MM, TARGET_MM,
                                                     name)
        for tpos, top in tops.items():
            x, y = xy(tpos)
            lay.cells[f"tower:{x},{y}"] = shared_cell(x * TILE_MM, y * TILE_MM, top, *TOWER_MM, "a tower")


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
    parent = s.parent
    areas = []
    m = s.mask[root]                # the feature's tiles, in the order they were laid (their nodes' order)
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        t, _r, _pos, base, _k = s.tiles[i]
        for j, jkind, words in _AREA_WORDS[t]:
            if jkind == kind and E.find(parent, base + j) == root:
                areas.append((_tile_id(s, i), words))
    return tuple(areas)


def _area_words(rot0) -> tuple:
    """(local feature, kind, area words) for each road, city and field of a tile type at rotation 0."""
    out = []
    for j, (kind, locs) in enumerate(zip(rot0.kinds, rot0.locs)):
        if kind == TL.FIELD:
            out.append((j, kind, "f:" + ",".join("I" if h < 0 else TL.HALVES[h] for h in locs)))
        elif kind != TL.CLOISTER:
            out.append((j, kind, ("c:" if kind == TL.CITY else "r:") + "".join(TL.DIRS[d] for d in locs)))
    return tuple(out)


_AREA_WORDS = tuple(_area_words(rots[0]) for rots in ROTS)


def _tile_id(s: CState, i: int) -> str:
    t, _r, _pos, _base, k = s.tiles[i]
    return TL.TILE_IDS[t][k]


def meeple_id(fid: int) -> str:
    return f"meeple:p{fid // FOLLOWERS + 1}:{fid % FOLLOWERS + 1}"


def tower_id(code: int) -> str:
    p, t, k = E.piece_parts(code)
    return f"tower:p{p + 1}:{E.PIECE_NAMES[t]}:{k + 1}"


# ---- HUD ---------------------------------------------------------------------------------------------------------------
def hud(s: CState, result: str) -> dict[str, str]:
    n = s.cfg.players
    if s.phase == OVER:
        turn = "Game over. " + result
    elif s.phase == DRAW:
        turn = f"Player {s.player + 1} draws a tile"
    else:
        turn = f"Player {s.player + 1}: {E.PHASE_NAMES[s.phase]}"
    out = {"turn": turn, "scores": "  ".join(f"Player {i + 1}: {v}" for i, v in enumerate(s.scores)),
           "bag": f"{counted(s.bagn, 'tile')} in the bag, {len(s.discarded)} discarded"}
    if s.phase == PLACE:
        out["tile"] = f"Tile to place: {tile_words(s.drawn)}"
        out["next"] = "Click a glowing place; the R key turns the tile."      # the table shows it to a person only
    supply = []
    for p in range(n):
        free = sum(1 for loc in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS] if loc == SUPPLY)
        prisoners = sum(1 for loc in s.fl if loc == -2 - p)
        text = f"Player {p + 1}: {counted(free, 'follower')}"
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
        key = ("supply" if n <= per else f"supply {first + 1}-{last}" if last > first + 1
               else f"supply {last}")       # each line names its players in full
        out[key] = "; ".join(supply[first:last])
    return out


# the followers' colours, seat by seat (the table paints them in this order): the panels' swatches
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


def panels(s: CState) -> list:
    """Each player's panel: points, followers left in the supply, tower pieces and prisoners (The Tower)."""
    out = []
    for p in range(s.cfg.players):
        free = sum(1 for loc in s.fl[p * FOLLOWERS:(p + 1) * FOLLOWERS] if loc == SUPPLY)
        held = [counted(free, "follower") + " left"]
        if s.cfg.tower:
            a, b, c = s.tsup[3 * p:3 * p + 3]
            held.append(counted(a + b + c, "tower piece") + (f" ({b} black, {c} white)" if s.cfg.black else ""))
            prisoners = sum(1 for loc in s.fl if loc == -2 - p)
            if prisoners:
                held.append(counted(prisoners, "prisoner"))
        out.append(Panel(p, f"Player {p + 1}", counted(s.scores[p], "point"), tuple(held),
                         s.phase != OVER and s.player == p, SEAT_COLOURS[p % len(SEAT_COLOURS)]))
    return out


def prompt(s: CState) -> str:
    if s.phase == PLACE:
        return "click a glowing place for the tile; the R key turns it"
    if s.phase == ACTION:
        return "place a follower or a tower piece on the tile just laid, or pass"
    if s.phase == E.CAPTURE:
        return "choose a follower to capture, or none"
    if s.phase == E.RANSOM:
        return "pay a ransom for a prisoner, or not"
    return "make your move"
