#!/usr/bin/env python3
"""Speed goals, measured in one run: a table on stdout and, with `--json FILE`, every figure under a stable name.

Not a test: nothing here asserts. Each figure is a row (name, value, goal, unit):
- name: stable snake_case, the JSON key (e.g. `stage_ratio_kdak`); the issues and the docs quote these names;
- value: a number;
- goal: "" (reported only) or a comparison with a number, e.g. ">= 20", "<= 2", "< 10";
- unit: a few letters for people ("ms", "/s", "x", "us").
The JSON is {name: {"value", "goal", "unit", "met"}}, `met` being true, false, or null where there is no goal.

Where rows come from: this script measures what spans the games (random play, search rates, the stage, startup and
memory, physics demos); each game package may add its own rows with `bench_rows()` in `towerworld/games/GAME/bench.py`,
returning such 4-tuples. (Older 3-tuples of text, (label, value text, goal text), are still read: the name is made from
the label and the number read from the text, until every game returns 4-tuples.)

Honest measuring: every figure is a median of repeated runs after a warm-up run; the two sides of a ratio do the same
work (the stage ratio compares a warm per-move update with a rebuild of the same position while the model cache is
warm, as a player's table has it); search rates are taken after the search has been set up once.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Iterable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

from towerworld.engine.agent import ask  # noqa: E402
from towerworld.engine.game import CHANCE, OMNISCIENT, TERMINAL, Game  # noqa: E402
from towerworld.engine.registry import all_games  # noqa: E402

STARTUP_GAME = "kdak"        # the game the startup and memory figures open (the first game on the start screen)
GOAL = re.compile(r"^\s*(<=|>=|<|>)\s*([0-9][0-9,]*(?:\.[0-9]+)?)")
NUMBER = re.compile(r"-?[0-9][0-9,]*(?:\.[0-9]+)?")


@dataclass(frozen=True)
class Row:
    name: str
    value: float
    goal: str = ""
    unit: str = ""

    def met(self) -> bool | None:
        found = GOAL.match(self.goal)
        if not found:
            return None
        op, bound = found.group(1), float(found.group(2).replace(",", ""))
        return {"<": self.value < bound, "<=": self.value <= bound, ">": self.value > bound,
                ">=": self.value >= bound}[op]


def as_row(raw: tuple, prefix: str = "") -> Row:
    """A Row from a 4-tuple (name, value, goal, unit) or an older 3-tuple of text (label, value text, goal text)."""
    if len(raw) == 4:
        name, value, goal, unit = raw
        return Row(str(name), float(value), str(goal), str(unit))
    label, text, goal_text = raw
    number = NUMBER.search(str(text))
    found = GOAL.match(str(goal_text))
    goal = f"{found.group(1)} {found.group(2).replace(',', '')}" if found else ""
    slug = re.sub(r"[^a-z0-9]+", "_", str(label).lower()).strip("_")
    if prefix and not slug.startswith(prefix):
        slug = f"{prefix}_{slug}"
    return Row(slug, float(number.group(0).replace(",", "")) if number else float("nan"), goal, "")


def median_of(runs: int, measure: Callable[[], float], warm: bool = True) -> float:
    """The median of `runs` measurements, after one unmeasured warm-up run."""
    if warm:
        measure()
    return statistics.median(measure() for _ in range(runs))


# ---- positions -------------------------------------------------------------------------------------------------------
def random_decisions(game: Game, count: int, seed: int, options: dict | None = None) -> list:
    """`count` decision states from random games (start, opening, middle game), chance resolved."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_state(options)
        for _ in range(rng.randrange(0, 40)):
            state = _settle(game, state, rng)
            if game.current_player(state) == TERMINAL:
                break
            moves = game.legal_moves(state)
            state, _ = game.apply_unchecked(state, moves[rng.randrange(len(moves))])
        state = _settle(game, state, rng)
        if game.current_player(state) >= 0 and len(game.legal_moves(state)) > 1:
            out.append(state)
    return out


def _settle(game: Game, state, rng: random.Random):
    while game.current_player(state) == CHANCE:
        state, _ = game.apply_unchecked(state, game.sample_chance(state, rng))
    return state


# ---- rows spanning the games -----------------------------------------------------------------------------------------
def random_play_rows(name: str, game: Game) -> list[Row]:
    rng = random.Random(7)
    times = []
    begin = time.perf_counter()
    while time.perf_counter() - begin < 1.0 or len(times) < 5:
        t = time.perf_counter()
        game.random_playout(game.new_state(), rng)
        times.append(time.perf_counter() - t)
    ms = statistics.median(times) * 1000
    return [Row(f"random_game_ms_{name}", round(ms, 3), "", "ms"),
            Row(f"random_games_per_s_{name}", round(1000 / ms, 1), "", "/s")]


# issue #15: simulations a second the default search must reach for search to play well
SEARCH_GOALS = {"kdak": ">= 5000", "elevation": ">= 4000", "ziggurat": ">= 5000"}


def search_rows(name: str, game: Game) -> list[Row]:
    """Simulations per second of MCTS (a quarter second a move: the game's own `mcts` where it has one) and iterations
    per second of IS-MCTS, median over positions."""
    from towerworld.ai.agents import make_agent
    rows = []
    positions = random_decisions(game, 4, seed=3)
    for agent_name, figure in (("mcts", "mcts_sims_per_s"), ("ismcts", "ismcts_iterations_per_s")):
        try:
            agent = make_agent(agent_name, game, seed=1, level="0.25")
        except Exception as e:         # no OpenSpiel here: say so and go on
            print(f"{figure}_{name}: skipped ({e})", file=sys.stderr)
            continue
        ask(agent, game, positions[0])     # warm: imports, the adapter's tables
        rates = []
        for state in positions:
            t = time.perf_counter()
            ask(agent, game, state)
            done = getattr(agent, "last_simulations", None) or getattr(agent, "last_iterations", 0)
            rates.append(done / (time.perf_counter() - t))
        goal = SEARCH_GOALS.get(name, "") if agent_name == "mcts" else ""
        rows.append(Row(f"{figure}_{name}", round(statistics.median(rates)), goal, "/s"))
    return rows


def default_opponent_rows(name: str, game: Game) -> list[Row]:
    """Seconds per move of the default opponent (MCTS, level normal): the level promises about one second."""
    from towerworld.ai.agents import make_agent
    agent = make_agent("mcts", game, seed=1)
    times = []
    for state in random_decisions(game, 3, seed=5):
        t = time.perf_counter()
        ask(agent, game, state)
        times.append(time.perf_counter() - t)
    return [Row(f"default_opponent_s_per_move_{name}", round(statistics.median(times), 3), "<= 1.2", "s")]


def stage_rows(name: str, game: Game) -> list[Row]:
    """The stage: a warm update per move against a rebuild of the same position (model cache warm), and the geoms
    (about one draw call each) of a finished game's table."""
    from towerworld.engine.match import Match
    from towerworld.scene.components import missing_models
    from towerworld.scene.offscreen import base
    from towerworld.scene.stage import Stage

    if missing_models(game.layout(game.new_state(), OMNISCIENT)):
        return []
    b = base(640, 400)
    match = Match(game, seed=3)
    rng = random.Random(3)
    steps = [(game.layout(match.state, OMNISCIENT), [])]
    while not match.over and len(steps) < 61:
        if match.current_player < 0:
            events = match.play_chance(save=False)
        else:
            moves = game.legal_moves(match.state)
            events = match.apply(moves[rng.randrange(len(moves))], save=False)
        steps.append((game.layout(match.state, OMNISCIENT), events))

    stage = Stage(b.render)
    stage.show(steps[0][0])
    updates, rebuilds = [], []
    for i in range(1, len(steps)):
        t = time.perf_counter()
        interval = stage.transition(steps[i - 1][0], steps[i][0], steps[i][1])
        interval.start()
        interval.finish()
        updates.append(time.perf_counter() - t)
    stage.root.removeNode()
    for timed in (False, True):                 # the same positions rebuilt: once to warm the model cache, then timed
        for layout, _ in steps[1::2]:
            t = time.perf_counter()
            fresh = Stage(b.render)
            fresh.show(layout)
            if timed:
                rebuilds.append(time.perf_counter() - t)
            fresh.root.removeNode()
    update, rebuild = statistics.median(updates[1:]), statistics.median(rebuilds)

    while not match.over:                       # a finished game's table, for the draw calls
        if match.current_player < 0:
            match.play_chance(save=False)
        else:
            moves = game.legal_moves(match.state)
            match.apply(moves[rng.randrange(len(moves))], save=False)
    full = Stage(b.render)
    full.show(game.layout(match.state, OMNISCIENT))
    # geoms drawn: a big board's resting pieces draw through one combined copy, their own models hidden
    drawn = sum(path.node().getNumGeoms() for path in full.root.findAllMatches("**/+GeomNode") if not path.isHidden())
    full.root.removeNode()
    return [Row(f"stage_update_ms_{name}", round(update * 1000, 3), "", "ms"),
            Row(f"stage_rebuild_ms_{name}", round(rebuild * 1000, 3), "", "ms"),
            Row(f"stage_ratio_{name}", round(rebuild / update, 2), ">= 20", "x"),
            Row(f"{name}_draw_calls_full_board", drawn, "<= 60", "geoms")]


# the two sides of the startup ratios: a bare ShowBase doing what our command does (first frame; first frame saved)
_PRC = ("from panda3d.core import loadPrcFileData; loadPrcFileData('', 'load-display p3headlessgl\\n"
        "window-type offscreen\\naudio-library-name null\\nnotify-level-device fatal\\nwin-size 1280 800')\n")
BARE_FRAME = _PRC + "from direct.showbase.ShowBase import ShowBase\nb = ShowBase()\nb.graphicsEngine.renderFrame()\n"
BARE_PICTURE = BARE_FRAME + "b.graphicsEngine.renderFrame()\nb.win.saveScreenshot({out!r})\n"
OUR_FRAME = ("from towerworld.cli import main\n"
             f"main(['play', {STARTUP_GAME!r}, '--players', 'human,random', '--frames', '1'])\n")
OUR_PICTURE = f"from towerworld.cli import main\nmain(['render', {STARTUP_GAME!r}, '--out', {{out!r}}])\n"
PEAK = ("\nimport resource, sys\n"
        "sys.stderr.write('\\npeak-kb %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")


def _run_script(code: str) -> tuple[float, int]:
    """(seconds, peak resident kB) of a fresh Python process running `code` (its startup included)."""
    env = dict(os.environ, EGL_PLATFORM="surfaceless")
    with tempfile.TemporaryDirectory() as folder:
        code = code.format(out=os.path.join(folder, "shot.png"))
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code + PEAK], env=env, capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), timeout=120)
        seconds = time.perf_counter() - t
    peak = re.findall(r"peak-kb (\d+)", done.stderr)
    if done.returncode != 0 or not peak:
        raise RuntimeError(f"startup script failed: {done.stderr.strip()[-300:]}")
    return seconds, int(peak[-1])


def startup_rows() -> list[Row]:
    """Startup to the first frame and to a saved picture, and the picture's peak memory, against a bare ShowBase.
    Medians of three runs after a warm-up run (the disk cache warm, as for a player who has run it before)."""
    runs = {}
    for label, code in (("bare_frame", BARE_FRAME), ("our_frame", OUR_FRAME), ("bare_picture", BARE_PICTURE),
                        ("our_picture", OUR_PICTURE)):
        _run_script(code)
        samples = [_run_script(code) for _ in range(3)]
        runs[label] = (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
    return [Row("startup_bare_ms", round(runs["bare_frame"][0] * 1000), "", "ms"),
            Row("startup_play_ms", round(runs["our_frame"][0] * 1000), "", "ms"),
            Row("startup_play_ratio", round(runs["our_frame"][0] / runs["bare_frame"][0], 2), "<= 2", "x"),
            Row("startup_render_ratio", round(runs["our_picture"][0] / runs["bare_picture"][0], 2), "<= 2", "x"),
            Row("render_memory_mb", round(runs["our_picture"][1] / 1024), "", "MB"),
            Row("render_memory_ratio", round(runs["our_picture"][1] / runs["bare_picture"][1], 2), "<= 2", "x")]


def physics_rows() -> list[Row]:
    """How much faster than real time each physics demo steps (simulated seconds per wall second), median of 3."""
    try:
        from towerworld.demos import get_demo, names
        from towerworld.demos.base import DemoRun
    except ImportError:
        return []
    rows = []
    for name in names():
        demo = get_demo(name)

        def measure() -> float:
            run = DemoRun(demo, seed=1)
            t = time.perf_counter()
            run.run()
            return demo.seconds / (time.perf_counter() - t)
        rows.append(Row(f"physics_realtime_ratio_{name.replace('-', '_')}", round(median_of(3, measure), 2), ">= 1",
                        "x"))
    return rows


def frame_rows(name: str) -> list[Row]:
    """Frame time at the table while the default opponent thinks in its worker process, against an idle table (the
    search must not stall the window: goal within 1.5x). On a busy 2-core machine the worker competes with the
    renderer for a core, so measure on a quiet one."""
    from towerworld.app.bench import frame_time_rows
    return [Row(n, v, g, u) for n, v, g, u in frame_time_rows(name)]


def game_rows(name: str) -> list[Row]:
    try:
        module = importlib.import_module(f"towerworld.games.{name}.bench")
    except ModuleNotFoundError:
        return []
    return [as_row(raw, name) for raw in module.bench_rows()]


# ---- the run ---------------------------------------------------------------------------------------------------------
def sections() -> Iterable[tuple[str, Callable[[], list[Row]]]]:
    games = all_games()
    for name, game in games.items():
        yield f"random play ({name})", lambda n=name, g=game: random_play_rows(n, g)
        yield f"{name} bench rows", lambda n=name: game_rows(n)
        yield f"search ({name})", lambda n=name, g=game: search_rows(n, g)
        yield f"stage ({name})", lambda n=name, g=game: stage_rows(n, g)
    if STARTUP_GAME in games:
        yield "default opponent", lambda: default_opponent_rows(STARTUP_GAME, games[STARTUP_GAME])
        yield "startup and memory", startup_rows
        yield "frame time while the AI thinks", lambda: frame_rows(STARTUP_GAME)
    yield "physics demos", physics_rows


def _shown(value: float) -> str:
    if value != value:
        return "?"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def print_table(rows: list[Row]) -> None:
    width = max(len(r.name) for r in rows)
    print(f"{'figure':{width}s}  {'value':>14s}  {'unit':6s} {'goal':10s} met")
    print("-" * (width + 40))
    for r in rows:
        met = r.met()
        print(f"{r.name:{width}s}  {_shown(r.value):>14s}  {r.unit:6s} {r.goal:10s} "
              f"{'' if met is None else 'yes' if met else 'NO'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--only", metavar="WORDS", help="comma-separated words: run the sections naming one")
    args = parser.parse_args(argv)
    only = {w.strip() for w in args.only.split(",")} if args.only else None
    rows: list[Row] = []
    failed = []
    for title, section in sections():
        if only and not any(word in title for word in only):
            continue
        t = time.perf_counter()
        try:
            rows += section()
        except Exception as e:      # one broken section must not hide the others' figures
            failed.append(title)
            print(f"{title}: failed ({type(e).__name__}: {e})", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
        print(f"{title}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    if rows:
        print_table(rows)
    if args.json:
        # an old row whose text held no number has NaN, which JSON cannot hold: null
        data = {r.name: {"value": None if r.value != r.value else r.value, "goal": r.goal, "unit": r.unit,
                         "met": r.met()} for r in rows}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        print(f"wrote {args.json}", file=sys.stderr)
    if failed:
        print(f"failed sections: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
