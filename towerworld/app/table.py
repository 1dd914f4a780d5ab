"""The table: the window's shared room for playing and replaying. One scene under render, the stage of pieces on it,
the camera's controls, the HUD and the Esc menu; `close` removes exactly the tasks, events and nodes it added (the
ShowBase outlives every table).
"""
from __future__ import annotations

from direct.showbase.DirectObject import DirectObject

from towerworld.app.saves import remember_window_size
from towerworld.app.view import CameraView, home_orbit
from towerworld.app.window import esc_menu, open_base, run_loop
from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR
from towerworld.engine.match import Match
from towerworld.engine.words import names_an_ai, status_part, table_parts, with_names
from towerworld.scene.hud import Hud
from towerworld.scene.picking import Picker
from towerworld.scene.setup import add_table, dress, fit_scene, undress
from towerworld.scene.stage import Stage, last_move


class Table:
    """Shared window setup: scene, stage, camera controls, HUD."""
    replaying = False         # a replay's table: its help lists the replay's keys
    status_extra = 2          # status lines the table adds to the game's (the last move, the picks or the result)

    def __init__(self, match: Match, size=(1280, 800), frames: int | None = None):
        self.base = open_base(size, offscreen=frames is not None, title=f"towerworld: {match.game.title}")
        self.events = DirectObject()   # every event the table listens to, and nothing else: ignored all at close
        self.tasks: list = []          # every task the table added, removed at close
        self.on_leave = None      # the app's way back to the start screen (None: the table is the whole run)
        self.physics = False      # physical crumbles: pieces the rules knock off move under Bullet, then settle
        self.menu: list = []      # the Esc menu's widgets while it is open
        self.base.disableMouse()
        self.base.setBackgroundColor(0.78, 0.84, 0.9, 1)
        self.base.camLens.setFov(40)
        self.base.camLens.setNearFar(5, 20000)
        self.match = match
        self.game = match.game
        layout = self.game.layout(match.state, self.viewer)
        self.scene = self.base.render.attachNewNode("table-scene")
        self.sun = dress(self.scene, layout, shadows_after_first_frame=True)
        add_table(self.scene, layout)
        self.stage = Stage(self.scene)
        self.stage.label_words = self.with_names     # the score plaques and seat labels name the players
        self.stage.show(layout)
        self.hud = Hud(self.base)
        self.stage.on_layout = self.hud.show_closeup
        self.stage.on_ghosts = self.hud.closeup_ghosts
        self.hud.show_closeup(layout)
        self.last_words = ""      # the last move in words, with its player's name (see show_last_move)
        self.status_rows = 0      # the most status lines shown yet: the home view keeps the table below them
        home = self.home_view(layout, size[0] / size[1], match.state)
        self.table_bounds = layout.bounds()
        self.picker = Picker(self.base, self.stage)
        self.anim = None
        self.frames = frames
        self.camera = CameraView(self.base, self.events, self.add_task, self.picker, self.stage, home, self.on_click)
        self.events.accept("h", self.toggle_help)
        self.events.accept("f1", self.toggle_help)
        self.events.accept("q", self.quit)
        self.events.accept("escape-up", lambda: None)
        self.events.accept("f11", self.toggle_fullscreen)
        self.events.accept("window-event", self._window_event)

    @property
    def viewer(self) -> int:
        """Who is looking at the table: everything once a game is over, public information otherwise."""
        return OMNISCIENT if self.match.over else SPECTATOR

    def current_state(self):
        return self.match.state

    def apply_cutaway(self, state):
        hint = self.game.cutaway(state, self.viewer)
        if hint is None:
            self.stage.set_cutaway(None)
            return
        self.stage.set_cutaway(*hint)

    # ---- camera (app/view.py moves it) ----------------------------------------------------------------------------
    def home_view(self, layout, aspect: float, state):
        """The default camera: the whole table, below the HUD's panels, instruction and status lines (as many as it
        has shown yet)."""
        # laid out once, for the window's shape (it may be new: the panels share its width)
        self.hud.set_panels(self.panel_views(state), arrange=False)
        self.hud.set_instruction(self.instruction(state), arrange=False)
        self.hud.arrange()
        self.status_rows = max(self.status_rows, len(self.info_lines(state)) + self.status_extra)
        return home_orbit(self.base, self.stage, layout, aspect, self.hud.status_band(self.status_rows),
                          self.hud.keep_clear())

    def refit(self, layout) -> None:
        """A layout that grows (a landscape of tiles): the key light's shadow frustum fits it, the table top grows
        under it, and the home view frames it; the camera follows only while the player has not moved it."""
        self.table_bounds = fit_scene(self.scene, layout, self.table_bounds)
        self.camera.follow(self.home_view(layout, self.base.getAspectRatio(), self.current_state()))

    # ---- shared -------------------------------------------------------------------------------------------------------
    def add_task(self, function, name: str, **kwargs):
        """Add a task that lives as long as the table (removed at close, with every other task it added)."""
        task = self.base.taskMgr.add(function, name, **kwargs)
        self.tasks.append(task)
        return task

    def on_click(self):
        pass

    def toggle_help(self):
        from towerworld.scene.hud import help_text
        self.hud.toggle_help(help_text(self.game, replay=self.replaying))

    def quit(self):
        self.base.userExit()

    # ---- window --------------------------------------------------------------------------------------------------------
    def toggle_fullscreen(self):
        from panda3d.core import WindowProperties
        win = self.base.win
        if win is None or not hasattr(win, "getProperties"):
            return
        props = WindowProperties()
        props.setFullscreen(not win.getProperties().getFullscreen())
        win.requestProperties(props)

    def _window_event(self, win):
        """The camera follows a resized window (ShowBase keeps the aspect with its own handler of the event, the home
        view frames the new shape with the labels clear of the HUD); the size is remembered for next time."""
        if self.stage.layout is not None:
            self.refit(self.stage.layout)
        if win is None or self.frames is not None or not hasattr(win, "getProperties"):
            return
        props = win.getProperties()
        if props.getOpen() and not props.getFullscreen() and props.hasSize():
            remember_window_size(props.getXSize(), props.getYSize())

    # ---- the Esc menu ----------------------------------------------------------------------------------------------------
    def menu_entries(self) -> list[tuple[str, object]]:
        entries: list[tuple[str, object]] = [("Resume", self.close_menu)]
        if self.on_leave is not None:
            entries.append(("New game", self.on_leave))
        entries += [("Rules and keys", self.toggle_help), ("Quit", self.quit)]
        return entries

    def toggle_menu(self):
        if self.menu:
            self.close_menu()
            return
        self.menu = esc_menu(self.game.title, self.menu_entries(), self.close_menu)

    def close_menu(self):
        for w in reversed(self.menu):
            w.destroy()
        self.menu = []

    def close(self):
        """Take the table down without closing the ShowBase (the app and tests share one)."""
        self.close_menu()
        if self.anim is not None:
            self.anim.finish()
        for task in self.tasks:
            self.base.taskMgr.remove(task)
        self.tasks = []
        self.events.ignoreAll()
        self.stage.on_layout = self.stage.on_ghosts = None
        self.hud.destroy()
        self.picker.ray_np.removeNode()
        undress(self.scene)

    def animate_to(self, old_layout, new_layout, events, speed=1.0, then=None):
        from direct.interval.IntervalGlobal import Func, Sequence
        if self.anim is not None:
            self.anim.finish()
        anim = Sequence(self.stage.transition(old_layout, new_layout, events, speed=speed, physics=self.physics))
        anim.append(Func(self._animation_over, anim, then))
        self.anim = anim
        anim.start()

    def _animation_over(self, anim, then) -> None:
        """An animation's last step: the table is at rest from here on, whatever Panda3D says. A frame that lands
        within half a millisecond of the end runs this step while the interval still counts as playing (its times
        are whole milliseconds), and the interval then ends without running it again: a `then` that asked
        `animating` saw a move under way, lit nothing and showed no button, and the person to move was stuck."""
        if self.anim is anim:
            self.anim = None
        if then is not None:
            then()

    @property
    def animating(self) -> bool:
        return self.anim is not None and self.anim.isPlaying()

    # ---- the last move ------------------------------------------------------------------------------------------------
    def last_decision(self, upto: int) -> int | None:
        """The index of the last ply before `upto` that a player chose (chance draws are not moves)."""
        plies = self.match.plies
        for k in range(min(upto, len(plies)) - 1, -1, -1):
            if plies[k].mover != CHANCE:
                return k
        return None

    def show_last_move(self, upto: int | None = None, mark: bool = True) -> None:
        """Mark on the table what the last move before ply `upto` (default: the latest) changed, as the viewer sees
        it, and keep its words for the status line; nothing before the first move. `mark` False: the words only
        (the move is still on its way: its marks come when it has arrived)."""
        upto = len(self.match.plies) if upto is None else upto
        k = self.last_decision(upto)
        if k is None:
            self.stage.mark_last(None)
            self.last_words = ""
            return
        ply = self.match.plies[k]
        before = self.match.state_at(k)
        if mark:
            old = self.game.layout(before, self.viewer)
            new = self.game.layout(self.match.state_at(k + 1), self.viewer)
            self.stage.mark_last(last_move(old, new, [e for e in ply.events if e.seen_by(self.viewer)]))
        name = self.match.players[ply.mover].name if 0 <= ply.mover < len(self.match.players) else ""
        words = self.with_names(self.game.describe_move(before, ply.move))
        self.last_words = f"Last move, {name}: {words}" if name else f"Last move: {words}"

    TOLD_CHARS = 240      # the most a move's message says: a long final scoring ends after its last whole sentence

    def told(self, events) -> str:
        """What a move's events say on the message line, in the players' names: the sentences the viewer may see,
        one space apart, whole (a long run ends with "..." after the last sentence that fits); a scoring walk's words
        float up from each feature as it lights up on the table instead (an event with areas and no pieces)."""
        out = ""
        for e in events:
            if not e.text or not e.seen_by(self.viewer) or (e.areas and not e.pieces):
                continue
            text = self.with_names(e.text)
            if out and len(out) + 1 + len(text) > self.TOLD_CHARS:
                return out + " \u2026"
            out = f"{out} {text}" if out else text
        return out

    def status_lines(self, state) -> list[str]:
        lines = [self.game.title]
        hud = self.game.hud(state, self.viewer)
        # "next" tells a person what to click: shown only while a person is to move, as the sentence it is; a value
        # that already names itself ("Cheats: 0") is shown as it is
        person = self._person_to_move(state)
        lines += [f"{v}" if k in ("turn", "next") else status_part(k, v) for k, v in hud.items()
                  if k != "next" or person]
        return [self.with_names(ln) for ln in lines]

    def info_lines(self, state) -> list[str]:
        """The status lines under the instruction: the game's title and its lines about the whole table (the bag,
        the tiers, the door), run together on one line; what the panels show and the turn (the instruction says it)
        are left out."""
        covered = tuple(self.game.panel_keys) + ("turn", "next")
        hud = self.game.hud(state, self.viewer)
        parts = [self.game.title]
        parts += table_parts(hud, covered)
        return [self.with_names("   |   ".join(parts))]

    def panel_views(self, state) -> list:
        """The players' panels as the table words them: each player's name (the game's name for the seat beside it
        where the game names seats otherwise, "Ann (Red)"), the seat's colour, and the game's words with names."""
        from towerworld.scene.hud import SWATCHES, PanelView
        views = []
        for panel in self.game.panels(state, self.viewer):
            player = self.match.players[panel.seat] if 0 <= panel.seat < len(self.match.players) else None
            title = player.name if player is not None else self.with_names(panel.name)
            if panel.name != f"Player {panel.seat + 1}":
                title += f" ({panel.name})"
            if player is not None and player.is_ai and not names_an_ai(player.name):
                title += " (AI)"
            views.append(PanelView(title, SWATCHES.get(panel.colour or ""), self.with_names(panel.score),
                                   [self.with_names(h) for h in panel.holdings], panel.to_move))
        return views

    def instruction(self, state) -> str:
        """The one line saying what happens now: the game's turn line, with the players' names."""
        hud = self.game.hud(state, self.viewer)
        return self.with_names(str(hud.get("turn", "")))

    def show_hud(self, state, lines: list[str]) -> None:
        """The panels, the instruction and the status `lines` for `state`."""
        self.hud.set_panels(self.panel_views(state))
        self.hud.set_instruction(self.instruction(state))
        self.hud.set_status(lines)

    def _person_to_move(self, state) -> bool:
        """Whether a person plays the seat to move here (a replay: nobody does, nothing is clicked)."""
        return False

    def with_names(self, text: str) -> str:
        """Games speak of "Player 2"; the table knows who that is."""
        return with_names(text, [p.name for p in self.match.players])

    def run(self) -> int:
        return run_loop(self.base, self.frames)
