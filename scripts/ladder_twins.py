"""Two ladders' journals set game by game: a candidate against the agent it would replace, on the same seeds.

    python scripts/ladder_twins.py docs/ladders/elevation-norepeat.games.jsonl cand.games.jsonl --agent mcts

A ladder's seeds follow from its seed, the pair's places in the agent list and the game's number in the pair, never
from the agents' names (towerworld.ai.ladder.schedule). So a candidate put in the shipped agent's place in the same
list (`--agents random,greedy,elev-greedy,mcts:easy,CANDIDATE,mcts:strong --pairs CANDIDATE/greedy`, seed 1) plays
the very games the shipped agent played: same chance, same opponent seeds, same seats. Set side by side, the games
tell a change from the luck of 100 games (in Elevation, one change in two moves a game's result either way).
`--agent` names the agent followed in the first journal; in the second, the agent in the same place.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter


def read_journal(path: str) -> dict:
    """{(place a, place b, number in pair): entry} of a ladder's journal (its header line left out)."""
    games = {}
    with open(path) as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue                    # the last line of a ladder stopped while writing it
            if "key" in entry:
                a, b, _, _, k = entry["key"]
                games[(a, b, k)] = entry
    return games


def score_of(entry: dict, place_name: str) -> float:
    """The return of the seat whose agent is `place_name` (a name, or the name before ':level')."""
    for seat, name in enumerate(entry["seats"]):
        if name == place_name or name.split(":")[0] == place_name:
            return entry["returns"][seat]
    raise KeyError(place_name)


def twins(first: dict, second: dict, agent: str) -> str:
    """The followed agent's results in both journals on the games both hold, and how they moved."""
    names = {}
    for (a, b, k), entry in first.items():
        key = entry["key"]
        names[a], names[b] = key[2], key[3]
    place = next((p for p, n in names.items() if n == agent), None)
    if place is None:
        raise KeyError(agent)
    both = sorted(g for g in set(first) & set(second) if place in g[:2])
    if not both:
        return "The two journals share no game of that agent's pairs (other seeds or another ladder)."
    lines = []
    moved: Counter = Counter()
    tallies = []
    for journal in (first, second):
        followed = journal[both[0]]["key"][2 if both[0][0] == place else 3]
        results = [score_of(journal[g], followed) for g in both]
        tallies.append(results)
        w, d, l = (sum(1 for r in results if r == v) for v in (1.0, 0.0, -1.0))
        lines.append(f"{followed}: {w}-{d}-{l} ({(w + d / 2) / len(results):.1%})")
    for x, y in zip(*tallies):
        if x != y:
            moved[(x, y)] += 1
    word = {1.0: ("win", "wins"), 0.0: ("draw", "draws"), -1.0: ("loss", "losses")}
    changes = ", ".join(f"{n} {word[x][n > 1]} became {'' if n > 1 else 'a '}{word[y][n > 1]}"
                        for (x, y), n in sorted(moved.items()))
    return f"{len(both)} games both played\n" + "\n".join(lines) + f"\nchanged: {changes or 'none'}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--agent", required=True, help="the agent followed, as the first journal names it")
    args = parser.parse_args(argv)
    try:
        print(twins(read_journal(args.first), read_journal(args.second), args.agent))
    except OSError as e:
        print(f"Cannot read a journal: {e.strerror} ({e.filename}).", file=sys.stderr)
        return 2
    except (KeyError, ValueError, TypeError, IndexError):
        print(f"{args.first} names no agent '{args.agent}' in its games, or a journal is not a ladder's.",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
