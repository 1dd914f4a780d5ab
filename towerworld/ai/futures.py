"""Searching sampled futures (Perfect-Information Monte Carlo), for a game of chance with nothing hidden.

Instead of one tree whose chance nodes average every roll at every depth, the search draws futures: each is a sequence
of random numbers from the agent's own generator, and in it the i-th chance event after the position searched takes
the outcome its i-th number picks (`Game.chance_outcome`), in the tree and in the playouts alike
(`Game.rollout_with_chance`). Each future's search is a plain deterministic UCT that plans as far as its budget reaches;
the futures' visits are summed and the most visited move is played. A future's proof is not a proof in the game, so a
future whose search proved its root gives its whole share of the budget to the move that won there (a vote), and no
proof is kept. Fair: the futures are the agent's own draws, never the game's.

In K'Dak a tree with chance nodes stops paying past a few hundred simulations, while 20 futures of 500 simulations
won 6 of the first 6 screening games against that tree at 2,500 (docs/rules/kdak.md, "Session 18").
"""
from __future__ import annotations

import random
import time

from towerworld.engine.game import CHANCE, Game


class _Future:
    """A future's random numbers, drawn from one seed as they are needed."""
    __slots__ = ("_draw", "_numbers")

    def __init__(self, seed: int):
        self._draw = random.Random(seed).random
        self._numbers: list[float] = []

    def __getitem__(self, i: int) -> float:
        numbers = self._numbers
        while i >= len(numbers):
            numbers.append(self._draw())
        return numbers[i]


class FutureGame(Game):
    """`game` with its chance fixed by one future: the search's states are (state, i), i the chance events since the
    root; a chance node has the one outcome the future's i-th number picks."""

    def __init__(self, game: Game, future: _Future):
        self.game = game
        self.future = future
        self.max_utility = float(getattr(game, "max_utility", 1.0))
        self.min_utility = float(getattr(game, "min_utility", -1.0))
        self.max_plies = game.max_plies

    def num_players(self, ws) -> int:
        return self.game.num_players(ws[0])

    def current_player(self, ws) -> int:
        return self.game.current_player(ws[0])

    def legal_moves(self, ws) -> list:
        return self.game.legal_moves(ws[0])

    def chance_outcomes(self, ws) -> list:
        state, i = ws
        return [(self.game.chance_outcome(state, self.future[i]), 1.0)]

    def apply_unchecked(self, ws, move):
        state, i = ws
        if self.game.current_player(state) == CHANCE:
            i += 1
        after, events = self.game.apply_unchecked(state, move)
        return (after, i), events

    def returns(self, ws) -> list:
        return self.game.returns(ws[0])

    def rollout(self, ws, rng: random.Random, max_plies: int | None = None):
        state, i = ws
        future = self.future
        at = [i]

        def chance() -> float:
            r = future[at[0]]
            at[0] += 1
            return r

        return self.game.rollout_with_chance(state, rng, chance, max_plies), at[0]


def search_futures(game, state, root_moves: list | None, worlds: int, simulations: int,
                   rng: random.Random, deadline: float, uct_c: float, rollouts: int = 1,
                   rollout_plies: int | None = None) -> tuple[dict, dict, int]:
    """(visits, reward sums, simulations) per root move over `worlds` sampled futures sharing `simulations`."""
    from towerworld.ai.mcts import search
    player = game.current_player(state)
    lo = float(getattr(game, "min_utility", -1.0))
    visits: dict = {}
    reward: dict = {}
    sims = 0
    for w in range(worlds):
        future = FutureGame(game, _Future(rng.getrandbits(64)))
        now = time.perf_counter()
        end = now + (deadline - now) / (worlds - w)
        cap = max(1, (simulations - sims) // (worlds - w))
        root = search(future, (state, 0), rng, end, cap, uct_c, rollouts, rollout_plies, root_moves)
        sims += root.visits
        moves = root.moves or []
        vote = None
        proved = root.outcome[player] if root.outcome is not None else lo
        if proved > lo:
            won = [(child.visits, k) for k, child in enumerate(root.children or ())
                   if child is not None and child.outcome is not None and child.outcome[player] == proved]
            if won:
                vote = moves[max(won)[1]]
        for move, child in zip(moves, root.children or ()):
            if child is None:
                continue
            if vote is not None:
                v = cap if move == vote else 0
                r = v * proved
            else:
                v, r = child.visits, child.total
            visits[move] = visits.get(move, 0) + v
            reward[move] = reward.get(move, 0.0) + r
        if time.perf_counter() >= deadline and sims > 0:
            break
    return visits, reward, sims
