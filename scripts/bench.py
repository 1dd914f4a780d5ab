#!/usr/bin/env python3
"""Speed goals, measured in one run and printed as a table. Not a test: nothing here asserts.

Rows: random games per second for every registered game; each game's own rows (towerworld/games/<g>/bench.py);
the stage (update per move vs rebuilding the scene), scene size in geoms, and startup to first frame vs a bare ShowBase.
"""
from __future__ import annotations

import importlib
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

from towerworld.engine.registry import all_games  # noqa: E402
from towerworld.engine.agent import ask


def random_games(game, seconds: float = 2.0) -> tuple[float, float]:
    """(games per second, median ms per game) of uniformly random play from the start."""
    rng = random.Random(7)
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 3:
        t = time.perf_counter()
        game.random_playout(game.new_state(), rng)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), statistics.median(times) * 1000


def agent_rows() -> list[tuple[str, str, str]]:
    """Seconds per move of the default opponent (MCTS, level normal) over the first decisions of a K'Dak game."""
    from towerworld.ai import make_agent
    from towerworld.engine.game import CHANCE, OMNISCIENT
    from towerworld.engine.registry import get_game
    game = get_game("kdak")
    agent = make_agent("mcts", game, seed=1)
    rng = random.Random(1)
    state, times = game.new_state(), []
    while len(times) < 4 and not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            move = game.sample_chance(state, rng)
        else:
            t = time.perf_counter()
            move = ask(agent, game, state)
            times.append(time.perf_counter() - t)
        state, _ = game.apply_unchecked(state, move)
    return [("K'Dak default opponent (mcts, normal): seconds per move", f"{statistics.mean(times):.2f} s "
             f"(max {max(times):.2f})", "about 1 s")]


def stage_rows() -> list[tuple[str, str, str]]:
    from towerworld.engine.match import Match
    from towerworld.engine.registry import get_game
    from towerworld.scene import components
    from towerworld.scene.offscreen import base
    from towerworld.scene.stage import Stage
    from panda3d.core import SceneGraphAnalyzer

    b = base(640, 400)
    game = get_game("kdak")
    match = Match(game, seed=3)
    rng = random.Random(3)
    layouts, events = [game.layout(match.state, OMNISCIENT)], [[]]
    while not match.over and len(layouts) < 60:
        if match.current_player < 0:
            ev = match.play_chance(save=False)
        else:
            moves = game.legal_moves(match.state)
            ev = match.apply(moves[rng.randrange(len(moves))], save=False)
        layouts.append(game.layout(match.state, OMNISCIENT))
        events.append(ev)
    stage = Stage(b.render)
    stage.show(layouts[0])
    t = time.perf_counter()
    for i in range(1, len(layouts)):
        ival = stage.transition(layouts[i - 1], layouts[i], events[i])
        ival.start()
        ival.finish()
    update = (time.perf_counter() - t) / (len(layouts) - 1)
    t = time.perf_counter()
    reps = 5
    for _ in range(reps):
        components.clear_cache()
        fresh = Stage(b.render)
        fresh.show(layouts[-1])
        fresh.root.removeNode()
    rebuild = (time.perf_counter() - t) / reps
    sga = SceneGraphAnalyzer()
    sga.addNode(stage.root.node())
    stage.root.removeNode()
    return [("K'Dak stage update per move (animated transition)", f"{update * 1000:.2f} ms", ""),
            ("K'Dak scene rebuild from scratch", f"{rebuild * 1000:.2f} ms", ""),
            ("rebuild / update ratio", f"{rebuild / update:.1f}x", ">= 20x"),
            ("K'Dak scene geoms (each about one draw call)", f"{sga.getNumGeoms()}", "")]


def startup_rows() -> list[tuple[str, str, str]]:
    env = dict(os.environ, EGL_PLATFORM="surfaceless")
    bare = ("from panda3d.core import loadPrcFileData; loadPrcFileData('', 'load-display p3headlessgl\\n"
            "window-type offscreen\\naudio-library-name null\\nnotify-level-device fatal');"
            "from direct.showbase.ShowBase import ShowBase; b = ShowBase(); b.graphicsEngine.renderFrame()")
    ours = "import sys; from towerworld.cli import main; sys.exit(main(['play', 'kdak', '--players', 'human,random', '--frames', '1']))"

    def timed(code: str) -> float:
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
            best = min(best, time.perf_counter() - t)
        return best
    a, b = timed(bare), timed(ours)
    return [("bare ShowBase to first frame", f"{a * 1000:.0f} ms", ""),
            ("towerworld play kdak to first frame", f"{b * 1000:.0f} ms", ""),
            ("startup ratio (ours / bare)", f"{b / a:.2f}x", "<= 2x")]


def main() -> int:
    rows: list[tuple[str, str, str]] = []
    for name, game in all_games().items():
        per_s, ms = random_games(game)
        goal = "< 2 ms/game" if name == "kdak" else ""
        rows.append((f"{name}: random games per second", f"{per_s:.0f}/s ({ms:.2f} ms median)", goal))
        try:
            extra = importlib.import_module(f"towerworld.games.{name}.bench")
        except ModuleNotFoundError:
            continue
        rows += extra.bench_rows()
    if "kdak" in all_games():
        rows += agent_rows()
        rows += stage_rows()
        rows += startup_rows()
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':{width}s}  {'value':>28s}  goal")
    print("-" * (width + 40))
    for label, value, goal in rows:
        print(f"{label:{width}s}  {value:>28s}  {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
