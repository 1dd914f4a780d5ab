"""Plain-Python agents: random play and one-ply greedy play, on the one Agent protocol (engine.agent)."""
from __future__ import annotations

import random

from towerworld.engine.agent import Agent, View, decision_moves
from towerworld.engine.game import CHANCE, Game, Move, State


class RandomAgent(Agent):
    """A uniformly random legal move, from a seeded generator (or `rng`, when one stream serves several seats)."""
    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, view):
        _, moves = decision_moves(view)
        return moves[self.rng.randrange(len(moves))]


class GreedyAgent(Agent):
    """One-ply lookahead on `game.heuristic`, averaging over chance outcomes (expectimax one level deep).

    The work is capped: at most `max_evals` heuristic calls per decision, spread over the moves; a chance node with
    more outcomes than a move's share is sampled instead of enumerated. Ties are broken by the seeded generator. In a
    hidden-information game the agent looks at one resample of what its seat knows (never the hidden truth).
    """
    name = "greedy"
    max_evals = 2000
    chance_chain = 64          # longest run of consecutive chance moves followed by sampling

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def world(self, view: View) -> State:
        """The full state this agent reasons about: a resample of what its seat knows."""
        return view.resample(self.rng)

    def choose(self, view):
        player, moves = decision_moves(view)
        if len(moves) == 1:
            return moves[0]
        game, state = view.game, self.world(view)
        share = max(1, self.max_evals // len(moves))
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            after, _ = game.apply_unchecked(state, move)
            value = self._value(game, after, player, share)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value >= best_value - 1e-9:
                best.append(move)
        return best[self.rng.randrange(len(best))]

    def _value(self, game: Game, state: State, player: int, budget: int) -> float:
        if game.current_player(state) != CHANCE:
            return game.heuristic(state, player)
        outcomes = game.chance_outcomes(state)
        if len(outcomes) <= budget:
            total = 0.0
            for outcome, p in outcomes:
                after, _ = game.apply_unchecked(state, outcome)
                total += p * game.heuristic(self._settle(game, after), player)
            return total
        total = 0.0
        for _ in range(budget):
            total += game.heuristic(self._settle(game, state), player)
        return total / budget

    def _settle(self, game: Game, state: State) -> State:
        """Sample chance moves until a decision or the end (a few chance moves may follow each other)."""
        for _ in range(self.chance_chain):
            if game.current_player(state) != CHANCE:
                break
            state, _ = game.apply_unchecked(state, game.sample_chance(state, self.rng))
        return state
