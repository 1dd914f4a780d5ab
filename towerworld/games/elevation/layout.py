"""Where Elevation's pieces stand in 3D, and the HUD's lines. Everything on the board is public, so every viewer sees
the same layout and HUD.

Piece ids: every terrain tile is `terr:NNN` (its number at setup) and keeps its id when dug; a piece is
`kind:side:file` (`dragon:0:b`: player 1's dragon that started on file b). Cells `sq:a1`...`sq:f6` lie over each
square at stack-top height.
"""
from __future__ import annotations

from towerworld.engine.game import BadNotation, Panel
from towerworld.engine.layout import Layout, look, shared_cell, shared_pose
from towerworld.engine.words import counted
from towerworld.engine.pieces import size
from towerworld.games.elevation.board import FILES, KIND_NAMES, PIECES, SIDE_NAMES, SIZE, SQUARES, square_name

TILE_H = size("terrain").h
TILE_W = size("terrain").w
BOX_FLOOR = size("elev_box").h
PIECE_W = size("elev_piece").w
CAPTIVES_OUT = 75.0       # mm from the board's edge to the row of captured pieces
LABEL_OUT = 12.0          # mm from the board's edge to the middle of a file or row label


def piece_id(piece: int, kinds) -> str:
    return f"{KIND_NAMES[kinds[piece]]}:{piece // 6}:{FILES[piece % 6]}"


def parse_piece_id(pid: str) -> tuple[int, int]:
    """(piece index, kind) named by a piece id like "dragon:0:b"; BadNotation otherwise."""
    parts = str(pid).split(":")
    if len(parts) != 3 or parts[0] not in KIND_NAMES or parts[1] not in ("0", "1") or parts[2] not in tuple(FILES):
        raise BadNotation(f"'{str(pid)[:40]}' is not a piece of Elevation (like 'dragon:0:b').")
    return int(parts[1]) * 6 + FILES.index(parts[2]), KIND_NAMES.index(parts[0])


def tile_id(n: int) -> str:
    return f"terr:{n:03d}"


def tile_square(state, tid: str) -> int | None:
    """The square whose stack holds the tile `tid`, or None."""
    try:
        n = int(tid[5:])
    except ValueError:
        return None
    return next((s for s in range(SQUARES) if n in state.stacks[s]), None)


def square_xy(s: int) -> tuple[float, float]:
    r, c = divmod(s, SIZE)
    return (c - 2.5) * TILE_W, (r - 2.5) * TILE_W


def square_top(state, s: int) -> float:
    """The height of the top of square `s`'s stack (the box's floor where it is dug out)."""
    return BOX_FLOOR + state.heights[s] * TILE_H


def build_layout(state) -> Layout:
    lay = Layout()
    lay.place("elev_box", shared_pose("elev_box", 0.0, 0.0, 0.0, look=look(colour="wood")))
    for s in range(SQUARES):
        x, y = square_xy(s)
        for level, n in enumerate(state.stacks[s]):
            lay.place(tile_id(n), shared_pose("terrain", x, y, BOX_FLOOR + level * TILE_H,
                                       heading=(n * 90) % 360, look=look(layer=level, tone=n % 3)))
        top = BOX_FLOOR + state.heights[s] * TILE_H
        lay.cells[f"sq:{square_name(s)}"] = shared_cell(x, y, top, TILE_W, TILE_W, square_name(s))
    for i in range(PIECES):
        side = i // 6
        p = state.pos[i]
        if p >= 0:
            x, y = square_xy(p)
            z = BOX_FLOOR + state.heights[p] * TILE_H
        else:
            # beside the board, in front of the captor (player 1 sits at -y, player 2 at +y), far enough out that a
            # standing piece does not rise into the file labels along the front edge as the camera sees it
            x = (i % 6 - 2.5) * (PIECE_W + 8)
            y = -(3 * TILE_W + CAPTIVES_OUT) if side == 1 else 3 * TILE_W + CAPTIVES_OUT
            z = 0.0
        lay.place(piece_id(i, state.kinds), shared_pose("elev_piece", x, y, z, heading=0.0 if side == 0 else 180.0,
                                                  look=look(piece=KIND_NAMES[state.kinds[i]], side=side)))
    # the files along the front edge and the rows along the left, each label level with the top of the square beside
    # it: a label on the table under raised terrain is seen a row off from the camera (a "2" beside row 1)
    for c in range(SIZE):
        x, _ = square_xy(c)
        lay.labels[f"file:{FILES[c]}"] = (x, -3 * TILE_W - LABEL_OUT, square_top(state, c), FILES[c])
        _, y = square_xy(c * SIZE)
        lay.labels[f"rank:{c + 1}"] = (-3 * TILE_W - LABEL_OUT, y, square_top(state, c * SIZE), str(c + 1))
    return lay


def _army(state, side: int) -> str:
    """"2 samurai, 1 dragon, 2 fish": what a side has left on the board."""
    counts = [0, 0, 0]
    for i in range(side * 6, side * 6 + 6):
        if state.pos[i] >= 0:
            counts[state.kinds[i]] += 1
    words = []
    for kind, n in enumerate(counts):
        if n:
            name = KIND_NAMES[kind]
            words.append(f"{n} {name}{'s' if n > 1 and name == 'dragon' else ''}")
    return ", ".join(words) or "no pieces"


def hud_lines(state, result: str) -> dict:
    """The HUD: whose turn, what each side has left and has taken, the move cap, a repetition warning."""
    if result != "in progress":
        turn = "Game over. " + result
    elif state.phase == 1:
        turn = f"{SIDE_NAMES[1 - state.mover]}: accept or decline {SIDE_NAMES[state.mover]}'s draw offer"
    else:
        turn = f"{SIDE_NAMES[state.mover]} to move"
        if state.used >= 0:
            turn += f" a second piece (not the {KIND_NAMES[state.kinds[state.used]]} on " \
                    f"{square_name(state.pos[state.used])})"
    taken = [sum(1 for p in state.pos[6 * (1 - side):6 * (2 - side)] if p < 0) for side in (0, 1)]
    lines = {
        "turn": turn,
        "pieces": "   ".join(f"{SIDE_NAMES[side]}: {_army(state, side)}" for side in (0, 1)),
        "scores": "   ".join(f"{SIDE_NAMES[side]} took {taken[side]}" for side in (0, 1)),
        "cap": f"turn {state.turns + 1} of the {state.rules.move_cap}-turn cap",
    }
    repeats = state.history.count(state.history[-1])
    if repeats >= 2 and result == "in progress":
        lines["repetition"] = f"this position has occurred {repeats} times; a third time is a draw"
    return lines


def piece_on(state, s: int) -> str:
    """"Red dragon on b1", or "empty b1"."""
    b = state.board[s]
    if b < 0:
        return f"empty {square_name(s)}"
    return f"{SIDE_NAMES[b // 6]} {KIND_NAMES[state.kinds[b]]} on {square_name(s)}"


def panels(state, over: bool) -> list:
    """Each side's panel: the pieces it still has on the board and the enemies it has taken."""
    taken = [sum(1 for p in state.pos[6 * (1 - side):6 * (2 - side)] if p < 0) for side in (0, 1)]
    answering = state.mover ^ state.phase
    return [Panel(side, SIDE_NAMES[side], counted(taken[side], "enemy piece") + " taken",
                  (_army(state, side) + " left",), not over and answering == side, SIDE_NAMES[side].lower())
            for side in (0, 1)]


def prompt(state) -> str:
    if state.phase == 1:
        return f"accept or decline {SIDE_NAMES[state.mover]}'s draw offer"
    if state.used >= 0:
        return (f"click a second piece (not the {KIND_NAMES[state.kinds[state.used]]} on "
                f"{square_name(state.pos[state.used])}), then its glowing squares")
    return "click one of your pieces, then the glowing squares in order (dig from, dig to, move to)"
