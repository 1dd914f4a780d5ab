"""The agent registry: the generic agents' AgentSpecs and, for a game, its own (`Game.agents()`), looked up by name;
their names in a player's words; and `make_agent`."""
from __future__ import annotations

from towerworld.ai.ismcts import ISMCTSAgent
from towerworld.ai.mcts import MCTSAgent
from towerworld.ai.simple import GreedyAgent, RandomAgent
from towerworld.engine.agent import Agent
from towerworld.engine.game import SEES_SEAT, AgentSpec, BadOption, Game


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
