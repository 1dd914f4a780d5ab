"""The games: a name -> package table. A game is imported only when it is used (startup imports one game).

Every package listed exposes `GAME` (a Game instance) and ships `help.md` (the help overlay's text).
"""
from __future__ import annotations

import importlib

from towerworld.engine.game import BadOption, Game, package_help

PACKAGES: dict[str, str] = {
    "carcassonne": "towerworld.games.carcassonne",
    "elevation": "towerworld.games.elevation",
    "kdak": "towerworld.games.kdak",
    "throwdown": "towerworld.games.throwdown",
    "ziggurat": "towerworld.games.ziggurat",
}

_LOADED: dict[str, Game] = {}


def names() -> list[str]:
    """Registered game names, sorted; imports nothing."""
    return sorted(set(PACKAGES) | set(_LOADED))


def get_game(name: str) -> Game:
    """The game called `name`; BadOption with the known names otherwise."""
    if name in _LOADED:
        return _LOADED[name]
    if not isinstance(name, str) or name not in PACKAGES:
        shown = str(name) if len(str(name)) <= 40 else str(name)[:37] + "..."
        raise BadOption(f"There is no game called '{shown}' (games: {', '.join(names())}).")
    game = importlib.import_module(PACKAGES[name]).GAME
    _LOADED[name] = game
    return game


def all_games() -> dict[str, Game]:
    """Every registered game, imported (for `towerworld games` with details, and tests)."""
    return {name: get_game(name) for name in names()}


def register(game: Game) -> None:
    """Add a game that is not a package of towerworld.games (tests' toy games)."""
    _LOADED[game.name] = game


def unregister(name: str) -> None:
    _LOADED.pop(name, None)


def help_text(name: str) -> str:
    """The game's `help.md`, or its title when the package has none (reads the file without importing the game)."""
    package = PACKAGES.get(name)
    text = package_help(package) if package is not None else None
    if text is not None:
        return text
    game = _LOADED.get(name)
    return game.help_text() if game is not None else name
