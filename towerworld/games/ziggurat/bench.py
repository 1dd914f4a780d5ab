"""Ziggurat performance rows for scripts/bench.py: (label, value, goal)."""
from __future__ import annotations

import random
import time
from towerworld.engine.agent import ask


def bench_rows(seconds: float = 2.0, deals: int = 3) -> list[tuple[str, str, str]]:
    from towerworld.games.ziggurat import GAME
    from towerworld.games.ziggurat.board import deal_order
    from towerworld.games.ziggurat.solver import analyse
    from towerworld.games.ziggurat.strategy import Player

    rows = []
    rng = random.Random(1)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = GAME.random_playout(GAME.new_state(), rng)
        n += 1
    el = time.perf_counter() - t0
    rows.append(("ziggurat random games/s (random_playout)", f"{n / el:.0f}", ">= 100"))

    s = GAME.new_state()
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < seconds / 2:
        if GAME.current_player(s) == -2:
            s = GAME.new_state()
        if GAME.current_player(s) == -1:
            m = GAME.sample_chance(s, rng)
        else:
            m = rng.choice(GAME.legal_moves(s))
        s, _ = GAME.apply_unchecked(s, m)
        k += 1
    rows.append(("ziggurat random plies/s (legal_moves + apply)", f"{k / (time.perf_counter() - t0):.0f}", ">= 5000"))

    times, zero = [], 0
    for i in range(1, deals + 1):
        t = time.perf_counter()
        a = analyse(deal_order(i), budget=1.0)
        times.append(time.perf_counter() - t)
        zero += a.status == "zero"
    rows.append((f"ziggurat analyser s/deal (1 s zero-cheat search + two playouts, {deals} deals)",
                 f"{sum(times) / len(times):.2f} (max {max(times):.2f}, {zero} zero-cheat)", "<= 15"))

    p = Player(seed=0, level=2)
    s = GAME.new_state({"deal": 3})
    decisions = 0
    t0 = time.perf_counter()
    while GAME.current_player(s) != -2 and decisions < 10:
        if GAME.current_player(s) == -1:
            s, _ = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
            continue
        s, _ = GAME.apply(s, ask(p, GAME, s))
        decisions += 1
    rows.append(("ziggurat player s/decision (level normal)", f"{(time.perf_counter() - t0) / max(1, decisions):.3f}",
                 "<= 0.5"))
    return rows


def measure(mode: str, first: int, last: int):
    """The figures of docs/rules/ziggurat.md, one JSON-ready dict per numbered deal: mode "analyse" (the deal analyser,
    3 s for the zero-cheat question) or an agent name ("solver", "player") playing the deal at level normal."""
    from towerworld.games.ziggurat import GAME
    from towerworld.games.ziggurat.board import deal_order
    from towerworld.games.ziggurat.solver import analyse
    from towerworld.games.ziggurat.strategy import AGENTS

    for i in range(first, last + 1):
        t = time.perf_counter()
        if mode == "analyse":
            a = analyse(deal_order(i), budget=3.0)
            yield dict(deal=i, status=a.status, cheats=a.cheats, nodes=a.nodes,
                       seconds=round(time.perf_counter() - t, 2))
            continue
        agent = agents()[mode](GAME, i, "normal")
        s = GAME.new_state({"deal": i})
        rng = random.Random(i)
        while GAME.current_player(s) != -2:
            m = GAME.sample_chance(s, rng) if GAME.current_player(s) == -1 else ask(agent, GAME, s)
            s, _ = GAME.apply(s, m)
        yield dict(deal=i, complete=GAME.complete(s), cheats=s.cheats, gave_up=s.gave_up, result=GAME.result(s),
                   seconds=round(time.perf_counter() - t, 2))


if __name__ == "__main__":
    # python -m towerworld.games.ziggurat.bench                  the bench rows
    # python -m towerworld.games.ziggurat.bench player 1 100     per-deal figures as JSON lines
    import json
    import sys
    if len(sys.argv) == 4:
        for rec in measure(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])):
            print(json.dumps(rec), flush=True)
    else:
        for row in bench_rows():
            print(" | ".join(row))
