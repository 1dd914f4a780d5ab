"""Elevation's openings: the ladder's games against greedy played by this checkout's search to a ply, and the lead there.

    python scripts/elevation_openings.py --plies 60 --json a.json      # 100 games to ply 60, 2 processes
    python scripts/elevation_openings.py --compare a.json b.json       # game by game: the mean change and its error
    python scripts/elevation_openings.py --table 60                    # the ladder's own lead at ply 60 and results

The games are those of docs/ladders/elevation-norepeat.moves.jsonl (the search of 262e36e against greedy, 45-51-4):
the same schedule, seats and seeds, so that search replays them move
for move and any other search, this checkout's included, plays their twins.
Material early decides those games (`--table 60`: level at ply 60 the search scored 56%, a piece ahead 71%, two
ahead 81%, three or more 100%), so the pieces ahead at ply 60, a third of a game's time, screen a change to the
search's opening and middle game. A screen, not the measure: a change neutral here did worse in whole games, and
these are the seeds the shipped search was chosen on, so whole games on fresh seeds judge (`towerworld ladder ...
--seed N` for both).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from elevation_hunts import GAMES, _pieces, read_games, task_of  # noqa: E402

from towerworld.ai import ladder  # noqa: E402
from towerworld.engine.registry import get_game  # noqa: E402


def lead(state, seat: int) -> int:
    return _pieces(state, seat) - _pieces(state, 1 - seat)


def play_to(job: tuple) -> dict:
    """Game `k` played by this checkout's agents to `plies` (the end when 0): the search's lead there."""
    k, plies = job
    game = get_game("elevation")
    task = task_of(k)
    agents = {seat: ladder.ladder_agent(name, game, seed)
              for seat, (name, seed) in enumerate(zip(task.agents, task.agent_seeds))}
    match = ladder._play(game, task, agents, plies or None)
    me = task.agents.index("mcts")
    over = game.is_terminal(match.state)
    return {"game": k, "lead": lead(match.state, me), "plies": len(match.plies),
            "return": game.returns(match.state)[me] if over else None}


def ladder_table(games: dict, ply: int) -> dict:
    """{lead at `ply`: [games, the search's score]} of the ladder's own games."""
    game = get_game("elevation")
    table: dict = {}
    for record in games.values():
        me = record["seats"].index("mcts")
        state = game.new_state()
        for text in record["moves"][:ply]:
            state = game.apply(state, game.parse_move(state, text))[0]
        row = table.setdefault(lead(state, me), [0, 0.0])
        row[0] += 1
        row[1] += (record["returns"][me] + 1) / 2
    return {k: [n, score / n] for k, (n, score) in sorted(table.items())}


def compare(a: list[dict], b: list[dict]) -> str:
    """The second run's lead against the first's on the games both played: mean change, its standard error, and how
    many games gained or lost."""
    first = {r["game"]: r["lead"] for r in a}
    both = [(first[r["game"]], r["lead"]) for r in b if r["game"] in first]
    if len(both) < 2:
        return f"{len(both)} games in common: too few to compare"
    change = [y - x for x, y in both]
    n = len(change)
    mean = sum(change) / n
    error = math.sqrt(sum((c - mean) ** 2 for c in change) / (n - 1) / n)
    return (f"{n} games: lead {sum(x for x, _ in both) / n:.2f} -> {sum(y for _, y in both) / n:.2f}, "
            f"change {mean:+.2f} (standard error {error:.2f}); "
            f"gained in {_games(sum(c > 0 for c in change))}, lost in {_games(sum(c < 0 for c in change))}")


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=60, help="stop each game there (0: play to the end)")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two results files, game by game")
    parser.add_argument("--table", type=int, metavar="PLY", help="the ladder's own games: lead at PLY and score")
    args = parser.parse_args(argv)
    if args.compare:
        try:
            runs = []
            for path in args.compare:
                with open(path) as f:
                    runs.append(json.load(f)["results"])
            print(compare(*runs))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"Those are not two results files of this script: {e}.", file=sys.stderr)
            return 2
        return 0
    if args.table is not None:
        for k, (n, score) in ladder_table(read_games(), args.table).items():
            print(f"lead {k:+d} at ply {args.table}: {_games(n)}, the search scored {score:.0%}")
        return 0
    if args.plies < 0:
        print("--plies takes a ply count, 0 for whole games.", file=sys.stderr)
        return 2
    results = []
    with Pool(max(1, args.workers)) as pool:
        for r in pool.imap_unordered(play_to, [(k, args.plies) for k in range(GAMES)]):
            results.append(r)
            print(json.dumps(r), flush=True)
    results.sort(key=lambda r: r["game"])
    print(f"mean lead at ply {args.plies or 'the end'}: {sum(r['lead'] for r in results) / len(results):.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"plies": args.plies, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
