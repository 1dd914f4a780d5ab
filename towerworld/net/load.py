"""The server under load, measured (for scripts/bench.py, never a test): one `towerworld serve` process holding many
rooms, each with two headless clients playing random legal moves on localhost for a while. Each client takes a
moment before it moves (THINK seconds on average, as a quick player does), so the rooms play at once rather than in
turn: the server's round trip is then what a player waits at a busy server.

Figures: rooms, moves a second over all rooms, the median and 99th percentile of a move's round trip (a client sends
its move; the server checks it, saves the room and sends every connection its view; the mover has its own `played`
back), and the server's memory per room (resident memory with the rooms open, less the server's before them). Beside
them, the share of a core the server and the clients' process used, and the machine's load average at the end (the
machine may be shared: the round trip includes waiting for a core).
"""
from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from towerworld.net import protocol as P
from towerworld.net.client import create_room, open_connection

THINK = (0.5, 3.5)         # seconds a client waits before it moves: uniform in this span, 2 s on average
LAYOUT = False             # headless clients draw nothing, so they ask for tables without the layout
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_s(pid: int) -> float:
    """CPU seconds the process has used (user and system)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _seat(url: str, room: str, rng: random.Random, until: float, trips: list, moves: list,
                think: tuple[float, float] = THINK) -> None:
    ws = await open_connection(url + "/")
    try:
        await ws.send(P.encode(P.Join(room, layout=LAYOUT)), text=True)
        seat, sent_at, sent_ply = None, None, -1
        while time.monotonic() < until:
            try:
                frame = await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic()))
            except asyncio.TimeoutError:
                break
            msg = P.decode_server(frame)
            if isinstance(msg, P.Joined):
                seat = msg.seat
                continue
            if not isinstance(msg, (P.View, P.Played)):
                continue
            if isinstance(msg, P.Played) and msg.mover == seat and sent_at is not None:
                trips.append(time.perf_counter() - sent_at)
                sent_at = None
            table = msg.table
            if table.to_move == seat and table.legal and table.ply != sent_ply:
                await asyncio.sleep(rng.uniform(*think))
                sent_at, sent_ply = time.perf_counter(), table.ply
                moves.append(1)
                await ws.send(P.encode(P.Play(table.legal[rng.randrange(len(table.legal))], table.ply)), text=True)
            elif table.to_move < -1:           # the game is over
                break
    finally:
        await ws.close()


async def _drive(url: str, rooms: int, seconds: float, game: str, pid: int) -> dict:
    codes = [await create_room(url, game, ["remote", "remote"]) for _ in range(rooms)]
    trips: list = []
    moves: list = []
    warm = time.monotonic() + 5.0                 # everyone joins and the first moves go by first
    until = warm + seconds
    rng = random.Random(1)
    tasks = [asyncio.ensure_future(_seat(url, code, random.Random(rng.random()), until, trips, moves))
             for code in codes for _ in range(2)]
    await asyncio.sleep(max(0.0, warm - time.monotonic()))
    start_moves, start_trips = len(moves), len(trips)
    cpu0 = _cpu_s(pid)
    own0 = _cpu_s(os.getpid())
    peak = 0
    while time.monotonic() < until:
        peak = max(peak, _rss_kb(pid))
        await asyncio.sleep(0.5)
    counted = len(moves) - start_moves
    cpu = _cpu_s(pid) - cpu0
    clients_cpu = _cpu_s(os.getpid()) - own0
    with open("/proc/loadavg", encoding="ascii") as f:
        load = float(f.read().split()[0])
    await asyncio.gather(*tasks, return_exceptions=True)
    measured = sorted(trips[start_trips:])
    p99 = measured[min(len(measured) - 1, int(0.99 * len(measured)))] if measured else float("nan")
    return {"rooms": rooms, "moves_per_s": counted / seconds,
            "rtt_median_ms": 1000 * statistics.median(measured) if measured else float("nan"),
            "rtt_p99_ms": 1000 * p99, "peak_kb": peak, "server_cpu_share": cpu / seconds,
            "clients_cpu_share": clients_cpu / seconds, "load_average": load}


def measure(rooms: int = 200, seconds: float = 20.0, game: str = "throwdown") -> dict:
    """Start a server process, open `rooms` rooms with two random-move clients each (in this process), play for
    `seconds` after a warm-up, and return the figures."""
    port = _free_port()
    data = tempfile.mkdtemp(prefix="towerworld-load-")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = os.path.join(data, "serve.out")
    with open(out, "w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "towerworld", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--data", os.path.join(data, "rooms")], stdout=f, stderr=subprocess.STDOUT,
                                env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            with open(out) as f:
                if "towerworld server on" in f.read():
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start: " + open(out).read()[-300:])
            time.sleep(0.05)
        time.sleep(0.5)
        base = _rss_kb(proc.pid)
        figures = asyncio.run(_drive(f"ws://127.0.0.1:{port}", rooms, seconds, game, proc.pid))
        figures["kb_per_room"] = (figures.pop("peak_kb") - base) / rooms
        return figures
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    print(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
