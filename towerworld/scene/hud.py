"""The HUD: status lines, a message line for reasons and events, action buttons, and the help overlay."""
from __future__ import annotations

from direct.gui.DirectGui import DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import CardMaker, NodePath, Point3, TextNode, TransparencyAttrib

from towerworld.scene import closeup
from towerworld.scene.closeup import Closeup
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


def help_text(game, replay: bool = False, keys: tuple[str, ...] | None = None) -> str:
    """The help overlay's text: the game's rules summary in its own words, then its keys (a table's own `keys`, such
    as the network window's, in place of the local table's)."""
    listed = keys_help(game, replay) if keys is None else "\n".join(keys)
    return f"{_paragraphs(game.help_text())}\n\nKeys\n{listed}"


HELP_TOP = 0.9          # the help card's first line stands under this (aspect2d units); the card ends under the last
HELP_PAD = 0.05


def _help_styles() -> None:
    """The help's headings: the game's name and "Keys", in the gold of the option names on the start screen."""
    from panda3d.core import TextProperties, TextPropertiesManager
    manager = TextPropertiesManager.getGlobalPtr()
    if not manager.hasProperties("helphead"):
        head = TextProperties()
        head.setTextColor(1, 0.85, 0.55, 1)
        head.setTextScale(1.25)
        manager.setProperties("helphead", head)


def styled_help(text: str) -> str:
    """help_text as the overlay draws it: the game's name (before the first line's " - ") on a line of its own and
    the "Keys" line as headings, the rest as it is."""
    lines = text.split("\n")
    if lines and " - " in lines[0]:
        name, rest = lines[0].split(" - ", 1)
        lines[0:1] = [f"\1helphead\1{name}\2", rest[:1].upper() + rest[1:]]
    return "\n".join(f"\1helphead\1{line}\2" if line == "Keys" else line for line in lines)


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


STATUS_SCALE = 0.038    # the status lines under the instruction (the game's general lines, the last move, picks)
STATUS_TOP = 0.08       # from the window's top edge to the first status line's baseline, when no panel is shown
PANEL_SCALE = 0.042     # a panel's letters
PANEL_WIDTH = 0.85      # the widest a panel gets; many players share the window's width
PANEL_GAP = 0.03
PANEL_PAD = 0.025
EDGE = 0.04             # from the window's left, right and top edges to the HUD
INSTRUCTION_SCALE = 0.05
LINE = 1.2              # the default font's line height, in its own letters' heights

# the colours the panels' swatches show, named as the games name their seats' colours (the pieces' own colours)
SWATCHES = {"red": (0.85, 0.15, 0.12, 1), "blue": (0.15, 0.35, 0.85, 1), "green": (0.15, 0.62, 0.2, 1),
            "yellow": (0.95, 0.78, 0.1, 1), "purple": (0.55, 0.25, 0.7, 1), "black": (0.1, 0.1, 0.11, 1),
            "white": (0.95, 0.95, 0.91, 1)}
PANEL_BACK = (0.1, 0.12, 0.18, 0.88)
PANEL_TURN = (1.0, 0.78, 0.3, 1)       # the edge round the panel of the player whose turn it is
PANEL_TURN_BACK = (0.2, 0.18, 0.1, 0.95)   # that panel's own colour, inside its edge
INSTRUCTION_FG = (1, 0.92, 0.6, 1)


class PanelView:
    """One player's panel as the table words it: a title (the player's name), the seat's colour (RGBA, or None), the
    score, what they hold or have left, and whether it is their turn."""
    __slots__ = ("title", "colour", "score", "holdings", "to_move")

    def __init__(self, title: str, colour, score: str, holdings=(), to_move: bool = False):
        self.title, self.colour, self.score = title, colour, score
        self.holdings, self.to_move = tuple(holdings), to_move

    def key(self):
        return (self.title, self.colour, self.score, self.holdings, self.to_move)


MESSAGE_SCALE = 0.05    # the message line's letters, in aspect2d units
MESSAGE_BOTTOM = 0.1    # its last line's baseline above the window's bottom edge

def _card(parent: NodePath, colour, left: float, right: float, bottom: float, top: float) -> NodePath:
    """A flat rectangle in `colour` (its vertices': cards of every colour flatten into one geom)."""
    maker = CardMaker("card")
    maker.setFrame(left, right, bottom, top)
    maker.setColor(*colour)
    return parent.attachNewNode(maker.generate())


def _words(text: str, scale: float, colour, wrap: float) -> TextNode:
    """A panel's words, left aligned and wrapped to `wrap` letters' heights (drawn `scale` tall)."""
    node = TextNode("panel-words")
    node.setAlign(TextNode.ALeft)
    node.setTextColor(*colour)
    node.setWordwrap(wrap)
    node.setText(text)
    return node


class Hud:
    def __init__(self, base):
        self.base = base
        glsl_default_font()       # before any of the HUD's text is made: it is drawn through our shader (flat_2d)
        style = dict(fg=(1, 1, 1, 1), shadow=(0, 0, 0, 0.9), mayChange=True, scale=STATUS_SCALE)
        self.status = OnscreenText(text="", pos=(EDGE, -STATUS_TOP), align=TextNode.ALeft, parent=base.a2dTopLeft,
                                   **style)
        # what to do now, one line under the panels ("Your turn: ...", "Waiting for Bob (AI)...")
        self.instruction = OnscreenText(text="", pos=(EDGE, -STATUS_TOP), align=TextNode.ALeft,
                                        parent=base.a2dTopLeft, **{**style, "fg": INSTRUCTION_FG,
                                                                   "scale": INSTRUCTION_SCALE})
        self.panel_root: NodePath | None = None    # the players' panels across the top, one flattened node
        self.panel_rects: list[tuple[float, float, float, float]] = []   # each panel's, under a2dTopLeft
        self.panel_views: list[PanelView] = []
        self._panel_key = None
        self.message_bottom = MESSAGE_BOTTOM      # a window with controls along its bottom (the replay's) raises it
        self.message = OnscreenText(text="", pos=(0, MESSAGE_BOTTOM), align=TextNode.ACenter,
                                    parent=base.a2dBottomCenter,
                                    **{**style, "fg": (1, 0.92, 0.6, 1), "scale": MESSAGE_SCALE})
        self.hint = OnscreenText(text="H: help", pos=(-0.05, 0.05), align=TextNode.ARight,
                                 parent=base.a2dBottomRight, **{**style, "scale": 0.035})
        # opaque, and drawn above the table's buttons and panels (the cover, for hand-offs, stays above it)
        self.help = DirectFrame(frameColor=(0.06, 0.07, 0.1, 1), frameSize=(-1.5, 1.5, -0.95, 0.95), pos=(0, 0, 0),
                                sortOrder=8)
        _help_styles()
        self.help_text = OnscreenText(text="", parent=self.help, align=TextNode.ALeft, pos=(-1.4, HELP_TOP - 0.05),
                                      scale=0.04, fg=(1, 1, 1, 1), mayChange=True, wordwrap=68)
        self.help.hide()
        # the hand-off cover: opaque, above the table, so nobody's secrets show while the screen changes hands
        self.cover = DirectFrame(frameColor=(0.08, 0.1, 0.16, 1), frameSize=(-3, 3, -1.2, 1.2), pos=(0, 0, 0),
                                 sortOrder=10)
        self.cover_title = OnscreenText(text="", parent=self.cover, pos=(0, 0.08), scale=0.1, fg=(1, 1, 1, 1),
                                        mayChange=True)
        self.cover_text = OnscreenText(text="", parent=self.cover, pos=(0, -0.08), scale=0.055,
                                       fg=(1, 0.92, 0.6, 1), mayChange=True)
        self.cover.hide()
        flat_2d(self.status, self.instruction, self.message, self.hint, self.help, self.cover)
        self.buttons: list = []
        self.closeup: Closeup | None = None     # the enlarged piece at the right edge, made when a layout asks

    # ---- the top band: the players' panels, the instruction line and the status lines under it ------------------------
    def set_panels(self, views: list[PanelView], arrange: bool = True) -> None:
        """One panel per player across the top of the window, the panel of the player to move edged in gold (laid
        out now, or with `arrange` false by the caller's next `arrange`)."""
        key = [v.key() for v in views]
        if key == self._panel_key:
            return
        self._panel_key = key
        self.panel_views = list(views)
        if arrange:
            self.arrange()

    def set_instruction(self, text: str, arrange: bool = True) -> None:
        """The one line saying what to do now (or whom the table waits for); `arrange` as for set_panels."""
        if text != self.instruction.getText():
            self.instruction.setText(text)
            if arrange:
                self.arrange()

    def _panel_width(self) -> float:
        n = max(1, len(self.panel_views))
        room = 2 * self.base.getAspectRatio() - 2 * EDGE
        return min(PANEL_WIDTH, (room - PANEL_GAP * (n - 1)) / n)

    def arrange(self) -> None:
        """Lay the top band out for the window's shape: the panels side by side under its top edge, each as tall as
        the tallest (its words wrapped to its width), then the instruction and the status lines under them, each
        wrapped to the window's width so that nothing runs off its edge.

        The panels are drawn, all of them, as one node flattened into two geoms (their cards, gold edge and colour
        swatches; their words), two draw calls a frame however many players there are: made again whenever a panel
        changes, which is once a move at most."""
        if self.panel_root is not None:
            self.panel_root.removeNode()
        self.panel_root = None
        self.panel_rects = []
        width = self._panel_width()
        wrap = (width - 2 * PANEL_PAD - 0.05) / PANEL_SCALE
        texts = []
        for view in self.panel_views:
            title = _words(view.title, PANEL_SCALE * 1.1, (1, 1, 1, 1), wrap / 1.1 - (1.3 if view.colour else 0))
            body = _words("\n".join((view.score,) + view.holdings), PANEL_SCALE, (0.88, 0.9, 0.95, 1), wrap)
            texts.append((title, body, view))
        height = 0.0
        tops = []
        for title, body, view in texts:
            rows_title = max(1, title.getNumRows())
            top = PANEL_PAD + 0.035 + (rows_title - 1) * LINE * PANEL_SCALE * 1.1 + LINE * PANEL_SCALE
            tops.append(top)
            rows = max(1, body.getNumRows())
            height = max(height, top + (rows - 1) * LINE * PANEL_SCALE + 0.4 * PANEL_SCALE + PANEL_PAD)
        if texts:
            root = self.panel_root = self.base.a2dTopLeft.attachNewNode("panels")
            cards = root.attachNewNode("cards")
            words = root.attachNewNode("words")
            words.setY(-0.01)       # nearer the 2-D camera than the cards: drawn after them (back to front)
            for i, ((title, body, view), top) in enumerate(zip(texts, tops)):
                x = EDGE + i * (width + PANEL_GAP)
                if view.to_move:      # under its panel, a little larger: a gold rim round it
                    _card(cards, PANEL_TURN, x - 0.012, x + width + 0.012, -EDGE - height - 0.012, -EDGE + 0.012)
                _card(cards, PANEL_TURN_BACK if view.to_move else PANEL_BACK, x, x + width, -EDGE - height, -EDGE)
                if view.colour:
                    _card(cards, view.colour, x + PANEL_PAD, x + PANEL_PAD + 0.035, -EDGE - PANEL_PAD - 0.04,
                          -EDGE - PANEL_PAD - 0.005)
                self.panel_rects.append((x, -EDGE - height, x + width, -EDGE))
                shown = words.attachNewNode(title.generate())
                shown.setPos(x + PANEL_PAD + (0.05 if view.colour else 0), 0, -EDGE - PANEL_PAD - 0.035)
                shown.setScale(PANEL_SCALE * 1.1)
                shown = words.attachNewNode(body.generate())
                shown.setPos(x + PANEL_PAD, 0, -EDGE - top)
                shown.setScale(PANEL_SCALE)
            cards.setTransparency(TransparencyAttrib.MAlpha)
            flat_2d(root)
            root.flattenStrong()
        wrap_all = (2 * self.base.getAspectRatio() - 2 * EDGE)
        if self.closeup is not None and self.closeup.active:
            # the close-up stands under the panels over its own width, or in the corner beside them; the lines
            # under the panels wrap short of it
            wide = 2 * closeup.HEIGHT * closeup.WIDTH
            x0 = 2 * self.base.getAspectRatio() - EDGE - wide
            over = [-y0 for x, y0, x1, _ in self.panel_rects if x1 > x0 - PANEL_GAP]
            self.closeup.right = EDGE
            self.closeup.place(max(over) + PANEL_GAP if over else EDGE)
            wrap_all -= wide + PANEL_GAP
        y = -(EDGE + height + (0.02 if texts else 0.0))
        self.instruction.textNode.setWordwrap(wrap_all / INSTRUCTION_SCALE)
        if self.instruction.getText():
            y -= INSTRUCTION_SCALE
            self.instruction.setPos(EDGE, y)
            y -= (self.instruction.textNode.getNumRows() - 1) * LINE * INSTRUCTION_SCALE + 0.4 * INSTRUCTION_SCALE
            y -= 0.015
        self.status.textNode.setWordwrap(wrap_all / STATUS_SCALE)
        self.status.setPos(EDGE, y - STATUS_SCALE)
        self._status_top = y

    def show_closeup(self, layout) -> None:
        """The layout's close-up piece enlarged at the window's right edge, or none (see scene/closeup.py)."""
        if layout.closeup is None and self.closeup is None:
            return
        if self.closeup is None:
            self.closeup = Closeup(self.base)
        was = self.closeup.active
        self.closeup.show_layout(layout)
        if self.closeup.active != was:
            self.arrange()

    def closeup_ghosts(self, ghosts: dict) -> None:
        """The table's ghosts changed: the close-up's piece turns as its ghost lies (see Closeup.follow_ghosts)."""
        if self.closeup is not None and self.closeup.active:
            self.closeup.follow_ghosts(ghosts)

    def panel_boxes(self) -> list[tuple[float, float, float, float]]:
        """Each player's panel on the screen (x0, y0, x1, y1, -1..1 across the window), its gold rim left out, in
        the panels' order."""
        out = []
        for x0, y0, x1, y1 in self.panel_rects:
            lo = self.base.render2d.getRelativePoint(self.base.a2dTopLeft, Point3(x0, 0, y0))
            hi = self.base.render2d.getRelativePoint(self.base.a2dTopLeft, Point3(x1, 0, y1))
            out.append((lo.x, lo.z, hi.x, hi.z))
        return out

    def band_bottom(self, status_lines: int) -> float:
        """How far below the window's top edge (aspect2d units) the top band reaches with `status_lines` status lines
        (the panels and instruction as they are)."""
        top = getattr(self, "_status_top", -STATUS_TOP + STATUS_SCALE)
        return -top + (status_lines * LINE + 0.45) * STATUS_SCALE + 0.02

    def top_boxes(self) -> list[tuple[float, float, float, float]]:
        """The screen boxes of everything the top band draws (panels, instruction, status), as drawn."""
        out = list(self.panel_boxes())
        for node in [self.instruction, self.status]:
            bounds = node.getTightBounds(self.base.render2d) if not node.isHidden() else None
            if bounds is not None and node.getText():
                out.append((bounds[0].x, bounds[0].z, bounds[1].x, bounds[1].z))
        return out

    def keep_clear(self, spare_lines: int = 2) -> list[tuple[float, float, float, float]]:
        """Screen boxes (x0, y0, x1, y1, -1..1 across the window) where the HUD writes, for the camera to keep the
        table's labels out of: the top band across the window (the panels, the instruction, the status lines as they
        are and `spare_lines` more: a pick, a warning), the message line across the bottom (a long reason may take all
        of it) and the help hint."""
        boxes = []
        rows = self.status.textNode.getNumRows() if self.status.getText() else 0
        height = self.base.a2dTop - self.base.a2dBottom
        bottom = 1.0 - 2 * self.band_bottom(rows + spare_lines) / height
        boxes.append((-1.0, bottom, 1.0, 1.0))
        message_top = self.base.a2dBottomCenter.getPos(self.base.render2d).z + self.message_bottom + MESSAGE_SCALE
        boxes.append((-1.0, -1.0, 1.0, message_top))
        hint = self.hint.getTightBounds(self.base.render2d)
        if hint is not None:
            boxes.append((hint[0].x, -1.0, 1.0, hint[1].z))
        picture = self.closeup.box() if self.closeup is not None else None
        if picture is not None:
            boxes.append(picture)
        return boxes

    def set_status(self, lines: list[str]) -> None:
        self.status.setText("\n".join(lines))

    def status_band(self, lines: int) -> float:
        """The share of the window's height, from the top, that the panels, the instruction and `lines` status lines
        cover (their descenders and a small gap included): the camera frames the table below it."""
        return min(0.45, self.band_bottom(lines) / (self.base.a2dTop - self.base.a2dBottom))

    def say(self, text: str) -> None:
        """The message line: wrapped to the window's width, its last line where a single line sits, so that a long
        message (a final scoring, a refusal with its reason) grows upwards instead of off the window's edges."""
        node = self.message.textNode
        node.setWordwrap(max(20.0, 1.9 * self.base.getAspectRatio() / MESSAGE_SCALE))
        self.message.setText(text)
        rows = max(1, node.getNumRows())
        self.message.setPos(0, self.message_bottom + (rows - 1) * node.getLineHeight() * MESSAGE_SCALE)

    def toggle_help(self, text: str) -> None:
        """Show `text` (help_text: the rules summary and the keys) over everything but the hand-off cover, or hide
        it: the game's name and the "Keys" heading in gold, on a card as tall as the words."""
        if self.help.isHidden():
            self.help_text.setText(styled_help(text))
            bounds = self.help_text.getTightBounds(self.help)
            bottom = HELP_TOP - 0.1 if bounds is None else bounds[0].z - HELP_PAD
            self.help["frameSize"] = (-1.5, 1.5, max(-0.95, bottom), HELP_TOP + HELP_PAD)
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
        if self.closeup is not None:
            self.closeup.destroy()
            self.closeup = None
        if self.panel_root is not None:
            self.panel_root.removeNode()
        self.panel_root = None
        for item in (self.status, self.instruction, self.message, self.hint, self.help_text, self.help, self.cover_title,
                     self.cover_text, self.cover):
            item.destroy()
