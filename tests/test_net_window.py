"""The window as a network client: it joins a room as its seat, draws only the layout the server sends that seat,
and plays a whole game (its legal moves are its buttons) against an AI seated on the server."""
from __future__ import annotations

import asyncio
import threading
import time

from towerworld.engine.game import TERMINAL
from towerworld.net import client as C
from towerworld.net.server import Server


class ServerThread:
    """A server on its own event loop in a thread (the window's loop is Panda3D's)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.server = Server(None)
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(20)
        self.url = f"ws://127.0.0.1:{self.server.port}"

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.start("127.0.0.1", 0))
        self.ready.set()
        self.loop.run_forever()

    def call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def stop(self):
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_the_window_joins_as_its_seat_and_plays_a_whole_game(showbase, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.remote import RemoteTable
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "throwdown", ["remote", "random"]))
        table = RemoteTable(f"{srv.url}/{code}", name="Ann", frames=1)
        room = srv.server.rooms[code]
        deadline = time.monotonic() + 120
        shown_own = False
        while time.monotonic() < deadline:
            showbase.taskMgr.step()
            view = table.view
            if view is None:
                continue
            if view.table.to_move == TERMINAL:
                break
            if view.table.to_move == table.seat and view.table.legal:
                # what the stage shows is the seat's own layout, rebuilt from the wire
                assert set(table.stage.nodes) == {p.id for p in view.table.pieces}
                assert table.hud.buttons, "the legal moves are buttons"
                shown_own = True
                ply = view.table.ply
                table.hud.buttons[0]["command"]()          # as a click on the first button does
                while table.view.table.ply == ply and time.monotonic() < deadline:
                    showbase.taskMgr.step()
        assert table.seat == 0 and shown_own
        assert table.view.table.to_move == TERMINAL and room.match.over
        assert table.view.table.result == room.match.result_text()
        assert room.match.players[0].name == "Ann"
    finally:
        if table is not None:
            table.close()
        srv.stop()
