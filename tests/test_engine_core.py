"""The engine core on its own: options and variants, the Game base class defaults, the registry, Match basics."""
from __future__ import annotations

import random

import pytest

from towerworld.engine import registry
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import (CHANCE, OMNISCIENT, TERMINAL, BadNotation, BadOption, Event, Game, GameInfo,
                                    IllegalMove, Option, Variant, options_from_text)
from towerworld.engine.match import Match, PlayerSpec

try:
    from toygame import GAME as TOY, NIM
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM


class Dice(Game):
    """A bare game on the base-class defaults: roll a die (chance), then player 1 says 'keep' or 'again' (once).
    State: (phase, roll, rerolled)."""
    name = "dice"
    title = "Dice"
    players_without_variant = (1, 1)
    options = (
        Option("sides", 6, "faces of the die", low=2, high=12),
        Option("colour", "white", "die colour", choices=("white", "red")),
        Option("fair", True, "a fair die"),
        Option("label", "d", "a name"),
    )
    variants = (Variant("d4", "a four-sided die", {"sides": 4}), Variant("duel", "two players", {}, players=(2, 2)))

    def info(self):
        return GameInfo(min_players=1, max_players=2, min_utility=0.0, max_utility=1.0, zero_sum=False, chance=True,
                        perfect_information=True, max_plies=10_000, max_moves=1_000)

    def new_state(self, options=None, players=None):
        opts, _ = self.resolve_options(options)
        return ("roll", opts["sides"], 0, False)

    def num_players(self, state):
        return 1

    def current_player(self, state):
        return {"roll": CHANCE, "decide": 0}.get(state[0], TERMINAL)

    def legal_moves(self, state):
        if state[0] != "decide":
            return []
        return ["again", "keep"] if not state[3] else ["keep"]

    def chance_outcomes(self, state):
        if state[0] != "roll":
            return []
        return [(k, 1 / state[1]) for k in range(1, state[1] + 1)]

    def apply_unchecked(self, state, move):
        if state[0] == "roll":
            return ("decide", state[1], move, state[2] != 0), [Event("roll", (), f"Rolled {move}.")]
        if move == "again":
            return ("roll", state[1], state[2], True), []
        return ("done", state[1], state[2], state[3]), []

    def scores(self, state):
        return [state[2]]

    def returns(self, state):
        return [state[2] / state[1]]

    def format_move(self, state, move):
        return str(move)


DICE = Dice()


# ---- options and variants ------------------------------------------------------------------------------------------------
def test_defaults_and_variants_resolve():
    assert DICE.resolve_options() == ({"sides": 6, "colour": "white", "fair": True, "label": "d"}, 1)
    assert DICE.resolve_options(None, "d4")[0]["sides"] == 4
    assert DICE.resolve_options({"sides": 8}, "d4")[0]["sides"] == 8           # explicit options win
    assert DICE.resolve_options(None, "duel") == (DICE.resolve_options()[0], 2)
    assert DICE.non_default_options({"sides": 6, "colour": "red", "fair": True, "label": "d"}) == {"colour": "red"}


@pytest.mark.parametrize("options,variant,players,words", [
    ({"sides": 1}, None, None, "between 2 and 12"),
    ({"sides": "six"}, None, None, "whole number"),
    ({"sides": True}, None, None, "whole number"),
    ({"colour": "blue"}, None, None, "one of white, red"),
    ({"fair": "maybe"}, None, None, "true or false"),
    ({"fair": 1}, None, None, "true or false"),
    ({"label": 5}, None, None, "text"),
    ({"size": 3}, None, None, "no option 'size'"),
    (None, "d20", None, "no variant 'd20'"),
    (None, None, 2, "is for 1 player, not 2"),
    (None, "duel", 1, "(duel) is for 2 players"),
    (None, None, True, "is for 1 player, not"),
])
def test_bad_options_are_refused_in_one_sentence(options, variant, players, words):
    with pytest.raises(BadOption) as err:
        DICE.resolve_options(options, variant, players)
    assert words in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("options,words", [
    ({"fair": "yes"}, "true or false"), ({"fair": "off"}, "true or false"), ({"fair": 0}, "true or false"),
    ({"sides": "8"}, "whole number between 2 and 12"), ({"sides": 8.0}, "whole number"),
    ({"sides": 20.9}, "whole number"), ({"colour": ["white"]}, "one of white, red"),
])
def test_options_are_not_coerced(options, words):
    """Options are validated strictly (an int option takes only an integer; a bool takes true/false),
    with the allowed values in the message.'"""
    with pytest.raises(BadOption) as err:
        DICE.resolve_options(options)
    assert words in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("text,value", [("true", True), ("FALSE", False), ("8", 8), (" 12 ", 12), ("red", "red")])
def test_option_text_from_the_command_line(text, value):
    name = {bool: "fair", int: "sides", str: "colour"}[type(value)]
    assert options_from_text(DICE, {name: text}) == {name: value}


@pytest.mark.parametrize("name,text,words", [
    ("fair", "yes", "true or false"), ("fair", "1", "true or false"), ("sides", "20.9", "whole number"),
    ("sides", "0x10", "whole number"), ("sides", "13", "between 2 and 12"), ("sides", "9" * 5000, "whole number"),
    ("colour", "blue", "one of white, red"), ("size", "3", "no option 'size'"),
])
def test_bad_option_text_is_refused_with_the_allowed_values(name, text, words):
    with pytest.raises(BadOption) as err:
        options_from_text(DICE, {name: text})
    msg = str(err.value)
    assert words in msg and "\n" not in msg and len(msg) < 200


# ---- base class defaults --------------------------------------------------------------------------------------------------
def test_default_parse_move_looks_among_the_moves_here():
    state = DICE.new_state()
    assert DICE.parse_move(state, " 3 ") == 3                  # chance outcomes too
    state, _ = DICE.apply(state, 3)
    assert DICE.parse_move(state, "again") == "again"
    with pytest.raises(BadNotation) as err:
        DICE.parse_move(state, "7")
    assert "'7'" in str(err.value)


def test_apply_refuses_with_reasons():
    state = DICE.new_state()
    with pytest.raises(IllegalMove) as err:
        DICE.apply(state, 7)
    assert "not a possible outcome" in str(err.value)
    state, _ = DICE.apply(state, 2)
    with pytest.raises(IllegalMove) as err:
        DICE.apply(state, "fold")
    assert str(err.value) == "That is not a legal move here."
    state, _ = DICE.apply(state, "keep")
    with pytest.raises(IllegalMove) as err:
        DICE.apply(state, "keep")
    assert str(err.value) == "The game is over."


def test_sample_chance_follows_the_probabilities():
    state = DICE.new_state()
    rng = random.Random(0)
    counts = {k: 0 for k in range(1, 7)}
    for _ in range(6000):
        counts[DICE.sample_chance(state, rng)] += 1
    assert all(850 < c < 1150 for c in counts.values()), counts
    a, b = random.Random(5), random.Random(5)
    assert [DICE.sample_chance(state, a) for _ in range(20)] == [DICE.sample_chance(state, b) for _ in range(20)]


def test_random_playout_ends_or_stops_at_the_limit():
    end = DICE.random_playout(DICE.new_state(), random.Random(1))
    assert DICE.is_terminal(end)
    one = DICE.random_playout(DICE.new_state(), random.Random(1), max_plies=1)
    assert one[0] == "decide"


def test_default_heuristic_result_and_hud():
    state, _ = DICE.apply(DICE.new_state(), 5)
    assert DICE.heuristic(state, 0) == 5.0                      # own score minus the best other (none)
    end, _ = DICE.apply(state, "keep")
    assert DICE.heuristic(end, 0) == 1000.0 * 5 / 6
    assert DICE.result(end) == "Player 1 wins."
    assert DICE.hud(DICE.new_state(), OMNISCIENT)["turn"] == "Chance"
    assert DICE.hud(end, OMNISCIENT)["turn"] == "Game over"
    assert NIM.result((0, 0, 3)) == "Player 2 wins."
    assert TOY.result(TOY.new_state()) == "Draw."


# ---- the registry ---------------------------------------------------------------------------------------------------------
def test_registry_finds_games_with_sound_declarations():
    games = registry.all_games()
    assert games, "no game found under towerworld.games"
    for name, game in games.items():
        assert isinstance(game, Game) and game.name == name and game.title
        assert registry.get_game(name) is game
        assert isinstance(game.max_plies, int) and game.max_plies > 0
        assert isinstance(game.max_moves, int) and game.max_moves > 0
        assert 1 <= game.min_players <= game.max_players
        assert len({v.name for v in game.variants}) == len(game.variants)
        for v in game.variants:
            game.resolve_options(None, v.name)                  # every variant's preset is itself valid


def test_unknown_game_is_refused_listing_the_games():
    with pytest.raises(BadOption) as err:
        registry.get_game("chess")
    assert "'chess'" in str(err.value) and ", ".join(sorted(registry.all_games())) in str(err.value)


# ---- Match basics ---------------------------------------------------------------------------------------------------------
def test_match_plays_chance_until_a_decision():
    m = Match(DICE, seed=3)
    assert m.current_player == CHANCE and m.result_text() == "in progress"
    events = answer_chance(m)
    assert m.current_player == 0 and [e.kind for e in events] == ["roll"]
    assert m.plies[0].mover == CHANCE and m.plies[0].reveals
    m.apply_text("keep", save=False)
    assert m.over and m.result_text() == "Player 1 wins."


def test_match_seed_makes_chance_reproducible():
    a, b = Match(TOY, seed=42), Match(TOY, seed=42)
    for m in (a, b):
        answer_chance(m)
    assert a.state == b.state


def test_match_refuses_illegal_moves_without_changing():
    m = Match(NIM, seed=1)
    with pytest.raises(IllegalMove):
        m.apply(("take", 5), save=False)
    with pytest.raises(BadNotation):
        m.apply_text("t9", save=False)
    assert not m.plies and m.state == m.initial


def test_player_specs():
    assert PlayerSpec("a", "ai", "mcts").is_ai and not PlayerSpec("b").is_ai
    m = Match(NIM, players=[PlayerSpec("a"), PlayerSpec("b", "ai", "random")], seed=1)
    assert m.vs_ai
    with pytest.raises(BadOption):
        Match(NIM, players=[PlayerSpec("a")], seed=1)


def test_apply_texts_parses_checks_and_applies_in_turn():
    from towerworld.engine.game import BadNotation, IllegalMove
    state = NIM.new_state()
    moves = NIM.legal_moves(state)
    first = NIM.format_move(state, moves[0])
    after = NIM.apply_texts(state, first)
    assert after == NIM.apply(state, moves[0])[0]
    assert NIM.apply_texts(state) == state
    with pytest.raises((BadNotation, IllegalMove)):
        NIM.apply_texts(state, first, "no such move")


def test_a_number_of_another_type_is_not_a_move():
    """0.0 == 0 in Python: a float where a game's moves are ints is still refused in one sentence."""
    state = DICE.new_state()
    with pytest.raises(IllegalMove):
        DICE.apply(state, 2.0)
    with pytest.raises(IllegalMove):
        DICE.apply(state, True)
