"""OpenSpiel as researchers use it (the optional `research` extra): its own IS-MCTS bot on every hidden-information
game through the adapter, and everything else working where open_spiel is not installed."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from towerworld.engine.registry import all_games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIDDEN = sorted(name for name, game in all_games().items() if not game.perfect_information)
# Ziggurat hides something only in a numbered deal (the pile's order); a shuffled pile's draws are chance moves
HIDING = {"throwdown": {}, "ziggurat": {"deal": 7}}


def _native_rollouts():
    """An OpenSpiel evaluator (its own base class) whose leaf value is the game's native rollout: a pyspiel random
    rollout of a whole Ziggurat deal costs a quarter second, the native one a few milliseconds."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    class NativeRollouts(mcts.Evaluator):
        def __init__(self, seed: int):
            self.rng = random.Random(seed)

        def evaluate(self, state):
            game = state.tw_game
            end = game.rollout(state.tw_state, self.rng)
            if game.is_terminal(end):
                return np.array(game.returns(end), dtype=float)
            return np.zeros(game.num_players(end))

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            actions = state.legal_actions()
            return [(a, 1.0 / len(actions)) for a in actions]

    return NativeRollouts


def test_the_hidden_information_games_are_the_ones_openspiel_resamples():
    assert HIDDEN == sorted(HIDING) == ["throwdown", "ziggurat"]


@pytest.mark.parametrize("name", HIDDEN)
def test_resample_from_infostate_keeps_what_the_seat_knows(name):
    """OpenSpiel's `resample_from_infostate(player, sampler)`: a state with the same player to move and the same
    information-state string for that player, drawn again from the sampler's numbers (a seeded draw repeats)."""
    pyspiel = pytest.importorskip("pyspiel")
    from towerworld.ai.spiel import spiel_game
    sgame = spiel_game(all_games()[name], options=HIDING[name])
    state, rng = sgame.new_initial_state(), random.Random(4)
    drawn = []
    for _ in range(12):
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        if state.is_terminal():
            break
        player = state.current_player()
        again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert again.current_player() == player
        assert again.information_state_string(player) == state.information_state_string(player)
        assert again.legal_actions() == state.legal_actions()
        drawn.append(again.tw_state != state.tw_state)
        numbers = iter([0.25, 0.25])
        first = state.resample_from_infostate(player, lambda: next(numbers))
        second = state.resample_from_infostate(player, lambda: next(numbers))
        assert first.tw_state == second.tw_state
        state.apply_action(rng.choice(state.legal_actions()))
    assert any(drawn), "some resample must draw hidden parts other than the true ones"


@pytest.mark.parametrize("name", HIDDEN)
def test_openspiel_ismcts_bot_plays_out_of_the_box(name):
    """OpenSpiel's own Python `ISMCTSBot`, with no `set_resampler`: it resamples through the adapter every simulation
    (and asserts the resampled state's information state is the root's), for the first decisions of a game."""
    pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import ismcts
    from towerworld.ai.spiel import spiel_game
    sgame = spiel_game(all_games()[name], options=HIDING[name])
    bot = ismcts.ISMCTSBot(sgame, _native_rollouts()(1), 2.0, 12, random_state=np.random.RandomState(0))
    state, rng, decisions = sgame.new_initial_state(), random.Random(0), 0
    while not state.is_terminal() and decisions < 6:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 6 or state.is_terminal()


# a meta-path finder that refuses open_spiel and pyspiel, as on an install without the research extra
NO_OPENSPIEL = r"""
import sys
class _NoOpenSpiel:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('open_spiel', 'pyspiel'):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _NoOpenSpiel())
for gone in [m for m in sys.modules if m.split('.')[0] in ('open_spiel', 'pyspiel')]:
    del sys.modules[gone]
"""


def _without_openspiel(code: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               EGL_PLATFORM="surfaceless")
    return subprocess.run([sys.executable, "-c", NO_OPENSPIEL + code, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_everything_but_the_research_paths_works_without_openspiel(tmp_path):
    """With open_spiel unimportable: `towerworld --help`, the games list, headless games between every built-in agent
    of every game, a picture, a played first frame and the ladder; the adapter alone refuses, in one sentence."""
    picture = tmp_path / "kdak.png"
    code = (
        "from towerworld.cli import main\n"
        "def run(*argv):\n"
        "    try:\n"
        "        main(list(argv))\n"
        "    except SystemExit as e:\n"
        "        assert not e.code, (argv, e.code)\n"
        "run('--help')\n"
        "run('games')\n"
        "from towerworld.engine.registry import all_games\n"
        "for name in all_games():\n"
        "    run('simulate', name, '--games', '1', '--players', 'random,greedy', '--seed', '1')\n"
        "run('simulate', 'throwdown', '--games', '1', '--players', 'ismcts:20it,mcts:20it', '--seed', '2')\n"
        "run('render', 'kdak', '--out', sys.argv[1])\n"
        "run('play', 'kdak', '--players', 'human,random', '--frames', '1')\n"
        "from towerworld.ai.spiel import spiel_game\n"
        "from towerworld.engine.game import BadOption\n"
        "try:\n"
        "    spiel_game(all_games()['kdak'])\n"
        "except BadOption as e:\n"
        "    print('refused:', e)\n"
        "print('loaded:', sorted(m for m in sys.modules if m.split('.')[0] in ('open_spiel', 'pyspiel')))\n")
    out = _without_openspiel(code, str(picture))
    assert out.returncode == 0, out.stderr[-3000:]
    assert "usage: towerworld" in out.stdout
    assert picture.stat().st_size > 1000
    assert "refused:" in out.stdout and "towerworld[research]" in out.stdout
    assert "loaded: []" in out.stdout


def test_the_research_extra_holds_openspiel_and_the_install_does_not():
    """A player's install pulls neither OpenSpiel nor scipy; the research extra holds OpenSpiel, and the test extra
    (what CI installs) holds everything the research extra does, so CI runs the research tests."""
    import configparser
    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"))

    def requirements(text):
        return {line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")}

    required = config["options"]["install_requires"]
    assert "open_spiel" not in required and "scipy" not in required
    extras = config["options.extras_require"]
    assert any(r.startswith("open_spiel") for r in requirements(extras["research"]))
    assert requirements(extras["research"]) <= requirements(extras["test"])
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read()
    assert "'.[test]'" in ci or "'.[test,research]'" in ci
