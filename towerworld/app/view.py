"""The camera as a player moves it, for every table that draws one (the local table, the replay, the network
window): left-drag orbits, right- or middle-drag pans, the wheel zooms toward the pointer, the arrows, + and - and
W A S D do the same from the keyboard, R and Home go back to the home view. A left press that does not drag is a
click, handed to the table. The home view follows the table as it grows (a landscape of tiles) while the player has
not moved the camera; once they have, it stays where they put it until they go home.

Everything it binds and every task it adds belongs to the table that made it: its events on the table's
DirectObject, its tasks through the table's `add_task`, so the table's `close` takes them away.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from towerworld.scene.camera import Orbit, framing, label_drops, label_scales


def home_orbit(base, stage, layout, aspect: float, top: float, keep_clear: list) -> Orbit:
    """The home view of `layout` below a top band of `top` (a share of the window's height) and clear of the HUD's
    `keep_clear` boxes; the stage's labels grow where that view shows them small (a wide table seen from afar), the
    view keeps them clear of the HUD as drawn, and labels that would touch on the screen from it stagger."""
    orbit = framing(layout, aspect=aspect, top=top, keep_clear=keep_clear)
    win = base.win
    scales = label_scales(layout, orbit, 40.0, aspect, win.getYSize() if win is not None else 800)
    if keep_clear and any(v != 1.0 for v in scales.values()):
        orbit = framing(layout, aspect=aspect, top=top, keep_clear=keep_clear, label_scales=scales)
    stage.set_label_scales(scales, label_drops(layout, orbit, 40.0, aspect, scales, stage.label_words, keep_clear))
    return orbit


class CameraView:
    def __init__(self, base, events, add_task: Callable, picker, stage, home: Orbit,
                 on_click: Callable[[], None]):
        self.base, self.picker, self.stage = base, picker, stage
        self.on_click = on_click
        self.home = home
        self.orbit = replace(home)
        self.orbit.apply(base.camera)
        self.drag: tuple | None = None      # (mode, where it started, where it was last, whether it has moved)
        for key, (dh, dp) in {"arrow_left": (-6, 0), "arrow_right": (6, 0), "arrow_up": (0, 4),
                              "arrow_down": (0, -4)}.items():
            events.accept(key, self.turn, [dh, dp])
            events.accept(key + "-repeat", self.turn, [dh, dp])
        for key, f in {"+": 0.9, "=": 0.9, "-": 1.1}.items():
            events.accept(key, self.zoom, [f])
            events.accept(key + "-repeat", self.zoom, [f])
        events.accept("wheel_up", self.wheel_zoom, [0.9])
        events.accept("wheel_down", self.wheel_zoom, [1.1])
        for key, (r, f) in {"a": (-0.04, 0), "d": (0.04, 0), "w": (0, 0.04), "s": (0, -0.04)}.items():
            events.accept(key, self.pan, [r, f])
            events.accept(key + "-repeat", self.pan, [r, f])
        events.accept("r", self.reset)
        events.accept("home", self.reset)
        events.accept("mouse1", self._press, ["orbit"])
        events.accept("mouse3", self._press, ["pan"])
        events.accept("mouse2", self._press, ["pan"])
        events.accept("mouse1-up", self._release, ["orbit"])
        events.accept("mouse3-up", self._release, ["pan"])
        events.accept("mouse2-up", self._release, ["pan"])
        add_task(self._drag_task, "camera-drag")
        add_task(self._xray_task, "xray")

    # ---- moving the camera ---------------------------------------------------------------------------------------
    def turn(self, dh: float, dp: float) -> None:
        self.orbit.orbit(dh, dp)
        self.orbit.apply(self.base.camera)

    def zoom(self, f: float, toward=None) -> None:
        self.orbit.zoom(f, toward)
        self.orbit.apply(self.base.camera)

    def wheel_zoom(self, f: float) -> None:
        """The wheel zooms toward the table point under the pointer (keys zoom toward the middle of the view)."""
        self.zoom(f, self.point_under_pointer())

    def pan(self, r: float, f: float) -> None:
        self.orbit.pan(r, f)
        self.orbit.apply(self.base.camera)

    def reset(self) -> None:
        self.orbit = replace(self.home)
        self.orbit.apply(self.base.camera)

    def follow(self, home: Orbit) -> None:
        """A new home view (the table grew, the window changed shape): the camera goes there only while it stands at
        the old one, untouched."""
        if home != self.home:
            at_home = self.orbit == self.home
            self.home = home
            if at_home:
                self.reset()

    # ---- the pointer -----------------------------------------------------------------------------------------------
    def mouse(self) -> tuple[float, float] | None:
        mw = self.base.mouseWatcherNode
        return (mw.getMouseX(), mw.getMouseY()) if mw is not None and mw.hasMouse() else None

    def point_under_pointer(self, height: float = 0.0) -> tuple[float, float, float] | None:
        """Where the line from the camera through the pointer first meets a piece, else the table top (z = `height`
        in the scene); None without a pointer, or where that line does not come down to the table."""
        from panda3d.core import Point2, Point3
        m = self.mouse()
        if m is None:
            return None
        on_piece = self.picker.surface_point(m, self.base.render)
        if on_piece is not None:
            return on_piece
        near, far = Point3(), Point3()
        if not self.base.camLens.extrude(Point2(*m), near, far):
            return None
        a = self.base.render.getRelativePoint(self.base.cam, near)
        b = self.base.render.getRelativePoint(self.base.cam, far)
        if abs(b.z - a.z) < 1e-9:
            return None
        t = (height - a.z) / (b.z - a.z)
        if t <= 0:
            return None
        return (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, height)

    def _press(self, mode: str) -> None:
        m = self.mouse()
        if m:
            self.drag = (mode, m, m, False)

    def _release(self, mode: str) -> None:
        drag = self.drag
        self.drag = None
        if drag and drag[0] == mode == "orbit" and not drag[3]:
            self.on_click()

    def _drag_task(self, task):
        if self.drag:
            mode, start, last, moved = self.drag
            m = self.mouse()
            if m:
                dx, dy = m[0] - last[0], m[1] - last[1]
                moved = moved or abs(m[0] - start[0]) + abs(m[1] - start[1]) > 0.01
                if moved:
                    if mode == "orbit":
                        self.orbit.orbit(dx * 120, -dy * 80)
                    else:
                        self.orbit.pan(-dx * 0.5, -dy * 0.5)
                    self.orbit.apply(self.base.camera)
                self.drag = (mode, start, m, moved)
        return task.cont

    def _xray_task(self, task):
        """The stage fades what stands between the camera and the highlighted targets; it follows the camera once a
        drag ends (working out what hides what takes ~20 ms on a grown board of 121 pieces, too long for every
        frame)."""
        if self.drag is not None:
            return task.cont
        eye = self.base.camera.getPos(self.stage.root)
        self.stage.see_from((round(eye.x, 1), round(eye.y, 1), round(eye.z, 1)))
        return task.cont
