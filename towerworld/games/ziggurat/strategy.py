"""Ziggurat heuristics and agents.

`player` is the fair AI: it sees what a person sees (the hand, the ziggurat and which dominoes are still unseen, never
the pile order), through its View. `solver` plays the deal analyser's line and reads the pile order of a numbered deal
when it is handed a state that holds one (an omniscient seat, or the figures script); a seat's View never does, and
then it plays as `player`. Both give up only when the deal is proven blocked (no number of cheats can finish it).
"""
from __future__ import annotations

import itertools
import random
import time
from typing import cast

from towerworld.engine.agent import Agent, View
from towerworld.engine.driver import END, Driver
from towerworld.engine.game import CHANCE, SEES_ALL, AgentSpec, BadOption
from towerworld.engine.match import Match
from towerworld.games.ziggurat.board import CHEAT, DINDEX, GIVE_UP, ZState, deal_order, lift, placements
from towerworld.games.ziggurat.solver import (Analysis, _counts_of, _room_ok, _state_after, _Timeout, _ZeroSearch,
                                              blocked, blocked_at, choose_cheat, clairvoyant_move, feasible,
                                              greedy_move, play_clairvoyant, position_key)


def heuristic(game, state, player: int = 0) -> float:
    """Dominoes standing less three per cheat: a cheat must win back more than it costs."""
    if game.is_terminal(state):
        return game.returns(state)[0] * 1000.0
    placed = sum(1 for v in state.vals if v >= 0) // 2
    return placed - 3.0 * state.cheats


STALL = 10      # cheats without a draw after which the fair player starts the building over


def finish_plan(vals, owner, hand, cpu_seconds: float, widest: int = 3, piles=((),)) -> list:
    """The cheats and placements of a line that finishes the ziggurat, lifting as few dominoes as it can: every set of
    up to `widest` lifts (each domino with whatever rests on it), fewest dominoes lifted first, each followed by an
    exact zero-cheat search for every pile order in `piles` (the one empty pile once everything is drawn; every order
    of the few unseen dominoes before that), first a short search for every set, then a longer one. A set counts only
    when every order finishes; with more than one order only its cheats are returned (the placements depend on the
    draws). [] when none is found within `cpu_seconds` of CPU time (a loaded machine finds the same plan)."""
    deadline = time.process_time() + cpu_seconds
    placed = sorted({x for x in owner if x >= 0})
    options: dict = {}
    for k in range(1, widest + 1):
        for combo in itertools.combinations(placed, k):
            nv, no, lifted = vals, owner, []
            for d in combo:
                if d not in no:
                    break                   # already lifted with one before it: a smaller set covers this
                nv, no, more = lift(nv, no, d)
                lifted += more
            else:
                options.setdefault(frozenset(lifted), (len(lifted), combo, nv, tuple(hand) + tuple(lifted)))
    rest = piles[0]
    ranked = sorted(o for o in options.values() if feasible(o[2], _counts_of(o[3] + tuple(rest))))
    for node_limit in (100, 3000):
        for _, combo, nv, in_hand in ranked:
            line = None
            for pile in piles:
                if time.process_time() > deadline:
                    return []
                search = _ZeroSearch(time.perf_counter() + cpu_seconds, node_limit=node_limit)
                try:
                    line = search.run(nv, in_hand, pile)
                except _Timeout:
                    line = None
                if line is None:
                    break
            if line is not None:
                return [(CHEAT, d) for d in combo] + (list(line) if len(piles) == 1 else [])
    return []


class Player(Agent):
    """The fair AI: sees the hand, the ziggurat and the set of unseen dominoes, never the pile order. It gives up only
    on a deal proven blocked (no number of cheats can finish it); cheat after cheat without a draw, it picks the whole
    ziggurat up and builds again from everything drawn so far."""
    name = "player"

    def __init__(self, seed: int = 0, level: int = 2, budget: float | None = None):
        self.rng = random.Random(seed)
        self.samples = {0: 0, 1: 4, 2: 8, 3: 16}.get(level, 8)
        self.budget = budget if budget is not None else {0: 0.0, 1: 0.05, 2: 0.15, 3: 0.6}.get(level, 0.15)
        self.finish_budget = 30.0 * max(self.budget, 0.3)    # CPU seconds: a rare, one-off search that ends a deal
        self.finish_tries = 0
        self.plan: list = []
        self.seen: set = set()
        self.last_unseen = -1       # the unseen set at the latest draw seen
        self.progress_cheats = 0    # cheats counted at the latest progress (a draw, or a fresh start)

    def _piles(self, unseen, k):
        out = []
        for _ in range(max(k, 1)):
            p = list(unseen)
            self.rng.shuffle(p)
            out.append(tuple(p))
        return out

    def choose(self, view: View):
        # a Ziggurat view draws Ziggurat states
        return self.choose_in(cast(ZState, view.resample(self.rng)), view.legal_moves)

    def choose_in(self, state: ZState, legal) -> tuple:
        """The move at `state` (only its public parts are read: the ziggurat, the hand, the unseen set)."""
        vals, owner, hand = state.vals, state.owner, state.hand
        unseen = tuple(d for d in range(28) if state.unseen >> d & 1)
        start = time.perf_counter()
        if not any(v >= 0 for v in vals) and not state.cheats:
            self.seen = set()  # a new game
            self.finish_tries = 0
            self.progress_cheats = 0
        if state.unseen != self.last_unseen:      # a draw: progress
            self.last_unseen = state.unseen
            self.progress_cheats = max(self.progress_cheats, state.cheats)
        self.seen.add(position_key(vals, hand))
        moves = [m for m in placements(vals, hand) if _room_ok(m)]
        moves = [m for m in moves if feasible(_state_after(vals, owner, m)[0],
                                              _counts_of(tuple(x for x in hand if x != DINDEX[(m[4], m[5])])
                                                         + unseen))]
        if self.plan and self.plan[0] in set(legal):
            return self.plan.pop(0)
        self.plan = []
        if not unseen and any(x >= 0 for x in owner):
            # the pile is empty: nothing is hidden any more, so the analyser's search is fair play now
            ms, zero = clairvoyant_move(vals, owner, hand, (), max(self.budget, 0.3), self.seen)
            if zero is None and ms[0][0] == CHEAT and self.finish_tries < 3:
                self.finish_tries += 1
                # stuck with everything known: the fewest lifts after which the rest provably goes on, rather than
                # single lifts in circles
                plan = finish_plan(vals, owner, hand, self.finish_budget)
                if plan and plan[0] in set(legal):
                    self.plan = plan[1:]
                    return plan[0]
            if ms[0] in set(legal):
                self.plan = list(zero[1:]) if zero else list(ms[1:])
                return ms[0]
        if not moves:
            drawn = list(hand) + [x for x in set(owner) if x >= 0]
            if not placements(vals, hand) and blocked(drawn, len(unseen)):
                return (GIVE_UP,)   # proven: no number of cheats can finish this deal
            if not any(x >= 0 for x in owner):
                # nothing stands, so nothing can be lifted: place whatever fits (feasibility is only a forecast)
                return greedy_move(vals, owner, hand, unseen, self.rng) or (GIVE_UP,)
            if unseen and len(unseen) <= 4 and state.cheats - self.progress_cheats >= STALL \
                    and self.finish_tries < 3:
                # cheat after cheat and no draw near the end: the fewest lifts that finish whatever the order of the
                # few unseen dominoes (every order is tried: no peeking)
                self.finish_tries += 1
                plan = finish_plan(vals, owner, hand, self.finish_budget,
                                   piles=tuple(itertools.permutations(unseen)))
                if plan:
                    self.progress_cheats = state.cheats + len(plan)
                    self.plan = plan[1:]
                    return plan[0]
            if unseen and state.cheats - self.progress_cheats >= STALL:
                # cheat after cheat and no draw: start the building over with every domino drawn so far in hand
                bottom = sorted({x for x in owner[:36] if x >= 0})
                self.progress_cheats = state.cheats + len({x for x in owner if x >= 0})
                self.plan = [(CHEAT, d) for d in bottom]
                return self.plan.pop(0)
            piles = self._piles(unseen, min(self.samples, 3))
            self.plan = choose_cheat(vals, owner, hand, piles, start + self.budget, node_limit=100,
                                     avoid=self.seen)
            return self.plan.pop(0)
        if self.samples and len(moves) > 1:
            votes: dict = {}
            deadline = start + self.budget
            per = max(self.budget / self.samples, 0.003)
            w: float    # a line's vote: 3 for a proven line, less for a partial one by its depth
            for pile in self._piles(unseen, self.samples):
                if time.perf_counter() > deadline:
                    break
                s = _ZeroSearch(min(deadline, time.perf_counter() + per), node_limit=2000)
                try:
                    line = s.run(vals, hand, pile)
                    w = 3
                except _Timeout:
                    line = None
                if not line:
                    line, w = s.deepest_line, 1 + len(s.deepest_line) / 28
                if line:
                    votes[line[0]] = votes.get(line[0], 0) + w
            if votes:
                top = max(votes.values())
                return min(m for m, v in votes.items() if v == top)
        return greedy_move(vals, owner, hand, unseen, self.rng) or moves[0]


class Solver(Agent):
    """The omniscient analyser playing its line: it reads the pile order of a numbered deal when the state it is handed
    holds one. A seat's View never holds it (nor does a shuffled pile, whose order does not exist yet): then it plays
    as the fair Player."""
    name = "solver"
    sees = SEES_ALL      # an oracle for measurement: the driver shows it the whole state (engine.agent.seat_view)

    def __init__(self, seed: int = 0, level: int = 2, budget: float | None = None):
        self.budget = budget if budget is not None else {0: 0.05, 1: 0.2, 2: 0.5, 3: 2.0}.get(level, 0.5)
        self.fallback = Player(seed, level)
        self.rng = random.Random(seed)
        self.plan: list = []
        self.expect: tuple | None = None    # (vals, hand) the plan's next move is meant for
        self.seen: set = set()

    def choose(self, view: View):
        # a Ziggurat view draws Ziggurat states
        return self.choose_in(view.game, cast(ZState, view.resample(self.rng)), view.legal_moves)

    def choose_in(self, game, state: ZState, legal=None):
        if legal is None:
            legal = game.legal_moves(state)
        if not state.pile and state.unseen:
            return self.fallback.choose_in(state, legal)
        legal = set(legal)
        here = (state.vals, state.hand)
        if self.plan and self.expect == here and self.plan[0] in legal:
            move = self.plan.pop(0)
        else:
            if not any(v >= 0 for v in state.vals) and not state.cheats:
                self.seen = set()
            self.seen.add(position_key(state.vals, state.hand))
            ms, zero = clairvoyant_move(state.vals, state.owner, state.hand, state.pile, self.budget, self.seen)
            self.plan = list(zero[1:]) if zero else list(ms[1:])
            move = ms[0]
        if move not in legal:  # never expected; stay legal whatever happens
            move = sorted(legal)[0]
            self.plan = []
        nxt, _ = game.apply_unchecked(state, move)
        while game.current_player(nxt) == CHANCE:
            nxt, _ = game.apply_unchecked(nxt, game.chance_outcomes(nxt)[0][0])
        self.expect = (nxt.vals, nxt.hand)
        return move


def play_fair(game, deal: int, limit: int = 0, level: int = 2, max_cheats: int = 200):
    """(cheats, line) of the fair Player at a table of `game` (the Ziggurat) on numbered deal `deal`, played through
    the driver (it is handed its seat's View and never looks at the pile); cheats None if unfinished. `limit` is the
    game's cheat limit (0: none); `max_cheats` stops a player that cheats without end (reported as unfinished)."""
    match = Match(game, {"deal": deal, "cheat_limit": limit}, seed=0)
    driver = Driver.with_agents(match, {0: Player(seed=0, level=level)}, match.rng)
    while driver.pending().kind != END and cast(ZState, match.state).cheats < max_cheats:
        driver.run(1)
    line = [p.move for p in match.plies if p.mover == 0]
    end = cast(ZState, match.state)
    return (end.cheats if game.complete(end) else None), line


def analyse(game, order, budget: float = 2.0, move_budget: float = 0.05, limit: int = 30,
            second_opinion: bool = True) -> Analysis:
    """Decide whether deal `order` (the pile, top first, or the number of a numbered deal) admits a zero-cheat
    ziggurat, spending about `budget` seconds on that question; then (if no zero-cheat line was found) play the deal
    out with the clairvoyant policy, and, for a numbered deal, with the fair player at a table of `game` (the
    Ziggurat) as a second opinion, to report the fewest cheats found. A pile given as dominoes is no deal a table can
    be set with, so it gets no second opinion."""
    start = time.perf_counter()
    deal = order if isinstance(order, int) else None
    order = deal_order(deal) if deal is not None else tuple(order)
    if blocked_at(order) is not None:
        return Analysis("blocked", None, [], 0, time.perf_counter() - start)
    search = _ZeroSearch(start + budget)
    status = "undecided"
    try:
        line = search.run((-1,) * 108, order[:3], order[3:])
        if line is not None:
            return Analysis("zero", 0, line, search.nodes, time.perf_counter() - start)
        status = "impossible"
    except _Timeout:
        pass
    cheats, line = play_clairvoyant(order, move_budget, limit)
    if second_opinion and deal is not None and cheats != 1:
        # the fair player's sampling sometimes finds a cheaper line than the clairvoyant's short searches
        c2, l2 = play_fair(game, deal, limit)
        if c2 is not None and (cheats is None or c2 < cheats):
            cheats, line = c2, l2
            if c2 == 0:
                status = "zero"
    return Analysis(status, cheats, line, search.nodes, time.perf_counter() - start)


def _level(level) -> int:
    """Agent level from the house's level names (fast, normal, strong) or a number 0-3."""
    if level is None:
        return 2
    if isinstance(level, int):
        return max(0, min(3, level))
    text = str(level).strip().lower()
    named = {"fast": 1, "easy": 1, "normal": 2, "strong": 3, "hard": 3}
    if text in named:
        return named[text]
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not 0 <= number <= 3:
        raise BadOption(f"The Ziggurat agents' level is fast, easy, normal, strong, hard or a number from 0 to 3, "
                        f"not {str(level)[:40]!r}.")
    return int(number)


AGENTS = (
    AgentSpec("solver", "peeking solver", lambda game, seed=0, level=None: Solver(seed or 0, _level(level)),
              ("easy", "normal", "strong"), "normal", sees=SEES_ALL),
    AgentSpec("player", "fair player", lambda game, seed=0, level=None: Player(seed or 0, _level(level)),
              ("easy", "normal", "strong"), "normal"),
)
