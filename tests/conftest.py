"""Shared fixtures: one offscreen ShowBase per test session (Panda3D allows only one)."""
import os

import pytest

os.environ.setdefault("EGL_PLATFORM", "surfaceless")


@pytest.fixture(scope="session")
def showbase():
    from towerworld.scene.offscreen import base
    return base(640, 400)


@pytest.fixture(autouse=True, scope="session")
def saves_in_a_temporary_folder(tmp_path_factory):
    """Tables autosave unfinished games; a test's games belong in a temporary folder, not the player's save list."""
    from towerworld.app import saves
    saves.SAVE_DIR = str(tmp_path_factory.mktemp("saves"))
    yield

