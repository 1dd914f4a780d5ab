"""Shared fixtures: one offscreen ShowBase per test session (Panda3D allows only one), and scripts/ as modules."""
import importlib.util
import os
import sys

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



@pytest.fixture(scope="session")
def script():
    """scripts/NAME.py loaded as a module (scripts/ is no package): `script("ladders")`."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"towerworld_script_{name}",
                                                      os.path.join(root, "scripts", f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module          # dataclasses look their module up while the class is made
        spec.loader.exec_module(module)
        return module
    return load
