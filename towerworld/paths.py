"""Where the shipped data lives: models/ and shaders/ at the top of a checkout, or inside the installed package."""
from __future__ import annotations

import os


def _data_dir(name: str) -> str:
    # A checkout (pyproject.toml beside the package) uses its own folders first: an editable install maps
    # `towerworld.shaders` to the checkout it was made from, which is not the one running in another worktree.
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.isfile(os.path.join(checkout, "pyproject.toml")) and os.path.isdir(os.path.join(checkout, name)):
        return os.path.join(checkout, name)
    try:
        module = __import__(f"towerworld.{name}", fromlist=["__file__"])
        return os.path.dirname(os.path.abspath(module.__file__))
    except ImportError:
        return os.path.join(checkout, name)


def models_dir() -> str:
    return _data_dir("models")


def shaders_dir() -> str:
    return _data_dir("shaders")


def model_file(name: str) -> str:
    return os.path.join(models_dir(), name)


def shader_file(name: str) -> str:
    return os.path.join(shaders_dir(), name)
