"""The floors: towerworld.engine, towerworld.games (every game package) and towerworld.ai never import panda3d."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
import json, sys
import towerworld.engine
import towerworld.engine.match, towerworld.engine.record, towerworld.engine.layout, towerworld.engine.pieces
import towerworld.games
from towerworld.engine.registry import all_games
games = all_games()
import towerworld.ai
cheap = "pyspiel" not in sys.modules
from towerworld.ai import make_agent, agent_names
from towerworld.ai import spiel, mcts
from towerworld.engine.game import OMNISCIENT
for game in games.values():
    state = game.new_state(*game.resolve_options())
    game.layout(state, OMNISCIENT)
    for name in agent_names(game):
        make_agent(name, game, seed=1)
print(json.dumps({"games": sorted(games), "cheap_ai_import": cheap,
                  "panda": sorted(m for m in sys.modules if m == "panda3d" or m.startswith(("panda3d.", "direct.")))}))
"""


def probe():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_engine_games_and_ai_do_not_import_panda3d():
    result = probe()
    assert result["panda"] == [], f"panda3d imported by a lower floor: {result['panda']}"
    assert result["games"], "no game registered"


def test_importing_the_ai_package_does_not_load_openspiel():
    assert probe()["cheap_ai_import"]
