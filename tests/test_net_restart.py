"""Nothing lost: `towerworld serve` killed with SIGKILL in the middle of a game resumes the room from its autosave,
the clients rejoin with their tokens and finish, and every move any client was told of is in the final record."""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time

from towerworld.engine.record import load_match
from towerworld.net import client as C

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, data: str, out: str) -> subprocess.Popen:
    """`towerworld serve` in a process of its own, once it listens; what it prints goes to `out`."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    with open(out, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "towerworld", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--data", data], stdout=f, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(out) as f:
            if "towerworld server on ws://127.0.0.1:" in f.read():
                return proc
        assert proc.poll() is None, open(out).read()
        time.sleep(0.05)
    raise AssertionError("the server did not start")


def test_a_killed_server_resumes_its_rooms_and_the_clients_go_on(tmp_path):
    port, data = free_port(), str(tmp_path / "rooms")
    proc = start_server(port, data, str(tmp_path / "serve1.out"))
    procs = [proc]
    url = f"ws://127.0.0.1:{port}"
    try:
        async def scenario():
            code = await C.create_room(url, "throwdown", ["remote", "remote"])
            invite = f"{url}/{code}"
            far = asyncio.Event()

            def seen(msg):
                if getattr(msg, "table", None) is not None and msg.table.ply >= 30:
                    far.set()
            players = [asyncio.ensure_future(C.play(invite, rng=random.Random(i), log=str(tmp_path / f"seat{i}.log"),
                                                    on_message=seen if i == 0 else None, reconnect=60))
                       for i in range(2)]
            await far.wait()
            os.kill(procs[-1].pid, signal.SIGKILL)             # no chance to save anything more
            procs[-1].wait()
            await asyncio.sleep(0.3)
            procs.append(await asyncio.to_thread(start_server, port, data, str(tmp_path / "serve2.out")))
            return code, await asyncio.wait_for(asyncio.gather(*players), 120)

        code, done = asyncio.run(scenario())
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [d.reconnects for d in done] == [1, 1]
    with open(tmp_path / "serve2.out") as f:
        assert "towerworld serve: resumed 1 unfinished room" in f.read()
    match = load_match(os.path.join(data, f"{code}.tower.json"))
    assert match.over and done[0].result == done[1].result == match.result_text()
    for i in range(2):
        with open(tmp_path / f"seat{i}.log", encoding="utf-8") as f:
            lines = [json.loads(line) for line in f]
        assert sum(1 for m in lines if m["kind"] == "joined") == 2          # joined, then rejoined with the token
        for m in lines:
            if m["kind"] == "played":
                # every move told of is in the record (the draws told with it follow it there)
                ply = match.plies[m["table"]["ply"] - 1 - len(m.get("then", []))]
                assert m["mover"] == ply.mover
                if m["mover"] == i:
                    assert m["text"] == ply.text
        # each seat was told of every move of its own that the record holds, but for at most the one in flight when
        # the server was killed: either it was never taken (the seat chose again from the table it was sent on
        # rejoining), or it was saved and the kill came before it was told, so the table sent on rejoining shows it
        own = [m for m in lines if m["kind"] == "played" and m["mover"] == i]
        told = {m["table"]["ply"] - 1 - len(m.get("then", [])) for m in own}
        recorded = {k for k, p in enumerate(match.plies) if p.mover == i}
        assert told <= recorded
        untold = recorded - told
        rejoined = next(k for k, m in enumerate(lines) if m["kind"] == "joined" and k > 0)
        before = max(m["table"]["ply"] for m in lines[:rejoined] if m["kind"] in ("view", "played"))
        after = next(m["table"]["ply"] for m in lines[rejoined:] if m["kind"] in ("view", "played"))
        assert len(untold) <= 1 and all(before <= k < after for k in untold), (untold, before, after)
        assert done[i].moves - len(own) in (0, 1)
