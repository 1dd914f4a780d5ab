"""The app around the table: the start screen state machine, the Esc menu, resuming, the hand-off between people
who must not see each other's hands, and picks that form a set."""
from __future__ import annotations

import pytest

from towerworld.app.picks import next_picks, path_progress
from towerworld.engine import registry
from towerworld.engine.driver import answer_chance
from towerworld.engine.game import CHANCE, OMNISCIENT, SPECTATOR
from towerworld.engine.match import Match, PlayerSpec

try:
    from toygame import GAME as TOY
except ImportError:  # tests run as a package
    from tests.toygame import GAME as TOY


def step(base, frames=3):
    for _ in range(frames):
        base.taskMgr.step()


# ---- picks that form a set ----------------------------------------------------------------------------------------------
def test_a_set_step_takes_its_picks_in_any_order():
    path = ("card:a", frozenset({"card:b", "card:c"}), "confirm")
    assert path_progress(path, ["card:a", "card:c", "card:b"]).step == 2
    assert path_progress(path, ["card:a", "card:b", "card:c"]).step == 2
    assert path_progress(path, ["card:a", "card:b", "card:c", "confirm"]).done
    partial = path_progress(path, ["card:a", "card:c"])
    assert not partial.done and partial.next() == ["card:b"]
    assert path_progress(path, ["card:a", "card:d"]) is None
    assert path_progress(path, ["card:a", "card:b", "card:b"]) is None
    assert path_progress(path, ["card:b"]) is None


def test_next_picks_offer_every_member_of_an_open_set_once():
    paths = [(frozenset({"x", "y"}),), (frozenset({"x", "z"}),), ("w",)]
    progresses = [path_progress(p, ["x"]) for p in paths]
    assert next_picks(p for p in progresses if p is not None) == ["y", "z"]


# ---- the start screen ---------------------------------------------------------------------------------------------------
def test_the_start_screen_lists_every_game_and_starts_a_table(showbase):
    from towerworld.app.main import App
    from towerworld.app.menu import StartScreen
    from towerworld.app.play import PlayTable
    app = App(showbase, (640, 400), frames=1)
    app.request("Menu")
    try:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert set(screen.game_buttons) == set(registry.names())
        titles = {b["text"] for b in screen.game_buttons.values()}
        assert all(t and ":" not in t for t in titles), "buttons show titles, never ids"
        screen.pick("kdak")
        assert screen.setup.game == "kdak" and screen.setup.seats[0] == "human"
        screen.set_players(9)                          # clamped to the game's range
        assert screen.setup.players == 2 and len(screen.setup.seats) == 2
        screen.cycle_seat(1)
        screen.start()
        assert app.state == "Play" and isinstance(app.screen, PlayTable)
        assert app.screen.match.game.name == "kdak" and app.screen.match.seed is None   # live chance
        app.screen.on_leave()
        assert app.state == "Menu"
    finally:
        app.request("Off")


def test_the_start_screens_unfinished_games_read_in_words_and_fit(showbase, tmp_path, monkeypatch):
    """An unfinished game's button says who played, how far and when, whole, in the players' words: not the game's id
    (the list is already under its title) and not a date cut at a fixed width ("23 Nov 1")."""
    import time

    from towerworld.app import saves
    from towerworld.app.main import App
    from towerworld.engine.record import save_match
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    game = registry.get_game("carcassonne")
    names = ["Alexandra the Great", "Bartholomew", "Cornelius Xavier", "Dorothea"]
    old = Match(game, players=[PlayerSpec(n) for n in names])
    answer_chance(old)
    save_match(old, saves.autosave_path("carcassonne"))
    app = App(showbase, (1280, 800), frames=1)
    app.request("Menu")
    try:
        screen = app.screen
        screen.pick("carcassonne")
        resume = [b for b in screen.widgets if "autosave" in str(b["text"])]
        assert len(resume) == 1
        text = resume[0]["text"]
        when = time.strftime("%d %b %H:%M", time.localtime(saves.unfinished("carcassonne")[0].mtime))
        assert text.startswith("Alexandra the Great, Barth") and "carcassonne" not in text
        assert text.endswith(f"no move yet, {when} (autosave)")     # (the first tile is drawn: chance's move)
        left, right, _, _ = resume[0].getBounds()          # the button's frame, in its own units
        x, scale = resume[0].getX(), resume[0].getScale().x
        assert -1.55 <= x + scale * left and x + scale * right <= 1.55, "the button runs off the setup panel"
    finally:
        app.request("Off")


def test_esc_opens_a_menu_when_nothing_is_picked(showbase, tmp_path):
    from towerworld.app.play import PlayTable
    game = registry.get_game("kdak")
    table = PlayTable(Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")],
                            autosave=str(tmp_path / "a.tower.json")))
    try:
        table.escape()
        labels = [w["text"] for w in table.menu[1:]]
        assert labels[0] == "Resume" and "Save" in labels and "Quit" in labels and "Rules and keys" in labels
        # the card names the game over its buttons and holds them all
        panel = table.menu[0]
        titles = [t for t in panel.findAllMatches("**/+TextNode") if t.node().getText() == game.title]
        assert titles, "the menu does not name the game"
        left, right, bottom, top = panel["frameSize"]
        for button in table.menu[1:]:
            b = button.getBounds()
            z, s = button.getZ(), button.getScale().z
            assert bottom < z + b[2] * s and z + b[3] * s < top, button["text"]
        assert not table._human_turn(), "clicks reach the table under the menu"
        table.escape()
        assert not table.menu
    finally:
        table.close()


def test_an_unfinished_games_label_names_an_ai_seat_whole(tmp_path, monkeypatch):
    """The start screen listed "Player 1, AI 2, search (normal: move 1, ..." : each name was cut at 20 characters,
    the AI seat's closing bracket with it."""
    from towerworld.app import saves
    from towerworld.engine.record import save_match
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    game = registry.get_game("kdak")
    match = Match(game, players=[PlayerSpec("Player 1"), PlayerSpec("AI 2, search (normal)", "ai", "mcts")])
    save_match(match, saves.autosave_path("kdak"))
    (info,) = saves.unfinished("kdak")
    assert info.label.startswith("Player 1, AI 2, search (normal): no move yet, ")


def test_a_saves_count_of_moves_played_is_believed_only_within_its_moves(tmp_path, monkeypatch):
    """The label's count of the players' moves comes from the file: a count that is not a whole number between 0
    and the moves listed is not shown, nor is one a record does not have: the label then says how many plies the
    record lists ("move 2", the chance draw among them)."""
    import json

    from towerworld.app import saves
    from towerworld.engine.record import save_match
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    game = registry.get_game("carcassonne")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")])
    answer_chance(match)
    match.apply(game.legal_moves(match.state)[0], save=False)
    path = saves.autosave_path("carcassonne")
    save_match(match, path)
    assert [p.mover for p in match.plies] == [CHANCE, 0]          # the first tile drawn, then laid
    for said, shown in ((1, "1 move played"), (10 ** 9, "move 2"), ("1", "move 2"), (-1, "move 2"),
                        (True, "move 2"), (0, "no move yet"), (None, "move 2")):
        data = json.loads(open(path, encoding="utf-8").read())
        data["result"]["played"] = said
        if said is None:                      # a record that does not count its players' moves
            del data["result"]["played"]
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        (info,) = saves.unfinished("carcassonne")
        assert f": {shown}, " in info.label, (said, info.label)


def test_play_offers_to_resume_an_unfinished_game(showbase, tmp_path, monkeypatch):
    from towerworld.app import saves
    from towerworld.app.play import PlayTable
    from towerworld.engine.record import save_match
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    game = registry.get_game("kdak")
    old = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")])
    answer_chance(old)
    old.apply(game.legal_moves(old.state)[0], save=False)
    save_match(old, saves.autosave_path("kdak"))
    waiting = saves.unfinished("kdak")
    assert len(waiting) == 1 and waiting[0].plies == len(old.plies)
    assert ": 1 move played, " in waiting[0].label
    resumed = []
    table = PlayTable(Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    try:
        table.offer_resume(waiting, resumed.append)
        assert [b["text"] for b in table.hud.buttons][-1] == "New game"
        assert not table._human_turn()
        said = [table.hud.instruction.getText(), table.hud.message.getText()]
        assert sum("unfinished" in line for line in said) == 1, f"the choice is asked once, not twice: {said}"
        table.offers[0][1]()
        assert resumed == [waiting[0].path]
    finally:
        table.close()


# ---- hidden hands at one screen -----------------------------------------------------------------------------------------
@pytest.fixture
def toy_registered():
    registry.register(TOY)
    yield
    registry.unregister(TOY.name)


def test_a_hand_off_comes_before_another_persons_hand_is_shown(showbase, toy_registered, tmp_path):
    """At one screen, a hand-off screen comes before any hand is shown; hands are never on screen for the
    wrong player."""
    from towerworld.app.play import PlayTable
    match = Match(TOY, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], autosave=str(tmp_path / "t.tower.json"))
    table = PlayTable(match)
    try:
        for _ in range(60):
            if table.anim is not None:
                table.anim.finish()
            step(showbase, 1)
            if match.current_player == 0 and table.handoff == 0:
                break
        # the first hand too: "no hand is shown before its hand-off, the first one included"
        assert table.handoff == 0 and table.viewer == SPECTATOR
        assert not any(p.face_up for p in table.stage.layout.pieces.values() if p.get("owner") is not None)
        table.confirm_handoff()
        assert table.viewer == 0
        ann_cards = {pid for pid, pose in table.stage.layout.pieces.items() if pose.get("owner") == 0}
        assert ann_cards and all(table.stage.layout.pieces[p].face_up for p in ann_cards)
        move = next(m for m in TOY.legal_moves(match.state) if m[0] == "play")
        table.driver.answer(table.match.current_player, move, save=False)
        for _ in range(60):
            if table.anim is not None:
                table.anim.finish()
            step(showbase, 1)
            if table.handoff is not None:
                break
        assert table.handoff == 1 and table.hud.covered and "Pass to Bob" in table.hud.cover_title.getText()
        assert table.viewer == SPECTATOR
        assert not any(p.face_up for p in table.stage.layout.pieces.values() if p.get("owner") is not None), \
            "a hand shows while the screen changes hands"
        table.on_click()
        assert table.handoff == 1, "a click got past the hand-off cover"
        table.confirm_handoff()
        assert table.viewer == 1 and not table.hud.covered
        shown = {pid: pose for pid, pose in table.stage.layout.pieces.items() if pose.get("owner") is not None}
        assert all(pose.face_up == (pose.get("owner") == 1) for pose in shown.values()), "Ann's hand shows to Bob"
    finally:
        table.close()


def test_a_finished_game_is_shown_whole(showbase, toy_registered):
    from towerworld.app.replay import ReplayTable
    from towerworld.engine.driver import play_match
    from towerworld.ai import make_agent
    import random
    match = Match(TOY, players=[PlayerSpec("a", "ai", "random"), PlayerSpec("b", "ai", "random")], seed=3)
    play_match(match, {0: make_agent("random", TOY, 1), 1: make_agent("random", TOY, 2)}, random.Random(3))
    table = ReplayTable(match, (640, 400), frames=1)
    try:
        assert table.viewer == OMNISCIENT
    finally:
        table.close()


def test_t_then_enter_plays_the_hint(showbase, tmp_path):
    """T then Enter plays the hint."""
    from towerworld.app.play import PlayTable
    game = registry.get_game("kdak")
    table = PlayTable(Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")],
                            autosave=str(tmp_path / "h.tower.json")))
    try:
        for _ in range(30):
            if table.anim is not None:
                table.anim.finish()
            step(showbase, 1)
            if table._human_turn():
                break
        table.show_hint()
        hinted = table.hinted
        assert hinted is not None and "Enter to play it" in table.hud.message.getText()
        before = len(table.match.plies)
        table.commit_exact()
        assert len(table.match.plies) > before and hinted in [p.move for p in table.match.plies[before:]]
    finally:
        table.close()


def test_with_no_writable_place_the_table_says_so_once_and_plays_unsaved(showbase, tmp_path, monkeypatch):
    """With no writable place, the table says so once at start and plays unsaved."""
    import os
    from towerworld.app import saves
    from towerworld.app.play import PlayTable
    blocked = tmp_path / "home-file"
    blocked.write_text("a file where the saves folder would be")
    monkeypatch.setattr(saves, "SAVE_DIR", str(blocked / "saves"))
    game = registry.get_game("kdak")
    table = PlayTable(Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    try:
        assert table.match.autosave_path is None
        assert "will not be saved" in table.hud.message.getText()
        for _ in range(20):
            if table.anim is not None:
                table.anim.finish()
            step(showbase, 1)
            if table._human_turn():
                break
        move = game.legal_moves(table.match.state)[0]
        for pick in game.picks(table.match.state, move):
            table.choose(pick)
        assert table.match.plies and not os.path.exists(str(blocked / "saves"))
    finally:
        table.close()


def test_stale_temp_files_are_cleaned_at_start(tmp_path, monkeypatch):
    """Stale temp files are cleaned at start (a save killed half-way leaves one)."""
    import os
    import time
    from towerworld.app import saves
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    stale = tmp_path / ".tmp-abc.tower.json"
    fresh = tmp_path / ".tmp-def.tower.json"
    stale.write_text("{")
    fresh.write_text("{")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    path = saves.autosave_path("kdak")
    assert path and os.path.basename(path).startswith("autosave-kdak-")
    assert not stale.exists() and fresh.exists(), "only temp files older than a save can take are removed"


def test_each_new_game_gets_its_own_autosave(tmp_path, monkeypatch):
    """Starting a new game never overwrites the autosave of an unfinished one."""
    from towerworld.app import saves
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path))
    a = saves.autosave_path("kdak")
    open(a, "w").close()
    b = saves.autosave_path("kdak")
    assert a != b


def test_a_long_message_wraps_inside_the_window_and_grows_upwards(showbase):
    """A final scoring or a refusal with its reason may run to 200 characters: every letter stays on the window, and
    a one-line message sits where it always did."""
    from towerworld.scene.hud import Hud
    hud = Hud(showbase)
    try:
        hud.say("Short.")
        short = hud.message.getTightBounds(showbase.render2d)
        hud.say("Final scoring: " + ", ".join(f"Player {i} +{i * 7} for the city at c{i}" for i in range(1, 7)))
        step(showbase)
        low, high = hud.message.getTightBounds(showbase.render2d)
        assert -1.0 <= low.x and high.x <= 1.0, "the message runs off the window's sides"
        assert -1.0 <= low.z and high.z <= 1.0, "the message runs off the window's top or bottom"
        assert hud.message.textNode.getNumRows() > 1
        assert abs(low.z - short[0].z) < 0.06, "the last line sits where a single line sits"
    finally:
        hud.destroy()


def test_a_closed_table_leaves_no_shadow_pass_behind(showbase, tmp_path):
    """A shadow-casting light keeps its shadow buffer after its node is gone: each table closed (a new game from the
    menu) left one more buffer that every later frame drew, and the suite's later tables crawled."""
    from towerworld.app.play import PlayTable
    from towerworld.scene.offscreen import render_layout
    engine = showbase.graphicsEngine
    before = engine.getNumWindows()
    table = PlayTable(Match(TOY, players=[PlayerSpec("Ann"), PlayerSpec("Bo")], seed=1,
                            autosave=str(tmp_path / "a.tower.json")))
    step(showbase)
    assert engine.getNumWindows() > before, "the table draws its shadows through a buffer of its own"
    table.close()
    step(showbase)
    assert engine.getNumWindows() == before
    render_layout(TOY.layout(TOY.new_state(), OMNISCIENT), str(tmp_path / "p.png"), 320, 200)
    step(showbase)
    assert engine.getNumWindows() == before


def _first_frame(showbase, table):
    from panda3d.core import PNMImage
    step(showbase, 1)
    image = PNMImage()
    assert showbase.win.getScreenshot(image)
    return image


def test_a_table_makes_its_shadow_buffer_once_its_first_frame_is_drawn(showbase, tmp_path, monkeypatch):
    """Panda3D draws a new shadow caster's buffer from the frame after the one that makes it, so a table's first frame
    has no shadows whichever way: the buffer waits until that frame is drawn (its setup was a quarter of a table's
    first frame in software GL), the first frame's pixels are the same as with the buffer made at once, the shadows
    come on the frames after it, and a table closed before its first frame makes no buffer at all."""
    from towerworld.app import table as table_module
    from towerworld.app.play import PlayTable

    def new_table(name: str):
        return PlayTable(Match(TOY, players=[PlayerSpec("Ann"), PlayerSpec("Bo")], seed=1,
                               autosave=str(tmp_path / f"{name}.tower.json")))
    engine = showbase.graphicsEngine
    before = engine.getNumWindows()
    table = new_table("a")
    try:
        assert not table.sun.isShadowCaster()
        lazy = _first_frame(showbase, table)
        assert engine.getNumWindows() == before, "no shadow buffer is made for the first frame"
        assert table.sun.isShadowCaster()
        step(showbase, 2)
        assert engine.getNumWindows() > before, "the frames after the first draw the shadows"
    finally:
        table.close()
    step(showbase)
    at_once = table_module.dress
    monkeypatch.setattr(table_module, "dress", lambda scene, layout, **_: at_once(scene, layout))
    table = new_table("b")
    try:
        assert table.sun.isShadowCaster()
        eager = _first_frame(showbase, table)
    finally:
        table.close()
    monkeypatch.undo()
    step(showbase)
    w, h = lazy.getXSize(), lazy.getYSize()
    assert (w, h) == (eager.getXSize(), eager.getYSize())
    assert all(lazy.getXel(x, y) == eager.getXel(x, y) for x in range(0, w, 2) for y in range(0, h, 2))
    table = new_table("c")
    table.close()
    step(showbase)
    assert not table.sun.isShadowCaster(), "a table closed before its first frame casts no shadows afterwards"
    assert engine.getNumWindows() == before


def test_a_new_table_lays_its_hud_out_once(showbase, tmp_path, monkeypatch):
    """The panels, the instruction and the status lines are laid out once on the way to a table's first frame (each
    layout builds every panel again), and laid out again when they change."""
    from towerworld.app.play import PlayTable
    from towerworld.scene.hud import Hud
    laid = []
    arrange = Hud.arrange
    monkeypatch.setattr(Hud, "arrange", lambda self: (laid.append(1), arrange(self))[1])
    table = PlayTable(Match(TOY, players=[PlayerSpec("Ann"), PlayerSpec("Bo")], seed=1,
                            autosave=str(tmp_path / "a.tower.json")))
    try:
        assert len(laid) == 1
        assert table.hud.panel_root is not None, "the players' panels are built"
        table.hud.set_instruction("Something else to do")
        assert len(laid) == 2
    finally:
        table.close()
    step(showbase)


def test_the_collector_waits_for_the_first_frame(showbase, monkeypatch):
    """Startup runs without collections (each one walked startup's hundred thousand objects again: tens of ms before
    the first frame); once the first frame is drawn the collector is back, with what startup made frozen out of its
    reach, and leaving the table lets it all go again."""
    import gc

    from towerworld.app import main as app_main
    seen, apps = {}, []
    enter, run = app_main.App.enterPlay, app_main.App.run

    def enter_play(self, *args, **kwargs):
        seen["collecting while the table is built"] = gc.isenabled()
        return enter(self, *args, **kwargs)

    def run_once(self):
        apps.append(self)
        return run(self)
    monkeypatch.setattr(app_main.App, "enterPlay", enter_play)
    monkeypatch.setattr(app_main.App, "run", run_once)
    match = Match(registry.get_game("kdak"), players=[PlayerSpec("Ann"), PlayerSpec("Bo")])
    try:
        assert app_main.run_app((640, 400), frames=1, match=match) == 0
        assert seen == {"collecting while the table is built": False}
        assert gc.isenabled() and gc.get_freeze_count() > 0
        apps[0].request("Off")
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_hud_is_drawn_through_the_tables_shader(showbase, tmp_path):
    """The HUD's text and panels go through the table's own GLSL shader, not the fixed-function pipeline: on Mesa's
    software renderer each pipeline costs the first frame code of its own compiled on the spot. Its text keeps its
    colour: the default font makes luminance+alpha pages (an alpha-only page samples as black in GLSL)."""
    from panda3d.core import PNMImage, Texture, TextNode

    from towerworld.app.play import PlayTable
    from towerworld.scene.setup import FONT_FG, lit_shader
    table = PlayTable(Match(TOY, players=[PlayerSpec("Ann"), PlayerSpec("Bo")], seed=1,
                            autosave=str(tmp_path / "a.tower.json")))
    try:
        step(showbase)
        if table.handoff is not None:      # two people at one screen: the first hand-off covers the table
            table.confirm_handoff()
        table.hud.set_status(["White on the table"])
        step(showbase)
        hud = table.hud
        assert all(node.getShader() == lit_shader() for node in (hud.status, hud.message, hud.hint, hud.help,
                                                                 hud.cover))
        font = TextNode.getDefaultFont()
        assert tuple(round(c, 3) for c in font.getFg()) == FONT_FG
        pages = [font.getPage(i) for i in range(font.getNumPages())]
        assert pages and all(p.getFormat() == Texture.F_luminance_alpha for p in pages)
        # the status line is written in white: its brightest pixel is near white, not black
        image = PNMImage()
        assert showbase.win.getScreenshot(image)
        low, high = table.hud.status.getTightBounds(showbase.render2d)
        w, h = image.getXSize(), image.getYSize()
        xs = range(max(0, int((low.x + 1) / 2 * w)), min(w, int((high.x + 1) / 2 * w)))
        ys = range(max(0, int((1 - high.z) / 2 * h)), min(h, int((1 - low.z) / 2 * h)))
        assert max(image.getBright(x, y) for x in xs for y in ys) > 0.9
    finally:
        table.close()


def test_the_program_freezes_what_it_imported_before_startup():
    """The cli (the program's start) and app.main (the window's) put what was imported before them out of the
    collector's reach: a collection during startup walked Panda3D's objects again (1-6 ms each)."""
    import os
    import subprocess
    import sys
    code = ("import gc\nimport direct.showbase.ShowBase\nn = len(gc.get_objects())\nimport towerworld.app.main\n"
            "a = gc.get_freeze_count()\nimport towerworld.cli\nprint(a >= n, gc.get_freeze_count() > a)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.stdout.split() == ["True", "True"], done.stderr


def test_a_table_starts_with_only_the_modules_it_uses():
    """'play kdak' to its first frame imports its own game and nothing of the others, nor what only the help overlay
    needs (importlib.resources, 20 ms)."""
    import os
    import subprocess
    import sys
    code = ("import sys\nfrom towerworld.cli import main\n"
            "main(['play', 'kdak', '--players', 'human,random', '--frames', '1', '--new'])\n"
            "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('towerworld.games.')}),"
            " sorted(m for m in ('importlib.resources',) if m in sys.modules))\n")
    env = dict(os.environ, EGL_PLATFORM="surfaceless")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.stdout.split() == ["['kdak']", "[]"], done.stderr[-2000:]


def test_play_collects_nothing_before_its_table_starts(monkeypatch):
    """'towerworld play' runs without collections from the command line on (the game's import, the match), as the
    table's startup does (run_app); the collector is back when the command returns."""
    import gc

    from towerworld import cli
    from towerworld.app import main as app_main
    seen = {}
    real_get_game = registry.get_game

    def get_game(name):
        seen["collecting while the game is imported"] = gc.isenabled()
        return real_get_game(name)

    def run_app(*args, **kwargs):
        seen["collecting when the table starts"] = gc.isenabled()
        return 0
    monkeypatch.setattr(cli, "get_game", get_game)        # the name play looks the game up by
    monkeypatch.setattr(app_main, "run_app", run_app)
    assert gc.isenabled()
    assert cli.main(["play", "kdak", "--players", "human,random", "--frames", "1", "--new"]) == 0
    assert seen == {"collecting while the game is imported": False, "collecting when the table starts": False}
    assert gc.isenabled()


def test_seat_choices_read_in_players_words():
    """Words on screen are a player's words, never internal ids: no seat choice of any game shows an agent's id
    ("mcts", "elev-greedy"), and no two choices of a game read alike."""
    from towerworld.ai import agent_names
    from towerworld.app.menu import label_of, seat_choices
    for name in registry.names():
        game = registry.get_game(name)
        labels = [label_of(seat, game) for seat in seat_choices(game)]
        assert len(set(labels)) == len(labels), (name, labels)
        # ids that are not words: search names and hyphenated ones
        ids = [agent for agent in agent_names(game) if "mcts" in agent or "-" in agent]
        for label in labels:
            assert not [agent for agent in ids if agent in label], (name, label)
            assert len(label) <= 24, f"{label!r} is too long for a seat button"


KEY_EVENTS = {"Backspace": "backspace", "Esc": "escape", "Enter": "enter", "Home": "home", "Ctrl-S": "control-s",
              "Ctrl-O": "control-o", "F1": "f1", "F11": "f11", "+": "+", "-": "-"}


def test_every_key_the_readme_lists_at_the_table_does_something(showbase, tmp_path):
    """The README listed PgUp and PgDn, which no game's table answered: every key in its table of keys at the table
    is one the play table listens to."""
    import os
    import re

    from towerworld.app.play import PlayTable
    readme = open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")).read()
    rows = [row for row in readme[readme.index("| at the table |"):readme.index("In a replay:")].splitlines()
            if row.startswith("|")][2:]
    keys = [k for row in rows for k in re.findall(r"`([^`]+)`", row.split("|")[1])]
    keys += re.findall(r"`([^`]+)`", rows[0].split("|")[2])         # the view's keys, in the first row
    names = [KEY_EVENTS.get(part, part.lower()) for key in keys for part in key.replace("/", " ").split()]
    assert "z" in names and "home" in names and len(names) > 15
    table = PlayTable(Match(registry.get_game("kdak"), players=[PlayerSpec("Ann"), PlayerSpec("Bob")],
                            autosave=str(tmp_path / "k.tower.json")))
    try:
        unbound = [name for name in names if not table.events.isAccepting(name)]
        assert unbound == [], unbound
    finally:
        table.close()
