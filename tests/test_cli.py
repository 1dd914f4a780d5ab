"""The command line as a person meets it: every bad input is one sentence and a non-zero exit, never a traceback."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, timeout=300):
    env = dict(os.environ, EGL_PLATFORM="surfaceless", PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "towerworld", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def one_sentence(stream: str) -> bool:
    lines = [ln for ln in stream.strip().splitlines() if ln.strip()]
    return len(lines) == 1 and "Traceback" not in stream


def test_games_lists_every_game_with_variants():
    r = run("games")
    assert r.returncode == 0
    for name in ("kdak", "--variant solitaire"):
        assert name in r.stdout


@pytest.mark.parametrize("args", [
    ("play", "nosuchgame"),
    ("render", "kdak", "--out", "x.txt"),
    ("render", "kdak", "--size", "huge", "--out", "x.png"),
    ("simulate", "kdak", "--agents", "random,wizard", "--games", "1"),
    ("simulate", "kdak", "--variant", "nosuch"),
    ("simulate", "kdak", "-o", "talisman=maybe"),
    ("simulate", "kdak", "-o", "nosuch=1"),
    ("simulate", "kdak", "--games", "0"),
    ("replay", "/nonexistent/file.tower.json"),
    ("frobnicate",),
])
def test_bad_input_is_one_sentence(args):
    r = run(*args)
    assert r.returncode != 0
    assert one_sentence(r.stderr), r.stderr


def test_simulate_writes_records_that_check_accepts(tmp_path):
    r = run("simulate", "kdak", "--agents", "random,greedy", "--games", "3", "--seed", "4", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and "wins" in r.stdout
    files = sorted(str(p) for p in tmp_path.glob("*.tower.json"))
    assert len(files) == 3
    c = run("check", *files)
    assert c.returncode == 0, c.stdout
    assert c.stdout.count(": ok,") == 3


def test_check_names_the_file_and_the_ply(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "9", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    record = json.loads(path.read_text())
    record["moves"][5] = "fly to the moon"
    bad = tmp_path / "bad.tower.json"
    bad.write_text(json.dumps(record))
    c = run("check", str(path), str(bad))
    assert c.returncode == 1
    line = next(ln for ln in c.stdout.splitlines() if ln.startswith(str(bad)))
    assert "Ply 6" in line


def test_render_writes_a_png_of_a_record_position(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "2", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    out = tmp_path / "pos.png"
    r = run("render", str(path), "--ply", "10", "--size", "320x200", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("render", str(path), "--ply", "100000", "--out", str(out))
    assert r.returncode != 0 and one_sentence(r.stderr)


def test_replay_and_play_open_offscreen(tmp_path):
    r = run("simulate", "kdak", "--games", "1", "--seed", "3", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    path = next(tmp_path.glob("*.tower.json"))
    assert run("replay", str(path), "--frames", "30").returncode == 0
    assert run("play", "--load", str(path), "--players", "human,human", "--frames", "5").returncode == 0


def test_simulate_a_solitaire_reports_wins_by_score():
    r = run("simulate", "kdak", "--variant", "solitaire", "--agents", "random", "--games", "3", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "won, by score:" in r.stdout and "not won:" in r.stdout


def test_play_without_a_display_says_so_in_one_sentence():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(EGL_PLATFORM="surfaceless", PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "towerworld", "play", "kdak"], capture_output=True, text=True,
                       timeout=120, env=env, cwd=ROOT)
    assert r.returncode != 0
    assert one_sentence(r.stderr), r.stderr
    assert "desktop session" in r.stderr
