"""Window helpers: the one ShowBase of the run (a real window, or offscreen for tests) and the loop that runs it."""
from __future__ import annotations

import builtins
import os

from towerworld.engine.game import TowerworldError
from towerworld.scene.setup import configure


def open_base(size=(1280, 800), offscreen: bool = False, title: str = "towerworld"):
    """The one ShowBase: a real window, or offscreen for tests; one sentence when no window can be opened."""
    configure(offscreen=offscreen, width=size[0], height=size[1], title=title)
    if getattr(builtins, "base", None) is not None:
        return builtins.base
    from direct.showbase.ShowBase import ShowBase
    # while the window opens, Panda3D's own "Unable to open 'onscreen' window" stays unsaid: the sentence below says it
    ShowBase.notify.setWarning(False)
    try:
        return ShowBase(windowType="offscreen" if offscreen else None)
    except Exception:  # no display, no GL: say so in one sentence
        where = os.environ.get("DISPLAY")
        raise TowerworldError("Could not open a window" + (f" on display {where}" if where else
                              " (no display is set)") + "; the table needs a desktop session, and "
                              "'towerworld render' makes a picture without one.") from None
    finally:
        ShowBase.notify.setWarning(True)


def run_loop(base, frames: int | None = None) -> int:
    """Run the window until it is closed, or just `frames` frames (offscreen smoke runs)."""
    if frames is not None:
        for _ in range(frames):
            base.taskMgr.step()
        return 0
    base.run()
    return 0
