"""Layout: where every physical piece is, in millimetres. Computed by a game from a state; drawn by the stage.

Piece ids are stable across states ("tile:moons:3", "pawn:1") so the stage can diff two layouts and animate. Cells
are pickable places that are not pieces (an empty square, a table spot): id -> box (x, y, z, w, d).

A layout may make its poses and cells with `shared_pose` and `shared_cell`: a piece that did not move between two
layouts then holds the very same Pose object in both, and the stage passes over it with one identity check instead of
comparing its fields (a move on a full board costs what it moved). Either way the layouts are equal.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import lru_cache

from towerworld.engine.pieces import size


def look(**values) -> tuple:
    """A hashable look: what the stage needs to draw the piece's faces (suit, rank, colour, pips...)."""
    return tuple(sorted(values.items()))


@dataclass(frozen=True, slots=True)
class Pose:
    kind: str                 # a key of engine.pieces.PIECES
    x: float
    y: float
    z: float                  # bottom of the piece
    heading: float = 0.0      # degrees about z
    face_up: bool = True
    look: tuple = ()          # from look(...)
    tilt: float = 0.0         # degrees about the piece's own x axis (cards fanned, a tile lying on edge)

    def get(self, key, default=None):
        for k, v in self.look:
            if k == key:
                return v
        return default

    @property
    def top(self) -> float:
        return self.z + size(self.kind).h


@dataclass(frozen=True, slots=True)
class Cell:
    x: float
    y: float
    z: float
    w: float
    d: float
    label: str = ""
    # how far above the cell a click still finds it (mm): the pieces standing on a place belong to it (a tower of
    # pyramids picked by a click on any of them); the cell is drawn as a flat square all the same
    reach: float = 0.0


SHARED_KEPT = 8192      # poses (and cells) remembered: a few games' worth of every piece's places


@lru_cache(maxsize=SHARED_KEPT)
def shared_pose(kind: str, x: float, y: float, z: float, heading: float = 0.0, face_up: bool = True,
                look: tuple = (), tilt: float = 0.0) -> Pose:
    """The Pose with these fields, the same object each time it is asked for while it is remembered (and cheaper
    than making one: a frozen dataclass sets each field through object.__setattr__)."""
    return Pose(kind, x, y, z, heading, face_up, look, tilt)


@lru_cache(maxsize=SHARED_KEPT)
def shared_cell(x: float, y: float, z: float, w: float, d: float, label: str = "", reach: float = 0.0) -> Cell:
    """The Cell with these fields, the same object each time while it is remembered (see shared_pose)."""
    return Cell(x, y, z, w, d, label, reach)


def piece_box(pose: Pose) -> tuple[float, float, float, float, float, float]:
    """(xmin, ymin, zmin, xmax, ymax, zmax) of a piece lying flat (any turn about z covered by its larger side)."""
    s = size(pose.kind)
    turn = pose.heading % 180
    if turn == 0:
        rx, ry = s.w / 2, s.d / 2
    elif turn == 90:
        rx, ry = s.d / 2, s.w / 2
    else:
        rx = ry = max(s.w, s.d) / 2
    return (pose.x - rx, pose.y - ry, pose.z, pose.x + rx, pose.y + ry, pose.z + s.h)


@dataclass(frozen=True, slots=True)
class LayoutChange:
    """What a layout says of itself against the layout it was made after (`base`): the piece and cell ids whose pose
    or cell may differ from the base's (moved, restyled, arrived or gone); every other id holds the very object the
    base holds under it, or one equal to it. Why: a stage given the next layout of a game compares every piece and cell of the two to
    find the few a move changed, and that walk was a fifth of a warm update; the game that made both layouts knows
    what it changed, or can tell at less cost while it builds. The ids may name more than changed (the stage checks
    each), never fewer. A layout changed after it is made must drop this (it no longer tells the truth). `base` is a
    weak reference: a game's layouts do not keep every layout before them alive."""
    base: weakref.ReferenceType
    pieces: tuple[str, ...]
    cells: tuple[str, ...]

    def after(self, layout: Layout | None) -> bool:
        """Whether this tells the change from `layout` (it was made after that very layout)."""
        return layout is not None and self.base() is layout


@dataclass
class Layout:
    pieces: dict[str, Pose] = field(default_factory=dict)
    cells: dict[str, Cell] = field(default_factory=dict)
    labels: dict[str, tuple[float, float, float, str]] = field(default_factory=dict)  # id -> (x, y, z, text)
    # (xmin, ymin, zmin, xmax, ymax, zmax): the part of the table the default view frames instead of the whole, while
    # the player it is made for must aim closely (the follower places on a tile just laid); None: the whole table
    focus: tuple[float, float, float, float, float, float] | None = None
    # (piece id, caption): the one piece the player to move decides about, which the table also shows enlarged in a
    # corner of its window, whatever the view (Carcassonne's tile to place); None: none
    closeup: tuple[str, str] | None = None
    # what changed from the layout this one was made after, where the game that made it tells (see LayoutChange);
    # None: a stage compares every piece and cell. Not part of what a layout shows: equal layouts may differ here
    changes: LayoutChange | None = field(default=None, compare=False, repr=False)

    def place(self, piece_id: str, pose: Pose) -> None:
        if piece_id in self.pieces:
            raise ValueError(f"piece id '{piece_id}' placed twice")
        self.pieces[piece_id] = pose

    def bounds(self) -> tuple[float, float, float, float, float, float]:
        """(xmin, ymin, zmin, xmax, ymax, zmax) of every piece, for framing the camera."""
        boxes = [piece_box(p) for p in self.pieces.values()]
        if not boxes:
            return (0, 0, 0, 0, 0, 0)
        lows, highs = [b[:3] for b in boxes], [b[3:] for b in boxes]
        return (min(b[0] for b in lows), min(b[1] for b in lows), min(b[2] for b in lows),
                max(b[0] for b in highs), max(b[1] for b in highs), max(b[2] for b in highs))
