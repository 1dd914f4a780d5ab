"""Domino models: real pips on both halves, true size, and an offscreen picture of a domino across another."""
from __future__ import annotations

import numpy as np
import pytest

from towerworld.engine.layout import Pose, look
from towerworld.engine.pieces import size

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


def test_a_two_tier_stack_shows_its_pips(showbase, tmp_path):
    """Double-six dominoes: a 6|6 on the map with a 3|3 across it one tier up; seen from above, the pips of both
    read as black dots on ivory (6 + 6 + 3 + 3 minus the ones the upper domino covers)."""
    from panda3d.core import Filename, PNMImage, Texture

    from towerworld.engine.layout import Layout
    from towerworld.scene.camera import Orbit
    from towerworld.scene.offscreen import render_layout
    s, board = size("domino"), size("domino_map")
    layout = Layout()
    layout.place("map", Pose("domino_map", 0, 0, 0))
    layout.place("low", Pose("domino", 0, 0, board.h, look=look(a=6, b=6)))
    layout.place("high", Pose("domino", s.w / 4, 0, board.h + s.h, heading=90, look=look(a=3, b=3)))
    out = render_layout(layout, str(tmp_path / "dominoes.png"), 320, 240,
                        orbit=Orbit(0, 0, 0, heading=0, pitch=89.5, distance=200))
    texture = Texture()
    texture.load(PNMImage(Filename.fromOsSpecific(out)))
    rgb = np.frombuffer(bytes(texture.getRamImageAs("RGB")), np.uint8).reshape(240, 320, 3)
    dark = rgb.max(axis=-1) < 50
    assert dark.sum() > 150                       # pips, not one stray line
    assert (rgb.min(axis=-1) > 180).sum() > 5000  # on ivory


def test_tiers_tint_the_body_and_keep_the_pips_black(showbase, tmp_path):
    """Tiers contrast (no white on white): a domino's `tier` look tints its body (bottom, middle, top
    each its own colour, an untiered domino in hand stays ivory); seen from above, each body is light and the pips
    on it dark."""
    from panda3d.core import Filename, PNMImage, Texture

    from towerworld.engine.layout import Layout
    from towerworld.scene.camera import Orbit
    from towerworld.scene.offscreen import render_layout

    def seen_from_above(name: str, tier: int | None) -> tuple[np.ndarray, np.ndarray]:
        """(body colour beside the spinner, darkest pixel) of a lone 3|3 at `tier`."""
        layout = Layout()
        faces = look(a=3, b=3) if tier is None else look(a=3, b=3, tier=tier)
        layout.place("d", Pose("domino", 0, 0, 0, look=faces))
        out = render_layout(layout, str(tmp_path / f"{name}.png"), 320, 240,
                            orbit=Orbit(0, 0, 0, heading=0, pitch=89.5, distance=80))
        texture = Texture()
        texture.load(PNMImage(Filename.fromOsSpecific(out)))
        rgb = np.frombuffer(bytes(texture.getRamImageAs("RGB")), np.uint8).reshape(240, 320, 3).astype(int)
        body = np.median(rgb[100:140, 140:150].reshape(-1, 3), axis=0)   # left of the spinner, between the pips
        return body, rgb.reshape(-1, 3).max(axis=-1).min()

    seen = {name: seen_from_above(name, tier) for name, tier in (("hand", None), ("bottom", 0), ("middle", 1),
                                                                  ("top", 2))}
    bodies = {name: body for name, (body, _) in seen.items()}
    assert np.abs(bodies["hand"] - bodies["bottom"]).max() <= 3          # the bottom tier is the plain ivory
    for low, high in (("bottom", "middle"), ("middle", "top"), ("bottom", "top")):
        assert np.abs(bodies[low] - bodies[high]).sum() > 40, (low, high, bodies)
    for name, (body, darkest) in seen.items():
        assert body.mean() > 150 and darkest < 50, (name, body, darkest)
