"""Offscreen pictures of a layout: one shared ShowBase per process, a fresh stage per picture."""
from __future__ import annotations

import os

from towerworld.engine.layout import Layout
from towerworld.scene.setup import configure

_BASE = None


def base(width: int = 1280, height: int = 800):
    """The process's ShowBase, offscreen unless one already exists."""
    global _BASE
    if _BASE is None:
        import builtins
        existing = getattr(builtins, "base", None)
        if existing is not None:
            _BASE = existing
        else:
            configure(offscreen=True, width=width, height=height)
            from direct.showbase.ShowBase import ShowBase
            _BASE = ShowBase(windowType="offscreen")
    return _BASE


def render_layout(layout: Layout, out: str, width: int = 1280, height: int = 800, orbit=None,
                  highlight: dict | None = None, cutaway=None, xray: bool = False) -> str:
    """Draw `layout` and save a PNG to `out`; returns the path. `xray` fades what hides the highlighted targets."""
    from panda3d.core import Filename, FrameBufferProperties, GraphicsOutput, GraphicsPipe, Texture, WindowProperties

    from towerworld.scene.camera import framing
    from towerworld.scene.setup import add_table, dress
    from towerworld.scene.stage import Stage

    b = base(width, height)
    view = orbit or framing(layout, aspect=width / height)
    scene = b.render.attachNewNode("offscreen-scene")
    try:
        dress(scene, layout)
        add_table(scene, layout)
        stage = Stage(scene)
        stage.show(layout)
        if highlight:
            stage.highlight(highlight)
        if cutaway is not None:
            stage.set_cutaway(*cutaway)
        if xray:
            stage.see_from(view.eye())
        fb = FrameBufferProperties()
        fb.setRgbColor(True)
        fb.setRgbaBits(8, 8, 8, 8)
        fb.setDepthBits(24)
        fb.setMultisamples(4)
        props = WindowProperties.size(width, height)
        buf = b.graphicsEngine.makeOutput(b.pipe, "shot", -1, fb, props, GraphicsPipe.BFRefuseWindow,
                                          b.win.getGsg(), b.win)
        if buf is None:
            raise RuntimeError("could not open an offscreen buffer")
        tex = Texture()
        buf.addRenderTexture(tex, GraphicsOutput.RTMCopyRam)
        buf.setClearColor((0.78, 0.84, 0.9, 1))
        cam = b.makeCamera(buf, scene=b.render, lens=None)
        cam.reparentTo(b.render)   # makeCamera hangs it under base.camera, which a table may have moved
        cam.node().getLens().setFov(40)
        cam.node().getLens().setAspectRatio(width / height)
        cam.node().getLens().setNearFar(5, 20000)
        cam.node().setScene(scene)
        view.apply(cam)
        b.graphicsEngine.renderFrame()
        b.graphicsEngine.renderFrame()
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        if not tex.write(Filename.fromOsSpecific(os.path.abspath(out))):
            raise RuntimeError(f"could not write {out}")
        b.graphicsEngine.removeWindow(buf)
        cam.removeNode()
    finally:
        scene.removeNode()
    return out
