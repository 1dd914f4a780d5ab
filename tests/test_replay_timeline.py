"""The replay's timeline and the wheel, driven with synthetic pointer positions: the timeline follows the pointer at
any drag speed while the button is held, a click on the bar jumps to the ply under it, the move line says the move
in words and stays current, and the wheel zooms toward the table point under the pointer."""
from __future__ import annotations

import random

import pytest

from towerworld.ai import make_agent
from towerworld.engine.driver import play_match
from towerworld.engine.game import CHANCE
from towerworld.engine.match import Match
from towerworld.engine.registry import get_game

try:
    from tabletools import projected_box
except ImportError:  # tests run as a package
    from tests.tabletools import projected_box

SIZE = (640, 400)


def _finished(name: str = "elevation", plies: int = 30) -> Match:
    game = get_game(name)
    match = Match(game, seed=7)
    play_match(match, {i: make_agent("random", game, seed=i) for i in range(len(match.players))},
               random.Random(7), max_plies=plies)
    return match


class Hand:
    """A pointer and a mouse button, as a test moves them."""
    def __init__(self, table):
        self.at: tuple[float, float] | None = None
        self.held = False
        table.camera.mouse = lambda: self.at
        table._button_held = lambda: self.held


def _thumb_x(table) -> float:
    return table.base.render2d.getRelativePoint(table.slider.thumb, (0, 0, 0)).x


def _bar(table) -> tuple[float, float, float]:
    """The bar's left and right ends and its height, in render2d units."""
    f = table.slider["frameSize"]
    r2d = table.base.render2d
    left, right = r2d.getRelativePoint(table.slider, (f[0], 0, 0)), r2d.getRelativePoint(table.slider, (f[1], 0, 0))
    return left.x, right.x, left.z


@pytest.fixture
def replay(showbase):
    from towerworld.app.replay import ReplayTable
    table = ReplayTable(_finished(), SIZE, frames=1)
    table.playing = False
    yield table
    table.close()


def test_a_fast_drag_is_followed_each_frame_and_ends_with_the_button(replay):
    table, hand = replay, Hand(replay)
    n = len(table.match.plies)
    left, right, z = _bar(table)
    step = (right - left) / n          # the thumb's travel per ply is a little less than this
    hand.at, hand.held = (left + 0.1 * (right - left), z), True
    table._grab_timeline()
    table.base.taskMgr.step()
    first = table.ply
    assert 0 < first < n // 2
    # the whole bar in one frame: far more than a slow drag
    for share in (0.9, 0.35, 0.75):
        hand.at = (left + share * (right - left), z)
        table.base.taskMgr.step()
        assert abs(_thumb_x(table) - hand.at[0]) <= step, "the thumb stands under the pointer"
        assert table.ply == table.timeline_ply(hand.at[0])
        assert abs(table.ply - share * n) <= 1.5
    held_at = table.ply
    hand.held = False
    table.base.taskMgr.step()
    hand.at = (left + 0.05 * (right - left), z)
    table.base.taskMgr.step()
    assert table.ply == held_at, "once the button is let go the pointer no longer moves the replay"


def test_a_click_on_the_bar_jumps_there(replay):
    table, hand = replay, Hand(replay)
    n = len(table.match.plies)
    left, right, z = _bar(table)
    hand.at, hand.held = (left + 0.8 * (right - left), z), True
    table._grab_timeline()           # the press alone, before any frame: the replay is there already
    assert abs(table.ply - 0.8 * n) <= 1.5 and table.ply > 1
    hand.held = False
    table.base.taskMgr.step()
    assert abs(_thumb_x(table) - hand.at[0]) <= (right - left) / n


def test_the_move_line_is_in_words_and_follows_the_timeline(replay):
    table, hand = replay, Hand(replay)
    match, game = table.match, table.game
    left, right, z = _bar(table)
    hand.held = True
    for share in (0.6, 0.2, 0.95):
        hand.at = (left + share * (right - left), z)
        table._grab_timeline()
        table.base.taskMgr.step()
        k = max(i for i in range(table.ply) if match.plies[i].mover != CHANCE)
        words = game.describe_move(match.state_at(k), match.plies[k].move)
        status = table.hud.status.textNode.getText()
        assert words in status
        assert match.plies[k].text not in status.replace(words, ""), "no notation on the move line"
        assert table.hud.message.textNode.getText() == "", "no events of another position left on the screen"
    hand.held = False


@pytest.mark.parametrize("pointer", [(0.5, -0.4), (-0.6, 0.3), (0.1, 0.1)])
def test_the_wheel_zooms_toward_the_point_under_the_pointer(replay, pointer):
    table, hand = replay, Hand(replay)
    hand.at = pointer
    w, h = SIZE

    def pixels_off(point) -> float:
        box = projected_box(table.base, [point])
        return max(abs(box[0] - pointer[0]) * w / 2, abs(box[1] - pointer[1]) * h / 2)

    point = table.camera.point_under_pointer()
    assert point is not None and pixels_off(point) < 0.5
    if table.picker.pick_all(pointer):
        assert point[2] > 0.0, "over a piece, the point is on the piece (its top), not on the table below it"
    before = table.camera.orbit.distance
    for f in (0.9, 0.9, 1.1, 0.9):
        table.camera.wheel_zoom(f)
        assert pixels_off(point) <= 2.0
    assert table.camera.orbit.distance < before
    # the middle of the view is not where the pointer is: zooming toward it would have moved that point away
    table.camera.reset()
    table.camera.zoom(0.9 ** 3)
    assert pixels_off(point) > 5.0


def test_a_press_on_the_timeline_reaches_the_replay_not_the_bar(replay):
    """The press comes through the clear frame over the bar (as the window sends it); the bar itself takes none, so
    its own paging (a ply at a time toward the press) never fights the pointer, nor keeps its thumb still."""
    from direct.gui import DirectGuiGlobals as DGG
    table, hand = replay, Hand(replay)
    left, right, z = _bar(table)
    hand.at, hand.held = (left + 0.7 * (right - left), z), True
    table.base.messenger.send(DGG.B1PRESS + table.grip.guiId, [None])
    assert table.ply == table.timeline_ply(hand.at[0]) and table.ply > 1
    assert not table.slider.guiItem.getActive() and not table.slider.thumb.guiItem.getActive()
    grip = table.grip["frameSize"]
    r2d = table.base.render2d
    assert r2d.getRelativePoint(table.grip, (grip[0], 0, 0)).x <= left
    assert r2d.getRelativePoint(table.grip, (grip[1], 0, 0)).x >= right


def test_the_message_line_stands_over_the_timeline_and_its_buttons(replay):
    """What a move says ("Ann draws the 2-4.") is written over the replay's controls, never across them, one line or
    several."""
    table = replay
    r2d = table.base.render2d
    # each control's frame top (its PGItem frame: left, right, bottom, top in its own units) on the window
    top = max(r2d.getRelativePoint(item, (0, 0, item.guiItem.getFrame()[3])).z
              for item in table.buttons + [table.slider, table.speed_label])
    assert top > -0.9
    for words in ("Player 1 draws the 2-4.", " ".join(["Player 2 scores a long line of points."] * 6)):
        table.hud.say(words)
        said = table.hud.message.getTightBounds(r2d)
        assert said is not None and said[0].z > top, (words[:30], said[0].z, top)
    table.hud.say("")


@pytest.mark.parametrize("name", ["throwdown", "elevation", "kdak", "ziggurat", "carcassonne"])
def test_a_finished_games_result_is_said_once(showbase, name):
    """At the end of a replay the result stood twice, in the turn line ("The battle is over: Ann wins with 20
    points.") and again under the status lines: it is said once."""
    from towerworld.app.replay import ReplayTable
    table = ReplayTable(_finished(name, plies=3000), SIZE, frames=1)
    try:
        table.playing = False
        assert table.match.over
        table.jump_end()
        result = table.with_names(table.game.result(table.match.state))
        shown = table.hud.instruction.textNode.getText() + "\n" + table.hud.status.textNode.getText()
        assert shown.count(result) == 1, shown
    finally:
        table.close()
