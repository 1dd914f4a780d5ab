"""scripts/ladders.py: the ladder sections of docs/measurements, written from a ladder's JSON, with the levels' gaps."""
from __future__ import annotations

import json


def ladder_json(elo: dict, matrix: dict) -> dict:
    return {"game": "kdak", "games_per_pair": 10, "seed": 1,
            "ratings": [{"agent": a, "elo": e, "low": e - 100, "high": e + 100} for a, e in elo.items()],
            "matrix": matrix, "games": [{"ending": "Player 1 wins, 3 to 1."}], "seconds_per_move": {}}


def test_levels_are_told_with_their_gap_and_whether_it_meets_150(tmp_path, monkeypatch, script):
    """Levels: easy, normal, strong, each at least 150 Elo above the one below in the ladder."""
    ladders = script("ladders")
    monkeypatch.setattr(ladders, "OUT", str(tmp_path))
    row = {"wins": 7, "draws": 1, "losses": 2}
    data = ladder_json({"mcts:easy": -200.0, "mcts": 100.0, "mcts:strong": 180.0, "random": -80.0},
                       {"mcts": {"mcts:easy": row, "random": row}, "mcts:strong": {"mcts": row}})
    path = tmp_path / "field.json"
    path.write_text(json.dumps(data))
    ladders.from_json(str(path), "towerworld ladder kdak ...", 5, 1, part="field", heading="K'Dak: the levels")
    ladders.from_json(str(path), "towerworld ladder kdak ...", 5, 1)
    text = open(ladders.join_sections(), encoding="utf-8").read()
    assert "| `mcts` over `mcts:easy` | 300 | 7-1-2 | 150: met |" in text
    assert "| `mcts:strong` over `mcts` | 80 | 7-1-2 | 150: not met |" in text
    assert text.index("## K'Dak's Tower of Confusion") < text.index("## K'Dak: the levels"), "the main part first"
    assert "](kdak-field.png)" in text


def test_a_ladder_without_levels_has_no_level_table(script):
    ladders = script("ladders")
    data = ladder_json({"mcts": 100.0, "random": -100.0}, {"mcts": {"random": {"wins": 10, "draws": 0, "losses": 0}}})
    assert "Elo over the level below" not in ladders.section("kdak", data, "cmd", 1, 1, "2026-11-23")
