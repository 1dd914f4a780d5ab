"""Where games are saved: one autosave per unfinished game, saves by hand, and the list Ctrl-O shows."""
from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass

from towerworld.engine.record import RecordError, is_temp_file, read_record_file
from towerworld.engine.safe_text import shown_text
from towerworld.engine.words import counted

SAVE_DIR = os.path.join(os.path.expanduser("~"), ".towerworld", "saves")
STALE_TEMP_SECONDS = 60.0
LIST_BYTES = 1024 * 1024            # a save bigger than this is left out of the lists by its size alone (a long game
                                    # is ~40 kB); `play --load` still opens it
LABEL_PLAYERS = 34                  # characters of player names a save's label keeps


def writable_dir(folder: str | None = None) -> bool:
    folder = folder or SAVE_DIR
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def clean_stale_temps(folder: str | None = None) -> int:
    """Remove temp files left by a save that was killed half-way (older than a minute, so a save in progress in
    another window is left alone): the window does this as it starts. Returns how many went."""
    folder = folder or SAVE_DIR
    gone = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    now = time.time()
    for name in names:
        if is_temp_file(name):
            path = os.path.join(folder, name)
            try:
                if now - os.path.getmtime(path) > STALE_TEMP_SECONDS:
                    os.unlink(path)
                    gone += 1
            except OSError:
                pass
    return gone


def autosave_path(game: str, folder: str | None = None) -> str | None:
    """A new autosave file for a new game of `game` (earlier unfinished games keep theirs); None when no folder can
    be written."""
    folder = folder or SAVE_DIR
    if not writable_dir(folder):
        return None
    clean_stale_temps(folder)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(folder, f"autosave-{game}-{stamp}.tower.json")
    k = 1
    while os.path.exists(path):
        k += 1
        path = os.path.join(folder, f"autosave-{game}-{stamp}-{k}.tower.json")
    return path


@dataclass(frozen=True)
class SaveInfo:
    path: str
    game: str
    players: str
    plies: int
    finished: bool
    mtime: float
    autosave: bool
    played: int | None = None   # the players' moves (chance draws left out); None: the record does not say

    @property
    def label(self) -> str:
        """One line for a button in a list of one game's saves: who played, how far, when. The game is not named
        (the list is already that game's), and only the players are shortened, so the date is never cut."""
        when = time.strftime("%d %b %H:%M", time.localtime(self.mtime))
        kind = "autosave" if self.autosave else "save"
        if self.finished:
            state = "finished"
        elif self.played is None:       # (a record that does not count its players' moves: its plies, chance's too)
            state = f"move {self.plies}"
        else:
            state = counted(self.played, "move") + " played" if self.played else "no move yet"
        return f"{shown_text(self.players, LABEL_PLAYERS)}: {state}, {when} ({kind})"


def _peek(path: str, mtime: float) -> SaveInfo | None:
    """The few facts a list needs, read cheaply and defensively (a damaged file is simply left out)."""
    try:
        data = read_record_file(path)      # regular files only, size and JSON limits: a FIFO does not hang the list
        # a seat's name whole ("AI 2, fair search (strong)"): the label cuts the whole list, with "..." where it does
        players = ", ".join(str(p.get("name", "?"))[:32] for p in data.get("players", [])[:6])
        result = data.get("result")
        plies = len(data.get("moves", []))
        played = None
        if isinstance(result, dict):       # format v2: {text, scores, finished}, and since v3 `played`
            finished = bool(result.get("finished"))
            said = result.get("played")
            if type(said) is int and 0 <= said <= plies:
                played = said
        else:
            finished = bool(result) and result != "in progress"
        return SaveInfo(path, str(data["game"])[:30], players, plies, finished,
                        mtime, os.path.basename(path).startswith("autosave-"), played)
    except (RecordError, OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _candidates(folder: str, autosaves_only: bool = False, game: str | None = None) -> list[tuple[float, str]]:
    """(mtime, path) of the files that may be saves, newest first, from one look at the folder: regular files named
    *.tower.json, no temp file, none bigger than LIST_BYTES (a planted big file costs this size check, no read)."""
    out = []
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                name = e.name
                if not name.endswith(".tower.json") or name.startswith(".tmp-"):
                    continue
                if autosaves_only and not (name.startswith("autosave-") and
                                           (game is None or name.startswith(f"autosave-{game}-"))):
                    continue
                try:
                    info = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode) and info.st_size <= LIST_BYTES:
                    out.append((info.st_mtime, e.path))
    except OSError:
        return []
    return sorted(out, key=lambda c: -c[0])


def list_saves(folder: str | None = None, game: str | None = None, limit: int | None = None) -> list[SaveInfo]:
    """Saves and autosaves (of `game`, if named), newest first; files are read newest first, and no further than
    `limit` found."""
    found: list[SaveInfo] = []
    for mtime, path in _candidates(folder or SAVE_DIR):
        info = _peek(path, mtime)
        if info is not None and (game is None or info.game == game):
            found.append(info)
            if limit is not None and len(found) >= limit:
                break
    return found


def unfinished(game: str, folder: str | None = None, limit: int | None = None) -> list[SaveInfo]:
    """Autosaves of unfinished games of `game`, newest first (what `play GAME` offers to resume): the files named
    as its autosaves are read newest first, and no further than `limit` found."""
    found: list[SaveInfo] = []
    for mtime, path in _candidates(folder or SAVE_DIR, autosaves_only=True, game=game):
        info = _peek(path, mtime)
        if info is not None and info.autosave and info.game == game and not info.finished:
            found.append(info)
            if limit is not None and len(found) >= limit:
                break
    return found


def _settings_path() -> str:
    return os.path.join(os.path.dirname(SAVE_DIR), "window.json")


def remember_window_size(width: int, height: int) -> None:
    """Keep the window size for the next start (best effort: a settings file that cannot be written is no error)."""
    try:
        os.makedirs(os.path.dirname(_settings_path()), exist_ok=True)
        with open(_settings_path(), "w", encoding="utf-8") as f:
            json.dump({"width": int(width), "height": int(height)}, f)
    except OSError:
        pass


def remembered_window_size() -> tuple[int, int] | None:
    try:
        with open(_settings_path(), encoding="utf-8") as f:
            data = json.load(f)
        w, h = int(data["width"]), int(data["height"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (w, h) if 320 <= w <= 8192 and 240 <= h <= 8192 else None
