"""scripts/bench.py's structure (rows, goals, JSON); nothing here times anything."""
from __future__ import annotations

import json
import math
import os

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


def test_the_sides_of_a_ratio_take_turns_and_the_ratio_is_the_rounds_median(bench):
    calls = []

    def side(name, value):
        def measure():
            calls.append(name)
            return value
        return measure
    taken = bench.alternated({"a": side("a", 2.0), "b": side("b", 1.0)}, 4)
    assert calls == ["a", "b"] + ["a", "b", "b", "a", "a", "b", "b", "a"], "a warm-up each, then turns"
    assert taken == {"a": [2.0] * 4, "b": [1.0] * 4}
    row = bench.ratio_row("x_ratio", [3.0, 2.0, 9.0], [1.0, 1.0, 1.0], "<= 2.5")
    assert row.value == 3.0 and row.spread == "2-9 over 3" and row.met() is False


def test_a_startup_run_marks_wall_and_cpu_time(bench):
    """A startup side's marks carry the wall clock from the process's start and the CPU time it had used: a side that
    spends 50 ms of CPU before its mark shows at least that much of both."""
    run = bench._run_script(bench._MARK + "t = time.process_time()\nwhile time.process_time() - t < 0.05:\n    pass\n"
                            "_mark('shown')\n")
    assert run.cpu["shown"] >= 0.05 and run.at("shown") >= 0.05
    assert run.exit >= run.at("shown") and run.peak_kb > 0


def test_rows_carry_their_spread_into_the_json(bench, tmp_path):
    row = bench.as_row(("a_ratio", 1.2, "<= 1.5", "x", "", "1.1-1.4 over 5"))
    assert row.spread == "1.1-1.4 over 5" and row.note == ""
    assert bench.as_row(("n", 1.0, "", "ms", "why")).spread == ""


def test_search_positions_come_from_the_early_middle_and_late_of_whole_games(bench):
    game = registry.get_game("kdak")
    positions = bench.positions_along_games(game, 2, seed=3)
    assert [phase for phase, _ in positions] == ["early", "middle", "late"] * 2
    for _, state in positions:
        assert game.current_player(state) >= 0 and len(game.legal_moves(state)) > 1


def test_engine_share_rows_lose_the_search_goal(bench):
    share = bench._as_measured(bench.Row("engine_sims_per_s_kdak", 4000.0, ">= 5000", "sims/s", "short"))
    assert share.goal == "" and share.met() is None and "upper bound" in share.unit
    other = bench.Row("kdak_random_games_per_s", 400.0, ">= 500", "games/s")
    assert bench._as_measured(other) == other


def test_draw_calls_are_read_from_the_pstats_report_frame_by_frame():
    from towerworld.app.bench import batches_per_frame
    report = "\n".join([
        "Thread Main frame 7, 20.1 ms (49.7 Hz):",
        "  Draw = 3.2 ms",
        "  Primitive batches = 0 ",
        "    Display lists = 0 ",
        "    Triangle strips = 4 ",
        "    Triangles = 31 ",
        "    Other = 2 ",
        "  Vertices = 12.5 K",
        "    Triangles = 11 K",
        "Thread Main frame 8, 19.8 ms (50.5 Hz):",
        "  Primitive batches = 40 ",
        "  Vertices = 1 K",
    ])
    assert batches_per_frame(report) == [37, 40]
    assert batches_per_frame("nothing here") == []


@pytest.fixture(scope="module")
def against(script):
    return script("bench_against")


def test_a_row_is_better_or_worse_only_where_the_two_sides_rounds_do_not_meet(against):
    faster = {"goal": ">= 20", "unit": "x"}
    assert against.better_when(faster) == "higher"
    assert against.better_when({"goal": "<= 1.5", "unit": "x"}) == "lower"
    assert against.better_when({"goal": "", "unit": "ms"}) == "lower"
    assert against.better_when({"goal": "", "unit": "sims/s"}) == "higher"
    assert against.better_when({"goal": "", "unit": "x"}) is None
    # higher is better: every round now above every round before
    assert against.verdict([20.0, 22.0], [23.0, 25.0], "higher") == "better"
    assert against.verdict([20.0, 22.0], [17.0, 19.5], "higher") == "worse"
    # the ranges meet: no bigger than what one side gives from round to round
    assert against.verdict([20.0, 22.0], [19.0, 20.5], "higher") == "within noise"
    assert against.verdict([0.30, 0.34], [0.40, 0.44], "lower") == "worse"
    assert against.verdict([0.30, 0.34], [0.33, 0.44], "lower") == "within noise"
    assert against.verdict([0.30, 0.34], [0.20, 0.29], "lower") == "better"
    assert against.verdict([1.0], [2.0], None) == ""


def test_a_commit_measured_beside_itself_gives_every_row_on_both_sides(against, tmp_path, capsys):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.exists(os.path.join(root, ".git")):
        pytest.skip("not a git checkout: there is no other commit to measure")
    out = tmp_path / "against.json"
    assert against.main(["HEAD", "--rounds", "1", "--only", "random play (ziggurat)", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    row = data["rows"]["random_games_per_s_ziggurat"]
    assert row["before"] > 0 and row["now"] > 0 and row["unit"] == "/s"
    assert row["verdict"] in ("better", "worse", "within noise")
    assert data["only_now"] == [] and data["only_before"] == []
    table = capsys.readouterr().out
    assert "random_games_per_s_ziggurat" in table and "now/before" in table


def test_a_name_that_is_no_commit_is_one_sentence(against, capsys):
    with pytest.raises(SystemExit):
        against.main(["no-such-commit-anywhere"])
    err = capsys.readouterr().err
    assert "no-such-commit-anywhere names no commit of this repository." in err and "Traceback" not in err
