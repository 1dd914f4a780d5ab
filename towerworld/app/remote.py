"""The window as a network client: `towerworld join INVITE` opens the table as the seat it took (or as a spectator
with --watch), drawn from what the server sends that viewer and nothing else.

The connection runs in a thread of its own (an asyncio loop); the window's task takes what arrived each frame: the
stage shows the viewer's layout, the status lines the HUD and the seats (who is connected, the clock of the person to
move). When the seat is to move, it plays as at the local table: the pieces and places that carry a move on light up,
a click picks one, and the words a move needs (pass, or which way) are buttons; the server sends the clicks of every
legal move with the table, so nothing of the game runs here. M lists the legal moves as buttons instead (a page at a
time), as does a server that sends no clicks. Keys: Enter plays the move the picks make, Backspace takes back the last
pick and Esc all of them, U asks to take back your last move, Y and N answer another player's request, Q leaves.

With an agent (`join --agent NAME --window`) the window makes the seat's moves itself, through the same clicks a
person makes: `random` picks among the legal moves, any other agent's move is asked of the server (`suggest`).
"""
from __future__ import annotations

import asyncio
import queue
import random
import threading
import time

from direct.showbase.DirectObject import DirectObject

from towerworld.app.picks import each_pick, next_picks, path_progress, take_pick
from towerworld.app.view import CameraView, home_orbit
from towerworld.app.window import esc_menu, open_base, run_loop
from towerworld.engine.game import SPECTATOR, TERMINAL, Event, EventKind, TowerworldError
from towerworld.engine.layout import Cell, Layout, Pose
from towerworld.engine.registry import get_game
from towerworld.engine.words import counted, names_an_ai, table_parts, with_names
from towerworld.net import client as net
from towerworld.net import protocol as P
from towerworld.scene.hud import SWATCHES, Hud, PanelView, help_text
from towerworld.scene.picking import Picker
from towerworld.scene.setup import add_table, dress, fit_scene, undress
from towerworld.scene.stage import HIGHLIGHT_COSTLY, HIGHLIGHT_PICKED, HIGHLIGHT_TARGET, Stage

PAGE = 8              # legal moves shown as buttons at once
KEYS = ("Mouse: left-drag orbits, right-drag pans, the wheel zooms toward the pointer",
        "Arrows orbit, + and - zoom, W A S D pan, R or Home resets the view",
        "Click a lit piece or place: pick it (the words a move needs are buttons)",
        "Enter: play the move the picks make, or confirm",
        "Backspace: take back the last pick; Esc: all of them, or with none the menu",
        "R or the wheel: turn what the pointer previews (a tile's way)",
        "M: list the legal moves as buttons, or back to the table",
        "T: a hint, searched on the server from what your seat knows (Enter plays it)",
        "Z or U: ask to take back your last move; Y or N: answer such a request",
        "Q: leave the table",
        "H or F1 closes this help")
AGENT_PAUSE = 0.4     # seconds an agent playing the window waits before its click, so that each move is seen
HINT_AGENT = "greedy"  # the agent the server asks for a person's hint (T): quick, and it sees only the seat


def _frozen(value):
    """JSON lists back as the tuples a look is made of."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def events_of(msg: P.Played) -> list[Event]:
    """The events of a move and of the draws told with it, as the stage plays them (what this viewer was sent)."""
    wire = list(msg.events) + [e for step in msg.then for e in step.events]
    out = []
    for e in wire:
        try:
            kind = EventKind(e.kind)
        except ValueError:
            kind = e.kind
        out.append(Event(kind, tuple(e.pieces), e.text, e.reveals, areas=tuple(tuple(a) for a in e.areas)))
    return out


def layout_of(table: P.Table) -> Layout:
    """The viewer's layout, rebuilt from the table the server sent."""
    layout = Layout()
    for p in table.pieces:
        layout.pieces[p.id] = Pose(p.kind, p.x, p.y, p.z, p.heading, p.face_up, _frozen(list(p.look)), p.tilt)
    for c in table.cells:
        layout.cells[c.id] = Cell(c.x, c.y, c.z, c.w, c.d, c.label)
    for lab in table.labels:
        layout.labels[lab.id] = (lab.x, lab.y, lab.z, lab.text)
    if len(table.closeup) == 2:
        layout.closeup = (table.closeup[0], table.closeup[1])
    if len(table.focus) == 6:
        x0, y0, z0, x1, y1, z1 = table.focus
        layout.focus = (x0, y0, z0, x1, y1, z1)
    return layout


class Connection:
    """The client's websocket in a thread: `inbox` holds what arrived, `send` queues a message to go."""

    def __init__(self, invite: str, name: str | None, seat: int | None, watch: bool, token: str | None,
                 log: str | None):
        self.url, self.room = net.parse_invite(invite)
        self.invite, self.name, self.seat, self.watch, self.token = invite, name, seat, watch, token
        self.inbox: queue.Queue = queue.Queue()
        self.log = net.Log(log)
        self.loop = asyncio.new_event_loop()
        self.outbox: asyncio.Queue | None = None
        self.thread = threading.Thread(target=self._run, name="towerworld-net", daemon=True)
        self.thread.start()

    def send(self, message) -> None:
        if self.outbox is not None:
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, message)

    def close(self) -> None:
        if self.outbox is not None:
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, None)
        self.thread.join(timeout=3)
        self.log.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._session())
        except Exception as e:      # the window says it in one sentence
            self.inbox.put(P.Notice(str(e) if isinstance(e, net.ClientError) else
                                    f"The connection failed: {type(e).__name__}."))

    async def _session(self) -> None:
        self.outbox = asyncio.Queue()
        ws = await net.open_connection(self.url)
        if self.watch:
            await ws.send(P.encode(P.Watch(self.room)), text=True)
        elif self.token:
            await ws.send(P.encode(P.Join(self.room, token=self.token)), text=True)
        else:
            await ws.send(P.encode(P.Join(self.room, name=self.name, seat=self.seat)), text=True)

        async def writer():
            while (message := await self.outbox.get()) is not None:
                await ws.send(P.encode(message), text=True)
            await ws.close()
        task = asyncio.ensure_future(writer())
        try:
            async for frame in ws:
                self.log.write(frame)
                msg = P.decode_server(frame)
                if isinstance(msg, P.Joined) and msg.token and not self.watch:
                    net.remember_token(self.invite, msg.token)
                self.inbox.put(msg)
        finally:
            task.cancel()
        self.inbox.put(P.Notice("The server closed the connection."))


class RemoteTable:
    """The table of one seat (or a watcher) at a room on a server."""

    def __init__(self, invite: str, *, name=None, seat=None, watch=False, log=None, size=(1280, 800), frames=None,
                 token=None, note: str = "", agent: str | None = None):
        self.note = note          # a line above the table's (the invite, at the table of the one who hosts)
        self.on_leave = None      # the app's way back to the start screen (None: Q quits)
        self.base = open_base(size, offscreen=frames is not None, title="towerworld: network table")
        self.base.disableMouse()
        self.base.setBackgroundColor(0.78, 0.84, 0.9, 1)
        self.base.camLens.setFov(40)
        self.base.camLens.setNearFar(5, 20000)
        self.aspect = size[0] / size[1]
        self.scene = self.base.render.attachNewNode("remote-table")
        self.stage = Stage(self.scene)
        self.hud = Hud(self.base)
        self.stage.on_layout = self.hud.show_closeup
        self.stage.on_ghosts = self.hud.closeup_ghosts
        # the score plaques and seat labels name the players, as the panels do ("AI 2, greedy: 0", not "Player 2: 0")
        self.stage.label_words = lambda words: self._with_names(words, self.view.room) if self.view else words
        self.events = DirectObject()
        self.seat = SPECTATOR
        self.view: P.View | P.Played | None = None
        self.layout: Layout | None = None
        self.page = 0
        self.said = ""
        self.undo_asked: P.UndoAsked | None = None
        self.camera: CameraView | None = None   # made with the first table: the home view frames it
        self.tasks: list = []                     # the camera's tasks, removed at close
        self.agent, self.rng = agent, random.Random()
        self.choice: str | None = None       # the move the agent will click at this ply
        self.chosen_ply, self.click_at, self.pause = -1, 0.0, AGENT_PAUSE
        self.anim = None          # the stage's transition of the last move told, while it plays
        self.animate = frames is None     # offscreen runs (tests) show each table at once
        self.told: list[Event] = []       # the events of the move to animate next
        self.drawn: P.Table | None = None  # the table the stage was last sent to
        self.picker = Picker(self.base, self.stage)
        self.picks: list[str] = []          # the clicks of the move being made so far
        self._paths: tuple = (None, [])     # (a table, its legal moves' paths as read from the wire)
        self.confirming: str | None = None  # a move the table asks about before it is sent (Enter confirms)
        self.listing = False                # the legal moves as buttons (M), not clicks on the table
        self.conn = Connection(invite, name, seat, watch, token, log)
        self.task = self.base.taskMgr.add(self._poll, "remote-table-poll")
        self.pointer_task = self.base.taskMgr.add(self._pointer_task, "remote-table-pointer")
        # the place under the pointer whose move needs a word next (a tile's way), the ways it offers, the one shown
        self.hover: str | None = None
        self.hover_options: list[str] = []
        self.hover_choice = 0
        self.events.accept("enter", self.commit_exact)
        self.events.accept("backspace", self.back_pick)
        self.events.accept("escape", self.escape)
        self.menu: list = []                  # the Esc menu's widgets while it is open
        self.events.accept("m", self.toggle_list)
        self.events.accept("h", self.toggle_help)
        self.events.accept("f1", self.toggle_help)
        self.events.accept("u", lambda: self.conn.send(P.Undo()))
        self.events.accept("z", lambda: self.conn.send(P.Undo()))
        self.events.accept("t", self.ask_hint)
        self.hinted: str | None = None        # the move a hint suggests at this ply (Enter plays it)
        self.hint_ply = -1                    # the ply a hint was asked at
        self.events.accept("y", self._answer, [True])
        self.events.accept("n", self._answer, [False])
        self.events.accept("q", self.quit)

    def _answer(self, agree: bool) -> None:
        if self.undo_asked is not None:
            self.conn.send(P.UndoAnswer(agree))
            self.undo_asked = None

    def _poll(self, task):
        changed = False
        while True:
            try:
                msg = self.conn.inbox.get_nowait()
            except queue.Empty:
                break
            changed = True
            if isinstance(msg, P.Joined):
                self.seat = msg.seat
            elif isinstance(msg, (P.View, P.Played)):
                if self.view is None or msg.table.ply != self.view.table.ply:
                    self.picks, self.confirming = [], None      # picks were for the position before
                    self.hover, self.hover_options = None, []
                    self.hinted = None
                self.view = msg
                self.told = events_of(msg) if isinstance(msg, P.Played) else []
                told = [e.text for e in msg.events] + [e.text for step in msg.then for e in step.events] \
                    if isinstance(msg, P.Played) else []
                if any(told):
                    self.said = " ".join(text for text in told if text)
            elif isinstance(msg, P.Suggested):
                if self.agent is not None and msg.ply == self.chosen_ply:
                    self.choice = msg.text
                elif self.agent is None:
                    self._hint_came(msg)
            elif isinstance(msg, (P.Refused, P.Notice, P.UndoDone)):
                self.said = msg.text
                if isinstance(msg, P.Refused) and msg.of == "move":
                    self.chosen_ply = -1          # the agent chooses again
            elif isinstance(msg, P.UndoAsked):
                if msg.seat != self.seat and self.seat != SPECTATOR:
                    self.undo_asked = msg
                    self.said = msg.text + " (Y or N)"
        if changed:
            self.refresh()
        elif self.anim is not None and self.anim.isStopped():
            # the move's transition has ended: the places it brought (a tile's features) are the stage's now, to light
            self.anim = None
            if self._clickable():
                self.refresh()
        if self.agent is not None:
            self._agent_turn()
        return task.cont

    def _agent_turn(self) -> None:
        """The agent's move at this ply: chosen once, then clicked after a short pause."""
        if self.view is None:
            return
        table = self.view.table
        if table.to_move != self.seat or not table.legal:
            return
        if self.chosen_ply != table.ply:
            self.chosen_ply, self.choice = table.ply, None
            self.click_at = time.monotonic() + self.pause
            if self.agent.split(":", 1)[0] in net.CLIENT_AGENTS:
                self.choice = table.legal[self.rng.randrange(len(table.legal))]
            else:
                self.conn.send(P.Suggest(self.agent, table.ply))
            return
        if self.choice is not None and time.monotonic() >= self.click_at and self.choice in table.legal:
            self._click(self.choice)

    def _click(self, text: str) -> None:
        """Make move `text` as a person would: its clicks on the table, one by one (and the Confirm the table asks
        for), or in the list of moves, its button, turning the pages with the More button until it shows."""
        table = self.view.table
        if self._clickable():
            self.clear_picks()
            spatial = self._spatial()
            for pick in each_pick(self._wire_paths()[table.legal.index(text)]):
                said = self._pick_words(pick)
                button = None if pick in spatial else next((b for b in self.hud.buttons if b["text"] == said), None)
                if button is not None:
                    button["command"]()         # a word the move needs: its button, as a person presses it
                else:
                    self.choose(pick)           # a piece or place: as a click on it
            if self.picks or self.confirming is not None:
                self.commit_exact()         # a move the table asks about, or one whose clicks also begin others
            self.choice = None
            return
        said = table.words[table.legal.index(text)] if len(table.words) == len(table.legal) else text
        for _ in range(len(table.legal) // PAGE + 2):
            for b in self.hud.buttons:
                if b["text"] == said:
                    self.choice = None
                    b["command"]()
                    return
            more = [b for b in self.hud.buttons if str(b["text"]).startswith("More (")]
            if not more:
                return
            more[0]["command"]()

    def refresh(self) -> None:
        if self.view is None:
            self.hud.say(self.said)
            return
        table, room = self.view.table, self.view.room
        layout = layout_of(table)
        self.hud.set_panels([self._panel(p, room) for p in table.panels])     # before the camera frames the table
        if self.camera is None:
            dress(self.scene, layout)
            add_table(self.scene, layout)
            self.table_bounds = layout.bounds()
            self._make_camera(self._home_view(layout))
        elif table is not self.drawn:         # the table grew (a landscape), or the view closes in on a tile laid
            self._refit(layout)
        if table is not self.drawn:           # a new table: the stage goes to it (a move's, by its transition)
            if self.anim is not None:
                self.anim.finish()
                self.anim = None
            if self.animate and self.told and self.layout is not None:
                self.anim = self.stage.transition(self.layout, layout, self.told)   # as the local table moves
                self.anim.start()
            else:
                self.stage.show(layout)
            self.told, self.drawn = [], table
            self.layout = layout
        lines = ([self.note] if self.note else []) + self._room_lines(table, room)
        self.hud.set_instruction(self._instruction(table, room))
        if room.clock is not None:
            limit = f" of {room.clock.limit:g}" if room.clock.limit else ""
            lines.append(f"{room.seats[room.clock.seat].name} has thought {room.clock.elapsed:.0f} s{limit}")
        self.hud.set_status(lines)
        self.hud.say(self.said)
        if self._clickable():
            self._show_picks()
            return
        self.stage.highlight({})
        moves = table.legal if table.to_move == self.seat else []
        if self.page * PAGE >= len(moves):
            self.page = 0
        shown = moves[self.page * PAGE:(self.page + 1) * PAGE]
        words = table.words if len(table.words) == len(moves) else moves
        shown_words = words[self.page * PAGE:(self.page + 1) * PAGE]
        buttons = [(said, lambda text=text: self.play(text)) for text, said in zip(shown, shown_words)]
        if len(moves) > PAGE:
            buttons.append((f"More ({counted(len(moves), 'move')})", self.next_page))
        if moves and self.listing and len(table.paths) == len(moves):
            buttons.append(("Pick on the table", self.toggle_list))
        self.hud.set_buttons(buttons, vertical=True)

    # ---- the move made by clicks, as at the local table -------------------------------------------------------------
    def _clickable(self) -> bool:
        """This seat is to move, the server sent the clicks of its moves, and the list of moves is not asked for."""
        if self.view is None or self.listing or self.menu:
            return False
        table = self.view.table
        return table.to_move == self.seat and bool(table.legal) and len(table.paths) == len(table.legal)

    def _candidates(self, picks: list[str]) -> list[tuple[str, object]]:
        """(move, progress) for every legal move whose clicks the picks so far follow."""
        out = []
        for text, path in zip(self.view.table.legal, self._wire_paths()):
            progress = path_progress(path, picks)
            if progress is not None:
                out.append((text, progress))
        return out

    def _wire_paths(self) -> list:
        """The legal moves' pick paths of the table shown, read from the wire once for each table received."""
        table = self.view.table
        if self._paths[0] is not table:
            self._paths = (table, [P.path_of(wire) for wire in table.paths])
        return self._paths[1]

    def _words(self, text: str) -> str:
        table = self.view.table
        return table.words[table.legal.index(text)] if len(table.words) == len(table.legal) else text

    def _spatial(self) -> set[str]:
        """The pieces and places of the table sent (the stage has them once the move's transition has ended)."""
        table = self.view.table
        return {p.id for p in table.pieces} | {c.id for c in table.cells}

    def _pick_words(self, pick: str) -> str:
        """A button's words for a pick that is no piece or place ("Turned 90°", "No swap")."""
        said = self.view.table.pick_words.get(pick) or pick.replace(":", " ").replace("_", " ")
        return said[:1].upper() + said[1:]

    def _show_picks(self) -> None:
        """Light what carries a move on (red where every move it leads to costs its player), the picks made so far
        in yellow, and the words a move needs as buttons, as the local table does."""
        table = self.view.table
        targets: dict[str, tuple] = {p: HIGHLIGHT_PICKED for p in self.picks}
        if self.hinted is not None and not self.picks and self.hinted in table.legal:
            # the hint's picks in yellow, as the local table lights them
            spatial = self._spatial()
            hinted = each_pick(self._wire_paths()[table.legal.index(self.hinted)])
            targets.update((pick, HIGHLIGHT_PICKED) for pick in hinted if pick in spatial)
        buttons: list = []
        if self.confirming is not None:
            buttons = [("Confirm", self.commit_exact), ("Cancel", self.clear_picks)]
        else:
            spatial = self._spatial()
            cands = self._candidates(self.picks)
            regret: dict[str, bool] = {}
            for text, progress in cands:
                for pick in progress.next():
                    regret[pick] = regret.get(pick, True) and text in table.asks
            for pick in next_picks(progress for _, progress in cands):
                if pick in spatial:
                    targets.setdefault(pick, HIGHLIGHT_COSTLY if regret.get(pick) else HIGHLIGHT_TARGET)
                else:
                    buttons.append((self._pick_words(pick), lambda pick=pick: self.choose(pick)))
            if self.picks and any(progress.done for _, progress in cands) and len(cands) > 1:
                buttons.insert(0, ("Confirm", self.commit_exact))
            if self.picks:
                buttons.append(("Clear picks", self.clear_picks))
        buttons.append((f"List the moves ({counted(len(table.legal), 'move')})", self.toggle_list))
        self.stage.highlight(targets)
        self.hud.set_buttons(buttons[:9])

    # ---- the camera (app/view.py moves it) --------------------------------------------------------------------------
    def _home_view(self, layout: Layout):
        """The default view of `layout`: the whole table (or the part its focus names) below the HUD's top band,
        its labels grown where the view shows them small and staggered where they would touch, as at the local
        table."""
        return home_orbit(self.base, self.stage, layout, self.aspect, self.hud.status_band(6), self.hud.keep_clear())

    def _make_camera(self, home) -> None:
        def add_task(function, name):
            task = self.base.taskMgr.add(function, name)
            self.tasks.append(task)
            return task
        self.camera = CameraView(self.base, self.events, add_task, self.picker, self.stage, home, self.on_click)
        # R and the wheel turn what the pointer previews (a tile's way); elsewhere they reset the view and zoom
        camera = self.camera
        self.events.accept("r", self.turn_preview, [1, camera.reset])
        self.events.accept("wheel_up", self.turn_preview, [1, lambda: camera.wheel_zoom(0.9)])
        self.events.accept("wheel_down", self.turn_preview, [-1, lambda: camera.wheel_zoom(1.1)])

    def _refit(self, layout: Layout) -> None:
        """A new table: the key light and the table top fit it, and the camera follows its home view while the
        player has not moved it (see CameraView.follow)."""
        self.table_bounds = fit_scene(self.scene, layout, self.table_bounds)
        assert self.camera is not None
        self.camera.follow(self._home_view(layout))

    def escape(self) -> None:
        """Esc, as at the local table: drop the picks (and a hint or a question waiting) if there are any, else open
        or close the menu (resume, the rules and keys, leave the table)."""
        if self.picks or self.confirming is not None or self.hinted is not None:
            self.clear_picks()
        elif self.menu:
            self.close_menu()
        else:
            title = self.view.room.title if self.view is not None else "towerworld"
            entries = [("Resume", self.close_menu), ("Rules and keys", self.toggle_help),
                       ("Leave the table", self.quit)]
            self.menu = esc_menu(title, entries, self.close_menu)

    def close_menu(self) -> None:
        for widget in reversed(self.menu):
            widget.destroy()
        self.menu = []

    def on_click(self, at: tuple[float, float] | None = None) -> None:
        """A click on the table (under the pointer, or at the film point `at`, -1..1): the legal next pick there, the
        nearest where several are."""
        if not self._clickable():
            return
        hits = self.picker.pick_all(at)
        if not hits:
            self.hud.say("Nothing there to pick: click a highlighted piece or place.")
            return
        if self.hover in hits and self.hover_options:
            # the previewed place, with the way the ghost shows it
            place, option = self.hover, self.hover_options[self.hover_choice]
            self.preview_at(None)
            self.choose(place)
            if self.picks and self.picks[-1] == place:
                self.choose(option)
            return
        valid = [h for h in hits if self._candidates(self.picks + [h])]
        self.choose(valid[0] if valid else hits[0])

    # ---- the pointer preview: the ghost of the move under the pointer, turned with R or the wheel, as at the local
    # table (for a first pick that needs a word next, whose ghosts the server sent)
    def _pointer_task(self, task):
        watcher = self.base.mouseWatcherNode
        if watcher is None or self.camera is not None and self.camera.drag is not None:   # (a drag under way)
            return task.cont
        place = None
        if self._clickable() and not self.picks and self.view.table.previews and watcher.hasMouse():
            place = next((h for h in self.picker.pick_all() if any(k.startswith(h + " ")
                                                                  for k in self.view.table.previews)), None)
        self.preview_at(place)
        return task.cont

    def preview_at(self, place: str | None) -> None:
        """Ghosts of the move that picking `place` with the way chosen would make; None clears them."""
        if place != self.hover:
            self.hover, self.hover_choice = place, 0
            self.hover_options = [] if place is None else [
                key.split(" ", 1)[1] for key in self.view.table.previews if key.startswith(place + " ")]
        if place is None or not self.hover_options:
            self.stage.show_ghosts({})
            return
        ghosts = self.view.table.previews.get(f"{place} {self.hover_options[self.hover_choice]}", [])
        self.stage.show_ghosts({p.id: Pose(p.kind, p.x, p.y, p.z, p.heading, p.face_up, _frozen(list(p.look)), p.tilt)
                                for p in ghosts})

    def turn_preview(self, step: int, otherwise=None) -> None:
        """R or the wheel over a previewed place: the next way it may lie; anywhere else the key keeps its usual job
        (`otherwise`: the view's)."""
        if self.hover is None or len(self.hover_options) < 2:
            if otherwise is not None:
                otherwise()
            return
        self.hover_choice = (self.hover_choice + step) % len(self.hover_options)
        self.preview_at(self.hover)

    def choose(self, pick: str) -> None:
        """Pick `pick` next: the move is sent once the picks make exactly one; a wrong pick is told, not sent."""
        if not self._clickable():
            return
        self.confirming = None
        taken = take_pick(self.picks, pick, self._candidates)
        if taken.refused:
            self.said = "That is not a legal move here: pick one of the lit pieces or places."
            self.hud.say(self.said)
            return
        self.picks = taken.picks
        if taken.move is not None:
            self.submit(taken.move)
            return
        if taken.exact is not None:
            self.said = f"Press Enter or Confirm to {self._words(taken.exact)}, or pick on."
        self.refresh()

    def submit(self, text: str) -> None:
        """Send a complete move, or first ask the table's question about it (Enter or Confirm sends it)."""
        question = self.view.table.asks.get(text)
        if question is not None and self.confirming != text:
            self.confirming = text
            self.said = self._with_names(question, self.view.room) + " Enter to confirm, Esc to cancel."
            self.refresh()
            return
        self.picks, self.confirming = [], None
        self.play(text)

    def ask_hint(self) -> None:
        """T: ask the server which move HINT_AGENT would make for this seat now (it searches from what the seat may
        know); the answer lights the move's picks (`_hint_came`)."""
        if self.view is None or self.agent is not None:
            return
        table = self.view.table
        if table.to_move != self.seat or not table.legal:
            self.said = "A hint is for your own turn."
        else:
            self.hint_ply, self.hinted = table.ply, None
            self.conn.send(P.Suggest(HINT_AGENT, table.ply))
            self.said = "Looking for a hint\u2026"
        self.hud.say(self.said)

    def _hint_came(self, msg: P.Suggested) -> None:
        table = self.view.table if self.view is not None else None
        if table is None or msg.ply != self.hint_ply or msg.ply != table.ply or msg.text not in table.legal:
            return          # (asked at a position that has gone)
        self.picks, self.confirming, self.hinted = [], None, msg.text
        words = table.words[table.legal.index(msg.text)] if len(table.words) == len(table.legal) else msg.text
        self.said = f"Hint: {words} (click it, or Enter to play it; Esc clears)."

    def commit_exact(self) -> None:
        """Enter: send the move waiting to be confirmed, the complete move the picks make, or the hint."""
        if not self._clickable():
            return
        if self.confirming is not None:
            self.submit(self.confirming)
            return
        if self.hinted is not None and not self.picks:
            self.submit(self.hinted)
            return
        exact = [text for text, progress in self._candidates(self.picks) if progress.done]
        if exact:
            self.submit(exact[0])

    def back_pick(self) -> None:
        self.picks, self.confirming = self.picks[:-1], None
        self.refresh()

    def clear_picks(self) -> None:
        self.picks, self.confirming, self.hinted = [], None, None
        self.refresh()

    def toggle_help(self) -> None:
        """H or F1: the game's rules summary in its own words, then this window's keys."""
        try:
            text = help_text(get_game(self.view.room.game), keys=KEYS) if self.view is not None else None
        except TowerworldError:          # a game this copy of towerworld does not know: its keys alone
            text = None
        self.hud.toggle_help(text or "Keys\n" + "\n".join(KEYS))

    def toggle_list(self) -> None:
        """M: the legal moves as buttons, a page at a time, or back to clicks on the table."""
        self.listing = not self.listing
        self.picks, self.confirming, self.page = [], None, 0
        self.refresh()

    def _room_lines(self, table: P.Table, room: P.Room) -> list[str]:
        """The status lines about the room and the table, as the local table words its own: the game, the room and
        who this window is, then the game's lines about the whole table, run together on one line; the seats on a
        line of their own only where no panels name them, else only the people away."""
        mine = room.seats[self.seat].name if 0 <= self.seat < len(room.seats) else f"Player {self.seat + 1}"
        who = "watching" if self.seat == SPECTATOR else f"you are {mine}"
        covered = self._covered(room.game) if table.panels else ()
        parts = [f"{room.title}, room {room.code}: {who}"] + \
            [self._with_names(part, room) for part in table_parts(table.hud, covered)]
        away = [s.name for s in room.seats if not s.connected and s.kind != "ai"]
        if not table.panels:
            seats = "  ".join(f"{s.name}{' (away)' if s.name in away else ''}" for s in room.seats)
        else:
            seats = f"Away: {', '.join(away)}" if away else ""
        return ["   |   ".join(parts)] + ([seats] if seats else [])

    @staticmethod
    def _covered(game: str) -> tuple[str, ...]:
        """The HUD lines the game's panels already show (and the turn line the instruction shows)."""
        try:
            return tuple(get_game(game).panel_keys) + ("turn", "next")
        except TowerworldError:
            return ("turn", "next")

    @staticmethod
    def _with_names(text: str, room: P.Room) -> str:
        return with_names(text, [seat.name for seat in room.seats])

    def _instruction(self, table: P.Table, room: P.Room) -> str:
        """What to do now, as the local table says it: this seat is told what to click; otherwise whom the table
        waits for."""
        if table.to_move == TERMINAL:
            return f"Game over. {self._with_names(table.result, room)} Q leaves the table."
        if table.to_move == self.seat and table.prompt:
            prompt = self._with_names(table.prompt, room)
            return "Your turn: " + (prompt[:1].lower() + prompt[1:] if prompt[1:2].islower() else prompt)
        if 0 <= table.to_move < len(room.seats):
            seat = room.seats[table.to_move]
            return f"Waiting for {seat.name}{' (AI)' if seat.kind == 'ai' and not names_an_ai(seat.name) else ''}\u2026"
        return ""

    def _panel(self, panel: P.WirePanel, room: P.Room) -> PanelView:
        """A player's panel as the local table words it: the seat's name at the table, its colour, the game's words."""
        seat = room.seats[panel.seat] if 0 <= panel.seat < len(room.seats) else None
        title = seat.name if seat is not None else panel.name
        if seat is not None and panel.name != f"Player {panel.seat + 1}":
            title += f" ({panel.name})"
        if seat is not None and not seat.connected and seat.kind != "ai":
            title += " (away)"
        return PanelView(title, SWATCHES.get(panel.colour), self._with_names(panel.score, room),
                         [self._with_names(h, room) for h in panel.holdings], panel.to_move)

    def next_page(self) -> None:
        self.page += 1
        self.refresh()

    def play(self, text: str) -> None:
        if self.view is not None:
            self.page = 0
            self.picks, self.confirming = [], None
            self.conn.send(P.Play(text, self.view.table.ply))

    def quit(self) -> None:
        if self.on_leave is not None:
            self.on_leave()
            return
        self.close()
        self.base.userExit()

    def close(self) -> None:
        self.close_menu()
        if self.anim is not None:
            self.anim.finish()
        self.base.taskMgr.remove(self.task)
        self.base.taskMgr.remove(self.pointer_task)
        for task in self.tasks:
            self.base.taskMgr.remove(task)
        self.tasks = []
        self.events.ignoreAll()
        self.conn.close()
        self.stage.on_layout = self.stage.on_ghosts = None
        self.hud.destroy()
        self.picker.ray_np.removeNode()
        undress(self.scene)         # (its shadow-casting light keeps a buffer drawn every frame until told not to)


def run_remote(invite: str, *, name=None, seat=None, watch=False, log=None, size=(1280, 800), frames=None,
               token=None, agent=None) -> int:
    table = RemoteTable(invite, name=name, seat=seat, watch=watch, log=log, size=size, frames=frames, token=token,
                        agent=agent)
    try:
        return run_loop(table.base, frames)
    finally:
        if frames is not None:
            table.close()
