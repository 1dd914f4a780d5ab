"""One invariant harness for every registered game (and the test-only toy game), every variant, by random play.

Each case (game, variant, player count) plays a few seeded random games; the checks below run over the states seen.
Work is capped (plies per game, sampled states for the heavier checks) so each game takes a few seconds.
"""
from __future__ import annotations

import functools
from copy import deepcopy
import json
import math
import random

import pytest

from towerworld.engine import registry
from towerworld.engine.game import (CHANCE, SEES_ALL, SEES_SEAT, TERMINAL, AgentSpec, BadNotation, Game, GameInfo,
                                    IllegalMove, OMNISCIENT)
from towerworld.engine.layout import Layout, Pose
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.pieces import PIECES
from towerworld.engine.record import match_from_record, match_to_record

try:
    from toygame import GAME as TOY, NIM, ToyNim
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY, NIM, ToyNim

TOYS = (TOY, NIM)   # test-only games, not packages of towerworld.games

SEEDS = (0, 1, 2)
MAX_PLIES = 600          # cap on each random game (the game's own max_plies still bounds a finished game)
MAX_BUTTONS = 8          # the play screen's button row (towerworld/app/play.py)
PARSE_CAP = 150          # moves per state whose notation is parsed back (all are formatted)
HEAVY = 12               # states per game checked by the heavier checks (notation, layout, picks, observations)


def games() -> dict[str, Game]:
    found = dict(registry.all_games())
    for toy in TOYS:
        found[toy.name] = toy
    return found


def cases() -> list:
    out = []
    for name, game in sorted(games().items()):
        variants = [None] + [v.name for v in game.variants]
        for variant in variants:
            v = next((x for x in game.variants if x.name == variant), None)
            lo, hi = v.players if v is not None and v.players else (game.min_players, game.max_players)
            for n in sorted({lo, hi}):
                out.append(pytest.param(name, variant, n, id=f"{name}-{variant or 'default'}-{n}p"))
    return out


CASES = cases()


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    """The toy games are not packages of towerworld.games; records of them load while a test runs."""
    for toy in TOYS:
        registry.register(toy)
    yield
    for toy in TOYS:
        registry.unregister(toy.name)


class Trajectory:
    def __init__(self, game, variant, players, seed):
        self.game = game
        self.variant = variant
        self.options, self.n = game.resolve_options(None, variant, players)
        self.states = [game.new_state(self.options, self.n)]
        self.moves = []
        rng = random.Random(seed)
        state = self.states[0]
        while game.current_player(state) != TERMINAL and len(self.moves) < MAX_PLIES:
            cp = game.current_player(state)
            if cp == CHANCE:
                move = game.sample_chance(state, rng)
            else:
                moves = game.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state, _ = game.apply(state, move)
            self.moves.append(move)
            self.states.append(state)
        self.finished = game.current_player(state) == TERMINAL

    def sample(self, k=HEAVY) -> list[int]:
        """Indices of up to k states spread over the game, the first and the last included."""
        last = len(self.states) - 1
        if last + 1 <= k:
            return list(range(last + 1))
        return sorted({round(i * last / (k - 1)) for i in range(k)})


@functools.lru_cache(maxsize=None)
def trajectories(name, variant, players) -> tuple[Trajectory, ...]:
    game = games()[name]
    return tuple(Trajectory(game, variant, players, seed) for seed in SEEDS)


def sampled_states(name, variant, players):
    for t in trajectories(name, variant, players):
        for i in t.sample():
            yield t, i, t.states[i]


# ---- the contract, state by state ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,variant,players", CASES)
def test_random_play_invariants(name, variant, players):
    game = games()[name]
    for t in trajectories(name, variant, players):
        n = game.num_players(t.states[0])
        assert n == t.n
        for i, state in enumerate(t.states):
            hash(state)
            cp = game.current_player(state)
            moves = game.legal_moves(state)
            outcomes = game.chance_outcomes(state)
            assert cp in (CHANCE, TERMINAL) or 0 <= cp < n, f"current_player {cp!r} at ply {i}"
            assert moves == sorted(moves), f"legal_moves not sorted at ply {i}"
            assert len(set(moves)) == len(moves), f"legal_moves has duplicates at ply {i}"
            assert len(moves) <= game.max_moves and len(outcomes) <= game.max_moves, "raise max_moves"
            if cp == TERMINAL:
                assert not moves and not outcomes, f"terminal state with moves at ply {i}"
                assert game.is_terminal(state)
            elif cp == CHANCE:
                assert not moves, f"a chance state with decision moves at ply {i}"
                assert outcomes, f"a chance state without outcomes at ply {i}"
                keys = [m for m, _ in outcomes]
                assert keys == sorted(keys) and len(set(keys)) == len(keys), f"chance outcomes unsorted at ply {i}"
                assert all(p > 0 for _, p in outcomes), f"an outcome with probability 0 at ply {i}"
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), f"probabilities at ply {i}"
            else:
                assert moves, f"player {cp} to move without legal moves at ply {i} (terminal iff no moves)"
                assert not outcomes, f"a decision state with chance outcomes at ply {i}"
            scores = game.scores(state)
            assert len(scores) == n
            hud = game.hud(state, OMNISCIENT)
            assert isinstance(hud, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in hud.items())
            if i < len(t.moves):
                move = t.moves[i]
                before = repr(state)
                after, events = game.apply(state, move)
                assert repr(state) == before, f"apply mutated its input at ply {i}"
                assert after == t.states[i + 1] and hash(after) == hash(t.states[i + 1]), "apply is not deterministic"
                unchecked, _ = game.apply_unchecked(state, move)
                assert unchecked == after, f"apply and apply_unchecked disagree at ply {i}"
                assert all(isinstance(e.kind, str) and isinstance(e.text, str) for e in events)
        if t.finished:
            end = t.states[-1]
            assert len(t.moves) <= game.max_plies, f"a game of {len(t.moves)} plies is longer than max_plies"
            r = game.returns(end)
            assert len(r) == n and all(math.isfinite(float(v)) for v in r)
            check_declared_returns(game.info(), r)
            assert isinstance(game.result(end), str) and game.result(end)
        check_declared_play(game.info(), t)


def check_declared_returns(info: GameInfo, r: list) -> None:
    """The returns of a finished game keep what the game's GameInfo declares: every entry within the utility bounds,
    and a sum of 0 where the game says it is zero-sum."""
    lo, hi = info.min_utility, info.max_utility
    assert all(lo - 1e-9 <= v <= hi + 1e-9 for v in r), f"returns {r} outside the declared [{lo}, {hi}]"
    if info.zero_sum:
        assert abs(sum(r)) <= 1e-9, f"returns {r} of a game declared zero-sum do not sum to 0"


def check_declared_play(info: GameInfo, t: Trajectory) -> None:
    """A game played keeps what its GameInfo declares: the player count within the declared span, no chance node in a
    game declared without chance, no longer than the longest game."""
    assert info.min_players <= t.n <= info.max_players, f"{t.n} players outside [{info.min_players}, {info.max_players}]"
    if not info.chance:
        assert all(t.game.current_player(s) != CHANCE for s in t.states), "a chance node in a game declared without"
    if t.finished:
        assert len(t.moves) <= info.max_plies, f"a game of {len(t.moves)} plies is longer than the declared longest"


@pytest.mark.parametrize("name", sorted(games()))
def test_every_game_declares_its_game_info(name):
    """Every game returns its GameInfo: player counts that span the rules' and every variant's, utility bounds in
    order, a longest game and a widest choice."""
    game = games()[name]
    info = game.info()
    assert isinstance(info, GameInfo)
    assert 1 <= info.min_players <= game.min_players <= game.max_players <= info.max_players
    for v in game.variants:
        if v.players:
            assert info.min_players <= v.players[0] <= v.players[1] <= info.max_players, v.name
    assert info.min_utility < info.max_utility
    assert info.max_plies > 0 and info.max_moves > 0
    assert (game.max_plies, game.max_moves, game.perfect_information) == \
        (info.max_plies, info.max_moves, info.perfect_information)


@pytest.mark.parametrize("name", sorted(games()))
def test_every_agent_declares_its_agent_spec(name):
    """Every agent a game offers is an AgentSpec: words a player reads, its default among its levels, what it may see;
    its factory builds, at every level, an agent of that name that sees what the spec says."""
    game = games()[name]
    for spec in game.agents():
        assert isinstance(spec, AgentSpec) and spec.words and spec.sees in (SEES_SEAT, SEES_ALL)
        assert (spec.level in spec.levels) if spec.levels else spec.level == ""
        for level in spec.levels or (None,):
            agent = spec.factory(game, 1, level)
            assert (agent.name, agent.sees) == (spec.name, spec.sees), (spec.name, level)
            if spec.budgeted:
                assert isinstance(agent.budgeted, bool) and (agent.seconds is None or agent.seconds > 0)


class MisdeclaredNim(ToyNim):
    """Toy Nim declaring a bound its returns break (a win is 1, declared at most 0.5) and a zero-sum it keeps."""
    name = "misdeclared"

    def info(self):
        return GameInfo(min_players=2, max_players=2, min_utility=-1.0, max_utility=0.5, zero_sum=True, chance=False,
                        perfect_information=True, max_plies=15, max_moves=3)


def test_the_declared_bounds_check_catches_a_wrong_bound():
    """The harness's check of the declared utilities fails on a game whose returns leave its declared bounds."""
    game = MisdeclaredNim()
    t = Trajectory(game, None, 2, 0)
    assert t.finished
    with pytest.raises(AssertionError, match="outside the declared"):
        check_declared_returns(game.info(), game.returns(t.states[-1]))
    check_declared_returns(NIM.info(), NIM.returns(t.states[-1]))     # the true bounds hold for the same game


@pytest.mark.parametrize("name,variant,players", CASES)
def test_every_move_applies_without_mutating(name, variant, players):
    """Every legal move (and chance outcome) at sampled states applies cleanly and leaves its input untouched."""
    game = games()[name]
    for _, _, state in sampled_states(name, variant, players):
        before = repr(state)
        here = [m for m, _ in game.chance_outcomes(state)] or game.legal_moves(state)
        for move in here[:60]:
            game.apply(state, move)
        assert repr(state) == before


@pytest.mark.parametrize("name,variant,players", CASES)
def test_notation_round_trip(name, variant, players):
    """Every move's text is distinct; parse_move(format_move(m)) == m (for up to PARSE_CAP moves per state)."""
    game = games()[name]
    rng = random.Random(3)
    for _, i, state in sampled_states(name, variant, players):
        here = [m for m, _ in game.chance_outcomes(state)] or game.legal_moves(state)
        texts = {}
        for move in here:
            text = game.format_move(state, move)
            assert isinstance(text, str) and text.strip() and "\n" not in text, f"bad notation {text!r}"
            assert text not in texts, f"'{text}' names two moves at ply {i}: {texts.get(text)!r} and {move!r}"
            texts[text] = move
        chosen = list(texts.items())
        if len(chosen) > PARSE_CAP:
            chosen = chosen[:2] + chosen[-2:] + rng.sample(chosen[2:-2], PARSE_CAP - 4)
        for text, move in chosen:
            assert game.parse_move(state, text) == move, f"'{text}' does not parse back at ply {i}"
        with pytest.raises(BadNotation) as err:
            game.parse_move(state, "~~ not a move ~~")
        assert str(err.value).strip()


@pytest.mark.parametrize("name,variant,players", CASES)
def test_record_round_trip(name, variant, players):
    """Match -> record dict -> JSON -> match_from_record replays to the same state (and the same notation)."""
    game = games()[name]
    for seed, t in zip(SEEDS, trajectories(name, variant, players)):
        match = Match(game, players=[PlayerSpec(f"P{i + 1}") for i in range(t.n)], seed=seed, variant=variant)
        assert match.initial == t.states[0], "new_state is not deterministic"
        for move in t.moves:
            match.apply(move, save=False)
        assert match.state == t.states[-1]
        record = json.loads(json.dumps(match_to_record(match)))
        loaded = match_from_record(record)
        assert loaded.state == match.state
        assert [p.text for p in loaded.plies] == [p.text for p in match.plies]
        assert loaded.options == match.options and len(loaded.players) == t.n
        for ply in {0, len(t.moves) // 3, len(t.moves) // 2, len(t.moves)}:
            assert loaded.state_at(ply) == t.states[ply], f"seek to ply {ply} differs from the replay"


@pytest.mark.parametrize("name,variant,players", CASES)
def test_undo_to_the_start_against_ai(name, variant, players):
    """Against an AI undo is free: undo repeatedly takes back every move a person made; redo restores the game."""
    game = games()[name]
    t = trajectories(name, variant, players)[0]
    if t.n < 2:
        specs = [PlayerSpec("P1")]
    else:
        specs = [PlayerSpec("P1")] + [PlayerSpec(f"AI {i + 1}", "ai", "random") for i in range(1, t.n)]
    match = Match(game, players=specs, seed=0, variant=variant)
    for move in t.moves[:200]:
        match.apply(move, save=False)
    end = match.state
    undone = 0
    while match.can_undo():
        assert match.undo()
        undone += 1
        assert undone <= 200
    if t.n >= 2:
        assert all(p.mover == CHANCE or specs[p.mover].is_ai for p in match.plies), "a person's move is left"
    else:
        assert not match.plies or match.plies[-1].reveals
    # the state after undo is the replay of what is left
    state = match.initial
    for p in match.plies:
        state, _ = game.apply(state, p.move)
    assert match.state == state
    while match.can_redo():
        match.redo()
    assert match.state == end


@pytest.mark.parametrize("name,variant,players", CASES)
def test_observations(name, variant, players):
    """observation(state, p) is hashable and deterministic; with hidden information, a state that differs only in what
    p cannot know (a determinization for p) gives p the same observation."""
    game = games()[name]
    rng = random.Random(7)
    for _, i, state in sampled_states(name, variant, players):
        copy = deepcopy(state)
        for p in range(game.num_players(state)):
            obs = game.observation(state, p)
            hash(obs)
            assert obs == game.observation(state, p) == game.observation(copy, p)
            if not game.perfect_information:
                for _ in range(3):
                    other = game.resample(state, p, rng)
                    assert game.observation(other, p) == obs, f"determinization for player {p} is visible at ply {i}"
                    assert game.current_player(other) == game.current_player(state)
                    if game.current_player(state) == p:
                        assert game.legal_moves(other) == game.legal_moves(state), "p's own moves must not change"


@pytest.mark.parametrize("name,variant,players", CASES)
def test_hidden_information_stays_hidden(name, variant, players):
    """In a hidden-information game, some player's observation must differ from the whole state at some point."""
    game = games()[name]
    if game.perfect_information:
        pytest.skip("perfect information")
    seen_hidden = False
    for _, _, state in sampled_states(name, variant, players):
        for p in range(game.num_players(state)):
            if game.observation(state, p) != state:
                seen_hidden = True
    assert seen_hidden, "observation returns the whole state, hiding nothing"


@pytest.mark.parametrize("name,variant,players", CASES)
def test_layout_and_picks(name, variant, players):
    """layout() places every piece at a finite pose of a known kind (its close-up, if any, is one of them, with a
    caption); each move has its own path of picks; picks that
    are not layout pieces or cells become buttons on the play screen, which shows at most MAX_BUTTONS at a time."""
    game = games()[name]
    for _, i, state in sampled_states(name, variant, players):
        lay = game.layout(state, OMNISCIENT)
        assert isinstance(lay, Layout)
        assert lay.pieces, "a layout with no pieces"
        for pid, pose in lay.pieces.items():
            assert isinstance(pid, str) and pid, "piece ids are non-empty text"
            assert isinstance(pose, Pose)
            assert pose.kind in PIECES, f"piece {pid} has unknown kind {pose.kind!r}"
            for v in (pose.x, pose.y, pose.z, pose.heading, pose.tilt):
                assert math.isfinite(v), f"piece {pid} has a non-finite pose {pose}"
            hash(pose.look)
        for cid, cell in lay.cells.items():
            assert all(math.isfinite(v) for v in (cell.x, cell.y, cell.z, cell.w, cell.d)), f"cell {cid}"
        assert all(math.isfinite(v) for v in lay.bounds())
        if lay.closeup is not None:
            shown, caption = lay.closeup
            assert shown in lay.pieces and caption.strip(), f"the close-up {lay.closeup} names no piece of the layout"
        if game.current_player(state) < 0:
            continue
        paths = {}
        buttons: dict[tuple, set] = {}
        for move in game.legal_moves(state):
            picks = tuple(game.picks(state, move))
            # a step is a piece/cell id or a button word, or a frozenset of piece ids picked in any order
            assert picks and all((isinstance(p, str) and p) or (isinstance(p, frozenset) and p and
                                 all(isinstance(q, str) and (q in lay.pieces or q in lay.cells) for q in p))
                                 for p in picks), f"picks of {move!r} at ply {i}"
            assert picks not in paths, f"moves {paths.get(picks)!r} and {move!r} have the same picks at ply {i}"
            paths[picks] = move
            for k, p in enumerate(picks):
                if isinstance(p, frozenset):
                    continue
                if p not in lay.pieces and p not in lay.cells:   # not a place on the table: the play screen's button
                    buttons.setdefault(picks[:k], set()).add(p)
        for prefix, names in buttons.items():
            assert len(names) <= MAX_BUTTONS, f"{len(names)} buttons after picks {prefix} at ply {i}: {sorted(names)}"


@pytest.mark.parametrize("name,variant,players", CASES)
def test_illegal_moves_are_refused_in_one_sentence(name, variant, players):
    game = games()[name]
    trajs = trajectories(name, variant, players)
    pool = [m for t in trajs for m in t.moves]
    for _, i, state in sampled_states(name, variant, players):
        cp = game.current_player(state)
        here = set(m for m, _ in game.chance_outcomes(state)) | set(game.legal_moves(state))
        foreign = [m for m in pool if m not in here][:20]
        for move in foreign + [("~no such move~",), 987654321]:
            before = repr(state)
            with pytest.raises(IllegalMove) as err:
                game.apply(state, move)
            msg = str(err.value)
            assert msg.strip() and "\n" not in msg and len(msg) < 300, f"bad refusal {msg!r} of {move!r}"
            assert "Traceback" not in msg
            assert repr(state) == before
        if cp == TERMINAL:
            with pytest.raises(IllegalMove):
                game.apply(state, pool[0] if pool else ("x",))


# ---- OpenSpiel -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,variant,players", CASES)
def test_openspiel_random_sim(name, variant, players):
    pyspiel = pytest.importorskip("pyspiel")
    from towerworld.ai.spiel import spiel_game
    game = games()[name]
    sgame = spiel_game(game, variant=variant, players=players)
    assert sgame.num_players() == players
    # random_sim_test formats every legal action at every state: one game per variant, two for the default one
    pyspiel.random_sim_test(sgame, num_sims=1 if variant else 2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", sorted(games()))
def test_openspiel_registration(name):
    pyspiel = pytest.importorskip("pyspiel")
    from towerworld.ai import spiel
    game = games()[name]
    short = spiel.register(game)
    assert spiel.register(game) == short == f"towerworld_{name}"
    loaded = pyspiel.load_game(short)
    assert loaded.num_players() == game.resolve_options()[1]
    state = loaded.new_initial_state()
    assert state.tw_state == game.new_state(*game.resolve_options())
