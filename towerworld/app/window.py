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


def esc_menu(title: str, entries: list, close) -> list:
    """The Esc menu: the game's name over a column of buttons, in the gold of the start screen's titles (two lines
    where it is long), on a card as tall as its title and buttons. A button closes the menu (`close`), then does
    its entry's command. Returns the widgets, the card first, for `close` to destroy."""
    from direct.gui.DirectGui import DirectButton, DirectFrame
    from direct.gui.OnscreenText import OnscreenText
    panel = DirectFrame(frameColor=(0.08, 0.1, 0.16, 0.92), sortOrder=5)
    widgets = [panel]
    heading = OnscreenText(text=title, parent=panel, pos=(0, 0.5), scale=0.055, fg=(1, 0.92, 0.7, 1), wordwrap=15)
    top = 0.5 - 0.066 * heading.textNode.getNumRows() - 0.1
    for i, (label, command) in enumerate(entries):
        def act(command=command):
            close()
            command()
        widgets.append(DirectButton(parent=panel, text=label, scale=0.06, pos=(0, 0, top - 0.15 * i), command=act,
                                    frameColor=(0.95, 0.9, 0.75, 1), pad=(0.5, 0.2), frameSize=(-5, 5, -0.6, 1.1)))
    panel["frameSize"] = (-0.48, 0.48, top - 0.15 * (len(entries) - 1) - 0.12, 0.62)
    return widgets
