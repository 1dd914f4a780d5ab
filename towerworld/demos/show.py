"""A demo on screen: its scene (table, light, stage), a window to watch it in, and offscreen pictures and videos."""
from __future__ import annotations

from towerworld.demos import get_demo
from towerworld.demos.base import Demo, DemoRun
from towerworld.demos.stand_ins import register
from towerworld.scene.camera import Orbit, framing
from towerworld.scene.offscreen import base
from towerworld.scene.setup import add_table, dress
from towerworld.scene.stage import Stage
from towerworld.scene.video import FrameGrabber, check_fps, check_output, write_video


class DemoScene:
    """The demo's pieces on a stage under `parent`, kept where Bullet has them."""

    def __init__(self, parent, demo: Demo, seed: int = 1):
        register()
        self.demo = demo
        self.run = DemoRun(demo, seed)
        self.root = parent.attachNewNode(f"demo-{demo.name}")
        dress(self.root, self.run.layout)
        add_table(self.root, self.run.layout)
        self.stage = Stage(self.root)
        self.stage.show(self.run.layout)
        self.stage.uncombine()     # bodies move every piece node: a combined copy of a big board would stand still
        self.run.world.place_nodes(self.stage.nodes)    # where the bodies start (nested pyramids sit a little higher)

    def camera(self, aspect: float) -> Orbit:
        orbit = framing(self.run.layout, aspect=aspect, heading=self.demo.heading, pitch=self.demo.pitch)
        orbit.distance *= self.demo.zoom
        if self.demo.focus is not None:
            orbit.tx, orbit.ty, orbit.tz = self.demo.focus
        return orbit

    def advance_to(self, seconds: float) -> None:
        self.run.advance_to(seconds)
        self.run.world.place_nodes(self.stage.nodes)

    def restart(self) -> None:
        self.run.restart()
        self.stage.show(self.run.layout)
        self.stage.uncombine()
        for pid, node in self.stage.nodes.items():
            pose = self.run.layout.pieces[pid]
            node.setPos(pose.x, pose.y, pose.z)
            node.setHpr(pose.heading, 0, 0)
        self.run.world.place_nodes(self.stage.nodes)

    def destroy(self) -> None:
        self.root.removeNode()


def _offscreen_scene(name: str, size: tuple[int, int], seed: int):
    b = base(*size)
    scene = DemoScene(b.render, get_demo(name), seed)
    grabber = FrameGrabber(b, scene.root, *size)
    scene.camera(size[0] / size[1]).apply(grabber.camera)
    return scene, grabber


def demo_video(name: str, out: str, fps: float = 30.0, size=(1280, 720), seed: int = 1, quiet: bool = False) -> str:
    """Render demo `name` offscreen to an H.264 video, one frame every 1/fps simulated seconds."""
    check_output(out, ".mp4")
    check_fps(fps)
    scene, grabber = _offscreen_scene(name, size, seed)
    try:
        frames = int(round(scene.demo.seconds * fps)) + 1
        write_video(out, grabber, frames, fps, lambda i: scene.advance_to(i / fps), label=name, quiet=quiet)
    finally:
        grabber.close()
        scene.destroy()
    return out


def demo_png(name: str, out: str, at: float, size=(1280, 720), seed: int = 1) -> str:
    """A still of demo `name` at `at` simulated seconds."""
    check_output(out, ".png")
    scene, grabber = _offscreen_scene(name, size, seed)
    try:
        scene.advance_to(at)
        grabber.save_png(out)
    finally:
        grabber.close()
        scene.destroy()
    return out
