"""Domino models: real pips on both halves, true size, and an offscreen picture of a part-built three-tier stack."""
from __future__ import annotations

import os

import pytest

from towerworld.engine.layout import Pose, look
from towerworld.engine.pieces import size
from towerworld.engine.game import OMNISCIENT

pytest.importorskip("panda3d")


def test_pips_per_value_inside_their_half():
    from towerworld.scene.components.dominoes import PIP_R, pip_positions
    s = size("domino")
    for v in range(7):
        for cx in (-s.w / 4, s.w / 4):
            pts = pip_positions(v, cx)
            assert len(pts) == v and len(set(pts)) == v
            assert all(abs(x - cx) + PIP_R < s.w / 4 and abs(y) + PIP_R < s.d / 2 for x, y in pts)


def test_domino_model_true_size():
    from towerworld.scene.components.dominoes import build_domino
    np = build_domino(Pose("domino", 0, 0, 0, look=look(a=6, b=5)))
    lo, hi = np.getTightBounds()
    s = size("domino")
    assert hi.x - lo.x == pytest.approx(s.w, abs=0.01)
    assert hi.y - lo.y == pytest.approx(s.d, abs=0.01)
    assert hi.z == pytest.approx(s.h + 0.1, abs=0.1) and lo.z == pytest.approx(-0.04, abs=0.05)


def test_mid_game_picture(showbase, tmp_path):
    from towerworld.games.ziggurat import GAME
    from towerworld.scene.offscreen import render_layout
    s = GAME.new_state()
    for text in ("draw 1-1", "draw 1-4", "draw 1-3", "1-1 @c3-d3 t0", "draw 2-3", "1-4 @c4-c5 t0", "draw 5-6",
                 "3-1 @c2-d2 t0", "draw 0-0", "3-2 @c3-d3 t1", "draw 4-5"):
        s, _ = GAME.apply(s, GAME.parse_move(s, text))
    out = render_layout(GAME.layout(s, OMNISCIENT), str(tmp_path / "zig.png"), 320, 200)
    assert os.path.getsize(out) > 1000
