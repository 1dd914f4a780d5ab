"""Offscreen frames and videos: a camera into an offscreen buffer, frames grabbed at a fixed rate and piped to
ffmpeg (imageio-ffmpeg ships its own binary) as H.264 in yuv420p, which any player opens.

Time never comes from the wall clock here: the caller moves the scene to frame i's moment (i / fps) before each grab,
so a video shows the same thing however fast the machine renders it.

Where a frame's time goes, and what keeps it short: the frame is drawn into the video's own buffer only (the process's
main offscreen window, which would draw the same scene once more, is switched off while a grabber lives); with
Mesa's software renderer the buffer has no multisamples (llvmpipe draws the same pixels with or without them); the
frame comes back from GL as it lies in memory (BGRA, bottom row first) and ffmpeg, in its own process, flips it and
converts it to yuv420p; frames reach ffmpeg from a second thread through a short queue, so the next frame is drawn
while the last one is written. `write_video` returns the time spent in each part (`VideoTimes`).
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable

from panda3d.core import Filename, FrameBufferProperties, GraphicsOutput, GraphicsPipe, NodePath, Texture, WindowProperties

from towerworld.engine.game import TowerworldError
from towerworld.scene.setup import table_camera

BACKGROUND = (0.78, 0.84, 0.9, 1)


class VideoError(TowerworldError):
    pass


def even_size(width: int, height: int) -> tuple[int, int]:
    """yuv420p needs even sides; H.264 encoders prefer multiples of 16 but play any even size."""
    return width - width % 2, height - height % 2


class FrameGrabber:
    """An offscreen buffer with its own camera looking at `scene`; `grab()` renders one frame into memory. While it
    lives, the process's main window draws nothing (nobody sees it; it would draw the scene a second time a frame)."""

    def __init__(self, base, scene: NodePath, width: int, height: int, fov: float = 40.0):
        from towerworld.scene.offscreen import _software
        self.base = base
        self.width, self.height = width, height
        gsg = base.win.getGsg()
        fb = FrameBufferProperties()
        fb.setRgbColor(True)
        fb.setRgbaBits(8, 8, 8, 8)
        fb.setDepthBits(24)
        fb.setMultisamples(0 if _software(gsg) else 4)
        props = WindowProperties.size(width, height)
        self.buffer = base.graphicsEngine.makeOutput(base.pipe, "video", -1, fb, props, GraphicsPipe.BFRefuseWindow,
                                                     gsg, base.win)
        if self.buffer is None:
            raise VideoError("Could not open an offscreen buffer to render the video into.")
        self._window_was_active = base.win.isActive()
        base.win.setActive(False)
        self.texture = Texture()
        self.buffer.addRenderTexture(self.texture, GraphicsOutput.RTMCopyRam)
        self.buffer.setClearColor(BACKGROUND)
        self.camera = base.makeCamera(self.buffer, scene=base.render, lens=None)
        table_camera(self.camera)
        self.camera.reparentTo(base.render)
        lens = self.camera.node().getLens()
        lens.setFov(fov)
        lens.setAspectRatio(width / height)
        lens.setNearFar(5, 20000)
        self.camera.node().setScene(scene)

    def render(self) -> None:
        self.base.graphicsEngine.renderFrame()

    def read_raw(self) -> bytes:
        """The last rendered frame as GL left it: BGRA, bottom row first (ffmpeg flips and converts it)."""
        image = self.texture.getRamImage()
        raw = bytes(image)
        if self.texture.getNumComponents() != 4 or len(raw) != self.width * self.height * 4:
            raise VideoError("The offscreen buffer came back with the wrong size.")
        return raw

    def grab(self) -> bytes:
        """Render and return the frame as RGB bytes, top row first."""
        self.render()
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
        if self.base.win is not None:
            self.base.win.setActive(self._window_was_active)


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


@dataclass
class VideoTimes:
    """Where a video's wall time went: moving the scene to each frame's moment (`prepare`), drawing (`render`),
    reading the frame back from GL (`read`), and waiting for the encoder (`encode`: the queue to ffmpeg full, and the
    end, when ffmpeg finishes the file); `wall` is the whole write."""
    frames: int = 0
    fps: float = 30.0
    prepare: float = 0.0
    render: float = 0.0
    read: float = 0.0
    encode: float = 0.0
    wall: float = 0.0

    @property
    def video_seconds(self) -> float:
        return self.frames / self.fps

    @property
    def realtime(self) -> float:
        """Seconds of video per second of wall time."""
        return self.video_seconds / self.wall if self.wall else 0.0

    def parts(self) -> str:
        per = 1000 / max(self.frames, 1)
        return (f"a frame {self.wall * per:.0f} ms: scene {self.prepare * per:.0f}, render {self.render * per:.0f}, "
                f"read-back {self.read * per:.0f}, waiting for the encoder {self.encode * per:.0f}")


# x264's speed preset: on a machine of two cores the encoder shares them with the renderer (veryfast: about a third
# of the default preset's CPU for a file a little larger at the same quality)
PRESET = "veryfast"
QUEUED_FRAMES = 4        # frames drawn ahead of the encoder at most (each 1280x720 BGRA frame is 3.7 MB)


def write_video(path: str, grabber: FrameGrabber, frames: int, fps: float, prepare: Callable[[int], None],
                label: str = "video", quiet: bool = False) -> VideoTimes:
    """Render `frames` frames: before each grab, `prepare(i)` puts the scene at frame i's moment. H.264, yuv420p.
    Frames go to ffmpeg from a second thread; returns where the time went."""
    import imageio_ffmpeg
    check_fps(fps)
    size = (grabber.width, grabber.height)
    if size != even_size(*size):
        raise VideoError(f"A video needs even sides, not {size[0]}x{size[1]}.")
    writer = imageio_ffmpeg.write_frames(path, size, fps=fps, codec="libx264", pix_fmt_in="bgra",
                                         pix_fmt_out="yuv420p", quality=8, macro_block_size=2,
                                         output_params=["-vf", "vflip", "-preset", PRESET, "-movflags", "+faststart"],
                                         ffmpeg_log_level="error")
    writer.send(None)
    times = VideoTimes(frames=frames, fps=fps)
    progress = None if quiet else Progress(frames, label)
    pending: queue.Queue = queue.Queue(maxsize=QUEUED_FRAMES)
    failed: list[BaseException] = []

    def feed() -> None:
        while True:
            frame = pending.get()
            if frame is None:
                return
            try:
                if not failed:
                    writer.send(frame)
            except BaseException as e:          # ffmpeg gone (disk full, killed): the render loop stops
                failed.append(e)

    feeder = threading.Thread(target=feed, name="video-encoder", daemon=True)
    feeder.start()
    began = time.perf_counter()
    try:
        for i in range(frames):
            t0 = time.perf_counter()
            prepare(i)
            t1 = time.perf_counter()
            grabber.render()
            t2 = time.perf_counter()
            frame = grabber.read_raw()
            t3 = time.perf_counter()
            pending.put(frame)
            t4 = time.perf_counter()
            times.prepare += t1 - t0
            times.render += t2 - t1
            times.read += t3 - t2
            times.encode += t4 - t3
            if failed:
                raise VideoError(f"The video encoder stopped: {failed[0]}.")
            if progress:
                progress.update(i + 1)
    finally:
        t = time.perf_counter()
        pending.put(None)
        feeder.join()
        writer.close()
        times.encode += time.perf_counter() - t
        times.wall = time.perf_counter() - began
    if failed:
        raise VideoError(f"The video encoder stopped: {failed[0]}.")
    if progress:
        progress.stream.write(f"{label}: {times.video_seconds:.1f} s of video in {_duration(times.wall)}, "
                              f"{times.realtime:.2f} s of video a second; {times.parts()} ms\n")
    return times


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
