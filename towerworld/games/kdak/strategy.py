"""A cheap evaluation for greedy play, and K'Dak's own agents."""
from __future__ import annotations

import random

from towerworld.engine.agent import Agent
from towerworld.engine.game import CHANCE, AgentSpec, BadOption
from towerworld.games.kdak.board import LEVELS, MOVE, OUT, OVER, REMOVE, SPEND, crumbling, pawn_place
from towerworld.games.kdak.rules import GO, OUT_MOVE, REMOVALS_OF, SPEND_MOVES

DOOR_OPEN = 5.0      # the switch is progress: only behind the open door is there gold to score


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
    if o.l5t and state.tower_tal >= 0:
        value += 25.0          # the talisman is taken: the door is open and the points can start
    if not state.door:
        # climbing: height is progress towards the switch, face-up tiles are knowledge for later
        if here is not None:
            value += 0.6 * here[1]
        value += 0.1 * bin(state.up).count("1")
        full = [len(col) == LEVELS for col in state.cols]
        if o.l5t and not any(full):
            value -= 50.0
        elif o.l5t or o.crumble:
            # the tower crumbles while climbing: keep level 5 standing, above all over your own pawn
            value += 2.0 * sum(full)
            if here is not None and full[here[0]]:
                value += 2.0
    else:
        # escaping: unscored tiles near the pawn are worth something; being out ends your scoring
        value += DOOR_OPEN
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


MEMORY_LEVELS = {"easy": 0.35, "medium": 0.7, "hard": 1.0}


def _memory_keep(level) -> float:
    if level is None:
        return MEMORY_LEVELS["medium"]
    if str(level).lower() in MEMORY_LEVELS:
        return MEMORY_LEVELS[str(level).lower()]
    try:
        keep = float(level)
    except ValueError:
        keep = -1.0
    if not 0.0 <= keep <= 1.0:
        raise BadOption(f"The memory agent's level is easy, medium, hard or a number from 0 to 1, not {level!r}.")
    return keep


class MemoryAgent(Agent):
    """Greedy play (one ply, expected over the chance that follows) with a limited memory: the difficulty knob of
    rulings.md. Each face-down tile whose identity it has seen is remembered with probability `keep` (easy 0.35,
    medium 0.7, hard 1.0, or a number 0..1), decided once, when the agent first sees that tile face down with that
    identity; a forgotten tile looks unseen to it, so it weighs it as an unknown draw. Face-up tiles are in plain
    sight and never forgotten."""
    name = "memory"

    def __init__(self, seed=None, keep: float = MEMORY_LEVELS["medium"]):
        self.rng = random.Random(seed)
        self.keep = keep
        self.memory: dict = {}

    def remembered(self, state):
        """The state as this agent remembers it."""
        ids = list(state.ident)
        changed = False
        for col in state.cols:
            for s in col:
                if ids[s] >= 0 and not state.up >> s & 1:
                    key = (s, ids[s])
                    if key not in self.memory:
                        self.memory[key] = self.rng.random() < self.keep
                    if not self.memory[key]:
                        ids[s] = -1
                        changed = True
        return state._replace(ident=tuple(ids)) if changed else state

    def choose(self, view):
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        game = view.game
        state = self.remembered(view.resample(self.rng))
        best, best_value = [], float("-inf")
        for move in moves:
            value = _expected(game, game.apply_unchecked(state, move)[0], view.seat)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value >= best_value - 1e-9:
                best.append(move)
        return best[self.rng.randrange(len(best))]


def _expected(game, state, player: int) -> float:
    """The heuristic after `state`, averaged over the chance move (a reveal or a roll) that may come next."""
    if game.current_player(state) != CHANCE:
        return heuristic(game, state, player)
    total = 0.0
    for outcome, p in game.chance_outcomes(state):
        total += p * heuristic(game, game.apply_unchecked(state, outcome)[0], player)
    return total


def memory_agent(game, seed=None, level=None) -> MemoryAgent:
    return MemoryAgent(seed, _memory_keep(level))


AGENTS = (AgentSpec("memory", "forgetful", memory_agent, tuple(MEMORY_LEVELS), "medium"),)

# Plies (chance included) of the climb after which a searching agent stops marking time. Nothing is scored while the
# door is shut, and the first pawn on level 5 turns every face-up tile face down, so two searching players would both
# wait below for the other to climb, for ever: the seed sets no limit (rulings.md). A game against a greedy player
# finishes its climb well inside this.
CLIMB_PATIENCE = 60


def patient_moves(state, moves: list) -> list:
    """The moves a search weighs (`Game.search_moves`): all of them, until the climb has lasted CLIMB_PATIENCE plies;
    then up whenever up is legal, and never down. From any level one step onto a second tile makes up legal, so every
    game reaches the switch. Pawns, door, stage and plies are public: the same in every sampled state."""
    if crumbling(state) or state.plies < CLIMB_PATIENCE or state.stage != MOVE:
        return moves
    here = pawn_place(state, state.turn)
    if here is None:
        return moves
    level = here[1]
    ups = [m for m in moves if m[0] == "go" and m[2] == level + 1]
    return ups or [m for m in moves if not (m[0] == "go" and m[2] < level)] or moves


def policy_move(state, moves, rand):
    """A cheap rollout policy for the solitaire rules (uniform play almost never reaches level 5, so it says nothing):
    climb straight up, spare level 5 and your own column, then hunt face-down tiles on the way down; 15% uniform."""
    return policy_choice(state.stage, state.pawns[state.turn], state.cols, [len(col) for col in state.cols],
                         state.door, state.up, state.ident, moves, rand)


def policy_choice(stage: int, slot: int, cols, heights, door: bool, up: int, ident, moves: list, rand):
    """`policy_move` on the parts of the state it reads (the stage, the mover's pawn, the columns and their heights,
    the door, the face-up tiles, the identities seen), as the search playout (rules.playout) holds them."""
    k = len(moves)
    if k == 1 or rand() < 0.15:
        return moves[int(rand() * k)]
    if stage == MOVE:
        if slot >= 0:
            c = slot & 3
            lv = cols[c].index(slot)
            if not door:
                if lv + 1 < LEVELS and GO[c][lv + 1] in moves:     # straight up: the one move a level higher
                    return GO[c][lv + 1]
                for m in moves:
                    if m[0] == "go" and m[2] == lv and heights[m[1]] == LEVELS:
                        return m
            else:
                best, best_v = None, -1.0
                for m in moves:
                    if m[0] == "stay":
                        return m
                    if m[0] == "go":
                        s = cols[m[1]][m[2]]
                        if not up >> s & 1:
                            v = ident[s] % 6 if ident[s] >= 0 else 2.5
                            if v > best_v:
                                best, best_v = m, v
                if best is not None:
                    return best
                if OUT_MOVE in moves and rand() < 0.5:
                    return OUT_MOVE
    elif stage == REMOVE:
        columns = 0              # the columns offered (bit c: column c), then those spared taken out
        for m in moves:
            columns |= 1 << m[1]
        if slot >= 0:            # a tile keeps its column: the pawn's column is its slot's
            columns &= ~(1 << (slot & 3))
        full = ((heights[0] == LEVELS) | (heights[1] == LEVELS) << 1 | (heights[2] == LEVELS) << 2
                | (heights[3] == LEVELS) << 3)
        good = REMOVALS_OF[columns & ~full] or REMOVALS_OF[columns] or moves
        return good[int(rand() * len(good))]
    elif stage == SPEND:
        return SPEND_MOVES[1]
    return moves[int(rand() * k)]
