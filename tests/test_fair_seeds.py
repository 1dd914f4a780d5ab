"""Records never steer live chance: a seeded record replays and checks, but a game resumed from any record draws
its next chance from OS entropy; `seeded` written into an autosave predicts nothing; seeds out of range are refused on
the command line; `simulate` without `--seed` plays fresh games and prints the seed that repeats them."""
from __future__ import annotations

import json
import random
import re

import pytest

from towerworld.cli import main
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.record import MAX_SEED, load_match, save_match
from towerworld.engine.registry import get_game

SEED = 424242


def _kdak_at_a_roll(path, seed: int | None):
    """A K'Dak game between two people played at random until a chance outcome is due, saved at `path`."""
    m = Match(get_game("kdak"), players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=seed, autosave=str(path))
    rng = random.Random(3)
    for _ in range(6):
        moves = m.game.legal_moves(m.state)
        m.apply(moves[rng.randrange(len(moves))])
        answer_chance(m, rng, save=True)
    moves = m.game.legal_moves(m.state)
    m.apply(moves[0])
    assert m.current_player == CHANCE
    return m


def _predicted(m: Match, seed: int) -> int:
    """How many of 30 resumes of the record at m.autosave_path draw, from the source the table uses, the outcome a
    reader of the file predicts from its `seeded` field."""
    hits = 0
    for _ in range(30):
        back = load_match(m.autosave_path, autosave=m.autosave_path)
        table_chance = back.rng if back.seed is not None else random.SystemRandom()   # as the table chooses
        drawn = back.next_chance(table_chance)
        guess = Match(m.game, players=m.players, seed=seed)
        guess.state = back.state
        hits += drawn == guess.next_chance(random.Random(seed))
    return hits


def test_a_resumed_seeded_record_draws_live_chance(tmp_path):
    m = _kdak_at_a_roll(tmp_path / "seeded.tower.json", SEED)
    data = json.loads(open(m.autosave_path, encoding="utf-8").read())
    assert data["seeded"] == SEED                     # the record says how its moves were drawn
    back = load_match(m.autosave_path)
    assert back.state == m.state and back.seed is None and isinstance(back.rng, random.SystemRandom)
    assert _predicted(m, SEED) < 30, "every resumed draw was predicted from the file's seed"


def test_seeded_forged_into_a_live_autosave_steers_nothing(tmp_path):
    m = _kdak_at_a_roll(tmp_path / "live.tower.json", None)
    data = json.loads(open(m.autosave_path, encoding="utf-8").read())
    assert "seeded" not in data
    data["seeded"] = SEED
    with open(m.autosave_path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    assert _predicted(m, SEED) < 30, "a forged seed drove the resumed game's draws"
    back = load_match(m.autosave_path, autosave=str(tmp_path / "again.tower.json"))
    save_match(back, back.autosave_path)
    assert "seeded" not in json.loads(open(back.autosave_path, encoding="utf-8").read())


@pytest.mark.parametrize("command", [["simulate", "kdak"], ["play", "kdak"], ["render", "kdak", "--out", "x.png"],
                                     ["ladder", "kdak", "--agents", "random,greedy"], ["demo", "kdak-collapse"]])
@pytest.mark.parametrize("seed", ["12345678901234567890123456", str(MAX_SEED + 1), "-1", "1.5"])
def test_seeds_out_of_range_are_refused_in_one_sentence(command, seed, capsys):
    assert main(command + ["--seed", seed]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"from 0 to {MAX_SEED}" in err and "Traceback" not in err


def test_the_largest_seed_is_kept_and_a_run_past_it_refused(tmp_path, capsys):
    assert main(["simulate", "kdak", "--games", "1", "--seed", str(MAX_SEED), "--out", str(tmp_path)]) == 0
    assert main(["check", str(tmp_path)]) == 0
    assert main(["simulate", "kdak", "--games", "2", "--seed", str(MAX_SEED)]) == 2
    assert "largest seed" in capsys.readouterr().err


def _simulate(capsys, *extra) -> tuple[int, str]:
    assert main(["simulate", "kdak", "--games", "3", *extra]) == 0
    out = capsys.readouterr().out
    seed = int(re.search(r"--seed (\d+)\)", out).group(1))
    return seed, out.split("\n", 1)[1].rsplit("mean plies", 1)[0]      # the table and the results, not the rate


def test_simulate_without_a_seed_plays_fresh_games_and_says_how_to_repeat_them(capsys):
    first, table = _simulate(capsys)
    second, _ = _simulate(capsys)
    assert first != second, "two runs without --seed played the same seeds"
    again, repeated = _simulate(capsys, "--seed", str(first))
    assert again == first and repeated == table
