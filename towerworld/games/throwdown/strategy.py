"""A cheap evaluation for greedy play, and Throwdown's own agent (nothing here depends on towerworld.ai)."""
from __future__ import annotations

import random

from towerworld.engine.agent import Agent
from towerworld.engine.game import AgentSpec, BadOption
from towerworld.games.throwdown.cards import BLACK, BLUE, CARDS, GREEN, RED, YELLOW, colour_of
from towerworld.games.throwdown.board import CHANGE, DEAL, DEFEND, DRAW, HAND, OVER, START, TURN, bits, tower_pips
from towerworld.games.throwdown.rules import (_W, _step, attack_moves, change_options, defence_moves, remodel_moves,
                                              standing_pips)

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


# ---- playouts for search ---------------------------------------------------------------------------------------------
ROLLOUT_PLIES = 24      # a search's playout stops after this many plies (about three turns a player) unless told
EXPLORE = 0.15          # the share of playout decisions made uniformly among the policy's candidates
GREEN_COST = 1.2        # what an attack through a green stand-in gives up: a pip of one's own and the wildcard
EXCUSE_COST = 0.6       # what spending the Excuse on making an attack unblockable gives up


def _attack_value(w, move: tuple) -> float:
    """What an attack is worth to the attacker if it lands: pips struck off, plus the points for a tower destroyed."""
    _, card, excuse, target, tower, green = move
    pips = CARDS[card].pips
    standing = tower_pips(w.towers[target][tower])
    value = float(min(pips, standing))
    if pips >= standing:
        value += w.losses[target] + 1.5
    if green >= 0:
        value -= GREEN_COST
    if excuse:
        value -= EXCUSE_COST
    return value


def policy_move(w, rand) -> tuple:
    """A cheap playout decision for the player to move: the attack that strikes hardest, else draw, else remodel; a
    defence when the hand has one (the fewest cards); attrition on the tallest tower. A share `EXPLORE` of the
    decisions is uniform among the candidates, so that playouts do not all follow one line."""
    st = w.stage
    explore = rand() < EXPLORE
    if st == TURN:
        p = w.turn
        attacks = attack_moves(w, p)
        can_draw = bin(w.hands[p]).count("1") < HAND
        if attacks and not explore:
            return max(attacks, key=lambda m: _attack_value(w, m) + 0.1 * rand())
        if attacks or can_draw:
            k = int(rand() * (len(attacks) + can_draw))
            return attacks[k] if k < len(attacks) else ("draw",)
        remodels = remodel_moves(w, p)
        return remodels[int(rand() * len(remodels))] if remodels else ("pass",)
    if st == DEFEND:
        moves = defence_moves(w)
        if explore or len(moves) == 1:
            return moves[int(rand() * len(moves))]
        return min((m for m in moves if m[0] == "defend"), key=lambda m: (len(m[1]), m[2] >= 0))
    if st == CHANGE:
        options = change_options(w.scrap, w.change[3])
        return ("change", options[int(rand() * len(options))])
    # attrition
    towers = w.towers[w.queue[0]]
    standing = [t for t, tower in enumerate(towers) if tower]
    if explore:
        return ("attrition", standing[int(rand() * len(standing))])
    return ("attrition", max(standing, key=lambda t: tower_pips(towers[t])))


def rollout(state, rng: random.Random, max_plies: int | None = None):
    """A search's playout: chance at random, decisions by `policy_move`, cut after `max_plies` plies (ROLLOUT_PLIES
    when None): the search judges an unfinished game by the heuristic. One working copy serves the whole playout."""
    limit = ROLLOUT_PLIES if max_plies is None else max_plies
    rand = rng.random
    w = _W(state, None)
    plies = 0
    while w.stage != OVER and plies < limit:
        st = w.stage
        if st == DEAL or st == DRAW:
            cards = bits(w.pile)
            move: tuple = ("card", cards[int(rand() * len(cards))])
        elif st == START:
            move = ("start", int(rand() * w.n))
        else:
            move = policy_move(w, rand)
        _step(w, move)
        plies += 1
    return w.freeze()


class GreedyAgent(Agent):
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


GREEDY_LEVELS = {"fast": 1, "normal": 3, "strong": 8}      # states sampled from the seat's view per decision


def greedy_agent(game, seed=None, level=None):
    if level is not None and level not in GREEDY_LEVELS:
        raise BadOption(f"The pip greedy agent's level is fast, normal or strong, not {str(level)[:40]!r}.")
    return GreedyAgent(game, seed, GREEDY_LEVELS[level or "normal"])


AGENTS = (AgentSpec("throwdown-greedy", "pip greedy", greedy_agent, tuple(GREEDY_LEVELS), "normal"),)
