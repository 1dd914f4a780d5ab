"""The floors: towerworld.engine, towerworld.games (every game package) and towerworld.ai never import panda3d."""
import json
import os
import subprocess
import sys

import pytest

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


def test_the_import_contracts_hold():
    """setup.cfg's import-linter contracts (layers engine <- games <- ai <- scene <- app, demos <- cli; games
    independent of each other; no panda3d below the scene) are kept, imports inside functions counted."""
    pytest.importorskip("importlinter")
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]


def test_importing_the_ai_package_does_not_load_openspiel():
    assert probe()["cheap_ai_import"]


def test_the_registry_lists_games_without_importing_them():
    """The game registry lists games without importing them."""
    code = ("import sys\nfrom towerworld.engine import registry\nnames = registry.names()\n"
            "print(','.join(names), '|', ','.join(m for m in sys.modules if m.startswith('towerworld.games.')))")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    names, loaded = out.stdout.strip().split("|")
    assert len(names.split(",")) >= 4 and not loaded.strip(), loaded


def _game_words() -> list[str]:
    """Every registered game's name and the distinctive words of its title."""
    from towerworld.engine import registry
    words = set(registry.names())
    for name in registry.names():
        title = registry.get_game(name).title.lower().replace("'", "")
        words.add(title.split()[0])
    return sorted(w for w in words if len(w) > 3)


def test_no_file_under_scene_or_app_names_a_game():
    """No file under scene/ or app/ names a game (code, strings and comments)."""
    found = []
    for folder in ("towerworld/scene", "towerworld/app"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith(".py"):
                    continue
                text = open(os.path.join(dirpath, name), encoding="utf-8").read().lower().replace("'", "")
                found += [f"{os.path.relpath(os.path.join(dirpath, name), ROOT)}: {w}" for w in _game_words()
                          if w in text]
    assert not found, "game names under scene/ or app/: " + "; ".join(found)


SHAPE = ("__init__.py", "board.py", "rules.py", "notation.py", "layout.py", "strategy.py", "game.py", "help.md",
         "bench.py")


def test_every_game_package_has_the_same_shape():
    """Design: every game package has the same files with the same jobs (board, rules, notation, layout, strategy,
    game, __init__, help.md, bench.py), and its `GAME` is an instance of the Game class in its game.py (the import
    order among them is an import-linter contract in setup.cfg)."""
    from towerworld.engine import registry
    missing = []
    for name, package in sorted(registry.PACKAGES.items()):
        folder = os.path.join(ROOT, *package.split("."))
        missing += [f"{name}: {f}" for f in SHAPE if not os.path.isfile(os.path.join(folder, f))]
    assert not missing, "missing: " + ", ".join(missing)
    for name, game in registry.all_games().items():
        assert type(game).__module__ == f"{registry.PACKAGES[name]}.game", (name, type(game).__module__)
