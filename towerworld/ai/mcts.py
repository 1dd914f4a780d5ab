"""Monte-Carlo tree search through the OpenSpiel adapter.

The tree is OpenSpiel's own (`open_spiel.python.algorithms.mcts.MCTSBot`, UCT with chance nodes and MCTS-Solver) over
the pyspiel adapter of `towerworld.ai.spiel`; leaves are evaluated by native playouts (`game.rollout`, uniformly
random unless the game plays a policy, on the towerworld state, no pyspiel stepping). Each move gets a simulation budget (and a clock for slow machines) or a time budget. Hidden-information
games that provide `game.resample(state, player, rng)` are searched over several determinizations (what the player
may know, with the unknown sampled) and the visit counts summed; without it the state is searched as is.
"""
from __future__ import annotations

import random
import time

from towerworld.ai.agents import Agent, decision_moves
from towerworld.ai.spiel import require_pyspiel, spiel_game
from towerworld.engine.game import TERMINAL, BadOption, Game

# level -> (seconds at most, simulations). The simulations decide a named level's strength, so that a ladder gives the
# same results for the same seeds on any machine; the clock only stops a search on a machine several times slower than
# a small laptop (normal is about a second a move for K'Dak there).
LEVELS = {"easy": (1.0, 500), "fast": (1.0, 500), "normal": (4.0, 2_500), "strong": (12.0, 10_000)}
DEFAULT_LEVEL = "normal"

_BOT_CLASS = None


def _bot_class():
    """MCTSBot with a deadline: the search stops at the time budget or the simulation cap, whichever comes first."""
    global _BOT_CLASS
    if _BOT_CLASS is not None:
        return _BOT_CLASS
    require_pyspiel()
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    class TimedMCTSBot(mcts.MCTSBot):
        deadline = float("inf")

        def mcts_search(self, state):
            # Adapted from OpenSpiel's open_spiel/python/algorithms/mcts.py (MCTSBot.mcts_search), with a deadline
            # check per simulation added. Copyright 2019 DeepMind Technologies Limited. Licensed under the Apache
            # License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0); see NOTICE at the repository root.
            root = mcts.SearchNode(None, state.current_player(), 1)
            for i in range(self.max_simulations):
                if i and time.perf_counter() >= self.deadline:
                    break
                visit_path, working_state = self._apply_tree_policy(root, state)
                if working_state.is_terminal():
                    returns = working_state.returns()
                    visit_path[-1].outcome = returns
                    solved = self.solve
                else:
                    returns = self.evaluator.evaluate(working_state)
                    solved = False
                while visit_path:
                    decision_node_idx = -1
                    while visit_path[decision_node_idx].player == pyspiel.PlayerId.CHANCE:
                        decision_node_idx -= 1
                    target_return = returns[visit_path[decision_node_idx].player]
                    node = visit_path.pop()
                    node.total_reward += target_return
                    node.explore_count += 1
                    if solved and node.children:
                        player = node.children[0].player
                        if player == pyspiel.PlayerId.CHANCE:
                            outcome = node.children[0].outcome
                            if outcome is not None and all(np.array_equal(c.outcome, outcome)
                                                           for c in node.children):
                                node.outcome = outcome
                            else:
                                solved = False
                        else:
                            best = None
                            all_solved = True
                            for child in node.children:
                                if child.outcome is None:
                                    all_solved = False
                                elif best is None or child.outcome[player] > best.outcome[player]:
                                    best = child
                            if best is not None and (all_solved or best.outcome[player] == self.max_utility):
                                node.outcome = best.outcome
                            else:
                                solved = False
                if root.outcome is not None:
                    break
            return root

    _BOT_CLASS = TimedMCTSBot
    return _BOT_CLASS


class NativeRolloutEvaluator:
    """An OpenSpiel MCTS evaluator whose rollouts run natively: `game.rollout` on the wrapped towerworld state.

    A playout cut short by `max_plies` before the end scores 0 for everyone.
    """

    def __init__(self, rng: random.Random, n_rollouts: int = 1, max_plies: int | None = None):
        self.rng = rng
        self.n_rollouts = n_rollouts
        self.max_plies = max_plies
        self.rollouts = 0

    def evaluate(self, state):
        import numpy as np
        game, start = state.tw_game, state.tw_state
        n = game.num_players(start)
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            end = game.rollout(start, self.rng, self.max_plies)
            if game.current_player(end) == TERMINAL:
                total += np.asarray(game.returns(end), dtype=float)
        self.rollouts += self.n_rollouts
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


def parse_level(level) -> tuple[float, int]:
    """(seconds, simulation cap) for a level name, a number of seconds ("0.5": the clock decides) or a number of
    simulations ("3000it": no clock); BadOption naming the choices otherwise."""
    if level is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(level, str) and level in LEVELS:
        return LEVELS[level]
    text = str(level).strip().lower()
    if text.endswith("it") and text[:-2].isdigit() and 0 < int(text[:-2]) <= 10_000_000:
        return float("inf"), int(text[:-2])
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 600:
        raise BadOption(f"The MCTS level must be one of {', '.join(LEVELS)}, a number of seconds, or a number of "
                        f"simulations such as 3000it, not {str(level)[:40]!r}.")
    return seconds, max(100, int(seconds * 20_000))


class MCTSAgent(Agent):
    """OpenSpiel MCTS through the adapter, native rollouts, a simulation budget per move (easy 500, normal 2,500,
    strong 10,000, or "Nit") with a clock that stops it on a very slow machine, or a number of seconds."""
    name = "mcts"
    determinizations = 8      # how many determinizations share the budget in a hidden-information game

    def __init__(self, seed: int | None = None, level=None, *, seconds: float | None = None,
                 max_simulations: int | None = None, uct_c: float | None = None, rollouts: int = 1,
                 rollout_plies: int | None = None):
        self.level = level or DEFAULT_LEVEL
        budget, cap = parse_level(level)
        self.seconds = budget if seconds is None else seconds
        self.max_simulations = cap if max_simulations is None else max_simulations
        self.uct_c = uct_c
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.rollout_plies = rollout_plies
        self.last_simulations = 0      # simulations of the latest choose (all determinizations together)

    def choose(self, view):
        player, moves = decision_moves(view)
        if len(moves) == 1:
            self.last_simulations = 0
            return moves[0]
        game = view.game
        _bot_class()                  # import OpenSpiel (and numpy) before the clock starts
        deadline = time.perf_counter() + self.seconds
        worlds = 1 if game.perfect_information else self.determinizations
        visits: dict = {}
        reward: dict = {}
        proven: dict = {}
        sims = 0
        lo = hi = None
        for k in range(worlds):
            world = view.resample(self.rng)
            now = time.perf_counter()
            end = now + (deadline - now) / (worlds - k)
            cap = max(1, (self.max_simulations - sims) // (worlds - k))
            root, sstate, lo, hi = self._search(game, world, end, cap)
            sims += root.explore_count
            native = sstate.native_moves()
            for child in root.children:
                move = native[child.action]
                visits[move] = visits.get(move, 0) + child.explore_count
                reward[move] = reward.get(move, 0.0) + child.total_reward
                if worlds == 1 and child.outcome is not None:
                    proven[move] = child.outcome[player]
            if time.perf_counter() >= deadline and sims > 0:
                break
        self.last_simulations = sims
        legal = set(moves)
        ranked = [m for m in visits if m in legal]
        if not ranked:
            return moves[self.rng.randrange(len(moves))]
        return self._best(ranked, visits, reward, {m: v for m, v in proven.items() if m in legal}, lo, hi)

    @staticmethod
    def _best(ranked, visits, reward, proven, lo, hi):
        """The most visited move, except that MCTS-Solver's proven results count: a proven win is taken, a proven loss
        avoided, and another proven result beats the most visited move when it is worth more than that move's mean.

        (OpenSpiel's best_child prefers any proven result above 0 to every unproven move, which is wrong when returns
        are not centred on 0, e.g. a solitaire score in [0, 1]; and a proven child gets no exploration visits.)
        """
        wins = [m for m, v in proven.items() if v >= hi]
        if wins:
            return max(wins, key=lambda m: visits[m])
        open_moves = [m for m in ranked if m not in proven and visits[m] > 0]
        alive = [m for m, v in proven.items() if v > lo]
        best_open = max(open_moves, key=lambda m: visits[m]) if open_moves else None
        best_proven = max(alive, key=lambda m: proven[m]) if alive else None
        if best_open is None:
            return best_proven if best_proven is not None else max(ranked, key=lambda m: proven.get(m, lo))
        if best_proven is not None and proven[best_proven] >= reward[best_open] / visits[best_open]:
            return best_proven
        return best_open

    def _search(self, game: Game, state, deadline: float, cap: int):
        import numpy as np
        sgame = spiel_game(game, initial=state)
        sstate = sgame.new_initial_state()
        lo, hi = sgame.min_utility(), sgame.max_utility()
        uct_c = self.uct_c if self.uct_c is not None else max(hi - lo, 1e-6)
        evaluator = NativeRolloutEvaluator(self.rng, self.rollouts, self.rollout_plies)
        bot = _bot_class()(sgame, uct_c, cap, evaluator, solve=True,
                           random_state=np.random.RandomState(self.rng.randrange(2**31)))
        bot.deadline = deadline
        root = bot.mcts_search(sstate)
        return root, sstate, lo, hi
