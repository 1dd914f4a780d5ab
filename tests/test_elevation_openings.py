"""scripts/elevation_openings.py: the ladder's own games, screened by the lead at a ply."""
from __future__ import annotations


def test_each_game_is_played_with_the_seats_and_seeds_the_ladder_gave_it(script):
    openings = script("elevation_openings")
    games = openings.read_games()
    assert len(games) == openings.GAMES
    for k, record in games.items():
        assert list(openings.task_of(k).agents) == record["seats"]


def test_the_ladders_table_counts_every_game_once_with_its_result(script):
    openings = script("elevation_openings")
    # at ply 0 every game is level: the whole ladder, 45-51-4, is one row
    assert openings.ladder_table(openings.read_games(), 0) == {0: [100, 0.705]}


def test_two_runs_are_compared_on_the_games_both_played(script):
    openings = script("elevation_openings")
    a = [{"game": 0, "lead": 1}, {"game": 1, "lead": 2}, {"game": 2, "lead": 0}]
    b = [{"game": 1, "lead": 3}, {"game": 2, "lead": 0}, {"game": 5, "lead": 4}]
    assert openings.compare(a, b) == ("2 games: lead 1.00 -> 1.50, change +0.50 (standard error 0.50); "
                                      "gained in 1 game, lost in 0 games")
