"""Elevation's speed rows, collected by scripts/bench.py: `rows()` gives (name, value, goal, unit).

Legal-move generation is timed two ways, because a piece's turns come from a table filled on first use: along random
games played from a cleared table ("cold": most keys are new, as in a fresh game) and over positions the table has seen
("warm": what a search meets, where siblings share most of the board).
"""
from __future__ import annotations

import random
import time

from towerworld.engine.game import TERMINAL
from towerworld.games.elevation import GAME
from towerworld.games.elevation.rules import _TABLE, State, advance, all_turns
from towerworld.games.elevation.strategy import ElevationMCTS


def _random_positions(n: int, seed: int) -> list[State]:
    """Positions along random games (start, opening, middle game)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < n:
        st = GAME.new_state()
        while GAME.current_player(st) != TERMINAL and len(out) < n and st.turns < 60:
            out.append(st)
            moves = all_turns(st)
            st = advance(st, moves[rng.randrange(len(moves))])
    return out


def legal_moves_us(positions: list[State], rounds: int) -> float:
    t0 = time.perf_counter()
    for _ in range(rounds):
        for st in positions:
            all_turns(st)
    return (time.perf_counter() - t0) / (rounds * len(positions)) * 1e6


def mcts_sims_per_s(seconds: float) -> float:
    """Simulations a second of the default opponent's search, from the opening position and a middle game."""
    sims = spent = 0.0
    for st in (GAME.new_state(), _random_positions(40, 3)[-1]):
        agent = ElevationMCTS(seed=1, seconds=seconds / 2)
        agent.choose_state(st)
        sims += agent.last_iterations
        spent += agent.last_seconds
    return sims / spent


def rows(seconds: float = 2.0) -> list[tuple[str, str, str, str]]:
    positions = _random_positions(120, 11)
    moves = sum(len(all_turns(st)) for st in positions) / len(positions)
    _TABLE.clear()
    cold = legal_moves_us(positions, 1)
    warm = legal_moves_us(positions, 3)
    st = positions[len(positions) // 2]
    turns = all_turns(st)[1:501]
    t0 = time.perf_counter()
    for m in turns:
        GAME.apply_unchecked(st, m)
    apply_us = (time.perf_counter() - t0) / len(turns) * 1e6
    return [
        ("elevation_legal_moves_per_position", f"{moves:,.0f}", "", "moves"),
        ("elevation_legal_moves_us (cold table, random games)", f"{cold:,.0f}", "<= 48", "us"),
        ("elevation_legal_moves_us (warm table)", f"{warm:,.0f}", "<= 48", "us"),
        ("elevation_apply_us", f"{apply_us:,.1f}", "<= 50", "us"),
        ("mcts_sims_per_s_elevation", f"{mcts_sims_per_s(seconds):,.0f}", ">= 4,000", "sims/s"),
    ]


def bench_rows(seconds: float = 2.0) -> list[tuple[str, str, str]]:
    """The same rows in the older three-column form (name with unit, value, goal)."""
    return [(f"{name} ({unit})", value, goal) for name, value, goal, unit in rows(seconds)]


def play_match(opponent: str, seed: int, level: str = "normal", seat: int = 0, cap: int = 200) -> dict:
    """One game of the default opponent ('mcts' at `level`, in `seat`) against `opponent` (an agent name); what
    happened: the winner from the default opponent's side, why, how many turns, seconds per search move."""
    from towerworld.ai import make_agent
    from towerworld.engine.agent import ask
    default_opponent = make_agent("mcts", GAME, seed=seed, level=level)
    other = make_agent(opponent, GAME, seed=seed + 1000)
    agents = [default_opponent, other] if seat == 0 else [other, default_opponent]
    st = GAME.new_state({"move_cap": cap})
    spent, asked = 0.0, 0
    while GAME.current_player(st) != TERMINAL:
        who = GAME.current_player(st)
        t0 = time.perf_counter()
        move = ask(agents[who], GAME, st)
        if who == seat:
            spent += time.perf_counter() - t0
            asked += 1
        st, _ = GAME.apply(st, move)
    result = "draw" if st.outcome not in (0, 1) else "win" if st.outcome == seat else "loss"
    return {"result": result, "reason": st.reason, "turns": st.turns, "s_per_move": spent / max(asked, 1),
            "captured": GAME.scores(st)[seat], "lost": GAME.scores(st)[1 - seat]}


def main(argv=None) -> None:
    import argparse
    parser = argparse.ArgumentParser(description="Elevation bench rows, or matches of the default opponent.")
    parser.add_argument("--against", help="play matches against this agent (random, greedy, elev-greedy)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="normal")
    args = parser.parse_args(argv)
    if not args.against:
        for name, value, goal, unit in rows():
            print(f"{name:52s} {value:>10s} {unit:7s} goal {goal}")
        return
    tally: dict = {}
    for g in range(args.games):
        r = play_match(args.against, args.seed + g, args.level, seat=g % 2)
        tally[r["result"]] = tally.get(r["result"], 0) + 1
        print(f"game {g + 1}: {r['result']} ({r['reason']}) in {r['turns']} turns, took {r['captured']} lost "
              f"{r['lost']}, {r['s_per_move']:.2f} s/move", flush=True)
    print("total:", tally, flush=True)


if __name__ == "__main__":
    main()
