#!/usr/bin/env python3
"""Speed goals, measured in one run: a table on stdout and, with `--json FILE`, every figure under a stable name.

Not a test: nothing here asserts. Each figure is a row (name, value, goal, unit):
- name: stable snake_case, the JSON key (e.g. `stage_ratio_kdak`); the issues and the docs quote these names;
- value: a number;
- goal: "" (reported only) or a comparison with a number, e.g. ">= 20", "<= 2", "< 10";
- unit: a few letters for people ("ms", "/s", "x", "us").
- note: where a goal is not met, how far (a factor) and why, in a few words from what was measured.
The JSON is {name: {"value", "goal", "unit", "met", "note"}}, `met` being true, false, or null where there is no goal;
"note" only where there is one.

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
import gc
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
from dataclasses import dataclass, replace
from typing import Callable, Iterable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("EGL_PLATFORM", "surfaceless")

from towerworld.engine.agent import ask  # noqa: E402
from towerworld.engine.driver import CHANCE_DRAW, Driver, answer_chance  # noqa: E402
from towerworld.engine.game import CHANCE, OMNISCIENT, TERMINAL, Game  # noqa: E402
from towerworld.engine.registry import all_games  # noqa: E402

STARTUP_GAME = "kdak"        # the game the startup and memory figures open (the first game on the start screen)
STAGE_MOVES = 60             # moves whose warm update the stage rows time (and half as many positions rebuilt)
STAGE_ROUNDS = 3             # timed passes of each side of the stage ratio, taking turns; the rows are medians
STARTUP_ROUNDS = 5           # timed runs of each startup command (after one warm-up run each); the rows are medians
GOAL = re.compile(r"^\s*(<=|>=|<|>)\s*([0-9][0-9,]*(?:\.[0-9]+)?)")
NUMBER = re.compile(r"-?[0-9][0-9,]*(?:\.[0-9]+)?")


@dataclass(frozen=True)
class Row:
    name: str
    value: float
    goal: str = ""
    unit: str = ""
    note: str = ""       # where a goal is not met: how far, and why (measured, in a few words)

    def met(self) -> bool | None:
        found = GOAL.match(self.goal)
        if not found:
            return None
        op, bound = found.group(1), float(found.group(2).replace(",", ""))
        return {"<": self.value < bound, "<=": self.value <= bound, ">": self.value > bound,
                ">=": self.value >= bound}[op]


def as_row(raw: tuple, prefix: str = "") -> Row:
    """A Row from a 4-tuple (name, value, goal, unit), a 5-tuple with a note, or an older 3-tuple of text (label,
    value text, goal text)."""
    if len(raw) in (4, 5):
        name, value, goal, unit = raw[:4]
        return Row(str(name), float(value), str(goal), str(unit), str(raw[4]) if len(raw) == 5 else "")
    label, text, goal_text = raw
    number = NUMBER.search(str(text))
    found = GOAL.match(str(goal_text))
    goal = f"{found.group(1)} {found.group(2).replace(',', '')}" if found else ""
    slug = re.sub(r"[^a-z0-9]+", "_", str(label).lower()).strip("_")
    if prefix and not slug.startswith(prefix):
        slug = f"{prefix}_{slug}"
    return Row(slug, float(number.group(0).replace(",", "")) if number else float("nan"), goal, "")


def short_by(value: float, goal: str) -> str:
    """How far `value` is from a goal like ">= 20" or "<= 2", as a factor: "3.1x short of >= 20"."""
    found = GOAL.match(goal)
    if not found or value <= 0:
        return f"goal {goal} not met"
    bound = float(found.group(2).replace(",", ""))
    factor = bound / value if found.group(1).startswith(">") else value / bound
    return f"{factor:.2f}x short of {goal.replace(' ', '')}"


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


# simulations a second the default search must reach for search to play well
SEARCH_GOALS = {"kdak": ">= 5000", "elevation": ">= 4000", "ziggurat": ">= 5000"}
SEARCH_BUDGET = "1000it"      # the goal games' MCTS rows: a fixed simulation budget, the same work in every run
# why a goal game's MCTS falls short, from profiles of `search` (shown only when a row misses its goal)
SEARCH_WHY = {
    "kdak": "the climbing playouts (games/kdak/rules.py playout) are about 80% of a simulation",
    "ziggurat": "the placing playouts (games/ziggurat/rules.py) are about 80% of a simulation, "
                "8 determinizations share the budget",
    "elevation": "of the default opponent's move (strategy.py) the simulations are about three fifths (a node's "
                 "candidates, and the evaluation at the leaf: static_eval, about two fifths of it _siege_parts), the "
                 "plan search a quarter (forcing_turn over every turn, likely_replies ranking the other side's), "
                 "ranking the root's children a tenth; turn generation (rules.py) is under a tenth",
}


def search_rows(name: str, game: Game) -> list[Row]:
    """Simulations per CPU second of MCTS (the game's own `mcts` where it has one; 1,000 simulations a move for the
    games with a goal, a quarter second for the others) and iterations per CPU second of IS-MCTS (a quarter second),
    median over positions. CPU time of this process, not the clock on the wall: on a shared machine the clock
    measures the other jobs too (under a load of 6 on 2 cores a search got about a third of a core)."""
    from towerworld.ai.agents import make_agent
    rows = []
    positions = random_decisions(game, 4, seed=3)
    for agent_name, figure in (("mcts", "mcts_sims_per_s"), ("ismcts", "ismcts_iterations_per_s")):
        level = SEARCH_BUDGET if agent_name == "mcts" and name in SEARCH_GOALS else "0.25"
        try:
            agent = make_agent(agent_name, game, seed=1, level=level)
        except Exception as e:         # no OpenSpiel here: say so and go on
            print(f"{figure}_{name}: skipped ({e})", file=sys.stderr)
            continue
        ask(agent, game, positions[0])     # warm: imports, the adapter's tables
        rates = []
        for state in positions:
            t = time.process_time()
            ask(agent, game, state)
            done = getattr(agent, "last_simulations", None) or getattr(agent, "last_iterations", 0)
            rates.append(done / (time.process_time() - t))
        goal = SEARCH_GOALS.get(name, "") if agent_name == "mcts" else ""
        row = Row(f"{figure}_{name}", round(statistics.median(rates)), goal, "/cpu s")
        if row.met() is False:
            row = replace(row, note=f"{short_by(row.value, goal)}: {SEARCH_WHY.get(name, 'see a profile')}")
        rows.append(row)
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


def stage_games(game: Game, moves: int) -> tuple[list[list[tuple]], Driver]:
    """The stage rows' games: (layout, events) from a new game on, `moves` moves of random play in all, with the last
    game's driver (its match and random player, to be played on). A game that ends sooner is followed by another (a
    Ziggurat deal a random player gives up after six moves would make the median one of six). A run of chance
    outcomes is one step, as the table shows it."""
    from towerworld.ai.simple import RandomAgent
    from towerworld.engine.match import Match
    games: list[list[tuple]] = []
    seed = 3
    while sum(len(g) - 1 for g in games) < moves:
        match = Match(game, seed=seed)
        driver = Driver.with_agents(match, dict.fromkeys(range(len(match.players)), RandomAgent(seed)), match.rng)
        steps: list[tuple] = [(game.layout(match.state, OMNISCIENT), [])]
        while not match.over and sum(len(g) - 1 for g in games) + len(steps) - 1 < moves:
            events = answer_chance(match) if driver.pending().kind == CHANCE_DRAW else driver.run(1)
            steps.append((game.layout(match.state, OMNISCIENT), events))
        games.append(steps)
        seed += 1
    return games, driver


def stage_rows(name: str, game: Game) -> list[Row]:
    """The stage: a warm update per move against a rebuild of the same position, and the geoms (about one draw call
    each) of a finished game's table.

    The update is what the table does per move: the transition interval built, started and run to its end (which
    shows the new layout), over STAGE_MOVES moves of random play. Both sides are warm, as a player's table is: the
    moves are played once on a throwaway stage first (every face's model built, every label's glyphs made, as the
    rebuild side's caches are), then timed on fresh ones, STAGE_ROUNDS passes of each side in turn. A face seen for
    the first time (a card's painted texture) costs extra once, on neither side. Times are this process's CPU time:
    the stage's work is all here (no frame is drawn), and on a shared machine wall time would also count other
    processes' turns, more often in the longer rebuilds. Each timed window holds one update or one rebuild and no
    other clock call, and what an empty window reads (the clock's own cost) is taken off both medians; the note's
    breakdown (the interval's build, the combines) comes from one more pass of each. The full run calls this in a
    process of its own for each game (stage_rows_apart), as a player's table has one."""
    from towerworld.scene.components import missing_models
    from towerworld.scene.offscreen import base
    from towerworld.scene.stage import COMBINE_FROM, Stage, plan
    from towerworld.scene.timeline import Timeline, call, seq

    if missing_models(game.layout(game.new_state(), OMNISCIENT)):
        return []
    b = base(640, 400)
    games, driver = stage_games(game, STAGE_MOVES)
    updates, builds, rebuilds = [], [], []
    # of each timed update or rebuild, the part spent combining resting pieces
    update_combining: list[float] = []
    rebuild_combining: list[float] = []
    combining = update_combining                # where the combine being timed adds its time

    def timing_combine(stage: Stage) -> None:
        combine = stage.combine

        def timed_combine() -> None:
            t = time.process_time()
            combine()
            combining[-1] += time.process_time() - t
        stage.combine = timed_combine           # type: ignore[method-assign]

    def update_pass(timed: bool, parts: bool = False) -> None:
        """Every move's update, each game on a fresh stage; with `parts`, how long the interval's build and the
        combine took (the note's breakdown), in a pass of its own: clock calls inside the ratio's windows would be
        timed with the stage's work (three a move, each a system call of about 0.75 us here: 7% of a 31 us update
        and none of a table's work, against 0.4% of a rebuild)."""
        nonlocal combining
        combining = update_combining
        for steps in games:
            stage = Stage(b.render)
            stage.show(steps[0][0])
            if parts:
                timing_combine(stage)
            for i in range(1, len(steps)):
                if not parts:
                    t = time.process_time()
                    interval = stage.transition(steps[i - 1][0], steps[i][0], steps[i][1])
                    interval.start()
                    interval.finish()
                    if timed:
                        updates.append(time.process_time() - t)
                    continue
                combining.append(0.0)
                t = time.process_time()
                interval = stage.transition(steps[i - 1][0], steps[i][0], steps[i][1])
                builds.append(time.process_time() - t)
                interval.start()
                interval.finish()
            counts.append(len(stage.nodes))
            stage.root.removeNode()

    def rebuild_pass(timed: bool, parts: bool = False) -> None:
        """Every other position the moves reach, each built on a fresh stage (with `parts`: see update_pass)."""
        nonlocal combining
        combining = rebuild_combining
        for layout in positions[::2]:
            if parts:
                combining.append(0.0)
            t = time.process_time()
            fresh = Stage(b.render)
            if parts:
                timing_combine(fresh)
            fresh.show(layout)
            if timed:
                rebuilds.append(time.process_time() - t)
            fresh.root.removeNode()

    # Each side once to warm up, then STAGE_ROUNDS timed passes of each, taking turns: on a shared machine the load
    # changes from second to second, and turns spread it over both sides (on a machine loaded 7 on 2 cores the ratio
    # of one unchanged tree still moved by a third from run to run, turns or not: measure on a quiet one).
    # Within a pass a side stays warm, as a player's table is.
    positions = [layout for steps in games for layout, _ in steps[1:]]
    counts: list[int] = []
    update_pass(False)
    rebuild_pass(False)
    # what this process holds so far (the bench's own positions, what earlier sections made) is frozen out of the
    # collector's reach, as the app freezes what it has made by its first frame: a collection during a timed pass
    # walks what the stage made, not what happened to run before it in this process
    gc.collect()
    gc.freeze()
    try:
        for _ in range(STAGE_ROUNDS):
            update_pass(True)
            rebuild_pass(True)
        update_pass(False, parts=True)      # the note's breakdown, untimed for the ratio
        rebuild_pass(False, parts=True)
    finally:
        gc.unfreeze()
    pieces = max(counts)
    rebuilt = statistics.median(len(layout.pieces) for layout in positions[::2])    # pieces of a rebuilt position
    update_combined, rebuild_combined = statistics.median(update_combining), statistics.median(rebuild_combining)
    # each timed window holds the clock's own reading once (the end of one call and the start of the next, about
    # 0.5 us here: 2% of a 22 us update, 0.1% of a rebuild): what an empty window reads is no part of either side
    clock = median_of(201, _empty_window)
    update, rebuild = statistics.median(updates) - clock, statistics.median(rebuilds) - clock
    build = statistics.median(builds)
    moved = statistics.median(sum(len(phase) for phase in plan(steps[i - 1][0], steps[i][0], steps[i][1]))
                              for steps in games for i in range(1, len(steps)))
    def bare_interval() -> float:
        """An interval's start and finish alone: a timeline of one call, made before the clock starts."""
        timeline = Timeline(seq(call(len, ())), "stage-transition")
        return _timed(lambda: _run_interval(timeline))
    interval = median_of(31, bare_interval)

    driver.run()                                # a finished game's table, for the draw calls
    match = driver.match
    full = Stage(b.render)
    full.show(game.layout(match.state, OMNISCIENT))
    # geoms drawn: a big board's resting pieces draw through one combined copy, their own models hidden
    def geoms(root) -> int:
        return sum(path.node().getNumGeoms() for path in root.findAllMatches("**/+GeomNode") if not path.isHidden())
    drawn = geoms(full.root)
    full_pieces = len(full.nodes)
    clear_cells = sum(geoms(node) for node in full.cells.values() if node.getColorScale()[3] == 0)
    parts = {"pieces": geoms(full.pieces_root) + (geoms(full.combined) if full.combined is not None else 0),
             "labels": geoms(full.labels_root), "cells": geoms(full.cells_root)}
    full.root.removeNode()

    ratio = Row(f"stage_ratio_{name}", round(rebuild / update, 2), ">= 20", "x")
    if not ratio.met():
        combined = (f"{rebuild_combined * 1000:.2f} ms of it combining them" if pieces >= COMBINE_FROM else
                    f"too few to be combined, below {COMBINE_FROM}")
        why = (f"a rebuild of up to {pieces} pieces is only {rebuild * 1000:.2f} ms with models and labels cached "
               f"({combined}), {rebuild / rebuilt * 1e6:.0f} us a piece; the median move changes {moved:g} pieces, "
               f"and of its {update * 1e6:.0f} us update {build * 1e6:.0f} diff the layouts and lay out the move's "
               f"steps, {interval * 1e6:.0f} are a timeline's start and finish alone, {update_combined * 1e6:.0f} "
               "combine resting pieces again, the rest ends the steps and places what moved")
        ratio = replace(ratio, note=f"{short_by(ratio.value, ratio.goal)}: {why}")
    calls = Row(f"{name}_draw_calls_full_board", drawn, "<= 60", "geoms")
    if not calls.met():
        why = ", ".join(f"{what} {count}" for what, count in parts.items())
        if clear_cells:
            why += f" ({clear_cells} of them cells drawn though unlit, alpha 0)"
        if full_pieces < COMBINE_FROM:
            why += f"; {full_pieces} pieces, below the {COMBINE_FROM} from which resting pieces are combined"
        calls = replace(calls, note=f"{short_by(drawn, calls.goal)}: {why}")
    return [Row(f"stage_update_ms_{name}", round(update * 1000, 3), "", "ms"),
            Row(f"stage_rebuild_ms_{name}", round(rebuild * 1000, 3), "", "ms"),
            ratio, calls]


def _empty_window() -> float:
    """What a timed window of the stage rows reads with nothing in it: the clock's own cost."""
    t = time.process_time()
    return time.process_time() - t


def _stage_rows_named(name: str) -> list[Row]:
    return stage_rows(name, all_games()[name])


def stage_rows_apart(name: str) -> list[Row]:
    """stage_rows in a process of its own, as a player's table has one: what the sections before it leave in this
    process (the heaps of four other games' searches and random games) is no part of a table, yet it slowed the
    smallest update measured after it by a fifth to a third (Ziggurat's 23 us move took 29 us in the full run, its
    rebuild 8% longer). The stage's own warm-up (a pass of every move and every rebuild first) still runs there."""
    import multiprocessing
    # spawn: a new interpreter, not a fork of this one with its heap
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_stage_rows_named, (name,))


def _run_interval(interval) -> None:
    interval.start()
    interval.finish()


def _timed(action: Callable[[], object]) -> float:
    t = time.process_time()
    action()
    return time.process_time() - t


# the two sides of the startup ratios: a bare ShowBase doing what our command does (first frame; first frame saved).
# Each side marks (wall clock) when its ShowBase starts and is done, and when its first frame is shown.
_PRC = ("from panda3d.core import loadPrcFileData; loadPrcFileData('', 'load-display p3headlessgl\\n"
        "window-type offscreen\\naudio-library-name null\\nnotify-level-device fatal\\nwin-size 1280 800')\n")
_MARKS = ("import sys, time\n"
          "def _mark(what):\n    sys.stderr.write('\\nmark %s %r\\n' % (what, time.time()))\n"
          "from direct.showbase import ShowBase as _showbase\n"
          "_init = _showbase.ShowBase.__init__\n"
          "def _timed_init(self, *args, **kwargs):\n"
          "    _mark('showbase')\n    _init(self, *args, **kwargs)\n    _mark('window')\n"
          "_showbase.ShowBase.__init__ = _timed_init\n")
BARE_FRAME = _PRC + _MARKS + "b = _showbase.ShowBase()\nb.graphicsEngine.renderFrame()\n_mark('shown')\n"
BARE_PICTURE = BARE_FRAME + "b.graphicsEngine.renderFrame()\nb.win.saveScreenshot({out!r})\n"
# ours also marks when its table is built and the first frame begins (app.main's run_loop)
OUR_FRAME = (_MARKS + "import towerworld.app.main as _app\n_run_loop = _app.run_loop\n"
             "def _timed_loop(*args, **kwargs):\n    _mark('table')\n    return _run_loop(*args, **kwargs)\n"
             "_app.run_loop = _timed_loop\nfrom towerworld.cli import main\n"
             f"main(['play', {STARTUP_GAME!r}, '--players', 'human,random', '--frames', '1'])\n_mark('shown')\n")
OUR_PICTURE = _MARKS + f"from towerworld.cli import main\nmain(['render', {STARTUP_GAME!r}, '--out', {{out!r}}])\n"
# The peak from /proc (VmHWM: this program's own high-water mark), not getrusage: ru_maxrss survives the exec and
# starts at the size of the process that started it, which here is this bench with a ShowBase of its own.
PEAK = ("\nimport resource, sys\n"
        "try:\n    peak = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])\n"
        "except (OSError, StopIteration):\n    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "sys.stderr.write('\\npeak-kb %d\\n' % peak)\n")


@dataclass(frozen=True)
class Startup:
    """One fresh process: seconds from its start to each mark ("showbase", "window", "shown") and to its exit, and its
    peak resident memory in kB."""
    marks: dict
    exit: float
    peak_kb: int

    def at(self, mark: str) -> float:
        return self.marks.get(mark, self.exit)


def _run_script(code: str) -> Startup:
    """A fresh Python process running `code` (its interpreter's startup included), timed."""
    env = dict(os.environ, EGL_PLATFORM="surfaceless")
    # an installed towerworld has its bytecode compiled, as panda3d's is: the warm-up run writes it here too
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as folder:
        code = code.format(out=os.path.join(folder, "shot.png"))
        began = time.time()
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code + PEAK], env=env, capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), timeout=120)
        seconds = time.perf_counter() - t
    peak = re.findall(r"peak-kb (\d+)", done.stderr)
    if done.returncode != 0 or not peak:
        raise RuntimeError(f"startup script failed: {done.stderr.strip()[-300:]}")
    marks = {name: float(at) - began for name, at in re.findall(r"mark (\w+) ([0-9.]+)", done.stderr)}
    return Startup(marks, seconds, int(peak[-1]))


def _median_run(samples: list[Startup]) -> Startup:
    names = set.intersection(*(set(s.marks) for s in samples))
    return Startup({n: statistics.median(s.marks[n] for s in samples) for n in names},
                   statistics.median(s.exit for s in samples), round(statistics.median(s.peak_kb for s in samples)))


def _phases(ours: Startup, bare: Startup, end: str) -> str:
    """Where the time goes, ours against bare: before the ShowBase, the ShowBase (its window), after it to `end`;
    where ours marked its table built, that part apart from its first frame (bare builds nothing)."""
    def split(run: Startup) -> tuple[float, float, float]:
        return run.at("showbase"), run.at("window") - run.at("showbase"), run.at(end) - run.at("window")
    parts = zip(("python and imports", "ShowBase and its GL context", "our table and frames" if end == "shown"
                 else "our picture, its PNG and exit"), split(ours), split(bare))
    text = "; ".join(f"{what} {a * 1000:.0f} ms (bare {b * 1000:.0f})" for what, a, b in parts)
    if "table" in ours.marks and end == "shown":
        text += (f" (the table {(ours.at('table') - ours.at('window')) * 1000:.0f} ms, its first frame "
                 f"{(ours.at('shown') - ours.at('table')) * 1000:.0f} ms, against bare's empty frame: without what the "
                 "lit shader draws, that frame takes about 10 ms)")
    return text


def startup_rows() -> list[Row]:
    """Startup to the first frame shown and to a saved picture (the command's whole run), and the picture's peak
    memory, against a bare ShowBase doing the same. Medians of STARTUP_ROUNDS runs after a warm-up run (disk and
    bytecode caches warm, as for a player who has run it before). The four commands take turns, round after round:
    on a shared machine the load changes from second to second, and all of one side's runs in a row would meet a
    different load than the other side's (ratios of 1.4 and 1.8 from one unchanged tree on a loaded machine)."""
    scripts = {"bare_frame": BARE_FRAME, "our_frame": OUR_FRAME, "bare_picture": BARE_PICTURE,
               "our_picture": OUR_PICTURE}
    for code in scripts.values():
        _run_script(code)
    samples: dict[str, list[Startup]] = {label: [] for label in scripts}
    for _ in range(STARTUP_ROUNDS):
        for label, code in scripts.items():
            samples[label].append(_run_script(code))
    runs = {label: _median_run(taken) for label, taken in samples.items()}
    bare, ours = runs["bare_frame"], runs["our_frame"]
    play = Row("startup_play_ratio", round(ours.at("shown") / bare.at("shown"), 2), "<= 1.5", "x")
    if not play.met():
        play = replace(play, note=f"{short_by(play.value, play.goal)}: {_phases(ours, bare, 'shown')}")
    bare_pic, our_pic = runs["bare_picture"], runs["our_picture"]
    render = Row("startup_render_ratio", round(our_pic.exit / bare_pic.exit, 2), "<= 2", "x")
    if not render.met():
        render = replace(render, note=f"{short_by(render.value, render.goal)}: {_phases(our_pic, bare_pic, 'exit')}; "
                                      "bare draws an empty frame, ours a lit, shadowed, multisampled table in "
                                      "software GL")
    memory = Row("render_memory_ratio", round(our_pic.peak_kb / bare_pic.peak_kb, 2), "<= 1.3", "x")
    if not memory.met():
        memory = replace(memory, note=f"{short_by(memory.value, memory.goal)}: {our_pic.peak_kb / 1024:.0f} MB against "
                                      f"{bare_pic.peak_kb / 1024:.0f} MB bare, whose one buffer has no multisampling "
                                      "and draws nothing")
    return [Row("startup_bare_ms", round(bare.at("shown") * 1000), "", "ms"),
            Row("startup_play_ms", round(ours.at("shown") * 1000), "", "ms"),
            play,
            Row("startup_render_ms", round(our_pic.exit * 1000), "", "ms"),
            render,
            Row("render_memory_mb", round(our_pic.peak_kb / 1024), "", "MB"),
            memory]


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


# games whose bench rows go on with the stage's combining figures (towerworld/scene/bench.py)
COMBINE_GAMES = ("carcassonne",)


def game_rows(name: str) -> list[Row]:
    try:
        module = importlib.import_module(f"towerworld.games.{name}.bench")
    except ModuleNotFoundError:
        return []
    rows = [as_row(raw, name) for raw in module.bench_rows()]
    if name in COMBINE_GAMES:       # a game's bench never imports the scene: the scene's bench draws its table
        try:
            from towerworld.scene.bench import combine_rows
        except ImportError:         # no panda3d: the game's own rows only
            return rows
        rows += [as_row(raw, name) for raw in combine_rows(all_games()[name])]
    return rows


# ---- the run ---------------------------------------------------------------------------------------------------------
def sections() -> Iterable[tuple[str, Callable[[], list[Row]]]]:
    games = all_games()
    for name, game in games.items():
        yield f"random play ({name})", lambda n=name, g=game: random_play_rows(n, g)
        yield f"{name} bench rows", lambda n=name: game_rows(n)
        yield f"search ({name})", lambda n=name, g=game: search_rows(n, g)
        yield f"stage ({name})", lambda n=name: stage_rows_apart(n)
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
              f"{'' if met is None else 'yes' if met else 'NO '}" + (f"  {r.note}" if r.note else ""))


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
                         "met": r.met(), **({"note": r.note} if r.note else {})} for r in rows}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        print(f"wrote {args.json}", file=sys.stderr)
    if failed:
        print(f"failed sections: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
