"""Agents (random, greedy, MCTS) and the OpenSpiel adapter, on the toy games and a tiny gamble."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from towerworld.ai import GreedyAgent, MCTSAgent, RandomAgent, agent_names, make_agent
from towerworld.ai.mcts import parse_level
from towerworld.engine.game import CHANCE, TERMINAL, AgentSpec, BadOption, Event, Game, GameInfo
from towerworld.engine.agent import Agent, ask, seat_view

try:
    from toygame import GAME as TOY, NIM, ToyState
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM, ToyState

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Gamble(Game):
    """One decision: 'safe' scores `safe`; 'risky' goes to a coin flip scoring `win` or 0. State: (phase, score)."""
    name = "gamble"

    def info(self):
        return GameInfo(min_players=1, max_players=1, min_utility=0.0, max_utility=1.0, zero_sum=False, chance=True,
                        perfect_information=True, max_plies=2, max_moves=2)

    def __init__(self, safe=1.0, win=3.0):
        self.safe, self.win = safe, win

    def new_state(self, options=None, players=None):
        return ("choose", 0.0)

    def num_players(self, state):
        return 1

    def current_player(self, state):
        return {"choose": 0, "flip": CHANCE}.get(state[0], TERMINAL)

    def legal_moves(self, state):
        return ["risky", "safe"] if state[0] == "choose" else []

    def chance_outcomes(self, state):
        return [("heads", 0.5), ("tails", 0.5)] if state[0] == "flip" else []

    def apply_unchecked(self, state, move):
        if move == "safe":
            return ("done", self.safe), [Event("safe")]
        if move == "risky":
            return ("flip", 0.0), [Event("risky")]
        return ("done", self.win if move == "heads" else 0.0), [Event("flip")]

    def scores(self, state):
        return [state[1]]

    def heuristic(self, state, player):
        return state[1]

    def returns(self, state):
        return [state[1] / max(self.safe, self.win)]

    def format_move(self, state, move):
        return move


def toy_state(hand, pile=(), n=2):
    """A toy decision state for player 1 holding `hand` (values) with `pile` values played."""
    cards = iter(range(100))
    hands = (tuple(sorted((v, next(cards)) for v in hand)),) + ((),) * (n - 1)
    played = tuple((v, next(cards)) for v in pile)
    deck = [2, 2, 2, 2]
    for v in list(hand) + list(pile):
        deck[v - 1] -= 1
    return ToyState(n, tuple(deck), hands, played, (0,) * n, 0, False, len(hand) + len(pile), 3, 2)


# ---- the factory ----------------------------------------------------------------------------------------------------------
def test_make_agent_builds_the_builtin_agents():
    assert isinstance(make_agent("random", TOY, seed=1), RandomAgent)
    assert isinstance(make_agent("greedy", TOY, seed=1), GreedyAgent)
    assert isinstance(make_agent("mcts", TOY, seed=1, level="fast"), MCTSAgent)
    assert agent_names(TOY)[:3] == ["random", "greedy", "mcts"]


def test_unknown_agent_is_refused_naming_the_valid_ones():
    with pytest.raises(BadOption) as err:
        make_agent("alphazero", TOY)
    msg = str(err.value)
    assert "alphazero" in msg and "random, greedy, mcts" in msg and "\n" not in msg


def test_game_agents_are_offered_and_made():
    class WithAgent(Gamble):
        def agents(self):
            return (AgentSpec("always-safe", "always safe", lambda game, seed, level: FixedAgent("safe")),)

    game = WithAgent()
    assert "always-safe" in agent_names(game)
    agent = make_agent("always-safe", game, seed=3)
    assert ask(agent, game, game.new_state()) == "safe"
    with pytest.raises(BadOption) as err:
        make_agent("nope", game)
    assert "always-safe" in str(err.value)


class FixedAgent(Agent):
    def __init__(self, move):
        self.move = move

    def choose(self, view):
        return self.move


@pytest.mark.parametrize("level,seconds", [("0.5", 0.5), (2, 2.0)])
def test_mcts_levels_in_seconds(level, seconds):
    assert parse_level(level)[0] == seconds
    assert MCTSAgent(1, level).seconds == seconds


def test_named_mcts_levels_are_simulation_budgets_in_order():
    budgets = [parse_level(name)[1] for name in ("easy", "normal", "strong")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    assert parse_level(None) == parse_level("normal")
    assert parse_level("3000it") == (float("inf"), 3000)


def test_a_simulation_budget_chooses_the_same_move_however_busy_the_machine():
    """"The simulations decide a named level's strength": the same seed and view give the same move and the same
    number of simulations, whatever the clock says."""
    state = TOY.new_state()
    while TOY.current_player(state) == CHANCE:
        state, _ = TOY.apply(state, TOY.chance_outcomes(state)[0][0])
    view = seat_view(MCTSAgent(0), TOY, state)
    first, second = MCTSAgent(5, "300it"), MCTSAgent(5, "300it")
    assert first.choose(view) == second.choose(view)
    assert first.last_simulations == second.last_simulations == 300


@pytest.mark.parametrize("level", ["turbo", "-1", "0", 0, "1e9", [1]])
def test_bad_mcts_level_is_refused(level):
    with pytest.raises(BadOption) as err:
        MCTSAgent(1, level)
    assert "fast, normal, strong" in str(err.value)


@pytest.mark.parametrize("agent", [RandomAgent(1), GreedyAgent(1), MCTSAgent(1, seconds=0.05)])
def test_agents_refuse_to_move_for_chance(agent):
    state = TOY.new_state()
    assert TOY.current_player(state) == CHANCE
    with pytest.raises(ValueError):
        ask(agent, TOY, state)


# ---- random and greedy ----------------------------------------------------------------------------------------------------
def test_random_agent_is_seeded_and_legal():
    state = toy_state((1, 2, 4))
    a, b = RandomAgent(7), RandomAgent(7)
    picks_a = [ask(a, TOY, state) for _ in range(30)]
    assert picks_a == [ask(b, TOY, state) for _ in range(30)]
    assert set(picks_a) <= set(TOY.legal_moves(state)) and len(set(picks_a)) > 1


def test_greedy_maximises_the_heuristic_one_ply_ahead():
    assert ask(GreedyAgent(1), TOY, toy_state((1, 4))) == ("play", 4)
    assert ask(GreedyAgent(1), TOY, toy_state((3, 4), pile=(3,))) == ("play", 3)   # 3 + pair bonus 2 beats 4


def test_greedy_takes_a_winning_move():
    assert ask(GreedyAgent(1), NIM, (3, 0, 3)) == ("take", 3)


def test_greedy_averages_over_chance_outcomes():
    assert ask(GreedyAgent(1), Gamble(safe=1.0, win=3.0), ("choose", 0.0)) == "risky"   # 1.5 on average
    assert ask(GreedyAgent(1), Gamble(safe=1.0, win=1.8), ("choose", 0.0)) == "safe"    # 0.9 on average


def test_greedy_breaks_ties_with_its_seed():
    game = Gamble(safe=1.5, win=3.0)
    picks = {ask(GreedyAgent(seed), game, ("choose", 0.0)) for seed in range(20)}
    assert picks == {"risky", "safe"}
    assert [ask(GreedyAgent(5), game, ("choose", 0.0)) for _ in range(3)] == \
        [ask(GreedyAgent(5), game, ("choose", 0.0)) for _ in range(3)]


# ---- MCTS -------------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("stones,best", [(5, 1), (6, 2), (7, 3), (9, 1)])
def test_mcts_finds_the_winning_nim_move(stones, best):
    agent = MCTSAgent(3, seconds=30, max_simulations=3000)
    assert ask(agent, NIM, (stones, 0, 3)) == ("take", best)


def test_mcts_applies_one_move_per_simulation_and_proves_a_won_nim_position():
    """The tree keeps each node's state: a simulation applies only the move to its new leaf (playouts aside), where
    OpenSpiel's bot replays the whole path on a cloned state. With 3 stones the player to move takes all and wins:
    MCTS-Solver proves the root and stops early."""
    import math
    import random
    from towerworld.ai.mcts import search
    applied = []

    class Spy(type(NIM)):
        def apply_unchecked(self, state, move):
            applied.append(move)
            return super().apply_unchecked(state, move)

        def rollout(self, state, rng, max_plies=None):
            n = len(applied)
            end = super().rollout(state, rng, max_plies)
            del applied[n:]                     # a playout's moves are not the tree's
            return end

    root = search(Spy(), (30, 0, 3), random.Random(1), math.inf, 400, 2.0)
    assert root.visits == 400 and 0 < len(applied) <= root.visits
    root = search(Spy(), (3, 0, 3), random.Random(1), math.inf, 400, 2.0)
    assert root.outcome is not None and root.outcome[0] == 1.0 and root.visits < 400


def test_mcts_respects_the_simulation_cap_and_its_seed():
    state = toy_state((1, 2, 4))
    a = MCTSAgent(11, seconds=60, max_simulations=150)
    b = MCTSAgent(11, seconds=60, max_simulations=150)
    assert ask(a, TOY, state) == ask(b, TOY, state)
    assert 0 < a.last_simulations <= 150


def test_mcts_stops_at_its_time_budget():
    agent = MCTSAgent(1, seconds=0.05, max_simulations=10**9)
    assert ask(agent, TOY, toy_state((1, 2, 4))) in TOY.legal_moves(toy_state((1, 2, 4)))
    assert 0 < agent.last_simulations < 10**9


def test_mcts_maximises_a_one_player_game_with_chance():
    assert ask(MCTSAgent(2, seconds=30, max_simulations=400), Gamble(1.0, 3.0), ("choose", 0.0)) == "risky"
    assert ask(MCTSAgent(2, seconds=30, max_simulations=400), Gamble(1.0, 1.8), ("choose", 0.0)) == "safe"


def test_mcts_searches_determinizations_in_hidden_information_games():
    seen = []

    class Spy(type(TOY)):
        def resample(self, state, player, rng):
            world = super().resample(state, player, rng)
            seen.append((player, world))
            return world

    spy = Spy()
    state = toy_state((1, 2, 4))
    agent = MCTSAgent(4, seconds=60, max_simulations=400)
    assert ask(agent, spy, state) in TOY.legal_moves(state)
    assert len(seen) == agent.determinizations and all(p == 0 for p, _ in seen)
    assert all(spy.observation(w, 0) == spy.observation(state, 0) for _, w in seen)


def test_search_agents_play_whole_toy_games():
    for players, agents in ((2, ["mcts", "greedy"]), (1, ["mcts"]), (3, ["greedy", "random", "mcts"])):
        _, n = TOY.resolve_options(None, "solo" if players == 1 else None, players)
        made = [make_agent(a, TOY, seed=i) for i, a in enumerate(agents)]
        for agent in made:
            if isinstance(agent, MCTSAgent):
                agent.seconds, agent.max_simulations = 5, 60
        import random
        from towerworld.engine.driver import play_match
        from towerworld.engine.match import Match, PlayerSpec
        match = Match(TOY, players=[PlayerSpec(a, "ai", a) for a in agents], seed=players,
                      variant="solo" if players == 1 else None)
        play_match(match, dict(enumerate(made)), random.Random(players))
        assert match.over and len(TOY.returns(match.state)) == n


# ---- the OpenSpiel adapter --------------------------------------------------------------------------------------------------
def test_adapter_maps_actions_to_sorted_moves_and_outcomes():
    pytest.importorskip("pyspiel")
    from towerworld.ai.spiel import spiel_game
    sgame = spiel_game(TOY)
    state = sgame.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, p) for i, (_, p) in enumerate(TOY.chance_outcomes(state.tw_state))]
    state.apply_action(3)                                  # the fourth outcome: a 4 is drawn
    assert state.tw_state.hands[0][0][0] == 4 and state.current_player() == 0
    moves = TOY.legal_moves(state.tw_state)
    assert state.legal_actions() == list(range(len(moves)))
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [TOY.format_move(state.tw_state, m)
                                                                             for m in moves]
    assert sgame.num_distinct_actions() == TOY.max_moves and sgame.max_game_length() == TOY.max_plies


def test_adapter_clones_are_independent():
    pytest.importorskip("pyspiel")
    from towerworld.ai.spiel import spiel_game
    state = spiel_game(TOY).new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    assert clone.tw_state is state.tw_state and clone.history() == state.history() == [0]
    clone.apply_action(0)
    assert state.history() == [0] and clone.history() == [0, 0] and clone.tw_state != state.tw_state


def test_adapter_observations_hide_the_other_hand():
    pytest.importorskip("pyspiel")
    import pyspiel
    from towerworld.ai.spiel import spiel_game
    sgame = spiel_game(TOY)
    assert sgame.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    a, b = sgame.new_initial_state(), sgame.new_initial_state()
    a.apply_action(0)                                      # player 1 draws a 1
    b.apply_action(3)                                      # or a 4
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(0) != b.observation_string(0)


def test_adapter_game_type_follows_the_game():
    pytest.importorskip("pyspiel")
    import pyspiel
    from towerworld.ai.spiel import spiel_game
    nim = spiel_game(NIM)
    assert nim.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert nim.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert nim.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert spiel_game(TOY).get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert spiel_game(TOY, variant="solo").num_players() == 1
    with pytest.raises(BadOption):
        spiel_game(TOY, variant="nope")


def test_registered_games_load_with_parameters():
    pytest.importorskip("pyspiel")
    import pyspiel
    from towerworld.ai.spiel import register
    assert register(NIM) == register(NIM) == "towerworld_toynim"
    state = pyspiel.load_game("towerworld_toynim(stones=5,max_take=2)").new_initial_state()
    assert state.tw_state == (5, 0, 2)
    assert pyspiel.load_game("towerworld_toynim").new_initial_state().tw_state == (7, 0, 3)


def test_openspiel_mcts_runs_on_the_adapter_unchanged():
    """OpenSpiel's own MCTSBot and random rollouts, stepping through pyspiel only, on the adapter."""
    pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from towerworld.ai.spiel import spiel_game
    sgame = spiel_game(NIM, options={"stones": 5})
    bot = mcts.MCTSBot(sgame, 2, 2000, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state = sgame.new_initial_state()
    assert state.native_moves()[bot.step(state)] == ("take", 1)


def test_the_ai_package_imports_without_openspiel():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "import towerworld.ai\n"
            "from towerworld.ai.spiel import spiel_game\n"
            "from towerworld.engine.game import BadOption\n"
            "from towerworld.engine.registry import all_games\n"
            "try:\n"
            "    spiel_game(next(iter(all_games().values())))\n"
            "except BadOption as e:\n"
            "    print('refused:', e)\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "refused:" in out.stdout and "open_spiel" in out.stdout


def test_the_generic_agent_specs_are_the_names_records_check():
    """A record's seats are checked against engine.agent.GENERIC_AGENTS without importing `ai`: those are the names of
    the generic AgentSpecs, and every spec declares a factory, words a player reads and its default among its levels."""
    from towerworld.ai.agents import GENERIC
    from towerworld.engine.agent import GENERIC_AGENTS
    assert tuple(spec.name for spec in GENERIC) == GENERIC_AGENTS
    for spec in GENERIC:
        assert spec.words and callable(spec.factory)
        assert (spec.level in spec.levels) if spec.levels else spec.level == ""
