"""The pull driver's contract: `pending()` says what is next, `answer(seat, move)` takes the reply, runners answer the
agents, and nothing else decides who moves.

Every game is driven through whole games here by asking `pending()` and answering what it asks for, with a person at
one seat (answered by the test) and an agent at the other; the kinds it says must match who the rules say is to move.
"""
from __future__ import annotations

import ast
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from towerworld.ai import make_agent
from towerworld.engine.agent import Agent
from towerworld.engine.driver import (AGENT, CHANCE_DRAW, END, FAILED, PERSON, AgentFailed, Driver, InlineRunner,
                                      Pending, ThreadRunner, play_match)
from towerworld.engine.game import CHANCE, TERMINAL, IllegalMove
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game

GAMES = ("kdak", "ziggurat", "throwdown", "carcassonne", "elevation")
WITH_CHANCE = {"kdak", "ziggurat", "throwdown", "carcassonne"}      # the games whose rules deal, draw or roll


class Recording(Agent):
    """An agent that plays a random legal move from the View it is handed and notes the seats it was asked for."""
    name = "recording"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.asked: list[int] = []

    def choose(self, view):
        self.asked.append(view.seat)
        return self.rng.choice(list(view.legal_moves))


class Slow:
    """A runner that thinks for `polls` polls before it answers (as a worker process does), counting its starts."""

    def __init__(self, agents: dict, polls: int = 3):
        self.inline = InlineRunner(agents)
        self.polls = polls
        self.starts: list[tuple[int, int]] = []
        self.cancels = 0
        self.closed = False
        self._left = 0

    def start(self, driver, seat):
        self.starts.append((seat, len(driver.match.plies)))
        self.inline.start(driver, seat)
        self._left = self.polls

    def poll(self):
        if self._left > 0:
            self._left -= 1
            return None
        return self.inline.poll()

    def cancel(self):
        self.cancels += 1
        self.inline.cancel()
        self._left = 0

    def close(self):
        self.closed = True


def two_seats(name: str, seed: int) -> Match:
    """A match with a person at seat 0 and an agent at seat 1 (only the person in a game for one)."""
    game = get_game(name)
    players = [PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "random")][:max(1, min(2, game.max_players))]
    return Match(game, players=players, seed=seed)


@pytest.mark.parametrize("name", GAMES)
def test_pending_names_who_moves_through_a_whole_game(name):
    match = two_seats(name, seed=7)
    agent = Recording(seed=3)
    driver = Driver(match, frozenset({1}), random.Random(11), InlineRunner({1: agent}))
    person = random.Random(5)
    seen = {CHANCE_DRAW: 0, AGENT: 0, PERSON: 0}
    for _ in range(match.game.max_plies + 1):
        p = driver.pending()
        cp = match.current_player
        assert p.ply == len(match.plies)
        if p.kind == END:
            assert cp == TERMINAL and p.seat == TERMINAL
            break
        seen[p.kind] += 1
        if p.kind == CHANCE_DRAW:
            assert cp == CHANCE and p.seat == CHANCE
            driver.answer(CHANCE, driver.draw(), save=False)
        elif p.kind == AGENT:
            assert cp == p.seat == 1
            driver.run(limit=1)
            assert match.plies[-1].mover == 1
        else:
            assert p.kind == PERSON and cp == p.seat == 0
            assert driver.run() == []          # the synchronous loop never answers a person
            driver.answer(0, person.choice(match.game.legal_moves(match.state)), save=False)
    assert match.over, f"{name} did not end within its longest game"
    assert seen[PERSON] > 0 and (seen[AGENT] > 0) == (len(match.players) > 1)
    assert (seen[CHANCE_DRAW] > 0) == (name in WITH_CHANCE)
    assert set(agent.asked) <= {1} and len(agent.asked) == seen[AGENT]
    assert seen[AGENT] + seen[PERSON] + seen[CHANCE_DRAW] == len(match.plies)


@pytest.mark.parametrize("name", GAMES)
def test_run_plays_agents_and_chance_to_the_end_and_a_seed_repeats_it(name):
    game = get_game(name)
    lines = []
    for _ in range(2):
        match = Match(game, seed=2)
        play_match(match, {i: make_agent("random", game, seed=i) for i in range(len(match.players))},
                   random.Random(4))
        assert match.over and Driver(match).pending() == Pending(END, TERMINAL, len(match.plies))
        lines.append([p.text for p in match.plies])
    assert lines[0] == lines[1]


def test_answer_refuses_a_seat_that_is_not_to_move():
    match = two_seats("elevation", seed=1)
    driver = Driver(match, frozenset({1}), random.Random(1), InlineRunner({1: Recording()}))
    assert driver.pending() == Pending(PERSON, 0, 0)
    move = match.game.legal_moves(match.state)[0]
    with pytest.raises(IllegalMove, match=r"^It is not that seat's turn: Player 1 is to move\.$"):
        driver.answer(1, move)
    with pytest.raises(IllegalMove, match="Player 1 is to move"):
        driver.answer(CHANCE, move)
    assert match.plies == []


def test_chance_is_answered_only_as_chance():
    match = two_seats("throwdown", seed=1)
    driver = Driver(match, frozenset({1}), random.Random(1), InlineRunner({1: Recording()}))
    while driver.pending().kind != CHANCE_DRAW:
        if driver.pending().kind == PERSON:
            driver.answer(0, match.game.legal_moves(match.state)[0], save=False)
        else:
            driver.run(limit=1)
    outcome = driver.draw()
    with pytest.raises(IllegalMove, match=r"^It is not that seat's turn: chance is to move\.$"):
        driver.answer(0, outcome)
    before = len(match.plies)
    driver.answer(CHANCE, outcome, save=False)
    assert len(match.plies) == before + 1 and match.plies[-1].mover == CHANCE


def test_a_persons_illegal_move_is_refused_and_they_may_try_again():
    match = two_seats("elevation", seed=1)
    driver = Driver(match, frozenset({1}), random.Random(1), InlineRunner({1: Recording()}))
    game = match.game
    legal = game.legal_moves(match.state)
    other = Match(game, seed=1)
    other.apply(legal[0], save=False)
    foreign = game.legal_moves(other.state)
    bad = next(m for m in foreign if m not in legal)
    with pytest.raises(IllegalMove):
        driver.answer(0, bad)
    assert driver.pending() == Pending(PERSON, 0, 0) and not driver.failed
    driver.answer(0, legal[0], save=False)
    assert driver.pending().kind == AGENT


def test_answer_refuses_a_finished_game():
    game = get_game("elevation")
    match = Match(game, seed=3)
    play_match(match, {0: make_agent("random", game, seed=1), 1: make_agent("random", game, seed=2)})
    driver = Driver(match)
    assert driver.pending().kind == END
    with pytest.raises(IllegalMove, match=r"^The game is over\.$"):
        driver.answer(0, match.plies[0].move)
    assert driver.run() == []


class Illegal(Agent):
    """An agent that answers a move of the starting position, whatever it is asked."""
    name = "illegal"

    def __init__(self, move):
        self.move = move

    def choose(self, view):
        return self.move


def test_an_agents_illegal_move_stops_its_seat_for_good():
    match = two_seats("elevation", seed=1)
    first = match.game.legal_moves(match.state)[0]
    driver = Driver(match, frozenset({1}), random.Random(1), InlineRunner({1: Illegal(first)}))
    driver.answer(0, first, save=False)
    with pytest.raises(AgentFailed, match=r"^Player 2's AI failed: it chose an illegal move \(.+\)$"):
        driver.run()
    assert driver.pending() == Pending(FAILED, 1, 1)
    assert len(match.plies) == 1
    assert driver.run() == []                       # nothing more is asked of a stopped seat
    legal = match.game.legal_moves(match.state)[0]
    with pytest.raises(IllegalMove, match=r"^Player 2's AI has stopped\.$"):
        driver.answer(1, legal)
    assert len(match.plies) == 1


class Raising(Agent):
    name = "raising"

    def choose(self, view):
        raise ValueError("no move found")


def test_an_agent_that_raises_is_reported_in_one_sentence():
    match = two_seats("elevation", seed=1)
    driver = Driver(match, frozenset({1}), random.Random(1), InlineRunner({1: Raising()}))
    driver.answer(0, match.game.legal_moves(match.state)[0], save=False)
    with pytest.raises(AgentFailed, match=r"^Player 2's AI failed: no move found$"):
        driver.run()
    assert driver.pending().kind == FAILED and driver.failed == {1: "no move found"}


def test_runner_answers_arrive_through_take_runner_answer():
    """A runner that thinks over several polls: the driver asks it once per decision, the window polls, the answer
    is applied through take_runner_answer; an error reply stops the seat with the runner's sentence."""
    match = two_seats("kdak", seed=2)
    agent = Recording(seed=1)
    runner = Slow({1: agent}, polls=2)
    driver = Driver(match, frozenset({1}), random.Random(3), runner)
    person = random.Random(1)
    answered = 0
    while driver.pending().kind != END and answered < 6:
        p = driver.pending()
        if p.kind == CHANCE_DRAW:
            driver.answer(CHANCE, driver.draw(), save=False)
        elif p.kind == PERSON:
            driver.answer(0, person.choice(match.game.legal_moves(match.state)), save=False)
        else:
            runner.start(driver, p.seat)
            reply, polls = None, 0
            while reply is None:
                reply = runner.poll()
                polls += 1
            assert polls == 3
            driver.take_runner_answer(p.seat, reply, save=False)
            assert match.plies[-1].mover == 1
            answered += 1
    assert answered == 6 and len(agent.asked) == 6
    assert [seat for seat, _ in runner.starts] == [1] * 6
    assert [ply for _, ply in runner.starts] == sorted({ply for _, ply in runner.starts})   # once per decision
    while driver.pending().kind != AGENT:
        p = driver.pending()
        driver.answer(CHANCE, driver.draw(), save=False) if p.kind == CHANCE_DRAW else \
            driver.answer(0, person.choice(match.game.legal_moves(match.state)), save=False)
    before = len(match.plies)
    with pytest.raises(AgentFailed, match=r"^Player 2's AI failed: the AI's process stopped$"):
        driver.take_runner_answer(1, ("error", "the AI's process stopped"))
    assert len(match.plies) == before and driver.pending().kind == FAILED


def test_run_stops_after_limit_plies():
    game = get_game("throwdown")
    match = Match(game, seed=4)
    driver = Driver.with_agents(match, {i: make_agent("random", game, seed=i) for i in range(2)}, random.Random(2))
    events = driver.run(limit=5)
    assert len(match.plies) == 5 and isinstance(events, list)
    driver.run(limit=0)
    assert len(match.plies) == 5
    driver.run(limit=3)
    assert len(match.plies) == 8


def test_the_runner_never_asks_a_person_and_run_stops_at_one():
    """A person's seat is never handed to the runner, even when the runner has an agent for it."""
    match = two_seats("carcassonne", seed=5)
    spare = Recording(seed=9)
    agent = Recording(seed=8)
    driver = Driver(match, frozenset({1}), random.Random(6), InlineRunner({0: spare, 1: agent}))
    person = random.Random(2)
    while not match.over:
        driver.run()
        p = driver.pending()
        if p.kind == END:
            break
        assert p.kind == PERSON and p.seat == 0
        driver.answer(0, person.choice(match.game.legal_moves(match.state)), save=False)
    assert spare.asked == [] and agent.asked and set(agent.asked) == {1}


def test_play_match_needs_an_agent_at_every_seat():
    game = get_game("elevation")
    with pytest.raises(ValueError, match=r"seats \[1\] have none"):
        play_match(Match(game), {0: make_agent("random", game, seed=1)})



# ---- the step that never waits (the window's) ------------------------------------------------------------------------
def test_advance_never_waits_and_asks_the_runner_once_per_decision():
    match = two_seats("kdak", seed=4)
    runner = Slow({1: Recording(seed=2)}, polls=4)
    driver = Driver(match, frozenset({1}), random.Random(5), runner)
    person = random.Random(3)
    agent_plies = 0
    for _ in range(400):
        p = driver.pending()
        if p.kind == END or agent_plies == 5:
            break
        if p.kind == PERSON:
            assert driver.advance() is None and driver.thinking is None     # a person is never asked by it
            driver.answer(0, person.choice(match.game.legal_moves(match.state)), save=False)
            continue
        if p.kind == CHANCE_DRAW:
            before = len(match.plies)
            assert driver.advance() is not None and len(match.plies) == before + 1
            assert match.plies[-1].mover == CHANCE
            continue
        polls = 0
        while (events := driver.advance()) is None:
            assert driver.thinking == 1
            polls += 1
        assert polls == 4 and isinstance(events, list) and match.plies[-1].mover == 1
        assert driver.thinking is None
        agent_plies += 1
    assert agent_plies == 5
    assert len(runner.starts) == 5 and len({ply for _, ply in runner.starts}) == 5


def test_a_search_for_a_position_taken_back_is_never_applied():
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "random")], seed=1)
    runner = Slow({1: Recording(seed=2)}, polls=5)
    driver = Driver(match, frozenset({1}), random.Random(5), runner)
    first, second = game.legal_moves(match.state)[:2]
    driver.answer(0, first, save=False)
    assert driver.advance() is None and driver.thinking == 1
    assert match.undo(0) and match.plies == []
    assert driver.thinking is None                  # the search is for a position that is gone
    assert driver.advance() is None and runner.cancels == 1
    driver.answer(0, second, save=False)
    while driver.advance() is None:
        pass
    assert [p.mover for p in match.plies] == [0, 1] and match.plies[0].move == second
    assert runner.starts == [(1, 1), (1, 1)]
    driver.taken_back()                             # nothing under way: nothing to cancel
    assert runner.cancels == 1
    driver.close()
    assert runner.closed


def test_taken_back_and_load_give_a_stopped_seat_another_try():
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "random")], seed=1)
    driver = Driver(match, frozenset({1}), random.Random(5), InlineRunner({1: Raising()}))
    driver.answer(0, game.legal_moves(match.state)[0], save=False)
    with pytest.raises(AgentFailed):
        driver.advance()
    assert driver.pending().kind == FAILED and driver.advance() is None
    match.undo(0)
    driver.taken_back()
    assert driver.failed == {} and driver.pending() == Pending(PERSON, 0, 0)
    other = Match(game, seed=2)
    runner = Slow({1: Recording()})
    loading = Driver(match, frozenset({1}), random.Random(5), runner)
    loading.load(other)
    assert loading.match is other and loading.pending() == Pending(PERSON, 0, 0)
    assert runner.closed          # its workers held the old match


def test_the_tables_worker_runner_answers_through_the_driver():
    """The table's runner: the seat thinks in a worker process; the window's step returns at once until the answer
    comes, then the driver applies it; closing stops the worker."""
    from towerworld.app.thinker import WorkerRunner
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "random")], seed=1)
    runner = WorkerRunner()
    driver = Driver(match, frozenset({1}), random.Random(5), runner)
    try:
        driver.answer(0, game.legal_moves(match.state)[-1], save=False)
        deadline = time.monotonic() + 60
        while driver.advance() is None:
            assert time.monotonic() < deadline, "the worker never answered"
            assert driver.thinking == 1
            time.sleep(0.02)
        assert [p.mover for p in match.plies] == [0, 1] and driver.pending().kind in (PERSON, END)
        (worker,) = [t.process for t in runner.thinkers.values()]
        assert worker.is_alive()
    finally:
        driver.close()
    assert not worker.is_alive() and runner.thinkers == {}



class Gated(Agent):
    """An agent that answers only once the test opens its gate (a search that takes its time in a thread)."""
    name = "gated"

    def __init__(self):
        self.gate = threading.Event()
        self.asked: list[int] = []

    def choose(self, view):
        self.asked.append(view.seat)
        assert self.gate.wait(30)
        return view.legal_moves[-1]


def test_a_thread_runner_answers_without_the_caller_waiting():
    """A server's runner: the agent searches in a thread, advance() returns at once until its answer is ready."""
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "gated")], seed=1)
    agent = Gated()
    with ThreadPoolExecutor(max_workers=1) as pool:
        runner = ThreadRunner({1: agent}, pool)
        driver = Driver(match, frozenset({1}), random.Random(5), runner)
        driver.answer(0, game.legal_moves(match.state)[-1], save=False)
        for _ in range(3):
            assert driver.advance() is None and driver.thinking == 1
        agent.gate.set()
        runner.future.result(timeout=30)
        events = driver.advance()
        assert events is not None and [p.mover for p in match.plies] == [0, 1] and agent.asked == [1]
        raising = ThreadRunner({1: Raising()}, pool)
        other = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("AI 2", "ai", "raising")], seed=1)
        failing = Driver(other, frozenset({1}), random.Random(5), raising)
        failing.answer(0, game.legal_moves(other.state)[-1], save=False)
        assert failing.advance() is None
        raising.future.exception(timeout=30)
        with pytest.raises(AgentFailed, match=r"^Player 2's AI failed: no move found$"):
            failing.advance()


# ---- no other seat loop ---------------------------------------------------------------------------------------------
# A seat loop is a loop that asks an agent for a move and applies it (`.choose(<a View>)`, `ask(...)` or `.choose`
# handed to an executor, and an apply of a state or match or an answer to a driver, in the same loop), or a loop that plays a match by choosing its moves or drawing its chance
# itself (`<match>.apply(...)` beside legal_moves, sample_chance, next_chance, chance_outcomes or answer_chance). Such
# loops belong in the driver alone. Loops that step bare states without asking an agent are the rules' playouts and
# the search's (rollouts, benchmarks of move generation), not seat loops; a record's replay applies stored moves only.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join("towerworld", "engine", "driver.py")
APPLIES = {"apply", "apply_unchecked", "apply_text", "advance", "answer"}     # a state stepped, or a driver told
CHOOSES_FOR_A_MATCH = {"legal_moves", "sample_chance", "next_chance", "chance_outcomes", "answer_chance"}


def _calls(loop: ast.AST):
    """The calls in a loop's own body (not in functions defined there)."""
    stack = list(ast.iter_child_nodes(loop))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _asks_an_agent(call: ast.Call) -> bool:
    """`ask(...)`, `agent.choose(<a View>)`, or `agent.choose` handed to something that calls it (an executor)."""
    if _name(call.func) == "ask":
        return True
    if any(isinstance(arg, ast.Attribute) and arg.attr == "choose" for arg in call.args):
        return True
    if _name(call.func) != "choose" or not call.args:
        return False
    arg = call.args[0]
    return (isinstance(arg, ast.Call) and _name(arg.func) in ("of", "seat_view")) or \
        (isinstance(arg, ast.Name) and "view" in arg.id.lower())


def seat_loops(source: str, path: str = "<source>") -> list[int]:
    """The lines of the seat loops in `source`."""
    found = []
    for loop in ast.walk(ast.parse(source, path)):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        calls = list(_calls(loop))
        names = {_name(c.func) for c in calls}
        asks = any(_asks_an_agent(c) for c in calls)
        plays_a_match = any(_name(c.func) in ("apply", "apply_text") and isinstance(c.func, ast.Attribute)
                            and "match" in ast.unparse(c.func.value).lower() for c in calls)
        if (asks and names & APPLIES) or (plays_a_match and names & CHOOSES_FOR_A_MATCH):
            found.append(loop.lineno)
    return found


def sources() -> dict[str, str]:
    out = {}
    for top in ("towerworld", "scripts"):
        for dirpath, dirnames, files in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(dirpath, name)
                    out[os.path.relpath(path, ROOT)] = open(path, encoding="utf-8").read()
    return out


def test_the_driver_is_the_only_loop_that_asks_seats_or_draws_chance():
    found = {path: lines for path, source in sources().items() if path != DRIVER
             and (lines := seat_loops(source, path))}
    assert not found, "These loops ask seats for moves or draw chance outside the driver (use Driver.run, " \
        f"Driver.advance, play_match or pending()/answer()): {found}"


def test_the_seat_loop_check_sees_the_loops_it_names():
    """The check fires on each kind of seat loop and stays quiet on the driver's way and on a bare playout."""
    assert seat_loops("while not done:\n    s, _ = G.apply(s, agent.choose(View.of(G, s, 0)))\n") == [1]
    assert seat_loops("for i in range(9):\n    m = ask(agents[i % 2], G, s)\n    s = G.apply_unchecked(s, m)[0]\n")\
        == [1]
    assert seat_loops("while not match.over:\n    if match.current_player < 0:\n        answer_chance(match)\n"
                      "    else:\n        moves = G.legal_moves(match.state)\n        match.apply(moves[0])\n") == [1]
    assert seat_loops("for m in self.match.plies:\n    x.match.apply(G.sample_chance(s, rng))\n") == [1]
    assert seat_loops("while driver.pending().kind != END:\n    driver.run(1)\n") == []
    assert seat_loops("while G.current_player(s) != TERMINAL:\n    s, _ = G.apply_unchecked(s, "
                      "G.sample_chance(s, rng))\n") == []
    assert seat_loops("for text in moves:\n    match.apply_text(text)\n") == []
    assert seat_loops("for state in states:\n    agent.choose(View.of(G, state, 0))\n") == []   # timing one ask
    assert seat_loops("async def f():\n    while True:\n        view = seat_view(agent, G, s)\n"
                      "        move = await loop.run_in_executor(pool, agent.choose, view)\n"
                      "        driver.answer(p.seat, move)\n") == [2]


# ---- the driver's state is its own ------------------------------------------------------------------------------------
MUTATORS = {"clear", "pop", "popitem", "update", "setdefault", "add", "discard", "remove", "append", "extend"}


def _of_a_driver(node: ast.AST) -> bool:
    """Whether `node` is something held by a driver (`driver.x`, `self.driver.x[...]`), not the driver itself."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        inner = node.value
        if isinstance(inner, ast.Name) and inner.id == "driver" or \
                isinstance(inner, ast.Attribute) and inner.attr == "driver":
            return True
        node = inner
    return False


def driver_writes(source: str, path: str = "<source>") -> list[int]:
    """Lines that write a driver's state from outside it: an assignment to (or del of) something a driver holds, or
    a mutating call on it (`driver.failed.clear()`)."""
    found = []
    for node in ast.walk(ast.parse(source, path)):
        targets: list = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value] if isinstance(node.func.value, (ast.Attribute, ast.Subscript)) else []
        if any(_of_a_driver(t) for t in targets):
            found.append(node.lineno)
    return found


def test_no_code_outside_the_driver_writes_its_state():
    found = {path: lines for path, source in sources().items() if path != DRIVER
             and (lines := driver_writes(source, path))}
    assert not found, "These lines write a driver's state from outside (use taken_back(), load() or answer()): " \
        f"{found}"


def test_the_state_check_sees_writes_and_lets_a_driver_be_held():
    assert driver_writes("self.driver.failed.clear()\n") == [1]
    assert driver_writes("driver.failed[seat] = 'x'\n") == [1]
    assert driver_writes("self.driver.match = loaded\n") == [1]
    assert driver_writes("room.driver.ai_seats |= {2}\n") == [1]
    assert driver_writes("self.driver = Driver(match)\nevents = self.driver.advance()\nx = driver.failed.get(1)\n") \
        == []
