"""Offscreen pictures of a layout: one shared ShowBase per process, a fresh stage per picture."""
from __future__ import annotations

import builtins
import os
import struct
import zlib

from towerworld.engine.layout import Layout
from towerworld.scene.camera import framing, label_drops, label_scales
from towerworld.scene.setup import add_table, configure, dress, gpu_device, table_camera, undress
from towerworld.scene.stage import LastMove, Stage

_BASE = None
_GSG: dict = {}       # the pictures' GL context where there is no window to share one with


def base(width: int = 1280, height: int = 800, window: bool = True):
    """The process's ShowBase, offscreen unless one already exists. `window=False`: a picture needs no main window
    (it draws into a buffer of its own), so a process that only makes pictures opens none, and draws each picture
    once, not a second time into a window nobody reads; a later caller that needs the window gets one then."""
    global _BASE
    if _BASE is None:
        existing = getattr(builtins, "base", None)
        if existing is not None:
            _BASE = existing
        else:
            configure(offscreen=True, width=width, height=height)
            from direct.showbase.ShowBase import ShowBase
            _BASE = ShowBase(windowType="offscreen" if window else "none")
            if not window:
                _BASE.makeDefaultPipe()
    if window and _BASE.win is None:
        _BASE.windowType = "offscreen"
        _BASE.openDefaultWindow(type="offscreen")
    return _BASE


def render_layout(layout: Layout, out: str, width: int = 1280, height: int = 800, orbit=None,
                  highlight: dict | None = None, cutaway=None, xray: bool = False, last: LastMove | None = None) -> str:
    """Draw `layout` and save a PNG to `out`; returns the path. `xray` fades what hides the highlighted targets;
    `last` marks the last move as the window's table marks it (stage.last_move_before)."""
    from panda3d.core import Camera, GraphicsOutput, PerspectiveLens, Texture

    b = base(width, height, window=False)
    view = orbit or framing(layout, aspect=width / height)
    scene = b.render.attachNewNode("offscreen-scene")
    buf = None
    try:
        dress(scene, layout)
        add_table(scene, layout)
        stage = Stage(scene)
        stage.show(layout)
        scales = label_scales(layout, view, 40.0, width / height, height)
        stage.set_label_scales(scales, label_drops(layout, view, 40.0, width / height, scales))
        if highlight:
            stage.highlight(highlight)
        if cutaway is not None:
            stage.set_cutaway(*cutaway)
        if xray:
            stage.see_from(view.eye())
        if last is not None:
            stage.mark_last(last)
        buf = _picture_buffer(b, width, height)
        tex = Texture()
        buf.addRenderTexture(tex, GraphicsOutput.RTMCopyRam)
        buf.setClearColor((0.78, 0.84, 0.9, 1))
        lens = PerspectiveLens()
        lens.setFov(40)
        lens.setAspectRatio(width / height)
        lens.setNearFar(5, 20000)
        cam = b.render.attachNewNode(Camera("shot", lens))
        table_camera(cam)
        cam.node().setScene(scene)
        view.apply(cam)
        region = buf.makeDisplayRegion()
        region.setCamera(cam)
        # The key light's shadow map is made while the first frame draws, and fills in the next one: the first frame
        # draws one pixel, enough to make it, and only the second draws the picture.
        region.setDimensions(0, 1 / width, 0, 1 / height)
        b.graphicsEngine.renderFrame()
        region.setDimensions(0, 1, 0, 1)
        b.graphicsEngine.renderFrame()
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        write_png(out, width, height, bytes(tex.getRamImageAs("RGB")))
        cam.removeNode()
    finally:
        if buf is not None:
            b.graphicsEngine.removeWindow(buf)
        undress(scene)
    return out


SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader")


def _picture_buffer(b, width: int, height: int):
    """An offscreen buffer for one picture, multisampled where that smooths its edges. A software renderer (Mesa's
    llvmpipe) grants the samples and allocates them (about 27 MB at 1280x800) but its pictures come out as jagged as
    without, so there the buffer has none. One GL context serves every picture (shaders compiled once): the window's
    where there is one, else the one the first picture's buffer made."""
    host = b.win                    # None in a process that only makes pictures: the buffer stands alone
    gsg = host.getGsg() if host is not None else _GSG.get("shot")
    software = _software(gsg) if gsg is not None else not gpu_device()
    buf = _buffer(b, width, height, 0 if software else 4, gsg, host)
    if host is None:
        _GSG["shot"] = buf.getGsg()
    return buf


def _software(gsg) -> bool:
    return any(name in gsg.getDriverRenderer().lower() for name in SOFTWARE_GL)


def _buffer(b, width: int, height: int, samples: int, gsg, host):
    from panda3d.core import FrameBufferProperties, GraphicsPipe, WindowProperties
    fb = FrameBufferProperties()
    fb.setRgbColor(True)
    fb.setRgbaBits(8, 8, 8, 0)      # an opaque picture: no alpha to read back or store
    fb.setDepthBits(24)
    fb.setMultisamples(samples)
    buf = b.graphicsEngine.makeOutput(b.pipe, "shot", -1, fb, WindowProperties.size(width, height),
                                      GraphicsPipe.BFRefuseWindow, gsg, host)
    if buf is None:
        raise RuntimeError("could not open an offscreen buffer")
    return buf


def write_png(path: str, width: int, height: int, rgb: bytes) -> None:
    """An 8-bit RGB PNG of `rgb`, rows bottom-up as GL reads them back. Rows go unfiltered into zlib: about 25 ms for
    a 1280x800 picture, where Panda's PNG writer spends about 0.2 s choosing filters, for a file a fifth smaller."""
    stride = width * 3
    if len(rgb) != stride * height:
        raise RuntimeError("the offscreen buffer came back with the wrong size")
    rows = b"".join(b"\0" + rgb[i:i + stride] for i in range((height - 1) * stride, -1, -stride))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)     # 8 bits, RGB, deflate, no filter, no interlace
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) +
                chunk(b"IEND", b""))
