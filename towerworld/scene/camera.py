"""Orbit camera: drag to orbit, wheel to zoom, right/middle-drag to pan, keys for all of it, reset to the framing."""
from __future__ import annotations

import math
from dataclasses import dataclass

from towerworld.engine.layout import Layout


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

    def zoom(self, factor: float) -> None:
        self.distance = max(60.0, min(4000.0, self.distance * factor))

    def pan(self, right: float, forward: float) -> None:
        """Move the target in the table plane, relative to the view direction (units: fractions of distance)."""
        h = math.radians(self.heading)
        k = self.distance
        self.tx += (math.cos(h) * right - math.sin(h) * forward) * k
        self.ty += (math.sin(h) * right + math.cos(h) * forward) * k


def framing(layout: Layout, fov: float = 40.0, aspect: float = 1.6, heading: float = -25.0, pitch: float = 38.0) -> Orbit:
    """The default view: every corner of the layout's bounds inside the frame, looking down at the given angles."""
    x0, y0, z0, x1, y1, z1 = layout.bounds()
    orbit = Orbit((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 3, heading, pitch, 100.0)
    corners = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
    tan_h = math.tan(math.radians(fov / 2))          # Panda's setFov(f) is the horizontal field of view
    tan_v = tan_h / max(aspect, 1e-3)
    h, p = math.radians(heading), math.radians(pitch)
    fwd = (-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), -math.sin(p))   # eye -> target
    right = (math.cos(h), math.sin(h), 0.0)
    up = (right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2],
          right[0] * fwd[1] - right[1] * fwd[0])
    need = 60.0
    for cx, cy, cz in corners:
        rel = (cx - orbit.tx, cy - orbit.ty, cz - orbit.tz)
        along = sum(a * b for a, b in zip(rel, fwd))
        side = abs(sum(a * b for a, b in zip(rel, right)))
        lift = abs(sum(a * b for a, b in zip(rel, up)))
        # the corner is in frame when side <= tan_h * (dist + along) and lift <= tan_v * (dist + along)
        need = max(need, side / tan_h - along, lift / tan_v - along)
    orbit.distance = need * 1.08
    return orbit
