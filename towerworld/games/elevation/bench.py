"""Elevation speed goals, collected by scripts/bench.py: random games, legal turns generated, playout plies."""
from __future__ import annotations

import random
import time

from towerworld.engine.game import TERMINAL
from towerworld.games.elevation import GAME


def _positions(n: int = 40, seed: int = 11) -> list:
    """Positions from random games (start, opening, middle game) to time generation on."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        st = GAME.new_state()
        for ply in range(rng.randrange(0, 60)):
            if GAME.current_player(st) == TERMINAL:
                break
            moves = GAME.legal_moves(st)
            st, _ = GAME.apply_unchecked(st, moves[rng.randrange(len(moves))])
        if GAME.current_player(st) != TERMINAL:
            out.append(st)
    return out


def bench_rows(seconds: float = 2.0) -> list[tuple[str, str, str]]:
    rows = []
    rng = random.Random(7)
    games = plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or games < 2:
        st = GAME.new_state()
        while GAME.current_player(st) != TERMINAL:
            moves = GAME.legal_moves(st)
            st, _ = GAME.apply_unchecked(st, moves[rng.randrange(len(moves))])
            plies += 1
        games += 1
    dt = time.perf_counter() - t0
    rows.append(("elevation random games/s (200-turn cap)", f"{games / dt:.1f}", ">= 2"))
    rows.append(("elevation random plies/s (generate + apply)", f"{plies / dt:.0f}", ">= 500"))

    positions = _positions()
    count = 0
    t0 = time.perf_counter()
    rounds = 0
    while time.perf_counter() - t0 < seconds or rounds < 1:
        for st in positions:
            count += len(GAME.legal_moves(st))
        rounds += 1
    dt = time.perf_counter() - t0
    rows.append(("elevation legal turns generated/s", f"{count / dt:,.0f}", ">= 1,000,000"))
    rows.append(("elevation legal_moves calls/s (mid-game mix)", f"{rounds * len(positions) / dt:,.0f}", ">= 500"))

    st = positions[len(positions) // 2]
    moves = GAME.legal_moves(st)
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < seconds / 2:
        for m in moves[:500]:
            GAME.apply_unchecked(st, m)
        n += min(500, len(moves))
    dt = time.perf_counter() - t0
    rows.append(("elevation apply_unchecked/s", f"{n / dt:,.0f}", ">= 20,000"))
    return rows


if __name__ == "__main__":
    for label, value, goal in bench_rows():
        print(f"{label:48s} {value:>12s}   goal {goal}")
