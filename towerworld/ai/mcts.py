"""Monte-Carlo tree search written directly on the contract (UCT with chance nodes and MCTS-Solver).

The search follows OpenSpiel's `MCTSBot` (open_spiel/python/algorithms/mcts.py) step for step: a new node is first
valued by a rollout and expanded on its second visit; unvisited moves are tried in a shuffled order before UCT picks;
chance nodes sample their outcome by its probability; a child's value is the return of the player who chose it; a
terminal leaf's returns are proven, and proofs climb the tree (a move proven best for its mover proves its parent).
Unlike OpenSpiel's bot, a node keeps its native state, so a simulation applies one move (the new leaf's) instead of
replaying the whole path on a cloned pyspiel state, and there is no adapter or numpy in the loop: that is most of a
simulation's cost in a game with cheap moves. Leaves are valued by native playouts (`game.rollout`: uniformly random
unless the game plays a policy). Each move gets a simulation budget (with a clock for very slow machines) or a time budget. Hidden-information games are
searched over several determinizations (`view.resample`: what the player may know, the unknown sampled) and the visit
counts summed.
"""
# The search is adapted from OpenSpiel's open_spiel/python/algorithms/mcts.py (MCTSBot). Copyright 2019 DeepMind
# Technologies Limited. Licensed under the Apache License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0);
# see NOTICE at the repository root.
from __future__ import annotations

import math
import random
import time

from towerworld.engine.agent import Agent, decision_moves, parse_budget
from towerworld.engine.game import CHANCE, TERMINAL, Game

# level -> (seconds at most, simulations). The simulations decide a named level's strength, so that a ladder gives the
# same results for the same seeds on any machine; the clock only stops a search on a machine several times slower than
# a small laptop (normal is about a second a move for K'Dak there). Easy is a very short search: in K'Dak, 20 games a
# pair, 20 simulations scored 40% against greedy and 60 scored 80%, while 500 and more all play alike (600 against
# 200: 55%; 2,500 against 600: 50%), so an easy level of 500 was the normal one by another name.
LEVELS = {"easy": (1.0, 20), "fast": (1.0, 500), "normal": (4.0, 2_500), "strong": (12.0, 10_000)}
DEFAULT_LEVEL = "normal"


class _Node:
    """One position of the tree with its native state. `chooser` is the player whose return this node's value counts:
    the mover of the nearest decision node above it (a chance node passes its own on), as in OpenSpiel's bot."""
    __slots__ = ("state", "player", "chooser", "moves", "probs", "order", "children", "visits", "total", "outcome")

    def __init__(self, state, player: int, chooser: int):
        self.state = state
        self.player = player          # who moves here: a seat, CHANCE or TERMINAL
        self.chooser = chooser
        self.moves: list | None = None          # legal moves or chance outcomes, once expanded
        self.probs: list | None = None          # chance probabilities (chance nodes)
        self.order: list | None = None          # decision nodes: move indexes not tried yet, next last
        self.children: list | None = None       # per move index: a _Node, or None while untried
        self.visits = 0
        self.total = 0.0
        self.outcome: list | None = None        # proven returns (MCTS-Solver)


def parse_level(level) -> tuple[float, int]:
    """(seconds, simulation cap) for a level name, a number of seconds ("0.5": the clock decides) or a number of
    simulations ("3000it": no clock); BadOption naming the choices otherwise."""
    seconds, simulations = parse_budget(level, LEVELS, DEFAULT_LEVEL, "MCTS", "simulations")
    if seconds is None:
        return float("inf"), simulations or 1
    return seconds, simulations if simulations is not None else max(100, int(seconds * 20_000))


class MCTSAgent(Agent):
    """UCT on the contract (`search`), native rollouts, a simulation budget per move (easy 20, normal 2,500, strong
    10,000, or "Nit") with a clock that stops it on a very slow machine, or a number of seconds."""
    name = "mcts"
    determinizations = 8      # how many determinizations share the budget in a hidden-information game

    def __init__(self, seed: int | None = None, level=None, *, seconds: float | None = None,
                 max_simulations: int | None = None, uct_c: float | None = None, rollouts: int = 1,
                 rollout_plies: int | None = None):
        self.level = level or DEFAULT_LEVEL
        budget, cap = parse_level(level)
        self.seconds: float | None = budget if seconds is None else seconds
        self.max_simulations = cap if max_simulations is None else max_simulations
        # a named level or "Nit" is a simulation budget; its clock only guards a very slow machine
        self.budgeted = seconds is None and (max_simulations is not None or
                                             parse_budget(level, LEVELS, DEFAULT_LEVEL, "MCTS", "simulations")[1]
                                             is not None)
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
        deadline = time.perf_counter() + (math.inf if self.seconds is None else self.seconds)
        worlds = 1 if game.perfect_information else self.determinizations
        visits: dict = {}
        reward: dict = {}
        proven: dict = {}
        sims = 0
        info = game.info()
        lo, hi = info.min_utility, info.max_utility
        uct_c = self.uct_c if self.uct_c is not None else max(hi - lo, 1e-6)
        weighed = None
        for k in range(worlds):
            world = view.resample(self.rng)
            if weighed is None:
                weighed = game.search_moves(world, moves)
                if len(weighed) == 1:
                    self.last_simulations = 0
                    return weighed[0]
                if len(weighed) == len(moves):
                    weighed = moves
            now = time.perf_counter()
            end = now + (deadline - now) / (worlds - k)
            cap = max(1, (self.max_simulations - sims) // (worlds - k))
            root = search(game, world, self.rng, end, cap, uct_c, self.rollouts, self.rollout_plies,
                          None if weighed is moves else weighed)
            sims += root.visits
            for move, child in zip(root.moves or (), root.children or ()):
                if child is None:
                    continue
                visits[move] = visits.get(move, 0) + child.visits
                reward[move] = reward.get(move, 0.0) + child.total
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


def _expand(game: Game, node: _Node, rng: random.Random, moves: list | None = None) -> None:
    if node.player == CHANCE:
        outcomes = game.chance_outcomes(node.state)
        node.moves = [m for m, _ in outcomes]
        node.probs = [p for _, p in outcomes]
    else:
        node.moves = game.legal_moves(node.state) if moves is None else moves
        order = list(range(len(node.moves)))
        rng.shuffle(order)               # untried moves in a random order (popped from the end): no bias from move
        node.order = order               # generation order
    node.children = [None] * len(node.moves)


def search(game: Game, state, rng: random.Random, deadline: float, cap: int, uct_c: float, rollouts: int = 1,
           rollout_plies: int | None = None, root_moves: list | None = None) -> _Node:
    """The root of a UCT tree grown from `state` (a decision) until `deadline` (perf_counter seconds) or `cap`
    simulations, whichever comes first, or until the root is proven. `root_moves`: the legal moves the root weighs
    (default: all of them)."""
    max_utility = game.info().max_utility
    player = game.current_player(state)
    root = _Node(state, player, player)
    if root_moves is not None:
        _expand(game, root, rng, list(root_moves))
    c2 = uct_c * uct_c
    for i in range(cap):
        if i and time.perf_counter() >= deadline:
            break
        # selection and expansion: down to a node never valued before, or the end of the game
        path = [root]
        node = root
        while node.visits and node.player != TERMINAL:
            if node.children is None:
                _expand(game, node, rng)
            children = node.children
            assert children is not None and node.moves is not None
            if node.player == CHANCE:
                assert node.probs is not None
                r = rng.random()
                pick = len(children) - 1
                for k, p in enumerate(node.probs):
                    r -= p
                    if r < 0:
                        pick = k
                        break
            elif node.order:
                pick = node.order.pop()
            else:
                mover = node.player
                scale = c2 * math.log(node.visits)
                best_value = -math.inf
                pick = 0
                for k, ch in enumerate(children):
                    if ch.outcome is not None:
                        value = ch.outcome[mover]
                    else:
                        value = ch.total / ch.visits + math.sqrt(scale / ch.visits)
                    if value > best_value:
                        best_value, pick = value, k
            child = children[pick]
            if child is None:
                after, _ = game.apply_unchecked(node.state, node.moves[pick])
                child = _Node(after, game.current_player(after),
                              node.chooser if node.player == CHANCE else node.player)
                children[pick] = child
            path.append(child)
            node = child
        # the leaf's value: proven at the end of the game, else the mean of native playouts
        if node.player == TERMINAL:
            returns = [float(r) for r in game.returns(node.state)]
            node.outcome = returns
            solved = True
        else:
            returns = _playouts(game, node.state, rng, rollouts, rollout_plies)
            solved = False
        # backpropagation, with MCTS-Solver's proofs
        for node in reversed(path):
            node.visits += 1
            node.total += returns[node.chooser]
            if solved and node.children:
                solved = _prove(node, max_utility)
        if root.outcome is not None:
            break
    return root


def _prove(node: _Node, max_utility: float) -> bool:
    """Whether the node is proven now that a child was: a chance node when every outcome is proven alike, a decision
    node when every move is proven (its best one counts) or one gives its mover the most there is."""
    children = node.children
    assert children is not None
    if node.player == CHANCE:
        first = children[0].outcome if children[0] is not None else None
        if first is not None and all(ch is not None and ch.outcome == first for ch in children):
            node.outcome = first
            return True
        return False
    mover = node.player
    best = None
    all_proven = True
    for ch in children:
        if ch is None or ch.outcome is None:
            all_proven = False
        elif best is None or ch.outcome[mover] > best[mover]:
            best = ch.outcome
    if best is not None and (all_proven or best[mover] == max_utility):
        node.outcome = best
        return True
    return False


def _playouts(game: Game, state, rng: random.Random, rollouts: int, max_plies: int | None) -> list:
    """The mean returns of `rollouts` native playouts; a playout cut short before the end scores 0 for everyone."""
    n = game.num_players(state)
    total = [0.0] * n
    for _ in range(rollouts):
        end = game.rollout(state, rng, max_plies)
        if game.current_player(end) == TERMINAL:
            for p, r in enumerate(game.returns(end)):
                total[p] += r
    return [t / rollouts for t in total]
