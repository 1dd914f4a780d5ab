"""What hides a target: the pieces that stand between the eye and a place the player may pick (pure geometry).

A tall stack in front of a square hides that square, and a square that cannot be seen cannot be chosen. The stage
fades what `hiding` names, so the player looks through it; clicks pass through the faded pieces too.
"""
from __future__ import annotations

from towerworld.engine.layout import Cell, Pose, piece_box
from towerworld.engine.pieces import size

Point = tuple[float, float, float]
Box = tuple[float, float, float, float, float, float]

NEAR = 1.0      # mm: a piece the sight line only touches this close to its end holds the spot up; it does not hide it


box = piece_box


def cell_spots(cell: Cell) -> list[Point]:
    """The middle of a cell (first) and four points towards its corners."""
    z = cell.z + 0.5
    return [(cell.x, cell.y, z)] + [(cell.x + u * cell.w / 3, cell.y + v * cell.d / 3, z)
                                    for u in (-1, 1) for v in (-1, 1)]


def piece_spots(pose: Pose) -> list[Point]:
    """The middle of a piece (first) and a point near its top."""
    h = size(pose.kind).h
    return [(pose.x, pose.y, pose.z + h / 2), (pose.x, pose.y, pose.z + h * 0.9)]


def enters(b: Box, a: Point, e: Point, until: float = 1.0) -> float | None:
    """Where the line a -> e first enters box b, as a multiple of e - a between 0 and `until` (1: the segment;
    infinity: the ray from a through e), by the slab test; None if it misses."""
    t0, t1 = 0.0, until
    for axis in range(3):
        start, delta = a[axis], e[axis] - a[axis]
        lo, hi = b[axis], b[axis + 3]
        if abs(delta) < 1e-9:
            if start < lo or start > hi:
                return None
            continue
        u, v = (lo - start) / delta, (hi - start) / delta
        if u > v:
            u, v = v, u
        t0, t1 = max(t0, u), min(t1, v)
        if t0 > t1:
            return None
    return t0


def hiding(poses: dict[str, Pose], targets: list[list[Point]], eye: Point, keep=frozenset()) -> set[str]:
    """Ids of the pieces (not in `keep`) in the way of a target: a sight line from `eye` to one of its spots passes
    through them before it arrives (two of a cell's five: a piece that only nicks a corner stays), and every piece
    standing on them (a stack fades whole, with whatever stands on top)."""
    boxes = {pid: box(pose) for pid, pose in poses.items() if pid not in keep}
    # What stands on a target is not in the way: it is what the player looks at there (a pawn on its square), and
    # it stays solid even where it also stands in front of another target.
    on_it = {pid for pid, b in boxes.items() for cx, cy, cz in (spots[0] for spots in targets if spots)
             if b[0] <= cx <= b[3] and b[1] <= cy <= b[4] and b[2] >= cz - 1.0}
    found: set[str] = set()
    for spots in targets:
        needed = 1 if len(spots) <= 2 else 2
        blocked: dict[str, int] = {}
        for spot in spots:
            length = sum((p - q) ** 2 for p, q in zip(eye, spot)) ** 0.5
            if length < 1e-6:
                continue
            for pid, b in boxes.items():
                # the eye looks down on the table: a piece lying wholly below the spot cannot be in the way
                if pid in found or pid in on_it or b[5] <= spot[2] + 1e-6:
                    continue
                t = enters(b, eye, spot)
                if t is not None and t < 1.0 - NEAR / length:
                    blocked[pid] = blocked.get(pid, 0) + 1
        found |= {pid for pid, n in blocked.items() if n >= needed}
    return found | (_standing_on(boxes, found) - on_it)


def _standing_on(boxes: dict[str, Box], under: set[str]) -> set[str]:
    """The pieces resting, directly or not, on top of those in `under` (their middle over its footprint, above it)."""
    above: set[str] = set()
    frontier = set(under)
    while frontier:
        base = [boxes[pid] for pid in frontier]
        frontier = set()
        for pid, b in boxes.items():
            if pid in under or pid in above:
                continue
            mx, my = (b[0] + b[3]) / 2, (b[1] + b[4]) / 2
            if any(u[0] <= mx <= u[3] and u[1] <= my <= u[4] and b[2] >= u[5] - 0.01 and
                   (b[3] - b[0]) * (b[4] - b[1]) < (u[3] - u[0]) * (u[4] - u[1]) * 4 for u in base):
                above.add(pid)
                frontier.add(pid)
    return above
