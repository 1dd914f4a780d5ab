"""The HUD: status lines, a message line for reasons and events, action buttons, and the help overlay."""
from __future__ import annotations

from direct.gui.DirectGui import DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from towerworld.scene.setup import flat_2d, glsl_default_font

# the keys every table has, then each game's own: the help lists only keys that do something in the game shown
VIEW_KEYS = ("Mouse: left-drag orbits, right-drag pans, the wheel zooms toward the pointer",
             "Arrows orbit, + and - zoom, W A S D pan, R or Home resets the view, F11 full screen, Q quits")
PLAY_KEYS = ("Click a highlighted piece or place to pick it; Enter plays the complete move (or the hint)",
             "Esc drops the picks (or opens the menu), Backspace takes back the last pick",
             "T hint   Z undo   Y redo   Ctrl-S save   Ctrl-O saves and autosaves   M memory aid")
REPLAY_KEYS = ("Space plays or pauses, . and , step a move, [ and ] slow down or speed up, Home and End jump",
               "Drag the timeline or click on it to jump to a move")
SECRET_KEYS = ("Space hands the screen on: the next person's hand shows only once they press it",)


def keys_help(game, replay: bool = False) -> str:
    """The keys of this table, for the help overlay: the view's, then play's or replay's, then the game's own (its
    `table_keys`)."""
    lines = list(VIEW_KEYS) + list(REPLAY_KEYS if replay else PLAY_KEYS) + list(game.table_keys)
    if not replay and not game.perfect_information:
        lines += SECRET_KEYS
    return "\n".join(lines + ["H, F1 or Esc closes this help"])


def help_text(game, replay: bool = False) -> str:
    """The help overlay's text: the game's rules summary in its own words, then its keys."""
    return f"{_paragraphs(game.help_text())}\n\nKeys\n{keys_help(game, replay)}"


def _paragraphs(text: str) -> str:
    """The help file's lines as the overlay's paragraphs: a line that goes on with the sentence before it (it starts
    with a space, or the line before ends mid-sentence) joins it, so the overlay wraps to its own width."""
    out: list[str] = []
    for line in text.strip().splitlines():
        if out and line.strip() and (line[:1].isspace() or not out[-1].rstrip().endswith((".", ":", ")"))) \
                and not line.startswith("- "):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line.rstrip())
    return "\n".join(out)


STATUS_SCALE = 0.045
STATUS_TOP = 0.08       # from the window's top edge to the first status line's baseline


MESSAGE_SCALE = 0.05    # the message line's letters, in aspect2d units
MESSAGE_BOTTOM = 0.1    # its last line's baseline above the window's bottom edge

class Hud:
    def __init__(self, base):
        self.base = base
        glsl_default_font()       # before any of the HUD's text is made: it is drawn through our shader (flat_2d)
        style = dict(fg=(1, 1, 1, 1), shadow=(0, 0, 0, 0.9), mayChange=True, scale=STATUS_SCALE)
        self.status = OnscreenText(text="", pos=(0.05, -STATUS_TOP), align=TextNode.ALeft, parent=base.a2dTopLeft,
                                   **style)
        self.message = OnscreenText(text="", pos=(0, MESSAGE_BOTTOM), align=TextNode.ACenter,
                                    parent=base.a2dBottomCenter,
                                    **{**style, "fg": (1, 0.92, 0.6, 1), "scale": MESSAGE_SCALE})
        self.hint = OnscreenText(text="H: help", pos=(-0.05, 0.05), align=TextNode.ARight,
                                 parent=base.a2dBottomRight, **{**style, "scale": 0.035})
        # opaque, and drawn above the table's buttons and panels (the cover, for hand-offs, stays above it)
        self.help = DirectFrame(frameColor=(0.06, 0.07, 0.1, 1), frameSize=(-1.5, 1.5, -0.95, 0.95), pos=(0, 0, 0),
                                sortOrder=8)
        self.help_text = OnscreenText(text="", parent=self.help, align=TextNode.ALeft, pos=(-1.4, 0.85), scale=0.04,
                                      fg=(1, 1, 1, 1), mayChange=True, wordwrap=68)
        self.help.hide()
        # the hand-off cover: opaque, above the table, so nobody's secrets show while the screen changes hands
        self.cover = DirectFrame(frameColor=(0.08, 0.1, 0.16, 1), frameSize=(-3, 3, -1.2, 1.2), pos=(0, 0, 0),
                                 sortOrder=10)
        self.cover_title = OnscreenText(text="", parent=self.cover, pos=(0, 0.08), scale=0.1, fg=(1, 1, 1, 1),
                                        mayChange=True)
        self.cover_text = OnscreenText(text="", parent=self.cover, pos=(0, -0.08), scale=0.055,
                                       fg=(1, 0.92, 0.6, 1), mayChange=True)
        self.cover.hide()
        flat_2d(self.status, self.message, self.hint, self.help, self.cover)
        self.buttons: list = []

    def keep_clear(self, spare_lines: int = 2) -> list[tuple[float, float, float, float]]:
        """Screen boxes (x0, y0, x1, y1, -1..1 across the window) where the HUD writes, for the camera to keep the
        table's labels out of: the status lines as they are (six before the first) and `spare_lines` more (a pick,
        a warning), the message line across the bottom (a long reason may take all of it) and the help hint."""
        line = 0.045 * 1.2            # the status font's line, in render2d units (aspect2d keeps the height)
        boxes = []
        top = self.base.a2dTopLeft.getPos(self.base.render2d)
        status = self.status.getTightBounds(self.base.render2d) if self.status.getText() else None
        right = status[1].x if status else top.x + 1.0 / self.base.getAspectRatio()
        bottom = status[0].z if status else top.z - 0.08 - 6 * line      # before the first status: six lines
        boxes.append((-1.0, bottom - spare_lines * line, max(right, top.x + 0.6 / self.base.getAspectRatio()), 1.0))
        message_top = self.base.a2dBottomCenter.getPos(self.base.render2d).z + 0.1 + 0.05
        boxes.append((-1.0, -1.0, 1.0, message_top))
        hint = self.hint.getTightBounds(self.base.render2d)
        if hint is not None:
            boxes.append((hint[0].x, -1.0, 1.0, hint[1].z))
        return boxes

    def set_status(self, lines: list[str]) -> None:
        self.status.setText("\n".join(lines))

    def status_band(self, lines: int) -> float:
        """The share of the window's height, from the top, that `lines` status lines cover (their descenders and a
        small gap included): the camera frames the table below it."""
        text = self.status.textNode
        bottom = STATUS_TOP + ((lines - 1) * text.getLineHeight() + 0.45) * STATUS_SCALE + 0.02
        return min(0.4, bottom / (self.base.a2dTop - self.base.a2dBottom))

    def say(self, text: str) -> None:
        """The message line: wrapped to the window's width, its last line where a single line sits, so that a long
        message (a final scoring, a refusal with its reason) grows upwards instead of off the window's edges."""
        node = self.message.textNode
        node.setWordwrap(max(20.0, 1.9 * self.base.getAspectRatio() / MESSAGE_SCALE))
        self.message.setText(text)
        rows = max(1, node.getNumRows())
        self.message.setPos(0, MESSAGE_BOTTOM + (rows - 1) * node.getLineHeight() * MESSAGE_SCALE)

    def toggle_help(self, text: str) -> None:
        """Show `text` (help_text: the rules summary and the keys) over everything but the hand-off cover, or hide
        it."""
        if self.help.isHidden():
            self.help_text.setText(text)
            self.help.show()
        else:
            self.help.hide()

    def show_cover(self, title: str, text: str) -> None:
        self.cover_title.setText(title)
        self.cover_text.setText(text)
        self.cover.show()

    def hide_cover(self) -> None:
        self.cover.hide()

    @property
    def covered(self) -> bool:
        return not self.cover.isHidden()

    def set_buttons(self, actions: list[tuple[str, object]], vertical: bool = False) -> None:
        """Buttons for picks that are not places on the table (pass, spend a talisman, stay...): a row along the
        bottom, each placed after the last one's width so long labels never overlap; or a column (longer choices)."""
        for b in self.buttons:
            b.destroy()
        self.buttons = []
        x, z = 0.05, 0.22
        for label, callback in actions:
            b = DirectButton(text=label, scale=0.045, parent=self.base.a2dBottomLeft, command=callback,
                             frameColor=(0.95, 0.9, 0.75, 1), pad=(0.4, 0.25), text_align=TextNode.ALeft)
            left, right, bottom, top = b.getBounds()
            b.setPos(x - left * 0.045, 0, z)
            if vertical:
                z += (top - bottom) * 0.045 + 0.03
            else:
                x += (right - left) * 0.045 + 0.03
            self.buttons.append(b)

    def destroy(self) -> None:
        self.set_buttons([])
        for item in (self.status, self.message, self.hint, self.help_text, self.help, self.cover_title,
                     self.cover_text, self.cover):
            item.destroy()
