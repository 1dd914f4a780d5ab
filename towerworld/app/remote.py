"""The window as a network client: `towerworld join INVITE` opens the table as the seat it took (or as a spectator
with --watch), drawn from what the server sends that viewer and nothing else.

The connection runs in a thread of its own (an asyncio loop); the window's task takes what arrived each frame: the
stage shows the viewer's layout, the status lines the HUD and the seats (who is connected, the clock of the person to
move), and when the seat is to move its legal moves are buttons (a page at a time). Keys: U asks to take back your
last move, Y and N answer another player's request, Q leaves.

With an agent (`join --agent NAME --window`) the window makes the seat's moves itself, through the same buttons a
person clicks: `random` picks among the legal moves, any other agent's move is asked of the server (`suggest`).
"""
from __future__ import annotations

import asyncio
import queue
import random
import threading
import time

from direct.showbase.DirectObject import DirectObject

from towerworld.app.window import open_base, run_loop
from towerworld.engine.game import SPECTATOR, TERMINAL, Event, EventKind, TowerworldError
from towerworld.engine.layout import Cell, Layout, Pose
from towerworld.engine.registry import get_game
from towerworld.engine.words import counted, with_names
from towerworld.net import client as net
from towerworld.net import protocol as P
from towerworld.scene.camera import framing
from towerworld.scene.hud import SWATCHES, Hud, PanelView
from towerworld.scene.setup import add_table, dress
from towerworld.scene.stage import Stage

PAGE = 8              # legal moves shown as buttons at once
AGENT_PAUSE = 0.4     # seconds an agent playing the window waits before its click, so that each move is seen


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
        self.events = DirectObject()
        self.seat = SPECTATOR
        self.view: P.View | P.Played | None = None
        self.layout: Layout | None = None
        self.page = 0
        self.said = ""
        self.undo_asked: P.UndoAsked | None = None
        self.framed = False
        self.agent, self.rng = agent, random.Random()
        self.choice: str | None = None       # the move the agent will click at this ply
        self.chosen_ply, self.click_at, self.pause = -1, 0.0, AGENT_PAUSE
        self.anim = None          # the stage's transition of the last move told, while it plays
        self.animate = frames is None     # offscreen runs (tests) show each table at once
        self.told: list[Event] = []       # the events of the move to animate next
        self.drawn: P.Table | None = None  # the table the stage was last sent to
        self.conn = Connection(invite, name, seat, watch, token, log)
        self.task = self.base.taskMgr.add(self._poll, "remote-table-poll")
        self.events.accept("u", lambda: self.conn.send(P.Undo()))
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
                self.view = msg
                self.told = events_of(msg) if isinstance(msg, P.Played) else []
                told = [e.text for e in msg.events] + [e.text for step in msg.then for e in step.events] \
                    if isinstance(msg, P.Played) else []
                if any(told):
                    self.said = " ".join(text for text in told if text)
            elif isinstance(msg, P.Suggested):
                if self.agent is not None and msg.ply == self.chosen_ply:
                    self.choice = msg.text
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
        """Press the button of move `text`, turning the pages with the More button until it shows."""
        table = self.view.table
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
        if not self.framed:
            dress(self.scene, layout)
            add_table(self.scene, layout)
            framing(layout, aspect=self.aspect, top=self.hud.status_band(6),
                    keep_clear=self.hud.keep_clear()).apply(self.base.camera)
            self.framed = True
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
        who = "watching" if self.seat == SPECTATOR else f"you are Player {self.seat + 1}"
        seats = "  ".join(f"{s.name}{'' if s.connected or s.kind == 'ai' else ' (away)'}" for s in room.seats)
        covered = self._covered(room.game) if table.panels else ()
        lines = ([self.note] if self.note else []) + [f"{room.title}, room {room.code}: {who}", seats] + \
            [v for k, v in table.hud.items() if k not in covered and k.split(" ")[0] not in covered]
        self.hud.set_instruction(self._instruction(table, room))
        if room.clock is not None:
            limit = f" of {room.clock.limit:g}" if room.clock.limit else ""
            lines.append(f"{room.seats[room.clock.seat].name} has thought {room.clock.elapsed:.0f} s{limit}")
        if table.to_move == TERMINAL:
            lines.append(table.result)
        self.hud.set_status(lines)
        self.hud.say(self.said)
        moves = table.legal if table.to_move == self.seat else []
        if self.page * PAGE >= len(moves):
            self.page = 0
        shown = moves[self.page * PAGE:(self.page + 1) * PAGE]
        words = table.words if len(table.words) == len(moves) else moves
        shown_words = words[self.page * PAGE:(self.page + 1) * PAGE]
        buttons = [(said, lambda text=text: self.play(text)) for text, said in zip(shown, shown_words)]
        if len(moves) > PAGE:
            buttons.append((f"More ({counted(len(moves), 'move')})", self.next_page))
        self.hud.set_buttons(buttons, vertical=True)

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
            return "The game is over."
        if table.to_move == self.seat and table.prompt:
            prompt = self._with_names(table.prompt, room)
            return "Your turn: " + (prompt[:1].lower() + prompt[1:] if prompt[1:2].islower() else prompt)
        if 0 <= table.to_move < len(room.seats):
            seat = room.seats[table.to_move]
            return f"Waiting for {seat.name}{' (AI)' if seat.kind == 'ai' and '(' not in seat.name else ''}\u2026"
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
            self.conn.send(P.Play(text, self.view.table.ply))

    def quit(self) -> None:
        if self.on_leave is not None:
            self.on_leave()
            return
        self.close()
        self.base.userExit()

    def close(self) -> None:
        if self.anim is not None:
            self.anim.finish()
        self.base.taskMgr.remove(self.task)
        self.events.ignoreAll()
        self.conn.close()
        self.hud.destroy()
        self.scene.removeNode()


def run_remote(invite: str, *, name=None, seat=None, watch=False, log=None, size=(1280, 800), frames=None,
               token=None, agent=None) -> int:
    table = RemoteTable(invite, name=name, seat=seat, watch=watch, log=log, size=size, frames=frames, token=token,
                        agent=agent)
    try:
        return run_loop(table.base, frames)
    finally:
        if frames is not None:
            table.close()
