#!/usr/bin/env python3
"""Measure the Ziggurat figures quoted in docs/rules/ziggurat.md; every figure there names the command that made it.

  python scripts/ziggurat_figures.py blocked [--piles 100000] [--seed 1]
      the share of uniformly shuffled piles that are blocked (no number of cheats can finish them: solver.blocked_at),
      and the count among numbered deals 1-1000
  python scripts/ziggurat_figures.py agents FIRST LAST [--agents player,solver] [--level normal]
      numbered deals FIRST..LAST not proven blocked, played by each agent with no cheat limit: the share finished and
      the mean cheats per finished deal; the fair player is handed its seat's View (never the pile order), the solver
      the whole state (it reads the pile order: an upper bound on what knowing the order is worth)
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from towerworld.engine.driver import END, Driver  # noqa: E402
from towerworld.engine.match import Match  # noqa: E402
from towerworld.games.ziggurat import GAME  # noqa: E402
from towerworld.games.ziggurat.board import NUMBERED_DEALS, deal_order  # noqa: E402
from towerworld.games.ziggurat.solver import blocked_at  # noqa: E402
from towerworld.games.ziggurat.strategy import AGENTS  # noqa: E402

SPECS = {spec.name: spec for spec in AGENTS}

MAX_CHEATS = 200      # an agent still cheating after this many is stopped and counted as not finishing


def blocked_share(piles: int, seed: int) -> None:
    rng = random.Random(seed)
    order = list(range(28))
    hits = 0
    for _ in range(piles):
        rng.shuffle(order)
        hits += blocked_at(order) is not None
    numbered = sum(blocked_at(deal_order(n)) is not None for n in range(1, NUMBERED_DEALS + 1))
    print(f"blocked piles: {hits} of {piles} uniformly shuffled piles ({100 * hits / piles:.1f}%, seed {seed}); "
          f"numbered deals 1-{NUMBERED_DEALS}: {numbered} blocked ({100 * numbered / NUMBERED_DEALS:.1f}%)")


def play(agent_name: str, deal: int, level: str) -> tuple[bool, int, float]:
    """(finished, cheats, seconds) of one agent on numbered deal `deal`, no cheat limit."""
    # through the driver: the fair player is handed its seat's View, the solver (an oracle) the whole state, pile
    # order included; a numbered deal's draws have one outcome each, the pile's next domino
    match = Match(GAME, {"deal": deal}, seed=0)
    driver = Driver.with_agents(match, {0: SPECS[agent_name].factory(GAME, deal, level)}, match.rng)
    start = time.perf_counter()
    while driver.pending().kind != END and match.state.cheats < MAX_CHEATS:
        driver.run(1)
    return GAME.complete(match.state), match.state.cheats, time.perf_counter() - start


def agents_table(first: int, last: int, names: list[str], level: str) -> None:
    deals = [n for n in range(first, last + 1) if blocked_at(deal_order(n)) is None]
    print(f"numbered deals {first}-{last}: {last - first + 1 - len(deals)} proven blocked, {len(deals)} played "
          f"(level {level}, no cheat limit, stopped at {MAX_CHEATS} cheats)")
    for name in names:
        done, cheats, secs, unfinished = 0, [], [], []
        for n in deals:
            finished, c, s = play(name, n, level)
            secs.append(s)
            if finished:
                done += 1
                cheats.append(c)
            else:
                unfinished.append(n)
            print(f"  {name} deal {n}: {'finished' if finished else 'unfinished'} with {c} cheats in {s:.1f} s",
                  file=sys.stderr, flush=True)
        zero = sum(1 for c in cheats if c == 0)
        print(f"{name}: finished {done} of {len(deals)} ({100 * done / max(1, len(deals)):.1f}%), "
              f"mean cheats per finished deal {statistics.mean(cheats) if cheats else float('nan'):.2f} "
              f"(median {statistics.median(cheats) if cheats else float('nan')}, zero-cheat {zero}), "
              f"mean {statistics.mean(secs):.1f} s per deal; unfinished: {unfinished or 'none'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("blocked")
    b.add_argument("--piles", type=int, default=100_000)
    b.add_argument("--seed", type=int, default=1)
    a = sub.add_parser("agents")
    a.add_argument("first", type=int)
    a.add_argument("last", type=int)
    a.add_argument("--agents", default="player,solver")
    a.add_argument("--level", default="normal")
    args = ap.parse_args(argv)
    if args.what == "blocked":
        blocked_share(args.piles, args.seed)
    else:
        agents_table(args.first, args.last, args.agents.split(","), args.level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
