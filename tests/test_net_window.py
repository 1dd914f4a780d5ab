"""The window as a network client: it joins a room as its seat, draws only the layout the server sends that seat,
and plays a whole game (its legal moves are its buttons) against an AI seated on the server."""
from __future__ import annotations

import re
import time

import pytest

from towerworld.engine.game import TERMINAL
from towerworld.net import client as C
from towerworld.net.local import ServerThread


def watch_buttons(table) -> list[str]:
    """The words of every button of `table` pressed from now on, in order (each button the window shows still does
    what it did)."""
    pressed: list[str] = []
    set_buttons = table.hud.set_buttons

    def watched(actions, vertical=False):
        set_buttons([(label, (lambda label=label, f=f: (pressed.append(label), f())[1])) for label, f in actions],
                    vertical)
    table.hud.set_buttons = watched
    return pressed


def joined(showbase, srv, game: str, seats: list[str], until, limit: float = 60.0):
    """A window at a new room of `game` on `srv`, its tasks run until `until(window)` holds (or `limit` seconds):
    (the window, the server's room)."""
    from towerworld.app.remote import RemoteTable
    code = srv.call(C.create_room(srv.url, game, seats))
    table = RemoteTable(f"{srv.url}/{code}", frames=1)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and not until(table):
        showbase.taskMgr.step()
    return table, srv.server.rooms[code]


@pytest.fixture
def window_at(showbase, tmp_path, monkeypatch):
    """`window_at(game, seats, until)`: a window at a new room on a local server (see `joined`); the window is
    closed and the server stopped after the test."""
    monkeypatch.setenv("HOME", str(tmp_path))
    srv = ServerThread()
    opened = []

    def open_window(game: str, seats: list[str], until):
        table, room = joined(showbase, srv, game, seats, until)
        opened.append(table)
        return table, room
    yield open_window
    for table in opened:
        table.close()
    srv.stop()


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
                # the instruction line tells this seat what to do, in the game's words
                said = table._with_names(room.game.prompt(room.match.state, table.seat), view.room)
                assert table.hud.instruction.getText() in ("Your turn: " + said, "Your turn: " + said[:1].lower()
                                                           + said[1:])
                # the lines about the whole table read as the local table's do: "36 cards in the draw pile" (its
                # value names itself), "your hand: Forest (5), ..." (the cards alone said nothing of whose they are)
                status = table.hud.status.textNode.getText()
                assert "in the draw pile" in status and "pile: " not in status and "your hand: " in status
                shown_own = True
                ply = view.table.ply
                # the first legal move, made as a person makes it at the local table: each pick lit (a piece or
                # place) or a button in the game's words, clicked in turn
                state = room.match.state
                move = room.game.legal_moves(state)[0]
                spatial = set(table.stage.nodes) | set(table.stage.cells)
                for step in room.game.picks(state, move):
                    for pick in (sorted(step) if isinstance(step, frozenset) else (step,)):
                        if pick in spatial:
                            assert pick in table.stage.targets, f"{pick} is not lit"
                            table.choose(pick)
                        else:
                            words = room.game.describe_pick(state, table.picks, pick)
                            button = next(b for b in table.hud.buttons
                                          if b["text"] == words[:1].upper() + words[1:])
                            button["command"]()
                if table.picks:
                    table.commit_exact()
                while table.view.table.ply == ply and time.monotonic() < deadline:
                    showbase.taskMgr.step()
                if table.view.table.to_move != TERMINAL:
                    assert room.match.plies[ply].text == room.game.format_move(state, move)
        assert table.seat == 0 and shown_own
        assert table.view.table.to_move == TERMINAL and room.match.over
        assert table.view.table.result == room.match.result_text()
        assert room.match.players[0].name == "Ann"
    finally:
        if table is not None:
            table.close()
        srv.stop()


def test_an_agent_plays_the_window_through_its_clicks_and_the_words_a_move_needs(showbase, tmp_path, monkeypatch):
    """`join --agent random --window` at a Carcassonne table: the window makes its seat's moves as a person makes
    them, a click on the lit place, then the buttons of the words the tile needs (which way it lies, no follower),
    never a move's notation."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.remote import RemoteTable
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "carcassonne", ["remote", "random"]))
        table = RemoteTable(f"{srv.url}/{code}", frames=1, agent="random")
        table.pause = 0.0
        pressed = watch_buttons(table)
        chosen = []
        choose = table.choose
        table.choose = lambda pick: (chosen.append(pick), choose(pick))[1]
        room = srv.server.rooms[code]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and sum(p.mover == 0 for p in room.match.plies) < 6:
            showbase.taskMgr.step()
        match = room.match
        own = [p for p in match.plies if p.mover == 0]
        assert len(own) >= 6
        assert any(w == "As drawn" or w.startswith("Turned ") for w in pressed), pressed
        assert any(pick.startswith("at:") for pick in chosen), "no tile was placed by a click on its place"
        assert not set(pressed) & {p.text for p in match.plies}, "a button named a move's notation"
        assert not any(w.startswith("More (") for w in pressed)
    finally:
        if table is not None:
            table.close()
        srv.stop()


def test_an_agent_plays_the_window_through_the_list_of_moves(showbase, tmp_path, monkeypatch):
    """M at the window lists the legal moves as buttons: the window makes its seat's moves itself by pressing the
    buttons a person clicks, each naming its move in words (turning pages with More where the move is not on the
    first), to the end of a Carcassonne game."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.app.remote import RemoteTable
    from towerworld.engine.words import with_names
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "carcassonne", ["remote", "random"]))
        table = RemoteTable(f"{srv.url}/{code}", frames=1, agent="random")
        table.pause = 0.0
        table.toggle_list()
        pressed = watch_buttons(table)
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
        assert own and [t for t in pressed if not t.startswith("More (") and t != "Pick on the table"] == own
        assert not set(pressed) & {p.text for p in match.plies}
        # one panel a player, as the local table shows them, named as the room seats them
        views = table.hud.panel_views
        assert [v.title for v in views] == [p.name for p in match.players]
        assert [v.score for v in views] == [p.score for p in game.panels(match.state, table.seat)]
        # the end says the result once, in the players' names, and how to leave ("The game is over." said neither)
        result = with_names(match.result_text(), [p.name for p in match.players])
        assert table.hud.instruction.getText() == f"Game over. {result} Q leaves the table."
        assert result not in table.hud.status.textNode.getText()
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


def test_a_click_on_a_lit_place_picks_it_a_wrong_pick_is_told_and_a_cheat_is_asked_first(showbase, tmp_path,
                                                                                          monkeypatch):
    """A solitaire Ziggurat at the network window. A mouse click on a lit piece picks it; a pick that leads to no
    legal move is told in a sentence and nothing is sent. Seed: "Every domino picked up from the ziggurat and
    replaced is counted as a cheat": the window asks before a cheat, as the local table does, and sends it only
    once the player confirms."""
    monkeypatch.setenv("HOME", str(tmp_path))
    from panda3d.core import Point2, Point3

    from towerworld.app.remote import RemoteTable
    srv = ServerThread()
    table = None
    try:
        code = srv.call(C.create_room(srv.url, "ziggurat", ["remote"]))
        table = RemoteTable(f"{srv.url}/{code}", frames=1)
        room = srv.server.rooms[code]
        deadline = time.monotonic() + 60

        def settle(after):
            """Until the window shows the table after ply `after` (a move and the draws told with it)."""
            while time.monotonic() < deadline and (table.view is None or table.view.table.ply <= after):
                showbase.taskMgr.step()
            assert table.view.table.ply > after, "the window was never sent the table after the move"
        settle(-1)
        # a mouse click on the first lit piece picks it
        lit = next(pid for pid in table.stage.targets if pid in table.stage.nodes)
        node = table.stage.nodes[lit]
        seen = table.base.cam.getRelativePoint(table.base.render, node.getPos(table.base.render) + Point3(0, 0, 3))
        film = Point2()
        assert table.base.camLens.project(seen, film)
        table.on_click((film.x, film.y))
        assert table.picks == [lit]
        table.clear_picks()
        # a pick no legal move starts with: one sentence, nothing sent
        ply = table.view.table.ply
        table.choose("pile:0")
        assert table.hud.message.getText() == "That is not a legal move here: pick one of the lit pieces or places."
        assert table.picks == [] and len(room.match.plies) == ply
        # moves without a question until one with a question (a cheat) is legal
        while not table.view.table.asks and time.monotonic() < deadline:
            free = next(t for t in table.view.table.legal if t not in table.view.table.asks)
            table._click(free)
            settle(ply)
            ply = table.view.table.ply
        cheat, question = next(iter(table.view.table.asks.items()))
        assert question == room.game.confirm_text(room.match.state, room.game.parse_move(room.match.state, cheat), 0)
        path = table.view.table.paths[table.view.table.legal.index(cheat)]
        for step in path:
            for pick in (step if isinstance(step, list) else [step]):
                table.choose(pick)
        assert table.confirming == cheat and question in table.hud.message.getText()
        for _ in range(5):
            showbase.taskMgr.step()
        assert len(room.match.plies) == ply, "a cheat was sent before it was confirmed"
        assert [b["text"] for b in table.hud.buttons][:2] == ["Confirm", "Cancel"]
        table.commit_exact()
        settle(ply)
        assert room.match.plies[ply].text == cheat
        # H: the game's rules in its own words, then this window's keys
        table.toggle_help()
        shown = table.hud.help_text.getText()
        assert not table.hud.help.isHidden() and "M: list the legal moves as buttons" in shown
        name, rest = room.game.help_text().strip().splitlines()[0].strip().split(" - ", 1)
        assert re.sub(r"\x01[^\x01]*\x01|\x02", "", shown).startswith(f"{name}\n{rest[:1].upper()}{rest[1:]}")
        table.toggle_help()
        assert table.hud.help.isHidden()
    finally:
        if table is not None:
            table.close()
        srv.stop()


def test_the_pointer_shows_the_tile_where_it_rests_r_turns_it_and_a_click_lays_it_so(showbase, window_at):
    """Carcassonne at the network window, as at the local table ("click a glowing place for the tile; the R key
    turns it"): the drawn tile's ghost shows on the place under the pointer, R turns it to its next legal way, and a
    click there lays the tile that way."""
    from panda3d.core import Point2, Point3

    from towerworld.scene.components import shapes
    shapes._TEXTS.clear()                     # the words of every label drawn from here on
    table, room = window_at("carcassonne", ["remote", "random"],
                            lambda t: t.view is not None and bool(t.view.table.previews))
    deadline = time.monotonic() + 60
    sent = table.view.table
    assert table.hud.closeup is not None and table.hud.closeup.active, "the tile to place is not shown enlarged"
    # the score plaques name the players as the panels do ("AI 2, random: 0"; they said "Player 2: 0")
    drawn = [key[0] for key in shapes._TEXTS]
    ai = room.match.players[1].name
    assert any(w.startswith(f"{ai}: ") for w in drawn) and not any(w.startswith("Player 2") for w in drawn), drawn
    ways: dict[str, list[str]] = {}
    for key in sent.previews:
        place, way = key.split(" ", 1)
        ways.setdefault(place, []).append(way)
    place = max(ways, key=lambda p: len(ways[p]))        # a place where the tile may lie more than one way
    assert len(ways[place]) >= 2, ways
    table.preview_at(place)
    first = {n.getPos() for n in table.stage.ghosts_root.getChildren()}
    assert first and table.stage.ghost_poses, "no ghost where the pointer rests"
    table.turn_preview(1)
    assert table.hover_choice == 1 and table.stage.ghost_poses != {}
    turned = {pid: pose.heading for pid, pose in table.stage.ghost_poses.items()}
    want = sent.previews[f"{place} {ways[place][1]}"]
    assert turned == {p.id: p.heading for p in want}
    # a click on that place lays the tile as the ghost shows it
    cell = next(c for c in sent.cells if c.id == place)
    seen = table.base.cam.getRelativePoint(table.base.render, Point3(cell.x, cell.y, cell.z))
    film = Point2()
    assert table.base.camLens.project(seen, film)
    ply = sent.ply
    table.on_click((film.x, film.y))
    while time.monotonic() < deadline and len(room.match.plies) <= ply:
        showbase.taskMgr.step()
    made = sent.legal[[P_path[:2] for P_path in sent.paths].index([place, ways[place][1]])]
    assert room.match.plies[ply].text == made


def test_the_window_rebuilds_the_close_up_and_the_close_view_the_server_sends():
    """The network window draws the layout the server sends: the tile to place, shown enlarged at the local table
    (`Layout.closeup`), and the close view of the tile just laid while its player picks a follower place
    (`Layout.focus`) come through the wire as the game made them; a table without them has neither."""
    import random

    import msgspec

    from towerworld.app.remote import layout_of
    from towerworld.engine.game import CHANCE, draw_outcome
    from towerworld.engine.registry import get_game
    from towerworld.net import protocol as P
    game = get_game("carcassonne")
    state, rng = game.new_state(None, 2), random.Random(4)
    seen = {"closeup": 0, "focus": 0}
    for ply in range(40):
        mover = game.current_player(state)
        if mover == TERMINAL:
            break
        viewer = mover if mover != CHANCE else 0
        made = game.layout(state, viewer)
        wire = msgspec.json.encode(P.table_for(game, state, viewer, ply))
        rebuilt = layout_of(msgspec.json.decode(wire, type=P.Table))
        assert (rebuilt.closeup, rebuilt.focus) == (made.closeup, made.focus)
        seen["closeup"] += made.closeup is not None
        seen["focus"] += made.focus is not None
        move = draw_outcome(game.chance_outcomes(state), rng) if mover == CHANCE else \
            rng.choice(game.legal_moves(state))
        state, _ = game.apply(state, move)
    assert seen["closeup"] and seen["focus"], seen


def test_the_window_moves_its_camera_as_the_local_table_does_and_follows_the_landscape(showbase, tmp_path,
                                                                                       monkeypatch):
    """The network window framed its first table once and could not be turned, zoomed or panned, so a growing
    landscape went out of sight: it moves its camera as the local table does (the keys here; the mouse drives the
    same view), its home view follows the table while the player has not moved the camera, and closing the window
    takes its tasks and its shadow buffer away."""
    import copy
    import random

    monkeypatch.setenv("HOME", str(tmp_path))
    from towerworld.engine.registry import get_game
    game = get_game("carcassonne")
    engine = showbase.graphicsEngine
    windows = engine.getNumWindows()
    srv = ServerThread()
    table = None
    try:
        table, _room = joined(showbase, srv, "carcassonne", ["remote", "random"], lambda t: t.camera is not None)
        camera = table.camera
        assert camera is not None and camera.orbit == camera.home
        showbase.messenger.send("arrow_left")
        showbase.messenger.send("-")
        assert camera.orbit.heading != camera.home.heading and camera.orbit.distance > camera.home.distance
        showbase.messenger.send("home")
        assert camera.orbit == camera.home
        start = copy.copy(camera.home)
        grown = game.layout(game.random_playout(game.new_state(None, 2), random.Random(5)), 0)
        table._refit(grown)
        assert camera.home.distance > start.distance and camera.orbit == camera.home    # untouched: it follows
        camera.zoom(0.8)
        moved = copy.copy(camera.orbit)
        table._refit(game.layout(game.random_playout(game.new_state(None, 2), random.Random(6)), 0))
        assert camera.orbit == moved                                                     # moved: it stays
        ours = list(table.tasks)
        assert {t.name for t in ours} == {"camera-drag", "xray"}
    finally:
        if table is not None:
            table.close()
        srv.stop()
    assert all(t not in showbase.taskMgr.getAllTasks() for t in ours)
    showbase.graphicsEngine.renderFrame()
    assert engine.getNumWindows() == windows, "the window's shadow buffer outlived it"


def test_the_windows_status_speaks_of_the_room_in_one_line_as_the_local_table_does():
    """The network window stacked five lines over the table ("Carcassonne ..., room X: you are Player 1", the seats
    the panels already name, then each of the game's lines): the room, who this window is (by name) and the game's
    lines about the table run together on one line, as at the local table; the seats get a line only where no panels
    name them, or to say who is away."""
    from towerworld.app.remote import RemoteTable
    from towerworld.engine.game import SPECTATOR
    from towerworld.net import protocol as P
    window = object.__new__(RemoteTable)
    window.seat = 0
    seats = [P.Seat("Ann", "remote", held=True, connected=True), P.Seat("AI 2, greedy", "ai"),
             P.Seat("Bob", "remote", held=True, connected=False)]
    room = P.Room("R4XZ", "carcassonne", "Carcassonne with The Tower", seats=seats)
    hud = {"turn": "Player 1: place a tile", "bag": "88 tiles in the bag, 0 discarded", "tile": "Tile to place: a road"}
    panel = P.WirePanel(0, "Player 1", "0 points", (), True)
    drawn = P.Table(1, 0, [], [], [], hud, panels=[panel])
    assert window._room_lines(drawn, room) == [
        "Carcassonne with The Tower, room R4XZ: you are Ann   |   88 tiles in the bag, 0 discarded   |   "
        "Tile to place: a road", "Away: Bob"]
    bare = P.Table(1, 0, [], [], [], hud)
    assert window._room_lines(bare, room)[1] == "Ann  AI 2, greedy  Bob (away)"
    window.seat = SPECTATOR
    assert ": watching   |   " in window._room_lines(drawn, room)[0]
    # whom the window waits for: an AI's name says it is one ("Waiting for AI 2, greedy (AI)..." said it twice)
    assert window._instruction(P.Table(1, 1, [], [], [], hud), room) == "Waiting for AI 2, greedy\u2026"


def test_t_asks_the_server_for_a_hint_that_lights_the_move_and_enter_plays_it(showbase, window_at):
    """At the local table T suggests a move and Enter plays it; the network window had no hint. T asks the server
    (`suggest`, searched from what this seat may know): the move is named, its picks light up, Enter plays it, and
    a hint asked out of turn is refused in a sentence. Z takes back, as at the local table (U too)."""
    from towerworld.net import protocol as P
    table, room = window_at("kdak", ["remote", "random"], lambda t: t.view is not None and bool(t.view.table.legal))
    deadline = time.monotonic() + 60
    sent = table.view.table
    showbase.messenger.send("t")
    while time.monotonic() < deadline and table.hinted is None:
        showbase.taskMgr.step()
    assert table.hinted in sent.legal
    words = sent.words[sent.legal.index(table.hinted)]
    assert table.hud.message.getText().startswith(f"Hint: {words} ")
    path = [p for step in table._wire_paths()[sent.legal.index(table.hinted)]
            for p in (sorted(step) if isinstance(step, frozenset) else (step,)) if p in table._spatial()]
    assert path and all(table.stage.targets.get(p) == table.stage.targets.get(path[0]) for p in path)
    hinted, ply = table.hinted, sent.ply
    showbase.messenger.send("enter")
    while time.monotonic() < deadline and len(room.match.plies) <= ply:
        showbase.taskMgr.step()
    assert room.match.plies[ply].text == hinted
    while time.monotonic() < deadline and (table.view.table.to_move == table.seat or table.view.table.ply <= ply):
        showbase.taskMgr.step()
    if table.view.table.to_move != table.seat:
        table.ask_hint()
        assert table.hud.message.getText() == "A hint is for your own turn."
    sentences = []
    table.conn.send = lambda message: sentences.append(message)
    showbase.messenger.send("z")
    assert isinstance(sentences[-1], P.Undo)


def test_esc_drops_the_picks_or_opens_the_menu_as_at_the_local_table(showbase, window_at):
    """Esc at the network window only dropped the picks: with none it did nothing, and the way out was Q alone. As
    at the local table, Esc drops the picks if there are any, else opens the menu (Resume, Rules and keys, Leave the
    table), which takes no clicks on the table while it is open."""
    table, _room = window_at("ziggurat", ["remote"],
                             lambda t: t.view is not None and bool(t.view.table.legal) and t._clickable())
    lit = next(pid for pid in table.stage.targets if pid in table.stage.nodes)     # a domino in hand: no move yet
    table.choose(lit)
    assert table.picks == [lit]
    showbase.messenger.send("escape")
    assert table.picks == [] and not table.menu
    showbase.messenger.send("escape")
    buttons = [w["text"] for w in table.menu[1:]]
    assert buttons == ["Resume", "Rules and keys", "Leave the table"]
    assert not table._clickable(), "a click on the table went through the open menu"
    table.menu[2]["command"]()                                 # Rules and keys
    assert not table.menu and not table.hud.help.isHidden()
    table.toggle_help()
    showbase.messenger.send("escape")
    assert table.menu
    showbase.messenger.send("escape")
    assert not table.menu and table._clickable()
