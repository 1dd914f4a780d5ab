"""The stage's transitions, composed of Panda3D's own intervals.

`seq`, `par`, `call`, `lerp` and `wait` are Panda's Sequence, Parallel, Func, LerpFunc and Wait under short names;
`lerp` also takes what a moving piece does as it starts and once it has ended (called by the one LerpFunc), and `Timeline` names the whole
composition as the one interval a move plays. Everything plays, seeks (`setT`, forwards and back), pauses and
finishes as Panda's intervals do, in a Panda Sequence like any other, stepped by Panda's interval manager.
"""
from __future__ import annotations

from typing import Callable, Union

from direct.interval.FunctionInterval import Func, Wait
from direct.interval.Interval import Interval
from direct.interval.LerpInterval import LerpFunc
from direct.interval.MetaInterval import Parallel, Sequence
from panda3d.direct import CInterval

Step = Union[Interval, CInterval]       # what a transition is made of: any Panda interval


def call(fn: Callable, *args) -> Step:
    """Call `fn(*args)` at this moment (Panda's Func)."""
    return Func(fn, *args)


def lerp(fn: Callable[[float], object], duration: float, first: tuple[Callable, tuple] | None = None,
         then: tuple[Callable, tuple] | None = None, ends: bool = False) -> Step:
    """Call `fn(t)` with t running from 0 to 1 over `duration` seconds, and with 1 at its end however it is reached
    (Panda's LerpFunc from 0 to 1). `first` and `then`, (function, args), are called as it starts and once it has
    ended, by the one LerpFunc (a Sequence of a Func, the LerpFunc and a Func cost three intervals to make, start and
    end, and a move makes one for each piece that moves its own way); `first` is called again when it plays again
    after an end, seeked back or started anew. `ends`: made to be given a `first` or `then` later (the stage's move
    calls what starts and ends it by the lerps that start and end it), where it has neither yet."""
    seconds = duration if duration > 0 else 0.0
    if first is None and then is None and not ends:
        return LerpFunc(fn, fromData=0.0, toData=1.0, duration=seconds, name="lerp")
    ends = _Ends()
    ends.fn, ends.first, ends.then, ends.begun = fn, first, then, False
    return LerpFunc(ends.step, fromData=0.0, toData=1.0, duration=seconds, name="lerp")


class _Ends:
    """A lerp's function with what is called as it starts (`first`) and once it has ended (`then`)."""
    __slots__ = ("fn", "first", "then", "begun")

    def step(self, t: float) -> None:
        if not self.begun:
            self.begun = True
            if self.first is not None:
                self.first[0](*self.first[1])
        self.fn(t)
        if t >= 1.0:
            self.begun = False
            if self.then is not None:
                self.then[0](*self.then[1])


def wait(duration: float) -> Step:
    """Nothing for `duration` seconds (Panda's Wait)."""
    return Wait(duration if duration > 0 else 0.0)


def seq(*steps: Step) -> Sequence:
    """Steps one after another (Panda's Sequence: more may be appended until it first plays)."""
    return Sequence(*steps)


def par(*steps: Step) -> Parallel:
    """Steps together, from the same moment; as long as the longest (Panda's Parallel)."""
    return Parallel(*steps)


def Timeline(root: Step, name: str = "timeline") -> Sequence:
    """The one interval a move plays: `root` in a Sequence named `name`. As with any Panda interval, starting one
    interrupts whatever interval of the same name is playing."""
    return Sequence(root, name=name)
