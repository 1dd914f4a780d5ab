"""Finds the games: every package under towerworld.games that exposes a module-level `GAME` (a Game instance)."""
from __future__ import annotations

import importlib
import pkgutil

from towerworld.engine.game import BadOption, Game

_GAMES: dict[str, Game] | None = None


def all_games() -> dict[str, Game]:
    global _GAMES
    if _GAMES is None:
        import towerworld.games as pkg
        found: dict[str, Game] = {}
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"towerworld.games.{info.name}")
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                found[game.name] = game
        _GAMES = found
    return _GAMES


def get_game(name: str) -> Game:
    if _GAMES is None and name.isidentifier():
        # fast path: import just the named game's package (startup cost matters for `towerworld play`)
        try:
            module = importlib.import_module(f"towerworld.games.{name}")
        except ModuleNotFoundError:
            module = None
        game = getattr(module, "GAME", None)
        if isinstance(game, Game) and game.name == name:
            return game
    games = all_games()
    if name not in games:
        known = ", ".join(sorted(games)) or "none"
        shown = name if len(str(name)) <= 40 else str(name)[:37] + "..."
        raise BadOption(f"There is no game called '{shown}' (games: {known}).")
    return games[name]
