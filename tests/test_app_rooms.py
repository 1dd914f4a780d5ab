"""The app's rooms leave the window as they found it: the play table, the replay table, the start screen and the state
machine that moves between them each remove exactly the tasks, events and nodes they added (the one ShowBase
outlives them all), so a long evening of games from the menu does not pile up handlers, tasks or scene nodes.
"""
from __future__ import annotations

import random

import pytest

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle


def footprint(base) -> dict:
    """What a room can add to the window: tasks (by name), every (event, listener, handler) the messenger holds,
    the children of the scene graphs' roots and of the camera, the render state of render, and running intervals."""
    from direct.interval.IntervalManager import ivalMgr
    events = set()
    for event in base.messenger.getEvents():
        for listener, (method, *_rest) in (base.messenger.whoAccepts(event) or {}).items():
            events.add((event, listener, method))
    return {
        "tasks": sorted(task.name for task in base.taskMgr.getAllTasks()),
        "events": events,
        "nodes": {name: list(getattr(base, name).getChildren())
                  for name in ("render", "render2d", "aspect2d", "pixel2d", "camera")},
        "render state": base.render.getState(),
        "intervals": ivalMgr.getNumIntervals(),
    }


def differences(before: dict, after: dict) -> list[str]:
    out = []
    for key in before:
        if key == "events":
            added, gone = after[key] - before[key], before[key] - after[key]
            if added or gone:
                out.append(f"events added {sorted((e, str(m)) for e, _, m in added)[:6]}, "
                           f"lost {sorted((e, str(m)) for e, _, m in gone)[:6]}")
        elif before[key] != after[key]:
            out.append(f"{key}: {before[key]} -> {after[key]}")
    return out


def _playing(game_name: str = "kdak") -> Match:
    game = get_game(game_name)
    return Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=3)


def _finished(game_name: str = "kdak") -> Match:
    game = get_game(game_name)
    match = Match(game, seed=4)
    play_match(match, {i: make_agent("random", game, seed=i) for i in range(len(match.players))},
               random.Random(4), max_plies=30)
    return match


def _open_play(base):
    from towerworld.app.play import PlayTable
    table = PlayTable(_playing())
    settle(table)
    game, state = table.game, table.match.state
    move = game.legal_moves(state)[0]
    for pick in game.picks(state, move):        # a move played, its animation under way when the table closes
        table.choose(pick)
    table.toggle_menu()                          # the Esc menu open, too
    base.taskMgr.step()
    return table


def _open_replay(base):
    from towerworld.app.replay import ReplayTable
    table = ReplayTable(_finished())
    for _ in range(5):
        base.taskMgr.step()
    table.step(1)
    return table


@pytest.mark.parametrize("opener", [_open_play, _open_replay], ids=["play", "replay"])
def test_a_table_removes_exactly_what_it_added(showbase, opener):
    opener(showbase).close()                    # once first: what Panda3D loads on first use stays loaded
    before = footprint(showbase)
    table = opener(showbase)
    during = footprint(showbase)
    assert differences(before, during), "the table added nothing the footprint sees"
    table.close()
    after = footprint(showbase)
    assert differences(before, after) == []


def test_closing_a_table_keeps_the_windows_own_handlers(showbase):
    """ShowBase listens to the window's events itself (a resize keeps the lens's aspect): a table listens beside it
    and never takes its place, not while it is open nor after it closed."""
    from towerworld.app.play import PlayTable
    own = dict(showbase.messenger.whoAccepts("window-event") or {})
    assert any(m == showbase.windowEvent for m, *_ in own.values())
    table = PlayTable(_playing())
    while_open = showbase.messenger.whoAccepts("window-event")
    assert any(m == showbase.windowEvent for m, *_ in while_open.values()) and len(while_open) == len(own) + 1
    table.close()
    assert any(m == showbase.windowEvent for m, *_ in showbase.messenger.whoAccepts("window-event").values())


def test_the_state_machine_goes_round_the_rooms_and_leaves_nothing(showbase):
    """Menu -> Play -> Menu -> Replay -> Menu -> Off: each room builds on enter and takes down on exit."""
    from towerworld.app.main import App

    def tour():
        app = App(showbase, (640, 400), frames=0)
        app.request("Menu")
        showbase.taskMgr.step()
        app.request("Play", _playing())
        showbase.taskMgr.step()
        app.request("Menu")
        app.request("Replay", _finished())
        showbase.taskMgr.step()
        app.request("Menu")
        app.request("Off")
        assert app.screen is None

    tour()
    before = footprint(showbase)
    tour()
    assert differences(before, footprint(showbase)) == []
    assert any(m == showbase.windowEvent for m, *_ in showbase.messenger.whoAccepts("window-event").values())


def test_the_footprint_sees_what_a_room_would_leave_behind(showbase):
    """The check is not blind: a listener, a task, a node or a render attribute left behind each show."""
    from direct.showbase.DirectObject import DirectObject
    from panda3d.core import ColorScaleAttrib
    before = footprint(showbase)
    listener = DirectObject()
    listener.accept("f12", lambda: None)
    assert differences(before, footprint(showbase))
    listener.ignoreAll()
    task = showbase.taskMgr.add(lambda t: t.cont, "left-behind")
    assert differences(before, footprint(showbase))
    showbase.taskMgr.remove(task)
    node = showbase.aspect2d.attachNewNode("left-behind")
    assert differences(before, footprint(showbase))
    node.removeNode()
    showbase.render.setAttrib(ColorScaleAttrib.make((1, 1, 1, 0.5)))
    assert differences(before, footprint(showbase))
    showbase.render.clearAttrib(ColorScaleAttrib)
    assert differences(before, footprint(showbase)) == []
