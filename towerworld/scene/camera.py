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
    """The default view: the whole layout in frame, looking down at the given angles."""
    x0, y0, z0, x1, y1, z1 = layout.bounds()
    cx, cy, cz = (x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 3
    radius = max(40.0, 0.5 * math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2 + (z1 - z0) ** 2))
    half = math.radians(fov / 2) * (min(1.0, aspect))
    dist = radius / math.sin(half) * 0.92
    return Orbit(cx, cy, cz, heading, pitch, dist)
