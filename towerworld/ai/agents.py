"""The agent factory: the agents' names, their names in a player's words, and `make_agent`."""
from __future__ import annotations

from towerworld.ai.ismcts import ISMCTSAgent
from towerworld.ai.mcts import MCTSAgent
from towerworld.ai.simple import Agent, GreedyAgent, RandomAgent
from towerworld.engine.agent import GENERIC_AGENTS
from towerworld.engine.game import BadOption, Game

BUILTIN = GENERIC_AGENTS


def agent_names(game: Game | None = None) -> list[str]:
    """The agent names `make_agent` accepts for `game`: the built-in ones, then the game's own."""
    names = list(BUILTIN)
    if game is not None:
        names += [n for n in sorted(game.agents()) if n not in names]
    return names


# what an agent is called where a player reads it (seat buttons, players' names): a player's words, not the agent's
# id (an id not listed shows as it is)
AGENT_WORDS = {
    "random": "random",
    "greedy": "greedy",
    "mcts": "search",
    "ismcts": "fair search",            # searches only what its seat may know
    "memory": "forgetful",
    "elev-greedy": "threat greedy",
    "throwdown-greedy": "pip greedy",
    "player": "fair player",
    "solver": "peeking solver",         # reads the pile's order
}
SEARCHES = ("mcts", "ismcts")       # agents with levels: easy, normal (the default) or strong


def agent_words(seat: str) -> str:
    """An agent with its level ("mcts:strong") in a player's words: "search (strong)"."""
    name, _, level = seat.partition(":")
    if name in SEARCHES and not level:
        level = "normal"
    return AGENT_WORDS.get(name, name) + (f" ({level})" if level else "")


def default_opponent(game: Game) -> str:
    """The agent a person plays against unless they choose: the game's `default_opponent` (greedy if the game names
    an agent it does not have)."""
    return game.default_opponent if game.default_opponent in agent_names(game) else "greedy"


def make_agent(name: str, game: Game | None = None, seed: int | None = None, level: str | None = None) -> Agent:
    """An agent by name: "random", "greedy", "mcts", "ismcts", or one of `game.agents()` (a game's own agent wins a
    clash).

    "name:level" picks a level for that agent alone (e.g. "mcts:strong"), overriding `level`.
    """
    if ":" in name:
        name, level = name.split(":", 1)
    own = game.agents() if game is not None else {}
    if name in own:
        return own[name](game, seed, level)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "mcts":
        return MCTSAgent(seed, level)
    if name == "ismcts":
        return ISMCTSAgent(seed, level)
    raise BadOption(f"There is no agent called '{name}' (agents: {', '.join(agent_names(game))}).")
