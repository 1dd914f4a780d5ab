"""The commands: `towerworld host` serves a room and prints its invite on a line of its own; two `towerworld join
--agent random` processes finish the game and a `join --watch --log` process watches it to the end; bad input gets
one sentence."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

try:
    from test_net_restart import free_port
except ImportError:  # tests run as a package
    from tests.test_net_restart import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def towerworld(*args, home, **kw):
    env = dict(os.environ, PYTHONPATH=ROOT, HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "towerworld", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def test_host_prints_an_invite_and_joined_agents_and_a_watcher_finish_the_game(tmp_path):
    port = free_port()
    host = towerworld("host", "throwdown", "--host", "127.0.0.1", "--port", str(port), "--data",
                      str(tmp_path / "rooms"), home=tmp_path / "host")
    try:
        lines = [host.stdout.readline(), host.stdout.readline()]
        invite = lines[1].strip()
        assert re.fullmatch(rf"ws://127\.0\.0\.1:{port}/[A-Za-z0-9]{{8}}", invite), lines
        watcher = towerworld("join", invite, "--watch", "--log", str(tmp_path / "watch.log"), home=tmp_path / "w")
        players = [towerworld("join", invite, "--agent", "random", "--name", name, "--log",
                              str(tmp_path / f"{name}.log"), home=tmp_path / name) for name in ("Ann", "Bob")]
        outs = [p.communicate(timeout=120) for p in players + [watcher]]
        assert [p.returncode for p in players + [watcher]] == [0, 0, 0], outs
        results = {out.strip().split(": ", 1)[1] for out, _ in outs}
        assert len(results) == 1 and results.pop().endswith(".")
        assert {out.split(":")[0] for out, _ in outs} == {"played as Player 1", "played as Player 2", "watched"}
        with open(tmp_path / "Ann.log", encoding="utf-8") as f:
            first = json.loads(f.readline())
        assert first["kind"] == "joined" and len(first["token"]) >= 32
        # the token was kept on that machine for this invite (readable by its user only)
        seats = tmp_path / "Ann" / ".towerworld" / "seats.json"
        assert json.loads(seats.read_text())[invite] == first["token"]
        assert oct(seats.stat().st_mode & 0o777) == "0o600"
    finally:
        host.kill()
        host.wait()


def test_bad_input_gets_one_sentence(tmp_path):
    cases = [
        (["join", "http://example.org/x", "--agent", "random"],
         "towerworld: An invite looks like ws://HOST:PORT/ROOM, not 'http://example.org/x'.\n"),
        (["host", "nogame", "--server", "ws://127.0.0.1:1"],
         "towerworld: There is no game called 'nogame' (games: carcassonne, elevation, kdak, throwdown, ziggurat).\n"),
        (["join", "ws://127.0.0.1:1/ROOM", "--watch", "--agent", "random"],
         "towerworld: --watch and --agent do not go together: a watcher makes no moves.\n"),
        (["join", "ws://127.0.0.1:1/ROOM", "--window"],
         "towerworld: --window goes with --agent NAME: without an agent, join opens the table for you anyway.\n"),
    ]
    for args, said in cases:
        p = towerworld(*args, home=tmp_path)
        out, err = p.communicate(timeout=60)
        assert (p.returncode, err) == (2, said)
    p = towerworld("join", f"ws://127.0.0.1:{free_port()}/ROOM", "--agent", "random", home=tmp_path)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2 and err.startswith("towerworld: Cannot reach the server at ws://127.0.0.1:")
    assert err.count("\n") == 1


def test_join_without_an_agent_opens_the_table_as_that_seat(tmp_path):
    """`towerworld join INVITE` (no --agent, no --watch) is the window; offscreen for a few frames here."""
    port = free_port()
    host = towerworld("host", "kdak", "--players", "human,greedy", "--host", "127.0.0.1", "--port", str(port),
                      "--data", str(tmp_path / "rooms"), home=tmp_path / "host")
    try:
        host.stdout.readline()
        invite = host.stdout.readline().strip()
        window = towerworld("join", invite, "--name", "Ann", "--log", str(tmp_path / "window.log"), "--size",
                            "640x400", "--frames", "300", home=tmp_path / "ann")
        out, err = window.communicate(timeout=120)
        assert window.returncode == 0, err
        with open(tmp_path / "window.log", encoding="utf-8") as f:
            kinds = [json.loads(line)["kind"] for line in f]
        assert kinds[0] == "joined" and "view" in kinds
    finally:
        host.kill()
        host.wait()
