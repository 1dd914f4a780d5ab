"""The help overlay: opaque, above the table's buttons, per game (its rules summary in its own words, then the keys
that do something in that game), inside the window at 1280x800 and 900x600, closed by H or Esc."""
import re

import pytest

from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import all_games, get_game
from towerworld.scene.hud import help_text, keys_help

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle


def test_each_game_has_its_own_help_its_rules_then_its_keys():
    texts = {name: help_text(game) for name, game in all_games().items()}
    for name, game in all_games().items():
        text = texts[name]
        rules = text[:text.index("\nKeys\n")].split()
        assert rules == game.help_text().split(), name              # the rules summary first, every word of it
        assert "PgUp" not in text, "no game shows storeys by key: the help lists only keys that work"
    assert len(set(texts.values())) == len(texts), "every game's help differs"
    assert "turns the tile" in texts["carcassonne"] and "turns the tile" not in texts["elevation"]
    assert "hands the screen on" in texts["throwdown"] and "hands the screen on" not in texts["kdak"]
    assert "physical crumbles" in texts["kdak"] and "physical crumbles" not in texts["throwdown"]
    replay = keys_help(get_game("kdak"), replay=True)
    assert "Space plays or pauses" in replay and "undo" not in replay
    assert "Esc closes this help" in replay


def _boxes(table, node):
    lo, hi = node.getTightBounds(table.base.render2d)
    return lo.x, lo.z, hi.x, hi.z


@pytest.mark.parametrize("name", ["kdak", "throwdown"])
def test_the_overlay_is_opaque_above_the_buttons_and_inside_the_window(showbase, tmp_path, name):
    from towerworld.app.play import PlayTable
    game = get_game(name)
    t = PlayTable(Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=2,
                        autosave=str(tmp_path / "h.tower.json")))
    size = (t.base.win.getXSize(), t.base.win.getYSize())
    try:
        settle(t)
        t.hud.set_buttons([("pass", lambda: None), ("spend a talisman", lambda: None)])
        t.toggle_help()
        assert not t.hud.help.isHidden()
        assert t.hud.help["frameColor"][3] == 1.0, "the table must not show through the help"
        assert all(t.hud.help["sortOrder"] > b["sortOrder"] for b in t.hud.buttons), "no button over the help"
        shown = re.sub(r"\x01[^\x01]*\x01|\x02", "", t.hud.help_text.getText())      # the words, not the colours
        name, rest = game.help_text().strip().splitlines()[0].split(" - ", 1)
        assert shown.startswith(f"{name}\n{rest[:1].upper()}{rest[1:]}")
        assert "\x01helphead\x01Keys\x02" in t.hud.help_text.getText(), "the keys' heading stands out"
        f0, g0, f1, g1 = _boxes(t, t.hud.help)
        x0, y0, x1, y1 = _boxes(t, t.hud.help_text)
        assert y0 - g0 < 0.15, "the card ends under the last line, not far below it"
        for w, h in [(1280, 800), (900, 600)]:
            t.base.win.setSize(w, h)
            t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
            x0, y0, x1, y1 = _boxes(t, t.hud.help_text)
            f0, g0, f1, g1 = _boxes(t, t.hud.help)
            assert -1 <= x0 and x1 <= 1 and -1 <= y0 and y1 <= 1, f"the help's text runs off a {w}x{h} window"
            assert f0 <= x0 and x1 <= f1 and g0 <= y0 and y1 <= g1, f"the help's text runs off its panel at {w}x{h}"
        t.toggle_help()                       # H again closes it
        assert t.hud.help.isHidden()
        t.toggle_help()
        t.escape()                            # and so does Esc
        assert t.hud.help.isHidden()
    finally:
        t.base.win.setSize(*size)
        t.base.adjustWindowAspectRatio(t.base.getAspectRatio())
        t.close()
