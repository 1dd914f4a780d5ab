"""The play table, driven as a person would: picks, highlights, refusals with reasons, undo, save; and a picture."""
import json

import pytest

from towerworld.engine.match import Match, PlayerSpec
from towerworld.engine.registry import get_game
from towerworld.engine.game import OMNISCIENT

try:
    from tabletools import settle
except ImportError:  # tests run as a package
    from tests.tabletools import settle


@pytest.fixture
def table(showbase, tmp_path):
    from towerworld.app.play import PlayTable
    game = get_game("kdak")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=5,
                  autosave=str(tmp_path / "auto.tower.json"))
    t = PlayTable(match)
    settle(t)
    yield t
    t.close()


def test_a_move_is_made_by_picking_its_path(table):
    game, match = table.game, table.match
    state = match.state
    move = game.legal_moves(state)[0]
    path = game.picks(state, move)
    for pick in path:
        table.choose(pick)
    assert match.plies[-1].move == move or move in [p.move for p in match.plies]
    settle(table)
    saved = json.load(open(match.autosave_path))
    assert saved["moves"][: len(match.plies)] == [p.text for p in match.plies]


def test_next_picks_are_highlighted_and_others_are_not(table):
    game, state = table.game, table.match.state
    firsts = {game.picks(state, m)[0] for m in game.legal_moves(state)}
    table.refresh()
    lit = {pid for pid, node in table.stage.nodes.items() if node.getShaderInput("highlight").getValueType() != 0}
    lit |= {cid for cid, node in table.stage.cells.items() if node.getColorScale()[3] > 0}
    spatial = set(table.stage.nodes) | set(table.stage.cells)
    assert lit == {f for f in firsts if f in spatial}
    assert len(table.hud.buttons) == len({f for f in firsts if f not in spatial})


def test_a_pick_that_leads_nowhere_is_refused_with_a_reason(table):
    game, state = table.game, table.match.state
    firsts = {game.picks(state, m)[0] for m in game.legal_moves(state)}
    wrong = next(pid for pid in table.stage.nodes if pid not in firsts)
    before = len(table.match.plies)
    table.choose(wrong)
    assert len(table.match.plies) == before
    reason = table.hud.message.getText()
    assert reason and reason.endswith(".")


def test_undo_against_an_ai_takes_back_to_your_last_decision(showbase, tmp_path):
    """Against an AI (thinking in its worker process), Z goes back to before the person's latest decision."""
    from towerworld.app.play import PlayTable
    game = get_game("kdak")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bot", "ai", "random")],
                  autosave=str(tmp_path / "auto.tower.json"))
    table = PlayTable(match)
    try:
        settle(table)
        for _ in range(3):
            state = match.state
            move = game.legal_moves(state)[-1]
            for pick in game.picks(state, move):
                table.choose(pick)
            for _ in range(400):          # the worker answers within a few seconds
                settle(table)
                if table._human_turn() or match.over:
                    break
                import time
                time.sleep(0.02)
        assert any(p.mover == 1 for p in match.plies), "the AI seat never moved"
        assert match.can_undo()
        last_mine = max(i for i, p in enumerate(match.plies) if p.mover == 0)
        plies = len(match.plies)
        table.undo()
        assert len(match.plies) == last_mine
        assert table.stage.layout.pieces == game.layout(match.state, table.viewer).pieces
        assert table.hud.message.getText().startswith("Taken back: your move")
        table.redo()                      # Y: the same plies again, and the words say whose
        assert len(match.plies) == plies and table.hud.message.getText().startswith("Played again: your move")
        assert table.stage.layout.pieces == game.layout(match.state, table.viewer).pieces
    finally:
        table.close()


def test_offscreen_render_shows_the_tower(showbase, tmp_path):
    """The picture's centre holds the tower: ivory tile edges and dark tile backs, not table or sky."""
    from panda3d.core import PNMImage, Filename
    from towerworld.scene.offscreen import render_layout
    game = get_game("kdak")
    out = str(tmp_path / "kdak.png")
    render_layout(game.layout(game.new_state(), OMNISCIENT), out, 320, 200)
    img = PNMImage()
    assert img.read(Filename.fromOsSpecific(out))
    dark = ivory = 0
    for x in range(60, 260, 4):
        for y in range(30, 170, 4):
            r, g, b = img.getRed(x, y), img.getGreen(x, y), img.getBlue(x, y)
            if r > 0.75 and g > 0.72 and b > 0.6 and r - b < 0.3:
                ivory += 1
            if r < 0.4 and g < 0.32 and b < 0.25 and r > b:
                dark += 1
    assert dark > 50, "the tile backs (dark brown) should fill the middle of the picture"
    assert ivory > 10, "the ivory edges of stacked tiles should show"


def test_save_then_open_a_save_from_the_list(table, tmp_path, monkeypatch):
    from towerworld.app import saves
    monkeypatch.setattr(saves, "SAVE_DIR", str(tmp_path / "saves"))
    table.open_saves()
    assert "no saved" in table.hud.message.getText()
    game, match = table.game, table.match
    move = game.legal_moves(match.state)[0]
    for pick in game.picks(match.state, move):
        table.choose(pick)
    settle(table)
    plies = [p.text for p in match.plies]
    table.save()
    assert "Saved to" in table.hud.message.getText()
    table.open_saves()
    assert len(table.hud.buttons) == 1 and "Ann, Bob" in table.hud.buttons[0]["text"]
    newest = saves.list_saves()[0].path
    table.load(newest)
    assert [p.text for p in table.match.plies] == plies
    assert table.match is not match
    # a damaged save is refused and the game in hand is kept
    with open(newest, "w") as f:
        f.write("{not json")
    kept = table.match
    table.load(newest)
    assert table.match is kept
    assert "Could not load" in table.hud.message.getText()


def test_a_failed_autosave_is_a_warning_and_play_goes_on(table, tmp_path):
    """A failed save "is a visible warning on the table and play goes on; the next move tries again"."""
    game, match = table.game, table.match
    match.autosave_path = str(tmp_path / "missing-dir" / "file" / "auto.tower.json")
    (tmp_path / "missing-dir").write_text("a file where a folder should be")
    move = game.legal_moves(match.state)[0]
    for pick in game.picks(match.state, move):
        table.choose(pick)
    assert match.plies, "the move was not played"
    assert "Could not save" in table.hud.message.getText() and "Play goes on" in table.hud.message.getText()
    match.autosave_path = str(tmp_path / "auto2.tower.json")
    settle(table)
    move = game.legal_moves(match.state)[0]
    for pick in game.picks(match.state, move):
        table.choose(pick)
    assert (tmp_path / "auto2.tower.json").exists()


def test_every_game_has_a_rules_summary_for_the_help_overlay():
    from towerworld.engine.registry import all_games
    for game in all_games().values():
        text = game.help_text()
        assert len(text.splitlines()) >= 5, game.name


def test_help_overlay_toggles(table):
    assert table.hud.help.isHidden()
    table.toggle_help()
    assert not table.hud.help.isHidden()
    assert "null level" in table.hud.help_text.getText()
    table.escape()           # Esc closes the overlay first
    assert table.hud.help.isHidden()


def test_hint_lights_up_a_legal_move(table):
    table.show_hint()
    text = table.hud.message.getText()
    move = table.hinted
    assert move in table.game.legal_moves(table.match.state)
    assert text == f"Hint: {table.game.describe_move(table.match.state, move)} (click it, or Enter to play it; " \
                   "Esc clears)."
    lit = {pid for pid, node in table.stage.nodes.items() if node.getShaderInput("highlight").getValueType() != 0}
    lit |= {cid for cid, node in table.stage.cells.items() if node.getColorScale()[3] > 0}
    assert set(table.game.picks(table.match.state, move)) & (set(table.stage.nodes) | set(table.stage.cells)) <= lit


def test_ziggurat_hint_comes_from_what_a_person_can_know(showbase, tmp_path):
    """The hint key shows the move the AI rates best from what the player can know."""
    from towerworld.app.play import PlayTable
    game = get_game("ziggurat")
    match = Match(game, players=[PlayerSpec("Ann")], seed=3, autosave=str(tmp_path / "z.tower.json"))
    t = PlayTable(match)
    try:
        settle(t)
        t.show_hint()
        text = t.hud.message.getText()
        assert text.startswith("Hint: "), text
        move = t.hinted
        assert move in game.legal_moves(match.state)
        words = text[len("Hint: "):].split(" (click")[0]
        assert words == game.describe_move(match.state, move) and "tier" in words, "hints speak in words"
    finally:
        t.close()


def test_a_click_that_could_mean_two_picks_asks_with_buttons(showbase, tmp_path):
    """Elevation: after picking a piece, the square next door is both a move target and the home of a tile to dig;
    one click on it must not guess."""
    from towerworld.app.play import PlayTable
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=1, autosave=str(tmp_path / "e.json"))
    t = PlayTable(match)
    try:
        settle(t)
        state = match.state
        moves = [m for m in game.legal_moves(state) if len(game.picks(state, m)) > 2]
        piece = game.picks(state, moves[0])[0]
        t.choose(piece)
        seconds = {game.picks(state, m)[1] for m in moves if game.picks(state, m)[0] == piece}
        square = next(s for s in seconds if s.startswith("sq:"))
        pose = game.layout(state, OMNISCIENT).pieces
        cell = game.layout(state, OMNISCIENT).cells[square]
        tile = next(s for s in seconds if s.startswith("terr:") and abs(pose[s].x - cell.x) < 1
                    and abs(pose[s].y - cell.y) < 1)
        t.choose_among([square, tile])                    # what the picker reports for a click on that square
        assert t.picks == [piece]                          # nothing guessed
        labels = [b["text"] for b in t.hud.buttons]
        assert labels == [f"Step onto {square[3:]}", f"Dig the top tile of {square[3:]}"]
        t.hud.buttons[1]["command"]()                      # choose to dig
        assert t.picks == [piece, tile]
    finally:
        t.close()


def film_point(table, x, y, z):
    """Where a table point shows on the screen, in the -1..1 film coordinates the mouse uses."""
    from panda3d.core import Point2, Point3
    cam = table.base.cam
    p = cam.getRelativePoint(table.base.render, Point3(x, y, z))
    out = Point2()
    assert table.base.camLens.project(p, out)
    return (out.x, out.y)


def test_the_picker_finds_what_is_under_the_cursor(showbase, tmp_path):
    """A ray through a highlighted square finds the square's cell and the tile lying there; a ray through a piece
    finds the piece."""
    from towerworld.app.play import PlayTable
    game = get_game("elevation")
    match = Match(game, players=[PlayerSpec("Ann"), PlayerSpec("Bob")], seed=1, autosave=str(tmp_path / "e.json"))
    t = PlayTable(match)
    try:
        settle(t)
        layout = game.layout(match.state, OMNISCIENT)
        piece = game.picks(match.state, game.legal_moves(match.state)[-1])[0]
        pose = layout.pieces[piece]
        assert t.picker.pick_all(film_point(t, pose.x, pose.y, pose.z + 10))[0] == piece
        t.choose(piece)
        lit = [c for c, node in t.stage.cells.items() if node.getColorScale()[3] > 0]
        assert lit
        cell = layout.cells[lit[0]]
        hits = t.picker.pick_all(film_point(t, cell.x, cell.y, cell.z))
        assert hits[0] == lit[0]
        assert any(h.startswith("terr:") for h in hits[1:])
    finally:
        t.close()


def test_a_moves_message_says_whole_sentences_one_space_apart():
    """The message line cut a long run of events at 200 characters, mid-word, and put two spaces between sentences:
    it keeps whole sentences (a run too long for the line ends with "..." after the last that fits), one space apart,
    in the players' names, and only those the viewer may see."""
    from types import SimpleNamespace

    from towerworld.app.table import Table
    from towerworld.engine.game import Event
    table = SimpleNamespace(viewer=0, TOLD_CHARS=Table.TOLD_CHARS, with_names=lambda t: t.replace("Player 1", "Ann"))
    events = [Event("score", ("score:0",), "Player 1 scores 5."), Event("draw", ("card:1",), "A secret.", visible_to=(1,)),
              Event("move", ("pawn:0",), "Player 1 steps up.")]
    assert Table.told(table, events) == "Ann scores 5. Ann steps up."
    long = [Event("score", ("score:0",), f"Completed city number {k}: Player 1 scores {k} points.") for k in range(12)]
    said = Table.told(table, long)
    assert said.endswith(" points. \u2026") and len(said) <= Table.TOLD_CHARS + 2 and "  " not in said
    whole = " ".join(e.text.replace("Player 1", "Ann") for e in long)
    assert whole.startswith(said[:-2]) and whole[len(said) - 2] == " " and said.count("Completed city") >= 3
