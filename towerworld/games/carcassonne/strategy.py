"""Carcassonne's own agents: a projected-score evaluation, a greedy player and a UCT search written on the engine.

The evaluation counts each player's points as if the game ended now: points already scored plus what their
followers would bring at the final scoring (unfinished roads, cities and cloisters, and farms). A full random playout
costs several milliseconds (about ninety tiles to go) and tells little, so the search evaluates its leaves with this
projection instead; that is what lets it run thousands of simulations a second with The Tower on.

`mcts` replaces the generic OpenSpiel MCTS for Carcassonne: UCT over decisions, chance (the tile drawn) sampled from
the bag at each visit, leaves valued by the projection squashed to [-1, 1]; the most visited move is played. Levels
easy / normal / strong are 1,600 / 8,000 / 24,000 simulations a move (about 0.2 / 1 / 3 seconds on a small laptop),
with a clock that stops a very slow machine, so the same seed gives the same play anywhere; or a number of seconds, or
"3000it". `greedy` plays the move whose result projects best for itself.
"""
from __future__ import annotations

import gc
import math
import random
import time
from typing import Any

from towerworld.engine.agent import Agent, parse_budget
from towerworld.engine.game import AgentSpec

from .board import DRAW, M_DRAW, OVER, CState
from .rules import legal_moves, step

# level -> (seconds at most, simulations). The simulations decide a level's strength (about 9,000 a CPU second in a
# 2-player game on a 2-core EPYC); the clock only guards a very slow machine. "easy" is 20 simulations, about greedy's
# strength (40% against it in docs/rules/carcassonne.md's curve): plausible moves a beginner can beat, as in K'Dak.
LEVELS = {"easy": (1.0, 20), "fast": (1.0, 1_600), "normal": (4.0, 8_000), "strong": (12.0, 24_000)}
DEFAULT_LEVEL = "normal"
_np: Any = None         # numpy, imported by the first search (the game itself never needs it)
SCALE = 20.0            # points of lead that count as most of a win in the squashed value
UCT_C = 1.2


def projected(s: CState) -> list[int]:
    """Each player's points if the game ended now (already scored plus the final scoring of what stands: the state
    keeps the latter up to date move by move, so a leaf reads it instead of walking the board)."""
    if s.phase == OVER:
        return list(s.scores)
    return [a + b for a, b in zip(s.scores, s.proj)]


def values(s: CState) -> list[float]:
    """Per-player value in [-1, 1]: the squashed projected lead over the best other player (the result once over)."""
    points = projected(s)
    n = len(points)
    if s.phase == OVER:
        best = max(points)
        winners = [i for i in range(n) if points[i] == best]
        if len(winners) == n:
            return [0.0] * n
        return [1.0 if i in winners else -1.0 for i in range(n)]
    out = []
    for i in range(n):
        other = max(points[j] for j in range(n) if j != i)
        out.append(math.tanh((points[i] - other) / SCALE))
    return out


def _draw(s: CState, rng: random.Random) -> int:
    i = int(rng.random() * s.bagn)
    for t, c in enumerate(s.bag):
        if i < c:
            return t
        i -= c
    raise ValueError("the bag is empty")


def _state_of(view_or_game, state, rng):
    """(game, state) from either calling convention: choose(view) or choose(game, state)."""
    if state is not None:
        return view_or_game, state
    return view_or_game.game, view_or_game.resample(rng)


class GreedyAgent(Agent):
    """The move whose result projects best for the player (ties broken at random)."""
    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view, state=None):
        game, s = _state_of(view, state, self.rng)
        moves = game.legal_moves(s)
        p = s.player
        best, pick = -2.0, []
        for move in moves:
            v = values(step(s, move, None))[p]
            if v > best + 1e-9:
                best, pick = v, [move]
            elif abs(v - best) <= 1e-9:
                pick.append(move)
        return pick[self.rng.randrange(len(pick))]


WIDE = 24              # from this many moves a node's UCT choice is one numpy expression over all its children


class Node:
    """A search node. A decision node also keeps its children's totals for its own player and their visits (qt, qv,
    in the order the children were made, kids): flat lists, or numpy arrays of one slot a move where there are WIDE
    moves or more (a late game's placements), so the UCT choice is one expression instead of a call per child. The
    UCT choice is made once every move has a child, over all of them."""
    __slots__ = ("state", "untried", "children", "visits", "total", "kids", "qt", "qv")

    def __init__(self, state: CState, players: int, rng: random.Random):
        self.state = state
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = [0.0] * players
        self.kids: list[Node] = []
        self.qt: Any = None
        self.qv: Any = None
        self.untried = []
        if state.phase not in (DRAW, OVER):
            self.untried = legal_moves(state)
            rng.shuffle(self.untried)
            if len(self.untried) >= WIDE:
                self.qt = _np.zeros(len(self.untried))
                self.qv = _np.ones(len(self.untried))
            else:
                self.qt = []
                self.qv = []


class SearchAgent(Agent):
    """UCT on the engine with projected-score leaves; `last_simulations` and `last_seconds` report the latest search."""
    name = "mcts"

    def __init__(self, seed: int | None = None, level=None, *, seconds: float | None = None,
                 max_simulations: int | None = None):
        self.rng = random.Random(seed)
        clock, cap = parse_level(level) if seconds is None else (seconds, None)
        self.seconds: float | None = clock
        self.max_simulations = max_simulations or cap or 500_000
        # a named level or "Nit" is a simulation budget (a ladder takes its clock away: ladder.budget_alone)
        self.budgeted = seconds is None and cap is not None
        self.last_simulations = 0
        self.last_seconds = 0.0

    def choose(self, view, state=None):
        game, s = _state_of(view, state, self.rng)
        moves = game.legal_moves(s)
        if len(moves) == 1:
            self.last_simulations = 0
            return moves[0]
        root = self.search(s)
        return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total[s.player]))[0]

    def search(self, s: CState) -> Node:
        n = s.cfg.players
        rng = self.rng
        root = Node(s, n, rng)
        start = time.perf_counter()
        deadline = start + (math.inf if self.seconds is None else self.seconds)
        sims = 0
        # The tree holds no reference cycles (nodes point down to their children and states, states to containers of
        # ints), so reference counting frees all of it; the cyclic collector would only walk every state's board
        # lists again and again, more of them the longer the game. It rests while the search runs.
        global _np
        if _np is None:
            import numpy
            _np = numpy
        collecting = gc.isenabled()
        gc.disable()
        try:
            # the clock is read every 16 simulations, after the first 16: even a stalled machine gets a move it
            # searched
            while sims < self.max_simulations and (sims & 15 or not sims or time.perf_counter() < deadline):
                self._simulate(root, n)
                sims += 1
        finally:
            if collecting:
                gc.enable()
        self.last_simulations = sims
        self.last_seconds = time.perf_counter() - start
        return root

    def _simulate(self, root: Node, n: int) -> None:
        rng = self.rng
        sqrt = math.sqrt
        node = root
        path = [root]
        picks = []                                     # (decision node, the index of the child taken)
        while True:
            st = node.state
            if st.phase == OVER:
                value = values(st)
                break
            if st.phase == DRAW:                       # chance: a tile from the bag, by its frequency
                t = _draw(st, rng)
                child = node.children.get(t)
                if child is None:
                    child = node.children[t] = Node(step(st, M_DRAW | t, None), n, rng)
                node = child
                path.append(node)
                continue
            if node.untried:
                move = node.untried.pop()
                child = node.children[move] = Node(step(st, move, None), n, rng)
                picks.append((node, len(node.kids)))
                node.kids.append(child)
                if type(node.qt) is list:
                    node.qt.append(0.0)
                    node.qv.append(0)
                path.append(child)
                value = values(child.state)
                break
            # UCT: the child with the best mean for the player to move plus the exploration term (the first best)
            log_n = math.log(node.visits + 1)
            qt, qv = node.qt, node.qv
            if type(qt) is list:
                ucb = [t / v + UCT_C * sqrt(log_n / v) for t, v in zip(qt, qv)]
                i = ucb.index(max(ucb))
            else:                                      # the same arithmetic, element by element, the first best
                i = int((qt / qv + UCT_C * _np.sqrt(log_n / qv)).argmax())
            picks.append((node, i))
            node = node.kids[i]
            path.append(node)
        for nd in path:
            nd.visits += 1
            tot = nd.total
            for i in range(n):
                tot[i] += value[i]
        for nd, i in picks:
            child = nd.kids[i]
            nd.qt[i] = child.total[nd.state.player]
            nd.qv[i] = child.visits


def parse_level(level) -> tuple[float | None, int | None]:
    """(seconds at most, simulations) for a level name, a number of seconds or "Nit"; BadOption naming the choices
    otherwise."""
    return parse_budget(level, LEVELS, DEFAULT_LEVEL, "Carcassonne search", "simulations")


AGENTS = (
    AgentSpec("mcts", "search", lambda game, seed=None, level=None: SearchAgent(seed, level),
              ("easy", "normal", "strong"), DEFAULT_LEVEL, budgeted=True),
    AgentSpec("greedy", "greedy", lambda game, seed=None, level=None: GreedyAgent(seed)),
)
