"""A replay video's pacing (seconds a ply, the pause between plies) stated and settable, and where a video's frames go
(the grabber draws only its own buffer while it lives; write_video reports render, read-back and encoder times)."""
import os
import subprocess
import sys

import pytest

try:
    from test_video import short_record
except ImportError:  # tests run as a package
    from tests.test_video import short_record


def _record(path) -> str:
    """A four-ply K'Dak record (the video tests' short record)."""
    return short_record(path, plies=4)


def test_the_pause_between_plies_sets_the_schedule_and_the_sentence_states_it():
    from towerworld.app.replay import HOLD_END, HOLD_START, pacing, timeline
    durations = [0.5, 0.7, 0.6, 0.8]
    for pause in (0.0, 0.35, 1.0):
        segments = timeline(None, durations, 1.0, pause=pause)
        total = segments[-1].start + segments[-1].duration
        assert total == pytest.approx(HOLD_START + sum(durations) + len(durations) * pause + HOLD_END)
        text = pacing(segments)
        assert text.startswith("4 plies at ")
        assert f"{0.65 + pause:.2f} s a ply (0.65 s moving, {pause:.2f} s still" in text
        assert f"{total:.1f} s of video" in text
    # at speed 2 the pause halves too
    fast = timeline(None, durations, 2.0, pause=1.0)
    assert [s.duration for s in fast if s.ply < 0][1:-1] == [0.5] * 4


def test_the_cli_refuses_a_pause_out_of_range_in_one_sentence(tmp_path):
    record = _record(tmp_path / "r.tower.json")
    r = subprocess.run([sys.executable, "-m", "towerworld", "replay", record, "--pause", "-1", "--video",
                        str(tmp_path / "x.mp4")], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "EGL_PLATFORM": "surfaceless"})
    assert r.returncode == 2
    assert "--pause" in r.stderr and "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0


def test_a_replay_video_lasts_what_its_pacing_says(showbase, tmp_path):
    from towerworld.app.replay import render_replay
    from towerworld.engine.record import load_match
    from towerworld.scene.video import video_info
    match = load_match(_record(tmp_path / "r.tower.json"))
    lengths = []
    for pause in (0.0, 1.0):
        out = str(tmp_path / f"p{pause}.mp4")
        render_replay(match, video=out, fps=10, size=(96, 64), quiet=True, pause=pause)
        lengths.append(video_info(out)["duration"])
    assert lengths[1] - lengths[0] == pytest.approx(len(match.plies) * 1.0, abs=0.25)


def test_the_grabber_draws_only_its_buffer_and_reports_where_frames_go(showbase, tmp_path):
    from towerworld.demos.show import _offscreen_scene
    from towerworld.scene.video import read_frame, write_video
    scene, grabber = _offscreen_scene("carcassonne-tower", (160, 96), 1)
    base = grabber.base
    try:
        assert not base.win.isActive(), "the main window draws nothing while a video is made"
        scene.advance_to(0.5)
        grabber.render()
        expected = grabber.grab()
        out = str(tmp_path / "v.mp4")
        times = write_video(out, grabber, 3, 6, lambda i: scene.advance_to(0.5), quiet=True)
    finally:
        grabber.close()
        scene.destroy()
    assert base.win.isActive(), "closing the grabber gives the window back"
    assert times.frames == 3 and times.video_seconds == pytest.approx(0.5)
    assert min(times.render, times.read, times.encode, times.prepare) >= 0
    assert times.wall >= times.render + times.read and times.realtime > 0
    # the frame ffmpeg flipped and converted is the frame drawn (H.264 keeps colours within a few levels)
    size, frame = read_frame(out, 1)
    assert size == (160, 96)
    diff = sorted(abs(a - b) for a, b in zip(frame, expected))
    assert diff[len(diff) // 2] <= 6, "the video's frame is the drawn frame, the right way up, in its colours"
    upside_down = b"".join(expected[i:i + 480] for i in range(95 * 480, -1, -480))
    flipped = sorted(abs(a - b) for a, b in zip(frame, upside_down))
    assert sum(flipped) > sum(diff), "a frame left bottom row first would be caught"
