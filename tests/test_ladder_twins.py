"""scripts/ladder_twins.py: a candidate in the shipped agent's place plays the shipped agent's games, and is set beside
them game by game."""
from __future__ import annotations

import json

from towerworld.ai.ladder import schedule


def test_a_candidate_in_the_shipped_agents_place_gets_the_same_seeds_and_seats():
    shipped = schedule("kdak", ["random", "greedy", "mcts"], 6, 1, pairs=[(1, 2)])
    candidate = schedule("kdak", ["random", "greedy", "mcts:strong"], 6, 1, pairs=[(1, 2)])
    assert [(t.chance_seed, t.agent_seeds, t.seats) for t in shipped] == \
           [(t.chance_seed, t.agent_seeds, t.seats) for t in candidate]
    # the same pair at other places in the list plays other seeds: the places, not the names, fix them
    elsewhere = schedule("kdak", ["greedy", "random", "mcts"], 6, 1, pairs=[(0, 2)])
    assert [t.chance_seed for t in elsewhere] != [t.chance_seed for t in shipped]


def _journal(path, name: str, results: list[float]) -> str:
    """A journal of `name` (place 2) against greedy (place 1): `results` are `name`'s returns, seats alternated."""
    lines = [json.dumps({"format": "towerworld-ladder-journal", "game": "kdak", "seed": 1})]
    for k, r in enumerate(results):
        seats = ["greedy", name] if k % 2 == 0 else [name, "greedy"]
        returns = [-r, r] if k % 2 == 0 else [r, -r]
        lines.append(json.dumps({"key": [1, 2, "greedy", name, k], "seats": seats, "returns": returns}))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_games_both_played_are_tallied_and_their_changes_counted(tmp_path, script):
    twins = script("ladder_twins")
    first = twins.read_journal(_journal(tmp_path / "a.jsonl", "mcts", [1.0, 0.0, 0.0, -1.0, 1.0]))
    second = twins.read_journal(_journal(tmp_path / "b.jsonl", "mcts:strong", [1.0, 1.0, 0.0, 0.0]))
    text = twins.twins(first, second, "mcts")
    assert text.splitlines() == ["4 games both played", "mcts: 1-2-1 (50.0%)", "mcts:strong: 2-2-0 (75.0%)",
                                 "changed: 1 loss became a draw, 1 draw became a win"]
