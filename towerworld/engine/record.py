"""Record format v3 (`*.tower.json`): save atomically, read hostile files safely, validate every field, replay every
move with legality checks and compare the stored result with the engine's.

A record that is damaged, hostile or from a newer version is refused with one RecordError sentence naming the field or
the ply; text from the file appears in that sentence escaped and cut short. A match is only returned once every move
has replayed. Version 1 and 2 files still load: a version 1 `seed` is ignored (every chance outcome is among the
moves). Version 3 adds `revealed`: the lines of play taken back that revealed chance outcomes, each as the ply where it
leaves the moves (`at`) and its own moves, so that what was revealed stays revealed after reload and resume.
A `seeded` field (a seeded run: simulate, tests, benchmarks) is checked and said, but a loaded match is never seeded:
what it draws next comes from OS entropy, so no file predicts or steers a resumed game's chance.
"""
from __future__ import annotations

import json
import math
import os
import stat

from towerworld.engine.agent import GENERIC_AGENTS
from towerworld.engine.game import TERMINAL, TowerworldError
# the writing half (the record a match autosaves) lives beside the match in match.py
from towerworld.engine.match import (FORMAT, FORMAT_VERSION, TEMP_PREFIX, TEMP_SUFFIX, Match, PlayerSpec,  # noqa: F401
                                     match_to_record, result_of, revealed_lines, save_match)
from towerworld.engine.registry import get_game, names
from towerworld.engine.safe_text import shown_text, shown_value

MAX_BYTES = 5 * 1024 * 1024        # far above any real game (a long Carcassonne game is ~40 kB), far below harm
MAX_MOVE_TEXT = 200
MAX_NAME = 60                      # a player's name, and a seat's agent, are at most this long (longer: refused)
MAX_TEXT = 1000                    # any other text field (result, agent, timestamps)
MAX_DIGITS = 30                    # an integer in a record has no reason to be longer
MAX_DEPTH = 8                      # records nest 3 deep (result.scores); anything deeper is not a record
MAX_PLAYERS = 16
MAX_LINES = 1000                   # lines taken back kept in one record
MAX_LINE_MOVES = 20000             # their moves, all together
PLAYER_KINDS = ("human", "ai")


def is_temp_file(path: str) -> bool:
    """Whether `path` names the temp file of a save (in progress, or left by one that was interrupted)."""
    return os.path.basename(path).startswith(TEMP_PREFIX)
MAX_SEED = 2 ** 63 - 1             # seeds are whole numbers from 0 to this, on the command line and in records


class RecordError(TowerworldError):
    """A record file that cannot be loaded; the message names the file's fault."""


# ---- reading a file safely -------------------------------------------------------------------------------------------
def shown_path(path: str, limit: int = 80) -> str:
    """A file name as a sentence shows it: escaped and cut short, and an empty name as ''."""
    return shown_text(path, limit) if path else "''"


def read_record_file(path: str) -> dict:
    """The JSON object in the regular file `path`, read with limits: RecordError for anything else.

    The file is opened without blocking (a FIFO does not hang), checked to be a regular file (not /dev/zero, not a
    folder) and no bigger than MAX_BYTES before a byte is read, and read no further than MAX_BYTES + 1 (a file that
    grows meanwhile is still refused). The JSON parser refuses huge integers, non-finite numbers and deep nesting.
    """
    where = shown_path(path)
    if is_temp_file(path):
        raise RecordError(f"{where} is the temp file of a save that was interrupted, not a record; it is not read.")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise RecordError(f"Cannot read {where}: {e.strerror or e}.") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise RecordError(f"{where} is a folder, not a record file.")
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{where} is not a regular file (a device, pipe or socket), so it is not read.")
        if info.st_size > MAX_BYTES:
            raise RecordError(f"{where} is {info.st_size} bytes, more than a record can be ({MAX_BYTES}).")
        chunks, total = [], 0
        while total <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_BYTES:
            raise RecordError(f"{where} grew past {MAX_BYTES} bytes while being read; it is not read.")
        raw = b"".join(chunks)
    except OSError as e:
        raise RecordError(f"Cannot read {where}: {e.strerror or e}.") from None
    finally:
        os.close(fd)
    return parse_record_text(raw, where)


class _Refused(Exception):
    """A value the limited JSON parser will not build (raised from its hooks, turned into a RecordError)."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number with {len(text.lstrip('-'))} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {shown_text(text, 20)}, too large to be finite")
    return value


def _constant(name: str):
    raise _Refused(f"{name}, which is not JSON")


def parse_record_text(raw: bytes, where: str = "The record") -> dict:
    """JSON from bytes with limits on integers, floats and nesting; RecordError naming the fault otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{where} is not a text file (not UTF-8).") from None
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}).") from None
    except _Refused as e:
        raise RecordError(f"{where} holds {e}.") from None
    except RecursionError:
        raise RecordError(f"{where} is nested too deeply to be a record.") from None
    if _depth_exceeds(data, MAX_DEPTH):
        raise RecordError(f"{where} is nested more than {MAX_DEPTH} deep, deeper than any record.")
    return data


def _depth_exceeds(value, limit: int) -> bool:
    """Whether containers nest deeper than `limit`. A stack of iterators, one per open container: memory grows with
    the depth (at most `limit`), never with the number of values, and a deep value cannot exhaust the call stack."""
    stack = [iter((value,))]
    while stack:
        for item in stack[-1]:
            if isinstance(item, (list, dict)):
                if len(stack) > limit:
                    return True
                stack.append(iter(item.values() if isinstance(item, dict) else item))
                break
        else:
            stack.pop()
    return False


# ---- validating fields -----------------------------------------------------------------------------------------------
_KIND_WORDS = {int: "a whole number", str: "text", list: "a list", dict: "an object", bool: "true or false"}


def _is(value, kind) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _field(data: dict, name: str, kind, required: bool = True, default=None):
    if name not in data:
        if required:
            raise RecordError(f"The record has no '{name}' field.")
        return default
    value = data[name]
    if not _is(value, kind):
        raise RecordError(f"The record's '{name}' field must be {_KIND_WORDS[kind]}, not {shown_value(value, 30)}.")
    if kind is str and len(value) > MAX_TEXT:
        raise RecordError(f"The record's '{name}' field is {len(value)} characters long, more than {MAX_TEXT}.")
    return value


def _players(raw: list, game) -> list[PlayerSpec]:
    """The seats of `raw`, every one checked: a name of 1 to MAX_NAME characters (a longer one is refused, not cut), a
    kind of human or ai, an agent for an ai seat only, and that agent one of the game's (its level is the agent's to
    check when it plays)."""
    if not raw:
        raise RecordError("The record's 'players' field lists no players; a record names every seat.")
    if len(raw) > MAX_PLAYERS:
        raise RecordError(f"The record's 'players' field lists {len(raw)} players, more than any game has.")
    known = list(GENERIC_AGENTS) + sorted(spec.name for spec in game.agents() if spec.name not in GENERIC_AGENTS)
    players = []
    for i, p in enumerate(raw, start=1):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or p.get("kind") not in PLAYER_KINDS:
            raise RecordError(f"Player {i} in the record needs a 'name' and a 'kind' of human or ai.")
        extra = sorted(set(p) - {"name", "kind", "agent"})
        if extra:
            raise RecordError(f"Player {i} in the record has a field '{shown_text(extra[0], 30)}' that no seat has.")
        name, kind, agent = p["name"], p["kind"], p.get("agent")
        if not name.strip():
            raise RecordError(f"Player {i} in the record has an empty name.")
        if len(name) > MAX_NAME:
            raise RecordError(f"Player {i}'s name in the record is {len(name)} characters long; a name is at most "
                              f"{MAX_NAME}.")
        if kind == "human" and "agent" in p:
            raise RecordError(f"Player {i} in the record is a person (kind human) yet names an agent.")
        if kind == "ai":
            if not isinstance(agent, str) or not agent or len(agent) > MAX_NAME:
                raise RecordError(f"Player {i} in the record is an AI, so its 'agent' must name one in at most "
                                  f"{MAX_NAME} characters.")
            if agent.split(":", 1)[0] not in known:
                raise RecordError(f"Player {i}'s agent '{shown_text(agent, 40)}' is none of {game.title}'s "
                                  f"({', '.join(known)}).")
        players.append(PlayerSpec(name, kind, agent))
    return players


def _stored_result(data: dict, version: int):
    """(text, scores or None, finished or None) from the record's `result` field, or None when it has none."""
    if "result" not in data:
        return None
    value = data["result"]
    if version == 1 or isinstance(value, str):
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise RecordError("The record's 'result' field must be a short text.")
        return value, None, None
    if not isinstance(value, dict):
        raise RecordError(f"The record's 'result' field must be an object, not {shown_value(value, 30)}.")
    text = value.get("text")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise RecordError("The record's 'result.text' field must be a short text.")
    scores = value.get("scores")
    if scores is not None and (not isinstance(scores, list) or len(scores) > MAX_PLAYERS
                               or not all(_is(s, int) or isinstance(s, float) for s in scores)):
        raise RecordError("The record's 'result.scores' field must be a list of numbers, one per player.")
    finished = value.get("finished")
    if finished is not None and not isinstance(finished, bool):
        raise RecordError(f"The record's 'result.finished' field must be true or false, not "
                          f"{shown_value(finished, 30)}.")
    return text, scores, finished


def match_from_record(data, autosave: str | None = None, verify_result: bool = True) -> Match:
    """The match a record describes, every move replayed with legality checks; RecordError with one sentence naming
    the field or ply otherwise. With `verify_result`, the stored result (text and scores) must be the engine's."""
    if not isinstance(data, dict):
        raise RecordError("A record must be a JSON object.")
    if _field(data, "format", str) != FORMAT:
        raise RecordError(f"The record's 'format' must be '{FORMAT}', not '{shown_text(data['format'], 40)}'.")
    version = _field(data, "format_version", int)
    if version > FORMAT_VERSION:
        raise RecordError(f"The record has format version {shown_value(version, 20)}; this towerworld reads up to "
                          f"{FORMAT_VERSION}. Update towerworld to open it.")
    if version < 1:
        raise RecordError(f"The record's format version {version} does not exist.")
    name = _field(data, "game", str)
    try:
        game = get_game(name)
    except TowerworldError:
        raise RecordError(f"There is no game called '{shown_text(name, 40)}' "
                          f"(games: {', '.join(names())}).") from None
    options = _field(data, "options", dict, required=False, default={})
    variant = _field(data, "variant", str, required=False)
    if version == 1:
        _field(data, "seed", int)                      # required in v1, but every chance outcome is in 'moves'
    else:
        seed = _field(data, "seeded", int, required=False)
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise RecordError(f"The record's 'seeded' field must be a seed from 0 to {MAX_SEED}, "
                              f"not {shown_value(seed, 30)}.")
    for stamp in ("created", "updated"):
        _field(data, stamp, str, required=False)
    players = _players(_field(data, "players", list), game)
    moves = _field(data, "moves", list)
    stored = _stored_result(data, version)
    try:
        # never seeded: the file's `seeded` says how its moves were drawn, and no file steers what is drawn next (a
        # resumed game draws live chance from OS entropy, so `seeded` written into an autosave predicts nothing)
        match = Match(game, options=options, players=players, variant=variant)
    except TowerworldError as e:
        raise RecordError(f"The record's setup is not valid: {shown_text(str(e), 300)}") from None
    if len(moves) > game.max_plies:
        raise RecordError(f"The record has {len(moves)} moves, more than a game of {game.title} can last "
                          f"({game.max_plies}).")
    for ply, text in enumerate(moves, start=1):
        if not isinstance(text, str) or not text or len(text) > MAX_MOVE_TEXT:
            raise RecordError(f"Ply {ply}: a move must be a short text, not {shown_value(text, 30)}.")
        try:
            match.apply_text(text, save=False)
        except TowerworldError as e:
            raise RecordError(f"Ply {ply} ('{shown_text(text, 30)}'): {shown_text(str(e), 300)}") from None
    _replay_revealed(match, _field(data, "revealed", list, required=False, default=[]) if version >= 3 else [])
    if verify_result and stored is not None:
        _compare_result(match, *stored)
    match.created = data.get("created")
    match.autosave_path = autosave
    return match


def _replay_revealed(match: Match, lines: list) -> None:
    """Replay the lines taken back (`revealed`) with legality checks and keep their chance outcomes."""
    if len(lines) > MAX_LINES:
        raise RecordError(f"The record's 'revealed' field holds {len(lines)} lines, more than {MAX_LINES}.")
    total = 0
    for n, line in enumerate(lines, start=1):
        where = f"The record's 'revealed' line {n}"
        if not isinstance(line, dict) or set(line) != {"at", "moves"}:
            raise RecordError(f"{where} must be an object with 'at' and 'moves' only.")
        at, texts = line["at"], line["moves"]
        if not _is(at, int) or not 0 <= at <= len(match.plies):
            raise RecordError(f"{where}: 'at' must be a ply from 0 to {len(match.plies)}, not {shown_value(at, 30)}.")
        if not isinstance(texts, list) or not texts or len(texts) > match.game.max_plies:
            raise RecordError(f"{where}: 'moves' must be a list of 1 to {match.game.max_plies} moves.")
        total += len(texts)
        if total > MAX_LINE_MOVES:
            raise RecordError(f"The record's 'revealed' lines hold more than {MAX_LINE_MOVES} moves.")
        start = state = match.state_at(at)
        moves = []
        for k, text in enumerate(texts, start=1):
            if not isinstance(text, str) or not text or len(text) > MAX_MOVE_TEXT:
                raise RecordError(f"{where}, move {k}: a move must be a short text, not {shown_value(text, 30)}.")
            if match.game.current_player(state) == TERMINAL:
                raise RecordError(f"{where}, move {k} ('{shown_text(text, 30)}'): the game is already over.")
            try:
                move = match.game.parse_move(state, text)
                state, _ = match.game.apply(state, move)
            except TowerworldError as e:
                raise RecordError(f"{where}, move {k} ('{shown_text(text, 30)}'): "
                                  f"{shown_text(str(e), 300)}") from None
            moves.append(move)
        match.keep_line(at, start, list(texts), moves)


def _compare_result(match: Match, text: str, scores: list | None, finished: bool | None) -> None:
    """RecordError when the stored result is not what replaying the moves gives (a wrong winner, title or score, or a
    finished game said to be unfinished, which would be offered for resume)."""
    actual = result_of(match)
    if finished is not None and finished != actual["finished"]:
        raise RecordError(f"The record's result says the game is {'finished' if finished else 'unfinished'}, but "
                          f"its moves {'leave it unfinished' if finished else 'finish it'}.")
    if text != actual["text"]:
        raise RecordError(f"The record's result says '{shown_text(text, 60)}', but its moves give "
                          f"'{shown_text(actual['text'], 60)}'.")
    if scores is not None and list(scores) != actual["scores"]:
        raise RecordError(f"The record's scores say {shown_value(scores, 40)}, but its moves give "
                          f"{shown_value(actual['scores'], 40)}.")


def load_match(path: str, autosave: str | None = None, verify_result: bool = True) -> Match:
    """Read, validate and replay a record file; RecordError with one sentence otherwise."""
    return match_from_record(read_record_file(path), autosave=autosave, verify_result=verify_result)
