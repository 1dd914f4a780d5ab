"""A cheap evaluation for greedy play, and Throwdown's own agent (nothing here depends on towerworld.ai)."""
from __future__ import annotations

import random

from towerworld.games.throwdown.cards import BLACK, BLUE, CARDS, GREEN, RED, YELLOW, colour_of
from towerworld.games.throwdown.rules import DEFEND, DRAW, HAND, OVER, _step, _W, standing_pips

# What a tower colour on top is worth to its owner: red, blue and yellow make attacks, black makes defences, green
# stands in for any of them at a price.
COLOUR_WORTH = {RED: 0.6, BLUE: 0.6, YELLOW: 0.5, BLACK: 0.7, GREEN: 0.3}
CARD_WORTH = 0.35
DEFENDED = 0.5          # the chance a pending attack is stopped, as the attacker's evaluation assumes it


def _seat_value(state, seat: int) -> float:
    """The final count the seat would have now (points plus pips), plus what its towers and hand let it do."""
    towers = state.towers[seat]
    if not any(towers):
        return float(state.points[seat])
    value = float(state.points[seat] + standing_pips(state, seat))
    tops = {colour_of(t[-1]) for t in towers if t}
    value += sum(COLOUR_WORTH[c] for c in tops)
    cards = bin(state.hands[seat]).count("1")
    if state.stage == DRAW and state.receiver == seat:
        cards = HAND                      # the draw is under way: count the cards coming
    value += CARD_WORTH * cards + 0.05 * sum(CARDS[c].pips for c in _cards(state.hands[seat]))
    return value


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _board(game, state, player: int) -> float:
    if state.stage == OVER:
        return game.returns(state)[player] * 1000.0
    mine = _seat_value(state, player)
    others = [_seat_value(state, s) for s in range(state.n) if s != player]
    return mine - max(others) - 0.2 * sum(others) / len(others)


def heuristic(game, state, player: int) -> float:
    """Higher is better for `player`. A pending attack counts as half undefended, half stopped."""
    if state.stage == DEFEND:
        w = _W(state, None)
        _step(w, ("nodefence",))
        hit = _board(game, w.freeze(), player)
        return DEFENDED * _board(game, state, player) + (1 - DEFENDED) * hit
    return _board(game, state, player)


class GreedyAgent:
    """One-ply greedy play on a few states drawn from the seat's view (its own hand is known, the rest resampled)."""

    def __init__(self, game, seed=None, samples: int = 3):
        self.game = game
        self.name = "throwdown-greedy"
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, view):
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        states = [view.resample(self.rng) for _ in range(self.samples)]
        best, best_value = [], None
        for move in moves:
            value = 0.0
            for state in states:
                after, _ = self.game.apply_unchecked(state, move)
                value += heuristic(self.game, after, view.seat)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return best[self.rng.randrange(len(best))]


def greedy_agent(game, seed=None, level=None):
    samples = {"fast": 1, "normal": 3, "strong": 8}.get(level or "normal", 3)
    return GreedyAgent(game, seed, samples)


AGENTS = {"throwdown-greedy": greedy_agent}
