"""The ladder: a round robin between agents, Elo ratings with 95% intervals, a win/draw/loss matrix, JSON and a chart.

Every pair of agents plays `games` games. Games come in twins: the same seeds (for chance and for each agent) are
played twice, once with each agent in the first seat, so neither seat nor luck favours one side. Every game is a task
whose seeds follow from the ladder's seed and the task's place in the schedule alone, so the results are the same
whether the tasks run in this process, in a pool of worker processes, or on a Ray cluster, and in whatever order they
finish. (Agents with a clock budget, e.g. "mcts:normal", play a little differently on a busy machine; use iteration
levels such as "ismcts:400it" for ladders that must repeat exactly.) On a Ray cluster every node needs towerworld (and
the game's package) installed; `--ray local` starts a cluster in this process and stops it after the ladder.

A journal (`Journal`, one JSON line per finished game) keeps every game as it ends. A ladder that is stopped, or run
again later with more games a pair, resumes from it and plays only the games it lacks: a game's seeds depend on the
ladder's seed, the pair and the game's number within the pair, never on how many games the ladder asks for.

Ratings are the maximum-likelihood Bradley-Terry (Elo) fit of all games, a draw counting half a win, with one virtual
draw added to every pair that played, so that a pair with a perfect score still has a finite gap; the ratings average 0.
The 95% intervals come from the Fisher information of the fit (plus or minus 1.96 standard errors).
"""
from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import os
import random
import signal
import sys
from collections import Counter
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Callable, Iterable, cast

import numpy as np

from towerworld.ai.agents import agent_spec, make_agent
from towerworld.engine.agent import Agent, BudgetedAgent, View
from towerworld.engine.driver import AgentFailed, play_match
from towerworld.engine.game import BadOption, Game, TowerworldError
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game

ELO_PER_NATURAL = 400.0 / math.log(10.0)      # Elo points per unit of the natural-log Bradley-Terry strength
Z95 = 1.959963984540054


class LadderError(TowerworldError):
    """A ladder that cannot be run as asked (one sentence)."""


@dataclass(frozen=True)
class GameTask:
    """One game of the schedule: who sits where and every seed it uses. Plain data, so it travels to any worker."""
    index: int
    game: str                      # a registry name, or "module:ATTRIBUTE" for a game outside the registry (tests)
    options: tuple                 # sorted (name, value) pairs
    variant: str | None
    seats: tuple[int, int]         # agent indices, seat 0 first
    agents: tuple[str, str]        # agent names in seat order (with ":level" where given)
    level: str | None
    chance_seed: int
    agent_seeds: tuple[int, int]   # in seat order
    number_in_pair: int = 0        # the game's place among its pair's games (twins are 2k and 2k + 1)

    @property
    def key(self) -> tuple:
        """What fixes this game's seeds within its ladder: the pair (indices and names) and its number in the pair."""
        a, b = sorted(self.seats)
        names = dict(zip(self.seats, self.agents))
        return (a, b, names[a], names[b], self.number_in_pair)


@dataclass(frozen=True)
class GameResult:
    index: int
    seats: tuple[int, int]
    returns: tuple[float, ...]
    plies: int
    ending: str = ""                                     # the game's one-sentence result ("Red wins by capture.")
    seconds: tuple[float, ...] = ()                      # thinking time of each seat (the only figure not from seeds)
    decisions: tuple[int, ...] = ()                      # moves each seat chose


@dataclass
class Rating:
    agent: str
    elo: float
    low: float
    high: float


@dataclass
class LadderResult:
    game: str
    agents: list[str]
    games_per_pair: int
    seed: int
    wins: list[list[int]]          # wins[i][j]: games agent i won against agent j
    draws: list[list[int]]
    ratings: list[Rating]
    games: list[GameResult] = field(repr=False)
    resumed: int = 0               # games kept from a journal rather than played in this run
    scheduled: int = 0             # games the schedule holds (more than `games` when the ladder was cut short)

    def shortfall(self) -> str:
        """"" for a whole ladder; otherwise how much of it was played, in words."""
        if not self.scheduled or len(self.games) >= self.scheduled:
            return ""
        return f"only {len(self.games)} of its {self.scheduled} games played"

    def losses(self, i: int, j: int) -> int:
        return self.wins[j][i]

    def played(self, i: int, j: int) -> int:
        return self.wins[i][j] + self.draws[i][j] + self.wins[j][i]

    def seconds_per_move(self) -> list[float | None]:
        """Each agent's mean thinking time per move over the whole ladder (None if it never moved)."""
        spent = [0.0] * len(self.agents)
        moves = [0] * len(self.agents)
        for g in self.games:
            for seat, agent in enumerate(g.seats):
                if seat < len(g.seconds):
                    spent[agent] += g.seconds[seat]
                    moves[agent] += g.decisions[seat]
        return [s / m if m else None for s, m in zip(spent, moves)]

    def to_json(self, timings: bool = False) -> dict:
        """Everything that follows from the seeds (no worker count, and timings only when asked): equal for equal
        seeds."""
        matrix = {a: {b: {"wins": self.wins[i][j], "draws": self.draws[i][j], "losses": self.wins[j][i]}
                      for j, b in enumerate(self.agents) if j != i and self.played(i, j)}
                  for i, a in enumerate(self.agents)}
        return {"format": "towerworld-ladder", "format_version": 1, "game": self.game, "agents": self.agents,
                "games_per_pair": self.games_per_pair, "seed": self.seed,
                "ratings": [asdict(r) for r in self.ratings], "matrix": matrix,
                "games": [{"index": g.index, "seats": [self.agents[s] for s in g.seats], "returns": list(g.returns),
                           "plies": g.plies, "ending": g.ending} for g in self.games],
                **({"games_scheduled": self.scheduled} if self.shortfall() else {}),
                **({"seconds_per_move": dict(zip(self.agents, self.seconds_per_move()))} if timings else {})}


# ---- the schedule ---------------------------------------------------------------------------------------------------
def _derived_seed(*parts) -> int:
    """A seed from the ladder seed and a task's place; string seeding is stable across processes and machines."""
    return random.Random("/".join(map(str, parts))).randrange(2**31)


def schedule(game: str, agents: list[str], games: int, seed: int, options: dict | None = None,
             variant: str | None = None, level: str | None = None,
             pairs: list[tuple[int, int]] | None = None) -> list[GameTask]:
    """Every game of the round robin (or of the `pairs` of agent indices given): for each pair, twins of games with
    the same seeds and the seats swapped."""
    tasks: list[GameTask] = []
    opts = tuple(sorted((options or {}).items()))
    every = [(a, b) for a in range(len(agents)) for b in range(a + 1, len(agents))]
    for a, b in every:
        if pairs is not None and (a, b) not in pairs and (b, a) not in pairs:
            continue
        for k in range(games):
            twin, swapped = divmod(k, 2)
            seats = (b, a) if swapped else (a, b)
            seeds = {i: _derived_seed(seed, a, b, twin, "agent", i) for i in (a, b)}
            tasks.append(GameTask(len(tasks), game, opts, variant, seats, (agents[seats[0]], agents[seats[1]]),
                                  level, _derived_seed(seed, a, b, twin, "chance"),
                                  (seeds[seats[0]], seeds[seats[1]]), k))
    return tasks


def resolve_game(ref: str) -> Game:
    """A game from a registry name or "module:ATTRIBUTE"; BadOption naming the fault otherwise."""
    if ":" not in ref:
        return get_game(ref)
    module, _, attribute = ref.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        raise BadOption(f"There is no game at '{ref[:60]}'.") from None
    if not isinstance(game, Game):
        raise BadOption(f"'{ref[:60]}' is not a game.")
    return game


def play_task(task: GameTask) -> GameResult:
    """Play one game of the schedule to its end (the worker's whole job)."""
    game = resolve_game(task.game)
    agents = {seat: _Timed(ladder_agent(name, game, seed, task.level))
              for seat, (name, seed) in enumerate(zip(task.agents, task.agent_seeds))}
    try:
        match = _play(game, task, agents)
    except AgentFailed as e:          # one sentence for the person, naming the game of the schedule
        raise LadderError(f"In game {task.index + 1} ({' vs '.join(task.agents)}): {e}.") from None
    return GameResult(task.index, task.seats, tuple(game.returns(match.state)), len(match.plies),
                      game.result(match.state), tuple(agents[s].seconds for s in range(2)),
                      tuple(agents[s].decisions for s in range(2)))


def ladder_agent(name: str, game: Game, seed: int | None, level: str | None = None) -> Agent:
    """The agent `name` ("mcts:strong" picks a level) as a ladder plays it: an agent whose spec is budgeted loses its
    safety clock where its level is a budget (`budget_alone`)."""
    agent = make_agent(name, game, seed=seed, level=level)
    return budget_alone(cast(BudgetedAgent, agent)) if agent_spec(name, game).budgeted else agent


def budget_alone(agent: BudgetedAgent) -> BudgetedAgent:
    """The agent without its safety clock where its level is a budget of simulations or iterations: a ladder
    measures strength, and the same seeds must give the same games on an idle machine, a loaded one or a Ray cluster.
    A level in seconds keeps its clock (only the clock ends it)."""
    if agent.budgeted:
        agent.seconds = None
    return agent


class _Timed(Agent):
    """An agent with a stopwatch: the ladder reports seconds per move beside the ratings. It sees what its agent
    sees."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name
        self.sees = agent.sees
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, view: View):
        start = time.perf_counter()
        try:
            return self.agent.choose(view)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1


def _play(game: Game, task: GameTask, agents: dict, max_plies: int | None = None) -> Match:
    """The task's game played to the end (or `max_plies`) through the match driver, chance drawn from the task's
    chance seed."""
    seats = [PlayerSpec(f"{name} ({i + 1})", "ai", name) for i, name in enumerate(task.agents)]
    match = Match(game, options=dict(task.options), players=seats, seed=task.chance_seed, variant=task.variant)
    return play_match(match, agents, chance=random.Random(task.chance_seed), max_plies=max_plies)


# ---- running ---------------------------------------------------------------------------------------------------------
Progress = Callable[[int, int], None]
Finished = Callable[[GameTask, GameResult], None]


def run_tasks(tasks: list[GameTask], workers: int = 1, progress: Progress | None = None,
              ray_address: str | None = None, finished: Finished | None = None) -> list[GameResult]:
    """Play every task: here (1 worker), in a pool of spawned processes, or on Ray; results in schedule order.
    `finished` hears of each game as it ends (the journal), `progress` of the count."""
    by_index = {task.index: task for task in tasks}
    done: list[GameResult] = []

    def record(result: GameResult) -> None:
        done.append(result)
        if finished:
            finished(by_index[result.index], result)
        if progress:
            progress(len(done), len(tasks))

    if ray_address is not None:
        _run_on_ray(tasks, ray_address, workers, record)
    elif workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            record(play_task(task))
    else:
        # spawn: the same start on every platform, and no forked copy of a parent that may hold a window or threads
        with multiprocessing.get_context("spawn").Pool(min(workers, len(tasks)), _leave_interrupts_to_the_parent) as pool:
            for result in pool.imap_unordered(play_task, tasks, chunksize=1):
                record(result)
    return sorted(done, key=lambda r: r.index)


def _leave_interrupts_to_the_parent() -> None:
    """A worker ignores Ctrl-C: the parent stops the pool and says where the finished games are, in one sentence
    rather than a traceback from every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_on_ray(tasks: list[GameTask], address: str, workers: int, record: Callable[[GameResult], None]) -> None:
    try:
        import ray
    except ImportError:
        raise LadderError("--ray needs Ray: pip install 'towerworld[ray]'.") from None
    started_here = not ray.is_initialized()
    if started_here:
        # workers must import what this process imports (a test's game module, a checkout that is not installed)
        env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in _import_path() if p)}}
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False, runtime_env=env)
        else:
            try:
                ray.init(address=address, log_to_driver=False, runtime_env=env)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise LadderError(f"Could not reach the Ray cluster at '{address[:60]}' ({str(e)[:80]}).") from None
    try:
        remote = ray.remote(play_task)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for result in ray.get(ready):
                record(result)
    finally:
        if started_here:
            ray.shutdown()


def _import_path() -> list[str]:
    return [os.path.abspath(p) for p in sys.path if p and os.path.isdir(p)]


# ---- the journal ------------------------------------------------------------------------------------------------------
JOURNAL_FORMAT = "towerworld-ladder-journal"


class Journal:
    """A file of finished games, one JSON line each, written as each game ends, so that a ladder stopped half way
    loses only the games still being played. Opened with `resume`, it keeps the games already in the file; its first
    line names the ladder they belong to (game, options, variant, level, seed), and each game is known by its
    `GameTask.key`."""

    def __init__(self, path: str, identity: dict, resume: bool):
        self.path = path
        self.identity = json.loads(json.dumps(identity))       # as it reads back from the file (tuples as lists)
        self.kept: dict[tuple, dict] = {}
        if resume and os.path.exists(path):
            ends_cleanly = self._read()
            self._file = open(path, "a", encoding="utf-8")
            if not ends_cleanly:          # a line cut short by a killed ladder: the next entry starts on its own line
                self._file.write("\n")
        else:
            self._file = open(path, "w", encoding="utf-8")
            self._write({"format": JOURNAL_FORMAT, "format_version": 1, **self.identity})

    def _read(self) -> bool:
        try:
            with open(self.path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise LadderError(f"The ladder's journal {self.path[:200]} cannot be read ({str(e)[:80]}).") from None
        lines = text.split("\n")
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != JOURNAL_FORMAT:
            raise LadderError(f"{self.path[:200]} is not a ladder's journal; remove it or name another --json.")
        for name, ours in self.identity.items():
            if header.get(name) != ours:
                raise LadderError(f"{self.path[:200]} holds the games of another ladder (its {name} is "
                                  f"{str(header.get(name))[:40]}, not {str(ours)[:40]}); remove it, leave out "
                                  f"--resume or name another --json.")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                self.kept[tuple(entry["key"])] = entry
            except (ValueError, KeyError, TypeError):
                continue          # a blank line, or the last line of a ladder killed while writing it
        return text.endswith("\n")

    def result(self, task: GameTask) -> GameResult | None:
        """The game `task` asks for, if the journal holds it (and it reads back whole)."""
        entry = self.kept.get(task.key)
        if entry is None or entry.get("seats") != list(task.agents):
            return None
        try:
            return GameResult(task.index, task.seats, tuple(float(v) for v in entry["returns"]), int(entry["plies"]),
                              str(entry["ending"]), tuple(float(v) for v in entry["seconds"]),
                              tuple(int(v) for v in entry["decisions"]))
        except (KeyError, TypeError, ValueError):
            return None

    def add(self, task: GameTask, result: GameResult) -> None:
        self._write({"key": list(task.key), "seats": list(task.agents), "returns": list(result.returns),
                     "plies": result.plies, "ending": result.ending, "seconds": list(result.seconds),
                     "decisions": list(result.decisions)})

    def _write(self, entry: dict) -> None:
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def journal_path(results_path: str) -> str:
    """Where the games of the ladder whose results go to `results_path` are journalled: beside it."""
    stem = results_path[:-5] if results_path.lower().endswith(".json") else results_path
    return stem + ".games.jsonl"


def run_ladder(game: str, agents: list[str], games: int = 20, seed: int = 1, options: dict | None = None,
               variant: str | None = None, level: str | None = None, workers: int | None = None,
               progress: Progress | None = None, ray_address: str | None = None,
               pairs: list[tuple[str, str]] | None = None, journal: str | None = None,
               resume: bool = False, play: bool = True) -> LadderResult:
    """Check the request, play the round robin (or only the `pairs` of agents named) and rate the agents. Each game
    is written to the `journal` file as it ends; with `resume`, the games already there are kept, not played again.
    Without `play`, only the journal's games are rated (a ladder still under way, or stopped for good)."""
    if not play:
        if journal is None or not resume:
            raise LadderError("Rating only the games played needs the journal of a ladder already begun (--resume).")
        if not os.path.exists(journal):
            raise LadderError(f"There is no journal at {journal[:200]}: it lies beside the results file (--json) "
                              f"of the ladder it records.")
    if len(agents) < 2:
        raise LadderError("A ladder needs at least two agents, e.g. --agents random,greedy,ismcts.")
    if len(set(agents)) != len(agents):
        raise LadderError("Each agent may appear only once in a ladder.")
    if games < 2:
        raise LadderError("A ladder needs at least 2 games per pair (one with each agent in the first seat).")
    found = resolve_game(game)
    found.resolve_options(options, variant, 2)      # two seats: BadOption in one sentence otherwise
    for name in agents:
        make_agent(name, found, seed=0, level=level)        # an unknown agent or level: one sentence, before any work
    chosen = None
    if pairs is not None:
        unknown = sorted({name for pair in pairs for name in pair} - set(agents))
        if unknown:
            raise LadderError(f"A pair names {unknown[0]}, which is not one of the ladder's agents.")
        chosen = [(agents.index(a), agents.index(b)) for a, b in pairs if a != b]
        if not chosen or not _connected(chosen):
            raise LadderError("The pairs must link every agent they name to every other, or the ratings cannot be "
                              "compared.")
    per_pair = games + games % 2
    tasks = schedule(game, agents, per_pair, seed, options, variant, level, chosen)
    book = None if journal is None else Journal(
        journal, {"game": found.name or game, "options": sorted((options or {}).items()), "variant": variant,
                  "level": level, "seed": seed}, resume)
    try:
        kept = [] if book is None else [r for r in map(book.result, tasks) if r is not None]
        if book is not None and not kept and not play:
            raise LadderError(f"{book.path[:200]} holds no game of this ladder yet.")
        played = {r.index for r in kept}
        todo = [t for t in tasks if t.index not in played] if play else []
        counted = progress if progress is None or not kept else (
            lambda done, total: progress(done + len(kept), len(tasks)))
        results = run_tasks(todo, workers or os.cpu_count() or 1, counted, ray_address,
                            finished=None if book is None else book.add)
    finally:
        if book is not None:
            book.close()
    result = _rate_players(found.name or game, agents, per_pair, seed, sorted(kept + results, key=lambda r: r.index))
    result.resumed = len(kept)
    result.scheduled = len(tasks)
    return result


def _rate_players(game: str, agents: list[str], games: int, seed: int, results: list[GameResult]) -> LadderResult:
    """The ratings of the agents that played. An agent named in no pair still fixes the others' places in the list,
    and so their seeds: a ladder of a few pairs of a field plays the very games the whole field's ladder would."""
    playing = sorted({i for r in results for i in r.seats})
    if len(playing) == len(agents):
        return rate(game, agents, games, seed, results)
    place = {agent: i for i, agent in enumerate(playing)}
    return rate(game, [agents[i] for i in playing], games, seed,
                [replace(r, seats=(place[r.seats[0]], place[r.seats[1]])) for r in results])


def _connected(pairs: list[tuple[int, int]]) -> bool:
    named = {i for pair in pairs for i in pair}
    reached = {pairs[0][0]}
    grew = True
    while grew:
        grew = False
        for a, b in pairs:
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    return reached == named


# ---- rating ----------------------------------------------------------------------------------------------------------
def tally(agents: list[str], results: Iterable[GameResult]) -> tuple[list[list[int]], list[list[int]]]:
    """(wins, draws) matrices: wins[i][j] counts games agent i won against agent j; a tie on returns is a draw."""
    n = len(agents)
    wins = [[0] * n for _ in range(n)]
    draws = [[0] * n for _ in range(n)]
    for r in results:
        first, second = r.seats
        if r.returns[0] > r.returns[1]:
            wins[first][second] += 1
        elif r.returns[1] > r.returns[0]:
            wins[second][first] += 1
        else:
            draws[first][second] += 1
            draws[second][first] += 1
    return wins, draws


def fit_elo(wins: list[list[int]], draws: list[list[int]],
            virtual_draws: float = 1.0) -> tuple[list[float], list[float]]:
    """(Elo ratings averaging 0, standard errors in Elo) by maximum likelihood, with `virtual_draws` per pair."""
    n = len(wins)
    w = np.asarray(wins, dtype=float)
    d = np.asarray(draws, dtype=float)
    games = w + w.T + d
    prior = np.where(games > 0, virtual_draws, 0.0)
    np.fill_diagonal(prior, 0.0)
    score = w + 0.5 * d + 0.5 * prior            # score[i][j]: points agent i took from agent j
    count = games + prior
    theta = np.zeros(n)
    hessian = np.zeros((n, n))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))     # p[i][j]: chance that i beats j
        gradient = (score - count * p).sum(axis=1)
        weight = count * p * p.T
        hessian = np.diag(weight.sum(axis=1)) - weight                  # minus the Hessian of the log-likelihood
        step = np.linalg.pinv(hessian) @ gradient
        theta = theta + step
        theta -= theta.mean()
        if np.abs(step).max() < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    weight = count * p * p.T
    covariance = np.linalg.pinv(np.diag(weight.sum(axis=1)) - weight)
    errors = np.sqrt(np.clip(np.diag(covariance), 0.0, None)) * ELO_PER_NATURAL
    return [float(t * ELO_PER_NATURAL) + 0.0 for t in theta], [float(e) for e in errors]


def rate(game: str, agents: list[str], games: int, seed: int, results: list[GameResult]) -> LadderResult:
    wins, draws = tally(agents, results)
    elo, errors = fit_elo(wins, draws)
    ratings = [Rating(a, round(e, 1), round(e - Z95 * s, 1), round(e + Z95 * s, 1))
               for a, e, s in zip(agents, elo, errors)]
    return LadderResult(game, list(agents), games, seed, wins, draws, ratings, list(results))


# ---- output ----------------------------------------------------------------------------------------------------------
def report(result: LadderResult) -> str:
    """The ratings (best first) and the win/draw/loss matrix, as text."""
    short = result.shortfall()
    lines = [f"{result.game}: {len(result.agents)} agents, {result.games_per_pair} games per pair, seed {result.seed}"
             + (f" ({short})" if short else ""),
             f"{'agent':16s} {'Elo':>7s}  {'95% interval':14s}  s/move"]
    pace = dict(zip(result.agents, result.seconds_per_move()))
    for r in sorted(result.ratings, key=lambda r: -r.elo):
        seconds = pace[r.agent]
        lines.append(f"{r.agent:16s} {r.elo:7.0f}  {f'[{r.low:.0f}, {r.high:.0f}]':14s}  "
                     + ("-" if seconds is None else f"{seconds:.3f}"))
    width = max(9, *(len(a) for a in result.agents))
    lines.append("")
    lines.append("wins-draws-losses of the row agent against the column agent")
    lines.append(" " * 16 + " ".join(f"{a:>{width}s}" for a in result.agents))
    for i, a in enumerate(result.agents):
        cells = ["-" if i == j or not result.played(i, j) else f"{result.wins[i][j]}-{result.draws[i][j]}-{result.wins[j][i]}" for j in range(len(result.agents))]
        lines.append(f"{a:16s} " + " ".join(f"{c:>{width}s}" for c in cells))
    endings = Counter(g.ending for g in result.games if g.ending)
    if endings:
        lines.append("")
        lines.append("how the games ended")
        lines += [f"{count:6d}  {text}" for text, count in endings.most_common(8)]
        if len(endings) > 8:
            lines.append(f"{sum(endings.values()) - sum(c for _, c in endings.most_common(8)):6d}  other endings")
    return "\n".join(lines)


def write_json(result: LadderResult, path: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result.to_json(timings=True), f, indent=1)
    os.replace(tmp, path)


def write_chart(result: LadderResult, path: str) -> None:
    """A PNG: ratings with their intervals, and each pair's score share as a heat map. Needs matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise LadderError("The ladder chart needs matplotlib: pip install 'towerworld[ladder]'.") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    order = sorted(range(len(result.agents)), key=lambda i: result.ratings[i].elo)
    names = [result.agents[i] for i in order]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.6 * len(names) + 2.5))
    elo = [result.ratings[i].elo for i in order]
    spans = [[result.ratings[i].elo - result.ratings[i].low for i in order],
             [result.ratings[i].high - result.ratings[i].elo for i in order]]
    left.errorbar(elo, range(len(names)), xerr=spans, fmt="o", capsize=4)
    left.set_yticks(range(len(names)), names)
    left.axvline(0.0, color="0.8", zorder=0)
    left.set_xlabel("Elo (field average 0), 95% interval")
    left.set_title(f"{result.game}: {result.games_per_pair} games per pair"
                   + (f"\n({result.shortfall()})" if result.shortfall() else ""))
    share = [[math.nan] * len(names) for _ in names]
    for r, i in enumerate(order):
        for c, j in enumerate(order):
            played = result.wins[i][j] + result.wins[j][i] + result.draws[i][j]
            if i != j and played:
                share[r][c] = (result.wins[i][j] + 0.5 * result.draws[i][j]) / played
    image = right.imshow(share, cmap="RdYlGn", vmin=0.0, vmax=1.0, origin="lower")   # best on top, as on the left
    right.set_xticks(range(len(names)), names, rotation=30, ha="right")
    right.set_yticks(range(len(names)), names)
    for r in range(len(names)):
        for c in range(len(names)):
            if not math.isnan(share[r][c]):
                right.text(c, r, f"{share[r][c]:.0%}", ha="center", va="center", fontsize=9)
    right.set_title("score of the row agent against the column agent")
    fig.colorbar(image, ax=right, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
