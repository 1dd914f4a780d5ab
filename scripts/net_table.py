"""Network play end to end, every game: one `towerworld serve` on localhost, a room per game opened with
`towerworld host --server`, two headless agent clients (`towerworld join --agent random`) and one window client
(`towerworld join --agent random --window`, a real window on an Xvfb display, its moves made through its clicks and
buttons) playing it to the end. Pictures of the window mid-game and at the end are taken from the display (`import`).

Seats: a game that seats three (Throwdown, Carcassonne) seats all three clients; a two-seat game seats the window and
one headless client while the other headless client watches; a solitaire game seats the window while both headless
clients watch. Each client's log (every message it received) is kept beside the pictures; at the end each game's
record in the server's folder is checked to be over, with every client's last table showing its result.

    PYTHONPATH=. python scripts/net_table.py [--out DIR] [--games kdak,throwdown,...]

Needs Xvfb and ImageMagick's `import` (apt-get install -y xvfb imagemagick). Exit 0 when every game finished for
every client; a summary line per game.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

GAMES = ("kdak", "ziggurat", "throwdown", "carcassonne", "elevation")
SIZE = (1280, 800)
MID = 10                    # moves told to the window before its mid-game picture
GAME_LIMIT = 900            # seconds one game may take before the run says it did not finish


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_display() -> int:
    for n in range(90, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    raise RuntimeError("no free X display number")


STARTED: list[subprocess.Popen] = []        # every process this run started, stopped at its end whatever happens


def towerworld(args, *, env, out, **kw) -> subprocess.Popen:
    f = open(out, "w")
    proc = subprocess.Popen([sys.executable, "-m", "towerworld", *args], stdout=f, stderr=subprocess.STDOUT,
                            env=env, cwd=ROOT, **kw)
    STARTED.append(proc)
    return proc


def wait_for(path: str, text: str, proc: subprocess.Popen, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8", errors="replace") as f:
            got = f.read()
        if text in got:
            return got
        if proc.poll() is not None:
            raise RuntimeError(f"{' '.join(proc.args[2:4])} stopped: {got[-400:]}")
        time.sleep(0.1)
    raise RuntimeError(f"waited {seconds:g} s for '{text}' in {path}")


def last_table(log: str) -> dict | None:
    """The last table a client's log holds (None before any)."""
    try:
        with open(log, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            msg = json.loads(line)
        except ValueError:
            continue                         # a line being written
        if msg.get("kind") in ("view", "played"):
            return msg["table"]
    return None


def moves_told(log: str) -> int:
    """How many `played` messages a client's log holds."""
    try:
        with open(log, encoding="utf-8") as f:
            return sum(1 for line in f if line.startswith('{"kind":"played"'))
    except OSError:
        return 0


def joined_seat(log: str) -> int | None:
    try:
        with open(log, encoding="utf-8") as f:
            for line in f:
                msg = json.loads(line)
                if msg.get("kind") == "joined":
                    return msg["seat"]
    except (OSError, ValueError):
        return None
    return None


def shot(display: int, path: str) -> None:
    subprocess.run(["import", "-display", f":{display}", "-window", "root", path], check=True, timeout=60)


def seats_for(game) -> tuple[int, int]:
    """(seats, headless clients seated): three seats where the game takes three, else as many as it takes."""
    n = min(3, game.max_players)
    return n, n - 1


# Ziggurat's solitaire has no bound but its cheat limit: a random hand may cheat for thousands of plies
OPTIONS = {"ziggurat": ["-o", "cheat_limit=40"]}


def play_game(name: str, url: str, out: str, display: int, window_agent: str = "random") -> dict:
    from towerworld.engine.registry import get_game
    from towerworld.engine.record import load_match
    game = get_game(name)
    seats, seated = seats_for(game)
    env = dict(os.environ, PYTHONPATH=ROOT)
    host_out = os.path.join(out, f"{name}-host.out")
    host = towerworld(["host", name, "--server", url, "--players", ",".join(["remote"] * seats)]
                      + OPTIONS.get(name, []), env=env, out=host_out)
    host.wait(60)
    with open(host_out, encoding="utf-8") as f:
        invite = next(line.strip() for line in f if line.startswith("ws://"))
    procs, logs = {}, {}
    # the window first, so that it takes the first seat; each client in a home of its own (seat tokens kept apart)
    for who, args in [("window", ["--agent", window_agent, "--window", "--size", f"{SIZE[0]}x{SIZE[1]}"])] + \
            [(f"headless{i + 1}", ["--agent", "random"] if i < seated else ["--watch"]) for i in range(2)]:
        home = tempfile.mkdtemp(prefix=f"towerworld-{who}-")
        logs[who] = os.path.join(out, f"{name}-{who}.log")
        cenv = dict(env, HOME=home, DISPLAY=f":{display}")
        procs[who] = towerworld(["join", invite, "--log", logs[who], *args], env=cenv,
                                out=os.path.join(out, f"{name}-{who}.out"))
        deadline = time.monotonic() + 120
        while joined_seat(logs[who]) is None and time.monotonic() < deadline and procs[who].poll() is None:
            time.sleep(0.1)
    # mid-game: once the window has been told of MID moves (everyone seated by then)
    start, mid_taken = time.monotonic(), False
    mid = os.path.join(out, f"{name}-window-mid.png")
    end = os.path.join(out, f"{name}-window-end.png")
    finished = False
    while time.monotonic() - start < GAME_LIMIT:
        tables = {who: last_table(log) for who, log in logs.items()}
        window = tables["window"]
        if not mid_taken and window is not None and moves_told(logs["window"]) >= MID:
            time.sleep(1.0)                  # let the window draw what it was sent
            shot(display, mid)
            mid_taken = True
        if all(t is not None and t["to_move"] < -1 and t.get("result") for t in tables.values()):
            finished = True
            break
        if procs["window"].poll() is not None:
            break
        time.sleep(0.5)
    if finished:
        time.sleep(2.0)
        shot(display, end)
    for who in ("headless1", "headless2"):
        try:
            procs[who].wait(30)
        except subprocess.TimeoutExpired:
            procs[who].kill()
    procs["window"].terminate()
    try:
        procs["window"].wait(20)
    except subprocess.TimeoutExpired:
        procs["window"].kill()
    code = invite.rsplit("/", 1)[1]
    return {"game": name, "invite": invite, "code": code, "finished": finished,
            "seats": {who: joined_seat(log) for who, log in logs.items()},
            "results": {who: (last_table(log) or {}).get("result", "") for who, log in logs.items()},
            "pictures": [p for p in (mid, end) if os.path.exists(p)], "load": load_match}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "net_table"))
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--window-agent", default="random",
                        help="the agent that plays the window's seat through its clicks (any other than random is "
                             "asked of the server: greedy finishes Ziggurat's solitaire far sooner)")
    args = parser.parse_args(argv)
    for tool in ("Xvfb", "import"):
        if shutil.which(tool) is None:
            print(f"net_table: {tool} is missing (apt-get install -y xvfb imagemagick).", file=sys.stderr)
            return 2
    os.makedirs(args.out, exist_ok=True)
    data = tempfile.mkdtemp(prefix="towerworld-net-table-")
    display = free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", f"{SIZE[0]}x{SIZE[1]}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=ROOT)
    serve_out = os.path.join(args.out, "serve.out")
    serve = towerworld(["serve", "--host", "127.0.0.1", "--port", str(port), "--data", data], env=env, out=serve_out)
    ok = True
    try:
        wait_for(serve_out, "towerworld server on", serve)
        for name in [g.strip() for g in args.games.split(",") if g.strip()]:
            t = time.monotonic()
            got = play_game(name, f"ws://127.0.0.1:{port}", args.out, display, args.window_agent)
            match = got.pop("load")(os.path.join(data, f"{got['code']}.tower.json"))
            done = got["finished"] and match.over and all(r == match.result_text() for r in got["results"].values())
            ok &= done
            seats = ", ".join(f"{who}: {'watching' if s is not None and s < 0 else f'Player {s + 1}' if s is not None else '?'}"
                              for who, s in got["seats"].items())
            print(f"{name}: {'finished' if done else 'NOT finished'} in {time.monotonic() - t:.0f} s, "
                  f"{len(match.plies)} plies; {seats}; result: {match.result_text() if match.over else '-'}; "
                  f"pictures: {', '.join(os.path.relpath(p, ROOT) for p in got['pictures']) or 'none'}",
                  flush=True)
    finally:
        for proc in STARTED:
            if proc is not serve and proc.poll() is None:
                proc.kill()
                proc.wait()
        serve.terminate()
        try:
            serve.wait(20)
        except subprocess.TimeoutExpired:
            serve.kill()
        xvfb.terminate()
        xvfb.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
