"""Offscreen frames and videos: a camera into an offscreen buffer, frames grabbed at a fixed rate and piped to
ffmpeg (imageio-ffmpeg ships its own binary) as H.264 in yuv420p, which any player opens.

Time never comes from the wall clock here: the caller moves the scene to frame i's moment (i / fps) before each grab,
so a video shows the same thing however fast the machine renders it.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Callable

from panda3d.core import Filename, FrameBufferProperties, GraphicsOutput, GraphicsPipe, NodePath, Texture, WindowProperties

from towerworld.engine.game import TowerworldError

BACKGROUND = (0.78, 0.84, 0.9, 1)


class VideoError(TowerworldError):
    pass


def even_size(width: int, height: int) -> tuple[int, int]:
    """yuv420p needs even sides; H.264 encoders prefer multiples of 16 but play any even size."""
    return width - width % 2, height - height % 2


class FrameGrabber:
    """An offscreen buffer with its own camera looking at `scene`; `grab()` renders one frame into memory."""

    def __init__(self, base, scene: NodePath, width: int, height: int, fov: float = 40.0):
        self.base = base
        self.width, self.height = width, height
        fb = FrameBufferProperties()
        fb.setRgbColor(True)
        fb.setRgbaBits(8, 8, 8, 8)
        fb.setDepthBits(24)
        fb.setMultisamples(4)
        props = WindowProperties.size(width, height)
        self.buffer = base.graphicsEngine.makeOutput(base.pipe, "video", -1, fb, props, GraphicsPipe.BFRefuseWindow,
                                                     base.win.getGsg(), base.win)
        if self.buffer is None:
            raise VideoError("Could not open an offscreen buffer to render the video into.")
        self.texture = Texture()
        self.buffer.addRenderTexture(self.texture, GraphicsOutput.RTMCopyRam)
        self.buffer.setClearColor(BACKGROUND)
        self.camera = base.makeCamera(self.buffer, scene=base.render, lens=None)
        self.camera.reparentTo(base.render)
        lens = self.camera.node().getLens()
        lens.setFov(fov)
        lens.setAspectRatio(width / height)
        lens.setNearFar(5, 20000)
        self.camera.node().setScene(scene)

    def grab(self) -> bytes:
        """Render and return the frame as RGB bytes, top row first."""
        self.base.graphicsEngine.renderFrame()
        image = self.texture.getRamImageAs("RGB")
        rows = bytes(image)
        stride = self.width * 3
        if len(rows) != stride * self.height:
            raise VideoError("The offscreen buffer came back with the wrong size.")
        return b"".join(rows[i:i + stride] for i in range((self.height - 1) * stride, -1, -stride))

    def save_png(self, path: str) -> str:
        self.base.graphicsEngine.renderFrame()
        self.base.graphicsEngine.renderFrame()
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        if not self.texture.write(Filename.fromOsSpecific(os.path.abspath(path))):
            raise VideoError(f"Could not write {path}.")
        return path

    def close(self) -> None:
        self.base.graphicsEngine.removeWindow(self.buffer)
        self.camera.removeNode()


def check_output(path: str, suffix: str) -> None:
    if not path.lower().endswith(suffix):
        raise VideoError(f"The output must name a {suffix} file, not '{path}'.")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise VideoError(f"The folder {folder} does not exist.")


def check_fps(fps: float) -> None:
    if not 1 <= fps <= 240:
        raise VideoError(f"--fps must be between 1 and 240, not {fps:g}.")


class Progress:
    """A one-line progress bar with the time left, on stderr."""

    def __init__(self, total: int, label: str, stream=None):
        self.total, self.label = max(1, total), label
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.shown = -1

    def update(self, done: int) -> None:
        pct = int(100 * done / self.total)
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        shown = pct if tty else pct // 10 * 10        # a log gets a line every tenth, a terminal one line redrawn
        if shown == self.shown and done < self.total:
            return
        self.shown = shown
        elapsed = time.perf_counter() - self.t0
        left = elapsed / done * (self.total - done) if done else 0.0
        width = 30
        filled = int(width * done / self.total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} frames, "
                          f"{pct:3d}%, about {_duration(left)} left " + ("" if tty else "\n"))
        if done >= self.total:
            self.stream.write(("\n" if tty else "") + f"{self.label}: {self.total} frames in {_duration(elapsed)}\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def write_video(path: str, grabber: FrameGrabber, frames: int, fps: float, prepare: Callable[[int], None],
                label: str = "video", quiet: bool = False) -> str:
    """Render `frames` frames: before each grab, `prepare(i)` puts the scene at frame i's moment. H.264, yuv420p."""
    import imageio_ffmpeg
    check_fps(fps)
    size = (grabber.width, grabber.height)
    if size != even_size(*size):
        raise VideoError(f"A video needs even sides, not {size[0]}x{size[1]}.")
    writer = imageio_ffmpeg.write_frames(path, size, fps=fps, codec="libx264", pix_fmt_in="rgb24",
                                         pix_fmt_out="yuv420p", quality=8, macro_block_size=2,
                                         output_params=["-movflags", "+faststart"], ffmpeg_log_level="error")
    writer.send(None)
    progress = None if quiet else Progress(frames, label)
    try:
        for i in range(frames):
            prepare(i)
            writer.send(grabber.grab())
            if progress:
                progress.update(i + 1)
    finally:
        writer.close()
    return path


def read_frame(path: str, index: int = 0) -> tuple[tuple[int, int], bytes]:
    """Frame `index` of a video (size, RGB bytes): for tests and for looking at what was written."""
    import imageio_ffmpeg
    reader = imageio_ffmpeg.read_frames(path)
    meta = reader.__next__()
    try:
        for i, frame in enumerate(reader):
            if i == index:
                return meta["size"], frame
    finally:
        reader.close()
    raise VideoError(f"{path} has no frame {index}.")


def video_info(path: str) -> dict:
    """ffmpeg's view of a video: size, fps, duration, codec line."""
    import imageio_ffmpeg
    reader = imageio_ffmpeg.read_frames(path)
    meta = reader.__next__()
    reader.close()
    return meta
