"""Light intervals for the stage's transitions.

A move's animation is a few calls and lerps per moving piece. Panda3D's Func, LerpFunc, Sequence and Parallel cost
5-7 us each to make (a unique name, a debug registry of every Func, a C++ meta-interval per Sequence), which was
more than the rest of a warm update on a small board. Here a step is a small plain object composed as Panda's are
(`seq`, `par`, `call`, `lerp`, `wait`); `Timeline` lays the whole composition out once as a list of timed events and
is one Panda interval: it plays, seeks forwards with `setT`, finishes, and goes into a Panda Sequence like any other.

A Panda interval played on its own adds a task of its own when it starts and looks it up by name to take it away when
it ends: two task-manager round trips, 8-10 us of every move (more than the rest of a small board's update). Playing
timelines are stepped instead by one task that stays (as Panda's own C++ intervals are by its interval manager), and
starting or ending one only touches a dict.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Callable

from direct.interval.Interval import Interval
from direct.task import Task
from direct.task.TaskManagerGlobal import taskMgr
from direct.task.Task import TaskManager
from panda3d.core import ClockObject
from panda3d.direct import CInterval

_clock = ClockObject.getGlobalClock()
_SINITIAL, _SSTARTED, _SFINAL = CInterval.SInitial, CInterval.SStarted, CInterval.SFinal
_CALL, _BEGIN, _END = 0, 1, 2     # event kinds: an instant call; a lerp starts; a lerp ends (its function at 1.0)
_WHEN = itemgetter(0)             # an event's time: (time, kind, what, argument)


class Step:
    """Something that takes `length()` seconds; `emit` lays out its events from time `start` and returns when it
    ends (a composition is walked once: asking each part its length as well would walk it again at every level)."""
    __slots__ = ("seconds",)

    def __init__(self, seconds: float = 0.0):
        self.seconds = seconds if seconds > 0 else 0.0

    def length(self) -> float:
        return self.seconds

    def emit(self, start: float, events: list) -> float:
        return start + self.seconds


class _Call(Step):
    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable, args: tuple):
        self.seconds = 0.0
        self.fn, self.args = fn, args

    def emit(self, start: float, events: list) -> float:
        events.append((start, _CALL, self.fn, self.args))
        return start


class _Lerp(Step):
    __slots__ = ("fn", "first", "then")

    def __init__(self, fn: Callable[[float], object], seconds: float, first: tuple | None = None,
                 then: tuple | None = None):
        self.seconds = seconds if seconds > 0 else 0.0
        self.fn, self.first, self.then = fn, first, then

    def emit(self, start: float, events: list) -> float:
        # `first` happens with the lerp's start and `then` with its end (see Timeline.privStep): two events, not four
        # (a move on a full board makes a lerp per piece it moves, and its events are sorted)
        end = start + self.seconds
        events.append((start, _BEGIN, self, start))
        events.append((end, _END, self, start))
        return end


class Seq(Step):
    """Steps one after another (steps may still be added to a step already in it, as to Panda's)."""
    __slots__ = ("steps",)

    def __init__(self, *steps: Step):
        self.seconds = 0.0
        self.steps = list(steps)

    def append(self, step: Step) -> None:
        self.steps.append(step)

    def length(self) -> float:
        return sum(s.length() for s in self.steps)

    def emit(self, start: float, events: list) -> float:
        for step in self.steps:
            start = step.emit(start, events)
        return start


class Par(Seq):
    """Steps together, from the same moment; as long as the longest."""
    __slots__ = ()

    def length(self) -> float:
        return max((s.length() for s in self.steps), default=0.0)

    def emit(self, start: float, events: list) -> float:
        end = start
        for step in self.steps:
            stop = step.emit(start, events)
            if stop > end:
                end = stop
        return end


def call(fn: Callable, *args) -> Step:
    """Call `fn(*args)` at this moment (Panda's Func)."""
    return _Call(fn, args)


def lerp(fn: Callable[[float], object], duration: float, first: tuple[Callable, tuple] | None = None,
         then: tuple[Callable, tuple] | None = None) -> Step:
    """Call `fn(t)` with t running from 0 to 1 over `duration` seconds, and with 1 at its end however it is reached
    (Panda's LerpFunc from 0 to 1). `first` and `then`, (function, args), are called as it starts and once it has
    ended: one step for what a moving piece does, in place of seq(call(...), lerp(...), call(...)), which made four
    (a move on a full board makes one per piece it moves)."""
    return _Lerp(fn, duration, first, then)


def wait(duration: float) -> Step:
    return Step(duration)


def call_at(events: list, at: float, fn: Callable, *args) -> None:
    """Lay out a call of `fn(*args)` at `at` seconds among `events` (see Timeline.laid_out), as `call` would."""
    events.append((at, _CALL, fn, args))


seq = Seq
par = Par


_playing: dict[str, "Timeline"] = {}     # name -> the timeline playing under it (one at a time, as Panda's rule is)
_driver: list[Task.Task] = []           # the one task that steps them, once added


def _step_playing(task: Task.Task) -> int:
    for name, timeline in list(_playing.items()):
        if _playing.get(name) is not timeline:
            continue                    # a timeline stepped before it ended or replaced this one
        again = timeline.stepPlay()
        timeline.privPostEvent()
        if not again and _playing.get(name) is timeline:
            del _playing[name]
    return Task.cont


class Timeline(Interval):
    """One Panda interval playing a composition of steps. Events at the same moment happen in the order they were
    composed (a piece is put in place before the lerp that moves it starts, and the lerp ends before the call after
    it). Forwards only: a seek backwards moves what is moving at that time, and calls nothing again.

    Played on its own, it is stepped by the shared task (see the module's note): starting one interrupts whatever
    timeline of the same name was playing, as Panda's intervals do."""

    def __init__(self, root: Step, name: str = "timeline"):
        events: list = []
        length = root.emit(0.0, events)
        events.sort(key=_WHEN)      # by time: a stable sort keeps events at one moment in the order composed
        self._lay(events, length, name)

    @classmethod
    def laid_out(cls, events: list, length: float, name: str = "timeline", ordered: bool = False) -> "Timeline":
        """The timeline of `events` its caller laid out itself, `length` seconds long, with steps' `emit` and with
        `call_at`: a composition of steps made only to be walked once costs its objects and its walk (the stage lays
        out a move's phases so, one after another). `ordered`: the caller laid them out in the order a stable sort by
        time gives them (they are not sorted again)."""
        if not ordered:
            events.sort(key=_WHEN)      # by time: a stable sort keeps events at one moment in the order composed
        timeline = cls.__new__(cls)
        timeline._lay(events, length, name)
        return timeline

    def _lay(self, events: list, length: float, name: str) -> None:
        self.events = events        # (in order by time)
        self.next = 0                      # the first event not yet happened
        self.running: dict[_Lerp, float] = {}   # lerps under way -> when each started
        if __debug__ and TaskManager.taskTimerVerbose:
            Interval.__init__(self, name, length, openEnded=1)      # (with its PStats collector)
            return
        # what Interval.__init__ sets, set here (a move makes a timeline); tests/test_timeline.py checks it still
        # matches. Stored one by one: an update of vars(self) would make the object keep a dict of its attributes,
        # slower to read and to free than the values it holds without one
        duration = length if length >= 0.0 else 0.0      # max(length, 0.0), without the call
        self.name = name
        self.duration = duration
        self.state = _SINITIAL
        self.currT = 0.0
        self.doneEvent = None
        self.setTHooks = []
        self._Interval__startT = 0
        self._Interval__startTAtStart = 1
        self._Interval__endT = duration
        self._Interval__endTAtEnd = 1
        self._Interval__playRate = 1.0
        self._Interval__doLoop = 0
        self._Interval__loopCount = 0
        self.pstats = None
        self.openEnded = 1

    def start(self, startT: float = 0.0, endT: float = -1.0, playRate: float = 1.0) -> None:
        """Play from the start (Interval.start, its setupPlay inlined for the usual call: every move starts one)."""
        if startT != 0.0 or endT != -1.0 or playRate != 1.0:
            return Interval.start(self, startT, endT, playRate)
        self._Interval__startT = 0
        self._Interval__startTAtStart = 1
        self._Interval__endT = self.duration
        self._Interval__endTAtEnd = 1
        self._Interval__clockStart = _clock.getFrameTime()
        self._Interval__playRate = 1.0
        self._Interval__doLoop = 0
        self._Interval__loopCount = 0
        self._Interval__spawnTask()
        return None

    def finish(self) -> None:
        """Jump to the end (Interval.finish with its calls inlined: a move jumped over ends here)."""
        state = self.state
        if state == _SINITIAL:
            self.privInstant()      # (a move jumped over, by a hurried player or the bench, ends here)
        elif state != _SFINAL:
            self.privFinalize()
        if self.setTHooks or self.pstats:
            Interval.privPostEvent(self)
        other = _playing.pop(self.name, None)
        if other is not None and other is not self:
            other.privInterrupt()

    # Interval's own play, pause, resume and finish call these two (name-mangled) to add and take away its task
    def _Interval__spawnTask(self) -> None:
        self._Interval__removeTask()
        if not _driver or not _driver[0].isAlive():
            _driver[:] = [taskMgr.add(_step_playing, "timelines-play")]
        _playing[self.name] = self

    def _Interval__removeTask(self) -> None:
        other = _playing.pop(self.name, None)
        if other is not None and other is not self:
            other.privInterrupt()

    def isPlaying(self) -> bool:
        return _playing.get(self.name) is self

    def privInitialize(self, t: float) -> None:
        self.next = 0
        if self.running:            # (a new timeline's is empty already)
            self.running = {}
        Interval.privInitialize(self, t)

    def privInstant(self) -> None:
        # Interval.privInstant with its calls inlined: a move jumped over (by a hurried player, or the bench) ends here
        self.next = 0
        if self.running:            # (a new timeline's is empty already)
            self.running = {}
        self.state = _SSTARTED
        self.privStep(self.duration)
        self.state = _SFINAL
        if self.doneEvent:
            self.intervalDone()

    def privPostEvent(self) -> None:
        if self.setTHooks or self.pstats:       # (nothing to do otherwise, and every step and finish asks)
            Interval.privPostEvent(self)

    def privStep(self, t: float) -> None:
        events, i = self.events, self.next
        for at, kind, what, arg in events[i:] if i else events:
            if at > t:
                break
            i += 1
            self.next = i          # a call may finish this very timeline (a hand-off): it must not run twice
            if kind == _CALL:
                what(*arg)
            elif kind == _BEGIN:
                first = what.first
                if first is not None:
                    first[0](*first[1])
                if arg + what.seconds > t:
                    # under way after this step (one that also ends by then is ended below, in this same loop)
                    self.running[what] = arg    # (read anew: a call may have set up this timeline again)
            else:
                self.running.pop(what, None)
                what.fn(1.0)
                then = what.then
                if then is not None:
                    then[0](*then[1])
        running = self.running
        if running:
            for step, began in list(running.items()):
                step.fn(min(1.0, (t - began) / step.seconds) if step.seconds > 0 else 1.0)
        self.state = _SSTARTED     # Interval.privStep, inlined
        self.currT = t
