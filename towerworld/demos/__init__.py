"""Physics demos: each module builds a stack from a game's layout at true sizes and masses and knocks it about.

`names()` lists them; `get_demo(name)` imports one. Demos may name games; the physics they use (scene/physics.py) may
not.
"""
from __future__ import annotations

import importlib

from towerworld.engine.game import TowerworldError

MODULES: dict[str, str] = {
    "kdak-collapse": "towerworld.demos.kdak_collapse",
    "throwdown-scrapyard": "towerworld.demos.throwdown_scrapyard",
    "ziggurat-shake": "towerworld.demos.ziggurat_shake",
    "carcassonne-tower": "towerworld.demos.carcassonne_tower",
    "elevation-tip": "towerworld.demos.elevation_tip",
}


class UnknownDemo(TowerworldError):
    pass


def names() -> list[str]:
    return list(MODULES)


def get_demo(name: str):
    if name not in MODULES:
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise UnknownDemo(f"There is no demo called '{shown}' (demos: {', '.join(MODULES)}).")
    return importlib.import_module(MODULES[name]).DEMO
