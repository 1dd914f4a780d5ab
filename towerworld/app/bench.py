"""Bench rows for the table: frame time while an AI seat thinks (in its worker process) against an idle table."""
from __future__ import annotations

import statistics
import tempfile
import time

from towerworld.app import saves
from towerworld.app.play import PlayTable
from towerworld.app.window import open_base
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game


def _frame_times(base, frames: int, keep_going=lambda: True) -> list[float]:
    times = []
    for _ in range(frames):
        if not keep_going():
            break
        t0 = time.perf_counter()
        base.taskMgr.step()
        times.append(time.perf_counter() - t0)
    return times


def frame_time_rows(game_name: str, agent: str = "mcts", frames: int = 60) -> list[tuple[str, float, str, str]]:
    """(name, value, goal, unit): median frame time idle, while `agent` thinks, and their ratio (goal within 1.5x).
    The tables autosave as a player's do, into a folder of their own: the bench's games must never turn up among a
    player's unfinished games."""
    kept = saves.SAVE_DIR
    with tempfile.TemporaryDirectory(prefix="towerworld-bench-") as folder:
        saves.SAVE_DIR = folder
        try:
            return _frame_time_rows(game_name, agent, frames)
        finally:
            saves.SAVE_DIR = kept


def _frame_time_rows(game_name: str, agent: str, frames: int) -> list[tuple[str, float, str, str]]:
    base = open_base((960, 600), offscreen=True)
    game = get_game(game_name)
    n = max(2, game.min_players)
    idle = PlayTable(Match(game, players=[PlayerSpec(f"P{i + 1}") for i in range(n)]), (960, 600), frames=0)
    try:
        _frame_times(base, 10)
        idle_times = _frame_times(base, frames)
    finally:
        idle.close()
    seats = [PlayerSpec("AI", "ai", agent)] + [PlayerSpec(f"P{i + 2}") for i in range(n - 1)]
    table = PlayTable(Match(game, players=seats), (960, 600), frames=0)
    try:
        thinking_times: list[float] = []
        deadline = time.perf_counter() + 60
        while len(thinking_times) < frames and time.perf_counter() < deadline:
            busy = table.waiting_for is not None
            t0 = time.perf_counter()
            base.taskMgr.step()
            if busy and table.waiting_for is not None:
                thinking_times.append(time.perf_counter() - t0)
            if table.anim is not None:
                table.anim.finish()
    finally:
        table.close()
    idle_ms = 1000 * statistics.median(idle_times)
    think_ms = 1000 * statistics.median(thinking_times) if thinking_times else float("nan")
    return [
        ("frame_ms_idle", round(idle_ms, 2), "", "ms"),
        ("frame_ms_agent_thinking", round(think_ms, 2), "", "ms"),
        ("frame_ratio_agent_thinking", round(think_ms / idle_ms, 2), "<= 1.5", "x"),
    ]
