"""Elevation evaluation and search.

`evaluate(state, player)` is the heuristic (material, capture threats, how close each side is to striking from above,
mobility). `ElevationMCTS` is a Monte-Carlo tree search specialised for Elevation: a turn has hundreds to thousands of
legal complete turns, and random playouts say little, so the tree is widened progressively over turns ranked by the
heuristic (turns that give the same position are merged), and leaves are valued by the heuristic instead of a
playout (the value squashed to [-1, 1]). Proven wins (a capture of the last piece) end the search at once.
"""
from __future__ import annotations

import math
import random
import time

from towerworld.games.elevation.rules import (
    CLIMB, DD, DIAG2, DM, DRAGON, DRAW, DRAWN, FDM, FISH, FMD, MD, MM, NEIGH, ONGOING, PSIDE, PTYPE, SAMURAI,
    SQUARES, UNDERMINE, all_turns)

VALUE = (90.0, 120.0, 100.0)        # samurai, dragon, fish
WIN = 10_000.0


def threats(H, B, side: int, rules) -> dict:
    """{enemy square: best attacker value} for enemy pieces that `side` could capture in its next turn (close
    approximation: single steps from two or more above, dragon double steps, fish diagonals with a raised middle)."""
    enemy = 1 - side
    out = {}
    samu = rules.samurai_undermining
    for s in range(SQUARES):
        b = B[s]
        if b < 0 or PSIDE[b] != side:
            continue
        t = PTYPE[b]
        hs = H[s]
        need = 1 if (samu and t == SAMURAI) else 2
        for e in NEIGH[s]:
            v = B[e]
            if v >= 0 and PSIDE[v] == enemy and hs - H[e] >= need and (need == 2 or H[e] > 0):
                out[e] = 1
        if t == DRAGON:
            for m in NEIGH[s]:
                if B[m] >= 0 or H[m] - hs > 1:
                    continue
                hm = H[m]
                for e in NEIGH[m]:
                    v = B[e]
                    if v >= 0 and PSIDE[v] == enemy and hm - H[e] >= 2:
                        out[e] = 1
        elif t == FISH:
            for e, mid in DIAG2[s]:
                v = B[e]
                if v < 0 or PSIDE[v] != enemy or B[mid] >= 0:
                    continue
                hm = H[mid]
                if hm - hs <= 1 and hm - H[e] >= 2:
                    out[e] = 1
                elif hm + 1 - hs <= 1 and hm + 1 - H[e] >= 2:
                    out[e] = 1
    return out


def evaluate(state, player: int) -> float:
    """Heuristic value of `state` for `player` (higher is better); terminal states are +-WIN."""
    if state.outcome != ONGOING:
        if state.outcome == DRAWN:
            return 0.0
        return WIN if state.outcome == player else -WIN
    return static_eval(state.heights, state.board, player, state.mover ^ state.phase, state.rules)


def static_eval(H, B, player: int, to_move: int, rules) -> float:
    opp = 1 - player
    mine, theirs = [], []
    mat = 0.0
    for s in range(SQUARES):
        b = B[s]
        if b >= 0:
            if PSIDE[b] == player:
                mine.append(s)
                mat += VALUE[PTYPE[b]]
            else:
                theirs.append(s)
                mat -= VALUE[PTYPE[b]]
    if not theirs:
        return WIN
    if not mine:
        return -WIN
    score = mat
    my_t = threats(H, B, player, rules)
    their_t = threats(H, B, opp, rules)
    my_best = max((VALUE[PTYPE[B[e]]] for e in my_t), default=0.0)
    their_best = max((VALUE[PTYPE[B[e]]] for e in their_t), default=0.0)
    if to_move == player:
        score += 0.8 * my_best - 0.25 * their_best
    else:
        score += 0.25 * my_best - 0.8 * their_best
    score += 6.0 * (len(my_t) - len(their_t))
    # striking distance: for every enemy piece, how far the nearest of mine is from standing two above it next door
    score -= 3.0 * _reach(H, mine, theirs) - 3.0 * _reach(H, theirs, mine)
    # height: standing high is safe and threatening
    score += 1.5 * (sum(H[s] for s in mine) / len(mine) - sum(H[s] for s in theirs) / len(theirs))
    return score


# DIST1[e][a]: king-move distance from a to e, minus one (how many steps until a stands next to e)
DIST1 = tuple(tuple(max(abs(a // 6 - e // 6), abs(a % 6 - e % 6)) - 1 for a in range(SQUARES))
              for e in range(SQUARES))


def _reach(H, attackers, targets) -> float:
    total = 0.0
    for e in targets:
        he2 = H[e] + 2
        de = DIST1[e]
        best = 99.0
        for a in attackers:
            c = de[a]
            deficit = he2 - H[a]
            if deficit > 0:
                c += 0.7 * deficit
            if c < best:
                best = c
        total += best
    return total / len(targets)


# ---- fast successor: heights and board only -----------------------------------------------------------------------

def successor(H, B, move):
    """Heights and board after `move` (a piece's turn), and the value captured; no bookkeeping."""
    H = list(H)
    B = list(B)
    s, kind = move[0], move[1]
    piece = B[s]
    gain = 0.0

    def dig(f, t):
        H[f] -= 1
        H[t] += 1

    def go(cur, to):
        nonlocal gain
        v = B[to]
        if v >= 0:
            gain += VALUE[PTYPE[v]]
        B[cur] = -1
        B[to] = piece
        return to

    if kind == DM or kind == FDM:
        dig(move[2], move[3]); go(s, move[4])
    elif kind == MD or kind == FMD:
        go(s, move[2]); dig(move[3], move[4])
    elif kind == DD:
        dig(move[2], move[3]); dig(move[4], move[5])
    elif kind == MM:
        c = go(s, move[2]); go(c, move[3])
    elif kind == CLIMB:
        go(s, move[2])
    elif kind == UNDERMINE:
        dig(move[2], move[3])
    return tuple(H), tuple(B), gain


def _captures(board, move) -> bool:
    """Whether a turn moves onto an enemy piece (the mover is the piece on move[0])."""
    kind = move[1]
    side = board[move[0]] // 6
    if kind == DM or kind == FDM:
        targets = (move[4],)
    elif kind == MD or kind == FMD or kind == CLIMB:
        targets = (move[2],)
    elif kind == MM:
        targets = (move[2], move[3])
    else:
        return False
    for t in targets:
        b = board[t]
        if b >= 0 and b // 6 != side:
            return True
    return False


# ---- agents ----------------------------------------------------------------------------------------------------------

class _Node:
    __slots__ = ("state", "moves", "priors", "children", "visits", "value", "expanded", "terminal_value")

    def __init__(self, state):
        self.state = state
        self.moves = None          # candidate moves, best first
        self.priors = None
        self.children = {}
        self.visits = 0
        self.value = 0.0           # sum of values from the point of view of the player who moved INTO this node
        self.expanded = 0
        self.terminal_value = None


class ElevationMCTS:
    """UCT with progressive widening over heuristic-ranked complete turns and heuristic leaf values."""
    name = "mcts"
    LEVELS = {"fast": 0.25, "normal": 1.0, "strong": 3.0}

    def __init__(self, seed=None, level=None, seconds: float | None = None, width: int = 12, c: float = 0.6,
                 max_iterations: int = 100_000, sample: int = 120):
        self.rng = random.Random(seed)
        if seconds is None:
            if level is None:
                seconds = 1.0
            elif level in self.LEVELS:
                seconds = self.LEVELS[level]
            else:
                try:
                    seconds = float(level)
                except (TypeError, ValueError):
                    from towerworld.engine.game import BadOption
                    raise BadOption(f"The Elevation MCTS level must be one of {', '.join(self.LEVELS)} or a "
                                    f"number of seconds, not {level!r}.") from None
        self.seconds = seconds
        self.width = width
        self.c = c
        self.max_iterations = max_iterations
        self.sample = sample
        self.last_iterations = 0

    # candidate turns, ranked: the heuristic after the turn, merged by resulting position
    def _rank(self, game, state, full: bool = True):
        """Candidate turns, best first. Below the root (`full` false) only captures and a sample of the other turns
        are evaluated, so that the tree can grow within the time budget."""
        moves = all_turns(state)
        if not moves:
            return [], []
        me = state.mover ^ state.phase
        rules = state.rules
        nxt = 1 - me if not rules.two_pieces else me  # approximation in the two-pieces game
        seen = {}
        if not full and len(moves) > self.sample:
            board = state.board
            caps = [m for m in moves if m[0] != DRAW and _captures(board, m)]
            rest = [m for m in moves if m[0] != DRAW]
            moves = caps + self.rng.sample(rest, self.sample)
        for m in moves:
            if m[0] == DRAW:
                continue
            H, B, gain = successor(state.heights, state.board, m)
            key = (H, B)
            if key in seen:
                continue
            v = static_eval(H, B, me, nxt, rules)
            seen[key] = (v + self.rng.random() * 1e-3, m)
        ranked = sorted(seen.values(), reverse=True)
        out = [m for _, m in ranked]
        vals = [v for v, _ in ranked]
        if state.phase == 1:                      # answering a draw offer
            out = list(moves)
            vals = [0.0] * len(out)
        return out, vals

    def choose(self, view):
        game, state = view.game, view.resample(self.rng)
        moves = all_turns(state)
        if len(moves) == 1:
            return moves[0]
        me = state.mover ^ state.phase
        if state.phase == 1:
            # accept a draw only when clearly behind
            v = evaluate(state, me)
            return moves[0] if v < -150 else moves[1]
        deadline = time.perf_counter() + self.seconds
        root = _Node(state)
        self._expand(game, root, full=True)
        # an immediate win ends the search
        for m in root.moves[:3]:
            after, _ = game.apply_unchecked(state, m)
            if after.outcome == me:
                return m
        it = 0
        while it < self.max_iterations and (it < 2 or time.perf_counter() < deadline):
            self._simulate(game, root)
            it += 1
            if root.terminal_value is not None:
                break
        self.last_iterations = it
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value / max(kv[1].visits, 1)))
        return best[0]

    def _expand(self, game, node, full: bool = False):
        node.moves, node.priors = self._rank(game, node.state, full)

    def _allowed(self, node) -> int:
        return min(len(node.moves), 2 + int(self.width * math.sqrt(node.visits + 1) / 3))

    def _simulate(self, game, root):
        path = [root]
        node = root
        while True:
            st = node.state
            if st.outcome != ONGOING:
                break
            if node.moves is None:
                self._expand(game, node)
                if not node.moves:
                    break
                # leaf: evaluate and stop
                break
            allowed = self._allowed(node)
            # pick among the first `allowed` moves by UCT; unvisited moves in rank order first
            best, best_u = None, -1e18
            logn = math.log(node.visits + 1)
            for i in range(allowed):
                m = node.moves[i]
                ch = node.children.get(m)
                if ch is None:
                    best = m
                    break
                if ch.terminal_value is not None:
                    u = ch.terminal_value * 10
                else:
                    u = ch.value / ch.visits + self.c * math.sqrt(logn / ch.visits)
                if u > best_u:
                    best_u, best = u, m
            ch = node.children.get(best)
            if ch is None:
                after, _ = game.apply_unchecked(st, best)
                ch = _Node(after)
                node.children[best] = ch
                path.append(ch)
                node = ch
                break
            path.append(ch)
            node = ch
        leaf = node
        st = leaf.state
        # value from the point of view of the player who moved into the leaf
        if st.outcome != ONGOING:
            if st.outcome == DRAWN:
                v_abs = [0.0, 0.0]
            else:
                v_abs = [1.0, -1.0] if st.outcome == 0 else [-1.0, 1.0]
            leaf.terminal_value = None
        else:
            v0 = math.tanh(evaluate(st, 0) / 150.0)
            v_abs = [v0, -v0]
        for i, n in enumerate(path):
            n.visits += 1
            if i == 0:
                continue
            mover = path[i - 1].state.mover ^ path[i - 1].state.phase
            n.value += v_abs[mover]


class GreedyThreat:
    """One ply on the heuristic (with the threat terms): cheap, a baseline for the MCTS."""
    name = "elev-greedy"

    def __init__(self, seed=None, level=None):
        self.rng = random.Random(seed)

    def choose(self, view):
        game, state = view.game, view.resample(self.rng)
        mcts = ElevationMCTS(seed=self.rng.randrange(1 << 30))
        moves = all_turns(state)
        if state.phase == 1:
            return mcts.choose(view)
        ranked, _ = mcts._rank(game, state)
        return ranked[0] if ranked else moves[0]


def agent_factories() -> dict:
    return {
        "mcts": lambda game, seed=None, level=None: ElevationMCTS(seed, level),
        "elev-greedy": lambda game, seed=None, level=None: GreedyThreat(seed, level),
    }
