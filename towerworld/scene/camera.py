"""Orbit camera: drag to orbit, wheel to zoom, right/middle-drag to pan, keys for all of it, reset to the framing."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from towerworld.engine.layout import Layout
from towerworld.engine.pieces import size


@dataclass
class Orbit:
    tx: float = 0.0
    ty: float = 0.0
    tz: float = 0.0
    heading: float = -25.0     # degrees about z, 0 looks along +y
    pitch: float = 38.0        # degrees above the table
    distance: float = 500.0

    def eye(self) -> tuple[float, float, float]:
        h, p = math.radians(self.heading), math.radians(self.pitch)
        dx = math.sin(h) * math.cos(p)
        dy = -math.cos(h) * math.cos(p)
        dz = math.sin(p)
        return (self.tx + dx * self.distance, self.ty + dy * self.distance, self.tz + dz * self.distance)

    def apply(self, camera_np) -> None:
        camera_np.setPos(*self.eye())
        camera_np.lookAt(self.tx, self.ty, self.tz)

    def orbit(self, dh: float, dp: float) -> None:
        self.heading = (self.heading + dh) % 360
        self.pitch = max(8.0, min(89.0, self.pitch + dp))

    def zoom(self, factor: float, toward: tuple[float, float, float] | None = None) -> None:
        """Come closer (factor below 1) or back off; toward a point, the target moves to it by the share the distance
        shrank, so the eye slides along its line to that point and the point stays where it shows on the screen."""
        old = self.distance
        self.distance = max(60.0, min(4000.0, self.distance * factor))
        if toward is not None and old > 0:
            share = 1.0 - self.distance / old
            self.tx += (toward[0] - self.tx) * share
            self.ty += (toward[1] - self.ty) * share
            self.tz += (toward[2] - self.tz) * share

    def pan(self, right: float, forward: float) -> None:
        """Move the target in the table plane, relative to the view direction (units: fractions of distance)."""
        h = math.radians(self.heading)
        k = self.distance
        self.tx += (math.cos(h) * right - math.sin(h) * forward) * k
        self.ty += (math.sin(h) * right + math.cos(h) * forward) * k


LABEL_EM = 7.0      # the stage draws labels 7 mm tall, or larger where the view would show them under LEAST_LABEL_PX
LEAST_LABEL_PX = 14.0   # a label's letters at least this tall on the screen at the default view...
MOST_LABEL_SCALE = 2.5  # ...grown up to this many times LABEL_EM (a far view of a wide table)


def _outline(layout: Layout) -> list[tuple[float, float, float]]:
    """Points whose hull holds everything a player must see: each piece's turned footprint at its foot and at its top
    (a tilted piece as tall as its tilted depth), every label's anchor and every cell; or the corners of the layout's
    focus, where it names one."""
    if layout.focus is not None:
        x0, y0, z0, x1, y1, z1 = layout.focus
        return [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
    points = []
    for p in layout.pieces.values():
        s = size(p.kind)
        h = math.radians(p.heading)
        c, sn = math.cos(h), math.sin(h)
        top = p.z + max(s.h, abs(math.sin(math.radians(p.tilt))) * max(s.w, s.d))
        for u in (-s.w / 2, s.w / 2):
            for v in (-s.d / 2, s.d / 2):
                x, y = p.x + u * c - v * sn, p.y + u * sn + v * c
                points.append((x, y, p.z))
                points.append((x, y, top))
    for x, y, z, words in layout.labels.values():
        # a label is text LABEL_EM mm tall on a card facing the camera: its half width, any way round
        half = max(len(line) for line in words.split("\n")) * LABEL_EM * 0.3 if words else 0.0
        points += [(x + u, y + v, z) for u in (-half, half) for v in (-half, half)]
    # cells too: the places where pieces will come (an empty hand at the start) belong in the picture
    for cell in layout.cells.values():
        points += [(cell.x + u, cell.y + v, cell.z) for u in (-cell.w / 2, cell.w / 2)
                   for v in (-cell.d / 2, cell.d / 2)]
    return points


ScreenBox = tuple[float, float, float, float]     # x0, y0, x1, y1 on the screen, -1..1 across the window each way


def framing(layout: Layout, fov: float = 40.0, aspect: float = 1.6, heading: float = -25.0, pitch: float = 38.0,
            fill: float = 0.92, top: float = 0.0, keep_clear: list[ScreenBox] = (),
            label_scales: dict[str, float] | None = None) -> Orbit:
    """The default view, looking down at the given angles: the camera aims at the middle of the pieces as they appear
    on screen (not of their box) and comes as close as it can with every piece inside `fill` of the frame, below a
    band of `top` (a fraction of the frame's height) kept clear for the HUD's status lines and above any `keep_clear`
    box that runs across the whole width from the bottom edge (the message line), and no label in a `keep_clear` box
    (where the HUD writes)."""
    points = _outline(layout)
    if not points:
        return Orbit(0.0, 0.0, 0.0, heading, pitch, 500.0)
    tan_h = math.tan(math.radians(fov / 2))          # Panda's setFov(f) is the horizontal field of view
    tan_v = tan_h / max(aspect, 1e-3)
    # screen heights run from -1 (bottom) to 1 (top): the pieces fit between -fill and fill less the bands, as far
    # from a band as from the frame's edge (a message grown to two lines still clears them)
    above, below = fill - 2 * top, fill - (1.0 + bottom_band(keep_clear))
    h, p = math.radians(heading), math.radians(pitch)
    fwd = (-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), -math.sin(p))   # eye -> target
    right = (math.cos(h), math.sin(h), 0.0)
    up = (right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2],
          right[0] * fwd[1] - right[1] * fwd[0])

    def dot(a, b):
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    xs, ys, zs = zip(*points)
    target = [(min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, (min(zs) + max(zs)) / 3]
    dist = 100.0
    # each point along the view, to the side and up, once: a point's offset from the target is these less the
    # target's own (the loop below took ~2 ms projecting every point afresh for each target)
    points_along = [dot(q, fwd) for q in points]
    points_side = [dot(q, right) for q in points]
    points_lift = [dot(q, up) for q in points]
    # A fixed point: for a target the nearest distance that fits is exact (each point's own bound); then the target
    # moves to the middle of what the camera sees from there. Perspective makes the near side look larger, so the
    # box centre alone leaves the far side of the frame empty.
    for _ in range(12):
        t_along, t_side, t_lift = dot(target, fwd), dot(target, right), dot(target, up)
        along = [q - t_along for q in points_along]
        side = [q - t_side for q in points_side]
        lift = [q - t_lift for q in points_lift]
        dist = max(60.0, max(max(abs(s) / (tan_h * fill), u / (tan_v * above) if u > 0 else -u / (tan_v * below))
                             - a for s, u, a in zip(side, lift, along)))
        sx = [s / (tan_h * (dist + a)) for s, a in zip(side, along)]
        sy = [u / (tan_v * (dist + a)) for u, a in zip(lift, along)]
        mid_x, mid_y = (min(sx) + max(sx)) / 2, (min(sy) + max(sy)) / 2 - (above - below) / 2
        if abs(mid_x) < 1e-3 and abs(mid_y) < 1e-3:
            break
        shift_r, shift_u = mid_x * tan_h * dist, mid_y * tan_v * dist
        target = [t + shift_r * r + shift_u * u for t, r, u in zip(target, right, up)]
    orbit = Orbit(target[0], target[1], target[2], heading, pitch, dist)
    # Backing off draws everything nearer the middle of the screen, away from the HUD at its edges.
    for _ in range(40):
        if not any(_overlap(b, c) for b in label_boxes(layout, orbit, fov, aspect, label_scales)
                   for c in keep_clear):
            break
        orbit.distance *= 1.02
    return orbit


def bottom_band(keep_clear: list[ScreenBox]) -> float:
    """The top edge (-1..1) of the highest box in `keep_clear` that spans the window's width from its bottom edge,
    or -1 where none does: no piece of the default view goes below it."""
    return max([b[3] for b in keep_clear if b[0] <= -1.0 and b[2] >= 1.0 and b[1] <= -1.0] + [-1.0])


def screen_point(orbit: Orbit, fov: float, aspect: float, point) -> tuple[float, float, float]:
    """(x, y, depth) of a table point as the camera at `orbit` sees it: x and y -1..1 across the window."""
    tan_h = math.tan(math.radians(fov / 2))
    tan_v = tan_h / max(aspect, 1e-3)
    h, p = math.radians(orbit.heading), math.radians(orbit.pitch)
    fwd = (-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), -math.sin(p))
    right = (math.cos(h), math.sin(h), 0.0)
    up = (right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2],
          right[0] * fwd[1] - right[1] * fwd[0])
    rel = [c - e for c, e in zip(point, orbit.eye())]
    depth = sum(r * f for r, f in zip(rel, fwd))
    return (sum(r * q for r, q in zip(rel, right)) / (tan_h * depth),
            sum(r * q for r, q in zip(rel, up)) / (tan_v * depth), depth)


def label_scales(layout: Layout, orbit: Orbit, fov: float, aspect: float, height_px: float) -> dict[str, float]:
    """How many times LABEL_EM each label is drawn so that, seen from `orbit` in a window `height_px` tall, it stands
    at least LEAST_LABEL_PX tall: 1 for a label that already does (a near one keeps its size), at most
    MOST_LABEL_SCALE for a far one."""
    tan_v = math.tan(math.radians(fov / 2)) / max(aspect, 1e-3)
    out = {}
    for lid, (x, y, z, _words) in layout.labels.items():
        depth = screen_point(orbit, fov, aspect, (x, y, z))[2]
        px = LABEL_EM / (tan_v * depth) * height_px / 2 if depth > 1e-6 else math.inf
        out[lid] = min(MOST_LABEL_SCALE, max(1.0, LEAST_LABEL_PX / px))
    return out


LABEL_DROPS = (0.0, 1.45, -1.45)   # lines (of a label's own height) a label may move down (up) to clear another


def label_drops(layout: Layout, orbit: Orbit, fov: float, aspect: float, scales: dict[str, float] | None = None,
                shown: Callable[[str], str] | None = None, keep_clear: list[ScreenBox] = ()) -> dict[str, float]:
    """How many of its own lines each label is drawn below its anchor so that no two labels touch on the screen: a
    row of labels seen end-on from afar (the far seat's tower letters at a wide table) alternates, every other one a
    line lower (or higher). Labels are taken from the top of the screen down, left to right; each takes the first of
    LABEL_DROPS that clears the labels placed before it (none clearing: where it is); see labels_touch. Most labels
    stay at 0. `shown`: the words the stage draws for a label's words (the players' names in place of seats');
    `keep_clear`: where the HUD writes (framing's), which a label moves into for no other."""
    boxes = dict(zip(layout.labels, label_boxes(layout, orbit, fov, aspect, scales, shown=shown)))
    order = sorted(boxes, key=lambda lid: (-round(boxes[lid][3], 2), boxes[lid][0]))
    placed: list[tuple[ScreenBox, float]] = []
    out: dict[str, float] = {}
    for lid in order:
        x0, y0, x1, y1 = boxes[lid]
        line = (y1 - y0) / (len(layout.labels[lid][3].split("\n")) + 0.4)
        for drop in LABEL_DROPS:
            moved = (x0, y0 - drop * line, x1, y1 - drop * line)
            if not any(labels_touch(moved, line, other, other_line, aspect) for other, other_line in placed) \
                    and (drop == 0.0 or not any(_overlap(moved, hud) for hud in keep_clear)):
                break
        else:
            drop, moved = 0.0, boxes[lid]
        out[lid] = drop
        placed.append((moved, line))
    return out


LABEL_TOUCH = (0.25, 0.6)   # of a line, across and up: two labels sharing more than both touch (side by side in a
                            # row); a column of labels a little closer than their lines (a stair of rows) is left be


def labels_touch(a: ScreenBox, a_line: float, b: ScreenBox, b_line: float, aspect: float) -> bool:
    """Whether two labels' boxes (label_boxes; their lines a_line and b_line tall, in screen heights) touch in a window
    `aspect` times as wide as it is tall: they share more than LABEL_TOUCH of the smaller line across and up."""
    line = min(a_line, b_line)
    return (min(a[3], b[3]) - max(a[1], b[1]) > LABEL_TOUCH[1] * line
            and min(a[2], b[2]) - max(a[0], b[0]) > LABEL_TOUCH[0] * line / max(aspect, 1e-3))


_WIDTHS: dict[str, float] = {}


def label_width(line: str) -> float:
    """How wide one line of a label is, in ems: the label font's own advance widths (an "i" is a quarter of a "W"),
    with the pale halo round the letters on both sides (shapes.HALO_WIDTH points, of an em of about 10)."""
    width = _WIDTHS.get(line)
    if width is None:
        from panda3d.core import TextNode

        from towerworld.scene.components.shapes import HALO_WIDTH, label_font
        node = TextNode("measure")
        font = label_font()
        if font is not None:
            node.setFont(font)
        width = node.calcWidth(line) or 0.64 * len(line)   # without a font: about 0.64 em a letter
        if len(_WIDTHS) > 4096:
            _WIDTHS.clear()
        width = _WIDTHS[line] = width + 2 * HALO_WIDTH / 10
    return width


def label_boxes(layout: Layout, orbit: Orbit, fov: float, aspect: float, scales: dict[str, float] | None = None,
                drops: dict[str, float] | None = None, shown: Callable[[str], str] | None = None) -> list[ScreenBox]:
    """Where each label shows on the screen (text LABEL_EM mm tall, times its scale, facing the camera, `drops`
    lines below its anchor; its words as `shown` gives them, where given)."""
    tan_h = math.tan(math.radians(fov / 2))
    tan_v = tan_h / max(aspect, 1e-3)
    out = []
    for lid, (x, y, z, words) in layout.labels.items():
        em_mm = LABEL_EM * (scales.get(lid, 1.0) if scales else 1.0)
        sx, sy, depth = screen_point(orbit, fov, aspect, (x, y, z))
        if drops:
            sy -= drops.get(lid, 0.0) * em_mm / (tan_v * depth)
        if shown is not None:
            words = shown(words)
        lines = words.split("\n")
        half_w = (max(label_width(line) for line in lines) / 2 + 0.1) * em_mm / (tan_h * depth)
        em = em_mm / (tan_v * depth)
        # the card: from above the first line's capitals (its baseline is at the anchor) to below the last line
        out.append((sx - half_w, sy - (len(lines) - 1 + 0.35) * em, sx + half_w, sy + 1.05 * em))
    return out


def _overlap(a: ScreenBox, b: ScreenBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
