"""The start screen: pick a game (a picture of each on its button), its variant, options and seats, or resume an
unfinished game. It knows games only through the registry and the contract (names, titles, variants, options,
player counts, agents)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from towerworld.ai.agents import agent_words, default_opponent, table_seats
from towerworld.app import saves
from towerworld.engine import registry
from towerworld.engine.game import Game
from towerworld.paths import model_file

HUMAN = "human"
PANEL = (0.12, 0.14, 0.2, 0.92)
BUTTON = (0.95, 0.9, 0.75, 1)
CHOSEN = (1.0, 0.78, 0.3, 1)


def seat_choices(game: Game) -> list[str]:
    """What a seat may be: a person, or one of the agents with a level (the table never offers oracles)."""
    return [HUMAN] + table_seats(game)


@dataclass
class Setup:
    """What the start screen has chosen so far."""
    game: str
    variant: str | None = None
    players: int = 2
    seats: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)

    def player_range(self, game: Game) -> tuple[int, int]:
        v = next((x for x in game.variants if x.name == self.variant), None)
        return v.players if v is not None and v.players else (game.min_players, game.max_players)


def default_setup(game: Game) -> Setup:
    lo, _ = game.min_players, game.max_players
    n = max(lo, min(2, game.max_players))
    ai = default_opponent(game)
    return Setup(game.name, None, n, [HUMAN] + [ai] * (n - 1))


def label_of(seat: str, game: Game) -> str:
    if seat == HUMAN:
        return "Person"
    return f"AI: {agent_words(seat, game)}"


def thumbnail(name: str) -> str | None:
    """A picture of the game for its button, shipped in models/thumbs/ (made by scripts/screenshots.py)."""
    try:
        path = model_file(os.path.join("thumbs", f"{name}.png"))
    except (FileNotFoundError, OSError):
        return None
    return path if os.path.exists(path) else None


class StartScreen:
    """DirectGui on aspect2d. `on_start(setup)` starts a new game; `on_resume(path)` opens an autosave."""

    def __init__(self, base, on_start, on_resume, on_quit, on_host=None, on_join=None):
        self.base = base
        self.on_start, self.on_resume, self.on_quit = on_start, on_resume, on_quit
        self.on_host, self.on_join = on_host, on_join      # play across machines: host this setup, join an invite
        self.invite = None
        self.root = DirectFrame(frameColor=(0.07, 0.09, 0.13, 1), frameSize=(-3, 3, -1.5, 1.5))
        OnscreenText(text="towerworld", parent=self.root, pos=(0, 0.9), scale=0.08, fg=(1, 0.92, 0.7, 1))
        OnscreenText(text="Stacking board games in true 3D. Pick a game.", parent=self.root, pos=(0, 0.84),
                     scale=0.04, fg=(0.85, 0.88, 0.95, 1))
        self.games = [registry.get_game(n) for n in registry.names()]
        self.game_buttons: dict[str, DirectButton] = {}
        self._game_row()
        self.panel = DirectFrame(parent=self.root, frameColor=PANEL, frameSize=(-1.55, 1.55, PANEL_BOTTOM, PANEL_TOP),
                                 pos=(0, 0, 0))
        self.widgets: list = []
        self.setup: Setup | None = None
        self.pick(self.games[0].name)

    # ---- the row of games --------------------------------------------------------------------------------------------
    def _game_row(self):
        n = len(self.games)
        width = 3.0 / max(n, 1)
        for i, game in enumerate(self.games):
            x = -1.5 + width * (i + 0.5)
            image = thumbnail(game.name)
            kwargs = dict(image=image, image_scale=(0.26, 1, 0.17), image_pos=(0, 0, 0.07)) if image else {}
            b = DirectButton(parent=self.root, text=game.title, text_scale=0.045, text_pos=(0, -0.125),
                             text_wordwrap=12, pos=(x, 0, 0.62), scale=0.8,
                             frameSize=(-0.28, 0.28, -0.2, 0.26), frameColor=BUTTON, relief=DGG.FLAT,
                             command=self.pick, extraArgs=[game.name], **kwargs)
            self.game_buttons[game.name] = b

    # ---- the chosen game's setup -------------------------------------------------------------------------------------
    def pick(self, name: str):
        game = registry.get_game(name)
        self.setup = default_setup(game)
        for n, b in self.game_buttons.items():
            b["frameColor"] = CHOSEN if n == name else BUTTON
        self.redraw()

    def _clear(self):
        for w in self.widgets:
            w.destroy()
        self.widgets = []

    def _text(self, text, x, z, scale=0.045, align=TextNode.ALeft, fg=(1, 1, 1, 1)):
        t = OnscreenText(text=text, parent=self.panel, pos=(x, z), scale=scale, align=align, fg=fg, mayChange=True)
        self.widgets.append(t)
        return t

    def _button(self, text, x, z, command, args=(), chosen=False, scale=0.045, **kwargs):
        b = DirectButton(parent=self.panel, text=text, scale=scale, pos=(x, 0, z), command=command,
                         extraArgs=list(args), frameColor=CHOSEN if chosen else BUTTON, pad=(0.3, 0.2), **kwargs)
        self.widgets.append(b)
        return b

    def redraw(self):
        self._clear()
        setup = self.setup
        assert setup is not None
        game = registry.get_game(setup.game)
        self._text(game.title, -1.45, PANEL_TOP - 0.08, scale=0.055, fg=(1, 0.92, 0.7, 1))
        z = PANEL_TOP - 0.18
        if game.variants:
            self._text("Variant:", -1.45, z)
            x = -1.05
            named = [v.name for v in game.variants]
            # the default rules get a button of their own unless a variant already names them ("standard")
            entries = ([] if "standard" in named else [(None, "standard")]) + [(n, n) for n in named]
            for name, label in entries:
                if x + 0.022 * len(label) + 0.08 > 1.5:          # the row is full: the next one under it
                    x, z = -1.05, z - 0.085
                chosen = setup.variant == name or (setup.variant is None and name == "standard")
                self._button(label, x, z + 0.012, self.set_variant, [name], chosen=chosen)
                x += 0.12 + 0.022 * len(label)
            z -= 0.11
        lo, hi = setup.player_range(game)
        self._text(f"Players: {setup.players}", -1.45, z)
        if hi > lo:
            self._button("-", -0.95, z + 0.012, self.set_players, [setup.players - 1])
            self._button("+", -0.85, z + 0.012, self.set_players, [setup.players + 1])
        z -= 0.1
        for i, seat in enumerate(setup.seats):
            self._text(f"Seat {i + 1}:", -1.45 + 0.75 * (i % 4), z - 0.11 * (i // 4))
            self._button(label_of(seat, game), -1.05 + 0.75 * (i % 4), z + 0.012 - 0.11 * (i // 4), self.cycle_seat, [i],
                         scale=0.04)
        z -= 0.11 * ((len(setup.seats) + 3) // 4) + 0.01
        z = self._options(game, z) - 0.03
        # as many unfinished games as fit above the bottom row of buttons; with no room, the newest one resumes
        # from a button in that row
        room = min(3, int((z - BOTTOM_ROW - 0.08) / 0.08) + 1)
        resumable = saves.unfinished(game.name, limit=max(1, room))
        if resumable and room < 1:
            self._button("Resume the last game", 0.5, BOTTOM_ROW, self.on_resume, [resumable[0].path], scale=0.04)
        elif resumable:
            self._text("Resume:", -1.45, z)
            for k, info in enumerate(resumable):
                self._button(info.label, -1.05, z + 0.012 - 0.08 * k, self.on_resume, [info.path],
                             scale=0.035, text_align=TextNode.ALeft)
            z -= 0.08 * len(resumable)
        self._button("Start", 1.3, BOTTOM_ROW, self.start, scale=0.07)
        self._button("Quit", -1.35, BOTTOM_ROW, self.on_quit, scale=0.05)
        if self.on_host is not None:
            self._button("Host", 0.95, BOTTOM_ROW, self.host, scale=0.05)
        if self.on_join is not None:
            from direct.gui.DirectGui import DirectEntry
            self.invite = DirectEntry(parent=self.panel, scale=0.04, pos=(-1.1, 0, BOTTOM_ROW - 0.01), width=22,
                                      initialText="ws://HOST:PORT/ROOM", focusInCommand=self._clear_invite)
            self.widgets.append(self.invite)
            self._button("Join", 0.0, BOTTOM_ROW, self.join, scale=0.05)

    def _options(self, game: Game, z: float) -> float:
        """A control per option, two to a row: the buttons that change it (choices cycle, numbers step within their
        bounds, a true/false option is a switch whose button says "on" or "off"), then its label and value and its
        explanation, whole, wrapped to the column's
        width in letters as large as the explanation's (OPTION_SCALE); a row is as tall as its taller option."""
        setup = self.setup
        assert setup is not None
        merged, _ = game.resolve_options(None, setup.variant, setup.players)
        merged.update(setup.options)
        _name_style()
        row: list = []
        for k, opt in enumerate(game.options):
            value = merged[opt.name]
            shown = "on" if value is True else "off" if value is False else str(value) if value != "" else "all"
            free_text = isinstance(opt.default, str) and not opt.choices     # typed: set on the command line
            x = -1.45 if k % 2 == 0 else 0.05
            top = z - OPTION_SCALE
            switch = isinstance(opt.default, bool)        # a switch: its button says "on" or "off", gold when on
            if switch:
                self._button(shown, x + 0.1, top + 0.01, self.step_option, [opt.name, 1], chosen=value, scale=0.035)
            elif not free_text:
                self._button(">", x + 0.13, top + 0.01, self.step_option, [opt.name, 1], scale=0.035)
            if not opt.choices and not isinstance(opt.default, (bool, str)):
                self._button("<", x + 0.04, top + 0.01, self.step_option, [opt.name, -1], scale=0.035)
            named = f"{opt.words}." if switch else f"{opt.words}: {shown}."
            label = self._text(f"\1optionname\1{named}\2  {option_line(opt.help)}", x + OPTION_INDENT, top,
                               scale=OPTION_SCALE)
            label.textNode.setWordwrap((OPTION_COLUMN - OPTION_INDENT) / OPTION_SCALE)
            label.setPythonTag("help", opt.help)
            row.append(label.textNode.getNumRows())
            if k % 2 == 1 or k == len(game.options) - 1:
                z -= max(row) * OPTION_LINE * OPTION_SCALE + 0.025
                row = []
        return z

    def step_option(self, name: str, direction: int):
        setup = self.setup
        assert setup is not None
        game = registry.get_game(setup.game)
        opt = next(o for o in game.options if o.name == name)
        merged, _ = game.resolve_options(None, setup.variant, setup.players)
        value = setup.options.get(name, merged[name])
        if opt.choices:
            choices = list(opt.choices)
            value = choices[(choices.index(value) + direction) % len(choices)] if value in choices else choices[0]
        elif isinstance(opt.default, bool):
            value = not value
        elif isinstance(opt.default, int):
            low = opt.low if opt.low is not None else 0
            high = opt.high if opt.high is not None else value + 1
            value = min(max(value + direction, low), high)
        setup.options[name] = value
        self.redraw()

    def set_variant(self, name):
        assert self.setup is not None
        self.setup.variant = name
        self.setup.options = {}
        game = registry.get_game(self.setup.game)
        lo, hi = self.setup.player_range(game)
        self.set_players(min(max(self.setup.players, lo), hi))

    def set_players(self, n):
        setup = self.setup
        assert setup is not None
        lo, hi = setup.player_range(registry.get_game(setup.game))
        n = min(max(n, lo), hi)
        ai = next((s for s in setup.seats if s != HUMAN), "greedy")
        setup.players = n
        setup.seats = (setup.seats + [ai] * n)[:n]
        if HUMAN not in setup.seats and n == 1:
            setup.seats = [HUMAN]
        self.redraw()

    def cycle_seat(self, i):
        setup = self.setup
        assert setup is not None
        choices = seat_choices(registry.get_game(setup.game))
        now = setup.seats[i]
        setup.seats[i] = choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0]
        self.redraw()

    def start(self):
        assert self.setup is not None
        self.on_start(self.setup)

    def host(self):
        """Serve this setup from here for friends: the people's seats are theirs to join, the AIs play here."""
        assert self.setup is not None
        self.on_host(self.setup)

    def _clear_invite(self):
        if self.invite is not None and self.invite.get().startswith("ws://HOST"):
            self.invite.enterText("")

    def join(self):
        if self.invite is not None:
            self.on_join(self.invite.get().strip())

    def destroy(self):
        self._clear()
        self.root.destroy()


PANEL_TOP = 0.42           # the setup panel under the row of games, down to the window's bottom edge
PANEL_BOTTOM = -0.98
BOTTOM_ROW = -0.91         # Start, Quit, Host and Join
OPTION_SCALE = 0.048       # an option's label and explanation: 14 px and more at a window 600 px high
OPTION_LINE = 1.2          # the font's line height, in letters' heights
OPTION_COLUMN = 1.42       # two options to a row
OPTION_INDENT = 0.2        # room for the option's < and > buttons before its words


def _name_style() -> None:
    """An option's label and value in gold, its explanation after them in white."""
    from panda3d.core import TextProperties, TextPropertiesManager
    manager = TextPropertiesManager.getGlobalPtr()
    if not manager.hasProperties("optionname"):
        gold = TextProperties()
        gold.setTextColor(1, 0.85, 0.55, 1)
        manager.setProperties("optionname", gold)


def option_line(words: str) -> str:
    """An option's explanation as the start screen prints it: whole, capitalised (the screen wraps it)."""
    return words[:1].upper() + words[1:]
