"""Replaying a record: the replay table (a timeline to drag to any ply, play/pause and step buttons, speed shown) and
offscreen renders of a replay to a video or a still.

Keys: Space play/pause, `,` `.` (or Shift-Left/Right) step, `[` `]` slower/faster, Home/End first/last position,
P physical crumbles on/off. A jump (slider, Home, End, a step back) ends the running animation first, so the scene
shown is always the position named.
"""
from __future__ import annotations

import sys

from dataclasses import dataclass
from typing import Any

from towerworld.app.table import Table
from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL, TowerworldError, may_see
from towerworld.engine.layout import Layout
from towerworld.engine.match import Match
from towerworld.engine.words import counted
from towerworld.scene.camera import framing
from towerworld.scene.offscreen import base as offscreen_base
from towerworld.scene.setup import add_table, dress
from towerworld.scene.stage import Stage, last_move_before
from towerworld.scene.video import FrameGrabber, check_fps, check_output, write_video

SPEEDS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
PAUSE_BETWEEN = 0.35          # seconds (at speed 1) between one ply's animation and the next
MESSAGE_OVER_TIMELINE = 0.3    # the message line's baseline (aspect2d units over the bottom edge): over the buttons


class ReplayError(TowerworldError):
    pass


def check_pause(pause: float) -> float:
    if not 0 <= pause <= 60 or pause != pause:
        raise ReplayError(f"--pause is the seconds a replay holds still between plies, from 0 to 60, not {pause:g}.")
    return pause


def check_speed(speed: float) -> float:
    if not speed > 0 or speed != speed or speed == float("inf"):
        raise ReplayError(f"--speed must be a number above 0 (1 is real time, 2 twice as fast), not {speed:g}.")
    return speed


def replay_viewer(match: Match, fixed: int | None = None) -> int:
    """A finished game is replayed with everything shown; an unfinished one shows only public information."""
    return fixed if fixed is not None else OMNISCIENT if match.over else SPECTATOR


class ReplayTable(Table):
    replaying = True
    """Animated replay with a timeline along the bottom of the window."""
    fixed_viewer: int | None = None      # one player's view of a finished game (--viewer N)
    status_extra = 2                     # the last move and the result under the game's lines (where the replay
                                         # stands is said beside its buttons, its keys in the help)

    @property
    def viewer(self) -> int:
        return replay_viewer(self.match, self.fixed_viewer)

    def __init__(self, match: Match, size=(1280, 800), speed=1.0, frames=None, physics: bool = False,
                 pause: float = PAUSE_BETWEEN):
        super().__init__(match, size, frames)
        self.ply = 0
        self.speed = check_speed(speed)
        self.pause = check_pause(pause)
        self.physics = physics
        self.playing = True
        self.last = 0.0
        self._moving_slider = False
        self._scrubbing = False         # the button is held on the timeline: the replay follows the pointer
        self.stage.show(self.game.layout(match.state_at(0), self.viewer))
        self.hud.message_bottom = MESSAGE_OVER_TIMELINE     # the message line above the buttons, whatever it says
        self._build_timeline()
        b = self.events
        b.accept("space", self.toggle)
        for key, d in ((".", 1), (",", -1), ("shift-arrow_right", 1), ("shift-arrow_left", -1)):
            b.accept(key, self.step, [d])
            b.accept(key + "-repeat", self.step, [d])
        b.accept("]", self.faster, [1])
        b.accept("[", self.faster, [-1])
        b.accept("home", self.jump, [0])
        b.accept("end", self.jump_end)
        b.accept("p", self.toggle_physics)
        b.accept("escape", self.hud.help.hide)        # Esc closes the help, as H does
        self.add_task(self._tick, "replay")
        self.refresh()

    # ---- the timeline ----------------------------------------------------------------------------------------------
    def _build_timeline(self) -> None:
        from direct.gui.DirectGui import DGG, DirectButton, DirectFrame, DirectLabel, DirectSlider
        from panda3d.core import TextNode
        parent = self.base.a2dBottomCenter
        n = len(self.match.plies)
        self.slider = DirectSlider(parent=parent, range=(0, max(1, n)), value=0, pageSize=0, scale=(1.2, 1, 0.6),
                                   pos=(0, 0, 0.07), command=self._slid, frameColor=(0.2, 0.22, 0.25, 0.8),
                                   thumb_frameColor=(0.95, 0.85, 0.45, 1), thumb_relief=DGG.FLAT)
        style = dict(parent=parent, scale=0.045, frameColor=(0.95, 0.9, 0.75, 1), pad=(0.35, 0.2))
        self.buttons = [
            DirectButton(text="|<", pos=(-0.5, 0, 0.17), command=self.jump, extraArgs=[0], **style),
            DirectButton(text="<", pos=(-0.34, 0, 0.17), command=self.step, extraArgs=[-1], **style),
            DirectButton(text="play", pos=(-0.12, 0, 0.17), command=self.toggle, **style),
            DirectButton(text=">", pos=(0.1, 0, 0.17), command=self.step, extraArgs=[1], **style),
            DirectButton(text=">|", pos=(0.26, 0, 0.17), command=self.jump_end, **style),
        ]
        self.play_button = self.buttons[2]
        # the bar itself takes no presses (it pages a ply at a time toward one, and while it is pressed it will not
        # move its thumb for anyone else): a clear frame over it and its thumb does, and the replay follows the
        # pointer from there (_grab_timeline)
        self.slider.guiItem.setActive(False)
        self.slider.thumb.guiItem.setActive(False)
        self.grip = DirectFrame(parent=parent, frameColor=(0, 0, 0, 0), frameSize=(-1.22, 1.22, 0.01, 0.13),
                                state=DGG.NORMAL, sortOrder=1)
        self.grip.bind(DGG.B1PRESS, self._grab_timeline)
        # where the replay stands and how fast it goes, beside the buttons
        self.speed_label = DirectLabel(parent=parent, text="", scale=0.045, pos=(0.4, 0, 0.17),
                                       text_align=TextNode.ALeft, frameColor=(0, 0, 0, 0), text_fg=(1, 1, 1, 1),
                                       text_shadow=(0, 0, 0, 0.9))

    def _grab_timeline(self, _event=None) -> None:
        """The button pressed on the timeline (its bar or its thumb): from now until it is let go, the replay follows
        the pointer each frame, however fast it moves; a click jumps to the ply under it."""
        self._scrubbing = True
        self._follow_pointer()

    def timeline_ply(self, x: float) -> int:
        """The ply at pointer x (render2d units, -1..1 across the window) on the timeline: where the thumb's middle
        stands for that ply (it travels from the bar's left end to its right end less half its own width)."""
        n = len(self.match.plies)
        f0, f1 = self.slider["frameSize"][:2]
        t0, t1 = self.slider.thumb["frameSize"][:2]
        half = (t1 - t0) / 2
        left = self.base.render2d.getRelativePoint(self.slider, (f0 + half, 0, 0)).x
        right = self.base.render2d.getRelativePoint(self.slider, (f1 - half, 0, 0)).x
        share = (x - left) / (right - left) if right > left else 0.0
        return max(0, min(n, int(round(share * n))))

    def _follow_pointer(self) -> None:
        if not self._scrubbing:
            return
        m = self.camera.mouse()
        if m is None:
            return
        target = self.timeline_ply(m[0])
        if target != self.ply:
            self.playing = False
            self.jump(target)
        self._show_slider()         # the thumb under the pointer, whatever the bar itself made of the press

    def _button_held(self) -> bool:
        from panda3d.core import MouseButton
        watcher = self.base.mouseWatcherNode
        return watcher is not None and watcher.isButtonDown(MouseButton.one())

    def _slid(self) -> None:
        if self._moving_slider or self._scrubbing:
            return
        target = int(round(self.slider["value"]))
        if target != self.ply:
            self.playing = False
            self.jump(target)

    def _show_slider(self) -> None:
        self._moving_slider = True
        self.slider["value"] = self.ply
        self._moving_slider = False

    # ---- moving through the record ----------------------------------------------------------------------------------
    def toggle(self):
        if not self.playing and self.ply >= len(self.match.plies):
            self.jump(0)            # play at the end starts again from the beginning
        self.playing = not self.playing
        self.refresh()

    def faster(self, d: int):
        """One notch along SPEEDS (] faster, [ slower)."""
        now = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, now + d))]
        self.refresh()

    def toggle_physics(self):
        self.physics = not self.physics
        self.hud.say("Physical crumbles " + ("on" if self.physics else "off") + ".")
        self.refresh()

    def _stop_animation(self) -> None:
        """End the running animation at its last frame, so nothing it does afterwards can overwrite a jump."""
        if self.anim is not None:
            anim, self.anim = self.anim, None
            anim.finish()

    def jump(self, ply: int):
        ply = max(0, min(len(self.match.plies), int(ply)))
        self._stop_animation()
        self.ply = ply
        layout = self.game.layout(self.match.state_at(ply), self.viewer)
        self.refit(layout)
        self.stage.show(layout)
        self.show_last_move(ply)
        self.hud.say("")          # the events of the move shown before are not this position's
        self.refresh()

    def jump_end(self):
        self.playing = False
        self.jump(len(self.match.plies))

    def step(self, d: int):
        self._stop_animation()
        target = self.ply + d
        if not 0 <= target <= len(self.match.plies):
            return
        if d != 1:
            self.jump(target)
            return
        old, new, events = transition_of(self.match, self.ply, self.viewer)
        self.refit(new)
        self.ply = target
        if self.match.plies[target - 1].mover != CHANCE:
            self.stage.mark_last(None)      # a player moved: the marks of the move before go as this one plays
            self.show_last_move(target, mark=False)
        self.animate_to(old, new, events, speed=self.speed, then=self._moved)
        self.hud.say(self.told(events))
        self.refresh()

    def _moved(self) -> None:
        self.show_last_move(self.ply)
        self.refresh()

    def animate_to(self, old_layout, new_layout, events, speed=1.0, then=None):
        from direct.interval.IntervalGlobal import Func, Sequence
        self._stop_animation()
        anim = self.stage.transition(old_layout, new_layout, events, speed=speed, physics=self.physics)
        self.anim = Sequence(anim, Func(then)) if then is not None else anim
        self.anim.start()

    def _tick(self, task):
        if self._scrubbing:
            if self._button_held():
                self._follow_pointer()
                return task.cont
            self._scrubbing = False
        if self.playing and not self.animating:
            if self.ply >= len(self.match.plies):
                self.playing = False
                self.refresh()
            elif task.time - self.last > self.pause / self.speed:
                self.last = task.time
                self.step(1)
        return task.cont

    def current_state(self):
        return self.match.state_at(self.ply)

    def refresh(self):
        state = self.match.state_at(self.ply)
        self.apply_cutaway(state)
        lines = self.info_lines(state)
        if self.last_words:
            lines.append(self.last_words)
        if self.game.current_player(state) == TERMINAL:
            result = self.with_names(self.game.result(state))
            if result not in self.instruction(state) and not any(result in line for line in lines):
                lines.append(result)        # a game whose turn line says it already ("The battle is over: ...")
        self.show_hud(state, lines)
        self.play_button["text"] = "pause" if self.playing else "play"
        self.speed_label["text"] = (f"step {self.ply} of {len(self.match.plies)}   speed {self.speed:g}x"
                                    + ("   physics on" if self.physics else ""))
        self._show_slider()

    def close(self):
        super().close()            # the animation under way ends first: its last step refreshes the buttons
        for item in self.buttons + [self.grip, self.slider, self.speed_label]:
            item.destroy()


def shown_move(ply, viewer: int) -> str:
    """A ply's notation where `viewer` may read it: a chance outcome only when all it did was seen by everybody (a
    card drawn into a hand is told by the events the viewer may see, not by the move's text)."""
    if viewer == OMNISCIENT or ply.mover != CHANCE or (ply.events and all(e.visible_to is None for e in ply.events)):
        return ply.text
    return ""


def transition_of(match: Match, ply: int, viewer: int):
    """(layout before, layout after, events shown to `viewer`) for the move that leads from `ply` to `ply + 1`."""
    game = match.game
    old = game.layout(match.state_at(ply), viewer)
    new = game.layout(match.state_at(ply + 1), viewer)
    events = [e for e in match.plies[ply].events if may_see(viewer, getattr(e, "visible_to", None))]
    return old, new, events


def run_replay(match: Match, size=(1280, 800), speed=1.0, frames=None, physics: bool = False,
               viewer: int | None = None, pause: float = PAUSE_BETWEEN) -> int:
    table = ReplayTable(match, size, speed, frames, physics, pause)
    if viewer is not None:
        table.fixed_viewer = viewer
        table.jump(table.ply)
    return table.run()


# ---- offscreen: a replay as a video or a still --------------------------------------------------------------------------
@dataclass
class Segment:
    start: float          # seconds into the video
    duration: float
    ply: int              # the animation from ply to ply + 1; -1 for a hold


HOLD_START = 0.6        # seconds a replay video shows the first position before the first move
HOLD_END = 1.5          # and the last one after the last move


def timeline(match: Match, durations: list[float], speed: float, hold_start: float = HOLD_START,
             hold_end: float = HOLD_END, pause: float = PAUSE_BETWEEN) -> list[Segment]:
    """The video's schedule: a hold, then each ply's animation followed by a pause (`pause` seconds at speed 1), then
    a final hold."""
    out = [Segment(0.0, hold_start, -1)]
    t = hold_start
    for ply, d in enumerate(durations):
        out.append(Segment(t, d, ply))
        t += d
        out.append(Segment(t, pause / speed, -1))
        t += pause / speed
    out.append(Segment(t, hold_end, -1))
    return out


def pacing(segments: list[Segment]) -> str:
    """A replay video's pacing in one sentence: plies, seconds a ply (moving and still), the holds, the length."""
    moves = [s.duration for s in segments if s.ply >= 0]
    holds = [s.duration for s in segments if s.ply < 0]
    total = segments[-1].start + segments[-1].duration if segments else 0.0
    if not moves:
        return f"0 plies: {total:.1f} s of video."
    moving = sum(moves) / len(moves)
    still = sum(holds[1:-1]) / len(moves) if len(holds) > 2 else 0.0
    return (f"{counted(len(moves), 'ply', 'plies')} at {moving + still:.2f} s a ply ({moving:.2f} s moving, "
            f"{still:.2f} s still; "
            f"--speed and --pause set them), {holds[0]:.1f} s before the first and {holds[-1]:.1f} s after the last: "
            f"{total:.1f} s of video.")


class ReplayFilm:
    """A record played offscreen at a fixed clock: `seek(t)` puts the stage at t seconds (forward only)."""

    def __init__(self, parent, match: Match, speed: float = 1.0, physics: bool = False, viewer: int | None = None,
                 pause: float = PAUSE_BETWEEN):
        self.match, self.speed, self.physics = match, check_speed(speed), physics
        self.viewer = replay_viewer(match, viewer)
        first = match.game.layout(match.state_at(0), self.viewer)
        self.root = parent.attachNewNode("replay-film")
        dress(self.root, first)
        add_table(self.root, first)
        self.stage = Stage(self.root)
        self.stage.show(first)
        self.first = first
        self.extent = _extent(match, self.viewer)
        durations = [self._interval(p).getDuration() for p in range(len(match.plies))]
        self.segments = timeline(match, durations, self.speed, pause=check_pause(pause))
        self.current: tuple[int, Any] | None = None       # (segment index, interval)
        self.index = 0
        self.marked: int | None = None      # the ply whose last move the marks show (see _mark)

    def _interval(self, ply: int):
        old, new, events = transition_of(self.match, ply, self.viewer)
        return self.stage.transition(old, new, events, speed=self.speed, physics=self.physics)

    @property
    def duration(self) -> float:
        last = self.segments[-1]
        return last.start + last.duration

    def seek(self, t: float) -> None:
        while self.index < len(self.segments) - 1 and t >= self.segments[self.index + 1].start:
            self._finish_current()
            self.index += 1
        seg = self.segments[self.index]
        if seg.ply < 0:
            self._cut(self._ply_shown())
            self._mark(self._ply_shown())
            return
        if self.current is None or self.current[0] != self.index:
            self.stage.show(self.match.game.layout(self.match.state_at(seg.ply), self.viewer))
            self._cut(seg.ply)
            # as the replay window marks: a player's move takes the marks of the move before away as it plays, a
            # chance draw keeps them
            self._mark(seg.ply if self.match.plies[seg.ply].mover == CHANCE else None)
            self.current = (self.index, self._interval(seg.ply))
        self.current[1].setT(min(seg.duration, t - seg.start))

    def _mark(self, upto: int | None) -> None:
        """The last move before ply `upto` marked on the table (None: no marks), as the replay window marks it."""
        if upto == self.marked:
            return
        self.marked = upto
        self.stage.mark_last(None if upto is None else last_move_before(self.match, upto, self.viewer))

    def _ply_shown(self) -> int:
        """The position on show during a hold: after the last animation before it."""
        done = [s.ply for s in self.segments[:self.index] if s.ply >= 0]
        return done[-1] + 1 if done else 0

    def _cut(self, ply: int) -> None:
        """The game's cutaway for that position, as the replay window shows it (the storeys above a pawn lifted)."""
        hint = self.match.game.cutaway(self.match.state_at(ply), self.viewer)
        self.stage.set_cutaway(*(hint if hint is not None else (None,)))

    def _finish_current(self) -> None:
        seg = self.segments[self.index]
        if seg.ply >= 0:
            if self.current is None or self.current[0] != self.index:
                self.current = (self.index, self._interval(seg.ply))
            self.current[1].finish()
        self.current = None

    def destroy(self) -> None:
        self.root.removeNode()


def _extent(match: Match, viewer: int, samples: int = 12):
    """A layout holding pieces from positions spread over the record, so the camera frames everything the replay
    will show (discards pile up, pieces leave)."""
    n = len(match.plies)
    out = Layout()
    for k in sorted({round(i * n / samples) for i in range(samples + 1)}):
        for pid, pose in match.game.layout(match.state_at(k), viewer).pieces.items():
            out.pieces[f"{k}:{pid}"] = pose
    return out


def render_replay(match: Match, video: str | None = None, png: str | None = None, at: float | None = None,
                  fps: float = 30.0, size=(1280, 720), speed: float = 1.0, physics: bool = False,
                  quiet: bool = False, viewer: int | None = None, pause: float = PAUSE_BETWEEN) -> list[str]:
    """Render a replay offscreen: an H.264 video of the whole record and/or a still at `at` seconds (the end when
    None). Returns the files written."""
    if video:
        check_output(video, ".mp4")
        check_fps(fps)
    if png:
        check_output(png, ".png")
    b = offscreen_base(*size)
    written = []
    for target in (video, png):
        if not target:
            continue
        film = ReplayFilm(b.render, match, speed, physics, viewer, pause)
        grabber = FrameGrabber(b, film.root, *size)
        framing(film.extent, aspect=size[0] / size[1]).apply(grabber.camera)
        try:
            if target is video:
                frames = int(round(film.duration * fps)) + 1
                if not quiet:
                    print(f"replay: {pacing(film.segments)}", file=sys.stderr)
                write_video(video, grabber, frames, fps, lambda i: film.seek(i / fps), label="replay", quiet=quiet)
            elif png:
                when = film.duration if at is None else at
                if not 0 <= when <= film.duration:
                    raise ReplayError(f"--at must be between 0 and {film.duration:.1f} seconds for this replay.")
                film.seek(when)
                grabber.save_png(png)
        finally:
            grabber.close()
            film.destroy()
        written.append(target)
    return written
