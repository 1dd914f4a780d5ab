"""Where the shipped data lives: models/ and shaders/ at the top of a checkout, or inside the installed package."""
from __future__ import annotations

import os


def _data_dir(name: str) -> str:
    try:
        module = __import__(f"towerworld.{name}", fromlist=["__file__"])
        return os.path.dirname(os.path.abspath(module.__file__))
    except ImportError:  # running from a checkout: models/ sits beside the towerworld package
        return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name)


def models_dir() -> str:
    return _data_dir("models")


def shaders_dir() -> str:
    return _data_dir("shaders")


def model_file(name: str) -> str:
    return os.path.join(models_dir(), name)


def shader_file(name: str) -> str:
    return os.path.join(shaders_dir(), name)
