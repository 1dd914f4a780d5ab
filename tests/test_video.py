"""Videos and stills of demos and replays (H.264, yuv420p, fixed frame rate and size), the CLI's refusals, and the
replay table's timeline and keys."""
import os
import random
import subprocess
import sys

import pytest

from towerworld.engine.driver import answer_chance
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import save_match
from towerworld.engine.registry import get_game


def run(*args):
    return subprocess.run([sys.executable, "-m", "towerworld", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "EGL_PLATFORM": "surfaceless"})


def one_sentence(text: str) -> bool:
    text = text.strip()
    return text.count("\n") == 0 and "Traceback" not in text and text.endswith(".")


def short_record(path, plies=12, seed=4) -> str:
    game = get_game("kdak")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=seed)
    rng = random.Random(seed)
    while len(match.plies) < plies and not match.over:
        if match.current_player >= 0:
            moves = game.legal_moves(match.state)
            match.apply(moves[rng.randrange(len(moves))], save=False)
        else:
            answer_chance(match)
    save_match(match, str(path))
    return str(path)


def test_a_demo_video_is_h264_yuv420p_at_the_asked_rate_and_size(showbase, tmp_path):
    from towerworld.demos.show import demo_video
    from towerworld.scene.video import read_frame, video_info
    out = str(tmp_path / "demo.mp4")
    demo_video("carcassonne-tower", out, fps=6, size=(160, 96), quiet=True)
    info = video_info(out)
    assert info["codec"] == "h264" and info["pix_fmt"].startswith("yuv420p")
    assert info["size"] == (160, 96) and info["fps"] == 6
    assert info["duration"] == pytest.approx(5.0 + 1 / 6, abs=0.2)
    size, frame = read_frame(out, 3)
    assert size == (160, 96) and len(frame) == 160 * 96 * 3
    assert len(set(frame[i:i + 3] for i in range(0, len(frame), 3 * 37))) > 10, "a frame with something drawn"


def test_the_cli_lists_demos_one_a_line_and_writes_a_still():
    r = run("demo")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == ["kdak-collapse", "throwdown-scrapyard", "ziggurat-shake",
                                               "carcassonne-tower", "elevation-tip"]
    assert all(len(ln.split(None, 1)) == 2 for ln in lines), "each line says what the demo shows"


def test_demo_and_replay_stills(tmp_path):
    png = tmp_path / "still.png"
    r = run("demo", "throwdown-scrapyard", "--png", str(png), "--at", "1.5", "--size", "200x120")
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = short_record(tmp_path / "short.tower.json")
    png2 = tmp_path / "replay.png"
    r = run("replay", record, "--png", str(png2), "--size", "200x120")
    assert r.returncode == 0, r.stderr
    assert png2.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_replay_video_with_physical_crumbles(showbase, tmp_path):
    from towerworld.app.replay import render_replay
    from towerworld.engine.record import load_match
    from towerworld.scene.video import video_info
    match = load_match(short_record(tmp_path / "r.tower.json", plies=6))
    out = str(tmp_path / "replay.mp4")
    render_replay(match, video=out, fps=4, size=(128, 80), speed=2.0, physics=True, quiet=True)
    info = video_info(out)
    assert info["codec"] == "h264" and info["size"] == (128, 80) and info["fps"] == 4


@pytest.mark.parametrize("args", [
    ("replay", "x.tower.json", "--speed", "0"),
    ("replay", "x.tower.json", "--speed", "-1.5"),
    ("demo", "kdak-collapse", "--video", "out.avi"),
    ("demo", "kdak-collapse", "--video", "out.mp4", "--fps", "0"),
    ("demo", "kdak-collapse", "--png", "x.png", "--at", "99"),
    ("demo", "no-such-demo"),
])
def test_bad_replay_and_demo_options_get_one_sentence(args, tmp_path):
    r = subprocess.run([sys.executable, "-m", "towerworld", *args], capture_output=True, text=True, timeout=120,
                       cwd=tmp_path, env={**os.environ, "EGL_PLATFORM": "surfaceless"})
    assert r.returncode == 2
    assert one_sentence(r.stderr), r.stderr


def test_a_demo_window_runs_offscreen(showbase):
    from towerworld.demos.viewer import DemoWindow
    window = DemoWindow("carcassonne-tower", size=(320, 200), frames=30)
    window.toggle_pause()
    window.toggle_pause()
    window.cycle_speed()
    assert window.speed == 0.25
    assert window.run() == 0
    assert window.clock > 0


@pytest.fixture
def replay_table(showbase, tmp_path):
    from towerworld.app.replay import ReplayTable
    from towerworld.engine.record import load_match
    match = load_match(short_record(tmp_path / "t.tower.json", plies=10))
    table = ReplayTable(match, size=(320, 200))
    yield table
    table.close()


def shown(table, ply):
    return table.game.layout(table.match.state_at(ply), table.viewer)


def test_end_during_playback_shows_the_last_position(replay_table):
    t = replay_table
    t.step(1)
    t.step(1)
    assert t.animating
    t.base.messenger.send("end")
    for _ in range(5):
        t.base.taskMgr.step()
    n = len(t.match.plies)
    assert t.ply == n and not t.playing
    assert t.stage.layout == shown(t, n)
    for pid, pose in shown(t, n).pieces.items():
        assert tuple(t.stage.nodes[pid].getPos()) == pytest.approx((pose.x, pose.y, pose.z), abs=1e-3)


def test_comma_period_home_and_brackets_work(replay_table):
    t = replay_table
    t.playing = False
    t.base.messenger.send(".")
    assert t.ply == 1
    t.base.messenger.send(".")
    t.base.messenger.send(",")
    assert t.ply == 1 and t.stage.layout == shown(t, 1)
    t.base.messenger.send("home")
    assert t.ply == 0 and t.stage.layout == shown(t, 0)
    speed = t.speed
    t.base.messenger.send("]")
    assert t.speed > speed
    t.base.messenger.send("[")
    t.base.messenger.send("[")
    assert t.speed < speed
    assert f"speed {t.speed:g}x" in t.speed_label["text"]


def test_dragging_the_timeline_jumps_at_once(replay_table):
    t = replay_table
    t.slider["value"] = 7
    t.slider.commandFunc()          # what a drag of the thumb calls
    assert t.ply == 7 and not t.playing
    assert t.stage.layout == shown(t, 7)
    t.jump(3)
    assert round(t.slider["value"]) == 3
