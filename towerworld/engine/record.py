"""Record format v1 (`*.tower.json`): save atomically, load with full validation and a legality-checked replay.

A record that is damaged, hostile or from a newer version is refused with one RecordError sentence naming the field or
the ply; a match is only returned once every move has replayed.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile

from towerworld import __version__
from towerworld.engine.game import TowerworldError
from towerworld.engine.match import Match, PlayerSpec

FORMAT = "towerworld-record"
FORMAT_VERSION = 1
MAX_BYTES = 20 * 1024 * 1024
MAX_MOVE_TEXT = 200


class RecordError(TowerworldError):
    """A record file that cannot be loaded; the message names the file's fault."""


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def match_to_record(match: Match) -> dict:
    record = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "game": match.game.name,
        "options": match.game.non_default_options(match.options),
        "players": [{"name": p.name, "kind": p.kind, **({"agent": p.agent} if p.agent else {})}
                    for p in match.players],
        "moves": [p.text for p in match.plies],
        "result": match.result_text(),
        "created": match.created or _now(),
        "updated": _now(),
    }
    if match.variant:
        record["variant"] = match.variant
    if match.seed is not None:
        record["seeded"] = match.seed    # a seeded run (simulate, tests, benchmarks); live games store no seed
    match.created = record["created"]
    return record


def save_match(match: Match, path: str) -> None:
    """Write the record atomically: a temp file in the same folder, fsync, then os.replace."""
    data = json.dumps(match_to_record(match), indent=1, ensure_ascii=False)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".tower.json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_match(path: str, autosave: str | None = None) -> Match:
    """Read and validate a record file; RecordError with one sentence otherwise."""
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise RecordError(f"Cannot read {path}: {e.strerror or e}.") from None
    if size > MAX_BYTES:
        raise RecordError(f"{path} is {size} bytes, more than a record can be ({MAX_BYTES}).")
    try:
        with open(path, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8")
    except OSError as e:
        raise RecordError(f"Cannot read {path}: {e.strerror or e}.") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file (not UTF-8).") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}).") from None
    except RecursionError:
        raise RecordError(f"{path} is nested too deeply to be a record.") from None
    return match_from_record(data, autosave=autosave)


def _field(data: dict, name: str, kind, required: bool = True, default=None):
    if name not in data:
        if required:
            raise RecordError(f"The record has no '{name}' field.")
        return default
    value = data[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        wanted = {int: "a whole number", str: "text", list: "a list", dict: "an object"}.get(kind, str(kind))
        raise RecordError(f"The record's '{name}' field must be {wanted}.")
    return value


def match_from_record(data, autosave: str | None = None) -> Match:
    from towerworld.engine.registry import get_game

    if not isinstance(data, dict):
        raise RecordError("A record must be a JSON object.")
    if _field(data, "format", str) != FORMAT:
        raise RecordError(f"The record's 'format' must be '{FORMAT}'.")
    version = _field(data, "format_version", int)
    if version > FORMAT_VERSION:
        raise RecordError(f"The record has format version {version}; this towerworld reads up to {FORMAT_VERSION}. "
                          "Update towerworld to open it.")
    if version < 1:
        raise RecordError(f"The record's format version {version} does not exist.")
    name = _field(data, "game", str)
    try:
        game = get_game(name)
    except TowerworldError as e:
        raise RecordError(str(e)) from None
    options = _field(data, "options", dict, required=False, default={})
    variant = _field(data, "variant", str, required=False)
    seed = _field(data, "seeded", int, required=False)
    players_raw = _field(data, "players", list)
    players = []
    for i, p in enumerate(players_raw):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or p.get("kind") not in ("human", "ai"):
            raise RecordError(f"Player {i + 1} in the record needs a 'name' and a 'kind' of human or ai.")
        agent = p.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise RecordError(f"Player {i + 1}'s 'agent' must be text.")
        players.append(PlayerSpec(p["name"][:60], p["kind"], agent))
    moves = _field(data, "moves", list)
    try:
        match = Match(game, options=options, players=players or None, seed=seed, variant=variant)
    except TowerworldError as e:
        raise RecordError(f"The record's setup is not valid: {e}") from None
    for ply, text in enumerate(moves, start=1):
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise RecordError(f"Ply {ply}: a move must be a short text.")
        try:
            match.apply_text(text, save=False)
        except TowerworldError as e:
            raise RecordError(f"Ply {ply} ('{text}'): {e}") from None
    match.created = data.get("created") if isinstance(data.get("created"), str) else None
    match.autosave_path = autosave
    return match
