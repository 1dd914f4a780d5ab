"""A demo in a window: orbit camera (drag, arrows, wheel), Space pause, R restart, S slow motion, Q quit."""
from __future__ import annotations

import builtins
import os

from towerworld.demos import get_demo
from towerworld.demos.show import DemoScene
from towerworld.engine.game import TowerworldError
from towerworld.scene.setup import configure

SLOW = (1.0, 0.25, 0.1)       # the speeds S cycles through
KEYS = "Space pause   R restart   S slow motion   arrows/drag orbit   +/- or wheel zoom   Home reset view   Q quit"


class DemoWindow:
    def __init__(self, name: str, size=(1280, 800), seed: int = 1, frames: int | None = None):
        demo = get_demo(name)
        configure(offscreen=frames is not None, width=size[0], height=size[1], title=f"towerworld demo: {demo.name}")

        from direct.gui.OnscreenText import OnscreenText
        from direct.showbase.ShowBase import ShowBase
        from panda3d.core import TextNode
        existing = getattr(builtins, "base", None)
        try:
            self.base = existing or ShowBase(windowType="offscreen" if frames is not None else None)
        except Exception:   # no display, no GL: one sentence
            raise TowerworldError("Could not open a window" + (f" on display {os.environ['DISPLAY']}"
                                  if os.environ.get("DISPLAY") else " (no display is set)") +
                                  "; 'towerworld demo NAME --video out.mp4' renders one without a screen.") from None
        b = self.base
        b.disableMouse()
        b.setBackgroundColor(0.78, 0.84, 0.9, 1)
        b.camLens.setFov(40)
        b.camLens.setNearFar(5, 20000)
        self.frames = frames
        self.scene = DemoScene(b.render, demo, seed)
        self.aspect = size[0] / size[1]
        self.orbit = self.scene.camera(self.aspect)
        self.orbit.apply(b.camera)
        self.clock = 0.0
        self.speed_index = 0
        self.paused = False
        self._drag = None
        style = dict(fg=(1, 1, 1, 1), shadow=(0, 0, 0, 0.9), mayChange=True, scale=0.045)
        # the caption on a dark card: a close view (a demo's focus) may show pieces under it
        self.status = OnscreenText(text="", pos=(0.05, -0.08), align=TextNode.ALeft, parent=b.a2dTopLeft,
                                   bg=(0.1, 0.12, 0.14, 0.6), **style)
        self.keys = OnscreenText(text=KEYS, pos=(0, 0.05), align=TextNode.ACenter, parent=b.a2dBottomCenter,
                                 **{**style, "scale": 0.035})
        self._bind()
        b.taskMgr.add(self._tick, "demo-tick")

    def _bind(self) -> None:
        b = self.base
        b.accept("space", self.toggle_pause)
        b.accept("r", self.restart)
        b.accept("s", self.cycle_speed)
        b.accept("q", b.userExit)
        b.accept("escape", b.userExit)
        b.accept("home", self.reset_view)
        for key, (dh, dp) in {"arrow_left": (-6, 0), "arrow_right": (6, 0), "arrow_up": (0, 4),
                              "arrow_down": (0, -4)}.items():
            b.accept(key, self._orbit, [dh, dp])
            b.accept(key + "-repeat", self._orbit, [dh, dp])
        for key, f in {"+": 0.9, "=": 0.9, "-": 1.1, "wheel_up": 0.9, "wheel_down": 1.1}.items():
            b.accept(key, self._zoom, [f])
        b.accept("mouse1", self._press)
        b.accept("mouse1-up", self._release)

    @property
    def speed(self) -> float:
        return SLOW[self.speed_index]

    def toggle_pause(self) -> None:
        self.paused = not self.paused

    def cycle_speed(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SLOW)

    def restart(self) -> None:
        self.scene.restart()
        self.clock = 0.0

    def reset_view(self) -> None:
        self.orbit = self.scene.camera(self.aspect)
        self.orbit.apply(self.base.camera)

    def _orbit(self, dh, dp) -> None:
        self.orbit.orbit(dh, dp)
        self.orbit.apply(self.base.camera)

    def _zoom(self, f) -> None:
        self.orbit.zoom(f)
        self.orbit.apply(self.base.camera)

    def _mouse(self):
        mw = self.base.mouseWatcherNode
        return (mw.getMouseX(), mw.getMouseY()) if mw.hasMouse() else None

    def _press(self) -> None:
        self._drag = self._mouse()

    def _release(self) -> None:
        self._drag = None

    def _tick(self, task):
        dt = min(0.1, self.base.clock.getDt()) if self.frames is None else 1 / 60
        if self._drag:
            m = self._mouse()
            if m:
                self._orbit((m[0] - self._drag[0]) * 120, -(m[1] - self._drag[1]) * 80)
                self._drag = m
        if not self.paused:
            self.clock = min(self.scene.demo.seconds, self.clock + dt * self.speed)
            self.scene.advance_to(self.clock)
        state = "paused" if self.paused else "finished (R restarts)" if self.scene.run.done else "running"
        self.status.setText(f"{self.scene.demo.summary}\n{self.clock:5.2f} s / {self.scene.demo.seconds:.0f} s   "
                            f"speed {self.speed:g}x   {state}")
        return task.cont

    def close(self) -> None:
        self.base.taskMgr.remove("demo-tick")
        self.base.ignoreAll()
        self.status.destroy()
        self.keys.destroy()
        self.scene.destroy()

    def run(self) -> int:
        if self.frames is not None:
            for _ in range(self.frames):
                self.base.taskMgr.step()
            self.close()
            return 0
        self.base.run()
        return 0


def run_demo(name: str, size=(1280, 800), seed: int = 1, frames: int | None = None) -> int:
    return DemoWindow(name, size, seed, frames).run()
