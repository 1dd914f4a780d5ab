"""Bench rows for the table (scripts/bench.py reads them; nothing here asserts):

- the frame time of one table with and without a search running in an AI worker process beside it, the two sides
  taking turns on the same table, round after round (`frame_ratio_rows`);
- real draw calls per frame, every pass included (the shadow buffer, the table, the HUD's text), read from Panda3D's
  own PStats counters ("Primitive batches"), which Panda3D's `text-stats` server receives (`draw_call_rows`).
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from towerworld.ai.simple import RandomAgent
from towerworld.app import saves
from towerworld.app.thinker import SeatSpec, Thinker
from towerworld.engine.driver import Driver, answer_chance
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game


def _with_save_dir(work):
    """Run `work()` with the tables' autosaves in a folder of their own: the bench's games must never turn up among a
    player's unfinished games."""
    kept = saves.SAVE_DIR
    with tempfile.TemporaryDirectory(prefix="towerworld-bench-") as folder:
        saves.SAVE_DIR = folder
        try:
            return work()
        finally:
            saves.SAVE_DIR = kept


def played_match(game_name: str, plies: int | None, seed: int = 3) -> Match:
    """A match between people (no AI seat: nothing thinks unless the bench asks), `plies` random plies in (None: to
    its end), chance and moves drawn from one seeded stream through the driver."""
    game = get_game(game_name)
    n = max(2, game.min_players) if game.max_players >= 2 else game.min_players
    match = Match(game, players=[PlayerSpec(f"P{i + 1}") for i in range(n)], seed=seed)
    rng = random.Random(seed)
    Driver.with_agents(match, dict.fromkeys(range(n), RandomAgent(rng=rng)), rng).run(plies)
    if not match.over:
        answer_chance(match)
    return match


def _answer(thinker, timeout: float = 120.0) -> None:
    """Wait for the worker's answer to the last question (or `timeout` seconds)."""
    deadline = time.perf_counter() + timeout
    while thinker.busy and thinker.poll() is None and time.perf_counter() < deadline:
        time.sleep(0.02)


def _frames(base, count: int, keep_going=lambda: True) -> list[float]:
    times = []
    for _ in range(count):
        if not keep_going():
            break
        t0 = time.perf_counter()
        base.taskMgr.step()
        times.append(time.perf_counter() - t0)
    return times


def frame_ratio_rows(game_name: str, rounds: int = 5, frames: int = 20, level: str = "strong") -> list[tuple]:
    """(name, value, goal, unit, note, spread) rows: the median frame of one table while the default opponent's search
    runs in its worker process beside it, against the same table with the worker idle. Wall time per frame (what a
    player sees). The two sides take turns, `rounds` rounds of `frames` frames each, which side goes first alternating;
    the ratio is the median of the rounds' ratios, with their spread."""
    return _with_save_dir(lambda: _frame_ratio_rows(game_name, rounds, frames, level))


def _frame_ratio_rows(game_name: str, rounds: int, frames: int, level: str) -> list[tuple]:
    from towerworld.app.play import PlayTable
    match = played_match(game_name, 12)
    table = PlayTable(match, (960, 600), frames=0)
    m = table.match
    seat = m.current_player if m.current_player >= 0 else 0
    players = [{"name": p.name, "kind": p.kind, "agent": p.agent} for p in m.players]
    thinker = Thinker(SeatSpec(m.game.name, m.options, m.variant, players, seat, "mcts", 1, level))
    moves = [p.text for p in m.plies]
    try:
        thinker.ask(moves)                      # warm: the worker's interpreter, imports and a first search
        _answer(thinker)
        _frames(table.base, 10)

        def idle() -> list[float]:
            return _frames(table.base, frames)

        def busy() -> list[float]:
            if not thinker.busy:
                thinker.ask(moves)
            time.sleep(0.05)                    # the worker has its search under way
            out: list[float] = []
            while len(out) < frames:
                if thinker.poll() is not None:  # answered: ask again, so the search runs for every timed frame
                    thinker.ask(moves)
                    time.sleep(0.05)
                    continue
                out += _frames(table.base, 1)
            return out

        ratios, idle_ms, busy_ms = [], [], []
        for r in range(rounds):
            order = (idle, busy) if r % 2 == 0 else (busy, idle)
            taken = {side.__name__: statistics.median(side()) for side in order}
            _answer(thinker)
            idle_ms.append(taken["idle"] * 1000)
            busy_ms.append(taken["busy"] * 1000)
            ratios.append(taken["busy"] / taken["idle"])
    finally:
        thinker.close()
        table.close()
    ratio = statistics.median(ratios)
    note = ""
    if ratio > 1.5:
        note = (f"{ratio / 1.5:.2f}x short of <=1.5: the search's worker process takes one of the machine's "
                f"{os.cpu_count()} cores (at the lowest priority); the frame itself is "
                f"{statistics.median(idle_ms):.1f} ms idle")
    spread = f"{min(ratios):.2f}-{max(ratios):.2f} over {rounds} rounds"
    return [("frame_ms_idle", round(statistics.median(idle_ms), 2), "", "ms", "",
             f"{min(idle_ms):.2f}-{max(idle_ms):.2f}"),
            ("frame_ms_agent_thinking", round(statistics.median(busy_ms), 2), "", "ms", "",
             f"{min(busy_ms):.2f}-{max(busy_ms):.2f}"),
            ("frame_ratio_agent_thinking", round(ratio, 2), "<= 1.5", "x", note, spread)]


# ---- draw calls, from Panda3D's own counters ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def text_stats() -> str | None:
    """Panda3D's text PStats server (the panda3d wheel installs it beside the python it installs into). The command is
    a Python wrapper that starts the server as its child, with Panda3D's libraries on the library path: the two are
    started in a session of their own and ended together (count_draw_calls)."""
    here = os.path.join(os.path.dirname(sys.executable), "text-stats")
    return here if os.path.exists(here) else shutil.which("text-stats")


def batches_per_frame(report: str) -> list[int]:
    """Draw calls of each frame in a `text-stats` report: the "Primitive batches" collector's children (triangles,
    strips, fans, display lists, patches, other) added up, frame by frame."""
    frames: list[int] = []
    lines = report.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("Thread Main frame"):
            total, j = None, i + 1
            while j < len(lines) and not lines[j].startswith("Thread "):
                line = lines[j]
                if line.strip().startswith("Primitive batches ="):
                    indent = len(line) - len(line.lstrip())
                    own = float(line.split("=")[1].split()[0] or 0)
                    children = 0.0
                    k = j + 1
                    while k < len(lines) and len(lines[k]) - len(lines[k].lstrip()) > indent:
                        if len(lines[k]) - len(lines[k].lstrip()) == indent + 2:
                            children += float(lines[k].split("=")[1].split()[0] or 0)
                        k += 1
                    total = int(round(children or own))
                j += 1
            if total is not None:
                frames.append(total)
            i = j
        else:
            i += 1
    return frames


def count_draw_calls(base, frames: int = 12) -> list[int]:
    """Draw calls of each of `frames` frames of `base`, from PStats: a `text-stats` server is started on a free port,
    this process connects to it, the frames are drawn, and the server's report is read."""
    from panda3d.core import PStatClient
    server = text_stats()
    if server is None:
        raise RuntimeError("Panda3D's text-stats (its PStats server) was not found")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "stats.txt")
        # a session of its own: the server and anything it starts end together (os.killpg below)
        proc = subprocess.Popen([server, "-p", str(port), "-o", report], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            time.sleep(0.3)                     # the server listening before the first try
            for _ in range(50):
                if PStatClient.connect("localhost", port):
                    break
                time.sleep(0.1)
            else:
                raise RuntimeError("could not connect to Panda3D's text-stats")
            for _ in range(frames + 4):
                base.taskMgr.step()
                time.sleep(0.01)
            PStatClient.disconnect()
            time.sleep(0.5)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        with open(report, encoding="utf-8", errors="replace") as f:
            counted = batches_per_frame(f.read())
    return [n for n in counted if n > 0][2:] or counted


def draw_call_rows(game_name: str) -> list[tuple]:
    """(name, value, goal, unit, note) rows: real draw calls a frame of the table showing a finished game (every pass:
    the shadow buffer, the table and its pieces, the HUD's text), the median of a dozen frames, beside the geoms the
    scene graph holds (what the stage rows count)."""
    return _with_save_dir(lambda: _draw_call_rows(game_name))


def _draw_call_rows(game_name: str) -> list[tuple]:
    from towerworld.app.play import PlayTable
    table = PlayTable(played_match(game_name, None), (1280, 800), frames=0)
    try:
        _frames(table.base, 3)
        counted = count_draw_calls(table.base)
        base = table.base
        regions = sum(1 for i in range(base.graphicsEngine.getNumWindows())
                      for dr in base.graphicsEngine.getWindow(i).getActiveDisplayRegions())
        buffers = base.graphicsEngine.getNumWindows()
        labels = table.stage.labels_root
        geoms = {name: sum(np.node().getNumGeoms() for np in root.findAllMatches("**/+GeomNode")
                           if not np.isHidden() and not (skip and skip.isAncestorOf(np)))
                 for name, root, skip in (("the 3D scene", base.render, labels), ("its labels", labels, None),
                                          ("the HUD", base.render2d, None))}
        texts = sum(1 for np in base.render2d.findAllMatches("**/+TextNode") if not np.isHidden())
        frames = sum(1 for np in base.render2d.findAllMatches("**/+PGItem") if not np.isHidden())
    finally:
        table.close()
    calls = statistics.median(counted)
    note = ""
    if calls > 60:
        shares = (", ".join(f"{what} {n} geoms" for what, n in geoms.items())
                  + f", {texts} text nodes and {frames} frames or buttons on the HUD")
        note = (f"{calls / 60:.2f}x short of <=60: {buffers} buffers, {regions} display regions drawn a frame "
                f"(the 3D scene is drawn once more into the shadow map); {shares}")
    return [(f"{game_name}_draw_calls_per_frame", calls, "<= 60", "calls", note,
             f"{min(counted)}-{max(counted)} over {len(counted)} frames")]
