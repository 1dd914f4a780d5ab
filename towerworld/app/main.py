"""The application as a small state machine: Menu (the start screen) -> Play (a table) -> back to Menu, and Replay.

One ShowBase for the whole run (app.window); each state builds its room on enter and takes it down on exit (setup and
cleanup in pairs, as Panda3D's samples do): the start screen (app.menu), the play table (app.play) or the replay
table (app.replay), both built on the shared table (app.table). The rooms never import this module. A room's modules
load when it is first entered, so the start screen shows before the table's scene modules are read.
"""
from __future__ import annotations

import gc
import os

from direct.fsm.FSM import FSM

# Everything imported so far (Python's and Panda3D's modules) lives as long as the program: out of the collector's
# reach, the collections that the imports below and the table's startup make walk only what they made (a walk of
# Panda3D's objects took 1-6 ms each time, twice on the way to the first frame). See run_app, which goes on from here.
gc.freeze()

from towerworld.ai.agents import agent_words  # noqa: E402
from towerworld.app import saves  # noqa: E402
from towerworld.app.window import open_base, run_loop  # noqa: E402
from towerworld.engine.game import TowerworldError  # noqa: E402
from towerworld.engine.match import Match, PlayerSpec  # noqa: E402
from towerworld.engine.record import load_match  # noqa: E402
from towerworld.engine.registry import get_game  # noqa: E402

__all__ = ["App", "match_from_setup", "open_base", "run_app", "run_loop"]


def match_from_setup(setup) -> Match:
    """A live match from the start screen's choices (chance from OS entropy)."""
    game = get_game(setup.game)
    players = [PlayerSpec(f"Player {i + 1}") if seat == "human" else
               PlayerSpec(f"AI {i + 1}, {agent_words(seat, game)}", "ai", seat) for i, seat in enumerate(setup.seats)]
    return Match(game, options=dict(setup.options), players=players, variant=setup.variant)


class App(FSM):
    def __init__(self, base, size=(1280, 800), frames: int | None = None):
        FSM.__init__(self, "towerworld")
        self.base = base
        self.size = size
        self.frames = frames
        self.screen = None     # the start screen or the table on show
        self.physics = False   # physical crumbles at the table (--physics, key P)
        self.server = None     # the server a room hosted from the start screen is served by

    # ---- states ------------------------------------------------------------------------------------------------------
    def enterMenu(self):
        from towerworld.app.menu import StartScreen
        self.base.setBackgroundColor(0.07, 0.09, 0.13, 1)
        self.screen = StartScreen(self.base, on_start=self._start, on_resume=self._resume, on_quit=self.quit,
                                  on_host=self._host, on_join=lambda invite: self.request("Remote", invite))

    def exitMenu(self):
        self.screen.destroy()
        self.screen = None

    def enterPlay(self, match: Match, level=None, resume=()):
        from towerworld.app.play import PlayTable
        self.screen = PlayTable(match, self.size, level=level, frames=self.frames)
        self.screen.physics = self.physics
        self.screen.on_leave = lambda: self.request("Menu")
        if resume:
            self.screen.offer_resume(resume, lambda path: self.request("Play", self._load(path), level))

    @staticmethod
    def _load(path: str) -> Match:
        return load_match(path, autosave=path)

    def exitPlay(self):
        self.screen.close()
        self.screen = None
        gc.unfreeze()       # the first table was frozen with the rest of startup (see run_app): now it may go

    def enterReplay(self, match: Match, speed: float = 1.0):
        from towerworld.app.replay import ReplayTable
        self.screen = ReplayTable(match, self.size, speed=speed, frames=self.frames)
        self.screen.on_leave = lambda: self.request("Menu")

    def exitReplay(self):
        self.screen.close()
        self.screen = None

    def enterRemote(self, invite: str, note: str = ""):
        from towerworld.app.remote import RemoteTable
        self.screen = RemoteTable(invite, size=self.size, frames=self.frames, note=note)
        self.screen.on_leave = lambda: self.request("Menu")

    def exitRemote(self):
        self.screen.close()
        self.screen = None

    # ---- transitions -------------------------------------------------------------------------------------------------
    def _start(self, setup):
        try:
            match = match_from_setup(setup)
        except TowerworldError as e:
            self.screen.say(str(e)) if hasattr(self.screen, "say") else None
            return
        self.request("Play", match)

    def _host(self, setup):
        """A room for the setup on a server in this process (port 8765, or a free one): the host takes the first
        person's seat, and the invite for the others stands above the table."""
        from towerworld.net.client import create_room, parse_invite, reachable_address
        from towerworld.net.local import ServerThread
        try:
            if self.server is None:
                self.server = ServerThread(os.path.join(os.path.dirname(saves.SAVE_DIR), "rooms"), "0.0.0.0", 8765)
            seats = ["remote" if seat == "human" else seat for seat in setup.seats]
            options = {k: ("true" if v is True else "false" if v is False else str(v))
                       for k, v in setup.options.items()}
            code = self.server.call(create_room(self.server.url, setup.game, seats, setup.variant, options))
        except (TowerworldError, OSError) as e:
            print(f"towerworld: {e}")
            return
        invite = f"ws://{reachable_address()}:{self.server.port}/{code}"
        parse_invite(invite)
        self.request("Remote", f"{self.server.url}/{code}", f"Invite: {invite}")

    def _resume(self, path: str):
        try:
            match = load_match(path, autosave=path)
        except TowerworldError as e:
            print(f"towerworld: {e}")
            return
        self.request("Play", match)

    def quit(self):
        if self.server is not None:
            self.server.stop()
        self.base.userExit()

    def run(self) -> int:
        return run_loop(self.base, self.frames)


def run_app(size=(1280, 800), frames: int | None = None, match: Match | None = None, level=None,
            resume=(), physics: bool = False) -> int:
    """Open the window on the start screen, or straight at a table for `match` (offering to resume the unfinished
    games in `resume` instead)."""
    # No collections until the first frame is shown: startup makes some hundred thousand objects that live as long
    # as the window (modules, Panda3D's types, the scene), and each collection before the first frame walked them
    # again (tens of ms of the startup). After that frame they are frozen out of the collector's reach.
    gc.disable()
    try:
        base = open_base(size, offscreen=frames is not None)
        app = App(base, size, frames)
        app.physics = physics
        if match is None:
            app.request("Menu")
        else:
            app.request("Play", match, level, list(resume))
        base.taskMgr.add(_first_frame_shown, "first-frame-shown", sort=FIRST_FRAME_SORT)
        return app.run()
    finally:
        gc.enable()


FIRST_FRAME_SORT = 60       # after ShowBase's igLoop (50), which draws the frame


def _first_frame_shown(task):
    gc.freeze()
    gc.enable()
    return task.done
