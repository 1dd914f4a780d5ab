"""The ladder: round robin with twinned seeds, Elo by maximum likelihood, the same results however it is run."""
from __future__ import annotations

import json
import math
import random

import pytest

from towerworld.ai.ladder import (GameResult, LadderError, fit_elo, rate, report, run_ladder, schedule, write_chart,
                                  write_json)
from towerworld.cli import main
from towerworld.engine.agent import Agent
from towerworld.engine.game import AgentSpec, BadOption, GameInfo

try:
    from slowclock import crawl_clock, first_real_choice
except ImportError:  # tests run as a package
    from tests.slowclock import crawl_clock, first_real_choice

try:
    from toygame import ToyNim
except ImportError:  # tests run as a package
    from tests.toygame import ToyNim


class PerfectNimPlayer(Agent):
    """Leaves a multiple of (max_take + 1) coins whenever it can: it never loses a game it can win."""
    name = "perfect"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, view):
        coins, _, max_take = view.resample(self.rng)
        take = coins % (max_take + 1)
        return ("take", take) if take else view.legal_moves[self.rng.randrange(len(view.legal_moves))]


class Cheat(Agent):
    """Takes more coins than the rules allow."""
    name = "cheat"

    def choose(self, view):
        return ("take", 9)


class NimWithPlayer(ToyNim):
    def agents(self):
        return (AgentSpec("perfect", "perfect", lambda game, seed, level: PerfectNimPlayer(seed)),
                AgentSpec("cheat", "cheat", lambda game, seed, level: Cheat()),
                AgentSpec("slow", "slow", lambda game, seed, level: SlowNimPlayer(seed)))


PERFECT_NIM = NimWithPlayer()
NIM_REF = f"{__name__}:PERFECT_NIM"      # worker processes import the game from here


def test_the_ladder_ranks_a_perfect_nim_player_above_random_play():
    # The ladder is "a round robin between agents (seats rotated, same seeds for both colours) ... prints Elo ratings
    # with 95% intervals and the win/draw/loss matrix".
    result = run_ladder(NIM_REF, ["random", "perfect", "ismcts:400it"], games=20, seed=1, workers=1)
    by_name = {r.agent: r for r in result.ratings}
    assert by_name["perfect"].low > by_name["random"].high
    assert by_name["ismcts:400it"].elo > by_name["random"].elo
    assert abs(sum(r.elo for r in result.ratings)) < 1e-6
    random_i, perfect_i = result.agents.index("random"), result.agents.index("perfect")
    assert result.wins[perfect_i][random_i] + result.wins[random_i][perfect_i] == 20
    assert result.wins[perfect_i][random_i] >= 15
    text = report(result)
    assert "95% interval" in text and "wins-draws-losses" in text


def test_one_and_two_workers_give_the_same_results():
    agents = ["random", "ismcts:30it"]
    alone = run_ladder(NIM_REF, agents, games=6, seed=7, workers=1)
    pooled = run_ladder(NIM_REF, agents, games=6, seed=7, workers=2)
    assert alone.to_json() == pooled.to_json()
    assert run_ladder(NIM_REF, agents, games=6, seed=8, workers=1).to_json()["games"] != alone.to_json()["games"]


def test_ray_local_gives_the_same_results():
    pytest.importorskip("ray")
    agents = ["random", "ismcts:30it"]
    here = run_ladder(NIM_REF, agents, games=4, seed=5, workers=1)
    on_ray = run_ladder(NIM_REF, agents, games=4, seed=5, workers=2, ray_address="local")
    assert on_ray.to_json() == here.to_json()


def test_twins_share_every_seed_with_the_seats_swapped():
    tasks = schedule("toynim", ["a", "b", "c"], 4, seed=3)
    assert len(tasks) == 3 * 4
    first, second = tasks[0], tasks[1]
    assert first.seats == (0, 1) and second.seats == (1, 0)
    assert first.chance_seed == second.chance_seed
    assert first.agent_seeds == second.agent_seeds[::-1]
    assert tasks[2].chance_seed != first.chance_seed
    assert [t.index for t in tasks] == list(range(12))


def test_seeds_follow_the_places_in_the_agent_list_not_the_names():
    # A candidate put in the shipped agent's place in the same list plays the very games the shipped agent played.
    shipped = schedule("kdak", ["random", "greedy", "mcts"], 6, 1, pairs=[(1, 2)])
    candidate = schedule("kdak", ["random", "greedy", "mcts:strong"], 6, 1, pairs=[(1, 2)])
    assert [(t.chance_seed, t.agent_seeds, t.seats) for t in shipped] == \
           [(t.chance_seed, t.agent_seeds, t.seats) for t in candidate]
    # the same pair at other places in the list plays other seeds: the places, not the names, fix them
    elsewhere = schedule("kdak", ["greedy", "random", "mcts"], 6, 1, pairs=[(0, 2)])
    assert [t.chance_seed for t in elsewhere] != [t.chance_seed for t in shipped]


def test_elo_fit_matches_the_two_player_formula():
    # Two agents, 30 wins to 10: with one virtual draw the score is 30.5 of 41, and the Elo gap is 400 log10(s/(1-s)).
    elo, errors = fit_elo([[0, 30], [10, 0]], [[0, 0], [0, 0]])
    share = 30.5 / 41
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(share / (1 - share)), abs=1e-6)
    assert elo[0] == pytest.approx(-elo[1])
    assert errors[0] == pytest.approx(errors[1]) and 0 < errors[0] < 200
    even, _ = fit_elo([[0, 5, 5], [5, 0, 5], [5, 5, 0]], [[0, 2, 2], [2, 0, 2], [2, 2, 0]])
    assert even == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)


def test_a_perfect_score_still_has_a_finite_rating():
    elo, errors = fit_elo([[0, 50], [0, 0]], [[0, 0], [0, 0]])
    assert all(math.isfinite(v) for v in elo + errors) and elo[0] > elo[1] + 300


def test_draws_and_the_matrix():
    results = [GameResult(0, (0, 1), (1.0, -1.0), 5), GameResult(1, (1, 0), (0.0, 0.0), 5),
               GameResult(2, (1, 0), (1.0, -1.0), 5)]
    result = rate("toynim", ["a", "b"], 2, 1, results)
    assert result.wins == [[0, 1], [1, 0]] and result.draws == [[0, 1], [1, 0]]
    assert result.to_json()["matrix"]["a"]["b"] == {"wins": 1, "draws": 1, "losses": 1}


def test_json_and_chart_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    result = run_ladder(NIM_REF, ["random", "perfect"], games=4, seed=2, workers=1)
    write_json(result, str(tmp_path / "l.json"))
    write_chart(result, str(tmp_path / "l.png"))
    data = json.loads((tmp_path / "l.json").read_text())
    assert data["agents"] == ["random", "perfect"] and len(data["games"]) == 4
    assert (tmp_path / "l.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_ladder_command(tmp_path, capsys):
    out = tmp_path / "r.json"
    code = main(["ladder", NIM_REF, "--agents", "random,perfect", "--games", "4", "--workers", "1",
                 "--json", str(out), "--chart", str(tmp_path / "r.png")])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Elo" in printed and "perfect" in printed and out.exists()


@pytest.mark.parametrize("argv, words", [
    (["--agents", "random"], "at least two agents"),
    (["--agents", "random,random"], "only once"),
    (["--agents", "random,nobody"], "no agent called 'nobody'"),
    (["--agents", "random,perfect", "--games", "1"], "at least 2 games"),
    (["--agents", "random,perfect", "--workers", "0"], "--workers"),
])
def test_the_ladder_command_refuses_bad_requests_in_one_sentence(argv, words, capsys):
    assert main(["ladder", NIM_REF, *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


class SoloNim(ToyNim):
    def info(self):
        return GameInfo(min_players=1, max_players=1, min_utility=-1.0, max_utility=1.0, zero_sum=False, chance=False,
                        perfect_information=True, max_plies=15, max_moves=3)


SOLO_NIM = SoloNim()


def test_a_ladder_needs_a_two_player_game():
    with pytest.raises(BadOption, match="for 1 player, not 2"):
        run_ladder(f"{__name__}:SOLO_NIM", ["random", "greedy"], games=2)
    with pytest.raises(LadderError, match="at least two agents"):
        run_ladder(NIM_REF, ["random"], games=2)


def test_an_agent_that_breaks_the_rules_stops_the_ladder_with_one_sentence(tmp_path, capsys):
    assert main(["ladder", NIM_REF, "--agents", "random,cheat", "--games", "2", "--workers", "1",
                 "--json", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert "In game 1 (random vs cheat)" in err and "illegal move" in err and "Traceback" not in err


def test_the_ladder_command_refuses_an_unwritable_result_before_playing(tmp_path, capsys):
    code = main(["ladder", NIM_REF, "--agents", "random,perfect", "--json", str(tmp_path / "no" / "r.json")])
    assert code == 2 and "--json" in capsys.readouterr().err



class SlowNimPlayer(PerfectNimPlayer):
    """The perfect player, taking at least 20 ms a move: the ladder's stopwatch must see it."""
    name = "slow"

    def choose(self, view):
        import time
        time.sleep(0.02)
        return super().choose(view)


def test_seconds_per_move_and_endings_are_reported_but_not_part_of_the_seeded_results(tmp_path):
    result = run_ladder(NIM_REF, ["random", "slow"], games=4, seed=2, workers=1)
    random_pace, slow_pace = result.seconds_per_move()
    assert slow_pace >= 0.02 and random_pace < 0.02
    assert all(g.ending.endswith("wins.") for g in result.games)
    text = report(result)
    assert "s/move" in text and "how the games ended" in text and result.games[0].ending in text
    assert "seconds_per_move" not in result.to_json()          # equal seeds, equal JSON, however fast the machine
    write_json(result, str(tmp_path / "l.json"))
    pace = json.loads((tmp_path / "l.json").read_text())["seconds_per_move"]
    assert pace["slow"] == pytest.approx(slow_pace) and pace["random"] == pytest.approx(random_pace)


def test_a_ladder_of_chosen_pairs_plays_only_those_and_still_rates_everyone():
    agents = ["random", "perfect", "slow"]
    result = run_ladder(NIM_REF, agents, games=4, seed=3, workers=1, pairs=[("random", "perfect"), ("perfect", "slow")])
    played = {frozenset(g.seats) for g in result.games}
    assert played == {frozenset((0, 1)), frozenset((1, 2))} and len(result.games) == 8
    assert "slow" not in result.to_json()["matrix"]["random"]
    assert all(math.isfinite(r.elo) for r in result.ratings)


@pytest.mark.parametrize("pairs,words", [([("random", "nobody")], "not one of the ladder's agents"),
                                         ([("random", "perfect"), ("slow", "cheat")], "link every agent"),
                                         ([("random", "random")], "link every agent")])
def test_pairs_that_name_strangers_or_fall_apart_are_refused(pairs, words):
    with pytest.raises(LadderError) as err:
        run_ladder(NIM_REF, ["random", "perfect", "slow", "cheat"], games=2, seed=1, workers=1, pairs=pairs)
    assert words in str(err.value)


def test_agents_in_no_pair_are_not_rated_but_keep_the_others_seeds():
    # A few pairs of a field play the very games the whole field's ladder plays for them (so one journal serves both).
    field = ["random", "perfect", "slow"]
    some = run_ladder(NIM_REF, field, games=4, seed=4, workers=1, pairs=[("random", "slow")])
    assert some.agents == ["random", "slow"] and len(some.games) == 4
    whole = run_ladder(NIM_REF, field, games=4, seed=4, workers=1)
    theirs = [g for g in whole.to_json()["games"] if set(g["seats"]) == {"random", "slow"}]
    assert [{k: g[k] for k in ("seats", "returns", "plies")} for g in some.to_json()["games"]] == \
        [{k: g[k] for k in ("seats", "returns", "plies")} for g in theirs]


def test_the_ladder_command_takes_pairs(tmp_path, capsys):
    assert main(["ladder", NIM_REF, "--agents", "random,perfect,slow", "--pairs", "random/perfect,slow/perfect",
                 "--games", "2", "--workers", "1", "--json", str(tmp_path / "p.json"),
                 "--chart", str(tmp_path / "p.png")]) == 0
    assert main(["ladder", NIM_REF, "--agents", "random,perfect", "--pairs", "random-perfect", "--games", "2"]) == 2
    assert "pairs of agents joined by '/'" in capsys.readouterr().err


def test_a_ladder_plays_budget_levels_in_full_on_a_loaded_machine(monkeypatch):
    """A named level is a budget with a clock for very slow machines; in a ladder the clock must not cut the search,
    or a loaded machine and an idle one (or a Ray cluster) would play different games from the same seeds."""
    from towerworld.ai import ladder, mcts
    from towerworld.ai.agents import make_agent
    from towerworld.engine.agent import ask
    from towerworld.engine.registry import get_game
    game = get_game("kdak")
    state = first_real_choice(game, 2)
    crawl_clock(monkeypatch, mcts)
    clocked = make_agent("mcts:easy", game, seed=1)
    ask(clocked, game, state)
    assert clocked.last_simulations < mcts.LEVELS["easy"][1]            # the clock cut it short
    unclocked = ladder.budget_alone(make_agent("mcts:easy", game, seed=1))
    ask(unclocked, game, state)
    assert unclocked.last_simulations == mcts.LEVELS["easy"][1]
    in_seconds = ladder.budget_alone(make_agent("mcts:0.5", game, seed=1))
    assert in_seconds.seconds == 0.5                                    # only the clock ends a level in seconds
    assert ladder.budget_alone(make_agent("ismcts", game, seed=1)).seconds is None
    assert ladder.budget_alone(make_agent("ismcts:2", game, seed=1)).seconds == 2.0


class StopAfter(Exception):
    pass


def _stop_after(games):
    def progress(done, total):
        if done >= games:
            raise StopAfter
    return progress


def test_a_stopped_ladder_resumes_from_its_journal_and_ends_as_if_never_stopped(tmp_path):
    # The journal keeps each game as it ends; resuming plays only the rest, and the results equal an unbroken run.
    journal = str(tmp_path / "l.games.jsonl")
    agents = ["random", "ismcts:30it", "perfect"]
    whole = run_ladder(NIM_REF, agents, games=4, seed=9, workers=1)
    with pytest.raises(StopAfter):
        run_ladder(NIM_REF, agents, games=4, seed=9, workers=1, journal=journal, progress=_stop_after(5))
    lines = open(journal).read().splitlines()
    assert json.loads(lines[0])["format"] == "towerworld-ladder-journal" and len(lines) == 1 + 5
    played = []
    resumed = run_ladder(NIM_REF, agents, games=4, seed=9, workers=1, journal=journal, resume=True,
                         progress=lambda done, total: played.append((done, total)))
    assert resumed.resumed == 5 and played[0] == (6, 12) and played[-1] == (12, 12)
    assert resumed.to_json() == whole.to_json()
    assert len(open(journal).read().splitlines()) == 1 + 12


def test_more_games_a_pair_reuse_the_games_already_played(tmp_path):
    # A game's seeds depend on its pair and its number in the pair, not on how many games the ladder asks for.
    journal = str(tmp_path / "l.games.jsonl")
    agents = ["random", "ismcts:30it"]
    run_ladder(NIM_REF, agents, games=4, seed=3, workers=1, journal=journal)
    longer = run_ladder(NIM_REF, agents, games=8, seed=3, workers=2, journal=journal, resume=True)
    assert longer.resumed == 4
    assert longer.to_json() == run_ladder(NIM_REF, agents, games=8, seed=3, workers=1).to_json()
    fresh = run_ladder(NIM_REF, agents, games=4, seed=3, workers=1, journal=journal)   # no resume: starts again
    assert fresh.resumed == 0 and len(open(journal).read().splitlines()) == 1 + 4


def test_a_journal_cut_mid_line_or_of_another_ladder(tmp_path):
    journal = tmp_path / "l.games.jsonl"
    agents = ["random", "perfect"]
    run_ladder(NIM_REF, agents, games=4, seed=2, workers=1, journal=str(journal))
    text = journal.read_text()
    journal.write_text(text[:-20])                      # killed while writing the last game
    again = run_ladder(NIM_REF, agents, games=4, seed=2, workers=1, journal=str(journal), resume=True)
    assert again.resumed == 3
    assert all(json.loads(line) for line in journal.read_text().splitlines()[-1:])
    with pytest.raises(LadderError, match="another ladder .*seed is 2, not 5"):
        run_ladder(NIM_REF, agents, games=4, seed=5, workers=1, journal=str(journal), resume=True)
    journal.write_text("not a journal\n")
    with pytest.raises(LadderError, match="is not a ladder's journal"):
        run_ladder(NIM_REF, agents, games=4, seed=2, workers=1, journal=str(journal), resume=True)


def test_the_ladder_command_resumes(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["ladder", NIM_REF, "--agents", "random,perfect", "--games", "4", "--workers", "1", "--json", str(out),
            "--chart", str(tmp_path / "r.png")]
    assert main(argv) == 0
    first = json.loads(out.read_text())
    assert (tmp_path / "r.games.jsonl").exists()
    assert main(argv + ["--resume"]) == 0
    assert "kept 4 games already played" in capsys.readouterr().out
    assert json.loads(out.read_text())["games"] == first["games"]


def test_the_games_played_so_far_can_be_rated_without_playing_more(tmp_path, capsys):
    journal = str(tmp_path / "l.games.jsonl")
    agents = ["random", "perfect"]
    with pytest.raises(StopAfter):
        run_ladder(NIM_REF, agents, games=8, seed=6, workers=1, journal=journal, progress=_stop_after(3))
    so_far = run_ladder(NIM_REF, agents, games=8, seed=6, workers=1, journal=journal, resume=True, play=False)
    assert len(so_far.games) == 3 and so_far.shortfall() == "only 3 of its 8 games played"
    assert so_far.to_json()["games_scheduled"] == 8 and "only 3 of its 8 games played" in report(so_far)
    assert len(open(journal).read().splitlines()) == 1 + 3          # nothing was played
    whole = run_ladder(NIM_REF, agents, games=8, seed=6, workers=1, journal=journal, resume=True)
    assert whole.shortfall() == "" and "games_scheduled" not in whole.to_json()
    assert main(["ladder", NIM_REF, "--agents", "random,perfect", "--games", "2", "--played-only", "--resume",
                 "--json", str(tmp_path / "none.json")]) == 2
    assert "There is no journal at" in capsys.readouterr().err
