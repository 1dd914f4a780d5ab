"""The first frame of `play` loads only what it needs: no search library, no physics engine, no plotting and no video
encoder until something uses them (startup is measured in scripts/bench.py, startup_play_ratio)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# loaded only when used: OpenSpiel (research), Ray (ladders on a cluster), matplotlib (ladder charts), Bullet (physical
# crumbles and demos), numpy (the adapter and the ladder), the video encoder, the network (asyncio, websockets,
# msgspec), the AI's worker process (multiprocessing, on an AI seat's first turn)
NOT_AT_THE_FIRST_FRAME = ("pyspiel", "open_spiel", "ray", "matplotlib", "panda3d.bullet", "numpy", "scipy",
                          "imageio_ffmpeg", "imageio", "asyncio", "websockets", "msgspec", "multiprocessing")


def loaded_after(argv: list[str]) -> set[str]:
    code = ("import sys\nfrom towerworld.cli import main\n"
            f"main({argv!r})\n"
            "print('LOADED', ' '.join(sorted(sys.modules)))\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), EGL_PLATFORM="surfaceless")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("LOADED "))
    return set(line.split()[1:])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in NOT_AT_THE_FIRST_FRAME))


def test_the_first_frame_of_play_loads_no_search_physics_plotting_or_video_library():
    modules = loaded_after(["play", "kdak", "--players", "human,random", "--frames", "1"])
    assert "towerworld.scene.stage" in modules, "the table was built"
    assert heavy(modules) == []


def test_the_check_catches_a_heavy_import():
    assert heavy({"numpy.core", "panda3d.bullet", "panda3d.core", "towerworld"}) == ["numpy.core", "panda3d.bullet"]


def test_games_simulate_and_check_load_no_window_network_or_plotting(tmp_path):
    """The headless commands import none of what only a window, the network or the ladder needs: 'towerworld
    simulate' plays and saves a game and 'towerworld check' replays it without Panda3D, asyncio, websockets or
    numpy (the command line imports those inside the commands that use them)."""
    window_and_more = ("panda3d", "direct", "asyncio", "websockets", "msgspec", "numpy", "multiprocessing")
    for argv in (["games"], ["simulate", "kdak", "--games", "1", "--seed", "2", "--out", str(tmp_path)]):
        modules = loaded_after(argv)
        assert [m for m in modules if m.split(".")[0] in window_and_more] == [], argv
    records = sorted(str(p) for p in tmp_path.glob("*.tower.json"))
    assert records, "simulate saved its game"
    modules = loaded_after(["check"] + records)
    assert "towerworld.engine.record" in modules
    assert sorted(m for m in modules if m.split(".")[0] in window_and_more) == []
