"""The stage's light intervals (scene/timeline.py) keep the order Panda's Sequence and Parallel keep: a sequence's
steps one after another, a parallel's together, calls and lerps at one moment in the order they were composed."""
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


def test_starting_a_timeline_interrupts_the_one_playing_under_its_name_and_pausing_stops_it(showbase):
    """As Panda's own intervals do: one timeline plays under a name; the other names play on."""
    first_log, first = recorder()
    other_log, other = recorder()
    a = Timeline(lerp(lambda t: first("a", round(t, 2)), 1.0), "same")
    b = Timeline(lerp(lambda t: first("b", round(t, 2)), 1.0), "same")
    c = Timeline(lerp(lambda t: other("c", round(t, 2)), 1.0), "another")
    a.start()
    c.start()
    b.start()
    assert not a.isPlaying() and a.isPaused() and b.isPlaying() and c.isPlaying()
    first_log.clear()
    other_log.clear()
    _frames(showbase, [0.25])
    assert [what for what, _ in first_log] == ["b"] and [what for what, _ in other_log] == ["c"]
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


def test_events_laid_out_by_their_caller_play_as_the_steps_composed_would():
    """Timeline.laid_out plays the events a caller laid out with the steps' emit and call_at (the stage lays out a
    move's phases so) as Timeline plays the same steps composed in a seq of pars: the same calls in the same order,
    the same length; events at one moment keep the order they were laid out in."""
    from towerworld.scene.timeline import call_at

    def steps(note):
        return (lerp(lambda t: note("x", round(t, 2)), 0.5, first=(note, ("ensure x",)), then=(note, ("place x",))),
                lerp(lambda t: note("y", round(t, 2)), 0.5, first=(note, ("ensure y",)), then=(note, ("place y",))),
                lerp(lambda t: note("z", round(t, 2)), 0.3))
    composed_log, note = recorder()
    x, y, z = steps(note)
    composed = Timeline(seq(call(note, "start"), par(x, y), z, call(note, "end")))
    laid_log, note = recorder()
    x, y, z = steps(note)
    events: list = []
    call_at(events, 0.0, note, "start")
    end = max(x.emit(0.0, events), y.emit(0.0, events))
    end = z.emit(end, events)
    call_at(events, end, note, "end")
    laid = Timeline.laid_out(events, end)
    assert laid.getDuration() == composed.getDuration() == 0.8
    for ival in (composed, laid):
        ival.setT(0.25)
        ival.setT(0.6)
        ival.finish()
    assert laid_log == composed_log
    assert composed_log[:4] == [("start",), ("ensure x",), ("ensure y",), ("x", 0.5)]
    assert composed_log[-2:] == [("z", 1.0), ("end",)]


def test_a_timeline_is_set_up_started_and_finished_as_panda_s_own_interval_code_would(showbase):
    """Timeline sets itself up, starts and finishes with Interval's code inlined (a move makes, starts and ends one):
    the attributes that code sets are the same, so that the rest of Interval (pause, resume, setT) reads them."""
    from direct.interval.Interval import Interval

    def fields(ival):
        return {k: v for k, v in vars(ival).items() if k not in ("name", "events", "next", "running")}
    ours = Timeline.laid_out([], 1.5, "ours")
    theirs = Timeline.laid_out([], 1.5, "theirs")
    Interval.__init__(theirs, "theirs", 1.5, openEnded=1)
    assert fields(ours) == fields(theirs) and ours.name == "ours"
    ours.start()
    Interval.start(theirs)
    assert fields(ours) == fields(theirs) and ours.isPlaying() and theirs.isPlaying()
    ours.finish()
    Interval.finish(theirs)
    assert fields(ours) == fields(theirs) and not ours.isPlaying() and not theirs.isPlaying()
    assert ours.getT() == 1.5 and ours.isStopped()
