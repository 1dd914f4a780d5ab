"""A headless client: join a room by its invite as a seat (an agent choosing among the legal moves the server sends)
or as a watcher, write every message received to a log (one JSON object a line), and rejoin with the seat's token
when the connection drops (a server restarted on the same address goes on with the same table).

The client knows only what the server sends its viewer: the table (layout, HUD, legal moves when it is to move) and
the events it may see. So `random` chooses here among the legal moves it is sent, and an agent that searches the
game's states (`mcts`, `ismcts:strong`, a game's own) is asked of the server each turn (a `suggest` request): the server
searches from what this seat may know and answers the move alone, which the client then plays as its own.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from towerworld.engine.game import SPECTATOR, TERMINAL, TowerworldError
from towerworld.engine.safe_text import shown_text
from towerworld.net import protocol as P

CLIENT_AGENTS = ("random",)


class ClientError(TowerworldError):
    """What a client could not do, in one sentence."""


class TurnedAway(ClientError):
    """The server refused to seat this client (the room, seat or token was wrong): rejoining would not help."""


def parse_invite(invite: str) -> tuple[str, str]:
    """(server URL, room code) from an invite `ws://HOST:PORT/ROOM` (or wss://); ClientError otherwise."""
    text = invite.strip()
    parts = urlsplit(text)
    room = parts.path.strip("/").rsplit("/", 1)[-1] if parts.path else ""
    if parts.scheme not in ("ws", "wss") or not parts.hostname or not room or len(room) > 40:
        raise ClientError(f"An invite looks like ws://HOST:PORT/ROOM, not '{shown_text(text, 80)}'.")
    return f"{parts.scheme}://{parts.netloc}/{room}", room


def server_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ClientError(f"A server address looks like ws://HOST:PORT, not '{shown_text(url, 80)}'.")
    return f"{parts.scheme}://{parts.netloc}/"


async def open_connection(url: str):
    try:
        return await connect(url, max_size=P.MAX_SERVER_FRAME, compression=None, open_timeout=10)
    except (OSError, InvalidHandshake, InvalidURI, asyncio.TimeoutError) as e:
        raise ClientError(f"Cannot reach the server at {shown_text(url, 80)}: {shown_text(str(e), 120)}.") from None


async def create_room(url: str, game: str, players: list[str], variant: str | None = None,
                      options: dict | None = None, clock: float | None = None, clock_mode: str = "wait") -> str:
    """Open a room on the server at `url`; its code, or ClientError with the server's sentence."""
    ws = await open_connection(server_url(url))
    try:
        await ws.send(P.encode(P.Create(game, players, variant, dict(options or {}), clock, clock_mode)), text=True)
        reply = P.decode_server(await ws.recv())
    finally:
        await ws.close()
    if isinstance(reply, P.Refused):
        raise ClientError(reply.text)
    return reply.room


@dataclass
class Seat:
    """What a client run ends with: the seat it held, its token, the game's outcome and the move round trips."""
    room: str
    seat: int = SPECTATOR
    token: str = ""
    result: str = ""
    moves: int = 0
    round_trips: list = field(default_factory=list)
    refusals: list = field(default_factory=list)
    reconnects: int = 0
    last: P.View | P.Played | None = None


class Log:
    """Every message received, one JSON object a line (the frame as the server sent it)."""

    def __init__(self, path: str | None):
        self.file = open(path, "a", encoding="utf-8") if path else None

    def write(self, frame) -> None:
        if self.file is not None:
            self.file.write((frame.decode("utf-8") if isinstance(frame, bytes) else frame).rstrip("\n") + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


async def play(invite: str, *, agent: str | None = "random", watch: bool = False, name: str | None = None,
               seat: int | None = None, token: str | None = None, log: str | None = None,
               rng: random.Random | None = None, reconnect: float = 30.0, stop_after: int | None = None,
               on_message=None, remember: str | None = None, layout: bool = True) -> Seat:
    """Join `invite` and play to the end (or watch with `watch`). `agent` "random" chooses among the legal moves
    sent, any other agent of the game (NAME or NAME:LEVEL) is asked of the server each turn; None makes no moves.
    `stop_after`: leave after making that many moves (tests of rejoining). A dropped connection is rejoined with the
    token for up to `reconnect` seconds. `remember`: keep the seat's token on this machine under that invite
    (`remembered_token`), so that joining it again rejoins the seat. `layout` False: ask for tables without pieces,
    cells and labels (a client that draws nothing)."""
    url, room = parse_invite(invite)
    rng = rng or random.Random()
    out = Seat(room, token=token or "")
    logbook = Log(log)
    try:
        while True:
            try:
                done = await _session(url, room, out, watch, name, seat, agent, rng, logbook, stop_after, on_message,
                                      remember, layout)
            except (ConnectionClosed, ClientError) as e:
                if isinstance(e, TurnedAway) or (isinstance(e, ClientError) and not out.token):
                    raise
                if isinstance(e, ConnectionClosed) and e.rcvd is not None and e.rcvd.code in (1008, 1009, 4001):
                    raise ClientError(f"The server closed the connection: {shown_text(e.rcvd.reason, 120)}") \
                        from None
                if not await _wait_for_server(url, reconnect):
                    raise ClientError("The connection to the server was lost and it did not come back.") from None
                out.reconnects += 1
                continue
            if done:
                return out
    finally:
        logbook.close()


async def _wait_for_server(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ws = await connect(url, max_size=P.MAX_SERVER_FRAME, compression=None, open_timeout=2)
            await ws.close()
            return True
        except (OSError, InvalidHandshake, asyncio.TimeoutError):
            await asyncio.sleep(0.2)
    return False


async def _session(url, room, out: Seat, watch, name, seat, agent, rng, logbook: Log, stop_after, on_message,
                   remember, layout=True):
    ws = await open_connection(url)
    try:
        if watch:
            await ws.send(P.encode(P.Watch(room, layout)), text=True)
        elif out.token:
            await ws.send(P.encode(P.Join(room, token=out.token, layout=layout)), text=True)
        else:
            await ws.send(P.encode(P.Join(room, name=name, seat=seat, layout=layout)), text=True)
        sent_at: float | None = None
        sent_ply = -1
        sent_text = ""
        refused: set = set()
        async for frame in ws:
            logbook.write(frame)
            msg = P.decode_server(frame)
            if on_message is not None:
                on_message(msg)
            if isinstance(msg, P.Joined):
                out.seat, out.token = msg.seat, msg.token or out.token
                if remember and msg.token:
                    remember_token(remember, msg.token)
                continue
            if isinstance(msg, P.Suggested):
                table = out.last.table if out.last is not None else None
                if table is not None and msg.ply == table.ply == sent_ply and table.to_move == out.seat:
                    sent_text, sent_at = msg.text, time.perf_counter()
                    out.moves += 1
                    await ws.send(P.encode(P.Play(sent_text, table.ply)), text=True)
                continue
            if isinstance(msg, P.Refused):
                out.refusals.append(msg.text)
                if msg.of in ("join", "watch", "agent"):
                    raise TurnedAway(msg.text)
                if msg.of == "rate" and sent_at is not None and out.last is not None:   # the same move, later
                    await asyncio.sleep(0.2)
                    await ws.send(P.encode(P.Play(sent_text, out.last.table.ply)), text=True)
                    continue
                if msg.of == "move" and out.last is not None:    # choose again among the moves not refused
                    table = out.last.table
                    refused.add(sent_text)
                    left = [m for m in table.legal if m not in refused]
                    if agent is not None and not watch and table.to_move == out.seat and left:
                        sent_text = left[rng.randrange(len(left))]
                        sent_at = time.perf_counter()
                        await ws.send(P.encode(P.Play(sent_text, table.ply)), text=True)
                continue
            if not isinstance(msg, (P.View, P.Played)):
                continue
            out.last = msg
            table = msg.table
            if isinstance(msg, P.Played) and msg.mover == out.seat and sent_at is not None:
                out.round_trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if table.to_move == TERMINAL:
                out.result = table.result
                return True
            if (agent is not None and not watch and table.to_move == out.seat and table.legal
                    and table.ply != sent_ply):
                if stop_after is not None and out.moves >= stop_after:
                    return True
                sent_ply, refused = table.ply, set()
                if agent.split(":", 1)[0] not in CLIENT_AGENTS:      # searched on the server, for this seat
                    await ws.send(P.encode(P.Suggest(agent, table.ply)), text=True)
                    continue
                sent_text = table.legal[rng.randrange(len(table.legal))]
                sent_at = time.perf_counter()
                out.moves += 1
                await ws.send(P.encode(P.Play(sent_text, table.ply)), text=True)
        raise ConnectionClosed(None, None)
    finally:
        await ws.close()


# ---- this machine's seats ------------------------------------------------------------------------------------------
def _seats_file() -> str:
    return os.path.join(os.path.expanduser("~"), ".towerworld", "seats.json")


def remembered_token(invite: str) -> str | None:
    """The token this machine was given for a seat at `invite`, if it kept one."""
    try:
        with open(_seats_file(), encoding="utf-8") as f:
            data = json.load(f)
        token = data.get(parse_invite(invite)[0])
    except (OSError, ValueError, AttributeError, ClientError):
        return None
    return token if isinstance(token, str) and 0 < len(token) <= 100 else None


def remember_token(invite: str, token: str) -> None:
    """Keep `token` for `invite` (readable by this user only); best effort."""
    path = _seats_file()
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[parse_invite(invite)[0]] = token
    data = dict(list(data.items())[-200:])
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def reachable_address() -> str:
    """This machine's address on its network, as others would reach it (no packet is sent); 127.0.0.1 if none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))        # a documentation address: only picks the outgoing interface
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
