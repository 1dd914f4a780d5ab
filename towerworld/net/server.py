"""The game server: many rooms, each a match driven by the engine's pull driver, the only authority.

A room is a `Driver` on the server: chance is drawn here from the OS, AI seats think here (in a thread, so the event
loop goes on serving every other room), and a person's move arrives as notation text from the one connection that
holds that seat's token. Every connection is sent only its viewer's table (`protocol.table_for`) and the events that
viewer may see. Every room is saved after every move, atomically, before anyone is told of it, in the record format
(`DIR/ROOM.tower.json`) beside what the room needs to go on (`DIR/ROOM.room.json`: who sits where, as hashes of their
tokens, and the clock); a server started on the same folder resumes every unfinished room.

Hostile or broken clients: a frame over the stated limit closes the connection (1009); a message that is not valid,
of an unknown kind, for another seat or out of turn gets one sentence (`refused`); more than RATE messages a second
(with a burst of BURST) are refused, and a connection that goes on flooding is closed (1008); a connection that does
not read what it is sent is closed once OUT_QUEUE messages wait for it (1008); one that stops answering pings is
closed by the keepalive. None of these touch any other room.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from towerworld.ai.agents import agent_names, agent_spec, agent_words, make_agent
from towerworld.engine.agent import seat_view
from towerworld.engine.driver import (AGENT, CHANCE_DRAW, END, PERSON, AgentFailed, Driver, ThreadRunner,
                                      live_chance)
from towerworld.engine.game import CHANCE, SEES_SEAT, SPECTATOR, TowerworldError, options_from_text
from towerworld.engine.match import Match, PlayerSpec, write_atomic
from towerworld.engine.record import RecordError, load_match, match_to_record, read_record_file
from towerworld.engine.registry import get_game
from towerworld.engine.safe_text import shown_text
from towerworld.engine.words import counted, taken_back
from towerworld.net import protocol as P

RATE = 100.0             # messages a second a connection may send, on average (a bot plays as fast as it is sent)
BURST = 200              # ... and at once
FLOOD_CLOSE = 200        # refusals for flooding after which the connection is closed (1008)
OUT_QUEUE = 64           # messages that may wait for a connection that does not read before it is closed (1008)
MAX_ROOMS = 5000         # rooms one server holds
MAX_CREATES = 50         # rooms one connection may open
MAX_NAME = 40
STAND_IN = "greedy"      # the agent that moves for a person whose clock ran out (clock mode "ai")
CLOSE_POLICY = 1008


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _flush(path: str) -> None:
    """Put the file at `path` on the disk (fsync); a file gone meanwhile is no error."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Bucket:
    """A token bucket: `take()` is False when the connection sends faster than RATE with bursts of BURST."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.level = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class Connection:
    """One client: its websocket, the room and seat it holds (SPECTATOR for a watcher), and its outgoing queue."""

    def __init__(self, ws: ServerConnection, server: "Server"):
        self.ws = ws
        self.server = server
        self.room: "Room | None" = None
        self.seat: int | None = None
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=server.out_queue)
        self.bucket = Bucket(server.rate, server.burst)
        self.floods = 0
        self.creates = 0
        self.closing = False
        self.layout = True             # False: it draws nothing, so its tables go without pieces, cells and labels
        self.thinking = False          # a suggestion for this connection's seat is being searched

    def send(self, message) -> None:
        self.send_bytes(P.encode(message))

    def send_bytes(self, data: bytes) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:       # it does not read: it is not allowed to hold up the room
            self.server.stats["slow"] += 1
            self.close(CLOSE_POLICY, "Too slow: messages sent to this connection were not read.")

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            asyncio.get_running_loop().create_task(self.ws.close(code, reason))

    async def write_loop(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                await self.ws.send(data, text=True)
        except ConnectionClosed:
            pass


@dataclass
class Room:
    """One table: the match, its driver, who sits where, and who is watching."""
    code: str
    match: Match
    driver: Driver
    kinds: list[str]                         # per seat: "remote" or "ai"
    tokens: list[str | None]                 # per seat: sha256 of the token given out, None while free
    clock: float | None = None
    clock_mode: str = "wait"
    agents: dict = field(default_factory=dict)
    conns: dict = field(default_factory=dict)          # seat -> Connection
    watchers: set = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while a move is saved and told: a view asked for meanwhile (a join, a look) waits for the move's message,
    # so no client is shown a move in its table and then told it again.
    telling: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_started: float = field(default_factory=time.monotonic)
    timer: asyncio.TimerHandle | None = None
    undo_by: int | None = None
    undo_agreed: set = field(default_factory=set)

    @property
    def game(self):
        return self.match.game

    def connections(self):
        return list(self.conns.values()) + list(self.watchers)

    def room_view(self) -> P.Room:
        seats = [P.Seat(p.name, self.kinds[i], p.agent or "", self.tokens[i] is not None, i in self.conns)
                 for i, p in enumerate(self.match.players)]
        clock = None
        cp = self.match.current_player
        if cp >= 0 and self.kinds[cp] == "remote":
            clock = P.Clock(cp, round(time.monotonic() - self.turn_started, 2), self.clock, self.clock_mode)
        return P.Room(self.code, self.game.name, self.game.title, self.match.variant or "", seats, clock, self.undo_by)

    def table(self, viewer: int, layout: bool = True) -> P.Table:
        return P.table_for(self.game, self.match.state, viewer, len(self.match.plies), layout)

    def meta(self) -> dict:
        return {"room": self.code, "kinds": self.kinds, "tokens": self.tokens, "clock": self.clock,
                "clock_mode": self.clock_mode}


class Server:
    """Rooms and connections. `await start(host, port)`; `port` after start is the port bound (0 picks a free one)."""

    def __init__(self, data: str | None = None, *, rate: float = RATE, burst: int = BURST,
                 out_queue: int = OUT_QUEUE, ping_interval: float | None = 20.0, ping_timeout: float | None = 20.0,
                 max_rooms: int = MAX_ROOMS, sync: bool = True, flood_close: int = FLOOD_CLOSE, log=None):
        self.data = data
        self.sync = sync
        self.rate, self.burst, self.out_queue = rate, burst, out_queue
        self.ping_interval, self.ping_timeout = ping_interval, ping_timeout
        self.max_rooms = max_rooms
        self.flood_close = flood_close
        self.rooms: dict[str, Room] = {}
        self.stats = {"moves": 0, "refused": 0, "slow": 0, "floods": 0, "bad": 0}
        self.thinkers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="towerworld-ai")
        self.savers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="towerworld-save")
        self.syncers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="towerworld-sync")
        self.flushing: dict = {}           # path -> its fsync, queued or running
        self.log = log or (lambda text: print(f"towerworld serve: {text}", file=sys.stderr, flush=True))
        self._server = None
        self.port = 0
        self.tasks: set = set()

    # ---- running ---------------------------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        if self.data:
            os.makedirs(self.data, exist_ok=True)
            self.resume_rooms()
        self._server = await serve(self.handle, host, port, max_size=P.MAX_CLIENT_FRAME, compression=None,
                                   ping_interval=self.ping_interval, ping_timeout=self.ping_timeout,
                                   close_timeout=2, max_queue=16)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self.tasks):
            task.cancel()
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        self.savers.shutdown(wait=True)
        self.syncers.shutdown(wait=True)

    def spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self)
        writer = asyncio.get_running_loop().create_task(conn.write_loop())
        try:
            async for frame in ws:
                await asyncio.sleep(0)          # frames read in a burst: let the writer and other rooms go first
                if not conn.bucket.take():
                    conn.floods += 1
                    self.stats["floods"] += 1
                    if conn.floods >= self.flood_close:
                        conn.closing = True
                        await ws.close(CLOSE_POLICY, "Too many messages: this connection is closed.")
                        break
                    conn.send(P.Refused(f"Too many messages: at most {self.rate:g} a second.", "rate"))
                    continue
                if isinstance(frame, bytes):
                    self.stats["bad"] += 1
                    conn.send(P.Refused("Messages are JSON text frames, not binary ones."))
                    continue
                try:
                    message = P.decode_client(frame)
                except P.BadMessage as e:
                    self.stats["bad"] += 1
                    conn.send(P.Refused(str(e)))
                    continue
                try:
                    await self.dispatch(conn, message)
                except TowerworldError as e:
                    self.stats["refused"] += 1
                    of = getattr(e, "of", "") or str(type(message).__struct_config__.tag)
                    conn.send(P.Refused(shown_text(str(e), 300), of))
        except ConnectionClosed:
            pass
        finally:
            await self.leave(conn)
            writer.cancel()

    # ---- requests ----------------------------------------------------------------------------------------------------
    async def dispatch(self, conn: Connection, msg) -> None:
        if isinstance(msg, P.Create):
            self.create(conn, msg)
        elif isinstance(msg, P.Join):
            await self.join(conn, msg)
        elif isinstance(msg, P.Watch):
            await self.watch(conn, msg)
        elif isinstance(msg, P.Play):
            await self.play(conn, msg)
        elif isinstance(msg, P.Undo):
            await self.ask_undo(conn)
        elif isinstance(msg, P.UndoAnswer):
            await self.answer_undo(conn, msg.agree)
        elif isinstance(msg, P.Look):
            room = self._room_of(conn)
            async with room.telling:
                conn.send(P.View(room.room_view(), conn.seat, room.table(conn.seat, conn.layout)))
        elif isinstance(msg, P.Suggest):
            await self.suggest(conn, msg)

    def create(self, conn: Connection, msg: P.Create) -> None:
        if len(self.rooms) >= self.max_rooms:
            raise Refusal("This server holds as many rooms as it can; try again later.")
        if conn.creates >= MAX_CREATES:
            raise Refusal(f"One connection may open at most {MAX_CREATES} rooms.")
        if msg.clock_mode not in ("wait", "ai"):
            raise Refusal(f"The clock mode is wait or ai, not '{shown_text(msg.clock_mode)}'.")
        game = get_game(msg.game)
        options = options_from_text(game, dict(msg.options))
        game.resolve_options(options, msg.variant, len(msg.players))
        known = agent_names(game)
        seats, kinds, agents = [], [], {}
        for i, name in enumerate(msg.players):
            if name == "remote":
                seats.append(PlayerSpec(f"Player {i + 1}", "human"))
                kinds.append("remote")
            elif name.split(":", 1)[0] in known:
                agents[i] = make_agent(name, game)
                seats.append(PlayerSpec(f"AI {i + 1}, {agent_words(name, game)}", "ai", name))
                kinds.append("ai")
            else:
                raise Refusal(f"'{shown_text(name)}' is not a seat: use remote or one of {', '.join(known)}.")
        if "remote" not in kinds:
            raise Refusal("A room needs at least one remote seat for a person to take.")
        match = Match(game, options=options, players=seats, variant=msg.variant)
        code = self._new_code()
        driver = Driver(match, frozenset(agents), live_chance(), ThreadRunner(agents, self.thinkers))
        room = Room(code, match, driver, kinds, [None] * len(seats), msg.clock, msg.clock_mode, agents)
        self.rooms[code] = room
        conn.creates += 1
        self._save_meta(room)
        conn.send(P.Created(code, len(seats)))
        self.spawn(self._start_room(room))

    async def _start_room(self, room: Room) -> None:
        async with room.lock:
            await self._save(room)
            await self.advance(room)

    def _new_code(self) -> str:
        while True:
            code = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            if code not in self.rooms and not (self.data and os.path.exists(self._path(code, ".room.json"))):
                return code

    async def join(self, conn: Connection, msg: P.Join) -> None:
        if conn.room is not None:
            raise Refusal("This connection is already at a table; open another connection to join another.")
        room = self._find(msg.room)
        async with room.telling:
            self._seat(conn, room, msg)

    def _seat(self, conn: Connection, room: Room, msg: P.Join) -> None:
        if msg.token is not None:
            digest = _hash(msg.token)
            seat = next((i for i, t in enumerate(room.tokens) if t is not None and hmac.compare_digest(t, digest)),
                        None)
            if seat is None:
                raise Refusal("That token holds no seat in this room.")
            token = msg.token
            old = room.conns.get(seat)
            if old is not None and old is not conn:
                old.room, old.seat = None, None
                old.send(P.Notice("Your seat was taken up from another connection holding its token."))
                old.close(4001, "The seat was taken up from another connection.")
        else:
            free = [i for i, k in enumerate(room.kinds) if k == "remote" and room.tokens[i] is None]
            if msg.seat is not None:
                seat = msg.seat - 1
                if seat >= len(room.kinds):
                    raise Refusal(f"This room has {counted(len(room.kinds), 'seat')}, so there is no seat {msg.seat}.")
                if room.kinds[seat] != "remote":
                    raise Refusal(f"Seat {msg.seat} is played by the server's AI.")
                if seat not in free:
                    raise Refusal(f"Seat {msg.seat} is taken; its player may rejoin with their token.")
            elif not free:
                raise Refusal("Every seat of this room is taken; watch it instead.")
            else:
                seat = free[0]
            token = secrets.token_urlsafe(24)          # 192 random bits
            room.tokens[seat] = _hash(token)
            if msg.name:
                room.match.players[seat] = PlayerSpec(_clean_name(msg.name, seat), "human")
            self._save_meta(room)
        conn.room, conn.seat, conn.layout = room, seat, msg.layout
        room.conns[seat] = conn
        conn.send(P.Joined(room.code, seat, token))
        self.broadcast_view(room)

    async def watch(self, conn: Connection, msg: P.Watch) -> None:
        if conn.room is not None:
            raise Refusal("This connection is already at a table; open another connection to watch another.")
        room = self._find(msg.room)
        async with room.telling:
            conn.room, conn.seat, conn.layout = room, SPECTATOR, msg.layout
            room.watchers.add(conn)
            conn.send(P.Joined(room.code, SPECTATOR))
            conn.send(P.View(room.room_view(), SPECTATOR, room.table(SPECTATOR, conn.layout)))

    async def leave(self, conn: Connection) -> None:
        room = conn.room
        if room is None:
            return
        conn.room = None
        room.watchers.discard(conn)
        if room.conns.get(conn.seat) is conn:
            del room.conns[conn.seat]
            async with room.telling:
                self.broadcast_view(room)
        if room.match.over and not room.conns and not room.watchers and self.rooms.get(room.code) is room:
            del self.rooms[room.code]          # finished and empty: its record stays on disk

    def _find(self, code: str) -> Room:
        room = self.rooms.get(code)
        if room is None:
            raise Refusal(f"There is no room '{shown_text(code, 40)}' on this server.")
        return room

    def _room_of(self, conn: Connection) -> Room:
        if conn.room is None:
            raise Refusal("Join or watch a room first.")
        return conn.room

    async def play(self, conn: Connection, msg: P.Play) -> None:
        room = self._room_of(conn)
        if conn.seat == SPECTATOR:
            raise Refusal("You are watching: only a seated player makes moves.")
        async with room.lock:
            match = room.match
            p = room.driver.pending()
            if p.kind == END:
                raise Refusal("The game is over.", "move")
            if p.seat != conn.seat:
                who = "chance is being drawn" if p.seat == CHANCE else f"Player {p.seat + 1} is to move"
                raise Refusal(f"It is not your turn: {who}.", "move")
            if msg.ply is not None and msg.ply != len(match.plies):
                raise Refusal(f"The table has moved on since that move was chosen (it is at ply {len(match.plies)}).",
                              "move")
            move = match.game.parse_move(match.state, msg.text)
            events = room.driver.answer(conn.seat, move, save=False)
            await self.after_move(room, conn.seat, events, self._draws(room))
            await self.advance(room)

    def _draws(self, room: Room) -> list[list]:
        """Answer the chance draws that follow a move at once (a roll, a tile drawn): each draw's events, in order.
        They go out in the move's one message, with one table after them all."""
        driver, drawn = room.driver, []
        while driver.pending().kind == CHANCE_DRAW:
            drawn.append(driver.answer(CHANCE, driver.draw(), save=False))
        return drawn

    async def after_move(self, room: Room, mover: int, events: list, drawn: list[list] = ()) -> None:
        """Save the room, then send every connection the move and the draws after it as its viewer may see them."""
        self.stats["moves"] += 1 + len(drawn)
        room.undo_by, room.undo_agreed = None, set()
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        room.turn_started = time.monotonic()
        async with room.telling:
            await self._save(room)
            text = room.match.plies[-1 - len(drawn)].text if mover != CHANCE else ""
            view = room.room_view()
            shown: dict[tuple, bytes] = {}        # one message per viewer and kind of table, built once
            for conn in room.connections():
                v, key = conn.seat, (conn.seat, conn.layout)
                then = [P.Step(CHANCE, P.wire_events(e, v)) for e in drawn]
                if v == mover:
                    conn.send(P.Played(mover, P.wire_events(events, v), view, v, room.table(v, conn.layout), text,
                                       then))
                    continue
                if key not in shown:
                    shown[key] = P.encode(P.Played(mover, P.wire_events(events, v), view, v, room.table(v, conn.layout),
                                                   "", then))
                conn.send_bytes(shown[key])

    async def advance(self, room: Room) -> None:
        """Answer chance and the server's AIs until a person must move or the game ends (the room's lock held)."""
        loop = asyncio.get_running_loop()
        driver = room.driver
        while True:
            p = driver.pending()
            if p.kind == CHANCE_DRAW:
                events = driver.answer(CHANCE, driver.draw(), save=False)
                await self.after_move(room, CHANCE, events, self._draws(room))
            elif p.kind == AGENT:
                try:            # the room's runner searches in a thread; the event loop serves the others meanwhile
                    events = driver.advance()
                    while events is None and driver.thinking is not None:
                        await asyncio.wrap_future(driver.runner.future)
                        events = driver.advance()
                except AgentFailed as e:   # an agent bug stops that seat, never the server
                    self._notice(room, shown_text(str(e), 300))
                    return
                if events is None:
                    return
                await self.after_move(room, p.seat, events, self._draws(room))
            elif p.kind == PERSON:
                room.turn_started = time.monotonic()
                if room.clock is not None and room.clock_mode == "ai":
                    room.timer = loop.call_later(room.clock, lambda: self.spawn(self._time_up(room, p.ply)))
                return
            else:
                return

    async def suggest(self, conn: Connection, msg: P.Suggest) -> None:
        """The move an agent that sees only this seat would make now, searched on the server (one request at a time
        a connection): how a headless client plays as a searching agent without ever holding the state."""
        room = self._room_of(conn)
        if conn.seat == SPECTATOR:
            raise Refusal("You are watching: only a seated player may ask for a move.")
        if conn.thinking:
            raise Refusal("A suggestion for this seat is still being searched.")
        name, _, level = msg.agent.partition(":")
        known = [n for n in agent_names(room.game) if agent_spec(n, room.game).sees == SEES_SEAT]
        if name not in known:
            raise Refusal(f"'{shown_text(msg.agent, 40)}' is not an agent that plays a seat here: "
                          f"use one of {', '.join(known)}.", "agent")
        spec = agent_spec(name, room.game)
        # only the named levels, each a fixed budget: a time or simulation count ("mcts:600") would let one client
        # hold the server's search threads, which its AI seats share, for as long as it liked
        if level and level not in spec.levels:
            raise Refusal(f"The {spec.words} has no level '{shown_text(level, 20)}'"
                          + (f": use {', '.join(spec.levels)}." if spec.levels else "; it has no levels."), "agent")
        async with room.lock:
            p = room.driver.pending()
            if p.kind != PERSON or p.seat != conn.seat:
                raise Refusal("It is not your turn.")
            if msg.ply is not None and msg.ply != p.ply:
                raise Refusal(f"The table has moved on (it is at ply {p.ply}).")
            agent = make_agent(msg.agent, room.game)
            view = seat_view(agent, room.game, room.match.state)
        conn.thinking = True
        try:            # searched in a thread, the room unlocked: the seat may still move meanwhile
            move = await asyncio.get_running_loop().run_in_executor(self.thinkers, agent.choose, view)
        finally:
            conn.thinking = False
        if room.driver.pending() == p and conn.room is room:
            conn.send(P.Suggested(p.ply, room.game.format_move(room.match.state, move), msg.agent))

    async def _time_up(self, room: Room, ply: int) -> None:
        async with room.lock:
            p = room.driver.pending()
            if p.kind != PERSON or p.ply != ply or self.rooms.get(room.code) is not room:
                return
            agent = make_agent(STAND_IN, room.game)
            view = seat_view(agent, room.game, room.match.state)
            move = await asyncio.get_running_loop().run_in_executor(self.thinkers, agent.choose, view)
            if room.driver.pending() != p:
                return
            self._notice(room, f"{room.match.players[p.seat].name}'s time ran out: an AI moved for them.")
            events = room.driver.answer(p.seat, move, save=False)
            await self.after_move(room, p.seat, events, self._draws(room))
            await self.advance(room)

    # ---- undo by seat, agreed by the others ------------------------------------------------------------------------
    async def ask_undo(self, conn: Connection) -> None:
        room = self._room_of(conn)
        if conn.seat == SPECTATOR:
            raise Refusal("You are watching: there is no move of yours to take back.", "undo")
        async with room.lock:
            if room.undo_by is not None:
                raise Refusal("An undo is already being asked.", "undo")
            if not room.match.can_undo(conn.seat):
                raise Refusal(room.match.why_no_undo(conn.seat), "undo")
            others = self._voters(room, conn.seat)
            if not others:
                await self._undo(room, conn.seat)
                return
            room.undo_by, room.undo_agreed = conn.seat, set()
            name = room.match.players[conn.seat].name
            asked = P.UndoAsked(conn.seat, f"{name} asks to take back their last move. Do you agree?")
            for c in room.connections():
                c.send(asked)

    def _voters(self, room: Room, seat: int) -> set[int]:
        return {i for i, k in enumerate(room.kinds) if k == "remote" and i != seat and room.tokens[i] is not None}

    async def answer_undo(self, conn: Connection, agree: bool) -> None:
        room = self._room_of(conn)
        async with room.lock:
            by = room.undo_by
            if by is None:
                raise Refusal("Nobody is asking to take back a move.", "undo_answer")
            if conn.seat == by or conn.seat not in self._voters(room, by):
                raise Refusal("Only the other players at the table answer this undo.", "undo_answer")
            name = room.match.players[conn.seat].name
            if not agree:
                room.undo_by, room.undo_agreed = None, set()
                done = P.UndoDone(False, f"{name} did not agree: the move stands.")
                for c in room.connections():
                    c.send(done)
                self.broadcast_view(room)
                return
            room.undo_agreed.add(conn.seat)
            if room.undo_agreed >= self._voters(room, by):
                await self._undo(room, by)

    async def _undo(self, room: Room, seat: int) -> None:
        room.undo_by, room.undo_agreed = None, set()
        name = room.match.players[seat].name
        taken = room.match.undo(seat)
        if not taken:
            done = P.UndoDone(False, room.match.why_no_undo(seat))
        else:
            room.driver.taken_back()
            done = P.UndoDone(True, taken_back(taken, [p.name for p in room.match.players], name))
            await self._save(room)
        for c in room.connections():
            c.send(done)
        self.broadcast_view(room)
        await self.advance(room)

    # ---- sending ---------------------------------------------------------------------------------------------------
    def broadcast_view(self, room: Room) -> None:
        view = room.room_view()
        shown: dict[tuple, bytes] = {}
        for conn in room.connections():
            key = (conn.seat, conn.layout)
            if key not in shown:
                shown[key] = P.encode(P.View(view, conn.seat, room.table(conn.seat, conn.layout)))
            conn.send_bytes(shown[key])

    def _notice(self, room: Room, text: str) -> None:
        notice = P.Notice(text)
        for c in room.connections():
            c.send(notice)

    # ---- saving and resuming -----------------------------------------------------------------------------------------
    def _path(self, code: str, suffix: str) -> str:
        return os.path.join(self.data, code + suffix)

    async def _save(self, room: Room) -> None:
        """The room's record, written atomically after every move (in a thread: the loop goes on). A failure is
        told to the room and play goes on."""
        if not self.data:
            return
        text = json.dumps(match_to_record(room.match), indent=1, ensure_ascii=False)
        path = self._path(room.code, ".tower.json")
        try:
            await asyncio.get_running_loop().run_in_executor(self.savers, write_atomic, path, text, False)
        except OSError as e:
            self._notice(room, f"The server could not save this game: {e.strerror or e}.")
            return
        # The move is in the file (a killed server finds it) before anyone is told of it; the file reaches the disk
        # itself (a power cut) right after, without the move's round trip waiting on the disk.
        waiting = self.flushing.get(path)
        if self.sync and (waiting is None or waiting.done() or waiting.running()):
            self.flushing[path] = self.syncers.submit(_flush, path)

    def _save_meta(self, room: Room) -> None:
        if self.data:
            try:
                write_atomic(self._path(room.code, ".room.json"), json.dumps(room.meta()))
            except OSError as e:
                self.log(f"could not save room {room.code}: {e.strerror or e}")

    def resume_rooms(self) -> int:
        """Load every unfinished room saved in the data folder; a damaged one is reported and left alone."""
        count = 0
        for name in sorted(os.listdir(self.data)):
            if not name.endswith(".room.json") or name.startswith("."):
                continue
            code = name[:-len(".room.json")]
            try:
                meta = read_record_file(self._path(code, ".room.json"))
                match = load_match(self._path(code, ".tower.json"))
                kinds, tokens = list(meta["kinds"]), list(meta["tokens"])
                if len(kinds) != len(match.players) or len(tokens) != len(kinds):
                    raise RecordError("its seats do not match its record.")
            except (RecordError, KeyError, TypeError, ValueError, OSError) as e:
                self.log(f"room {shown_text(code, 40)} was not resumed: {shown_text(str(e), 200)}")
                continue
            if match.over:
                continue
            agents = {i: make_agent(p.agent or "random", match.game) for i, p in enumerate(match.players)
                      if kinds[i] == "ai"}
            clock = meta.get("clock")
            driver = Driver(match, frozenset(agents), live_chance(), ThreadRunner(agents, self.thinkers))
            room = Room(code, match, driver, kinds, tokens,
                        float(clock) if isinstance(clock, (int, float)) else None,
                        meta.get("clock_mode") if meta.get("clock_mode") in ("wait", "ai") else "wait", agents)
            self.rooms[code] = room
            self.spawn(self._resume(room))
            count += 1
        if count:
            self.log(f"resumed {count} unfinished room{'s' if count != 1 else ''}")
        return count

    async def _resume(self, room: Room) -> None:
        async with room.lock:
            await self.advance(room)


class Refusal(TowerworldError):
    """A request the server will not do; the message is the sentence the client gets."""

    def __init__(self, text: str, of: str = ""):
        super().__init__(text)
        self.of = of


def _clean_name(name: str, seat: int) -> str:
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
    return text or f"Player {seat + 1}"


async def serve_forever(host: str, port: int, data: str | None, ready=None) -> None:
    server = Server(data)
    await server.start(host, port)
    if ready is not None:
        ready(server)
    try:
        await asyncio.Future()
    finally:
        await server.stop()
