"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse 2012), written on the contract.

The agent sees only its seat's `View`. Every iteration draws a determinization, `view.resample(rng)` (a full state the
seat cannot tell from the true one), and walks one shared tree with it:

- A decision node belongs to the player to move. Its children are keyed by move. A move is *available* in a node when
  it is legal in the current determinization; selection is UCB over the available children, with each child's
  availability count in place of its parent's visit count (moves legal in few determinizations are not starved).
- Progressive widening: a node grows a new child only while it has fewer than `base + visits ** power`; the new move
  is the one the game's playout policy proposes (`game.playout_move`; uniform unless the game has a policy), so the
  players in the tree answer as a player would, not with the first of a hundred idle moves.
- A chance node samples its outcome from the determinization (`game.sample_chance`); its children are keyed by what
  the searching seat observes after the outcome, so outcomes hidden from the seat (an opponent's draw) share a node
  while outcomes it sees (its own draw) get one each.
- A leaf is valued by `game.rollout`: uniformly random play to the end unless the game plays its own policy or stops
  early (a long game whose random moves say little may return an unfinished state). `rollout_plies` caps the playout
  (0 judges the leaf as it is). An unfinished game is judged by `game.heuristic`: each player's lead over the best
  other player, squashed into (-1, 1) by tanh over the typical size of the leads seen so far (heuristics come in any
  unit). Each node keeps the value for the player who moved into it, so two- and many-player games back up alike.
- The root's moves are tried best-first by the heuristic one move ahead (averaged over `ROOT_SAMPLES`
  determinizations), and widen in that order, so that a short search with many moves (a second, a hundred moves)
  spends itself on the promising ones.

For perfect-information games the resample is the state itself and this is plain UCT with chance sampling. The agent
never reads the true state: everything it searches comes from `view.resample`.
"""
from __future__ import annotations

import math
import random
import time
from typing import Hashable

from towerworld.engine.agent import Agent, View, parse_budget
from towerworld.engine.game import CHANCE, TERMINAL, Game, Move, State

# level -> (seconds at most, iterations). The iterations decide a named level's strength, so that a ladder gives the same
# results for the same seeds on any machine; the clock only stops a search on a machine several times slower than a
# small laptop (there Throwdown runs about 1,800 iterations a second: normal is a third of a second a move, and beat
# the greedy agent 9 games in 10 with a tenth of its iterations). "fast" is MCTS's name for its quick level.
LEVELS: dict[str, tuple[float | None, int]] = {"easy": (1.0, 100), "fast": (1.0, 100), "normal": (4.0, 600),
                                               "strong": (12.0, 2_400)}
DEFAULT_LEVEL = "normal"
EXPLORATION = 0.7           # UCB constant for returns in [-1, 1] (a win is 1, a loss -1)
ROLLOUT_PLIES = None        # playout plies before the heuristic judges a leaf; None: as far as game.rollout goes
ORDERED_ROOT_MOVES = 500    # up to this many root moves are tried best-first by the game's heuristic
ROOT_SAMPLES = 3            # determinizations the root's best-first order averages the heuristic over
WIDEN_BASE = 3              # a node has at most WIDEN_BASE + visits ** WIDEN_POWER children (progressive widening):
WIDEN_POWER = 0.5           # a hundred moves share a short search's iterations among the likely ones


def parse_level(level) -> tuple[float | None, int]:
    """(seconds or None for no clock, iteration cap) from a level.

    A level is a name (easy, normal, strong), a number of seconds ("0.5"), or an iteration budget with no clock
    ("400it"), which makes the agent's choice a function of its seed and view alone (ladders, tests).
    """
    seconds, iterations = parse_budget(level, LEVELS, DEFAULT_LEVEL, "IS-MCTS", "iterations")
    if iterations is None:
        return seconds, max(100, int((seconds or 0) * 20_000))
    return seconds, iterations


class _Node:
    """One node of the search tree: statistics for the move (or chance observation) that leads into it."""
    __slots__ = ("mover", "visits", "total", "available", "children")

    def __init__(self, mover: int):
        self.mover = mover            # who moved into this node (CHANCE for a chance edge); its value is theirs
        self.visits = 0
        self.total = 0.0
        self.available = 0            # how often this node's move was legal when its parent was visited
        self.children: dict[Hashable, _Node] = {}

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class ISMCTSAgent(Agent):
    """SO-ISMCTS over `view.resample` determinizations; `choose(view)` returns the most visited root move.

    `level`: easy or fast (100 iterations), normal (600), strong (2,400), each with a clock for very slow machines; a
    number of seconds; or "500it" (iterations, no clock: deterministic for a seed). `iterations` and `seconds` override the level.
    """
    name = "ismcts"

    def __init__(self, seed: int | None = None, level=None, *, iterations: int | None = None,
                 seconds: float | None = None, exploration: float = EXPLORATION,
                 rollout_plies: int | None = ROLLOUT_PLIES,
                 widen: tuple[float, float] | None = (WIDEN_BASE, WIDEN_POWER)):
        budget, cap = parse_level(level)
        if iterations is not None:
            budget, cap = None, iterations
        self.seconds = seconds if seconds is not None else budget
        self.iterations = cap
        # a named level or "Nit" is an iteration budget; its clock only guards a very slow machine
        self.budgeted = seconds is None and (iterations is not None or
                                             parse_budget(level, LEVELS, DEFAULT_LEVEL, "IS-MCTS", "iterations")[1]
                                             is not None)
        self.exploration = exploration
        self.rollout_plies = rollout_plies
        self.widen = widen            # (base, power) of the progressive widening; None: every move at once
        self.rng = random.Random(seed)
        self.last_iterations = 0      # iterations of the latest choose (the bench reports rates from it)
        self.last_root: _Node | None = None
        self._lead_sum = 0.0          # sum and count of |lead| at judged leaves: the scale of the game's heuristic
        self._lead_count = 0
        self._root_order: list[Move] = []

    def choose(self, view: View) -> Move:
        moves = list(view.legal_moves)
        if not moves:
            raise ValueError("The IS-MCTS agent was asked to move where its seat has no legal move.")
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        root = self.search(view)
        legal = set(moves)
        ranked = [(child.visits, child.mean(), -i, move) for i, (move, child) in enumerate(root.children.items())
                  if move in legal]
        if not ranked:
            return moves[self.rng.randrange(len(moves))]
        return max(ranked, key=lambda r: r[:3])[3]

    # ---- search ---------------------------------------------------------------------------------------------------
    def search(self, view: View) -> _Node:
        """Grow a tree from `view` until the iteration cap or the clock runs out; the root's children are its moves."""
        game = view.game
        root = _Node(view.seat)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._root_order = self._best_first(game, view)
        done = 0
        while done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(game, view.seat, root, view.resample(self.rng))
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root

    def _iterate(self, game: Game, seat: int, root: _Node, state: State) -> None:
        path = [root]
        node = root
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                state, _ = game.apply_unchecked(state, game.sample_chance(state, self.rng))
                key = ("chance", game.observation(state, seat))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(CHANCE)
                node = child
                path.append(node)
                continue
            if node is root:
                moves = self._root_moves(root)
                move = next((m for m in moves if m not in node.children), None)   # best-first
            else:
                moves = game.legal_moves(state)
                move = self._proposal(game, state, node, moves)
            if move is not None:
                for m in moves:
                    if m in node.children:
                        node.children[m].available += 1
                child = node.children[move] = _Node(player)
                child.available = 1
                state, _ = game.apply_unchecked(state, move)
                path.append(child)
                break
            move = self._select(node, moves)
            state, _ = game.apply_unchecked(state, move)
            node = node.children[move]
            path.append(node)
        returns = self._value(game, state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += returns[visited.mover]

    def _proposal(self, game: Game, state: State, node: _Node, moves: list[Move]) -> Move | None:
        """A move to add to `node`, or None to select among its children: the game's playout policy proposes one
        while the node's children are fewer than the widening allows (or none of them is legal here); a proposal
        already in the tree is selected instead. So a hundred moves, most of them idle, do not spread the search
        thin, and the opponents in the tree answer as the playouts would."""
        children = node.children
        tried = sum(1 for m in moves if m in children)
        if tried == len(moves):
            return None
        if tried and self.widen is not None and len(children) >= self.widen[0] + node.visits ** self.widen[1]:
            return None
        move = game.playout_move(state, self.rng)
        return None if move in children else move

    def _root_moves(self, root: _Node) -> list[Move]:
        """The root's moves in play this iteration: its best-first few, more as the visits grow (the root is the
        searching seat's own decision, so its moves are the same in every determinization)."""
        order = self._root_order
        if self.widen is None:
            return order
        base, power = self.widen
        return order[:int(base + root.visits ** power)]

    def _select(self, node: _Node, moves: list[Move]) -> Move:
        """UCB over the available children in the tree, counting availability as the parent's visits (SO-ISMCTS)."""
        best_move, best_score = None, -math.inf
        c = self.exploration
        children = node.children
        for move in moves:
            child = children.get(move)
            if child is None:         # not in the tree yet (widening): not a choice this time
                continue
            child.available += 1
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best_move, best_score = move, score
        return best_move

    def _best_first(self, game: Game, view: View) -> list[Move]:
        """The seat's moves sorted by the heuristic one move ahead, summed over a few determinizations (ties in legal
        order)."""
        moves = list(view.legal_moves)
        if len(moves) > ORDERED_ROOT_MOVES:
            return moves
        value: dict = {}
        for sample in range(ROOT_SAMPLES):
            world = view.resample(self.rng)
            if not sample:              # the moves a search weighs here (the game may hold back waiting moves)
                moves = game.search_moves(world, moves)
                value = dict.fromkeys(moves, 0.0)
            for m in moves:
                value[m] += game.heuristic(game.apply_unchecked(world, m)[0], view.seat)
        return sorted(moves, key=lambda m: -value[m])

    def _value(self, game: Game, state: State) -> list[float]:
        if game.current_player(state) != TERMINAL and self.rollout_plies != 0:    # 0: judge the leaf as it is
            state = game.rollout(state, self.rng, self.rollout_plies)
        if game.current_player(state) != TERMINAL:
            return self._judge(game, state)
        return list(game.returns(state))

    def _judge(self, game: Game, state: State) -> list[float]:
        """Values in (-1, 1) for an unfinished game: each player's heuristic lead, over the typical lead so far."""
        n = game.num_players(state)
        if n < 2:
            return [0.0] * n          # a solitaire's heuristic has no opponent to lead: an unfinished game is neutral
        h = [game.heuristic(state, p) for p in range(n)]
        leads = [h[p] - max(h[q] for q in range(n) if q != p) for p in range(n)]
        self._lead_sum += abs(leads[0])
        self._lead_count += 1
        scale = self._lead_sum / self._lead_count or 1.0
        return [math.tanh(lead / scale) for lead in leads]

    def __repr__(self) -> str:
        return f"<ISMCTSAgent {self.iterations} iterations{'' if self.seconds is None else f', {self.seconds} s'}>"
