"""Shared speed measures for the games' bench rows (scripts/bench.py prints them; no test times anything)."""
from __future__ import annotations

import random
import statistics
import time

from towerworld.engine.game import CHANCE, TERMINAL, Game


def checked_plies_per_second(game: Game, seconds: float, options: dict | None = None, seed: int = 5) -> float:
    """Random play through the checked contract (legal_moves or sampled chance, then apply with its events)."""
    rng = random.Random(seed)
    plies = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        state = game.new_state(options)
        while (cp := game.current_player(state)) != TERMINAL:
            if cp == CHANCE:
                move = game.sample_chance(state, rng)
            else:
                moves = game.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state, _ = game.apply(state, move)
            plies += 1
    return plies / (time.perf_counter() - begin)


def search_states(game: Game, games: int = 6, every: int = 4, options: dict | None = None, players: int | None = None,
                  seed: int = 3, policy=None) -> list:
    """Decision states a search meets: every `every`-th decision of a few seeded games (the start included), played
    uniformly at random or by `policy(state, moves, rng) -> move` where random play says little about real play."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_state(options, players)
        decisions = 0
        while (cp := game.current_player(state)) != TERMINAL and decisions < 400:
            if cp == CHANCE:
                move = game.sample_chance(state, rng)
            else:
                if decisions % every == 0:
                    out.append(state)
                decisions += 1
                moves = game.legal_moves(state)
                move = moves[rng.randrange(len(moves))] if policy is None else policy(state, moves, rng)
            state, _ = game.apply_unchecked(state, move)
    return out


def search_sims_per_second(game: Game, states: list, seconds: float, tree_plies: int = 3, seed: int = 9) -> float:
    """The engine's share of one MCTS simulation, per CPU second: from a decision state, `tree_plies` plies down the
    tree (legal moves or chance outcomes, then apply_unchecked, as a tree walk does) and one `game.rollout` from there.
    The search's own bookkeeping (and any adapter) comes on top, so this is the most a search on the contract gets."""
    rng = random.Random(seed)
    sims = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        for state in states:
            for _ in range(tree_plies):
                cp = game.current_player(state)
                if cp == TERMINAL:
                    break
                moves = [m for m, _ in game.chance_outcomes(state)] if cp == CHANCE else game.legal_moves(state)
                state, _ = game.apply_unchecked(state, moves[rng.randrange(len(moves))])
            game.rollout(state, rng)
            sims += 1
    return sims / (time.process_time() - begin)


def random_games_per_second(game: Game, seconds: float, variant: str | None = None,
                            players: int | None = None) -> tuple[float, float]:
    """(games a second, median ms a game) of unchecked random playouts from the start, at least five of them."""
    options, n = game.resolve_options(None, variant, players)
    start_state = game.new_state(options, n)
    rng = random.Random(11)
    times: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        t = time.perf_counter()
        game.random_playout(start_state, rng)
        times.append(time.perf_counter() - t)
    return len(times) / sum(times), statistics.median(times) * 1000


def with_goal_text(rows) -> list[tuple[str, float, str, str]]:
    """(name, value, goal, unit) rows as scripts/bench.py reads them: the goal as text (">= 5000"; "<= 0.5" when the
    unit says "at most"; "" without a goal)."""
    return [(name, value, "" if goal is None else f"<= {goal}" if "at most" in unit else f">= {goal}", unit)
            for name, value, goal, unit in rows]
