"""Hostile and broken clients get one sentence or a close code, never a crash or a leak, and every other room goes
on: each test runs a whole game in another room while it misbehaves, and that game must finish."""
from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import time

from websockets.exceptions import ConnectionClosed

from towerworld.engine.game import SPECTATOR
from towerworld.net import client as C
from towerworld.net import protocol as P

try:
    from test_net import Raw, run, started
except ImportError:  # tests run as a package
    from tests.test_net import Raw, run, started


async def beside_a_game(server, url, misbehave):
    """Run `misbehave()` while two clients play a whole game of Throwdown in another room; both must finish it."""
    code = await C.create_room(url, "throwdown", ["remote", "remote"])
    invite = f"{url}/{code}"
    game = asyncio.gather(*[C.play(invite, rng=random.Random(i)) for i in range(2)])
    result = await misbehave(code)
    done = await asyncio.wait_for(game, 90)
    assert done[0].result and done[0].result == done[1].result
    return result


def test_an_oversized_frame_closes_that_connection_with_1009(tmp_path):
    async def scenario():
        server, url = await started(None)

        async def misbehave(_):
            raw = await Raw.open(url)
            await raw.ws.send("x" * (P.MAX_CLIENT_FRAME + 1))
            await raw.ws.wait_closed()
            return raw.ws.close_code
        try:
            assert await beside_a_game(server, url, misbehave) == 1009
        finally:
            await server.stop()
    run(scenario())


def test_malformed_messages_get_one_sentence_each_and_the_connection_goes_on(tmp_path):
    async def scenario():
        server, url = await started(None)

        async def misbehave(code):
            raw = await Raw.open(url)
            answers = []
            for frame in ("{not json", "[1, 2]", '{"kind": "explode"}', '{"text": "a"}', '{"kind": "move"}',
                          '{"kind": "move", "text": 5}', '{"kind": "join", "room": "r", "admin": true}',
                          '{"kind": "move", "text": "' + "a" * 5000 + '"}', '{"kind": "join", "room": "r", "seat": 0}'):
                await raw.ws.send(frame)
                answers.append((await raw.recv()).text)
            await raw.ws.send(b'{"kind": "look"}')
            answers.append((await raw.recv()).text)
            await raw.send(P.Play("anything"))
            answers.append((await raw.recv()).text)
            await raw.send(P.Join("no-such-room"))
            answers.append((await raw.recv()).text)
            await raw.send(P.Watch(code))                  # after all that, the same connection still works
            joined = await raw.recv(P.Joined)
            await raw.close()
            return answers, joined
        try:
            answers, joined = await beside_a_game(server, url, misbehave)
        finally:
            await server.stop()
        kinds = "create, join, watch, move, undo, undo_answer, look, suggest"
        assert answers[0] == "That message is not JSON."
        assert answers[1].startswith("That message is not valid: Expected `object`")
        assert answers[2] == answers[3] == f"Unknown message kind; a message's 'kind' is one of {kinds}."
        assert answers[4] == "That message is not valid: Object missing required field `text`."
        assert answers[5] == "That message is not valid: Expected `str`, got `int` - at `$.text`."
        assert answers[6] == "That message is not valid: Object contains unknown field `admin`."
        assert answers[7] == "That message is not valid: Expected `str` of length <= 200 - at `$.text`."
        assert answers[8] == "That message is not valid: Expected `int` >= 1 - at `$.seat`."
        assert answers[9] == "Messages are JSON text frames, not binary ones."
        assert answers[10] == "Join or watch a room first."
        assert answers[11] == "There is no room 'no-such-room' on this server."
        assert all(a.count(".") >= 1 and "\n" not in a for a in answers)
        assert joined.seat == SPECTATOR and joined.token == ""
    run(scenario())


def test_moves_for_another_seat_are_refused(tmp_path):
    async def scenario():
        server, url = await started(None)

        async def misbehave(code):
            other = await C.create_room(url, "carcassonne", ["remote", "remote"])
            a, b = await Raw.open(url), await Raw.open(url)
            await a.send(P.Join(other))
            token = (await a.recv(P.Joined)).token
            await b.send(P.Join(code, token=token))          # a token of another room takes no seat here
            refused = await b.recv(P.Refused)
            await b.send(P.Join(other))
            await b.recv(P.Joined)
            room = server.rooms[other]
            while room.match.current_player < 0:
                await asyncio.sleep(0.01)
            waiting = b if room.match.current_player == 0 else a
            await waiting.send(P.Play(room.table(room.match.current_player).legal[0]))
            out_of_turn = await waiting.recv(P.Refused)
            await a.close()
            await b.close()
            return refused.text, out_of_turn.text, room.match.current_player
        try:
            refused, out_of_turn, to_move = await beside_a_game(server, url, misbehave)
        finally:
            await server.stop()
        assert refused == "That token holds no seat in this room."
        assert out_of_turn == f"It is not your turn: Player {to_move + 1} is to move."
    run(scenario())


def test_a_flood_is_refused_then_closed_with_1008(tmp_path):
    async def scenario():
        server, url = await started(None, rate=20, burst=20, flood_close=50)

        async def misbehave(code):
            raw = await Raw.open(url)
            texts = []
            try:
                for _ in range(500):
                    await raw.ws.send('{"kind": "look"}')
                async for frame in raw.ws:
                    msg = P.decode_server(frame)
                    texts.append(msg.text)
            except ConnectionClosed:
                pass
            return texts, raw.ws.close_code, raw.ws.close_reason
        try:
            texts, code, reason = await beside_a_game(server, url, misbehave)
        finally:
            await server.stop()
        assert "Join or watch a room first." in texts                # the first ones, within the burst
        assert texts.count("Too many messages: at most 20 a second.") >= 40
        assert code == 1008 and reason == "Too many messages: this connection is closed."
    run(scenario())


def handshake(port: int, rcvbuf: int | None = None) -> socket.socket:
    """A websocket opened by hand on a bare socket (that then never reads, or never answers a ping)."""
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += s.recv(1)
    assert reply.startswith(b"HTTP/1.1 101")
    return s


def text_frame(text: str) -> bytes:
    data = text.encode()
    assert len(data) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_slow_reader_is_closed_and_the_room_goes_on(tmp_path):
    async def scenario():
        server, url = await started(None, out_queue=32, ping_interval=None)

        async def misbehave(code):
            s = await asyncio.to_thread(handshake, server.port, 1024)
            s.sendall(text_frame(f'{{"kind": "watch", "room": "{code}"}}'))
            room = server.rooms[code]
            deadline = time.monotonic() + 60
            look = text_frame('{"kind": "look"}')
            while server.stats["slow"] == 0 and time.monotonic() < deadline:
                try:
                    s.sendall(look)                       # asks for the whole table, again and again, never reads
                except OSError:
                    break
                await asyncio.sleep(0.015)
            dropped = all(c.closing for c in room.watchers)
            s.close()
            return server.stats["slow"], dropped
        try:
            slow, dropped = await beside_a_game(server, url, misbehave)
        finally:
            await server.stop()
        assert slow == 1 and dropped
    run(scenario())


def test_a_half_open_connection_is_dropped_by_the_keepalive(tmp_path):
    async def scenario():
        server, url = await started(None, ping_interval=0.3, ping_timeout=0.3)

        async def misbehave(_):
            code = await C.create_room(url, "throwdown", ["remote", "remote"])
            s = await asyncio.to_thread(handshake, server.port)
            s.sendall(text_frame(f'{{"kind": "join", "room": "{code}"}}'))   # takes seat 1, then goes silent
            room = server.rooms[code]
            deadline = time.monotonic() + 5
            while 0 not in room.conns and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            held = 0 in room.conns
            watcher = await Raw.open(url)
            await watcher.send(P.Watch(code))
            view = await watcher.recv(P.View)
            shown = view.room.seats[0].connected
            while view.room.seats[0].connected:             # the others are shown the seat's connection drop
                view = await watcher.recv(P.View)
            s.close()
            await watcher.close()
            return held, shown, 0 in room.conns, room.tokens[0] is not None
        try:
            held, shown, still, kept = await beside_a_game(server, url, misbehave)
        finally:
            await server.stop()
        assert held and shown and not still and kept       # dropped, but the seat stays its token's
    run(scenario())
