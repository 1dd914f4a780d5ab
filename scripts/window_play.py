#!/usr/bin/env python3
"""Play a game in a real window with real mouse and keyboard input, as a person would: the human seat is driven by
xdotool (pointer moves, clicks, the R key), the other seats are the app's own AIs.

    Xvfb :93 -screen 0 1280x800x24 &
    python scripts/window_play.py carcassonne --players human,mcts,mcts --level fast --display :93 --shots out/

The app runs unchanged (`towerworld play ...`) in a child process; a small hook added to its table writes what a
player can see to a JSON file a few times a second: whose turn it is, the glowing places and pieces projected to
window pixels, the buttons, the preview under the pointer and its options (a tile's rotations). This script reads
that and acts only through the X server: it moves the pointer onto a glowing place, waits for the preview, turns it
with R a random number of times, clicks; or clicks a button. It knows no game: it plays whatever glows (chosen at
random, with a fixed --seed), so it works for any game on the table. Screenshots of the whole screen (xwd) are taken
at the start, the middle (--middle-ply) and the end, as PNGs in --shots (and with --shot-lit, while a scoring lights up).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Runs inside the app's process: the table's visible state to a JSON file every 0.2 s (written whole, then renamed).
HOOK = r'''
import json, os, sys
from panda3d.core import Point2, Point3
from towerworld.app import play

STATE = sys.argv[1]
LIT_PICTURE = os.environ.get("WINDOW_PLAY_LIT")    # the window's own frame, saved once as a scoring lights up
_init = play.PlayTable.__init__
_lit = {"saved": None}


def _save_lit(table, task):
    from panda3d.core import Filename
    table.base.win.saveScreenshot(Filename.fromOsSpecific(LIT_PICTURE))
    _lit["saved"] = table.hud.message.getText()
    return task.done


def _export(table, task):
    b = table.base
    width, height = b.win.getXSize(), b.win.getYSize()

    def pixel(point):
        screen = Point2()
        if not b.camLens.project(b.cam.getRelativePoint(b.render, point), screen):
            return None
        x, y = (screen.x + 1) / 2 * width, (1 - screen.y) / 2 * height
        return [round(x), round(y)] if 0 <= x < width and 0 <= y < height else None

    targets = []
    for tid in table.stage.targets:
        node = table.stage.cells.get(tid) or table.stage.nodes.get(tid)
        if node is None or node.isEmpty() or node.isHidden():
            continue
        bounds = node.getTightBounds(b.render)
        if bounds is None:
            continue
        low, high = bounds
        at = pixel((low + high) / 2)          # the middle of a piece (its top edge may miss: a meeple's head)
        if at is not None and tid not in table.picks:
            targets.append({"id": tid, "px": at})
    buttons = []
    for button in table.hud.buttons:
        left, right, bottom, top = button.getBounds()          # the frame, in the button's own units
        centre = b.render2d.getRelativePoint(button, Point3((left + right) / 2, 0, (bottom + top) / 2))
        buttons.append({"text": button["text"], "px": [round((centre.x + 1) / 2 * width),
                                                        round((1 - centre.z) / 2 * height)]})
    m = table.match
    state = {"human_turn": table._human_turn(), "animating": table.animating, "over": m.over,
             "plies": len(m.plies), "picks": list(table.picks), "targets": targets, "buttons": buttons,
             "hover": table.hover, "hover_options": list(table.hover_options), "hover_choice": table.hover_choice,
             "status": table.hud.status.getText(), "message": table.hud.message.getText(),
             "moves": [p.text for p in m.plies], "result": m.result_text() if m.over else "",
             "size": [width, height], "lit": any(not n.isHidden() for n in b.render.findAllMatches("**/lit-areas")),
             "lit_saved": _lit["saved"]}
    if LIT_PICTURE and state["lit"] and _lit["saved"] is None:
        _lit["saved"] = ""
        b.taskMgr.doMethodLater(0.0, _save_lit, "window-play-lit", extraArgs=[table], appendTask=True)
    with open(STATE + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(STATE + ".tmp", STATE)
    return task.again


def _init_and_export(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self.base.taskMgr.doMethodLater(0.2, _export, "window-play-export", extraArgs=[self], appendTask=True)


play.PlayTable.__init__ = _init_and_export

# the table's side of each click, for the log: what the mouse did and what the table said
CLICKS = STATE + ".clicks"
_press, _release, _on_click = play.PlayTable._press, play.PlayTable._release, play.PlayTable.on_click


def _note(table, what):
    m = table._mouse()
    with open(CLICKS, "a") as f:
        f.write(json.dumps({"what": what, "mouse": m, "human_turn": table._human_turn(), "animating": table.animating,
                            "drag": repr(table._drag), "hover": table.hover, "plies": len(table.match.plies),
                            "picks": list(table.picks), "message": table.hud.message.getText()}) + "\n")


def _logged_press(self, mode):
    _press(self, mode)
    _note(self, "press " + mode)


def _logged_release(self, mode):
    _note(self, "release " + mode)
    _release(self, mode)


def _logged_click(self):
    hits = self.picker.pick_all()
    _on_click(self)
    _note(self, "click hits=" + ",".join(hits))


play.PlayTable._press = _logged_press
play.PlayTable._release = _logged_release
play.PlayTable.on_click = _logged_click
from towerworld.cli import main
sys.exit(main(sys.argv[2:]))
'''


class Screen:
    """The X display: the app's window, the pointer and keys (xdotool), pictures of the whole screen (xwd)."""

    def __init__(self, display: str):
        self.display = display
        self.env = dict(os.environ, DISPLAY=display)
        self.window: str | None = None

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20)
        return done.stdout.strip()

    def find_window(self, name: str, seconds: float = 60) -> str:
        end = time.time() + seconds
        while time.time() < end:
            found = self.xdotool("search", "--name", name).split()
            if found:
                self.window = found[-1]
                return self.window
            time.sleep(0.5)
        raise SystemExit(f"No window named {name!r} opened on display {self.display} within {seconds:.0f} s.")

    def move(self, x: int, y: int) -> None:
        assert self.window is not None
        self.xdotool("mousemove", "--window", self.window, str(x), str(y))

    def click(self) -> None:
        self.xdotool("click", "1")

    def key(self, name: str) -> None:
        assert self.window is not None
        self.xdotool("key", "--window", self.window, name)

    def shot(self, path: str) -> str:
        """The whole screen as a PNG (xwd's 32-bit ZPixmap read directly, no ImageMagick needed)."""
        raw = subprocess.run(["xwd", "-root", "-silent", "-display", self.display], capture_output=True,
                             check=True, timeout=30).stdout
        head = struct.unpack(">25I", raw[:100])
        header_size, width, height, byte_order, bits, per_line, colours = (head[0], head[4], head[5], head[7],
                                                                         head[11], head[12], head[19])
        if bits != 32:
            raise SystemExit(f"xwd gave {bits} bits a pixel; run Xvfb with a 24-bit screen (1280x800x24).")
        rows = np.frombuffer(raw, np.uint8, offset=header_size + colours * 12, count=per_line * height)
        pixels = rows.reshape(height, per_line)[:, :width * 4].reshape(height, width, 4)
        rgb = pixels[..., [2, 1, 0]] if byte_order == 0 else pixels[..., [1, 2, 3]]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        write_png(path, np.ascontiguousarray(rgb))
        return path


def write_png(path: str, rgb) -> None:
    """An RGB image (height x width x 3 bytes) as a PNG file, with the standard library's zlib alone."""
    height, width = rgb.shape[:2]
    rows = np.zeros((height, width * 3 + 1), np.uint8)       # each row: filter type 0, then its pixels
    rows[:, 1:] = rgb.reshape(height, width * 3)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + chunk(b"IEND", b""))


class Player:
    """The human seat: reads the table's exported state, acts through the Screen."""

    def __init__(self, screen: Screen, state_path: str, rng: random.Random, log):
        self.screen = screen
        self.state_path = state_path
        self.rng = rng
        self.log = log
        self.decisions = 0
        self.watch: str | None = None     # a picture to take the first time part of the table lights up
        self.refused = 0                  # clicks and buttons the table did not take
        self.idle_since: float | None = None    # since when the human's turn offers nothing to click

    def state(self) -> dict | None:
        try:
            with open(self.state_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def clicks_since(self, start: int) -> list[str]:
        """The table's notes on the clicks it saw (press, release, what the pick ray hit), from note `start` on."""
        try:
            with open(self.state_path + ".clicks") as f:
                return f.read().splitlines()[start:]
        except OSError:
            return []

    def wait(self, ready, seconds: float) -> dict | None:
        """The first exported state for which `ready(state)` holds, or None after `seconds`."""
        end = time.time() + seconds
        while time.time() < end:
            s = self.state()
            if s is not None and self.watch is not None and s["lit_saved"]:
                self.log(f"{self.watch}: the window's own frame while '{s['lit_saved'][:80]}' lit up")
                self.watch = None
            if s is not None and ready(s):
                return s
            time.sleep(0.1)
        return None

    def act(self, s: dict) -> bool:
        """One pick as a person makes it; True when the table took it (a move or a pick more)."""
        before = (s["plies"], tuple(s["picks"]))
        noted = len(self.clicks_since(0))
        buttons = [b for b in s["buttons"] if b["text"] != "Confirm"] or s["buttons"]
        if s["targets"] and (not buttons or self.rng.random() < 0.75):
            target = self.rng.choice(s["targets"])
            x, y = target["px"]
            self.screen.move(x, y)
            hovered = self.wait(lambda t: t["hover"] == target["id"], 3.0)
            turns = 0
            if hovered and len(hovered["hover_options"]) > 1:
                turns = self.rng.randrange(len(hovered["hover_options"]))
                for _ in range(turns):
                    self.screen.key("r")
                    time.sleep(0.15)
            self.screen.click()
            what = f"clicked {target['id']} at {x},{y}" + (f" after R x{turns}" if turns else "")
        elif buttons:
            button = self.rng.choice(buttons)
            self.screen.move(*button["px"])
            time.sleep(0.1)
            self.screen.click()
            what = f"clicked the button {button['text']!r}"
        else:
            self.idle_since = self.idle_since or time.time()
            self.log("nothing glows and there is no button: waiting")
            self.screen.move(5, 5)
            time.sleep(2.0)
            return False
        self.idle_since = None
        clicked = time.time()
        # a loaded machine may draw a frame only every few seconds: the table's export lags as long
        after = self.wait(lambda t: (t["plies"], tuple(t["picks"])) != before, 15.0)
        self.decisions += 1
        self.refused += after is None
        late = time.time() - clicked
        self.log(what + ("  (the table did not take it)" if after is None else
                         f"  (taken; the table showed it {late:.0f} s later)" if late > 3 else ""))
        if after is None:
            for note in self.clicks_since(noted):
                self.log("  the table: " + note)
            now = self.state()
            if now is not None:
                self.log(f"  it says: {now['message']!r}")
        self.screen.move(5, 5)        # out of the way: the next state's pixels are not under a preview
        return after is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", default="human,mcts", help="as for towerworld play; exactly one human seat")
    parser.add_argument("--level", help="AI level passed to towerworld play (fast, normal, strong)")
    parser.add_argument("--display", default=":93")
    parser.add_argument("--shots", default="window-play", help="folder for start.png, middle.png, end.png")
    parser.add_argument("--middle-ply", type=int, default=60, help="take the middle picture from this ply on")
    parser.add_argument("--decisions", type=int, default=0, help="stop after this many human decisions (0: play on)")
    parser.add_argument("--minutes", type=float, default=40.0, help="give up after this long")
    parser.add_argument("--seed", type=int, default=1, help="the human's choices among what glows")
    parser.add_argument("--shot-lit", action="store_true", help="also a picture (lit.png, the window's own frame) the "
                                                                 "first time part of the table lights up (a scoring)")
    args = parser.parse_args(argv)

    screen = Screen(args.display)
    began = time.time()

    def log(text: str) -> None:
        print(f"[{time.time() - began:7.1f} s] {text}", flush=True)

    home = tempfile.mkdtemp(prefix="window-play-")      # no old autosaves to offer, none left behind
    state_path = os.path.join(home, "table.json")
    command = [sys.executable, "-c", HOOK, state_path, "play", args.game, "--players", args.players,
               "--size", "1280x800"] + (["--level", args.level] if args.level else [])
    env = dict(screen.env, HOME=home, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    lit = os.path.abspath(os.path.join(args.shots, "lit.png")) if args.shot_lit else None
    if lit:
        # saved by the app itself: under load the X screen (xwd) still showed frames from before the glow began
        os.makedirs(args.shots, exist_ok=True)
        env["WINDOW_PLAY_LIT"] = lit
    app = subprocess.Popen(command, env=env, cwd=ROOT, stdout=open(os.path.join(home, "app.log"), "w"),
                           stderr=subprocess.STDOUT)
    player = Player(screen, state_path, random.Random(args.seed), log)
    player.watch = lit
    shots: dict[str, str] = {}
    try:
        screen.find_window("towerworld", seconds=180)      # a loaded machine may take minutes to open it
        log(f"window {screen.window} open; the app logs to {home}/app.log")
        while time.time() - began < args.minutes * 60:
            if app.poll() is not None:
                log(f"the app ended by itself (exit {app.returncode})")
                break
            s = player.wait(lambda t: t["over"] or (t["human_turn"] and not t["animating"]), 120.0)
            if s is None:
                log("no turn for the human in 2 minutes")
                continue
            if s["over"]:
                s = player.wait(lambda t: not t["animating"], 120.0) or s
                time.sleep(1.0)
                shots["end"] = screen.shot(os.path.join(args.shots, "end.png"))
                log("game over: " + s["result"])
                log(f"{len(s['moves'])} plies, {player.decisions} human decisions ({player.refused} not taken); "
                    f"pictures: {shots}")
                screen.key("q")
                break
            for name, due in (("start", True), ("middle", s["plies"] >= args.middle_ply)):
                if due and name not in shots:
                    time.sleep(1.0)         # the frame that shows the glowing places reaches the screen
                    shots[name] = screen.shot(os.path.join(args.shots, name + ".png"))
                    break
            player.act(s)
            if player.idle_since is not None and time.time() - player.idle_since > 60:
                shots["stall"] = screen.shot(os.path.join(args.shots, "stall.png"))
                log(f"stuck: the human's turn has offered nothing for a minute at ply {s['plies']}; status: "
                    + s["status"].replace("\n", " | ") + f"; message: {s['message']!r}")
                break
            if args.decisions and player.decisions >= args.decisions:
                shots["last"] = screen.shot(os.path.join(args.shots, "last.png"))
                log(f"stopping after {player.decisions} decisions at ply {s['plies']}; pictures: {shots}")
                break
    finally:
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.terminate()
            app.wait(timeout=10)
    return 0 if "end" in shots or args.decisions else 1


if __name__ == "__main__":
    sys.exit(main())
