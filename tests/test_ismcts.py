"""IS-MCTS on the contract: it sees only its seat's view, returns legal moves, and is deterministic for a seed."""
from __future__ import annotations

import math
import random

import pytest

from towerworld.ai import agent_names, make_agent
from towerworld.ai.ismcts import ISMCTSAgent, parse_level
from towerworld.engine import registry
from towerworld.engine.agent import View, ask
from towerworld.engine.game import CHANCE, TERMINAL, BadOption, Event, Game, GameInfo

try:
    from toygame import GAME as TOY, NIM, ToyState
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM, ToyState


class Guess(Game):
    """Seat 1 is dealt a hidden card, 0 or 1 (a chance move only seat 1 sees); seat 0 then guesses it and wins when
    right. An agent that peeked would always guess right; one that did not cannot do better than a coin.
    State: (card or None, guess or None). `leaky` makes resample hand back the true state (a broken game)."""
    name = "guess"

    def info(self):
        return GameInfo(min_players=2, max_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True, chance=True,
                        perfect_information=False, max_plies=2, max_moves=2)

    def __init__(self, leaky: bool = False):
        self.leaky = leaky

    def new_state(self, options=None, players=None):
        return (None, None)

    def num_players(self, state):
        return 2

    def current_player(self, state):
        card, guess = state
        return CHANCE if card is None else 0 if guess is None else TERMINAL

    def legal_moves(self, state):
        return [("guess", 0), ("guess", 1)] if self.current_player(state) == 0 else []

    def chance_outcomes(self, state):
        return [(("deal", 0), 0.5), (("deal", 1), 0.5)] if state[0] is None else []

    def apply_unchecked(self, state, move):
        if move[0] == "deal":
            return (move[1], None), [Event("draw", ("card",), "Player 2 is dealt a card.", visible_to=(1,))]
        return (state[0], move[1]), [Event("play", (), f"Player 1 guesses {move[1]}.")]

    def returns(self, state):
        if state[1] is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if state[0] == state[1] else [-1.0, 1.0]

    def observation(self, state, viewer):
        card, guess = state
        return (card if viewer in (1, -4) else card is not None, guess)

    def resample(self, state, viewer, rng):
        if self.leaky or viewer == 1 or state[0] is None:
            return state
        return (rng.randrange(2), state[1])

    def format_move(self, state, move):
        return f"{move[0][0]}{move[1]}"


def _decision(game, seed: int):
    """A random position of `game` where a player is to move (chance resolved)."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(rng.randrange(6)):
        while game.current_player(state) == CHANCE:
            state, _ = game.apply_unchecked(state, game.sample_chance(state, rng))
        if game.current_player(state) == TERMINAL:
            break
        moves = game.legal_moves(state)
        state, _ = game.apply_unchecked(state, moves[rng.randrange(len(moves))])
    while game.current_player(state) == CHANCE:
        state, _ = game.apply_unchecked(state, game.sample_chance(state, rng))
    return state


def test_ismcts_never_reads_the_hidden_card():
    # The guess depends on the seed and the view alone: it is the same whichever card seat 1 truly holds.
    game = Guess()
    for seed in range(12):
        guesses = {card: ISMCTSAgent(seed, "200it").choose(View.of(game, (card, None), 0)) for card in (0, 1)}
        assert guesses[0] == guesses[1]


def test_the_hidden_card_test_catches_an_agent_that_sees_it():
    # With a game whose resample leaks the truth, the same agent guesses right every time: the test above can fail.
    game = Guess(leaky=True)
    for seed in range(12):
        for card in (0, 1):
            assert ISMCTSAgent(seed, "200it").choose(View.of(game, (card, None), 0)) == ("guess", card)


def test_ismcts_returns_a_legal_move_in_the_hidden_hand_toy():
    for seed in range(15):
        state = _decision(TOY, seed)
        if TOY.current_player(state) == TERMINAL:
            continue
        seat = TOY.current_player(state)
        move = ISMCTSAgent(seed, "150it").choose(View.of(TOY, state, seat))
        assert move in TOY.legal_moves(state)


def test_ismcts_is_deterministic_for_a_seed_with_an_iteration_budget():
    state = _decision(TOY, 3)
    view = View.of(TOY, state, TOY.current_player(state))
    first = ISMCTSAgent(42, "300it")
    second = ISMCTSAgent(42, "300it")
    assert first.choose(view) == second.choose(view)
    visits = lambda agent: {m: (c.visits, c.total) for m, c in agent.last_root.children.items()}  # noqa: E731
    assert visits(first) == visits(second)
    assert first.last_iterations == 300


def test_ismcts_plays_perfect_nim():
    # Perfect information (resample is the identity): take the stack to a multiple of four when it can.
    for coins, best in ((7, 3), (6, 2), (5, 1), (3, 3)):
        move = ISMCTSAgent(1, "2000it").choose(View.of(NIM, (coins, 0, 3), 0))
        assert move == ("take", best), coins


def test_ismcts_plays_three_players():
    options, n = TOY.resolve_options(None, None, 3)
    rng = random.Random(5)
    state = TOY.new_state(options, n)
    agent = ISMCTSAgent(5, "60it")
    while TOY.current_player(state) != TERMINAL:
        cp = TOY.current_player(state)
        move = TOY.sample_chance(state, rng) if cp == CHANCE else agent.choose(View.of(TOY, state, cp))
        state, _ = TOY.apply(state, move)
    assert len(TOY.returns(state)) == 3


def test_a_clock_budget_stops_the_search():
    state = _decision(TOY, 1)
    agent = ISMCTSAgent(1, 0.05)
    agent.choose(View.of(TOY, state, TOY.current_player(state)))
    assert 0 < agent.last_iterations < agent.iterations


def test_levels():
    assert parse_level("400it") == (None, 400)
    assert parse_level("easy")[1] < parse_level("normal")[1] < parse_level("strong")[1]
    assert parse_level("0.5") == (0.5, 10_000)
    for bad in ("fastest", "0", "-1", "it", "1e9it"):
        with pytest.raises(BadOption, match="IS-MCTS level"):
            parse_level(bad)


def test_the_agent_factory_makes_ismcts():
    agent = make_agent("ismcts:300it", TOY, seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 300 and agent.seconds is None
    assert "ismcts" in agent_names(TOY)
    with pytest.raises(BadOption, match="IS-MCTS level"):
        make_agent("ismcts:never", TOY)


@pytest.mark.parametrize("name", registry.names())
def test_ismcts_answers_a_legal_move_in_every_game(name):
    # Any game (perfect information too: there the resample is the state itself).
    game = registry.get_game(name)
    rng = random.Random(2)
    state = game.new_state()
    while game.current_player(state) == CHANCE:
        state, _ = game.apply_unchecked(state, game.sample_chance(state, rng))
    agent = ISMCTSAgent(2, "8it", rollout_plies=60)
    assert ask(agent, game, state) in game.legal_moves(state)


def _toy(hand, pile=(), scores=(0, 0)):
    """A toy decision state for player 1 holding `hand` (values) with `pile` values played."""
    cards = iter(range(100))
    hands = (tuple(sorted((v, next(cards)) for v in hand)), ())
    played = tuple((v, next(cards)) for v in pile)
    deck = [2, 2, 2, 2]
    for v in list(hand) + list(pile):
        deck[v - 1] -= 1
    return ToyState(2, tuple(deck), hands, played, scores, 0, False, len(hand) + len(pile), 3, 2)


def test_the_root_tries_the_heuristically_best_move_first():
    # One iteration expands one root move: the one the heuristic likes best one move ahead (3 + pair bonus 2 > 4).
    assert ISMCTSAgent(1, "1it").choose(View.of(TOY, _toy((1, 4)), 0)) == ("play", 4)
    assert ISMCTSAgent(1, "1it").choose(View.of(TOY, _toy((3, 4), pile=(3,)), 0)) == ("play", 3)


def test_an_unfinished_playout_is_judged_by_the_heuristic_lead():
    agent = ISMCTSAgent(1, "10it", rollout_plies=0)
    values = agent._judge(TOY, _toy((1,), scores=(5, 3)))
    assert values == pytest.approx([math.tanh(1.0), -math.tanh(1.0)])     # leads +2 and -2 over a typical lead of 2
    assert agent._judge(TOY, _toy((1,), scores=(3, 3))) == [0.0, 0.0]
    assert ask(agent, TOY, _toy((1, 4))) in TOY.legal_moves(_toy((1, 4)))
