"""Where every K'Dak piece stands, in millimetres, and the HUD lines.

The tower stands at the origin: four columns (a back left, b back right, c front right, d front left; +y is the back)
of tiles stacked straight up, a tile of level L lying on the one below it (z = L * 6.35). A building a player can see
into: the storeys above each pawn in the tower are lifted by OPENING, every turn whoever moves, so no pawn stands
inside the tiles above it and the camera sees every pawn over the front of the tower; a pawn stands at the back of
its tile, clear of the rank and suit printed in the middle. Around it: the pawns waiting to enter (left),
the place for pawns out of the tower (further left, the "out" cell), the level coins on ledges by each storey (right),
the die and the talismans in front on the right (player 1's row nearer the tower, player 2's behind it: nothing stands
behind the tower, where its lifted storeys would hide it), the score track in front of the tower, and the discarded
tiles face up in rows in front of the track.
"""
from __future__ import annotations

from towerworld.engine.game import Panel
from towerworld.engine.layout import Layout, look, shared_cell, shared_pose
from towerworld.engine.pieces import size
from towerworld.engine.words import counted
from towerworld.games.kdak.board import (COLUMNS, LEVELS, MOVE, NOT_IN, OUT, OVER, RANKS, REMOVE, REVEAL, ROLL, SPEND,
                                         SUITS, TILES, face_up_on_level, pawn_place, place_words,
                                         tile_id)

TILE = size("pp_tile")
COIN = size("pp_coin")
PAWN = size("pp_pawn")
TRACK = size("track")
GAP = 0.4
HALF = (TILE.w + GAP) / 2
# column centres: a back left, b back right, c front right, d front left
CENTRES = ((-HALF, HALF), (HALF, HALF), (HALF, -HALF), (-HALF, -HALF))
PAWN_COLOURS = ("suns", "moons")
TRACK_MAX = 60          # the tiles hold 60 points in all
SPACING = 53.0          # discarded tiles lie in rows of six, 2 mm apart, in front of the tower
PER_ROW = 6
DISCARD_X = -TRACK.w / 2 + TILE.w / 2       # the rows start under the score track's left end
TRACK_Y = -2 * HALF - 82.0                      # the score track just in front of the tower and the talismans
DISCARD_Y = TRACK_Y - 58.0                      # the rows of discards in front of the track, nearest the player
TALISMAN_Y = (-2 * HALF - 25, -2 * HALF - 50)   # each player's talisman row, front right
DIE_AT = (2 * HALF + 130, -2 * HALF - 38)
# beside each column, on a face of the tower nothing else stands at: where its "enter" and "down" click areas are
# (a on the left, b behind, c and d in front; the stair stands on the right)
OUTSIDE = ((-2 * HALF - 15, HALF), (HALF, 2 * HALF + 15), (HALF, -2 * HALF - 15), (-HALF, -2 * HALF - 15))
STEP = 20.0            # the stair's steps: a level coin (19.05) on each
TARGET = 28.0           # side of a click area
WAITING_X = -2 * HALF - 45
OUT_X = -2 * HALF - 95
# the storeys above a pawn's storey lifted by this much: a pawn's height and the rise of the camera's sight line over
# the tower's depth, so from the default view (looking down at 38 degrees) every pawn is seen under the lifted storeys
OPENING = 110.0
# where a pawn stands on its tile (from the tile's middle): at the back, beside the rank and suit printed down the
# middle (one pawn on the right, two on either side), so the camera looking from the front reads the print
PAWN_SPOTS = ((16.9,), (-16.9, 16.9))
PAWN_BACK = 14.0
COLUMN_LABEL_FRONT = 18.0   # a column's letter this far in front of its tile's middle


def column_centre(c: int) -> tuple[float, float]:
    return CENTRES[c]


def _tile_look(state, slot):
    v = state.ident[slot]
    if v < 0:
        return look()
    return look(suit=SUITS[v // 6], rank=RANKS[v % 6])


def storey_heights(state) -> tuple[float, ...]:
    """The height of the bottom of each storey: a tile's thickness apart, and OPENING more above each storey a pawn
    stands on."""
    pawn_levels = {pawn_place(state, p)[1] for p in range(len(state.pawns)) if state.pawns[p] >= 0}
    return tuple(lv * TILE.h + OPENING * sum(1 for pl in pawn_levels if pl < lv) for lv in range(LEVELS))


def build_layout(state) -> Layout:
    lay = Layout()
    o = state.opts
    cols, up = state.cols, state.up
    zs = storey_heights(state)
    for c, col in enumerate(cols):
        x, y = CENTRES[c]
        for lv, slot in enumerate(col):
            lay.place(tile_id(slot), shared_pose("pp_tile", x, y, zs[lv], face_up=bool(up >> slot & 1),
                                          look=_tile_look(state, slot)))
    # each column's letter over its top tile's front edge (the pawns stand at the back, the rank and suit in the
    # middle), so "column b" is read where the column stands, however high it is lifted or low it has crumbled
    for c, col in enumerate(cols):
        x, y = CENTRES[c]
        top = zs[len(col) - 1] + TILE.h if col else 0.0
        lay.labels[f"column:{COLUMNS[c]}"] = (x, y - COLUMN_LABEL_FRONT, top + 1.0, COLUMNS[c])
    # discards, face up, rows of six in front of the track (the view draws back to them as the rows come, so the tower
    # fills the first frames)
    for i, slot in enumerate(state.discards):
        row, place_in_row = divmod(i, PER_ROW)
        lay.place(tile_id(slot), shared_pose("pp_tile", DISCARD_X + place_in_row * SPACING, DISCARD_Y - row * SPACING, 0.0,
                                      face_up=True, look=_tile_look(state, slot)))
    # pawns
    where: dict[int, list[int]] = {}
    for p, slot in enumerate(state.pawns):
        if slot >= 0:
            where.setdefault(slot, []).append(p)
    for p, slot in enumerate(state.pawns):
        pl = look(suit=PAWN_COLOURS[p % 2], player=p)
        if slot == NOT_IN:
            pose = shared_pose("pp_pawn", WAITING_X, 15 - 30 * p, 0.0, look=pl)
        elif slot == OUT:
            pose = shared_pose("pp_pawn", OUT_X, 15 - 30 * p, 0.0, look=pl)
        else:
            c, lv = pawn_place(state, p)
            x, y = CENTRES[c]
            sharing = where[slot]
            x += PAWN_SPOTS[len(sharing) - 1][sharing.index(p)]
            pose = shared_pose("pp_pawn", x, y + PAWN_BACK, zs[lv] + TILE.h, look=pl)
        lay.place(f"pawn:{p}", pose)
    lay.cells["out"] = shared_cell(OUT_X, 0.0, 0.0, 50.0, 80.0, "leave the tower")
    # level coins on a stair of six steps beside the tower, each step level with its storey (lifted with it), and labels
    stair_y = -2 * HALF + 12 + (LEVELS - 1) * STEP / 2
    lay.place("stair", shared_pose("level_stair", 2 * HALF + 16, stair_y, 0.0,
                                   look=look(steps=LEVELS, rise=TILE.h, run=STEP, heights=zs)))
    for lv in range(LEVELS):
        x, y = 2 * HALF + 16, -2 * HALF + 12 + lv * STEP
        lay.place(f"coin:level:{lv}", shared_pose("pp_coin", x, y, zs[lv], face_up=True, look=look(rank=RANKS[lv])))
        # the label's middle well clear of the coin (a label is about 40 mm wide)
        lay.labels[f"level:{lv}"] = (x + COIN.w / 2 + 23, y, zs[lv] + COIN.h, f"level {lv}")
    # the die beside the talismans, in front on the right: it is seen rolling, and no lifted storey hides it
    lay.place("die", shared_pose("pp_die", *DIE_AT, 0.0, look=look(face=RANKS[state.roll]) if state.roll >= 0 else look()))
    # the score track and markers (one per player, or one pooled)
    # 13 squares of 5 points: 0 at the left end, 60 (all the gold in the tower) at the right
    lay.place("track", shared_pose("track", 0.0, TRACK_Y, 0.0, look=look(cells=TRACK_MAX // 5 + 1, per=5, label_every=1)))
    markers = [sum(state.scores)] if o.pooled else list(state.scores)
    for p, pts in enumerate(markers):
        step = TRACK.w / (TRACK_MAX // 5 + 1)
        x = -TRACK.w / 2 + step / 2 + step * min(pts, TRACK_MAX) / 5
        dy = 0.0 if len(markers) == 1 else (-9.6 if p == 0 else 9.6)     # side by side, a coin apart
        lay.place(f"score:{p}", shared_pose("pp_coin", x, TRACK_Y + dy, TRACK.h, face_up=False, look=look(score=pts)))
    # talismans in front of their owners (player 1 in front of the tower, player 2 behind it)
    for p, count in enumerate(state.tal):
        tower_coin = state.tower_tal == p
        for k in range(count):
            pid = "talisman:tower" if tower_coin else f"talisman:{p}:{k}"
            x = 2 * HALF + 40 + k * 22
            y = TALISMAN_Y[p]
            lay.place(pid, shared_pose("pp_coin", x, y, 0.0, face_up=False, look=look(talisman=True)))
    if state.tower_tal == -1:
        # on the level-5 coin, on the top step
        lay.place("talisman:tower", shared_pose("pp_coin", 2 * HALF + 16, -2 * HALF + 12 + 5 * STEP, zs[5] + COIN.h,
                                         face_up=False, look=look(talisman=True)))
    if state.stage == SPEND:
        y = TALISMAN_Y[state.turn]
        lay.cells["spend"] = shared_cell(2 * HALF + 40, y, 0.0, 40.0, 25.0, "spend a talisman")
        lay.cells["pass"] = shared_cell(2 * HALF + 100, y, 0.0, 40.0, 25.0, "pass")
    if state.stage == MOVE and state.pawns[state.turn] >= 0:
        c, lv = pawn_place(state, state.turn)
        x, y = CENTRES[c]
        lay.cells["stay"] = shared_cell(x, y, zs[lv] + TILE.h, 20.0, 20.0, "stay")
        if lv:
            # the tile below lies under the pawn's own: the step down gets a click area beside the column
            ox, oy = OUTSIDE[c]
            lay.cells["down"] = shared_cell(ox, oy, zs[lv - 1] + TILE.h, TARGET, TARGET, f"down to level {lv - 1}")
    if state.stage == MOVE and state.pawns[state.turn] == NOT_IN:
        # the whole tower is shown before the first step; its null-level tiles are entered by the areas beside them
        for c, col in enumerate(cols):
            if col:
                ox, oy = OUTSIDE[c]
                lay.cells[f"enter:{COLUMNS[c]}"] = shared_cell(ox, oy, 0.0, TARGET, TARGET, f"enter column {COLUMNS[c]}")
    return lay


def hud(game, state) -> dict:
    o = state.opts
    n = o.n
    st = state.stage
    if st == OVER:
        turn = "Game over. " + game.result(state)
    elif st == ROLL:
        turn = f"Player {state.turn + 1} rolls the die"
    elif st == REVEAL:
        turn = "A tile is revealed"
    elif st == REMOVE:
        turn = f"Player {state.turn + 1}: remove a tile of level {state.level}"
    elif st == SPEND:
        turn = f"Player {state.turn + 1}: spend a talisman for an extra turn, or pass"
    else:
        turn = f"Player {state.turn + 1} to move" + (" (talisman turn, no removal)" if state.free else "")
    phase = "escaping the crumbling tower" if state.door else (
        "climbing (the tower crumbles)" if o.crumble else "climbing the tower")
    if o.pooled:
        scores = f"pooled: {sum(state.scores)}"
    else:
        scores = "  ".join(f"Player {i + 1}: {s}" for i, s in enumerate(state.scores))
    where = []
    for p in range(n):
        slot = state.pawns[p]
        if slot == NOT_IN:
            where.append(f"Player {p + 1} waiting to enter")
        elif slot == OUT:
            where.append(f"Player {p + 1} out of the tower")
        else:
            c, lv = pawn_place(state, p)
            where.append(f"Player {p + 1} at {place_words(c, lv)}")
    lines = {
        "turn": turn,
        "phase": phase,
        "scores": scores,
        "roll": "no roll yet" if state.roll < 0 else f"last roll: {RANKS[state.roll]} (level {state.roll})",
        "door": "door open" if state.door else "door shut",
        "pawns": ", ".join(where),
        "tiles": f"{counted(TILES - len(state.discards), 'tile')} stand{'s' if TILES - len(state.discards) == 1 else ''}, {state.up.bit_count()} face up",
    }
    if o.talisman or o.l5t:
        lines["talismans"] = "  ".join(f"Player {i + 1}: {t}" for i, t in enumerate(state.tal))
        if o.l5t:
            lines["talismans"] += "  (level-5 talisman " + (
                "still by level 5)" if state.tower_tal == -1 else f"taken by Player {state.tower_tal + 1})")
    if st == MOVE and state.pawns[state.turn] >= 0 and o.up2 and not state.door:
        c, lv = pawn_place(state, state.turn)
        k = face_up_on_level(state.cols, state.up, lv)
        lines["climb"] = f"{k} face-up tile{'s' if k != 1 else ''} on level {lv}" + (
            "" if k >= 2 else ": two are needed to go up")
    return lines


# suns pawns are red, moons pawns black: the panels' swatches in the pawns' colours
PAWN_COLOUR_WORDS = {"suns": "red", "moons": "black"}


def panels(game, state) -> list:
    """Each player's panel: the score (the pool in cooperative play), where the pawn stands, talismans in hand."""
    o = state.opts
    out = []
    for p in range(o.n):
        slot = state.pawns[p]
        if slot == NOT_IN:
            where = "waiting to enter"
        elif slot == OUT:
            where = "out of the tower"
        else:
            where = "at " + place_words(*pawn_place(state, p))
        held = [where]
        if o.talisman or o.l5t:
            held.append(counted(state.tal[p], "talisman"))
        if o.l5t and state.tower_tal == p:
            held.append("carries the level-5 talisman")
        score = f"{counted(sum(state.scores), 'point')} pooled" if o.pooled else counted(state.scores[p], "point")
        out.append(Panel(p, f"Player {p + 1}", score, tuple(held), state.stage != OVER and state.turn == p,
                         PAWN_COLOUR_WORDS[PAWN_COLOURS[p % 2]]))
    return out


def prompt(state) -> str:
    """What the player to move does now, as the table asks it."""
    st = state.stage
    if st == REMOVE:
        return f"click a tile of level {state.level} to disintegrate it"
    if st == SPEND:
        return "spend a talisman for an extra turn, or pass"
    if st == MOVE and state.pawns[state.turn] == NOT_IN:
        return "enter the null level: click the glowing square beside a column"
    if st == MOVE:
        return "click a glowing tile to move your pawn" + (" (a talisman turn: no removal)" if state.free else "")
    return "make your move"
