#!/usr/bin/env python3
"""Speed goals, measured in one run: a table on stdout and, with `--json FILE`, every figure under a stable name.

Not a test: nothing here asserts. Each figure is a row (name, value, goal, unit):
- name: stable snake_case, the JSON key (e.g. `stage_ratio_kdak`); the issues and the docs quote these names;
- value: a number;
- goal: "" (reported only) or a comparison with a number, e.g. ">= 20", "<= 2", "< 10";
- unit: a few letters for people ("ms", "/s", "x", "us").
- note: where a goal is not met, how far (a factor) and why, in a few words from what was measured.
- spread: where the value is a median of repeated runs, their range (a ratio's: the rounds' ratios).
The JSON is {name: {"value", "goal", "unit", "met", "note", "spread"}}, `met` being true, false, or null where there is
no goal; "note" and "spread" only where there is one.

Where rows come from: this script measures what spans the games (random play, search rates, the stage, startup and
memory, physics demos); each game package may add its own rows with `bench_rows()` in `towerworld/games/GAME/bench.py`,
returning such 4-tuples. (Older 3-tuples of text, (label, value text, goal text), are still read: the name is made from
the label and the number read from the text, until every game returns 4-tuples.)

Honest measuring: every figure is a median of repeated runs after a warm-up run, printed with its spread; the two sides
of a ratio do the same work, in one process where they can (startup's sides are fresh processes, as a player's
start is), taking turns round after round (`alternated`); speeds are CPU time of the process doing the work where the
work is all in it (search, physics, rules), wall time where waiting is the point (frames, startup, video). Search
rates are on a fixed simulation budget over decisions along whole games (early, middle, late), the unit stated.
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
from typing import Any, Callable, Iterable

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
    spread: str = ""     # where the value is a median of repeated measurements: their range ("5.6-6.1 over 5")

    def met(self) -> bool | None:
        found = GOAL.match(self.goal)
        if not found:
            return None
        op, bound = found.group(1), float(found.group(2).replace(",", ""))
        return {"<": self.value < bound, "<=": self.value <= bound, ">": self.value > bound,
                ">=": self.value >= bound}[op]


def as_row(raw: tuple, prefix: str = "") -> Row:
    """A Row from a 4-tuple (name, value, goal, unit), a 5-tuple with a note, a 6-tuple with a note and a spread, or an
    older 3-tuple of text (label, value text, goal text)."""
    if len(raw) in (4, 5, 6):
        name, value, goal, unit = raw[:4]
        return Row(str(name), float(value), str(goal), str(unit), str(raw[4]) if len(raw) >= 5 else "",
                   str(raw[5]) if len(raw) == 6 else "")
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


def spread_of(values: list[float], digits: int = 3) -> str:
    """The range of repeated measurements, for the table: "5.61-6.07 over 5"."""
    return f"{min(values):.{digits}g}-{max(values):.{digits}g} over {len(values)}"


def alternated(sides: dict[str, Callable[[], float]], rounds: int, warm: bool = True) -> dict[str, list[float]]:
    """Each side measured `rounds` times in this process, the sides taking turns (the first side of a round
    alternating), after one unmeasured warm-up run of each: on a shared machine the load changes from second to
    second, and turns spread it over both sides."""
    names = list(sides)
    if warm:
        for name in names:
            sides[name]()
    taken: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            taken[name].append(sides[name]())
    return taken


def ratio_row(name: str, over: list[float], under: list[float], goal: str, unit: str = "x") -> Row:
    """The median of the rounds' ratios over/under (each round's two sides measured next to each other), with
    their spread."""
    ratios = [a / b for a, b in zip(over, under)]
    return Row(name, round(statistics.median(ratios), 2), goal, unit, spread=spread_of(ratios))


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


PHASES = (("early", 0.1), ("middle", 0.5), ("late", 0.9))


def positions_along_games(game: Game, games: int, seed: int, options: dict | None = None) -> list[tuple[str, Any]]:
    """(phase, state) decision states sampled along whole random games: at a tenth, half and nine tenths of each
    game's decisions (early, middle, late), chance resolved, each with more than one legal move."""
    rng = random.Random(seed)
    out: list[tuple[str, Any]] = []
    for _ in range(games):
        state, decisions = game.new_state(options), []
        while True:
            state = _settle(game, state, rng)
            if game.current_player(state) == TERMINAL or len(decisions) > 2000:
                break
            moves = game.legal_moves(state)
            if len(moves) > 1:
                decisions.append(state)
            state, _ = game.apply_unchecked(state, moves[rng.randrange(len(moves))])
        for phase, at in PHASES:
            if decisions:
                out.append((phase, decisions[min(len(decisions) - 1, int(at * len(decisions)))]))
    return out


def _settle(game: Game, state, rng: random.Random):
    while game.current_player(state) == CHANCE:
        state, _ = game.apply_unchecked(state, game.sample_chance(state, rng))
    return state


# ---- rows spanning the games -----------------------------------------------------------------------------------------
def random_play_rows(name: str, game: Game) -> list[Row]:
    """A whole random game from the start (the game's own playout), CPU time of this process (on a shared machine the
    wall clock would measure the other jobs too): the median over a second of games."""
    rng = random.Random(7)
    times = []
    begin = time.process_time()
    while time.process_time() - begin < 1.0 or len(times) < 5:
        t = time.process_time()
        game.random_playout(game.new_state(), rng)
        times.append(time.process_time() - t)
    ms = statistics.median(times) * 1000
    return [Row(f"random_game_ms_{name}", round(ms, 3), "", "ms"),
            Row(f"random_games_per_s_{name}", round(1000 / ms, 1), "", "/s")]


# the goals of the searches' rates (simulations per CPU second): Elevation's 4,000 at its shipped level; K'Dak's and
# Ziggurat's 5,000 and Carcassonne's 2,000 (with The Tower), the first search goals
SEARCH_GOALS = {"kdak": ">= 5000", "elevation": ">= 4000", "ziggurat": ">= 5000", "carcassonne": ">= 2000"}
# a fixed simulation budget a move, the same work in every run and on any load ("Nit": no clock at all); Elevation's
# is its shipped level's (normal: 2,000), the others' a thousand
SEARCH_BUDGET = {"elevation": "2000it"}
SEARCH_DEFAULT_BUDGET = "1000it"
SEARCH_GAMES = 2             # whole random games whose early, middle and late decisions the search rows time
# what one simulation is, per game's default search (the unit of its rate)
SIMULATION = {
    "carcassonne": "a descent to a new leaf, scored by projected scores (no rollout)",
    "elevation": "a descent to a new leaf, judged by the static evaluation (no rollout)",
}
GENERIC_SIMULATION = "a tree descent, an expansion and a rollout of the game (cut short and judged where it says)"
# why a goal game's search falls short, from profiles of `search` (shown only when a row misses its goal)
SEARCH_WHY = {
    "kdak": "the climbing playouts (games/kdak/rules.py playout) are about 80% of a simulation",
    "ziggurat": "the placing playouts (games/ziggurat/rules.py) are about 80% of a simulation, "
                "8 determinizations share the budget",
    "elevation": "profiled (cProfile, the row's six moves): the simulations are about seven tenths of a move (a "
                 "node's candidates ranked by the evaluation, and the evaluation at the leaf: static_eval is about "
                 "half of all the time, a third of it _siege_sum), ranking the root's children about a seventh, the "
                 "forcing check, the plan search and the safety checks about a seventh; turn generation and the step "
                 "(rules.py) under a tenth, so the factor must come out of the evaluation",
}


def search_rows(name: str, game: Game) -> list[Row]:
    """Simulations per CPU second of the default search (the game's own `mcts` where it has one) and iterations per
    CPU second of IS-MCTS, each on a fixed budget a move (SEARCH_BUDGET), over decisions sampled along SEARCH_GAMES
    whole random games (early, middle, late): the work of all the moves over their CPU time (this process's CPU
    time, not the clock on the wall, which on a shared machine measures the other jobs too). A move the agent decides
    before searching (a forced or winning turn) adds neither simulations nor time (the spread says how many and how
    long they took). The spread is the phases' rates. IS-MCTS rows are for the games with hidden information."""
    from towerworld.ai.agents import make_agent
    rows = []
    positions = positions_along_games(game, SEARCH_GAMES, seed=3)
    searches = [("mcts", "mcts_sims_per_s")] + ([] if game.perfect_information else
                                                [("ismcts", "ismcts_iterations_per_s")])
    for agent_name, figure in searches:
        level = SEARCH_BUDGET.get(name, SEARCH_DEFAULT_BUDGET) if agent_name == "mcts" else "300it"
        try:
            agent = make_agent(agent_name, game, seed=1, level=level)
        except Exception as e:         # an agent this game cannot seat: say so and go on
            print(f"{figure}_{name}: skipped ({e})", file=sys.stderr)
            continue
        ask(agent, game, positions[0][1])     # warm: imports, tables filled on first use
        done: dict[str, float] = {}
        spent: dict[str, float] = {}
        unsearched = []         # CPU seconds of moves decided before any simulation (a forced or winning turn)
        for phase, state in positions:
            for attr in ("last_simulations", "last_iterations"):
                if hasattr(agent, attr):
                    setattr(agent, attr, 0)
            t = time.process_time()
            ask(agent, game, state)
            took = time.process_time() - t
            count = getattr(agent, "last_simulations", 0) or getattr(agent, "last_iterations", 0)
            if count:
                done[phase] = done.get(phase, 0) + count
                spent[phase] = spent.get(phase, 0.0) + took
            else:
                unsearched.append(took)
        if not done:
            continue
        rate = sum(done.values()) / sum(spent.values())
        by_phase = {phase: done[phase] / spent[phase] for phase, _ in PHASES if phase in done}
        goal = SEARCH_GOALS.get(name, "") if agent_name == "mcts" else ""
        what = SIMULATION.get(name, GENERIC_SIMULATION) if agent_name == "mcts" else "an iteration of IS-MCTS"
        row = Row(f"{figure}_{name}", round(rate), goal, "sims/cpu s" if agent_name == "mcts" else "its/cpu s",
                  spread=", ".join(f"{p} {v:,.0f}" for p, v in by_phase.items()) + f"; {level} a move; one: {what}"
                  + (f"; {len(unsearched)} of {len(positions)} moves decided before searching, "
                     f"{sum(unsearched):.1f} CPU s" if unsearched else ""))
        if row.met() is False:
            row = replace(row, note=f"{short_by(row.value, goal)}: {SEARCH_WHY.get(name, 'see a profile')}")
        rows.append(row)
    return rows


KDAK_YARDSTICK_ROUNDS = 7      # rounds of the K'Dak playout comparison; the rows are the rounds' median ratios
KDAK_YARDSTICK_ROLLOUTS = 800  # rollouts of each side a round


def kdak_yardstick_rows(game: Game) -> list[Row]:
    """K'Dak's search rollouts (the rules' one step function, rules.playout with the climbing policy) against the old
    second copy of the rules kept as a yardstick (tests/yardsticks/kdak_policy_playout.py), two players and solitaire:
    the same rollouts on both sides (the bench's search states, each from the same seed, which
    tests/test_search_equivalence.py holds to the same ends), taking turns rollout by rollout, CPU time of this
    process. The value is the median of the rounds' speed ratios (above 1: the one step function is faster)."""
    try:
        from yardsticks.kdak_policy_playout import policy_playout
    except ImportError:
        from tests.yardsticks.kdak_policy_playout import policy_playout
    from towerworld.engine.measure import search_states
    clock = time.process_time_ns
    rows = []
    for label, variant in (("", None), ("_solitaire", "solitaire")):
        options, players = game.resolve_options(None, variant)
        states = search_states(game, options=options, players=players)
        ratios = []
        for r in range(KDAK_YARDSTICK_ROUNDS + 1):        # the first round warms both sides up, untimed
            ours = old = 0
            for k in range(KDAK_YARDSTICK_ROLLOUTS):
                state = states[k % len(states)]
                seed = r * 100_000 + k
                if (k + r) % 2:
                    t0 = clock()
                    game.rollout(state, random.Random(seed))
                    t1 = clock()
                    policy_playout(state, random.Random(seed), game.max_plies)
                    t2 = clock()
                    ours, old = ours + t1 - t0, old + t2 - t1
                else:
                    t0 = clock()
                    policy_playout(state, random.Random(seed), game.max_plies)
                    t1 = clock()
                    game.rollout(state, random.Random(seed))
                    t2 = clock()
                    ours, old = ours + t2 - t1, old + t1 - t0
            if r:
                ratios.append(old / ours)
        row = Row(f"kdak{label}_playout_speed_vs_old_copy", round(statistics.median(ratios), 3), ">= 1", "x",
                  spread=spread_of(ratios))
        if not row.met():
            row = replace(row, note=f"{short_by(row.value, row.goal)}: the step function walks the stages and "
                                    "asks the move tables and the policy by call, where the old copy inlined them")
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
    pass_ratios: list[float] = []           # each round's rebuild over update (the spread)
    update_pass(False)
    rebuild_pass(False)
    # what this process holds so far (the bench's own positions, what earlier sections made) is frozen out of the
    # collector's reach, as the app freezes what it has made by its first frame: a collection during a timed pass
    # walks what the stage made, not what happened to run before it in this process
    gc.collect()
    gc.freeze()
    try:
        for _ in range(STAGE_ROUNDS):
            marks = (len(updates), len(rebuilds))
            update_pass(True)
            rebuild_pass(True)
            pass_ratios.append(statistics.median(rebuilds[marks[1]:]) / statistics.median(updates[marks[0]:]))
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

    ratio = Row(f"stage_ratio_{name}", round(rebuild / update, 2), ">= 20", "x", spread=spread_of(pass_ratios))
    if not ratio.met():
        combined = (f"{rebuild_combined * 1000:.2f} ms of it combining them" if pieces >= COMBINE_FROM else
                    f"too few to be combined, below {COMBINE_FROM}")
        why = (f"a rebuild of up to {pieces} pieces is only {rebuild * 1000:.2f} ms with models and labels cached "
               f"({combined}), {rebuild / rebuilt * 1e6:.0f} us a piece; the median move changes {moved:g} pieces, "
               f"and of its {update * 1e6:.0f} us update {build * 1e6:.0f} diff the layouts and lay out the move's "
               f"steps, {interval * 1e6:.0f} are a timeline's start and finish alone, {update_combined * 1e6:.0f} "
               "combine resting pieces again, the rest ends the steps and places what moved")
        ratio = replace(ratio, note=f"{short_by(ratio.value, ratio.goal)}: {why}")
    # geoms the stage holds (the draw calls themselves, every pass, are counted by Panda3D: draw_call_rows)
    calls = Row(f"{name}_geoms_full_board", drawn, "", "geoms")
    if calls.met() is False:
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
# Each side marks when its ShowBase starts and is done, and when its first frame is shown: the wall clock, and the
# CPU time its process has used so far (all its threads: Mesa's software renderer draws in threads of its own).
_PRC = ("from panda3d.core import loadPrcFileData; loadPrcFileData('', 'load-display p3headlessgl\\n"
        "window-type offscreen\\naudio-library-name null\\nnotify-level-device fatal\\nwin-size 1280 800')\n")
_MARK = ("import sys, time\n"
         "def _mark(what):\n    sys.stderr.write('\\nmark %s %r %r\\n' % (what, time.time(), time.process_time()))\n")
_MARKS = (_MARK +
          "from direct.showbase import ShowBase as _showbase\n"
          "_init = _showbase.ShowBase.__init__\n"
          "def _timed_init(self, *args, **kwargs):\n"
          "    _mark('showbase')\n    _init(self, *args, **kwargs)\n    _mark('window')\n"
          "_showbase.ShowBase.__init__ = _timed_init\n")
BARE_FRAME = _PRC + _MARKS + "b = _showbase.ShowBase()\nb.graphicsEngine.renderFrame()\n_mark('shown')\n"
BARE_PICTURE = BARE_FRAME + "b.graphicsEngine.renderFrame()\nb.win.saveScreenshot({out!r})\n"
# what any lit table's first frame costs whatever it holds: a bare ShowBase whose first frame draws one table top
# through our lit shader and lights (the first draw sets up the GL driver's pipelines for the shader: in software GL,
# Mesa's LLVM compiler and the code it builds or loads from its cache); its first frame runs from 'table' to 'shown'
BARE_LIT_FRAME = (_PRC + _MARKS + "b = _showbase.ShowBase()\nfrom towerworld.scene.setup import add_table, dress\n"
                  "dress(b.render, None, shadows_after_first_frame=True)\nadd_table(b.render, None)\n"
                  "b.camera.setPos(0, -900, 600)\nb.camera.lookAt(0, 0, 0)\n_mark('table')\n"
                  "b.graphicsEngine.renderFrame()\n_mark('shown')\n")
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
    """One fresh process: seconds from its start to each mark ("showbase", "window", "shown") and to its exit, the CPU
    seconds it had used at each mark, and its peak resident memory in kB."""
    marks: dict
    exit: float
    peak_kb: int
    cpu: dict

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
    found = re.findall(r"mark (\w+) ([0-9.]+) ([0-9.]+)", done.stderr)
    marks = {name: float(at) - began for name, at, _ in found}
    return Startup(marks, seconds, int(peak[-1]), {name: float(cpu) for name, _, cpu in found})


def _median_run(samples: list[Startup]) -> Startup:
    names = set.intersection(*(set(s.marks) for s in samples))
    return Startup({n: statistics.median(s.marks[n] for s in samples) for n in names},
                   statistics.median(s.exit for s in samples), round(statistics.median(s.peak_kb for s in samples)),
                   {n: statistics.median(s.cpu[n] for s in samples) for n in names})


def _phases(ours: Startup, bare: Startup, end: str, lit: Startup | None = None) -> str:
    """Where the time goes, ours against bare: before the ShowBase, the ShowBase (its window), after it to `end`;
    where ours marked its table built, that part apart from its first frame (bare builds nothing), beside the first
    frame of a bare ShowBase drawing one lit table top (`lit`, BARE_LIT_FRAME)."""
    def split(run: Startup) -> tuple[float, float, float]:
        return run.at("showbase"), run.at("window") - run.at("showbase"), run.at(end) - run.at("window")
    parts = zip(("python and imports", "ShowBase and its GL context", "our table and frames" if end == "shown"
                 else "our picture, its PNG and exit"), split(ours), split(bare))
    text = "; ".join(f"{what} {a * 1000:.0f} ms (bare {b * 1000:.0f})" for what, a, b in parts)
    if "table" in ours.marks and end == "shown":
        text += (f" (the table {(ours.at('table') - ours.at('window')) * 1000:.0f} ms, its first frame "
                 f"{(ours.at('shown') - ours.at('table')) * 1000:.0f} ms, against bare's frame that draws nothing")
        if lit is not None:
            text += (f"; a bare ShowBase's first frame drawing one table top through the lit shader takes "
                     f"{(lit.at('shown') - lit.at('table')) * 1000:.0f} ms: the GL driver sets up the shader's "
                     "pipelines on the first draw, and each further kind of thing drawn (text, panels, see-through "
                     "cells) adds pipelines of its own")
        text += ")"
    return text


def startup_rows() -> list[Row]:
    """Startup to the first frame shown and to a saved picture (the command's whole run), and the picture's peak
    memory, against a bare ShowBase doing the same. Medians of STARTUP_ROUNDS runs after a warm-up run (disk and
    bytecode caches warm, as for a player who has run it before). The commands take turns, round after round:
    on a shared machine the load changes from second to second, and all of one side's runs in a row would meet a
    different load than the other side's (ratios of 1.4 and 1.8 from one unchanged tree on a loaded machine)."""
    scripts = {"bare_frame": BARE_FRAME, "our_frame": OUR_FRAME, "bare_picture": BARE_PICTURE,
               "our_picture": OUR_PICTURE, "bare_lit_frame": BARE_LIT_FRAME}
    for code in scripts.values():
        _run_script(code)
    samples: dict[str, list[Startup]] = {label: [] for label in scripts}
    for r in range(STARTUP_ROUNDS):
        for label in (list(scripts) if r % 2 == 0 else list(scripts)[::-1]):
            samples[label].append(_run_script(scripts[label]))
    runs = {label: _median_run(taken) for label, taken in samples.items()}
    bare, ours = runs["bare_frame"], runs["our_frame"]
    play = ratio_row("startup_play_ratio", [s.at("shown") for s in samples["our_frame"]],
                     [s.at("shown") for s in samples["bare_frame"]], "<= 1.5")
    # the same runs' CPU time to the first frame: what the wall-clock ratio comes to where the machine is idle (on a
    # loaded one, each side's wall time is its CPU time stretched by a load that changes from run to run)
    play_cpu = ratio_row("startup_play_cpu_ratio", [s.cpu["shown"] for s in samples["our_frame"]],
                         [s.cpu["shown"] for s in samples["bare_frame"]], "")
    if not play.met():
        play = replace(play, note=f"{short_by(play.value, play.goal)}: "
                                  f"{_phases(ours, bare, 'shown', runs['bare_lit_frame'])}")
    bare_pic, our_pic = runs["bare_picture"], runs["our_picture"]
    render = ratio_row("startup_render_ratio", [s.exit for s in samples["our_picture"]],
                       [s.exit for s in samples["bare_picture"]], "<= 2")
    if not render.met():
        render = replace(render, note=f"{short_by(render.value, render.goal)}: {_phases(our_pic, bare_pic, 'exit')}; "
                                      "bare draws an empty frame, ours a lit, shadowed, multisampled table in "
                                      "software GL")
    memory = ratio_row("render_memory_ratio", [s.peak_kb for s in samples["our_picture"]],
                       [s.peak_kb for s in samples["bare_picture"]], "<= 1.3")
    if not memory.met():
        memory = replace(memory, note=f"{short_by(memory.value, memory.goal)}: {our_pic.peak_kb / 1024:.0f} MB against "
                                      f"{bare_pic.peak_kb / 1024:.0f} MB bare, whose one buffer has no multisampling "
                                      "and draws nothing")
    lit = runs["bare_lit_frame"]
    return [Row("startup_bare_ms", round(bare.at("shown") * 1000), "", "ms"),
            Row("startup_play_ms", round(ours.at("shown") * 1000), "", "ms"),
            Row("startup_play_first_frame_ms", round((ours.at("shown") - ours.at("table")) * 1000), "", "ms",
                note=f"the table's first frame; a bare ShowBase's first frame drawing one table top through the lit "
                     f"shader: {(lit.at('shown') - lit.at('table')) * 1000:.0f} ms, drawing nothing: "
                     f"{(bare.at('shown') - bare.at('window')) * 1000:.0f} ms"),
            play,
            Row("startup_play_cpu_ms", round(ours.cpu["shown"] * 1000), "", "ms",
                note=f"CPU time to the first frame (bare {bare.cpu['shown'] * 1000:.0f} ms)"),
            play_cpu,
            Row("startup_render_ms", round(our_pic.exit * 1000), "", "ms"),
            render,
            Row("render_memory_mb", round(our_pic.peak_kb / 1024), "", "MB"),
            memory]


PHYSICS_GOAL = ">= 10"       # every demo simulates at least ten seconds per CPU second
PHYSICS_RUNS = 3
# why a demo falls short, from measurements of its world (shown only when its row misses the goal)
PHYSICS_WHY = {
    "elevation-tip": "every body rides the tipping box, so none can sleep; 108 terrain tiles three deep and 12 pieces "
                     "slide in contact (stacks and sliding layers); 10 solver iterations (1.47x) and 120 Hz steps "
                     "(with both 3.36x), measured with full-width terrain, are not taken: the recipe's 240 Hz and 20 "
                     "iterations hold a six-storey tile tower",
}


def _physics_run(demo) -> dict:
    """One demo run from its start: CPU seconds in all, in Bullet's steps, the bodies and how many were awake at the
    end (a sleeping body costs Bullet almost nothing)."""
    from towerworld.demos.base import DemoRun
    run = DemoRun(demo, seed=1)
    world = run.world
    stepping = [0.0]
    step = world.step

    def timed_step(steps: int = 1) -> None:
        t0 = time.process_time()
        step(steps)
        stepping[0] += time.process_time() - t0
    world.step = timed_step             # type: ignore[method-assign]
    t = time.process_time()
    run.run()
    spent = time.process_time() - t
    bodies = [b.node() for b in world.bodies.values() if b.node().getMass() > 0]
    return {"cpu": spent, "bullet": stepping[0], "bodies": len(bodies),
            "awake": sum(1 for b in bodies if b.isActive()), "steps": world.steps}


def physics_rows() -> list[Row]:
    """Simulated seconds per CPU second of each physics demo, headless (no drawing), against >= 10: the median of
    PHYSICS_RUNS runs after a warm-up, with their spread. CPU time of this process: Bullet runs on this thread, and
    on a shared machine the clock on the wall would report the neighbours' load. A row that falls short says where
    its time went: Bullet's steps against the demo's own Python (actions, kinematic control), and how many bodies
    were still awake at the end."""
    try:
        from towerworld.demos import get_demo, names
    except ImportError:
        return []
    rows = []
    for name in names():
        demo = get_demo(name)
        try:
            _physics_run(demo)
            runs = [_physics_run(demo) for _ in range(PHYSICS_RUNS)]
        except Exception as e:      # one broken demo must not hide the others' figures
            rows.append(Row(f"physics_realtime_ratio_{name.replace('-', '_')}", float("nan"), PHYSICS_GOAL,
                            "x (sim s/cpu s)", note=f"the demo failed: {type(e).__name__}: {e}"))
            continue
        ratios = [demo.seconds / r["cpu"] for r in runs]
        mid = sorted(runs, key=lambda r: r["cpu"])[len(runs) // 2]
        row = Row(f"physics_realtime_ratio_{name.replace('-', '_')}", round(statistics.median(ratios), 2),
                  PHYSICS_GOAL, "x (sim s/cpu s)", spread=spread_of(ratios))
        if not row.met():
            row = replace(row, note=(f"{short_by(row.value, row.goal)}: {mid['cpu']:.2f} CPU s for {demo.seconds:g} s "
                                     f"simulated, {mid['bullet'] / mid['cpu']:.0%} of it in Bullet's "
                                     f"{mid['steps']:,} steps ({mid['bullet'] / max(mid['steps'], 1) * 1e3:.2f} ms a "
                                     f"step), the rest the demo's Python; {mid['bodies']} bodies, {mid['awake']} "
                                     "still awake at the end" + (f"; {PHYSICS_WHY[name]}" if name in PHYSICS_WHY
                                                                 else "")))
        rows.append(row)
    return rows


def frame_rows(name: str) -> list[Row]:
    """Frame time of one table with the default opponent's search running in its worker process beside it, against
    the same table with the worker idle, the two sides taking turns (towerworld/app/bench.py): the search must not
    stall the window (goal within 1.5x). In a process of its own, as a player's table has one."""
    return _apart("frame_ratio_rows", name)


def draw_call_rows(name: str) -> list[Row]:
    """Real draw calls a frame of the table showing a finished game, every pass (shadow map, table, HUD text), from
    Panda3D's PStats counters (towerworld/app/bench.py), in a process of its own."""
    return _apart("draw_call_rows", name)


def _app_rows(function: str, name: str) -> list[Row]:
    from towerworld.app import bench as app_bench
    return [as_row(raw) for raw in getattr(app_bench, function)(name)]


def _app_rows_to(conn, function: str, name: str) -> None:
    try:
        conn.send(("rows", _app_rows(function, name)))
    except Exception as e:
        conn.send(("error", f"{type(e).__name__}: {e}"))
    conn.close()


def _apart(function: str, name: str) -> list[Row]:
    """towerworld/app/bench.py's `function(name)` in a fresh interpreter (a plain process, not a pool's daemon: the
    frame rows start an AI worker process of their own)."""
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    process = ctx.Process(target=_app_rows_to, args=(theirs, function, name))
    process.start()
    theirs.close()
    try:
        kind, result = mine.recv()
    except EOFError:
        kind, result = "error", "its process ended without an answer"
    process.join(60)
    if kind == "error":
        raise RuntimeError(result)
    return result


# games whose bench rows go on with the stage's combining figures (towerworld/scene/bench.py)
COMBINE_GAMES = ("carcassonne",)


def game_rows(name: str) -> list[Row]:
    try:
        module = importlib.import_module(f"towerworld.games.{name}.bench")
    except ModuleNotFoundError:
        return []
    rows = [_as_measured(as_row(raw, name)) for raw in module.bench_rows()]
    if name in COMBINE_GAMES:       # a game's bench never imports the scene: the scene's bench draws its table
        try:
            from towerworld.scene.bench import combine_rows
        except ImportError:         # no panda3d: the game's own rows only
            return rows
        rows += [as_row(raw, name) for raw in combine_rows(all_games()[name])]
    return rows


def _as_measured(row: Row) -> Row:
    """A game's row as this bench reports it: the engine's share of a simulation (a tree walk's legal moves and
    applies and a rollout, with none of the search's own work) is an upper bound of a search's rate, not a rate, so
    it carries no goal (the search rows, on a fixed budget, do)."""
    if row.name.startswith("engine_sims_per_s"):
        return replace(row, goal="", note="", unit="sims/cpu s (engine share: an upper bound, no search)")
    return row


VIDEO_SIZE = (1280, 720)
VIDEO_FPS = 30.0
VIDEO_SECONDS = 2.0         # seconds of each video the rows render (the first of the demo, the first of the replay)


def _video_figures() -> list[tuple]:
    """`demo --video` and `replay --video` as the CLI makes them (1280x720, 30 fps, H.264), VIDEO_SECONDS of each:
    seconds of video per second of wall time, and where a frame's time went."""
    import tempfile as _tempfile
    from towerworld.app.replay import ReplayFilm
    from towerworld.demos.show import _offscreen_scene
    from towerworld.app.bench import played_match
    from towerworld.scene.camera import framing
    from towerworld.scene.offscreen import base
    from towerworld.scene.video import FrameGrabber, write_video
    frames = int(VIDEO_SECONDS * VIDEO_FPS)
    out = []
    with _tempfile.TemporaryDirectory() as folder:
        scene, grabber = _offscreen_scene("kdak-collapse", VIDEO_SIZE, 1)
        try:
            times = write_video(os.path.join(folder, "demo.mp4"), grabber, frames, VIDEO_FPS,
                                lambda i: scene.advance_to(i / VIDEO_FPS), quiet=True)
        finally:
            grabber.close()
            scene.destroy()
        out.append(("video_realtime_demo", times.realtime, times.parts()))
        b = base(*VIDEO_SIZE)
        film = ReplayFilm(b.render, played_match("kdak", 20))
        grabber = FrameGrabber(b, film.root, *VIDEO_SIZE)
        framing(film.extent, aspect=VIDEO_SIZE[0] / VIDEO_SIZE[1]).apply(grabber.camera)
        try:
            times = write_video(os.path.join(folder, "replay.mp4"), grabber, frames, VIDEO_FPS,
                                lambda i: film.seek(i / VIDEO_FPS), quiet=True)
        finally:
            grabber.close()
            film.destroy()
        out.append(("video_realtime_replay", times.realtime, times.parts()))
    return out


def video_rows() -> list[Row]:
    """Seconds of video per second of wall time for `demo --video` (kdak-collapse) and `replay --video` (a K'Dak
    game), at 1280x720 and 30 fps, against >= 1 (real time); in a process of its own, as the CLI has one."""
    import multiprocessing
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        figures = pool.apply(_video_figures)
    rows = []
    for name, realtime, parts in figures:
        row = Row(name, round(realtime, 3), ">= 1", "video s/wall s", spread=f"{VIDEO_SECONDS:g} s of video")
        if not row.met():
            row = replace(row, note=f"{short_by(row.value, row.goal)}: {parts} ms (Mesa's software GL draws the "
                                    "shadow map and the frame on the machine's cores)")
        rows.append(row)
    return rows


# ---- the run ---------------------------------------------------------------------------------------------------------
NET_ROOMS = 200             # rooms one server process holds in the load rows, two random-move clients each


def net_rows() -> list[Row]:
    """Network play under load: one `towerworld serve` process, NET_ROOMS rooms of Throwdown, two headless clients
    each (in this process) moving at a quick player's pace (towerworld.net.load.THINK); every move is saved."""
    from towerworld.net.load import THINK, measure
    f = measure(NET_ROOMS)
    pace = f"clients wait {THINK[0]:g}-{THINK[1]:g} s before each move"
    p99 = f["rtt_p99_ms"]
    note = "" if p99 < 50 else (f"{p99 / 50:.1f}x over; the server used {100 * f['server_cpu_share']:.0f}% of a "
                                f"core and its {2 * NET_ROOMS} clients' process {100 * f['clients_cpu_share']:.0f}%, "
                                f"on 2 cores at a load average of {f['load_average']:.1f}: a move's round trip is mostly "
                                f"waiting, for a core and for the hand-offs between the event loop and the thread that "
                                f"writes the room's record before the move is told; {pace}")
    return [Row("net_rooms", f["rooms"], f">= {NET_ROOMS}", "rooms"),
            Row("net_moves_per_s", f["moves_per_s"], "", "/s", ""),
            Row("net_rtt_median_ms", f["rtt_median_ms"], "", "ms"),
            Row("net_rtt_p99_ms", p99, "< 50", "ms", note),
            Row("net_memory_per_room_kb", f["kb_per_room"], "", "kB"),
            Row("net_server_cpu_per_move_ms", 1000 * f["server_cpu_share"] / max(f["moves_per_s"], 1e-9), "", "ms")]


def sections() -> Iterable[tuple[str, Callable[[], list[Row]]]]:
    games = all_games()
    for name, game in games.items():
        yield f"random play ({name})", lambda n=name, g=game: random_play_rows(n, g)
        yield f"{name} bench rows", lambda n=name: game_rows(n)
        if name == "kdak":
            yield "kdak playouts against the old copy", lambda g=game: kdak_yardstick_rows(g)
        yield f"search ({name})", lambda n=name, g=game: search_rows(n, g)
        yield f"stage ({name})", lambda n=name: stage_rows_apart(n)
        yield f"draw calls ({name})", lambda n=name: draw_call_rows(n)
    if STARTUP_GAME in games:
        yield "default opponent", lambda: default_opponent_rows(STARTUP_GAME, games[STARTUP_GAME])
        yield "startup and memory", startup_rows
        yield "frame time while the AI thinks", lambda: frame_rows(STARTUP_GAME)
    yield "physics demos", physics_rows
    yield "video", video_rows
    yield "network play under load", net_rows


def _shown(value: float) -> str:
    if value != value:
        return "?"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def print_table(rows: list[Row]) -> None:
    """One line a figure: name, value, goal, met; then the unit, the spread of its repeated measurements and, where
    a goal is missed, by what factor and where the time goes."""
    width = max(len(r.name) for r in rows)
    print(f"{'figure':{width}s}  {'value':>12s}  {'goal':9s} met  unit; spread; note")
    print("-" * (width + 40))
    for r in rows:
        met = r.met()
        rest = "; ".join(part for part in (r.unit, f"spread {r.spread}" if r.spread else "", r.note) if part)
        print(f"{r.name:{width}s}  {_shown(r.value):>12s}  {r.goal:9s} "
              f"{'   ' if met is None else 'yes' if met else 'NO '}  {rest}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--only", metavar="WORDS", help="comma-separated words: run the sections naming one")
    parser.add_argument("--carcassonne-peer", metavar="PATH",
                        help="a checkout of 33fred33/CarcassonneAI: measure it beside Carcassonne on equal work "
                             "(without it, against its figure in docs/measurements/carcassonne-peer.md)")
    args = parser.parse_args(argv)
    if args.carcassonne_peer:
        if not os.path.isfile(os.path.join(args.carcassonne_peer, "Carcassonne_Game", "Carcassonne.py")):
            parser.error(f"{args.carcassonne_peer} holds no Carcassonne_Game/Carcassonne.py (a checkout of "
                         "33fred33/CarcassonneAI).")
        os.environ["TOWERWORLD_CARCASSONNE_PEER"] = os.path.abspath(args.carcassonne_peer)
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
                         "met": r.met(), **({"note": r.note} if r.note else {}),
                         **({"spread": r.spread} if r.spread else {})} for r in rows}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        print(f"wrote {args.json}", file=sys.stderr)
    if failed:
        print(f"failed sections: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
