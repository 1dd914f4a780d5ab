"""Agents (random, greedy, MCTS) and the OpenSpiel adapter. Never imports panda3d.

Importing this package is cheap and works without open_spiel; pyspiel is only imported when the adapter is used.
"""
from towerworld.ai.agents import agent_names, agent_spec, agent_specs, make_agent
from towerworld.ai.mcts import LEVELS, MCTSAgent
from towerworld.ai.simple import GreedyAgent, RandomAgent

__all__ = ["GreedyAgent", "RandomAgent", "MCTSAgent", "LEVELS", "agent_names", "agent_spec", "agent_specs",
           "make_agent"]
