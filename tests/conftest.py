"""Shared fixtures: one offscreen ShowBase per test session (Panda3D allows only one)."""
import os

import pytest

os.environ.setdefault("EGL_PLATFORM", "surfaceless")


@pytest.fixture(scope="session")
def showbase():
    from towerworld.scene.offscreen import base
    return base(640, 400)
