"""Elevation's hunt (or its standoffs), measured from the positions where the ladder's games reached it.

    python scripts/elevation_hunts.py --json hunts.json                 # play every hunt position on, 2 processes
    python scripts/elevation_hunts.py --seed-offset 1000 --json b.json  # the same positions, other agent seeds
    python scripts/elevation_hunts.py --start standoff --json s.json    # from the standoffs instead
    python scripts/elevation_hunts.py --compare a.json b.json           # position by position

The positions: in each game of docs/ladders/elevation-norepeat.moves.jsonl (the 100 games of the ladder of the search
of 262e36e against greedy, 45-51-4, with their moves), the first where the search is to move and hunts (the other side
down to two pieces or fewer, the search two more: `last_pieces_hunt`, not the hunt of a standstill against more
pieces), if that comes before turn 170. From each,
the search of this checkout (normal) and greedy play on to the move cap with the agent seeds the ladder gave that game
(plus `--seed-offset`); what counts is how many of them the search converts. The search is set to play on for the win
there, as it had set itself on its turn before. With `--start standoff` the
positions are instead the first where the search is to move in a standoff (two pieces ahead, nothing taken for 30
plies: `standoff`), where the games that end drawn at the move cap stand still.

A screen, not the measure: each hunt starts afresh from one position with new seeds, and a hunt that converted 41, 40
and 42 of the 55 here (the shipped one: 37, 40 and 39) scored worse in the ladder's own games on the same seeds
(docs/rules/elevation.md). What this finds better goes to the ladder (scripts/ladder_twins.py).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from functools import partial
from multiprocessing import Pool

from towerworld.ai import ladder
from towerworld.engine.driver import play_match
from towerworld.engine.match import Match
from towerworld.engine.registry import get_game
from towerworld.games.elevation.strategy import ElevationMCTS

MOVES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "ladders",
                     "elevation-norepeat.moves.jsonl")
# the ladder those games come from: its agents (their places fix the seeds), its pair and its seed
AGENTS = ["random", "greedy", "elev-greedy", "mcts:easy", "mcts", "mcts:strong"]
PAIR = (1, 4)
SEED = 1
GAMES = 100
LAST_TURN = 170         # a hunt reached later has too few turns left before the cap to tell hunts apart


def _pieces(state, side: int) -> int:
    return sum(1 for b in state.board if b >= 0 and b // 6 == side)


def standoff(state, lead: int = 2, quiet: int = ElevationMCTS.HUNT_STUCK) -> bool:
    """The side to move is `lead` pieces or more ahead, and nothing was taken for `quiet` plies."""
    me = state.mover
    return _pieces(state, me) - _pieces(state, 1 - me) >= lead and len(state.history) >= quiet


def last_pieces_hunt(hunter: ElevationMCTS, state) -> bool:
    """The search hunts the other side's last pieces (HUNT_LEFT or fewer), not a standstill against more of them
    (`HUNT_STUCK`): the positions this script measures."""
    return hunter._hunting(state) and _pieces(state, 1 - state.mover) <= hunter.HUNT_LEFT


def task_of(k: int) -> ladder.GameTask:
    """Game `k` of the ladder's pair (greedy against the search): its seats and seeds."""
    return next(t for t in ladder.schedule("elevation", AGENTS, GAMES, SEED, pairs=[PAIR]) if t.number_in_pair == k)


def read_games(path: str = MOVES) -> dict:
    """{game number: its record (seats, returns, moves ...)} of the ladder's games with their moves."""
    with open(path) as f:
        return {record["k"]: record for record in map(json.loads, f)}


def hunt_positions(games: dict, start: str = "hunt") -> list[dict]:
    """{game, ply, search seat, material} of each game's first hunt position (or standoff), in the games' order."""
    game = get_game("elevation")
    hunter = ElevationMCTS(seed=0)
    begins = partial(last_pieces_hunt, hunter) if start == "hunt" else standoff
    found = []
    for record in games.values():
        me = record["seats"].index("mcts")
        state = game.new_state()
        for ply, text in enumerate(record["moves"]):
            if state.turns >= LAST_TURN:
                break
            if state.mover == me and state.phase == 0 and begins(state):
                found.append({"game": record["k"], "ply": ply, "seat": me,
                              "material": f"{_pieces(state, me)}v{_pieces(state, 1 - me)}", "turn": state.turns})
                break
            state = game.apply(state, game.parse_move(state, text))[0]
    return found


def play_on(job: tuple) -> dict:
    """One hunt position played on to the end by the search of this checkout and greedy."""
    position, moves, offset = job
    game = get_game("elevation")
    task = task_of(position["game"])
    seats = [ladder.PlayerSpec(f"{name} ({i + 1})", "ai", name) for i, name in enumerate(task.agents)]
    match = Match(game, players=seats, seed=task.chance_seed)
    for text in moves[:position["ply"]]:
        match.apply(game.parse_move(match.state, text), save=False)
    agents = {seat: ladder.ladder_agent(name, game, seed + offset)
              for seat, (name, seed) in enumerate(zip(task.agents, task.agent_seeds))}
    for agent in agents.values():
        if hasattr(agent, "_playing_on"):
            agent._playing_on = True
    play_match(match, agents)
    me, state = position["seat"], match.state
    return {"game": position["game"], "from_ply": position["ply"], "return": game.returns(state)[me],
            "material": f"{_pieces(state, me)}v{_pieces(state, 1 - me)}", "turns": state.turns,
            "ending": game.result(state)}


def compare(a_path: str, b_path: str) -> str:
    """The two runs position by position: each one's conversions on the positions both played, and which differ."""
    with open(a_path) as f:
        a = {r["game"]: r for r in json.load(f)["results"]}
    with open(b_path) as f:
        b = {r["game"]: r for r in json.load(f)["results"]}
    both = sorted(set(a) & set(b))
    won = lambda runs: sum(1 for g in both if runs[g]["return"] > 0)  # noqa: E731
    better = [g for g in both if b[g]["return"] > a[g]["return"]]
    worse = [g for g in both if b[g]["return"] < a[g]["return"]]
    return (f"{len(both)} positions: {won(a)} converted by {a_path}, {won(b)} by {b_path}\n"
            f"better in the second: {better}\nworse in the second: {worse}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed-offset", type=int, default=0, help="added to each agent's seed (fresh continuations)")
    parser.add_argument("--games", help="only these games of the ladder, e.g. 4,18,51")
    parser.add_argument("--start", choices=("hunt", "standoff"), default="hunt",
                        help="play on from each game's first hunt position (default) or first standoff")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two results files, position by position")
    args = parser.parse_args(argv)
    if args.compare:
        try:
            print(compare(*args.compare))
        except (OSError, ValueError, KeyError) as e:
            print(f"Those are not two results files of this script: {e}.", file=sys.stderr)
            return 2
        return 0
    games = read_games()
    positions = hunt_positions(games, args.start)
    if args.games:
        try:
            chosen = {int(g) for g in args.games.split(",")}
        except ValueError:
            print("--games takes game numbers separated by commas, e.g. 4,18,51.", file=sys.stderr)
            return 2
        positions = [p for p in positions if p["game"] in chosen]
    jobs = [(p, games[p["game"]]["moves"], args.seed_offset) for p in positions]
    results = []
    with Pool(max(1, args.workers)) as pool:
        for r in pool.imap_unordered(play_on, jobs):
            results.append(r)
            print(r["game"], r["return"], r["material"], r["turns"], r["ending"], flush=True)
    results.sort(key=lambda r: r["game"])
    converted = sum(1 for r in results if r["return"] > 0)
    print(f"{converted} of {len(results)} {args.start} positions converted")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"start": args.start, "seed_offset": args.seed_offset, "positions": positions,
                       "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
