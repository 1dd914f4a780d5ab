"""The window as a network client: it joins a room as its seat, draws only the layout the server sends that seat,
and plays a whole game (its legal moves are its buttons) against an AI seated on the server."""
from __future__ import annotations

import time

from towerworld.engine.game import TERMINAL
from towerworld.net import client as C
from towerworld.net.local import ServerThread


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
                # the instruction line tells this seat what to do, in the game's words
                said = table._with_names(room.game.prompt(room.match.state, table.seat), view.room)
                assert table.hud.instruction.getText() in ("Your turn: " + said, "Your turn: " + said[:1].lower()
                                                           + said[1:])
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


def test_an_agent_plays_the_window_through_its_buttons(showbase, tmp_path, monkeypatch):
    """`join --agent random --window`: the window makes its seat's moves itself by pressing the buttons a person
    clicks, each naming its move in words (turning pages with More where the move is not on the first), to the end
    of a Carcassonne game."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.remote import RemoteTable
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "carcassonne", ["remote", "random"]))
        table = RemoteTable(f"{srv.url}/{code}", frames=1, agent="random")
        table.pause = 0.0
        pressed = []
        hud_buttons = table.hud.set_buttons

        def watched(actions, vertical=False):         # every button the window shows, and what pressing it did
            hud_buttons([(label, (lambda label=label, f=f: (pressed.append(label), f())[1])) for label, f in actions],
                        vertical)
        table.hud.set_buttons = watched
        room = srv.server.rooms[code]
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not room.match.over:
            showbase.taskMgr.step()
        for _ in range(20):
            showbase.taskMgr.step()
        assert room.match.over and table.view.table.to_move == TERMINAL
        game, match = room.match.game, room.match
        # each button says its move in a player's words, never its notation
        own = [game.describe_move(match.state_at(i), p.move) for i, p in enumerate(match.plies)
               if p.mover == table.seat]
        assert own and [t for t in pressed if not t.startswith("More (")] == own
        assert not set(pressed) & {p.text for p in match.plies}
        # one panel a player, as the local table shows them, named as the room seats them
        views = table.hud.panel_views
        assert [v.title for v in views] == [p.name for p in match.players]
        assert [v.score for v in views] == [p.score for p in game.panels(match.state, table.seat)]
        assert table.hud.instruction.getText() == "The game is over."
        assert any(t.startswith("More (") for t in pressed), "no move needed a second page of buttons"
    finally:
        if table is not None:
            table.close()
        srv.stop()


def test_the_window_animates_each_move_it_is_told_of(showbase, tmp_path, monkeypatch):
    """A move told to the window plays through the stage's transition (as at the local table), from the table shown
    before to the one sent after, and ends exactly on the layout the server sent."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.remote import RemoteTable
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "throwdown", ["remote", "random"]))
        table = RemoteTable(f"{srv.url}/{code}", frames=1, agent="random")
        table.pause, table.animate = 0.0, True
        started = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(started) < 3:
            showbase.taskMgr.step()
            if table.anim is not None and (not started or table.anim is not started[-1][0]):
                started.append((table.anim, table.view))
        assert len(started) == 3, "no move was animated"
        from panda3d.direct import CInterval
        for anim, view in started[:-1]:
            assert anim.getState() == CInterval.SFinal        # each was finished when the next table came
        anim, view = started[-1]
        anim.finish()
        assert {pid for pid in table.stage.nodes} == {p.id for p in view.table.pieces}
    finally:
        if table is not None:
            table.close()
        srv.stop()


def test_host_and_join_on_the_start_screen(showbase, tmp_path, monkeypatch):
    """Host serves the start screen's setup from this process and opens the table at the first person's seat, the
    invite above it; Join with that invite takes the next seat."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.main import App
    from towerworld.app.remote import RemoteTable
    app = App(showbase, frames=1)
    try:
        app.request("Menu")
        app.screen.pick("throwdown")
        app.screen.setup.seats = ["human", "human"]
        app.screen.host()
        host = app.screen
        assert isinstance(host, RemoteTable) and host.note.startswith("Invite: ws://")
        invite = host.note.split(": ", 1)[1]
        code = invite.rsplit("/", 1)[1]
        deadline = time.monotonic() + 30
        while (host.view is None or not host.view.room.seats[0].held) and time.monotonic() < deadline:
            showbase.taskMgr.step()
        assert host.seat == 0 and host.view.room.code == code
        app.request("Menu")                                  # the host leaves the table; the room stays served
        app.screen.invite.enterText(f"{app.server.url}/{code}")
        app.screen.join()
        guest = app.screen
        assert isinstance(guest, RemoteTable)
        while guest.view is None and time.monotonic() < deadline:
            showbase.taskMgr.step()
        assert guest.seat == 1 and [s.held for s in guest.view.room.seats] == [True, True]
        assert not guest.view.room.seats[0].connected
    finally:
        app.request("Menu")
        app.request("Off")
        if app.server is not None:
            app.server.stop()
