"""The table: one ShowBase window for playing (people and AIs) and for replaying records.

A move is built from picks. The legal moves are narrowed by the picks made so far; the next possible picks are
highlighted; a pick that leads nowhere is refused with the game's reason. Picks that are not places on the table
(pass, spend, stay) become buttons.
"""
from __future__ import annotations

import os
import threading
import time

from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL, TowerworldError
from towerworld.engine.match import Match
from towerworld.scene.setup import configure

SAVE_DIR = os.path.join(os.path.expanduser("~"), ".towerworld", "saves")


class Table:
    """Shared window setup: scene, stage, camera controls, HUD."""

    def __init__(self, match: Match, size=(1280, 800), frames: int | None = None):
        configure(offscreen=frames is not None, width=size[0], height=size[1], title=f"towerworld: {match.game.title}")
        from direct.showbase.ShowBase import ShowBase

        from towerworld.scene.camera import framing
        from towerworld.scene.hud import Hud
        from towerworld.scene.picking import Picker
        from towerworld.scene.setup import add_table, dress, frame_light
        from towerworld.scene.stage import Stage

        import builtins
        self.owns_base = getattr(builtins, "base", None) is None
        try:
            self.base = ShowBase(windowType="offscreen" if frames is not None else None) if self.owns_base \
                else builtins.base
        except Exception:  # no display, no GL: say so in one sentence
            where = os.environ.get("DISPLAY")
            raise TowerworldError("Could not open a window" + (f" on display {where}" if where else
                                  " (no display is set)") + "; the table needs a desktop session, and "
                                  "'towerworld render' makes a picture without one.") from None
        self.base.disableMouse()
        self.base.setBackgroundColor(0.78, 0.84, 0.9, 1)
        self.base.camLens.setFov(40)
        self.base.camLens.setNearFar(5, 20000)
        self.match = match
        self.game = match.game
        layout = self.game.layout(match.state, self.viewer)
        self.scene = self.base.render.attachNewNode("table-scene")
        self.sun = dress(self.scene, layout)
        self._frame_light = frame_light
        add_table(self.scene, layout)
        self.stage = Stage(self.scene)
        self.stage.show(layout)
        self.home = framing(layout, aspect=size[0] / size[1])
        self.orbit = framing(layout, aspect=size[0] / size[1])
        self.orbit.apply(self.base.camera)
        self.hud = Hud(self.base)
        self.picker = Picker(self.base, self.stage)
        self.anim = None
        self.frames = frames
        self._drag = None
        self._bind_camera()
        self.base.accept("h", self.toggle_help)
        self.base.accept("f1", self.toggle_help)
        self.base.accept("q", self.quit)
        self.base.accept("escape-up", lambda: None)
        self.cut_offset = 0          # page up/down move the cutaway storey by storey
        self.base.accept("page_up", self.move_cut, [1])
        self.base.accept("page_down", self.move_cut, [-1])

    @property
    def viewer(self) -> int:
        """Who is looking at the table: everything once a game is over, public information otherwise."""
        return OMNISCIENT if self.match.over else SPECTATOR

    def move_cut(self, d):
        self.cut_offset += d
        self.apply_cutaway(self.current_state())

    def current_state(self):
        return self.match.state

    def apply_cutaway(self, state):
        hint = self.game.cutaway(state, self.viewer)
        if hint is None:
            self.stage.set_cutaway(None)
            return
        height, kinds = hint
        from towerworld.engine.pieces import size
        step = min(size(k).h for k in kinds) if kinds else 1.0
        self.stage.set_cutaway(height + self.cut_offset * step, kinds)

    # ---- camera -------------------------------------------------------------------------------------------------------
    def _bind_camera(self):
        b = self.base
        for key, (dh, dp) in {"arrow_left": (-6, 0), "arrow_right": (6, 0), "arrow_up": (0, 4),
                              "arrow_down": (0, -4)}.items():
            b.accept(key, self._orbit, [dh, dp])
            b.accept(key + "-repeat", self._orbit, [dh, dp])
        for key, f in {"+": 0.9, "=": 0.9, "-": 1.1, "wheel_up": 0.9, "wheel_down": 1.1}.items():
            b.accept(key, self._zoom, [f])
            b.accept(key + "-repeat", self._zoom, [f])
        for key, (r, f) in {"a": (-0.04, 0), "d": (0.04, 0), "w": (0, 0.04), "s": (0, -0.04)}.items():
            b.accept(key, self._pan, [r, f])
            b.accept(key + "-repeat", self._pan, [r, f])
        b.accept("r", self.reset_view)
        b.accept("home", self.reset_view)
        b.accept("mouse1", self._press, ["orbit"])
        b.accept("mouse3", self._press, ["pan"])
        b.accept("mouse2", self._press, ["pan"])
        b.accept("mouse1-up", self._release, ["orbit"])
        b.accept("mouse3-up", self._release, ["pan"])
        b.accept("mouse2-up", self._release, ["pan"])
        b.taskMgr.add(self._drag_task, "camera-drag")

    def _orbit(self, dh, dp):
        self.orbit.orbit(dh, dp)
        self.orbit.apply(self.base.camera)

    def _zoom(self, f):
        self.orbit.zoom(f)
        self.orbit.apply(self.base.camera)

    def _pan(self, r, f):
        self.orbit.pan(r, f)
        self.orbit.apply(self.base.camera)

    def reset_view(self):
        from dataclasses import replace
        self.orbit = replace(self.home)
        self.orbit.apply(self.base.camera)

    def _mouse(self):
        mw = self.base.mouseWatcherNode
        return (mw.getMouseX(), mw.getMouseY()) if mw.hasMouse() else None

    def _press(self, mode):
        m = self._mouse()
        if m:
            self._drag = (mode, m, m, False)

    def _release(self, mode):
        drag = self._drag
        self._drag = None
        if drag and drag[0] == mode == "orbit" and not drag[3]:
            self.on_click()

    def _drag_task(self, task):
        if self._drag:
            mode, start, last, moved = self._drag
            m = self._mouse()
            if m:
                dx, dy = m[0] - last[0], m[1] - last[1]
                moved = moved or abs(m[0] - start[0]) + abs(m[1] - start[1]) > 0.01
                if moved:
                    if mode == "orbit":
                        self.orbit.orbit(dx * 120, -dy * 80)
                    else:
                        self.orbit.pan(-dx * 0.5, -dy * 0.5)
                    self.orbit.apply(self.base.camera)
                self._drag = (mode, start, m, moved)
        return task.cont

    # ---- shared -------------------------------------------------------------------------------------------------------
    def on_click(self):
        pass

    def toggle_help(self):
        self.hud.toggle_help(self.game.help_text())

    def quit(self):
        self.base.userExit()

    def close(self):
        """Take the table down without closing a ShowBase it did not open (tests share one)."""
        if self.anim is not None:
            self.anim.finish()
        for name in ("camera-drag", "turns", "replay"):
            self.base.taskMgr.remove(name)
        self.base.ignoreAll()
        self.hud.destroy()
        self.picker.ray_np.removeNode()
        self.scene.removeNode()

    def animate_to(self, old_layout, new_layout, events, speed=1.0, then=None):
        if self.anim is not None:
            self.anim.finish()
        self.anim = self.stage.transition(old_layout, new_layout, events, speed=speed)
        if then is not None:
            from direct.interval.IntervalGlobal import Func, Sequence
            self.anim = Sequence(self.anim, Func(then))
        self.anim.start()

    @property
    def animating(self) -> bool:
        return self.anim is not None and self.anim.isPlaying()

    def status_lines(self, state) -> list[str]:
        lines = [self.game.title]
        hud = self.game.hud(state, self.viewer)
        # a value that already names itself ("Cheats: 0") is shown as it is
        lines += [f"{v}" if k == "turn" or str(v).lower().startswith(k.lower()) else f"{k}: {v}"
                  for k, v in hud.items()]
        return [self.with_names(ln) for ln in lines]

    def with_names(self, text: str) -> str:
        """Games speak of "Player 2"; the table knows who that is."""
        names = [p.name for p in self.match.players]
        for i in range(len(names) - 1, -1, -1):
            if names[i] != f"Player {i + 1}":
                text = text.replace(f"Player {i + 1}", names[i])
        return text

    def run(self) -> int:
        if self.frames is not None:
            for _ in range(self.frames):
                self.base.taskMgr.step()
            return 0
        self.base.run()
        return 0


class PlayTable(Table):
    @property
    def viewer(self) -> int:
        """The person at the screen: the human to move, else the only human seat; nobody's secrets otherwise."""
        if self.match.over:
            return OMNISCIENT
        humans = [i for i, p in enumerate(self.match.players) if not p.is_ai]
        cp = self.match.current_player
        if cp in humans:
            return cp
        return humans[0] if len(humans) == 1 else SPECTATOR
    def __init__(self, match: Match, size=(1280, 800), level=None, frames=None):
        super().__init__(match, size, frames)
        from towerworld.ai import make_agent
        self.agents = {i: make_agent(p.agent, self.game, seed=match.seed + i, level=level)
                       for i, p in enumerate(match.players) if p.is_ai}
        self.picks: list[str] = []
        self.thinking = None
        if match.autosave_path is None:
            os.makedirs(SAVE_DIR, exist_ok=True)
            match.autosave_path = os.path.join(SAVE_DIR, f"autosave-{self.game.name}.tower.json")
        b = self.base
        b.accept("escape", self.clear_picks)
        b.accept("backspace", self.back_pick)
        b.accept("enter", self.commit_exact)
        b.accept("z", self.undo)
        b.accept("control-z", self.undo)
        b.accept("y", self.redo)
        b.accept("control-y", self.redo)
        b.accept("control-s", self.save)
        b.accept("control-o", self.load_latest)
        b.accept("m", self.toggle_memory)
        b.accept("t", self.show_hint)
        b.taskMgr.add(self._turn_task, "turns")
        self.refresh()

    # ---- turn flow ---------------------------------------------------------------------------------------------------
    def _turn_task(self, task):
        if self.animating:
            return task.cont
        m = self.match
        cp = m.current_player
        if cp == CHANCE:
            self._play(lambda: m.play_chance())
        elif cp >= 0 and cp in self.agents:
            if self.thinking is None:
                agent, state = self.agents[cp], m.state
                box: dict = {}

                def think():
                    try:
                        box["move"] = agent.choose(self.game, state)
                    except Exception as e:  # an agent bug must not freeze the table
                        box["error"] = str(e)
                self.thinking = (threading.Thread(target=think, daemon=True), box, state)
                self.thinking[0].start()
                self.hud.say(f"{m.players[cp].name} is thinking...")
            elif not self.thinking[0].is_alive():
                _t, box, state = self.thinking
                self.thinking = None
                if state is m.state:
                    if "error" in box:
                        self.hud.say(f"The AI failed: {box['error']}")
                    else:
                        self._play(lambda: m.apply(box["move"]))
        return task.cont

    def _play(self, action):
        old = self.stage.layout
        try:
            events = action()
        except TowerworldError as e:
            self.hud.say(str(e))
            return
        self.picks = []
        new = self.game.layout(self.match.state, self.viewer)
        self._frame_light(self.scene.find("**/key"), new)
        self.hud.say(self.with_names("  ".join(e.text for e in events if e.text)[:200]))
        self.animate_to(old, new, events, then=self.refresh)
        self.refresh(highlight=False)

    # ---- picking -------------------------------------------------------------------------------------------------------
    def _human_turn(self) -> bool:
        cp = self.match.current_player
        return cp >= 0 and cp not in self.agents and not self.animating

    def _candidates(self, picks):
        state = self.match.state
        n = len(picks)
        out = []
        for move in self.game.legal_moves(state):
            path = tuple(self.game.picks(state, move))
            if path[:n] == tuple(picks):
                out.append((move, path))
        return out

    def on_click(self):
        if not self._human_turn():
            if self.match.over:
                self.hud.say("The game is over: Z undoes, Q quits.")
            return
        hits = self.picker.pick_all()
        if not hits:
            self.hud.say("Nothing there to pick: click a highlighted piece or square.")
            return
        self.choose_among(hits)

    def choose_among(self, hits: list[str]):
        """One click, maybe several things under it: the legal next picks among them. When a square and the tile on
        it are both legal (dig it, or step onto it), ask with buttons instead of guessing."""
        valid = [h for h in hits if self._candidates(self.picks + [h])]
        if len(valid) <= 1:
            self.choose(valid[0] if valid else hits[0])
            return
        state = self.match.state
        self.hud.say("That spot offers " + " or ".join(self.game.describe_pick(state, self.picks, v) for v in valid)
                     + ": choose below.")
        self.hud.set_buttons([(self.game.describe_pick(state, self.picks, v).capitalize(),
                               lambda v=v: self.choose(v)) for v in valid])

    def choose(self, target: str):
        trial = self.picks + [target]
        cands = self._candidates(trial)
        if not cands:
            self.hud.say(self.game.explain(self.match.state, trial))
            return
        exact = [m for m, path in cands if len(path) == len(trial)]
        longer = [m for m, path in cands if len(path) > len(trial)]
        if exact and not longer:
            self._play(lambda: self.match.apply(exact[0]))
            return
        self.picks = trial
        if exact:
            self.hud.say("Press Enter to play " + self.game.format_move(self.match.state, exact[0]) +
                         ", or pick on.")
        self.refresh()

    def commit_exact(self):
        if not self._human_turn():
            return
        exact = [m for m, p in self._candidates(self.picks) if len(p) == len(self.picks)]
        if exact:
            self._play(lambda: self.match.apply(exact[0]))

    def clear_picks(self):
        if self.hud.help.isHidden():
            self.picks = []
            self.refresh()
        else:
            self.hud.help.hide()

    def back_pick(self):
        self.picks = self.picks[:-1]
        self.refresh()

    def undo(self):
        if self.picks:
            self.back_pick()
            return
        if self.thinking is not None or self.animating:
            return
        if not self.match.undo():
            self.hud.say(self.match.why_no_undo())
            return
        self._jump("Move taken back.")

    def redo(self):
        if self.animating or not self.match.redo():
            self.hud.say("Nothing to redo.")
            return
        self._jump("Move replayed.")

    def _jump(self, text):
        self.picks = []
        self.stage.show(self.game.layout(self.match.state, self.viewer))
        self.hud.say(text)
        self.refresh()

    def save(self):
        from towerworld.engine.record import save_match
        os.makedirs(SAVE_DIR, exist_ok=True)
        path = os.path.join(SAVE_DIR, f"{self.game.name}-{time.strftime('%Y%m%d-%H%M%S')}.tower.json")
        try:
            save_match(self.match, path)
            self.hud.say(f"Saved to {path}")
        except OSError as e:
            self.hud.say(f"Could not save: {e.strerror or e}.")

    def load_latest(self):
        """Open the newest save of this game (Ctrl-O); a damaged file is refused and the current game kept."""
        import glob

        from towerworld.engine.record import load_match
        files = sorted(glob.glob(os.path.join(SAVE_DIR, f"{self.game.name}-*.tower.json")), key=os.path.getmtime)
        if not files:
            self.hud.say(f"There is no saved {self.game.title} game in {SAVE_DIR} yet (Ctrl-S saves).")
            return
        try:
            loaded = load_match(files[-1], autosave=self.match.autosave_path)
        except TowerworldError as e:
            self.hud.say(f"Could not load {os.path.basename(files[-1])}: {e}")
            return
        if self.thinking is not None:
            self.thinking = None
        loaded.players = self.match.players if len(loaded.players) == len(self.match.players) else loaded.players
        self.match = loaded
        self._jump(f"Loaded {os.path.basename(files[-1])}.")

    def hint_move(self):
        """The move to suggest: the game's own `hint(state)` (Ziggurat's reads only what a person can know), else the
        greedy agent's choice from the player's observation."""
        import importlib
        state = self.match.state
        own = getattr(importlib.import_module(f"towerworld.games.{self.game.name}"), "hint", None)
        if own is not None:
            return own(state)
        from towerworld.ai import make_agent
        return make_agent("greedy", self.game, seed=len(self.match.plies)).choose(self.game, state)

    def show_hint(self):
        """T: light up the suggested move's picks and name it."""
        from towerworld.scene.stage import HIGHLIGHT_PICKED
        if not self._human_turn():
            self.hud.say("A hint is for your own turn.")
            return
        move = self.hint_move()
        if move is None:
            self.hud.say("No hint here.")
            return
        state = self.match.state
        self.picks = []
        self.refresh()
        self.stage.highlight({p: HIGHLIGHT_PICKED for p in self.game.picks(state, move)})
        self.hud.say("Hint: " + self.game.format_move(state, move) + " (click it, or Esc).")

    def toggle_memory(self):
        self.stage.set_memory_aid(not self.stage.show_hidden)
        self.hud.say("Memory aid " + ("on" if self.stage.show_hidden else "off") + ".")

    # ---- display -------------------------------------------------------------------------------------------------------
    def refresh(self, highlight: bool = True):
        from towerworld.scene.stage import HIGHLIGHT_PICKED, HIGHLIGHT_TARGET
        m = self.match
        state = m.state
        lines = self.status_lines(state)
        if self.picks:
            lines.append("picked: " + " ".join(self.picks))
        if m.over:
            lines.append(m.result_text())
        self.hud.set_status(lines)
        targets: dict = {}
        buttons = []
        if highlight and self._human_turn():
            for p in self.picks:
                targets[p] = HIGHLIGHT_PICKED
            spatial = set(self.stage.nodes) | set(self.stage.cells)
            seen = set()
            for move, path in self._candidates(self.picks):
                if len(path) <= len(self.picks):
                    continue
                nxt = path[len(self.picks)]
                if nxt in spatial:
                    targets.setdefault(nxt, HIGHLIGHT_TARGET)
                elif nxt not in seen:
                    seen.add(nxt)
                    label = self.game.describe_pick(state, self.picks, nxt)
                    buttons.append((label[:1].upper() + label[1:], lambda nxt=nxt: self.choose(nxt)))
        self.stage.highlight(targets)
        self.apply_cutaway(state)
        if highlight:
            self.hud.set_buttons(buttons[:8])


def run_play(match: Match, size=(1280, 800), level=None, frames=None) -> int:
    return PlayTable(match, size, level, frames).run()


def __getattr__(name):
    """The replay table (timeline, physics toggle, offscreen video) lives in app/replay.py, which imports Table from
    here; its names stay importable from this module without a circular import."""
    if name in ("ReplayTable", "run_replay"):
        from towerworld.app import replay
        return getattr(replay, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
