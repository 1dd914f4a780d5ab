"""scripts/bench.py's structure (rows, goals, JSON); nothing here times anything."""
from __future__ import annotations

import json
import math

import pytest

from towerworld.engine import registry


@pytest.fixture(scope="module")
def bench(script):
    return script("bench")


def test_a_row_meets_its_goal_or_not(bench):
    assert bench.Row("stage_ratio_x", 25.0, ">= 20", "x").met() is True
    assert bench.Row("stage_ratio_x", 19.9, ">= 20", "x").met() is False
    assert bench.Row("startup_play_ratio", 2.0, "<= 2", "x").met() is True
    assert bench.Row("ms", 10.0, "< 10", "ms").met() is False
    assert bench.Row("rate", 5.0, "", "/s").met() is None


def test_rows_from_a_game_as_four_tuples_or_older_text(bench):
    assert bench.as_row(("elevation_legal_moves_us", 812.5, "<= 1000", "us")) == \
        bench.Row("elevation_legal_moves_us", 812.5, "<= 1000", "us")
    old = bench.as_row(("elevation legal turns generated/s", "1,234,567", ">= 1,000,000"), "elevation")
    assert old == bench.Row("elevation_legal_turns_generated_s", 1234567.0, ">= 1000000", "")
    assert old.met() is True
    worded = bench.as_row(("K'Dak default opponent", "about right", "about 1 s"), "kdak")
    assert worded.name == "kdak_k_dak_default_opponent" and math.isnan(worded.value) and worded.met() is None


def test_json_holds_every_figure_under_its_name(bench, tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench.main(["--only", "random play", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    for name in registry.names():
        figure = data[f"random_games_per_s_{name}"]
        assert figure["value"] > 0 and figure["unit"] == "/s" and figure["met"] is None
    table = capsys.readouterr().out
    assert "figure" in table and "met" in table and "random_game_ms_kdak" in table
