"""Plain-Python agents (random play and one-ply greedy play) and the agent registry: the generic agents' AgentSpecs
and, for a game, its own (`Game.agents()`), looked up by name."""
from __future__ import annotations

import random

from towerworld.ai.ismcts import ISMCTSAgent
from towerworld.ai.mcts import MCTSAgent
from towerworld.engine.agent import Agent, View, decision_moves
from towerworld.engine.game import CHANCE, SEES_SEAT, AgentSpec, BadOption, Game, Move, State


class RandomAgent(Agent):
    """A uniformly random legal move, from a seeded generator."""
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view):
        _, moves = decision_moves(view)
        return moves[self.rng.randrange(len(moves))]


class GreedyAgent(Agent):
    """One-ply lookahead on `game.heuristic`, averaging over chance outcomes (expectimax one level deep).

    The work is capped: at most `max_evals` heuristic calls per decision, spread over the moves; a chance node with
    more outcomes than a move's share is sampled instead of enumerated. Ties are broken by the seeded generator. In a
    hidden-information game the agent looks at one resample of what its seat knows (never the hidden truth).
    """
    name = "greedy"
    max_evals = 2000
    chance_chain = 64          # longest run of consecutive chance moves followed by sampling

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def world(self, view: View) -> State:
        """The full state this agent reasons about: a resample of what its seat knows."""
        return view.resample(self.rng)

    def choose(self, view):
        player, moves = decision_moves(view)
        if len(moves) == 1:
            return moves[0]
        game, state = view.game, self.world(view)
        share = max(1, self.max_evals // len(moves))
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            after, _ = game.apply_unchecked(state, move)
            value = self._value(game, after, player, share)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value >= best_value - 1e-9:
                best.append(move)
        return best[self.rng.randrange(len(best))]

    def _value(self, game: Game, state: State, player: int, budget: int) -> float:
        if game.current_player(state) != CHANCE:
            return game.heuristic(state, player)
        outcomes = game.chance_outcomes(state)
        if len(outcomes) <= budget:
            total = 0.0
            for outcome, p in outcomes:
                after, _ = game.apply_unchecked(state, outcome)
                total += p * game.heuristic(self._settle(game, after), player)
            return total
        total = 0.0
        for _ in range(budget):
            total += game.heuristic(self._settle(game, state), player)
        return total / budget

    def _settle(self, game: Game, state: State) -> State:
        """Sample chance moves until a decision or the end (a few chance moves may follow each other)."""
        for _ in range(self.chance_chain):
            if game.current_player(state) != CHANCE:
                break
            state, _ = game.apply_unchecked(state, game.sample_chance(state, self.rng))
        return state


SEARCH_LEVELS = ("easy", "normal", "strong")
GENERIC: tuple[AgentSpec, ...] = (
    AgentSpec("random", "random", lambda game, seed=None, level=None: RandomAgent(seed)),
    AgentSpec("greedy", "greedy", lambda game, seed=None, level=None: GreedyAgent(seed)),
    AgentSpec("mcts", "search", lambda game, seed=None, level=None: MCTSAgent(seed, level), SEARCH_LEVELS, "normal",
              budgeted=True),
    # searches only what its seat may know
    AgentSpec("ismcts", "fair search", lambda game, seed=None, level=None: ISMCTSAgent(seed, level), SEARCH_LEVELS,
              "normal", budgeted=True),
)


def agent_specs(game: Game | None = None) -> dict[str, AgentSpec]:
    """Every agent `make_agent` knows for `game`, by name: the generic ones, then the game's own (a game's own agent
    takes the place of a generic one of the same name)."""
    specs = {spec.name: spec for spec in GENERIC}
    for spec in (game.agents() if game is not None else ()):
        specs[spec.name] = spec
    return specs


def agent_spec(name: str, game: Game | None = None) -> AgentSpec:
    """The AgentSpec called `name` (a level after a colon is ignored); BadOption naming the agents otherwise."""
    specs = agent_specs(game)
    spec = specs.get(name.split(":", 1)[0])
    if spec is None:
        raise BadOption(f"There is no agent called '{name[:40]}' (agents: {', '.join(specs)}).")
    return spec


def agent_names(game: Game | None = None) -> list[str]:
    """The agent names `make_agent` accepts for `game`: the generic ones, then the game's own."""
    return list(agent_specs(game))


def agent_words(seat: str, game: Game | None = None) -> str:
    """An agent with its level ("mcts:strong") in a player's words: "search (strong)"; a name that is no agent of
    `game` shows as it is."""
    name, _, level = seat.partition(":")
    spec = agent_specs(game).get(name)
    if spec is None:
        return seat
    return spec.seat_words(level or None)


def table_seats(game: Game) -> list[str]:
    """The agents a person may seat at the table, each at each of its levels ("mcts:easy", "mcts", "mcts:strong"):
    never an oracle."""
    out: list[str] = []
    for spec in agent_specs(game).values():
        if spec.sees != SEES_SEAT:
            continue
        out += [spec.name if level == spec.level else f"{spec.name}:{level}" for level in spec.levels] or [spec.name]
    return out


def default_opponent(game: Game) -> str:
    """The agent a person plays against unless they choose: the game's `default_opponent` (greedy if the game names
    an agent it does not have)."""
    return game.default_opponent if game.default_opponent in agent_specs(game) else "greedy"


def make_agent(name: str, game: Game | None = None, seed: int | None = None, level: str | None = None) -> Agent:
    """An agent by name: one of `agent_names(game)` (a game's own agent wins a clash).

    "name:level" picks a level for that agent alone (e.g. "mcts:strong"), overriding `level`.
    """
    if ":" in name:
        name, level = name.split(":", 1)
    return agent_spec(name, game).factory(game, seed, level)
