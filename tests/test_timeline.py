"""The stage's transitions (scene/timeline.py) are Panda's own intervals: a sequence's steps one after another, a
parallel's together, calls and lerps at one moment in the order they were composed, seeking both ways."""
from direct.interval.FunctionInterval import Func
from direct.interval.MetaInterval import Sequence

from towerworld.scene.timeline import Timeline, call, lerp, par, seq, wait


def recorder():
    log = []
    return log, (lambda *what: log.append(what))


def test_a_sequence_puts_a_piece_in_place_before_its_lerp_and_ends_the_lerp_before_the_next_call():
    log, note = recorder()
    ival = Timeline(seq(call(note, "ensure"), lerp(lambda t: note("arc", round(t, 2)), 0.5), call(note, "place")))
    assert ival.getDuration() == 0.5
    ival.finish()                       # jumped over, as the bench and a hurried player do
    assert log == [("ensure",), ("arc", 1.0), ("place",)]


def test_seeking_forwards_runs_what_is_under_way_and_only_what_is_due():
    log, note = recorder()
    ival = Timeline(seq(call(note, "a"), par(lerp(lambda t: note("x", round(t, 2)), 1.0),
                                            seq(wait(0.4), call(note, "b"))), call(note, "c")))
    ival.setT(0.25)
    assert log == [("a",), ("x", 0.25)]
    log.clear()
    ival.setT(0.5)
    assert log == [("b",), ("x", 0.5)]
    log.clear()
    ival.finish()
    assert log == [("x", 1.0), ("c",)]


def test_a_parallel_lasts_as_long_as_its_longest_step_even_when_it_grows_after_being_added():
    log, note = recorder()
    together = par(lerp(lambda t: None, 0.3))
    whole = seq(together, call(note, "after"))
    together.append(seq(wait(0.2), lerp(lambda t: None, 0.6)))    # a score floats up with the phase
    ival = Timeline(whole)
    assert abs(ival.getDuration() - 0.8) < 1e-9
    ival.setT(0.79)
    assert log == []
    ival.setT(0.8)
    assert log == [("after",)]


def test_a_timeline_plays_inside_a_panda_sequence_and_calls_each_step_once():
    log, note = recorder()
    outer = Sequence(Timeline(seq(call(note, "move"), lerp(lambda t: None, 0.2))), Func(note, "then"))
    outer.start()
    outer.setT(0.1)
    outer.finish()
    assert log == [("move",), ("then",)]


def _frames(showbase, times):
    from panda3d.core import ClockObject
    clock = ClockObject.getGlobalClock()
    mode = clock.getMode()
    clock.setMode(ClockObject.MSlave)
    start = clock.getFrameTime()
    try:
        for at in times:
            clock.setFrameTime(start + at)
            showbase.taskMgr.step()
    finally:
        clock.setMode(mode)


def test_a_started_timeline_plays_frame_by_frame_to_its_end_and_then_stops_playing(showbase):
    log, note = recorder()
    ival = Timeline(seq(call(note, "a"), lerp(lambda t: note("x", round(t, 2)), 1.0), call(note, "b")), "played")
    from panda3d.core import ClockObject
    clock = ClockObject.getGlobalClock()
    mode = clock.getMode()
    clock.setMode(ClockObject.MSlave)
    try:
        start = clock.getFrameTime()
        ival.start()
        assert ival.isPlaying()
        for at in (0.5, 1.5):
            clock.setFrameTime(start + at)
            showbase.taskMgr.step()
            if at < 1:
                assert log == [("a",), ("x", 0.5)] and ival.isPlaying()
    finally:
        clock.setMode(mode)
    assert log == [("a",), ("x", 0.5), ("x", 1.0), ("b",)]
    assert not ival.isPlaying()


def test_starting_a_timeline_ends_the_one_playing_under_its_name_and_pausing_stops_it(showbase):
    """As Panda's interval manager does: one interval plays under a name (starting another ends the first, which
    lands where it ends); the other names play on."""
    first_log, first = recorder()
    other_log, other = recorder()
    a = Timeline(lerp(lambda t: first("a", round(t, 2)), 1.0), "same")
    b = Timeline(lerp(lambda t: first("b", round(t, 2)), 1.0), "same")
    c = Timeline(lerp(lambda t: other("c", round(t, 2)), 1.0), "another")
    a.start()
    c.start()
    b.start()
    first_log.clear()
    other_log.clear()
    _frames(showbase, [0.25])
    assert first_log == [("a", 1.0), ("b", 0.25)] and [what for what, _ in other_log] == ["c"]
    assert a.isStopped() and b.isPlaying() and c.isPlaying()
    b.pause()
    c.finish()
    assert not b.isPlaying() and not c.isPlaying() and other_log[-1] == ("c", 1.0)
    first_log.clear()
    _frames(showbase, [0.5])
    assert first_log == []


def test_a_lerp_with_first_and_then_keeps_the_order_of_a_call_a_lerp_and_a_call_in_sequence():
    """The one step a moving piece makes (put in place, travel, placed) plays as seq(call, lerp, call) does, with
    steps on either side of it and beside it."""
    log, note = recorder()
    fused = Timeline(seq(call(note, "before"),
                         par(lerp(lambda t: note("x", round(t, 2)), 0.5, first=(note, ("ensure",)),
                                  then=(note, ("place",))),
                             lerp(lambda t: note("y", round(t, 2)), 0.5)),
                         call(note, "after")))
    fused.setT(0.25)
    assert log == [("before",), ("ensure",), ("x", 0.5), ("y", 0.5)]
    fused.finish()
    assert log[4:] == [("x", 1.0), ("place",), ("y", 1.0), ("after",)]
    assert fused.getDuration() == 0.5


def test_seeking_back_plays_the_composition_again_from_where_it_is_set():
    """Panda's intervals seek both ways: set back, what is due again is done again (a replay dragged back)."""
    log, note = recorder()
    ival = Timeline(seq(call(note, "a"), lerp(lambda t: note("x", round(t, 2)), 1.0), call(note, "b")))
    ival.setT(0.75)
    ival.setT(0.25)
    assert log[0] == ("a",) and log[1] == ("x", 0.75) and log[-1] == ("x", 0.25) and ("b",) not in log
    ival.finish()
    assert log[-2:] == [("x", 1.0), ("b",)]


def test_transitions_are_panda_s_own_intervals_and_nothing_overrides_their_private_methods():
    """A transition is made of Panda3D's Sequence, Parallel, Func, LerpFunc and Wait; no module of the scene or the
    app defines a Panda interval class of its own or names one of Interval's private (name-mangled) members."""
    import os
    import re

    from direct.interval.FunctionInterval import Wait
    from direct.interval.LerpInterval import LerpFunc
    from direct.interval.MetaInterval import Parallel

    made = Timeline(seq(call(print), par(lerp(lambda t: None, 0.5, first=(print, ()), then=(print, ()))), wait(0.1)))
    kinds = set()

    def walk(ival):
        kinds.add(type(ival))
        for child in getattr(ival, "ivals", ()):
            walk(child)
    walk(made)
    assert kinds == {Sequence, Parallel, Func, LerpFunc, Wait}, kinds
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for folder in ("towerworld/scene", "towerworld/app"):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in files:
                if name.endswith(".py"):
                    text = open(os.path.join(dirpath, name), encoding="utf-8").read()
                    if re.search(r"_Interval__|class \w+\((Interval|CInterval|MetaInterval)\)", text):
                        found.append(name)
    assert not found, found
