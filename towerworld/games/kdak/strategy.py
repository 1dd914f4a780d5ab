"""A cheap evaluation for greedy play, and K'Dak's own agents."""
from __future__ import annotations

from towerworld.games.kdak.rules import LEVELS, OUT, OVER, pawn_place


def _known_facedown_value(state) -> float:
    """Average rank of the face-down tiles whose identity is remembered (0 when none)."""
    vals = [state.ident[s] % 6 for col in state.cols for s in col if not state.up >> s & 1 and state.ident[s] >= 0]
    return sum(vals) / len(vals) if vals else 0.0


def heuristic(game, state, player: int) -> float:
    o = state.opts
    if state.stage == OVER:
        return game.returns(state)[player] * 1000.0
    scores = game.scores(state)
    if o.pooled or o.n == 1:
        value = float(scores[player])
    else:
        value = float(scores[player] - scores[1 - player])
    value += 1.5 * state.tal[player] - (0.0 if o.n == 1 or o.pooled else 1.5 * state.tal[1 - player])
    here = pawn_place(state, player)
    if not state.door:
        # climbing: height is progress towards the switch, face-up tiles are knowledge for later
        if here is not None:
            value += 0.6 * here[1]
        value += 0.1 * bin(state.up).count("1")
        if o.l5t and not any(len(col) == LEVELS for col in state.cols):
            value -= 50.0
    else:
        # escaping: unscored tiles near the pawn are worth something; being out ends your scoring
        if here is not None:
            c, lv = here
            near = 0.0
            for col in state.cols:
                for l2, s in enumerate(col):
                    if not state.up >> s & 1 and abs(l2 - lv) <= 1:
                        v = state.ident[s]
                        near += (v % 6) if v >= 0 else 2.5
            value += 0.15 * near
        elif state.pawns[player] == OUT and o.l5t and state.tower_tal < 0:
            value -= 50.0
    return value


AGENTS: dict = {}
